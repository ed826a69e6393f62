"""One hand of dominoes, compiled: the deal, the strategies' choices, the turn loop, the record.

The rules themselves (legal moves, placing a tile, the end, the score) are in
:mod:`dominosim.fast.model`; every function mirrors one rule of the reference engine
(:mod:`dominosim.game`, :mod:`dominosim.reference`) and is reachable from plain Python for tests.
State lives in the arrays of :func:`make_scratch`, allocated once per block of hands; nothing is
allocated per move. The strategies come in as one code per seat (``STRATEGY_IDS``; a search
strategy's budget above the low byte). A hand's record is written into one row of an ``int16``
array indexed by the ``C_*`` constants; problems come back as status codes.
"""

from __future__ import annotations

import numpy as np

from ..strategies import BUILTINS
from .bits import lowest_bit, popcount
from .consistent import PUB_DRAW, PUB_KIND, PUB_KNOCK, PUB_PLAY, PUB_SEAT, PUB_X
from .jit import jit, jit_helper, jit_kernel
from .model import (
    DRAW_NONE,
    DRAW_ONE,
    MAX_ENDS,
    N_RULE_PARAMS,
    ONE,
    R_ARMS,
    R_BRANCH,
    R_DRAW,
    R_FILL,
    R_HAND,
    R_KEEP,
    R_LEADER,
    R_MAX_PIP,
    R_OPEN_ANY,
    R_PARTNER,
    R_PLAYERS,
    R_SEARCH_NODES,
    R_TILES,
    SUIT_TILES,
    T_DOUBLE,
    T_HIGH,
    T_LOW,
    T_PIPS,
    count_moves,
    fill_moves,
    give,
    holds,
    is_out,
    kth_move,
    kth_tile,
    next_seat,
    place,
    playable_mask,
    record_play,
    score,
    side_of,
    stitched_up,
    take,
)
from .plugin import (
    V_BONEYARD,
    V_HAND_OFFSET,
    V_N_ENDS,
    V_OPENER,
    V_PARTNER,
    V_PLAYERS,
    V_SEAT,
    V_SUIT_COUNT,
    V_TILE_COUNTS,
    call_plugin,
)
from .rng import below, deal_key, seat_key, shuffle
from .search import decide, make_search_scratch, public_log

STRATEGY_IDS = {name: i for i, name in enumerate(BUILTINS)}
S_RANDOM, S_BULLY, S_DOUBLES = STRATEGY_IDS["random"], STRATEGY_IDS["bully"], STRATEGY_IDS["doubles"]
S_ACCOMPANIED, S_STITCHER = STRATEGY_IDS["accompanied"], STRATEGY_IDS["stitcher"]
S_COUNTER, S_PARTNER = STRATEGY_IDS["counter"], STRATEGY_IDS["partner"]
S_MC, S_ISMCTS = STRATEGY_IDS["mc"], STRATEGY_IDS["ismcts"]
S_MC_OMNI, S_ISMCTS_OMNI = STRATEGY_IDS["mc_omniscient"], STRATEGY_IDS["ismcts_omniscient"]
S_PLUGIN = 99  # a user's compiled strategy (dominosim.fast.plugin), at rp[N_RULE_PARAMS + seat]
CODE_BITS = 8  # a seat's code: the strategy id in the low byte, a search budget above it

# ---------------------------------------------------------------- record columns (int16 row)
C_OPENER, C_OPEN_DOUBLE, C_OPEN_TILE, C_END, C_WIN, C_POINTS, C_PLAYS, C_KNOCKS = range(8)
C_DRAWS, C_STITCH, C_BONE_LEFT, C_OUT_SEAT = range(8, 12)
N_BASE_COLS = 12  # then pips_s, tiles_left_s, stitch_ups_s for s in seats


def n_record_cols(players: int) -> int:
    """Width of the ``int16`` record row for ``players`` seats."""
    return N_BASE_COLS + 3 * players


# ---------------------------------------------------------------- status codes
OK = 0
ERR_REDEALS = 1
ERR_LOG_FULL = 2
ERR_PLUGIN = 3  # a plug-in returned an index outside its moves
ERR_SEARCH_STATES = 4  # a search's consistent-deal table would exceed R_SEARCH_STATES
ERR_SEARCH_DEAL = 5  # no deal agrees with the public log (a bug, never a user's error)
MAX_REDEALS = 1_000_000

# ---------------------------------------------------------------- event log
EV_PLAY, EV_DRAW, EV_KNOCK = 0, 1, 2
EV_KIND, EV_SEAT, EV_TILE, EV_SUIT, EV_END_INDEX, EV_STITCH, EV_N_ENDS = range(7)
# a knock's EV_SUIT holds the bit mask of the playable suits it shows the seat lacks
EV_COLS = 7


@jit
def make_scratch(t, p, nodes=0, states=0):
    """The arrays one block of hands works in, for ``t`` tiles and ``p`` seats (allocated once
    per block, reused hand after hand); :func:`play_hand` unpacks them in this order. ``nodes``
    and ``states`` size a search strategy's arrays (0: no seat searches)."""
    return (
        np.zeros(t, np.int64),  # perm: the shuffled set (hands, then the boneyard in draw order)
        np.zeros((p, (t + 63) // 64), np.uint64),  # hands: each seat's tiles as a bit mask
        np.zeros(p, np.int64),  # counts: tiles per seat
        np.zeros(p, np.int64),  # pips: pips in each hand
        np.zeros(MAX_ENDS, np.int64),  # ends: suit showing on each open end
        np.zeros(MAX_ENDS, np.bool_),  # arms: the end is an unfilled arm of the opening double
        np.zeros(16, np.int64),  # suit_count: open ends showing each suit
        np.zeros(2 * t, np.int64),  # move_tile
        np.zeros(2 * t, np.int64),  # move_suit
        np.zeros(p, np.uint64),  # seat_rng: one stream per seat
        np.zeros(1, np.uint64),  # deal_rng
        np.zeros(p, np.int64),  # stitch: stitch-ups per seat
        np.zeros(p, np.int64),  # lacks: suits each seat is known to lack, as a bit mask
        np.zeros((p, 16), np.int64),  # played: tiles each seat has played holding each suit
        np.zeros(V_TILE_COUNTS + 2 * p + t, np.int64),  # view: what a plug-in strategy sees
        make_search_scratch(t, p, (2 * t + p * (t + 1) + 1) if nodes > 0 else 0, nodes, states),
    )


# ---------------------------------------------------------------- the deal
@jit_kernel
def deal_hand(rp, base, perm, hands, counts, pips, deal_rng):
    """Shuffle and deal (redealing while no seat holds a double under the highest-double opening).

    Seat ``s`` takes ``perm[s*h : s*h+h]``; the boneyard is the rest of ``perm`` in order.
    Returns the number of redeals, or -1 past ``MAX_REDEALS``.
    """
    t, players, h = rp[R_TILES], rp[R_PLAYERS], rp[R_HAND]
    for k in range(MAX_REDEALS):
        for i in range(t):
            perm[i] = i
        deal_rng[0] = deal_key(base, k)
        shuffle(deal_rng, 0, perm, t)
        has_double = rp[R_OPEN_ANY] == 1
        for i in range(players * h):
            if T_LOW[perm[i]] == T_HIGH[perm[i]]:
                has_double = True
        if has_double:
            for s in range(players):
                for w in range(hands.shape[1]):
                    hands[s, w] = 0
                counts[s] = 0
                pips[s] = 0
            i = 0
            for s in range(players):
                for _ in range(h):
                    give(hands, counts, pips, s, perm[i])
                    i += 1
            return k
    return -1


@jit_kernel
def ask_plugin(rp, hands, counts, lacks, suit_count, n_ends, seat, opener, boneyard, move_tile,
               move_suit, n, view, seat_rng):
    """Fill the plug-in's view and ask it for the index of its move among ``n``."""
    players = rp[R_PLAYERS]
    view[V_SEAT], view[V_PLAYERS], view[V_BONEYARD] = seat, players, boneyard
    view[V_N_ENDS], view[V_OPENER] = n_ends, opener
    view[V_PARTNER] = (seat + players // 2) % players if rp[R_PARTNER] == 1 else -1
    for v in range(16):
        view[V_SUIT_COUNT + v] = suit_count[v]
    for s in range(players):
        view[V_TILE_COUNTS + s] = counts[s]
        view[V_TILE_COUNTS + players + s] = lacks[s]
    i = V_TILE_COUNTS + V_HAND_OFFSET * players
    for w in range(hands.shape[1]):
        word = hands[seat, w]
        while word:
            view[i] = w * 64 + lowest_bit(word)
            word &= word - ONE
            i += 1
    return call_plugin(rp[N_RULE_PARAMS + seat], move_tile, move_suit, n, view, seat_rng[seat:seat + 1],
                       view.shape[0])


@jit_kernel
def holds_suit_besides(hands, seat, tile, suit):
    """Whether ``seat`` holds a tile other than ``tile`` with ``suit`` on it."""
    for w in range(hands.shape[1]):
        word = hands[seat, w] & SUIT_TILES[suit, w]
        if tile >> 6 == w:
            word &= ~(ONE << np.uint64(tile & 63))
        if word:
            return True
    return False


@jit_kernel
def suits_after(rp, suit_count, suit_mask, n_ends, tile, suit):
    """``(mask of the suits showing, number of open ends)`` after ``tile`` goes on ``suit``."""
    other = T_HIGH[tile] if T_LOW[tile] == suit else T_LOW[tile]
    mask = suit_mask
    branch = other == suit and rp[R_BRANCH] == 1
    if suit_count[suit] == 1 and not branch and other != suit:
        mask &= ~(1 << suit)
    mask |= 1 << other
    return mask, n_ends + (2 if branch else 0)


@jit_kernel
def style_key(rp, strategy, hands, seat, tile, suit, suit_count, suit_mask, n_ends, lacks,
              played):
    """The key a deterministic built-in maximises for the move ``(tile, suit)``; the tie-break
    (the ``bully`` key, then tile id and suit by canonical order) is added by the caller."""
    if strategy == S_BULLY:
        return 0
    if strategy == S_DOUBLES:
        return 1 if T_LOW[tile] == T_HIGH[tile] else 0
    other = T_HIGH[tile] if T_LOW[tile] == suit else T_LOW[tile]
    if strategy == S_ACCOMPANIED:
        n = 0
        for w in range(hands.shape[1]):
            word = hands[seat, w] & SUIT_TILES[other, w]
            if tile >> 6 == w:
                word &= ~(ONE << np.uint64(tile & 63))
            n += popcount(word)
        return n
    mask, ends = suits_after(rp, suit_count, suit_mask, n_ends, tile, suit)
    players = rp[R_PLAYERS]
    partner = (seat + players // 2) % players if rp[R_PARTNER] == 1 else -1
    if strategy == S_STITCHER:
        if ends < 2 or mask & (mask - 1) != 0:
            return 1
        stitched = lowest_bit(np.uint64(mask))
        if not holds_suit_besides(hands, seat, tile, stitched):
            return 0
        for s in range(players):
            if side_of(rp, s) != side_of(rp, seat) and (lacks[s] >> stitched) & 1 == 0:
                return 0
        return 2
    if strategy == S_COUNTER:
        nxt = seat + 1 if seat + 1 < players else 0
        score = popcount(np.uint64(mask & lacks[nxt]))
        if partner >= 0:
            score -= popcount(np.uint64(mask & lacks[partner]))
        return score + 16
    # S_PARTNER
    if partner < 0:
        return 0
    helps = 0 if mask & ~lacks[partner] == 0 else 1
    fed = 0
    for v in range(16):
        if (mask >> v) & 1:
            fed += played[partner, v]
    return helps * 4096 + fed


@jit_kernel
def best_move(rp, strategy, hands, seat, move_tile, move_suit, n, suit_count, suit_mask, n_ends,
              lacks, played):
    """The move of a deterministic built-in among the ``n`` moves of :func:`fill_moves`: the
    largest style key, then the ``bully`` key (heaviest, a double), then the later move in
    canonical order (higher tile id, higher suit)."""
    best, best_key = 0, -1
    for i in range(n):
        tile = move_tile[i]
        heavy = T_PIPS[tile] * 2 + (1 if T_LOW[tile] == T_HIGH[tile] else 0)
        key = style_key(rp, strategy, hands, seat, tile, move_suit[i], suit_count, suit_mask,
                        n_ends, lacks, played) * 64 + heavy
        if key >= best_key:  # canonical order: ">=" keeps the later of equal keys
            best, best_key = i, key
    return move_tile[best], move_suit[best]


@jit_helper
def choose_move(rp, strategy, hands, seat, psm, n, seat_rng, suit_count, suit_mask, n_ends,
                lacks, played, move_tile, move_suit):
    """The move ``strategy`` makes among ``n >= 1`` legal moves (asked only when ``n >= 2``)."""
    if n == 1:
        return kth_move(hands, seat, psm, 0)
    if strategy == S_RANDOM:
        return kth_move(hands, seat, psm, below(seat_rng, seat, n))
    fill_moves(hands, seat, psm, move_tile, move_suit)
    return best_move(rp, strategy, hands, seat, move_tile, move_suit, n, suit_count, suit_mask,
                     n_ends, lacks, played)


@jit_kernel
def choose_lead(strategy, hands, counts, seat, seat_rng):
    """The tile the leader puts down under ``opening='any'``: uniform for ``random``, the
    heaviest (``doubles``: the heaviest double first) for every deterministic built-in."""
    n = counts[seat]
    if n == 1:
        return kth_tile(hands, seat, 0)
    if strategy == S_RANDOM:
        return kth_tile(hands, seat, below(seat_rng, seat, n))
    best_tile, best_key = -1, -1
    for w in range(hands.shape[1]):
        word = hands[seat, w]
        while word:
            tile = w * 64 + lowest_bit(word)
            word &= word - ONE
            double = 1 if T_LOW[tile] == T_HIGH[tile] else 0
            key = T_PIPS[tile] * 2 + double + (64 * double if strategy == S_DOUBLES else 0)
            if key >= best_key:
                best_key, best_tile = key, tile
    return best_tile


@jit_kernel
def _log(log, n_log, kind, seat, tile, suit, index, stitch, ends, n_ends, log_ends):
    if n_log < log.shape[0]:
        log[n_log, EV_KIND] = kind
        log[n_log, EV_SEAT] = seat
        log[n_log, EV_TILE] = tile
        log[n_log, EV_SUIT] = suit
        log[n_log, EV_END_INDEX] = index
        log[n_log, EV_STITCH] = stitch
        log[n_log, EV_N_ENDS] = n_ends
        for i in range(n_ends):
            log_ends[n_log, i] = ends[i]
    return n_log + 1


@jit_kernel
def search_move(rp, code, seat, psm, n, scratch, n_ends, n_empty, suit_mask, opening_suit,
                bone_pos, n_pub):
    """Ask the search strategy of ``code`` (id and budget) at ``seat``: its move's index among
    the moves it writes into the scratch's move arrays, or a negative status. Kept out of
    :func:`play_hand` so that its large call does not weigh on the turn loop."""
    (perm, hands, counts, _, ends, arms, suit_count, move_tile, move_suit, seat_rng, _, _, _, _,
     _, search) = scratch
    sid = code & 255
    fill_moves(hands, seat, psm, move_tile, move_suit)
    return decide(rp, 1 if sid == S_ISMCTS or sid == S_ISMCTS_OMNI else 0,
                  sid == S_MC_OMNI or sid == S_ISMCTS_OMNI, code >> CODE_BITS, seat, n,
                  move_tile, move_suit, hands, counts, ends, arms, suit_count, n_ends, n_empty,
                  suit_mask, opening_suit, perm[bone_pos:], rp[R_TILES] - bone_pos, n_pub,
                  search, seat_rng[seat:seat + 1])


@jit_helper
def _pub(pub, n_pub, keep, kind, seat, x):
    """Append an event to the public log that search strategies read (when one plays)."""
    if not keep:
        return n_pub
    pub[n_pub, PUB_KIND], pub[n_pub, PUB_SEAT], pub[n_pub, PUB_X] = kind, seat, x
    return n_pub + 1


# ---------------------------------------------------------------- one hand
@jit_kernel
def play_hand(rp, strategies, base, out, scratch, log, log_ends):
    """Play the hand keyed ``base`` and write its record into ``out`` (one ``int16`` row).

    ``log``/``log_ends`` receive the events when they have rows (pass zero-row arrays to skip).
    Returns ``(status, redeals)``.
    """
    (perm, hands, counts, pips, ends, arms, suit_count, move_tile, move_suit, seat_rng, deal_rng,
     stitch, lacks, played, view, search) = scratch
    pub = public_log(search)
    keep_pub = rp[R_SEARCH_NODES] > 0
    players, t = rp[R_PLAYERS], rp[R_TILES]
    redeals = deal_hand(rp, base, perm, hands, counts, pips, deal_rng)
    if redeals < 0:
        return ERR_REDEALS, 0
    for s in range(players):
        seat_rng[s] = seat_key(base, s)
        stitch[s] = 0
        lacks[s] = 0
        for v in range(16):
            played[s, v] = 0
    bone_pos = players * rp[R_HAND]
    for v in range(16):
        suit_count[v] = 0

    # ---- the opening
    if rp[R_OPEN_ANY] == 1:
        opener = rp[R_LEADER]
        if strategies[opener] & 255 == S_PLUGIN and counts[opener] > 1:
            n = 0
            for w in range(hands.shape[1]):
                word = hands[opener, w]
                while word:
                    move_tile[n], move_suit[n] = w * 64 + lowest_bit(word), -1
                    word &= word - ONE
                    n += 1
            k = ask_plugin(rp, hands, counts, lacks, suit_count, 0, opener, -1,
                           t - players * rp[R_HAND], move_tile, move_suit, n, view, seat_rng)
            if k < 0 or k >= n:
                return ERR_PLUGIN, redeals
            tile = move_tile[k]
        else:
            tile = choose_lead(strategies[opener] & 255, hands, counts, opener, seat_rng)
        ends[0] = T_LOW[tile]
        ends[1] = T_HIGH[tile]
        arms[0] = False
        arms[1] = False
        n_ends = 2
        lead_suit = -1
    else:
        opener = -1
        tile = -1
        for d in range(rp[R_MAX_PIP], -1, -1):
            for s in range(players):
                if holds(hands, s, T_DOUBLE[d]):
                    opener = s
                    tile = T_DOUBLE[d]
                    break
            if opener >= 0:
                break
        n_ends = rp[R_ARMS]
        for i in range(n_ends):
            ends[i] = T_LOW[tile]
            arms[i] = rp[R_FILL] == 1
        lead_suit = T_LOW[tile]
    n_empty = n_ends if rp[R_FILL] == 1 and rp[R_OPEN_ANY] == 0 else 0
    suit_mask = 0
    for i in range(n_ends):
        suit_count[ends[i]] += 1
        suit_mask |= 1 << ends[i]
    opening_suit = ends[0]
    take(hands, counts, pips, opener, tile)
    record_play(played, opener, tile)
    opening_tile = tile
    plays = 1
    knocks = 0
    draws = 0
    n_log = _log(log, 0, EV_PLAY, opener, tile, lead_suit, -1, 0, ends, n_ends, log_ends)
    n_pub = _pub(pub, 0, keep_pub, PUB_PLAY, opener, tile)

    # ---- the turns
    out_seat = opener if is_out(rp, counts, opener) else -1
    knocked = 0
    seat = opener
    while out_seat < 0:
        seat = next_seat(rp, counts, seat)
        psm = playable_mask(rp, suit_mask, opening_suit, n_empty)
        n = count_moves(hands, seat, psm)
        if n == 0 and rp[R_DRAW] != DRAW_NONE:
            while n == 0 and t - bone_pos - rp[R_KEEP] > 0:
                tile = perm[bone_pos]
                bone_pos += 1
                give(hands, counts, pips, seat, tile)
                lacks[seat] = 0  # the drawn tile is unknown: nothing is known of the new hand
                draws += 1
                n_log = _log(log, n_log, EV_DRAW, seat, tile, -1, -1, 0, ends, 0, log_ends)
                n_pub = _pub(pub, n_pub, keep_pub, PUB_DRAW, seat, psm)
                n = count_moves(hands, seat, psm)
                if rp[R_DRAW] == DRAW_ONE:
                    break
        if n > 0:
            code = strategies[seat] & 255
            if code >= S_MC and code <= S_ISMCTS_OMNI and n > 1:
                k = search_move(rp, strategies[seat], seat, psm, n, scratch, n_ends, n_empty,
                                suit_mask, opening_suit, bone_pos, n_pub)
                if k < 0:
                    return ERR_SEARCH_STATES if k == -1 else ERR_SEARCH_DEAL, redeals
                tile, suit = move_tile[k], move_suit[k]
            elif code == S_PLUGIN and n > 1:
                fill_moves(hands, seat, psm, move_tile, move_suit)
                k = ask_plugin(rp, hands, counts, lacks, suit_count, n_ends, seat, opener,
                               t - bone_pos, move_tile, move_suit, n, view, seat_rng)
                if k < 0 or k >= n:
                    return ERR_PLUGIN, redeals
                tile, suit = move_tile[k], move_suit[k]
            else:
                tile, suit = choose_move(rp, code, hands, seat, psm, n, seat_rng,
                                         suit_count, suit_mask, n_ends, lacks, played,
                                         move_tile, move_suit)
            take(hands, counts, pips, seat, tile)
            record_play(played, seat, tile)
            index, n_ends, n_empty, suit_mask = place(rp, ends, arms, n_ends, n_empty, suit_count,
                                                      suit_mask, tile, suit)
            plays += 1
            st = stitched_up(suit_mask, n_ends)
            if st:
                stitch[seat] += 1
            n_log = _log(log, n_log, EV_PLAY, seat, tile, suit, index, 1 if st else 0, ends,
                         n_ends, log_ends)
            n_pub = _pub(pub, n_pub, keep_pub, PUB_PLAY, seat, tile)
            knocked = 0
            if is_out(rp, counts, seat):
                out_seat = seat
        else:
            knocks += 1
            knocked |= 1 << seat
            lacks[seat] |= psm
            n_log = _log(log, n_log, EV_KNOCK, seat, -1, psm, -1, 0, ends, 0, log_ends)
            n_pub = _pub(pub, n_pub, keep_pub, PUB_KNOCK, seat, psm)
            if rp[R_DRAW] == DRAW_NONE or t - bone_pos - rp[R_KEEP] <= 0:
                holding = 0
                for s in range(players):
                    if counts[s] > 0:
                        holding |= 1 << s
                if holding & ~knocked == 0:
                    break

    # ---- the record
    winner, points = score(rp, pips, out_seat)
    out[C_OPENER] = opener
    out[C_OPEN_DOUBLE] = T_LOW[opening_tile] if T_LOW[opening_tile] == T_HIGH[opening_tile] else -1
    out[C_OPEN_TILE] = opening_tile
    out[C_END] = 1 if out_seat < 0 else 0
    out[C_WIN] = winner
    out[C_POINTS] = points
    out[C_PLAYS] = plays
    out[C_KNOCKS] = knocks
    out[C_DRAWS] = draws
    total = 0
    for s in range(players):
        total += stitch[s]
        out[N_BASE_COLS + s] = pips[s]
        out[N_BASE_COLS + players + s] = counts[s]
        out[N_BASE_COLS + 2 * players + s] = stitch[s]
    out[C_STITCH] = total
    out[C_BONE_LEFT] = t - bone_pos
    out[C_OUT_SEAT] = out_seat
    if n_log > log.shape[0] and log.shape[0] > 0:
        return ERR_LOG_FULL, redeals
    return OK, redeals
