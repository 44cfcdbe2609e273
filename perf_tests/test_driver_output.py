#!/usr/bin/env python3
"""Runs kspmv_perf on a small slice of the quick suite and checks what it writes: the JSON against
the documented schema, the CSV against the JSON, the progress lines, and the exit status for bad
options.  Run: python3 perf_tests/test_driver_output.py --driver build/perf_tests/driver/kspmv_perf
"""

import argparse
import csv
import os
import re
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import perf_json  # noqa: E402

DRIVER = None
SLICE = ["--only", "stencil27*/*/*/fp64", "--only", "powerlaw*/*/*/fp32", "--batches", "2",
         "--min-batch-seconds", "0.0005", "--copy-bytes", "3e7"]


class DriverOutputTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.finished = subprocess.run([DRIVER, "--suite", "quick", "--output-dir", cls.dir.name,
                                       *SLICE], capture_output=True, text=True, check=False)
        cls.listed = subprocess.run([DRIVER, "--suite", "quick", "--list", *SLICE],
                                    capture_output=True, text=True, check=False)

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_run_succeeds(self):
        self.assertEqual(self.finished.returncode, 0, self.finished.stdout + self.finished.stderr)

    def test_json_follows_the_schema_and_holds_the_listed_records(self):
        run = perf_json.load_run(os.path.join(self.dir.name, "run.json"))
        keys = [r["key"] for r in run["records"]]
        self.assertEqual(keys, self.listed.stdout.split())
        self.assertTrue(any(k.startswith("stencil27_") and k.endswith("/fp64") for k in keys))
        self.assertTrue(any(k.startswith("powerlaw_") and k.endswith("/fp32") for k in keys))
        self.assertTrue(all(r["correct"] for r in run["records"]))
        kspmv = [r for r in run["records"] if r["backend"] == "kspmv"]
        self.assertTrue(kspmv and all(r["speedup_vs"] for r in kspmv), "no baseline ratios")

    def test_csv_matches_the_json(self):
        run = perf_json.load_run(os.path.join(self.dir.name, "run.json"))
        with open(os.path.join(self.dir.name, "run.csv"), encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(len(rows), len(run["records"]))
        for row, record in zip(rows, run["records"]):
            self.assertEqual(row["matrix"], record["matrix"])
            self.assertAlmostEqual(float(row["roofline_fraction"]), record["roofline_fraction"])

    def test_progress_counts_every_record(self):
        total = len(self.listed.stdout.split())
        progress = re.findall(r"^\[(\d+)/(\d+)\] ", self.finished.stdout, re.MULTILINE)
        self.assertEqual(progress, [(str(i), str(total)) for i in range(1, total + 1)])

    def test_bad_option_is_a_usage_error(self):
        bad = subprocess.run([DRIVER, "--suite", "weekly"], capture_output=True, text=True,
                             check=False)
        self.assertEqual(bad.returncode, 2)
        self.assertIn("--suite is quick or nightly", bad.stderr)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--driver", required=True)
    args, rest = parser.parse_known_args()
    DRIVER = args.driver
    unittest.main(argv=[sys.argv[0], *rest])
