#!/usr/bin/env python3
"""Runs the Matrix Market fuzzer for a while from the seeds: each seed plain and gzip-compressed into
a scratch corpus, then libFuzzer for --seconds. Exit status: the fuzzer's (0: nothing found; a crash
leaves its input as WORK/crash-*, to be turned into a unit test).

  run_fuzzer.py FUZZER SEEDS_DIR WORK_DIR [--seconds 60]
"""

import argparse
import gzip
import pathlib
import shutil
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("fuzzer")
    parser.add_argument("seeds", type=pathlib.Path)
    parser.add_argument("work", type=pathlib.Path)
    parser.add_argument("--seconds", type=int, default=60)
    args = parser.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    corpus = args.work / "corpus"
    corpus.mkdir(parents=True)
    seeds = sorted(args.seeds.glob("*.mtx"))
    if not seeds:
        raise SystemExit(f"run_fuzzer: no *.mtx seeds in {args.seeds}")
    for seed in seeds:
        shutil.copy(seed, corpus / seed.name)
        (corpus / (seed.name + ".gz")).write_bytes(gzip.compress(seed.read_bytes(), mtime=0))
    command = [args.fuzzer, str(corpus), f"-max_total_time={args.seconds}", "-timeout=10",
               "-rss_limit_mb=2048", "-print_final_stats=1", f"-artifact_prefix={args.work}/"]
    print("run_fuzzer:", " ".join(command), flush=True)
    result = subprocess.run(command)
    found = sorted(args.work.glob("crash-*")) + sorted(args.work.glob("timeout-*")) + sorted(args.work.glob("oom-*"))
    for path in found:
        print(f"run_fuzzer: finding {path} ({path.stat().st_size} bytes)")
    return result.returncode


if __name__ == "__main__":
    sys.exit(main())
