"""A user's compiled strategy against a built-in of similar logic (issue 4: within 2x).

Run ``python benchmarks/bench_plugin.py``. ``lightest`` (a plug-in: the lightest tile, ties to the
first move) is timed against the built-in ``bully`` (the heaviest tile) and a plug-in copy of
``random`` against the built-in ``random``, Block 4p and Draw 2p, one core, best of 3 runs of
2,000,000 hands; plus the time to compile the plug-in in a fresh process (the engine itself comes
from the cache).
"""

from __future__ import annotations

import time

import numba

import dominosim as ds
from dominosim.fast import engine as fast
from dominosim.fast.core.rng import below
from dominosim.fast.hand.plugin import V_BONEYARD
from dominosim.tiles import PIPS


@numba.njit
def lightest(moves_tile, moves_suit, n_moves, view, rng):
    best = 0
    for i in range(1, n_moves):
        if PIPS[moves_tile[i]] < PIPS[moves_tile[best]]:
            best = i
    return best


@numba.njit
def uniform(moves_tile, moves_suit, n_moves, view, rng):
    if view[V_BONEYARD] < 0:  # reads the view, as a real strategy would
        return 0
    return below(rng, 0, n_moves)


def rate(rules: ds.Rules, strategy, n: int = 2_000_000) -> float:
    run = fast.prepare(rules, strategy)
    fast.play_rows(run, 1, 0, 1_000, 1)
    best = 0.0
    for r in range(3):
        t0 = time.perf_counter()
        fast.play_rows(run, 1 + r, 0, n, 1)
        best = max(best, n / (time.perf_counter() - t0))
    return best


def main() -> None:
    t0 = time.perf_counter()
    light = ds.compiled_strategy(lightest)
    _ = light.address
    print(f"compiling the plug-in: {time.perf_counter() - t0:.1f} s")
    uni = ds.compiled_strategy(uniform)
    for label, rules in (("Block 4p", ds.Rules.preset("block", players=4)),
                         ("Draw 2p", ds.Rules.preset("draw", players=2))):
        a, b = rate(rules, light), rate(rules, "bully")
        c, d = rate(rules, uni), rate(rules, "random")
        print(f"{label}: plug-in lightest {a:,.0f} vs built-in bully {b:,.0f} hands/s "
              f"({b / a:.2f}x); plug-in uniform {c:,.0f} vs built-in random {d:,.0f} "
              f"({d / c:.2f}x)")


if __name__ == "__main__":
    main()
