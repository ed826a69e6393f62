"""The search strategies, compiled: determinized Monte Carlo (``mc``) and information-set Monte
Carlo tree search (``ismcts``), honest or omniscient.

Both engines call :func:`decide` with the same arrays (the compiled kernel from its state, the
reference engine from a :class:`~dominosim.strategies.SeatView`, see :mod:`dominosim.search`), so
a search strategy plays identically in both. A decision works on copies of the position:

* a *determinization* puts the hidden tiles somewhere: drawn uniformly from the deals consistent
  with everything public (:mod:`dominosim.fast.consistent`), or, for the omniscient variants, the
  true hands with the boneyard in a fresh random order (the order of the sleeping tiles is the
  future of the shuffle, which no player can know);
* a *playout* finishes the hand from a position with uniform random play, by the turn loop of the
  kernel (:func:`advance`, :func:`apply_move`), and scores it.

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

from .consistent import draw_deal, prepare
from .jit import jit, jit_helper, jit_kernel
from .model import (
    DRAW_NONE,
    DRAW_ONE,
    MAX_ENDS,
    R_DRAW,
    R_KEEP,
    R_PLAYERS,
    R_TILES,
    count_moves,
    fill_moves,
    give,
    holds,
    is_out,
    kth_move,
    next_seat,
    place,
    playable_mask,
    score,
    side_of,
    take,
)
from .rng import below, mix64, next64, shuffle

# the game's scalars, kept in one small array so that the functions below can change them
G_N_ENDS, G_N_EMPTY, G_SUIT_MASK, G_OPEN_SUIT, G_BONE_POS, G_BONE_N, G_KNOCKED, G_SEAT = range(8)
G_OUT = 8
N_G = 9

MC, ISMCTS = 0, 1
EXPLORATION = 0.7
# node fields
N_PARENT, N_TILE, N_SUIT, N_SEAT, N_CHILD, N_SIBLING, N_VISITS, N_AVAIL = range(8)
# statuses of decide (an index >= 0 is a move)
SEARCH_TOO_MANY_STATES = -1
SEARCH_NO_DEAL = -2
_STREAM = np.uint64(0x9E3779B97F4A7C15)


D_T, D_P, D_EVENTS, D_NODES, D_STATES = range(5)
N_DIMS = 8


@jit
def search_sizes(t, p, n_events, nodes, states):
    """Lengths of the four flat buffers of :func:`make_search_scratch` (int64, uint64, float64,
    bool), in the order :func:`search_views` cuts them."""
    e, nn, cap, slots = max(n_events, 1), max(nodes, 1), max(states, 1), p + t
    w = (t + 63) // 64
    ints = (N_DIMS + 3 * e + 2 * p + t + 2 * p + MAX_ENDS + 16 + 2 * N_G + 4 * t + 8 * nn
            + 16 + 4 * slots + 4 * (n_events + p) + 3 * t + 4 * slots + t * (slots + 1) + cap
            + t + 2)
    return ints, 2 * p * w + p + 1, 2 * t + nn + cap, MAX_ENDS + t * slots


@jit
def make_search_scratch(t, p, n_events, nodes, states):
    """The flat buffers a search works in (allocated once per block of hands; tiny when ``nodes``
    is 0, that is when no seat searches). Few arrays, because the hand kernel passes them on for
    every hand: :func:`search_views` cuts them into the arrays a decision uses."""
    if nodes == 0:
        n_events, states = 0, 0
    ints, uints, floats, bools = search_sizes(t, p, n_events, nodes, states)
    ibuf = np.zeros(ints, np.int64)
    ibuf[D_T], ibuf[D_P], ibuf[D_EVENTS], ibuf[D_NODES], ibuf[D_STATES] = \
        t, p, n_events, nodes, states
    return ibuf, np.zeros(uints, np.uint64), np.zeros(floats, np.float64), np.zeros(bools, np.bool_)


@jit_helper
def _cut(buf, at, rows, cols):
    return buf[at:at + rows * cols].reshape((rows, cols)), at + rows * cols


@jit_helper
def public_log(buffers):
    """The public log inside the search buffers (rows ``(kind, seat, x)``)."""
    ibuf = buffers[0]
    e = max(ibuf[D_EVENTS], 1)
    return ibuf[N_DIMS:N_DIMS + 3 * e].reshape((e, 3))


@jit_kernel
def search_views(buffers):
    """The arrays of a decision, as views into the buffers of :func:`make_search_scratch`."""
    ibuf, ubuf, fbuf, bbuf = buffers
    t, p, n_events = ibuf[D_T], ibuf[D_P], ibuf[D_EVENTS]
    nn, cap, slots = max(ibuf[D_NODES], 1), max(ibuf[D_STATES], 1), p + t
    w = (t + 63) // 64
    i, u, f = N_DIMS, 0, 0
    pub, i = _cut(ibuf, i, max(n_events, 1), 3)
    d_hands, u = _cut(ubuf, u, p, w)
    d_cp, i = _cut(ibuf, i, 2, p)
    bone, i = _cut(ibuf, i, 1, t)
    w_hands, u = _cut(ubuf, u, p, w)
    w_cp, i = _cut(ibuf, i, 2, p)
    w_ends, i = _cut(ibuf, i, 1, MAX_ENDS)
    w_arms = bbuf[:MAX_ENDS]
    w_suit, i = _cut(ibuf, i, 1, 16)
    g, i = _cut(ibuf, i, 1, N_G)
    root_g, i = _cut(ibuf, i, 1, N_G)
    rng = ubuf[u:u + p + 1]
    totals, f = _cut(fbuf, f, 1, 2 * t)
    moves, i = _cut(ibuf, i, 2, 2 * t)
    tree, i = _cut(ibuf, i, 8, nn)
    value, f = _cut(fbuf, f, 1, nn)
    info, i = _cut(ibuf, i, 1, 16)
    slot_arr, i = _cut(ibuf, i, 4, slots)
    cons, i = _cut(ibuf, i, 4, n_events + p)
    items, i = _cut(ibuf, i, 3, t)
    allowed = bbuf[MAX_ENDS:MAX_ENDS + t * slots].reshape((t, slots))
    places, i = _cut(ibuf, i, 4, slots)
    options, i = _cut(ibuf, i, t, slots + 1)
    codes, i = _cut(ibuf, i, 1, cap)
    weights, f = _cut(fbuf, f, 1, cap)
    starts, i = _cut(ibuf, i, 1, t + 2)
    sampler = (info[0], slot_arr, cons, items, allowed, places, options, codes[0], weights[0],
               starts[0])
    return (pub, d_hands, d_cp, bone[0], w_hands, w_cp, w_ends[0], w_arms, w_suit[0], g[0],
            root_g[0], rng, totals[0], moves, tree, value[0], sampler)


# ---------------------------------------------------------------- the game loop of a playout
@jit_kernel
def advance(rp, hands, counts, pips, ends, arms, suit_count, bone, g):
    """From the seat that moved last (``g[G_SEAT]``) to the next seat that can play, drawing and
    knocking as the rules say (the kernel's turn loop). Returns ``(seat, n_moves, playable suit
    mask)``, or ``(-1, 0, 0)`` when the hand is blocked."""
    players = rp[R_PLAYERS]
    seat = g[G_SEAT]
    while True:
        seat = next_seat(rp, counts, seat)
        psm = playable_mask(rp, g[G_SUIT_MASK], g[G_OPEN_SUIT], g[G_N_EMPTY])
        n = count_moves(hands, seat, psm)
        if n == 0 and rp[R_DRAW] != DRAW_NONE:
            while n == 0 and g[G_BONE_N] - g[G_BONE_POS] - rp[R_KEEP] > 0:
                give(hands, counts, pips, seat, bone[g[G_BONE_POS]])
                g[G_BONE_POS] += 1
                n = count_moves(hands, seat, psm)
                if rp[R_DRAW] == DRAW_ONE:
                    break
        if n > 0:
            g[G_SEAT] = seat
            return seat, n, psm
        g[G_KNOCKED] |= 1 << seat
        if rp[R_DRAW] == DRAW_NONE or g[G_BONE_N] - g[G_BONE_POS] - rp[R_KEEP] <= 0:
            holding = 0
            for s in range(players):
                if counts[s] > 0:
                    holding |= 1 << s
            if holding & ~g[G_KNOCKED] == 0:
                return -1, 0, 0


@jit_helper
def apply_move(rp, hands, counts, pips, ends, arms, suit_count, g, seat, tile, suit):
    """``seat`` plays ``tile`` on ``suit``; records the seat that went out in ``g[G_OUT]``."""
    take(hands, counts, pips, seat, tile)
    _, n_ends, n_empty, mask = place(rp, ends, arms, g[G_N_ENDS], g[G_N_EMPTY], suit_count,
                                     g[G_SUIT_MASK], tile, suit)
    g[G_N_ENDS], g[G_N_EMPTY], g[G_SUIT_MASK] = n_ends, n_empty, mask
    g[G_KNOCKED] = 0
    g[G_SEAT] = seat
    if is_out(rp, counts, seat):
        g[G_OUT] = seat


@jit_kernel
def playout(rp, hands, counts, pips, ends, arms, suit_count, bone, g, rng):
    """Finish the hand with uniform random play (seat ``s`` draws from ``rng[s]``, as the random
    strategy does in the kernel); returns ``(winning side, points)``."""
    while g[G_OUT] < 0:
        seat, n, psm = advance(rp, hands, counts, pips, ends, arms, suit_count, bone, g)
        if seat < 0:
            break
        k = below(rng, seat, n) if n > 1 else 0
        tile, suit = kth_move(hands, seat, psm, k)
        apply_move(rp, hands, counts, pips, ends, arms, suit_count, g, seat, tile, suit)
    return score(rp, pips, g[G_OUT])


@jit_helper
def reward(rp, winner, seat):
    """The reward of a finished hand to the side of ``seat``: 1 a win, 1/2 a tie, 0 a loss."""
    if winner < 0:
        return 0.5
    return 1.0 if winner == side_of(rp, seat) else 0.0


# ---------------------------------------------------------------- positions
@jit_kernel
def _copy_position(rp, ss, ends, arms, suit_count):
    """The determinization and the root's open ends into the position being played."""
    d_hands, d_cp, w_hands, w_cp = ss[1], ss[2], ss[4], ss[5]
    w_ends, w_arms, w_suit, g, root_g = ss[6], ss[7], ss[8], ss[9], ss[10]
    for s in range(rp[R_PLAYERS]):
        for w in range(d_hands.shape[1]):
            w_hands[s, w] = d_hands[s, w]
        w_cp[0, s], w_cp[1, s] = d_cp[0, s], d_cp[1, s]
    for i in range(root_g[G_N_ENDS]):
        w_ends[i], w_arms[i] = ends[i], arms[i]
    for v in range(16):
        w_suit[v] = suit_count[v]
    for i in range(N_G):
        g[i] = root_g[i]


@jit_kernel
def _determinize(rp, me, omniscient, hands, bone_tiles, ss):
    """A deal of the hidden tiles into the determinization arrays; returns the boneyard size.

    Honest: a uniform draw among the consistent deals (the table is ready). Omniscient: the true
    hands (``hands``) and the true sleeping tiles (``bone_tiles``) in a fresh order."""
    d_hands, d_cp, bone, rng = ss[1], ss[2], ss[3], ss[11]
    players = rp[R_PLAYERS]
    if not omniscient:
        return draw_deal(rp, me, hands, ss[16], d_hands, d_cp[0], d_cp[1], bone, rng, players)
    for s in range(players):
        d_cp[0, s], d_cp[1, s] = 0, 0
        for w in range(d_hands.shape[1]):
            d_hands[s, w] = 0
        for tile in range(rp[R_TILES]):
            if holds(hands, s, tile):
                give(d_hands, d_cp[0], d_cp[1], s, tile)
    n = ss[10][G_BONE_N]
    for i in range(n):
        bone[i] = bone_tiles[i]
    shuffle(rng, players, bone, n)
    return n


@jit_helper
def _seed_streams(rng, players, key):
    for s in range(players):
        rng[s] = mix64(key + np.uint64(s) * _STREAM)


# ---------------------------------------------------------------- mc
@jit_kernel
def mc_decide(rp, me, omniscient, budget, n, move_tile, move_suit, hands, ends, arms, suit_count,
              bone_tiles, ss, seed):
    """Index of the move with the best mean reward over ``budget`` playouts per move."""
    w_hands, w_cp, w_ends, w_arms, w_suit, g, rng, totals = ss[4], ss[5], ss[6], ss[7], ss[8], \
        ss[9], ss[11], ss[12]
    players = rp[R_PLAYERS]
    for m in range(n):
        totals[m] = 0.0
    for k in range(budget):
        _determinize(rp, me, omniscient, hands, bone_tiles, ss)
        key = mix64(seed + np.uint64(k + 1) * _STREAM)
        for m in range(n):
            _copy_position(rp, ss, ends, arms, suit_count)
            _seed_streams(rng, players, key)
            apply_move(rp, w_hands, w_cp[0], w_cp[1], w_ends, w_arms, w_suit, g, me, move_tile[m],
                       move_suit[m])
            winner, _ = playout(rp, w_hands, w_cp[0], w_cp[1], w_ends, w_arms, w_suit, ss[3], g,
                                rng)
            totals[m] += reward(rp, winner, me)
    best = 0
    for m in range(1, n):
        if totals[m] > totals[best]:
            best = m
    return best


# ---------------------------------------------------------------- ismcts
@jit_helper
def _ucb(tree, value, c, log_avail):
    visits = tree[N_VISITS, c]
    return value[c] / visits + EXPLORATION * np.sqrt(log_avail / visits)


@jit_kernel
def _descend(rp, me, root_n, tree, value, n_nodes, ss):
    """Walk down from the root in the position being played, choosing by UCB among the children
    legal in it and adding one node; returns ``(node reached, number of nodes)``."""
    w_hands, w_cp, w_ends, w_arms, w_suit, g, rng, moves = ss[4], ss[5], ss[6], ss[7], ss[8], \
        ss[9], ss[11], ss[13]
    players = rp[R_PLAYERS]
    node = 0
    seat, n, psm = me, root_n, playable_mask(rp, g[G_SUIT_MASK], g[G_OPEN_SUIT], g[G_N_EMPTY])
    while True:
        if node > 0:
            if g[G_OUT] >= 0:
                return node, n_nodes
            seat, n, psm = advance(rp, w_hands, w_cp[0], w_cp[1], w_ends, w_arms, w_suit, ss[3],
                                   g)
            if seat < 0:
                return node, n_nodes
        n = fill_moves(w_hands, seat, psm, moves[0], moves[1])
        untried = 0
        for j in range(n):  # moves without a child are untried; children legal here are available
            c = tree[N_CHILD, node]
            found = False
            while c >= 0:
                if tree[N_SEAT, c] == seat and tree[N_TILE, c] == moves[0, j] and \
                        tree[N_SUIT, c] == moves[1, j]:
                    tree[N_AVAIL, c] += 1
                    found = True
                    break
                c = tree[N_SIBLING, c]
            if not found:
                moves[0, untried], moves[1, untried] = moves[0, j], moves[1, j]
                untried += 1
        if untried > 0 and n_nodes < tree.shape[1]:
            j = below(rng, players, untried) if untried > 1 else 0
            c = n_nodes
            n_nodes += 1
            tree[N_PARENT, c], tree[N_TILE, c], tree[N_SUIT, c] = node, moves[0, j], moves[1, j]
            tree[N_SEAT, c], tree[N_CHILD, c], tree[N_SIBLING, c] = seat, -1, tree[N_CHILD, node]
            tree[N_VISITS, c], tree[N_AVAIL, c] = 0, 1
            value[c] = 0.0
            tree[N_CHILD, node] = c
            apply_move(rp, w_hands, w_cp[0], w_cp[1], w_ends, w_arms, w_suit, g, seat, moves[0, j],
                       moves[1, j])
            return c, n_nodes
        best, best_score = -1, -1.0
        c = tree[N_CHILD, node]
        while c >= 0:
            if tree[N_SEAT, c] == seat and holds(w_hands, seat, tree[N_TILE, c]) and \
                    (psm >> tree[N_SUIT, c]) & 1 and tree[N_VISITS, c] > 0:
                u = _ucb(tree, value, c, np.log(tree[N_AVAIL, c]))
                if u > best_score:
                    best, best_score = c, u
            c = tree[N_SIBLING, c]
        if best < 0:  # the tree is full: play on from here
            return node, n_nodes
        apply_move(rp, w_hands, w_cp[0], w_cp[1], w_ends, w_arms, w_suit, g, seat,
                   tree[N_TILE, best], tree[N_SUIT, best])
        node = best


@jit_kernel
def ismcts_decide(rp, me, omniscient, budget, n, move_tile, move_suit, hands, ends, arms,
                  suit_count, bone_tiles, ss, seed):
    """Index of the root move visited most in ``budget`` iterations of SO-ISMCTS."""
    w_hands, w_cp, w_ends, w_arms, w_suit, g, rng = ss[4], ss[5], ss[6], ss[7], ss[8], ss[9], \
        ss[11]
    tree, value = ss[14], ss[15]
    players = rp[R_PLAYERS]
    tree[N_PARENT, 0], tree[N_CHILD, 0], tree[N_SIBLING, 0], tree[N_VISITS, 0] = -1, -1, -1, 0
    n_nodes = 1
    _seed_streams(rng, players, seed)
    for _ in range(budget):
        _determinize(rp, me, omniscient, hands, bone_tiles, ss)
        _copy_position(rp, ss, ends, arms, suit_count)
        node, n_nodes = _descend(rp, me, n, tree, value, n_nodes, ss)
        winner, _ = playout(rp, w_hands, w_cp[0], w_cp[1], w_ends, w_arms, w_suit, ss[3], g, rng)
        while node > 0:
            tree[N_VISITS, node] += 1
            value[node] += reward(rp, winner, tree[N_SEAT, node])
            node = tree[N_PARENT, node]
        tree[N_VISITS, 0] += 1
    best, best_visits = 0, -1
    for m in range(n):
        c = tree[N_CHILD, 0]
        while c >= 0:
            if tree[N_TILE, c] == move_tile[m] and tree[N_SUIT, c] == move_suit[m]:
                if tree[N_VISITS, c] > best_visits:
                    best, best_visits = m, tree[N_VISITS, c]
                break
            c = tree[N_SIBLING, c]
    return best


# ---------------------------------------------------------------- the entry point
@jit_kernel
def decide(rp, kind, omniscient, budget, me, n, move_tile, move_suit, hands, counts, ends, arms,
           suit_count, n_ends, n_empty, suit_mask, open_suit, bone_tiles, bone_n, n_pub, buffers,
           seat_rng):
    """The move of a search strategy for seat ``me`` among its ``n >= 2`` moves (in canonical
    order in ``move_tile``/``move_suit``); returns its index or a negative status.

    ``hands``: read only at row ``me`` unless ``omniscient``; ``bone_tiles[:bone_n]``: the sleeping
    tiles, read only if ``omniscient``; ``buffers``: from :func:`make_search_scratch`, the public
    log in its first ``n_pub`` rows (:func:`public_log`). One number is drawn from ``seat_rng[0]``.
    """
    ss = search_views(buffers)
    seed = next64(seat_rng, 0)
    root_g = ss[10]
    root_g[G_N_ENDS], root_g[G_N_EMPTY], root_g[G_SUIT_MASK] = n_ends, n_empty, suit_mask
    root_g[G_OPEN_SUIT], root_g[G_BONE_POS], root_g[G_BONE_N] = open_suit, 0, bone_n
    root_g[G_KNOCKED], root_g[G_SEAT], root_g[G_OUT] = 0, me, -1
    rng = ss[11]
    rng[rp[R_PLAYERS]] = mix64(seed)
    if not omniscient:
        states = prepare(rp, me, ss[0], n_pub, hands, counts, bone_n, ss[16])
        if states < 0:
            return states
    if kind == MC:
        return mc_decide(rp, me, omniscient, budget, n, move_tile, move_suit, hands, ends, arms,
                         suit_count, bone_tiles, ss, seed)
    return ismcts_decide(rp, me, omniscient, budget, n, move_tile, move_suit, hands, ends, arms,
                         suit_count, bone_tiles, ss, seed)
