#!/usr/bin/env python3
"""A stand-in for kspmv_perf and kspmv_cuda_bench in the tests of the gate, the JSON reader and the
charts: the part of the drivers' command line those use, and their Google Benchmark JSON, for
three matrices x {kspmv/Auto, kspmv/Vector, KokkosKernels/native} x {fp64, fp32}, operation N (and a complex
file that every record skips). It measures nothing: each record has a true time per call, scaled
by seeded lognormal noise and by --plant-slowdown for kspmv's records.

    fake_driver.py [--suite quick|nightly] [--precision fp64|fp32 ...] [--plant-slowdown F]
        [--slow KEY=F ...] [--noise SIGMA] [--run-noise SIGMA] [--reference-noise SIGMA]
        [--noise-seed N] [--wrong KEY ...] [--perturb-y KEY ...] [--perturb-plan KEY ...]
        [--repetitions N] [--batches N] [--warmup N] [--min-batch-seconds T] [--copy-bytes B]
        [--git-commit C] [--output-dir DIR] [--benchmark_filter=REGEX]
        [--benchmark_repetitions=N] [--benchmark_enable_random_interleaving=true|false]
        [--benchmark_out=FILE] [--benchmark_out_format=json] [--benchmark_list_tests=true]

--noise scales every repetition's time by exp(N(0, SIGMA)), --run-noise every time of one run by
one such factor (load on the machine); a record's reference time (the baseline timed beside it,
batch by batch) shares its repetition's factor, times exp(N(0, --reference-noise)). The noise
depends on --noise-seed and the output file's
name, so the runs of a gate's rounds differ and a rerun of the test repeats them. Their defaults
come from KSPMV_FAKE_NOISE, KSPMV_FAKE_RUN_NOISE, KSPMV_FAKE_REFERENCE_NOISE (else 0.02) and
KSPMV_FAKE_NOISE_SEED (else 0). --slow makes one record F times slower (its reference is not).
--wrong makes a record compute a wrong result. Every measured record's y_hash is a fixed function
of its name, as a real driver's is of y's bits; --perturb-y changes a record's y_hash and
--perturb-plan the plan its label describes (a kspmv record's), as a restructuring that changed
behaviour would.
--repetitions stands for --benchmark_repetitions as in the drivers (which win); --batches,
--warmup, --min-batch-seconds and --copy-bytes are accepted and ignored. Exit status as the
drivers': 0, 2 usage error, 3 a wrong result of a kspmv record.
"""

import argparse
import hashlib
import json
import math
import os
import random
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import perf_json  # noqa: E402

# name, rows, cols, nnz, source
MATRICES = [
    ("stencil27_20", 8000, 8000, 195112, "generated"),
    ("uniform_200_k100", 200, 200, 20000, "generated"),
    ("powerlaw_2000_a1.5", 2000, 2000, 14957, "generated"),
]
SKIPPED_MATRIX = ("young1c", "complex values cannot be read into a real scalar type")
# backend, algorithm, chosen algorithm, true GB/s of compulsory traffic, separate setup
IMPLEMENTATIONS = [
    ("kspmv", "Auto", "Vector", 12.0, True),
    ("kspmv", "Vector", "Vector", 9.0, True),
    ("KokkosKernels", "native", "native", 11.0, False),
]
SCALAR_BYTES = {"fp64": 8, "fp32": 4}
OPERATION = "N"  # the drivers measure more operations; the gate's tests need one
BATCHES = 5
COPY_BYTES = 256 * 2**20
COPY_GB_PER_S = 20.0
LAST_LEVEL_CACHE_BYTES = 32 * 2**20
COPY_NAME = f"{perf_json.COPY_BANDWIDTH}/iterations:15/manual_time"
LAUNCH_FLOOR_NAME = f"{perf_json.LAUNCH_FLOOR}/iterations:{BATCHES}/manual_time"
LAUNCH_FLOOR_SECONDS = 2e-6


def gb_name(key):
    # The drivers register every record with ->Iterations(batches)->UseManualTime().
    return f"{key}/iterations:{BATCHES}/manual_time"


def record_keys(precisions):
    keys = []
    for matrix, *_ in MATRICES + [SKIPPED_MATRIX]:
        for precision in precisions:
            for backend, algorithm, *_ in IMPLEMENTATIONS:
                keys.append(f"{matrix}/{backend}/{algorithm}/{precision}/{OPERATION}")
    return keys


def context(args):
    strings = {
        "kspmv_schema": perf_json.SCHEMA, "suite": args.suite, "harness": "kokkos",
        "execution_space": "Serial", "device_name": "fake CPU", "concurrency": "1",
        "last_level_cache_bytes": str(LAST_LEVEL_CACHE_BYTES), "compiler": "fake 1.0",
        "kokkos_version": "Kokkos 4.6.1, Kokkos Kernels 4.6.2", "git_commit": args.git_commit,
        "scale": "0.002", "alpha": "1", "plant_slowdown": repr(args.plant_slowdown),
        "command_line": " ".join(sys.argv), "started_utc": "2026-11-24T00:00:00Z",
    }
    return {"date": "2026-11-24T00:00:00+00:00", "host_name": "fake", "executable": sys.argv[0],
            "num_cpus": 2, "mhz_per_cpu": 2800, "cpu_scaling_enabled": False,
            "caches": [{"type": "Unified", "level": 3, "size": LAST_LEVEL_CACHE_BYTES,
                        "num_sharing": 2}],
            "load_avg": [0.5, 0.4, 0.3], "library_build_type": "release", **strings}


def entry(name, index, repetitions, family, seconds, **fields):
    return {"name": name, "family_index": family, "per_family_instance_index": 0,
            "run_name": name, "run_type": "iteration", "repetitions": repetitions,
            "repetition_index": index, "threads": 1, "iterations": BATCHES,
            "real_time": seconds * 1e6, "cpu_time": seconds * 1e6, "time_unit": "us", **fields}


def aggregates(entries):
    """Google Benchmark's summary entries after the repetitions; readers must ignore them."""
    times = [e["real_time"] for e in entries]
    first = entries[0]
    summaries = {"mean": statistics.mean(times), "median": statistics.median(times),
                 "stddev": statistics.stdev(times)}
    summaries["cv"] = summaries["stddev"] / summaries["mean"]
    return [{"name": f"{first['name']}_{name}", "family_index": first["family_index"],
             "per_family_instance_index": 0, "run_name": first["name"],
             "run_type": "aggregate", "repetitions": len(entries), "threads": 1,
             "aggregate_name": name, "aggregate_unit": "percentage" if name == "cv" else "time",
             "iterations": len(entries), "real_time": value, "cpu_time": value,
             "time_unit": "us"} for name, value in summaries.items()]


def copy_entries(repetitions, noise):
    seconds = COPY_BYTES / (COPY_GB_PER_S * 1e9)
    entries = []
    for index in range(repetitions):
        best = seconds * noise()
        entries.append(entry(COPY_NAME, index, repetitions, 0, best * 1.1,
                             bytes_per_copy=float(COPY_BYTES), best_seconds=best,
                             bytes_per_second=COPY_BYTES / best))
    return entries


def launch_floor_entries(repetitions, noise):
    return [entry(LAUNCH_FLOOR_NAME, index, repetitions, 0, LAUNCH_FLOOR_SECONDS * noise() * 1.1,
                  best_seconds=LAUNCH_FLOOR_SECONDS * noise()) for index in range(repetitions)]


def true_seconds(matrix, precision, gb_per_s):
    _, rows, cols, nnz, _ = next(m for m in MATRICES if m[0] == matrix)
    shape = {"rows": rows, "cols": cols, "nnz": nnz, "vectors": 1, "transposed": 0,
             "scalar_bytes": SCALAR_BYTES[precision], "ordinal_bytes": 4, "offset_bytes": 4}
    return perf_json.compulsory_bytes(shape, beta=0) / (gb_per_s * 1e9)


def record_entries(key, family, args, noise, reference_noise):
    matrix, backend, algorithm, precision, _ = perf_json.split_key(key)
    name, repetitions = gb_name(key), args.benchmark_repetitions
    if matrix == SKIPPED_MATRIX[0]:
        return [entry(name, i, repetitions, family, 0, iterations=0, error_occurred=True,
                      error_message=f"skipped: {SKIPPED_MATRIX[1]}")
                for i in range(repetitions)]
    if key in args.wrong:
        return [entry(name, i, repetitions, family, 0, iterations=0, error_occurred=True,
                      error_message="wrong result: y[17] = 3.5, the reference 1.25 +- 1e-14")
                for i in range(repetitions)]
    _, rows, cols, nnz, source = next(m for m in MATRICES if m[0] == matrix)
    _, _, chosen, gb_per_s, has_setup = next(
        i for i in IMPLEMENTATIONS if i[:2] == (backend, algorithm))
    shape = {"rows": rows, "cols": cols, "nnz": nnz, "vectors": 1, "transposed": 0,
             "scalar_bytes": SCALAR_BYTES[precision], "ordinal_bytes": 4, "offset_bytes": 4}
    compulsory = perf_json.compulsory_bytes(shape, beta=0)
    seconds = compulsory / (gb_per_s * 1e9)
    if backend == perf_json.KSPMV_BACKEND:
        seconds *= args.plant_slowdown
    seconds *= args.slow.get(key, 1.0)
    counters = {name: float(value) for name, value in shape.items()}
    counters.update(compulsory_bytes=float(compulsory),
                    calls_per_batch=float(max(1, round(0.002 / seconds))),
                    relative_error=1.2e-16, beta=0.0, handle=1.0, layout_right=0.0,
                    y_hash=fake_y_hash(key, key in args.perturb_y))
    if has_setup:
        counters["setup_seconds"] = 3 * seconds
    # Like the harness, every record but the reference's own is timed batch by batch beside the
    # reference: the two share the repetition's noise (load), up to --reference-noise.
    reference = next(i for i in IMPLEMENTATIONS if i[0] != perf_json.KSPMV_BACKEND)
    paired = (backend, algorithm) != reference[:2]
    reference_seconds = true_seconds(matrix, precision, reference[3])
    plan = (fake_plan(key, chosen, key in args.perturb_plan)
            if backend == perf_json.KSPMV_BACKEND else "")
    entries = []
    for index in range(repetitions):
        factor = noise()
        measured = seconds * factor
        if paired:
            counters["reference_seconds_per_call"] = reference_seconds * factor * reference_noise()
        entries.append(entry(name, index, repetitions, family, measured, **counters,
                             bytes_per_second=compulsory / measured,
                             label=f"chosen={chosen};source={source};reference="
                                   f"{reference[0] + '/' + reference[1] if paired else ''}"
                                   f";plan={plan}"))
    return entries


def fake_y_hash(key, perturbed):
    """A 48-bit integer per record name, as the harness's y_hash is per y; another with
    `perturbed`."""
    digest = hashlib.sha256(f"{key}{'/perturbed' if perturbed else ''}".encode()).digest()
    return float(int.from_bytes(digest[:6], "big"))


def fake_plan(key, chosen, perturbed):
    """What a kspmv record's handle says of its plan (Handle::describe(), its ';' written ',')."""
    matrix, _, algorithm, _, _ = perf_json.split_key(key)
    _, rows, cols, nnz, _ = next(m for m in MATRICES if m[0] == matrix)
    how = "chosen by Auto" if algorithm == "Auto" else "requested"
    return (f"{chosen} ({how}) for {rows} x {cols} with {nnz} entries, columns: "
            f"{'compressed' if perturbed else 'own'}")


def output_path(args):
    """Where the JSON goes, as the drivers do it; None: nowhere."""
    if args.benchmark_out:
        return args.benchmark_out
    return os.path.join(args.output_dir, "run.json") if args.output_dir else None


def benchmark_document(args, keys):
    """The JSON a driver run of the records `keys` writes."""
    rng = random.Random(f"{args.noise_seed}:{os.path.basename(output_path(args) or '')}")
    run_factor = math.exp(rng.gauss(0, args.run_noise))

    def noise():
        return run_factor * math.exp(rng.gauss(0, args.noise))

    def reference_noise():
        return math.exp(rng.gauss(0, args.reference_noise))

    groups = [copy_entries(args.benchmark_repetitions, noise)] if matches(args, COPY_NAME) else []
    if matches(args, LAUNCH_FLOOR_NAME):
        groups.append(launch_floor_entries(args.benchmark_repetitions, noise))
    all_keys = record_keys(args.precision)
    for key in keys:
        groups.append(record_entries(key, 1 + all_keys.index(key), args, noise, reference_noise))
    if args.benchmark_enable_random_interleaving == "true":
        rng.shuffle(groups)  # Google Benchmark reports each record once its repetitions are done
    benchmarks = []
    for group in groups:
        benchmarks += group
        measured = [e for e in group if not e.get("error_occurred")]
        if len(measured) > 1:
            benchmarks += aggregates(measured)
    return {"context": context(args), "benchmarks": benchmarks}


def matches(args, name):
    return re.search(args.benchmark_filter, name) is not None


def console(document):
    """Google Benchmark's console report, roughly: one line per entry."""
    print(f"{'Benchmark':<70} {'Time':>14} {'Iterations':>10}")
    for e in document["benchmarks"]:
        if e.get("error_occurred"):
            print(f"{e['name']:<70} ERROR OCCURRED: '{e['error_message']}'")
        else:
            print(f"{e['name']:<70} {e['real_time']:>11.2f} {e['time_unit']} "
                  f"{e['iterations']:>10}")


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--suite", default="quick")
    parser.add_argument("--precision", action="append", choices=sorted(SCALAR_BYTES))
    parser.add_argument("--plant-slowdown", type=float, default=1.0)
    parser.add_argument("--slow", action="append", default=[], metavar="KEY=F")
    # The environment serves commands that cannot take more flags (--driver of the perf tests).
    parser.add_argument("--noise", type=float,
                        default=float(os.environ.get("KSPMV_FAKE_NOISE", 0)))
    parser.add_argument("--run-noise", type=float,
                        default=float(os.environ.get("KSPMV_FAKE_RUN_NOISE", 0)))
    parser.add_argument("--reference-noise", type=float,
                        default=float(os.environ.get("KSPMV_FAKE_REFERENCE_NOISE", 0.02)))
    parser.add_argument("--noise-seed", type=int,
                        default=int(os.environ.get("KSPMV_FAKE_NOISE_SEED", 0)))
    parser.add_argument("--wrong", action="append", default=[], metavar="KEY")
    parser.add_argument("--perturb-y", action="append", default=[], metavar="KEY")
    parser.add_argument("--perturb-plan", action="append", default=[], metavar="KEY")
    # The harness's timing options: the fake measures nothing, so only the repetitions matter.
    parser.add_argument("--repetitions", type=int)
    parser.add_argument("--batches", type=int)
    parser.add_argument("--warmup", type=int)
    parser.add_argument("--min-batch-seconds", type=float)
    parser.add_argument("--copy-bytes", type=float)
    parser.add_argument("--git-commit", default="fakecommit")
    parser.add_argument("--output-dir")
    parser.add_argument("--benchmark_filter", default=".")
    parser.add_argument("--benchmark_repetitions", type=int)
    parser.add_argument("--benchmark_enable_random_interleaving", choices=("true", "false"),
                        default="true")
    parser.add_argument("--benchmark_out")
    parser.add_argument("--benchmark_out_format", choices=("json",), default="json")
    parser.add_argument("--benchmark_list_tests", choices=("true", "false"), default="false")
    args = parser.parse_args(argv)
    if args.suite not in ("quick", "nightly", "sweep"):
        parser.error(f"--suite is quick, nightly or sweep, not '{args.suite}'")
    if args.plant_slowdown < 1:
        parser.error("--plant-slowdown must be >= 1")
    try:
        args.slow = {key: float(factor) for key, factor in
                     (slow.rsplit("=", 1) for slow in args.slow)}
    except ValueError:
        parser.error("--slow takes KEY=FACTOR")
    args.precision = args.precision or ["fp64", "fp32"]
    args.benchmark_repetitions = args.benchmark_repetitions or args.repetitions or 3
    return args


def main(argv=None):
    args = parse_arguments(argv)
    keys = [k for k in record_keys(args.precision) if matches(args, gb_name(k))]
    if args.benchmark_list_tests == "true":
        if matches(args, COPY_NAME):
            print(COPY_NAME)
        if matches(args, LAUNCH_FLOOR_NAME):
            print(LAUNCH_FLOOR_NAME)
        for key in keys:
            print(gb_name(key))
        return 0
    document = benchmark_document(args, keys)
    output = output_path(args)
    if output:
        os.makedirs(os.path.dirname(output) or ".", exist_ok=True)
        with open(output, "w", encoding="utf-8") as f:
            json.dump(document, f, indent=2)
    console(document)
    # As the drivers: a baseline's wrong result is a finding about that library, kspmv's fails.
    return 3 if any(k in args.wrong and perf_json.split_key(k)[1] == perf_json.KSPMV_BACKEND
                    for k in keys) else 0


if __name__ == "__main__":
    sys.exit(main())
