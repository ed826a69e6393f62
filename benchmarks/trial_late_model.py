"""A trial, not in the package: a richer model for the learned player's late decisions (issue 22).

``benchmarks/trial_endgame_search.py`` found the learned player's deficit against ``ismcts:1000``
in the second half of the hand. This trial asks whether a model that reads the tiles themselves
plays those decisions better. ``ismcts:1000`` plays ``HANDS`` hands at every seat (seed 301, the
reference engine); every decision of two or more moves with at most ``LEFT`` tiles left (hands
and boneyard) is recorded. A 64-unit ``MLPClassifier`` is fitted to "this move was the one played"
on the moves' inputs: ``features`` (the 22 decision features) or ``tiles`` (those, plus the seat's
hand after the move, the tiles it has not seen, the tile played, the ends after the move, each
other seat's known lacks and tile count, and the boneyard's size). The hybrid plays ``learned``
before ``LEFT`` tiles and the model from then on, against ``ismcts:1000`` on the duplicate deals of
seed 2026 (the reference engine, one thread)::

    python benchmarks/trial_late_model.py block 20 4000 2000 tiles
"""

from __future__ import annotations

import sys
import time

import numpy as np
from sklearn.neural_network import MLPClassifier
from sklearn.preprocessing import StandardScaler

import dominosim as ds
from dominosim.strategies.features import _unseen, move_features
from dominosim.strategies.lineup import resolve
from dominosim.strategies.weighted import TUNED_RULES
from dominosim.tiles import tile_id


def left(view) -> int:
    """Tiles in the hands and the boneyard."""
    return sum(view.tile_counts) + view.boneyard_size


def one_hot(n: int, tiles) -> np.ndarray:
    out = np.zeros(n)
    out[[tile_id(t) for t in tiles]] = 1
    return out


def encode(view, moves, inputs: str) -> np.ndarray:
    """One row of inputs per move (see the module's documentation)."""
    rules = view.rules
    p, n = rules.players, rules.n_tiles
    unseen = one_hot(n, _unseen(view))
    others = np.zeros((p - 1) * 8 + 1)
    for o in range(1, p):
        s = (view.seat + o) % p
        for suit in view.known_lacks[s]:
            others[(o - 1) * 8 + suit] = 1
        others[(o - 1) * 8 + 7] = view.tile_counts[s]
    others[-1] = view.boneyard_size
    rows = []
    for m in moves:
        f = move_features(view, m)
        if inputs == "tiles":
            ends = np.zeros(rules.max_pip + 1)
            for e in view.ends_after(m):
                ends[e] += 1
            f = np.concatenate([f, one_hot(n, [t for t in view.hand if t != m.tile]), unseen,
                                one_hot(n, [m.tile]), ends, others])
        rows.append(f)
    return np.array(rows)


def main(game: str, most_left: int, hands: int, deals: int, inputs: str) -> None:
    rules = TUNED_RULES[game]
    search, learned = resolve("ismcts:1000"), resolve("learned")
    decisions: list[np.ndarray] = []
    chosen: list[int] = []

    def late(view, moves) -> bool:
        return len(moves) > 1 and left(view) <= most_left and moves[0].suit >= 0

    class Recorder:
        name = "ismcts:1000, recorded"

        def choose(self, view, moves, rng):
            move = search.choose(view, moves, rng)
            if late(view, moves):
                decisions.append(encode(view, moves, inputs))
                chosen.append(list(moves).index(move))
            return move

    clock = time.process_time()
    ds.simulate(rules, [Recorder()] * rules.players, hands, seed=301, engine="reference")
    rows = np.concatenate(decisions)
    target = np.concatenate([np.arange(len(x)) == k for x, k in zip(decisions, chosen,
                                                                     strict=True)])
    scaler = StandardScaler().fit(rows)
    model = MLPClassifier(hidden_layer_sizes=(64,), max_iter=200, early_stopping=True,
                          random_state=0).fit(scaler.transform(rows), target)

    def pick(x: np.ndarray) -> int:
        return int(np.argmax(model.predict_proba(scaler.transform(x))[:, 1]))

    agree = np.mean([pick(x) == k for x, k in zip(decisions, chosen, strict=True)])
    print(f"{len(decisions)} late decisions, {len(rows)} moves, {rows.shape[1]} inputs; "
          f"training agreement {agree:.3f}; {time.process_time() - clock:.0f} CPU s", flush=True)

    class Hybrid:
        name = f"learned, then the {inputs} model from {most_left} tiles"

        def choose(self, view, moves, rng):
            if not late(view, moves):
                return learned.choose(view, moves, rng)
            return moves[pick(encode(view, moves, inputs))]

    row = ds.compare(rules, Hybrid(), "ismcts:1000", n_deals=deals, seed=2026,
                     engine="reference", n_jobs=1, progress=False).row("win_rate_diff")
    print(f"{game}: learned, then a 64-unit MLP of the {inputs} imitating ismcts:1000 from "
          f"{most_left} tiles ({hands} hands of labels), minus ismcts:1000: {row.estimate:+.3f} "
          f"[{row.ci_low:+.3f}, {row.ci_high:+.3f}] on {deals} deals of seed 2026; "
          f"{time.process_time() - clock:.0f} CPU s in all")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
