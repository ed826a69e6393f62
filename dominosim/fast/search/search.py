"""The search strategies, compiled: determinized Monte Carlo (``mc``) and information-set Monte
Carlo tree search (``ismcts``), honest or omniscient, and :func:`decide`, the entry point of every
search, which also dispatches to ``pimc`` (:mod:`dominosim.fast.search.pimc`) and
``epimc`` (:mod:`dominosim.fast.search.epimc`).

Both engines call :func:`decide` with the same arrays (the compiled kernel from its state, the
reference engine from a :class:`~dominosim.strategies.SeatView`, see :mod:`dominosim.search`), so
a search strategy plays identically in both. A decision works on copies of the position:

* a *determinization* puts the hidden tiles somewhere (:mod:`dominosim.fast.search.worlds`): drawn
  uniformly from the deals consistent with everything public (:mod:`dominosim.fast.search.consistent`),
  or, for the omniscient variants, the true hands with the boneyard in a fresh random order (the
  order of the sleeping tiles is the future of the shuffle, which no player can know);
* a *playout* finishes the hand from a position with uniform random play, by the one compiled turn
  of the hand kernel (:func:`dominosim.fast.core.turn.advance` and :func:`~dominosim.fast.core.turn.play`,
  with the game's core :class:`~dominosim.fast.core.shape.Shape`), and scores it.

``mc`` plays every legal move ``budget`` times: determinization ``k`` is shared by all moves, and so
are the playout streams (common random numbers), so the moves are compared on the same deals. It
picks the move with the highest mean reward. ``ismcts`` runs ``budget`` iterations of single-observer
ISMCTS (Cowling, Powley and Whitehouse 2012): each samples a determinization, descends the tree
choosing among the children legal in it by UCB1 with availability counts (exploration 0.7), adds
one node, plays out at random and backs the reward up, each node scored for the side of the seat
that moved into it. It picks the root move visited most. The reward of a finished hand to a side is
1 for a win, 1/2 for a tie and 0 for a loss: both search strategies maximise the probability of
winning the hand (a tie counted as half).

Randomness: one ``next64`` of the seat's stream per decision seeds everything the search draws.
"""

from __future__ import annotations

import numpy as np

from ...strategies.registry import METHODS
from ..core.board import MOVE_SUIT, MOVE_TILE, OUT, SEAT, fill_moves, holds, kth_move
from ..core.jit import jit_helper, jit_kernel
from ..core.rng import below, mix64, next64
from ..core.status import NO_METHOD, OK
from ..core.turn import advance, play, playable_suits, rule_status, score, side_of
from .epimc import epimc_move
from .pimc import pimc_move
from .worlds import (
    STREAM,
    Budget,
    Decision,
    copy_position,
    determinize,
    seed_streams,
    set_root,
    without_stack,
)

__all__ = ["Budget", "Decision", "decide", "playout"]

EXPLORATION = 0.7
# node fields of the tree
N_PARENT, N_TILE, N_SUIT, N_SEAT, N_CHILD, N_SIBLING, N_VISITS, N_AVAIL = range(8)
MC, ISMCTS, PIMC, EPIMC = (METHODS.index(name) for name in ("mc", "ismcts", "pimc", "epimc"))
"""The search methods :func:`decide` dispatches on (numbered in the strategy registry)."""
# ---------------------------------------------------------------- playouts
@jit_kernel
def playout(core, rp, board, notes, log, rng):
    """Finish the hand with uniform random play (seat ``s`` draws from ``rng[s]``, as the random
    strategy does in the kernel); returns ``(winning side, points)``."""
    while board.at[OUT] < 0:
        n, psm = advance(core, rp, board, notes, log)
        if n == 0:
            break
        seat = board.at[SEAT]
        tile, suit = kth_move(core, board.hands, seat, psm, below(rng, seat, n) if n > 1 else 0)
        play(core, rp, board, notes, log, seat, tile, suit)
    return score(rp, board.pips, board.at[OUT])


@jit_kernel
def reward(rp, winner, seat):
    """The reward of a finished hand to the side of ``seat``: 1 a win, 1/2 a tie, 0 a loss."""
    if winner < 0:
        return 0.5
    return 1.0 if winner == side_of(rp, seat) else 0.0


# ---------------------------------------------------------------- mc
@jit_kernel
def mc_decide(core, rp, budget, dec, ss, seed):
    """Index of the move with the best mean reward over ``budget.size`` playouts per move."""
    totals, work = ss.totals, ss.work
    me, n, moves = dec.me, dec.n, dec.moves
    for m in range(n):
        totals[m] = 0.0
    for k in range(budget.size):
        determinize(core, rp, me, budget.omniscient, dec.board, ss)
        key = mix64(seed + np.uint64(k + 1) * STREAM)
        for m in range(n):
            copy_position(core, rp, dec.board, ss)
            seed_streams(ss.rng, rp.players, key)
            play(core, rp, work, ss.notes, ss.log, me, moves[MOVE_TILE, m], moves[MOVE_SUIT, m])
            winner, _ = playout(core, rp, work, ss.notes, ss.log, ss.rng)
            totals[m] += reward(rp, winner, me)
    best = 0
    for m in range(1, n):
        if totals[m] > totals[best]:
            best = m
    return best


# ---------------------------------------------------------------- ismcts
@jit_kernel
def _ucb(tree, value, c, log_avail):
    visits = tree[N_VISITS, c]
    return value[c] / visits + EXPLORATION * np.sqrt(log_avail / visits)


@jit_kernel
def _find_child(tree, node, seat, tile, suit):
    """The child of ``node`` for the move ``(tile, suit)`` of ``seat``, or -1."""
    c = tree[N_CHILD, node]
    while c >= 0:
        if tree[N_SEAT, c] == seat and tree[N_TILE, c] == tile and tree[N_SUIT, c] == suit:
            return c
        c = tree[N_SIBLING, c]
    return -1


@jit_kernel
def _expand(core, rp, ss, node, seat, untried, n_nodes):
    """Add a child of ``node`` for one of the ``untried`` moves in ``ss.moves`` (chosen at
    random) and play it; returns the new node."""
    tree, value, moves = ss.tree, ss.value, ss.moves
    j = below(ss.rng, rp.players, untried) if untried > 1 else 0
    c = n_nodes
    tree[N_PARENT, c], tree[N_TILE, c], tree[N_SUIT, c] = node, moves[MOVE_TILE, j], moves[MOVE_SUIT, j]
    tree[N_SEAT, c], tree[N_CHILD, c], tree[N_SIBLING, c] = seat, -1, tree[N_CHILD, node]
    tree[N_VISITS, c], tree[N_AVAIL, c] = 0, 1
    value[c] = 0.0
    tree[N_CHILD, node] = c
    play(core, rp, ss.work, ss.notes, ss.log, seat, moves[MOVE_TILE, j], moves[MOVE_SUIT, j])
    return c


@jit_kernel
def _select(tree, value, node, seat, hands, psm):
    """The child of ``node`` legal here (``seat`` holds its tile, its suit is playable) with the
    best UCB score, or -1."""
    best, best_score = -1, -1.0
    c = tree[N_CHILD, node]
    while c >= 0:
        if tree[N_SEAT, c] == seat and holds(hands, seat, tree[N_TILE, c]) and \
                (psm >> tree[N_SUIT, c]) & 1 and tree[N_VISITS, c] > 0:
            u = _ucb(tree, value, c, np.log(tree[N_AVAIL, c]))
            if u > best_score:
                best, best_score = c, u
        c = tree[N_SIBLING, c]
    return best


@jit_kernel
def _descend(core, rp, me, root_n, n_nodes, ss):
    """Walk down from the root in the position being played, choosing by UCB among the children
    legal in it and adding one node; returns ``(node reached, number of nodes)``."""
    work, tree, moves = ss.work, ss.tree, ss.moves
    node = 0
    seat, psm = me, playable_suits(core, rp, work.at)
    while True:
        if node > 0:
            if work.at[OUT] >= 0:
                return node, n_nodes
            n, psm = advance(core, rp, work, ss.notes, ss.log)
            if n == 0:
                return node, n_nodes
            seat = work.at[SEAT]
        n = fill_moves(core, work.hands, seat, psm, moves)
        untried = 0
        for j in range(n):  # moves without a child are untried; children legal here are available
            c = _find_child(tree, node, seat, moves[MOVE_TILE, j], moves[MOVE_SUIT, j])
            if c >= 0:
                tree[N_AVAIL, c] += 1
            else:
                moves[MOVE_TILE, untried], moves[MOVE_SUIT, untried] = moves[MOVE_TILE, j], moves[MOVE_SUIT, j]
                untried += 1
        if untried > 0 and n_nodes < tree.shape[1]:
            return _expand(core, rp, ss, node, seat, untried, n_nodes), n_nodes + 1
        best = _select(tree, ss.value, node, seat, work.hands, psm)
        if best < 0:  # the tree is full: play on from here
            return node, n_nodes
        play(core, rp, work, ss.notes, ss.log, seat, tree[N_TILE, best], tree[N_SUIT, best])
        node = best


@jit_kernel
def ismcts_decide(core, rp, budget, dec, ss, seed):
    """Index of the root move visited most in ``budget.size`` iterations of SO-ISMCTS."""
    tree, value, work = ss.tree, ss.value, ss.work
    me, n, moves = dec.me, dec.n, dec.moves
    tree[N_PARENT, 0], tree[N_CHILD, 0], tree[N_SIBLING, 0], tree[N_VISITS, 0] = -1, -1, -1, 0
    n_nodes = 1
    seed_streams(ss.rng, rp.players, seed)
    for _ in range(budget.size):
        determinize(core, rp, me, budget.omniscient, dec.board, ss)
        copy_position(core, rp, dec.board, ss)
        node, n_nodes = _descend(core, rp, me, n, n_nodes, ss)
        winner, _ = playout(core, rp, work, ss.notes, ss.log, ss.rng)
        while node > 0:
            tree[N_VISITS, node] += 1
            value[node] += reward(rp, winner, tree[N_SEAT, node])
            node = tree[N_PARENT, node]
        tree[N_VISITS, 0] += 1
    best, best_visits = 0, -1
    for m in range(n):
        c = _find_child(tree, 0, me, moves[MOVE_TILE, m], moves[MOVE_SUIT, m])
        if c >= 0 and tree[N_VISITS, c] > best_visits:
            best, best_visits = m, tree[N_VISITS, c]
    return best


# ---------------------------------------------------------------- the entry point
@jit_helper
def decide(core, rp, budget, dec, ss, seat_rng):
    """The move of a search strategy for seat ``dec.me`` among its ``dec.n >= 2`` moves (in
    canonical order in ``dec.moves``); returns its index or a status, negated
    (:mod:`dominosim.fast.core.status`).

    ``budget``: a :class:`~dominosim.fast.search.worlds.Budget` (``method``: :data:`MC`,
    :data:`ISMCTS`, :data:`PIMC` or :data:`EPIMC`). ``dec``: a :class:`~dominosim.fast.search.worlds.Decision`;
    its board's hands are read only at row ``me`` and its boneyard not at all unless
    ``budget.omniscient``. ``ss``: from :func:`make_search_scratch` (with a solver's stack for
    ``pimc``). One number is drawn from ``seat_rng[0]``.
    """
    status = rule_status(rp, dec.board.pips)
    if status != OK:
        return -status
    seed = next64(seat_rng, 0)
    plain = without_stack(ss)  # the stack goes to the solving searches alone
    states = set_root(rp, dec, budget.omniscient, plain, seed)
    if states < 0:
        return states
    if budget.method == PIMC:
        return pimc_move(ss.stack, core, rp, budget, dec, plain, seed)
    if budget.method == EPIMC:
        return epimc_move(ss.stack, core, rp, budget, dec, plain, seed)
    if budget.method == ISMCTS:
        return ismcts_decide(core, rp, budget, dec, plain, seed)
    if budget.method == MC:
        return mc_decide(core, rp, budget, dec, plain, seed)
    return NO_METHOD
