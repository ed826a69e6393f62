"""The rule tables of the compiled lazy enumeration, built from the reference engine's functions.

The compiled enumeration (:mod:`dominosim.fast.exact.lazy`) decides nothing about the layout
itself: every layout it can meet is numbered here, and for each layout and tile the moves (the
layout after each and whether it stitches up) are read from :mod:`dominosim.reference.game`. The
turn and the score are the compiled engine's deciders (:mod:`dominosim.fast.core.turn`), held to
the reference ones by the differential tests.

A layout is the open ends as the Python enumeration keys them
(:func:`dominosim.solver.lazy.layout_key`). Every layout reachable from an opening is found by a
breadth-first search over the tiles (each branching double branches at most once, which bounds
the ends), or, where that finds many a hand never reaches, a search over the plays of distinct
tiles (:func:`tables`).

Examples
--------
>>> from dominosim.rules import Rules
>>> t = tables(Rules(max_pip=2, players=2, hand_size=2))
>>> t.n_layouts, int(t.open_layout[5]) >= 0  # 2-2, the highest double, opens some layout
(6, True)
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ...reference.game import (
    Move,
    drawable,
    ends_after,
    is_stitch_up,
    legal_moves,
    opening_ends,
    opens_with_double,
    playable_suits,
)
from ...rules import Rules
from ...solver.lazy import layout_key
from ...tiles import full_set, pips

__all__ = ["Tables", "TooLarge", "tables", "MAX_LAYOUTS"]

MAX_LAYOUTS = 200_000
"""The most layouts a rule set may have for the compiled enumeration (beyond, the Python one)."""
FEW_LAYOUTS = 2_000
"""Past this many layouts numbered over the tiles alone, the layouts are found again over the
tiles not yet played (:func:`tables`)."""
MAX_PLAYED = 1_000_000
"""The most pairs of a layout and the tiles played to it that search may meet."""

Tables = namedtuple("Tables", ["n_layouts", "suits", "pips", "drawable", "want", "mv_n",
                               "mv_next", "mv_stitch", "open_layout"])
"""``suits[t]`` (bit mask) and ``pips[t]`` of each tile; ``drawable[n]``: how many of ``n``
sleeping tiles may be drawn; ``want[L]``: the playable suits of layout ``L`` (bit mask);
``mv_n[L, t]``: the moves of tile ``t`` on ``L`` (0 to 2), each with the layout after it,
``mv_next[L, t, j]``, and whether it stitches up, ``mv_stitch[L, t, j]``; ``open_layout[t]``: the
layout after ``t`` opens the hand (-1 for a tile that cannot open)."""


class TooLarge(ValueError):
    """The rule set has more layouts than :data:`MAX_LAYOUTS`."""


def tables(rules: Rules, few: int | None = None) -> Tables:
    """The :class:`Tables` of ``rules`` (raises :class:`TooLarge` past :data:`MAX_LAYOUTS`).

    The layouts are found breadth first over the tiles, any tile on any layout. Where that
    passes ``few`` layouts (default :data:`FEW_LAYOUTS`; branching doubles: a tile played twice makes layouts no hand
    reaches; a double-four cross of four arms with branching doubles has 125,720 of them and
    14,430 real ones, 20 s of Python), they are found again depth first over pairs of a layout and
    the tiles played to reach it, each tile played once; a tile then has moves on a layout only
    if some way there leaves it unplayed (no hand holds it there otherwise). Past
    :data:`MAX_PLAYED` pairs, the first search runs on to :data:`MAX_LAYOUTS`.
    """
    tiles = full_set(rules.max_pip)
    openers = [t for t in tiles if t[0] == t[1]] if opens_with_double(rules) else tiles
    few = FEW_LAYOUTS if few is None else few
    for search, limit in ((_over_tiles, few), (_over_plays, MAX_PLAYED),
                          (_over_tiles, MAX_LAYOUTS)):
        try:
            return _arrays(rules, tiles, *search(rules, tiles, openers, limit))
        except TooLarge:
            continue
    raise TooLarge(f"more than {MAX_LAYOUTS:,} layouts")


class _Numbering:
    """Layouts numbered in the order met, by :func:`~dominosim.solver.lazy.layout_key`."""

    def __init__(self, rules: Rules, limit: int) -> None:
        self.rules, self.limit = rules, limit
        self.index: dict = {}
        self.order: list = []

    def __call__(self, ends) -> int:
        key = layout_key(self.rules, ends)
        if key not in self.index:
            if len(self.order) >= self.limit:
                raise TooLarge(f"more than {self.limit:,} layouts")
            self.index[key] = len(self.order)
            self.order.append(key)
        return self.index[key]


def _moves(rules: Rules, number: _Numbering, ends, tile) -> list:
    """``tile``'s moves on ``ends``: ``(layout after, stitches up)`` each (a double branching a
    second time is never met: left out)."""
    most_ends = rules.opening_arms + 2 * (rules.max_pip + 1)
    outs = []
    for move in legal_moves(rules, [tile], ends):
        after, _ = ends_after(rules, ends, Move(move.tile, move.suit))
        if len(after) <= most_ends:
            outs.append((number(after), is_stitch_up([e.suit for e in after])))
    return outs


def _over_tiles(rules: Rules, tiles: list, openers: list, limit: int):
    """Every layout reached from an opening by any tile on any layout, breadth first."""
    number = _Numbering(rules, limit)
    open_layout = np.full(len(tiles), -1, dtype=np.int64)
    for tile in openers:
        open_layout[tiles.index(tile)] = number(opening_ends(rules, tile))
    moves: list = []
    while len(moves) < len(number.order):
        ends = number.order[len(moves)]
        moves.append([_moves(rules, number, ends, tile) for tile in tiles])
    return number.order, moves, open_layout


def _over_plays(rules: Rules, tiles: list, openers: list, limit: int):
    """Every layout reached from an opening by plays of distinct tiles, depth first over pairs
    of a layout and the tiles played; a tile's moves are kept on the layouts where it may be
    unplayed."""
    number = _Numbering(rules, MAX_LAYOUTS)
    open_layout = np.full(len(tiles), -1, dtype=np.int64)
    stack = []
    for tile in openers:
        t = tiles.index(tile)
        open_layout[t] = number(opening_ends(rules, tile))
        stack.append((int(open_layout[t]), 1 << t))
    everything = (1 << len(tiles)) - 1
    seen: set = set()
    outs: dict = {}  # (layout, tile) -> its moves
    while stack:
        pair = stack.pop()
        if pair in seen:
            continue
        if len(seen) >= limit:
            raise TooLarge(f"more than {limit:,} layouts and plays")
        seen.add(pair)
        layout, played = pair
        free = everything & ~played
        while free:
            t = (free & -free).bit_length() - 1
            free &= free - 1
            if (layout, t) not in outs:
                outs[layout, t] = _moves(rules, number, number.order[layout], tiles[t])
            stack.extend((after, played | 1 << t) for after, _ in outs[layout, t])
    moves = [[outs.get((layout, t), []) for t in range(len(tiles))]
             for layout in range(len(number.order))]
    return number.order, moves, open_layout


def _arrays(rules: Rules, tiles: list, order: list, moves: list, open_layout) -> Tables:
    """The arrays of :class:`Tables` from the layouts ``order``, each tile's ``moves`` on each and
    the layouts the openings make."""
    n, m = len(tiles), len(order)
    mv_n = np.zeros((m, n), dtype=np.int64)
    mv_next = np.full((m, n, 2), -1, dtype=np.int64)
    mv_stitch = np.zeros((m, n, 2), dtype=np.int64)
    for layout, row in enumerate(moves):
        for t, outs in enumerate(row):
            mv_n[layout, t] = len(outs)
            for j, (after, stitched) in enumerate(outs):
                mv_next[layout, t, j] = after
                mv_stitch[layout, t, j] = stitched
    want = np.array([sum(1 << v for v in playable_suits(rules, ends)) for ends in order],
                    dtype=np.int64)
    return Tables(
        n_layouts=m,
        suits=np.array([(1 << a) | (1 << b) for a, b in tiles], dtype=np.int64),
        pips=np.array([pips(t) for t in tiles], dtype=np.int64),
        drawable=np.array([drawable(rules, k) for k in range(n + 1)], dtype=np.int64),
        want=want, mv_n=mv_n, mv_next=mv_next, mv_stitch=mv_stitch, open_layout=open_layout)
