"""The deterministic built-in strategies, compiled: ``bully``, ``doubles`` and the player styles
``accompanied``, ``stitcher``, ``counter`` and ``partner`` (their rules are documented in
:mod:`dominosim.strategies`; both engines make the same choices, tested hand for hand).

Each style maximises a key over the legal moves; ties go to the ``bully`` key (the heaviest tile, a
double first), then to the later move in canonical order. The keys read the suits each seat is
known to lack and the tiles each seat played (:class:`~dominosim.fast.core.board.Notes`).
"""

from __future__ import annotations

import numpy as np

from ..core.bits import lowest_bit, popcount
from ..core.board import MOVE_SUIT, MOVE_TILE, ONE, SUIT_TILES, T_HIGH, T_LOW, T_PIPS
from ..core.jit import jit_core
from ..core.params import S_ACCOMPANIED, S_BULLY, S_COUNTER, S_DOUBLES, S_STITCHER
from ..core.turn import left_of, other_end, partner_of, side_of, suits_after


@jit_core
def holds_suit_besides(shape, hands, seat, tile, suit):
    """How many tiles other than ``tile`` with ``suit`` on them ``seat`` holds."""
    n = 0
    for w in range(shape.words):
        word = hands[seat, w] & SUIT_TILES[suit, w]
        if tile >> 6 == w:
            word &= ~(ONE << np.uint64(tile & 63))
        n += popcount(word)
    return n


@jit_core
def stitcher_key(shape, rp, board, notes, seat, tile, suit):
    """2 for a stitch-up on a suit it holds more of that no opponent is known to have; 1 for no
    stitch-up; 0 for a stitch-up that may help an opponent or that it cannot follow."""
    mask, ends = suits_after(shape, rp, board, tile, suit)
    if ends < 2 or mask & (mask - 1) != 0:
        return 1
    stitched = lowest_bit(np.uint64(mask))
    if holds_suit_besides(shape, board.hands, seat, tile, stitched) == 0:
        return 0
    for s in range(rp.players):
        if side_of(rp, s) != side_of(rp, seat) and (notes.lacks[s] >> stitched) & 1 == 0:
            return 0
    return 2


@jit_core
def style_key(shape, rp, strategy, board, notes, seat, tile, suit):
    """The key a deterministic built-in maximises for the move ``(tile, suit)``."""
    if strategy == S_BULLY:
        return 0
    if strategy == S_DOUBLES:
        return 1 if T_LOW[tile] == T_HIGH[tile] else 0
    if strategy == S_ACCOMPANIED:
        return holds_suit_besides(shape, board.hands, seat, tile, other_end(tile, suit))
    if strategy == S_STITCHER:
        return stitcher_key(shape, rp, board, notes, seat, tile, suit)
    mask, _ = suits_after(shape, rp, board, tile, suit)
    partner = partner_of(rp, seat)
    if strategy == S_COUNTER:
        nxt = left_of(rp, seat)  # the seat to the left, out or not (as the reference's counter)
        key = popcount(np.uint64(mask & notes.lacks[nxt]))
        if partner >= 0:
            key -= popcount(np.uint64(mask & notes.lacks[partner]))
        return key + 16
    # partner
    if partner < 0:
        return 0
    helps = 0 if mask & ~notes.lacks[partner] == 0 else 1
    fed = 0
    for v in range(16):
        if (mask >> v) & 1:
            fed += notes.played[partner, v]
    return helps * 4096 + fed


@jit_core
def best_move(shape, rp, strategy, board, notes, seat, moves, n):
    """The index of a deterministic built-in's move among the ``n`` moves in ``moves``: the
    largest style key, then the ``bully`` key (heaviest, a double), then the later move in
    canonical order (higher tile id, higher suit)."""
    best, best_key = 0, -1
    for i in range(n):
        tile = moves[MOVE_TILE, i]
        heavy = T_PIPS[tile] * 2 + (1 if T_LOW[tile] == T_HIGH[tile] else 0)
        key = style_key(shape, rp, strategy, board, notes, seat, tile, moves[MOVE_SUIT, i]) * 64 + heavy
        if key >= best_key:  # canonical order: ">=" keeps the later of equal keys
            best, best_key = i, key
    return best


@jit_core
def heaviest_lead(shape, strategy, hands, seat):
    """The tile a deterministic built-in leads under ``opening='any'``: the heaviest (``doubles``:
    the heaviest double first), the later tile id on ties."""
    best_tile, best_key = -1, -1
    for w in range(shape.words):
        word = hands[seat, w]
        while word:
            tile = w * 64 + lowest_bit(word)
            word &= word - ONE
            double = 1 if T_LOW[tile] == T_HIGH[tile] else 0
            key = T_PIPS[tile] * 2 + double + (64 * double if strategy == S_DOUBLES else 0)
            if key >= best_key:
                best_key, best_tile = key, tile
    return best_tile

