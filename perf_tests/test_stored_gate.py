#!/usr/bin/env python3
"""Tests of the gate against a stored run (stored_gate.py, nightly.py --baseline-results) with
fake_driver.py: an unchanged build passes, a slowed record and a slowed implementation fail, runs
of another device or suite are refused. Run: python3 perf_tests/test_stored_gate.py"""

import contextlib
import io
import json
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fake_driver  # noqa: E402
import stored_gate  # noqa: E402
from nightly_test_case import NightlyTestCase  # noqa: E402

FAKE_DRIVER = os.path.join(HERE, "fake_driver.py")
SLOWED = "stencil27_20/kspmv/Auto/fp64/N"
# This run's noise differs from the stored run's (another seed), as two nights' would.
THIS_RUN = ("--", "--noise", "0.02", "--noise-seed", "2")


def fake_run(directory, *arguments):
    """The run.json of a fake driver run with seeded noise, written into `directory`."""
    with contextlib.redirect_stdout(io.StringIO()):
        fake_driver.main(["--output-dir", directory, "--noise", "0.02", "--noise-seed", "1",
                          *arguments])
    return os.path.join(directory, "run.json")


class StoredGateTest(NightlyTestCase):
    common_arguments = ("--no-plots", "--driver", FAKE_DRIVER)

    def setUp(self):
        super().setUp()
        self.stored = fake_run(os.path.join(self.dir.name, "stored"), "--git-commit",
                               "last_night")

    def gate_document(self):
        with open(os.path.join(self.output, "gate", "gate.json"), encoding="utf-8") as f:
            return json.load(f)

    def history(self):
        path = os.path.join(self.output, "history.jsonl")
        if not os.path.exists(path):
            return []
        with open(path, encoding="utf-8") as f:
            return [json.loads(line) for line in f]

    def test_unchanged_build_passes(self):
        status, output = self.nightly("--baseline-results", self.stored, *THIS_RUN)
        self.assertEqual(status, 0, output)
        self.assertIn(f"against the stored run {self.stored} (last_night", output)
        self.assertIn("context-grade", output)
        self.assertRegex(output, r"ok +kspmv/Auto N +[01]\.\d{3}  6 records")
        self.assertIn("gate: PASS (12 records: 12 ok; aggregates: 2 ok)", output)
        document = self.gate_document()
        self.assertEqual((document["verdict"], document["method"]), ("pass", "stored run"))
        self.assertEqual(document["git_commit"]["baseline"], "last_night")
        record = next(r for r in document["records"] if r["key"] == SLOWED)
        self.assertEqual(record["basis"], "relative to KokkosKernels/native")
        self.assertAlmostEqual(record["ratio"],
                               record["candidate_value"] / record["baseline_value"])
        [line] = self.history()
        self.assertEqual((line["gate"], line["baseline_git_commit"]), ("pass", "last_night"))
        self.assertEqual(line["baseline_results"], self.stored)
        self.assertEqual(line["records"][SLOWED]["status"], "ok")
        baseline_record = line["records"]["stencil27_20/KokkosKernels/native/fp64/N"]
        self.assertIn("roofline_fraction", baseline_record)  # the full run's, baselines too
        print("stored gate: an unchanged build passes against a stored run, relative to the "
              "reference; gate.json and a history line with the full run's figures")

    def test_slowed_record_fails(self):
        status, output = self.nightly("--baseline-results", self.stored, *THIS_RUN,
                                      "--slow", f"{SLOWED}=1.5")
        self.assertEqual(status, 1, output)
        self.assertRegex(output, rf"regressed +{SLOWED} +1\.[45]\d\d \(relative to "
                                 r"KokkosKernels/native\)")
        self.assertIn("gate: FAIL (12 records: 11 ok, 1 regressed;", output)
        self.assertEqual(self.gate_document()["verdict"], "fail")
        self.assertEqual([line["gate"] for line in self.history()], ["fail"])
        print("stored gate: one record 1.5x slower than the stored run's fails, named")

    def test_slowed_implementation_fails_through_its_aggregate(self):
        # 10% is within a record's tolerance (25%), not an implementation's (5%).
        status, output = self.nightly("--baseline-results", self.stored, *THIS_RUN,
                                      "--plant-slowdown", "1.10")
        self.assertEqual(status, 1, output)
        self.assertRegex(output, r"regressed +kspmv/Auto N +1\.\d{3}  6 records")
        self.assertIn("(12 records: 12 ok; aggregates: 2 regressed)", output)
        status, output = self.nightly("--baseline-results", self.stored,
                                      "--results-aggregate-tolerance", "0.2", *THIS_RUN,
                                      "--plant-slowdown", "1.10")
        self.assertEqual(status, 0, output)
        print("stored gate: every kspmv record 10% slower fails through the aggregates, and "
              "passes with --results-aggregate-tolerance 0.2")

    def test_records_split_by_whether_their_plan_and_bits_changed(self):
        changed = ["stencil27_20/kspmv/Auto/fp64/N", "powerlaw_2000_a1.5/kspmv/Auto/fp32/N"]
        status, output = self.nightly("--baseline-results", self.stored, *THIS_RUN,
                                      "--perturb-y", changed[0], "--perturb-plan", changed[1],
                                      "--slow", f"{changed[0]}=1.3", "--slow", f"{changed[1]}=1.3")
        self.assertEqual(status, 1, output)
        self.assertRegex(output, r"ok +same plan and bits +[01]\.\d{3}  10 records")
        self.assertRegex(output, r"regressed +plan or bits changed +1\.[23]\d\d  2 records")
        self.assertNotIn("did not change", output)
        document = self.gate_document()
        self.assertEqual([(g["group"], g["records"]) for g in document["by_change"]],
                         [("same plan and bits", 10), ("plan or bits changed", 2)])
        self.assertEqual(sorted(r["key"] for r in document["records"]
                                if not r["same_plan_and_bits"]), sorted(changed))
        status, output = self.nightly("--baseline-results", self.stored, *THIS_RUN,
                                      "--plant-slowdown", "1.10", "--perturb-y", changed[0])
        self.assertRegex(output, r"regressed +same plan and bits +1\.\d{3}  11 records")
        self.assertRegex(output, r"gate: the records whose plan and bits did not change regressed "
                                 r"too \(1\.\d{3}\): read the changed ones against them")
        print("stored gate: records split by whether their plan and bits changed since the "
              "stored run; unchanged ones that moved are called out")

    def test_another_device_is_refused(self):
        with open(self.stored, encoding="utf-8") as f:
            document = json.load(f)
        document["context"]["device_name"] = "NVIDIA H100 80GB HBM3"
        with open(self.stored, "w", encoding="utf-8") as f:
            json.dump(document, f)
        status, output = self.nightly("--baseline-results", self.stored, *THIS_RUN)
        self.assertEqual(status, 2, output)
        self.assertIn(f"gate: refused to compare with {self.stored}: the stored run was measured "
                      f"on NVIDIA H100 80GB HBM3 (Serial), this run on fake CPU (Serial)", output)
        self.assertEqual(self.history(), [])
        self.assertFalse(os.path.exists(os.path.join(self.output, "gate", "gate.json")))
        status, output = self.nightly("--baseline-results", self.stored,
                                      "--allow-baseline-mismatch", *THIS_RUN)
        self.assertEqual(status, 0, output)
        self.assertIn("gate: note: compared although the stored run was measured on NVIDIA H100",
                      output)
        print("stored gate: a stored run of another device is refused (exit 2, no history), "
              "compared with --allow-baseline-mismatch")

    def test_another_suite_is_refused_before_the_run(self):
        status, output = self.nightly("--baseline-results", self.stored, "--suite", "nightly")
        self.assertEqual(status, 2, output)
        self.assertIn("the stored run is of suite 'quick', this run of 'nightly'", output)
        self.assertFalse(os.path.exists(self.output))  # the driver never ran
        status, output = self.nightly("--baseline-results", os.path.join(self.dir.name, "none"))
        self.assertEqual(status, 2, output)
        self.assertIn("nightly: --baseline-results: [Errno 2] No such file", output)
        print("stored gate: another suite and a missing file are refused before the driver runs")

    def test_the_output_directorys_own_last_run(self):
        status, output = self.nightly("--no-gate")
        self.assertEqual(status, 0, output)
        status, output = self.nightly("--baseline-results", os.path.join(self.output, "run.json"),
                                      *THIS_RUN)
        self.assertEqual(status, 0, output)
        self.assertEqual([line["gate"] for line in self.history()], ["not gated", "pass"])
        print("stored gate: the output directory's own run.json is read before the run replaces "
              "it")


class StoredGateMainTest(NightlyTestCase):
    def gate(self, baseline, candidate):
        output = io.StringIO()
        with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
            status = stored_gate.main(["--baseline", baseline, "--candidate", candidate,
                                       "--output-dir", os.path.join(self.dir.name, "gate")])
        return status, output.getvalue()

    def test_missing_records_fail_and_new_records_pass(self):
        both = fake_run(os.path.join(self.dir.name, "both"))
        fp64 = fake_run(os.path.join(self.dir.name, "fp64"), "--precision", "fp64",
                        "--noise-seed", "3")
        status, output = self.gate(both, fp64)
        self.assertEqual(status, 1, output)
        self.assertRegex(output, r"missing +stencil27_20/kspmv/Auto/fp32/N +in the stored run, "
                                 r"not in this one")
        status, output = self.gate(fp64, both)
        self.assertEqual(status, 0, output)
        self.assertRegex(output, r"new +stencil27_20/kspmv/Auto/fp32/N +not in the stored run")
        status, output = self.gate(both, os.path.join(self.dir.name, "none.json"))
        self.assertEqual(status, 2, output)
        print("stored_gate.py: records this run lacks fail, records only it has pass as new, an "
              "unreadable file exits 2")


if __name__ == "__main__":
    unittest.main(verbosity=1)
