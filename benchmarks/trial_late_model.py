"""A trial, not in the package: a richer model for the learned player's late decisions (issue 22).

``benchmarks/trial_endgame_search.py`` found the learned player's deficit against ``ismcts:1000``
in the second half of the hand. This trial asks whether a model that reads the tiles themselves
plays those decisions better. ``ismcts:1000`` plays ``HANDS`` hands at every seat (seed 301, the
reference engine); every decision of two or more moves with at most ``LEFT`` tiles left (hands
and boneyard) is recorded. A 64-unit ``MLPClassifier`` is fitted to "this move was the one played"
on the moves' inputs: ``features`` (the 22 decision features) or ``tiles`` (those, plus the tile
inputs of ``trial_extra_features.py``: the tiles the seat has not seen, each other seat's known
lacks, the suits showing after the move and the tile played). The hybrid of
``trial_endgame_search.py`` plays ``learned`` before ``LEFT`` tiles and the model from then on,
against ``ismcts:1000`` on the duplicate deals of seed 2026 (the reference engine, one thread)::

    python benchmarks/trial_late_model.py block 20 4000 2000 tiles
"""

from __future__ import annotations

import sys
import time

import numpy as np
from sklearn.neural_network import MLPClassifier
from sklearn.preprocessing import StandardScaler
from trial_endgame_search import strength, tiles_left
from trial_extra_features import tiles

import dominosim as ds
from dominosim.strategies.features import features_of
from dominosim.strategies.lineup import resolve
from dominosim.strategies.weighted import TUNED_RULES


def encode(view, moves, inputs: str) -> np.ndarray:
    """One row of inputs per move (see the module's documentation)."""
    if inputs == "features":
        return features_of(view, moves)
    return np.hstack([features_of(view, moves), [tiles(view, m) for m in moves]])


class LateModel:
    """Records ``ismcts:1000``'s late decisions (:meth:`choose` while recording), then, fitted,
    plays the move its model scores highest."""

    def __init__(self, most_left: int, inputs: str) -> None:
        self.most_left, self.inputs, self.name = most_left, inputs, f"the {inputs} model"
        self.teacher, self.model, self.scaler = resolve("ismcts:1000"), None, None
        self.decisions: list[np.ndarray] = []
        self.chosen: list[int] = []

    def choose(self, view, moves, rng):
        if self.model is not None:
            return moves[self.pick(encode(view, moves, self.inputs))]
        move = self.teacher.choose(view, moves, rng)
        if len(moves) > 1 and tiles_left(view) <= self.most_left and moves[0].suit >= 0:
            self.decisions.append(encode(view, moves, self.inputs))
            self.chosen.append(list(moves).index(move))
        return move

    def fit(self) -> float:
        """Fit the model to the decisions recorded; returns its agreement with them."""
        rows = np.concatenate(self.decisions)
        played = np.concatenate([np.arange(len(x)) == k
                                 for x, k in zip(self.decisions, self.chosen, strict=True)])
        self.scaler = StandardScaler().fit(rows)
        self.model = MLPClassifier(hidden_layer_sizes=(64,), max_iter=200, early_stopping=True,
                                   random_state=0).fit(self.scaler.transform(rows), played)
        return float(np.mean([self.pick(x) == k
                              for x, k in zip(self.decisions, self.chosen, strict=True)]))

    def pick(self, x: np.ndarray) -> int:
        return int(np.argmax(self.model.predict_proba(self.scaler.transform(x))[:, 1]))


def main(game: str, most_left: int, hands: int, deals: int, inputs: str) -> None:
    rules = TUNED_RULES[game]
    late = LateModel(most_left, inputs)
    clock = time.process_time()
    ds.simulate(rules, [late] * rules.players, hands, seed=301, engine="reference")
    agree = late.fit()
    print(f"{len(late.decisions)} late decisions, {sum(map(len, late.decisions))} moves, "
          f"{late.decisions[0].shape[1]} inputs; training agreement {agree:.3f}", flush=True)
    strength(game, most_left, late, deals, 2026)
    print(f"{time.process_time() - clock:.0f} CPU s in all")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
