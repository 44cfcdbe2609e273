#!/usr/bin/env python3
"""Build kspmv and run its tests against several Kokkos / Kokkos Kernels releases, backends and CUDA
toolkits, and record what passed where.

Given a directory of unpacked sources (it never downloads anything), each ROW
KOKKOS:KERNELS:BACKEND builds Kokkos and Kokkos Kernels from SOURCES/kokkos-KOKKOS and
SOURCES/kokkos-kernels-KERNELS, installs them under WORK/install (reused when already complete),
builds kspmv against them with warnings as errors, and runs its test suite (`ctest -LE perf`). The
row `system:system:Serial` uses the Kokkos and Kokkos Kernels CMake finds on its own (a
distribution's packages) instead. Results accumulate in WORK/results.json (WORK/results.md is their
table); --record merges them, with the machine, the date and the kspmv commit, into a file such as
docs/compatibility.json, from which tools/compatibility_page.py writes docs/compatibility.md. Logs
of every step are under WORK/logs.

  tools/kokkos_version_matrix.py --sources ~/src --work /tmp/matrix \\
      4.6.01:4.6.02:OpenMP 4.6.01:4.6.02:Threads 4.5.01:4.5.01:Serial system:system:Serial
  tools/kokkos_version_matrix.py --sources ~/src --work /tmp/matrix --cuda-root /opt/cuda-12.9 \\
      --cuda-arch AMPERE80 --cuda-architectures "80;90" 4.6.01:4.6.02:CUDA

Backends: Serial, OpenMP, Threads (each parallel one with Serial beside it, as users build Kokkos),
CUDA (nvcc_wrapper with the toolkit of --cuda-root, or the nvcc on PATH; Kokkos for --cuda-arch,
kspmv's own CUDA code for --cuda-architectures; Kokkos Kernels' cuSPARSE and cuBLAS TPLs on unless
--no-cuda-tpls) and HIP (hipcc, --hip-arch; compiled only: the script does not assume an AMD GPU).
Tests run with --threads threads on the parallel spaces, and with every --test-env variable set.
"""

import argparse
import datetime
import json
import os
import pathlib
import platform
import re
import subprocess
import sys
import time

REPO = pathlib.Path(__file__).resolve().parent.parent
SYSTEM = "system"
BACKENDS = {
    "Serial": ["-DKokkos_ENABLE_SERIAL=ON"],
    "OpenMP": ["-DKokkos_ENABLE_SERIAL=ON", "-DKokkos_ENABLE_OPENMP=ON"],
    "Threads": ["-DKokkos_ENABLE_SERIAL=ON", "-DKokkos_ENABLE_THREADS=ON"],
    "CUDA": ["-DKokkos_ENABLE_SERIAL=ON", "-DKokkos_ENABLE_CUDA=ON"],
    # rocThrust is optional for Kokkos and not packaged everywhere (Debian 12 lacks it).
    "HIP": ["-DKokkos_ENABLE_SERIAL=ON", "-DKokkos_ENABLE_HIP=ON", "-DKokkos_ENABLE_ROCTHRUST=OFF"],
}
# The fields that tell two rows apart: a row recorded again with the same ones replaces the old one.
ROW_IDENTITY = ("kokkos", "kernels", "backend", "cuda", "kokkos_arch", "cuda_architectures", "test_env")


class StepFailed(Exception):
    def __init__(self, step, log):
        super().__init__(f"{step} failed (log: {log})")
        self.step = step
        self.log = log


def cuda_version(nvcc):
    """The release nvcc reports ("12.9"), or None without one."""
    try:
        out = subprocess.run([str(nvcc), "--version"], capture_output=True, text=True).stdout
    except OSError:
        return None
    found = re.search(r"release ([0-9.]+)", out)
    return found.group(1) if found else None


class Row:
    def __init__(self, spec, args):
        try:
            self.kokkos, self.kernels, self.backend = spec.split(":")
        except ValueError:
            raise SystemExit(f"row {spec!r}: expected KOKKOS:KERNELS:BACKEND, e.g. 4.6.01:4.6.02:OpenMP")
        if self.backend not in BACKENDS:
            raise SystemExit(f"row {spec!r}: backend {self.backend!r} is not one of {', '.join(BACKENDS)}")
        if (self.kokkos == SYSTEM) != (self.kernels == SYSTEM):
            raise SystemExit(f"row {spec!r}: Kokkos and Kokkos Kernels are both '{SYSTEM}' or neither")
        if self.kokkos == SYSTEM and args.kokkos_kernels_tests:
            raise SystemExit(f"row {spec!r}: --kokkos-kernels-tests needs a Kokkos Kernels source tree; a "
                             f"'{SYSTEM}' row has none")
        self.args = args
        self.system = self.kokkos == SYSTEM
        if not self.system:
            if args.sources is None:
                raise SystemExit(f"row {spec!r}: --sources is needed to build Kokkos")
            self.kokkos_src = args.sources / f"kokkos-{self.kokkos}"
            self.kernels_src = args.sources / f"kokkos-kernels-{self.kernels}"
            for src in (self.kokkos_src, self.kernels_src):
                if not (src / "CMakeLists.txt").is_file():
                    raise SystemExit(f"row {spec!r}: no source tree at {src}")
        self.cuda = None
        tag = self.backend.lower()
        if self.backend == "CUDA":
            self.cuda = cuda_version(args.nvcc)
            if self.cuda is None:
                raise SystemExit(f"row {spec!r}: no nvcc at {args.nvcc} (give --cuda-root)")
            tag += f"-{self.cuda}-{args.cuda_arch.lower()}"
        install = args.work / "install"
        self.kokkos_prefix = install / f"kokkos-{self.kokkos}-{tag}"
        self.kernels_prefix = install / f"kokkos-kernels-{self.kernels}-kokkos-{self.kokkos}-{tag}"
        if self.backend == "CUDA" and args.no_cuda_tpls:
            self.kernels_prefix = self.kernels_prefix.with_name(self.kernels_prefix.name + "-no-tpls")
        kspmv_tag = tag + (f"-sm{args.cuda_architectures.replace(';', '-')}" if self.cuda else "")
        self.kspmv_build = args.work / "build" / f"kspmv-kokkos-{self.kokkos}-{self.kernels}-{kspmv_tag}"
        self.log_prefix = args.work / "logs" / f"{self.kokkos}-{self.kernels}-{tag}"
        self.compile_only = self.backend == "HIP" or args.compile_only

    def identity(self):
        """The row's ROW_IDENTITY fields."""
        cuda = self.backend == "CUDA"
        return {"kokkos": self.kokkos, "kernels": self.kernels, "backend": self.backend,
                "cuda": self.cuda, "kokkos_arch": self.args.cuda_arch if cuda else None,
                "cuda_architectures": self.args.cuda_architectures if cuda else None,
                "test_env": " ".join(self.args.test_env) or None}

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
            options += self.cuda_toolkit_options()
        if self.backend == "HIP":
            options.append(f"-DKokkos_ARCH_{self.args.hip_arch}=ON")
        return options

    def kernels_options(self):
        options = [f"-DKokkos_ROOT={self.kokkos_prefix}", "-DKokkosKernels_ADD_DEFAULT_ETI=OFF",
                   "-DKokkosKernels_ENABLE_TESTS=OFF"]
        if self.backend == "CUDA":
            tpls = "OFF" if self.args.no_cuda_tpls else "ON"
            options += [f"-DKokkosKernels_ENABLE_TPL_CUSPARSE={tpls}", f"-DKokkosKernels_ENABLE_TPL_CUBLAS={tpls}",
                        "-DKokkosKernels_ENABLE_TPL_CUSOLVER=OFF"] + self.cuda_toolkit_options()
        if self.backend == "HIP":
            options += ["-DKokkosKernels_ENABLE_TPL_ROCSPARSE=OFF", "-DKokkosKernels_ENABLE_TPL_ROCBLAS=OFF",
                        "-DKokkosKernels_ENABLE_TPL_ROCSOLVER=OFF"]
        return options

    def cuda_toolkit_options(self):
        if self.args.cuda_root is None:
            return []
        return [f"-DCUDAToolkit_ROOT={self.args.cuda_root}"]

    def kspmv_options(self):
        if self.system:
            options = []
        else:
            options = [f"-DKokkos_ROOT={self.kokkos_prefix}", f"-DKokkosKernels_ROOT={self.kernels_prefix}"]
        # The Kokkos-free CUDA backend does not depend on Kokkos' version: only CUDA rows build it.
        if self.backend == "CUDA":
            options += ["-DKSPMV_ENABLE_CUDA=ON", f"-DCMAKE_CUDA_COMPILER={self.args.nvcc}",
                        f"-DCMAKE_CUDA_ARCHITECTURES={self.args.cuda_architectures}"]
            options += self.cuda_toolkit_options()
        else:
            options.append("-DKSPMV_ENABLE_CUDA=OFF")
        # Said either way: a build directory keeps a cached tree from an earlier run with the option.
        tree = self.kernels_src if self.args.kokkos_kernels_tests else ""
        options.append(f"-DKSPMV_KOKKOSKERNELS_TESTS_FROM={tree}")
        return options


def tool_environment(args):
    """The environment of every step: the toolkit's nvcc first on PATH, where nvcc_wrapper looks."""
    env = dict(os.environ)
    if args.cuda_root is not None:
        env["PATH"] = f"{args.cuda_root / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    return env


def run(step, command, log, env=None):
    """Runs command with its output appended to log; raises StepFailed on a non-zero exit."""
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "a") as out:
        out.write(f"$ {' '.join(map(str, command))}\n")
        out.flush()
        status = subprocess.run(list(map(str, command)), stdout=out, stderr=subprocess.STDOUT,
                                env=env).returncode
    if status != 0:
        raise StepFailed(step, log)


def install(step, source, build, prefix, compiler, options, args, log):
    """Configures, builds and installs a CMake project unless prefix holds a complete install."""
    stamp = prefix / ".kspmv-version-matrix-complete"
    if stamp.is_file():
        print(f"    {step}: reusing {prefix}", flush=True)
        return
    started = time.monotonic()
    print(f"    {step}: building into {prefix} ...", flush=True)
    env = tool_environment(args)
    run(f"{step} configure", ["cmake", "-S", source, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                              f"-DCMAKE_CXX_COMPILER={compiler}", f"-DCMAKE_INSTALL_PREFIX={prefix}",
                              *options], log, env)
    run(f"{step} build", ["cmake", "--build", build, f"-j{args.jobs}"], log, env)
    run(f"{step} install", ["cmake", "--install", build], log, env)
    stamp.touch()
    print(f"    {step}: done in {time.monotonic() - started:.0f} s", flush=True)


def installed_version(prefix, package):
    for pattern in (f"lib*/cmake/{package}/{package}ConfigVersion.cmake",
                    f"lib*/*/cmake/{package}/{package}ConfigVersion.cmake"):
        for config in prefix.glob(pattern):
            found = re.search(r'set\(PACKAGE_VERSION "([^"]+)"\)', config.read_text())
            if found:
                return found.group(1)
    return "?"


def bundled_kernels_version(prefix):
    """Kokkos Kernels' version in a system install; inside Trilinos (Debian's), it has none of its own."""
    version = installed_version(prefix, "KokkosKernels")
    if version == "?" and installed_version(prefix, "Trilinos") != "?":
        return f"of Trilinos {installed_version(prefix, 'Trilinos')}"
    return version


def compiler_version(compiler, env=None):
    try:
        out = subprocess.run([compiler, "--version"], capture_output=True, text=True, env=env).stdout
    except OSError:
        return "?"
    lines = [line for line in out.splitlines() if line.strip()]
    if not lines:
        return "?"
    if "nvcc_wrapper" in compiler or any("Cuda compilation tools" in line for line in lines):
        cuda = next((line for line in lines if "release" in line), lines[-1])
        return "nvcc " + re.sub(r".*release ([0-9.]+).*", r"\1", cuda)
    return lines[0]


def machine(backend):
    """What the tests ran on: the GPU for CUDA rows, else the CPU, with the operating system."""
    if backend == "CUDA":
        try:
            gpus = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                                  capture_output=True, text=True).stdout.split("\n")
            if gpus[0].strip():
                return gpus[0].strip()
        except OSError:
            pass
        return "no GPU"
    cpu = platform.processor() or platform.machine()
    try:
        models = re.findall(r"^model name\s*:\s*(.+)$", pathlib.Path("/proc/cpuinfo").read_text(), re.M)
        if models:
            cpu = f"{models[0].strip()}, {len(models)} cores"
    except OSError:
        pass
    system = platform.system()
    try:
        system = re.search(r'^PRETTY_NAME="?([^"\n]+)', pathlib.Path("/etc/os-release").read_text(), re.M).group(1)
    except (OSError, AttributeError):
        pass
    return f"{cpu} ({system})"


def kspmv_commit():
    try:
        return subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True).stdout.strip() or "?"
    except OSError:
        return "?"


def parse_ctest(output, last_test_log):
    """Counts from ctest's summary, and the spaces the Kokkos tests named in their logs."""
    totals = re.search(r"(\d+)% tests passed(?:, (\d+) tests? failed)? out of (\d+)", output)
    if not totals:
        return None
    failed, total = int(totals.group(2) or 0), int(totals.group(3))
    skipped = len(re.findall(r"\*\*\*Skipped|Not Run", output))
    spaces = set(re.findall(r"kspmv tests run on (Kokkos::\w+, concurrency \d+)", last_test_log))
    counts = {"passed": total - failed - skipped, "failed": failed, "skipped": skipped, "total": total,
              "ran_on": sorted(spaces)}
    # Kokkos Kernels' own SpMV tests (--kokkos-kernels-tests) say how many of their calls kspmv answered.
    calls = re.search(r"Kokkos Kernels' SpMV tests made (\d+) calls: (\d+) answered by kspmv", last_test_log)
    if calls:
        counts["kokkos_kernels_calls"] = {"total": int(calls.group(1)), "kspmv": int(calls.group(2))}
    return counts


def test_environment(args):
    env = tool_environment(args)
    env.update(OMP_NUM_THREADS=str(args.threads), KOKKOS_NUM_THREADS=str(args.threads), OMP_PROC_BIND="false")
    for setting in args.test_env:
        name, _, value = setting.partition("=")
        env[name] = value
    return env


def test_results(build, args):
    """Runs ctest -LE perf; returns parse_ctest's counts (None without a summary) and the output."""
    finished = subprocess.run(["ctest", "--test-dir", str(build), "-LE", "perf", f"-j{args.ctest_jobs}",
                               "--output-on-failure"],
                              capture_output=True, text=True, env=test_environment(args))
    output = finished.stdout + finished.stderr
    last_log = build / "Testing" / "Temporary" / "LastTest.log"
    last_log_text = last_log.read_text(errors="replace") if last_log.is_file() else ""
    return parse_ctest(output, last_log_text), output


def configured_versions(log_text):
    """Kokkos' version and install prefix as kspmv's configure reported them (for system rows)."""
    found = re.search(r"kspmv: Kokkos (\S+) \(CUDA: \w+\) from (\S+)", log_text)
    if not found:
        return "?", None
    config_dir = pathlib.Path(found.group(2))
    libdir = next((d for d in config_dir.parents if d.name.startswith("lib")), None)
    return found.group(1), libdir.parent if libdir is not None else None


def do_row(row, args):
    result = row.identity()
    result["kokkos_kernels_tests"] = args.kokkos_kernels_tests
    log = pathlib.Path(f"{row.log_prefix}.log")
    if log.exists():
        log.unlink()
    env = tool_environment(args)
    try:
        if not row.system:
            install("Kokkos", row.kokkos_src, args.work / "build" / row.kokkos_prefix.name, row.kokkos_prefix,
                    row.compiler(row.kokkos_src), row.kokkos_options(), args, log)
            install("Kokkos Kernels", row.kernels_src, args.work / "build" / row.kernels_prefix.name,
                    row.kernels_prefix, row.compiler(row.kokkos_prefix), row.kernels_options(), args, log)
            result["kokkos_version"] = installed_version(row.kokkos_prefix, "Kokkos")
            result["kernels_version"] = installed_version(row.kernels_prefix, "KokkosKernels")
        compiler = row.compiler(row.kokkos_prefix)
        result["compiler"] = compiler_version(compiler, env)
        if row.backend == "CUDA":
            result["host_compiler"] = compiler_version(args.cxx)
            result["cuda_tpls"] = not args.no_cuda_tpls
        started = time.monotonic()
        print("    kspmv: building with warnings as errors ...", flush=True)
        run("kspmv configure", ["cmake", "-S", REPO, "-B", row.kspmv_build, "-DCMAKE_BUILD_TYPE=Release",
                                f"-DCMAKE_CXX_COMPILER={compiler}", "-DKSPMV_WARNINGS_AS_ERRORS=ON",
                                *row.kspmv_options(), *args.kspmv_cmake_arg], log, env)
        if row.system:
            version, prefix = configured_versions(log.read_text(errors="replace"))
            result["kokkos_version"] = version
            result["kernels_version"] = bundled_kernels_version(prefix) if prefix else "?"
        run("kspmv build", ["cmake", "--build", row.kspmv_build, f"-j{args.jobs}"], log, env)
        print(f"    kspmv: built in {time.monotonic() - started:.0f} s", flush=True)
        if row.compile_only:
            result["result"] = "compiled, not run"
            return result
        print(f"    kspmv: ctest -LE perf with {args.threads} threads ...", flush=True)
        tests, output = test_results(row.kspmv_build, args)
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


def same_row(a, b):
    return all(a.get(field) == b.get(field) for field in ROW_IDENTITY)


def merged(results, new):
    """results with new in place of the row it repeats (or appended)."""
    return [r for r in results if not same_row(r, new)] + [new]


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
    parser.add_argument("--sources", type=pathlib.Path,
                        help="holds kokkos-<version>/ and kokkos-kernels-<version>/ source trees")
    parser.add_argument("--work", type=pathlib.Path, required=True, help="builds, installs, logs, results")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="parallel compile jobs")
    parser.add_argument("--threads", type=int, default=2, help="threads of OpenMP and Threads while testing")
    parser.add_argument("--ctest-jobs", type=int, default=2, help="tests run at once (GPU tests share the GPU)")
    parser.add_argument("--cxx", default="g++", help="host compiler for Serial, OpenMP and Threads")
    parser.add_argument("--cuda-root", type=pathlib.Path,
                        help="the CUDA toolkit of CUDA rows (default: the nvcc on PATH)")
    parser.add_argument("--cuda-arch", default="HOPPER90", help="Kokkos_ARCH_ name for CUDA rows")
    parser.add_argument("--cuda-architectures",
                        help="CMAKE_CUDA_ARCHITECTURES of kspmv's CUDA backend (default: --cuda-arch's number)")
    parser.add_argument("--no-cuda-tpls", action="store_true",
                        help="Kokkos Kernels without cuSPARSE and cuBLAS (e.g. where the run-time libraries of "
                             "the toolkit are not on the test machine)")
    parser.add_argument("--hip-arch", default="AMD_GFX90A", help="Kokkos_ARCH_ name for HIP rows")
    parser.add_argument("--hip-compiler", default="hipcc")
    parser.add_argument("--compile-only", action="store_true", help="build every row, run no tests")
    parser.add_argument("--kokkos-kernels-tests", action="store_true",
                        help="also build Kokkos Kernels' own SpMV tests from the row's Kokkos Kernels source tree "
                             "and run them through kspmv (ctest label kokkoskernels)")
    parser.add_argument("--test-env", action="append", default=[], metavar="NAME=VALUE",
                        help="set while the tests run, and recorded with the row; repeatable")
    parser.add_argument("--kspmv-cmake-arg", action="append", default=[],
                        help="extra option for kspmv's configure (e.g. -DGTEST_ROOT=...); repeatable")
    parser.add_argument("--record", type=pathlib.Path,
                        help="merge the rows, with machine, date and kspmv commit, into this JSON file")
    parser.add_argument("--machine", help="what the tests ran on, for --record (default: detected)")
    parser.add_argument("--note", help="for --record: what a reader of the row must know (e.g. local patches)")
    parser.add_argument("--kspmv-commit", default=kspmv_commit(), help="for --record (default: git's HEAD)")
    args = parser.parse_args()
    if args.sources is not None:
        args.sources = args.sources.resolve()
    args.work = args.work.resolve()
    if args.cuda_root is not None:
        args.cuda_root = args.cuda_root.resolve()
    args.nvcc = args.cuda_root / "bin" / "nvcc" if args.cuda_root is not None else "nvcc"
    if args.cuda_architectures is None:
        args.cuda_architectures = re.sub(r"\D", "", args.cuda_arch) or "90"
    for setting in args.test_env:
        if "=" not in setting:
            raise SystemExit(f"--test-env {setting!r}: expected NAME=VALUE")
    rows = [Row(spec, args) for spec in args.rows]

    results_file = args.work / "results.json"
    results = json.loads(results_file.read_text()) if results_file.is_file() else []
    for index, row in enumerate(rows, 1):
        print(f"[{index}/{len(rows)}] Kokkos {row.kokkos}, Kokkos Kernels {row.kernels}, {row.backend}"
              + (f", CUDA {row.cuda} for {args.cuda_architectures}" if row.cuda else ""), flush=True)
        started = time.monotonic()
        result = do_row(row, args)
        result["seconds"] = round(time.monotonic() - started)
        print(f"    {result['result']} ({result['seconds']} s)", flush=True)
        results = merged(results, result)
        args.work.mkdir(parents=True, exist_ok=True)
        results_file.write_text(json.dumps(results, indent=1) + "\n")
        (args.work / "results.md").write_text(table(results))
        if args.record is not None:
            recorded = json.loads(args.record.read_text()) if args.record.is_file() else []
            entry = dict(result, machine=args.machine or machine(row.backend), kspmv=args.kspmv_commit,
                         date=datetime.date.today().isoformat())
            entry.pop("log", None)
            if args.note:
                entry["note"] = args.note
            args.record.write_text(json.dumps(merged(recorded, entry), indent=1) + "\n")
    print(table(results))
    return 0 if all(r["result"] in ("passed", "compiled, not run") for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
