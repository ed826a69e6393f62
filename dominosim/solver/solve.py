"""The perfect-information solver: :func:`solve` a :class:`~dominosim.solver.Position`.

Every hand and the boneyard's order are known to all and every seat plays perfectly. With two
sides (two players, or two partnerships) this is the zero-sum minimax of the hand. With three or
more sides, ``sides='max_n'`` lets every side play for its own result (max-n: each seat picks the
move best for its own side, the first in canonical move order among equal ones), and
``sides='coalition'`` (the default) lets the other sides play as one coalition minimising the value
of the side to move (the pessimistic value: what that side can guarantee whatever the others do).
The searches are compiled (:mod:`dominosim.fast.search.solve`: alpha-beta with a transposition table
and move ordering; :mod:`dominosim.fast.search.maxn`: max-n with a transposition table and shallow
pruning), applying moves by the compiled engine's one turn, so every game and rule option is solved
by the rules the engines play.

Examples
--------
>>> import dominosim as ds
>>> rules = ds.Rules.preset("block", players=2, max_pip=2, hand_size=3)
>>> pos = ds.Position.from_deal(rules, [[(2, 2), (0, 1), (1, 1)], [(1, 2), (0, 0), (0, 2)]])
>>> after = pos.after(((2, 2), 2))
>>> s = ds.solve(after)
>>> s.value, s.best  # 2-0, then 2-1 on the 1 blocks the hand: 1-1 left against 0-0
(1.0, [Move(tile=(0, 2), suit=2)])
>>> list(s.moves["value"])
[1.0, 0.0]
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from ..checks import check_choice, check_limit, check_memory, refuse
from ..reference.game import GameState, Move, highest_double, opens_with_double
from ..tiles import label, tile_id
from .bounds import stoppable, table_bytes
from .position import Position

OBJECTIVES = ("win", "points")
SIDES = ("coalition", "max_n")
DEFAULT_MAX_NODES = 200_000_000
DEFAULT_TABLE_BITS = 22
DEFAULT_MAX_MEMORY = 1 << 30
"""The most bytes a solve's table may take by default (1 GB)."""
_LOCAL = threading.local()
"""Each thread's solver stack (one at a time: they are large) and salt: two threads never share
a table, so calls from several threads give the values of the same calls made one by one."""
_PARAMS: dict[tuple, Any] = {}


class SolverLimit(ValueError):
    """A position that needs more solver nodes than ``max_nodes`` (a ``ValueError``)."""


@dataclass
class Solution:
    """The solved value of a position for the side of the seat to move.

    Attributes
    ----------
    position : Position
        The position solved (after the draws and knocks the rules force).
    objective : str
        ``'win'`` (1 a win, 1/2 a tie, 0 a loss) or ``'points'`` (the points the side scores,
        negative when it loses).
    value : float or int
        The value of the position with perfect play by all.
    best : list of Move
        Every move that reaches :attr:`value`.
    moves : pandas.DataFrame
        Every legal move (``move`` label, ``tile``, ``suit``) with its ``value`` and whether it is
        among the ``best``.
    nodes : int
        Positions the search visited.
    sides : str
        How the sides played: ``'coalition'`` or ``'max_n'`` (see :func:`solve`).
    side_values : tuple or None
        Under ``'max_n'``: every side's result (``win``: a :class:`~fractions.Fraction`) when the
        seat to move plays the first of :attr:`best` and everyone plays on by max-n; None under
        ``'coalition'``.
    """

    position: Position
    objective: str
    value: Any
    best: list[Move] = field(default_factory=list)
    moves: pd.DataFrame = field(default_factory=pd.DataFrame)
    nodes: int = 0
    sides: str = "coalition"
    side_values: tuple | None = None

    def __repr__(self) -> str:
        """One line: the value and the best moves."""
        best = ", ".join(f"{label(m.tile)} on {m.suit}" for m in self.best) or "none"
        how = f", {self.sides}" if self.position.rules.n_sides > 2 else ""  # two sides: one game
        return (f"Solution(value={self.value} ({self.objective}{how}) for side "
                f"{self.position.rules.side_of(max(self.position.to_move, 0))}, best: {best}, "
                f"{len(self.moves)} moves, {self.nodes} nodes)")


def _stack(rules, core, table_bits: int):
    from ..fast.search.solve import make_stack

    key = (rules.n_tiles, rules.players, core.words, table_bits)
    stacks = getattr(_LOCAL, "stacks", None)
    if stacks is None or key not in stacks:
        _LOCAL.stacks = None  # one table at a time per thread: they are large
        _LOCAL.stacks = {key: make_stack(rules.n_tiles, rules.players, rules.n_tiles + 3,
                                         table_bits)}
    return _LOCAL.stacks[key]


def _next_salt() -> int:
    """A new salt for this thread's table (the entries of earlier solves are never read)."""
    _LOCAL.salt = (getattr(_LOCAL, "salt", 0) + 1) % (1 << 62)
    return _LOCAL.salt


def load_root(state: GameState, stack, rp) -> None:
    """Write the reference state ``state`` into level 0 of the solver's stack."""
    from ..fast.core.board import board_of

    rules = state.rules
    board = board_of(
        rules.players, rules.n_tiles,
        {s: [tile_id(t) for t in hand] for s, hand in enumerate(state.hands)},
        [(end.suit, end.empty_arm) for end in state.ends], [tile_id(t) for t in state.boneyard],
        open_suit=state.opening_tile[0] if state.opening_tile else 0,
        knocked=sum(1 << s for s in state.knocked_since_play),
        plays=sum(e.kind == "play" for e in state.events),
        knocks=sum(e.kind == "knock" for e in state.events),
        draws=sum(e.kind == "draw" for e in state.events), opener=state.opener,
        opening=tile_id(state.opening_tile) if state.opening_tile else 0, seat=state.to_move)
    for name, value in board._asdict().items():
        if name == "bone":  # one boneyard for every level
            stack.bone[:] = value
        else:
            getattr(stack, name)[0] = value


def solve(position: Position, objective: str = "win", *, sides: str = "coalition",
          max_nodes: int = DEFAULT_MAX_NODES, table_bits: int = DEFAULT_TABLE_BITS,
          max_memory: int | None = DEFAULT_MAX_MEMORY) -> Solution:
    """The value of ``position`` for the side of the seat to move, with every hand and the
    boneyard's order known to all and every seat playing perfectly.

    Parameters
    ----------
    position : Position
        From :meth:`Position.from_deal <dominosim.solver.Position.from_deal>` or
        ``log.position(k)``; a seat that must draw or knock does so first.
    objective : {'win', 'points'}
        ``'win'``: 1 for a win, 1/2 for a tie, 0 for a loss (under ``sides='max_n'``: 1/k each in
        a k-way tie, as the rule book shares ties). ``'points'``: the points the side scores in
        the hand by the rule book's scoring, negative (the winner's points) when another side wins.
    sides : {'coalition', 'max_n'}
        How three or more sides play (two sides play the zero-sum minimax either way, and both
        give the same values). ``'coalition'``: the other sides play as one coalition minimising
        the value of the side to move, so :attr:`Solution.value` is what that side can guarantee
        whatever the others do. ``'max_n'``: every seat plays the move best for its own side's
        result; among moves of equal value to its side it plays the first in canonical move
        order (tile id, then suit), a choice that can change the other sides' results.
    max_nodes : int
        The search stops, and refuses the position, past this many nodes (1 to 2**62): the
        bound of its time (a few million nodes a second).
    table_bits : int
        The transposition table holds ``2**table_bits`` positions (16 to 26; 16 bytes each).
    max_memory : int or None
        The most bytes the solver's table and stack may take (default 1 GB; None: no limit),
        checked before the search starts.

    Returns
    -------
    Solution
        ``.value``, ``.best`` (the best moves), ``.moves`` (every legal move with its value to
        the side to move), and under ``'max_n'`` ``.side_values`` (every side's result).

    Notes
    -----
    Draws are forced and known (the boneyard's order is part of the position). A finished hand is
    refused (it has no seat to move), and so is a position whose hidden tiles are not known (a
    typed-in hand: see :func:`dominosim.analyze`). The max-n search keeps no alpha-beta window,
    so it visits more positions than the coalition's search of the same position.

    Ctrl-C stops the search within a fraction of a second (``KeyboardInterrupt``). Calls from
    several threads at once are safe: each thread has its own table (``max_memory`` each).

    Examples
    --------
    >>> import dominosim as ds
    >>> log = ds.replay(ds.Rules.preset("block", players=4), "random", seed=2, hand=0)
    >>> s = ds.solve(log.position(20), objective="points")
    >>> set(s.moves.columns) >= {"move", "value", "best"}, bool(s.value == s.moves["value"].max())
    (True, True)

    Three players each playing for themselves: seat 0 wins, although the other two together
    could stop it.

    >>> rules = ds.Rules.preset("block", players=3, max_pip=3, hand_size=3)
    >>> pos = ds.Position.from_deal(rules, [[(0, 2), (0, 3), (3, 3)], [(0, 0), (1, 1), (2, 3)],
    ...                                     [(0, 1), (2, 2), (1, 3)]])
    >>> m = ds.solve(pos, sides="max_n")
    >>> m.value, [str(v) for v in m.side_values], ds.solve(pos, sides="coalition").value
    (1.0, ['1', '0', '0'], 0.0)
    """
    if not isinstance(position, Position):
        raise refuse("position", "a Position (from ds.Position.from_deal or log.position(k))",
                     type(position).__name__)
    if objective not in OBJECTIVES:
        raise refuse("objective", "one of 'win', 'points'", objective)
    check_choice("sides", sides, SIDES)
    max_nodes = check_limit("max_nodes", max_nodes)
    if isinstance(table_bits, bool) or not isinstance(table_bits, int) or \
            not 16 <= table_bits <= 26:
        raise refuse("table_bits", "an integer from 16 to 26", table_bits)
    if max_memory is not None:
        check_limit("max_memory", max_memory)
    check_memory("max_memory", table_bytes(position.rules.n_tiles, table_bits), max_memory,
                 f"a table of 2**{table_bits} positions")
    position.check_known("solve")
    position = position.settled()
    if position.over:
        raise refuse("position", "a hand in progress", f"a finished hand ({position.outcome})")
    moves = position.legal_moves()
    rules = position.rules
    side_values = None
    if sides == "max_n" and rules.n_sides > 2:
        codes, nodes = solve_state_maxn(position.state, moves, objective, max_nodes, table_bits)
        mover = rules.side_of(position.to_move)
        results = [shares(int(c), objective, rules.n_sides) for c in codes]
        exact = [r[mover] for r in results]
        top = max(exact)
        side_values = tuple(results[exact.index(top)])  # the first best move in canonical order
        vals = [float(v) if objective == "win" else int(v) for v in exact]
        is_best = [v == top for v in exact]
    else:
        values, nodes = solve_state(position.state, moves, objective, max_nodes, table_bits)
        vals = [int(v) / 2 if objective == "win" else int(v) for v in values]
        is_best = [v == max(vals) for v in vals]
    best = [m for m, b in zip(moves, is_best, strict=True) if b]
    frame = pd.DataFrame({
        "move": [label(m.tile) for m in moves],
        "tile": [m.tile for m in moves],
        "suit": [m.suit for m in moves],
        "value": vals,
        "best": is_best,
    })
    return Solution(position, objective, max(vals), best, frame, nodes, sides, side_values)


def solve_state(state: GameState, moves: list[Move], objective: str,
                max_nodes: int = DEFAULT_MAX_NODES, table_bits: int = DEFAULT_TABLE_BITS
                ) -> tuple[np.ndarray, int]:
    """The compiled search on a reference state whose seat to move has the legal ``moves`` (or
    opens): each move's value to its side (``win``: 2 a win, 1 a tie, 0 a loss; ``win_points``,
    the ``pimc`` strategy's objective: ``win * WIN_UNIT + points``, see
    :mod:`dominosim.fast.search.solve`) and the nodes visited. Arguments are not checked (see
    :func:`solve`).
    """
    from ..fast.search.solve import solve_root

    return _run(solve_root, state, moves, objective, max_nodes, table_bits)


def solve_state_maxn(state: GameState, moves: list[Move], objective: str,
                     max_nodes: int = DEFAULT_MAX_NODES, table_bits: int = DEFAULT_TABLE_BITS
                     ) -> tuple[np.ndarray, int]:
    """The compiled max-n search (:mod:`dominosim.fast.search.maxn`) on a reference state whose
    seat to move has the legal ``moves`` (or opens): each move's outcome as a code (decoded by
    :func:`shares`) and the nodes visited. Arguments are not checked (see :func:`solve`).
    """
    from ..fast.search.maxn import solve_root_maxn

    return _run(solve_root_maxn, state, moves, objective, max_nodes, table_bits)


def shares(code: int, objective: str, sides: int) -> list[Fraction | int]:
    """What the outcome ``code`` of the max-n search is worth to each side: under ``win`` 1 to the
    sole winner, ``1/k`` to each of ``k`` tied sides, 0 to the others; under ``points`` the
    winner's points, their negative to every other side, 0 to all in a tie. The search's own
    :func:`~dominosim.fast.search.maxn.share` (run as Python) decides it; a ``win`` share, in
    :data:`~dominosim.fast.search.maxn.SHARE` units, becomes an exact fraction.
    """
    from ..fast.search.maxn import SHARE, share
    from ..fast.search.solve import OBJ_POINTS, OBJ_WIN

    if objective == "win":
        return [Fraction(share.py_func(OBJ_WIN, code, k), SHARE) for k in range(sides)]
    return [share.py_func(OBJ_POINTS, code, k) for k in range(sides)]


def _run(kernel, state: GameState, moves: list[Move], objective: str, max_nodes: int,
         table_bits: int) -> tuple[np.ndarray, int]:
    """Load ``state`` into the solver's stack and run ``kernel`` (``solve_root`` or
    ``solve_root_maxn``) on each of ``moves``: the values it writes and the nodes visited.
    """
    from ..fast.core.params import rule_params
    from ..fast.core.shape import Shape
    from ..fast.core.status import NO_RULE, OK
    from ..fast.core.turn import rule_status
    from ..fast.search.solve import (
        C_LIMIT,
        C_NODES,
        C_OBJECTIVE,
        C_ROOT_SIDE,
        C_SALT,
        KIND_DOUBLE,
        KIND_LEAD,
        KIND_PLAY,
        OBJ_POINTS,
        OBJ_WIN,
        OBJ_WIN_POINTS,
    )
    from ..strategies.search import search_error

    rules = state.rules
    if not state.ends:
        kind = KIND_DOUBLE if opens_with_double(rules) else KIND_LEAD
        found = highest_double(state.hands, rules.max_pip)
        seat = rules.leader if kind == KIND_LEAD else None if found is None else found[0]
        assert seat is not None, "the seat to open is known: solve() checks the position"
    else:
        kind, seat = KIND_PLAY, state.to_move
    key = (rules, table_bits)
    if key not in _PARAMS:
        _PARAMS[key] = (Shape.searching(rules), rule_params(rules))  # keeps the suit counts it hashes
    core, rp = _PARAMS[key]
    stack = _stack(rules, core, table_bits)
    load_root(state, stack, rp)
    if rule_status(rp, stack.pips[0]) != OK:
        raise ValueError(search_error(rules, NO_RULE))
    ctl = stack.ctl
    ctl[:] = 0
    ctl[C_LIMIT], ctl[C_ROOT_SIDE] = max_nodes, rules.side_of(seat)
    ctl[C_OBJECTIVE] = {"win": OBJ_WIN, "points": OBJ_POINTS, "win_points": OBJ_WIN_POINTS}[objective]
    ctl[C_SALT] = _next_salt()
    tiles = np.array([tile_id(m.tile) for m in moves], dtype=np.int64)
    suits = np.array([m.suit if kind == KIND_PLAY else -1 for m in moves], dtype=np.int64)
    kinds = np.full(len(moves), kind, dtype=np.int64)
    values = np.zeros(len(moves), dtype=np.int64)
    solved = stoppable(lambda: kernel(core, rp, stack, np.int64(seat), tiles, suits, kinds,
                                      values), [stack])
    if not solved:
        held = sum(len(h) for h in state.hands)
        raise SolverLimit(
            f"The value for `max_nodes` ({max_nodes:,}) is too small for this position: the "
            f"search passed it with {held} tiles in hands and {len(state.boneyard)} in the "
            f"boneyard; solve a later position or pass a larger `max_nodes`.")
    return values, int(ctl[C_NODES])


__all__ = ["OBJECTIVES", "SIDES", "Solution", "SolverLimit", "solve"]
