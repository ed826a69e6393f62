"""Extended perfect-information Monte Carlo (``epimc``), compiled: the seat's next decision taken
once per information set, before the perfect-information leaves.

``pimc`` solves every sampled world as if the seat would see every tile from the next ply on, so
at its next turn it would play a different move in each world (*strategy fusion*). ``epimc:N``
(after Arjonilla, Saffidine and Cazenave, *Perfect Information Monte Carlo with Postponing
Reasoning*, 2024) postpones the perfect-information leaf to the seat's next decision: for each
root move and each of ``N`` sampled worlds (the worlds of ``pimc``: world ``k`` from its own
stream, with inference when asked), the root move is played, the other seats reply as the
solver says they would (each seat the move best for its side, one world at a time), and when the
seat is to move again the world joins the *information set* it then sees: the root move, every
seat's reply, draw and knock since, and its own hand (its draws). Each of its moves there is
solved in every world of the set, and the set takes the move of best total over its worlds: one
decision for all the worlds it cannot tell apart. A root move's value is the sum over its
information sets of that best total, plus the value of the worlds where the hand ends before
the seat moves again; the root move of best value is played (the first in canonical order on a
tie). Values are the solver's ``win, then points`` (:data:`~.solve.WIN_UNIT`), to the seat's side.

The information sets of one root move live in the search's tree arrays, one column per set and
rows :data:`SET_KEY` (a hash of what the seat saw), :data:`SET_FIRST` (where its moves' totals
start in ``value``) and :data:`SET_COUNT` (how many moves it has). Every solve of one line keeps one salt: the
table's entries of one world and one root side stay valid from solve to solve, so the replies'
solves are mostly table hits.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..core.board import DRAWS, KNOCKS, MOVE_SUIT, MOVE_TILE, N_SUITS, OUT, SEAT, fill_moves
from ..core.gates import given
from ..core.jit import jit_entry, jit_kernel
from ..core.rng import mix64
from ..core.status import ERR_SEARCH_DEAL, OK, SOLVER_LIMIT
from ..core.turn import advance, play, rule_status, side_of
from .pimc import WORLD_NODES, sample_world
from .solve import (
    C_ABORTED,
    C_CAP,
    C_LIMIT,
    C_NODES,
    C_OBJECTIVE,
    C_ROOT_SIDE,
    C_SALT,
    OBJ_WIN_POINTS,
    leaf,
    level,
    solve_play,
)
from .worlds import without_stack

SET_KEY, SET_FIRST, SET_COUNT = 0, 1, 2
"""The rows of ``ss.tree`` that describe an information set (see the module's docstring)."""
C_SEED = 7
"""The decision's seed, in a control slot of the solver's stack the solver does not use."""
SETS_FULL = -ERR_SEARCH_DEAL
"""The status of an ``epimc`` search whose information sets outgrew its arrays (a bug, reported
as one: they are sized for every world and move)."""


@jit_kernel
def set_of(ss, n_sets, key, n_mine):
    """The information set keyed ``key`` among the first ``n_sets`` (added, its ``n_mine`` totals
    zeroed, when new); returns ``(set, number of sets)``, the set -1 when the arrays are full."""
    tree, value = ss.tree, ss.value
    for g in range(n_sets):
        if tree[SET_KEY, g] == key:
            return g, n_sets
    first = tree[SET_FIRST, n_sets - 1] + tree[SET_COUNT, n_sets - 1] if n_sets > 0 else 0
    if n_sets >= tree.shape[1] or first + n_mine > value.shape[0]:
        return -1, n_sets
    tree[SET_KEY, n_sets], tree[SET_FIRST, n_sets], tree[SET_COUNT, n_sets] = key, first, n_mine
    for a in range(n_mine):
        value[first + a] = 0.0
    return n_sets, n_sets + 1


@jit_kernel
def reply(core, rp, st, seat, n):
    """The index of the move of ``seat`` (among the ``n`` in ``st.moves[0]``) best for its side
    in the world at level 0 of the stack, or -1 past the node limit."""
    moves = st.moves[0]
    maximise = side_of(rp, seat) == st.ctl[C_ROOT_SIDE]
    best, best_value = 0, 0
    for j in range(n):
        v = solve_play(core, rp, st, seat, moves[MOVE_TILE, j], moves[MOVE_SUIT, j])
        if st.ctl[C_ABORTED]:
            return -1
        if j == 0 or (v > best_value if maximise else v < best_value):
            best, best_value = j, v
    return best


@jit_kernel
def walk(core, rp, me, st, key):
    """From level 0, just after the root move, the other seats reply (:func:`reply`) until ``me``
    is to move. Returns ``(n, key)``: its number of moves (in ``st.moves[0]``) and the key of what
    it saw; ``n`` 0 when the hand ended first, -1 past the node limit."""
    board, moves = level(st, 0), st.moves[0]
    while board.at[OUT] < 0:
        n, psm = advance(core, rp, board, st.notes, st.log)
        if n == 0:
            break
        seat = board.at[SEAT]
        key = mix64(key ^ np.uint64((board.at[DRAWS] << 20) | (board.at[KNOCKS] << 8) | seat))
        fill_moves(core, board.hands, seat, psm, moves)
        if seat == me:
            for w in range(core.words):
                key = mix64(key ^ board.hands[me, w])
            return n, key
        j = reply(core, rp, st, seat, n)
        if j < 0:
            return -1, key
        tile, suit = moves[MOVE_TILE, j], moves[MOVE_SUIT, j]
        key = mix64(key + np.uint64(tile * N_SUITS + suit + 1))
        play(core, rp, board, st.notes, st.log, seat, tile, suit)
    return 0, key


@jit_kernel
def line(core, rp, me, st, tile, suit, row):
    """The world at level 0 of the solver's stack ``st`` after ``me`` plays ``tile`` on ``suit``.
    Returns ``(n, key)``: ``n`` 0 when the hand ends before ``me`` moves again (``row[0]`` its
    value), else ``me``'s number of moves then (``row[:n]`` their values) and ``key`` the
    information set's; ``n`` is :data:`~dominosim.fast.core.status.SOLVER_LIMIT` past the node limit."""
    ctl = st.ctl
    ctl[C_NODES], ctl[C_ABORTED] = 0, 0
    ctl[C_LIMIT] = ctl[C_CAP] if ctl[C_CAP] > 0 else WORLD_NODES
    ctl[C_ROOT_SIDE], ctl[C_OBJECTIVE] = side_of(rp, me), OBJ_WIN_POINTS
    ctl[C_SALT] += 1
    board = level(st, 0)
    play(core, rp, board, st.notes, st.log, me, tile, suit)
    n, key = walk(core, rp, me, st, mix64(np.uint64(tile * N_SUITS + suit + 1)))
    if n < 0:
        return SOLVER_LIMIT, key
    if n == 0:
        row[0] = leaf(rp, ctl, board)
        return 0, key
    moves = st.moves[0]
    for a in range(n):
        row[a] = solve_play(core, rp, st, me, moves[MOVE_TILE, a], moves[MOVE_SUIT, a])
        if ctl[C_ABORTED]:
            return SOLVER_LIMIT, key
    return n, key


@jit_kernel
def best_totals(ss, n_sets):
    """The sum over the information sets of each one's best total."""
    total = 0.0
    for g in range(n_sets):
        first, n = ss.tree[SET_FIRST, g], ss.tree[SET_COUNT, g]
        best = ss.value[first]
        for a in range(1, n):
            best = max(best, ss.value[first + a])
        total += best
    return total


@jit_kernel
def move_value(core, rp, budget, dec, m, ss, st):
    """The ``epimc`` value of root move ``m`` of ``dec`` over ``budget`` worlds (seeded by the
    solver's stack ``st``'s ``ctl[C_SEED]``; ``ss`` without it); a negative status as
    ``(0, status)``."""
    me, tile, suit = dec.me, dec.moves[MOVE_TILE, m], dec.moves[MOVE_SUIT, m]
    row, seed = ss.totals, np.uint64(st.ctl[C_SEED])
    base, n_sets = 0.0, 0
    for k in range(budget):
        sample_world(core, rp, me, dec.board, ss, st, seed, k)
        n, key = line(core, rp, me, st, tile, suit, row)
        if n < 0:
            return 0.0, n
        if n == 0:
            base += row[0]
            continue
        g, n_sets = set_of(ss, n_sets, np.int64(key), n)
        if g < 0:
            return 0.0, SETS_FULL
        for a in range(n):
            ss.value[ss.tree[SET_FIRST, g] + a] += row[a]
    return base + best_totals(ss, n_sets), 0


@jit_kernel
def epimc_decide(stack, core, rp, budget, dec, ss, seed):
    """Index of the root move of best ``epimc`` value over ``budget.size`` worlds (see the module
    documentation), or a status, negated (``stack``: the solver's; ``ss`` without it)."""
    stack.ctl[C_SEED] = np.int64(seed)
    best, best_value = 0, 0.0
    for m in range(dec.n):
        v, status = move_value(core, rp, budget.size, dec, m, ss, stack)
        if status < 0:
            return status
        if m == 0 or v > best_value:
            best, best_value = m, v
    return best


EpimcWorlds = namedtuple("EpimcWorlds", ["keys", "counts", "values", "moves"])
"""What :func:`epimc_worlds` fills for the move analysis: by world ``k`` and root move ``m``, the
key of the information set (``keys[k, m]``), the number of the seat's next moves in it
(``counts[k, m]``, 0 when the hand ends first) and their values (``values[k, m, :count]``, or
``values[k, m, 0]`` the end's); ``moves`` the root moves (rows tile, suit)."""


@jit_entry
def epimc_worlds(core, rp, me, board, ss, seed, k0, out):
    """The move analysis's worlds ``k0 <= k < k0 + out.keys.shape[0]`` under ``epimc``: each
    root move's line (:func:`line`) into ``out``. Returns 0 or a status, negated. ``ss`` is ready
    (:func:`~dominosim.fast.search.worlds.set_root`); one call per thread, each its own ``ss``."""
    status = rule_status(rp, board.pips)
    if status != OK:
        return -status
    plain = without_stack(ss)
    for i in range(out.keys.shape[0]):
        for m in range(out.keys.shape[1]):
            sample_world(core, rp, me, board, plain, ss.stack, seed, k0 + i)
            n, key = line(core, rp, me, ss.stack, out.moves[MOVE_TILE, m], out.moves[MOVE_SUIT, m],
                          out.values[i, m])
            if n < 0:
                return n
            out.keys[i, m], out.counts[i, m] = np.int64(key), n
    return 0


epimc_move = given(epimc_decide, SOLVER_LIMIT)
""":func:`epimc_decide` where the search scratch has a solver's stack; elsewhere the solver is not
compiled."""
