#!/usr/bin/env python3
"""One nightly performance run: the whole suite once (run.json, run.csv), then the regression gate
of this build against a baseline build (gate.py) or against a stored run (stored_gate.py), either
of which appends the verdict to the history, then the charts, then the summary table (also
summary.txt and in index.html).

    python3 perf_tests/nightly.py --build-dir build --suite quick --no-gate
    python3 perf_tests/nightly.py --build-dir build --baseline-build-dir build-main \\
        --suite nightly --matrices DIR --output-dir perf_results/nightly
    python3 <prefix>/share/kspmv/perf_tests/nightly.py --driver <prefix>/bin/kspmv_perf \\
        --suite nightly --matrices DIR --baseline-results OLD/run.json --output-dir OUT

The driver is B/perf_tests/driver/kspmv_perf, or B/perf_tests/cuda/kspmv_cuda_bench in a build
without Kokkos. Arguments after "--" go to both builds' drivers unchanged (the gate's own
--benchmark_* flags come after them and win). The driver's console output goes to
<output-dir>/driver.log; the terminal shows the matrices as they are made and a progress line
every 10 s.

--baseline-results compares this run's kspmv records with a run.json of an earlier run of the
same suite on the same device (it may be OUT/run.json itself: it is read before the run replaces
it). Runs apart in time differ by whatever changed on the machine in between, so that verdict is
context-grade, with wide tolerances; the gate of two builds measured in the same rounds is the
one to trust.

Exit status: the gate's (0 pass, 1 fail, 2 a driver failed or the stored run was refused), or the
driver's when the full run fails (3: kspmv computed a wrong result); 4: --require-plots and no
charts were drawn (no interpreter with matplotlib: this one or /usr/bin/python3, which draws them
when this one cannot).
"""

import argparse
import importlib.util
import os
import platform
import shlex
import subprocess
import sys

import driver_log
import gate
import perf_json
import stored_gate
import summary

HERE = os.path.dirname(os.path.abspath(__file__))
DRIVERS = (os.path.join("perf_tests", "driver", "kspmv_perf"),
           os.path.join("perf_tests", "cuda", "kspmv_cuda_bench"))
# The full run's statistics, each with the options that choose it otherwise after "--" (the
# drivers' --repetitions too: Google Benchmark's flag would override it).
FULL_RUN_DEFAULTS = {
    "--benchmark_repetitions=3": ("--benchmark_repetitions", "--repetitions"),
    "--benchmark_enable_random_interleaving=true": ("--benchmark_enable_random_interleaving",),
}
WRONG_RESULT = 3  # the drivers' status when a kspmv record computed a wrong result
NO_CHARTS = 4
# Debian installs python3-matplotlib for its own python3; the first python3 on the PATH may be
# another one (pyenv, a venv) without it. The charts are then drawn with Debian's.
OTHER_PYTHONS = ("/usr/bin/python3",)


def git_commit():
    """The commit of the working tree these scripts are in; None outside one (installed) or
    without git, where the driver records the commit it was configured at."""
    def git(*args):
        return subprocess.run(["git", "-C", HERE, *args], capture_output=True, text=True,
                              check=False)
    try:
        head = git("rev-parse", "--short=12", "HEAD")
    except FileNotFoundError:
        return None
    if head.returncode != 0:
        return None
    dirty = git("status", "--porcelain", "--untracked-files=no").stdout.strip()
    return head.stdout.strip() + ("+dirty" if dirty else "")


def driver_in(build_dir):
    """The benchmark program of a build directory; None when it has none."""
    for relative in DRIVERS:
        path = os.path.join(build_dir, relative)
        if os.path.exists(path):
            return path
    return None


def with_defaults(passthrough):
    """The driver arguments of the full run: FULL_RUN_DEFAULTS the user did not choose, then
    the user's."""
    chosen = {argument.split("=", 1)[0] for argument in passthrough}
    return [default for default, options in FULL_RUN_DEFAULTS.items()
            if not chosen.intersection(options)] + passthrough


def split_passthrough(argv):
    """argv before "--", and the driver arguments after it (none without one)."""
    if "--" not in argv:
        return argv, []
    return argv[:argv.index("--")], argv[argv.index("--") + 1:]


def parse_arguments(argv):
    argv, passthrough = split_passthrough(argv)
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--build-dir", help="the CMake build directory to measure")
    where.add_argument("--driver", help="the benchmark program to measure")
    parser.add_argument("--suite", choices=("quick", "nightly", "sweep"), default="quick")
    parser.add_argument("--matrices", help="directory of Matrix Market files to add")
    gating = parser.add_mutually_exclusive_group()
    gating.add_argument("--baseline-build-dir", help="build directory of the reference build")
    gating.add_argument("--baseline-driver", help="benchmark program of the reference build")
    gating.add_argument("--baseline-results", metavar="RUN_JSON",
                        help="a stored run.json of the same suite and device to compare with "
                             "(context-grade)")
    gating.add_argument("--no-gate", action="store_true",
                        help="measure, record and plot only (the default without a baseline)")
    parser.add_argument("--results-tolerance", type=float, default=stored_gate.TOLERANCE,
                        help="with --baseline-results: slowdown of one record accepted "
                             f"({stored_gate.TOLERANCE})")
    parser.add_argument("--results-aggregate-tolerance", type=float,
                        default=stored_gate.AGGREGATE_TOLERANCE,
                        help="with --baseline-results: slowdown of an implementation over its "
                             f"records accepted ({stored_gate.AGGREGATE_TOLERANCE})")
    parser.add_argument("--allow-baseline-mismatch", action="store_true",
                        help="with --baseline-results: compare a run of another suite or device "
                             "instead of refusing")
    parser.add_argument("--output-dir", help="default perf_results/<suite>")
    parser.add_argument("--history", help="default <output-dir>/history.jsonl")
    parser.add_argument("--rounds", type=int, default=8, help="the gate's rounds (8)")
    parser.add_argument("--confirm-rounds", type=int, default=0,
                        help="the gate's rounds of what regressed, measured again alone (0)")
    charts = parser.add_mutually_exclusive_group()
    charts.add_argument("--no-plots", action="store_true")
    charts.add_argument("--require-plots", action="store_true",
                        help=f"exit {NO_CHARTS} when no charts were drawn (no matplotlib)")
    args = parser.parse_args(argv)
    args.passthrough = passthrough
    args.output_dir = args.output_dir or os.path.join("perf_results", args.suite)
    args.history = args.history or os.path.join(args.output_dir, "history.jsonl")
    args.driver = args.driver or driver_in(args.build_dir)
    if args.driver is None:
        parser.error(f"{args.build_dir} holds neither {' nor '.join(DRIVERS)}")
    if args.baseline_build_dir:
        args.baseline_driver = driver_in(args.baseline_build_dir)
        if args.baseline_driver is None:
            parser.error(f"{args.baseline_build_dir} holds neither {' nor '.join(DRIVERS)}")
    return args


def has_matplotlib(python):
    return subprocess.run([python, "-c", "import matplotlib"], capture_output=True,
                          check=False).returncode == 0


def plots_python():
    """This interpreter when it has matplotlib, else the first of OTHER_PYTHONS that has it;
    None when none has."""
    if importlib.util.find_spec("matplotlib"):
        return sys.executable
    return next((python for python in OTHER_PYTHONS
                 if os.path.exists(python)
                 and os.path.realpath(python) != os.path.realpath(sys.executable)
                 and has_matplotlib(python)), None)


def missing_matplotlib():
    """What to say when no interpreter can draw the charts: which lack matplotlib, and how to
    give it to one."""
    others = [p for p in OTHER_PYTHONS if os.path.exists(p)
              and os.path.realpath(p) != os.path.realpath(sys.executable)]
    return (f"nightly: WARNING: no charts: matplotlib is missing for {sys.executable} "
            f"(Python {platform.python_version()})"
            + "".join(f" and for {p}" for p in others) + ".\n"
            "  To draw them: apt-get install python3-matplotlib (for /usr/bin/python3, which "
            "nightly.py then uses for the charts)\n"
            f"  or {sys.executable} -m pip install matplotlib. --no-plots leaves them out without "
            f"this warning.")


def draw_charts(args):
    """plots.py on the run; the warning to end the run with when it cannot draw, else None."""
    python = plots_python()
    if python is None:
        return missing_matplotlib()
    if python != sys.executable:
        print(f"nightly: {sys.executable} lacks matplotlib: the charts are drawn with {python}",
              flush=True)
    status = subprocess.run([python, os.path.join(HERE, "plots.py"), "--run",
                             os.path.join(args.output_dir, "run.json"),
                             "--history", args.history, "--output-dir", args.output_dir],
                            check=False).returncode
    return None if status == 0 else f"nightly: WARNING: no charts: plots.py exited with {status}"


def report_failure(status, log):
    print(f"nightly: the driver failed with status {status}; the end of {log}:", file=sys.stderr)
    for line in driver_log.tail(log):
        print(f"  {line.rstrip()}", file=sys.stderr)


def measure(args, command):
    """(the driver's status, its run; None when there is none to show, after saying why)."""
    run_json = os.path.join(args.output_dir, "run.json")
    if os.path.exists(run_json):
        os.remove(run_json)  # the last night's: a driver that writes nothing must not pass
    os.makedirs(args.output_dir, exist_ok=True)
    log = os.path.join(args.output_dir, "driver.log")
    print(f"nightly: {shlex.join(command)}\nnightly: its output goes to {log}", flush=True)
    status = driver_log.run(command, log, sys.stdout)
    if status not in (0, WRONG_RESULT):
        report_failure(status, log)
        return status, None
    try:
        return status, perf_json.load_run(run_json)
    except (OSError, perf_json.SchemaError) as e:
        print(f"nightly: {e}", file=sys.stderr)
        report_failure(status, log)
        return status or 2, None


def write_results(args, run):
    """run.csv and summary.txt; the summary's text."""
    perf_json.write_csv(run, os.path.join(args.output_dir, "run.csv"))
    table = summary.render_text(summary.summarize(run))
    with open(os.path.join(args.output_dir, "summary.txt"), "w", encoding="utf-8") as f:
        f.write(table)
    return table


def read_stored_run(args):
    """The run of --baseline-results, read before the full run (which may overwrite the file);
    None after saying why it cannot be a baseline for this run."""
    try:
        stored = perf_json.load_run(args.baseline_results)
    except (OSError, perf_json.SchemaError) as e:
        print(f"nightly: --baseline-results: {e}", file=sys.stderr)
        return None
    problems = stored_gate.mismatches(stored, args.suite)  # the device is known after the run
    if problems and not args.allow_baseline_mismatch:
        print(f"nightly: refused to compare with {args.baseline_results}: {'; '.join(problems)} "
              f"(--allow-baseline-mismatch compares anyway)", file=sys.stderr)
        return None
    return stored


def gate_or_record(args, run, stored, suite, commit_arguments):
    """The gate's status against a baseline build or a stored run; 0 after recording the run in
    the history without either."""
    if stored:
        return stored_gate.gate_run(stored_gate.parse_arguments([
            "--baseline", args.baseline_results,
            "--candidate", os.path.join(args.output_dir, "run.json"),
            "--tolerance", str(args.results_tolerance),
            "--aggregate-tolerance", str(args.results_aggregate_tolerance),
            "--output-dir", os.path.join(args.output_dir, "gate"), "--history", args.history,
            *(["--allow-mismatch"] if args.allow_baseline_mismatch else [])]), stored, run)
    if not args.baseline_driver:
        print("nightly: no baseline given: recorded, not gated", flush=True)
        gate.append_history(args.history, gate.history_entry(run, "not gated"))
        return 0
    return gate.main([
        "--candidate", shlex.join([args.driver, *suite, *args.passthrough, *commit_arguments]),
        "--baseline", shlex.join([args.baseline_driver, *suite, *args.passthrough]),
        "--rounds", str(args.rounds), "--confirm-rounds", str(args.confirm_rounds),
        "--output-dir", os.path.join(args.output_dir, "gate"),
        "--history", args.history])


def main(argv=None):
    args = parse_arguments(sys.argv[1:] if argv is None else argv)
    stored = None
    if args.baseline_results:
        stored = read_stored_run(args)
        if stored is None:
            return 2
    commit = git_commit()
    commit_arguments = ["--git-commit", commit] if commit else []
    suite = ["--suite", args.suite] + (["--matrices", args.matrices] if args.matrices else [])
    status, run = measure(args, [args.driver, *suite, *with_defaults(args.passthrough),
                                 "--output-dir", args.output_dir, *commit_arguments])
    if run is None:
        return status
    table = write_results(args, run)
    if status == WRONG_RESULT:
        print(f"\n{table}nightly: kspmv computed a wrong result (WRONG RESULT above): not "
              f"recorded, gated or charted")
        return status
    status = gate_or_record(args, run, stored, suite, commit_arguments)
    warning = None if args.no_plots else draw_charts(args)
    print(f"\n{table}\nnightly: run.json, run.csv, summary.txt, driver.log"
          f"{'' if args.no_plots or warning else ', index.html and the charts'} in "
          f"{args.output_dir}", flush=True)
    if warning:
        print(f"\n{warning}", file=sys.stderr)  # last, where it is seen
        if args.require_plots and status == 0:
            return NO_CHARTS
    return status


if __name__ == "__main__":
    sys.exit(main())
