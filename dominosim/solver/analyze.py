"""Move analysis: every legal move's value from what one seat can see, with 95% intervals.

The hidden tiles (the other hands, and the boneyard with its order) are sampled exactly uniformly
from the deals consistent with everything the seat has seen (:class:`dominosim.strategies.sampler.DealSampler`,
the consistent-deal sampler the search strategies use). Each sample is a world with every tile
known; in it each legal move is valued

* ``method="pimc"`` (perfect-information Monte Carlo): by :func:`dominosim.solve`, every seat
  then playing perfectly with every tile known;
* ``method="playout"``: by playing the hand out once with the ``continuation`` line-up (any
  strategy name or line-up :func:`dominosim.simulate` takes) in the reference engine.

A move's value is its mean over the samples, for ``win`` (the win rate of the seat's side, a tie
counted as half) and ``points`` (the points the side scores, negative when it loses), with a 95%
normal interval. Every move is valued on the same samples. Sampling stops when the best move's
interval (for ``win``) no longer overlaps any other move's, or when ``budget`` samples are spent.
"""

from __future__ import annotations

import copy
import math
from typing import Any

import numpy as np
import pandas as pd

from ..checks import refuse
from ..reference.game import GameState
from ..rng import Stream, mix64
from .position import Position
from .solve import solve_state

METHODS = ("pimc", "playout")
Z95 = 1.959963984540054
BATCH = 50
MIN_SAMPLES = 100


def _world(state: GameState, hands, boneyard) -> Position:
    """The position ``state`` with the hidden tiles put where a sample says."""
    world = copy.deepcopy(state)
    world.hands = [list(h) for h in hands]
    world.boneyard = list(boneyard)
    return Position(world)


def _playout_values(world: Position, moves, strategies, sample_key: int) -> tuple[list, list]:
    from ..reference.hand import take_turn

    rules = world.rules
    side = rules.side_of(world.to_move)
    wins, points = [], []
    for move in moves:
        after = world.after(move)
        state = after.state
        rngs = [Stream(mix64(sample_key + 7919 * (s + 1))) for s in range(rules.players)]
        while not state.over:
            take_turn(state, strategies, rngs)
        won = state.winning_side
        wins.append(0.5 if won < 0 else float(won == side))
        points.append(0 if won < 0 else (state.points if won == side else -state.points))
    return wins, points


def analyze(position: Position, seat: int | None = None, *, method: str = "pimc",
            budget: int = 2000, seed: int = 0, continuation: Any = "random") -> pd.DataFrame:
    """Every legal move of the seat to move, valued from what ``seat`` can see.

    Parameters
    ----------
    position : Position
        A hand in progress (a seat that must draw or knock does so first).
    seat : int, optional
        The seat whose knowledge is used: the seat to move (the default; another seat does not
        know the moves it has).
    method : {'pimc', 'playout'}
        Value each sampled world by the perfect-information solver, or by one play-out with
        ``continuation``.
    budget : int
        The most samples of the hidden tiles (at least 1).
    seed : int
        Seeds the sampling (and the play-outs).
    continuation : str or list
        The line-up that finishes the hand under ``method='playout'``.

    Returns
    -------
    pandas.DataFrame
        One row per legal move (``move``, ``tile``, ``suit``), with ``win`` and ``points`` (the
        means), ``win_low``/``win_high`` and ``points_low``/``points_high`` (95% intervals),
        ``best`` (the move of highest ``win``, then ``points``); ``attrs["samples"]`` is the
        number of samples used and ``attrs["separated"]`` whether the best move's interval
        separated from every other's.

    Examples
    --------
    >>> import dominosim as ds
    >>> log = ds.replay(ds.Rules.preset("block", players=2), "random", seed=4, hand=0)
    >>> table = ds.analyze(log.position(6), budget=200)
    >>> bool(table["best"].sum() == 1), bool((table["win_low"] <= table["win"]).all())
    (True, True)
    """
    from ..strategies.lineup import resolve_lineup
    from ..strategies.sampler import DealSampler
    from ..strategies.view import view_of

    if not isinstance(position, Position):
        raise refuse("position", "a Position (from ds.Position.from_deal or log.position(k))",
                     type(position).__name__)
    if method not in METHODS:
        raise refuse("method", "one of 'pimc', 'playout'", method)
    if not isinstance(budget, int) or budget < 1:
        raise refuse("budget", "a positive integer", budget)
    position = position.settled()
    if position.over or not position.opened:
        raise refuse("position", "a hand in progress after the opening",
                     "a finished hand" if position.over else "a hand before its opening")
    to_move = position.to_move
    if seat is None:
        seat = to_move
    if seat != to_move:
        raise refuse("seat", f"None or the seat to move ({to_move}): only it knows its own legal "
                     "moves", seat)
    state = position.state
    sampler = DealSampler(view_of(state, seat))
    rng = Stream(mix64(seed))
    moves = position.legal_moves()
    strategies = resolve_lineup(position.rules, continuation) if method == "playout" else None
    wins: list[list[float]] = []
    points: list[list[float]] = []
    separated = False
    while len(wins) < budget:
        for _ in range(min(BATCH, budget - len(wins))):
            hands, boneyard = sampler.sample(rng)
            if method == "pimc":
                world = copy.copy(state)
                world.hands, world.boneyard = hands, boneyard
                w = solve_state(world, moves, "win")[0] / 2
                p = solve_state(world, moves, "points")[0]
            else:
                w, p = _playout_values(_world(state, hands, boneyard), moves, strategies,
                                       rng.next64())
            wins.append(w)
            points.append(p)
        if len(moves) == 1:
            break
        if len(wins) >= MIN_SAMPLES:
            separated = _separated(np.array(wins))
            if separated:
                break
    return _frame(moves, np.array(wins, dtype=float), np.array(points, dtype=float), separated)


def _interval(values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n = values.shape[0]
    mean = values.mean(axis=0)
    half = Z95 * (values.std(axis=0, ddof=1) if n > 1 else np.zeros_like(mean)) / math.sqrt(n)
    return mean, mean - half, mean + half


def _separated(wins: np.ndarray) -> bool:
    mean, low, high = _interval(wins)
    best = int(np.argmax(mean))
    return bool(all(low[best] > high[m] for m in range(len(mean)) if m != best))


def _frame(moves, wins: np.ndarray, points: np.ndarray, separated: bool) -> pd.DataFrame:
    w, wl, wh = _interval(wins)
    p, pl, ph = _interval(points)
    best = max(range(len(moves)), key=lambda m: (w[m], p[m]))
    frame = pd.DataFrame({
        "move": [f"{m.tile[0]}-{m.tile[1]} on {m.suit}" for m in moves],
        "tile": [m.tile for m in moves], "suit": [m.suit for m in moves],
        "win": w, "win_low": wl, "win_high": wh,
        "points": p, "points_low": pl, "points_high": ph,
        "best": [m == best for m in range(len(moves))],
    })
    frame.attrs["samples"] = int(wins.shape[0])
    frame.attrs["separated"] = separated
    return frame
