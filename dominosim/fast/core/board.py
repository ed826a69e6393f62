"""The compiled engine's state as named structures, and the hands as bit masks.

A :class:`Board` is a position: every hand (a bit mask of tile ids per seat), the open ends, the
boneyard in draw order and the position's scalars in ``at`` (slots named below: whose turn, how many
ends, the suits showing, where the boneyard stands, who knocked since the last play, who went
out, and the hand's counts). :class:`Notes` are what the kernel remembers beside the position
(stitch-ups per seat, the suits each seat is known to lack, the tiles each seat played), and a
:class:`Log` receives the event log and the public log. All are named tuples of arrays allocated
once per block of hands: nothing is allocated per move.

Examples
--------
>>> board = make_board(28, 2)
>>> give(board, 0, 27)  # seat 0 takes 6-6
>>> bool(holds(board.hands, 0, 27)), int(board.counts[0]), int(board.pips[0])
(True, 1, 12)
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
from numba.extending import register_jitable

from ...tiles import DOUBLE_ID, HIGH, LOW, PIPS, SUIT_MEMBER
from .bits import lowest_bit, popcount
from .jit import jit, jit_core, jit_helper, jit_kernel

N_SUITS = 16
"""Suits a kernel has room for: 0 to 15 (double-fifteen)."""
MAX_WORDS = 3
"""Words of a tile mask: the 136 tiles of double-fifteen fit in 192 bits."""
MAX_ENDS = 48
"""Open ends a layout can reach: the opening's four arms and two per branching double."""

AT_FIELDS = ("seat", "n_ends", "n_empty", "suit_mask", "open_suit", "bone_pos", "bone_end",
             "knocked", "out", "plays", "knocks", "draws", "opener", "opening")
"""The scalar slots of ``Board.at``: the seat that moved last, the number of open ends, unfilled
arms of the opening double (fill-first), the mask of suits showing, the opening suit, the next
boneyard tile and the end of the boneyard in ``Board.bone``, the mask of seats that knocked since
the last play, the seat that went out (-1), plays, knocks and draws so far, the opener and the
opening tile."""
(SEAT, N_ENDS, N_EMPTY, SUIT_MASK, OPEN_SUIT, BONE_POS, BONE_END, KNOCKED, OUT, PLAYS, KNOCKS,
 DRAWS, OPENER, OPENING) = range(len(AT_FIELDS))

Board = namedtuple("Board", ["hands", "counts", "pips", "ends", "arms", "suit_count", "bone", "at"])
"""A position: ``hands`` (seats x words, ``uint64``), ``counts`` and ``pips`` per seat, ``ends``
(the suit on each open end, in the order they were opened) and ``arms`` (the end is an unfilled arm
of the opening double), ``suit_count`` (open ends showing each suit), ``bone`` (tiles in draw order
from ``at[BONE_POS]`` to ``at[BONE_END]``), ``at`` (the scalars of :data:`AT_FIELDS`)."""

Notes = namedtuple("Notes", ["stitch", "lacks", "played"])
"""What the kernel remembers beside the position: stitch-ups per seat, the suits each seat is known
to lack (bit masks) and, per seat and suit, the tiles it played holding that suit. The last two
are kept only when some seat's strategy reads them (``Shape.styles``)."""

Log = namedtuple("Log", ["events", "ends", "pub", "count"])
"""The event log (``events``: one row of ``EV_*`` per play, draw or knock; ``ends``: the suits
showing after each), the public log that search strategies read (``pub``: one row of ``PUB_*`` per
event, see :mod:`dominosim.fast.search.consistent`) and their lengths (``count[N_EVENTS]``,
``count[N_PUBLIC]``). Zero-row arrays when a run keeps none."""
N_EVENTS, N_PUBLIC = 0, 1
"""The slots of ``Log.count``: rows written to the event log, to the public log."""
EV_PLAY, EV_DRAW, EV_KNOCK = 0, 1, 2
EV_KIND, EV_SEAT, EV_TILE, EV_SUIT, EV_END_INDEX, EV_STITCH, EV_N_ENDS = range(7)
EV_COLS = 7
"""Columns of an event row; a knock's ``EV_SUIT`` holds the mask of the playable suits it shows
the seat lacks."""
MOVE_TILE, MOVE_SUIT = 0, 1
MOVE_ROWS = 2
"""The rows of a moves array (``MOVE_ROWS`` rows of ``2 * t`` moves): a move's tile id and the
suit of the end it goes on (-1: the lead under ``opening='any'``)."""
PUB_PLAY, PUB_DRAW, PUB_KNOCK = 0, 1, 2
"""The kinds of public event: a play, a draw, a knock."""
PUB_KIND, PUB_SEAT, PUB_X, PUB_SUIT = range(4)
PUB_COLS = 4
"""Columns of a public log row: the kind, the seat, ``x``: a play's tile, or for a draw or a
knock the mask of the suits that were playable (the seat held none of their tiles), and a play's
suit (the end it went on, as in the event log; -1 otherwise: read by the inference of
:mod:`dominosim.fast.search.infer`)."""

T_LOW = LOW.astype(np.int64)
T_HIGH = HIGH.astype(np.int64)
T_PIPS = PIPS.astype(np.int64)
T_DOUBLE = DOUBLE_ID.astype(np.int64)
ONE = np.uint64(1)


def _suit_tiles() -> np.ndarray:
    masks = np.zeros((N_SUITS, MAX_WORDS), dtype=np.uint64)
    for t in range(SUIT_MEMBER.shape[0]):
        for v in range(N_SUITS):
            if SUIT_MEMBER[t, v]:
                masks[v, t // 64] |= np.uint64(1) << np.uint64(t % 64)
    return masks


SUIT_TILES = _suit_tiles()
"""``SUIT_TILES[v]``: the mask of every tile holding suit ``v``."""


@register_jitable
def words_of(n_tiles):
    """64-bit words of a mask of ``n_tiles`` tiles (in Python and in compiled code)."""
    return (n_tiles + 63) // 64


@jit
def make_board(t, p):
    """A :class:`Board` for ``t`` tiles and ``p`` seats, empty."""
    return Board(np.zeros((p, words_of(t)), np.uint64), np.zeros(p, np.int64),
                 np.zeros(p, np.int64), np.zeros(MAX_ENDS, np.int64), np.zeros(MAX_ENDS, np.bool_),
                 np.zeros(N_SUITS, np.int64), np.zeros(t, np.int64),
                 np.zeros(len(AT_FIELDS), np.int64))


@jit
def make_notes(p):
    """:class:`Notes` for ``p`` seats."""
    return Notes(np.zeros(p, np.int64), np.zeros(p, np.int64), np.zeros((p, N_SUITS), np.int64))


@jit
def make_log(n_events, n_pub):
    """A :class:`Log` with room for ``n_events`` events and ``n_pub`` public events."""
    return Log(np.zeros((n_events, EV_COLS), np.int64), np.zeros((n_events, MAX_ENDS), np.int64),
               np.zeros((n_pub, PUB_COLS), np.int64), np.zeros(2, np.int64))


def board_of(players: int, n_tiles: int, hands: Mapping[int, Iterable[int]],
             ends: Sequence[tuple[int, bool]], bone: Sequence[int] = (),
             counts: Sequence[int] | None = None, **scalars: int) -> Board:
    """A :class:`Board` built in Python: the one way from another engine's position to the
    compiled engine's.

    ``hands``: the tile ids of each known hand, by seat (tiles, counts and pips follow from them);
    ``ends``: the open ends as ``(suit, unfilled arm)`` in the order they were opened (the suits
    showing, their counts and the unfilled arms follow); ``bone``: the boneyard's tile ids in draw
    order (``at[BONE_END]`` is its length); ``counts``: every seat's number of tiles, when some
    hands are unknown; ``scalars``: any other slot of ``at`` by its name in :data:`AT_FIELDS`
    (``out`` is -1 unless given, the rest 0).

    >>> b = board_of(2, 28, {0: [27, 0]}, [(6, False), (0, False)], counts=[2, 7], seat=0)
    >>> int(b.pips[0]), b.counts.tolist(), int(b.at[SUIT_MASK]), int(b.at[N_ENDS]), int(b.at[OUT])
    (12, [2, 7], 65, 2, -1)
    """
    board = make_board(n_tiles, players)
    for seat, tiles in hands.items():
        for tile in tiles:
            board.hands[seat, tile >> 6] |= ONE << np.uint64(tile & 63)
            board.counts[seat] += 1
            board.pips[seat] += T_PIPS[tile]
    if counts is not None:
        board.counts[:] = counts
    for i, (suit, arm) in enumerate(ends):
        board.ends[i], board.arms[i] = suit, arm
        board.suit_count[suit] += 1
    board.bone[:len(bone)] = bone
    at = board.at
    at[N_ENDS], at[N_EMPTY] = len(ends), sum(bool(arm) for _, arm in ends)
    at[SUIT_MASK] = sum(1 << int(suit) for suit in {suit for suit, _ in ends})
    at[BONE_END], at[OUT] = len(bone), -1
    for name, value in scalars.items():
        at[AT_FIELDS.index(name)] = value
    return board


# ---------------------------------------------------------------- copies
@jit_helper
def copy_hands(core, players, src, dst):
    """Every hand of the :class:`Board` ``src`` (its tiles, count and pips) into ``dst``."""
    for s in range(players):
        for w in range(core.words):
            dst.hands[s, w] = src.hands[s, w]
        dst.counts[s], dst.pips[s] = src.counts[s], src.pips[s]


@jit_helper
def copy_layout(src, dst, n_ends):
    """The first ``n_ends`` open ends of ``src`` and its count of ends by suit into ``dst``."""
    for i in range(n_ends):
        dst.ends[i], dst.arms[i] = src.ends[i], src.arms[i]
    for v in range(N_SUITS):
        dst.suit_count[v] = src.suit_count[v]


@jit_helper
def copy_scalars(src, dst):
    """The scalars ``at`` of a position, ``src`` into ``dst``."""
    for i in range(dst.shape[0]):
        dst[i] = src[i]


@jit_helper
def copy_board(core, players, src, dst):
    """The position ``src`` into ``dst``, all but the boneyard (shared, or copied by the caller)."""
    copy_hands(core, players, src, dst)
    copy_layout(src, dst, 2 if core.line else src.at[N_ENDS])
    copy_scalars(src.at, dst.at)


# ---------------------------------------------------------------- hands as bit masks
@jit_kernel
def holds(hands, seat, tile):
    """Whether ``seat`` holds ``tile``."""
    return (hands[seat, tile >> 6] >> np.uint64(tile & 63)) & ONE == ONE


@jit_kernel
def set_word(n_tiles, w):
    """Word ``w`` of the mask of every tile of a set of ``n_tiles`` tiles (ids 0 to
    ``n_tiles - 1``)."""
    below = n_tiles - 64 * w
    if below >= 64:
        return ~np.uint64(0)
    return (ONE << np.uint64(below)) - ONE if below > 0 else np.uint64(0)


@jit_kernel
def give(board, seat, tile):
    """Put ``tile`` into the hand of ``seat``."""
    board.hands[seat, tile >> 6] |= ONE << np.uint64(tile & 63)
    board.counts[seat] += 1
    board.pips[seat] += T_PIPS[tile]


@jit_kernel
def take(board, seat, tile):
    """Take ``tile`` out of the hand of ``seat``."""
    board.hands[seat, tile >> 6] &= ~(ONE << np.uint64(tile & 63))
    board.counts[seat] -= 1
    board.pips[seat] -= T_PIPS[tile]


@jit_core
def empty_hands(shape, board, p):
    """Every hand emptied."""
    for s in range(p):
        for w in range(shape.words):
            board.hands[s, w] = 0
        board.counts[s] = 0
        board.pips[s] = 0


@jit_core
def kth_tile(shape, hands, seat, k):
    """The ``k``-th tile (from 0, in id order) of the hand of ``seat``."""
    for w in range(shape.words):
        word = hands[seat, w]
        c = popcount(word)
        if k < c:
            for _ in range(k):
                word &= word - ONE
            return w * 64 + lowest_bit(word)
        k -= c
    return -1


# ---------------------------------------------------------------- legal moves
@jit_kernel
def suit_union(psm, w):
    """Word ``w`` of the mask of the tiles holding a suit of the mask ``psm``."""
    union = np.uint64(0)
    rest = np.uint64(psm)
    while rest:
        union |= SUIT_TILES[lowest_bit(rest), w]
        rest &= rest - ONE
    return union


@jit_kernel
def nth_bit(word, k):
    """Index of the ``k``-th set bit (from 0) of ``word``."""
    for _ in range(k):
        word &= word - ONE
    return lowest_bit(word)


@jit_kernel
def line_masks(hands, seat, psm):
    """A line's legal tiles in one word: ``(tiles on the low suit, tiles on the high suit (0 when
    both ends show one suit), low suit, high suit)``; ``psm`` holds one or two suits."""
    low = lowest_bit(np.uint64(psm))
    rest = psm & (psm - 1)
    hand = hands[seat, 0]
    on_low = hand & SUIT_TILES[low, 0]
    if rest == 0:
        return on_low, np.uint64(0), low, low
    high = lowest_bit(np.uint64(rest))
    return on_low, hand & SUIT_TILES[high, 0], low, high


@jit_core
def count_moves(shape, hands, seat, psm):
    """Number of distinct legal moves: a tile counts once per playable suit it holds."""
    if shape.line and shape.words == 1:
        on_low, on_high, _, _ = line_masks(hands, seat, psm)
        return popcount(on_low) + popcount(on_high)
    n = 0
    rest = np.uint64(psm)
    while rest:
        v = lowest_bit(rest)
        rest &= rest - ONE
        for w in range(shape.words):
            n += popcount(hands[seat, w] & SUIT_TILES[v, w])
    return n


@jit_core
def kth_move(shape, hands, seat, psm, k):
    """The ``k``-th legal move in canonical order (tile id, then suit), as ``(tile, suit)``: the
    walk of :func:`fill_moves`, stopping at ``k`` (the random strategy's hot path). On a line in
    one word, straight from the two masks: only the tile (low, high) holds both suits."""
    if shape.line and shape.words == 1:
        on_low, on_high, low, high = line_masks(hands, seat, psm)
        both = on_low & on_high
        if both:
            before = popcount((on_low | on_high) & (both - ONE))
            if k == before:
                return lowest_bit(both), low
            if k == before + 1:
                return lowest_bit(both), high
            if k > before:
                k -= 1
        tile = nth_bit(on_low | on_high, k)
        return tile, low if (on_low >> np.uint64(tile)) & ONE else high
    for w in range(shape.words):
        word = hands[seat, w] & suit_union(psm, w)
        while word:
            tile = w * 64 + lowest_bit(word)
            word &= word - ONE
            a, b = T_LOW[tile], T_HIGH[tile]
            if (psm >> a) & 1:
                if k == 0:
                    return tile, a
                k -= 1
            if a != b and (psm >> b) & 1:
                if k == 0:
                    return tile, b
                k -= 1
    return -1, -1


@jit_core
def fill_moves(shape, hands, seat, psm, moves):
    """Write the legal moves in canonical order (tile id, then suit) into ``moves[MOVE_TILE]``
    and ``moves[MOVE_SUIT]``; return how many."""
    n = 0
    for w in range(shape.words):
        word = hands[seat, w] & suit_union(psm, w)
        while word:
            tile = w * 64 + lowest_bit(word)
            word &= word - ONE
            a, b = T_LOW[tile], T_HIGH[tile]
            if (psm >> a) & 1:
                moves[MOVE_TILE, n], moves[MOVE_SUIT, n] = tile, a
                n += 1
            if a != b and (psm >> b) & 1:
                moves[MOVE_TILE, n], moves[MOVE_SUIT, n] = tile, b
                n += 1
    return n
