#!/usr/bin/env python3
"""Writes docs/performance.md (and its charts) from the committed runs docs/performance_sources.json
lists: for each run, each kspmv implementation and each call kind (precision, operation), kspmv's
speedup over the best baseline of the same run on every matrix (the baseline's time per call over
kspmv's; > 1: kspmv is faster), summarised as a geometric mean with its range, generated and real
matrices apart.

  perf_tests/performance_page.py [--sources docs/performance_sources.json] [--output docs/performance.md]
                                 [--check]

--check writes nothing: it exits 1 when the page's text is not what the sources give (a run added to
the sources, or the page edited by hand, without regenerating).

A row's baseline is, matrix by matrix, the fastest record of another backend (cuSPARSE's algorithms,
Kokkos Kernels' kernels) in the same precision and operation. Charts need matplotlib; without it the
page is written without them, and says so.
"""

import argparse
import collections
import csv
import json
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.dirname(HERE)
# The generated families (testing/matrices): every other matrix is a real one read from a file.
GENERATED = re.compile(r"^(stencil27|uniform|powerlaw|shortrows|fewdense)_")
KSPMV = "kspmv"


def read_records(path):
    """{(precision, operation): {matrix: {implementation: seconds per call}}} of a run.csv; records
    without a time (wrong results) are left out."""
    table = collections.defaultdict(lambda: collections.defaultdict(dict))
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if not row["seconds_per_call"]:
                continue
            implementation = row["backend"] + "/" + row["algorithm"]
            table[(row["precision"], row["operation"])][row["matrix"]][implementation] = float(
                row["seconds_per_call"])
    return table


def geometric_mean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def speedups(by_matrix, implementation):
    """{matrix: (speedup, best baseline's name)} for one kspmv implementation."""
    result = {}
    for matrix, times in by_matrix.items():
        baselines = {name: t for name, t in times.items() if not name.startswith(KSPMV + "/")}
        if implementation not in times or not baselines:
            continue
        best = min(baselines, key=baselines.get)
        result[matrix] = (baselines[best] / times[implementation], best)
    return result


def summarise(run):
    """The page's rows for one run: (implementation, precision, operation, kind, count, geometric
    mean, least, most, baselines that were best)."""
    rows = []
    for (precision, operation), by_matrix in sorted(read_records(run["path"]).items()):
        implementations = sorted({name for times in by_matrix.values() for name in times
                                  if name.startswith(KSPMV + "/")})
        for implementation in implementations:
            ratios = speedups(by_matrix, implementation)
            for kind in ("generated", "real"):
                chosen = {m: r for m, r in ratios.items()
                          if bool(GENERATED.match(m)) == (kind == "generated")}
                if not chosen:
                    continue
                values = [r for r, _ in chosen.values()]
                best = sorted({b for _, b in chosen.values()})
                rows.append((implementation, precision, operation, kind, len(values),
                             geometric_mean(values), min(values), max(values), best))
    return rows


def chart(run, path):
    """Per-matrix speedup of kspmv/Auto in the run's first operation, in fp64 where the run has
    it; False without matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    table = read_records(run["path"])
    (precision, operation), by_matrix = sorted(table.items(),
                                               key=lambda item: (item[0][0] != "fp64", item[0]))[0]
    ratios = speedups(by_matrix, KSPMV + "/Auto")
    matrices = sorted(ratios, key=lambda m: (not GENERATED.match(m), ratios[m][0]))
    figure, axes = plt.subplots(figsize=(8, 0.28 * len(matrices) + 1.4))
    values = [ratios[m][0] for m in matrices]
    colours = ["tab:blue" if GENERATED.match(m) else "tab:orange" for m in matrices]
    axes.barh(range(len(matrices)), values, color=colours, left=0)
    axes.axvline(1.0, color="black", linewidth=1)
    axes.set_yticks(range(len(matrices)))
    axes.set_yticklabels(matrices, fontsize=8)
    axes.set_xlabel("speedup of kspmv Auto over the best baseline (x)")
    axes.set_title(f"{run['device']}, {precision}, operation {operation} "
                   f"(blue: generated, orange: real)", fontsize=9)
    axes.grid(axis="x", alpha=0.3)
    figure.savefig(path, bbox_inches="tight", dpi=110)
    plt.close(figure)
    return True


def operation_text(operation):
    """A record's operation (perf_tests/README.md: N, T, N_beta1, N_nohandle, N_k8_left, ...) as
    the call it stands for."""
    several = re.match(r"^N_k(\d+)_(left|right)$", operation)
    if several:
        return f"Y = A*X, {several.group(1)} vectors, Layout{several.group(2).capitalize()}"
    return {"N": "y = A*x", "T": "y = A^T*x", "H": "y = A^H*x", "N_nohandle": "y = A*x, no handle",
            "N_beta1": "y = A*x + y"}.get(operation, operation)


def render(sources, rows_by_run, charts):
    lines = ["# kspmv performance", "",
             "Generated by `perf_tests/performance_page.py` from the runs `docs/performance_sources.json` "
             "lists; do not edit by hand.", "",
             "Speedup: the time per call of the best baseline of the same run (the faster of cuSPARSE's "
             "algorithms and, where the run has them, Kokkos Kernels' kernels), matrix by matrix, over "
             "kspmv's; > 1: kspmv is faster. Geometric mean over the matrices (least - most).", ""]
    for run, rows in zip(sources, rows_by_run):
        lines += [f"## {run['device']}: `{os.path.basename(run['file'])}`", "",
                  f"{run['driver']}, commit {run['commit']}, {run['date']}.", "",
                  "| kspmv | precision | call | matrices | speedup | least - most | best baseline |",
                  "|---|---|---|---|--:|--:|---|"]
        for implementation, precision, operation, kind, count, mean, least, most, best in rows:
            lines.append(f"| {implementation.split('/', 1)[1]} | {precision} | "
                         f"{operation_text(operation)} | {count} {kind} | {mean:.2f}x | "
                         f"{least:.2f} - {most:.2f} | {', '.join(best)} |")
        chart_file = charts.get(run["file"])
        lines.append("")
        if chart_file:
            lines += [f"![per-matrix speedup]({chart_file})", ""]
    if not charts:
        lines += ["(No charts: matplotlib was missing when the page was generated.)", ""]
    return "\n".join(lines)


def check(output, sources, rows_by_run, chart_dir):
    """0 when the page at `output` is the one the sources give (with the charts it links)."""
    charts = {}
    for run in sources:
        name = os.path.splitext(os.path.basename(run["file"]))[0] + ".png"
        if os.path.exists(os.path.join(chart_dir, name)):
            charts[run["file"]] = os.path.basename(chart_dir) + "/" + name
    with open(output) as f:
        current = f.read()
    if current == render(sources, rows_by_run, charts) + "\n":
        print(f"performance_page: {output} is current")
        return 0
    print(f"performance_page: {output} is not what its sources give: run "
          f"perf_tests/performance_page.py and commit the page")
    return 1


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sources", default=os.path.join(REPOSITORY, "docs",
                                                          "performance_sources.json"))
    parser.add_argument("--output", default=os.path.join(REPOSITORY, "docs", "performance.md"))
    parser.add_argument("--check", action="store_true")
    arguments = parser.parse_args(argv)
    with open(arguments.sources) as f:
        sources = json.load(f)["runs"]
    base = os.path.dirname(os.path.dirname(os.path.abspath(arguments.sources)))
    for run in sources:
        run["path"] = os.path.join(base, run["file"])
    rows_by_run = [summarise(run) for run in sources]
    chart_dir = os.path.splitext(arguments.output)[0]
    if arguments.check:
        return check(arguments.output, sources, rows_by_run, chart_dir)
    charts = {}
    for run in sources:
        name = os.path.splitext(os.path.basename(run["file"]))[0] + ".png"
        os.makedirs(chart_dir, exist_ok=True)
        if chart(run, os.path.join(chart_dir, name)):
            charts[run["file"]] = os.path.basename(chart_dir) + "/" + name
    with open(arguments.output, "w") as f:
        f.write(render(sources, rows_by_run, charts) + "\n")
    print(f"performance_page: wrote {arguments.output} ({sum(map(len, rows_by_run))} rows, "
          f"{len(charts)} charts)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
