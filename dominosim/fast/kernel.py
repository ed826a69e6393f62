"""One hand of dominoes, compiled: the rules of RULES.md on small fixed-size arrays.

Every function mirrors one rule of the reference engine (:mod:`dominosim.game`,
:mod:`dominosim.reference`) and is reachable from plain Python for tests. State lives in a
:class:`Scratch`-like set of arrays allocated once per block of hands; nothing is allocated per move.

The rules come in as an ``int64`` array indexed by the ``R_*`` constants (see :func:`rule_params`),
the strategies as one built-in id per seat (``STRATEGY_IDS``). A hand's record is written into one row
of an ``int16`` array indexed by the ``C_*`` constants; problems come back as status codes.
"""

from __future__ import annotations

import numpy as np

from ..rules import Rules
from ..strategies import BUILTINS
from ..tiles import DOUBLE_ID, HIGH, LOW, PIPS, n_tiles
from .jit import jit, jit_kernel
from .rng import below, deal_key, seat_key, shuffle

# ---------------------------------------------------------------- rule parameters
R_MAX_PIP, R_PLAYERS, R_HAND, R_PARTNER, R_OPEN_ANY, R_LEADER, R_DRAW, R_KEEP = range(8)
R_ARMS, R_FILL, R_BRANCH, R_TEAM_OUT, R_SCORING, R_TILES = range(8, 14)
N_RULE_PARAMS = 14
DRAW_CODES = {"none": 0, "until_playable": 1, "one": 2}
SCORING_CODES = {"game": 0, "spots": 1, "balance": 2}
DRAW_NONE, DRAW_UNTIL, DRAW_ONE = 0, 1, 2
SCORE_GAME, SCORE_SPOTS, SCORE_BALANCE = 0, 1, 2

STRATEGY_IDS = {name: i for i, name in enumerate(BUILTINS)}
S_RANDOM, S_BULLY, S_DOUBLES = STRATEGY_IDS["random"], STRATEGY_IDS["bully"], STRATEGY_IDS["doubles"]

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
MAX_REDEALS = 1_000_000

# ---------------------------------------------------------------- event log
EV_PLAY, EV_DRAW, EV_KNOCK = 0, 1, 2
EV_KIND, EV_SEAT, EV_TILE, EV_SUIT, EV_END_INDEX, EV_STITCH, EV_N_ENDS = range(7)
# a knock's EV_SUIT holds the bit mask of the playable suits it shows the seat lacks
EV_COLS = 7
MAX_ENDS = 48

_LOW = LOW.astype(np.int64)
_HIGH = HIGH.astype(np.int64)
_PIPS = PIPS.astype(np.int64)
_DOUBLE_ID = DOUBLE_ID.astype(np.int64)


def rule_params(rules: Rules) -> np.ndarray:
    """The ``int64`` parameter array of ``rules`` for the kernels."""
    p = np.zeros(N_RULE_PARAMS, dtype=np.int64)
    p[R_MAX_PIP] = rules.max_pip
    p[R_PLAYERS] = rules.players
    p[R_HAND] = rules.hand_size
    p[R_PARTNER] = rules.partnerships
    p[R_OPEN_ANY] = rules.opening == "any"
    p[R_LEADER] = rules.leader if rules.leader is not None else -1
    p[R_DRAW] = DRAW_CODES[rules.draw]
    p[R_KEEP] = rules.boneyard_keep
    p[R_ARMS] = rules.opening_arms
    p[R_FILL] = rules.fill_opening_first
    p[R_BRANCH] = rules.doubles_branch
    p[R_TEAM_OUT] = rules.end == "team_out"
    p[R_SCORING] = SCORING_CODES[rules.scoring]
    p[R_TILES] = n_tiles(rules.max_pip)
    return p


def max_events(rules: Rules) -> int:
    """An upper bound on the events of one hand: every tile played and drawn once, and at most
    one knock per seat between two plays."""
    t = n_tiles(rules.max_pip)
    return 2 * t + rules.players * (t + 1) + 1


@jit
def make_scratch(t, p):
    """The arrays one block of hands works in, for ``t`` tiles and ``p`` seats (allocated once
    per block, reused hand after hand); :func:`play_hand` unpacks them in this order."""
    return (
        np.zeros(t, np.int64),  # perm: the shuffled set (hands, then the boneyard in draw order)
        np.zeros((p, t), np.int64),  # hands: each seat's tiles, sorted by id
        np.zeros(p, np.int64),  # counts: tiles per seat
        np.zeros(MAX_ENDS, np.int64),  # ends: suit showing on each open end
        np.zeros(MAX_ENDS, np.bool_),  # arms: the end is an unfilled arm of the opening double
        np.zeros(16, np.int64),  # suit_count: open ends showing each suit
        np.zeros(2 * t, np.int64),  # move_tile
        np.zeros(2 * t, np.int64),  # move_suit
        np.zeros(p, np.uint64),  # seat_rng: one stream per seat
        np.zeros(1, np.uint64),  # deal_rng
        np.zeros(p, np.int64),  # stitch: stitch-ups per seat
        np.zeros(p, np.int64),  # pips: pips left per seat
        np.zeros(t, np.int64),  # owner: seat of each tile while dealing
    )


# ---------------------------------------------------------------- the deal
@jit_kernel
def deal_hand(rp, base, perm, owner, hands, counts, deal_rng):
    """Shuffle and deal (redealing while no seat holds a double under the highest-double opening).

    Seat ``s`` takes ``perm[s*h : s*h+h]``, stored sorted by tile id; the boneyard is the rest of
    ``perm`` in order. Returns the number of redeals, or -1 past ``MAX_REDEALS``.
    """
    t, players, h = rp[R_TILES], rp[R_PLAYERS], rp[R_HAND]
    dealt = players * h
    for k in range(MAX_REDEALS):
        for i in range(t):
            perm[i] = i
        deal_rng[0] = deal_key(base, k)
        shuffle(deal_rng, 0, perm, t)
        has_double = rp[R_OPEN_ANY] == 1
        for i in range(dealt):
            if _LOW[perm[i]] == _HIGH[perm[i]]:
                has_double = True
        if has_double:
            _sort_hands(perm, owner, hands, counts, players, h, t)
            return k
    return -1


@jit_kernel
def _sort_hands(perm, owner, hands, counts, players, h, t):
    # the seat of every tile, then a scan of tile ids in order: hands come out sorted
    for tile in range(t):
        owner[tile] = -1
    for i in range(players * h):
        owner[perm[i]] = i // h
    for s in range(players):
        counts[s] = 0
    for tile in range(t):
        s = owner[tile]
        if s >= 0:
            hands[s, counts[s]] = tile
            counts[s] += 1


@jit_kernel
def remove_tile(hands, seat, n, tile):
    """Remove ``tile`` from the sorted ``hands[seat, :n]``; returns False if it is not there."""
    for i in range(n):
        if hands[seat, i] == tile:
            for j in range(i, n - 1):
                hands[seat, j] = hands[seat, j + 1]
            return True
    return False


@jit_kernel
def insert_tile(hands, seat, n, tile):
    """Insert ``tile`` into the sorted ``hands[seat, :n]`` (which has room for one more)."""
    j = n - 1
    while j >= 0 and hands[seat, j] > tile:
        hands[seat, j + 1] = hands[seat, j]
        j -= 1
    hands[seat, j + 1] = tile


# ---------------------------------------------------------------- open ends
@jit_kernel
def playable_mask(rp, suit_mask, opening_suit, n_empty):
    """Bit mask of the suits a tile may be played on: the opening suit while arms are unfilled
    under fill-first, every suit showing otherwise."""
    if rp[R_FILL] == 1 and n_empty > 0:
        return 1 << opening_suit
    return suit_mask


@jit_kernel
def legal_moves(hands, seat, n_hand, psm, move_tile, move_suit):
    """Fill the distinct legal moves, in canonical order (tile id, then suit); return how many."""
    n = 0
    for i in range(n_hand):
        tile = hands[seat, i]
        a, b = _LOW[tile], _HIGH[tile]
        if (psm >> a) & 1:
            move_tile[n] = tile
            move_suit[n] = a
            n += 1
        if a != b and (psm >> b) & 1:
            move_tile[n] = tile
            move_suit[n] = b
            n += 1
    return n


@jit_kernel
def choose(strategy, move_tile, move_suit, n, seat_rng, seat):
    """Index of the move the built-in ``strategy`` picks among ``n >= 2`` moves."""
    if strategy == S_RANDOM:
        return below(seat_rng, seat, n)
    best = 0
    best_key = -1
    for i in range(n):
        tile = move_tile[i]
        double = 1 if _LOW[tile] == _HIGH[tile] else 0
        if strategy == S_BULLY:
            key = _PIPS[tile] * 2 + double
        else:  # S_DOUBLES
            key = double * 64 + _PIPS[tile] * 2 + double
        # moves come in ascending (tile id, suit): ">=" keeps the last of equal keys, which is
        # the higher tile id and then the higher suit, as the reference tie-break says.
        if key >= best_key:
            best_key = key
            best = i
    return best


@jit_kernel
def place(rp, ends, arms, n_ends, n_empty, suit_count, suit_mask, tile, suit):
    """Put ``tile`` on the first playable end showing ``suit``.

    Returns ``(end_index, n_ends, n_empty, suit_mask)``.
    """
    fill_phase = rp[R_FILL] == 1 and n_empty > 0
    index = -1
    for i in range(n_ends):
        if ends[i] == suit and (not fill_phase or arms[i]):
            index = i
            break
    other = _HIGH[tile] if _LOW[tile] == suit else _LOW[tile]
    suit_count[suit] -= 1
    if suit_count[suit] == 0:
        suit_mask &= ~(1 << suit)
    suit_count[other] += 1
    suit_mask |= 1 << other
    ends[index] = other
    if arms[index]:
        arms[index] = False
        n_empty -= 1
    if other == suit and rp[R_BRANCH] == 1:
        for _ in range(2):
            ends[n_ends] = suit
            arms[n_ends] = False
            suit_count[suit] += 1
            n_ends += 1
    return index, n_ends, n_empty, suit_mask


@jit_kernel
def stitched_up(suit_mask, n_ends):
    """At least two open ends, all showing one suit."""
    return n_ends >= 2 and (suit_mask & (suit_mask - 1)) == 0


@jit_kernel
def side_of(rp, seat):
    """Side of ``seat``: ``seat mod players/2`` with partnerships, the seat otherwise."""
    if rp[R_PARTNER] == 1:
        return seat % (rp[R_PLAYERS] // 2)
    return seat


@jit_kernel
def score(rp, pips, out_seat):
    """``(winning_side, points)`` of a finished hand, as :func:`dominosim.game.score`."""
    players = rp[R_PLAYERS]
    n_sides = players // 2 if rp[R_PARTNER] == 1 else players
    if out_seat >= 0:
        winner = side_of(rp, out_seat)
    else:
        low = 1 << 30
        winner = -1
        ties = 0
        for k in range(n_sides):
            total = pips[k] + (pips[k + n_sides] if rp[R_PARTNER] == 1 else 0)
            if total < low:
                low = total
                winner = k
                ties = 0
            elif total == low:
                ties += 1
        if ties > 0:
            return -1, 0
    if rp[R_SCORING] == SCORE_GAME:
        return winner, 1
    losers = 0
    mine = 0
    for s in range(players):
        if side_of(rp, s) == winner:
            mine += pips[s]
        else:
            losers += pips[s]
    if rp[R_SCORING] == SCORE_SPOTS:
        return winner, losers - (mine if out_seat < 0 else 0)
    total = 0
    for s in range(players):
        if s != winner:
            total += pips[s] - pips[winner]
    return winner, total


@jit_kernel
def next_seat(rp, counts, seat):
    """The seat to the left, skipping seats that are out under ``team_out``."""
    players = rp[R_PLAYERS]
    nxt = (seat + 1) % players
    if rp[R_TEAM_OUT] == 1:
        while counts[nxt] == 0:
            nxt = (nxt + 1) % players
    return nxt


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


# ---------------------------------------------------------------- one hand
@jit_kernel
def play_hand(rp, strategies, base, out, scratch, log, log_ends):
    """Play the hand keyed ``base`` and write its record into ``out`` (one ``int16`` row).

    ``log``/``log_ends`` receive the events when they have rows (pass zero-row arrays to skip).
    Returns ``(status, redeals)``.
    """
    (perm, hands, counts, ends, arms, suit_count, move_tile, move_suit, seat_rng, deal_rng,
     stitch, pips, owner) = scratch
    players, t = rp[R_PLAYERS], rp[R_TILES]
    redeals = deal_hand(rp, base, perm, owner, hands, counts, deal_rng)
    if redeals < 0:
        return ERR_REDEALS, 0
    for s in range(players):
        seat_rng[s] = seat_key(base, s)
        stitch[s] = 0
    bone_pos = players * rp[R_HAND]
    for v in range(16):
        suit_count[v] = 0
    n_log = 0
    plays = 0
    knocks = 0
    draws = 0

    # ---- the opening
    if rp[R_OPEN_ANY] == 1:
        opener = rp[R_LEADER]
        n = counts[opener]
        for i in range(n):
            move_tile[i] = hands[opener, i]
        k = 0 if n == 1 else choose(strategies[opener], move_tile, move_suit, n, seat_rng, opener)
        tile = move_tile[k]
        ends[0] = _LOW[tile]
        ends[1] = _HIGH[tile]
        arms[0] = False
        arms[1] = False
        n_ends = 2
        n_empty = 0
        lead_suit = -1
    else:
        opener = -1
        tile = -1
        for d in range(rp[R_MAX_PIP], -1, -1):
            for s in range(players):
                for i in range(counts[s]):
                    if hands[s, i] == _DOUBLE_ID[d]:
                        opener = s
                        tile = _DOUBLE_ID[d]
                if opener >= 0:
                    break
            if opener >= 0:
                break
        n_ends = rp[R_ARMS]
        for i in range(n_ends):
            ends[i] = _LOW[tile]
            arms[i] = rp[R_FILL] == 1
        n_empty = n_ends if rp[R_FILL] == 1 else 0
        lead_suit = _LOW[tile]
    suit_mask = 0
    for i in range(n_ends):
        suit_count[ends[i]] += 1
        suit_mask |= 1 << ends[i]
    opening_suit = ends[0]
    remove_tile(hands, opener, counts[opener], tile)
    counts[opener] -= 1
    opening_tile = tile
    plays = 1
    n_log = _log(log, n_log, EV_PLAY, opener, tile, lead_suit, -1, 0, ends, n_ends, log_ends)

    # ---- the turns
    out_seat = -1
    blocked = False
    knocked = 0
    seat = opener
    if counts[opener] == 0 and (rp[R_TEAM_OUT] == 0 or counts[(opener + players // 2) % players] == 0):
        out_seat = opener
    else:
        seat = next_seat(rp, counts, opener)
    while out_seat < 0 and not blocked:
        psm = playable_mask(rp, suit_mask, opening_suit, n_empty)
        n = legal_moves(hands, seat, counts[seat], psm, move_tile, move_suit)
        if n == 0 and rp[R_DRAW] != DRAW_NONE:
            while n == 0 and t - bone_pos - rp[R_KEEP] > 0:
                tile = perm[bone_pos]
                bone_pos += 1
                insert_tile(hands, seat, counts[seat], tile)
                counts[seat] += 1
                draws += 1
                n_log = _log(log, n_log, EV_DRAW, seat, tile, -1, -1, 0, ends, 0, log_ends)
                n = legal_moves(hands, seat, counts[seat], psm, move_tile, move_suit)
                if rp[R_DRAW] == DRAW_ONE:
                    break
        if n > 0:
            k = 0 if n == 1 else choose(strategies[seat], move_tile, move_suit, n, seat_rng, seat)
            tile = move_tile[k]
            suit = move_suit[k]
            remove_tile(hands, seat, counts[seat], tile)
            counts[seat] -= 1
            index, n_ends, n_empty, suit_mask = place(rp, ends, arms, n_ends, n_empty, suit_count,
                                                      suit_mask, tile, suit)
            plays += 1
            st = stitched_up(suit_mask, n_ends)
            if st:
                stitch[seat] += 1
            n_log = _log(log, n_log, EV_PLAY, seat, tile, suit, index, 1 if st else 0, ends,
                         n_ends, log_ends)
            knocked = 0
            if counts[seat] == 0 and (rp[R_TEAM_OUT] == 0
                                      or counts[(seat + players // 2) % players] == 0):
                out_seat = seat
                break
        else:
            knocks += 1
            knocked |= 1 << seat
            n_log = _log(log, n_log, EV_KNOCK, seat, -1, psm, -1, 0, ends, 0, log_ends)
            drawable = rp[R_DRAW] != DRAW_NONE and t - bone_pos - rp[R_KEEP] > 0
            if not drawable:
                holding = 0
                for s in range(players):
                    if counts[s] > 0:
                        holding |= 1 << s
                if holding & ~knocked == 0:
                    blocked = True
                    break
        seat = next_seat(rp, counts, seat)

    # ---- the record
    for s in range(players):
        total = 0
        for i in range(counts[s]):
            total += _PIPS[hands[s, i]]
        pips[s] = total
    winner, points = score(rp, pips, out_seat)
    out[C_OPENER] = opener
    out[C_OPEN_DOUBLE] = _LOW[opening_tile] if _LOW[opening_tile] == _HIGH[opening_tile] else -1
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
    out[C_STITCH] = total
    out[C_BONE_LEFT] = t - bone_pos
    out[C_OUT_SEAT] = out_seat
    for s in range(players):
        out[N_BASE_COLS + s] = pips[s]
        out[N_BASE_COLS + players + s] = counts[s]
        out[N_BASE_COLS + 2 * players + s] = stitch[s]
    if n_log > log.shape[0] and log.shape[0] > 0:
        return ERR_LOG_FULL, redeals
    return OK, redeals
