"""One hand of dominoes, compiled: deal, open, turn until over, record.

The rules are in :mod:`dominosim.fast.core.turn` (the one compiled turn, shared with the search
playouts), the deterministic strategies in :mod:`dominosim.fast.core.styles`, the search strategies in
:mod:`dominosim.fast.search.search`. :func:`play_hand` is compiled once per
:class:`~dominosim.fast.core.shape.Shape`; the search is compiled into it only when ``search`` is not
None (numba prunes the branch before typing), so a run with no searching seat never compiles it.
A hand's record is one ``int16`` row indexed by the ``C_*`` constants; problems come back as the
status codes of :mod:`dominosim.fast.core.status`, never exceptions.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..core.bits import lowest_bit
from ..core.board import (
    BONE_END,
    BONE_POS,
    DRAWS,
    KNOCKS,
    MOVE_ROWS,
    MOVE_SUIT,
    MOVE_TILE,
    N_ENDS,
    N_EVENTS,
    N_PUBLIC,
    N_SUITS,
    ONE,
    OPENER,
    OPENING,
    OUT,
    PLAYS,
    SEAT,
    T_DOUBLE,
    T_HIGH,
    T_LOW,
    empty_hands,
    fill_moves,
    give,
    holds,
    kth_move,
    kth_tile,
    make_board,
    make_log,
    make_notes,
)
from ..core.gates import gate, given
from ..core.jit import jit, jit_core, jit_helper
from ..core.params import OMNISCIENT, PLUGIN, S_RANDOM, S_WEIGHTED, SEARCH_METHOD
from ..core.rng import below, deal_key, seat_key, shuffle
from ..core.status import ERR_LOG_FULL, ERR_REDEALS, OK, plugin_fault
from ..core.styles import best_move, heaviest_lead
from ..core.turn import advance, leads_any, open_with, partner_of, play, score
from ..players.weighted import SCORES, weighted_move
from ..search.infer import set_models
from ..search.search import Budget, Decision, decide
from .plugin import (
    V_BONEYARD,
    V_HAND_OFFSET,
    V_N_ENDS,
    V_OPENER,
    V_PARTNER,
    V_PLAYERS,
    V_SEAT,
    V_SUIT_COUNT,
    V_TILE_COUNTS,
    call_plugin,
)

# ---------------------------------------------------------------- record columns (int16 row)
C_OPENER, C_OPEN_DOUBLE, C_OPEN_TILE, C_END, C_WIN, C_POINTS, C_PLAYS, C_KNOCKS = range(8)
C_DRAWS, C_STITCH, C_BONE_LEFT, C_OUT_SEAT = range(8, 12)
N_BASE_COLS = 12  # then pips_s, tiles_left_s, stitch_ups_s for s in seats


def n_record_cols(players: int) -> int:
    """Width of the ``int16`` record row for ``players`` seats."""
    return N_BASE_COLS + 3 * players


MAX_REDEALS = 1_000_000

Scratch = namedtuple("Scratch", ["board", "notes", "log", "moves", "rng", "seen", "features"])
"""What one block of hands works in: the :class:`~dominosim.fast.core.board.Board`, the
:class:`~dominosim.fast.core.board.Notes`, the :class:`~dominosim.fast.core.board.Log`, the legal moves
(tiles, suits), the random streams (one per seat, then the deal's), ``seen``, what a plug-in sees,
and ``features``, one move's decision features (:mod:`dominosim.fast.players.features`), then
the weighted player's score of each legal move."""


@jit
def make_scratch(t, p, n_events, n_pub, plugins):
    """A :class:`Scratch` for ``t`` tiles and ``p`` seats (allocated once per block of hands), with
    room for ``n_events`` events and ``n_pub`` public events, and a plug-in's view if
    ``plugins``."""
    return Scratch(make_board(t, p), make_notes(p), make_log(n_events, n_pub),
                   np.zeros((MOVE_ROWS, 2 * t), np.int64), np.zeros(p + 1, np.uint64),
                   np.zeros(V_TILE_COUNTS + V_HAND_OFFSET * p + t if plugins else 0, np.int64),
                   np.zeros(SCORES + 2 * t, np.float64))


# ---------------------------------------------------------------- the deal
@jit_helper
def deal(shape, rp, base, board, rng):
    """Shuffle and deal (redealing while no seat holds a double under the highest-double opening).

    Seat ``s`` takes ``bone[s*h : s*h+h]``; the boneyard is the rest in order. Returns the number
    of redeals, or -1 past ``MAX_REDEALS``.
    """
    perm, t, dealt = board.bone, rp.tiles, rp.players * rp.hand_size
    for k in range(MAX_REDEALS):
        for i in range(t):
            perm[i] = i
        rng[rp.players] = deal_key(base, k)
        shuffle(rng, rp.players, perm, t)
        has_double = leads_any(rp) == 1
        for i in range(dealt):
            if T_LOW[perm[i]] == T_HIGH[perm[i]]:
                has_double = True
                break
        if has_double:
            empty_hands(shape, board, rp.players)
            i = 0
            for s in range(rp.players):  # no division per tile
                for _ in range(rp.hand_size):
                    give(board, s, perm[i])
                    i += 1
            board.at[BONE_POS], board.at[BONE_END] = dealt, t
            return k
    return -1


# ---------------------------------------------------------------- the strategies' choices
@jit_core
def ask_plugin(shape, rp, lineup, scratch, seat, n):
    """Fill the plug-in's view (``scratch.seen``) and ask it for the index of its move among the
    ``n`` in ``scratch.moves``."""
    board, notes, moves, rng, view = scratch.board, scratch.notes, scratch.moves, scratch.rng, \
        scratch.seen
    view[V_SEAT], view[V_PLAYERS] = seat, rp.players
    view[V_BONEYARD] = board.at[BONE_END] - board.at[BONE_POS]
    view[V_N_ENDS], view[V_OPENER] = board.at[N_ENDS], board.at[OPENER]
    view[V_PARTNER] = partner_of(rp, seat)
    for v in range(N_SUITS):
        view[V_SUIT_COUNT + v] = board.suit_count[v]
    for s in range(rp.players):
        view[V_TILE_COUNTS + s] = board.counts[s]
        view[V_TILE_COUNTS + rp.players + s] = notes.lacks[s]
    i = V_TILE_COUNTS + V_HAND_OFFSET * rp.players
    for w in range(shape.words):
        word = board.hands[seat, w]
        while word:
            view[i] = w * 64 + lowest_bit(word)
            word &= word - ONE
            i += 1
    return call_plugin(lineup.plugins[seat], moves[0], moves[1], n, view, rng[seat:seat + 1],
                       view.shape[0])


styled_move = gate("styles", best_move)
""":func:`~dominosim.fast.core.styles.best_move` in the kernels where a seat plays a style."""
plugin_move = gate("plugins", ask_plugin, -1)
""":func:`ask_plugin` in the kernels where a seat plays a plug-in (-1 elsewhere)."""
weighted = given(weighted_move)
""":func:`~dominosim.fast.players.weighted.weighted_move` in the kernels whose line-up carries
weights (some seat plays a weighted player; 0 elsewhere, and not compiled)."""


@jit_helper
def search_move(shape, rp, lineup, seat, n, scratch, search):
    """The index of a search strategy's move among the ``n`` moves in ``scratch.moves``, or a
    status of the search, negated."""
    code = lineup.codes[seat]
    log = scratch.log
    set_models(lineup.models, lineup.model_rows, seat, lineup.infer[seat], search.infer)
    budget = Budget(SEARCH_METHOD[code], OMNISCIENT[code], lineup.budgets[seat])
    decision = Decision(seat, n, scratch.moves, scratch.board, log.pub, log.count[N_PUBLIC])
    return decide(shape.core, rp, budget, decision, search, scratch.rng[seat:seat + 1])


@jit_helper
def choose(shape, rp, lineup, seat, n, psm, scratch, search):
    """``(status, tile, suit)``: the move the strategy of ``seat`` makes among its ``n >= 1``
    legal moves (a strategy is asked only when ``n >= 2``)."""
    board, rng, moves = scratch.board, scratch.rng, scratch.moves
    code = lineup.codes[seat]
    if n == 1 or code == S_RANDOM:
        tile, suit = kth_move(shape, board.hands, seat, psm, below(rng, seat, n) if n > 1 else 0)
        return OK, tile, suit
    fill_moves(shape, board.hands, seat, psm, moves)
    k = 0
    if search is not None:
        if lineup.budgets[seat] > 0:
            k = search_move(shape, rp, lineup, seat, n, scratch, search)
            if k < 0:
                return -k, -1, -1
            return OK, moves[MOVE_TILE, k], moves[MOVE_SUIT, k]
    if code == PLUGIN:
        k = plugin_move(shape, rp, lineup, scratch, seat, n)
        if k < 0 or k >= n:
            return plugin_fault(seat, k), -1, -1
    elif code == S_WEIGHTED:
        k = weighted(lineup.weights, shape, rp, seat, n, scratch)
    else:
        k = styled_move(shape, rp, code, board, scratch.notes, seat, moves, n)
    return OK, moves[MOVE_TILE, k], moves[MOVE_SUIT, k]


@jit_helper
def choose_lead(shape, rp, lineup, seat, scratch):
    """``(status, tile)``: the tile the leader puts down under ``opening='any'``: uniform for
    ``random``, the plug-in's choice, the heaviest for every other built-in."""
    board, rng, moves = scratch.board, scratch.rng, scratch.moves
    n, code = board.counts[seat], lineup.codes[seat]
    if n == 1 or code == S_RANDOM:
        return OK, kth_tile(shape, board.hands, seat, below(rng, seat, n) if n > 1 else 0)
    if code == PLUGIN:
        for i in range(n):
            moves[MOVE_TILE, i], moves[MOVE_SUIT, i] = kth_tile(shape, board.hands, seat, i), -1
        k = plugin_move(shape, rp, lineup, scratch, seat, n)
        if k < 0 or k >= n:
            return plugin_fault(seat, k), -1
        return OK, moves[MOVE_TILE, k]
    return OK, heaviest_lead(shape, code, board.hands, seat)


@jit_helper
def highest_double(rp, hands):
    """``(seat, tile)``: who holds the highest double, and which it is."""
    for d in range(rp.max_pip, -1, -1):
        for s in range(rp.players):
            if holds(hands, s, T_DOUBLE[d]):
                return s, T_DOUBLE[d]
    return -1, -1


# ---------------------------------------------------------------- one hand
@jit_helper
def start_hand(shape, rp, lineup, base, scratch):
    """Deal and make the opening play; returns ``(status, redeals)``."""
    board, notes, rng = scratch.board, scratch.notes, scratch.rng
    redeals = deal(shape, rp, base, board, rng)
    if redeals < 0:
        return ERR_REDEALS, 0
    scratch.log.count[N_EVENTS], scratch.log.count[N_PUBLIC] = 0, 0
    for s in range(rp.players):
        rng[s] = seat_key(base, s)
        notes.stitch[s] = 0
        if shape.styles:
            notes.lacks[s] = 0
            for v in range(N_SUITS):
                notes.played[s, v] = 0
    lead_any = leads_any(rp) == 1
    if lead_any:
        seat = rp.leader
        board.at[N_ENDS], board.at[OPENER] = 0, -1  # what a plug-in sees before the lead
        for v in range(N_SUITS):
            board.suit_count[v] = 0
        status, tile = choose_lead(shape, rp, lineup, seat, scratch)
        if status != OK:
            return status, redeals
    else:
        seat, tile = highest_double(rp, board.hands)
    open_with(shape, rp, board, notes, scratch.log, seat, tile, not lead_any)
    return OK, redeals


@jit_helper
def play_hand(shape, rp, lineup, base, row, scratch, search):
    """Play the hand keyed ``base`` and write its record into ``row`` (one ``int16`` row).

    ``search``: the search strategies' buffers, or None when no seat searches. Returns
    ``(status, redeals)``.
    """
    board = scratch.board
    status, redeals = start_hand(shape, rp, lineup, base, scratch)
    if status != OK:
        return status, redeals
    while board.at[OUT] < 0:
        n, psm = advance(shape, rp, board, scratch.notes, scratch.log)
        if n == 0:
            break
        seat = board.at[SEAT]
        status, tile, suit = choose(shape, rp, lineup, seat, n, psm, scratch, search)
        if status != OK:
            return status, redeals
        play(shape, rp, board, scratch.notes, scratch.log, seat, tile, suit)
    record(rp, board, scratch.notes, row)
    if shape.events and scratch.log.count[N_EVENTS] > scratch.log.events.shape[0]:
        return ERR_LOG_FULL, redeals
    return OK, redeals


@jit_helper
def record(rp, board, notes, row):
    """Write the finished hand's record into ``row``."""
    at = board.at
    winner, points = score(rp, board.pips, at[OUT])
    tile = at[OPENING]
    row[C_OPENER], row[C_OPEN_TILE] = at[OPENER], tile
    row[C_OPEN_DOUBLE] = T_LOW[tile] if T_LOW[tile] == T_HIGH[tile] else -1
    row[C_END] = 1 if at[OUT] < 0 else 0
    row[C_WIN], row[C_POINTS] = winner, points
    row[C_PLAYS], row[C_KNOCKS], row[C_DRAWS] = at[PLAYS], at[KNOCKS], at[DRAWS]
    total = 0
    p = rp.players
    for s in range(p):
        total += notes.stitch[s]
        row[N_BASE_COLS + s] = board.pips[s]
        row[N_BASE_COLS + p + s] = board.counts[s]
        row[N_BASE_COLS + 2 * p + s] = notes.stitch[s]
    row[C_STITCH] = total
    row[C_BONE_LEFT] = at[BONE_END] - at[BONE_POS]
    row[C_OUT_SEAT] = at[OUT]
