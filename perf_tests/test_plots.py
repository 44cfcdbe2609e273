#!/usr/bin/env python3
"""The charts and the HTML page from a fake driver's run (one record wrong) and a four-run history
(three recorded runs of every record, one gated run of kspmv's records only); the speedup chart
of a run where kspmv's Auto ran its own kernels (bars) and of one where it ran Kokkos Kernels'
(words); exits 77, ctest's "skipped", without matplotlib. Run: python3 perf_tests/test_plots.py"""

import contextlib
import io
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gate  # noqa: E402
import perf_json  # noqa: E402
import plots  # noqa: E402
from test_gate import fake_document  # noqa: E402

WRONG = "uniform_200_k100/kspmv/Vector/fp64/N"
COMPRESSED = "stencil27_20/kspmv/Auto/fp64/N"  # given fewer bytes read than its CSR arrays


def with_compressed_columns(document):
    """The fake driver's document with COMPRESSED reading 2 bytes an entry fewer than its CSR
    arrays, as a compressed column form would."""
    for entry in document["benchmarks"]:
        if entry["name"].startswith(COMPRESSED + "/") and "compulsory_bytes" in entry:
            entry["read_bytes"] = entry["compulsory_bytes"] - 2 * entry["nnz"]
    return document


class PlotsTest(unittest.TestCase):
    def test_roofline_trend_and_index(self):
        with tempfile.TemporaryDirectory() as out:
            history = os.path.join(out, "history.jsonl")
            for slowdown in ("1.0", "1.1", "1.2"):
                run = perf_json.parse(fake_document("--plant-slowdown", slowdown))
                gate.append_history(history, gate.history_entry(run, "not gated"))
            kspmv_only = perf_json.parse(fake_document("--benchmark_filter", "/kspmv/|^copy",
                                                       "--wrong", WRONG))
            gate.append_history(history, gate.history_entry(kspmv_only, "fail"))
            document = with_compressed_columns(fake_document("--wrong", WRONG))
            shifted = plots.fewer_bytes_read(plots.measured(perf_json.parse(document)))
            self.assertEqual([r["key"] for r, _ in shifted], [COMPRESSED])
            record, intensity = shifted[0]
            self.assertAlmostEqual(intensity, 2 * record["nnz"] / record["read_bytes"])
            path = os.path.join(out, "run.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(document, f)
            with contextlib.redirect_stdout(io.StringIO()):
                status = plots.main(["--run", path, "--history", history, "--output-dir", out])
            self.assertEqual(status, 0)
            charts = [f"{name}.{extension}" for name in ("speedup", "roofline", "trend")
                      for extension in ("png", "svg")]
            for name in charts:
                self.assertGreater(os.path.getsize(os.path.join(out, name)), 1000, name)
            with open(os.path.join(out, "index.html"), encoding="utf-8") as f:
                page = f.read()
            for name in charts:
                self.assertIn(f'href="{name}"', page)
            for text in ("kspmv/Auto", "KokkosKernels/native", f"WRONG RESULT {WRONG}: ",
                         "skipped young1c", "by the bytes read (geomean)", "same kernel"):
                self.assertIn(text, page)
            # The roofline's numbered matrices are named under it.
            self.assertIn("1  stencil27_20", read(out, "roofline.svg"))
            # kspmv/Auto fp64 reads fewer bytes on one matrix in the same time: a lower fraction.
            auto = next(row for row in plots.summary_rows(perf_json.parse(document))
                        if row[:2] == ("kspmv/Auto", "fp64"))
            self.assertLess(auto[4], auto[3])
            print("plots: speedup, roofline and trend charts (PNG, SVG) and index.html with the "
                  "summary table, the wrong record and the skipped matrix listed, not drawn; an "
                  "arrow for the record that reads fewer bytes")

    def test_trend_tracks_the_bytes_read(self):
        # Two runs whose history has the bytes read, after one written before it had them; Auto
        # reads one matrix in fewer bytes than its CSR arrays.
        history = []
        for slowdown in ("1.0", "1.2"):
            document = with_compressed_columns(fake_document("--plant-slowdown", slowdown))
            history.append(gate.history_entry(perf_json.parse(document), "not gated"))
        older = json.loads(json.dumps(history[0]))
        for figures in older["records"].values():
            del figures["read_roofline_fraction"]
        series, _ = plots.trend_series([older, *history])
        self.assertEqual([n for n in series if n.endswith(plots.BYTES_READ)],
                         ["kspmv/Auto (bytes read)"])
        csr_runs, csr_means = series["kspmv/Auto"]
        read_runs, read_means = series["kspmv/Auto (bytes read)"]
        self.assertEqual(csr_runs, [0, 1, 2])
        self.assertEqual(read_runs, [1, 2])
        for read_mean, csr_mean in zip(read_means, csr_means[1:]):
            self.assertLess(read_mean, csr_mean)
        print("plots: the trend follows kspmv/Auto's fraction in the bytes read from the runs "
              "whose history has it, below its CSR fraction where a form reads fewer bytes")

    def test_speedup_chart(self):
        with tempfile.TemporaryDirectory() as out:
            # On CUDA, Auto's own kernels against Kokkos Kernels: a bar per matrix.
            document = fake_document()
            document["context"]["execution_space"] = "Cuda"
            svg = self.charts(out, document)
            for matrix in ("stencil27_20", "uniform_200_k100", "powerlaw_2000_a1.5"):
                self.assertIn(matrix, svg)
            self.assertIn("speedup of kspmv Auto (x)", svg)
            self.assertIn("over KokkosKernels/native", svg)
            self.assertNotIn("same kernel", svg)
            self.assertFalse(os.path.exists(os.path.join(out, "trend.png")))  # one run, no trend
            # Off CUDA, Auto is Kokkos Kernels: words, no speedup.
            svg = self.charts(out, fake_document())
            self.assertIn("KokkosKernels/native: same kernel", svg)
            self.assertNotIn("over KokkosKernels/native", svg)
        print("plots: the speedup chart names every matrix, draws bars on CUDA and says 'same "
              "kernel' where Auto ran Kokkos Kernels; no trend chart of one run")

    def charts(self, out, document):
        """speedup.svg of the run `document`."""
        path = os.path.join(out, "run.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(document, f)
        history = os.path.join(out, "history.jsonl")
        gate.append_history(history, gate.history_entry(perf_json.parse(document), "not gated"))
        with contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(plots.main(["--run", path, "--history", history, "--output-dir",
                                         out]), 0)
        os.remove(history)
        return read(out, "speedup.svg")


def read(directory, name):
    with open(os.path.join(directory, name), encoding="utf-8") as f:
        return f.read()


if __name__ == "__main__":
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("matplotlib is missing: skipped")
        sys.exit(plots.MISSING_MATPLOTLIB)
    unittest.main()
