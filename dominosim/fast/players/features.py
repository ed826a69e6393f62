"""The decision features of one legal move, compiled: :func:`move_features` writes the vector of
:data:`dominosim.strategies.features.FEATURES` (same order, same meaning) for the seat to move.

It reads the seat's hand, the ends (``Board.suit_count``, the suits showing), the tile counts, the
boneyard's size, and the public notes (:class:`~dominosim.fast.core.board.Notes`: the suits each seat is
known to lack, the tiles each seat played). The unseen tiles are counted as the complement of what
the seat has seen, which on the board are the other hands and the boneyard: their number and
contents by suit are the same whatever the hidden deal, as the test that changes hidden tiles
checks. The kernel's shape must keep the style tables (``Shape.styles``), as for the styles.

Examples
--------
>>> F_PIPS, F_BLOCK_WIN, F_BONEYARD
(0, 16, 21)
"""

from __future__ import annotations

import numpy as np

from ...strategies.features import FEATURE_NAMES
from ..core.bits import popcount
from ..core.board import BONE_END, BONE_POS, N_SUITS, ONE, T_HIGH, T_LOW, T_PIPS, suit_union
from ..core.jit import jit_core, jit_helper, jit_kernel
from ..core.turn import other_end, partner_of, side_of, suits_after

_AT = {name: i for i, name in enumerate(FEATURE_NAMES)}
F_PIPS, F_DOUBLE, F_KEEP_SUIT = _AT["pips"], _AT["double"], _AT["keep_suit"]
F_KEEP_PLAYABLE, F_KEEP_SUITS = _AT["keep_playable"], _AT["keep_suits"]
F_ENDS_SUITS, F_SELF_LACKS = _AT["ends_suits"], _AT["self_lacks"]
F_PARTNER_LACKS, F_PARTNER_SHUT = _AT["partner_lacks"], _AT["partner_shut"]
F_NEXT_LACKS, F_OPPONENTS_SHUT = _AT["next_lacks"], _AT["opponents_shut"]
F_UNSEEN_LEFT, F_UNSEEN_ENDS = _AT["unseen_left"], _AT["unseen_ends"]
F_STITCH_UP, F_STITCH_MINE = _AT["stitch_up"], _AT["stitch_mine"]
F_BLOCKS, F_BLOCK_WIN, F_PARTNER_FED = _AT["blocks"], _AT["block_win"], _AT["partner_fed"]
F_PIPS_IF_SHORT, F_MY_TILES = _AT["pips_if_short"], _AT["my_tiles"]
F_FEWEST_OPPONENT, F_BONEYARD = _AT["fewest_opponent"], _AT["boneyard"]


@jit_helper
def kept_word(hands, seat, tile, w):
    """Word ``w`` of the hand of ``seat`` without ``tile``."""
    word = hands[seat, w]
    if tile >> 6 == w:
        word &= ~(ONE << np.uint64(tile & 63))
    return word


@jit_core
def kept_holding(shape, hands, seat, tile, suits):
    """Tiles of ``seat`` other than ``tile`` holding a suit of the mask ``suits``."""
    n = 0
    for w in range(shape.words):
        n += popcount(kept_word(hands, seat, tile, w) & suit_union(suits, w))
    return n


@jit_core
def unseen_holding(shape, rp, board, seat, suits):
    """Tiles ``seat`` has not seen (the other hands, the boneyard) holding a suit of ``suits``."""
    n = 0
    for s in range(rp.players):
        if s != seat:
            for w in range(shape.words):
                n += popcount(board.hands[s, w] & suit_union(suits, w))
    for i in range(board.at[BONE_POS], board.at[BONE_END]):
        tile = board.bone[i]
        if (suits >> T_LOW[tile]) & 1 or (suits >> T_HIGH[tile]) & 1:
            n += 1
    return n


@jit_kernel
def block_win(rp, board, seat, kept_pips):
    """+1, -1 or 0: the side that would win a blocked hand on pips, the seat's kept pips against
    the average unseen tile for every tile another seat holds (scaled by the unseen tiles)."""
    n_unseen, unseen_pips = board.at[BONE_END] - board.at[BONE_POS], 0
    for i in range(board.at[BONE_POS], board.at[BONE_END]):
        unseen_pips += T_PIPS[board.bone[i]]
    for s in range(rp.players):
        if s != seat:
            n_unseen += board.counts[s]
            unseen_pips += board.pips[s]
    mine_side = side_of(rp, seat)
    mine, best_other = 0, -1
    for k in range(rp.sides):
        total = 0
        for s in range(rp.players):
            if side_of(rp, s) == k:
                total += kept_pips * n_unseen if s == seat else board.counts[s] * unseen_pips
        if k == mine_side:
            mine = total
        elif best_other < 0 or total < best_other:
            best_other = total
    if mine < best_other:
        return 1
    return -1 if best_other < mine else 0


@jit_core
def hand_features(shape, rp, board, seat, tile, suit, mask, out):
    """The features of the tile and of the seat's kept tiles."""
    hands = board.hands
    out[F_PIPS] = T_PIPS[tile]
    out[F_DOUBLE] = 1.0 if T_LOW[tile] == T_HIGH[tile] else 0.0
    out[F_KEEP_SUIT] = kept_holding(shape, hands, seat, tile, 1 << other_end(tile, suit))
    out[F_KEEP_PLAYABLE] = kept_holding(shape, hands, seat, tile, mask)
    suits, lacking = 0, 0
    for v in range(rp.max_pip + 1):
        held = kept_holding(shape, hands, seat, tile, 1 << v) > 0
        suits += 1 if held else 0
        lacking += 1 if (mask >> v) & 1 and not held else 0
    out[F_KEEP_SUITS], out[F_SELF_LACKS] = suits, lacking
    out[F_ENDS_SUITS] = popcount(np.uint64(mask))
    out[F_MY_TILES] = board.counts[seat] - 1


@jit_kernel
def lack_features(rp, notes, seat, mask, out):
    """The features of what the table knows each seat lacks, and of the partner's plays."""
    partner = partner_of(rp, seat)
    nxt = seat + 1 if seat + 1 < rp.players else 0
    out[F_NEXT_LACKS] = popcount(np.uint64(mask & notes.lacks[nxt]))
    out[F_PARTNER_LACKS], out[F_PARTNER_SHUT], out[F_PARTNER_FED] = 0.0, 0.0, 0.0
    if partner >= 0:
        out[F_PARTNER_LACKS] = popcount(np.uint64(mask & notes.lacks[partner]))
        out[F_PARTNER_SHUT] = 1.0 if mask & ~notes.lacks[partner] == 0 else 0.0
        fed = 0
        for v in range(N_SUITS):
            if (mask >> v) & 1:
                fed += notes.played[partner, v]
        out[F_PARTNER_FED] = fed
    shut, opponents = 0, 0
    for s in range(rp.players):
        if side_of(rp, s) != side_of(rp, seat):
            opponents += 1
            shut += 1 if mask & ~notes.lacks[s] == 0 else 0
    out[F_OPPONENTS_SHUT] = shut / opponents


@jit_core
def table_features(shape, rp, board, seat, left, mask, n_ends, out):
    """The features of the unseen tiles, the stitch-up, the block and the other seats' counts
    (after :func:`hand_features`, whose values it reads)."""
    out[F_UNSEEN_LEFT] = unseen_holding(shape, rp, board, seat, 1 << left)
    unseen_ends = unseen_holding(shape, rp, board, seat, mask)
    out[F_UNSEEN_ENDS] = unseen_ends
    stitched = n_ends >= 2 and mask & (mask - 1) == 0
    out[F_STITCH_UP] = 1.0 if stitched else 0.0
    out[F_STITCH_MINE] = 1.0 if stitched and out[F_KEEP_PLAYABLE] > 0 else 0.0
    blocks = out[F_MY_TILES] > 0 and out[F_KEEP_PLAYABLE] == 0 and unseen_ends == 0
    out[F_BLOCKS] = 1.0 if blocks else 0.0
    kept_pips = board.pips[seat] - np.int64(out[F_PIPS])
    out[F_BLOCK_WIN] = block_win(rp, board, seat, kept_pips) if blocks else 0
    fewest = 1 << 30
    for s in range(rp.players):
        if side_of(rp, s) != side_of(rp, seat) and board.counts[s] < fewest:
            fewest = board.counts[s]
    out[F_FEWEST_OPPONENT] = fewest
    out[F_PIPS_IF_SHORT] = out[F_PIPS] if fewest <= 2 else 0.0
    out[F_BONEYARD] = board.at[BONE_END] - board.at[BONE_POS]


@jit_core
def move_features(shape, rp, board, notes, seat, tile, suit, out):
    """Write the decision features of ``seat`` playing ``tile`` on ``suit`` into ``out`` (one
    ``float64`` per feature, in the order of :data:`~dominosim.strategies.features.FEATURES`)."""
    mask, n_ends = suits_after(shape, rp, board, tile, suit)
    hand_features(shape, rp, board, seat, tile, suit, mask, out)
    lack_features(rp, notes, seat, mask, out)
    table_features(shape, rp, board, seat, other_end(tile, suit), mask, n_ends, out)
