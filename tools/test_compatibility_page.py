#!/usr/bin/env python3
"""Tests of compatibility_page.py: a row per recorded build, CUDA rows first, what the GPU code was,
the test environment and the row's note shown, and --check failing on a stale page."""

import json
import pathlib
import sys
import tempfile
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import compatibility_page as page  # noqa: E402

SERIAL = {"kokkos": "system", "kernels": "system", "backend": "Serial", "cuda": None, "kokkos_arch": None,
          "cuda_architectures": None, "test_env": None, "kokkos_version": "3.4.01",
          "kernels_version": "of Trilinos 13.2", "compiler": "g++ (Debian 12.2.0-14) 12.2.0", "passed": 33,
          "failed": 0, "skipped": 3, "total": 36, "ran_on": ["Kokkos::Serial, concurrency 1"],
          "result": "passed", "machine": "AMD EPYC, 2 cores", "kspmv": "abc1234", "date": "2026-01-02"}
CUDA = {"kokkos": "4.6.01", "kernels": "4.6.02", "backend": "CUDA", "cuda": "13.0", "kokkos_arch": "AMPERE80",
        "cuda_architectures": "80-real;80-virtual;90-real", "test_env": "KSPMV_CUDA_POLICY=80",
        "kokkos_version": "4.6.1", "kernels_version": "4.6.2", "compiler": "nvcc 13.0", "host_compiler": "g++ 13",
        "cuda_tpls": False, "passed": 25, "failed": 0, "skipped": 0, "total": 25,
        "ran_on": ["Kokkos::Cuda, concurrency 270336"], "result": "passed", "machine": "NVIDIA H100 80GB HBM3",
        "kspmv": "def5678", "date": "2026-01-03", "note": "the sm_80 policy forced"}


class CompatibilityPage(unittest.TestCase):
    def test_rows(self):
        text = page.render([SERIAL, CUDA])
        lines = text.splitlines()
        cuda_row = next(i for i, line in enumerate(lines) if "| CUDA |" in line)
        serial_row = next(i for i, line in enumerate(lines) if "| Serial |" in line)
        self.assertLess(cuda_row, serial_row)
        self.assertIn("| 4.6.01 | 4.6.02 | CUDA | CUDA 13.0, host g++ 13 | Kokkos AMPERE80; kspmv sm_80 code, "
                      "compute_80 PTX, sm_90 code; Kokkos Kernels without cuSPARSE | NVIDIA H100 80GB HBM3: "
                      "Kokkos::Cuda, concurrency 270336 | 25 passed, 0 failed, 0 skipped, with "
                      "`KSPMV_CUDA_POLICY=80` | passed [1] | def5678, 2026-01-03 |", lines)
        self.assertIn("| 3.4.01 (system packages) | of Trilinos 13.2 (system packages) | Serial |",
                      lines[serial_row])
        self.assertIn("[1] the sm_80 policy forced", lines)

    def test_kokkos_kernels_tests_and_their_calls(self):
        openmp = dict(SERIAL, kokkos="4.6.01", kernels="4.6.02", backend="OpenMP", kokkos_kernels_tests=True,
                      kokkos_kernels_calls={"total": 324350, "kspmv": 229358})
        self.assertIn("33 passed, 0 failed, 3 skipped; Kokkos Kernels' SpMV tests among "
                      "them: 229,358 of their 324,350 calls answered by kspmv |", page.render([openmp]))
        self.assertNotIn("Kokkos Kernels' SpMV tests", page.render([SERIAL]))

    def test_check_fails_on_a_stale_page(self):
        with tempfile.TemporaryDirectory() as directory:
            results = pathlib.Path(directory) / "results.json"
            output = pathlib.Path(directory) / "page.md"
            results.write_text(json.dumps([SERIAL]))
            arguments = ["--results", str(results), "--output", str(output)]
            self.assertEqual(page.main(arguments + ["--check"]), 1)  # no page yet
            self.assertEqual(page.main(arguments), 0)
            self.assertEqual(page.main(arguments + ["--check"]), 0)
            results.write_text(json.dumps([SERIAL, CUDA]))
            self.assertEqual(page.main(arguments + ["--check"]), 1)


if __name__ == "__main__":
    unittest.main()
