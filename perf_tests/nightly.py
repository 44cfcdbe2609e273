#!/usr/bin/env python3
"""One nightly performance run: the whole suite once (run.json, run.csv), then the regression gate
of this build against a baseline build (gate.py, which appends the verdict to the history), then
the charts.

    python3 perf_tests/nightly.py --build-dir build --suite quick --no-gate
    python3 perf_tests/nightly.py --build-dir build --baseline-build-dir build-main \\
        --suite nightly --matrices DIR --output-dir perf_results/nightly

The driver is B/perf_tests/driver/kspmv_perf, or B/perf_tests/cuda/kspmv_cuda_bench in a build
without Kokkos. Arguments after "--" go to both builds' drivers unchanged (the gate's own
--benchmark_* flags come after them and win).

Exit status: the gate's (0 pass, 1 fail, 2 a driver failed), or the driver's when the full run
fails.
"""

import argparse
import os
import shlex
import subprocess
import sys

import gate
import perf_json
import plots

HERE = os.path.dirname(os.path.abspath(__file__))
DRIVERS = (os.path.join("perf_tests", "driver", "kspmv_perf"),
           os.path.join("perf_tests", "cuda", "kspmv_cuda_bench"))
# The full run's statistics, each with the options that choose it otherwise after "--" (the
# drivers' --repetitions too: Google Benchmark's flag would override it).
FULL_RUN_DEFAULTS = {
    "--benchmark_repetitions=3": ("--benchmark_repetitions", "--repetitions"),
    "--benchmark_enable_random_interleaving=true": ("--benchmark_enable_random_interleaving",),
}


def git_commit():
    def git(*args):
        return subprocess.run(["git", "-C", HERE, *args], capture_output=True, text=True,
                              check=False)
    head = git("rev-parse", "--short=12", "HEAD")
    if head.returncode != 0:
        return "unknown"
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
    parser.add_argument("--suite", choices=("quick", "nightly"), default="quick")
    parser.add_argument("--matrices", help="directory of Matrix Market files to add")
    gating = parser.add_mutually_exclusive_group()
    gating.add_argument("--baseline-build-dir", help="build directory of the reference build")
    gating.add_argument("--baseline-driver", help="benchmark program of the reference build")
    gating.add_argument("--no-gate", action="store_true",
                        help="measure, record and plot only (the default without a baseline)")
    parser.add_argument("--output-dir", help="default perf_results/<suite>")
    parser.add_argument("--history", help="default <output-dir>/history.jsonl")
    parser.add_argument("--rounds", type=int, default=8, help="the gate's rounds (8)")
    parser.add_argument("--no-plots", action="store_true")
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


def main(argv=None):
    args = parse_arguments(sys.argv[1:] if argv is None else argv)
    commit = git_commit()
    suite = ["--suite", args.suite] + (["--matrices", args.matrices] if args.matrices else [])

    run_json = os.path.join(args.output_dir, "run.json")
    if os.path.exists(run_json):
        os.remove(run_json)  # the last night's: a driver that writes nothing must not pass
    command = [args.driver, *suite, *with_defaults(args.passthrough), "--output-dir",
               args.output_dir, "--git-commit", commit]
    print(f"nightly: {shlex.join(command)}", flush=True)
    status = subprocess.run(command, check=False).returncode
    if status != 0:
        print(f"nightly: the driver failed with status {status}")
        return status
    try:
        run = perf_json.load_run(run_json)
    except (OSError, perf_json.SchemaError) as e:
        print(f"nightly: {e}", file=sys.stderr)
        return 2
    perf_json.write_csv(run, os.path.join(args.output_dir, "run.csv"))

    if args.baseline_driver:
        status = gate.main([
            "--candidate", shlex.join([args.driver, *suite, *args.passthrough,
                                       "--git-commit", commit]),
            "--baseline", shlex.join([args.baseline_driver, *suite, *args.passthrough]),
            "--rounds", str(args.rounds), "--output-dir", os.path.join(args.output_dir, "gate"),
            "--history", args.history])
    else:
        print("nightly: no baseline build given: recorded, not gated")
        gate.append_history(args.history, gate.history_entry(run, "not gated"))

    if not args.no_plots:
        if plots.main(["--run", run_json, "--history", args.history,
                       "--output-dir", args.output_dir]) == plots.MISSING_MATPLOTLIB:
            print("nightly: no charts without matplotlib")
    return status


if __name__ == "__main__":
    sys.exit(main())
