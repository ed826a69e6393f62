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
import numbers
import threading
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from ..checks import check_choice, check_jobs, check_limit, check_memory, refuse
from ..progress import bar, want_progress
from ..reference.game import GameState
from ..rng import Stream, check_seed, mix64
from .bounds import scratch_bytes, stoppable
from .position import Position

METHODS = ("pimc", "playout", "epimc", "best")
Z95 = 1.959963984540054
BATCH = 50
"""Worlds between two checks of the stopping rule (per thread under ``pimc``)."""
MIN_SAMPLES = 100
PROGRESS_FROM = 1000
"""A progress bar is shown for budgets of this many worlds or more."""
MAX_WORLDS = 10_000_000
"""The largest ``budget``."""
DEFAULT_MAX_NODES = 200_000_000
"""The most solver nodes a sampled world may take by default (the ``pimc`` strategy's limit)."""
DEFAULT_MAX_MEMORY = 1 << 30
"""The most bytes an analysis's tables may take by default (1 GB)."""


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

    _idle: dict[tuple, list] = {}
    """Scratches no analysis is using, by shape; an analysis borrows its own (under
    :data:`_LOCK`), so analyses in several threads never share one."""
    _LOCK = threading.Lock()

    def __init__(self, state: GameState, seat: int, moves, seed: int, n_jobs: int,
                 max_nodes: int, models: tuple | None = None) -> None:
        from ..fast.core.board import MOVE_ROWS, MOVE_SUIT, MOVE_TILE, PUB_COLS
        from ..fast.core.params import rule_params
        from ..fast.core.shape import Shape
        from ..fast.search.solve import OBJ_POINTS, OBJ_WIN
        from ..records import max_events
        from ..strategies.search import position_board, reads_features, table_states
        from ..strategies.view import view_of
        from ..tiles import tile_id

        rules = self.rules = state.rules
        self.core, self.rp = Shape.searching(rules), rule_params(rules)
        self.pub = np.zeros((max_events(rules), PUB_COLS), dtype=np.int64)
        self.board, self.n_pub = position_board(view_of(state, seat), self.pub)
        self.moves = np.zeros((MOVE_ROWS, 2 * rules.n_tiles), dtype=np.int64)
        self.moves[MOVE_TILE, :len(moves)] = [tile_id(m.tile) for m in moves]
        self.moves[MOVE_SUIT, :len(moves)] = [m.suit for m in moves]
        self.n, self.seat, self.seed = len(moves), seat, np.uint64(mix64(seed))
        self.objectives = np.array([OBJ_WIN, OBJ_POINTS], dtype=np.int64)
        weighted = models is not None and reads_features(  # a model reads the features
            models[0], [int(s == seat) for s in range(rules.players)])
        self.key = key = (rules.n_tiles, rules.players, max_events(rules), weighted)
        with self._LOCK:
            idle = self._idle.setdefault(key, [])
            self.pool = [idle.pop() for _ in range(min(n_jobs, len(idle)))]
        while len(self.pool) < n_jobs:
            from ..fast.search.worlds import make_search_scratch

            self.pool.append(make_search_scratch(rules.n_tiles, rules.players, max_events(rules),
                                                 1, table_states(rules), TABLE_BITS, weighted))
        from ..fast.search.solve import C_CAP
        from ..fast.search.worlds import Decision, set_root
        from ..strategies.search import INFER_CANDIDATES

        self.max_nodes = max_nodes
        for ss in self.pool:
            ss.stack.ctl[C_CAP] = max_nodes
        from ..fast.search.infer import set_models

        codes, rows = models or (np.full(rules.players, -1, dtype=np.int64),
                                 np.zeros((rules.players, 0)))
        for ss in self.pool:
            set_models(codes, rows, seat, INFER_CANDIDATES, ss.infer)
        self.decision = Decision(seat, self.n, self.moves, self.board, self.pub, self.n_pub)
        # the consistent-deal table, once per thread (without the stack, as the searches pass
        # it: one compiled set_root for both, dominosim.fast.search.worlds.without_stack)
        self.status = min(int(set_root(self.rp, self.decision, False, ss._replace(stack=None),
                                       self.seed)) for ss in self.pool)

    def values(self, k0: int, k1: int) -> tuple[np.ndarray, np.ndarray]:
        """``(win, points)`` of every move in worlds ``k0 <= k < k1`` (a row per world)."""
        from ..fast.search.pimc import Worlds, world_values

        if self.status < 0:
            raise RuntimeError(_error(self.rules, self.status, self.max_nodes))
        out = np.zeros((k1 - k0, 2, self.n), dtype=np.int64)
        cuts = np.linspace(k0, k1, len(self.pool) + 1).astype(int)
        status = [0] * len(self.pool)

        def run(i: int) -> None:
            a, b = int(cuts[i]), int(cuts[i + 1])
            if b > a:  # each thread its own scratch and its own rows of the output
                worlds = Worlds(self.seed, a, b, self.objectives)
                status[i] = world_values(self.core, self.rp, self.decision, self.pool[i], worlds,
                                         out[a - k0:b - k0])

        self._on_threads(run, status)
        return out[:, 0, :] / 2, out[:, 1, :].astype(float)

    def epimc_values(self, budget: int) -> tuple[np.ndarray, np.ndarray]:
        """``(win, points)`` of every move in worlds ``0 <= k < budget`` under ``epimc``: in a
        world where the seat moves again, the value of the move its information set takes (the
        best total over the set's worlds).
        """
        from ..fast.search.epimc import EpimcWorlds, epimc_worlds

        if self.status < 0:
            raise RuntimeError(_error(self.rules, self.status, self.max_nodes))
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

        self._on_threads(run, status)
        return _taken(out, budget, n)

    def _on_threads(self, run: Callable[[int], None], status: list[int]) -> None:
        """Run ``run(i)`` for every scratch ``i`` of the pool, ``run(0)`` on this thread, the rest
        on their own (Ctrl-C stops them all); an error for the first negative ``status``.
        """

        def run_all() -> None:
            threads = [threading.Thread(target=run, args=(i,), daemon=True)
                       for i in range(1, len(self.pool))]
            for t in threads:
                t.start()
            run(0)
            for t in threads:
                t.join()

        stoppable(run_all, [ss.stack for ss in self.pool])
        bad = [s for s in status if s < 0]
        if bad:
            raise RuntimeError(_error(self.rules, bad[0], self.max_nodes))

    def release(self) -> None:
        """Give the scratches back for the next analysis."""
        with self._LOCK:
            self._idle.setdefault(self.key, []).extend(self.pool)
        self.pool = []


def _taken(out: Any, budget: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``(win, points)`` by world and move from ``epimc``'s lines: each information set takes the
    move of best total over its worlds.
    """
    from ..fast.search.solve import win_and_points

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
    win, points = win_and_points.py_func(taken)
    return win / 2, points


def _error(rules, status: int, max_nodes: int) -> str:
    """The message of a negative status of the analysis's worlds, with advice for the analysis
    (not for a strategy).
    """
    from ..fast.core.status import NO_DEAL, SOLVER_LIMIT
    from ..strategies.search import search_error

    if status == SOLVER_LIMIT:
        return (f"A sampled world needed more than {max_nodes:,} solver nodes (the value for "
                f"`max_nodes`; {rules.players} players, double-{rules.max_pip}): pass a larger "
                "`max_nodes` or method='playout' (ds.analyze and ds.review take both), or "
                "analyze a later position of the hand.")
    if status == NO_DEAL:
        return ("No deal of the hidden tiles agrees with this position's public history: the "
                "position cannot happen (a seat plays a suit it knocked on, or the tile counts "
                "do not add up).")
    return search_error(rules, status)


TABLE_BITS = 20
"""The solver's transposition table in a move analysis: ``2**20`` positions per thread (25 MB)."""


def analyze(position: Position, seat: int | None = None, *, method: str = "pimc",
            budget: int = 2000, seed: int = 0, continuation: Any = "random",
            precision: float | None = None, n_jobs: int | None = None,
            progress: bool | None = None, max_nodes: int = DEFAULT_MAX_NODES,
            max_memory: int | None = DEFAULT_MAX_MEMORY, inference: Any = None) -> pd.DataFrame:
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
        the ``"best"`` player (``dominosim.strategies.registry.unalias``), with its inference:
        when ``inference`` is None every seat is modelled as that player models a seat whose
        strategy it cannot replay (the shipped learned player's softmax policy).
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
    max_nodes : int
        The most solver nodes one sampled world may take under ``method='pimc'`` (per objective):
        a world past it stops the analysis with an error. The work of an analysis is at most
        ``budget * 2 * max_nodes`` nodes (a few million a second per thread).
    max_memory : int or None
        The most bytes the analysis's tables may take (a solver's table and a consistent-deal
        table per thread; default 1 GB; None: no limit), checked before it starts.
    inference : str, strategy or list, optional
        The strategies the other seats are known to play (one for every seat, or one per seat;
        ``None`` for a seat not modelled): each world is then drawn weighted by the likelihood of
        their past plays under those strategies. ``random``, the deterministic styles and the
        weighted players are modelled as they play; any other strategy (a search such as
        ``"ismcts:1000"``, a Python strategy) as the shipped learned player's softmax policy
        (:func:`dominosim.strategies.search.model_of`; see :mod:`dominosim.fast.search.infer`).
        Not with ``method='playout'``.

    Returns
    -------
    pandas.DataFrame
        One row per legal move (``move``, ``tile``, ``suit``), with ``win`` and ``points`` (the
        means), ``win_low``/``win_high`` and ``points_low``/``points_high`` (95% intervals),
        ``best`` (the move of highest ``win``, then ``points``); ``attrs["samples"]`` is the
        number of samples used and ``attrs["separated"]`` whether the best move's interval
        separated from every other's.

    Notes
    -----
    Ctrl-C stops an analysis within a fraction of a second (``KeyboardInterrupt``). Analyses in
    several threads at once are safe: each borrows its own tables.

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
    check_choice("method", method, METHODS)
    if method == "best":
        from ..strategies.registry import unalias
        from ..strategies.search import SearchStrategy

        best = SearchStrategy.from_name(unalias("best"))
        method = best.kind
        if inference is None and best.infer:  # the best player's view of seats it cannot replay
            inference = best
    budget = check_limit("budget", budget, 1, MAX_WORLDS)
    check_seed(seed)
    max_nodes = check_limit("max_nodes", max_nodes)
    if max_memory is not None:
        check_limit("max_memory", max_memory)
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, numbers.Integral)):
        raise refuse("seat", "None or the seat to move (an integer)", seat)
    if precision is not None and (isinstance(precision, bool) or
                                  not isinstance(precision, (int, float)) or
                                  not 0 < precision < 1):
        raise refuse("precision", "None or a number between 0 and 1", precision)
    jobs = check_jobs(n_jobs)
    position.check_known("analyze", position.to_move)
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
    worlds = None
    if method in ("pimc", "epimc"):
        check_memory("max_memory", jobs * scratch_bytes(position.rules, TABLE_BITS), max_memory,
                     f"an analysis on {jobs} threads (n_jobs)")
        worlds = _Worlds(state, int(seat), moves, seed, jobs, max_nodes, models)
    if method == "epimc":
        assert worlds is not None
        try:
            wins, points = worlds.epimc_values(budget)
        finally:
            worlds.release()
        return _frame(moves, wins, points, _separated(wins) if budget > 1 else False)
    if worlds is not None:
        pimc_worlds = worlds

        def more(k: int, batch: int) -> tuple[np.ndarray, np.ndarray]:
            return pimc_worlds.values(k, k + batch)
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

    batch = BATCH * (jobs if method == "pimc" else 1)
    show = want_progress(progress, work=budget, long=PROGRESS_FROM)
    try:
        wins, points, separated = _sample(more, budget, batch, len(moves), precision, show)
    finally:
        if worlds is not None:
            worlds.release()
    return _frame(moves, wins, points, separated)


def _sample(more, budget: int, batch: int, n_moves: int, precision: float | None,
            show: bool) -> tuple[np.ndarray, np.ndarray, bool]:
    """Batches of worlds until the stopping rule holds or ``budget`` is spent."""
    wins = np.zeros((0, n_moves))
    points = np.zeros((0, n_moves))
    separated = False
    with bar(total=budget, desc="analyze", unit="world", show=show) as shown:
        while len(wins) < budget:
            w, p = more(len(wins), min(batch, budget - len(wins)))
            wins, points = np.vstack([wins, w]), np.vstack([points, p])
            shown.update(len(w))
            if n_moves == 1 and precision is None:
                break
            if len(wins) >= MIN_SAMPLES:
                separated = _separated(wins)
                if (precision is None and separated) or \
                        (precision is not None and _precise(wins, precision)):
                    break
    return wins, points, separated


def _models(rules: Any, inference: Any) -> tuple[np.ndarray, np.ndarray] | None:
    """The models of an analysis's ``inference`` (one per seat: codes and weighted rows), or
    None.
    """
    from ..strategies.lineup import resolve
    from ..strategies.search import model_arrays

    if inference is None:
        return None
    allowed = (f"None, a strategy or one per seat ({rules.players}: None, 'random', a style such "
               "as 'bully', 'learned', a search such as 'ismcts:1000', a ds.Weighted player)")
    single = not isinstance(inference, (list, tuple))
    if not single and len(inference) != rules.players:
        raise refuse("inference", allowed, inference)
    try:  # each entry resolved once (a "file:" player is read once)
        resolved = [None if s is None else resolve(s)
                    for s in ([inference] if single else inference)]
    except ValueError:
        raise refuse("inference", allowed, inference) from None
    return model_arrays(rules, resolved * rules.players if single else resolved)


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
