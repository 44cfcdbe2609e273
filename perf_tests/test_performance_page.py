#!/usr/bin/env python3
"""performance_page.py on a small run: the speedup is the best baseline's time over kspmv's, matrix
by matrix, summarised by geometric mean and range, generated and real matrices apart; wrong records
(no time) are left out; the page names its sources; targets are measured, met or missed (a mean
only with its least matrix at the floor), beside the matrix furthest from them, and link their
decision record."""

import csv
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import performance_page  # noqa: E402

FIELDS = ["matrix", "backend", "algorithm", "precision", "operation", "seconds_per_call",
          "setup_seconds"]


def write_run(path, records):
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=FIELDS)
        writer.writeheader()
        for matrix, backend, algorithm, seconds in records:
            writer.writerow({"matrix": matrix, "backend": backend, "algorithm": algorithm,
                             "precision": "fp64", "operation": "N",
                             "seconds_per_call": "" if seconds is None else seconds,
                             "setup_seconds": "" if seconds is None else 5 * seconds})


class PerformancePageTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)
        os.makedirs(os.path.join(self.dir.name, "docs"))
        self.run_file = os.path.join(self.dir.name, "run.csv")
        write_run(self.run_file, [
            # generated: 2x and 0.5x over the faster baseline
            ("stencil27_20", "kspmv", "Auto", 1.0), ("stencil27_20", "cuSPARSE", "ALG1", 2.0),
            ("stencil27_20", "cuSPARSE", "ALG2", 3.0),
            ("uniform_200_k100", "kspmv", "Auto", 4.0),
            ("uniform_200_k100", "KokkosKernels", "native", 2.0),
            # real: 3x, and a wrong kspmv record left out
            ("bcsstk13", "kspmv", "Auto", 1.0), ("bcsstk13", "cuSPARSE", "ALG1", 3.0),
            ("west0479", "kspmv", "Auto", None), ("west0479", "cuSPARSE", "ALG1", 1.0)])

    def test_speedups_by_kind(self):
        rows = performance_page.summarise({"path": self.run_file})
        by_kind = {row[3]: row for row in rows}
        generated = by_kind["generated"]
        self.assertEqual(generated[4], 2)
        self.assertAlmostEqual(generated[5], 1.0)  # geometric mean of 2 and 0.5
        self.assertEqual((generated[6], generated[7]), (0.5, 2.0))
        self.assertEqual(generated[8], ["KokkosKernels/native", "cuSPARSE/ALG1"])
        self.assertEqual(by_kind["real"][4], 1)
        self.assertAlmostEqual(by_kind["real"][5], 3.0)
        print("performance_page: best baseline over kspmv per matrix, generated and real apart")

    def test_page_names_its_sources(self):
        sources = os.path.join(self.dir.name, "docs", "sources.json")
        with open(sources, "w") as f:
            json.dump({"runs": [{"device": "Test GPU", "date": "2026-01-01", "commit": "abc1234",
                                 "driver": "kspmv_perf on Kokkos::Cuda", "file": "run.csv"}]}, f)
        output = os.path.join(self.dir.name, "docs", "performance.md")
        readme = os.path.join(self.dir.name, "README.md")
        with open(readme, "w") as f:
            f.write("\n".join(performance_page.README_TABLE) + "\n")
        arguments = ["--sources", sources, "--output", output, "--readme", readme]
        self.assertEqual(performance_page.main(arguments), 0)
        self.assertEqual(performance_page.main(arguments + ["--check"]), 0)
        with open(readme) as f:
            self.assertIn("| y = A*x | Test GPU | 1.00x / - (least 0.50x / -) | "
                          "3.00x / - (least 3.00x / -) |", f.read())
        with open(output) as f:
            page = f.read()
        self.assertIn("## Test GPU: `run.csv`", page)
        self.assertIn("| Auto | fp64 | y = A*x | 2 generated | 1.00x | 0.50 - 2.00 |", page)
        print("performance_page: the page names device, run and rows")

    def test_targets_met_missed_and_reported(self):
        os.makedirs(os.path.join(self.dir.name, "docs", "decisions"))
        open(os.path.join(self.dir.name, "docs", "decisions", "01-a-record.md"), "w").close()

        def target(**fields):
            return {"goal": "Goal", "file": "run.csv", "precision": "fp64", "operation": "N",
                    "matrices": "generated", "measure": "geometric mean",
                    "explained_in": "01-a-record.md", **fields}

        measure = performance_page.measure_target
        # generated: 2x and 0.5x; real: 3x (the wrong record left out); setup 5 calls each
        self.assertEqual(measure(target(at_least=1.2), self.dir.name)[2], False)
        # a mean of 1.0 that meets its goal, carried past uniform_200_k100's 0.5x: missed
        self.assertEqual(measure(target(at_least=1.0), self.dir.name),
                         (2, 1.0, False, "uniform_200_k100", 0.5))
        self.assertEqual(measure(target(measure="least", at_least=0.5), self.dir.name),
                         (2, 0.5, True, "uniform_200_k100", 0.5))
        count, figure, met, _, _ = measure(target(matrices="real", at_least=2.9), self.dir.name)
        self.assertEqual((count, met), (1, True))
        self.assertAlmostEqual(figure, 3.0)
        self.assertEqual(measure(target(matrices=["stencil27_20"], at_least=1.5), self.dir.name),
                         (1, 2.0, True, "stencil27_20", 2.0))
        self.assertEqual(measure(target(matrices=["stencil27_20"]), self.dir.name),
                         (1, 2.0, None, "stencil27_20", 2.0))
        self.assertEqual(measure(target(measure="setup in calls", at_most=3), self.dir.name),
                         (2, 5.0, False, "stencil27_20", 5.0))
        with self.assertRaises(SystemExit):  # no such records
            measure(target(operation="T"), self.dir.name)
        lines = performance_page.targets_section([target(at_least=1.2)], self.dir.name)
        self.assertIn("| Goal (geometric mean) | fp64, y = A*x | 2 generated | 1.00x | "
                      "uniform_200_k100 0.50x | >= 1.2x | **missed** | `run.csv` | "
                      "[DR-01](decisions/01-a-record.md) |", lines)
        listed = performance_page.targets_section(
            [target(matrices=["stencil27_20", "a", "b", "c"])], self.dir.name)
        self.assertIn("| 1 named in `docs/performance_targets.json` |", listed[-2])
        noted = performance_page.targets_section([target(note="a note")], self.dir.name)
        self.assertTrue(noted[-2].endswith("[DR-01](decisions/01-a-record.md): a note |"))
        with self.assertRaises(SystemExit):  # a decision record that does not exist
            performance_page.targets_section([target(explained_in="02-none.md")], self.dir.name)
        print("performance_page: targets measured from their run, met or missed, with their record")

    def test_bytes_read_beside_the_csr_bytes(self):
        path = os.path.join(self.dir.name, "bytes.csv")
        fields = ["matrix", "backend", "algorithm", "precision", "operation", "vectors",
                  "seconds_per_call", "arithmetic_intensity", "roofline_fraction",
                  "read_bytes_per_nonzero", "read_roofline_fraction", "cache_resident"]
        with open(path, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=fields)
            writer.writeheader()
            record = {"backend": "kspmv", "algorithm": "Auto", "precision": "fp64",
                      "operation": "N", "vectors": 1, "seconds_per_call": 1e-3,
                      "arithmetic_intensity": 2 / 12.75, "roofline_fraction": 0.9,
                      "read_bytes_per_nonzero": 8.83, "read_roofline_fraction": 0.62,
                      "cache_resident": 0}
            writer.writerow(dict(record, matrix="stencil27_160"))
            writer.writerow(dict(record, matrix="stencil27_20", cache_resident=1))  # in L2
            writer.writerow(dict(record, matrix="bcsstk13"))  # real
            writer.writerow(dict(record, matrix="uniform_2000000_k16", operation="T"))
            writer.writerow(dict(record, matrix="fewdense_4000000", algorithm="Vector"))
            writer.writerow(dict(record, matrix="shortrows_20000000", read_roofline_fraction=""))
        rows = performance_page.bytes_read_rows(path)
        self.assertEqual(len(rows), 1)
        matrix, precision, csr, read, csr_fraction, read_fraction = rows[0]
        self.assertEqual((matrix, precision, read, csr_fraction, read_fraction),
                         ("stencil27_160", "fp64", 8.83, 0.9, 0.62))
        self.assertAlmostEqual(csr, 12.75)
        lines = performance_page.bytes_read_lines(path)
        self.assertIn("| stencil27_160 | fp64 | 12.75 | 8.83 | 0.90 | 0.62 |", lines)
        self.assertEqual(performance_page.bytes_read_lines(self.run_file), [])
        print("performance_page: the bytes a large one-vector call reads beside its CSR bytes, "
              "each as a fraction of the copy bandwidth")

    def test_several_vectors_above_the_launch_floor(self):
        path = os.path.join(self.dir.name, "floor.csv")
        fields = ["matrix", "backend", "algorithm", "precision", "operation", "seconds_per_call",
                  "launch_floor_seconds"]
        floor = 3e-6
        with open(path, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=fields)
            writer.writeheader()
            for matrix, backend, algorithm, seconds in [
                    ("bcsstk13", "kspmv", "Auto", 4e-6), ("bcsstk13", "cuSPARSE", "ALG1", 5e-6),
                    ("Pd", "kspmv", "Auto", 5e-6), ("Pd", "cuSPARSE", "ALG1", 4e-6),
                    ("Pd", "cuSPARSE", "ALG3", 3.5e-6), ("west0479", "kspmv", "Auto", 6e-6),
                    ("west0479", "cuSPARSE", "ALG2", 7e-6),
                    ("stencil27_20", "kspmv", "Auto", 1e-6),  # generated: left out
                    ("stencil27_20", "cuSPARSE", "ALG1", 9e-6)]:
                writer.writerow({"matrix": matrix, "backend": backend, "algorithm": algorithm,
                                 "precision": "fp32", "operation": "N_k8_right",
                                 "seconds_per_call": seconds, "launch_floor_seconds": floor})
            writer.writerow({"matrix": "Pd", "backend": "kspmv", "algorithm": "Auto",
                             "precision": "fp32", "operation": "N", "seconds_per_call": 1e-5,
                             "launch_floor_seconds": floor})  # one vector: left out
            # another run joined in the same file, with a floor of its own
            for backend, algorithm, seconds in [("kspmv", "Auto", 5e-6),
                                                ("cuSPARSE", "ALG1", 6e-6)]:
                writer.writerow({"matrix": "bcsstk13", "backend": backend, "algorithm": algorithm,
                                 "precision": "fp64", "operation": "N_k8_right",
                                 "seconds_per_call": seconds, "launch_floor_seconds": 4e-6})
        rows = performance_page.above_floor_rows(path)
        self.assertEqual(len(rows), 2)
        self.assertEqual(rows[1][:4], ("fp64", "N_k8_right", 1, "bcsstk13"))
        self.assertAlmostEqual(rows[1][5], 1e-6)
        self.assertAlmostEqual(rows[1][6], 2e-6)
        precision, operation, count, least, ratio, kspmv, best, kspmv_median, best_median = rows[0]
        self.assertEqual((precision, operation, count, least), ("fp32", "N_k8_right", 3, "Pd"))
        self.assertAlmostEqual(ratio, 0.7)  # ALG3, the better baseline on Pd
        self.assertAlmostEqual(kspmv, 2e-6)
        self.assertAlmostEqual(best, 0.5e-6)
        self.assertAlmostEqual(kspmv_median, 2e-6)  # of 1, 2 and 3 us
        self.assertAlmostEqual(best_median, 2e-6)  # of 2, 0.5 and 4 us
        self.assertIn("| fp32 | Y = A*X, 8 vectors, LayoutRight | 3 | Pd | 0.70x | 2.00 us | "
                      "0.50 us | 2.00 us | 2.00 us |", performance_page.above_floor_lines(path))
        self.assertEqual(performance_page.above_floor_lines(self.run_file), [])  # no floor
        self.assertEqual(performance_page.microseconds(-1e-8), "at floor")
        print("performance_page: several-vector calls on the real matrices as time above the "
              "launch floor, the least matrix and the median, kspmv beside the best baseline")

    def test_readme_table_between_its_markers(self):
        run = {"device": "NVIDIA H100 80GB HBM3", "date": "2026-01-01",
               "driver": "kspmv_perf on Kokkos::Cuda", "path": self.run_file}
        table = performance_page.readme_table([run], [performance_page.summarise(run)])
        self.assertIn("| y = A*x | H100 | 1.00x / - (least 0.50x / -) | "
                      "3.00x / - (least 3.00x / -) |", table)
        raw = dict(run, driver="kspmv_cuda_bench")
        self.assertNotIn("| y = A*x |", performance_page.readme_table(
            [raw], [performance_page.summarise(raw)]), "raw API runs stay off the README")
        generated_only = performance_page.readme_table(
            [run], [[("kspmv/Auto", "fp64", "N", "generated", 2, 1.5, 1.2)]])
        self.assertNotIn("| y = A*x |", generated_only, "a row shows only with both kinds measured")
        complex_only = performance_page.readme_table(
            [run], [[("kspmv/Auto", "c128", "H", "generated", 7, 1.5, 1.2)]])
        self.assertNotIn("A^H", complex_only)
        begin, end = performance_page.README_TABLE
        readme = f"intro\n{begin}\nold table\n{end}\nrest\n"
        self.assertEqual(performance_page.with_readme_table(readme, table), f"intro\n{begin}\n{table}\n{end}\nrest\n")
        with self.assertRaises(SystemExit):
            performance_page.with_readme_table("no markers", table)
        print("performance_page: the README's table, per call and device, replaces what its markers hold")


if __name__ == "__main__":
    unittest.main(verbosity=1)
