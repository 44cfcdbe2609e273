#!/usr/bin/env python3
"""The gate on real measurements (label perf: it times things, and wants a quiet machine).

  --case unchanged: the quick suite against itself must PASS;
  --case planted:   the quick suite with --plant-slowdown 1.10 (kspmv's records run 10% more
                    calls than they count) against the plain quick suite must FAIL, on regressed
                    records or implementations.

A driver that fails, or a wrong result, fails the test whatever the case.
Run: python3 perf_tests/test_gate_end_to_end.py --driver build/perf_tests/driver/kspmv_perf \\
         --case planted [--rounds N]
"""

import argparse
import json
import os
import shlex
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gate  # noqa: E402

PLANTED_SLOWDOWN = "1.10"
# kspmv's records of y = A x through a handle: the other operations would make `ctest -L perf`
# take three times as long (over 5 minutes on 2 cores); nightly gates run all of them.
Y_EQUALS_A_X = "/kspmv/[^/]+/fp(32|64)/N/"


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--driver", required=True, help="kspmv_perf or kspmv_cuda_bench")
    parser.add_argument("--case", required=True, choices=("unchanged", "planted"))
    parser.add_argument("--rounds", type=int, help="the gate's rounds (default: the gate's)")
    parser.add_argument("--output-dir", help="keep the gate's files there (default: a temporary "
                        "directory, removed)")
    args = parser.parse_args()

    baseline = shlex.join([args.driver, "--suite", "quick"])
    candidate = baseline
    if args.case == "planted":
        candidate += f" --plant-slowdown {PLANTED_SLOWDOWN}"
    with tempfile.TemporaryDirectory(prefix="kspmv_gate_test_") as scratch:
        output = args.output_dir or scratch
        arguments = ["--candidate", candidate, "--baseline", baseline, "--output-dir", output,
                     "--filter", Y_EQUALS_A_X]
        if args.rounds:
            arguments += ["--rounds", str(args.rounds)]
        status = gate.main(arguments)
        if status == 2:
            print("FAILED: a driver failed or wrote unreadable output (gate exit status 2)")
            return 1
        with open(os.path.join(output, "gate.json"), encoding="utf-8") as f:
            document = json.load(f)
    regressed = [v for v in document["records"] + document["aggregates"]
                 if v["status"] == "regressed"]
    other_failures = [f"{r['status']} {r['key']}" for r in document["records"]
               if r["status"] in ("wrong", "missing")] + document["notes"]
    if other_failures:
        print(f"FAILED: the gate failed on more than timings: {'; '.join(other_failures)}")
        return 1
    if args.case == "unchanged":
        if status != 0:
            print("FAILED: the gate rejected the build against itself (a false alarm: is the "
                  "machine busy?)")
            return 1
        print("the gate passes the build against itself")
    else:
        if status != 1:
            print(f"FAILED: the gate accepted a planted {PLANTED_SLOWDOWN}x slowdown of kspmv's "
                  f"records")
            return 1
        print(f"the gate fails a planted {PLANTED_SLOWDOWN}x slowdown: {len(regressed)} regressed "
              f"records and implementations")
    return 0


if __name__ == "__main__":
    sys.exit(main())
