"""The rule tables of the compiled lazy enumeration, built from the reference engine's functions.

The compiled enumeration (:mod:`dominosim.fast.exact.lazy`) decides nothing about the layout
itself: every layout it can meet is numbered here, and for each layout and tile the moves (the
layout after each and whether it stitches up) are read from :mod:`dominosim.reference.game`. The
turn and the score are the compiled engine's deciders (:mod:`dominosim.fast.core.turn`), held to
the reference ones by the differential tests.

A layout is the open ends as the Python enumeration keys them
(:func:`dominosim.solver.lazy.layout_key`). Every layout reachable from an opening is found by a
breadth-first search over the tiles (each branching double branches at most once, which bounds
the ends).

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

Tables = namedtuple("Tables", ["n_layouts", "suits", "pips", "drawable", "want", "mv_n",
                               "mv_next", "mv_stitch", "open_layout"])
"""``suits[t]`` (bit mask) and ``pips[t]`` of each tile; ``drawable[n]``: how many of ``n``
sleeping tiles may be drawn; ``want[L]``: the playable suits of layout ``L`` (bit mask);
``mv_n[L, t]``: the moves of tile ``t`` on ``L`` (0 to 2), each with the layout after it,
``mv_next[L, t, j]``, and whether it stitches up, ``mv_stitch[L, t, j]``; ``open_layout[t]``: the
layout after ``t`` opens the hand (-1 for a tile that cannot open)."""


class TooLarge(ValueError):
    """The rule set has more layouts than :data:`MAX_LAYOUTS`."""


def tables(rules: Rules) -> Tables:
    """The :class:`Tables` of ``rules`` (raises :class:`TooLarge` past :data:`MAX_LAYOUTS`)."""
    tiles = full_set(rules.max_pip)
    n = len(tiles)
    openers = [t for t in tiles if t[0] == t[1]] if opens_with_double(rules) else tiles
    index: dict = {}
    order: list = []
    open_layout = np.full(n, -1, dtype=np.int64)

    def number(ends) -> int:
        key = layout_key(rules, ends)
        if key not in index:
            if len(order) >= MAX_LAYOUTS:
                raise TooLarge(f"more than {MAX_LAYOUTS:,} layouts")
            index[key] = len(order)
            order.append(key)
        return index[key]

    for tile in openers:
        open_layout[tiles.index(tile)] = number(opening_ends(rules, tile))
    moves: list = []
    most_ends = rules.opening_arms + 2 * (rules.max_pip + 1)
    done = 0
    while done < len(order):
        ends = order[done]
        row = []
        for tile in tiles:
            outs = []
            for move in legal_moves(rules, [tile], ends):
                after, _ = ends_after(rules, ends, Move(move.tile, move.suit))
                if len(after) > most_ends:  # a double branching a second time: never met
                    continue
                outs.append((number(after), is_stitch_up([e.suit for e in after])))
            row.append(outs)
        moves.append(row)
        done += 1
    return _arrays(rules, tiles, order, moves, open_layout)


def _arrays(rules: Rules, tiles: list, order: list, moves: list, open_layout) -> Tables:
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
