"""One tile encoding for every engine.

A tile ``(a, b)`` with ``a <= b`` has the id ``b * (b + 1) // 2 + a``. The id does not depend on the
set: ``(0, 0)`` is 0, ``(0, 1)`` is 1, ``(1, 1)`` is 2, ``(0, 2)`` is 3, and so on, so a double-N set
is exactly the ids ``0 .. n_tiles(N) - 1``. The reference engine shows tiles as ``(a, b)`` tuples,
the compiled engine as ids; :func:`tile_id` and :func:`tile_of` join them.

The tables below are built once at import for the largest set (double-fifteen) and are shared by
both engines: every smaller set is a prefix of them.

Examples
--------
>>> tile_id((2, 5)), tile_of(17)
(17, (2, 5))
>>> n_tiles(6), int(PIPS[tile_id((6, 6))])
(28, 12)
"""

from __future__ import annotations

import numpy as np

MAX_PIP = 15
"""The largest set the project supports: double-fifteen."""


def n_tiles(max_pip: int) -> int:
    """Number of tiles in a double-``max_pip`` set: ``(N + 1)(N + 2) / 2``."""
    return (max_pip + 1) * (max_pip + 2) // 2


def tile_id(tile: tuple[int, int]) -> int:
    """The id of tile ``(a, b)``; the order of the two ends does not matter."""
    a, b = tile
    if a > b:
        a, b = b, a
    return b * (b + 1) // 2 + a


def _build_tables() -> tuple[np.ndarray, np.ndarray]:
    total = n_tiles(MAX_PIP)
    ends = np.zeros((total, 2), dtype=np.int8)
    for b in range(MAX_PIP + 1):
        for a in range(b + 1):
            ends[b * (b + 1) // 2 + a] = (a, b)
    member = np.zeros((total, MAX_PIP + 1), dtype=np.bool_)
    for t in range(total):
        member[t, ends[t, 0]] = True
        member[t, ends[t, 1]] = True
    return ends, member


ENDS, SUIT_MEMBER = _build_tables()
"""``ENDS[t]`` is ``(a, b)`` of tile id ``t``; ``SUIT_MEMBER[t, v]`` is whether tile ``t`` holds suit ``v``."""
LOW = ENDS[:, 0].copy()
HIGH = ENDS[:, 1].copy()
PIPS = (LOW.astype(np.int16) + HIGH).astype(np.int16)
IS_DOUBLE = LOW == HIGH
DOUBLE_ID = np.array([tile_id((d, d)) for d in range(MAX_PIP + 1)], dtype=np.int16)
"""``DOUBLE_ID[d]`` is the id of the double ``d-d``."""
for _table in (ENDS, SUIT_MEMBER, LOW, HIGH, PIPS, IS_DOUBLE, DOUBLE_ID):
    _table.flags.writeable = False


def tile_of(tid: int) -> tuple[int, int]:
    """The ``(a, b)`` tuple, ``a <= b``, of tile id ``tid``."""
    return int(LOW[tid]), int(HIGH[tid])


def pips(tile: tuple[int, int]) -> int:
    """Spots on a tile: ``a + b``."""
    return tile[0] + tile[1]


def is_double(tile: tuple[int, int]) -> bool:
    """Whether both ends of the tile show the same suit."""
    return tile[0] == tile[1]


def other_suit(tile: tuple[int, int], suit: int) -> int:
    """The suit a tile shows after its ``suit`` end is matched (the same suit for a double)."""
    return tile[1] if tile[0] == suit else tile[0]


HIDDEN = (-1, -1)
"""A tile nobody saw: a hand's or the boneyard's unknown tile in a typed-in game
(:mod:`dominosim.reference.handfile`), or another seat's tile on the table a seat is shown."""


def label(tile: tuple[int, int]) -> str:
    """A tile written the way players say it, high end first: ``(2, 5)`` is ``'5-2'``; a
    :data:`HIDDEN` tile is ``'?'``.

    >>> label((2, 5)), label(HIDDEN)
    ('5-2', '?')
    """
    if tile == HIDDEN:
        return "?"
    return f"{tile[1]}-{tile[0]}"


def full_set(max_pip: int) -> list[tuple[int, int]]:
    """Every tile of a double-``max_pip`` set, in id order."""
    return [tile_of(t) for t in range(n_tiles(max_pip))]


TILE_LABELS = tuple(label(tile_of(t)) for t in range(n_tiles(MAX_PIP)))
"""Labels of every tile id, in id order: the categories of the ``opening_tile`` column."""
