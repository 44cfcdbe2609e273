#!/usr/bin/env python3
"""Nightly regression gate: compares a kspmv_perf run with a stored baseline run.

A record regresses when its roofline fraction falls by more than the tolerance (default 5%)
below the baseline's. Timing is noisy, so a suspicious record is measured again (--driver,
--reruns) and judged by its best measurement; only a drop that survives the reruns fails the
gate. A wrong result, or a baseline record the run lacks, fails it too. Each gated run is
appended to a history file (JSON lines) that plots.py draws trends from.

Exit status: 0 pass, 1 regression (or wrong/missing records), 2 bad input.
Python 3 standard library only.
"""

import argparse
import datetime
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

import perf_json


@dataclass
class Verdict:
    key: str
    status: str  # ok, improved, recovered, regressed, missing, new, wrong
    baseline: float = None
    measured: list = field(default_factory=list)  # roofline fractions, first the run's own

    @property
    def best(self):
        return max(self.measured) if self.measured else None

    def change(self, value=None):
        value = self.best if value is None else value
        return value / self.baseline - 1 if self.baseline and value is not None else None


def judge(baseline_run, run, tolerance):
    """Verdicts for every key of either run, before any rerun."""
    base = perf_json.records_by_key(baseline_run)
    now = perf_json.records_by_key(run)
    verdicts = []
    for key in sorted(set(base) | set(now)):
        if key not in now:
            verdicts.append(Verdict(key, "missing", base[key]["roofline_fraction"]))
            continue
        record = now[key]
        if not record["correct"]:
            verdicts.append(Verdict(key, "wrong", None, [record["roofline_fraction"]]))
            continue
        if key not in base:
            verdicts.append(Verdict(key, "new", None, [record["roofline_fraction"]]))
            continue
        v = Verdict(key, "ok", base[key]["roofline_fraction"], [record["roofline_fraction"]])
        if v.change() < -tolerance:
            v.status = "regressed"
        elif v.change() > tolerance:
            v.status = "improved"
        verdicts.append(v)
    return verdicts


def rerun(driver, run, keys, times, pause):
    """Measures `keys` again `times` times with the driver command, `pause` seconds apart (load
    from other work comes and goes); yields {key: fraction}."""
    with tempfile.TemporaryDirectory(prefix="kspmv_gate_") as scratch:
        for attempt in range(times):
            time.sleep(pause)
            output = os.path.join(scratch, f"rerun{attempt}")
            command = shlex.split(driver) + ["--output-dir", output, "--git-commit",
                                             run["git_commit"]]
            for key in keys:
                command += ["--only", key]
            print(f"gate: re-measuring {len(keys)} record(s), attempt {attempt + 1} of {times}",
                  flush=True)
            finished = subprocess.run(command, stdout=subprocess.DEVNULL, check=False)
            if finished.returncode != 0:
                print(f"gate: the rerun exited with {finished.returncode}: {shlex.join(command)}")
                continue
            again = perf_json.load_run(os.path.join(output, "run.json"))
            yield {k: r["roofline_fraction"] for k, r in perf_json.records_by_key(again).items()}


def settle(verdicts, tolerance, driver, run, reruns, pause=0.0):
    """Re-measures the regressed records; those whose best measurement is back within the
    tolerance become 'recovered'."""
    suspicious = {v.key: v for v in verdicts if v.status == "regressed"}
    if not suspicious or not driver or reruns <= 0:
        return
    for fractions in rerun(driver, run, sorted(suspicious), reruns, pause):
        for key, fraction in fractions.items():
            if key in suspicious:
                suspicious[key].measured.append(fraction)
        if all(v.change() >= -tolerance for v in suspicious.values()):
            break
    for v in suspicious.values():
        if v.change() >= -tolerance:
            v.status = "recovered"


def describe(v):
    if v.status in ("missing",):
        return f"{v.status:10} {v.key}: in the baseline ({v.baseline:.4f}) but not measured"
    if v.status in ("new", "wrong"):
        note = "wrong result" if v.status == "wrong" else "not in the baseline"
        return f"{v.status:10} {v.key}: {v.measured[0]:.4f} ({note})"
    text = (f"{v.status:10} {v.key}: roofline fraction {v.baseline:.4f} -> {v.best:.4f} "
            f"({100 * v.change():+.1f}%)")
    if len(v.measured) > 1:
        tries = ", ".join(f"{100 * v.change(m):+.1f}%" for m in v.measured)
        text += f", best of {len(v.measured)} measurements: {tries}"
    return text


def append_history(path, run, verdicts, gate_status):
    best = {v.key: v.best for v in verdicts if v.measured}
    entry = {
        "gated_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "started_utc": run["started_utc"],
        "git_commit": run["git_commit"],
        "suite": run["suite"],
        "device": run["device"]["name"],
        "execution_space": run["device"]["execution_space"],
        "bandwidth_gb_per_s": run["bandwidth"]["gb_per_s"],
        "gate": gate_status,
        "records": {
            r["key"]: {
                "roofline_fraction": best.get(r["key"], r["roofline_fraction"]),
                "seconds_per_call": r["seconds_per_call"],
                "gflop_per_s": r["gflop_per_s"],
            }
            for r in run["records"]
        },
    }
    directory = os.path.dirname(path)
    if directory:
        os.makedirs(directory, exist_ok=True)
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps(entry, sort_keys=True) + "\n")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", required=True, help="the stored baseline run JSON")
    parser.add_argument("--run", required=True, help="the run JSON to judge")
    parser.add_argument("--tolerance", type=float, default=0.05,
                        help="largest accepted relative drop of a roofline fraction (0.05)")
    parser.add_argument("--driver", default="",
                        help="command that re-runs kspmv_perf with the run's options, e.g. "
                             "'build/perf_tests/driver/kspmv_perf --suite quick'; without it "
                             "nothing is re-measured")
    parser.add_argument("--reruns", type=int, default=2,
                        help="re-measurements of suspicious records (2)")
    parser.add_argument("--rerun-pause", type=float, default=5.0,
                        help="seconds to wait before each re-measurement (5)")
    parser.add_argument("--allow-missing", action="store_true",
                        help="a baseline record the run lacks is not a failure (runs with --only)")
    parser.add_argument("--history", help="JSON-lines file to append this run to")
    args = parser.parse_args(argv)

    try:
        baseline = perf_json.load_run(args.baseline)
        run = perf_json.load_run(args.run)
    except (OSError, perf_json.SchemaError) as e:
        print(f"gate: {e}", file=sys.stderr)
        return 2

    print(f"gate: run {run['git_commit']} ({run['started_utc']}) against baseline "
          f"{baseline['git_commit']} ({baseline['started_utc']}), tolerance "
          f"{100 * args.tolerance:.1f}%")
    if baseline["device"]["name"] != run["device"]["name"]:
        print(f"gate: warning: the baseline was measured on {baseline['device']['name']}, "
              f"this run on {run['device']['name']}")

    ceiling_change = run["bandwidth"]["gb_per_s"] / baseline["bandwidth"]["gb_per_s"] - 1
    if abs(ceiling_change) > args.tolerance:
        print(f"gate: warning: the copy bandwidth moved by {100 * ceiling_change:+.1f}% since the "
              f"baseline ({baseline['bandwidth']['gb_per_s']:.1f} -> "
              f"{run['bandwidth']['gb_per_s']:.1f} GB/s): another machine, or a busy one")
    verdicts = judge(baseline, run, args.tolerance)
    settle(verdicts, args.tolerance, args.driver, run, args.reruns, args.rerun_pause)

    failing = {"regressed", "wrong"} | (set() if args.allow_missing else {"missing"})
    for v in verdicts:
        if v.status != "ok":
            print("  " + describe(v))
    counts = {}
    for v in verdicts:
        counts[v.status] = counts.get(v.status, 0) + 1
    passed = not any(v.status in failing for v in verdicts)
    summary = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
    print(f"gate: {'PASS' if passed else 'FAIL'} ({len(verdicts)} records: {summary})")
    if args.history:
        append_history(args.history, run, verdicts, "pass" if passed else "fail")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
