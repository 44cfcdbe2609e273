#!/usr/bin/env python3
"""Whether two builds compute the same bits: every kspmv record's y and plan, record by record.

A restructuring of a backend (files moved, code shared or split, nothing meant to change) must
change no bits: every algorithm, Auto included, must write the same y, bit for bit, and make the
same plan. The drivers check each record's first call against the reference oracle and report
`y_hash`, a hash of that call's y (the high 48 bits of 64-bit FNV-1a over its bytes), and the plan's
description in the label (`plan=`, Handle::describe()); this script compares them between a
baseline and a candidate. A difference in the last bit of one element of y shows; a time does
not matter.

    equivalence.py [--new-algorithm NAME ...] BASELINE.json CANDIDATE.json
    equivalence.py --driver-a A --driver-b B [--output-dir DIR] [--new-algorithm NAME ...]
                   [-- driver arguments]

The first form compares two run.json files. The second runs two drivers one after the other, each
once with a short untimed configuration (one repetition of one batch of one call, no warm-up, a
1 MiB bandwidth probe, records in registration order: the arguments of QUICK), then the
arguments after "--" (e.g. --suite nightly --matrices DIR --precision fp64,fp32,c128,c64), which
win, and compares their JSON. A and B are build directories (their kspmv_perf, or
kspmv_cuda_bench in a build without Kokkos, as nightly.py finds it) or driver command lines. The
JSON goes to DIR/a and DIR/b; without --output-dir, to a temporary directory, removed when the
builds match and kept (and named) when they do not. A driver against itself (--driver-a B
--driver-b B) shows whether its records are reproducible at all: the CUDA backend joins partial
sums without floating-point atomics, so they should be.

Only kspmv's records are compared (the baselines' libraries are the same in both builds, and
cuSPARSE need not be reproducible), except those with determinism off (algorithm `Auto_atomic`:
atomic adds) and those of algorithm `KokkosKernels` (the call handed to Kokkos Kernels), by name
matrix/backend/algorithm/precision/operation, each by its first measured repetition (Google
Benchmark's aggregates left out; every repetition reports the same y_hash, which perf_json checks). A record differs when its y_hash, its plan or what Auto
chose differ, or when it computed a wrong result in either build (no y to compare); it is missing
when only one run has it (skipped or filtered out in the other), except a record of an algorithm
named by --new-algorithm (a record the candidate's bench adds, e.g. `Auto_products`) that only the
candidate has: that one is listed as new.

Exit status: 0 every kspmv record of both runs is equal, 1 one differs or is missing, 2 bad input
(an unreadable file, no kspmv records, files written before y_hash, a driver that failed
otherwise than by a wrong result).
"""

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

import nightly
import perf_json

# The drivers' arguments of a short run: each record's checked call and one more, untimed in
# effect. --min-batch-seconds must be positive (0 means the suite's default); the bandwidth probe
# cannot be left out by a filter that the user's --benchmark_filter would replace.
QUICK = ["--repetitions", "1", "--batches", "1", "--warmup", "0", "--min-batch-seconds", "1e-9",
         "--copy-bytes", str(2**20), "--benchmark_enable_random_interleaving=false"]
WRONG_RESULT_EXIT = 3  # the drivers' status when a kspmv record computed a wrong result
# Context keys whose difference between the runs explains a difference of bits: noted, not failed.
CONTEXT = (("device", lambda run: run["device"]["name"]),
           ("harness", lambda run: run["harness"]),
           ("suite", lambda run: run["suite"]),
           ("scale", lambda run: run["parameters"]["scale"]))


# kspmv's records whose y may differ between runs by design: determinism turned off, and the
# algorithm that hands the call to Kokkos Kernels (the same library in both builds, whose CUDA
# calls go to cuSPARSE's ALG1 or add with atomics: two runs of one driver differ in mode T and on
# long rows).
NOT_REPRODUCIBLE_SUFFIX = "_atomic"
HANDED_TO_KOKKOS_KERNELS = "KokkosKernels"


def compared(record):
    return (record["backend"] == perf_json.KSPMV_BACKEND
            and not record["algorithm"].endswith(NOT_REPRODUCIBLE_SUFFIX)
            and record["algorithm"] != HANDED_TO_KOKKOS_KERNELS)


class BadInput(RuntimeError):
    pass


def kspmv_records(run, where):
    """{record key: record} of kspmv's records of a run; BadInput when there is nothing to
    compare."""
    records = {r["key"]: r for r in run["records"] if compared(r)}
    if not records:
        raise BadInput(f"{where}: no kspmv records")
    if all(r["y_hash"] is None for r in records.values() if r["correct"]):
        raise BadInput(f"{where}: no record has a y_hash (written before the harness reported "
                       f"it: rebuild the driver)")
    return records


def differences(baseline, candidate):
    """What differs between the two runs' records of one key: a list of (what, baseline's,
    candidate's); empty when they are equal."""
    found = []
    for side, record in (("baseline", baseline), ("candidate", candidate)):
        if not record["correct"]:
            found.append((f"wrong in the {side}", record["error_detail"], None))
    if found:
        return found  # no y to compare
    if baseline["y_hash"] is None or candidate["y_hash"] is None:
        return [("y_hash missing", baseline["y_hash"], candidate["y_hash"])]
    for field in ("y_hash", "chosen_algorithm", "plan"):
        if baseline[field] != candidate[field]:
            found.append((field, baseline[field], candidate[field]))
    return found


def compare(baseline_run, candidate_run, new_algorithms=()):
    """(equal keys, {differing key: differences}, {missing key: the side that has it}, new keys)
    of kspmv's records, in the baseline's order then the candidate's."""
    baseline = kspmv_records(baseline_run, "baseline")
    candidate = kspmv_records(candidate_run, "candidate")
    equal, differing, missing, new = [], {}, {}, []
    for key in list(baseline) + [k for k in candidate if k not in baseline]:
        if key not in candidate:
            missing[key] = "baseline"
        elif key not in baseline and perf_json.split_key(key)[2] in new_algorithms:
            new.append(key)
        elif key not in baseline:
            missing[key] = "candidate"
        else:
            found = differences(baseline[key], candidate[key])
            if found:
                differing[key] = found
            else:
                equal.append(key)
    return equal, differing, missing, new


def value_text(value):
    if isinstance(value, float) and value.is_integer():
        return str(int(value))  # y_hash
    return repr(value)


def skip_reason(run, key):
    matrix = perf_json.split_key(key)[0]
    return next((s["reason"] for s in run["skipped"] if s["matrix"] == matrix), None)


def report(baseline_run, candidate_run, names, new_algorithms=()):
    """Prints the comparison; returns the exit status (0 equal, 1 not)."""
    for side, run in zip(("baseline", "candidate"), (baseline_run, candidate_run)):
        print(f"equivalence: {side:9} {names[side]}: {run['git_commit']} on "
              f"{run['device']['name']}")
    for what, value in CONTEXT:
        if value(baseline_run) != value(candidate_run):
            print(f"equivalence: note: the runs' {what} differ ({value(baseline_run)!r}, "
                  f"{value(candidate_run)!r}): bits may differ for that reason alone")
    equal, differing, missing, new = compare(baseline_run, candidate_run, new_algorithms)
    for key, found in differing.items():
        print(f"  differing  {key}")
        for what, before, after in found:
            if after is None and what.startswith("wrong"):
                print(f"             {what}: {before}")
            else:
                print(f"             {what}: baseline {value_text(before)}")
                print(f"             {' ' * len(what)}  candidate {value_text(after)}")
    for key, side in missing.items():
        other_run = candidate_run if side == "baseline" else baseline_run
        reason = skip_reason(other_run, key)
        why = f" (the other skipped it: {reason})" if reason else ""
        print(f"  missing    {key}  only in the {side}{why}")
    for key in new:
        print(f"  new        {key}  only in the candidate")
    passed = not differing and not missing
    compared = len(equal) + len(differing)
    print(f"equivalence: {'PASS' if passed else 'FAIL'}: {compared} kspmv records compared, "
          f"{len(equal)} equal, {len(differing)} differing, {len(missing)} missing"
          + (f", {len(new)} new" if new else ""))
    return 0 if passed else 1


def compare_files(baseline_path, candidate_path, new_algorithms=()):
    try:
        runs = [perf_json.load_run(path) for path in (baseline_path, candidate_path)]
    except (OSError, perf_json.SchemaError) as e:
        raise BadInput(str(e)) from e
    return report(*runs, {"baseline": baseline_path, "candidate": candidate_path}, new_algorithms)


def driver_command(driver):
    """A driver's command line: a build directory's driver, or the words of a command line."""
    if os.path.isdir(driver):
        found = nightly.driver_in(driver)
        if found is None:
            raise BadInput(f"{driver} holds neither {' nor '.join(nightly.DRIVERS)}")
        return [found]
    return shlex.split(driver)


def run_driver(command, output_dir):
    """Runs one driver into output_dir/run.json; a wrong result (exit 3) still gives records."""
    os.makedirs(output_dir, exist_ok=True)
    output = os.path.join(output_dir, "run.json")
    if os.path.exists(output):
        os.remove(output)  # an earlier comparison's: a driver that writes nothing must not pass
    print(f"equivalence: {shlex.join(command)}", flush=True)
    try:
        finished = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  text=True, check=False)
    except OSError as e:
        raise BadInput(f"cannot run {shlex.join(command)}: {e}") from e
    if finished.returncode == WRONG_RESULT_EXIT:
        sys.stderr.write(finished.stderr)  # the oracle's messages
    elif finished.returncode != 0:
        raise BadInput(f"exit status {finished.returncode} from {shlex.join(command)}:\n"
                       f"{finished.stderr[-4000:]}")
    return output


def compare_drivers(args):
    commands = {side: driver_command(driver) for side, driver in (("a", args.driver_a),
                                                                  ("b", args.driver_b))}
    output_dir = args.output_dir or tempfile.mkdtemp(prefix="kspmv-equivalence-")
    try:
        paths = {side: run_driver([*command, *QUICK, *args.passthrough, "--output-dir",
                                   os.path.join(output_dir, side)],
                                  os.path.join(output_dir, side))
                 for side, command in commands.items()}
        status = compare_files(paths["a"], paths["b"], args.new_algorithm)
    except BadInput:
        if args.output_dir is None:
            shutil.rmtree(output_dir)  # the driver's message says what went wrong
        raise
    if args.output_dir is None:
        if status == 0:
            shutil.rmtree(output_dir)
        else:
            print(f"equivalence: the runs are kept in {output_dir}")
    return status


def parse_arguments(argv):
    argv, passthrough = nightly.split_passthrough(argv)
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*", metavar="JSON",
                        help="BASELINE.json CANDIDATE.json (run.json of two drivers)")
    parser.add_argument("--driver-a", help="baseline: build directory or driver command line")
    parser.add_argument("--driver-b", help="candidate: build directory or driver command line")
    parser.add_argument("--output-dir", help="where the drivers' runs go (DIR/a, DIR/b)")
    parser.add_argument("--new-algorithm", action="append", default=[], metavar="NAME",
                        help="records of this algorithm only in the candidate are new, not "
                             "missing (repeatable)")
    args = parser.parse_args(argv)
    args.passthrough = passthrough
    drivers = args.driver_a is not None or args.driver_b is not None
    if drivers and (args.files or args.driver_a is None or args.driver_b is None):
        parser.error("give --driver-a and --driver-b, or two JSON files, not both")
    if not drivers and (len(args.files) != 2 or passthrough or args.output_dir):
        parser.error("give two JSON files (BASELINE.json CANDIDATE.json), or --driver-a and "
                     "--driver-b [-- driver arguments]")
    return args


def main(argv=None):
    args = parse_arguments(sys.argv[1:] if argv is None else argv)
    try:
        if args.driver_a is not None:
            return compare_drivers(args)
        return compare_files(*args.files, args.new_algorithm)
    except BadInput as e:
        print(f"equivalence: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
