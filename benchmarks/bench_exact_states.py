"""How well ``ds.exact``'s estimate (``dominosim.solver.exact.estimated_states``) bounds the states
its lazy enumeration really keeps (issue 20): on every configuration of the validation table
(``tests/data/validation/exact.csv``) and on a few rule sets with the other options, under a few
line-ups.

Run ``python benchmarks/bench_exact_states.py`` (``--limit N``: the most states a run may keep,
default 3,000,000, the default ``max_states``; ``--only NAME ...``: some rows; ``--engine
compiled``: the compiled enumeration of ``dominosim.fast.exact``, for ``--lineups random``). Each row runs in
its own process and prints Markdown: the estimate, the lazy tree's estimate that ``ds.exact``
asks where the estimate refuses (``dominosim.solver.tree_size.tree_size``, 1,000 probes of seed 0,
with its CPU seconds), the states met (``> limit`` when the run met
the limit before it finished), real / estimate (at most 1: the estimate bounds the work),
estimate / real (how loose it is), tree / real, CPU seconds, the peak resident memory and the memory the run
added over the states it kept (bytes / state, to compare with ``BYTES_PER_STATE``). A rule set
whose estimate is over the limit (refused by default) runs under ``random`` only. The column
"estimate before" is the estimate before issue 20, which counted one more than the drawable tiles
where this one counts their sets. The last line gives the worst ratios over the rows that
finished.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd

VALIDATION = Path(__file__).parent.parent / "tests" / "data" / "validation" / "exact.csv"
COLUMNS = ["max_pip", "players", "hand_size", "partnerships", "draw", "opening_arms",
           "fill_opening_first", "doubles_branch", "scoring"]

OTHERS = {
    "draw d4 2p x2": "ds.Rules.preset('draw', players=2, max_pip=4, hand_size=2)",
    "draw d3 2p x2": "ds.Rules.preset('draw', players=2, max_pip=3, hand_size=2)",
    "draw d3 2p x2 keep 3": ("ds.Rules(max_pip=3, players=2, hand_size=2, draw='until_playable', "
                             "boneyard_keep=3)"),
    "draw one d3 2p x2 keep 3": ("ds.Rules(max_pip=3, players=2, hand_size=2, draw='one', "
                                 "boneyard_keep=3)"),
    "draw d3 2p x2 lead any keep 3": ("ds.Rules(max_pip=3, players=2, hand_size=2, "
                                      "opening='any', draw='until_playable', boneyard_keep=3)"),
    "block d4 4p x2 partners": "ds.Rules.preset('block', players=4, max_pip=4, hand_size=2)",
    "block d3 4p x2 team_out": ("ds.Rules(max_pip=3, players=4, hand_size=2, partnerships=True, "
                                "end='team_out')"),
    "draw d3 2p x3 keep 2": ("ds.Rules(max_pip=3, players=2, hand_size=3, draw='until_playable', "
                             "boneyard_keep=2)"),
    "draw one d3 2p x3": "ds.Rules(max_pip=3, players=2, hand_size=3, draw='one')",
    "block d3 2p x3 lead any": "ds.Rules(max_pip=3, players=2, hand_size=3, opening='any')",
    "draw d2 2p x2 lead any": ("ds.Rules(max_pip=2, players=2, hand_size=2, opening='any', "
                               "draw='until_playable')"),
    "draw d3 2p x3 branching, 4 arms": ("ds.Rules(max_pip=3, players=2, hand_size=3, "
                                        "draw='until_playable', opening_arms=4, "
                                        "doubles_branch=True)"),
    "draw d3 3p x2": "ds.Rules(max_pip=3, players=3, hand_size=2, draw='until_playable')",
    # few tiles asleep and large hands: the estimate's deals are few, the states are not
    "block d3 2p x5": "ds.Rules(max_pip=3, players=2, hand_size=5)",
    "block d3 2p x4": "ds.Rules(max_pip=3, players=2, hand_size=4)",
    "block d3 2p x4 lead any": "ds.Rules(max_pip=3, players=2, hand_size=4, opening='any')",
    "block d3 3p x3 lead any": "ds.Rules(max_pip=3, players=3, hand_size=3, opening='any')",
    "cross d4 2p x6 branching": ("ds.Rules(max_pip=4, players=2, hand_size=6, "
                                 "draw='until_playable', opening_arms=4, "
                                 "fill_opening_first=True, doubles_branch=True)"),
}
LINEUPS = ["random", "bully", "stitcher", "partner"]


def rule_sets() -> dict[str, str]:
    """``{name: an expression of the Rules}``: the validation configurations, then the others."""
    table = pd.read_csv(VALIDATION, dtype={"config_id": str})
    found = {}
    for row in table.drop_duplicates("config_id").itertuples(index=False):
        fields = {c: getattr(row, c) for c in COLUMNS}
        for flag in ("partnerships", "fill_opening_first", "doubles_branch"):
            fields[flag] = bool(fields[flag])
        for c in ("max_pip", "players", "hand_size", "opening_arms"):
            fields[c] = int(fields[c])
        found[f"config {row.config_id}"] = f"ds.Rules(**{fields!r})"
    found.update(OTHERS)
    return found


def estimate_before(rules, lineup: list[str]) -> int:
    """The estimate before issue 20 (one more than the drawable tiles, not their sets)."""
    import math

    from dominosim.solver.exact import reads_of

    n, h, p = rules.n_tiles, rules.hand_size, rules.players
    deals = math.factorial(n) // (math.factorial(h) ** p * math.factorial(n - h * p))
    drawable = n - h * p - rules.boneyard_keep if rules.can_draw else 0
    states = 2 * deals * h * p * (1 + drawable)
    return states * 3 // 2 if "plays" in reads_of(rules, lineup) else states


def measure(expression: str, lineup: str, limit: int, engine: str = "python") -> dict:
    """One run (in this process): the estimate, the states met, CPU seconds, peak MB. ``engine``
    ``compiled``: the compiled enumeration (``random`` only), its kernel loaded or compiled by
    a small rule set before the clock starts."""
    import dominosim as ds
    from dominosim.fast.exact.totals import StatesFull, enumerate_random
    from dominosim.solver.exact import _lineup, estimated_states, reads_of
    from dominosim.solver.lazy import Lazy, StateLimitError, enumerate_hands

    rules = eval(expression, {"ds": ds})  # noqa: S307 - our own table above
    names = _lineup(rules, lineup)
    if engine == "compiled":
        if set(names) != {"random"}:
            raise SystemExit("--engine compiled enumerates line-ups of random only.")
        enumerate_random(ds.Rules(max_pip=2, players=2, hand_size=2), 1000)
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    clock = time.process_time()
    try:
        if engine == "compiled":
            states = enumerate_random(rules, limit)[4]
        else:
            game = Lazy(rules, names, reads_of(rules, names), limit)
            enumerate_hands(game)
            states = len(game.memo)
        finished = True
    except (StateLimitError, StatesFull):
        states, finished = limit, False
    cpu, peak = time.process_time() - clock, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    from dominosim.solver.tree_size import tree_size

    clock = time.process_time()  # after the enumeration, whose peak memory it does not raise
    tree = tree_size(rules, names, reads_of(rules, names))
    tree_cpu = time.process_time() - clock
    return {"estimate": estimated_states(rules, names), "before": estimate_before(rules, names),
            "tree": tree, "tree_cpu": tree_cpu, "states": states,
            "finished": finished, "cpu": cpu, "mb": peak / 1024, "grown": (peak - base) * 1024}


def row_estimate(expression: str) -> int:
    """The estimate of a rule set under ``random``."""
    import dominosim as ds
    from dominosim.solver.exact import estimated_states

    return estimated_states(eval(expression, {"ds": ds}))  # noqa: S307 - our own table


def main() -> None:
    cli = argparse.ArgumentParser(description=__doc__)
    cli.add_argument("--limit", type=int, default=3_000_000)
    cli.add_argument("--only", nargs="*", help="names of rows (e.g. 'config 4')")
    cli.add_argument("--lineups", nargs="*", default=LINEUPS)
    cli.add_argument("--engine", choices=["python", "compiled"], default="python",
                     help="the Python enumeration, or the compiled one (random line-ups)")
    cli.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = cli.parse_args()
    if args.child:
        print(json.dumps(measure(*args.child, args.limit, args.engine)))
        return
    print("| rules | line-up | estimate before | estimate | tree (CPU s) | states met | "
          "real / estimate | estimate / real | tree / real | CPU s | peak MB | bytes / state |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    worst_under, worst_over, worst_before = 0.0, 0.0, 0.0
    tree_under, tree_over = 0.0, 0.0
    for name, expression in rule_sets().items():
        if args.only and name not in args.only:
            continue
        for lineup in args.lineups:
            if lineup != "random" and row_estimate(expression) > args.limit:
                continue  # refused by default: the random line-up alone shows how far it grows
            out = subprocess.run([sys.executable, __file__, "--limit", str(args.limit),
                                  "--engine", args.engine, "--child", expression, lineup],
                                 capture_output=True, text=True, check=True)
            row = json.loads(out.stdout)
            est, met = row["estimate"], row["states"]
            if row["finished"]:
                under, over = met / est, est / max(met, 1)
                worst_under, worst_over = max(worst_under, under), max(worst_over, over)
                worst_before = max(worst_before, met / row["before"])
                tree_under = max(tree_under, met / row["tree"])
                tree_over = max(tree_over, row["tree"] / max(met, 1))
                shown = f"{met:,} | {under:.3f} | {over:.1f} | {row['tree'] / max(met, 1):.2f}"
            else:
                shown = f"> {args.limit:,} | > {args.limit / est:.3f} | | "
            tree = f"{row['tree']:,.0f} ({row['tree_cpu']:.1f})"
            print(f"| {name} | {lineup} | {row['before']:,} | {est:,} | {tree} | {shown} | "
                  f"{row['cpu']:.1f} | "
                  f"{row['mb']:.0f} | {row['grown'] / max(met, 1):.0f} |", flush=True)
    print(f"\nWorst over the runs that finished: real / estimate {worst_under:.3f}, "
          f"estimate / real {worst_over:.1f} (real / estimate before: {worst_before:.3f}); "
          f"real / tree {tree_under:.3f}, tree / real {tree_over:.1f}.")


if __name__ == "__main__":
    main()
