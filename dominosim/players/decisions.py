"""The decisions met in play, one row per legal move with its decision features.

:func:`decisions` plays hands with a line-up, in either engine, and returns every decision the
seats met (two or more legal moves) as rows of features: what a tuned player scores, what a
learned player will be fitted on, and how the two engines' features are held equal in the tests.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pandas as pd

from ..checks import check_limit
from ..fast.engine import prepare, scratch_of
from ..fast.hand import kernel as k
from ..fast.hand.recorded import COLUMNS, N_COLUMNS, decisions_of, general_shape
from ..reference.game import Move
from ..reference.hand import play_hand
from ..rng import check_seed
from ..rules import Rules, check_rules
from ..simulation.play import MAX_HAND_INDEX
from ..strategies.features import FEATURE_NAMES, move_features
from ..strategies.lineup import resolve_lineup
from ..strategies.view import SeatView
from ..tiles import tile_id

ROWS_PER_HAND = 4096
"""Rows a hand's decisions may fill in the compiled engine (more are an error)."""
MAX_HANDS = 1_000_000
"""Hands one :func:`decisions` call may play: it keeps a row for every legal move of every
decision (about 30 a double-six hand, some 7 GB at this bound); split a larger run with
``start``."""


def _frame(rows: list[np.ndarray], hands: list[np.ndarray]) -> pd.DataFrame:
    data = np.concatenate(rows) if rows else np.zeros((0, N_COLUMNS))
    frame = pd.DataFrame(data[:, len(COLUMNS):], columns=list(FEATURE_NAMES))
    head = pd.DataFrame({"hand": np.concatenate(hands) if hands else np.zeros(0, np.int64)})
    for j, name in enumerate(COLUMNS):
        head[name] = data[:, j].astype(np.int64)
    head["chosen"] = head["chosen"].astype(bool)
    return pd.concat([head, frame], axis=1)


def _fast(rules: Rules, strategies: Any, hands: range, seed: int) -> pd.DataFrame:
    run = prepare(rules, strategies)
    run = dataclasses.replace(run, shape=general_shape(rules, run.shape.plugins,
                                                       run.shape.searches))
    scratch, search = scratch_of(run)
    out = np.zeros((ROWS_PER_HAND, N_COLUMNS))
    rows, ids = [], []
    for hand in hands:
        status, n = decisions_of(run.shape, run.rp, run.lineup, np.uint64(seed), np.int64(hand),
                                 out, scratch, search)
        if status != k.OK or n < 0:
            raise RuntimeError(f"Hand {hand} stopped with status {status} after {n} rows.")
        rows.append(out[:n].copy())
        ids.append(np.full(n, hand, dtype=np.int64))
    return _frame(rows, ids)


class _Recorder:
    """A seat's strategy that writes each decision's moves and features before it chooses.

    With a ``teacher`` (a strategy object), the move marked ``chosen`` is the one the teacher
    would make at that position, while the seat still plays its own strategy's move (labels for
    imitation at the positions the strategy reaches). The teacher chooses first, from the same
    random stream, so a teacher that draws from it moves the seat's later random choices.
    """

    def __init__(self, strategy: Any, rows: list[np.ndarray], count: list[int],
                 teacher: Any = None) -> None:
        self.strategy, self.rows, self.count, self.teacher = strategy, rows, count, teacher
        self.name = getattr(strategy, "name", "custom")
        self.omniscient = getattr(strategy, "omniscient", False)

    def choose(self, view: SeatView, moves: list[Move], rng: Any) -> Move:
        if moves[0].suit >= 0:  # the lead under opening='any' has no features
            marked = (self.strategy if self.teacher is None else self.teacher).choose(
                view, moves, rng)
            for m in moves:
                head = [self.count[0], view.seat, tile_id(m.tile), m.suit, m == marked]
                self.rows.append(np.concatenate([np.array(head, float), move_features(view, m)]))
            self.count[0] += 1
            if self.teacher is None:
                return marked
        return self.strategy.choose(view, moves, rng)


def _reference(rules: Rules, strategies: Any, hands: range, seed: int,
               teacher: Any = None) -> pd.DataFrame:
    """The decisions of ``hands`` in the reference engine; with a ``teacher`` (a strategy
    object), ``chosen`` marks its move at each decision (see :class:`_Recorder`).
    """
    rows, ids = [], []
    for hand in hands:
        found: list[np.ndarray] = []
        count = [0]  # decisions so far in the hand, shared by the seats
        play_hand(rules, [_Recorder(s, found, count, teacher)
                          for s in resolve_lineup(rules, strategies)], seed, hand)
        rows.append(np.array(found).reshape(len(found), N_COLUMNS))
        ids.append(np.full(len(found), hand, dtype=np.int64))
    return _frame(rows, ids)


def decisions(rules: Rules, strategies: Any, n_hands: int, seed: int = 0, *, start: int = 0,
              engine: str = "fast") -> pd.DataFrame:
    """Every decision met in hands ``start`` to ``start + n_hands - 1``, one row per legal move.

    Parameters
    ----------
    rules : Rules
    strategies : str, strategy, or one per seat
        Who plays the hands (as in :func:`dominosim.simulate`).
    n_hands, seed, start : int
        The hands ``start ..`` of the run seeded ``seed`` (the same hands as ``simulate``).
    engine : {'fast', 'reference'}

    Returns
    -------
    pandas.DataFrame
        ``hand``, ``decision`` (its number in the hand, from 0), ``seat``, ``tile`` (id), ``suit``,
        ``chosen`` (the move the seat made), then one
        column per feature (:data:`~dominosim.strategies.features.FEATURE_NAMES`); the moves of a
        decision are consecutive, in canonical order. Decisions with one legal move, and the lead
        under ``opening='any'``, are left out.

    Examples
    --------
    >>> import dominosim as ds
    >>> d = ds.decisions(ds.Rules.preset("block", players=2), "bully", n_hands=20, seed=1)
    >>> list(d.columns[:7])
    ['hand', 'decision', 'seat', 'tile', 'suit', 'chosen', 'pips']
    >>> bool(d.groupby(["hand", "decision"])["chosen"].sum().eq(1).all())
    True
    """
    if engine not in ("fast", "reference"):
        raise ValueError(f"The value for `engine` must be one of 'fast', 'reference', but "
                         f"{engine!r} was passed.")
    n_hands = check_limit("n_hands", n_hands, 1, MAX_HANDS)
    check_seed(seed)
    rules = check_rules(rules)
    start = check_limit("start", start, 0, MAX_HAND_INDEX - n_hands + 1)  # hand ids are int64
    hands = range(start, start + int(n_hands))
    play = _fast if engine == "fast" else _reference
    return play(rules, strategies, hands, seed)
