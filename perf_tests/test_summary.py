#!/usr/bin/env python3
"""summary.py on fake-driver runs: the speedup and its range over the repetitions, rows where
kspmv/Auto ran the baseline's own kernel ("same kernel"), Kokkos Kernels 3.x's known bug in modes
T and H as one line, any other wrong result loud; and nightly.py with the fake driver: the
driver's output in driver.log, a progress line, the table on the terminal and in summary.txt, a
wrong baseline loud with exit status 0, the warning and --require-plots' status without
matplotlib. Run: python3 perf_tests/test_summary.py"""

import io
import os
import sys
import unittest
from unittest import mock

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import driver_log  # noqa: E402
import nightly  # noqa: E402
import perf_json  # noqa: E402
import summary  # noqa: E402
from nightly_test_case import NightlyTestCase  # noqa: E402
from test_gate import fake_document  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
NAN_Y = "wrong result: y(0, 0) = nan but the reference is -0.150912 (|error| nan > bound 1.8e-14)"


def as_operation(document, key, operation, message):
    """The wrong record `key` (fake_driver.py --wrong) renamed to `operation`, with `message`: a
    wrong record has no counters that would have to agree with its name."""
    renamed = key.rsplit("/", 1)[0] + "/" + operation
    for entry in document["benchmarks"]:
        if entry["name"].startswith(key + "/"):
            entry["name"] = renamed + entry["name"][len(key):]
            entry["error_message"] = message
    return document


def on_kokkos_kernels_3(document):
    document["context"]["kokkos_version"] = "Kokkos 3.4.1, Kokkos Kernels 3.x"
    return document


class SummaryTest(unittest.TestCase):
    def test_speedup_range_over_repetitions(self):
        auto = {"seconds_per_call": 2.0, "repetition_seconds_per_call": [1.0, 2.0, 4.0]}
        baseline = {"seconds_per_call": 3.0, "repetition_seconds_per_call": [3.0, 6.0, 2.0]}
        self.assertEqual(summary.speedup(auto, baseline), (1.5, 0.5, 6.0))
        print("summary: speedup = baseline median / kspmv median, range over pairs of repetitions")

    def test_same_kernel_off_cuda_and_where_auto_chose_kokkos_kernels(self):
        run = perf_json.parse(fake_document())
        rows = summary.summarize(run).rows
        self.assertEqual(len(rows), 6)  # 3 matrices x fp64, fp32 of kspmv/Auto, operation N
        self.assertEqual({c.status for row in rows for c in row.comparisons.values()},
                         {"same kernel"})
        text = summary.render_text(summary.summarize(run))
        self.assertIn("same kernel: kspmv/Auto ran the baseline's own Kokkos Kernels spmv", text)
        self.assertNotRegex(text, r"\dx \[")

        # On CUDA Kokkos Kernels < 4.3 (baseline `default`), Auto choosing Kokkos Kernels runs
        # the baseline's path; its other choices are kspmv's own kernels.
        document = fake_document()
        document["context"]["execution_space"] = "Cuda"
        for entry in document["benchmarks"]:
            entry["name"] = entry["name"].replace("/KokkosKernels/native/",
                                                  "/KokkosKernels/default/")
            if entry["name"].startswith("stencil27_20/kspmv/Auto/fp64/N/") and "label" in entry:
                entry["label"] = entry["label"].replace("chosen=Vector", "chosen=KokkosKernels")
        rows = summary.summarize(perf_json.parse(document)).rows
        statuses = {(r.matrix, r.precision): r.comparisons["KokkosKernels/default"].status
                    for r in rows}
        self.assertEqual(statuses.pop(("stencil27_20", "fp64")), "same kernel")
        self.assertEqual(set(statuses.values()), {"speedup"})
        document["context"]["execution_space"] = "Serial"
        self.assertEqual({c.status for row in summary.summarize(perf_json.parse(document)).rows
                          for c in row.comparisons.values()}, {"same kernel"})
        document["context"]["execution_space"] = "Cuda"
        text = summary.render_text(summary.summarize(perf_json.parse(document)))
        self.assertRegex(text, r"uniform_200_k100 +N +fp64 .* \d\.\d\dx \[\d\.\d\d-\d\.\d\d\]")
        # The mean by Auto's choice counts speedups only (not stencil27_20 fp64's same kernel).
        for entry in document["benchmarks"]:
            if entry["name"].startswith("uniform_200_k100/kspmv/Auto/fp64/N/") and "label" in entry:
                entry["label"] = entry["label"].replace("chosen=Vector", "chosen=Adaptive")
        by_choice = summary.summarize(perf_json.parse(document)).by_choice
        self.assertIn("kspmv/Auto against KokkosKernels/default, fp64 N, geometric mean by the kernel "
                      "Auto chose (matrices): Adaptive 1.16x (1), Vector 1.14x (1)", by_choice)
        self.assertIn("(matrices): Vector 1.07x (3)", by_choice[0])
        self.assertIn("Vector 1.14x (1)",
                      summary.render_text(summary.summarize(perf_json.parse(document))))
        # Kokkos Kernels' merge-path kernel is another kernel, on any space.
        document = fake_document()
        for entry in document["benchmarks"]:
            entry["name"] = entry["name"].replace("/native/", "/native_merge_path/")
        self.assertEqual({c.status for row in summary.summarize(perf_json.parse(document)).rows
                          for c in row.comparisons.values()}, {"speedup"})
        print("summary: 'same kernel' off CUDA and where Auto chose Kokkos Kernels' default path "
              "on CUDA; a speedup with its range elsewhere and over native_merge_path")

    def test_known_bug_is_one_line(self):
        document = on_kokkos_kernels_3(fake_document(
            "--wrong", "stencil27_20/KokkosKernels/native/fp64/N",
            "--wrong", "uniform_200_k100/KokkosKernels/native/fp32/N"))
        as_operation(document, "stencil27_20/KokkosKernels/native/fp64/N", "T", NAN_Y)
        as_operation(document, "uniform_200_k100/KokkosKernels/native/fp32/N", "T", NAN_Y)
        table = summary.summarize(perf_json.parse(document))
        self.assertEqual(table.wrong, [])
        self.assertEqual(table.notes[0], "KokkosKernels/native (Kokkos Kernels 3.x) keeps NaN "
                         "from y in modes T and H when beta = 0 (its transposed kernel scales y "
                         "by multiplication): 2 records excluded from the comparison.")
        text = summary.render_text(table)
        self.assertNotIn("WRONG", text)
        self.assertEqual(text.count("keeps NaN from y"), 1)
        print("summary: Kokkos Kernels 3.x's NaN in mode T with beta = 0, one line for all its "
              "records")

    def test_other_wrong_results_stay_loud(self):
        cases = {
            # The same NaN in mode N is no known bug.
            "mode N": on_kokkos_kernels_3(fake_document(
                "--wrong", "stencil27_20/KokkosKernels/native/fp64/N")),
            # Kokkos Kernels 4 has no such bug.
            "Kokkos Kernels 4": as_operation(
                fake_document("--wrong", "stencil27_20/KokkosKernels/native/fp64/N"),
                "stencil27_20/KokkosKernels/native/fp64/N", "T", NAN_Y),
            # kspmv's own record is never excused.
            "kspmv": as_operation(on_kokkos_kernels_3(
                fake_document("--wrong", "stencil27_20/kspmv/Auto/fp64/N")),
                "stencil27_20/kspmv/Auto/fp64/N", "T", NAN_Y),
            # beta = 1 reads y: a wrong y there is another fault.
            "beta 1": as_operation(on_kokkos_kernels_3(
                fake_document("--wrong", "stencil27_20/KokkosKernels/native/fp64/N")),
                "stencil27_20/KokkosKernels/native/fp64/N", "T_beta1", NAN_Y),
        }
        for case, document in cases.items():
            table = summary.summarize(perf_json.parse(document))
            self.assertEqual(len(table.wrong), 1, case)
            self.assertRegex(table.wrong[0], r"^WRONG RESULT stencil27_20/\S+: wrong result: ",
                             case)
            self.assertFalse(any("keeps NaN" in note for note in table.notes), case)
            self.assertIn(table.wrong[0], summary.render_text(table), case)
        print("summary: a wrong result in mode N, on Kokkos Kernels 4, of kspmv, with beta = 1: "
              "each a WRONG RESULT line")

    def test_time_above_the_launch_floor(self):
        document = fake_document()
        table = summary.summarize(perf_json.parse(document))
        floor = table.launch_floor  # the fake's 2 us, with its noise: the fastest repetition
        self.assertEqual(floor, min(e["best_seconds"] for e in document["benchmarks"]
                                    if e["name"].startswith(perf_json.LAUNCH_FLOOR)
                                    and e["run_type"] == "iteration"))
        text = summary.render_text(table)
        self.assertIn("above floor: a time less the launch floor, "
                      f"{summary.format_seconds(floor)} a call", text)
        names = summary.columns(table)
        at = names.index("above floor")
        baseline_at = names.index("KokkosKernels/native") + 1
        self.assertEqual(names[baseline_at:baseline_at + 2], ["above floor", "speedup"])
        for row in table.rows:
            row_cells = summary.cells(table, row)
            self.assertEqual(len(row_cells), len(names))
            self.assertEqual(row_cells[at], summary.format_seconds(
                row.auto["seconds_per_call"] - floor), row.matrix)
            self.assertEqual(row_cells[baseline_at], summary.format_seconds(
                row.comparisons["KokkosKernels/native"].seconds - floor), row.matrix)
        fast = dict(table.rows[0].auto, seconds_per_call=1.5e-6)
        self.assertEqual(summary.above_floor_cell(fast, 2e-6), "at floor")
        # A run without the probe (older files, the gate's filtered runs): no column, no line.
        document["benchmarks"] = [e for e in document["benchmarks"]
                                  if not e["name"].startswith(perf_json.LAUNCH_FLOOR)]
        table = summary.summarize(perf_json.parse(document))
        self.assertIsNone(table.launch_floor)
        self.assertNotIn("above floor", summary.columns(table))
        self.assertNotIn("above floor", summary.render_text(table))
        print("summary: kspmv/Auto's and each baseline's time above the run's launch floor, "
              "columns and a header line; none without the probe")

    def test_sets_of_matrices_side_by_side(self):
        # stencil27_20 renamed to a matrix of the tuning list, powerlaw_2000_a1.5 to one outside it.
        document = fake_document()
        document["context"]["execution_space"] = "Cuda"  # speedups, not the same kernel
        renames = {"stencil27_20/": "bcsstk13/", "powerlaw_2000_a1.5/": "held_out_graph/"}
        for entry in document["benchmarks"]:
            for old, new in renames.items():
                for field in ("name", "run_name"):
                    if entry.get(field, "").startswith(old):
                        entry[field] = new + entry[field][len(old):]
        table = summary.summarize(perf_json.parse(document))
        ratios = {(r.matrix, r.precision): r.comparisons["KokkosKernels/native"].ratio
                  for r in table.rows}
        line = next(line for line in table.by_set if ", fp64 N," in line)
        self.assertEqual(
            line, "kspmv/Auto against KokkosKernels/native, fp64 N, geometric mean by set "
                  "(least; matrices): "
                  f"generated {ratios[('uniform_200_k100', 'fp64')]:.2f}x, least "
                  f"{ratios[('uniform_200_k100', 'fp64')]:.2f}x uniform_200_k100 (1); "
                  f"real {ratios[('bcsstk13', 'fp64')]:.2f}x, least "
                  f"{ratios[('bcsstk13', 'fp64')]:.2f}x bcsstk13 (1); "
                  f"held out {ratios[('held_out_graph', 'fp64')]:.2f}x, least "
                  f"{ratios[('held_out_graph', 'fp64')]:.2f}x held_out_graph (1)")
        self.assertIn("geometric mean by set", summary.render_text(table))
        # Three matrices of one set: their geometric mean, and the least named.
        document = fake_document()
        document["context"]["execution_space"] = "Cuda"
        table = summary.summarize(perf_json.parse(document))
        ratios = {r.matrix: r.comparisons["KokkosKernels/native"].ratio for r in table.rows
                  if r.precision == "fp32"}
        least = min(ratios, key=ratios.get)
        line = next(line for line in table.by_set if ", fp32 N," in line)
        self.assertIn(f"generated {perf_json.geometric_mean(list(ratios.values())):.2f}x, least "
                      f"{ratios[least]:.2f}x {least} ({len(ratios)})", line)
        self.assertNotIn("held out", line)
        print("summary: Auto's mean and least speedup by set, generated, real (tuned on) and held "
              "out, side by side")

    def test_roofline_in_the_bytes_read(self):
        record = {"roofline_fraction": 1.24, "cache_resident": False, "compulsory_bytes": 1275.0,
                  "read_bytes": 883.0, "read_roofline_fraction": 0.8588}
        self.assertEqual(summary.roofline_cell(record), "124% (86% read)")
        same = dict(record, read_bytes=1275.0, read_roofline_fraction=1.24)
        self.assertEqual(summary.roofline_cell(same), "124%")
        self.assertEqual(summary.roofline_cell(dict(same, cache_resident=True)), "124%*")
        print("summary: the roofline in the bytes read beside the CSR count, where they differ")

    def test_debug_library_said_once_in_the_header(self):
        document = fake_document()
        self.assertNotIn("debug mode", summary.render_text(summary.summarize(
            perf_json.parse(document))))
        document["context"]["library_build_type"] = "debug"
        header = summary.summarize(perf_json.parse(document)).header
        self.assertEqual(sum("debug mode" in line for line in header), 1)
        print("summary: Google Benchmark's debug build named in the header when it is one")


class NightlyOutputTest(NightlyTestCase):
    """nightly.py's terminal and files with fake_driver.py as the driver."""

    common_arguments = ("--driver", os.path.join(HERE, "fake_driver.py"), "--no-gate")

    def read(self, name):
        with open(os.path.join(self.output, name), encoding="utf-8") as f:
            return f.read()

    def test_log_progress_and_table(self):
        wrong = "stencil27_20/KokkosKernels/native/fp64/N"
        status, output = self.nightly("--no-plots", "--", "--wrong", wrong)
        self.assertEqual(status, 0, output)  # a baseline's wrong result does not fail the run
        self.assertNotIn("/manual_time", output)  # Google Benchmark's table is in the log only
        self.assertIn("/manual_time", self.read("driver.log"))
        # 24 records, the copy probe and the launch floor, 3 repetitions each.
        self.assertIn("nightly: 78/78 runs (records x repetitions), ", output)
        table = self.read("summary.txt")
        self.assertIn(table, output)
        self.assertIn(f"WRONG RESULT {wrong}: wrong result: ", table)
        self.assertIn("powerlaw_2000_a1.5", table)
        print("nightly: the driver's table in driver.log, a progress line, the summary on the "
              "terminal and in summary.txt, a wrong baseline loud and exit status 0")

    def test_driver_failure_shows_the_end_of_the_log(self):
        status, output = self.nightly("--no-plots", "--", "--suite", "nonsense")
        self.assertEqual(status, 2, output)
        self.assertIn("the driver failed with status 2; the end of ", output)
        self.assertIn("--suite is quick, nightly or sweep", output)
        print("nightly: a failing driver's last lines on the terminal")

    def test_without_matplotlib(self):
        with mock.patch.object(nightly, "plots_python", return_value=None):
            status, output = self.nightly()
            self.assertEqual(status, 0, output)
            self.assertIn(f"WARNING: no charts: matplotlib is missing for {sys.executable} "
                          f"(Python ", output)
            self.assertIn(f"{sys.executable} -m pip install matplotlib", output)
            self.assertTrue(output.rstrip().endswith("without this warning."), output)
            status, output = self.nightly("--require-plots")
            self.assertEqual(status, nightly.NO_CHARTS, output)
        print("nightly: without matplotlib, the interpreter named and how to fix it, last; "
              f"--require-plots exits {nightly.NO_CHARTS}")

    def test_progress_from_the_verbose_log(self):
        script = ("import os\n"
                  "print(\"kspmv suite 'quick' on a CPU (Serial)\")\n"
                  "print('generating stencil27_20 fp64')\n"
                  "for i in range(3):\n"
                  "    print('-- LOG(' + os.environ['V'] + '): Running m/kspmv/Auto/fp64/N for "
                  "5')\n"
                  "print('m/kspmv/Auto/fp64/N/iterations:5/manual_time   1.00 us   5')\n")
        log = os.path.join(self.dir.name, "driver.log")
        out = io.StringIO()
        status = driver_log.run([sys.executable, "-c", script], log, out, every=0)
        self.assertEqual(status, 0)
        lines = out.getvalue().splitlines()
        self.assertEqual([line for line in lines if " runs (" not in line],
                         ["nightly: kspmv suite 'quick' on a CPU (Serial)",
                          "nightly: generating stencil27_20 fp64"])
        self.assertRegex(lines[-1], r"^nightly: 3 runs \(records x repetitions\), \d+ s, the "
                                    r"driver's status 0$")
        with open(log, encoding="utf-8") as f:
            self.assertEqual(len(f.readlines()), 6)
        print("driver_log: the suite and generator lines shown, the runs counted from Google "
              "Benchmark's verbose log (V=2), everything in the log")

    def test_repetitions_of_a_command(self):
        self.assertEqual(driver_log.repetitions(["d", "--repetitions", "4"]), 4)
        self.assertEqual(driver_log.repetitions(
            ["d", "--benchmark_repetitions=3", "--repetitions", "4",
             "--benchmark_repetitions=2"]), 2)
        self.assertIsNone(driver_log.repetitions(["d", "--suite", "quick"]))
        print("driver_log: Google Benchmark's last --benchmark_repetitions wins")


if __name__ == "__main__":
    unittest.main()
