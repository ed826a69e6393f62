"""The review of a played hand (issue 15): time to review one seat's decisions in a Block 4p hand.

Run ``python benchmarks/bench_review.py`` (``--hands N`` hands, default 10; ``--budget B``
samples per decision, default ``ds.review``'s; ``--lineup NAME`` the line-up that plays the
hands, default ``random``; ``--method M`` the analysis, default ``ds.review``'s, ``best``: the
``"best"`` player's, with its inference). The wall time depends on what else the machine runs: the CPU
seconds of the process are printed beside it. Hand ``h`` of seed 0 is played by the compiled engine
(``ds.replay``), then ``ds.review(log, 0, method=M)`` is timed on it, after one untimed review
that compiles the solver's kernels. It prints Markdown: the decisions, samples and seconds of every
hand, then the median and worst. Target: a Block 4p hand reviewed with the default in under 30 s
on 2 cores.
"""

from __future__ import annotations

import argparse
import inspect
import time

import numpy as np

import dominosim as ds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10)
    default = inspect.signature(ds.review).parameters["budget"].default
    parser.add_argument("--budget", type=int, default=default)
    parser.add_argument("--lineup", default="random")
    parser.add_argument("--method", default=inspect.signature(ds.review).parameters["method"].default)
    args = parser.parse_args()
    rules = ds.Rules.preset("block", players=4)
    ds.review(ds.replay(rules, args.lineup, seed=0, hand=args.hands, engine="fast"), 0,
              budget=20, method=args.method)  # compile
    print(f"### ds.review of seat 0, Block 4p partnership, {args.lineup} line-up, {args.method}, "
          f"budget {args.budget}\n")
    print("| hand | decisions | samples | win lost | seconds | CPU seconds |")
    print("|---:|---:|---:|---:|---:|---:|")
    seconds, cpu = [], []
    for h in range(args.hands):
        log = ds.replay(rules, args.lineup, seed=0, hand=h, engine="fast")
        start, start_cpu = time.perf_counter(), time.process_time()
        table = ds.review(log, 0, method=args.method, budget=args.budget)
        seconds.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        print(f"| {h} | {len(table)} | {int(table['samples'].sum())} | "
              f"{table['win_lost'].sum():.3f} | {seconds[-1]:.2f} | {cpu[-1]:.2f} |")
    print(f"\nmedian {np.median(seconds):.2f} s, worst {max(seconds):.2f} s over {args.hands} "
          f"hands (CPU: median {np.median(cpu):.2f} s, worst {max(cpu):.2f} s)")


if __name__ == "__main__":
    main()
