"""The built-in ``learned`` player: its speed in the compiled kernel and its strength (issue 22).

``python benchmarks/bench_learn.py speed`` (``--hands``, default 100,000): for the two games the
shipped players were fitted for (Block double-six 4p in partnership with 7 tiles each, Draw
double-six 2p), CPU seconds of a block of hands with every seat playing ``learned`` on one thread
(after a warm-up that compiles or loads the kernel), and the decisions of two or more legal moves
per hand (``ds.decisions`` on 2,000 hands), so decisions per CPU second, the hand loop included.

``python benchmarks/bench_learn.py strength`` (``--against ismcts:1000``, ``--deals 2000``,
``--seed 2026``, ``--games block draw``): ``ds.compare`` of ``learned`` with ``--against`` on
duplicate deals, the paired win-rate difference (learned minus the other) with its 95% interval,
one Markdown row per game; run it with ``nice -n 10`` on a shared machine.
"""

from __future__ import annotations

import argparse
import time

import dominosim as ds
from dominosim.strategies.weighted import TUNED_RULES

NAMES = {"block": "Block 4p partnership, 7 tiles each", "draw": "Draw 2p"}


def speed(hands: int) -> None:
    """Print each game's learned decisions per CPU second."""
    print("| game | hands | CPU s (one thread) | decisions per hand | decisions per CPU s |")
    print("|---|---:|---:|---:|---:|")
    for game, rules in TUNED_RULES.items():
        ds.simulate(rules, "learned", 200, seed=1, n_jobs=1)  # compile or load the kernel
        t0 = time.process_time()
        ds.simulate(rules, "learned", hands, seed=1, n_jobs=1)
        cpu = time.process_time() - t0
        made = ds.decisions(rules, "learned", 2_000, seed=1).groupby(["hand", "decision"]).ngroups
        per_hand = made / 2_000
        print(f"| {NAMES[game]} | {hands:,} | {cpu:.2f} | {per_hand:.2f} | "
              f"{per_hand * hands / cpu:,.0f} |", flush=True)


def strength(against: str, deals: int, seed: int, games: list[str]) -> None:
    """Print ``learned`` against ``against`` in each game."""
    print("| game | A | B | deals | edge A - B [95% CI] | wall s |")
    print("|---|---|---|---:|---|---:|")
    for game in games:
        t0 = time.perf_counter()
        row = ds.compare(TUNED_RULES[game], "learned", against, deals, seed,
                         progress=False).row("win_rate_diff")
        print(f"| {NAMES[game]} | learned | {against} | {deals:,} | {row.estimate:+.3f} "
              f"[{row.ci_low:+.3f}, {row.ci_high:+.3f}] | {time.perf_counter() - t0:.0f} |",
              flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("what", choices=["speed", "strength"])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--against", default="ismcts:1000")
    parser.add_argument("--deals", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--games", nargs="+", choices=sorted(TUNED_RULES),
                        default=sorted(TUNED_RULES))
    args = parser.parse_args(argv)
    if args.what == "speed":
        speed(args.hands)
    else:
        strength(args.against, args.deals, args.seed, args.games)


if __name__ == "__main__":
    main()
