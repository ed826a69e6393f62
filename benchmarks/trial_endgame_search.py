"""A trial, not in the package: where the learned player loses to ``ismcts:1000`` (issue 22).

The learned player plays each decision until ``LEFT`` tiles remain (the hands and the boneyard
together); from then on a search decides. Against ``ismcts:1000`` on duplicate deals, the
threshold at which the hybrid becomes level tells which decisions hold the learned player's
deficit, and the cheapest search that keeps it level tells what a compiled player of this design
would cost. The hybrid is a Python strategy, so the comparison runs on the reference engine
(``ds.compare(..., engine="reference")``: the searches' decisions are still the compiled
``decide``)::

    python benchmarks/trial_endgame_search.py strength block 12 ismcts:100 300 2026
    python benchmarks/trial_endgame_search.py speed block 12 ismcts:100 300

``strength GAME LEFT SEARCH DEALS SEED``: the paired win-rate difference against ``ismcts:1000``.
``LEFT`` 0 is the learned player alone. ``speed GAME LEFT SEARCH HANDS``: every seat the hybrid,
on the reference engine. It prints the share of decisions (two or more legal moves) that the search makes and the CPU
microseconds each took, the Python call of the reference engine's search included.
GAME is ``block`` (Block 4p partnership, 7 tiles each) or ``draw`` (Draw 2p), the ladder's rules
(:data:`dominosim.strategies.weighted.TUNED_RULES`).
"""

from __future__ import annotations

import sys
import time

import dominosim as ds
from dominosim.strategies.lineup import resolve
from dominosim.strategies.weighted import TUNED_RULES


def tiles_left(view) -> int:
    """The tiles in the hands and the boneyard together."""
    return sum(view.tile_counts) + view.boneyard_size


class Hybrid:
    """``learned`` until ``left`` tiles remain, then ``search`` (a name, or any strategy object:
    ``benchmarks/trial_late_model.py`` passes a fitted model); counts and times both."""

    def __init__(self, left: int, search) -> None:
        self.left, self.name = left, f"learned, then {getattr(search, 'name', search)} from {left} tiles"
        self.early, self.search = resolve("learned"), resolve(search)
        self.stats = {"learned": [0, 0.0], "search": [0, 0.0]}

    def choose(self, view, moves, rng):
        who = "search" if tiles_left(view) <= self.left else "learned"
        clock = time.process_time()
        move = (self.search if who == "search" else self.early).choose(view, moves, rng)
        if len(moves) > 1:
            self.stats[who][0] += 1
            self.stats[who][1] += time.process_time() - clock
        return move


def strength(game: str, left: int, search, deals: int, seed: int) -> str:
    """:class:`Hybrid` minus ``ismcts:1000`` on ``deals`` duplicate deals of ``seed``, as
    ``+0.000 [+0.000, +0.000]`` (the reference engine, one thread); printed too."""
    row = ds.compare(TUNED_RULES[game], Hybrid(left, search), "ismcts:1000", n_deals=deals,
                     seed=seed, engine="reference", n_jobs=1, progress=False).row("win_rate_diff")
    edge = f"{row.estimate:+.3f} [{row.ci_low:+.3f}, {row.ci_high:+.3f}]"
    print(f"{game}: learned until {left} tiles are left, then {getattr(search, 'name', search)}, "
          f"minus ismcts:1000: {edge} on {deals} deals of seed {seed}", flush=True)
    return edge


def speed(game: str, left: int, search: str, hands: int) -> None:
    rules = TUNED_RULES[game]
    ds.simulate(rules, [Hybrid(left, search)] * rules.players, 20, seed=1, engine="reference")
    hybrid = Hybrid(left, search)  # one object at every seat: its counts are the whole table's
    ds.simulate(rules, [hybrid] * rules.players, hands, seed=2, engine="reference")
    (n_l, _), (n_s, cpu) = hybrid.stats["learned"], hybrid.stats["search"]
    print(f"{game}: {n_s / (n_l + n_s):.2f} of {(n_l + n_s) / hands:.1f} decisions a hand made by "
          f"{search} from {left} tiles, {cpu / max(n_s, 1) * 1e6:.0f} CPU us each")


if __name__ == "__main__":
    what, game, left, search, *rest = sys.argv[1:]
    if what == "strength":
        strength(game, int(left), search, int(rest[0]), int(rest[1]))
    else:
        speed(game, int(left), search, int(rest[0]))
