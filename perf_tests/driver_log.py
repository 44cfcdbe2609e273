"""Runs a benchmark driver with its console output (Google Benchmark's table, the run's context,
the harness's messages) in a log file, and shows on the terminal only how far it got: the suite
line, the matrices as they are generated or read, and a progress line every PROGRESS_SECONDS.
"""

import os
import re
import subprocess
import time

PROGRESS_SECONDS = 10
SHOWN = re.compile(r"^(kspmv suite |generating |reading )")
# Google Benchmark reports a record only once its last repetition is done, so with random
# interleaving its table comes in the last round. At verbosity 2, which it also reads from the
# environment variable V (its flag --v: the drivers pass on --benchmark_* flags only), it logs
# each repetition as it starts.
VERBOSE = {"V": "2"}
STARTED = re.compile(r"^-- LOG\(2\): Running \S")
# A repetition's line in the table (an aggregate's name goes on: manual_time_mean, ...).
FINISHED = re.compile(r"^\S+/manual_time\s")


def repetitions(arguments):
    """The repetitions a driver command asks for: Google Benchmark's --benchmark_repetitions wins
    over the harness's --repetitions, the last of each over the others; None: the suite's
    default."""
    harness, flag = None, None
    for i, argument in enumerate(arguments):
        if argument == "--repetitions" and i + 1 < len(arguments):
            harness = int(arguments[i + 1])
        elif argument.startswith("--benchmark_repetitions="):
            flag = int(argument.split("=", 1)[1])
    return flag or harness


def total_runs(command):
    """Records x repetitions of the command; None when the driver cannot list them."""
    listing = subprocess.run([*command, "--benchmark_list_tests=true"], capture_output=True,
                             text=True, check=False)
    count = repetitions(command)
    if listing.returncode != 0 or count is None:
        return None
    return len(listing.stdout.split()) * count


def progress_line(runs, total, started):
    of_total = f"/{total}" if total else ""
    return (f"nightly: {runs}{of_total} runs (records x repetitions), "
            f"{time.monotonic() - started:.0f} s")


def run(command, log_path, out, every=PROGRESS_SECONDS):
    """The driver's exit status; everything it writes goes to log_path."""
    total = total_runs(command)
    started = time.monotonic()
    last_shown, runs_started, runs_finished = started, 0, 0
    with open(log_path, "w", encoding="utf-8") as log, subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            errors="replace", env={**os.environ, **VERBOSE}) as driver:
        for line in driver.stdout:
            log.write(line)
            runs_started += bool(STARTED.match(line))
            runs_finished += bool(FINISHED.match(line))
            if SHOWN.match(line):
                print(f"nightly: {line.rstrip()}", file=out, flush=True)
            if time.monotonic() - last_shown >= every:
                last_shown = time.monotonic()
                print(progress_line(max(runs_started, runs_finished), total, started), file=out,
                      flush=True)
        status = driver.wait()
    print(progress_line(max(runs_started, runs_finished), total, started)
          + f", the driver's status {status}", file=out, flush=True)
    return status


def tail(log_path, lines=15):
    """The log's last lines, to show a failure the terminal no longer saw."""
    with open(log_path, encoding="utf-8", errors="replace") as f:
        return f.readlines()[-lines:]
