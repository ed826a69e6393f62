"""The built-in ``tuned`` player: its strength against every built-in style, and its speed (issue 22).

Run ``python benchmarks/bench_players.py`` (``--deals N``, default 2,000 duplicate deals per
pair; ``--seed``, default 2026). For the two games the shipped players were fitted for (Block
double-six 4p in partnership with 7 tiles each, Draw double-six 2p) it compares ``tuned`` with
every built-in style on duplicate deals (``ds.compare``: the paired win-rate difference, tuned
minus the style, with its 95% interval) and prints a Markdown table; then it times a block of
hands with every seat playing ``tuned`` against the same block with every seat playing ``bully``
(CPU seconds, one thread, after a warm-up that compiles the kernels) and counts the tuned
player's decisions (``ds.decisions``) to give decisions per second.

``--temperature T`` times the same player drawing its moves by a softmax at ``T``
(``ds.tuned_player(rules).with_temperature(T)``) beside it; ``--speed-only`` skips the
comparisons.
"""

from __future__ import annotations

import argparse
import time

import dominosim as ds
from dominosim.strategies.weighted import TUNED_RULES

STYLES = ("bully", "doubles", "accompanied", "stitcher", "counter", "partner")
GAMES = {"Block 4p partnership, 7 tiles each": TUNED_RULES["block"],
         "Draw 2p": TUNED_RULES["draw"]}


def _cpu(rules: ds.Rules, strategies, n: int) -> float:
    ds.simulate(rules, strategies, 200, seed=1, n_jobs=1)  # compile or load the kernel
    t0 = time.process_time()
    ds.simulate(rules, strategies, n, seed=1, n_jobs=1)
    return time.process_time() - t0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--hands", type=int, default=100_000, help="hands for the speed")
    parser.add_argument("--temperature", type=float, default=0.0, help="also time a softmax")
    parser.add_argument("--speed-only", action="store_true", help="skip the comparisons")
    args = parser.parse_args(argv)
    for game, rules in GAMES.items():
        if args.speed_only:
            _speed(game, rules, args)
            continue
        print(f"\n### {game}: tuned against each style, {args.deals:,} duplicate deals, "
              f"seed {args.seed}\n")
        print("| style | edge (tuned - style) | 95% interval |")
        print("|---|---:|---:|")
        for style in STYLES:
            row = ds.compare(rules, "tuned", style, args.deals, seed=args.seed,
                             progress=False).row("win_rate_diff")
            print(f"| {style} | {row.estimate:+.3f} | [{row.ci_low:+.3f}, {row.ci_high:+.3f}] |")
        _speed(game, rules, args)


def _speed(game: str, rules: ds.Rules, args: argparse.Namespace) -> None:
    """Print the tuned player's decisions per CPU second (and at ``--temperature``)."""
    tuned, bully = _cpu(rules, "tuned", args.hands), _cpu(rules, "bully", args.hands)
    made = ds.decisions(rules, "tuned", 2_000, seed=1).groupby(["hand", "decision"]).ngroups
    per_hand = made / 2_000
    print(f"\nSpeed, {args.hands:,} hands on one thread: every seat tuned {tuned:.2f} CPU s, "
          f"every seat bully {bully:.2f} CPU s; {per_hand:.1f} decisions of two or more "
          f"moves per hand, so about {per_hand * args.hands / tuned:,.0f} tuned decisions "
          "per CPU second (the hand loop included).")
    if args.temperature > 0:
        soft = ds.tuned_player(rules).with_temperature(args.temperature)
        warm = _cpu(rules, soft, args.hands)
        made = ds.decisions(rules, soft, 2_000, seed=1).groupby(["hand", "decision"]).ngroups
        print(f"{game}: at temperature {args.temperature:g}, {warm:.2f} CPU s for the same "
              f"hands, about {made / 2_000 * args.hands / warm:,.0f} decisions per CPU second.")


if __name__ == "__main__":
    main()
