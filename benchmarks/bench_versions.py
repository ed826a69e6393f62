"""Engine speed of two or more checkouts of dominosim, interleaved, on one core.

Run ``python benchmarks/bench_versions.py OLD NEW [MORE ...]`` where each argument is the root of a
checkout (for example ``git worktree add --detach ../old a9d162d`` and this one). Each case runs
in a fresh process with ``PYTHONPATH`` set to the checkout, the checkouts in turn (``--rounds``
times), so all meet the same load; a process warms the case up first (compiling it, or loading it
from the checkout's numba cache), then times ``ds.simulate(..., n_jobs=1)``. The figure is hands
per second of the process's CPU time in the timed part, steadier than wall time on a shared
machine; the table gives the best of the rounds for each checkout and its ratio to the first.

The cases are those of ``bench_engine.py`` that both the old and the new API play (uniform random
play, one style, one search), with the number of hands each is timed on, then two more searches and
the learned player, which only checkouts from issue 22 on play (``--cases`` picks cases).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

CASES = [
    ("Block 4p `random`, rows", "block", 4, "random", 600_000, "rows"),
    ("Draw 2p `random`, summary", "draw", 2, "random", 400_000, "summary"),
    ("Cross 3p `random`, summary", "cross", 3, "random", 200_000, "summary"),
    ("Double Nine Cross 4p `random`, summary", "double_nine_cross", 4, "random", 200_000,
     "summary"),
    ("Ivory 3p `random`, rows", "ivory", 3, "random", 200_000, "rows"),
    ("Cross 3p `counter`, summary", "cross", 3, "counter", 100_000, "summary"),
    ("Block 4p `mc:30`, rows", "block", 4, "mc:30", 30, "rows"),
    # searches and the learned player (checkouts from issue 22 on)
    ("Block 4p `ismcts:200`, summary", "block", 4, "ismcts:200", 40, "summary"),
    ("Draw 2p `pimc:5`, summary", "draw", 2, "pimc:5", 60, "summary"),
    ("Draw 2p `learned`, summary", "draw", 2, "learned", 300_000, "summary"),
]

CHILD = """
import json, sys, time
import dominosim as ds
preset, players, strategy, n, keep = json.loads(sys.argv[1])
rules = ds.Rules.preset(preset, players=players)
ds.simulate(rules, strategy, min(n, 1000), seed=7, n_jobs=1, keep=keep)  # warm-up
c0 = time.process_time()
ds.simulate(rules, strategy, n, seed=1, n_jobs=1, keep=keep)
print(json.dumps(n / (time.process_time() - c0)))
"""


def rate(root: str, case: tuple) -> float:
    """Hands per CPU second of ``case`` played by the checkout at ``root``, in a new process."""
    _, preset, players, strategy, n, keep = case
    env = dict(os.environ, PYTHONPATH=root, NUMBA_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", CHILD, json.dumps([preset, players, strategy, n,
                                                                    keep])],
                         env=env, cwd=root, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    """Print the table of hands per CPU second of each checkout, interleaved."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("roots", nargs="+", help="roots of the checkouts, the baseline first")
    parser.add_argument("--rounds", type=int, default=3, help="old/new pairs per case (3)")
    parser.add_argument("--cases", default="", help="comma-separated case numbers (all)")
    parser.add_argument("--scale", type=float, default=1.0, help="hands of each case times this")
    args = parser.parse_args(argv)
    chosen = [CASES[int(k)] for k in args.cases.split(",")] if args.cases else CASES
    chosen = [case[:4] + (max(1, round(case[4] * args.scale)),) + case[5:] for case in chosen]
    names = [f"{k}: {Path(root).resolve().name}" for k, root in enumerate(args.roots)]
    print("| case | " + " | ".join(f"{n}, best" for n in names) + " | "
          + " | ".join(f"{n} / 0, best (median)" for n in names[1:]) + " | every round |")
    print("|---|" + "---:|" * (2 * len(names) - 1) + "---|")
    for case in chosen:
        rates: list[list[float]] = [[] for _ in args.roots]
        for _ in range(args.rounds):
            for k, root in enumerate(args.roots):
                rates[k].append(rate(root, case))
        best = [max(r) for r in rates]
        middle = [statistics.median(r) for r in rates]
        rounds = "; ".join(", ".join(f"{x:,.0f}" for x in r) for r in rates)
        ratios = [f"{b / best[0]:.3f} ({m / middle[0]:.3f})"
                  for b, m in zip(best[1:], middle[1:], strict=True)]
        print(f"| {case[0]} | " + " | ".join(f"{b:,.0f}" for b in best) + " | "
              + " | ".join(ratios) + f" | {rounds} |", flush=True)


if __name__ == "__main__":
    main()
