#!/usr/bin/env python3
"""The summary of a run: one table of kspmv/Auto against each baseline, a row per matrix,
operation and precision (time per call and, with the run's launch floor, the time above it; speedup
with its range over the repetitions; roofline fraction), Auto's mean and least speedup by set of
matrices (generated, real, held out: matrix_sets.py) and its mean by the kernel it chose,
and the notes a reader needs beside it: a baseline's known bug in one line, every other wrong
result loudly, the skipped matrices. nightly.py prints it and writes DIR/summary.txt; plots.py puts
it in index.html.

    python3 summary.py run.json
"""

import dataclasses
import html
import re
import sys
import textwrap

import perf_json
from matrix_sets import SETS, matrix_set

AUTO = "kspmv/Auto"
# What the table shows of a run; run.csv has every record. Every matrix with these is about ten
# rows, which keeps the quick suite's table on a screen or two.
PRECISIONS = ("fp64", "fp32")
OPERATIONS = ("N", "T", "N_beta1", "N_nohandle", "T_nohandle", "N_k8_left")
# The Kokkos Kernels baselines that run the kernel kspmv calls off CUDA: KokkosSparse::spmv's
# default path (Kokkos Kernels < 4.3), and its native kernel forced (>= 4.3), which the default
# path takes there. native_merge_path is another kernel.
SAME_KERNEL_BASELINES = ("KokkosKernels/default", "KokkosKernels/native")
TEXT_WIDTH = 100  # the header and notes; the table's rows are as wide as their cells


@dataclasses.dataclass
class Comparison:
    """kspmv/Auto against one baseline in one row. status: speedup, same kernel, known bug
    (the baseline's), wrong (the baseline's), none (kspmv's record is wrong)."""
    baseline: str
    status: str
    seconds: float | None = None
    ratio: float | None = None  # the baseline's median time over kspmv's: > 1, kspmv is faster
    low: float | None = None
    high: float | None = None


@dataclasses.dataclass
class Row:
    matrix: str
    operation: str
    precision: str
    auto: dict
    comparisons: dict  # baseline -> Comparison, for the baselines measured beside this record


@dataclasses.dataclass
class Summary:
    header: list
    baselines: list
    rows: list
    notes: list  # known bugs and skipped matrices, one line each
    wrong: list  # every other wrong result, one line each
    launch_floor: float | None = None  # seconds a call of the driver's empty kernel; None: not run
    by_choice: list = dataclasses.field(default_factory=list)  # see choice_lines()
    by_set: list = dataclasses.field(default_factory=list)  # see set_lines()


def implementation(record):
    return f"{record['backend']}/{record['algorithm']}"


def kokkos_kernels_major(run):
    match = re.search(r"Kokkos Kernels (\d+)", run["kokkos_version"])
    return int(match.group(1)) if match else None


def known_bug(run, record):
    """The known library bug a wrong record shows, in one sentence; None for any other wrong
    result. Kokkos Kernels 3.x computes modes T and H with beta = 0 as y = 0 * y + A^T x, so the
    NaN the harness puts in y (a call with beta = 0 must overwrite it) stays NaN."""
    major = kokkos_kernels_major(run)
    if (record["backend"] == "KokkosKernels" and major is not None and major < 4
            and record["mode"] in ("T", "H") and "_beta" not in record["operation"]
            and re.search(r"= \(?nan\b", record["error_detail"])):
        return (f"{implementation(record)} (Kokkos Kernels {major}.x) keeps NaN from y in modes "
                f"T and H when beta = 0 (its transposed kernel scales y by multiplication)")
    return None


def same_kernel(run, auto, baseline):
    """Whether kspmv/Auto ran the baseline's own kernel, so that their ratio is noise. Off CUDA
    kspmv calls KokkosSparse::spmv's default path, Kokkos Kernels' native kernel there. On CUDA
    Auto may choose that path, where the default may hand the work to cuSPARSE: only the
    `default` baseline runs the same."""
    name = implementation(baseline)
    if run["device"]["execution_space"].lower() != "cuda":
        return name in SAME_KERNEL_BASELINES
    return name == "KokkosKernels/default" and auto["chosen_algorithm"] == "KokkosKernels"


def speedup(auto, baseline):
    """(the baseline's median time over kspmv's, the lowest and the highest ratio of one
    repetition of each): the repetitions ran interleaved at random, so any pair is as fair as
    another."""
    a, b = auto["repetition_seconds_per_call"], baseline["repetition_seconds_per_call"]
    return (baseline["seconds_per_call"] / auto["seconds_per_call"], min(b) / max(a),
            max(b) / min(a))


def compare(run, auto, baseline):
    name = implementation(baseline)
    if not baseline["correct"]:
        return Comparison(name, "known bug" if known_bug(run, baseline) else "wrong")
    if not auto["correct"]:
        return Comparison(name, "none", baseline["seconds_per_call"])
    if same_kernel(run, auto, baseline):
        return Comparison(name, "same kernel", baseline["seconds_per_call"])
    return Comparison(name, "speedup", baseline["seconds_per_call"], *speedup(auto, baseline))


def shown(present, preferred):
    """The preferred values the run has, in that order; all it has when it has none of them."""
    return [v for v in preferred if v in present] or sorted(present)


def table_rows(run):
    """(the rows, the precisions and the operations they show)."""
    records = run["records"]
    autos = [r for r in records if implementation(r) == AUTO]
    precisions = shown({r["precision"] for r in autos}, PRECISIONS)
    operations = shown({r["operation"] for r in autos}, OPERATIONS)
    baselines = {}
    for r in records:
        if r["backend"] != perf_json.KSPMV_BACKEND:
            baselines.setdefault((r["matrix"], r["precision"], r["operation"]), []).append(r)
    matrices = list(dict.fromkeys(r["matrix"] for r in autos))  # the drivers' order
    by_key = {(r["matrix"], r["operation"], r["precision"]): r for r in autos}
    rows = []
    for matrix in matrices:
        for operation in operations:
            for precision in precisions:
                auto = by_key.get((matrix, operation, precision))
                if auto:
                    comparisons = {implementation(b): compare(run, auto, b)
                                   for b in baselines.get((matrix, precision, operation), [])}
                    rows.append(Row(matrix, operation, precision, auto, comparisons))
    return rows, precisions, operations


def choice_lines(rows):
    """One line per precision, operation and baseline: kspmv/Auto's geometric mean speedup over
    the matrices, by the kernel Auto chose, with how many matrices each covers. Two sets of
    matrices differ in Auto's gain mostly by the kernels they lead it to, and a kernel's mean tells
    where the next gain lies."""
    groups = {}
    for row in rows:
        for baseline, comparison in row.comparisons.items():
            if comparison.status == "speedup":
                kernels = groups.setdefault((row.precision, row.operation, baseline), {})
                kernels.setdefault(row.auto["chosen_algorithm"], []).append(comparison.ratio)
    lines = []
    for (precision, operation, baseline), kernels in groups.items():
        means = [f"{kernel} {perf_json.geometric_mean(ratios):.2f}x ({len(ratios)})"
                 for kernel, ratios in sorted(kernels.items())]
        lines.append(f"{AUTO} against {baseline}, {precision} {operation}, geometric mean by the "
                     f"kernel Auto chose (matrices): {', '.join(means)}")
    return lines


def set_lines(rows):
    """One line per precision, operation and baseline: kspmv/Auto's geometric mean and least
    speedup on each set of matrices (matrix_sets.py), so that the gain on matrices no rule was
    tuned on stands beside the gain on those it was, and a mean that one matrix carries shows."""
    groups = {}
    for row in rows:
        for baseline, comparison in row.comparisons.items():
            if comparison.status == "speedup":
                sets = groups.setdefault((row.precision, row.operation, baseline), {})
                sets.setdefault(matrix_set(row.matrix), {})[row.matrix] = comparison.ratio
    lines = []
    for (precision, operation, baseline), sets in groups.items():
        figures = []
        for name in (s for s in SETS if s in sets):
            ratios = sets[name]
            least = min(ratios, key=ratios.get)
            figures.append(f"{name} {perf_json.geometric_mean(list(ratios.values())):.2f}x, "
                           f"least {ratios[least]:.2f}x {least} ({len(ratios)})")
        lines.append(f"{AUTO} against {baseline}, {precision} {operation}, geometric mean by set "
                     f"(least; matrices): {'; '.join(figures)}")
    return lines


def header_lines(run, rows, precisions, operations, launch_floor):
    device = run["device"]
    lines = [f"kspmv {run['suite']} suite on {device['name']} ({device['execution_space']}), "
             f"{run['kokkos_version']}, {run['compiler']}, commit {run['git_commit']}, "
             f"{run['started_utc']}"]
    if run.get("library_build_type") == "debug":
        lines.append("Google Benchmark's library was built in debug mode (Debian's package is): "
                     "timings unaffected, every record is timed by the harness's own clock "
                     "(manual time).")
    bandwidth = run["bandwidth"]
    lines += [
        f"Rows: {AUTO}'s records in {', '.join(precisions)} of operations "
        f"{', '.join(operations)}; run.csv has all {len(run['records'])} records.",
        "time: median per call over the repetitions. speedup: the baseline's time over kspmv's "
        "(> 1: kspmv is faster), [lowest, highest] ratio of one repetition of each.",
        "roofline: GB/s by the byte model (CSR) over the measured copy bandwidth, and in the "
        "bytes read where the plan's form of A reads fewer"
        + (f" ({bandwidth['gb_per_s']:.1f} GB/s)" if bandwidth else " (not measured)")
        + "; * fits in the last-level cache (can exceed 100%: latency, not bandwidth)."]
    if launch_floor:
        lines.append(f"above floor: a time less the launch floor, "
                     f"{format_seconds(launch_floor)} a call of an empty kernel on the same "
                     f"instance in this run, for {AUTO} and each baseline: where a call is "
                     f"launch-bound, the work each library adds to the launch.")
    if any(c.status == "same kernel" for row in rows for c in row.comparisons.values()):
        lines.append(f"same kernel: {AUTO} ran the baseline's own Kokkos Kernels spmv (off CUDA "
                     f"it always does), so the two times differ by noise only.")
    return lines


def notes_and_wrong(run):
    """(one line per known bug with its count and per skipped matrix, one line per other wrong
    record)."""
    bugs, wrong = {}, []
    for r in run["records"]:
        if r["correct"]:
            continue
        bug = known_bug(run, r)
        if bug:
            bugs[bug] = bugs.get(bug, 0) + 1
        else:
            wrong.append(f"WRONG RESULT {r['key']}: {r['error_detail']}")
    notes = [f"{bug}: {count} record{'s' if count > 1 else ''} excluded from the comparison."
             for bug, count in bugs.items()]
    notes += [f"skipped {s['matrix']}: {s['reason']}" for s in run["skipped"]]
    return notes, wrong


def summarize(run):
    rows, precisions, operations = table_rows(run)
    baselines = list(dict.fromkeys(b for row in rows for b in row.comparisons))
    notes, wrong = notes_and_wrong(run)
    floor = run.get("launch_floor")
    launch_floor = floor and floor["seconds"]
    return Summary(header_lines(run, rows, precisions, operations, launch_floor), baselines, rows,
                   notes, wrong, launch_floor, choice_lines(rows), set_lines(rows))


def format_seconds(seconds):
    """Three significant digits in the largest unit that keeps the number at least 1."""
    unit, scale = next(((u, s) for u, s in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6))
                        if seconds >= s), ("ns", 1e-9))
    value = seconds / scale
    return f"{value:.{2 if value < 10 else 1 if value < 100 else 0}f} {unit}"


def time_cell(seconds, wrong):
    if wrong:
        return "WRONG"
    return format_seconds(seconds) if seconds else "-"


def speedup_cell(comparison):
    if comparison.status == "speedup":
        return f"{comparison.ratio:.2f}x [{comparison.low:.2f}-{comparison.high:.2f}]"
    return {"known bug": "excluded: known bug", "wrong": "WRONG RESULT",
            "none": "-"}.get(comparison.status, comparison.status)


def roofline_cell(record):
    """The CSR bytes' fraction of the copy bandwidth, and beside it the fraction in the bytes the
    call read where its form of A reads fewer (a plan's compressed columns)."""
    fraction = record["roofline_fraction"]
    if fraction is None:
        return "-"
    cell = f"{100 * fraction:.0f}%" + ("*" if record["cache_resident"] else "")
    read = record.get("read_roofline_fraction")
    if read is not None and record.get("read_bytes") != record.get("compulsory_bytes"):
        cell += f" ({100 * read:.0f}% read)"
    return cell


def above_floor_text(seconds, floor):
    above = seconds - floor
    return format_seconds(above) if above > 0 else "at floor"


def above_floor_cell(record, floor):
    return above_floor_text(record["seconds_per_call"], floor) if record["correct"] else "-"


def baseline_above_floor_cell(comparison, floor):
    if comparison.status == "wrong" or not comparison.seconds:
        return "-"
    return above_floor_text(comparison.seconds, floor)


def cells(summary, row):
    """The row's cells, in the order of columns()."""
    values = [row.matrix, row.operation, row.precision,
              time_cell(row.auto["seconds_per_call"], not row.auto["correct"])]
    if summary.launch_floor:
        values.append(above_floor_cell(row.auto, summary.launch_floor))
    for baseline in summary.baselines:
        comparison = row.comparisons.get(baseline)
        if comparison is None:
            values += [""] * (3 if summary.launch_floor else 2)
            continue
        values.append(time_cell(comparison.seconds, comparison.status == "wrong"))
        if summary.launch_floor:
            values.append(baseline_above_floor_cell(comparison, summary.launch_floor))
        values.append(speedup_cell(comparison))
    return values + [roofline_cell(row.auto)]


def columns(summary):
    floor = ["above floor"] if summary.launch_floor else []
    return (["matrix", "operation", "precision", AUTO] + floor
            + [name for baseline in summary.baselines for name in [baseline, *floor, "speedup"]]
            + ["roofline"])


def wrapped(texts):
    return [line for text in texts
            for line in textwrap.wrap(text, TEXT_WIDTH, subsequent_indent="  ",
                                          break_on_hyphens=False)]


def table_lines(summary):
    """The table as text: a matrix and an operation named at their first row, a blank line
    between matrices."""
    header = columns(summary)
    body = [cells(summary, row) for row in summary.rows]
    widths = [max(len(values[i]) for values in [header] + body) for i in range(len(header))]

    def line(values):  # the names left-aligned, the figures right-aligned
        return "  ".join(v.ljust(w) if i < 3 else v.rjust(w)
                         for i, (v, w) in enumerate(zip(values, widths))).rstrip()

    lines, previous = [line(header)], None
    for row, values in zip(summary.rows, body):
        if previous and row.matrix != previous.matrix:
            lines.append("")
        elif previous:
            values[0] = ""
            if row.operation == previous.operation:
                values[1] = ""
        lines.append(line(values))
        previous = row
    return lines


def render_text(summary):
    lines = wrapped(summary.header) + [""]
    lines += table_lines(summary) if summary.rows else [f"(no {AUTO} record: see run.csv)"]
    if summary.by_set:
        lines += [""] + wrapped(summary.by_set)
    if summary.by_choice:
        lines += [""] + wrapped(summary.by_choice)
    if summary.notes or summary.wrong:
        lines += [""] + wrapped(summary.notes) + summary.wrong
    return "\n".join(lines) + "\n"


def render_html(summary):
    e = html.escape
    lines = [f"<p>{'<br>'.join(e(line) for line in summary.header)}</p>"]
    lines += [f"<p><b>{e(line)}</b></p>" for line in summary.wrong]
    lines += [f"<p>{e(line)}</p>" for line in summary.notes]
    lines.append("<table border=\"1\" cellpadding=\"4\"><tr>"
                 + "".join(f"<th>{e(c)}</th>" for c in columns(summary)) + "</tr>")
    for row in summary.rows:
        lines.append("<tr>" + "".join(f"<td>{e(c)}</td>" for c in cells(summary, row)) + "</tr>")
    lines.append("</table>")
    lines += [f"<p>{e(line)}</p>" for line in summary.by_set + summary.by_choice]
    return lines


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        run = perf_json.load_run(argv[1])
    except (OSError, perf_json.SchemaError) as e:
        print(f"summary: {e}", file=sys.stderr)
        return 2
    print(render_text(summarize(run)), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
