#!/usr/bin/env python3
"""Charts of a benchmark run, each as PNG and SVG, and an index.html with the run's summary table
(summary.py) and the charts:

- speedup: per matrix, kspmv/Auto's speedup over each baseline in operations N and T (the first
  of fp64, fp32 the run has), with the range over the repetitions; a pair that runs the same
  kernel, or a baseline known to be wrong, is said in words instead of a bar;
- roofline: GFLOP/s against arithmetic intensity for y = A x, a panel per precision, a colour per
  family (kspmv/Auto, and each baseline library's fastest algorithm), matrices numbered;
- trend: with more than one run in the history, the geometric-mean roofline fraction of kspmv/Auto
  and of each baseline per run, over the records all of them timed, and kspmv/Auto's fraction in
  the bytes its plan's form reads (dashed; compressed columns read fewer bytes than the CSR count).

Records without a time (wrong results) are left out of every chart and mean.

    python3 plots.py --run run.json [--history history.jsonl] --output-dir DIR

Needs matplotlib (Debian: apt-get install python3-matplotlib, for /usr/bin/python3); exits 77
without it.
"""

import argparse
import html
import json
import math
import os
import platform
import sys

import perf_json
import summary

MISSING_MATPLOTLIB = 77  # ctest's conventional "skipped" status
MAIN_OPERATION = "N"
SPEEDUP_OPERATIONS = ("N", "T")
FAMILY_COLOURS = {"kspmv": "tab:blue", "KokkosKernels": "tab:orange", "cuSPARSE": "tab:green"}
OTHER_COLOUR = "tab:grey"
MAX_TREND_LABELS = 12
SPEEDUP_TICKS = (0.1, 0.2, 0.3, 0.5, 1, 1.5, 2, 3, 5, 10, 20, 50)


def measured(run):
    return [r for r in run["records"] if r["correct"] and r["seconds_per_call"]]


def fewer_bytes_read(records):
    """(record, intensity by the bytes it actually reads) for the records whose implementation
    reads fewer bytes than the byte model counts (a plan's compressed columns)."""
    return [(r, r["arithmetic_intensity"] * r["compulsory_bytes"] / r["read_bytes"])
            for r in records
            if r.get("read_bytes") and r["read_bytes"] < r["compulsory_bytes"]]


def plain_number(value, _position):
    """A log axis's tick label: 0.2 rather than 2 x 10^-1, and only ticks of 1, 2, 3 and 5 so that
    the labels of a wide axis do not run into each other."""
    return f"{value:g}" if f"{value:e}"[0] in "1235" else ""


def family_label(family, records):
    """A family's legend entry: its one implementation, or which it is the fastest of."""
    algorithms = sorted({r["algorithm"] for r in records})
    if family == perf_json.KSPMV_BACKEND or len(algorithms) == 1:
        return f"{family}/{algorithms[0]}"
    return f"{family} (fastest of {', '.join(algorithms)})"


def roofline_points(run, precision):
    """{family: [record]} of one precision's main operation: kspmv/Auto's records, and per
    matrix each baseline family's fastest record (run.csv has every algorithm)."""
    fastest = {}
    for r in measured(run):
        if (r["operation"] != MAIN_OPERATION or r["precision"] != precision
                or (r["backend"] == perf_json.KSPMV_BACKEND and r["algorithm"] != "Auto")):
            continue
        key = (r["backend"], r["matrix"])
        if key not in fastest or r["seconds_per_call"] < fastest[key]["seconds_per_call"]:
            fastest[key] = r
    families = {}
    for (family, _), r in fastest.items():
        families.setdefault(family, []).append(r)
    return families


def roofline_panel(ax, run, precision, numbers):
    """One precision's roofline: a colour per family, hollow points within the last-level cache,
    kspmv's points numbered by matrix."""
    bandwidth = run["bandwidth"]["gb_per_s"]
    families = roofline_points(run, precision)
    intensities = [r["arithmetic_intensity"] for rs in families.values() for r in rs] or [0.1]
    for family, records in families.items():
        colour = FAMILY_COLOURS.get(family, OTHER_COLOUR)
        resident = [r["cache_resident"] for r in records]
        ax.scatter([r["arithmetic_intensity"] for r in records],
                   [r["gflop_per_s"] for r in records], s=40, zorder=3,
                   marker="o" if family == perf_json.KSPMV_BACKEND else "s",
                   facecolors=["none" if c else colour for c in resident], edgecolors=colour,
                   label=family_label(family, records))
    for r in families.get(perf_json.KSPMV_BACKEND, []):
        ax.annotate(str(numbers[r["matrix"]]), (r["arithmetic_intensity"], r["gflop_per_s"]),
                    xytext=(5, 3), textcoords="offset points", fontsize=8,
                    color=FAMILY_COLOURS["kspmv"])
    shifted = fewer_bytes_read(families.get(perf_json.KSPMV_BACKEND, []))
    for r, intensity in shifted:
        ax.annotate("", xy=(intensity, r["gflop_per_s"]),
                    xytext=(r["arithmetic_intensity"], r["gflop_per_s"]),
                    arrowprops={"arrowstyle": "->", "color": "grey", "linewidth": 0.8})
        intensities.append(intensity)
    if shifted:
        ax.plot([], [], color="grey", linewidth=0.8,
                label="arrow: the intensity by the bytes read")
    x = [min(intensities) / 1.5, max(intensities) * 1.5]
    ax.plot(x, [bandwidth * v for v in x], "k-", linewidth=1.5,
            label=f"copy bandwidth {bandwidth:.1f} GB/s")
    ax.scatter([], [], s=40, facecolors="none", edgecolors="grey",
               label="hollow: fits in the last-level cache")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(*x)
    for axis in (ax.xaxis, ax.yaxis):  # plain numbers, not powers of ten
        axis.set_major_formatter(plain_number)
        axis.set_minor_formatter(plain_number)
    ax.set_title(precision)
    ax.set_xlabel("arithmetic intensity (flop per byte of the byte model)")
    ax.grid(True, which="both", alpha=0.3)


def roofline_chart(plt, run, stem):
    precisions = summary.shown({r["precision"] for r in measured(run)}, summary.PRECISIONS)
    fig, axes = plt.subplots(1, len(precisions), figsize=(6.5 * len(precisions), 5.5),
                             sharey=True, squeeze=False)
    matrices = list(dict.fromkeys(r["matrix"] for r in measured(run)
                                  if r["operation"] == MAIN_OPERATION))
    numbers = {m: i + 1 for i, m in enumerate(matrices)}
    for ax, precision in zip(axes[0], precisions):
        roofline_panel(ax, run, precision, numbers)
    axes[0][0].set_ylabel("GFLOP/s")
    axes[0][0].legend(fontsize=8, loc="upper left")
    fig.legend(handles=[plt.Line2D([], [], linestyle="none")] * len(matrices),
               labels=[f"{n}  {m}" for m, n in numbers.items()], title="matrices",
               loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=min(4, len(matrices)),
               fontsize=9, handlelength=0, frameon=False)
    fig.suptitle(f"kspmv roofline, y = A x: {run['suite']} suite on {run['device']['name']} "
                 f"({run['device']['execution_space']}), commit {run['git_commit']}, "
                 f"{run['started_utc']}", fontsize=10)
    fig.tight_layout()
    return save(plt, fig, stem)


def speedup_panel(ax, rows, colours):
    """Horizontal bars of one operation and precision: a group per matrix, a bar per baseline;
    a comparison that is not a speedup is said in words where its bar would be."""
    height = 0.8 / len(colours)
    for i, row in enumerate(rows):
        for j, (baseline, colour) in enumerate(colours.items()):
            y = i - 0.4 + height * (j + 0.5)
            c = row.comparisons.get(baseline)
            if c is None:
                continue
            if c.status == "speedup":
                # From 1, so that a slower kspmv is a bar to the left.
                ax.barh(y, c.ratio - 1, left=1, height=height * 0.9, color=colour,
                        xerr=[[c.ratio - c.low], [c.high - c.ratio]], capsize=2,
                        error_kw={"linewidth": 0.8})
            else:
                ax.text(1.03, y, f"{baseline}: {summary.speedup_cell(c)}", va="center",
                        fontsize=7, color=colour)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([row.matrix for row in rows])
    ax.set_ylim(len(rows) - 0.5, -0.5)  # the drivers' order, top down
    ax.axvline(1.0, color="black", linewidth=1)
    ax.set_xscale("log")
    ax.grid(True, axis="x", which="both", alpha=0.3)


def speedup_chart(plt, run, stem):
    rows = summary.table_rows(run)[0]
    precision = rows[0].precision if rows else summary.PRECISIONS[0]
    panels = [(op, [r for r in rows if r.operation == op and r.precision == precision])
              for op in SPEEDUP_OPERATIONS]
    panels = [(op, chosen) for op, chosen in panels if chosen] or [(MAIN_OPERATION, [])]
    baselines = dict.fromkeys(b for _, chosen in panels for r in chosen for b in r.comparisons)
    # A run without baselines gets empty panels.
    colours = {b: plt.get_cmap("tab10")(i % 10) for i, b in enumerate(baselines)} or {"": "k"}
    matrices = max(len(chosen) for _, chosen in panels)
    fig, axes = plt.subplots(1, len(panels), figsize=(max(8, 6 * len(panels)),
                                                      2 + 0.3 * matrices * len(colours)),
                             sharey=True, squeeze=False)
    ratios = [v for _, chosen in panels for r in chosen for c in r.comparisons.values()
              if c.status == "speedup" for v in (c.low, c.high)]
    low, high = min(ratios + [0.5]) / 1.2, max(ratios + [2.0]) * 1.2
    for ax, (operation, chosen) in zip(axes[0], panels):
        speedup_panel(ax, chosen, colours)
        ax.set_xlim(low, high)
        ax.set_xticks([t for t in SPEEDUP_TICKS if low <= t <= high])
        ax.set_xticks([], minor=True)
        ax.xaxis.set_major_formatter(plain_number)
        ax.set_title(f"operation {operation}, {precision}")
        ax.set_xlabel("speedup of kspmv Auto (x)")
    if ratios:  # bars to tell apart; words name their baseline
        fig.legend(handles=[plt.Rectangle((0, 0), 1, 1, color=c) for c in colours.values()],
                   labels=[f"over {b}" for b in colours], loc="upper center",
                   bbox_to_anchor=(0.5, 0.0), ncol=min(4, len(colours)), fontsize=9,
                   frameon=False)
    fig.suptitle(f"kspmv/Auto against the baselines: {run['suite']} suite on "
                 f"{run['device']['name']} ({run['device']['execution_space']})\nbar: the "
                 f"baseline's median time over kspmv's; whiskers: the lowest and highest ratio "
                 f"of one repetition of each", fontsize=10)
    fig.tight_layout()
    return save(plt, fig, stem)


BYTES_READ = " (bytes read)"


def trend_fractions(history):
    """{series: {run index: {(matrix, precision, operation): fraction of the copy bandwidth}}}:
    kspmv/Auto and the baselines by the byte model (A's CSR arrays), and kspmv/Auto by the bytes
    its plan's form reads ("kspmv/Auto (bytes read)", from the runs whose history has them)."""
    fractions = {}
    for i, entry in enumerate(history):
        for key, record in entry["records"].items():
            matrix, backend, algorithm, precision, operation = perf_json.split_key(key)
            name = f"{backend}/{algorithm}"
            if name != summary.AUTO and backend == perf_json.KSPMV_BACKEND:
                continue
            series = [(name, record["roofline_fraction"])]
            if name == summary.AUTO:
                series.append((name + BYTES_READ, record.get("read_roofline_fraction")))
            for label, fraction in series:
                if fraction:
                    runs = fractions.setdefault(label, {})
                    runs.setdefault(i, {})[matrix, precision, operation] = fraction
    return fractions


def trend_series(history):
    """({implementation: ([run index], [geometric-mean roofline fraction])}, the number of
    records each mean is over): the records that every run of every series measured, so that
    the series compare like with like and a mean never moves because the set of records changed
    (a gated run holds kspmv's records only)."""
    fractions = trend_fractions(history)
    measured_sets = [set(f) for runs in fractions.values() for f in runs.values()]
    common = set.intersection(*measured_sets) if measured_sets else set()
    if not common:
        return {}, 0
    auto = [n for n in (summary.AUTO, summary.AUTO + BYTES_READ) if n in fractions]
    names = auto + sorted(n for n in fractions if n not in auto)
    return {name: (list(fractions[name]),
                   [perf_json.geometric_mean([f[k] for k in common])
                    for f in fractions[name].values()])
            for name in names}, len(common)


def trend_chart(plt, history, stem):
    fig, ax = plt.subplots(figsize=(9, 4.5))
    series, records = trend_series(history)
    for name, (runs, means) in series.items():
        ax.plot(runs, means, marker="o", color=FAMILY_COLOURS.get(name.split("/")[0]),
                linestyle="--" if name.endswith(BYTES_READ) else "-", label=name)
    step = max(1, math.ceil(len(history) / MAX_TREND_LABELS))  # a readable axis
    ticks = list(range(0, len(history), step))
    ax.set_xticks(ticks)
    ax.set_xticklabels([f"{history[i]['started_utc'][:16].replace('T', ' ')}\n"
                        f"{history[i]['git_commit'][:8]}" for i in ticks], fontsize=8)
    ax.set_xlabel("run (date, commit)")
    ax.set_ylim(bottom=0)
    ax.set_ylabel(f"roofline fraction, geometric mean\nover the same {records} records")
    devices = sorted({e["device"] for e in history})
    ax.set_title(f"kspmv roofline fraction per run ({', '.join(devices)})", fontsize=10)
    ax.grid(True, alpha=0.3)
    if series:
        ax.legend(fontsize=8, loc="lower left")
    fig.tight_layout()
    return save(plt, fig, stem)


def save(plt, fig, stem):
    files = []
    for extension in ("png", "svg"):
        path = f"{stem}.{extension}"
        fig.savefig(path, dpi=120, bbox_inches="tight")
        files.append(os.path.basename(path))
    plt.close(fig)
    return files


def summary_rows(run):
    """(implementation, precision, records, geometric-mean roofline fraction by the byte model,
    the same by the bytes read) per implementation and precision."""
    groups = {}
    for r in measured(run):
        groups.setdefault((summary.implementation(r), r["precision"]), []).append(r)
    return [(label, precision, len(records),
             perf_json.geometric_mean([r["roofline_fraction"] for r in records]),
             perf_json.geometric_mean([r["read_roofline_fraction"] for r in records]))
            for (label, precision), records in sorted(groups.items())]


def write_index(path, run, charts):
    e = html.escape
    lines = ["<!DOCTYPE html>", "<html><head><meta charset=\"utf-8\"><title>kspmv performance"
             "</title></head><body>",
             f"<h1>kspmv performance: {e(run['suite'])} suite</h1>",
             *summary.render_html(summary.summarize(run)),
             "<h2>Roofline fraction per implementation</h2>",
             "<table border=\"1\" cellpadding=\"4\"><tr><th>implementation</th><th>precision</th>"
             "<th>records</th><th>roofline fraction (geomean)</th>"
             "<th>by the bytes read (geomean)</th></tr>"]
    for label, precision, n, fraction, read_fraction in summary_rows(run):
        lines.append(f"<tr><td>{e(label)}</td><td>{precision}</td><td>{n}</td>"
                     f"<td>{fraction:.3f}</td><td>{read_fraction:.3f}</td></tr>")
    lines.append("</table>")
    for title, files in charts:
        png, svg = files
        lines.append(f"<h2>{e(title)}</h2><p><a href=\"{png}\">PNG</a> | "
                     f"<a href=\"{svg}\">SVG</a></p><img src=\"{png}\" alt=\"{e(title)}\">")
    lines.append("</body></html>")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def read_history(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--run", required=True, help="a driver's run.json")
    parser.add_argument("--history", help="the JSON-lines history gate.py and nightly.py append "
                        "to")
    parser.add_argument("--output-dir", required=True)
    args = parser.parse_args(argv)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        plt.rcParams["svg.fonttype"] = "none"  # text stays text: searchable, and smaller
    except ImportError:
        print(f"plots: matplotlib is missing for {sys.executable} (Python "
              f"{platform.python_version()}): {sys.executable} -m pip install matplotlib, or "
              f"apt-get install python3-matplotlib for /usr/bin/python3", file=sys.stderr)
        return MISSING_MATPLOTLIB

    try:
        run = perf_json.load_run(args.run)
    except (OSError, perf_json.SchemaError) as e:
        print(f"plots: {e}", file=sys.stderr)
        return 2
    os.makedirs(args.output_dir, exist_ok=True)
    out = args.output_dir
    charts = [("Speedup of kspmv/Auto per matrix", speedup_chart(plt, run, f"{out}/speedup")),
              ("Roofline", roofline_chart(plt, run, f"{out}/roofline"))]
    history = read_history(args.history) if args.history and os.path.exists(args.history) else []
    if len(history) > 1:  # one run is no trend
        charts.append(("Trend", trend_chart(plt, history, f"{out}/trend")))
    index = os.path.join(args.output_dir, "index.html")
    write_index(index, run, charts)
    print(f"plots: wrote {', '.join(f for _, files in charts for f in files)} and {index} "
          f"in {args.output_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
