#!/usr/bin/env python3
"""Runs a real benchmark program (kspmv_perf or kspmv_cuda_bench) on a small slice of the quick
suite, the records of its two smallest generated matrices in fp64, and checks what it writes:
Google Benchmark's JSON valid for perf_json with every record correct, the names it lists, its
console progress, and the exit status of a usage error.
Run: python3 perf_tests/test_driver_output.py --driver build/perf_tests/driver/kspmv_perf
"""

import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import perf_json  # noqa: E402

DRIVER = None
LISTING = None  # the whole fp64 quick suite's --benchmark_list_tests run (__main__ makes it first)
COMMIT = "test-commit"
# The quick suite's smallest generated matrices (about 15k and 20k entries at scale 0.002).
SMALL_MATRICES = re.compile(r"^(powerlaw_\d+_a[0-9.]+|uniform_\d+_k100)$")


def run(*arguments):
    return subprocess.run([DRIVER, *arguments], capture_output=True, text=True, check=False,
                          timeout=600)


def extended_regex_escape(text):
    """`text` matched literally by Google Benchmark's filter (a POSIX extended regex)."""
    return re.sub(r"([.\[\]()*+?{}|^$\\])", r"\\\1", text)


def list_tests(*arguments):
    return run("--suite", "quick", "--precision", "fp64", "--benchmark_list_tests=true", *arguments)


def names_listed_by(listing):
    if listing.returncode != 0:
        raise AssertionError(f"--benchmark_list_tests=true exited with {listing.returncode}: "
                             f"{listing.stderr}")
    return [perf_json.record_name(name) for name in listing.stdout.split()]


def listed_names(*arguments):
    return names_listed_by(list_tests(*arguments))


PROBES = (perf_json.COPY_BANDWIDTH, perf_json.LAUNCH_FLOOR)


class DriverOutputTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.all_names = names_listed_by(LISTING)
        matrices = sorted({perf_json.split_key(name)[0] for name in cls.all_names
                           if name not in PROBES})
        cls.matrices = [m for m in matrices if SMALL_MATRICES.match(m)]
        if len(cls.matrices) != 2:
            raise AssertionError(f"expected one powerlaw and one uniform_*_k100 matrix among "
                                 f"{matrices}")
        alternatives = "|".join(extended_regex_escape(m) for m in cls.matrices)
        # The probes must run too: the roofline needs its ceiling, the summary the launch floor.
        cls.filter = f"^{perf_json.COPY_BANDWIDTH}|^{perf_json.LAUNCH_FLOOR}|^({alternatives})/"
        cls.slice_names = listed_names(f"--benchmark_filter={cls.filter}")
        cls.dir = tempfile.TemporaryDirectory()
        cls.finished = run("--suite", "quick", "--precision", "fp64",
                           f"--benchmark_filter={cls.filter}", "--benchmark_repetitions=2",
                           "--output-dir", cls.dir.name, "--git-commit", COMMIT)
        cls.json_path = os.path.join(cls.dir.name, "run.json")

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_run_succeeds(self):
        self.assertEqual(self.finished.returncode, 0, self.finished.stdout + self.finished.stderr)
        print(f"driver: the slice {self.filter!r} ran, exit status 0")

    def test_listed_names_are_records(self):
        for probe in PROBES:
            self.assertIn(probe, self.all_names)
        keys = [perf_json.split_key(n) for n in self.all_names if n not in PROBES]
        self.assertEqual({k[3] for k in keys}, {"fp64"})
        backends = {k[1] for k in keys}
        self.assertIn(perf_json.KSPMV_BACKEND, backends)
        self.assertTrue(backends - {perf_json.KSPMV_BACKEND}, "no baseline library listed")
        self.assertTrue(any(k[0].startswith("stencil27_") for k in keys))
        self.assertEqual(len(set(self.all_names)), len(self.all_names), "a name listed twice")
        print(f"driver: --benchmark_list_tests=true lists {len(keys)} fp64 records "
              f"matrix/backend/algorithm/precision of backends {sorted(backends)} and "
              f"the probes {', '.join(PROBES)}")

    def test_json_is_valid_and_holds_the_listed_records(self):
        run_ = perf_json.load_run(self.json_path)
        keys = [r["key"] for r in run_["records"]]
        self.assertEqual(sorted(keys),
                         sorted(n for n in self.slice_names if n not in PROBES))
        self.assertEqual({r["matrix"] for r in run_["records"]}, set(self.matrices))
        self.assertEqual((run_["suite"], run_["git_commit"], run_["skipped"]),
                         ("quick", COMMIT, []))
        self.assertIn(run_["harness"], ("kokkos", "cuda"))
        self.assertGreater(run_["bandwidth"]["gb_per_s"], 0)
        self.assertGreater(run_["launch_floor"]["seconds"], 0)
        self.assertLess(run_["launch_floor"]["seconds"], 1e-3, "an empty kernel took a millisecond")
        # A baseline library may be wrong where kspmv is not (Kokkos Kernels 3.4's "T" with beta
        # 0 keeps the NaN y held before the call): the driver reports it and carries on.
        correct_baselines = {(r["matrix"], r["precision"], r["operation"]) for r in run_["records"]
                             if r["backend"] != perf_json.KSPMV_BACKEND and r["correct"]}
        wrong_baselines = [r["key"] for r in run_["records"] if not r["correct"]]
        for r in run_["records"]:
            if r["backend"] != perf_json.KSPMV_BACKEND and not r["correct"]:
                continue
            self.assertTrue(r["correct"], f"{r['key']}: {r['error_detail']}")
            self.assertTrue(math.isfinite(r["relative_error"]), r["key"])
            self.assertIsNotNone(r["y_hash"], f"{r['key']}: no y_hash")
            self.assertEqual(len(r["repetition_seconds_per_call"]), 2, r["key"])
            self.assertEqual(r["source"], "generated")
            # kspmv's records through a handle say what its plan is (Handle::describe()).
            described = r["backend"] == perf_json.KSPMV_BACKEND and r["handle"]
            self.assertEqual(bool(r["plan"]), bool(described), f"{r['key']}: plan {r['plan']!r}")
            if (r["backend"] == perf_json.KSPMV_BACKEND
                    and (r["matrix"], r["precision"], r["operation"]) in correct_baselines):
                self.assertTrue(r["speedup_vs"], f"{r['key']}: no speedup over its baselines")
        print(f"driver: run.json valid {perf_json.SCHEMA}, {len(keys)} records, every kspmv record "
              f"correct, 2 repetitions each, a y_hash on every correct record, speedups over "
              f"the correct baselines; baselines wrong: {wrong_baselines or 'none'}")

    def test_google_benchmark_json_as_documented(self):
        with open(self.json_path, encoding="utf-8") as f:
            document = json.load(f)
        context = document["context"]
        self.assertTrue(all(isinstance(context[k], str) for k in perf_json.CONTEXT_KEYS))
        self.assertEqual(context["kspmv_schema"], perf_json.SCHEMA)
        run_types = {e["run_type"] for e in document["benchmarks"]}
        self.assertEqual(run_types, {"iteration", "aggregate"})
        print("driver: Google Benchmark's JSON with our context keys as strings, per-repetition "
              "and aggregate entries")

    def test_console_shows_progress(self):
        for name in self.slice_names:
            self.assertIn(name, self.finished.stdout, f"{name} never shown on the console")
        print("driver: the console names every record of the slice as it runs")

    def test_sweep_and_chosen_shapes(self):
        names = listed_names("--suite", "sweep", "--scale", "0.001",
                             "--shape", "rows=500,mean=4,spread=1,reach=20")
        matrices = sorted({perf_json.split_key(n)[0] for n in names if n not in PROBES})
        # 27 shapes of 1000 rows at this scale: the reaches 16384 and "anywhere" are one.
        self.assertEqual(len(matrices), 18 + 1, matrices)
        self.assertTrue(all(m.startswith("shape_") for m in matrices), matrices)
        self.assertIn("shape_1000x1000_m48_s4_r256", matrices)
        self.assertIn("shape_500x500_m4_s1_r20", matrices)
        bad = run("--shape", "rows=500,mean=4,spread=1")
        self.assertEqual(bad.returncode, 2, bad.stdout + bad.stderr)
        self.assertIn("lacks reach=", bad.stderr)
        print(f"driver: --suite sweep lists {len(matrices) - 1} shapes at scale 0.001, --shape adds "
              f"one; a shape without its reach exits 2")

    def test_records_timed_beside_the_chosen_reference(self):
        # Not the default (the first baseline): a kspmv kernel, so that choosing is what is seen.
        matrix = self.matrices[0]
        keys = [perf_json.split_key(n) for n in self.slice_names if n not in PROBES]
        labels = sorted({f"{k[1]}/{k[2]}" for k in keys if k[0] == matrix and k[4] == "N"})
        kernels = [label for label in labels if label.startswith(perf_json.KSPMV_BACKEND + "/")]
        chosen = next(label for label in kernels if not label.endswith("/Auto"))
        with tempfile.TemporaryDirectory() as out:
            ran = run("--suite", "quick", "--precision", "fp64", "--reference", chosen,
                      f"--benchmark_filter=^{extended_regex_escape(matrix)}/.*/N/",
                      "--benchmark_repetitions=1", "--output-dir", out)
            self.assertEqual(ran.returncode, 0, ran.stdout + ran.stderr)
            records = perf_json.load_run(os.path.join(out, "run.json"))["records"]
        self.assertGreater(len(records), 2)
        for r in records:
            label = f"{r['backend']}/{r['algorithm']}"
            self.assertEqual(r["reference"], None if label == chosen else chosen, r["key"])
        bad = run("--suite", "quick", "--reference", "nobody/nothing")
        self.assertEqual(bad.returncode, 2, bad.stdout + bad.stderr)
        self.assertIn("nobody/nothing", bad.stderr)
        self.assertIn(chosen, bad.stderr)
        print(f"driver: --reference {chosen} times {len(records) - 1} records of {matrix} mode N "
              f"beside it; an unknown label exits 2: {bad.stderr.strip()[:120]}")

    def test_a_filter_matching_no_record_exits_2(self):
        none = run("--suite", "quick", "--benchmark_filter=^no_such_record$")
        self.assertEqual(none.returncode, 2, none.stdout + none.stderr)
        self.assertIn("no record matches --benchmark_filter", none.stderr)

    def test_usage_error_exits_2(self):
        bad = run("--suite", "nonsense")
        self.assertEqual(bad.returncode, 2, bad.stdout + bad.stderr)
        self.assertIn("--suite", bad.stderr)
        self.assertIn("nonsense", bad.stderr)
        print(f"driver: --suite nonsense exits 2: {bad.stderr.strip()}")


# kspmv_cuda_bench's status on a machine without a usable CUDA device: the test is skipped there
# (CTest's SKIP_RETURN_CODE), not failed.
NO_CUDA_DEVICE = 77

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--driver", required=True)
    args, rest = parser.parse_known_args()
    DRIVER = args.driver
    LISTING = list_tests()
    if LISTING.returncode == NO_CUDA_DEVICE:
        print(f"skipped: {LISTING.stderr.strip()}")
        sys.exit(NO_CUDA_DEVICE)
    unittest.main(argv=[sys.argv[0], *rest])
