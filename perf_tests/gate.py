#!/usr/bin/env python3
"""Performance regression gate on interleaved, paired measurements of two builds.

    gate.py --candidate "CMD" [--baseline "CMD"] [--rounds 8] [--repetitions 2]
            [--filter REGEX] [--tolerance 0.05] [--aggregate-tolerance 0.03]
            [--confidence 0.99] [--confirm-rounds N] [--seed N] [--output-dir DIR]
            [--history FILE]

CMD is a driver command line, e.g. "build/perf_tests/driver/kspmv_perf --suite quick"; the
baseline defaults to the candidate's command (the gate then measures its own false alarms).
Each round runs both commands once, each build first in half of the rounds, on the records
matching --filter. Timings on a shared machine drift by tens of percent between runs and within
one, so noise is cancelled twice. Inside a run, the harness times every record batch by batch
beside a reference implementation (the driver's first baseline, e.g. Kokkos Kernels or cuSPARSE:
code the two builds share), and a record's time is its time relative to the reference's; across
builds, a candidate and a baseline run of the same round see about the same machine, so the gate
judges ratios within rounds:

  ratio of a record in a round = candidate relative time / baseline relative time (> 1: slower),
  each the median over the round's repetitions (a run without a reference: time per call);
  record estimate = the median of its ratios over the rounds;
  implementation estimate (backend/algorithm) = the geometric mean of its records' estimates;
  intervals: percentile bootstrap over rounds at --confidence, resampling whole rounds so that a
  round's records stay paired and keep their correlation.

A record regresses when its whole interval lies above 1 + tolerance, an implementation when its
interval lies above 1 + aggregate-tolerance (improved: below 1 - the tolerance). The gate fails
on a regression, on a wrong result in either build and on a record the baseline measures and the
candidate does not; a record only the candidate measures is "new".

--confirm-rounds N: a few rounds of a whole suite cannot resolve 5% on calls of a few
microseconds, and eight take long. With it, the records that regressed and every record of an
implementation that regressed are measured again, alone, over N more rounds (in OUTPUT/confirm),
and their verdicts, and those implementations', are the second measurement's: a slowdown that
holds regresses again, an unlucky round does not.

Exit status: 0 pass, 1 fail, 2 a driver that failed otherwise, or unreadable output.
Python 3 standard library only.
"""

import argparse
import datetime
import json
import os
import random
import shlex
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field

import perf_json

SIDES = ("baseline", "candidate")
WRONG_RESULT_EXIT = 3  # the drivers' status when a record computed a wrong result
RESAMPLES = 2000
FAILING = {"regressed", "wrong", "missing"}
SAME_PLAN_AND_BITS = "same plan and bits"
CHANGED_PLAN_OR_BITS = "plan or bits changed"


class DriverError(RuntimeError):
    """A driver that failed otherwise than by a wrong result, or left no readable output."""


@dataclass
class Verdict:
    """The judgement of one record or one implementation's aggregate."""
    name: str
    status: str  # ok, improved, regressed; records also wrong, missing, new
    estimate: float | None = None
    interval: tuple[float, float] | None = None
    ratios: list[float] = field(default_factory=list)  # records: one per round
    members: int = 0  # aggregates: how many records the geometric mean is over


@dataclass
class Judgement:
    records: list
    aggregates: list

    @property
    def failures(self):
        return [v for v in self.records + self.aggregates if v.status in FAILING]


def implementation_of(key):
    """backend/algorithm and the operation: the group an aggregate is over."""
    _, backend, algorithm, _, operation = perf_json.split_key(key)
    return f"{backend}/{algorithm} {operation}"


def percentile_interval(samples, confidence):
    """The central `confidence` part of the bootstrap distribution."""
    ordered = sorted(samples)
    tail = round((1 - confidence) / 2 * len(ordered))
    return ordered[tail], ordered[len(ordered) - 1 - tail]


def classify(interval, tolerance):
    low, high = interval
    if low > 1 + tolerance:
        return "regressed"
    if high < 1 - tolerance:
        return "improved"
    return "ok"


def record_status(key, baseline_rounds, candidate_rounds):
    """wrong, missing or new when the record cannot be compared in every round; None when it
    can. A round maps each record to its seconds per call, None for a wrong result."""
    if any(key in r and r[key] is None for r in baseline_rounds + candidate_rounds):
        return "wrong"
    if not any(key in r for r in baseline_rounds):
        return "new"
    if not all(key in r for r in baseline_rounds + candidate_rounds):
        return "missing"
    return None


def bootstrap(ratios, groups, rounds, resamples, seed):
    """Bootstrap samples of every record's median ratio and every group's geometric mean of
    them, each sample from one resampling of the rounds shared by all records."""
    rng = random.Random(seed)
    record_samples = {key: [] for key in ratios}
    group_samples = {name: [] for name in groups}
    for _ in range(resamples):
        picks = [rng.randrange(rounds) for _ in range(rounds)]
        medians = {key: statistics.median(r[i] for i in picks) for key, r in ratios.items()}
        for key, median in medians.items():
            record_samples[key].append(median)
        for name, keys in groups.items():
            group_samples[name].append(statistics.geometric_mean(medians[k] for k in keys))
    return record_samples, group_samples


def judge(baseline_rounds, candidate_rounds, tolerance=0.05, aggregate_tolerance=0.03,
          confidence=0.99, seed=0, resamples=RESAMPLES):
    """Verdicts from per-round measurements: baseline_rounds[i] and candidate_rounds[i] map each
    record key measured in round i to its seconds per call (None: a wrong result)."""
    if len(baseline_rounds) != len(candidate_rounds) or not baseline_rounds:
        raise ValueError("judge needs the same number (>= 1) of baseline and candidate rounds")
    keys = sorted({k for r in baseline_rounds + candidate_rounds for k in r})
    records, ratios = {}, {}
    for key in keys:
        status = record_status(key, baseline_rounds, candidate_rounds)
        if status:
            records[key] = Verdict(key, status)
        else:
            ratios[key] = [c[key] / b[key] for b, c in zip(baseline_rounds, candidate_rounds)]
    groups = {}
    for key in ratios:
        groups.setdefault(implementation_of(key), []).append(key)
    record_samples, group_samples = bootstrap(ratios, groups, len(baseline_rounds), resamples,
                                              seed)
    for key, key_ratios in ratios.items():
        interval = percentile_interval(record_samples[key], confidence)
        records[key] = Verdict(key, classify(interval, tolerance),
                               statistics.median(key_ratios), interval, key_ratios)
    aggregates = group_verdicts(sorted(groups.items()), group_samples,
                                {key: v.estimate for key, v in records.items()}, confidence,
                                aggregate_tolerance)
    return Judgement([records[k] for k in keys], aggregates)


def group_verdicts(groups, group_samples, estimates, confidence, tolerance):
    """A verdict per (name, record keys) group: the geometric mean of its records' estimates, its
    bootstrap interval, and the status that interval gives with the tolerance."""
    verdicts = []
    for name, members in groups:
        interval = percentile_interval(group_samples[name], confidence)
        verdicts.append(Verdict(name, classify(interval, tolerance),
                                statistics.geometric_mean(estimates[k] for k in members),
                                interval, members=len(members)))
    return verdicts


def to_confirm(judgement):
    """The records a confirmation measures again: those that regressed and every record of an
    implementation that regressed (its aggregate is then judged on the same records)."""
    regressed = {v.name for v in judgement.aggregates if v.status == "regressed"}
    return sorted(v.name for v in judgement.records
                  if v.status == "regressed" or (v.status in ("ok", "improved")
                                                  and implementation_of(v.name) in regressed))


def records_filter(keys):
    """A --benchmark_filter (POSIX extended regex) that matches exactly these records."""
    return "^(" + "|".join(perf_json.filter_escaped(k) for k in keys) + ")/"


def confirmed(first, second):
    """The first judgement with the second's verdicts for the records it measured again, and for
    the implementations whose records it measured all of."""
    again = {v.name: v for v in second.records}
    records = [again.get(v.name, v) for v in first.records]
    members = {}
    for v in first.records:
        if v.status not in ("wrong", "missing", "new"):
            members.setdefault(implementation_of(v.name), set()).add(v.name)
    whole = {name for name, keys in members.items() if keys <= again.keys()}
    second_aggregates = {v.name: v for v in second.aggregates}
    aggregates = [second_aggregates[v.name] if v.name in whole and v.name in second_aggregates
                  else v for v in first.aggregates]
    return Judgement(records, aggregates)


def same_plan_and_bits(runs):
    """The records whose plan (the label's `plan=`) and result bits (`y_hash`) are the same in
    every run of both builds: most likely those the candidate's change did not reach (a launch
    figure the plan's text does not name may still differ)."""
    states = {}
    for side in SIDES:
        for run in runs[side]:
            for r in run["records"]:
                states.setdefault(r["key"], set()).add((r["plan"], r["y_hash"]))
    return {key for key, seen in states.items()
            if len(seen) == 1 and next(iter(seen))[1] is not None}


def split_by_change(judgement, unchanged, aggregate_tolerance=0.03, confidence=0.99, seed=0,
                    resamples=RESAMPLES):
    """The geometric mean of candidate/baseline time, with its bootstrap interval, over the
    records whose plan and bits stayed the same and over those whose plan or bits changed (a group
    without records left out). Records that did not change still move, by the machine and by what
    else differs between the builds (host code laid out anew, where each process's buffers land):
    on calls of a few microseconds by several percent, all records of a build alike. The changed
    records are read against that, not against 1. Informative: the verdict does not use it."""
    ratios = {v.name: v.ratios for v in judgement.records if v.ratios}
    groups = change_groups(ratios, unchanged)
    if not groups:
        return []
    rounds = len(next(iter(ratios.values())))
    _, samples = bootstrap(ratios, dict(groups), rounds, resamples, seed)
    return group_verdicts(groups, samples, {v.name: v.estimate for v in judgement.records},
                          confidence, aggregate_tolerance)


def change_groups(keys, unchanged):
    """[(group name, its record keys)]: the records among `keys` whose plan and bits stayed the
    same (those in `unchanged`), then those whose plan or bits changed; an empty group left out."""
    groups = {SAME_PLAN_AND_BITS: [], CHANGED_PLAN_OR_BITS: []}
    for key in keys:
        groups[SAME_PLAN_AND_BITS if key in unchanged else CHANGED_PLAN_OR_BITS].append(key)
    return [(name, members) for name, members in groups.items() if members]


def round_times(run):
    """{record key: its time in one driver run, None for a wrong result}. The time is relative to
    the reference implementation timed batch by batch beside it (the harness's
    reference_seconds_per_call) where the run has one: load on a shared machine moves whole runs
    and stretches of a run by tens of percent, and cancels in that ratio."""
    return {r["key"]: (r["relative_to_reference"] or r["seconds_per_call"]) if r["correct"]
            else None for r in run["records"]}


def driver_command(command, filter_regex, repetitions, output):
    # Google Benchmark matches the filter (POSIX extended regex) against the full benchmark
    # name. The bandwidth probe is left out: the gate judges times, not roofline fractions.
    return shlex.split(command) + [
        f"--benchmark_filter={filter_regex}",
        f"--benchmark_repetitions={repetitions}",
        "--benchmark_enable_random_interleaving=true",
        f"--benchmark_out={output}",
        "--benchmark_out_format=json",
    ]


def run_driver(command, output):
    """Runs one driver command writing `output`; returns (run, whether it exited for a wrong
    result, seconds it took)."""
    if os.path.exists(output):
        os.remove(output)  # left by an earlier gate: a driver that writes nothing must not pass
    started = time.monotonic()
    try:
        finished = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  text=True, check=False)
    except OSError as e:
        raise DriverError(f"cannot run {shlex.join(command)}: {e}") from e
    status = finished.returncode
    if status == WRONG_RESULT_EXIT:
        sys.stderr.write(finished.stderr)  # the oracle's messages
    elif status != 0:
        raise DriverError(f"exit status {status} from {shlex.join(command)}:\n"
                          f"{finished.stderr[-4000:]}")
    try:
        run = perf_json.load_run(output)
    except (OSError, perf_json.SchemaError) as e:
        raise DriverError(f"unreadable output of {shlex.join(command)}: {e}") from e
    return run, status == WRONG_RESULT_EXIT, time.monotonic() - started


def measure(args, seed, filter_regex, rounds, output_dir):
    """Runs the rounds; returns ({side: [run per round]}, [order per round], [failure notes]).
    After a round with a wrong result no further rounds run: the gate fails anyway."""
    first = random.Random(seed).randrange(2)
    os.makedirs(output_dir, exist_ok=True)
    commands = {"baseline": args.baseline, "candidate": args.candidate}
    runs, orders, notes = {side: [] for side in SIDES}, [], []
    for index in range(1, rounds + 1):
        # Each build goes first in half of the rounds, from a random start: whatever favours
        # the first (or second) run of a round falls on both alike.
        order = SIDES if (index + first) % 2 == 0 else SIDES[::-1]
        orders.append(order)
        wrong = False
        for side in order:
            output = os.path.join(output_dir, f"round{index}-{side}.json")
            command = driver_command(commands[side], filter_regex, args.repetitions, output)
            run, wrong_exit, seconds = run_driver(command, output)
            runs[side].append(run)
            print(f"gate: round {index}/{rounds} {side:9} {len(run['records'])} records "
                  f"{seconds:.1f} s", flush=True)
            if wrong_exit:
                notes.append(f"the {side} driver reported a wrong result (exit status "
                             f"{WRONG_RESULT_EXIT}) in round {index}")
                wrong = True
        if wrong:
            print("gate: a wrong result: no further rounds", flush=True)
            break
    return runs, orders, notes


def interval_text(verdict):
    low, high = verdict.interval
    return f"{verdict.estimate:.3f} [{low:.3f}, {high:.3f}]"


def describe(verdict, details):
    if verdict.status == "wrong":
        return details[verdict.name]
    if verdict.status == "missing":
        return "measured by the baseline, but not in every round of both builds"
    if verdict.status == "new":
        return "measured by the candidate only"
    return interval_text(verdict)


def wrong_details(runs):
    """{record key: which build computed a wrong result, and the oracle's message}."""
    details = {}
    for side in SIDES:
        for run in runs[side]:
            for r in run["records"]:
                if not r["correct"]:
                    details.setdefault(r["key"], f"{side}: {r['error_detail']}")
    return details


def report_by_change(by_change, estimate_text):
    """The lines of split_by_change's groups, each estimate as `estimate_text` gives it, and a
    line when the unchanged records moved."""
    if by_change:
        print("gate: by what the candidate changed, the same over all records (informative)")
    for v in by_change:
        print(f"  {v.status:9} {v.name:32} {estimate_text(v)}  {v.members} records")
    unchanged_moved = [v for v in by_change if v.name == SAME_PLAN_AND_BITS and v.status != "ok"]
    for v in unchanged_moved:
        print(f"gate: the records whose plan and bits did not change {v.status} too "
              f"({v.estimate:.3f}): read the changed ones against them")


def report(judgement, notes, details, by_change=()):
    passed = not judgement.failures and not notes
    print("gate: per implementation, geometric mean over its records of candidate/baseline time "
          "(> 1: slower) [interval]")
    for v in judgement.aggregates:
        print(f"  {v.status:9} {v.name:32} {interval_text(v)}  {v.members} records")
    report_by_change(by_change, interval_text)
    unusual = [v for v in judgement.records if v.status != "ok"]
    if unusual:
        print("gate: records that are not ok, median ratio over rounds [interval]")
    for v in unusual:
        print(f"  {v.status:9} {v.name:48} {describe(v, details)}")
    for note in notes:
        print(f"gate: {note}")
    print(verdict_line(judgement, passed))
    return passed


def verdict_line(judgement, passed):
    """The gate's last line: PASS or FAIL and how many records and aggregates got each status."""
    def counts(verdicts):
        tally = {}
        for v in verdicts:
            tally[v.status] = tally.get(v.status, 0) + 1
        return ", ".join(f"{n} {status}" for status, n in sorted(tally.items())) or "none"

    return (f"gate: {'PASS' if passed else 'FAIL'} ({len(judgement.records)} records: "
            f"{counts(judgement.records)}; aggregates: {counts(judgement.aggregates)})")


def utc_now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def history_entry(run, gate_status, judgement=None, baseline_run=None):
    """One line of the history: the run's figures per record (the trend chart's input) and, for a
    gated run, the gate's estimates."""
    verdicts = {v.name: v for v in judgement.records} if judgement else {}
    records = {}
    for r in run["records"]:
        figures = {"roofline_fraction": r["roofline_fraction"],
                   "read_roofline_fraction": r["read_roofline_fraction"],
                   "seconds_per_call": r["seconds_per_call"], "gflop_per_s": r["gflop_per_s"]}
        verdict = verdicts.get(r["key"])
        if verdict:
            figures.update(status=verdict.status, ratio=verdict.estimate,
                           ratio_interval=verdict.interval)
        records[r["key"]] = figures
    entry = {
        "gated_utc": utc_now(),
        "started_utc": run["started_utc"],
        "git_commit": run["git_commit"],
        "suite": run["suite"],
        "device": run["device"]["name"],
        "execution_space": run["device"]["execution_space"],
        "bandwidth_gb_per_s": run["bandwidth"] and run["bandwidth"]["gb_per_s"],
        "gate": gate_status,
        "records": records,
    }
    if judgement:
        entry["baseline_git_commit"] = baseline_run["git_commit"]
        entry["aggregates"] = {v.name: {"status": v.status, "ratio": v.estimate,
                                        "ratio_interval": v.interval}
                               for v in judgement.aggregates}
    return entry


def append_history(path, entry):
    directory = os.path.dirname(path)
    if directory:
        os.makedirs(directory, exist_ok=True)
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps(entry, sort_keys=True) + "\n")


def gate_document(args, seed, runs, orders, judgement, notes, passed, confirmation=None,
                  by_change=(), unchanged=frozenset()):
    """gate.json: everything the verdict was made from. `confirmation`: (the first judgement,
    the confirmation's runs) where records were measured again; theirs then give the times.
    `by_change` and `unchanged`: split_by_change's groups and the records of the first."""
    first = {side: runs[side][0] for side in SIDES}
    per_round = {side: [round_times(run) for run in runs[side]] for side in SIDES}
    again = {}
    if confirmation:
        first_judgement, confirm_runs = confirmation
        again = {side: [round_times(run) for run in confirm_runs[side]] for side in SIDES}
        first_verdicts = {v.name: v for v in first_judgement.records}

    def seconds(key, side):
        rounds = again[side] if again and key in again[side][0] else per_round[side]
        return [r.get(key) for r in rounds]

    records = []
    for v in judgement.records:
        record = {"key": v.name, "status": v.status, "estimate": v.estimate,
                  "interval": v.interval, "ratios": v.ratios,
                  "baseline_seconds": seconds(v.name, "baseline"),
                  "candidate_seconds": seconds(v.name, "candidate"),
                  "same_plan_and_bits": v.name in unchanged}
        if again and v.name in again["candidate"][0]:
            before = first_verdicts[v.name]
            record["first"] = {"status": before.status, "estimate": before.estimate,
                               "interval": before.interval}
        records.append(record)
    return {
        "verdict": "pass" if passed else "fail",
        "notes": notes,
        "parameters": {"candidate": args.candidate, "baseline": args.baseline,
                       "rounds": args.rounds, "rounds_run": len(orders),
                       "repetitions": args.repetitions, "filter": args.filter,
                       "tolerance": args.tolerance,
                       "aggregate_tolerance": args.aggregate_tolerance,
                       "confidence": args.confidence, "confirm_rounds": args.confirm_rounds,
                       "resamples": RESAMPLES, "seed": seed},
        "order": orders,
        "device": first["candidate"]["device"],
        "suite": first["candidate"]["suite"],
        "git_commit": {side: first[side]["git_commit"] for side in SIDES},
        "bandwidth_gb_per_s": {side: [run["bandwidth"] and run["bandwidth"]["gb_per_s"]
                                      for run in runs[side]]
                               for side in SIDES},
        "aggregates": [{"implementation": v.name, "status": v.status, "estimate": v.estimate,
                        "interval": v.interval, "records": v.members}
                       for v in judgement.aggregates],
        "by_change": [{"group": v.name, "status": v.status, "estimate": v.estimate,
                       "interval": v.interval, "records": v.members} for v in by_change],
        "records": records,
    }


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--candidate", required=True, help="driver command line of the build to "
                        "judge")
    parser.add_argument("--baseline", help="driver command line of the reference build (default: "
                        "the candidate's)")
    parser.add_argument("--rounds", type=int, default=8, help="paired rounds (8)")
    parser.add_argument("--repetitions", type=int, default=2,
                        help="Google Benchmark repetitions per run, interleaved at random (2)")
    parser.add_argument("--filter", default="/kspmv/",
                        help="regex over record names (default '/kspmv/': kspmv's own records)")
    parser.add_argument("--tolerance", type=float, default=0.05,
                        help="slowdown of one record the gate accepts (0.05)")
    parser.add_argument("--aggregate-tolerance", type=float, default=0.03,
                        help="slowdown of an implementation over its records the gate accepts "
                             "(0.03)")
    parser.add_argument("--confidence", type=float, default=0.99,
                        help="coverage of the bootstrap intervals (0.99)")
    parser.add_argument("--confirm-rounds", type=int, default=0,
                        help="rounds that measure regressed records and implementations again, "
                             "alone (0: none)")
    parser.add_argument("--seed", type=int, help="seed of the run order and the bootstrap "
                        "(default: from the clock)")
    parser.add_argument("--output-dir", default=os.path.join("perf_results", "gate"),
                        help="where the rounds' JSON and gate.json go (perf_results/gate)")
    parser.add_argument("--history", help="JSON-lines file to append the verdict to")
    args = parser.parse_args(argv)
    args.baseline = args.baseline or args.candidate
    if args.rounds < 1 or args.repetitions < 1 or args.confirm_rounds < 0:
        parser.error("--rounds and --repetitions must be at least 1, --confirm-rounds at least 0")
    if not 0 < args.confidence < 1:
        parser.error("--confidence must lie between 0 and 1")
    return args


def main(argv=None):
    args = parse_arguments(argv)
    seed = args.seed if args.seed is not None else int(time.time())
    print(f"gate: candidate {args.candidate}\ngate: baseline  {args.baseline}\n"
          f"gate: {args.rounds} rounds of {args.repetitions} repetitions of records matching "
          f"{args.filter!r}, seed {seed}; {100 * args.confidence:g}% intervals, tolerance "
          f"{100 * args.tolerance:g}% per record, {100 * args.aggregate_tolerance:g}% per "
          f"implementation", flush=True)
    try:
        runs, orders, notes = measure(args, seed, args.filter, args.rounds, args.output_dir)
    except DriverError as e:
        print(f"gate: {e}", file=sys.stderr)
        return 2
    if not runs["baseline"][0]["records"]:
        print(f"gate: no record of the baseline matches {args.filter!r}", file=sys.stderr)
        return 2
    first = runs["candidate"][0]
    device = first["device"]
    print(f"gate: {device['name']} ({device['execution_space']}, concurrency "
          f"{device['concurrency']}); candidate {first['git_commit']}, baseline "
          f"{runs['baseline'][0]['git_commit']}")
    judgement = judge([round_times(r) for r in runs["baseline"]],
                      [round_times(r) for r in runs["candidate"]],
                      args.tolerance, args.aggregate_tolerance, args.confidence, seed)
    unchanged = same_plan_and_bits(runs)
    by_change = split_by_change(judgement, unchanged, args.aggregate_tolerance, args.confidence,
                                seed)
    confirmation = None
    keys = to_confirm(judgement) if args.confirm_rounds and not notes else []
    if keys:
        print(f"gate: {len(keys)} records regressed or in an implementation that did; measured "
              f"again alone, {args.confirm_rounds} rounds", flush=True)
        try:
            confirm_runs, _, notes = measure(args, seed + 1, records_filter(keys),
                                             args.confirm_rounds,
                                             os.path.join(args.output_dir, "confirm"))
        except DriverError as e:
            print(f"gate: {e}", file=sys.stderr)
            return 2
        second = judge([round_times(r) for r in confirm_runs["baseline"]],
                       [round_times(r) for r in confirm_runs["candidate"]],
                       args.tolerance, args.aggregate_tolerance, args.confidence, seed + 1)
        confirmation = (judgement, confirm_runs)
        judgement = confirmed(judgement, second)
    measured = {side: runs[side] + (confirmation[1][side] if confirmation else [])
                for side in SIDES}
    passed = report(judgement, notes, wrong_details(measured), by_change)
    path = os.path.join(args.output_dir, "gate.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(gate_document(args, seed, runs, orders, judgement, notes, passed,
                                confirmation, by_change, unchanged), f, indent=1)
    print(f"gate: wrote {path}")
    if args.history:
        append_history(args.history, history_entry(first, "pass" if passed else "fail",
                                                   judgement, runs["baseline"][0]))
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
