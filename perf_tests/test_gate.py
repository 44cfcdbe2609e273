#!/usr/bin/env python3
"""Unit tests of the regression gate and the run JSON schema, on synthetic runs (fast, no
driver). Run: python3 perf_tests/test_gate.py"""

import contextlib
import copy
import io
import json
import os
import sys
import tempfile
import textwrap
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gate  # noqa: E402
import perf_json  # noqa: E402

BANDWIDTH = 20.0  # GB/s


def make_record(matrix, algorithm, seconds, backend="kspmv", precision="fp64", nnz=1000,
                rows=100):
    compulsory = nnz * 12 + (rows + 1) * 4 + 2 * rows * 8
    gb_per_s = compulsory / seconds * 1e-9
    return {
        "key": f"{matrix}/{backend}/{algorithm}/{precision}", "matrix": matrix,
        "source": "generated", "backend": backend, "algorithm": algorithm,
        "chosen_algorithm": algorithm, "precision": precision, "rows": rows, "cols": rows,
        "nnz": nnz, "vectors": 1, "scalar_bytes": 8, "ordinal_bytes": 4, "offset_bytes": 4,
        "setup_seconds": None, "seconds_per_call": seconds, "calls_per_batch": 10,
        "batch_seconds_per_call": [seconds] * 3, "compulsory_bytes": compulsory,
        "gb_per_s": gb_per_s, "gflop_per_s": 2 * nnz / seconds * 1e-9,
        "arithmetic_intensity": 2 * nnz / compulsory, "roofline_fraction": gb_per_s / BANDWIDTH,
        "cache_resident": True, "relative_error": 1e-16, "correct": True, "error_detail": "",
        "speedup_vs": {},
    }


def make_run(records, commit="abc"):
    return {
        "schema": perf_json.SCHEMA, "suite": "quick", "started_utc": "2026-11-22T00:00:00Z",
        "device": {"execution_space": "Serial", "name": "test CPU", "concurrency": 1,
                   "last_level_cache_bytes": 1e6},
        "compiler": "GCC", "kokkos_version": "Kokkos 4.0.0", "git_commit": commit,
        "command_line": "kspmv_perf", "parameters": {"scale": 0.002, "alpha": 1, "beta": 0},
        "bandwidth": {"bytes_per_copy": 1e8, "seconds": 1e8 / BANDWIDTH * 1e-9,
                      "gb_per_s": BANDWIDTH, "batch_gb_per_s": [BANDWIDTH]},
        "records": records, "skipped": [],
    }


def slowed(run, factor, keys=None):
    """The run with the given records (all by default) `factor` times slower."""
    slow = copy.deepcopy(run)
    for r in slow["records"]:
        if keys is None or r["key"] in keys:
            seconds = r["seconds_per_call"] * factor
            r.update(make_record(r["matrix"], r["algorithm"], seconds, r["backend"],
                                 r["precision"], r["nnz"], r["rows"]))
    return slow


BASELINE = make_run([make_record("stencil", "Auto", 1e-5), make_record("stencil", "Scalar", 2e-5),
                     make_record("powerlaw", "Auto", 3e-5)])


class GateTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def write(self, name, content):
        path = os.path.join(self.dir.name, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(content if isinstance(content, str) else json.dumps(content))
        return path

    def gate(self, run, *extra, baseline=BASELINE):
        output = io.StringIO()
        with contextlib.redirect_stdout(output):
            status = gate.main(["--baseline", self.write("baseline.json", baseline),
                                "--run", self.write("run.json", run), *extra])
        return status, output.getvalue()

    def fake_driver(self, rerun_result):
        """A driver command whose reruns 'measure' rerun_result (written as run.json)."""
        source = self.write("rerun_source.json", rerun_result)
        script = self.write("fake_driver.py", textwrap.dedent(f"""
            import os, shutil, sys
            output = sys.argv[sys.argv.index("--output-dir") + 1]
            os.makedirs(output, exist_ok=True)
            shutil.copy({source!r}, os.path.join(output, "run.json"))
        """))
        return f"{sys.executable} {script}"

    def test_unchanged_rerun_passes(self):
        status, output = self.gate(copy.deepcopy(BASELINE))
        self.assertEqual(status, 0, output)
        self.assertIn("PASS", output)

    def test_planted_20_percent_slowdown_fails_and_names_the_records(self):
        status, output = self.gate(slowed(BASELINE, 1.25))
        self.assertEqual(status, 1, output)
        for key in ("stencil/kspmv/Auto/fp64", "stencil/kspmv/Scalar/fp64",
                    "powerlaw/kspmv/Auto/fp64"):
            self.assertRegex(output, rf"regressed +{key}: .*\(-20\.0%\)")

    def test_slowdown_within_tolerance_passes(self):
        status, output = self.gate(slowed(BASELINE, 1.04))
        self.assertEqual(status, 0, output)
        status, output = self.gate(slowed(BASELINE, 1.04), "--tolerance", "0.02")
        self.assertEqual(status, 1, output)

    def test_a_moved_bandwidth_ceiling_is_pointed_out(self):
        busy = copy.deepcopy(BASELINE)
        busy["bandwidth"]["gb_per_s"] *= 0.8
        for r in busy["records"]:
            r["roofline_fraction"] /= 0.8
        status, output = self.gate(busy)
        self.assertEqual(status, 0, output)
        self.assertIn("copy bandwidth moved by -20.0%", output)

    def test_improvement_passes_and_is_reported(self):
        status, output = self.gate(slowed(BASELINE, 0.5))
        self.assertEqual(status, 0, output)
        self.assertIn("improved", output)

    def test_noise_that_vanishes_on_rerun_passes(self):
        noisy = slowed(BASELINE, 1.25, {"stencil/kspmv/Auto/fp64"})
        status, output = self.gate(noisy, "--driver", self.fake_driver(BASELINE),
                                   "--rerun-pause", "0")
        self.assertEqual(status, 0, output)
        self.assertRegex(output, r"recovered +stencil/kspmv/Auto/fp64: .* best of 2")

    def test_regression_that_persists_on_reruns_fails(self):
        slow = slowed(BASELINE, 1.25, {"stencil/kspmv/Auto/fp64"})
        status, output = self.gate(slow, "--driver", self.fake_driver(slow), "--reruns", "2",
                                   "--rerun-pause", "0")
        self.assertEqual(status, 1, output)
        self.assertRegex(output, r"regressed +stencil/kspmv/Auto/fp64: .* best of 3 measurements")
        self.assertNotIn("Scalar", output)

    def test_missing_record_fails_unless_allowed(self):
        partial = copy.deepcopy(BASELINE)
        partial["records"].pop()
        status, output = self.gate(partial)
        self.assertEqual(status, 1, output)
        self.assertIn("missing", output)
        self.assertEqual(self.gate(partial, "--allow-missing")[0], 0)

    def test_wrong_result_fails(self):
        wrong = copy.deepcopy(BASELINE)
        wrong["records"][0]["correct"] = False
        status, output = self.gate(wrong)
        self.assertEqual(status, 1, output)
        self.assertIn("wrong result", output)

    def test_history_gets_one_line_per_run(self):
        history = os.path.join(self.dir.name, "history.jsonl")
        self.gate(copy.deepcopy(BASELINE), "--history", history)
        self.gate(slowed(BASELINE, 1.25), "--history", history)
        with open(history, encoding="utf-8") as f:
            lines = [json.loads(line) for line in f]
        self.assertEqual([entry["gate"] for entry in lines], ["pass", "fail"])
        self.assertEqual(set(lines[0]["records"]), {r["key"] for r in BASELINE["records"]})

    def test_invalid_run_is_a_usage_error(self):
        broken = copy.deepcopy(BASELINE)
        del broken["records"][0]["roofline_fraction"]
        output = io.StringIO()
        with contextlib.redirect_stderr(output):
            status, _ = self.gate(broken)
        self.assertEqual(status, 2)
        self.assertIn("roofline_fraction: missing", output.getvalue())


class SchemaTest(unittest.TestCase):
    def assert_invalid(self, run, message):
        with self.assertRaisesRegex(perf_json.SchemaError, message):
            perf_json.validate(run)

    def test_valid_run(self):
        perf_json.validate(copy.deepcopy(BASELINE))

    def test_missing_and_unknown_fields(self):
        run = copy.deepcopy(BASELINE)
        del run["device"]["name"]
        self.assert_invalid(run, r"run\.device\.name: missing")
        run = copy.deepcopy(BASELINE)
        run["records"][1]["surprise"] = 1
        self.assert_invalid(run, r"run\.records\[1\]: unknown fields \['surprise'\]")

    def test_wrong_types(self):
        run = copy.deepcopy(BASELINE)
        run["records"][0]["nnz"] = "1000"
        self.assert_invalid(run, r"records\[0\]\.nnz")
        run = copy.deepcopy(BASELINE)
        run["records"][0]["rows"] = True
        self.assert_invalid(run, r"records\[0\]\.rows: True is a boolean")

    def test_derived_figures_must_follow_the_byte_model(self):
        run = copy.deepcopy(BASELINE)
        run["records"][0]["roofline_fraction"] *= 1.01
        self.assert_invalid(run, r"roofline_fraction: .* is not gb_per_s / bandwidth")
        run = copy.deepcopy(BASELINE)
        run["records"][0]["gflop_per_s"] *= 2
        self.assert_invalid(run, r"gflop_per_s")

    def test_compulsory_bytes_follow_design_md(self):
        run = copy.deepcopy(BASELINE)
        run["records"][0]["compulsory_bytes"] += 8
        self.assert_invalid(run, r"compulsory_bytes: .* is not the byte model's")
        record = make_record("m", "Auto", 1e-5, nnz=10, rows=3)
        # 10 * (8 + 4) + 4 * 4 + 3 * 8 + 3 * 8 (beta == 0: y written once)
        self.assertEqual(perf_json.compulsory_bytes(record, beta=0), 184)
        self.assertEqual(perf_json.compulsory_bytes(record, beta=1), 208)

    def test_keys_are_consistent_and_unique(self):
        run = copy.deepcopy(BASELINE)
        run["records"][0]["key"] = "other"
        self.assert_invalid(run, r"key: 'other' is not")
        run = copy.deepcopy(BASELINE)
        run["records"].append(copy.deepcopy(run["records"][0]))
        self.assert_invalid(run, r"appears twice")

    def test_wrong_schema_version(self):
        run = copy.deepcopy(BASELINE)
        run["schema"] = "kspmv-perf/0"
        self.assert_invalid(run, r"run\.schema")


if __name__ == "__main__":
    unittest.main()
