"""The drivers: a block of hands ``start + lo .. start + hi - 1`` played in one compiled call.

These are the compiled engine's entry points, one per kind of output, each compiled once per
:class:`~dominosim.fast.core.shape.Shape` with the hand kernel (:func:`~dominosim.fast.hand.kernel.play_hand`)
inlined, so that numba optimises each kernel once (a chain of compiled calls re-optimises the
callee's code at every level). Each block plays its hands one after another in the scratch it is
given; hand ``i`` depends only on ``(seed, i)``, so the results do not depend on the number of
threads or blocks. :func:`rows_of` writes one record row per hand; :func:`sums_of` adds each hand
into the block's sums (memory independent of the number of hands); :func:`logged` plays one hand
with its event log. The functions release the GIL: :mod:`dominosim.fast.engine` runs blocks on
Python threads, one per core, with no parallel compilation pipeline. ``search`` is None when no
seat searches (the search is then not compiled at all), else the search's scratch.
"""

from __future__ import annotations

from collections import namedtuple

from ..core.jit import jit_entry, jit_kernel
from ..core.rng import hand_key
from ..core.status import OK
from ..core.turn import rule_status, side_of
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
    play_hand,
)

Block = namedtuple("Block", ["seed", "start", "lo", "hi"])
"""A block of hands: ``start + lo .. start + hi - 1`` of the run seeded ``seed`` (``uint64``, then
``int64``)."""


@jit_entry
def rows_of(shape, rp, lineup, block, out, redeals, scratch, search):
    """The hands of ``block`` into rows ``lo .. hi - 1``; returns the first non-OK status."""
    status = rule_status(rp, scratch.board.pips)
    if status != OK:
        return status
    for j in range(block.lo, block.hi):
        st, rd = play_hand(shape, rp, lineup, hand_key(block.seed, block.start + j), out[j],
                           scratch, search)
        redeals[j] = rd
        if st != OK and status == OK:
            status = st
    return status


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
    opener_side = side_of(rp, opener)
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


@jit_entry
def sums_of(shape, rp, lineup, block, row, acc, scratch, search):
    """The hands of ``block`` added into the sums ``acc``; returns the first non-OK status."""
    status = rule_status(rp, scratch.board.pips)
    if status != OK:
        return status
    for j in range(block.lo, block.hi):
        st, rd = play_hand(shape, rp, lineup, hand_key(block.seed, block.start + j), row,
                           scratch, search)
        if st != OK and status == OK:
            status = st
        add_to_summary(rp, row, rd, acc)
    return status


@jit_entry
def logged(shape, rp, lineup, base, out, scratch, search):
    """Play one hand keyed ``base`` with its event log in ``scratch.log``; returns
    ``(status, redeals)``."""
    status = rule_status(rp, scratch.board.pips)
    if status != OK:
        return status, 0
    return play_hand(shape, rp, lineup, base, out, scratch, search)
