#!/usr/bin/env python3
"""Charts of a benchmark run: a roofline chart of one run, a trend chart of the history that
gate.py and nightly.py append to, each as PNG and SVG, and an index.html linking them. Records
without a time (wrong results) are left out of every chart and mean.

    python3 plots.py --run run.json [--history history.jsonl] --output-dir DIR

Needs matplotlib (Debian: apt-get install python3-matplotlib); exits 77 without it.
"""

import argparse
import html
import json
import math
import os
import sys

import perf_json

MISSING_MATPLOTLIB = 77  # ctest's conventional "skipped" status


def geometric_mean(values):
    values = [v for v in values if v and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def implementation(record):
    return f"{record['backend']}/{record['algorithm']}"


def measured(run):
    return [r for r in run["records"] if r["correct"] and r["seconds_per_call"]]


def fewer_bytes_read(records):
    """(record, intensity by the bytes it actually reads) for the records whose implementation
    reads fewer bytes than the byte model counts (a plan's compressed columns)."""
    return [(r, r["arithmetic_intensity"] * r["compulsory_bytes"] / r["read_bytes"])
            for r in records
            if r.get("read_bytes") and r["read_bytes"] < r["compulsory_bytes"]]


def roofline_chart(plt, run, stem):
    bandwidth = run["bandwidth"]["gb_per_s"]
    records = measured(run)
    fig, ax = plt.subplots(figsize=(9, 6))
    labels = sorted({implementation(r) for r in records})
    colours = plt.get_cmap("tab10")
    for i, label in enumerate(labels):
        for precision, marker in (("fp64", "o"), ("fp32", "^"), ("c128", "s"), ("c64", "D"),
                                  ("fp32_fp64", "v")):
            points = [r for r in records
                      if implementation(r) == label and r["precision"] == precision]
            for resident in (False, True):
                chosen = [r for r in points if r["cache_resident"] == resident]
                if not chosen:
                    continue
                colour = colours(i % 10)
                ax.scatter([r["arithmetic_intensity"] for r in chosen],
                           [r["gflop_per_s"] for r in chosen], marker=marker, s=36,
                           facecolors="none" if resident else colour, edgecolors=colour,
                           label=f"{label} {precision}" + (" (cache-resident)" if resident else ""))
    shifted = fewer_bytes_read(records)
    for r, intensity in shifted:
        ax.annotate("", xy=(intensity, r["gflop_per_s"]),
                    xytext=(r["arithmetic_intensity"], r["gflop_per_s"]),
                    arrowprops={"arrowstyle": "->", "color": "grey", "linewidth": 0.8})
    if shifted:
        ax.plot([], [], color="grey", linewidth=0.8,
                label="arrow: the same call by the bytes it actually reads")
    intensities = [r["arithmetic_intensity"] for r in records] or [0.1]
    intensities += [intensity for _, intensity in shifted]
    x = [min(intensities) / 1.5, max(intensities) * 1.5]
    ax.plot(x, [bandwidth * v for v in x], "k-", linewidth=1.5,
            label=f"measured copy bandwidth {bandwidth:.1f} GB/s")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity (flop per compulsory byte)")
    ax.set_ylabel("GFLOP/s")
    ax.set_title(f"kspmv roofline, {run['suite']} suite: {run['device']['name']} "
                 f"({run['device']['execution_space']})\n{run['started_utc']}, "
                 f"commit {run['git_commit']}; hollow points fit in the last-level cache; arrows "
                 f"point to the intensity by the bytes read (compressed columns)",
                 fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
    return save(plt, fig, stem)


def trend_chart(plt, history, stem):
    fig, ax = plt.subplots(figsize=(9, 5))

    def series_of(key):  # backend/algorithm/precision
        return key.split("/", 1)[1]

    def fractions(entry, name):  # {record key: roofline fraction} of one series in one run
        return {k: r["roofline_fraction"] for k, r in entry["records"].items()
                if series_of(k) == name and r["roofline_fraction"]}

    for name in sorted({series_of(key) for entry in history for key in entry["records"]}):
        # A gated run holds the gated records only: each series is drawn over the runs that
        # measured it, on the matrices all of those measured, so that a mean never moves
        # because the set of matrices changed.
        runs = [(i, fractions(entry, name)) for i, entry in enumerate(history)]
        runs = [(i, f) for i, f in runs if f]
        keys = set.intersection(*(set(f) for _, f in runs)) if runs else set()
        if not keys:
            continue  # no matrix that every run of the series measured with a time
        ax.plot([i for i, _ in runs], [geometric_mean([f[k] for k in keys]) for _, f in runs],
                marker="o", label=f"{name} ({len(keys)} matrices)")
    ax.set_ylim(bottom=0)
    ax.set_xticks(range(len(history)))
    ax.set_xticklabels([f"{e['started_utc'][:16]}\n{e['git_commit'][:8]}" for e in history],
                       rotation=45, ha="right", fontsize=7)
    ax.set_ylabel("roofline fraction, geometric mean over matrices")
    devices = sorted({e["device"] for e in history})
    ax.set_title(f"kspmv roofline fraction per run ({', '.join(devices)})", fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
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
    groups = {}
    for r in measured(run):
        groups.setdefault((implementation(r), r["precision"]), []).append(r)
    rows = []
    for (label, precision), records in sorted(groups.items()):
        ratios = {}
        for r in records:
            for baseline, ratio in r["speedup_vs"].items():
                ratios.setdefault(baseline, []).append(ratio)
        speedups = ", ".join(f"{geometric_mean(v):.2f}x {b}" for b, v in sorted(ratios.items()))
        rows.append((label, precision, len(records),
                     geometric_mean([r["roofline_fraction"] for r in records]),
                     geometric_mean([r["read_roofline_fraction"] for r in records]), speedups))
    return rows


def problems(run):
    """Paragraphs on records without figures: wrong results and skipped matrices."""
    e = html.escape
    lines = [f"<p><b>Wrong result</b>: {e(r['key'])}: {e(r['error_detail'])}</p>"
             for r in run["records"] if not r["correct"]]
    if run["skipped"]:
        skipped = "; ".join(f"{e(s['matrix'])} ({e(s['reason'])})" for s in run["skipped"])
        lines.append(f"<p>Skipped: {skipped}</p>")
    return lines


def write_index(path, run, charts):
    e = html.escape
    lines = ["<!DOCTYPE html>", "<html><head><meta charset=\"utf-8\"><title>kspmv performance"
             "</title></head><body>",
             f"<h1>kspmv performance: {e(run['suite'])} suite</h1>",
             f"<p>{e(run['device']['name'])} ({e(run['device']['execution_space'])}), "
             f"{e(run['compiler'])}, {e(run['kokkos_version'])}, commit {e(run['git_commit'])}, "
             f"{e(run['started_utc'])}. Measured copy bandwidth "
             f"{run['bandwidth']['gb_per_s']:.1f} GB/s.</p>",
             *problems(run),
             "<table border=\"1\" cellpadding=\"4\"><tr><th>implementation</th><th>precision</th>"
             "<th>records</th><th>roofline fraction (geomean)</th>"
             "<th>by the bytes read (geomean)</th><th>speedup (geomean)</th></tr>"]
    for label, precision, n, fraction, read_fraction, speedups in summary_rows(run):
        lines.append(f"<tr><td>{e(label)}</td><td>{precision}</td><td>{n}</td>"
                     f"<td>{fraction:.3f}</td><td>{read_fraction:.3f}</td><td>{e(speedups)}</td></tr>")
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
    except ImportError:
        print("plots: matplotlib is missing (Debian: apt-get install python3-matplotlib)",
              file=sys.stderr)
        return MISSING_MATPLOTLIB

    try:
        run = perf_json.load_run(args.run)
    except (OSError, perf_json.SchemaError) as e:
        print(f"plots: {e}", file=sys.stderr)
        return 2
    os.makedirs(args.output_dir, exist_ok=True)
    charts = [("Roofline", roofline_chart(plt, run, os.path.join(args.output_dir, "roofline")))]
    if args.history and os.path.exists(args.history):
        history = read_history(args.history)
        if history:
            charts.append(("Trend", trend_chart(plt, history,
                                                os.path.join(args.output_dir, "trend"))))
    index = os.path.join(args.output_dir, "index.html")
    write_index(index, run, charts)
    print(f"plots: wrote {', '.join(f for _, files in charts for f in files)} and {index} "
          f"in {args.output_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
