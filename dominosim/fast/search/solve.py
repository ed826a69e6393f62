"""The perfect-information solver, compiled: alpha-beta over the one compiled turn.

Every hand and the boneyard's order are known; every seat plays perfectly. Values are kept for one
*root side* (the side of the seat to move at the root): a seat of that side maximises, every other
seat minimises (two sides: the zero-sum minimax; three or more: the others play as one coalition
against the root side). Moves are applied only by :func:`dominosim.fast.core.turn.play`,
:func:`~dominosim.fast.core.turn.open_with` and :func:`~dominosim.fast.core.turn.advance` (draws and knocks
are forced, and deterministic since the boneyard's order is known), on a stack of
:class:`~dominosim.fast.core.board.Board` levels: a child is a copy of its parent's arrays (the boneyard,
which never changes, is shared).

A leaf is worth, to the root side, ``2`` for a win, ``1`` for a tie and ``0`` for a loss
(objective ``win``, halved by the caller), or the points it scores (negative when another side
wins; objective ``points``), or both at once, ``win`` first (:data:`WIN_UNIT`; the ``pimc``
strategy's objective).

The transposition table is fixed-size and replace-always; a decision point is keyed by a hash of
every hand, the multiset of open ends (how many ends show each suit), the unfilled arms of a
fill-first opening, the boneyard's position, the seat to move and the solve's salt (so a table is
reused across solves without clearing). Whatever else a position holds (the order of the ends,
the seats that knocked since the last play) cannot change how it goes on. Move ordering: the
table's best move, then heavier tiles first.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..core.board import (
    AT_FIELDS,
    BONE_POS,
    MAX_ENDS,
    MOVE_ROWS,
    MOVE_SUIT,
    MOVE_TILE,
    N_EMPTY,
    N_SUITS,
    OUT,
    SEAT,
    T_PIPS,
    Board,
    copy_board,
    fill_moves,
    make_log,
    make_notes,
    words_of,
)
from ..core.jit import jit, jit_helper, jit_kernel
from ..core.rng import mix64
from ..core.turn import advance, open_with, play, score, side_of

INF = 1 << 40
OBJ_WIN, OBJ_POINTS, OBJ_WIN_POINTS = 0, 1, 2
WIN_UNIT = 1 << 16
"""Objective ``win, then points``: a leaf is worth ``win * WIN_UNIT + points`` (``win`` 2, 1 or 0,
``points`` the root side's, negative when it loses; far below ``WIN_UNIT / 2`` in any game), so
the minimax orders positions by their ``win`` value, then by points: its ``win`` part is the
``win`` objective's value, and among lines of equal ``win`` value the sides play for points."""
EXACT, LOWER, UPPER = 1, 2, 3
KIND_PLAY, KIND_LEAD, KIND_DOUBLE = 0, 1, 2
"""Root moves: a play on an end, the lead of ``opening='any'``, the highest double's opening."""
C_NODES, C_LIMIT, C_ABORTED, C_ROOT_SIDE, C_OBJECTIVE, C_SALT = range(6)
C_CAP = 6
"""A sampled world's node limit when positive (a move analysis's ``max_nodes``), else
:data:`~dominosim.fast.search.pimc.WORLD_NODES`."""
F_ALPHA, F_BETA, F_LOW, F_HIGH, F_BEST, F_CODE, F_NEXT, F_N, F_MAX, F_SEAT, F_SLOT = range(11)
"""A level's frame: its window now and as entered, its best value and move so far, the next move
to try and how many, whether its seat maximises, the seat, its table slot."""
ENTER, NEXT, RETURN, ABORT = range(4)
"""What the search does next at a level: enter it, try its next move, return its value to the level
above, or stop (past the node limit)."""
_K_HAND = np.uint64(0x9E3779B97F4A7C15)
_K_END = np.uint64(0xD1B54A32D192ED03)
_K_AT = np.uint64(0x8CB92BA72F3D8DD7)

SolveStack = namedtuple("SolveStack", ["hands", "counts", "pips", "ends", "arms", "suit_count",
                                       "bone", "at", "moves", "notes", "log", "tt", "ctl", "frame",
                                       "keys"])
"""The solver's memory: one Board level per ply (``hands[d]``, ..., ``at[d]``; ``bone`` shared),
the legal moves per level, the turn's notes and (empty) log, the transposition table (``tt``: a
row per entry, its key and its packed value, bound and best move, so that a probe reads one cache
line), the control slots ``ctl`` (nodes, node limit, aborted, root side, objective, salt) and the
search's frames (``frame``, ``keys``: one per level)."""
_VALUE_BITS = np.uint64(0xFFFFFFFF)
"""The low 32 bits of a table entry's data: its value (two's complement)."""
_FLAG_SHIFT, _FLAG_BITS = np.uint64(32), np.uint64(3)
"""Where an entry's bound (``EXACT``, ``LOWER``, ``UPPER``) sits, and its mask."""
_MOVE_SHIFT = np.uint64(34)
"""Where an entry's best move (its code + 1; 0: none) sits."""


@jit
def make_stack(t, p, depth, table_bits):
    """A :class:`SolveStack` for ``t`` tiles, ``p`` seats, ``depth`` levels and a table of
    ``2**table_bits`` entries."""
    w = words_of(t)
    size = 1 << table_bits
    return SolveStack(np.zeros((depth, p, w), np.uint64), np.zeros((depth, p), np.int64),
                      np.zeros((depth, p), np.int64), np.zeros((depth, MAX_ENDS), np.int64),
                      np.zeros((depth, MAX_ENDS), np.bool_), np.zeros((depth, N_SUITS), np.int64),
                      np.zeros(t, np.int64), np.zeros((depth, len(AT_FIELDS)), np.int64),
                      np.zeros((depth, MOVE_ROWS, 2 * t), np.int64), make_notes(p), make_log(0, 0),
                      np.zeros((size, 2), np.uint64), np.zeros(8, np.int64),
                      np.zeros((depth, F_SLOT + 1), np.int64), np.zeros(depth, np.uint64))


@jit_helper
def level(st, d):
    """The :class:`~dominosim.fast.core.board.Board` at level ``d`` of the stack (inlined: a Board of
    views returned from a function compiled without reference counting would be freed)."""
    return Board(st.hands[d], st.counts[d], st.pips[d], st.ends[d], st.arms[d], st.suit_count[d],
                 st.bone, st.at[d])


@jit_kernel
def copy_down(core, rp, st, d):
    """Level ``d`` copied into level ``d + 1``."""
    copy_board(core, rp.players, level(st, d), level(st, d + 1))


@jit_kernel
def position_key(core, rp, board, salt):
    """The hash of a decision point (see the module documentation)."""
    at = board.at
    h = mix64(np.uint64(salt) ^ (np.uint64(at[SEAT] + 1) * _K_AT)
              ^ np.uint64((at[BONE_POS] << 16) | (at[N_EMPTY] << 8)))
    for s in range(rp.players):
        for w in range(core.words):
            h ^= mix64(board.hands[s, w] ^ (np.uint64(s * core.words + w + 1) * _K_HAND))
    for v in range(N_SUITS):
        c = board.suit_count[v]
        if c:
            h ^= mix64(np.uint64(c + (v << 8)) * _K_END)
    return h


@jit_helper
def pack(value, flag, move):
    """A table entry's data: the value (32 bits, two's complement), the bound, the move + 1."""
    return (np.uint64(value) & _VALUE_BITS) | (np.uint64(flag) << _FLAG_SHIFT) | \
        (np.uint64(move + 1) << _MOVE_SHIFT)


@jit_helper
def unpack(data):
    """``(value, flag, move)`` of a table entry's data (see :func:`pack`)."""
    value = np.int64(np.int32(np.uint32(data & _VALUE_BITS)))
    flag = np.int64((data >> _FLAG_SHIFT) & _FLAG_BITS)
    return value, flag, np.int64(data >> _MOVE_SHIFT) - 1


@jit_helper
def win_and_points(value):
    """``(win, points)`` of a value under ``win, then points`` (:data:`WIN_UNIT`): ``win`` 2, 1 or
    0, ``points`` the rest. Python calls ``win_and_points.py_func``, which takes arrays too.

    >>> win_and_points.py_func(2 * WIN_UNIT - 5), win_and_points.py_func(WIN_UNIT)
    ((2, -5), (1, 0))
    """
    win = (value + WIN_UNIT // 2) // WIN_UNIT
    return win, value - win * WIN_UNIT


@jit_kernel
def leaf(rp, ctl, board):
    """The value of a finished hand to the root side."""
    winner, points = score(rp, board.pips, board.at[OUT])
    root = ctl[C_ROOT_SIDE]
    objective = ctl[C_OBJECTIVE]
    if objective == OBJ_WIN:
        if winner < 0:
            return 1
        return 2 if winner == root else 0
    if winner < 0:
        return WIN_UNIT if objective == OBJ_WIN_POINTS else 0
    if winner == root:
        return 2 * WIN_UNIT + points if objective == OBJ_WIN_POINTS else points
    return -points


@jit_kernel
def order_moves(moves, n, first):
    """Put the move coded ``first`` (``tile * 16 + suit``) first, then the rest by pips, heaviest
    first (insertion sort: at most a few tens of moves)."""
    start = 0
    if first >= 0:
        for i in range(n):
            if moves[MOVE_TILE, i] * N_SUITS + moves[MOVE_SUIT, i] == first:
                moves[MOVE_TILE, 0], moves[MOVE_TILE, i] = moves[MOVE_TILE, i], moves[MOVE_TILE, 0]
                moves[MOVE_SUIT, 0], moves[MOVE_SUIT, i] = moves[MOVE_SUIT, i], moves[MOVE_SUIT, 0]
                start = 1
                break
    for i in range(start + 1, n):
        tile, suit = moves[MOVE_TILE, i], moves[MOVE_SUIT, i]
        j = i
        while j > start and T_PIPS[moves[MOVE_TILE, j - 1]] < T_PIPS[tile]:
            moves[MOVE_TILE, j], moves[MOVE_SUIT, j] = moves[MOVE_TILE, j - 1], moves[MOVE_SUIT, j - 1]
            j -= 1
        moves[MOVE_TILE, j], moves[MOVE_SUIT, j] = tile, suit


@jit_helper
def enter(core, rp, st, d):
    """Enter level ``d``: ``(RETURN, value)`` when the hand is over there (finished or blocked,
    after the forced draws and knocks) or the table decides it, ``(ABORT, 0)`` past the node
    limit, else ``(NEXT, 0)`` with its moves listed, the table's best first, and its frame set."""
    ctl, fr = st.ctl, st.frame
    ctl[C_NODES] += 1
    if ctl[C_NODES] > ctl[C_LIMIT]:
        ctl[C_ABORTED] = 1
        return ABORT, 0
    board = level(st, d)
    if board.at[OUT] >= 0:
        return RETURN, leaf(rp, ctl, board)
    n, psm = advance(core, rp, board, st.notes, st.log)
    if n == 0:
        return RETURN, leaf(rp, ctl, board)
    seat = board.at[SEAT]
    key = position_key(core, rp, board, ctl[C_SALT])
    slot = np.int64(key & np.uint64(st.tt.shape[0] - 1))
    first = -1
    a, b = fr[d, F_ALPHA], fr[d, F_BETA]
    if st.tt[slot, 0] == key:
        value, flag, move = unpack(st.tt[slot, 1])
        if flag == EXACT:
            return RETURN, value
        if flag == LOWER and value > a:
            a = value
        elif flag == UPPER and value < b:
            b = value
        if a >= b:
            return RETURN, value
        first = move
    moves = st.moves[d]
    n = fill_moves(core, board.hands, seat, psm, moves)
    order_moves(moves, n, first)
    maximise = side_of(rp, seat) == ctl[C_ROOT_SIDE]
    fr[d, F_ALPHA], fr[d, F_BETA], fr[d, F_LOW], fr[d, F_HIGH] = a, b, a, b
    fr[d, F_BEST] = -INF if maximise else INF
    fr[d, F_CODE], fr[d, F_NEXT], fr[d, F_N] = -1, 0, n
    fr[d, F_MAX], fr[d, F_SEAT], fr[d, F_SLOT] = 1 if maximise else 0, seat, slot
    st.keys[d] = key
    return NEXT, 0


@jit_helper
def step(core, rp, st, d):
    """Level ``d`` plays its next move into level ``d + 1`` (``(ENTER, 0)``) or, with no move left
    or the window closed, stores its best value in the table (``(RETURN, value)``)."""
    fr = st.frame
    i = fr[d, F_NEXT]
    if i >= fr[d, F_N] or fr[d, F_ALPHA] >= fr[d, F_BETA]:
        best, slot = fr[d, F_BEST], fr[d, F_SLOT]
        flag = UPPER if best <= fr[d, F_LOW] else LOWER if best >= fr[d, F_HIGH] else EXACT
        st.tt[slot, 0] = st.keys[d]
        st.tt[slot, 1] = pack(best, flag, fr[d, F_CODE])
        return RETURN, best
    fr[d, F_NEXT] = i + 1
    copy_down(core, rp, st, d)
    play(core, rp, level(st, d + 1), st.notes, st.log, fr[d, F_SEAT], st.moves[d, 0, i],
         st.moves[d, 1, i])
    fr[d + 1, F_ALPHA], fr[d + 1, F_BETA] = fr[d, F_ALPHA], fr[d, F_BETA]
    return ENTER, 0


@jit_helper
def back(st, d, ret):
    """Level ``d`` takes ``ret``, the value of the move it tried last: its best value and move so
    far, and its window."""
    fr = st.frame
    i = fr[d, F_NEXT] - 1
    code = st.moves[d, 0, i] * N_SUITS + st.moves[d, 1, i]
    if fr[d, F_MAX]:
        if ret > fr[d, F_BEST]:
            fr[d, F_BEST], fr[d, F_CODE] = ret, code
            if ret > fr[d, F_ALPHA]:
                fr[d, F_ALPHA] = ret
    elif ret < fr[d, F_BEST]:
        fr[d, F_BEST], fr[d, F_CODE] = ret, code
        if ret < fr[d, F_BETA]:
            fr[d, F_BETA] = ret


@jit_kernel
def search(core, rp, st, alpha, beta):
    """The value to the root side of the position at level 1, just after a root move: finished,
    or advanced (draws and knocks) to the next decision and searched in the window
    ``(alpha, beta)`` (fail-soft alpha-beta). Returns 0 with ``ctl[C_ABORTED]`` set past the node
    limit.

    Iterative, with one frame per level in ``st.frame`` (numba's cached code cannot call itself):
    a level is *entered* (:func:`enter`: a leaf, a table hit, or its moves listed), steps to its
    *next* move one level down (:func:`step`), or *returns* its value to the level above
    (:func:`back`)."""
    d = 1
    st.frame[1, F_ALPHA], st.frame[1, F_BETA] = alpha, beta
    mode, ret = ENTER, 0
    while True:
        if mode == ENTER:
            mode, ret = enter(core, rp, st, d)
        elif mode == NEXT:
            mode, ret = step(core, rp, st, d)
            if mode == ENTER:
                d += 1
        elif mode == RETURN:
            if d == 1:
                return ret
            d -= 1
            back(st, d, ret)
            mode = NEXT
        else:  # ABORT
            return 0


@jit_kernel
def solve_play(core, rp, st, seat, tile, suit):
    """The exact value to the root side of ``seat`` playing ``tile`` on ``suit`` in the position
    at level 0 (0 with ``ctl[C_ABORTED]`` set past the node limit)."""
    copy_down(core, rp, st, 0)
    play(core, rp, level(st, 1), st.notes, st.log, seat, tile, suit)
    return search(core, rp, st, -INF, INF)


@jit
def solve_root(core, rp, st, seat, tiles, suits, kinds, values):
    """The exact value to the root side of each root move ``(tiles[i], suits[i])`` of ``seat``
    (``kinds``: a play, a lead or the highest double's opening) from the position at level 0.
    Returns False when the node limit was reached."""
    for i in range(tiles.shape[0]):
        if kinds[i] == KIND_PLAY:
            values[i] = solve_play(core, rp, st, seat, tiles[i], suits[i])
        else:
            copy_down(core, rp, st, 0)
            open_with(core, rp, level(st, 1), st.notes, st.log, seat, tiles[i],
                      kinds[i] == KIND_DOUBLE)
            values[i] = search(core, rp, st, -INF, INF)
        if st.ctl[C_ABORTED]:
            return False
    return True
