#!/usr/bin/env python3
"""A stand-in for compute-sanitizer in tools/test_gpu_sanitizers.py: it runs the command after its
options and prints the closing line the real tool would, racecheck's own or the error summary.

    fake_compute_sanitizer.py --tool TOOL [OPTION VALUE...] --error-exitcode N COMMAND...

KSPMV_FAKE_SANITIZER_ERRORS=TOOL:WORD reports one error for TOOL where the command mentions WORD
(and exits N); KSPMV_FAKE_SANITIZER_SILENT=WORD prints no closing line where the command mentions
WORD, as a sanitizer that crashed would; KSPMV_FAKE_SANITIZER_NO_CUDA=WORD says, as the real tool
does of a program that never calls CUDA, that there was nothing to check, and exits 255;
KSPMV_FAKE_SANITIZER_SLOW=WORD waits a minute first where the command mentions WORD, as racecheck
on a long test would.
"""

import os
import subprocess
import sys
import time

args = sys.argv[1:]
options = {}
while args and args[0].startswith("--"):
    options[args[0]] = args[1]
    args = args[2:]
tool = options["--tool"]
command = " ".join(args)
if os.environ.get("KSPMV_FAKE_SANITIZER_SLOW", "\0") in command:
    time.sleep(60)
status = subprocess.run(args).returncode
if os.environ.get("KSPMV_FAKE_SANITIZER_NO_CUDA", "\0") in command:
    print("========= Error: Target application terminated before first instrumented API call")
    sys.exit(255)
if os.environ.get("KSPMV_FAKE_SANITIZER_SILENT", "\0") in command:
    sys.exit(status)
failing_tool, _, word = os.environ.get("KSPMV_FAKE_SANITIZER_ERRORS", ":\0").partition(":")
errors = 1 if tool == failing_tool and word in command else 0
if tool == "racecheck":
    print(f"========= RACECHECK SUMMARY: {errors + 2} hazards displayed ({errors} errors, 2 warnings)")
else:
    print(f"========= ERROR SUMMARY: {errors} errors")
sys.exit(int(options["--error-exitcode"]) if errors else status)
