#!/usr/bin/env python3
"""One nightly performance run: kspmv_perf, then the regression gate against a baseline (which
appends the run to the history), then the charts.

    python3 perf_tests/nightly.py --build-dir build --suite quick
    python3 perf_tests/nightly.py --build-dir build --suite nightly --matrices DIR \\
        --baseline perf_tests/baselines/<machine>.json --output-dir perf_results/nightly

Exit status: the gate's (0 pass, 1 regression), or the driver's when it fails.
Arguments after "--" go to kspmv_perf unchanged.
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
DEFAULT_BASELINES = {"quick": os.path.join(HERE, "baselines", "ci-2core.json")}


def git_commit():
    def git(*args):
        return subprocess.run(["git", "-C", HERE, *args], capture_output=True, text=True,
                              check=False)
    head = git("rev-parse", "--short=12", "HEAD")
    if head.returncode != 0:
        return "unknown"
    dirty = git("status", "--porcelain", "--untracked-files=no").stdout.strip()
    return head.stdout.strip() + ("+dirty" if dirty else "")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    passthrough = []
    if "--" in argv:
        passthrough = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--build-dir", help="the CMake build directory holding kspmv_perf")
    where.add_argument("--driver", help="the kspmv_perf executable")
    parser.add_argument("--suite", choices=("quick", "nightly"), default="quick")
    parser.add_argument("--matrices", help="directory of Matrix Market files to add")
    gating = parser.add_mutually_exclusive_group()
    gating.add_argument("--baseline", help="baseline run JSON (quick: baselines/ci-2core.json)")
    gating.add_argument("--no-gate", action="store_true",
                        help="measure, record and plot only (a first look on a new machine)")
    parser.add_argument("--output-dir", help="default perf_results/<suite>")
    parser.add_argument("--history", help="default <output-dir>/history.jsonl")
    parser.add_argument("--tolerance", type=float, default=0.05)
    parser.add_argument("--reruns", type=int, default=2)
    parser.add_argument("--no-plots", action="store_true")
    args = parser.parse_args(argv)

    driver = args.driver or os.path.join(args.build_dir, "perf_tests", "driver", "kspmv_perf")
    output = args.output_dir or os.path.join("perf_results", args.suite)
    history = args.history or os.path.join(output, "history.jsonl")
    baseline = None if args.no_gate else args.baseline or DEFAULT_BASELINES.get(args.suite)

    # The command the gate reuses for reruns: everything but where the output goes.
    command = [driver, "--suite", args.suite] + passthrough
    if args.matrices:
        command += ["--matrices", args.matrices]
    commit = git_commit()
    run_json = os.path.join(output, "run.json")
    print(f"nightly: {shlex.join(command)}", flush=True)
    status = subprocess.run(command + ["--output-dir", output, "--git-commit", commit],
                            check=False).returncode
    if status != 0:
        print(f"nightly: kspmv_perf failed with status {status}")
        return status

    if baseline and os.path.exists(baseline) and not args.baseline:
        # The default baseline belongs to one machine class; timings of another are not comparable.
        measured_on = perf_json.load_run(baseline)["device"]["name"]
        here = perf_json.load_run(run_json)["device"]["name"]
        if measured_on != here:
            print(f"nightly: {baseline} was measured on {measured_on}, this is {here}: not gated "
                  f"(pass --baseline to gate anyway)")
            baseline = None
    if baseline and os.path.exists(baseline):
        status = gate.main(["--baseline", baseline, "--run", run_json, "--history", history,
                            "--tolerance", str(args.tolerance), "--reruns", str(args.reruns),
                            "--driver", shlex.join(command)])
    else:
        print(f"nightly: no baseline ({baseline or 'none given'}), not gated; to make this "
              f"run the baseline: cp {run_json} <baseline.json>")
        gate.append_history(history, perf_json.load_run(run_json), [], "not gated")
    if not args.no_plots:
        if plots.main(["--run", run_json, "--history", history, "--output-dir", output]) == \
                plots.MISSING_MATPLOTLIB:
            print("nightly: no charts without matplotlib")
    return status


if __name__ == "__main__":
    sys.exit(main())
