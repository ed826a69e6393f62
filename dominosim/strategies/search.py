"""Search strategies: determinized Monte Carlo (``mc``), information-set MCTS (``ismcts``) and
perfect-information Monte Carlo (``pimc``).

All sample the tiles they cannot see uniformly from the deals consistent with everything public
(hand sizes, plays, knocks, draws: :mod:`dominosim.strategies.sampler`, compiled in
:mod:`dominosim.fast.search.consistent`). ``mc`` and ``ismcts`` play positions out with uniform random
players and maximise the probability that their side wins the hand (a tie counted as half a win);
``pimc`` solves each sampled world exactly (:mod:`dominosim.fast.search.pimc`) and plays the move of best
mean ``win`` value, then points. The omniscient variants
``mc_omniscient`` and ``ismcts_omniscient`` see the true hands instead (the boneyard's order stays
unknown to them): they exist only for value-of-information experiments.

Name them with their budget, ``"mc:200"`` (playouts per legal move, default 100),
``"ismcts:2000"`` (iterations, default 1000) or ``"pimc:20"`` (sampled worlds, default 50), or
build them: ``MonteCarlo(playouts=200)``, ``ISMCTS(iterations=2000, omniscient=True)``,
``PIMC(samples=20)``. Every decision draws one number from the seat's
stream and seeds the whole search with it, so hands replay exactly. The search itself is compiled
(:mod:`dominosim.fast.search.search`) and the same function serves both engines: the reference engine
builds its arrays from the :class:`~dominosim.strategies.SeatView`, the compiled engine from its
own state, so a search strategy plays the same moves in both. Under ``opening='any'`` the leader
leads its heaviest tile, as the deterministic built-ins do.

Examples
--------
>>> import dominosim as ds
>>> rules = ds.Rules.preset("block", players=4)
>>> hands = ds.simulate(rules, ["mc:20", "random", "mc:20", "random"], n_hands=40, seed=1)
>>> same = ds.simulate(rules, [MonteCarlo(playouts=20), "random"] * 2, n_hands=40, seed=1,
...                    engine="reference")
>>> hands.equals(same)
True
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..checks import DEFAULT_MAX_MEMORY, check_limit, check_memory
from ..records import max_events
from ..reference.game import Move, layouts_before, playable_suits
from ..rng import Stream
from ..rules import Rules
from ..tiles import tile_id
from .registry import METHODS
from .styles import heaviest_move
from .view import SeatView

KINDS = {name: number for number, name in enumerate(METHODS)}
"""The search methods by name, as the registry numbers them (:data:`~.registry.METHODS`)."""
DEFAULT_BUDGET = {"mc": 100, "ismcts": 1000, "pimc": 50, "epimc": 10}
MAX_BUDGET = {"mc": 100_000, "ismcts": 1_000_000, "pimc": 100_000, "epimc": 1000}
"""The largest budgets: 100,000 playouts per legal move (about half a second a decision),
1,000,000 iterations (a tree of about 150 MB per thread, seconds a decision) and 100,000 solved
worlds (minutes a decision early in a hand), 1,000 ``epimc`` worlds (each solved once per reply
and next move)."""
BUDGET_NAMES = {"mc": "playouts", "ismcts": "iterations", "pimc": "samples", "epimc": "samples"}
SET_MOVES = 2 * 136
"""``epimc`` keeps, per sampled world, one information set of at most this many moves (twice the
tiles of the largest set)."""
INFER_CANDIDATES = 16
"""Candidate worlds per world kept by ``+infer`` (sampling-importance-resampling,
:mod:`dominosim.fast.search.infer`); ``+infer:C`` sets another number."""
MAX_CANDIDATES = 1024
TABLE_BITS = 18
"""``pimc``'s transposition table holds ``2**18`` positions per thread (6.5 MB)."""
TABLE_STATES = 1 << 20
"""The sampler's table keeps at most this many states over all its layers (16 MiB)."""


def table_states(rules: Rules) -> int:
    """How many states the consistent-deal table of a search may keep under ``rules``."""
    return TABLE_STATES


class SearchStrategy:
    """A search strategy (see the module documentation); use :class:`MonteCarlo` or
    :class:`ISMCTS`, or a name such as ``"mc:200"``.

    Parameters
    ----------
    kind : {'mc', 'ismcts', 'pimc', 'epimc'}
    budget : int, optional
        Playouts per legal move (``mc``), iterations (``ismcts``) or sampled worlds (``pimc``,
        ``epimc``).
    omniscient : bool
        See the true hidden hands (value-of-information experiments only; not ``pimc`` or
        ``epimc``).
    infer : int
        Inference (``+infer``): each world is kept from ``infer`` candidates weighted by the
        likelihood of the other seats' past plays under their known strategies (the line-up is
        public: ``random``, the styles and weighted players are modelled as they play; a search, a
        plug-in or a Python strategy as the shipped learned player's softmax policy,
        :func:`model_of`). 0: off.
    max_memory : int or None
        The most bytes the search's arrays may take in each thread that plays hands (default
        1 GB; None: no limit), checked before the first hand (:meth:`check_bounds`).
    max_nodes : int, optional
        ``pimc`` and ``epimc``: the most solver nodes of one sampled world (default
        :data:`~dominosim.fast.search.pimc.WORLD_NODES`, 200 million); a world past it stops the
        run with a one-line error.
    """

    def __init__(self, kind: str, budget: int | None = None, omniscient: bool = False,
                 infer: int = 0, *, max_memory: int | None = DEFAULT_MAX_MEMORY,
                 max_nodes: int | None = None) -> None:
        if not isinstance(kind, str) or kind not in KINDS:
            raise ValueError(f"The value for `kind` must be one of 'mc', 'ismcts', 'pimc', 'epimc', "
                             f"but {kind!r} was passed.")
        if budget is None:
            budget = DEFAULT_BUDGET[kind]
        if isinstance(budget, bool) or not isinstance(budget, (int, np.integer)) or \
                not 1 <= budget <= MAX_BUDGET[kind]:
            what = BUDGET_NAMES[kind]
            raise ValueError(f"The value for `{what}` must be an integer from 1 to "
                             f"{MAX_BUDGET[kind]:,} (the cap dominosim.strategies.search.MAX_BUDGET"
                             f"[{kind!r}]), but {budget!r} was passed.")
        solves = kind in ("pimc", "epimc")
        if not isinstance(omniscient, bool) or (omniscient and solves):
            allowed = f"False for {kind!r} (it solves sampled worlds)" if solves else \
                "True or False"
            raise ValueError(f"The value for `omniscient` must be {allowed}, but "
                             f"{omniscient!r} was passed.")
        if isinstance(infer, bool) or not isinstance(infer, (int, np.integer)) or \
                not 0 <= infer <= MAX_CANDIDATES or (infer and omniscient):
            raise ValueError(f"The value for `infer` must be an integer from 0 to {MAX_CANDIDATES} "
                             "(candidate worlds per world; 0 for an omniscient search), but "
                             f"{infer!r} was passed.")
        if max_memory is not None:
            check_limit("max_memory", max_memory)
        if max_nodes is not None:
            if not solves:
                raise ValueError(f"The value for `max_nodes` must be None for {kind!r} (it "
                                 f"solves no world), but {max_nodes!r} was passed.")
            check_limit("max_nodes", max_nodes)
        self.kind, self.budget, self.omniscient = kind, int(budget), omniscient
        self.infer = int(infer)
        self.max_memory = None if max_memory is None else int(max_memory)
        self.max_nodes = None if max_nodes is None else int(max_nodes)
        self.builtin = f"{kind}_omniscient" if omniscient else kind
        self.name = f"{self.builtin}:{self.budget}" + infer_suffix(self.infer)
        self.lineup: tuple[Any, ...] = ()
        self._scratch: dict[tuple[Rules, bool], tuple] = {}
        self._models: dict[Rules, tuple[np.ndarray, np.ndarray]] = {}
        self._lock = threading.Lock()

    def bound(self, lineup: Sequence[Any]) -> SearchStrategy:
        """The search with the ``lineup`` it models the other seats by (strategy objects or
        names, one per seat; :func:`model_of`): a copy, or itself when it does not infer.
        """
        if not self.infer:
            return self
        bound = copy.copy(self)  # with its own arrays and lock (see __getstate__)
        bound.lineup = tuple(lineup)
        return bound

    @classmethod
    def from_name(cls, spec: str) -> SearchStrategy:
        """``"mc"``, ``"mc:200"``, ``"ismcts_omniscient:500"``, ``"pimc:50+infer"``,
        ``"ismcts+infer:32"`` and so on.
        """
        head, plus, suffix = spec.partition("+")
        name, _, budget = head.partition(":")
        omniscient = name.endswith("_omniscient")
        kind = name.removesuffix("_omniscient")
        what, _, candidates = suffix.partition(":")
        if kind not in KINDS or not _digits(budget) or \
                (omniscient and kind in ("pimc", "epimc")) or \
                (plus and (what != "infer" or omniscient or not _digits(candidates))):
            raise ValueError(
                "The value for `strategies` must name a search strategy as 'mc', 'ismcts', "
                "'mc_omniscient', 'ismcts_omniscient', 'pimc' or 'epimc', optionally with "
                "':<budget>' (a positive integer) and, but for the omniscient ones, '+infer' or "
                f"'+infer:<candidates>', but {spec!r} was passed.")
        infer = (int(candidates) if candidates else INFER_CANDIDATES) if plus else 0
        return cls(kind, int(budget) if budget else None, omniscient, infer)

    @property
    def nodes(self) -> int:
        """The size of the search tree (``ismcts``), of the information sets' arrays (``epimc``);
        1 otherwise.
        """
        if self.kind == "epimc":
            return self.budget * SET_MOVES
        return self.budget + 1 if self.kind == "ismcts" else 1

    @property
    def table_bits(self) -> int:
        """The solver's transposition table size as a power of two (``pimc``, ``epimc``; 0: no
        solver).
        """
        return TABLE_BITS if self.kind in ("pimc", "epimc") else 0

    def memory(self, rules: Rules) -> int:
        """The bytes of the search's arrays (one thread's) under ``rules``: its tree, its table of
        consistent deals, its solver's table and the rest, counted without allocating them.
        """
        from ..fast.search.worlds import scratch_bytes

        return scratch_bytes(rules.n_tiles, rules.players, max_events(rules), self.nodes,
                             table_states(rules), self.table_bits)

    def check_bounds(self, rules: Rules, need: int | None = None, threads: int = 1) -> None:
        """Refuse, in one line, a search whose arrays under ``rules`` (``need`` bytes a thread,
        by default :meth:`memory`) on ``threads`` threads would pass ``max_memory``.

        Examples
        --------
        >>> import dominosim as ds
        >>> ISMCTS(100_000, max_memory=5_000_000).check_bounds(ds.Rules.preset("block"))
        Traceback (most recent call last):
        ...
        ValueError: The value for `max_memory` (5 MB) is too small: the 'ismcts:100000' search's arrays on 1 thread needs 23 MB; pass a larger `max_memory` or a smaller budget.
        """
        need = self.memory(rules) if need is None else need
        check_memory("max_memory", threads * need, self.max_memory,
                     f"the {self.name!r} search's arrays on {threads} "
                     f"thread{'s' if threads > 1 else ''}", "a smaller budget")

    def __repr__(self) -> str:
        """The strategy's name, as a line-up writes it."""
        return f"SearchStrategy({self.name!r})"

    def __getstate__(self) -> dict:
        """What a pickle or a copy keeps: the strategy, not its arrays and models (rebuilt on
        first use) or its lock.
        """
        return {k: v for k, v in self.__dict__.items()
                if k not in ("_scratch", "_models", "_lock")}

    def __setstate__(self, state: dict) -> None:
        """A strategy from its pickle or a copy, with new arrays, models and lock."""
        self.__dict__.update(state, _scratch={}, _models={}, _lock=threading.Lock())

    def _arrays(self, rules: Rules, weighted: bool = False) -> tuple:
        """The search's arrays and a public log for ``rules`` (``weighted``: with the table of a
        weighted model's features), made on first use.
        """
        if (rules, weighted) not in self._scratch:
            from ..fast.core.board import PUB_COLS
            from ..fast.search.solve import C_CAP
            from ..fast.search.worlds import make_search_scratch

            self.check_bounds(rules)
            ss = make_search_scratch(rules.n_tiles, rules.players, max_events(rules), self.nodes,
                                     table_states(rules), self.table_bits, weighted)
            if self.max_nodes is not None:
                ss.stack.ctl[C_CAP] = self.max_nodes
            self._scratch[rules, weighted] = (ss, np.zeros((max_events(rules), PUB_COLS),
                                                           dtype=np.int64))
        return self._scratch[rules, weighted]

    def choose(self, view: SeatView, moves: Sequence[Move], rng: Stream) -> Move:
        """The move whose sampled play-outs score best (the lead under ``opening='any'``: as ``bully``)."""
        if moves[0].suit < 0:  # the lead under opening='any'
            return max(moves, key=heaviest_move)
        from ..fast.core.board import MOVE_ROWS, MOVE_SUIT, MOVE_TILE
        from ..fast.core.params import rule_params
        from ..fast.core.shape import Shape
        from ..fast.search.infer import set_models
        from ..fast.search.search import Budget, Decision, decide

        rules = view.rules
        n = len(moves)
        move_arr = np.zeros((MOVE_ROWS, 2 * rules.n_tiles), dtype=np.int64)
        move_arr[MOVE_TILE, :n] = [tile_id(m.tile) for m in moves]
        move_arr[MOVE_SUIT, :n] = [m.suit for m in moves]
        if rules not in self._models:  # its line-up's models, once per rules (about 30 us)
            self._models[rules] = model_arrays(rules, self.lineup or [None] * rules.players)
        models, rows = self._models[rules]
        budget = Budget(KINDS[self.kind], self.omniscient, self.budget)
        state = np.array([rng._state], dtype=np.uint64)
        with self._lock:  # one object's arrays serve one decision at a time (threads share it)
            infer = [self.infer if s == view.seat else 0 for s in range(rules.players)]
            ss, pub = self._arrays(rules, reads_features(models, infer))
            board, n_pub = position_board(view, pub, self.omniscient)
            set_models(models, rows, view.seat, self.infer, ss.infer)
            decision = Decision(view.seat, n, move_arr, board, pub, n_pub)
            k = int(decide(Shape.searching(rules), rule_params(rules), budget, decision, ss,
                           state))
        rng._state = int(state[0])
        if k < 0:
            raise RuntimeError(search_error(rules, k, self.max_nodes))
        return moves[k]


def position_board(view: SeatView, pub: np.ndarray, omniscient: bool = False) -> tuple:
    """The position as the compiled search reads it: a :class:`~dominosim.fast.core.board.Board` and
    the length of the public log written into ``pub``. Only an ``omniscient`` view's hidden hands
    and boneyard are filled in.
    """
    from ..fast.core.board import board_of

    rules = view.rules
    known = {view.seat: view.hand}
    bone: Sequence[tuple[int, int]] = ()
    if omniscient:
        if view.hidden is None:
            raise ValueError("An omniscient strategy needs the hidden hands (SeatView.hidden), "
                             "but the engine did not give them.")
        all_hands, bone = view.hidden
        known = dict(enumerate(all_hands))
    n_pub = public_log(view, pub)
    first = next(e for e in view.history if e.kind == "play")
    board = board_of(rules.players, rules.n_tiles,
                     {seat: [tile_id(x) for x in hand] for seat, hand in known.items()},
                     [(suit, i < len(view.layout) and view.layout[i].empty_arm)
                      for i, suit in enumerate(view.ends)],
                     [tile_id(x) for x in bone], counts=view.tile_counts,
                     open_suit=first.ends[0], bone_end=view.boneyard_size, seat=view.seat)
    return board, n_pub


def search_error(rules: Rules, status: int, max_nodes: int | None = None) -> str:
    """The message for a search's status, negated (:mod:`dominosim.fast.core.status`);
    ``max_nodes`` the node limit of a sampled world, when not the default.
    """
    from ..fast.core.status import NO_METHOD, NO_RULE, SOLVER_LIMIT, TOO_MANY_STATES

    if status == TOO_MANY_STATES:
        return (f"A search strategy's table of consistent deals would need more than "
                f"{table_states(rules):,} states in this position ({rules.players} players, "
                f"double-{rules.max_pip}): too many seats and draws to count exactly; use fewer "
                "players or a smaller set, or a strategy that does not search.")
    if status == NO_RULE:
        return (f"The compiled engine has no rule for a code of these rules (opening="
                f"{rules.opening!r}, draw={rules.draw!r}, end={rules.end!r}, "
                f"scoring={rules.scoring!r}); each code needs its decider in fast/core/turn.py.")
    if status == NO_METHOD:
        return "The compiled engine has no search for this strategy's method (a bug in dominosim)."
    if status == SOLVER_LIMIT:
        from ..fast.search.pimc import WORLD_NODES

        return (f"A sampled world of the 'pimc' or 'epimc' strategy needed more than "
                f"{max_nodes or WORLD_NODES:,} solver nodes (its `max_nodes`; {rules.players} "
                f"players, double-{rules.max_pip}): too large to solve exactly; use 'mc' or "
                "'ismcts' for this game, or a larger `max_nodes`.")
    return "No deal agrees with the public history of this hand (a bug in dominosim)."


def MonteCarlo(playouts: int = 100, omniscient: bool = False, *,
               max_memory: int | None = DEFAULT_MAX_MEMORY) -> SearchStrategy:
    """Determinized Monte Carlo: every legal move played out ``playouts`` times on consistent
    deals (common to all moves); the best mean result for its side wins. ``max_memory``: the
    most bytes of its arrays per thread (:class:`SearchStrategy`).

    Examples
    --------
    >>> MonteCarlo(playouts=50).name
    'mc:50'
    """
    return SearchStrategy("mc", playouts, omniscient, max_memory=max_memory)


def ISMCTS(iterations: int = 1000, omniscient: bool = False, *,
           max_memory: int | None = DEFAULT_MAX_MEMORY) -> SearchStrategy:
    """Single-observer information-set MCTS with ``iterations`` iterations (UCB1 with
    availability counts, exploration 0.7); the root move visited most wins. ``max_memory``: the
    most bytes of its arrays per thread (:class:`SearchStrategy`; its tree takes 72 bytes an
    iteration).

    Examples
    --------
    >>> ISMCTS(iterations=500, omniscient=True).name
    'ismcts_omniscient:500'
    """
    return SearchStrategy("ismcts", iterations, omniscient, max_memory=max_memory)


def PIMC(samples: int = 50, *, max_memory: int | None = DEFAULT_MAX_MEMORY,
         max_nodes: int | None = None) -> SearchStrategy:
    """Perfect-information Monte Carlo with ``samples`` sampled worlds per decision: each world
    (a deal of the hidden tiles, uniform among those consistent with the seat's view) is solved
    exactly with every tile known (the solver of :func:`dominosim.solve`, every seat playing to
    win, then for points), and the move of best mean ``win`` value is played, then of best mean
    points (the first in canonical order on a tie): the ``best`` of :func:`dominosim.analyze`.
    ``max_memory`` and ``max_nodes`` (per sampled world) as in :class:`SearchStrategy`.

    Examples
    --------
    >>> PIMC(samples=20).name
    'pimc:20'
    """
    return SearchStrategy("pimc", samples, max_memory=max_memory, max_nodes=max_nodes)


def EPIMC(samples: int = 10, infer: int = 0, *, max_memory: int | None = DEFAULT_MAX_MEMORY,
          max_nodes: int | None = None) -> SearchStrategy:
    """Extended perfect-information Monte Carlo with ``samples`` sampled worlds per decision: as
    :func:`PIMC`, but the seat's next decision is taken once per information set over the worlds
    (the other seats' replies solved world by world) before the perfect-information leaves
    (:mod:`dominosim.fast.search.epimc`); ``infer``, ``max_memory`` and ``max_nodes`` as in
    :class:`SearchStrategy`.

    Examples
    --------
    >>> EPIMC(samples=8, infer=16).name
    'epimc:8+infer'
    """
    return SearchStrategy("epimc", samples, infer=infer, max_memory=max_memory,
                          max_nodes=max_nodes)


def public_log(view: SeatView, out: np.ndarray) -> int:
    """Write ``view``'s public history as the compiled sampler's log (see
    :mod:`dominosim.fast.search.consistent`) into ``out``; return its length. A draw records the suits
    then playable (the drawer held none of them), read from the game's own layout rules.
    """
    from ..fast.core.board import PUB_DRAW, PUB_KNOCK, PUB_PLAY

    n = 0
    for ev, ends in layouts_before(view.rules, view.history):
        if ev.kind == "play":
            out[n] = PUB_PLAY, ev.seat, tile_id(ev.move.tile), ev.suit
        elif ev.kind == "draw":
            out[n] = PUB_DRAW, ev.seat, _suit_mask(playable_suits(view.rules, ends)), -1
        elif ev.kind == "knock":
            out[n] = PUB_KNOCK, ev.seat, _suit_mask(ev.suits), -1
        else:
            continue
        n += 1
    return n


def _suit_mask(suits: Any) -> int:
    return sum(1 << v for v in set(suits))


def resolve_search(spec: Any) -> SearchStrategy | None:
    """A :class:`SearchStrategy` from a name like ``"mc:200"`` or ``"pimc:50+infer"`` (or a plain
    name for one, ``"best"``: :func:`~dominosim.strategies.registry.unalias`) or an instance; None
    otherwise.
    """
    from .registry import unalias

    if isinstance(spec, SearchStrategy):
        return spec
    spec = unalias(spec)
    if isinstance(spec, str) and \
            spec.partition("+")[0].partition(":")[0].removesuffix("_omniscient") in KINDS:
        return SearchStrategy.from_name(spec)
    return None


def infer_suffix(candidates: int) -> str:
    """The suffix of a search's name for its inference: ``""`` (off), ``"+infer"`` (the default
    number of candidates) or ``"+infer:C"``.
    """
    if not candidates:
        return ""
    return "+infer" if candidates == INFER_CANDIDATES else f"+infer:{candidates}"


def model_of(rules: Rules, strategy: Any) -> tuple[int, np.ndarray]:
    """``(model, row)``: how inference models a seat playing ``strategy`` (a name or a strategy
    object) under ``rules``, as :func:`dominosim.fast.search.infer.set_models` takes it.

    ``random`` and the deterministic styles are modelled as they play (their compiled codes); a
    weighted player (``tuned``, ``learned``, a :class:`~dominosim.strategies.weighted.Weighted`,
    a ``"file:"`` player, an MLP) as itself (``M_WEIGHTED``, ``row`` its weights and temperature,
    then an MLP's hidden units: ``row_for``); ``None``
    is not modelled (-1); anything else (a search, a plug-in, a Python strategy) as the shipped
    learned player's softmax policy (:func:`~dominosim.strategies.weighted.default_model`).

    >>> from dominosim.rules import Rules
    >>> rules = Rules.preset("draw", players=2)
    >>> model_of(rules, "bully")[0], model_of(rules, None)[0]
    (1, -1)
    >>> code, row = model_of(rules, "ismcts:1000")
    >>> code == model_of(rules, "learned")[0], float(row[-1]), float(model_of(rules, "learned")[1][-1])
    (True, 1.0816, 0.0)
    """
    from ..fast.core.params import S_WEIGHTED
    from .registry import STRATEGY_CODES
    from .weighted import default_model, player_of

    if strategy is None:
        return -1, np.zeros(0)
    name = strategy if isinstance(strategy, str) else getattr(strategy, "name", None)
    code = STRATEGY_CODES.get(name) if isinstance(name, str) else None
    if code is not None and code.kind in ("random", "style"):
        return code.code, np.zeros(0)
    player = player_of(strategy) or default_model(rules)
    return S_WEIGHTED, player.row_for(rules)


def reads_features(models: np.ndarray, infer: Sequence[int]) -> bool:
    """Whether some seat that infers (``infer[seat] > 0``) models another as a weighted player
    (``models``, :func:`model_arrays`): its search's kernel then reads the decision features
    (:func:`dominosim.fast.search.worlds.make_search_scratch`'s ``weighted``).

    >>> from dominosim.fast.core.params import S_BULLY, S_WEIGHTED
    >>> models = np.array([S_BULLY, S_WEIGHTED])  # seat 0 plays bully, seat 1 a weighted player
    >>> reads_features(models, [16, 0]), reads_features(models, [0, 16])  # who infers
    (True, False)
    """
    from ..fast.core.params import S_WEIGHTED

    return any(models[s] == S_WEIGHTED and any(infer[o] for o in range(len(infer)) if o != s)
               for s in range(len(infer)))


def model_arrays(rules: Rules, lineup: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
    """The models of the seats of ``lineup`` (one entry per seat, :func:`model_of`) as the
    compiled inference reads them: a code per seat, and a row per seat of the weighted models'
    weights and temperature (no columns when no seat has one).
    """
    from .weighted import stacked_rows

    models = [model_of(rules, s) for s in lineup]
    return (np.array([code for code, _ in models], dtype=np.int64),
            stacked_rows([row for _, row in models]))


def _digits(text: str) -> bool:
    """Empty, or a decimal number."""
    return not text or (text.isascii() and text.isdigit())
