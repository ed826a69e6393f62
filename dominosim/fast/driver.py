"""The parallel driver: hands ``start .. start + n - 1`` spread over threads in blocks.

Each block allocates its scratch arrays once and plays its hands one after another; hand ``i``
depends only on ``(seed, i)``, so the results do not depend on the number of threads or blocks.
:func:`run_rows` writes one record row per hand; :func:`run_summary` adds each hand into per-block
sums (memory independent of the number of hands).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from .jit import jit, jit_helper, jit_kernel, jit_parallel
from .kernel import (
    C_DRAWS,
    C_END,
    C_KNOCKS,
    C_OPENER,
    C_PLAYS,
    C_POINTS,
    C_STITCH,
    C_WIN,
    MAX_ENDS,
    N_BASE_COLS,
    OK,
    R_PARTNER,
    R_PLAYERS,
    R_TILES,
    make_scratch,
    play_hand,
)
from .model import R_SEARCH_NODES, R_SEARCH_STATES
from .rng import hand_key


@jit_kernel
def play_block(rp, strategies, seed, start, lo, hi, out, redeals, scratch, no_log, no_ends):
    """Hands ``start + lo .. start + hi - 1`` into rows ``lo .. hi - 1``; returns the first
    non-OK status (OK when all went well). One call per block keeps the driver's reference
    counting out of the hand loop."""
    status = OK
    for j in range(lo, hi):
        st, rd = play_hand(rp, strategies, hand_key(seed, start + j), out[j], scratch, no_log,
                           no_ends)
        redeals[j] = rd
        if st != OK and status == OK:
            status = st
    return status


@jit_parallel
def run_rows(rp, strategies, seed, start, out, redeals, status, n_blocks):
    """Play ``out.shape[0]`` hands from ``start``; row ``j`` of ``out`` is hand ``start + j``.

    ``status[b]`` receives the first non-OK status of block ``b`` (0 when all went well).
    """
    n = out.shape[0]
    t, p = rp[R_TILES], rp[R_PLAYERS]
    for b in prange(n_blocks):
        scratch = make_scratch(t, p, rp[R_SEARCH_NODES], rp[R_SEARCH_STATES])
        no_log = np.zeros((0, 7), np.int64)
        no_ends = np.zeros((0, MAX_ENDS), np.int64)
        status[b] = play_block(rp, strategies, seed, start, b * n // n_blocks,
                               (b + 1) * n // n_blocks, out, redeals, scratch, no_log, no_ends)


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


@jit_helper
def add_to_summary(rp, row, redeals, acc):
    """Add one hand's record row to the sums ``acc``."""
    p = rp[R_PLAYERS]
    n_sides = p // 2 if rp[R_PARTNER] == 1 else p
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
def summarise_block(rp, strategies, seed, start, lo, hi, row, acc, scratch, no_log, no_ends):
    """Hands ``start + lo .. start + hi - 1`` added into the sums ``acc``; returns the first
    non-OK status."""
    status = OK
    for j in range(lo, hi):
        st, rd = play_hand(rp, strategies, hand_key(seed, start + j), row, scratch, no_log,
                           no_ends)
        if st != OK and status == OK:
            status = st
        add_to_summary(rp, row, rd, acc)
    return status


@jit_parallel
def run_summary(rp, strategies, seed, start, n, acc, status):
    """Play ``n`` hands from ``start`` and add them into ``acc[b]`` (one row of sums per block)."""
    n_blocks = acc.shape[0]
    t, p = rp[R_TILES], rp[R_PLAYERS]
    for b in prange(n_blocks):
        scratch = make_scratch(t, p, rp[R_SEARCH_NODES], rp[R_SEARCH_STATES])
        row = np.zeros(N_BASE_COLS + 3 * p, np.int16)
        no_log = np.zeros((0, 7), np.int64)
        no_ends = np.zeros((0, MAX_ENDS), np.int64)
        status[b] = summarise_block(rp, strategies, seed, start, b * n // n_blocks,
                                    (b + 1) * n // n_blocks, row, acc[b], scratch, no_log,
                                    no_ends)


@jit
def run_logged(rp, strategies, base, out, log, log_ends):
    """Play one hand keyed ``base`` with its event log; returns ``(status, redeals, scratch)``."""
    scratch = make_scratch(rp[R_TILES], rp[R_PLAYERS], rp[R_SEARCH_NODES], rp[R_SEARCH_STATES])
    st, rd = play_hand(rp, strategies, base, out, scratch, log, log_ends)
    return st, rd, scratch[0]
