"""Perfect-information Monte Carlo (``pimc``), compiled: sampled worlds solved exactly.

A decision of ``pimc:N`` samples ``N`` worlds (deals of the hidden tiles, exactly uniform among
those consistent with what the seat has seen: :func:`dominosim.fast.search.worlds.determinize`), solves
each with every tile known and every seat playing perfectly (the alpha-beta of
:mod:`dominosim.fast.search.solve`, objective ``win`` then points: every seat plays to win, and among
lines of equal ``win`` value for points) and plays the move of best total ``win`` value (2 a win,
1 a tie, 0 a loss for the seat's side), then of best total points, the first in canonical order
on a tie: the order of :func:`dominosim.analyze`'s ``best``. Points break the ties that ``win``
alone leaves wherever most worlds are already decided. World ``k`` is drawn from
its own stream (keyed ``seed + (k + 1) * GAMMA``), so :func:`world_values`, which the move
analysis (:func:`dominosim.analyze`) runs on several threads over ranges of worlds, gives each
world the same deal whichever thread draws it.

The solver's transposition table is reused from world to world: every solve takes a new salt
(``ctl[C_SALT]``), so no entry of another world or objective is ever read.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..core.board import BONE_END, MOVE_SUIT, MOVE_TILE, copy_board
from ..core.gates import given
from ..core.jit import jit_entry, jit_kernel
from ..core.rng import mix64
from ..core.status import OK, SOLVER_LIMIT
from ..core.turn import rule_status, side_of
from .solve import (
    C_ABORTED,
    C_CAP,
    C_LIMIT,
    C_NODES,
    C_OBJECTIVE,
    C_ROOT_SIDE,
    C_SALT,
    OBJ_WIN_POINTS,
    level,
    solve_play,
    win_and_points,
)
from .worlds import STREAM, copy_position, determinize, without_stack

WORLD_NODES = 200_000_000
"""The most nodes one solve of a sampled world may visit (a few seconds)."""

Worlds = namedtuple("Worlds", ["seed", "first", "last", "objectives"])
"""The worlds ``first <= k < last`` of a decision seeded ``seed`` (``uint64``), each solved under
every objective of ``objectives`` (``OBJ_*`` of :mod:`dominosim.fast.search.solve`)."""


@jit_kernel
def load_world(core, rp, st, work):
    """The position being played (``work``, a sampled world) into level 0 of the solver's stack."""
    copy_board(core, rp.players, work, level(st, 0))
    for i in range(work.at[BONE_END]):
        st.bone[i] = work.bone[i]


@jit_kernel
def solve_world(core, rp, st, dec, objective, values):
    """Each move's exact value to the side of ``dec.me`` in the world at level 0 (``win``: 2, 1,
    0; ``points``: the side's points), into ``values[:dec.n]``; False past the node limit (the
    analysis's ``ctl[C_CAP]`` when positive, else :data:`WORLD_NODES`)."""
    ctl, moves = st.ctl, dec.moves
    ctl[C_NODES], ctl[C_ABORTED] = 0, 0
    ctl[C_LIMIT] = ctl[C_CAP] if ctl[C_CAP] > 0 else WORLD_NODES
    ctl[C_ROOT_SIDE], ctl[C_OBJECTIVE] = side_of(rp, dec.me), objective
    ctl[C_SALT] += 1
    for m in range(dec.n):
        values[m] = solve_play(core, rp, st, dec.me, moves[MOVE_TILE, m], moves[MOVE_SUIT, m])
        if ctl[C_ABORTED]:
            return False
    return True


@jit_kernel
def sample_world(core, rp, me, board, ss, st, seed, k):
    """World ``k`` of a decision seeded ``seed``: drawn (in ``ss``, without a stack:
    :func:`~dominosim.fast.search.worlds.without_stack`) and laid out in the solver's stack
    ``st``."""
    ss.rng[rp.players] = mix64(np.uint64(seed) + np.uint64(k + 1) * STREAM)
    determinize(core, rp, me, False, board, ss)
    copy_position(core, rp, board, ss)
    load_world(core, rp, st, ss.work)


@jit_kernel
def pimc_decide(stack, core, rp, budget, dec, ss, seed):
    """Index of the move of best total ``win`` value over ``budget.size`` sampled worlds, then of
    best total points (``stack``: the solver's; ``ss`` without it), or
    :data:`~dominosim.fast.core.status.SOLVER_LIMIT`."""
    n = dec.n
    wins, points, values = ss.totals[:n], ss.totals[n:2 * n], ss.totals[2 * n:3 * n]
    for m in range(n):
        wins[m], points[m] = 0.0, 0.0
    for k in range(budget.size):
        sample_world(core, rp, dec.me, dec.board, ss, stack, seed, k)
        if not solve_world(core, rp, stack, dec, OBJ_WIN_POINTS, values):
            return SOLVER_LIMIT
        for m in range(n):
            w, p = win_and_points(np.int64(values[m]))
            wins[m] += w
            points[m] += p
    best = 0
    for m in range(1, n):
        if wins[m] > wins[best] or (wins[m] == wins[best] and points[m] > points[best]):
            best = m
    return best


pimc_move = given(pimc_decide, SOLVER_LIMIT)
""":func:`pimc_decide` where the search scratch has a solver's stack (a line-up with a ``pimc``
seat); elsewhere the solver is not compiled."""


@jit_entry
def world_values(core, rp, dec, ss, worlds, out):
    """The move analysis's :class:`Worlds`: ``out[k - worlds.first, j, m]`` the value of move
    ``(dec.moves[MOVE_TILE, m], dec.moves[MOVE_SUIT, m])`` of ``dec.me`` in world ``k`` under
    ``worlds.objectives[j]``. Returns 0, or a status, negated. ``ss`` is ready
    (:func:`~dominosim.fast.search.worlds.set_root` once per analysis). Runs without the GIL: one
    call per thread, each with its own ``ss``."""
    status = rule_status(rp, dec.board.pips)
    if status != OK:
        return -status
    row, plain = ss.totals, without_stack(ss)
    for k in range(worlds.first, worlds.last):
        sample_world(core, rp, dec.me, dec.board, plain, ss.stack, worlds.seed, k)
        for j in range(worlds.objectives.shape[0]):
            if not solve_world(core, rp, ss.stack, dec, worlds.objectives[j], row):
                return SOLVER_LIMIT
            for m in range(dec.n):
                out[k - worlds.first, j, m] = row[m]
    return 0
