"""Move analysis: every legal move's value from what one seat can see, with 95% intervals.

The hidden tiles (the other hands, and the boneyard with its order) are sampled exactly uniformly
from the deals consistent with everything the seat has seen (the consistent-deal sampler the search
strategies use). Each sample is a world with every tile known; in it each legal move is valued

* ``method="pimc"`` (perfect-information Monte Carlo): by the perfect-information solver
  (:func:`dominosim.solve`), every seat then playing perfectly with every tile known. The worlds
  are drawn and solved by the compiled ``pimc`` search (:mod:`dominosim.fast.search.pimc`), world ``k``
  from its own stream, on ``n_jobs`` threads: the values do not depend on the number of threads;
* ``method="playout"``: by playing the hand out once with the ``continuation`` line-up (any
  strategy name or line-up :func:`dominosim.simulate` takes) in the reference engine (worlds from
  :class:`dominosim.strategies.sampler.DealSampler`).

A move's value is its mean over the samples, for ``win`` (the win rate of the seat's side, a tie
counted as half) and ``points`` (the points the side scores, negative when it loses), with a 95%
normal interval. Every move is valued on the same samples. Sampling stops when the best move's
interval (for ``win``) no longer overlaps any other move's, or, with ``precision``, when every
move's ``win`` interval is within ``+-precision``; in any case when ``budget`` samples are spent.
"""

from __future__ import annotations

import copy
import math
import threading
from typing import Any

import numpy as np
import pandas as pd

from ..checks import check_jobs, refuse
from ..progress import bar, want_progress
from ..reference.game import GameState
from ..rng import Stream, mix64
from .position import Position

METHODS = ("pimc", "playout", "epimc", "best")
Z95 = 1.959963984540054
BATCH = 50
"""Worlds between two checks of the stopping rule (per thread under ``pimc``)."""
MIN_SAMPLES = 100
PROGRESS_FROM = 1000
"""A progress bar is shown for budgets of this many worlds or more."""


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
        won, scored = state.winning_side, state.points
        assert won is not None and scored is not None  # every tile of a world is known
        wins.append(0.5 if won < 0 else float(won == side))
        points.append(0 if won < 0 else (scored if won == side else -scored))
    return wins, points


class _Worlds:
    """The compiled ``pimc`` worlds of one analysis: the position's arrays and a search scratch
    with a solver's stack per thread (kept between analyses of the same rules).
    """

    _scratch: dict[tuple, list] = {}

    def __init__(self, state: GameState, seat: int, moves, seed: int, n_jobs: int,
                 models: np.ndarray | None = None) -> None:
        from ..fast.core.board import PUB_COLS
        from ..fast.core.params import rule_params
        from ..fast.core.shape import Shape
        from ..fast.search.solve import OBJ_POINTS, OBJ_WIN
        from ..records import max_events
        from ..strategies.search import position_board, table_states
        from ..strategies.view import view_of
        from ..tiles import tile_id

        rules = self.rules = state.rules
        self.core, self.rp = Shape.searching(rules), rule_params(rules)
        self.pub = np.zeros((max_events(rules), PUB_COLS), dtype=np.int64)
        self.board, self.n_pub = position_board(view_of(state, seat), self.pub)
        self.moves = np.zeros((2, 2 * rules.n_tiles), dtype=np.int64)
        self.moves[0, :len(moves)] = [tile_id(m.tile) for m in moves]
        self.moves[1, :len(moves)] = [m.suit for m in moves]
        self.n, self.seat, self.seed = len(moves), seat, np.uint64(mix64(seed))
        self.objectives = np.array([OBJ_WIN, OBJ_POINTS], dtype=np.int64)
        key = (rules.n_tiles, rules.players, max_events(rules))
        pool = self._scratch.setdefault(key, [])
        while len(pool) < n_jobs:
            from ..fast.search.worlds import make_search_scratch

            pool.append(make_search_scratch(rules.n_tiles, rules.players, max_events(rules), 1,
                                            table_states(rules), TABLE_BITS))
        self.pool = pool[:n_jobs]
        from ..fast.search.infer import set_models
        from ..fast.search.worlds import Decision, set_root
        from ..strategies.search import INFER_CANDIDATES

        if models is None:
            models = np.full(rules.players, -1, dtype=np.int64)
        for ss in self.pool:
            set_models(models, seat, INFER_CANDIDATES, ss.infer)
        self.decision = Decision(seat, self.n, self.moves, self.board, self.pub, self.n_pub)
        # the consistent-deal table, once per thread
        self.status = min(int(set_root(self.rp, self.decision, False, ss, self.seed))
                          for ss in self.pool)

    def values(self, k0: int, k1: int) -> tuple[np.ndarray, np.ndarray]:
        """``(win, points)`` of every move in worlds ``k0 <= k < k1`` (a row per world)."""
        from ..fast.search.pimc import Worlds, world_values
        from ..strategies.search import search_error

        if self.status < 0:
            raise RuntimeError(search_error(self.rules, self.status))
        out = np.zeros((k1 - k0, 2, self.n), dtype=np.int64)
        cuts = np.linspace(k0, k1, len(self.pool) + 1).astype(int)
        status = [0] * len(self.pool)

        def run(i: int) -> None:
            a, b = int(cuts[i]), int(cuts[i + 1])
            if b > a:  # each thread its own scratch and its own rows of the output
                worlds = Worlds(self.seed, a, b, self.objectives)
                status[i] = world_values(self.core, self.rp, self.decision, self.pool[i], worlds,
                                         out[a - k0:b - k0])

        threads = [threading.Thread(target=run, args=(i,), daemon=True)
                   for i in range(1, len(self.pool))]
        for t in threads:
            t.start()
        run(0)
        for t in threads:
            t.join()
        bad = [s for s in status if s < 0]
        if bad:
            raise RuntimeError(search_error(self.rules, bad[0]))
        return out[:, 0, :] / 2, out[:, 1, :].astype(float)

    def epimc_values(self, budget: int) -> tuple[np.ndarray, np.ndarray]:
        """``(win, points)`` of every move in worlds ``0 <= k < budget`` under ``epimc``: in a
        world where the seat moves again, the value of the move its information set takes (the
        best total over the set's worlds).
        """
        from ..fast.search.epimc import EpimcWorlds, epimc_worlds
        from ..fast.search.solve import WIN_UNIT
        from ..strategies.search import search_error

        if self.status < 0:
            raise RuntimeError(search_error(self.rules, self.status))
        n, width = self.n, self.moves.shape[1]
        out = EpimcWorlds(np.zeros((budget, n), np.int64), np.zeros((budget, n), np.int64),
                          np.zeros((budget, n, width)), self.moves)
        cuts = np.linspace(0, budget, len(self.pool) + 1).astype(int)
        status = [0] * len(self.pool)

        def run(i: int) -> None:
            a, b = int(cuts[i]), int(cuts[i + 1])
            if b > a:
                part = EpimcWorlds(out.keys[a:b], out.counts[a:b], out.values[a:b], self.moves)
                status[i] = epimc_worlds(self.core, self.rp, self.seat, self.board, self.pool[i],
                                         self.seed, a, part)

        threads = [threading.Thread(target=run, args=(i,), daemon=True)
                   for i in range(1, len(self.pool))]
        for t in threads:
            t.start()
        run(0)
        for t in threads:
            t.join()
        bad = [s for s in status if s < 0]
        if bad:
            raise RuntimeError(search_error(self.rules, bad[0]))
        taken = np.zeros((budget, n))
        for m in range(n):
            sets: dict[int, list[int]] = {}
            for k in range(budget):
                if out.counts[k, m] == 0:
                    taken[k, m] = out.values[k, m, 0]
                else:
                    sets.setdefault(int(out.keys[k, m]), []).append(k)
            for ks in sets.values():
                c = int(out.counts[ks[0], m])
                best = int(np.argmax(out.values[ks, m, :c].sum(axis=0)))
                taken[ks, m] = out.values[ks, m, best]
        win = np.floor((taken + WIN_UNIT // 2) / WIN_UNIT)
        return win / 2, taken - win * WIN_UNIT


TABLE_BITS = 20
"""The solver's transposition table in a move analysis: ``2**20`` positions per thread (25 MB)."""


def analyze(position: Position, seat: int | None = None, *, method: str = "pimc",
            budget: int = 2000, seed: int = 0, continuation: Any = "random",
            precision: float | None = None, n_jobs: int | None = None,
            progress: bool | None = None, inference: Any = None) -> pd.DataFrame:
    """Every legal move of the seat to move, valued from what ``seat`` can see.

    Parameters
    ----------
    position : Position
        A hand in progress (a seat that must draw or knock does so first).
    seat : int, optional
        The seat whose knowledge is used: the seat to move (the default; another seat does not
        know the moves it has).
    method : {'pimc', 'playout', 'epimc', 'best'}
        Value each sampled world by the perfect-information solver, or by one play-out with
        ``continuation``, or as the ``epimc`` strategy does (the seat's next decision taken once
        per information set over all ``budget`` worlds: no early stop); ``'best'``: the method of
        the ``"best"`` player (``dominosim.strategies.registry.ALIASES``).
    budget : int
        The most samples of the hidden tiles (at least 1).
    seed : int
        Seeds the sampling (and the play-outs).
    continuation : str or list
        The line-up that finishes the hand under ``method='playout'``.
    precision : float, optional
        Stop only when every move's ``win`` interval is within ``+-precision`` (or ``budget`` is
        spent) instead of when the best move's interval separates.
    n_jobs : int, optional
        Threads solving worlds under ``method='pimc'`` (default: every core numba may use).
    progress : bool, optional
        Show a progress bar (default: for budgets of 1,000 worlds or more, in Jupyter or on a
        terminal).
    inference : str or list, optional
        The strategies the other seats are known to play (one name for every seat, or one per
        seat; ``None`` for a seat not modelled): each world is then drawn weighted by the
        likelihood of their past plays under those strategies (``random`` and the deterministic
        styles are modelled; see :mod:`dominosim.fast.search.infer`). Not with
        ``method='playout'``.

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
        raise refuse("method", "one of 'pimc', 'playout', 'epimc', 'best'", method)
    if method == "best":
        from ..strategies.registry import ALIASES
        from ..strategies.search import SearchStrategy

        method = SearchStrategy.from_name(ALIASES["best"]).kind
    if not isinstance(budget, int) or budget < 1:
        raise refuse("budget", "a positive integer", budget)
    if precision is not None and (isinstance(precision, bool) or
                                  not isinstance(precision, (int, float)) or
                                  not 0 < precision < 1):
        raise refuse("precision", "None or a number between 0 and 1", precision)
    jobs = check_jobs(n_jobs)
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
    moves = position.legal_moves()
    models = _models(position.rules, inference)
    if models is not None and method == "playout":
        raise refuse("inference", "None with method='playout'", inference)
    if method == "epimc":
        worlds = _Worlds(state, seat, moves, seed, jobs, models)
        wins, points = worlds.epimc_values(budget)
        return _frame(moves, wins, points, _separated(wins) if budget > 1 else False)
    if method == "pimc":
        worlds = _Worlds(state, seat, moves, seed, jobs, models)

        def more(k: int, batch: int) -> tuple[np.ndarray, np.ndarray]:
            return worlds.values(k, k + batch)
    else:
        sampler = DealSampler(view_of(state, seat))
        rng = Stream(mix64(seed))
        strategies = resolve_lineup(position.rules, continuation)

        def more(k: int, batch: int) -> tuple[np.ndarray, np.ndarray]:
            rows = []
            for _ in range(batch):
                hands, boneyard = sampler.sample(rng)
                rows.append(_playout_values(_world(state, hands, boneyard), moves, strategies,
                                            rng.next64()))
            return (np.array([w for w, _ in rows], dtype=float),
                    np.array([p for _, p in rows], dtype=float))

    wins = np.zeros((0, len(moves)))
    points = np.zeros((0, len(moves)))
    separated = False
    batch = BATCH * (jobs if method == "pimc" else 1)
    show = want_progress(progress, work=budget, long=PROGRESS_FROM)
    with bar(total=budget, desc="analyze", unit="world", show=show) as shown:
        while len(wins) < budget:
            w, p = more(len(wins), min(batch, budget - len(wins)))
            wins, points = np.vstack([wins, w]), np.vstack([points, p])
            shown.update(len(w))
            if len(moves) == 1 and precision is None:
                break
            if len(wins) >= MIN_SAMPLES:
                separated = _separated(wins)
                if (precision is None and separated) or \
                        (precision is not None and _precise(wins, precision)):
                    break
    return _frame(moves, wins, points, separated)


def _models(rules: Any, inference: Any) -> np.ndarray | None:
    """The model codes of an analysis's ``inference`` (one per seat), or None."""
    from ..strategies.registry import STRATEGY_CODES
    from ..strategies.search import model_code

    if inference is None:
        return None
    seats = [inference] * rules.players if isinstance(inference, str) else list(inference) \
        if isinstance(inference, (list, tuple)) and len(inference) == rules.players else None
    if seats is None or any(s is not None and (not isinstance(s, str) or s not in STRATEGY_CODES
                                               or model_code(s) < 0) for s in seats):
        raise refuse("inference", f"None, a strategy name or one per seat ({rules.players}: None, "
                     "'random' or a deterministic style such as 'bully')", inference)
    return np.array([-1 if s is None else model_code(s) for s in seats], dtype=np.int64)


def _interval(values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n = values.shape[0]
    mean = values.mean(axis=0)
    half = Z95 * (values.std(axis=0, ddof=1) if n > 1 else np.zeros_like(mean)) / math.sqrt(n)
    return mean, mean - half, mean + half


def _precise(wins: np.ndarray, precision: float) -> bool:
    mean, low, high = _interval(wins)
    return bool(((high - mean) <= precision).all())


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
