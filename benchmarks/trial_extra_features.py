"""Would more features let an imitator of ``ismcts:1000`` agree with it more often? (issue 22)

``python benchmarks/trial_extra_features.py GAME TRAIN TEST HIDDEN`` (``GAME``: ``block`` or
``draw``, the rule sets of the shipped players): ``ismcts:1000`` plays ``TRAIN`` hands (seed 401)
and ``TEST`` hands (seed 402) at every seat in the reference engine; every decision of two or more
moves is kept, each move with its 22 decision features and eight more computed here in Python
(:data:`EXTRA`: the chance that each of the next three seats cannot follow the ends after the
move, its hand's size against the unseen tiles that hold a showing suit, or 1 when it is known to
lack them all; the kept pips; the kept doubles; the most kept tiles of one suit; the fewest unseen
tiles of a showing suit; the kept minus the unseen tiles of the suit the move leaves). Two
``MLPClassifier`` of ``HIDDEN`` units (of the features the ``"mlp"`` model reads, 19 in Draw 2p
and 22 in Block 4p, and of those with the eight more) learn the move the teacher played; the
script prints each one's share of decisions (training and test) on which its highest scored move
is the teacher's. Nothing here is part of the package: it tests whether a new features version is
worth making.
"""

from __future__ import annotations

import sys
import time
from math import comb

import pandas as pd

from dominosim.players.learn import mlp_features
from dominosim.reference.hand import play_hand
from dominosim.strategies.features import FEATURE_NAMES, _unseen, move_features
from dominosim.strategies.lineup import resolve_lineup
from dominosim.strategies.weighted import TUNED_RULES
from dominosim.tiles import pips, tile_id

EXTRA = ["pass_1", "pass_2", "pass_3", "kept_pips", "doubles_kept", "max_suit_kept",
         "unseen_end_min", "left_control"]
"""The eight features added in the trial, in the order :func:`extra` returns them."""


def pass_prob(view, s, showing, unseen):
    """The chance that seat ``s`` holds no unseen tile of a suit in ``showing`` (its hand a
    uniform draw of the unseen tiles; 1 when it is known to lack them all)."""
    if not showing or showing <= view.known_lacks[s]:
        return 1.0
    u, k, h = len(unseen), sum(any(v in t for v in showing) for t in unseen), view.tile_counts[s]
    h = min(h, u)
    return comb(u - k, h) / comb(u, h) if u else 1.0


def tile_names(rules):
    """The inputs of the third model: which tiles are unseen, which suits each other seat (counted
    to the left) is known to lack, the suits showing after the move and the tile played."""
    n, suits = rules.n_tiles, range(rules.max_pip + 1)
    return ([f"unseen_{i}" for i in range(n)]
            + [f"lacks_{j}_{v}" for j in range(1, rules.players) for v in suits]
            + [f"shows_{v}" for v in suits] + [f"plays_{i}" for i in range(n)])


def tiles(view, move):
    """The :func:`tile_names` inputs of ``move`` for the seat of ``view``."""
    rules = view.rules
    unseen = {tile_id(t) for t in _unseen(view)}
    suits = range(rules.max_pip + 1)
    showing = set(view.ends_after(move))
    return ([i in unseen for i in range(rules.n_tiles)]
            + [v in view.known_lacks[(view.seat + j) % rules.players]
               for j in range(1, rules.players) for v in suits]
            + [v in showing for v in suits]
            + [i == tile_id(move.tile) for i in range(rules.n_tiles)])


def extra(view, move):
    """The :data:`EXTRA` features of ``move`` for the seat of ``view``."""
    p = view.rules.players
    kept = [t for t in view.hand if t != move.tile]
    showing = set(view.ends_after(move))
    unseen = _unseen(view)
    left = move.tile[0] if move.tile[1] == move.suit else move.tile[1]
    passes = [pass_prob(view, (view.seat + j) % p, showing, unseen) if j < p else 0.0
              for j in (1, 2, 3)]
    per_suit = [sum(v in t for t in kept) for v in range(view.rules.max_pip + 1)]
    return passes + [sum(pips(t) for t in kept), sum(t[0] == t[1] for t in kept),
                     max(per_suit) if kept else 0,
                     min((sum(v in t for t in unseen) for v in showing), default=0),
                     sum(left in t for t in kept) - sum(left in t for t in unseen)]


class Rec:
    """A seat that plays ``teacher``'s move and keeps every move's features with whether it was
    the move played."""

    def __init__(self, teacher, rows, count):
        self.t, self.rows, self.count, self.name = teacher, rows, count, "rec"

    def choose(self, view, moves, rng):
        move = self.t.choose(view, moves, rng)
        if len(moves) > 1 and moves[0].suit >= 0:
            for m in moves:
                self.rows.append([self.count[0], m == move, *move_features(view, m),
                                  *extra(view, m), *tiles(view, m)])
            self.count[0] += 1
        return move


def data(rules, hands, seed):
    """The decisions of ``hands`` hands of ``ismcts:1000`` at every seat, run seeded ``seed``."""
    teacher = resolve_lineup(rules, "ismcts:1000")[0]
    rows, count = [], [0]
    for h in range(hands):
        play_hand(rules, [Rec(teacher, rows, count)] * rules.players, seed, h)
    return pd.DataFrame(rows, columns=["decision", "chosen", *FEATURE_NAMES, *EXTRA,
                                       *tile_names(rules)], dtype=float)


def agreement(model, mean, sd, df, cols):
    """The share of decisions of ``df`` whose highest scored move is the one played."""
    score = model.predict_proba((df[cols].to_numpy(float) - mean) / sd)[:, 1]
    d = df.assign(score=score)
    top = d.loc[d.groupby("decision")["score"].idxmax()]
    return top["chosen"].mean()


def main(game, train, test, hidden):
    """Print the two models' agreement with the teacher, on the training and the test hands."""
    from sklearn.neural_network import MLPClassifier
    rules = TUNED_RULES[game]
    t = time.process_time()
    tr, te = data(rules, train, 401), data(rules, test, 402)
    print(game, "labels", len(tr), len(te), f"{time.process_time() - t:.0f} CPU s", flush=True)
    base = list(mlp_features(rules))
    for name, cols in (("the model's features", base), ("with the extra ones", base + EXTRA),
                       ("with the extra ones and the tiles", base + EXTRA + tile_names(rules))):
        x = tr[cols].to_numpy(float)
        mean, sd = x.mean(0), x.std(0)
        sd[sd == 0] = 1
        m = MLPClassifier((hidden,), alpha=1e-3, max_iter=300, early_stopping=True,
                          random_state=0)
        m.fit((x - mean) / sd, tr["chosen"].astype(int))
        print(f"| {game} | {name} | {agreement(m, mean, sd, tr, cols):.3f} | "
              f"{agreement(m, mean, sd, te, cols):.3f} |", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
