"""Search strategies (issue 4): decisions per second, strength against ``random``, and the value of
seeing the hidden tiles.

Run ``python benchmarks/bench_search.py`` (``--deals N`` duplicate deals per comparison, default
2,000; ``--hands N`` hands for the speed figures, default 400). It prints Markdown:

* decisions per second on one core of ``mc`` (100 playouts per legal move) and ``ismcts`` (1,000
  iterations), at their default budgets, in Block 4p partnership with 7 tiles each and in Draw
  2p. A decision is a call with two or more legal moves; the number of calls is counted on the same
  hands by the reference engine, which runs the same compiled search;
* the strength of ``mc`` and ``ismcts`` against ``random`` on duplicate deals in the same games
  (the target: a wider margin than ``probabilistic_alphabeta`` of the ``dominoes`` package, about
  63.5% of hands won against random);
* omniscient against honest twins, in Block and in Draw;
* ``pimc`` (perfect-information Monte Carlo, ``--pimc`` sampled worlds per decision, default 20)
  against ``ismcts:1000`` (``--only pimc`` runs its speed and this comparison alone).
"""

from __future__ import annotations

import argparse
import time

import dominosim as ds
from dominosim.strategies.search import SearchStrategy

GAMES = {
    "Block 4p partnership, 7 tiles": ds.Rules.preset("block", players=4, hand_size=7),
    "Draw 2p": ds.Rules.preset("draw", players=2),
}


class _Counting:
    """Counts the decisions of a search strategy (the reference engine asks only real choices)."""

    def __init__(self, spec: str) -> None:
        self.inner = SearchStrategy.from_name(spec)
        self.name = self.inner.name
        self.omniscient = self.inner.omniscient
        self.calls = 0

    def choose(self, view, moves, rng):
        if moves[0].suit >= 0:
            self.calls += 1
        return self.inner.choose(view, moves, rng)


def _lineup(rules: ds.Rules, spec):
    return [spec if s % 2 == 0 else "random" for s in range(rules.players)]


def speed(hands: int, specs=("mc:100", "ismcts:1000")) -> None:
    print("| game | strategy | hands | decisions | seconds (1 core) | decisions/s |")
    print("|---|---|---:|---:|---:|---:|")
    for game, rules in GAMES.items():
        for spec in specs:
            ds.simulate(rules, _lineup(rules, spec), n_hands=2, seed=0, n_jobs=1)  # warm
            t0 = time.perf_counter()
            ds.simulate(rules, _lineup(rules, spec), n_hands=hands, seed=1, n_jobs=1)
            seconds = time.perf_counter() - t0
            counting = _Counting(spec)
            ds.simulate(rules, _lineup(rules, counting), n_hands=hands, seed=1,
                        engine="reference")
            print(f"| {game} | {spec} | {hands} | {counting.calls} | {seconds:.2f} | "
                  f"{counting.calls / seconds:,.0f} |", flush=True)


PAIRS = [("mc:100", "random"), ("ismcts:1000", "random"), ("mc_omniscient:100", "mc:100"),
         ("ismcts_omniscient:1000", "ismcts:1000")]


def strength(deals: int, seed: int, pairs=PAIRS) -> None:
    print("| game | A | B | deals | A's win rate | 95% interval | win-rate edge (A - B) | "
          "points/hand edge | seconds |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|")
    for game, rules in GAMES.items():
        for a, b in pairs:
            t0 = time.perf_counter()
            c = ds.compare(rules, a, b, n_deals=deals, seed=seed)
            seconds = time.perf_counter() - t0
            t = c.table.set_index("quantity")
            win, diff, pts = t.loc["win_rate_a"], t.loc["win_rate_diff"], t.loc["points_diff"]
            print(f"| {game} | {a} | {b} | {deals:,} | {win.estimate:.4f} | "
                  f"[{win.ci_low:.4f}, {win.ci_high:.4f}] | {diff.estimate:+.4f} "
                  f"[{diff.ci_low:+.4f}, {diff.ci_high:+.4f}] | {pts.estimate:+.2f} | "
                  f"{seconds:.0f} |", flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=2_000)
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--only", choices=("speed", "strength", "pimc"), default=None)
    parser.add_argument("--pimc", type=int, default=20, help="pimc's sampled worlds per decision")
    args = parser.parse_args(argv)
    pimc = f"pimc:{args.pimc}"
    if args.only == "pimc":
        speed(args.hands, (pimc, "ismcts:1000"))
        print()
        strength(args.deals, args.seed, [(pimc, "ismcts:1000")])
        return
    if args.only != "strength":
        speed(args.hands, ("mc:100", "ismcts:1000", pimc))
    if args.only != "speed":
        print()
        strength(args.deals, args.seed, PAIRS + [(pimc, "ismcts:1000")])


if __name__ == "__main__":
    main()
