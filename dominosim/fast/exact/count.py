"""Counting the completions of a state of the compiled lazy enumeration, and the pips they leave.

A state's *pool* (the tiles revealed nowhere) fills the seats' unrevealed slots, each tile only in
a seat whose known lacks it avoids, and the boneyard's slots (the rest, anywhere): every such
placement is one deal. :func:`completions` counts them exactly (``int64``: the caller checks that
the deals of the rule set fit) by a dynamic programme over the remaining room of every seat, coded
in mixed radix ``radix`` (room ``r_s`` of seat ``s`` is ``r_s * radix**s``). :func:`pip_sums`
lists, for the completions of a finished hand, the pips each seat's unrevealed tiles hold, with
how many completions leave each.

Both are the counts of :class:`dominosim.solver.lazy.Lazy` (``completions`` and ``hidden_pips``),
here over arrays: ``tests/test_exact_compiled.py`` holds them equal.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..core.bits import lowest_bit
from ..core.jit import jit_helper, jit_kernel

__all__ = ["Maps", "SEED", "completions", "make_maps", "mix", "pip_sums"]

Maps = namedtuple("Maps", ["keys", "ways", "listed", "out", "ways_out"])
"""The scratch of :func:`pip_sums`: two open-addressing maps (``keys``, -1 where empty; ``ways``;
``listed``: the slots taken, in order) and the sums found (``out``, ``ways_out``)."""


def make_maps(capacity: int = 1 << 20) -> Maps:
    """:class:`Maps` of ``capacity`` slots each (a power of two)."""
    return Maps(np.full((2, capacity), -1, dtype=np.int64), np.zeros((2, capacity), np.int64),
                np.zeros((2, capacity), np.int64), np.zeros(capacity, np.int64),
                np.zeros(capacity, np.int64))


@jit_helper
def _room_code(hidden, p, radix):
    code = 0
    for s in range(p - 1, -1, -1):
        code = code * radix + hidden[s]
    return code


@jit_helper
def _allowed(suits, t, hidden, lack, p):
    """The seats (bit mask) whose unrevealed slots tile ``t`` may fill."""
    allowed = 0
    for s in range(p):
        if hidden[s] > 0 and suits[t] & lack[s] == 0:
            allowed |= 1 << s
    return allowed


@jit_kernel
def completions(suits, pool, hidden, lack, radix, dp):
    """How many ways the tiles of ``pool`` fill the ``hidden`` slots of the ``p`` seats (each
    avoiding the seat's ``lack``) and the boneyard's (the rest); ``dp``: scratch of
    ``2 * radix**p`` entries (the counts by room code, then each code's seats with room)."""
    p = hidden.shape[0]
    size = radix ** p
    room = dp[size:2 * size]
    room[0] = 0
    for code in range(1, size):  # seat s has room in `code` iff its digit is not 0
        room[code] = room[code // radix] << 1 | (1 if code % radix else 0)
    for code in range(size):
        dp[code] = 0
    start = _room_code(hidden, p, radix)
    dp[start] = 1
    rest = np.uint64(pool)
    while rest:
        t = lowest_bit(rest)
        rest &= rest - np.uint64(1)
        allowed = _allowed(suits, t, hidden, lack, p)
        # in place, codes ascending: a tile taken from `code` lands on a smaller code, already
        # passed, so each tile moves once; left where it is, it goes to the boneyard
        for code in range(start + 1):
            ways = dp[code]
            seats = allowed & room[code]
            unit = 1
            while ways and seats:
                if seats & 1:
                    dp[code - unit] += ways
                seats >>= 1
                unit *= radix
    return dp[0]


SEED = 1469598103934665603
"""Where every hash of :func:`mix` starts (FNV-1a's offset basis)."""


@jit_helper
def mix(h, x):
    """The hash ``h`` (``uint64``) after one more word ``x`` of a key: FNV-1a's step, then a shift
    that brings the high bits down (the tables take a hash's low bits). The one hash of the
    enumeration's tables: the memo, the completions' cache and the pip sums' maps."""
    h = (h ^ np.uint64(x)) * np.uint64(1099511628211)
    return h ^ (h >> np.uint64(29))


@jit_helper
def _put(keys, ways, listed, n, key, add):
    """Add ``add`` to ``key`` in the open-addressing map (``keys``: -1 where empty; ``listed[:n]``:
    the slots taken); returns the new ``n``, or -1 when the map is half full."""
    mask = keys.shape[0] - 1
    slot = np.int64(mix(np.uint64(SEED), key) & np.uint64(mask))
    while keys[slot] != -1 and keys[slot] != key:
        slot = (slot + 1) & mask
    if keys[slot] == -1:
        if 2 * n >= keys.shape[0]:
            return -1
        keys[slot], ways[slot] = key, add
        listed[n] = slot
        return n + 1
    ways[slot] += add
    return n


@jit_helper
def _clear(keys, listed, n):
    for i in range(n):
        keys[listed[i]] = -1


@jit_kernel
def pip_sums(suits, pips, pool, hidden, lack, radix, bits, maps):
    """The pips of each seat's unrevealed tiles over the completions of a finished hand: the
    number of sums found, each in ``maps.out[i]`` (seat ``s``'s pips in bits ``s * bits`` up)
    with its completions in ``maps.ways_out[i]``; -1 when the maps are too small. ``maps``: two
    open-addressing maps keyed by the room code plus the packed sums times ``radix**p``."""
    p = hidden.shape[0]
    size = radix ** p
    keys, ways, listed = maps.keys, maps.ways, maps.listed
    n = _put(keys[0], ways[0], listed[0], 0, _room_code(hidden, p, radix), 1)
    a = 0
    rest = np.uint64(pool)
    while rest:
        t = lowest_bit(rest)
        rest &= rest - np.uint64(1)
        allowed = _allowed(suits, t, hidden, lack, p)
        b, m = 1 - a, 0
        for i in range(n):
            key, w = keys[a, listed[a, i]], ways[a, listed[a, i]]
            m = _put(keys[b], ways[b], listed[b], m, key, w)  # to the boneyard
            code, unit = key % size, 1
            for s in range(p):
                if m >= 0 and allowed >> s & 1 and (code // unit) % radix > 0:
                    m = _put(keys[b], ways[b], listed[b], m,
                             key - unit + (pips[t] << (s * bits)) * size, w)
                unit *= radix
            if m < 0:
                for side in range(2):  # a rare path: clear both maps whole
                    for slot in range(keys.shape[1]):
                        keys[side, slot] = -1
                return -1
        _clear(keys[a], listed[a], n)
        a, n = b, m
    found = 0
    for i in range(n):
        key = keys[a, listed[a, i]]
        if key % size == 0:
            maps.out[found], maps.ways_out[found] = key // size, ways[a, listed[a, i]]
            found += 1
    _clear(keys[a], listed[a], n)
    return found
