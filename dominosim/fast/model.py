"""The compiled game model: the rules of RULES.md on bit masks, shared by the hand kernel and the
search strategies.

A seat's hand is a bit mask of tile ids (up to three ``uint64`` words: double-fifteen has 136
tiles), so the legal moves are the hand ANDed with the tiles of the playable suits. The rules come
in as an ``int64`` array indexed by the ``R_*`` constants (see :func:`rule_params`). Every function
mirrors one rule of the reference engine (:mod:`dominosim.game`) and is reachable from plain Python
for tests; none allocates.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..rules import Rules
from ..tiles import DOUBLE_ID, HIGH, LOW, PIPS, SUIT_MEMBER, n_tiles
from .bits import lowest_bit, popcount
from .jit import jit_helper, jit_kernel

# ---------------------------------------------------------------- rule parameters
R_MAX_PIP, R_PLAYERS, R_HAND, R_PARTNER, R_OPEN_ANY, R_LEADER, R_DRAW, R_KEEP = range(8)
R_ARMS, R_FILL, R_BRANCH, R_TEAM_OUT, R_SCORING, R_TILES, R_PLUGIN = range(8, 15)
R_SEARCH_NODES, R_SEARCH_STATES = range(15, 17)
N_RULE_PARAMS = 17
# R_PLUGIN: 1 when a seat plays a user's compiled strategy, whose address is then at
# N_RULE_PARAMS + seat; R_SEARCH_NODES: nodes a search strategy's tree may hold (0: no seat
# searches); R_SEARCH_STATES: states of the sampler's table
DRAW_CODES = {"none": 0, "until_playable": 1, "one": 2}
SCORING_CODES = {"game": 0, "spots": 1, "balance": 2}
DRAW_NONE, DRAW_UNTIL, DRAW_ONE = 0, 1, 2
SCORE_GAME, SCORE_SPOTS, SCORE_BALANCE = 0, 1, 2

MAX_ENDS = 48
T_LOW = LOW.astype(np.int64)
T_HIGH = HIGH.astype(np.int64)
T_PIPS = PIPS.astype(np.int64)
N_WORDS = 3  # words of a tile mask: 136 tiles of double-fifteen fit in 192 bits


def _suit_tiles() -> np.ndarray:
    masks = np.zeros((16, N_WORDS), dtype=np.uint64)
    for t in range(SUIT_MEMBER.shape[0]):
        for v in range(16):
            if SUIT_MEMBER[t, v]:
                masks[v, t // 64] |= np.uint64(1) << np.uint64(t % 64)
    return masks


SUIT_TILES = _suit_tiles()
"""``SUIT_TILES[v]``: the mask of every tile holding suit ``v``."""
ONE = np.uint64(1)
T_DOUBLE = DOUBLE_ID.astype(np.int64)


def rule_params(rules: Rules, plugins: Sequence[int] = (), search_nodes: int = 0,
                search_states: int = 0) -> np.ndarray:
    """The ``int64`` parameter array of ``rules`` for the kernels (``plugins``: by seat, the
    address of the user's compiled strategy it plays, 0 for none; ``search_nodes``,
    ``search_states``: the sizes of a search strategy's tree and sampler table, 0 when no seat
    searches)."""
    p = np.zeros(N_RULE_PARAMS + rules.players, dtype=np.int64)
    p[N_RULE_PARAMS:N_RULE_PARAMS + len(plugins)] = plugins
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
    p[R_PLUGIN] = any(plugins)
    p[R_SEARCH_NODES] = search_nodes
    p[R_SEARCH_STATES] = search_states
    return p


def max_events(rules: Rules) -> int:
    """An upper bound on the events of one hand: every tile played and drawn once, and at most
    one knock per seat between two plays."""
    t = n_tiles(rules.max_pip)
    return 2 * t + rules.players * (t + 1) + 1


# ---------------------------------------------------------------- hands as bit masks
@jit_helper
def holds(hands, seat, tile):
    """Whether ``seat`` holds ``tile``."""
    return (hands[seat, tile >> 6] >> np.uint64(tile & 63)) & ONE == ONE


@jit_helper
def give(hands, counts, pips, seat, tile):
    """Put ``tile`` into the hand of ``seat``."""
    hands[seat, tile >> 6] |= ONE << np.uint64(tile & 63)
    counts[seat] += 1
    pips[seat] += T_PIPS[tile]


@jit_helper
def take(hands, counts, pips, seat, tile):
    """Take ``tile`` out of the hand of ``seat``."""
    hands[seat, tile >> 6] &= ~(ONE << np.uint64(tile & 63))
    counts[seat] -= 1
    pips[seat] -= T_PIPS[tile]


@jit_helper
def record_play(played, seat, tile):
    """Count a tile played by ``seat`` under each suit it holds."""
    played[seat, T_LOW[tile]] += 1
    if T_HIGH[tile] != T_LOW[tile]:
        played[seat, T_HIGH[tile]] += 1


@jit_helper
def kth_tile(hands, seat, k):
    """The ``k``-th tile (from 0, in id order) of the hand of ``seat``."""
    for w in range(hands.shape[1]):
        word = hands[seat, w]
        c = popcount(word)
        if k < c:
            for _ in range(k):
                word &= word - ONE
            return w * 64 + lowest_bit(word)
        k -= c
    return -1


# ---------------------------------------------------------------- moves
@jit_helper
def playable_mask(rp, suit_mask, opening_suit, n_empty):
    """Bit mask of the suits a tile may be played on: the opening suit while arms are unfilled
    under fill-first, every suit showing otherwise."""
    if rp[R_FILL] == 1 and n_empty > 0:
        return 1 << opening_suit
    return suit_mask


@jit_helper
def legal_word(hands, seat, psm, w):
    """Word ``w`` of the mask of tiles of ``seat`` that hold a playable suit."""
    union = np.uint64(0)
    rest = np.uint64(psm)
    while rest:
        v = lowest_bit(rest)
        rest &= rest - ONE
        union |= SUIT_TILES[v, w]
    return hands[seat, w] & union


@jit_helper
def count_moves(hands, seat, psm):
    """Number of distinct legal moves: a tile counts once per playable suit it holds."""
    n = 0
    rest = np.uint64(psm)
    while rest:
        v = lowest_bit(rest)
        rest &= rest - ONE
        for w in range(hands.shape[1]):
            n += popcount(hands[seat, w] & SUIT_TILES[v, w])
    return n


@jit_helper
def kth_move(hands, seat, psm, k):
    """The ``k``-th legal move in canonical order (tile id, then suit), as ``(tile, suit)``: the
    walk of :func:`fill_moves`, stopping at ``k`` (the random strategy's hot path)."""
    for w in range(hands.shape[1]):
        word = legal_word(hands, seat, psm, w)
        while word:
            tile = w * 64 + lowest_bit(word)
            word &= word - ONE
            a, b = T_LOW[tile], T_HIGH[tile]
            if (psm >> a) & 1:
                if k == 0:
                    return tile, a
                k -= 1
            if a != b and (psm >> b) & 1:
                if k == 0:
                    return tile, b
                k -= 1
    return -1, -1


@jit_kernel
def fill_moves(hands, seat, psm, move_tile, move_suit):
    """Write the legal moves in canonical order (tile id, then suit); return how many."""
    n = 0
    for w in range(hands.shape[1]):
        word = legal_word(hands, seat, psm, w)
        while word:
            tile = w * 64 + lowest_bit(word)
            word &= word - ONE
            a, b = T_LOW[tile], T_HIGH[tile]
            if (psm >> a) & 1:
                move_tile[n], move_suit[n] = tile, a
                n += 1
            if a != b and (psm >> b) & 1:
                move_tile[n], move_suit[n] = tile, b
                n += 1
    return n


# ---------------------------------------------------------------- open ends
@jit_helper
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
    other = T_HIGH[tile] if T_LOW[tile] == suit else T_LOW[tile]
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


@jit_helper
def stitched_up(suit_mask, n_ends):
    """At least two open ends, all showing one suit."""
    return n_ends >= 2 and (suit_mask & (suit_mask - 1)) == 0


# ---------------------------------------------------------------- turns, the end, the score
@jit_helper
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


@jit_helper
def next_seat(rp, counts, seat):
    """The seat to the left, skipping seats that are out under ``team_out``."""
    players = rp[R_PLAYERS]
    nxt = seat + 1 if seat + 1 < players else 0  # no division in the turn loop
    if rp[R_TEAM_OUT] == 1:
        while counts[nxt] == 0:
            nxt = nxt + 1 if nxt + 1 < players else 0
    return nxt


@jit_helper
def is_out(rp, counts, seat):
    """Whether the play that emptied ``seat``'s hand ends the hand (``team_out``: the partner is
    out too)."""
    if counts[seat] > 0:
        return False
    if rp[R_TEAM_OUT] == 0:
        return True
    players = rp[R_PLAYERS]
    return counts[(seat + players // 2) % players] == 0
