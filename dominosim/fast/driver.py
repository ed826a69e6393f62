"""The drivers: a block of hands ``start + lo .. start + hi - 1`` played in one compiled call.

Each block allocates its scratch once and plays its hands one after another through the one hand
kernel (:func:`~dominosim.fast.kernel.play_hand`); hand ``i`` depends only on ``(seed, i)``, so the
results do not depend on the number of threads or blocks. :func:`rows_block` writes one record row
per hand; :func:`sums_block` adds each hand into the block's sums (memory independent of the number
of hands). The compiled functions release the GIL, so :mod:`dominosim.fast.engine` runs blocks on
Python threads, one per core: no parallel compilation pipeline, whose compile time was longer than
the kernel's. ``dims`` is None when no seat searches (the search is then not compiled at all), else
the sizes of the search's arrays (:data:`DIMS`).
"""

from __future__ import annotations

import numpy as np

from .jit import jit, jit_kernel
from .kernel import (
    C_DRAWS,
    C_END,
    C_KNOCKS,
    C_OPENER,
    C_PLAYS,
    C_POINTS,
    C_STITCH,
    C_WIN,
    N_BASE_COLS,
    OK,
    make_scratch,
    play_hand,
)
from .rng import hand_key
from .search import make_search_scratch

DIMS = ("events", "nodes", "states")
"""The sizes of a search's arrays, in the order of the ``dims`` array: public-log rows, tree
nodes, sampler states."""


@jit_kernel
def rows_of(shape, rp, lineup, seed, start, lo, hi, out, redeals, scratch, search):
    """Hands ``start + lo .. start + hi - 1`` into rows ``lo .. hi - 1``; returns the first
    non-OK status."""
    status = OK
    for j in range(lo, hi):
        st, rd = play_hand(shape, rp, lineup, hand_key(seed, start + j), out[j], scratch, search)
        redeals[j] = rd
        if st != OK and status == OK:
            status = st
    return status


@jit
def rows_block(shape, rp, lineup, seed, start, lo, hi, out, redeals, dims):
    """:func:`rows_of` with the block's scratch (and the search's, when ``dims`` is given)."""
    scratch = make_scratch(shape, rp, 0)
    if dims is not None:
        search = make_search_scratch(rp.tiles, rp.players, dims[0], dims[1], dims[2])
        return rows_of(shape, rp, lineup, seed, start, lo, hi, out, redeals, scratch, search)
    return rows_of(shape, rp, lineup, seed, start, lo, hi, out, redeals, scratch, None)


# Summary layout: one float64 vector of sums, named by dominosim.summary.summary_fields.
S_HANDS, S_BLOCKED, S_TIES, S_REDEALS, S_REDEALS_SQ = range(5)
S_POINTS, S_POINTS_SQ, S_PLAYS, S_PLAYS_SQ, S_KNOCKS, S_KNOCKS_SQ = range(5, 11)
S_DRAWS, S_DRAWS_SQ, S_STITCH, S_STITCH_SQ, S_OPENER_WINS = range(11, 16)
S_BASE = 16


def summary_width(players: int) -> int:
    """Length of the sum vector: the base sums, then per side (wins, points, points squared) by
    absolute side and by side counted from the opener's, then per seat (opened, stitch-ups,
    pips left)."""
    return S_BASE + 6 * players + 3 * players


@jit_kernel
def add_to_summary(rp, row, redeals, acc):
    """Add one hand's record row to the sums ``acc``."""
    p, n_sides = rp.players, rp.sides
    acc[S_HANDS] += 1
    acc[S_BLOCKED] += row[C_END]
    win = row[C_WIN]
    pts = float(row[C_POINTS])
    acc[S_TIES] += 1 if win < 0 else 0
    acc[S_REDEALS] += redeals
    acc[S_REDEALS_SQ] += redeals * redeals
    acc[S_POINTS] += pts
    acc[S_POINTS_SQ] += pts * pts
    for col, slot in ((C_PLAYS, S_PLAYS), (C_KNOCKS, S_KNOCKS), (C_DRAWS, S_DRAWS),
                      (C_STITCH, S_STITCH)):
        x = float(row[col])
        acc[slot] += x
        acc[slot + 1] += x * x
    opener = row[C_OPENER]
    opener_side = opener % n_sides
    if win >= 0:
        rel = (win - opener_side) % n_sides
        if rel == 0:
            acc[S_OPENER_WINS] += 1
        acc[S_BASE + win] += 1
        acc[S_BASE + p + win] += pts
        acc[S_BASE + 2 * p + win] += pts * pts
        acc[S_BASE + 3 * p + rel] += 1
        acc[S_BASE + 4 * p + rel] += pts
        acc[S_BASE + 5 * p + rel] += pts * pts
    seat0 = S_BASE + 6 * p
    acc[seat0 + opener] += 1
    for s in range(p):
        acc[seat0 + p + s] += row[N_BASE_COLS + 2 * p + s]
        acc[seat0 + 2 * p + s] += row[N_BASE_COLS + s]


@jit_kernel
def sums_of(shape, rp, lineup, seed, start, lo, hi, row, acc, scratch, search):
    """Hands ``start + lo .. start + hi - 1`` added into the sums ``acc``; returns the first
    non-OK status."""
    status = OK
    for j in range(lo, hi):
        st, rd = play_hand(shape, rp, lineup, hand_key(seed, start + j), row, scratch, search)
        if st != OK and status == OK:
            status = st
        add_to_summary(rp, row, rd, acc)
    return status


@jit
def sums_block(shape, rp, lineup, seed, start, lo, hi, acc, dims):
    """:func:`sums_of` with the block's scratch (and the search's, when ``dims`` is given)."""
    scratch = make_scratch(shape, rp, 0)
    row = np.zeros(N_BASE_COLS + 3 * rp.players, np.int16)
    if dims is not None:
        search = make_search_scratch(rp.tiles, rp.players, dims[0], dims[1], dims[2])
        return sums_of(shape, rp, lineup, seed, start, lo, hi, row, acc, scratch, search)
    return sums_of(shape, rp, lineup, seed, start, lo, hi, row, acc, scratch, None)


@jit
def run_logged(shape, rp, lineup, base, out, n_events, dims):
    """Play one hand keyed ``base`` with its event log; returns ``(status, redeals, scratch)``."""
    scratch = make_scratch(shape, rp, n_events)
    if dims is not None:
        search = make_search_scratch(rp.tiles, rp.players, dims[0], dims[1], dims[2])
        st, rd = play_hand(shape, rp, lineup, base, out, scratch, search)
        return st, rd, scratch
    st, rd = play_hand(shape, rp, lineup, base, out, scratch, None)
    return st, rd, scratch
