#!/usr/bin/env python3
"""A stand-in for Nsight Compute's `ncu --csv` in the tests of kernel_profile.py: it runs the
command after its options (a driver, fake_driver.py in the tests), passes the driver's output
through, then prints the CSV rows Nsight Compute would for three kernels of the record the
driver's --benchmark_filter names: a kspmv setup kernel launched once, a kspmv SpMV kernel and a
cuSPARSE kernel launched twice each. Their counts are fixed functions of the record's name (see
counts()), the time given in microseconds for the reference's kernel and nanoseconds otherwise.

    fake_ncu.py --csv [--print-units base] --metrics M[,M...] COMMAND...

KSPMV_FAKE_NCU_FAIL=1 makes it exit with status 1 after the driver ran.
"""

import csv
import io
import os
import re
import subprocess
import sys

HEADER = ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream",
          "Block Size", "Grid Size", "Device", "CC", "Section Name", "Metric Name", "Metric Unit",
          "Metric Value"]
KERNELS = (  # name, grid, launches
    ("void kspmv::cuda::detail::row_lengths_kernel<int>(T1)", "(64, 1, 1)", 1),
    ("void kspmv::cuda::detail::vector_spmv_kernel<4, kspmv::cuda::detail::SpmvArguments<double, "
     "int, int, 0, double, kspmv::cuda::detail::OwnColumns>>(T2)", "(500, 1, 1)", 2),
    ("void cusparse::csrmv_v3_kernel<std::integral_constant<bool, 0>, int, int, double, double, "
     "double, double, void>(KernelCoeffs<T7>, const T2 *)", "(120, 1, 1)", 2),
)


def counts(record, kernel_index, launch):
    """(nanoseconds, warp instructions, DRAM bytes, occupancy %) of one launch."""
    base = 1000 * (len(record) + kernel_index)
    return 2000.0 * (kernel_index + 1) + launch, base * 256, 1e6 * (kernel_index + 1), 50.0 + launch


def split_arguments(argv):
    """(Nsight Compute's options, the command)."""
    options, i = [], 0
    while i < len(argv) and argv[i].startswith("--"):
        takes_value = argv[i] in ("--metrics", "--print-units")
        options += argv[i:i + 1 + takes_value]
        i += 1 + takes_value
    return options, argv[i:]


def main(argv):
    options, command = split_arguments(argv)
    if "--csv" not in options or not command:
        print("fake_ncu: usage: fake_ncu.py --csv [--print-units base] --metrics M COMMAND...",
              file=sys.stderr)
        return 2
    metrics = options[options.index("--metrics") + 1].split(",")
    print("==PROF== Connected to process 1", flush=True)
    driver = subprocess.run(command, check=False)
    if driver.returncode != 0:
        return driver.returncode
    if os.environ.get("KSPMV_FAKE_NCU_FAIL") == "1":
        print("==ERROR== fake failure", file=sys.stderr)
        return 1
    pattern = next(a.split("=", 1)[1] for a in command if a.startswith("--benchmark_filter="))
    record = re.sub(r"\\(.)", r"\1", pattern.lstrip("^").replace("(/|$)", ""))
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n")
    writer.writerow(HEADER)
    kernel_id = 0
    for index, (name, grid, launches) in enumerate(KERNELS):
        for launch in range(launches):
            ns, instructions, dram, occupancy = counts(record, index, launch)
            reference = name.startswith("void cusparse")
            values = {"gpu__time_duration.sum": ("usecond", f"{ns / 1000:.3f}") if reference
                      else ("nsecond", f"{ns:,.0f}"),
                      "smsp__inst_executed.sum": ("inst", f"{instructions:,}"),
                      "dram__bytes_read.sum": ("byte", f"{dram:,.0f}"),
                      "dram__bytes_write.sum": ("byte", f"{dram / 4:,.0f}"),
                      "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio":
                          ("ratio", f"{occupancy / 10:.2f}"),
                      "smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio":
                          ("ratio", f"{occupancy / 20:.2f}"),
                      "lts__t_sectors_srcunit_tex_op_write.sum": ("sector", f"{dram / 128:,.0f}"),
                      "lts__t_sectors_srcunit_tex_op_read.sum": ("sector", f"{dram / 16:,.0f}"),
                      "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum":
                          ("sector", f"{dram / 64:,.0f}"),
                      "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum":
                          ("sector", f"{dram / 200:,.0f}"),
                      "sm__warps_active.avg.pct_of_peak_sustained_active": ("%", f"{occupancy}")}
            for metric in metrics:
                unit, value = values[metric]
                writer.writerow([kernel_id, 1, "driver", "127.0.0.1", name, 1, 7, "(256, 1, 1)",
                                 grid, 0, "9.0", "Command line profiler metrics", metric, unit,
                                 value])
            kernel_id += 1
    sys.stdout.write(out.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
