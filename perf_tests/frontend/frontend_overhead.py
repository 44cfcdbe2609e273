#!/usr/bin/env python3
"""The front end's cost from kspmv_frontend_overhead's JSON: per matrix, kspmv's median time over the
direct call's, with a 95% bootstrap interval over the repetitions (> 1: kspmv is slower). --candidate
kspmv_nohandle compares calls without a handle instead; --candidate check, the CSR check that a first call
without a handle adds (a ratio to one product).

  kspmv_frontend_overhead --benchmark_repetitions=20 --benchmark_enable_random_interleaving=true \\
      --benchmark_out=overhead.json && python3 frontend_overhead.py overhead.json
"""

import argparse
import json
import random
import statistics
import sys
from collections import defaultdict


def ratio_with_interval(kspmv, direct, resamples=2000, seed=1):
    rng = random.Random(seed)
    ratios = sorted(statistics.median(rng.choices(kspmv, k=len(kspmv))) /
                    statistics.median(rng.choices(direct, k=len(direct))) for _ in range(resamples))
    return (statistics.median(kspmv) / statistics.median(direct),
            ratios[int(0.025 * resamples)], ratios[int(0.975 * resamples) - 1])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("json", help="--benchmark_out of kspmv_frontend_overhead")
    parser.add_argument("--limit", type=float, default=1.03, help="largest acceptable ratio (default 1.03)")
    parser.add_argument("--candidate", default="kspmv", choices=("kspmv", "kspmv_nohandle", "check"),
                        help="the benchmarks compared with direct/ (default kspmv)")
    args = parser.parse_args()
    with open(args.json) as f:
        run = json.load(f)
    times = defaultdict(list)
    for b in run["benchmarks"]:
        if b.get("run_type") == "iteration":
            times[b["run_name"].removesuffix("/real_time")].append(b["real_time"])
    context = run["context"]
    print(f"{context.get('execution_space', '?')} with concurrency {context.get('concurrency', '?')}, "
          f"{context.get('host_name', '?')}, {len(next(iter(times.values()), []))} repetitions each")
    unit = run["benchmarks"][0].get("time_unit", "ns") if run["benchmarks"] else "ns"
    candidate = args.candidate
    print(f"{'matrix / precision':<28} {'direct':>12} {candidate:>14} {candidate + '/direct':>20}  95% interval")
    ratios, over = [], []
    for name in sorted(n for n in times if n.startswith("direct/")):
        key = name[len("direct/"):]
        kspmv, direct = times.get(candidate + "/" + key), times[name]
        if not kspmv:
            continue
        ratio, low, high = ratio_with_interval(kspmv, direct)
        ratios.append(ratio)
        if low > args.limit:
            over.append(key)
        print(f"{key:<28} {statistics.median(direct):>10.1f}{unit} {statistics.median(kspmv):>12.1f}{unit} "
              f"{ratio:>20.3f}  [{low:.3f}, {high:.3f}]")
    if not ratios:
        print(f"no pairs of direct/ and {candidate}/ benchmarks in the file")
        return 1
    geomean = statistics.geometric_mean(ratios)
    print(f"geometric mean {candidate}/direct {geomean:.3f} over {len(ratios)} matrices and precisions; "
          f"limit {args.limit}")
    if over:
        print(f"OVER the limit, the whole interval above it: {', '.join(over)}")
    return 0 if geomean <= args.limit and not over else 1


if __name__ == "__main__":
    sys.exit(main())
