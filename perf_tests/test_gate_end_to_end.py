#!/usr/bin/env python3
"""The gate on real measurements (label perf: it times things): a run of the quick suite's
generated matrices is the baseline; an unchanged rerun must pass, and a rerun with a planted 20%
slowdown (kspmv_perf --plant-slowdown 1.25, kept in the gate's re-measurements) must fail.
Run: python3 perf_tests/test_gate_end_to_end.py --driver build/perf_tests/driver/kspmv_perf
"""

import argparse
import contextlib
import io
import os
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gate  # noqa: E402

SUBSET = ["--suite", "quick", "--precision", "fp64", "--min-batch-seconds", "0.005"]


def measure(driver, output, *extra):
    command = [driver, *SUBSET, *extra, "--output-dir", output]
    subprocess.run(command, stdout=subprocess.DEVNULL, check=True)
    return os.path.join(output, "run.json")


def judge(baseline, run, rerun_command):
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        status = gate.main(["--baseline", baseline, "--run", run, "--driver", rerun_command,
                            "--reruns", "3"])
    print(output.getvalue())
    return status, output.getvalue()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--driver", required=True)
    driver = parser.parse_args().driver
    with tempfile.TemporaryDirectory() as scratch:
        baseline = measure(driver, os.path.join(scratch, "baseline"))

        unchanged = measure(driver, os.path.join(scratch, "unchanged"))
        status, _ = judge(baseline, unchanged, shlex.join([driver, *SUBSET]))
        if status != 0:
            print("FAILED: the gate rejected an unchanged rerun")
            return 1

        planted = ["--plant-slowdown", "1.25"]
        slow = measure(driver, os.path.join(scratch, "slow"), *planted)
        status, output = judge(baseline, slow, shlex.join([driver, *SUBSET, *planted]))
        if status != 1 or "regressed" not in output:
            print("FAILED: the gate accepted a planted 20% slowdown")
            return 1
    print("the gate passes an unchanged rerun and fails a planted 20% slowdown")
    return 0


if __name__ == "__main__":
    sys.exit(main())
