"""The perfect-information solver (issue 14): time to solve a full deal from its opening.

Run ``python benchmarks/bench_solver.py`` (``--deals N`` deals per game, default 1,000;
``--objective win|points``; ``--sides coalition|max_n`` times the games of three or more sides
instead, the sides playing so; ``--exact`` times ``ds.exact`` on every configuration of the validation
table it can reach instead; ``--exact --styles`` under every enumerable line-up: ``random``, each
deterministic style at every seat, and a mix of styles with ``random``). For each game it deals hands as the engines do (hand ``h`` of seed 0,
redeals included), builds the position before the opening (``ds.Position.from_deal``, the
boneyard's order known) and times ``ds.solve`` on it, after one untimed solve that compiles the
game's kernel. It prints Markdown: the median, 90th percentile and worst time, and the nodes
visited. Target: median under 100 ms, worst under 5 s. ``--analyze`` (``--event K``, default 12)
times ``ds.analyze(method="pimc", precision=0.02)`` on the position before event ``K`` of 20
Block 4p hands instead (target: every move within +-0.02 in under 10 s on 2 cores).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import dominosim as ds
from dominosim.reference import deal
from dominosim.rng import hand_key

GAMES = {
    "Block 4p partnership (6 tiles each, 4 asleep)": ds.Rules.preset("block", players=4),
    "Block 4p partnership, 7 tiles each": ds.Rules.preset("block", players=4, hand_size=7),
    "Draw 2p (14 in the boneyard)": ds.Rules.preset("draw", players=2),
}
SIDED_GAMES = {
    "Block 3p": ds.Rules.preset("block", players=3),
    "Draw 3p": ds.Rules.preset("draw", players=3),
    "Draw 4p, each for itself": ds.Rules.preset("draw", players=4),
}
"""The games of three or more sides (``--sides``): the rows of the ceiling of
``reports/block_vs_draw.md`` that max-n changes."""


def bench(rules: ds.Rules, deals: int, objective: str, sides: str = "coalition") -> dict:
    times, nodes = [], []
    for h in range(deals):
        hands, boneyard = deal(rules, hand_key(0, h))[-1]
        position = ds.Position.from_deal(rules, hands, boneyard)
        if h == 0:
            ds.solve(position, objective=objective, sides=sides)  # compile
        start = time.perf_counter()
        solution = ds.solve(position, objective=objective, sides=sides)
        times.append(time.perf_counter() - start)
        nodes.append(solution.nodes)
    t = np.array(times) * 1000
    return {"median ms": np.median(t), "p90 ms": np.percentile(t, 90), "worst ms": t.max(),
            "median nodes": int(np.median(nodes)), "worst nodes": int(max(nodes))}


MIXED = ["partner", "random", "counter", "stitcher"]
"""The mixed line-up of ``--styles``: its first ``players`` seats."""


def bench_exact(styles: bool = False) -> None:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from exact_values import exact_table, rules_of

    from dominosim.solver.exact import MAX_STATES, estimated_states

    table = exact_table()
    if styles:
        bench_exact_styles(table, rules_of)
        return
    print("### ds.exact on the validation configurations\n")
    print("| config | rules | estimated states | states met | met / estimated | CPU seconds |")
    print("|---|---|---:|---:|---:|---:|")
    for config in table["config_id"].unique():
        rules = rules_of(table[table["config_id"] == config].iloc[0])
        states = estimated_states(rules)
        if states > MAX_STATES:
            print(f"| {config} | `{rules!r}` | {states:,} | refused |", flush=True)
            continue
        start = time.process_time()
        met = ds.exact(rules).attrs["states"]
        print(f"| {config} | `{rules!r}` | {states:,} | {met:,} | {met / states:.2f} | "
              f"{time.process_time() - start:.1f} |", flush=True)


def bench_exact_styles(table, rules_of) -> None:
    """Each cell: the CPU seconds of ``ds.exact`` (``time.process_time``, so that other work on the
    machine counts less), and the largest distance, in standard errors, between it and the compiled
    engine's Monte Carlo of 100,000 hands (seed 1) over every quantity."""
    import numpy as np
    from exact_values import samples

    from dominosim.solver.exact import MAX_STATES, estimated_states
    from dominosim.strategies.registry import STYLES

    lineups = [*STYLES, "mixed"]
    print("### ds.exact under each line-up: CPU seconds (largest |z| of 100,000 compiled hands)\n")
    print("| config | rules | " + " | ".join(lineups) + " |")
    print("|---|---|" + "---:|" * len(lineups))
    for config in table["config_id"].unique():
        rules = rules_of(table[table["config_id"] == config].iloc[0])
        if estimated_states(rules) > MAX_STATES:
            continue
        cells = []
        for name in lineups:
            lineup = MIXED[:rules.players] if name == "mixed" else name
            start = time.process_time()
            exact = ds.exact(rules, lineup)
            seconds = time.process_time() - start
            hands = ds.simulate(rules, lineup, n_hands=100_000, seed=1)
            z = 0.0
            for quantity, row in exact.iterrows():
                x = samples(rules, hands, quantity)
                if x is not None and x.std() > 0:
                    z = max(z, abs(x.mean() - row["value"]) / (x.std(ddof=1) / np.sqrt(len(x))))
            cells.append(f"{seconds:.1f} ({z:.1f})")
        print(f"| {config} | `{rules!r}` | " + " | ".join(cells) + " |", flush=True)


def bench_analyze(hands: int, event: int, precision: float) -> None:
    """``ds.analyze(method='pimc')`` to ``precision`` on the position before event ``event`` of
    Block 4p hands (random play, hand ``h`` of seed 0), on every core; wall and CPU seconds."""
    import numpy as np

    rules = ds.Rules.preset("block", players=4)
    ds.analyze(ds.replay(rules, "random", seed=0, hand=0).position(event), budget=100)  # compile
    print(f"### ds.analyze(method='pimc', precision={precision}) before event {event}, Block 4p\n")
    print("| hand | legal moves | worlds | widest half-width | wall s | CPU s |")
    print("|---:|---:|---:|---:|---:|---:|")
    walls = []
    for h in range(hands):
        position = ds.replay(rules, "random", seed=0, hand=h).position(event)
        wall, cpu = time.perf_counter(), time.process_time()
        table = ds.analyze(position, budget=50_000, precision=precision, seed=h)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        walls.append(wall)
        half = float((table["win_high"] - table["win"]).max())
        print(f"| {h} | {len(table)} | {table.attrs['samples']:,} | {half:.4f} | {wall:.2f} | "
              f"{cpu:.2f} |", flush=True)
    print(f"\nmedian {np.median(walls):.2f} s, worst {max(walls):.2f} s wall")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--analyze", action="store_true",
                        help="time ds.analyze to +-0.02 on mid-hand Block 4p positions instead")
    parser.add_argument("--event", type=int, default=12)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--objective", default="win", choices=["win", "points"])
    parser.add_argument("--exact", action="store_true")
    parser.add_argument("--styles", action="store_true")
    parser.add_argument("--sides", choices=["coalition", "max_n"],
                        help="time the games of three or more sides, the sides playing so")
    args = parser.parse_args()
    if args.analyze:
        bench_analyze(20, args.event, 0.02)
        return
    if args.exact:
        bench_exact(args.styles)
        return
    sides = args.sides or "coalition"
    print(f"### ds.solve from the opening, objective {args.objective!r}, sides {sides!r}, "
          f"{args.deals} deals\n")
    print("| game | median ms | p90 ms | worst ms | median nodes | worst nodes |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, rules in (SIDED_GAMES if args.sides else GAMES).items():
        r = bench(rules, args.deals, args.objective, sides)
        print(f"| {name} | {r['median ms']:.1f} | {r['p90 ms']:.1f} | {r['worst ms']:.0f} | "
              f"{r['median nodes']:,} | {r['worst nodes']:,} |", flush=True)


if __name__ == "__main__":
    main()
