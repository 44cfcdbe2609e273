#!/usr/bin/env python3
"""The regression gate against a stored run: this run's kspmv records against those of an earlier
run.json of the same suite on the same device, e.g. last night's, when no second build is at hand.

    stored_gate.py --baseline OLD/run.json --candidate NEW/run.json [--tolerance 0.25]
                   [--aggregate-tolerance 0.05] [--allow-mismatch] [--output-dir DIR]
                   [--history FILE]

Context-grade only. gate.py runs both builds now, alternating, and judges ratios within rounds;
two stored runs are hours or weeks apart, so whatever changed on the machine in between (clocks,
other load, the GPU driver, the reference library) is in every ratio, and one run of each gives
no interval. What does cancel is the reference pairing inside each run: a record's time is its
time relative to the reference implementation timed batch by batch beside it, where both runs
timed the same reference (time per call otherwise):

  ratio of a record = its time in this run / its time in the stored run (> 1: slower);
  ratio of an implementation (backend/algorithm and operation) = the geometric mean of its
  records' ratios.

Beside the implementations, the same geometric mean over the records whose plan and result bits
are the same in both runs and over those whose plan or bits changed: the machine moves both
between two nights, and the changed records are read against the unchanged ones (informative).

A record regresses when its ratio exceeds 1 + tolerance, an implementation when its ratio exceeds
1 + aggregate-tolerance (improved: below 1 - the tolerance). As in gate.py, the gate fails on a
regression, on a wrong result of this run and on a record the stored run has and this run lacks;
a record the stored run lacks (or got wrong) is "new". Two runs of another suite or on another
device (name or execution space) are refused: --allow-mismatch compares them anyway.

Exit status: 0 pass, 1 fail, 2 refused, or a file that is not a run. Python 3 standard library
only.
"""

import argparse
import json
import os
import statistics
import sys

import gate
import perf_json

# On the 2-core development machine a record's time relative to its reference moved between runs
# of unchanged code with a standard deviation of 5%, the mean over a run's records by 1% (DR-03):
# the ratio of two runs scatters by about 7% per record and 1.4% per implementation, and the
# defaults sit at 3.5 times that. Thousands of microsecond records on a GPU scatter more: there,
# raise --tolerance rather than believe a single record.
TOLERANCE = 0.25
AGGREGATE_TOLERANCE = 0.05
CONTEXT_GRADE = ("a comparison with a stored run is context-grade: the two runs are apart in "
                 "time, and whatever changed on the machine in between is in every ratio; only "
                 "the gate of two builds measured in the same rounds (gate.py) is a measurement")
# Differences between the runs that do not refuse the comparison but move its ratios.
CONTEXT_KEYS = ("harness", "kokkos_version", "compiler")


def kspmv_records(run):
    return {r["key"]: r for r in run["records"] if r["backend"] == perf_json.KSPMV_BACKEND}


def compared_times(stored, current):
    """(stored time, this run's time, what they are) of a record both runs measured correctly."""
    if (stored["relative_to_reference"] and current["relative_to_reference"]
            and stored["reference"] == current["reference"]):
        return (stored["relative_to_reference"], current["relative_to_reference"],
                f"relative to {current['reference']}")
    return stored["seconds_per_call"], current["seconds_per_call"], "time per call"


def judge(stored_run, run, tolerance=TOLERANCE, aggregate_tolerance=AGGREGATE_TOLERANCE):
    """gate.Judgement of this run's kspmv records against the stored run's (a verdict's estimate
    is its ratio; there is no interval), and per compared record its compared_times."""
    stored, current = kspmv_records(stored_run), kspmv_records(run)
    records, compared = {}, {}
    for key in sorted(stored.keys() | current.keys()):
        if key not in current:
            records[key] = gate.Verdict(key, "missing")
        elif not current[key]["correct"]:
            records[key] = gate.Verdict(key, "wrong")
        elif key not in stored or not stored[key]["correct"]:
            records[key] = gate.Verdict(key, "new")
        else:
            before, now, basis = compared[key] = compared_times(stored[key], current[key])
            ratio = now / before
            records[key] = gate.Verdict(key, gate.classify((ratio, ratio), tolerance), ratio)
    groups = {}
    for key in compared:
        groups.setdefault(gate.implementation_of(key), []).append(key)
    aggregates = ratio_verdicts(sorted(groups.items()), records, aggregate_tolerance)
    return gate.Judgement(list(records.values()), aggregates), compared


def ratio_verdicts(groups, records, tolerance):
    """A verdict per (name, record keys) group: the geometric mean of its records' ratios (the
    estimates of `records`, verdicts by key) and the status it gives with the tolerance."""
    verdicts = []
    for name, members in groups:
        ratio = statistics.geometric_mean(records[k].estimate for k in members)
        verdicts.append(gate.Verdict(name, gate.classify((ratio, ratio), tolerance), ratio,
                                     members=len(members)))
    return verdicts


def split_by_change(stored_run, run, judgement, compared, aggregate_tolerance):
    """The compared records' ratios apart by whether their plan and bits are the same in both
    runs (gate.same_plan_and_bits), a geometric mean each, and those records. Two nights apart the
    machine moves every record; the unchanged ones show by how much, and the changed ones are read
    against them. Informative: the verdict does not use it."""
    unchanged = gate.same_plan_and_bits({"baseline": [stored_run], "candidate": [run]})
    records = {v.name: v for v in judgement.records}
    return (ratio_verdicts(gate.change_groups(sorted(compared), unchanged), records,
                           aggregate_tolerance), unchanged)


def device_text(device):
    return f"{device['name']} ({device['execution_space']})"


def mismatches(stored, suite, device=None):
    """Why the stored run is no baseline for a run of `suite` on `device` (None: not known yet)."""
    found = []
    if stored["suite"] != suite:
        found.append(f"the stored run is of suite {stored['suite']!r}, this run of {suite!r}")
    if device is not None and device_text(stored["device"]) != device_text(device):
        found.append(f"the stored run was measured on {device_text(stored['device'])}, this run "
                     f"on {device_text(device)}")
    return found


def context_notes(stored, run):
    notes = [f"{key} differs: the stored run's {stored[key]!r}, this run's {run[key]!r}"
             for key in CONTEXT_KEYS if stored[key] != run[key]]
    if stored["device"]["concurrency"] != run["device"]["concurrency"]:
        notes.append(f"concurrency differs: the stored run's {stored['device']['concurrency']}, "
                     f"this run's {run['device']['concurrency']}")
    return notes


def describe(verdict, compared, run):
    if verdict.status == "missing":
        return "in the stored run, not in this one"
    if verdict.status == "new":
        return "not in the stored run, or a wrong result there"
    if verdict.status == "wrong":
        return next(r["error_detail"] for r in run["records"] if r["key"] == verdict.name)
    return f"{verdict.estimate:.3f} ({compared[verdict.name][2]})"


def report(args, stored, run, judgement, compared, notes, passed, by_change):
    print(f"gate: this run ({run['git_commit']}, {run['started_utc']}) against the stored run "
          f"{args.baseline} ({stored['git_commit']}, {stored['started_utc']}): suite "
          f"{run['suite']}, {device_text(run['device'])}\ngate: {CONTEXT_GRADE}")
    print(f"gate: per implementation, geometric mean over its records of this run's time / the "
          f"stored run's (> 1: slower), tolerance {100 * args.aggregate_tolerance:g}%")
    for v in judgement.aggregates:
        print(f"  {v.status:9} {v.name:32} {v.estimate:.3f}  {v.members} records")
    gate.report_by_change(by_change, lambda v: f"{v.estimate:.3f}")
    unusual = [v for v in judgement.records if v.status != "ok"]
    if unusual:
        print(f"gate: records that are not ok, this run's time / the stored run's, tolerance "
              f"{100 * args.tolerance:g}%")
    for v in unusual:
        print(f"  {v.status:9} {v.name:48} {describe(v, compared, run)}")
    for note in notes:
        print(f"gate: note: {note}")
    print(gate.verdict_line(judgement, passed))


def gate_document(args, stored, run, judgement, compared, notes, passed, by_change, unchanged):
    """gate.json: everything the verdict was made from."""
    def record(v):
        entry = {"key": v.name, "status": v.status, "ratio": v.estimate}
        if v.name in compared:
            before, now, basis = compared[v.name]
            entry.update(basis=basis, baseline_value=before, candidate_value=now,
                         same_plan_and_bits=v.name in unchanged)
        return entry

    return {
        "verdict": "pass" if passed else "fail",
        "method": "stored run",
        "context_grade": CONTEXT_GRADE,
        "notes": notes,
        "parameters": {"baseline_results": os.path.abspath(args.baseline),
                       "tolerance": args.tolerance,
                       "aggregate_tolerance": args.aggregate_tolerance,
                       "allow_mismatch": args.allow_mismatch},
        "device": run["device"],
        "suite": run["suite"],
        "git_commit": {"baseline": stored["git_commit"], "candidate": run["git_commit"]},
        "started_utc": {"baseline": stored["started_utc"], "candidate": run["started_utc"]},
        "aggregates": [{"implementation": v.name, "status": v.status, "ratio": v.estimate,
                        "records": v.members} for v in judgement.aggregates],
        "by_change": [{"group": v.name, "status": v.status, "ratio": v.estimate,
                       "records": v.members} for v in by_change],
        "records": [record(v) for v in judgement.records],
    }


def gate_run(args, stored, run):
    """Judges `run` against `stored` (both perf_json runs), reports, writes gate.json and the
    history line; the exit status."""
    problems = mismatches(stored, run["suite"], run["device"])
    if problems and not args.allow_mismatch:
        print(f"gate: refused to compare with {args.baseline}: {'; '.join(problems)}. Times "
              f"across suites or devices say nothing about a change (--allow-mismatch compares "
              f"them anyway)", file=sys.stderr)
        return 2
    if not kspmv_records(stored):
        print(f"gate: {args.baseline} holds no kspmv record", file=sys.stderr)
        return 2
    judgement, compared = judge(stored, run, args.tolerance, args.aggregate_tolerance)
    notes = [f"compared although {problem}" for problem in problems] + context_notes(stored, run)
    by_change, unchanged = split_by_change(stored, run, judgement, compared,
                                           args.aggregate_tolerance)
    passed = not judgement.failures
    report(args, stored, run, judgement, compared, notes, passed, by_change)
    os.makedirs(args.output_dir, exist_ok=True)
    path = os.path.join(args.output_dir, "gate.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(gate_document(args, stored, run, judgement, compared, notes, passed,
                                by_change, unchanged), f, indent=1)
    print(f"gate: wrote {path}")
    if args.history:
        entry = gate.history_entry(run, "pass" if passed else "fail", judgement, stored)
        entry["baseline_results"] = os.path.abspath(args.baseline)
        gate.append_history(args.history, entry)
    return 0 if passed else 1


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", required=True, help="the stored run.json to compare with")
    parser.add_argument("--candidate", required=True, help="the run.json to judge")
    parser.add_argument("--tolerance", type=float, default=TOLERANCE,
                        help=f"slowdown of one record accepted ({TOLERANCE})")
    parser.add_argument("--aggregate-tolerance", type=float, default=AGGREGATE_TOLERANCE,
                        help=f"slowdown of an implementation over its records accepted "
                             f"({AGGREGATE_TOLERANCE})")
    parser.add_argument("--allow-mismatch", action="store_true",
                        help="compare runs of another suite or device instead of refusing")
    parser.add_argument("--output-dir", default=os.path.join("perf_results", "gate"),
                        help="where gate.json goes (perf_results/gate)")
    parser.add_argument("--history", help="JSON-lines file to append the verdict to")
    args = parser.parse_args(argv)
    if args.tolerance < 0 or args.aggregate_tolerance < 0:
        parser.error("the tolerances must not be negative")
    return args


def main(argv=None):
    args = parse_arguments(argv)
    try:
        stored, run = perf_json.load_run(args.baseline), perf_json.load_run(args.candidate)
    except (OSError, perf_json.SchemaError) as e:
        print(f"gate: {e}", file=sys.stderr)
        return 2
    return gate_run(args, stored, run)


if __name__ == "__main__":
    sys.exit(main())
