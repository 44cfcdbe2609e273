#!/usr/bin/env python3
"""Unit tests of kernel_profile.py (fast, no GPU): Nsight Compute's CSV read in its units, kernels
grouped by name and grid with their medians, record keys and their exact filters, and whole runs
of fake_driver.py under fake_ncu.py (two drivers, a filter that matches nothing, a profiler that
fails). Run: python3 perf_tests/test_kernel_profile.py"""

import contextlib
import csv
import io
import os
import re
import shlex
import statistics
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fake_ncu  # noqa: E402
import kernel_profile  # noqa: E402

FAKE_DRIVER = shlex.join([sys.executable, os.path.join(HERE, "fake_driver.py")])
FAKE_NCU = shlex.join([sys.executable, os.path.join(HERE, "fake_ncu.py")])
STENCIL_NONZEROS = 195112  # fake_driver.py's stencil27_20

NCU_OUTPUT = """==PROF== Connected to process 2600 (/build/kspmv_cuda_bench)
stencil27_20/kspmv/Auto/fp64/N/iterations:1/manual_time   26259 us
"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"
"0","2600","bench","127.0.0.1","void kspmv::cuda::detail::adaptive_spmv_kernel<8>(T2)","1","13","(256, 1, 1)","(17580, 1, 1)","0","9.0","Command line profiler metrics","dram__bytes_read.sum","Mbyte","144.40"
"0","2600","bench","127.0.0.1","void kspmv::cuda::detail::adaptive_spmv_kernel<8>(T2)","1","13","(256, 1, 1)","(17580, 1, 1)","0","9.0","Command line profiler metrics","gpu__time_duration.sum","usecond","117.95"
"0","2600","bench","127.0.0.1","void kspmv::cuda::detail::adaptive_spmv_kernel<8>(T2)","1","13","(256, 1, 1)","(17580, 1, 1)","0","9.0","Command line profiler metrics","smsp__inst_executed.sum","inst","54,302,100"
"0","2600","bench","127.0.0.1","void kspmv::cuda::detail::adaptive_spmv_kernel<8>(T2)","1","13","(256, 1, 1)","(17580, 1, 1)","0","9.0","Command line profiler metrics","sm__warps_active.avg.pct_of_peak_sustained_active","%","93.5"
"1","2600","bench","127.0.0.1","void cusparse::csrmv_v3_kernel<int>(KernelCoeffs<T7>, const T2 *)","1","13","(512, 1, 1)","(3907, 1, 1)","0","9.0","Command line profiler metrics","gpu__time_duration.sum","ns","68,420"
==PROF== Disconnected from process 2600
"""


def run_main(*arguments, env=None):
    """(exit status, what it printed)."""
    out = io.StringIO()
    saved = dict(os.environ)
    os.environ.update(env or {})
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            status = kernel_profile.main(list(arguments))
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return status, out.getvalue()


class ParseTest(unittest.TestCase):
    def test_reads_the_csv_rows_in_base_units(self):
        kernels = kernel_profile.parse_ncu_csv(NCU_OUTPUT)
        self.assertEqual(sorted(kernels), ["0", "1"])
        adaptive = kernels["0"]
        self.assertEqual(adaptive["grid"], "17580, 1, 1")
        self.assertAlmostEqual(adaptive["seconds"], 117.95e-6)
        self.assertEqual(adaptive["warp_instructions"], 54302100)
        self.assertAlmostEqual(adaptive["dram_bytes_read"], 144.4e6)
        self.assertEqual(adaptive["achieved_occupancy_pct"], 93.5)
        self.assertAlmostEqual(kernels["1"]["seconds"], 68.42e-6)

    def test_an_unknown_unit_is_an_error(self):
        with self.assertRaisesRegex(kernel_profile.BadInput, "Tbyte"):
            kernel_profile.parse_ncu_csv(NCU_OUTPUT.replace('"Mbyte"', '"Tbyte"'))

    def test_launches_grouped_by_name_and_grid_with_medians(self):
        kernels = {str(i): {"name": "void kspmv::k(T2)", "grid": "8, 1, 1", "block": "256, 1, 1",
                            "seconds": t, "warp_instructions": 1000.0 * i}
                   for i, t in enumerate((3e-6, 1e-6, 2e-6))}
        kernels["9"] = {"name": "void cusparse::csrmv(KernelCoeffs<T7>)", "grid": "4, 1, 1",
                        "block": "512, 1, 1", "seconds": 5e-6}
        rows = kernel_profile.summarize(kernels, {"key": "m/kspmv/Auto/fp64/N", "nnz": 512,
                                                  "chosen_algorithm": "Vector"})
        self.assertEqual(len(rows), 2)
        ours, reference = rows
        self.assertEqual((ours["library"], ours["kernel"], ours["launches"]), ("kspmv", "k", 3))
        self.assertEqual(ours["median_us"], 2.0)
        self.assertEqual(ours["warp_instructions_per_256_nonzeros"], 500.0)
        self.assertEqual((reference["library"], reference["kernel"]),
                         ("reference", "cusparse::csrmv"))
        self.assertIsNone(reference["warp_instructions"])


class KeysTest(unittest.TestCase):
    def test_record_key_drops_google_benchmark_suffixes(self):
        self.assertEqual(kernel_profile.record_key("a/kspmv/Auto/fp64/N/iterations:5/manual_time"),
                         "a/kspmv/Auto/fp64/N")
        self.assertEqual(kernel_profile.record_key("a/kspmv/Auto/fp64/N"), "a/kspmv/Auto/fp64/N")

    def test_exact_filter_matches_the_record_alone(self):
        pattern = re.compile(kernel_profile.exactly("ca-GrQc.v2/kspmv/Auto/fp32/N"))
        self.assertTrue(pattern.search("ca-GrQc.v2/kspmv/Auto/fp32/N/iterations:1/manual_time"))
        self.assertTrue(pattern.search("ca-GrQc.v2/kspmv/Auto/fp32/N"))
        self.assertFalse(pattern.search("ca-GrQc.v2/kspmv/Auto/fp32/N_beta1/iterations:1"))
        self.assertFalse(pattern.search("ca-GrQcxv2/kspmv/Auto/fp32/N"))


class EndToEndTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.output = os.path.join(self.dir.name, "profile.csv")

    def tearDown(self):
        self.dir.cleanup()

    def test_two_drivers_two_records(self):
        status, printed = run_main("--driver", FAKE_DRIVER, "--driver", FAKE_DRIVER,
                                   "--records", "^stencil27_20/kspmv/(Auto|Vector)/fp64/N$",
                                   "--ncu", FAKE_NCU, "--output", self.output)
        self.assertEqual(status, 0, printed)
        with open(self.output) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(len(rows), 2 * 2 * len(fake_ncu.KERNELS))
        self.assertEqual({r["driver"] for r in rows}, {"driver 1", "driver 2"})
        self.assertEqual({r["record"] for r in rows},
                         {"stencil27_20/kspmv/Auto/fp64/N", "stencil27_20/kspmv/Vector/fp64/N"})
        key = "stencil27_20/kspmv/Vector/fp64/N"
        spmv = next(r for r in rows if r["record"] == key and "vector_spmv" in r["kernel"])
        self.assertEqual(spmv["library"], "kspmv")
        self.assertEqual(int(spmv["launches"]), 2)
        self.assertEqual(int(spmv["nonzeros"]), STENCIL_NONZEROS)
        _, instructions, _, _ = fake_ncu.counts(key, 1, 0)
        self.assertEqual(float(spmv["warp_instructions"]), instructions)
        self.assertAlmostEqual(float(spmv["warp_instructions_per_256_nonzeros"]),
                               round(instructions / STENCIL_NONZEROS * 256, 1))
        reference = next(r for r in rows if r["record"] == key and r["library"] == "reference")
        self.assertAlmostEqual(float(reference["median_us"]), 6.0, places=2)  # usecond read as such
        _, _, dram, occupancy = fake_ncu.counts(key, 1, 0)
        self.assertAlmostEqual(float(spmv["dram_bytes_written"]), dram / 4)
        self.assertAlmostEqual(float(spmv["load_wait_cycles_per_instruction"]),
                               statistics.median([occupancy / 10, (occupancy + 1) / 10]), places=2)
        self.assertAlmostEqual(float(spmv["memory_queue_wait_cycles_per_instruction"]),
                               statistics.median([occupancy / 20, (occupancy + 1) / 20]), places=2)
        self.assertAlmostEqual(float(spmv["l2_sectors_written"]), dram / 128)
        self.assertAlmostEqual(float(spmv["l2_sectors_read"]), dram / 16)
        self.assertAlmostEqual(float(spmv["local_sectors_loaded"]), dram / 64)
        self.assertAlmostEqual(float(spmv["local_sectors_stored"]), dram / 200)
        self.assertIn("inst/256nz", printed)

    def test_no_matching_record_is_bad_input(self):
        status, printed = run_main("--driver", FAKE_DRIVER, "--records", "^nothing/",
                                   "--ncu", FAKE_NCU)
        self.assertEqual(status, 2)
        self.assertIn("no record", printed)

    def test_a_failing_profiler_fails_the_run(self):
        status, printed = run_main("--driver", FAKE_DRIVER, "--records",
                                   "^stencil27_20/kspmv/Auto/fp64/N$", "--ncu", FAKE_NCU,
                                   "--output", self.output, env={"KSPMV_FAKE_NCU_FAIL": "1"})
        self.assertEqual(status, 1)
        self.assertIn("exit status 1", printed)
        self.assertFalse(os.path.exists(self.output))


if __name__ == "__main__":
    unittest.main()
