"""The bounds of ``ds.solve`` and ``ds.analyze`` (issue 20): their memory estimates against the
arrays they really allocate, and the solver's node rate (what ``max_nodes`` means in seconds), on
every configuration of the validation table (``tests/data/validation/exact.csv``) and the
seeds' presets.

Run ``python benchmarks/bench_bounds.py`` (``--deals N`` solves per game, default 20). For each
game it prints Markdown: the estimate (``dominosim.solver.bounds.table_bytes`` for a solve's
table at the default ``2**22`` positions, ``scratch_bytes`` for one thread of an analysis) over
the bytes of the arrays really allocated (at least 1: the estimate bounds them), and the solver's
nodes per second over ``N`` deals solved from their opening. The last line gives the worst
ratios.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pandas as pd

import dominosim as ds
from dominosim.fast.search.solve import make_stack
from dominosim.fast.search.worlds import make_search_scratch
from dominosim.records import max_events
from dominosim.reference import deal
from dominosim.rng import hand_key
from dominosim.solver.analyze import TABLE_BITS
from dominosim.solver.bounds import scratch_bytes, stack_bytes, table_bytes
from dominosim.solver.solve import DEFAULT_TABLE_BITS
from dominosim.strategies.search import table_states

VALIDATION = Path(__file__).parent.parent / "tests" / "data" / "validation" / "exact.csv"
COLUMNS = ["max_pip", "players", "hand_size", "partnerships", "draw", "opening_arms",
           "fill_opening_first", "doubles_branch", "scoring"]


def games() -> dict[str, ds.Rules]:
    table = pd.read_csv(VALIDATION)[COLUMNS].drop_duplicates()
    found = {}
    for row in table.itertuples(index=False):
        fields = row._asdict()
        for flag in ("partnerships", "fill_opening_first", "doubles_branch"):
            fields[flag] = bool(fields[flag])
        rules = ds.Rules(**fields)
        found[repr(rules)] = rules
    for name, players in (("block", 4), ("draw", 2), ("cross", 4), ("double_nine_cross", 4)):
        rules = ds.Rules.preset(name, players=players)
        found[repr(rules)] = rules
    return found


def real_scratch(rules: ds.Rules) -> int:
    ss = make_search_scratch(rules.n_tiles, rules.players, max_events(rules), 1,
                             table_states(rules), TABLE_BITS)
    return sum(stack_bytes(a) if isinstance(a, tuple) else getattr(a, "nbytes", 0) for a in ss)


def node_rate(rules: ds.Rules, deals: int) -> float | None:
    """Nodes a second over ``deals`` solves from the opening (None: not solvable quickly)."""
    nodes, seconds = 0, 0.0
    for h in range(deals):
        hands, boneyard = deal(rules, hand_key(0, h))[-1]
        position = ds.Position.from_deal(rules, hands, boneyard)
        try:
            if h == 0:
                ds.solve(position, max_nodes=20_000_000)  # compile
            start = time.perf_counter()
            solution = ds.solve(position, max_nodes=20_000_000)
        except ValueError:
            return None
        seconds += time.perf_counter() - start
        nodes += solution.nodes
    return nodes / seconds if seconds else None


def main() -> None:
    cli = argparse.ArgumentParser(description=__doc__)
    cli.add_argument("--deals", type=int, default=20)
    args = cli.parse_args()
    print("| game | solve table: estimate / real | analysis thread: estimate / real | "
          "solver nodes/s |")
    print("|---|---|---|---|")
    worst_table, worst_scratch = [], []
    for name, rules in games().items():
        stack = make_stack(rules.n_tiles, rules.players, rules.n_tiles + 3, DEFAULT_TABLE_BITS)
        table = table_bytes(rules.n_tiles, DEFAULT_TABLE_BITS) / stack_bytes(stack)
        scratch = scratch_bytes(rules, TABLE_BITS) / real_scratch(rules)
        worst_table.append(table)
        worst_scratch.append(scratch)
        rate = node_rate(rules, args.deals)
        shown = "past 20M nodes" if rate is None else f"{rate / 1e6:.1f} M"
        print(f"| {name} | {table:.4f} | {scratch:.4f} | {shown} |")
    print(f"\nWorst ratios (estimate / real, at least 1): solve table {min(worst_table):.4f} to "
          f"{max(worst_table):.4f}, analysis thread {min(worst_scratch):.4f} to "
          f"{max(worst_scratch):.4f}.")


if __name__ == "__main__":
    main()
