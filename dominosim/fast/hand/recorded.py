"""The decisions met in play, with the features of every legal move: the compiled engine's side
of :func:`dominosim.players.decisions` (positions for learned players, and the differential
test of the features).

:func:`decisions_of` plays one hand as the hand kernel does (the same deal, the same choices) and,
at every decision with two or more legal moves, writes one row per legal move: the columns
:data:`COLUMNS` then the features. It runs on the general kernel of the rules' word count
(:func:`general_shape`), so that one compilation serves every game of a set size.
"""

from __future__ import annotations

from ...rules import Rules
from ...strategies.features import N_FEATURES
from ..core.board import MOVE_SUIT, MOVE_TILE, OUT, SEAT, fill_moves
from ..core.jit import jit_entry, jit_kernel
from ..core.rng import hand_key
from ..core.shape import Shape
from ..core.status import OK
from ..core.turn import advance, play
from ..players.features import move_features
from .kernel import choose, start_hand

COLUMNS = ("decision", "seat", "tile", "suit", "chosen")
"""The columns of a decision row before the features (``decision``: its number in the hand)."""
COL_DECISION, COL_SEAT, COL_TILE, COL_SUIT, COL_CHOSEN = range(len(COLUMNS))
N_COLUMNS = len(COLUMNS) + N_FEATURES
"""Width of a decision row."""


def general_shape(rules: Rules, plugins: bool = False, searches: bool = False) -> Shape:
    """The shape :func:`decisions_of` runs on: the general kernel of the rules' word count, with
    the style tables the features read."""
    general = Shape.of(rules, plugins=plugins, searches=True)
    return Shape(general.words, general.line, general.draws, True, plugins, False, searches)


@jit_kernel
def write_moves(shape, rp, scratch, seat, n, psm, out, r):
    """Write the ``n`` legal moves of ``seat`` (in canonical order) with their features into rows
    ``r .. r + n - 1`` of ``out``; returns ``r + n``."""
    moves, f = scratch.moves, scratch.features
    decision = out[r - 1, COL_DECISION] + 1 if r > 0 else 0
    fill_moves(shape, scratch.board.hands, seat, psm, moves)
    for i in range(n):
        move_features(shape, rp, scratch.board, scratch.notes, seat, moves[MOVE_TILE, i], moves[MOVE_SUIT, i], f)
        out[r + i, COL_DECISION] = decision
        out[r + i, COL_SEAT], out[r + i, COL_CHOSEN] = seat, 0
        out[r + i, COL_TILE], out[r + i, COL_SUIT] = moves[MOVE_TILE, i], moves[MOVE_SUIT, i]
        for j in range(N_FEATURES):
            out[r + i, len(COLUMNS) + j] = f[j]
    return r + n


@jit_entry
def decisions_of(shape, rp, lineup, seed, hand, out, scratch, search):
    """Play hand ``hand`` of the run seeded ``seed``, writing every decision's legal moves into
    ``out``; returns ``(status, rows written)``, rows -1 when ``out`` is too small."""
    status, _ = start_hand(shape, rp, lineup, hand_key(seed, hand), scratch)
    board, r = scratch.board, 0
    while status == OK and board.at[OUT] < 0:
        n, psm = advance(shape, rp, board, scratch.notes, scratch.log)
        if n == 0:
            break
        seat, first = board.at[SEAT], r
        if n >= 2:
            if r + n > out.shape[0]:
                return OK, -1
            r = write_moves(shape, rp, scratch, seat, n, psm, out, r)
        status, tile, suit = choose(shape, rp, lineup, seat, n, psm, scratch, search)
        for i in range(first, r):
            if out[i, COL_TILE] == tile and out[i, COL_SUIT] == suit:
                out[i, COL_CHOSEN] = 1
        if status == OK:
            play(shape, rp, board, scratch.notes, scratch.log, seat, tile, suit)
    return status, r
