#!/usr/bin/env python3
"""Reads and checks what kspmv_perf and kspmv_cuda_bench write: Google Benchmark's JSON with the
suite's own context keys (kspmv_schema "kspmv-bench/4", documented in perf_tests/README.md).

load_run(path) turns a file into one run: the context, the copy-bandwidth ceiling, the launch floor
and one record per matrix/backend/algorithm/precision with the derived figures (median time per
call over the repetitions, GB/s, GFLOP/s, roofline fraction, speedups over the baselines of the
same run).
write_csv(run, path) writes that run as run.csv.

As a program: checks run files and exits 1 naming the first thing that is wrong.
    python3 perf_json.py run.json [more.json ...]
"""

import csv
import json
import math
import re
import statistics
import sys

SCHEMA = "kspmv-bench/4"
COPY_BANDWIDTH = "copy_bandwidth"
LAUNCH_FLOOR = "launch_floor"
PRECISIONS = ("fp64", "fp32", "c128", "c64", "fp32_fp64")
KSPMV_BACKEND = "kspmv"  # every other backend is a baseline

# Our context keys, all strings as Google Benchmark's custom context requires; the parsers turn
# the numeric ones into numbers.
CONTEXT_KEYS = ("kspmv_schema", "suite", "harness", "execution_space", "device_name",
                "concurrency", "last_level_cache_bytes", "compiler", "kokkos_version",
                "git_commit", "scale", "alpha", "plant_slowdown", "command_line", "started_utc")
OPERATION = re.compile(r"[NTCH](_k[0-9]+_(left|right))?(_beta1|_beta)?(_nohandle)?")
SHAPE_COUNTERS = ("rows", "cols", "nnz", "vectors", "transposed", "scalar_bytes", "ordinal_bytes",
                  "offset_bytes", "compulsory_bytes")
SECONDS_PER_UNIT = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
# y_hash: the high 48 bits of 64-bit FNV-1a over the first call's y, an integer a double holds.
Y_HASH_BITS = 48

# Google Benchmark appends the options a benchmark was registered with to its name
# (".../iterations:5/manual_time"); the record is what comes before them.
REGISTRATION_SUFFIX = re.compile(
    r"(/(iterations|repeats|threads|min_time|min_warmup_time):[^/]*|/(real|manual|process)_time)+$")

CSV_COLUMNS = ("matrix", "backend", "algorithm", "chosen_algorithm", "precision", "operation", "vectors",
               "layout", "rows", "cols",
               "nnz", "setup_seconds", "seconds_per_call", "launch_floor_seconds", "gb_per_s",
               "gflop_per_s",
               "arithmetic_intensity", "roofline_fraction", "read_bytes_per_nonzero",
               "read_roofline_fraction", "cache_resident", "relative_error", "plan", "speedup_vs")


class SchemaError(ValueError):
    pass


def geometric_mean(values):
    """Of the positive values (a missing figure, None or 0, is left out); NaN where none is."""
    values = [v for v in values if v and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def filter_escaped(key):
    """A record key with the metacharacters of a POSIX extended regex (Google Benchmark's
    --benchmark_filter) escaped."""
    return re.sub(r"([.\\[\](){}*+?|^$])", r"\\\1", key)


def record_name(benchmark_name):
    """matrix/backend/algorithm/precision of a Google Benchmark name."""
    return REGISTRATION_SUFFIX.sub("", benchmark_name)


def split_key(key, where="name"):
    """(matrix, backend, algorithm, precision, operation); a file's matrix name may hold a
    slash."""
    parts = key.rsplit("/", 4)
    if len(parts) != 5 or not all(parts):
        raise SchemaError(f"{where}: {key!r} is not matrix/backend/algorithm/precision/operation")
    if parts[3] not in PRECISIONS:
        raise SchemaError(f"{where}: precision {parts[3]!r} is not one of {PRECISIONS}")
    if not OPERATION.fullmatch(parts[4]):
        raise SchemaError(f"{where}: operation {parts[4]!r} is not a mode N, T, C or H with "
                          f"optional _k<vectors>_left/_right, _beta1/_beta and _nohandle")
    return tuple(parts)


def compulsory_bytes(shape, beta):
    """docs/design.md's byte model: the matrix, x once, y once (twice when beta != 0); x and y trade
    lengths for the transposed modes."""
    s, k = shape["scalar_bytes"], shape["vectors"]
    value_bytes = shape.get("value_bytes") or s  # fp32_fp64: 4; absent before it existed
    rows, cols = shape["rows"], shape["cols"]
    x_length, y_length = (rows, cols) if shape.get("transposed") else (cols, rows)
    return (shape["nnz"] * (value_bytes + shape["ordinal_bytes"])
            + (shape["rows"] + 1) * shape["offset_bytes"]
            + k * x_length * s + k * y_length * s * (2 if beta != 0 else 1))


def _parse_number(text, where, integer=False):
    """A number of the context, where Google Benchmark keeps only strings."""
    try:
        value = float(text)
    except ValueError:
        raise SchemaError(f"{where}: {text!r} is not a number") from None
    if integer:
        if not value.is_integer():
            raise SchemaError(f"{where}: {text!r} is not an integer")
        return int(value)
    return value


def _context(document):
    context = document["context"]
    for key in CONTEXT_KEYS:
        if key not in context:
            raise SchemaError(f"context.{key}: missing (not written by a kspmv benchmark?)")
        if not isinstance(context[key], str):
            raise SchemaError(f"context.{key}: {context[key]!r} is not a string")
    if context["kspmv_schema"] != SCHEMA:
        raise SchemaError(f"context.kspmv_schema: {context['kspmv_schema']!r} is not {SCHEMA!r}")
    return context


def _numeric(entry, name, where, integer=False, optional=False):
    """A number field of a benchmark entry (counters are written as doubles)."""
    if name not in entry:
        if optional:
            return None
        raise SchemaError(f"{where}.{name}: missing")
    value = entry[name]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise SchemaError(f"{where}.{name}: {value!r} is not a number")
    if integer:
        if not (math.isfinite(value) and float(value).is_integer() and value >= 0):
            raise SchemaError(f"{where}.{name}: {value!r} is not a non-negative integer")
        return int(value)
    return value


def _seconds(entry, where):
    """real_time of one repetition in seconds."""
    unit = entry.get("time_unit")
    if unit not in SECONDS_PER_UNIT:
        raise SchemaError(f"{where}.time_unit: {unit!r} is not one of {list(SECONDS_PER_UNIT)}")
    value = _numeric(entry, "real_time", where)
    if not value > 0:
        raise SchemaError(f"{where}.real_time: {value!r} is not positive")
    return value * SECONDS_PER_UNIT[unit]


def _repetitions(document):
    """{record name: [(where, entry) in repetition order]} in the drivers' registration order,
    aggregates left out."""
    grouped, first_seen = {}, {}
    for i, entry in enumerate(document["benchmarks"]):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise SchemaError(f"benchmarks[{i}]: an object with a name expected")
        where = f"benchmarks[{i}] ({entry['name']})"
        if entry.get("run_type") == "aggregate":
            continue  # mean/median/stddev/cv over the repetitions: recomputed from these
        if entry.get("run_type") != "iteration":
            raise SchemaError(f"{where}.run_type: {entry.get('run_type')!r} is not iteration "
                              f"or aggregate")
        index = _numeric(entry, "repetition_index", where, integer=True)
        name = record_name(entry["name"])
        repetitions = grouped.setdefault(name, {})
        if index in repetitions:
            raise SchemaError(f"{where}.repetition_index: repetition {index} of {name} appears "
                              f"twice")
        repetitions[index] = (where, entry)
        first_seen.setdefault(name, (entry.get("family_index", math.inf), i))
    # Random interleaving reports the records in a random order; family_index is the order the
    # drivers registered them in (matrix, precision, implementation).
    return {name: [grouped[name][i] for i in sorted(grouped[name])]
            for name in sorted(grouped, key=first_seen.get)}


def _error_message(entry):
    """The message of a repetition that was not measured, None for a measured one. Google
    Benchmark 1.7 writes error_occurred/error_message; 1.8 writes skipped/skip_message for
    SkipWithMessage."""
    if entry.get("error_occurred") or entry.get("skipped"):
        return entry.get("error_message") or entry.get("skip_message") or "no message"
    return None


def _is_skip(message):
    return message.startswith("skipped")


def _bandwidth(repetitions):
    """The roofline's ceiling; None for a run without the probe (a --benchmark_filter that left it
    out, as the gate's runs do: they judge times, not fractions)."""
    if not repetitions:
        return None
    bytes_per_copy, best = None, []
    for where, entry in repetitions:
        message = _error_message(entry)
        if message is not None:
            raise SchemaError(f"{where}: the bandwidth probe was not measured: {message}")
        size = _numeric(entry, "bytes_per_copy", where)
        seconds = _numeric(entry, "best_seconds", where)
        if not size > 0 or not seconds > 0:
            raise SchemaError(f"{where}: bytes_per_copy and best_seconds must be positive")
        if bytes_per_copy not in (None, size):
            raise SchemaError(f"{where}.bytes_per_copy: {size} differs from {bytes_per_copy}")
        bytes_per_copy = size
        best.append(seconds)
    # Other work only ever slows a copy down: the fastest single copy is the ceiling.
    return {"bytes_per_copy": bytes_per_copy, "seconds": min(best),
            "gb_per_s": bytes_per_copy / min(best) * 1e-9,
            "repetition_gb_per_s": [bytes_per_copy / s * 1e-9 for s in best]}


def _launch_floor(repetitions):
    """The fastest batch's seconds per call of the driver's empty kernel; None for a run without
    the probe (written before it existed, or filtered out as the gate's runs are)."""
    if not repetitions:
        return None
    best = []
    for where, entry in repetitions:
        message = _error_message(entry)
        if message is not None:
            raise SchemaError(f"{where}: the launch floor was not measured: {message}")
        seconds = _numeric(entry, "best_seconds", where)
        if not seconds > 0:
            raise SchemaError(f"{where}: best_seconds must be positive")
        best.append(seconds)
    return {"seconds": min(best), "repetition_seconds": best}


def _label(entry, where):
    fields = dict(part.split("=", 1) for part in entry.get("label", "").split(";") if "=" in part)
    for name in ("chosen", "source"):
        if name not in fields:
            raise SchemaError(f"{where}.label: {entry.get('label')!r} lacks {name}=")
    return fields


def _y_hash(entry, where):
    """The record's y_hash counter; None in files written before it existed."""
    value = _numeric(entry, "y_hash", where, integer=True, optional=True)
    if value is not None and value >= 2**Y_HASH_BITS:
        raise SchemaError(f"{where}.y_hash: {value} has more than {Y_HASH_BITS} bits")
    return value


def _shape(where, entry):
    shape = {name: _numeric(entry, name, where, integer=True) for name in SHAPE_COUNTERS}
    shape["value_bytes"] = (_numeric(entry, "value_bytes", where, integer=True, optional=True)
                            or shape["scalar_bytes"])
    if shape["vectors"] < 1:
        raise SchemaError(f"{where}.vectors: {shape['vectors']} is not at least 1")
    layout_right = _numeric(entry, "layout_right", where, integer=True)
    if layout_right not in (0, 1):
        raise SchemaError(f"{where}.layout_right: {layout_right} is not 0 or 1")
    shape["layout"] = "right" if layout_right else "left"
    # What the implementation reports it reads (A in its own form: compressed columns); absent:
    # the byte model's CSR bytes.
    read_bytes = _numeric(entry, "read_bytes", where, optional=True)
    if read_bytes is not None and not read_bytes > 0:
        raise SchemaError(f"{where}.read_bytes: {read_bytes!r} is not positive")
    shape["read_bytes"] = read_bytes or shape["compulsory_bytes"]
    beta = _numeric(entry, "beta", where)
    if shape["compulsory_bytes"] != compulsory_bytes(shape, beta):
        raise SchemaError(f"{where}.compulsory_bytes: {shape['compulsory_bytes']} is not the "
                          f"byte model's {compulsory_bytes(shape, beta)}")
    return shape


def _check_vectors(operation, shape, where):
    """The operation's name and the counters must tell the same vectors and layout."""
    match = re.search(r"_k([0-9]+)_(left|right)", operation)
    named = (int(match.group(1)), match.group(2)) if match else (1, "left")
    if (shape["vectors"], shape["layout"]) != named:
        raise SchemaError(f"{where}: operation {operation!r} but vectors={shape['vectors']}, "
                          f"layout {shape['layout']}")


def _record(key, repetitions, ceiling, last_level_cache_bytes):
    """One record from its repetitions, with the figures that follow from its median time and the
    byte model; None for the figures a wrong record does not have."""
    matrix, backend, algorithm, precision, operation = split_key(key, repetitions[0][0] + ".name")
    shape, details, times, errors = dict.fromkeys(SHAPE_COUNTERS), None, [], []
    relative = []  # per repetition: time per call over the reference's, batch by batch
    for where, entry in repetitions:
        message = _error_message(entry)
        if message is not None:
            errors.append(message)  # a wrong result, or any other failure that is not a skip
            continue
        measured_shape = _shape(where, entry)
        _check_vectors(operation, measured_shape, where)
        if details and measured_shape != shape:
            raise SchemaError(f"{where}: the matrix shape differs between repetitions of {key}")
        label = _label(entry, where)
        repetition_details = {
            "source": label["source"], "chosen_algorithm": label["chosen"],
            "reference": label.get("reference") or None,
            "plan": label.get("plan") or None,
            "beta": _numeric(entry, "beta", where),
            "handle": bool(_numeric(entry, "handle", where, integer=True)),
            "setup_seconds": _numeric(entry, "setup_seconds", where, optional=True),
            "calls_per_batch": _numeric(entry, "calls_per_batch", where, integer=True),
            "relative_error": _numeric(entry, "relative_error", where),
            "y_hash": _y_hash(entry, where)}
        # Every repetition reports the hash of the record's one checked call.
        if details and repetition_details["y_hash"] != details["y_hash"]:
            raise SchemaError(f"{where}.y_hash: {repetition_details['y_hash']} differs from the "
                              f"first repetition's {details['y_hash']}")
        shape, details = measured_shape, details or repetition_details
        times.append(_seconds(entry, where))
        reference = _numeric(entry, "reference_seconds_per_call", where, optional=True)
        if reference is not None:
            if not reference > 0:
                raise SchemaError(f"{where}.reference_seconds_per_call: {reference!r} is not "
                                  f"positive")
            relative.append(times[-1] / reference)
    details = details or dict.fromkeys(("source", "chosen_algorithm", "reference", "plan", "beta",
                                        "handle", "setup_seconds", "calls_per_batch",
                                        "relative_error", "y_hash"))
    seconds = None if errors else statistics.median(times)
    flops = 2 * shape["nnz"] * shape["vectors"] if shape["nnz"] is not None else None
    moved = shape["compulsory_bytes"]
    gb_per_s = moved / seconds * 1e-9 if seconds else None
    read = shape.get("read_bytes")
    return {
        "key": key, "matrix": matrix, "source": details["source"], "backend": backend,
        "algorithm": algorithm, "chosen_algorithm": details["chosen_algorithm"],
        "precision": precision, "operation": operation, "mode": operation[0],
        "beta": details["beta"], "handle": details["handle"], "reference": details["reference"],
        "plan": details["plan"],
        **{name: shape[name] for name in SHAPE_COUNTERS if name != "compulsory_bytes"},
        "value_bytes": shape.get("value_bytes"),
        "layout": shape.get("layout"),
        "setup_seconds": details["setup_seconds"],
        "seconds_per_call": seconds,
        "repetition_seconds_per_call": times,
        "calls_per_batch": details["calls_per_batch"],
        "compulsory_bytes": moved,
        "gb_per_s": gb_per_s,
        "gflop_per_s": flops / seconds * 1e-9 if seconds else None,
        "arithmetic_intensity": flops / moved if moved else None,
        "roofline_fraction": gb_per_s / ceiling if seconds and ceiling else None,
        "read_bytes": read,
        "read_bytes_per_nonzero": read / shape["nnz"] if read and shape["nnz"] else None,
        "read_roofline_fraction": read / seconds * 1e-9 / ceiling if read and seconds and ceiling
                                  else None,
        "relative_to_reference": statistics.median(relative) if relative and not errors else None,
        # Such a record's fraction can exceed 1: it measures latency more than bandwidth.
        "cache_resident": (None if moved is None else
                           0 < last_level_cache_bytes and moved <= last_level_cache_bytes),
        "relative_error": details["relative_error"],
        "y_hash": details["y_hash"],
        "correct": not errors,
        "error_detail": errors[0] if errors else "",
    }


def _speedups(records):
    """speedup_vs: each baseline's time of the same operation on the same matrix and precision
    over this record's."""
    baselines = {}

    def group(r):
        return r["matrix"], r["precision"], r["operation"]

    for r in records:
        if r["backend"] != KSPMV_BACKEND and r["seconds_per_call"]:
            baselines.setdefault(group(r), []).append(r)
    for r in records:
        r["speedup_vs"] = {
            f"{b['backend']}/{b['algorithm']}": b["seconds_per_call"] / r["seconds_per_call"]
            for b in baselines.get(group(r), [])
            if b is not r and r["seconds_per_call"]}


def parse(document):
    """The run of a Google Benchmark JSON document (already parsed); raises SchemaError."""
    if not (isinstance(document, dict) and isinstance(document.get("context"), dict)
            and isinstance(document.get("benchmarks"), list)):
        raise SchemaError("not Google Benchmark JSON: an object with 'context' and 'benchmarks' "
                          "expected")
    context = _context(document)
    last_level_cache_bytes = _parse_number(context["last_level_cache_bytes"],
                                           "context.last_level_cache_bytes", integer=True)
    repetitions = _repetitions(document)
    bandwidth = _bandwidth(repetitions.pop(COPY_BANDWIDTH, []))
    launch_floor = _launch_floor(repetitions.pop(LAUNCH_FLOOR, []))
    records, skipped = [], []
    for key, entries in repetitions.items():
        messages = [_error_message(entry) for _, entry in entries]
        if all(m is not None and _is_skip(m) for m in messages):
            # Not measurable in this suite (a complex or malformed file): listed, not failed.
            matrix = split_key(key, entries[0][0] + ".name")[0]
            reason = re.sub(r"^skipped:\s*", "", messages[0])
            if {"matrix": matrix, "reason": reason} not in skipped:
                skipped.append({"matrix": matrix, "reason": reason})
            continue
        records.append(_record(key, entries, bandwidth and bandwidth["gb_per_s"],
                               last_level_cache_bytes))
    _speedups(records)
    return {
        "suite": context["suite"],
        "started_utc": context["started_utc"],
        "harness": context["harness"],
        "device": {
            "execution_space": context["execution_space"],
            "name": context["device_name"],
            "concurrency": _parse_number(context["concurrency"], "context.concurrency",
                                         integer=True),
            "last_level_cache_bytes": last_level_cache_bytes,
        },
        "compiler": context["compiler"],
        # Google Benchmark's own key: "debug" for Debian's libbenchmark.
        "library_build_type": document["context"].get("library_build_type"),
        "kokkos_version": context["kokkos_version"],
        "git_commit": context["git_commit"],
        "command_line": context["command_line"],
        "parameters": {name: _parse_number(context[name], f"context.{name}")
                       for name in ("scale", "alpha", "plant_slowdown")},
        "bandwidth": bandwidth,
        "launch_floor": launch_floor,
        "records": records,
        "skipped": skipped,
    }


def load_run(path):
    """The run in a driver's JSON file; raises SchemaError (or OSError) naming what is wrong."""
    with open(path, encoding="utf-8") as f:
        try:
            document = json.load(f)
        except json.JSONDecodeError as e:
            raise SchemaError(f"{path}: not JSON: {e}") from e
    try:
        return parse(document)
    except SchemaError as e:
        raise SchemaError(f"{path}: {e}") from e


def write_csv(run, path):
    """run.csv: one row per record, with the run's launch floor on each (empty where the run did
    not measure it); empty cells for figures a wrong record does not have."""
    def cell(value):
        if value is None:
            return ""
        if isinstance(value, bool):
            return int(value)
        return value

    with open(path, "w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(CSV_COLUMNS)
        floor = run["launch_floor"]["seconds"] if run.get("launch_floor") else None
        for r in run["records"]:
            speedups = " ".join(f"{b}={ratio!r}" for b, ratio in r["speedup_vs"].items())
            figures = {**r, "launch_floor_seconds": floor}
            writer.writerow([cell(figures[c]) for c in CSV_COLUMNS[:-1]] + [speedups])


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    for path in argv[1:]:
        try:
            run = load_run(path)
        except (OSError, SchemaError) as e:
            print(f"invalid: {e}", file=sys.stderr)
            return 1
        wrong = sum(not r["correct"] for r in run["records"])
        print(f"{path}: valid {SCHEMA}, {len(run['records'])} records ({wrong} wrong, "
              f"{len(run['skipped'])} matrices skipped) on {run['device']['name']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
