"""The ``pimc`` strategy for the reference engine: perfect-information Monte Carlo.

At each decision it samples ``samples`` deals of the hidden tiles exactly uniformly from those
consistent with its view (:class:`dominosim.strategies.sampler.DealSampler`), solves each sampled world with
every tile known (the compiled solver, objective ``win``) and plays the move of best mean value
(the first in canonical order on a tie). Pass an instance in a line-up of the reference engine
(:func:`dominosim.play_hand`, :func:`dominosim.replay` with ``engine="reference"``).

Examples
--------
>>> import dominosim as ds
>>> rules = ds.Rules.preset("block", players=2)
>>> log = ds.play_hand(rules, [PIMC(8), "random"], seed=3, hand=0)
>>> log.events[-1].kind
'end'
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..checks import refuse
from ..reference.game import GameState, Move
from ..rng import Stream
from .solve import solve_state

DEFAULT_SAMPLES = 50


class PIMC:
    """Perfect-information Monte Carlo with ``samples`` sampled worlds per decision (see the
    module documentation)."""

    omniscient = False

    def __init__(self, samples: int = DEFAULT_SAMPLES) -> None:
        if not isinstance(samples, int) or samples < 1:
            raise refuse("samples", "a positive integer", samples)
        self.samples = samples
        self.name = f"pimc:{samples}"

    def choose(self, view, moves: Sequence[Move], rng: Stream) -> Move:
        """The move of best mean solved value over the sampled worlds."""
        from ..strategies.sampler import DealSampler

        sampler = DealSampler(view)
        plays = [e for e in view.history if e.kind == "play"]
        totals = np.zeros(len(moves), dtype=np.int64)
        for _ in range(self.samples):
            hands, boneyard = sampler.sample(rng)
            world = GameState(rules=view.rules, hands=[list(h) for h in hands],
                              boneyard=list(boneyard), ends=list(view.layout),
                              to_move=view.seat, opener=view.opener,
                              opening_tile=plays[0].tile if plays else None)
            totals += solve_state(world, list(moves), "win")[0]
        return Move(*moves[int(np.argmax(totals))])
