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

import numpy as np

from ..core.board import BONE_END, N_ENDS, N_SUITS
from ..core.gates import given
from ..core.jit import jit_entry, jit_kernel
from ..core.rng import mix64
from ..core.turn import side_of
from .solve import (
    C_ABORTED,
    C_LIMIT,
    C_NODES,
    C_OBJECTIVE,
    C_ROOT_SIDE,
    C_SALT,
    OBJ_WIN_POINTS,
    WIN_UNIT,
    solve_play,
)
from .worlds import STREAM, copy_position, determinize

SEARCH_TOO_MANY_STATES = -1
SEARCH_NO_DEAL = -2
SEARCH_SOLVER_LIMIT = -3
"""The statuses of a search (an index >= 0 is a move): too many consistent-deal states, no deal
agrees with the public log, a sampled world passed the solver's node limit."""
WORLD_NODES = 200_000_000
"""The most nodes one solve of a sampled world may visit (a few seconds)."""


@jit_kernel
def load_world(core, rp, st, work):
    """The position being played (``work``, a sampled world) into level 0 of the solver's stack."""
    for s in range(rp.players):
        for w in range(core.words):
            st.hands[0, s, w] = work.hands[s, w]
        st.counts[0, s], st.pips[0, s] = work.counts[s], work.pips[s]
    for i in range(work.at[N_ENDS]):
        st.ends[0, i], st.arms[0, i] = work.ends[i], work.arms[i]
    for v in range(N_SUITS):
        st.suit_count[0, v] = work.suit_count[v]
    for i in range(st.at.shape[1]):
        st.at[0, i] = work.at[i]
    for i in range(work.at[BONE_END]):
        st.bone[i] = work.bone[i]


@jit_kernel
def solve_world(core, rp, st, me, n, moves, objective, values):
    """Each move's exact value to the side of ``me`` in the world at level 0 (``win``: 2, 1, 0;
    ``points``: the side's points), into ``values[:n]``; False past the node limit."""
    ctl = st.ctl
    ctl[C_NODES], ctl[C_LIMIT], ctl[C_ABORTED] = 0, WORLD_NODES, 0
    ctl[C_ROOT_SIDE], ctl[C_OBJECTIVE] = side_of(rp, me), objective
    ctl[C_SALT] += 1
    for m in range(n):
        values[m] = solve_play(core, rp, st, me, moves[0, m], moves[1, m])
        if ctl[C_ABORTED]:
            return False
    return True


@jit_kernel
def sample_world(core, rp, me, board, ss, seed, k):
    """World ``k`` of a decision seeded ``seed``: drawn and laid out in the solver's stack."""
    ss.rng[rp.players] = mix64(np.uint64(seed) + np.uint64(k + 1) * STREAM)
    determinize(core, rp, me, False, board, ss)
    copy_position(core, rp, board, ss)
    load_world(core, rp, ss.stack, ss.work)


@jit_kernel
def pimc_decide(stack, core, rp, me, budget, n, moves, board, ss, seed):
    """Index of the move of best total ``win`` value over ``budget`` sampled worlds, then of best
    total points (``stack`` is ``ss.stack``), or :data:`SEARCH_SOLVER_LIMIT`."""
    wins, points, values = ss.totals[:n], ss.totals[n:2 * n], ss.totals[2 * n:3 * n]
    for m in range(n):
        wins[m], points[m] = 0.0, 0.0
    for k in range(budget):
        sample_world(core, rp, me, board, ss, seed, k)
        if not solve_world(core, rp, stack, me, n, moves, OBJ_WIN_POINTS, values):
            return SEARCH_SOLVER_LIMIT
        for m in range(n):
            w = (np.int64(values[m]) + WIN_UNIT // 2) // WIN_UNIT
            wins[m] += w
            points[m] += np.int64(values[m]) - w * WIN_UNIT
    best = 0
    for m in range(1, n):
        if wins[m] > wins[best] or (wins[m] == wins[best] and points[m] > points[best]):
            best = m
    return best


pimc_move = given(pimc_decide, SEARCH_SOLVER_LIMIT)
""":func:`pimc_decide` where the search scratch has a solver's stack (a line-up with a ``pimc``
seat); elsewhere the solver is not compiled."""


@jit_entry
def world_values(core, rp, me, n, moves, board, ss, seed, k0, k1, objectives, out):
    """The move analysis's worlds ``k0 <= k < k1``: ``out[k - k0, j, m]`` the value of move
    ``(moves[0, m], moves[1, m])`` of ``me`` under ``objectives[j]``. Returns 0, or a negative
    status. ``ss`` is ready (:func:`~dominosim.fast.search.worlds.set_root` once per analysis). Runs
    without the GIL: one call per thread, each with its own ``ss``."""
    row = ss.totals
    for k in range(k0, k1):
        sample_world(core, rp, me, board, ss, seed, k)
        for j in range(objectives.shape[0]):
            if not solve_world(core, rp, ss.stack, me, n, moves, objectives[j], row):
                return SEARCH_SOLVER_LIMIT
            for m in range(n):
                out[k - k0, j, m] = row[m]
    return 0
