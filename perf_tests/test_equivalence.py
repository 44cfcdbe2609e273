#!/usr/bin/env python3
"""Unit tests of equivalence.py (fast, no real driver): fake_driver.py's runs compared as files
and through the driver mode, equal, with one kspmv record's y_hash or plan changed, a record
missing or wrong, and bad input. Run: python3 perf_tests/test_equivalence.py"""

import contextlib
import glob
import io
import json
import os
import shlex
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import equivalence  # noqa: E402
import fake_driver  # noqa: E402

FAKE_DRIVER = shlex.join([sys.executable, os.path.join(HERE, "fake_driver.py")])
KEY = "stencil27_20/kspmv/Auto/fp64/N"
KSPMV_RECORDS = 12  # 3 measured matrices x 2 kspmv algorithms x fp64, fp32


def equivalence_main(*arguments):
    """(exit status, what it printed)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        status = equivalence.main(list(arguments))
    return status, out.getvalue()


class FilesTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.baseline = self.run_fake("baseline")

    def tearDown(self):
        self.dir.cleanup()

    def run_fake(self, name, *arguments):
        """The run.json of a fake driver run with `arguments`, 2 repetitions (and aggregates)."""
        output_dir = os.path.join(self.dir.name, name)
        with contextlib.redirect_stdout(io.StringIO()):
            fake_driver.main(["--benchmark_repetitions=2", "--output-dir", output_dir,
                              *arguments])
        return os.path.join(output_dir, "run.json")

    def test_equal_runs_pass(self):
        # Another seed of the noise: other times, the same bits.
        candidate = self.run_fake("candidate", "--noise", "0.3", "--noise-seed", "7")
        status, output = equivalence_main(self.baseline, candidate)
        self.assertEqual(status, 0, output)
        self.assertIn(f"PASS: {KSPMV_RECORDS} kspmv records compared, {KSPMV_RECORDS} equal, "
                      f"0 differing, 0 missing", output)
        print(f"equivalence: equal runs (other times) pass: {output.splitlines()[-1]}")

    def test_a_different_y_fails_naming_the_record(self):
        candidate = self.run_fake("candidate", "--perturb-y", KEY)
        status, output = equivalence_main(self.baseline, candidate)
        self.assertEqual(status, 1, output)
        self.assertIn(f"differing  {KEY}\n             y_hash: baseline ", output)
        self.assertEqual(output.count("differing  "), 1, output)
        self.assertIn(f"{KSPMV_RECORDS - 1} equal, 1 differing, 0 missing", output)
        print(f"equivalence: one kspmv record's y_hash changed: exit 1, {KEY} named")

    def test_a_different_plan_fails_naming_the_record(self):
        key = "uniform_200_k100/kspmv/Vector/fp32/N"
        candidate = self.run_fake("candidate", "--perturb-plan", key)
        status, output = equivalence_main(self.baseline, candidate)
        self.assertEqual(status, 1, output)
        self.assertIn(f"differing  {key}\n             plan: baseline ", output)
        self.assertIn("columns: compressed", output)
        print(f"equivalence: one kspmv record's plan changed: exit 1, {key} named")

    def test_a_different_choice_of_auto_fails(self):
        with open(self.baseline, encoding="utf-8") as f:
            document = json.load(f)
        for entry in document["benchmarks"]:
            if entry["name"].startswith(KEY + "/") and "label" in entry:
                entry["label"] = entry["label"].replace("chosen=Vector", "chosen=Adaptive")
        candidate = os.path.join(self.dir.name, "chosen.json")
        with open(candidate, "w", encoding="utf-8") as f:
            json.dump(document, f)
        status, output = equivalence_main(self.baseline, candidate)
        self.assertEqual(status, 1, output)
        self.assertIn(f"differing  {KEY}\n             chosen_algorithm: baseline 'Vector'",
                      output)
        print("equivalence: Auto choosing another algorithm: exit 1")

    def test_baselines_are_not_compared(self):
        candidate = self.run_fake("candidate", "--perturb-y",
                                  "stencil27_20/KokkosKernels/native/fp64/N")
        status, output = equivalence_main(self.baseline, candidate)
        self.assertEqual(status, 0, output)
        print("equivalence: a baseline library's y_hash changed: exit 0 (kspmv's records only)")

    def test_records_that_need_not_reproduce_are_not_compared(self):
        # KEY's records renamed in both runs, with another y in the candidate: determinism off,
        # and the call handed to Kokkos Kernels.
        for algorithm in ("Auto_atomic", "KokkosKernels"):
            renamed_key = KEY.replace("/Auto/", f"/{algorithm}/")

            def renamed(path, name, y_hash_offset):
                with open(path, encoding="utf-8") as f:
                    document = json.load(f)
                for entry in document["benchmarks"]:
                    if entry["name"].startswith(KEY + "/"):
                        entry["name"] = entry["name"].replace(KEY, renamed_key, 1)
                        entry["run_name"] = entry["run_name"].replace(KEY, renamed_key, 1)
                        if "y_hash" in entry:
                            entry["y_hash"] += y_hash_offset
                out = os.path.join(self.dir.name, name)
                with open(out, "w", encoding="utf-8") as f:
                    json.dump(document, f)
                return out

            status, output = equivalence_main(renamed(self.baseline, "a.json", 0),
                                              renamed(self.baseline, "b.json", 1))
            self.assertEqual(status, 0, output)
            self.assertIn(f"PASS: {KSPMV_RECORDS - 1} kspmv records compared", output)
            print(f"equivalence: a {algorithm} record's y_hash changed: exit 0 (not compared)")

    def test_missing_and_wrong_records_fail(self):
        wrong = "powerlaw_2000_a1.5/kspmv/Auto/fp32/N"
        candidate = self.run_fake("candidate", "--wrong", wrong,
                                  "--benchmark_filter=^copy|^(uniform|powerlaw|young)")
        status, output = equivalence_main(self.baseline, candidate)
        self.assertEqual(status, 1, output)
        self.assertIn(f"differing  {wrong}\n             wrong in the candidate: wrong result: ",
                      output)
        for algorithm in ("Auto", "Vector"):
            for precision in ("fp64", "fp32"):
                self.assertIn(f"missing    stencil27_20/kspmv/{algorithm}/{precision}/N  only in "
                              f"the baseline", output)
        self.assertIn("8 kspmv records compared, 7 equal, 1 differing, 4 missing", output)
        status, output = equivalence_main(candidate, self.baseline)
        self.assertEqual(status, 1, output)
        self.assertIn("wrong in the baseline", output)
        print("equivalence: records missing from one run and a wrong result: exit 1, each named")

    def test_records_of_a_new_algorithm_only_in_the_candidate_are_new(self):
        baseline = self.run_fake("filtered", "--benchmark_filter=^copy|/kspmv/Auto/")
        status, output = equivalence_main("--new-algorithm", "Vector", baseline, self.baseline)
        self.assertEqual(status, 0, output)
        self.assertIn(f"new        {KEY.replace('/Auto/', '/Vector/')}  only in the candidate",
                      output)
        half = KSPMV_RECORDS // 2
        self.assertIn(f"PASS: {half} kspmv records compared, {half} equal, 0 differing, "
                      f"0 missing, {half} new", output)
        # Only in the baseline they are still missing; another algorithm's are missing too.
        status, output = equivalence_main("--new-algorithm", "Vector", self.baseline, baseline)
        self.assertEqual(status, 1, output)
        status, output = equivalence_main("--new-algorithm", "Scalar", baseline, self.baseline)
        self.assertEqual(status, 1, output)
        print("equivalence: a new algorithm's records only in the candidate: exit 0, listed")

    def test_bad_input_exits_2(self):
        not_json = os.path.join(self.dir.name, "not.json")
        with open(not_json, "w", encoding="utf-8") as f:
            f.write("{")
        with open(self.baseline, encoding="utf-8") as f:
            document = json.load(f)
        for entry in document["benchmarks"]:
            entry.pop("y_hash", None)
        older = os.path.join(self.dir.name, "older.json")
        with open(older, "w", encoding="utf-8") as f:
            json.dump(document, f)
        baselines_only = self.run_fake("baselines", "--benchmark_filter=KokkosKernels")
        for arguments, message in (
                ((self.baseline, os.path.join(self.dir.name, "absent.json")), "No such file"),
                ((self.baseline, not_json), "not JSON"),
                ((older, self.baseline), "no record has a y_hash"),
                ((self.baseline, baselines_only), "candidate: no kspmv records")):
            with self.subTest(message):
                status, output = equivalence_main(*arguments)
                self.assertEqual(status, 2, output)
                self.assertIn(message, output)
        with contextlib.redirect_stderr(io.StringIO()):
            with self.assertRaises(SystemExit) as usage:
                equivalence.main([self.baseline])
        self.assertEqual(usage.exception.code, 2)
        print("equivalence: a missing file, not JSON, a file without y_hash, no kspmv records "
              "and one file only: exit 2")


class DriversTest(unittest.TestCase):
    def test_driver_mode(self):
        with tempfile.TemporaryDirectory() as directory:
            status, output = equivalence_main(
                "--driver-a", FAKE_DRIVER, "--driver-b", FAKE_DRIVER + " --noise 0.2",
                "--output-dir", directory, "--", "--precision", "fp64")
            self.assertEqual(status, 0, output)
            self.assertIn(f"PASS: {KSPMV_RECORDS // 2} kspmv records compared", output)
            # The quick configuration, then the arguments after "--".
            self.assertIn("--repetitions 1 --batches 1 --warmup 0", output)
            self.assertIn("--precision fp64 --output-dir", output)
            for side in ("a", "b"):
                self.assertTrue(os.path.exists(os.path.join(directory, side, "run.json")))

            status, output = equivalence_main(
                "--driver-a", FAKE_DRIVER, "--driver-b", f"{FAKE_DRIVER} --perturb-y {KEY}",
                "--output-dir", directory)
            self.assertEqual(status, 1, output)
            self.assertIn(f"differing  {KEY}", output)
            self.assertIn(f"{KSPMV_RECORDS - 1} equal, 1 differing", output)

        temporary = os.path.join(tempfile.gettempdir(), "kspmv-equivalence-*")
        before = set(glob.glob(temporary))
        status, output = equivalence_main("--driver-a", FAKE_DRIVER, "--driver-b", FAKE_DRIVER)
        self.assertEqual(status, 0, output)
        self.assertEqual(set(glob.glob(temporary)), before, "runs of equal builds left behind")

        status, output = equivalence_main("--driver-a", FAKE_DRIVER, "--driver-b",
                                          f"{FAKE_DRIVER} --perturb-y {KEY}")
        self.assertEqual(status, 1, output)
        kept = output.split("the runs are kept in ")[1].strip()
        self.assertTrue(os.path.isdir(kept))
        for side in ("a", "b"):
            os.remove(os.path.join(kept, side, "run.json"))
            os.rmdir(os.path.join(kept, side))
        os.rmdir(kept)

        status, output = equivalence_main("--driver-a", FAKE_DRIVER, "--driver-b",
                                          FAKE_DRIVER + " --suite nonsense")
        self.assertEqual(status, 2, output)
        self.assertIn("exit status 2", output)
        self.assertEqual(set(glob.glob(temporary)), before, "a failed driver's run left behind")
        print("equivalence: --driver-a/--driver-b run both drivers briefly and compare them: "
              "equal exit 0 (runs removed), a changed y exit 1 (runs kept), a failing driver "
              "exit 2")


if __name__ == "__main__":
    unittest.main()
