#!/usr/bin/env python3
"""Build kspmv and run its tests against several Kokkos / Kokkos Kernels releases and backends.

Given a directory of unpacked sources (it never downloads anything), each ROW
KOKKOS:KERNELS:BACKEND builds Kokkos and Kokkos Kernels from
SOURCES/kokkos-KOKKOS and SOURCES/kokkos-kernels-KERNELS, installs them under WORK/install (reused
when already complete), builds kspmv against them with warnings as errors, and runs its test suite
(`ctest -LE perf`). The results accumulate in WORK/results.json; WORK/results.md is the table for
README.md. Logs of every step are under WORK/logs.

  tools/kokkos_version_matrix.py --sources ~/src --work /tmp/matrix \\
      4.6.01:4.6.02:OpenMP 4.6.01:4.6.02:Threads 4.5.01:4.5.01:Serial 4.6.01:4.6.02:HIP

Backends: Serial, OpenMP, Threads (each parallel one with Serial beside it, as users build Kokkos),
CUDA (nvcc_wrapper, --cuda-arch, the cuSPARSE TPL on) and HIP (hipcc, --hip-arch; compiled only:
the script does not assume an AMD GPU). Tests run with --threads threads on the parallel spaces.
"""

import argparse
import json
import os
import pathlib
import re
import subprocess
import sys
import time

REPO = pathlib.Path(__file__).resolve().parent.parent
BACKENDS = {
    "Serial": ["-DKokkos_ENABLE_SERIAL=ON"],
    "OpenMP": ["-DKokkos_ENABLE_SERIAL=ON", "-DKokkos_ENABLE_OPENMP=ON"],
    "Threads": ["-DKokkos_ENABLE_SERIAL=ON", "-DKokkos_ENABLE_THREADS=ON"],
    "CUDA": ["-DKokkos_ENABLE_SERIAL=ON", "-DKokkos_ENABLE_CUDA=ON"],
    # rocThrust is optional for Kokkos and not packaged everywhere (Debian 12 lacks it).
    "HIP": ["-DKokkos_ENABLE_SERIAL=ON", "-DKokkos_ENABLE_HIP=ON", "-DKokkos_ENABLE_ROCTHRUST=OFF"],
}


class StepFailed(Exception):
    def __init__(self, step, log):
        super().__init__(f"{step} failed (log: {log})")
        self.step = step
        self.log = log


class Row:
    def __init__(self, spec, args):
        try:
            self.kokkos, self.kernels, self.backend = spec.split(":")
        except ValueError:
            raise SystemExit(f"row {spec!r}: expected KOKKOS:KERNELS:BACKEND, e.g. 4.6.01:4.6.02:OpenMP")
        if self.backend not in BACKENDS:
            raise SystemExit(f"row {spec!r}: backend {self.backend!r} is not one of {', '.join(BACKENDS)}")
        self.args = args
        self.kokkos_src = args.sources / f"kokkos-{self.kokkos}"
        self.kernels_src = args.sources / f"kokkos-kernels-{self.kernels}"
        for src in (self.kokkos_src, self.kernels_src):
            if not (src / "CMakeLists.txt").is_file():
                raise SystemExit(f"row {spec!r}: no source tree at {src}")
        tag = self.backend.lower()
        self.key = f"{self.kokkos}:{self.kernels}:{self.backend}"
        self.kokkos_prefix = args.work / "install" / f"kokkos-{self.kokkos}-{tag}"
        self.kernels_prefix = args.work / "install" / f"kokkos-kernels-{self.kernels}-kokkos-{self.kokkos}-{tag}"
        self.kspmv_build = args.work / "build" / f"kspmv-kokkos-{self.kokkos}-{self.kernels}-{tag}"
        self.log_prefix = args.work / "logs" / f"{self.kokkos}-{self.kernels}-{tag}"
        self.compile_only = self.backend == "HIP" or args.compile_only

    def compiler(self, kokkos_tree):
        if self.backend == "CUDA":
            return str(kokkos_tree / "bin" / "nvcc_wrapper")
        if self.backend == "HIP":
            return self.args.hip_compiler
        return self.args.cxx

    def kokkos_options(self):
        options = BACKENDS[self.backend] + ["-DCMAKE_CXX_STANDARD=17"]
        if self.backend == "CUDA":
            options.append(f"-DKokkos_ARCH_{self.args.cuda_arch}=ON")
        if self.backend == "HIP":
            options.append(f"-DKokkos_ARCH_{self.args.hip_arch}=ON")
        return options

    def kernels_options(self):
        options = [f"-DKokkos_ROOT={self.kokkos_prefix}", "-DKokkosKernels_ADD_DEFAULT_ETI=OFF",
                   "-DKokkosKernels_ENABLE_TESTS=OFF"]
        if self.backend == "CUDA":
            options += ["-DKokkosKernels_ENABLE_TPL_CUSPARSE=ON", "-DKokkosKernels_ENABLE_TPL_CUBLAS=ON",
                        "-DKokkosKernels_ENABLE_TPL_CUSOLVER=OFF"]
        if self.backend == "HIP":
            options += ["-DKokkosKernels_ENABLE_TPL_ROCSPARSE=OFF", "-DKokkosKernels_ENABLE_TPL_ROCBLAS=OFF",
                        "-DKokkosKernels_ENABLE_TPL_ROCSOLVER=OFF"]
        return options


def run(step, command, log):
    """Runs command with its output appended to log; raises StepFailed on a non-zero exit."""
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "a") as out:
        out.write(f"$ {' '.join(map(str, command))}\n")
        out.flush()
        status = subprocess.run(list(map(str, command)), stdout=out, stderr=subprocess.STDOUT).returncode
    if status != 0:
        raise StepFailed(step, log)


def install(step, source, build, prefix, compiler, options, jobs, log):
    """Configures, builds and installs a CMake project unless prefix holds a complete install."""
    stamp = prefix / ".kspmv-version-matrix-complete"
    if stamp.is_file():
        print(f"    {step}: reusing {prefix}", flush=True)
        return
    started = time.monotonic()
    print(f"    {step}: building into {prefix} ...", flush=True)
    run(f"{step} configure", ["cmake", "-S", source, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                              f"-DCMAKE_CXX_COMPILER={compiler}", f"-DCMAKE_INSTALL_PREFIX={prefix}",
                              *options], log)
    run(f"{step} build", ["cmake", "--build", build, f"-j{jobs}"], log)
    run(f"{step} install", ["cmake", "--install", build], log)
    stamp.touch()
    print(f"    {step}: done in {time.monotonic() - started:.0f} s", flush=True)


def installed_version(prefix, package):
    for config in prefix.glob(f"lib*/cmake/{package}/{package}ConfigVersion.cmake"):
        found = re.search(r'set\(PACKAGE_VERSION "([^"]+)"\)', config.read_text())
        if found:
            return found.group(1)
    return "?"


def compiler_version(compiler):
    try:
        out = subprocess.run([compiler, "--version"], capture_output=True, text=True).stdout
    except OSError:
        return "?"
    lines = [line for line in out.splitlines() if line.strip()]
    if not lines:
        return "?"
    if "nvcc_wrapper" in compiler or any("Cuda compilation tools" in line for line in lines):
        cuda = next((line for line in lines if "release" in line), lines[-1])
        return "nvcc " + re.sub(r".*release ([0-9.]+).*", r"\1", cuda)
    return lines[0]


def parse_ctest(output, last_test_log):
    """Counts from ctest's summary, and the spaces the Kokkos tests named in their logs."""
    totals = re.search(r"(\d+)% tests passed(?:, (\d+) tests? failed)? out of (\d+)", output)
    if not totals:
        return None
    failed, total = int(totals.group(2) or 0), int(totals.group(3))
    skipped = len(re.findall(r"\*\*\*Skipped|Not Run", output))
    spaces = set(re.findall(r"kspmv tests run on (Kokkos::\w+, concurrency \d+)", last_test_log))
    return {"passed": total - failed - skipped, "failed": failed, "skipped": skipped, "total": total,
            "ran_on": sorted(spaces)}


def test_results(build, threads):
    """Runs ctest -LE perf; returns parse_ctest's counts (None without a summary) and the output."""
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), KOKKOS_NUM_THREADS=str(threads),
               OMP_PROC_BIND="false")
    finished = subprocess.run(["ctest", "--test-dir", str(build), "-LE", "perf", "-j2",
                               "--output-on-failure"], capture_output=True, text=True, env=env)
    output = finished.stdout + finished.stderr
    last_log = build / "Testing" / "Temporary" / "LastTest.log"
    last_log_text = last_log.read_text(errors="replace") if last_log.is_file() else ""
    return parse_ctest(output, last_log_text), output


def do_row(row, args):
    result = {"kokkos": row.kokkos, "kernels": row.kernels, "backend": row.backend}
    log = pathlib.Path(f"{row.log_prefix}.log")
    if log.exists():
        log.unlink()
    try:
        install("Kokkos", row.kokkos_src, args.work / "build" / row.kokkos_prefix.name,
                row.kokkos_prefix, row.compiler(row.kokkos_src), row.kokkos_options(), args.jobs, log)
        install("Kokkos Kernels", row.kernels_src, args.work / "build" / row.kernels_prefix.name,
                row.kernels_prefix, row.compiler(row.kokkos_prefix), row.kernels_options(), args.jobs, log)
        result["kokkos_version"] = installed_version(row.kokkos_prefix, "Kokkos")
        result["kernels_version"] = installed_version(row.kernels_prefix, "KokkosKernels")
        compiler = row.compiler(row.kokkos_prefix)
        result["compiler"] = compiler_version(compiler)
        started = time.monotonic()
        print("    kspmv: building with warnings as errors ...", flush=True)
        # The Kokkos-free CUDA backend (built whenever nvcc is found) does not depend on Kokkos'
        # version: only the CUDA rows build it.
        cuda = "ON" if row.backend == "CUDA" else "OFF"
        run("kspmv configure", ["cmake", "-S", REPO, "-B", row.kspmv_build, "-DCMAKE_BUILD_TYPE=Release",
                                f"-DCMAKE_CXX_COMPILER={compiler}", f"-DKokkos_ROOT={row.kokkos_prefix}",
                                f"-DKokkosKernels_ROOT={row.kernels_prefix}", "-DKSPMV_WARNINGS_AS_ERRORS=ON",
                                f"-DKSPMV_ENABLE_CUDA={cuda}", *args.kspmv_cmake_arg], log)
        run("kspmv build", ["cmake", "--build", row.kspmv_build, f"-j{args.jobs}"], log)
        print(f"    kspmv: built in {time.monotonic() - started:.0f} s", flush=True)
        if row.compile_only:
            result["result"] = "compiled, not run"
            return result
        print(f"    kspmv: ctest -LE perf with {args.threads} threads ...", flush=True)
        tests, output = test_results(row.kspmv_build, args.threads)
        with open(log, "a") as out:
            out.write(output)
        if tests is None:
            raise StepFailed("ctest (no summary line)", log)
        result.update(tests)
        result["result"] = "passed" if tests["failed"] == 0 else "FAILED"
    except StepFailed as failure:
        result["result"] = f"{failure.step} failed"
        result["log"] = str(failure.log)
    return result


def table(results):
    lines = ["| Kokkos | Kokkos Kernels | backend | compiler | tests ran on | ctest -LE perf | result |",
             "|---|---|---|---|---|---|---|"]
    for r in results:
        def shown(requested, installed):
            def number(version):
                return tuple(int(part) for part in version.split(".")) if re.fullmatch(r"\d+(\.\d+)*", version) else version
            # Kokkos Kernels 4.4.01 installs a version file that says ".."
            unknown = installed is None or not re.fullmatch(r"\d+(\.\d+)*", installed)
            same = unknown or number(installed) == number(requested)
            return requested if same else f"{requested} ({installed})"
        ran_on = "; ".join(r.get("ran_on", [])) or "-"
        tests = (f"{r['passed']} passed, {r['failed']} failed, {r['skipped']} skipped" if "total" in r else "-")
        lines.append(f"| {shown(r['kokkos'], r.get('kokkos_version'))} | "
                     f"{shown(r['kernels'], r.get('kernels_version'))} | {r['backend']} | "
                     f"{r.get('compiler', '-')} | {ran_on} | {tests} | {r['result']} |")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("rows", nargs="+", metavar="KOKKOS:KERNELS:BACKEND")
    parser.add_argument("--sources", type=pathlib.Path, required=True,
                        help="holds kokkos-<version>/ and kokkos-kernels-<version>/ source trees")
    parser.add_argument("--work", type=pathlib.Path, required=True, help="builds, installs, logs, results")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="parallel compile jobs")
    parser.add_argument("--threads", type=int, default=2, help="threads of OpenMP and Threads while testing")
    parser.add_argument("--cxx", default="g++", help="host compiler for Serial, OpenMP and Threads")
    parser.add_argument("--cuda-arch", default="HOPPER90", help="Kokkos_ARCH_ name for CUDA rows")
    parser.add_argument("--hip-arch", default="AMD_GFX90A", help="Kokkos_ARCH_ name for HIP rows")
    parser.add_argument("--hip-compiler", default="hipcc")
    parser.add_argument("--compile-only", action="store_true", help="build every row, run no tests")
    parser.add_argument("--kspmv-cmake-arg", action="append", default=[],
                        help="extra option for kspmv's configure (e.g. -DGTEST_ROOT=...); repeatable")
    args = parser.parse_args()
    args.sources, args.work = args.sources.resolve(), args.work.resolve()
    rows = [Row(spec, args) for spec in args.rows]

    results_file = args.work / "results.json"
    results = json.loads(results_file.read_text()) if results_file.is_file() else []
    for index, row in enumerate(rows, 1):
        print(f"[{index}/{len(rows)}] Kokkos {row.kokkos}, Kokkos Kernels {row.kernels}, {row.backend}",
              flush=True)
        started = time.monotonic()
        result = do_row(row, args)
        result["seconds"] = round(time.monotonic() - started)
        print(f"    {result['result']} ({result['seconds']} s)", flush=True)
        results = [r for r in results if f"{r['kokkos']}:{r['kernels']}:{r['backend']}" != row.key] + [result]
        args.work.mkdir(parents=True, exist_ok=True)
        results_file.write_text(json.dumps(results, indent=1) + "\n")
        (args.work / "results.md").write_text(table(results))
    print(table(results))
    return 0 if all(r["result"] in ("passed", "compiled, not run") for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
