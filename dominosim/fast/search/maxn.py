"""The perfect-information solver for three or more sides, compiled: max-n over the one compiled turn.

Every hand and the boneyard's order are known; every seat plays for its own side. Where the
alpha-beta search of :mod:`.solve` keeps one value for the root side, max-n keeps the outcome of
the hand each line leads to, and each seat picks the move whose outcome is best *for its own side*:
``win`` gives the sole winning side :data:`SHARE` and the ``k`` sides of a ``k``-way tie
``SHARE / k`` each (the rule book's shares, scaled to integers), ``points`` gives the winning side
its points and every other side their negative (a tie: 0 for all). Of moves of equal value to the
seat's side the first in the canonical move order (tile id, then suit) is played, so the search
tries moves in that order and replaces its best only by a strictly better one. The order matters:
equal moves for one side may differ for the others.

An outcome travels up the tree as one integer, its *code*: the mask of the winning sides (one bit,
or the tied sides' bits) in the low :data:`MASK_BITS` bits, the winning side's points above.

It reuses the alpha-beta search's stack, table and turn (:func:`.solve.make_stack`,
:func:`.solve.position_key`, :func:`~dominosim.fast.core.turn.play`,
:func:`~dominosim.fast.core.turn.advance`); the table stores exact codes only. Under ``win`` the
shares of the sides add up to :data:`SHARE`, which allows shallow pruning: once a seat's side is
sure of ``v``, the side that moved just before it can get at most ``SHARE - v`` from this position,
and when that is no more than what it already has elsewhere the position cannot be its choice
(its value, then only a bound, is not stored). A seat whose side is sure of :data:`SHARE` (a sole
win) stops looking: no later move is strictly better.
"""

from __future__ import annotations

import numpy as np

from ..core.board import N_SUITS, OUT, SEAT, fill_moves
from ..core.jit import jit, jit_helper, jit_kernel
from ..core.turn import advance, lowest_sides, open_with, play, score, side_of
from .solve import (
    ABORT,
    C_ABORTED,
    C_LIMIT,
    C_NODES,
    C_OBJECTIVE,
    C_SALT,
    ENTER,
    EXACT,
    INF,
    KIND_DOUBLE,
    KIND_PLAY,
    NEXT,
    OBJ_WIN,
    RETURN,
    copy_down,
    level,
    pack,
    position_key,
    unpack,
)

SHARE = 2520
"""A sole win, in the integer shares of :func:`share` (divisible by every ``k`` up to 10 sides)."""
MASK_BITS = 10
"""The bits of an outcome's code that hold the mask of winning sides (at most 10 sides)."""
(M_BEST, M_CODE, M_NEXT, M_N, M_SEAT, M_SLOT, M_MINE, M_BOUND, M_PARENT, M_CUT) = range(10)
"""A level's frame: its best outcome's code and move, the next move to try and how many, the seat,
its table slot, its side's value of the best outcome, the value the side that moved before it
already has (the bound of shallow pruning) and that side (-1: none), and whether it stopped early
(:data:`GOING`, :data:`STOPPED`: exact, :data:`PRUNED`: a bound)."""
GOING, STOPPED, PRUNED = 0, 1, 2


@jit_kernel
def outcome(rp, board):
    """The code of a finished hand: the mask of the winning side, or of the sides that tie, and
    the winning side's points (0 in a tie)."""
    winner, points = score(rp, board.pips, board.at[OUT])
    if winner >= 0:
        return (1 << winner) | (points << MASK_BITS)
    return lowest_sides(rp, board.pips)  # a tie, which only a blocked hand has


@jit_kernel
def share(objective, code, side):
    """What the outcome ``code`` is worth to ``side``: under ``win`` :data:`SHARE` for the sole
    winner and ``SHARE / k`` to each of ``k`` tied sides, under ``points`` the winner's points, their
    negative for every other side, 0 to all in a tie."""
    mask = code & ((1 << MASK_BITS) - 1)
    k, m = 0, mask
    while m:
        m &= m - 1
        k += 1
    mine = (mask >> side) & 1
    if objective == OBJ_WIN:
        return SHARE // k if mine else 0
    if k > 1:
        return 0
    points = code >> MASK_BITS
    return points if mine else -points


@jit_helper
def enter_maxn(core, rp, st, d):
    """Enter level ``d``: ``(RETURN, code)`` when the hand is over there or the table knows it,
    ``(ABORT, 0)`` past the node limit, else ``(NEXT, 0)`` with its moves listed in canonical order
    and its frame set (its bound and the side before it were set by the level above)."""
    ctl, fr = st.ctl, st.frame
    ctl[C_NODES] += 1
    if ctl[C_NODES] > ctl[C_LIMIT]:
        ctl[C_ABORTED] = 1
        return ABORT, 0
    board = level(st, d)
    if board.at[OUT] >= 0:
        return RETURN, outcome(rp, board)
    n, psm = advance(core, rp, board, st.notes, st.log)
    if n == 0:
        return RETURN, outcome(rp, board)
    seat = board.at[SEAT]
    key = position_key(core, rp, board, ctl[C_SALT])
    slot = np.int64(key & np.uint64(st.tt.shape[0] - 1))
    if st.tt[slot, 0] == key:
        code, flag, _ = unpack(st.tt[slot, 1])
        if flag == EXACT:
            return RETURN, code
    fr[d, M_N] = fill_moves(core, board.hands, seat, psm, st.moves[d])
    fr[d, M_BEST], fr[d, M_CODE], fr[d, M_NEXT], fr[d, M_SEAT] = 0, -1, 0, seat
    fr[d, M_SLOT], fr[d, M_MINE], fr[d, M_CUT] = slot, -INF, GOING
    st.keys[d] = key
    return NEXT, 0


@jit_helper
def step_maxn(core, rp, st, d):
    """Level ``d`` plays its next move into level ``d + 1`` (``(ENTER, 0)``) or, with no move left
    or stopped early, returns its best outcome (``(RETURN, code)``), stored when exact."""
    fr = st.frame
    i = fr[d, M_NEXT]
    if i >= fr[d, M_N] or fr[d, M_CUT] != GOING:
        if fr[d, M_CUT] != PRUNED:
            st.tt[fr[d, M_SLOT], 0] = st.keys[d]
            st.tt[fr[d, M_SLOT], 1] = pack(fr[d, M_BEST], EXACT, fr[d, M_CODE])
        return RETURN, fr[d, M_BEST]
    fr[d, M_NEXT] = i + 1
    copy_down(core, rp, st, d)
    play(core, rp, level(st, d + 1), st.notes, st.log, fr[d, M_SEAT], st.moves[d, 0, i],
         st.moves[d, 1, i])
    fr[d + 1, M_BOUND], fr[d + 1, M_PARENT] = fr[d, M_MINE], side_of(rp, fr[d, M_SEAT])
    return ENTER, 0


@jit_helper
def back_maxn(rp, st, d, ret):
    """Level ``d`` takes ``ret``, the outcome of the move it tried last: its best so far when
    strictly better for its side, and whether it may stop (a sole win, or shallow pruning)."""
    fr = st.frame
    objective = st.ctl[C_OBJECTIVE]
    side = side_of(rp, fr[d, M_SEAT])
    value = share(objective, ret, side)
    if value <= fr[d, M_MINE]:
        return
    i = fr[d, M_NEXT] - 1
    fr[d, M_MINE], fr[d, M_BEST] = value, ret
    fr[d, M_CODE] = st.moves[d, 0, i] * N_SUITS + st.moves[d, 1, i]
    if objective != OBJ_WIN:
        return
    if value == SHARE:
        fr[d, M_CUT] = STOPPED
    elif fr[d, M_PARENT] >= 0 and fr[d, M_PARENT] != side and SHARE - value <= fr[d, M_BOUND]:
        fr[d, M_CUT] = PRUNED


@jit_kernel
def search_maxn(core, rp, st):
    """The outcome's code of the position at level 1, just after a root move (0 with
    ``ctl[C_ABORTED]`` set past the node limit): iterative like :func:`.solve.search`, a level
    *entered*, stepping to its *next* move or *returning* its outcome to the level above."""
    d = 1
    st.frame[1, M_BOUND], st.frame[1, M_PARENT] = -INF, -1
    mode, ret = ENTER, 0
    while True:
        if mode == ENTER:
            mode, ret = enter_maxn(core, rp, st, d)
        elif mode == NEXT:
            mode, ret = step_maxn(core, rp, st, d)
            if mode == ENTER:
                d += 1
        elif mode == RETURN:
            if d == 1:
                return ret
            d -= 1
            back_maxn(rp, st, d, ret)
            mode = NEXT
        else:  # ABORT
            return 0


@jit
def solve_root_maxn(core, rp, st, seat, tiles, suits, kinds, codes):
    """The outcome's code of each root move ``(tiles[i], suits[i])`` of ``seat`` (``kinds``: a
    play, a lead or the highest double's opening) from the position at level 0, every seat playing
    max-n. Returns False when the node limit was reached."""
    for i in range(tiles.shape[0]):
        copy_down(core, rp, st, 0)
        if kinds[i] == KIND_PLAY:
            play(core, rp, level(st, 1), st.notes, st.log, seat, tiles[i], suits[i])
        else:
            open_with(core, rp, level(st, 1), st.notes, st.log, seat, tiles[i],
                      kinds[i] == KIND_DOUBLE)
        codes[i] = search_maxn(core, rp, st)
        if st.ctl[C_ABORTED]:
            return False
    return True
