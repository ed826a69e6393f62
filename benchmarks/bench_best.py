"""The strongest player (issue 23): inference alone, ``best`` against the field, time a decision.

    python benchmarks/bench_best.py infer --search pimc:20 --field bully --deals 200 --seed 23
    python benchmarks/bench_best.py versus --a best --b ismcts:1000 --deals 200 --seed 23
    python benchmarks/bench_best.py speed --a best --hands 20 --seed 23
    python benchmarks/bench_best.py versus --a best --b ismcts:1000 --deals 2000 --games draw2
    python benchmarks/bench_best.py versus --a best --b pimc:50 --deals 2000 --games draw2 \
        --out runs/best_pimc.csv --block 100

``infer`` plays ``S+infer`` and ``S`` each against the same ``field`` on the same duplicate deals
(``ds.compare(..., keep_deals=True)``) and pairs the two deal by deal: the gain of inference
alone, with its 95% interval. ``versus`` is ``ds.compare(a, b)``; with ``--out`` it plays in blocks
of ``--block`` deals, block ``k`` seeded ``--seed + k``, and appends each finished block's deals to
a CSV file, so a long run can stop and resume. ``speed`` times every decision
of ``a`` (the search's compiled call, through the reference engine) against ``field`` at the odd
seats (``speed``'s default ``random``), in CPU
time of the deciding thread (one core; a loaded machine slows the clock, not this). Each
runs in Block double-six 4p in partnership (7 tiles each) and in Draw double-six 2p (``--games``
picks one), on one core (``n_jobs=1``) unless ``--jobs`` says otherwise.
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import numpy as np
import pandas as pd

import dominosim as ds
from dominosim.strategies.search import SearchStrategy, resolve_search

GAMES = {"block4": ds.Rules.preset("block", players=4, hand_size=7),
         "draw2": ds.Rules.preset("draw", players=2)}


def games(args: argparse.Namespace) -> list[tuple[str, ds.Rules]]:
    """The games ``--games`` names, in :data:`GAMES`' order."""
    return [(game, rules) for game, rules in GAMES.items() if game in args.games]


def paired(values: np.ndarray) -> str:
    mean = float(values.mean())
    half = 1.959963984540054 * float(values.std(ddof=1)) / math.sqrt(len(values))
    return f"{mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}]"


def infer(args: argparse.Namespace) -> None:
    for game, rules in games(args):
        t = time.time()
        runs = {s: ds.compare(rules, s, args.field, n_deals=args.deals, seed=args.seed,
                              keep_deals=True, n_jobs=args.jobs, progress=False)
                for s in (f"{args.search}+infer", args.search)}
        with_, without = (runs[s].deals for s in runs)
        gain = with_["win_rate_a"].to_numpy() - without["win_rate_a"].to_numpy()
        points = with_["points_a"].to_numpy() - without["points_a"].to_numpy()
        print(f"{game}: {args.search}+infer minus {args.search}, both against {args.field}, "
              f"{args.deals} deals, seed {args.seed}: win rate {paired(gain)}, points "
              f"{paired(points)}; win rates {with_['win_rate_a'].mean():.3f} and "
              f"{without['win_rate_a'].mean():.3f} ({time.time() - t:.0f} s)")


def versus(args: argparse.Namespace) -> None:
    if args.out is not None:
        return versus_in_blocks(args)
    for game, rules in games(args):
        t = time.time()
        c = ds.compare(rules, args.a, args.b, n_deals=args.deals, seed=args.seed,
                       n_jobs=args.jobs, progress=False)
        row = c.row("win_rate_diff")
        print(f"{game}: {args.a} minus {args.b}, {args.deals} deals, seed {args.seed}: win rate "
              f"{row['estimate']:+.3f} [{row['ci_low']:+.3f}, {row['ci_high']:+.3f}] "
              f"({time.time() - t:.0f} s)")


def versus_in_blocks(args: argparse.Namespace) -> None:
    """``versus`` in blocks of ``--block`` deals, block ``k`` seeded ``--seed + k``, each block's
    per-deal results appended to the CSV file ``--out`` as it ends (a stopped run keeps its
    finished blocks, and a rerun with the same arguments skips them). Deals of different seeds are
    independent, so the pairs of every block together give one paired interval."""
    path = Path(args.out)
    if args.deals % args.block:
        raise SystemExit(f"--deals ({args.deals}) must be a multiple of --block ({args.block}).")
    for game, rules in games(args):
        for k in range(args.deals // args.block):
            seed = args.seed + k
            done = pd.read_csv(path) if path.exists() else pd.DataFrame(columns=["game", "a", "b",
                                                                                 "seed"])
            mine = done[(done["game"] == game) & (done["a"] == args.a) & (done["b"] == args.b)]
            if seed not in set(mine["seed"]):
                t = time.time()
                c = ds.compare(rules, args.a, args.b, n_deals=args.block, seed=seed,
                               n_jobs=args.jobs, progress=False, keep_deals=True)
                block = c.deals[["deal", "win_rate_diff", "points_diff"]].assign(
                    game=game, a=args.a, b=args.b, seed=seed, seconds=time.time() - t)
                block.to_csv(path, mode="a", header=not path.exists(), index=False)
                mine = pd.concat([mine, block])
            seeds = mine["seed"].between(args.seed, seed)
            diffs = mine.loc[seeds, "win_rate_diff"].to_numpy(dtype=float)
            print(f"{game}: {args.a} minus {args.b}, {len(diffs)} deals (seeds {args.seed} to "
                  f"{seed}, {args.block} deals each): win rate {paired(diffs)}", flush=True)


class Timed:
    """A search strategy that records how long each of its decisions takes."""

    def __init__(self, search: SearchStrategy) -> None:
        self.search, self.name, self.times = search, search.name, []

    def choose(self, view, moves, rng):
        t = time.thread_time()  # CPU time of this thread: one core, whatever the machine's load
        move = self.search.choose(view, moves, rng)
        self.times.append(time.thread_time() - t)
        return move


def speed(args: argparse.Namespace) -> None:
    for game, rules in games(args):
        timed = Timed(resolve_search(args.a))
        lineup = [timed if s % 2 == 0 else args.field for s in range(rules.players)]
        timed.search = timed.search.bound(lineup)  # its models of the others, for inference
        ds.simulate(rules, lineup, n_hands=1, seed=args.seed, engine="reference")  # compile
        timed.times.clear()
        ds.simulate(rules, lineup, n_hands=args.hands, seed=args.seed, engine="reference")
        ms = 1000 * np.array(timed.times)
        print(f"{game}: {timed.name}, {len(ms)} decisions in {args.hands} hands against "
              f"{args.field}: "
              f"median {np.median(ms):.1f} ms of CPU, 90th percentile {np.percentile(ms, 90):.1f} ms, "
              f"worst {ms.max():.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["infer", "versus", "speed"])
    parser.add_argument("--search", default="pimc:20")
    parser.add_argument("--field", default=None,
                        help="the other seats' strategy (default: bully for infer, random for "
                             "speed)")
    parser.add_argument("--a", default="best")
    parser.add_argument("--b", default="ismcts:1000")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", default=None,
                        help="versus: play in blocks and append each block's deals to this CSV "
                             "file (resumable)")
    parser.add_argument("--block", type=int, default=100,
                        help="versus --out: deals a block (100)")
    parser.add_argument("--games", nargs="+", choices=sorted(GAMES), default=list(GAMES),
                        help="the games to play (default: both)")
    args = parser.parse_args()
    if args.field is None:
        args.field = "random" if args.what == "speed" else "bully"
    {"infer": infer, "versus": versus, "speed": speed}[args.what](args)


if __name__ == "__main__":
    main()
