#!/usr/bin/env python3
"""Tests of kokkos_version_matrix.py's parsing and table (no build is run)."""

import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import kokkos_version_matrix as matrix  # noqa: E402

CTEST_3 = """
 9/11 Test  #9: kspmv_kokkos_public_overloads_tests ...   Passed    0.01 sec
10/11 Test #13: kspmv_cuda_test .......................***Skipped   0.04 sec
11/11 Test  #6: example_from_install ..................***Failed    6.40 sec

91% tests passed, 1 tests failed out of 11
"""
CTEST_4 = """
15/15 Test  #6: example_from_install ........................................   Passed   33.97 sec

100% tests passed out of 15
"""
LAST_TEST_LOG = """
kspmv tests run on Kokkos::OpenMP, concurrency 2
[==========] Running 6 tests from 1 test suite.
kspmv tests run on Kokkos::OpenMP, concurrency 2
"""


class ParseCtest(unittest.TestCase):
    def test_summary_with_failures_and_skips(self):
        counts = matrix.parse_ctest(CTEST_3, LAST_TEST_LOG)
        self.assertEqual(counts, {"passed": 9, "failed": 1, "skipped": 1, "total": 11,
                                  "ran_on": ["Kokkos::OpenMP, concurrency 2"]})

    def test_summary_of_newer_ctest_without_failure_count(self):
        counts = matrix.parse_ctest(CTEST_4, "")
        self.assertEqual((counts["passed"], counts["failed"], counts["total"]), (15, 0, 15))
        self.assertEqual(counts["ran_on"], [])

    def test_calls_of_kokkos_kernels_tests(self):
        log = LAST_TEST_LOG + ("Kokkos Kernels' SpMV tests made 324350 calls: 229358 answered by kspmv, 94992 "
                               "left on Kokkos Kernels\n")
        counts = matrix.parse_ctest(CTEST_4, log)
        self.assertEqual(counts["kokkos_kernels_calls"], {"total": 324350, "kspmv": 229358})
        self.assertNotIn("kokkos_kernels_calls", matrix.parse_ctest(CTEST_4, LAST_TEST_LOG))

    def test_no_summary(self):
        self.assertIsNone(matrix.parse_ctest("No tests were found!!!", ""))


class Table(unittest.TestCase):
    def test_versions_shown_once_unless_they_differ(self):
        rows = [{"kokkos": "4.6.01", "kokkos_version": "4.6.1", "kernels": "develop",
                 "kernels_version": "4.7.99", "backend": "Serial", "compiler": "g++ 12", "result": "passed",
                 "passed": 14, "failed": 0, "skipped": 0, "total": 14, "ran_on": ["Kokkos::Serial, concurrency 1"]},
                {"kokkos": "4.5.01", "kernels": "4.5.01", "backend": "HIP", "result": "Kokkos configure failed"}]
        lines = matrix.table(rows).splitlines()
        self.assertIn("| 4.6.01 | develop (4.7.99) | Serial | g++ 12 | Kokkos::Serial, concurrency 1 | "
                      "14 passed, 0 failed, 0 skipped | passed |", lines)
        self.assertIn("| 4.5.01 | 4.5.01 | HIP | - | - | - | Kokkos configure failed |", lines)


class Merge(unittest.TestCase):
    def test_a_row_run_again_replaces_itself_only(self):
        cuda13 = {"kokkos": "4.6.01", "kernels": "4.6.02", "backend": "CUDA", "cuda": "13.0",
                  "kokkos_arch": "HOPPER90", "cuda_architectures": "90", "test_env": None, "result": "passed"}
        cuda12 = dict(cuda13, cuda="12.9")
        forced = dict(cuda12, test_env="KSPMV_CUDA_POLICY=sm_80")
        rows = matrix.merged(matrix.merged([cuda13], cuda12), forced)
        self.assertEqual(len(rows), 3)
        again = dict(cuda12, result="FAILED")
        rows = matrix.merged(rows, again)
        self.assertEqual(len(rows), 3)
        self.assertEqual([r["result"] for r in rows if r["cuda"] == "12.9" and not r["test_env"]], ["FAILED"])


class SystemRows(unittest.TestCase):
    def test_versions_from_kspmv_configure(self):
        log = "-- kspmv: Kokkos 3.4.01 (CUDA: OFF) from /usr/lib/x86_64-linux-gnu/cmake/Kokkos\n"
        self.assertEqual(matrix.configured_versions(log), ("3.4.01", pathlib.Path("/usr")))
        log = "-- kspmv: Kokkos 4.6.1 (CUDA: ON) from /opt/kokkos/lib64/cmake/Kokkos\n"
        self.assertEqual(matrix.configured_versions(log), ("4.6.1", pathlib.Path("/opt/kokkos")))


if __name__ == "__main__":
    unittest.main()
