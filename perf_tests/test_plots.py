#!/usr/bin/env python3
"""The charts and the HTML page from a run and a three-run history (exits 77, ctest's "skipped",
without matplotlib). Run: python3 perf_tests/test_plots.py"""

import contextlib
import io
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gate  # noqa: E402
import plots  # noqa: E402
from test_gate import BASELINE, slowed  # noqa: E402


class PlotsTest(unittest.TestCase):
    def test_roofline_trend_and_index(self):
        with tempfile.TemporaryDirectory() as out:
            history = os.path.join(out, "history.jsonl")
            for factor in (1.0, 1.1, 0.9):
                gate.append_history(history, slowed(BASELINE, factor), [], "not gated")
            run = os.path.join(out, "run.json")
            with open(run, "w", encoding="utf-8") as f:
                json.dump(BASELINE, f)
            with contextlib.redirect_stdout(io.StringIO()):
                status = plots.main(["--run", run, "--history", history, "--output-dir", out])
            self.assertEqual(status, 0)
            charts = ["roofline.png", "roofline.svg", "trend.png", "trend.svg"]
            for name in charts:
                self.assertGreater(os.path.getsize(os.path.join(out, name)), 1000, name)
            with open(os.path.join(out, "index.html"), encoding="utf-8") as f:
                page = f.read()
            for name in charts:
                self.assertIn(f'href="{name}"', page)
            self.assertIn("kspmv/Auto", page)


if __name__ == "__main__":
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("matplotlib is missing: skipped")
        sys.exit(plots.MISSING_MATPLOTLIB)
    unittest.main()
