#!/usr/bin/env python3
"""tools/gpu_sanitizers.py on a small CMake project of three tests (two labelled cuda, one not) under
fake_compute_sanitizer.py: which runs it makes, what it calls clean, and that any error, failing
test or missing summary fails it."""

import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time
import unittest

TOOLS = pathlib.Path(__file__).resolve().parent
SCRIPT = TOOLS / "gpu_sanitizers.py"
FAKE = TOOLS / "fake_compute_sanitizer.py"

PROJECT = """cmake_minimum_required(VERSION 3.16)
project(sanitized NONE)
enable_testing()
add_test(NAME first COMMAND "{python}" -c "import os, sys; sys.exit(os.environ['SHARD'] != '0')")
set_tests_properties(first PROPERTIES LABELS cuda ENVIRONMENT SHARD=0)
add_test(NAME second COMMAND "{python}" -c "import os, pathlib, sys, time; mark = pathlib.Path(os.environ.get('SLOW_AGAIN', '/nonexistent/mark')); time.sleep(60 if mark.exists() else 0); mark.parent.exists() and mark.touch(); sys.exit(int(os.environ.get('FAIL_SECOND', '0')))")
set_tests_properties(second PROPERTIES LABELS "cuda;unit")
add_test(NAME sharded COMMAND "{python}" -c "import os, sys; n, i = int(os.environ['GTEST_TOTAL_SHARDS']), int(os.environ['GTEST_SHARD_INDEX']); print('shard', i, 'of', n); sys.exit(i % 3 != 1 or n % 3 != 0)")
set_tests_properties(sharded PROPERTIES LABELS sharded ENVIRONMENT "GTEST_TOTAL_SHARDS=3;GTEST_SHARD_INDEX=1")
add_test(NAME host_only COMMAND "{python}" -c "pass")
set_tests_properties(host_only PROPERTIES LABELS unit)
"""


class GpuSanitizers(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.temporary = tempfile.TemporaryDirectory()
        root = pathlib.Path(cls.temporary.name)
        (root / "src").mkdir()
        (root / "src" / "CMakeLists.txt").write_text(PROJECT.format(python=sys.executable))
        cls.build = root / "build"
        subprocess.run(["cmake", "-S", root / "src", "-B", cls.build], check=True, capture_output=True)
        cls.runs = 0

    @classmethod
    def tearDownClass(cls):
        cls.temporary.cleanup()

    def sanitize(self, *extra, output=None, **environment):
        GpuSanitizers.runs += 1
        output = output or pathlib.Path(self.temporary.name) / f"out{self.runs}"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("KSPMV_FAKE", "FAIL_"))}
        env.update(environment)
        result = subprocess.run(
            [sys.executable, SCRIPT, self.build, output, "--sanitizer", str(FAKE), "--jobs", "2", *extra],
            env=env, capture_output=True, text=True)
        summary = json.loads((output / "summary.json").read_text()) if (output / "summary.json").exists() else []
        return result, {(run["tool"], run["test"]): run for run in summary}, output

    def test_every_tool_on_every_labelled_test(self):
        result, runs, output = self.sanitize()
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(set(runs), {(tool, test) for tool in ("memcheck", "racecheck", "initcheck", "synccheck")
                                     for test in ("first", "second")})
        self.assertTrue(all(run["passed"] and run["errors"] == 0 for run in runs.values()))
        self.assertIn("8 of 8 runs clean", result.stderr)
        self.assertIn("| racecheck | second | clean |", (output / "summary.md").read_text())
        self.assertTrue((output / "synccheck" / "first.log").read_text().startswith("========= ERROR SUMMARY: 0"))

    def test_an_error_of_one_tool_fails_the_run(self):
        result, runs, output = self.sanitize(KSPMV_FAKE_SANITIZER_ERRORS="racecheck:FAIL_SECOND")
        self.assertEqual(result.returncode, 1)
        self.assertEqual(runs[("racecheck", "second")]["errors"], 1)
        self.assertFalse(runs[("racecheck", "second")]["passed"])
        self.assertTrue(runs[("racecheck", "first")]["passed"], "racecheck's warnings are not errors")
        self.assertIn("| racecheck | second | 1 errors |", (output / "summary.md").read_text())

    def test_a_failing_test_fails_the_run(self):
        result, runs, _ = self.sanitize("--tools", "memcheck", FAIL_SECOND="3")
        self.assertEqual(result.returncode, 1)
        self.assertEqual(runs[("memcheck", "second")]["status"], 3)
        self.assertEqual(runs[("memcheck", "second")]["errors"], 0)
        self.assertTrue(runs[("memcheck", "first")]["passed"], "the test's ENVIRONMENT property reached it")

    def test_a_run_without_summary_fails(self):
        result, runs, output = self.sanitize("--tools", "initcheck", KSPMV_FAKE_SANITIZER_SILENT="SHARD")
        self.assertEqual(result.returncode, 1)
        self.assertIsNone(runs[("initcheck", "first")]["errors"])
        self.assertIn("no error summary", (output / "summary.md").read_text())

    def test_a_program_without_cuda_calls_is_judged_by_its_own_run(self):
        result, runs, output = self.sanitize("--tools", "racecheck", KSPMV_FAKE_SANITIZER_NO_CUDA="SHARD")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertTrue(runs[("racecheck", "first")]["no_cuda_call"])
        self.assertIn("no CUDA call; test passed", (output / "summary.md").read_text())
        result, runs, _ = self.sanitize("--tools", "racecheck", KSPMV_FAKE_SANITIZER_NO_CUDA="FAIL_SECOND",
                                        FAIL_SECOND="1")
        self.assertEqual(result.returncode, 1)
        self.assertFalse(runs[("racecheck", "second")]["passed"])

    def test_the_deadline_stops_the_run_without_the_tool_too(self):
        # The second test is slow from its second run on: the one without the tool.
        mark = pathlib.Path(self.temporary.name) / "second-ran"
        started = time.monotonic()
        result, runs, _ = self.sanitize("--tools", "racecheck", "--tests-regex", "^sec", "--deadline", "5",
                                        KSPMV_FAKE_SANITIZER_NO_CUDA="FAIL_SECOND", SLOW_AGAIN=str(mark))
        self.assertTrue(mark.exists(), "the run under the tool ran the test")
        self.assertLess(time.monotonic() - started, 30, "the run without the tool was stopped at the deadline")
        self.assertEqual(result.returncode, 1)
        self.assertTrue(runs[("racecheck", "second")]["stopped"])

    def test_the_label_chooses_the_tests(self):
        result, runs, _ = self.sanitize("--tools", "synccheck", "--label-regex", "unit")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(set(runs), {("synccheck", "second"), ("synccheck", "host_only")})
        result, _, _ = self.sanitize("--label-regex", "nothing_has_this")
        self.assertEqual(result.returncode, 1)
        self.assertIn("no test", result.stderr)

    def test_the_name_regex_narrows_the_labelled_tests(self):
        result, runs, _ = self.sanitize("--tools", "synccheck", "--label-regex", "unit", "--tests-regex", "^sec")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(set(runs), {("synccheck", "second")})

    def test_the_exclude_regex_leaves_tests_out(self):
        result, runs, _ = self.sanitize("--tools", "synccheck", "--label-regex", "unit", "--exclude-regex", "^sec")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(set(runs), {("synccheck", "host_only")})

    def test_resume_runs_only_what_an_earlier_run_left(self):
        output = pathlib.Path(self.temporary.name) / "resumed"
        result, runs, _ = self.sanitize("--tools", "memcheck", output=output, FAIL_SECOND="3")
        self.assertEqual(set(runs), {("memcheck", "first"), ("memcheck", "second")})
        # Kept as they were (the second still failed), only initcheck's runs are new.
        result, runs, _ = self.sanitize("--tools", "memcheck,initcheck", "--resume", output=output)
        self.assertEqual(result.returncode, 1)
        self.assertIn("2 runs kept", result.stderr)
        self.assertEqual(runs[("memcheck", "second")]["status"], 3)
        self.assertTrue(runs[("initcheck", "second")]["passed"])
        self.assertEqual(len(runs), 4)
        # Without --resume everything runs again.
        result, runs, _ = self.sanitize("--tools", "memcheck", output=output)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(len(runs), 2)

    def test_the_deadline_stops_a_sitting_and_resume_finishes_it(self):
        output = pathlib.Path(self.temporary.name) / "deadline"
        started = time.monotonic()
        result, runs, _ = self.sanitize("--tools", "memcheck,initcheck", "--jobs", "1", "--deadline", "2",
                                        output=output, KSPMV_FAKE_SANITIZER_SLOW="SHARD")
        self.assertLess(time.monotonic() - started, 30, "the slow run was stopped at the deadline")
        self.assertEqual(result.returncode, 1)
        self.assertEqual(set(runs), {("memcheck", "first")}, "the first run is stopped, no other starts")
        self.assertTrue(runs[("memcheck", "first")]["stopped"])
        self.assertIn("1 stopped at the deadline and 3 not started", result.stderr)
        self.assertIn("| memcheck | first | stopped at the deadline |", (output / "summary.md").read_text())
        result, runs, _ = self.sanitize("--tools", "memcheck,initcheck", "--resume", output=output)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("0 runs kept", result.stderr)
        self.assertEqual(len(runs), 4)
        self.assertTrue(all(run["passed"] for run in runs.values()))
        result, runs, _ = self.sanitize("--tools", "memcheck", "--deadline", "0")
        self.assertEqual(result.returncode, 1, "runs never started are not clean")
        self.assertEqual(runs, {})
        self.assertIn("0 stopped at the deadline and 2 not started", result.stderr)

    def test_split_runs_a_shard_as_parts_that_hold_its_tests(self):
        result, runs, output = self.sanitize("--tools", "memcheck", "--label-regex", "sharded|cuda",
                                             "--split", "2")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(set(runs), {("memcheck", "first"), ("memcheck", "second"),
                                     ("memcheck", "sharded.part0of2"), ("memcheck", "sharded.part1of2")},
                         "tests without a GoogleTest shard run whole")
        self.assertIn("shard 1 of 6", (output / "memcheck" / "sharded.part0of2.log").read_text())
        self.assertIn("shard 4 of 6", (output / "memcheck" / "sharded.part1of2.log").read_text())
        result, runs, output = self.sanitize("--tools", "memcheck", "--label-regex", "sharded")
        self.assertEqual(set(runs), {("memcheck", "sharded")})
        self.assertIn("shard 1 of 3", (output / "memcheck" / "sharded.log").read_text())
        result, _, _ = self.sanitize("--split", "0")
        self.assertEqual(result.returncode, 2)
        self.assertIn("--split 0", result.stderr)

    def test_an_unknown_tool_is_refused(self):
        result, _, _ = self.sanitize("--tools", "memcheck,leakcheck")
        self.assertEqual(result.returncode, 2)
        self.assertIn("leakcheck", result.stderr)


if __name__ == "__main__":
    unittest.main()
