"""Strength table of the built-in styles (the built-ins that do not search) on duplicate deals (issue 4).

Run ``python benchmarks/strength.py`` (``--deals N``, default 20,000 deals per pair). For Block 4p in
partnership and Draw 2p it plays a tournament of every built-in strategy on duplicate deals and
prints, as Markdown, each strategy's win-rate edge over ``random`` (paired difference, 95%
interval) and the Bradley-Terry ratings of the round robin (log-strength, mean 0, bootstrap
intervals over deals).
"""

from __future__ import annotations

import argparse
import time

import dominosim as ds

GAMES = {
    "Block 4p partnership": ds.Rules.preset("block", players=4),
    "Draw 2p": ds.Rules.preset("draw", players=2),
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    names = list(ds.STYLES)
    for game, rules in GAMES.items():
        t0 = time.perf_counter()
        result = ds.tournament(rules, names, n_deals=args.deals, seed=args.seed)
        seconds = time.perf_counter() - t0
        print(f"\n### {game}: {args.deals:,} duplicate deals per pair, seed {args.seed} "
              f"({seconds:.0f} s)\n")
        print("| strategy | win-rate edge over random (A - B) | 95% interval | "
              "points/hand edge | rating | 95% interval |")
        print("|---|---:|---:|---:|---:|---:|")
        pairs = result.pairs
        for row in result.ratings.itertuples():
            if row.strategy == "random":
                edge = "(itself)"
                interval = points = ""
            else:
                match = pairs[(pairs.a == row.strategy) & (pairs.b == "random")]
                sign = 1
                if match.empty:
                    match = pairs[(pairs.a == "random") & (pairs.b == row.strategy)]
                    sign = -1
                m = match.iloc[0]
                lo, hi = sorted((sign * m.ci_low, sign * m.ci_high))
                edge = f"{sign * m.win_rate_diff:+.4f}"
                interval = f"[{lo:+.4f}, {hi:+.4f}]"
                points = f"{sign * m.points_diff:+.2f}"
            print(f"| {row.strategy} | {edge} | {interval} | {points} | {row.rating:+.3f} | "
                  f"[{row.ci_low:+.3f}, {row.ci_high:+.3f}] |")


if __name__ == "__main__":
    main()
