"""The sampled worlds every search strategy works in: the search's scratch, the decision's root,
and the *determinization* that puts the hidden tiles somewhere.

A search decides on copies of the position. :func:`set_root` keeps the decision's scalars;
:func:`determinize` deals the hidden tiles, drawn uniformly from the deals consistent with
everything public (:mod:`dominosim.fast.search.consistent`), or, for the omniscient variants, the true
hands with the boneyard in a fresh random order (the order of the sleeping tiles is the future of
the shuffle, which no player can know); :func:`copy_position` lays the world out as a
:class:`~dominosim.fast.core.board.Board` to play on. ``mc`` and ``ismcts``
(:mod:`dominosim.fast.search.search`) play random playouts in it, ``pimc`` (:mod:`dominosim.fast.search.pimc`)
solves it.
"""

from __future__ import annotations

import functools
from collections import namedtuple

import numpy as np

from ...rng import GAMMA
from ..core.board import (
    AT_FIELDS,
    BONE_END,
    BONE_POS,
    KNOCKED,
    MOVE_ROWS,
    N_ENDS,
    OUT,
    SEAT,
    copy_hands,
    copy_layout,
    copy_scalars,
    give,
    holds,
    make_board,
    make_log,
    make_notes,
)
from ..core.jit import jit, jit_helper, jit_kernel
from ..core.rng import mix64, shuffle
from .consistent import draw_deal, make_sampler_scratch, prepare
from .infer import INF_CANDIDATES, copy_public, draw_inferred, make_inference, with_model_table

STREAM = np.uint64(GAMMA)
"""A decision's streams are spaced by the generator's increment: playout ``k`` of ``mc`` and
world ``k`` of ``pimc`` key ``mix64(seed + (k + 1) * GAMMA)``, seat ``s`` of a playout
``mix64(key + s * GAMMA)``, the sampler ``mix64(seed)`` (see :mod:`dominosim.rng`)."""

Budget = namedtuple("Budget", ["method", "omniscient", "size"])
"""What a search spends on a decision: its method (numbered in
:data:`~dominosim.strategies.registry.METHODS`), whether it sees the hidden hands, and its size
(``mc``: playouts per move; ``ismcts``: iterations; ``pimc``: sampled worlds)."""

Decision = namedtuple("Decision", ["me", "n", "moves", "board", "pub", "n_pub"])
"""What a search decides: seat ``me`` to move among its ``n`` legal moves (``moves[MOVE_TILE,
:n]`` the tiles, ``moves[MOVE_SUIT, :n]`` the suits, in canonical order) in the position
``board`` (a :class:`~dominosim.fast.core.board.Board`), after the public log ``pub[:n_pub]``."""

SearchScratch = namedtuple("SearchScratch", ["dealt", "work", "root", "notes", "log", "rng",
                                             "totals", "moves", "tree", "value", "sampler",
                                             "infer", "stack"])
"""What a decision works in: ``dealt`` (the determinization: every hand and the boneyard in draw
order), ``work`` (the position being played out), ``root`` (the decision's scalars), ``notes`` and
``log`` (the playouts', which keep nothing), the streams (one per seat, then the sampler's),
``totals`` (``mc``: the reward of each move; ``pimc``: each move's total ``win`` value, total
points and one world's values, one after the other), ``moves``, ``tree`` and ``value`` (``ismcts``), the consistent-deal ``sampler``, the
inference's arrays (``infer``: :class:`~dominosim.fast.search.infer.Inference`) and the solver's ``stack`` (``pimc``; None when no seat solves, and then the solver is not compiled).
The searches take it apart: the stack goes to the solving code alone, the rest to everything else
without it (:func:`without_stack`), so a line-up with a solving seat and one without share the
compiled code of the searches that solve nothing."""


@jit_helper
def without_stack(ss):
    """``ss`` with no solver's stack. The searches and the world sampling that solve no world
    take it, so their compiled code is one whether or not a seat of the line-up solves; only the
    solving code (``pimc``, ``epimc``) takes the stack, as an argument of its own. (In Python,
    ``ss._replace(stack=None)`` is the same type.)"""
    return SearchScratch(*ss[:-1], None)  # every field but the last, the stack


@jit
def _search_arrays(t, p, n_events, nodes, states):
    return (make_board(t, p), make_board(t, p), np.zeros(len(AT_FIELDS), np.int64),
            make_notes(p), make_log(0, 0), np.zeros(p + 1, np.uint64),
            np.zeros(6 * t, np.float64), np.zeros((MOVE_ROWS, 2 * t), np.int64),
            np.zeros((8, max(nodes, 1)), np.int64), np.zeros(max(nodes, 1), np.float64),
            make_sampler_scratch(t, p, n_events, states), make_inference(t, p, n_events))


def make_search_scratch(t: int, p: int, n_events: int, nodes: int, states: int,
                        table_bits: int = 0, weighted: bool = False) -> SearchScratch:
    """A :class:`SearchScratch` for ``t`` tiles, ``p`` seats, a public log of ``n_events`` rows,
    a tree of ``nodes`` nodes, a sampler table of ``states`` states and, when ``table_bits``, a
    solver's stack with a table of ``2**table_bits`` positions (allocated once per block of
    hands); ``weighted``: inference may model a seat as a weighted player (its features' table,
    :func:`~dominosim.fast.search.infer.with_model_table`; the kernel compiles them only then)."""
    stack = None
    if table_bits:
        from .solve import make_stack

        stack = make_stack(t, p, t + 3, table_bits)
    arrays = _search_arrays(t, p, n_events, nodes, states)
    if weighted:
        arrays = (*arrays[:-1], with_model_table(arrays[-1]))
    return SearchScratch(*arrays, stack)


def _nbytes(arrays) -> int:
    """The bytes of a named tuple of arrays, nested tuples and None included."""
    if arrays is None:
        return 0
    if isinstance(arrays, tuple):
        return sum(_nbytes(a) for a in arrays)
    return int(arrays.nbytes)


@functools.lru_cache(maxsize=64)
def _scratch_terms(t: int, p: int, n_events: int) -> tuple[int, int, int, int, int]:
    """What :func:`scratch_bytes` adds up, from four small builds: the bytes of a scratch with one
    node and one state, the bytes a node adds, a state adds, a solver's stack with a table of 2
    positions, and a position of its table adds."""
    base = _nbytes(_search_arrays(t, p, n_events, 1, 1))
    per_node = _nbytes(_search_arrays(t, p, n_events, 2, 1)) - base
    per_state = _nbytes(_search_arrays(t, p, n_events, 1, 2)) - base
    from .solve import make_stack

    stack = _nbytes(make_stack(t, p, t + 3, 1))
    per_position = (_nbytes(make_stack(t, p, t + 3, 2)) - stack) // 2
    return base, per_node, per_state, stack, per_position


def scratch_bytes(t: int, p: int, n_events: int, nodes: int, states: int,
                  table_bits: int = 0) -> int:
    """The bytes of :func:`make_search_scratch`'s arrays for the same arguments, without
    allocating them: each array grows linearly with the nodes, the states or the table's
    positions, so small builds give the whole (a search strategy checks it against its
    ``max_memory`` before it starts).

    >>> scratch_bytes(28, 4, 60, 1001, 1 << 20, 18) == _nbytes(
    ...     make_search_scratch(28, 4, 60, 1001, 1 << 20, 18))
    True
    """
    base, per_node, per_state, stack, per_position = _scratch_terms(t, p, n_events)
    total = base + per_node * (max(nodes, 1) - 1) + per_state * (max(states, 1) - 1)
    if table_bits:
        total += stack + per_position * ((1 << table_bits) - 2)
    return total


@jit_kernel
def set_root(rp, dec, omniscient, ss, seed):
    """The decision's scalars into ``ss.root`` (the boneyard's undrawn tiles from 0, seat
    ``dec.me`` to move) and, for an honest search, the consistent-deal table; returns its number
    of states or a status of :func:`~dominosim.fast.search.consistent.prepare`, negated."""
    root, board = ss.root, dec.board
    copy_scalars(board.at, root)
    root[BONE_POS], root[BONE_END] = 0, board.at[BONE_END] - board.at[BONE_POS]
    root[KNOCKED], root[SEAT], root[OUT] = 0, dec.me, -1
    ss.rng[rp.players] = mix64(seed)
    if omniscient:
        return 1
    if ss.infer.info[INF_CANDIDATES] > 0:
        copy_public(dec.pub, dec.n_pub, ss.infer)
    return prepare(rp, dec.me, dec.pub, dec.n_pub, board.hands, board.counts, root[BONE_END],
                   ss.sampler)


@jit_kernel
def copy_position(core, rp, board, ss):
    """The determinization and the decision's open ends into the position being played."""
    dealt, work = ss.dealt, ss.work
    copy_hands(core, rp.players, dealt, work)
    copy_layout(board, work, ss.root[N_ENDS])
    copy_scalars(ss.root, work.at)
    for i in range(ss.root[BONE_END]):  # a copy, not a shared array: the entry points promise
        work.bone[i] = dealt.bone[i]     # LLVM that their arrays do not alias (jit.jit_entry)


@jit_kernel
def determinize(core, rp, me, omniscient, board, ss):
    """A deal of the hidden tiles into ``ss.dealt``; sets the boneyard's size in the root.

    Honest: a uniform draw among the consistent deals (the table is ready), or with inference on
    (:mod:`dominosim.fast.search.infer`) a draw weighted by the likelihood of the other seats'
    plays. Omniscient: the true hands and the true sleeping tiles in a fresh order."""
    dealt = ss.dealt
    if not omniscient:
        if ss.infer.info[INF_CANDIDATES] > 0:
            ss.root[BONE_END] = draw_inferred(core, rp, me, board, ss)
        else:
            ss.root[BONE_END] = draw_deal(rp, me, board.hands, ss.sampler, dealt, ss.rng,
                                          rp.players)
        return
    for s in range(rp.players):
        dealt.counts[s], dealt.pips[s] = 0, 0
        for w in range(core.words):
            dealt.hands[s, w] = 0
        for tile in range(rp.tiles):
            if holds(board.hands, s, tile):
                give(dealt, s, tile)
    n = board.at[BONE_END] - board.at[BONE_POS]
    for i in range(n):
        dealt.bone[i] = board.bone[board.at[BONE_POS] + i]
    shuffle(ss.rng, rp.players, dealt.bone, n)
    ss.root[BONE_END] = n


@jit_kernel
def seed_streams(rng, players, key):
    """Seat ``s``'s stream keyed ``mix64(key + s * GAMMA)``."""
    for s in range(players):
        rng[s] = mix64(key + np.uint64(s) * STREAM)
