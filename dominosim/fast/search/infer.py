"""Inference: the sampled worlds weighted by how likely the other seats' past plays were.

A search draws its worlds uniformly from the deals consistent with everything public
(:mod:`.consistent`): it ignores *what* each seat chose to play. With inference (``+infer`` on a
search's name, ``inference=`` in :func:`dominosim.analyze`), each world is drawn by
*sampling-importance-resampling*: ``C`` candidate worlds are drawn exactly as before, each is
weighted by the likelihood of every past play of every modelled seat under its model, and one
candidate is kept with probability proportional to its weight (a weighted reservoir, no
allocation). With a deterministic model the weights are 0 or 1 and the kept world is uniform among
the candidates in which the model would have made every observed play: an exact draw from the
consistent deals that agree with the model. With a stochastic model (``random``, a softmax
policy) the draw approaches the posterior as ``C`` grows. When no candidate of
:data:`MAX_ROUNDS` rounds has a positive weight (the model contradicts the play seen), the last
candidate is kept (a uniform world) and ``info[INF_MISSES]`` counts it.

The model is an array the kernel reads (:class:`Inference`): ``model[s]``, the model of seat
``s`` (:data:`M_NONE`: not modelled, every history equally likely; :data:`M_RANDOM`: uniform over
its legal moves, likelihood ``1/n`` a play; a deterministic style's code
(:data:`~dominosim.fast.core.params.S_BULLY` ...): likelihood 1 when the style would have made the
play, else 0; :data:`M_WEIGHTED`: a weighted player whose weights and temperature are
``params[s]``, likelihood :func:`~dominosim.fast.players.weighted.move_likelihood`: 1 or 0 at
temperature 0, the play's share of the softmax above it). Which seat gets which model is decided
in Python (:func:`dominosim.strategies.search.model_of`): a seat of a search, a plug-in or a
Python strategy is modelled by default as the shipped learned player's softmax policy.

A weighted model reads the decision features, which count the tiles its seat has not seen (the
other hands and the boneyard). The replay does not know seat ``me``'s past hand nor the
boneyard's order, but the features need only their union (every tile in no other replayed hand
and not on the table) and their sizes (public): :func:`complete_replay` lays that union out as
``me``'s hand and the boneyard before the features are read.

The likelihood of a world needs the whole hidden history, not only the current hands: which tiles
each seat was dealt and which it drew at each draw. The sampler puts every hidden tile in a
*place* (the slots of one seat that admit the same tiles, :mod:`.consistent`); :func:`split_places`
spreads each place's tiles over its slots uniformly (every filling of a place is equally likely
under the uniform shuffle), and :func:`likelihood` replays the public log from the deal with the
one compiled turn (:func:`~dominosim.fast.core.turn.open_with`, :func:`~dominosim.fast.core.turn.play`,
the known-to-lack and played-tile tables as the hand kernel keeps them), asking each modelled
seat's model for the probability of the play it made. Randomness: the sampler's stream only, and
only when inference is on (the uniform searches draw exactly what they drew before).

The chain of single callers from :func:`draw_inferred` to :func:`play_likelihood` is inlined
(:data:`~dominosim.fast.core.jit.jit_helper`): about 12% less compilation for a search with the
weighted model's table, and up to 18% less CPU for the searches that infer
(``benchmarks/README.md``). :func:`keep_candidate` (two callers) and :func:`weighted_likelihood`
(behind its gate, which numba compiles on its own) stay kernels of their own; the weighted
player's :func:`~dominosim.fast.players.weighted.move_likelihood` is inlined into the latter.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ...strategies.features import N_FEATURES
from ..core.bits import lowest_bit, popcount
from ..core.board import (
    AT_FIELDS,
    BONE_END,
    BONE_POS,
    MAX_ENDS,
    MOVE_ROWS,
    MOVE_SUIT,
    MOVE_TILE,
    N_SUITS,
    ONE,
    OUT,
    PUB_COLS,
    PUB_DRAW,
    PUB_KIND,
    PUB_PLAY,
    PUB_SEAT,
    PUB_SUIT,
    PUB_X,
    T_PIPS,
    copy_hands,
    fill_moves,
    give,
    make_board,
    make_log,
    make_notes,
    set_word,
)
from ..core.gates import given
from ..core.jit import jit, jit_helper, jit_kernel
from ..core.params import S_RANDOM, S_WEIGHTED
from ..core.rng import shuffle
from ..core.styles import best_move, heaviest_lead
from ..core.turn import (
    leads_any,
    open_with,
    play,
    playable_suits,
    record_draw,
    record_knock,
    record_played,
)
from ..players.weighted import ROW, move_likelihood
from .consistent import (
    I_ITEMS,
    I_PLACES,
    I_SLOTS,
    ITEM_PLACE,
    ITEM_TILE,
    SLOT_CAP,
    SLOT_PLACE,
    SLOT_SEAT,
    SLOT_TIME,
    draw_deal,
    uniform,
)

M_NONE = -1
"""A seat not modelled: every hidden history of it is equally likely (the uniform worlds)."""
M_RANDOM = S_RANDOM
"""A seat modelled as uniform over its legal moves (the ``random`` strategy)."""
M_WEIGHTED = S_WEIGHTED
"""A seat modelled as a weighted player (``params[s]``: its weights, then its temperature)."""
INF_CANDIDATES, INF_PUB, INF_MISSES, INF_WORLDS = range(4)
"""Slots of ``Inference.info``: candidates per world (0: inference off), rows of the copied public
log, worlds kept without a positive weight, worlds drawn."""
MAX_ROUNDS = 16
"""Rounds of ``C`` candidates drawn before a world is kept without a positive weight."""

Inference = namedtuple("Inference", ["model", "params", "info", "pub", "replay", "notes", "log",
                                     "slot_of", "order", "drawn", "cand", "moves", "placed",
                                     "table"])
"""The inference's arrays: the model per seat and its parameters (seats x
:data:`~dominosim.fast.players.weighted.ROW`), ``info`` (see :data:`INF_CANDIDATES`), the public
log (a copy, made when the decision's root is set), the replay's ``Board``, ``Notes`` and an empty
``Log``, the slot of every sampled item, a shuffle buffer, the tile drawn at each public event
(-1: none known), the candidate world, the legal moves, the tiles on the replay's table (a mask)
and the :class:`ModelTable` a weighted model reads (None in the searches whose line-up has no
weighted model: the features are then not compiled into their kernel, :func:`with_model_table`)."""
ModelTable = namedtuple("ModelTable", ["board", "notes", "moves", "features"])
"""What a weighted model reads (as the hand's scratch holds them): the replay's ``Board``,
``Notes`` and legal moves, and room for one move's features and the moves' scores."""


@jit
def make_inference(t, p, n_events):
    """An :class:`Inference` for ``t`` tiles, ``p`` seats and ``n_events`` public events, off
    (no seat modelled)."""
    replay = make_board(t, p)
    return Inference(np.full(p, M_NONE, np.int64), np.zeros((p, ROW), np.float64),
                     np.zeros(4, np.int64), np.zeros((max(n_events, 1), PUB_COLS), np.int64),
                     replay, make_notes(p), make_log(0, 0), np.zeros(t, np.int64),
                     np.zeros(t, np.int64), np.zeros(max(n_events, 1), np.int64),
                     make_board(t, p), np.zeros((MOVE_ROWS, 2 * t), np.int64),
                     np.zeros(replay.hands.shape[1], np.uint64), None)


def with_model_table(inf: Inference) -> Inference:
    """``inf`` with the :class:`ModelTable` a weighted model reads (its replay's arrays, and room
    for the features and the scores), for a search whose line-up has a weighted model."""
    t = inf.moves.shape[1] // 2
    return inf._replace(table=ModelTable(inf.replay, inf.notes, inf.moves,
                                         np.zeros(N_FEATURES + 2 * t, np.float64)))


@jit_kernel
def set_models(models, rows, me, candidates, inf):
    """Seat ``me``'s models of the others: ``models[s]`` (:data:`M_NONE`, :data:`M_RANDOM`, a
    style's code or :data:`M_WEIGHTED`, from :func:`dominosim.strategies.search.model_of`) and a
    weighted model's weights and temperature ``rows[s]``; ``candidates`` per world. Inference is
    off when no seat is modelled or ``candidates`` is 0."""
    modelled = False
    for s in range(models.shape[0]):
        inf.model[s] = models[s] if s != me else M_NONE
        for j in range(rows.shape[1]):  # none when no seat is a weighted model
            inf.params[s, j] = rows[s, j]
        modelled = modelled or inf.model[s] != M_NONE
    inf.info[INF_CANDIDATES] = candidates if modelled else 0
    inf.info[INF_MISSES], inf.info[INF_WORLDS] = 0, 0


@jit_kernel
def copy_public(pub, n_pub, inf):
    """The decision's public log into the inference's own copy (read by every candidate)."""
    for e in range(n_pub):
        for j in range(PUB_COLS):
            inf.pub[e, j] = pub[e, j]
    inf.info[INF_PUB] = n_pub


@jit_helper
def split_places(sm, inf, rng, i_rng):
    """Each tile the last draw put in a place goes to one of the place's slots: the place's tiles
    in a uniform order fill its slots in turn (``inf.slot_of``, by item)."""
    items, slots, order = sm.items, sm.slots, inf.order
    n_items, n_slots = sm.info[I_ITEMS], sm.info[I_SLOTS]
    for q in range(sm.info[I_PLACES]):
        n = 0
        for i in range(n_items):
            if items[ITEM_PLACE, i] == q:
                order[n] = i
                n += 1
        shuffle(rng, i_rng, order, n)
        j = 0
        for k in range(n_slots):
            if slots[SLOT_PLACE, k] == q:
                for _ in range(slots[SLOT_CAP, k]):
                    inf.slot_of[order[j]] = k
                    j += 1


@jit_helper
def deal_replay(rp, me, sm, inf):
    """The replay's position at the deal: every other seat holds its dealt tiles; ``inf.drawn``
    the tile drawn at each public event. Seat ``me``'s tiles stay unknown (only their number
    counts: no model reads another seat's hand)."""
    b, notes, items, slots = inf.replay, inf.notes, sm.items, sm.slots
    for s in range(rp.players):
        for w in range(b.hands.shape[1]):
            b.hands[s, w] = 0
        b.counts[s], b.pips[s] = rp.hand_size, 0
        notes.stitch[s], notes.lacks[s] = 0, 0
        for v in range(N_SUITS):
            notes.played[s, v] = 0
    for i in range(len(AT_FIELDS)):
        b.at[i] = 0
    b.at[OUT] = -1
    for i in range(MAX_ENDS):
        b.ends[i], b.arms[i] = 0, False
    for e in range(inf.info[INF_PUB]):
        inf.drawn[e] = -1
    for w in range(inf.placed.shape[0]):
        inf.placed[w] = 0
    for i in range(sm.info[I_ITEMS]):
        if items[ITEM_PLACE, i] < 0:
            continue
        k = inf.slot_of[i]
        tile = items[ITEM_TILE, i]
        if slots[SLOT_TIME, k] == -2:
            b.hands[slots[SLOT_SEAT, k], tile >> 6] |= ONE << np.uint64(tile & 63)
            b.pips[slots[SLOT_SEAT, k]] += T_PIPS[tile]
        else:  # the slot opened just before the draw at event e (time 2e - 1)
            inf.drawn[(slots[SLOT_TIME, k] + 1) // 2] = tile


@jit_helper
def play_likelihood(core, rp, me, inf, seat, tile, suit):
    """The probability that the model of ``seat`` plays ``tile`` on ``suit`` in the replay's
    position (0 when it is not among its legal moves)."""
    b, moves = inf.replay, inf.moves
    psm = playable_suits(core, rp, b.at)
    n = fill_moves(core, b.hands, seat, psm, moves)
    k = -1
    for i in range(n):
        if moves[MOVE_TILE, i] == tile and moves[MOVE_SUIT, i] == suit:
            k = i
    if k < 0:
        return 0.0
    if n == 1:
        return 1.0
    model = inf.model[seat]
    if model == M_RANDOM:
        return 1.0 / n
    if model == M_WEIGHTED:
        return weighted_play(inf.table, core, rp, me, inf, seat, n, k)
    return 1.0 if best_move(core, rp, model, b, inf.notes, seat, moves, n) == k else 0.0


@jit_kernel
def weighted_likelihood(table, core, rp, me, inf, seat, n, k):
    """The probability that the weighted model of ``seat`` (``inf.params[seat]``) plays move
    ``k`` of the ``n`` in the replay's position, its features read on ``table``."""
    complete_replay(core, rp, me, inf)
    return move_likelihood(inf.params, core, rp, seat, n, k, table)


weighted_play = given(weighted_likelihood, 0.0)
""":func:`weighted_likelihood` in the searches built with a :class:`ModelTable` (0 elsewhere: a
weighted model is never set there, since the Python side builds the table whenever the line-up
has one, :func:`dominosim.fast.search.worlds.make_search_scratch`)."""


@jit_helper
def complete_replay(core, rp, me, inf):
    """The tiles seat ``me`` held and the boneyard, as far as a model's features read them: the
    tiles in no other replayed hand and not on the table, the first of them (by id) as the
    boneyard (as many as it holds: the rest of the tiles less the hands) and the others as
    ``me``'s hand, with their pips (``me``'s count is the replay's own)."""
    b, placed = inf.replay, inf.placed
    n_free = 0
    for w in range(core.words):
        seen = placed[w]
        for s in range(rp.players):
            if s != me:
                seen |= b.hands[s, w]
        b.hands[me, w] = ~seen & set_word(rp.tiles, w)
        n_free += popcount(b.hands[me, w])
    n_bone, b.pips[me] = n_free - b.counts[me], 0
    b.at[BONE_POS], b.at[BONE_END] = 0, n_bone
    i = 0
    for w in range(core.words):
        word = b.hands[me, w]
        while word:
            tile = w * 64 + lowest_bit(word)
            word &= word - ONE
            if i < n_bone:
                b.bone[i] = tile
                b.hands[me, w] &= ~(ONE << np.uint64(tile & 63))
            else:
                b.pips[me] += T_PIPS[tile]
            i += 1


@jit_helper
def lead_likelihood(core, inf, seat, tile):
    """The probability that the model of ``seat`` leads ``tile`` under ``opening='any'``."""
    n = inf.replay.counts[seat]
    if n <= 1:
        return 1.0
    if inf.model[seat] == M_RANDOM:
        return 1.0 / n
    return 1.0 if heaviest_lead(core, inf.model[seat], inf.replay.hands, seat) == tile else 0.0


@jit_helper
def replay_play(core, rp, me, inf, e, first):
    """Public event ``e``, a play, replayed; returns its likelihood under the player's model."""
    b, notes = inf.replay, inf.notes
    seat, tile, suit = inf.pub[e, PUB_SEAT], inf.pub[e, PUB_X], inf.pub[e, PUB_SUIT]
    modelled = seat != me and inf.model[seat] != M_NONE
    w = 1.0
    if first:
        lead_any = leads_any(rp) == 1
        if modelled and lead_any:
            w = lead_likelihood(core, inf, seat, tile)
        open_with(core, rp, b, notes, inf.log, seat, tile, not lead_any)
    else:
        if modelled:
            w = play_likelihood(core, rp, me, inf, seat, tile, suit)
        play(core, rp, b, notes, inf.log, seat, tile, suit)
    record_played(notes, seat, tile)  # the search's turn (core.styles off) does not
    inf.placed[tile >> 6] |= ONE << np.uint64(tile & 63)
    return w


@jit_helper
def likelihood(core, rp, me, inf):
    """The likelihood of the public log under the models, in the history of the replay's deal
    (:func:`deal_replay`): the product over the modelled seats' plays."""
    b, notes, pub = inf.replay, inf.notes, inf.pub
    w = 1.0
    first = True
    for e in range(inf.info[INF_PUB]):
        kind, seat = pub[e, PUB_KIND], pub[e, PUB_SEAT]
        if kind == PUB_PLAY:
            w *= replay_play(core, rp, me, inf, e, first)
            first = False
            if w == 0.0:
                return 0.0
        elif kind == PUB_DRAW:
            if seat != me and inf.drawn[e] >= 0:
                give(b, seat, inf.drawn[e])
            else:  # its own draw (its hand is not replayed) or an unknown tile: the count
                b.counts[seat] += 1
            record_draw(notes, seat)
        else:
            record_knock(notes, seat, pub[e, PUB_X])
    return w


@jit_helper
def world_weight(core, rp, me, ss):
    """The weight of the candidate world the sampler last drew (its history spread over the
    slots with the sampler's stream)."""
    inf, sm = ss.infer, ss.sampler
    split_places(sm, inf, ss.rng, rp.players)
    deal_replay(rp, me, sm, inf)
    return likelihood(core, rp, me, inf)


@jit_kernel
def keep_candidate(core, rp, ss, n_bone):
    """The candidate world (hands and its ``n_bone`` sleeping tiles) into ``ss.dealt``."""
    cand, dealt = ss.infer.cand, ss.dealt
    copy_hands(core, rp.players, cand, dealt)
    for i in range(n_bone):
        dealt.bone[i] = cand.bone[i]


@jit_helper
def draw_inferred(core, rp, me, board, ss):
    """A world into ``ss.dealt`` by sampling-importance-resampling over the candidates (see the
    module documentation); returns the number of sleeping tiles."""
    inf, i_rng = ss.infer, rp.players
    total, kept, n_bone = 0.0, -1, 0
    inf.info[INF_WORLDS] += 1
    for _ in range(MAX_ROUNDS):
        for _ in range(inf.info[INF_CANDIDATES]):
            n_bone = draw_deal(rp, me, board.hands, ss.sampler, inf.cand, ss.rng, i_rng)
            w = world_weight(core, rp, me, ss)
            if w > 0.0:
                total += w
                if uniform(ss.rng, i_rng) * total < w:
                    keep_candidate(core, rp, ss, n_bone)
                    kept = n_bone
        if kept >= 0:
            return kept
    inf.info[INF_MISSES] += 1
    keep_candidate(core, rp, ss, n_bone)
    return n_bone
