#!/usr/bin/env python3
"""Nsight Compute's counts for the kernels behind a few records, build beside build: what a profile
before and after a kernel change reports (time, warp instructions per 256 nonzeros, DRAM bytes
read, achieved occupancy).

    kernel_profile.py --driver A [--driver B ...] --records REGEX [--ncu NCU] [--output FILE.csv]
                      [-- driver arguments]

A driver is a build directory (its kspmv_perf, or kspmv_cuda_bench in a build without Kokkos) or a
driver command line, as equivalence.py takes them. The records are those of the first driver whose
key (`matrix/backend/algorithm/precision/operation`) REGEX matches (Python's re.search). Each
driver runs once per record under `ncu --csv`, with equivalence.py's short untimed configuration and
the arguments after "--" (e.g. --suite quick --shape rows=1000000,mean=12,spread=1,reach=256
--precision fp32), so that every kernel a process launches belongs to that record: kspmv's own
(its plan's setup kernels once, its SpMV kernel on every call) and those of the reference that the
harness times beside it (cuSPARSE or Kokkos Kernels). Caches are flushed before each kernel
(Nsight Compute's default), so the counts are a cold call's.

Per driver, record and kernel (name and grid) the table and the CSV give the launches and the
medians over them: microseconds, warp instructions (and per 256 of the record's nonzeros), DRAM
bytes read and written, achieved occupancy, and the cycles a warp waits on global loads between
its instructions (the long-scoreboard stall: a latency-bound kernel's mark), the cycles it waits
for room in the memory instruction queue (the lg-throttle stall: scattered stores' mark; CSV only),
the 32-byte sectors written to and read from L2 and the sectors of local memory loaded and stored
(spills; CSV only). NCU names the Nsight Compute command line (default `ncu`).

Exit status: 0, 1 a driver or Nsight Compute failed, 2 bad input (no record matches).
Python 3 standard library only.
"""

import argparse
import csv
import io
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile

import equivalence
import nightly
import perf_json

METRICS = {
    "gpu__time_duration.sum": "seconds",
    "smsp__inst_executed.sum": "warp_instructions",
    "dram__bytes_read.sum": "dram_bytes_read",
    "dram__bytes_write.sum": "dram_bytes_written",
    "sm__warps_active.avg.pct_of_peak_sustained_active": "achieved_occupancy_pct",
    # Of the cycles between a warp's instructions, those spent waiting on a global or local load.
    "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio":
        "load_wait_cycles_per_instruction",
    # Those spent waiting for room in the queue of global and local memory instructions: where
    # scattered stores (a sector each) hold a kernel back.
    "smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio":
        "memory_queue_wait_cycles_per_instruction",
    # 32-byte sectors the SMs wrote to L2: against the bytes stored, how scattered the stores were.
    "lts__t_sectors_srcunit_tex_op_write.sum": "l2_sectors_written",
    # Those the SMs read from L2: against the bytes used, how scattered the loads were (a gather of
    # 8-byte values at random takes a sector each, DR-50).
    "lts__t_sectors_srcunit_tex_op_read.sum": "l2_sectors_read",
    # Sectors of local memory (registers spilled, arrays indexed at run time) loaded and stored: a
    # spilling kernel's loads and stores that are not its data's (DR-53).
    "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum": "local_sectors_loaded",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum": "local_sectors_stored",
}
# Nsight Compute's units, as multiples of the base unit (seconds, bytes, counts, percent).
UNITS = {"ns": 1e-9, "nsecond": 1e-9, "us": 1e-6, "usecond": 1e-6, "ms": 1e-3, "msecond": 1e-3,
         "s": 1.0, "second": 1.0, "byte": 1.0, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9,
         "inst": 1.0, "%": 1.0, "ratio": 1.0, "sector": 1.0, "": 1.0}
COLUMNS = ["driver", "commit", "record", "chosen_algorithm", "nonzeros", "library", "kernel",
           "grid", "block", "launches", "median_us", "warp_instructions",
           "warp_instructions_per_256_nonzeros", "dram_bytes_read", "dram_bytes_written",
           "achieved_occupancy_pct", "load_wait_cycles_per_instruction",
           "memory_queue_wait_cycles_per_instruction", "l2_sectors_written", "l2_sectors_read",
           "local_sectors_loaded", "local_sectors_stored"]


class BadInput(RuntimeError):
    pass


def parse_ncu_csv(text):
    """{kernel id: {"name", "grid", "block", and each METRICS value in base units}} of the CSV
    rows of Nsight Compute's output (other lines, the driver's and the profiler's, are skipped)."""
    rows = [line for line in text.splitlines() if line.startswith('"')]
    kernels = {}
    for row in csv.DictReader(io.StringIO("\n".join(rows))):
        if row.get("Metric Name") not in METRICS:
            continue
        kernel = kernels.setdefault(row["ID"], {"name": row["Kernel Name"],
                                                "grid": row["Grid Size"].strip("()"),
                                                "block": row["Block Size"].strip("()")})
        unit = row["Metric Unit"]
        if unit not in UNITS:
            raise BadInput(f"Nsight Compute unit {unit!r} of {row['Metric Name']} not known")
        value = float(row["Metric Value"].replace(",", "")) * UNITS[unit]
        kernel[METRICS[row["Metric Name"]]] = value
    return kernels


def short_name(name):
    """A kernel's name without `void`, its namespaces' repetition and its parameter list."""
    name = re.sub(r"^void ", "", name)
    name = re.sub(r"\((T\d|KernelCoeffs).*$", "", name)
    return name.replace("kspmv::cuda::detail::", "").replace("kspmv::", "").strip()


def library_of(name):
    return "kspmv" if "kspmv::" in name else "reference"


def summarize(kernels, record):
    """Rows (dicts of COLUMNS but the driver's) of one record's kernels, grouped by name and grid
    in launch order, each with its launches' medians."""
    groups = {}
    for kernel in kernels.values():
        groups.setdefault((kernel["name"], kernel["grid"]), []).append(kernel)
    rows = []
    nonzeros = record["nnz"]
    for (name, grid), launches in groups.items():
        def median(field):
            values = [k[field] for k in launches if field in k]
            return statistics.median(values) if values else None
        instructions = median("warp_instructions")
        seconds = median("seconds")
        per_256 = (None if instructions is None or not nonzeros
                   else round(instructions / nonzeros * 256, 1))
        rows.append({
            "record": record["key"], "chosen_algorithm": record.get("chosen_algorithm") or "",
            "nonzeros": nonzeros, "library": library_of(name), "kernel": short_name(name),
            "grid": grid, "block": launches[0]["block"], "launches": len(launches),
            "median_us": None if seconds is None else round(seconds * 1e6, 3),
            "warp_instructions": instructions,
            "warp_instructions_per_256_nonzeros": per_256,
            "dram_bytes_read": median("dram_bytes_read"),
            "dram_bytes_written": median("dram_bytes_written"),
            "achieved_occupancy_pct": median("achieved_occupancy_pct"),
            "load_wait_cycles_per_instruction": median("load_wait_cycles_per_instruction"),
            "memory_queue_wait_cycles_per_instruction":
                median("memory_queue_wait_cycles_per_instruction"),
            "l2_sectors_written": median("l2_sectors_written"),
            "l2_sectors_read": median("l2_sectors_read"),
            "local_sectors_loaded": median("local_sectors_loaded"),
            "local_sectors_stored": median("local_sectors_stored"),
        })
    return rows


def record_key(name):
    """A benchmark's record key: its name without Google Benchmark's suffixes (iterations:5,
    manual_time)."""
    parts = name.split("/")
    while parts and (":" in parts[-1] or parts[-1].endswith("_time")):
        parts.pop()
    return "/".join(parts)


def exactly(key):
    """A POSIX extended regex (Google Benchmark's filter) matching the benchmark of `key` alone."""
    return "^" + perf_json.filter_escaped(key) + "(/|$)"


def list_records(command, regex, passthrough):
    """The keys of the driver's records that regex matches (re.search)."""
    listing = subprocess.run([*command, *passthrough, "--benchmark_list_tests=true"],
                             capture_output=True, text=True, check=False)
    if listing.returncode != 0:
        raise BadInput(f"exit status {listing.returncode} listing the records of "
                       f"{shlex.join(command)}:\n{listing.stderr[-2000:]}")
    keys = [record_key(line.strip()) for line in listing.stdout.splitlines()
            if line.count("/") >= 4 and " " not in line.strip()]
    keys = [key for key in keys if re.search(regex, key)]
    if not keys:
        raise BadInput(f"no record of {shlex.join(command)} matches {regex!r}")
    return keys


def profile_record(ncu, command, key, passthrough, output_dir):
    """(its kernels' rows, the run's commit) of one record under Nsight Compute."""
    os.makedirs(output_dir, exist_ok=True)
    metrics = ",".join(METRICS)
    full = [*ncu, "--csv", "--print-units", "base", "--metrics", metrics, *command,
            *equivalence.QUICK, *passthrough, f"--benchmark_filter={exactly(key)}",
            "--output-dir", output_dir]
    print(f"kernel_profile: {shlex.join(full)}", flush=True)
    finished = subprocess.run(full, capture_output=True, text=True, check=False)
    if finished.returncode != 0:
        raise RuntimeError(f"exit status {finished.returncode} from {shlex.join(full)}:\n"
                           f"{(finished.stdout + finished.stderr)[-4000:]}")
    run = perf_json.load_run(os.path.join(output_dir, "run.json"))
    records = [r for r in run["records"] if r["key"] == key]
    if not records:
        raise RuntimeError(f"{key}: no record in the driver's run.json")
    return summarize(parse_ncu_csv(finished.stdout), records[0]), run["git_commit"]


def format_value(value, digits=1):
    if value is None:
        return "-"
    if isinstance(value, float) and abs(value) >= 1e5:
        return f"{value:.4g}"
    return f"{value:.{digits}f}" if isinstance(value, float) else str(value)


def print_table(rows):
    by_record = {}
    for row in rows:
        by_record.setdefault(row["record"], []).append(row)
    for record, record_rows in by_record.items():
        print(f"\n{record} ({record_rows[0]['nonzeros']} nonzeros)")
        print(f"  {'driver':12} {'library':9} {'launches':>8} {'us':>9} {'inst/256nz':>10} "
              f"{'DRAM MB':>9} {'written':>9} {'occupancy':>9} {'load wait':>9}  kernel")
        for row in sorted(record_rows, key=lambda r: (r["library"], r["kernel"], r["driver"])):
            dram, written = row["dram_bytes_read"], row["dram_bytes_written"]
            print(f"  {row['driver'][:12]:12} {row['library']:9} {row['launches']:>8} "
                  f"{format_value(row['median_us'], 2):>9} "
                  f"{format_value(row['warp_instructions_per_256_nonzeros']):>10} "
                  f"{format_value(None if dram is None else dram / 1e6):>9} "
                  f"{format_value(None if written is None else written / 1e6):>9} "
                  f"{format_value(row['achieved_occupancy_pct']):>9} "
                  f"{format_value(row['load_wait_cycles_per_instruction']):>9}  "
                  f"{row['kernel'][:90]}")


def parse_arguments(argv):
    argv, passthrough = nightly.split_passthrough(argv)
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--driver", action="append", required=True,
                        help="a build directory or a driver command line (repeatable)")
    parser.add_argument("--records", required=True,
                        help="the records: a regex their keys match (re.search)")
    parser.add_argument("--ncu", default="ncu", help="the Nsight Compute command line (ncu)")
    parser.add_argument("--output", help="the CSV to write")
    parser.add_argument("--work-dir", help="where the drivers' run.json go (default: a "
                                           "temporary directory, removed at the end)")
    args = parser.parse_args(argv)
    args.passthrough = passthrough
    return args


def main(argv=None):
    args = parse_arguments(sys.argv[1:] if argv is None else argv)
    ncu = shlex.split(args.ncu)
    try:
        commands = [equivalence.driver_command(d) for d in args.driver]
        names = list_records(commands[0], args.records, args.passthrough)
    except (BadInput, equivalence.BadInput) as e:
        print(f"kernel_profile: {e}", file=sys.stderr)
        return 2
    work = args.work_dir or tempfile.mkdtemp(prefix="kspmv-kernel-profile-")
    rows = []
    try:
        for d, command in enumerate(commands):
            for r, name in enumerate(names):
                output_dir = os.path.join(work, f"driver{d}", f"record{r}")
                record_rows, commit = profile_record(ncu, command, name, args.passthrough,
                                                     output_dir)
                label = args.driver[d] if os.path.isdir(args.driver[d]) else f"driver {d + 1}"
                for row in record_rows:
                    row.update(driver=os.path.basename(os.path.normpath(label)), commit=commit)
                rows.extend(record_rows)
    except (RuntimeError, OSError, perf_json.SchemaError, BadInput) as e:
        print(f"kernel_profile: {e}", file=sys.stderr)
        return 1
    finally:
        if args.work_dir is None:
            shutil.rmtree(work, ignore_errors=True)
    print_table(rows)
    if args.output:
        with open(args.output, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=COLUMNS)
            writer.writeheader()
            writer.writerows(rows)
        print(f"\nkernel_profile: wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
