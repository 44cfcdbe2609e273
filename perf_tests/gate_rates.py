#!/usr/bin/env python3
"""The gate's false-alarm and detection rates on this machine: runs `ctest -L perf` on a build N
times in a row and counts, per test, how often it passed. kspmv_perf_gate_unchanged passing is
the gate staying quiet on unchanged code; kspmv_perf_gate_planted passing is the gate catching a
planted 10% slowdown of kspmv's records.

    python3 perf_tests/gate_rates.py --build-dir build --runs 10 --output rates.json

Writes a JSON summary (every run's per-test result and duration, the totals) and prints a table.
Exit status 0 when the targets hold (no false alarm, at least 9 detections in 10), else 1.
Python 3 standard library only.
"""

import argparse
import datetime
import json
import re
import subprocess
import sys
import time

TEST_LINE = re.compile(r"Test\s+#\d+:\s+(\S+)\s+\.+\s*(\*{0,3}\s*)?(Passed|Failed|\S+.*?)\s+([\d.]+)\s+sec")


def parse_ctest(output):
    """{test name: (passed, seconds)} from ctest's per-test lines."""
    results = {}
    for line in output.splitlines():
        match = TEST_LINE.search(line)
        if match:
            results[match.group(1)] = (match.group(3) == "Passed", float(match.group(4)))
    return results


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--output", help="JSON summary to write")
    args = parser.parse_args(argv)

    runs = []
    for i in range(args.runs):
        started = time.monotonic()
        finished = subprocess.run(["ctest", "--test-dir", args.build_dir, "-L", "perf",
                                   "--output-on-failure"],
                                  capture_output=True, text=True, check=False)
        seconds = time.monotonic() - started
        tests = parse_ctest(finished.stdout)
        runs.append({"seconds": seconds, "tests": {name: {"passed": ok, "seconds": s}
                                                   for name, (ok, s) in tests.items()},
                     "output": finished.stdout[-20000:] if finished.returncode else ""})
        summary = ", ".join(f"{name} {'passed' if ok else 'FAILED'} ({s:.0f} s)"
                            for name, (ok, s) in sorted(tests.items()))
        print(f"run {i + 1}/{args.runs}: {seconds:.0f} s: {summary}", flush=True)

    names = sorted({name for run in runs for name in run["tests"]})
    totals = {name: sum(run["tests"].get(name, {}).get("passed", False) for run in runs)
              for name in names}
    print(f"\n{'test':32} passed  of")
    for name in names:
        print(f"{name:32} {totals[name]:6}  {len(runs)}")
    longest = max(run["seconds"] for run in runs) if runs else 0
    print(f"longest `ctest -L perf`: {longest:.0f} s")
    unchanged = totals.get("kspmv_perf_gate_unchanged", 0)
    planted = totals.get("kspmv_perf_gate_planted", 0)
    met = unchanged == len(runs) and planted >= 0.9 * len(runs)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            json.dump({"finished_utc": datetime.datetime.now(datetime.timezone.utc)
                       .strftime("%Y-%m-%dT%H:%M:%SZ"),
                       "build_dir": args.build_dir, "runs": runs, "passed": totals,
                       "longest_seconds": longest, "targets_met": met}, f, indent=1)
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
