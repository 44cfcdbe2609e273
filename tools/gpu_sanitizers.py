#!/usr/bin/env python3
"""Runs a build's GPU tests under each of compute-sanitizer's four tools (memcheck with leak
checking, racecheck, initcheck, synccheck) and fails on any error a tool reports, as well as on a
test that fails under it.

    tools/gpu_sanitizers.py BUILD_DIR OUTPUT_DIR [--tools memcheck,racecheck,initcheck,synccheck]
                            [--label-regex 'cuda|unit'] [--tests-regex '^kspmv_(cuda|kokkos)_']
                            [--exclude-regex soak] [--jobs N] [--sanitizer PATH] [--resume]
                            [--deadline SECONDS] [--split PARTS]

The tests are those ctest lists in BUILD_DIR with a label matching --label-regex (ctest -L) and a
name matching --tests-regex (ctest -R) and not --exclude-regex (ctest -E; e.g. the soak test, whose
bound on device memory in use the tools' own allocations break), run with the command, working directory and environment
ctest would give them. Every (tool, test) run writes OUTPUT_DIR/<tool>/<test>.log;
OUTPUT_DIR/summary.md tabulates them and summary.json keeps the same, rewritten as each run ends so
that a run stopped early leaves the runs it finished; --resume keeps those (passed or not) and runs
only the others, so that a suite longer than one sitting is run in several. --deadline bounds the
sitting: runs still going that many seconds after the start are stopped (the tool and the test with
it) and listed as stopped, those not started by then are left out, and --resume runs both later; a
sitting cut short from outside keeps only the runs that had ended. Under racecheck a test takes many
times as long as under memcheck, and the tools slow one another down on one GPU: a few runs side
by side end sooner than many; --split cuts each GoogleTest shard into parts short enough for a
sitting. Exit status 0 when every run finished with its test passing and the tool's error summary at
zero, 1 otherwise. Progress goes to standard error, a line a finished run.
"""

import argparse
import concurrent.futures
import json
import os
import pathlib
import re
import signal
import subprocess
import sys
import time

TOOL_OPTIONS = {
    "memcheck": ["--tool", "memcheck", "--leak-check", "full"],
    "racecheck": ["--tool", "racecheck"],
    "initcheck": ["--tool", "initcheck"],
    "synccheck": ["--tool", "synccheck"],
}
# compute-sanitizer's closing lines, the errors they count (racecheck's warnings are not errors); a
# run without one did not reach the end.
ERROR_SUMMARY = re.compile(r"ERROR SUMMARY: (\d+) errors?|RACECHECK SUMMARY: \d+ hazards? displayed \((\d+) errors?")
# compute-sanitizer's exit status when the tool found errors, told apart from the test's own.
SANITIZER_ERROR_STATUS = 86
# What it says of a program that never called CUDA (a test of host-side checks): nothing to check,
# and its exit status is then not the test's.
NO_CUDA_CALL = "Target application terminated before first instrumented API call"


def listed_tests(build_dir, label_regex, tests_regex, exclude_regex=None):
    """(name, command, working directory, environment) of each test ctest lists under the label."""
    exclude = ["-E", exclude_regex] if exclude_regex else []
    listing = subprocess.run(
        ["ctest", "--test-dir", str(build_dir), "--show-only=json-v1", "-L", label_regex, "-R", tests_regex,
         *exclude],
        check=True, capture_output=True, text=True)
    tests = []
    for test in json.loads(listing.stdout)["tests"]:
        if "command" not in test:
            continue  # a test ctest could not find the program of
        properties = {p["name"]: p["value"] for p in test.get("properties", [])}
        environment = dict(os.environ)
        for assignment in properties.get("ENVIRONMENT", []):
            name, _, value = assignment.partition("=")
            environment[name] = value
        tests.append((test["name"], test["command"], properties.get("WORKING_DIRECTORY", str(build_dir)),
                      environment))
    return tests


def split_shards(tests, parts):
    """Each test that runs one GoogleTest shard (GTEST_TOTAL_SHARDS of n, GTEST_SHARD_INDEX i) as
    `parts` tests: shard i + n*j of n*parts for j < parts. GoogleTest gives test t to the shard
    t mod n*parts, so these parts hold exactly shard i's tests (t mod n = i), and a part short enough
    for one sitting can finish where the whole shard under racecheck cannot."""
    if parts == 1:
        return tests
    split = []
    for name, command, working_directory, environment in tests:
        if "GTEST_TOTAL_SHARDS" not in environment or "GTEST_SHARD_INDEX" not in environment:
            split.append((name, command, working_directory, environment))
            continue
        total, index = int(environment["GTEST_TOTAL_SHARDS"]), int(environment["GTEST_SHARD_INDEX"])
        for part in range(parts):
            split.append((f"{name}.part{part}of{parts}", command, working_directory,
                          {**environment, "GTEST_TOTAL_SHARDS": str(total * parts),
                           "GTEST_SHARD_INDEX": str(index + total * part)}))
    return split


def run_until(command, deadline, **popen_arguments):
    """The command's exit status, or None when it was still running at the deadline (time.monotonic();
    None: no deadline) and was stopped, with the processes it started."""
    process = subprocess.Popen(command, start_new_session=True, **popen_arguments)
    try:
        return process.wait(timeout=None if deadline is None else max(0.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        return None


def run_one(sanitizer, tool, test, output_dir, deadline=None):
    """The run's record, or None when the deadline passed before it could start."""
    if deadline is not None and time.monotonic() >= deadline:
        return None
    name, command, working_directory, environment = test
    log = output_dir / tool / f"{name}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with log.open("w") as out:
        status = run_until(
            [sanitizer, *TOOL_OPTIONS[tool], "--error-exitcode", str(SANITIZER_ERROR_STATUS), *command],
            deadline, cwd=working_directory, env=environment, stdout=out, stderr=subprocess.STDOUT)
    stopped = {"tool": tool, "test": name, "status": None, "errors": None, "passed": False,
               "stopped": True, "log": str(log.relative_to(output_dir))}
    if status is None:
        return {**stopped, "seconds": round(time.monotonic() - started, 1)}
    text = log.read_text(errors="replace")
    summaries = [int(a or b) for a, b in ERROR_SUMMARY.findall(text)]
    errors = sum(summaries) if summaries else None
    no_cuda_call = errors is None and NO_CUDA_CALL in text
    if no_cuda_call:  # the test's own verdict, from a run without the tool, within the same deadline
        errors = 0
        with log.open("a") as out:
            out.write("gpu_sanitizers: no CUDA call to check; the test alone:\n")
            out.flush()
            status = run_until(command, deadline, cwd=working_directory, env=environment, stdout=out,
                               stderr=subprocess.STDOUT)
        if status is None:
            return {**stopped, "seconds": round(time.monotonic() - started, 1)}
    passed = status == 0 and errors == 0
    return {"tool": tool, "test": name, "status": status, "errors": errors, "passed": passed,
            "no_cuda_call": no_cuda_call, "seconds": round(time.monotonic() - started, 1),
            "log": str(log.relative_to(output_dir))}


def verdict(run):
    if run.get("stopped"):
        return "stopped at the deadline"
    if run["passed"]:
        return "no CUDA call; test passed" if run.get("no_cuda_call") else "clean"
    if run["errors"] is None:
        return f"no error summary (exit {run['status']})"
    if run["errors"]:
        return f"{run['errors']} errors"
    return f"test failed (exit {run['status']})"


def in_tool_order(run):
    return list(TOOL_OPTIONS).index(run["tool"]), run["test"]


def write_summary(runs, output_dir):
    (output_dir / "summary.json").write_text(json.dumps(runs, indent=1) + "\n")
    lines = ["| tool | test | result | seconds | log |", "|---|---|---|--:|---|"]
    for run in runs:
        lines.append(f"| {run['tool']} | {run['test']} | {verdict(run)} | {run['seconds']} | {run['log']} |")
    (output_dir / "summary.md").write_text("\n".join(lines) + "\n")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build_dir", type=pathlib.Path)
    parser.add_argument("output_dir", type=pathlib.Path)
    parser.add_argument("--tools", default=",".join(TOOL_OPTIONS),
                        help="comma-separated, of " + ", ".join(TOOL_OPTIONS))
    parser.add_argument("--label-regex", default="cuda", help="ctest -L: the tests to run")
    parser.add_argument("--tests-regex", default=".", help="ctest -R: of those, the names to run")
    parser.add_argument("--exclude-regex", help="ctest -E: of those, the names to leave out")
    parser.add_argument("--jobs", type=int, default=4, help="runs side by side")
    parser.add_argument("--split", type=int, default=1, metavar="PARTS",
                        help="run each GoogleTest shard (a test with GTEST_TOTAL_SHARDS in its "
                             "environment) as this many parts, each a run of its own")
    parser.add_argument("--sanitizer", default="compute-sanitizer", help="the compute-sanitizer program")
    parser.add_argument("--resume", action="store_true",
                        help="keep the runs OUTPUT_DIR/summary.json holds and run only the others "
                             "(and those it lists as stopped)")
    parser.add_argument("--deadline", type=float, metavar="SECONDS",
                        help="stop the runs still going this long after the start; start no more")
    args = parser.parse_args(argv)
    deadline = None if args.deadline is None else time.monotonic() + args.deadline

    tools = args.tools.split(",")
    unknown = [tool for tool in tools if tool not in TOOL_OPTIONS]
    if unknown:
        parser.error(f"unknown tool(s) {', '.join(unknown)}; known: {', '.join(TOOL_OPTIONS)}")
    if args.split < 1:
        parser.error(f"--split {args.split}: the parts of a shard are at least 1")
    listed = listed_tests(args.build_dir, args.label_regex, args.tests_regex, args.exclude_regex)
    tests = split_shards(listed, args.split)
    if not tests:
        print(f"gpu_sanitizers: no test in {args.build_dir} has a label matching '{args.label_regex}' "
              f"and a name matching '{args.tests_regex}'", file=sys.stderr)
        return 1
    args.output_dir.mkdir(parents=True, exist_ok=True)
    earlier = args.output_dir / "summary.json"
    resumed = args.resume and earlier.exists()
    runs = [run for run in json.loads(earlier.read_text()) if not run.get("stopped")] if resumed else []
    finished = {(run["tool"], run["test"]) for run in runs}
    work = [(tool, test) for tool in tools for test in tests if (tool, test[0]) not in finished]
    if resumed:
        print(f"gpu_sanitizers: {len(runs)} runs kept from {earlier}, {len(work)} to run", file=sys.stderr)
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(run_one, args.sanitizer, tool, test, args.output_dir, deadline)
                   for tool, test in work]
        not_started = 0
        for done, future in enumerate(concurrent.futures.as_completed(futures), start=1):
            run = future.result()
            if run is None:
                not_started += 1
                continue
            runs.append(run)
            write_summary(sorted(runs, key=in_tool_order), args.output_dir)
            print(f"gpu_sanitizers: [{done}/{len(work)}] {run['tool']} {run['test']}: {verdict(run)} "
                  f"({run['seconds']} s)", file=sys.stderr, flush=True)
    failed = [run for run in runs if not run["passed"]]
    stopped = sum(1 for run in runs if run.get("stopped"))
    unfinished = (f"; {stopped} stopped at the deadline and {not_started} not started: --resume runs them"
                  if stopped or not_started else "")
    print(f"gpu_sanitizers: {len(runs) - len(failed)} of {len(runs)} runs clean{unfinished}; "
          f"summary in {args.output_dir / 'summary.md'}", file=sys.stderr)
    return 1 if failed or not_started else 0


if __name__ == "__main__":
    sys.exit(main())
