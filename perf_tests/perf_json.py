#!/usr/bin/env python3
"""The run JSON that kspmv_perf writes (schema "kspmv-perf/1", documented in README.md).

As a program: validates run files and exits non-zero naming the first field that is wrong.
    python3 perf_json.py run.json [more.json ...]
"""

import json
import math
import sys

SCHEMA = "kspmv-perf/1"

NUMBER = (int, float)
OPTIONAL_NUMBER = (int, float, type(None))  # null: not measured / not applicable

RUN_FIELDS = {
    "schema": str,
    "suite": str,
    "started_utc": str,
    "device": dict,
    "compiler": str,
    "kokkos_version": str,
    "git_commit": str,
    "command_line": str,
    "parameters": dict,
    "bandwidth": dict,
    "records": list,
    "skipped": list,
}
DEVICE_FIELDS = {"execution_space": str, "name": str, "concurrency": int,
                 "last_level_cache_bytes": NUMBER}
PARAMETER_FIELDS = {"scale": NUMBER, "alpha": NUMBER, "beta": NUMBER}
BANDWIDTH_FIELDS = {"bytes_per_copy": NUMBER, "seconds": NUMBER, "gb_per_s": NUMBER,
                    "batch_gb_per_s": list}
RECORD_FIELDS = {
    "key": str,
    "matrix": str,
    "source": str,
    "backend": str,
    "algorithm": str,
    "chosen_algorithm": str,
    "precision": str,
    "rows": int,
    "cols": int,
    "nnz": int,
    "vectors": int,
    "scalar_bytes": int,
    "ordinal_bytes": int,
    "offset_bytes": int,
    "setup_seconds": OPTIONAL_NUMBER,
    "seconds_per_call": NUMBER,
    "calls_per_batch": int,
    "batch_seconds_per_call": list,
    "compulsory_bytes": NUMBER,
    "gb_per_s": NUMBER,
    "gflop_per_s": NUMBER,
    "arithmetic_intensity": NUMBER,
    "roofline_fraction": NUMBER,
    "cache_resident": bool,
    "relative_error": OPTIONAL_NUMBER,
    "correct": bool,
    "error_detail": str,
    "speedup_vs": dict,
}
SKIPPED_FIELDS = {"matrix": str, "reason": str}


class SchemaError(ValueError):
    pass


def _check_fields(obj, fields, where):
    if not isinstance(obj, dict):
        raise SchemaError(f"{where}: expected an object")
    for name, kind in fields.items():
        if name not in obj:
            raise SchemaError(f"{where}.{name}: missing")
        value = obj[name]
        # bool is an int in Python; only a bool field may hold one.
        if isinstance(value, bool) and kind is not bool:
            raise SchemaError(f"{where}.{name}: {value!r} is a boolean")
        if not isinstance(value, kind):
            raise SchemaError(f"{where}.{name}: {value!r} has the wrong type")
    unknown = set(obj) - set(fields)
    if unknown:
        raise SchemaError(f"{where}: unknown fields {sorted(unknown)}")


def compulsory_bytes(record, beta):
    """DESIGN.md's byte model: the matrix, x once, y once (twice when beta != 0)."""
    s, k = record["scalar_bytes"], record["vectors"]
    return (record["nnz"] * (s + record["ordinal_bytes"])
            + (record["rows"] + 1) * record["offset_bytes"]
            + k * record["cols"] * s + k * record["rows"] * s * (2 if beta != 0 else 1))


def _check_record(record, where, bandwidth, beta):
    _check_fields(record, RECORD_FIELDS, where)
    expected_key = "/".join(record[f] for f in ("matrix", "backend", "algorithm", "precision"))
    if record["key"] != expected_key:
        raise SchemaError(f"{where}.key: {record['key']!r} is not {expected_key!r}")
    if record["precision"] not in ("fp64", "fp32"):
        raise SchemaError(f"{where}.precision: {record['precision']!r}")
    if not record["seconds_per_call"] > 0:
        raise SchemaError(f"{where}.seconds_per_call: must be positive")
    batches = record["batch_seconds_per_call"]
    if not batches or not all(isinstance(b, NUMBER) and b > 0 for b in batches):
        raise SchemaError(f"{where}.batch_seconds_per_call: positive numbers expected")
    for baseline, ratio in record["speedup_vs"].items():
        if not isinstance(ratio, NUMBER) or not ratio > 0:
            raise SchemaError(f"{where}.speedup_vs.{baseline}: positive number expected")
    # The derived figures must follow from the byte model, so readers can trust them.
    if record["compulsory_bytes"] != compulsory_bytes(record, beta):
        raise SchemaError(f"{where}.compulsory_bytes: {record['compulsory_bytes']} is not the byte "
                          f"model's {compulsory_bytes(record, beta)}")
    expected_gb_per_s = record["compulsory_bytes"] / record["seconds_per_call"] * 1e-9
    if not math.isclose(record["gb_per_s"], expected_gb_per_s, rel_tol=1e-9):
        raise SchemaError(f"{where}.gb_per_s: {record['gb_per_s']} is not compulsory bytes / time "
                          f"= {expected_gb_per_s}")
    expected_fraction = record["gb_per_s"] / bandwidth
    if not math.isclose(record["roofline_fraction"], expected_fraction, rel_tol=1e-9):
        raise SchemaError(f"{where}.roofline_fraction: {record['roofline_fraction']} is not "
                          f"gb_per_s / bandwidth = {expected_fraction}")
    expected_gflops = 2 * record["nnz"] * record["vectors"] / record["seconds_per_call"] * 1e-9
    if not math.isclose(record["gflop_per_s"], expected_gflops, rel_tol=1e-9):
        raise SchemaError(f"{where}.gflop_per_s: {record['gflop_per_s']} is not "
                          f"2 nnz k / time = {expected_gflops}")


def validate(run):
    """Raises SchemaError naming the first wrong field; returns the run."""
    _check_fields(run, RUN_FIELDS, "run")
    if run["schema"] != SCHEMA:
        raise SchemaError(f"run.schema: {run['schema']!r} is not {SCHEMA!r}")
    _check_fields(run["device"], DEVICE_FIELDS, "run.device")
    _check_fields(run["parameters"], PARAMETER_FIELDS, "run.parameters")
    _check_fields(run["bandwidth"], BANDWIDTH_FIELDS, "run.bandwidth")
    if not run["bandwidth"]["gb_per_s"] > 0:
        raise SchemaError("run.bandwidth.gb_per_s: must be positive")
    keys = set()
    for i, record in enumerate(run["records"]):
        _check_record(record, f"run.records[{i}]", run["bandwidth"]["gb_per_s"],
                      run["parameters"]["beta"])
        if record["key"] in keys:
            raise SchemaError(f"run.records[{i}].key: {record['key']!r} appears twice")
        keys.add(record["key"])
    for i, skipped in enumerate(run["skipped"]):
        _check_fields(skipped, SKIPPED_FIELDS, f"run.skipped[{i}]")
    return run


def load_run(path):
    with open(path, encoding="utf-8") as f:
        try:
            run = json.load(f)
        except json.JSONDecodeError as e:
            raise SchemaError(f"{path}: not JSON: {e}") from e
    try:
        return validate(run)
    except SchemaError as e:
        raise SchemaError(f"{path}: {e}") from e


def records_by_key(run):
    return {r["key"]: r for r in run["records"]}


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
        print(f"{path}: valid {SCHEMA}, {len(run['records'])} records on {run['device']['name']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
