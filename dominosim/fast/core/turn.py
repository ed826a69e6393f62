"""The rules of the rule book (``docs/rules.md``) on a :class:`~dominosim.fast.core.board.Board`: the one
compiled turn that the hand kernel and the search playouts share.

:func:`advance` moves the turn to the next seat that can play, drawing and knocking as the rules
say (or finds the hand blocked); :func:`play` puts a tile down; :func:`open_with` makes the opening
play. Every rule is decided in one function here, mirroring :mod:`dominosim.game`: the playable
suits (:func:`playable_suits`), where a tile goes and what the ends show after it (:func:`place`),
the stitch-up (:func:`stitched_up`), drawing (:func:`draw_for`), knocking (:func:`knock`), the
blocked hand (:func:`is_blocked`), the turn order (:func:`next_seat`), going out (:func:`goes_out`), who
wins a blocked hand (:func:`lowest_sides`) and the score (:func:`score`). The ``shape``
(:mod:`dominosim.fast.core.shape`) makes what a game never does vanish at compile time: no drawing
code in Block, no event log unless one is asked for.

Each enumerated rule code (:data:`~dominosim.fast.core.params.CODES`) is read in one decider that
matches every code by name: :func:`leads_any` (``opening``), :func:`may_draw` (``draw``),
:func:`team_out` (``end``) and :func:`points` (``scoring``). A code a decider has no rule for
makes it answer :data:`UNDECIDED`, and :func:`rule_status`, which every compiled entry point runs
before it plays, then stops with ``ERR_RULE``: a new code is never played as an old one.
"""

from __future__ import annotations

from .board import (
    BONE_END,
    BONE_POS,
    DRAWS,
    EV_DRAW,
    EV_END_INDEX,
    EV_KIND,
    EV_KNOCK,
    EV_N_ENDS,
    EV_PLAY,
    EV_SEAT,
    EV_STITCH,
    EV_SUIT,
    EV_TILE,
    KNOCKED,
    KNOCKS,
    N_EMPTY,
    N_ENDS,
    N_EVENTS,
    N_PUBLIC,
    N_SUITS,
    OPEN_SUIT,
    OPENER,
    OPENING,
    OUT,
    PLAYS,
    PUB_DRAW,
    PUB_KIND,
    PUB_KNOCK,
    PUB_PLAY,
    PUB_SEAT,
    PUB_SUIT,
    PUB_X,
    SEAT,
    SUIT_MASK,
    T_HIGH,
    T_LOW,
    T_PIPS,
    count_moves,
    give,
    take,
)
from .gates import gate
from .jit import jit_core, jit_helper, jit_kernel
from .params import (
    DRAW_NONE,
    DRAW_ONE,
    DRAW_UNTIL,
    END_OUT,
    END_TEAM_OUT,
    OPEN_ANY,
    OPEN_DOUBLE,
    SCORE_BALANCE,
    SCORE_GAME,
    SCORE_SPOTS,
)
from .status import ERR_RULE, OK

UNDECIDED = -(1 << 40)
"""What a rule's decider answers for a code it has no rule for (no score, seat or flag is this)."""


# ---------------------------------------------------------------- the enumerated rules
@jit_kernel
def leads_any(rp):
    """The ``opening`` rule: 1 when the leader puts down any tile (``any``), 0 when the holder of
    the highest double opens with it (``highest_double``), :data:`UNDECIDED` for another code."""
    if rp.opening == OPEN_ANY:
        return 1
    if rp.opening == OPEN_DOUBLE:
        return 0
    return UNDECIDED


@jit_kernel
def team_out(rp):
    """The ``end`` rule: 1 when the hand ends once a seat and its partner are both out and the
    turn skips seats that are out (``team_out``), 0 when it ends as soon as one seat is out
    (``out``), :data:`UNDECIDED` for another code."""
    if rp.end == END_TEAM_OUT:
        return 1
    if rp.end == END_OUT:
        return 0
    return UNDECIDED


@jit_kernel
def may_draw(rp, drawable, drew):
    """The ``draw`` rule: 1 when a seat with no legal move takes a sleeping tile now, 0 when it
    knocks. Never in Block (``none``); while a tile may be drawn (``drawable`` > 0), until it can
    play (``until_playable``) or once a turn (``one``: ``drew`` says it has drawn this turn).
    :data:`UNDECIDED` for another code."""
    if rp.draw == DRAW_UNTIL:
        return 1 if drawable > 0 else 0
    if rp.draw == DRAW_ONE:
        return 1 if drawable > 0 and not drew else 0
    if rp.draw == DRAW_NONE:
        return 0
    return UNDECIDED


@jit_kernel
def rule_status(rp, pips):
    """``OK`` when every enumerated rule code of ``rp`` has its decider here, else ``ERR_RULE``
    (``pips``: any array of a pip count per seat, to ask the scoring rule through :func:`score`,
    which the kernels call anyway, so that :func:`points` is compiled into it alone)."""
    if leads_any(rp) == UNDECIDED or team_out(rp) == UNDECIDED:
        return ERR_RULE
    if may_draw(rp, 0, False) == UNDECIDED or score(rp, pips, 0)[1] == UNDECIDED:
        return ERR_RULE
    return OK


# ---------------------------------------------------------------- who plays, what is playable
@jit_kernel
def side_of(rp, seat):
    """Side of ``seat``: ``seat mod players/2`` with partnerships, the seat otherwise."""
    return seat % rp.sides if rp.partnerships else seat


@jit_kernel
def partner_of(rp, seat):
    """The partner's seat with partnerships, -1 otherwise."""
    if rp.partnerships:
        return seat + rp.sides if seat < rp.sides else seat - rp.sides
    return -1


@jit_kernel
def left_of(rp, seat):
    """The seat to the left of ``seat``: the next one in the circle."""
    return seat + 1 if seat + 1 < rp.players else 0  # no division in the turn loop


@jit_kernel
def next_seat(rp, counts, seat):
    """The seat to the left, skipping seats that are out under ``team_out``."""
    nxt = left_of(rp, seat)
    if team_out(rp) == 1:
        while counts[nxt] == 0:
            nxt = left_of(rp, nxt)
    return nxt


@jit_core
def filling_first(shape, rp, at):
    """Whether the opening double's arms are still being filled first (fill-first, while an arm
    is unfilled): then only they take tiles."""
    return not shape.line and rp.fill and at[N_EMPTY] > 0


@jit_core
def playable_suits(shape, rp, at):
    """Mask of the suits a tile may be played on: the opening suit while arms are unfilled under
    fill-first, every suit showing otherwise."""
    if filling_first(shape, rp, at):
        return 1 << at[OPEN_SUIT]
    return at[SUIT_MASK]


@jit_kernel
def other_end(tile, suit):
    """The suit a tile shows after it is played on ``suit`` (one of its two suits)."""
    return T_PIPS[tile] - suit


# ---------------------------------------------------------------- the layout
@jit_core
def branches(shape, rp, tile, suit):
    """Whether ``tile`` played on ``suit`` is a double that opens two more ends."""
    return not shape.line and rp.branch and other_end(tile, suit) == suit


@jit_core
def suits_after(shape, rp, board, tile, suit):
    """``(mask of the suits showing, number of open ends)`` once ``tile`` goes on ``suit``: the
    suit it covers stays only if another end still shows it, the suit it leaves shows."""
    other = other_end(tile, suit)
    mask = board.at[SUIT_MASK]
    covered = board.suit_count[suit] - (0 if other == suit else 1)
    if covered == 0:
        mask &= ~(1 << suit)
    n_ends = 2 if shape.line else board.at[N_ENDS]
    return mask | (1 << other), n_ends + (2 if branches(shape, rp, tile, suit) else 0)


@jit_helper
def place(shape, rp, board, tile, suit):
    """Put ``tile`` on the first playable end showing ``suit`` (under fill-first, the first empty
    arm); a branching double opens two more ends. Returns the end's index."""
    at, ends, arms, suit_count = board.at, board.ends, board.arms, board.suit_count
    if shape.line and not (shape.styles or shape.plugins):
        # a line whose strategies never read suit_count: the two ends are the whole layout
        index = 0 if ends[0] == suit else 1
        ends[index] = other_end(tile, suit)
        at[SUIT_MASK] = (1 << ends[0]) | (1 << ends[1])
        return index
    fill_phase = filling_first(shape, rp, at)
    mask, n_after = suits_after(shape, rp, board, tile, suit)
    index = 0
    n_ends = 2 if shape.line else at[N_ENDS]
    for i in range(n_ends):
        if ends[i] == suit and (not fill_phase or arms[i]):
            index = i
            break
    other = other_end(tile, suit)
    ends[index] = other
    suit_count[suit] -= 1
    suit_count[other] += 1
    if not shape.line:
        if arms[index]:
            arms[index] = False
            at[N_EMPTY] -= 1
        for i in range(n_ends, n_after):  # a branching double's two new ends
            ends[i] = suit
            arms[i] = False
            suit_count[suit] += 1
        at[N_ENDS] = n_after
    at[SUIT_MASK] = mask
    return index


@jit_core
def stitched_up(shape, at):
    """At least two open ends, all showing one suit."""
    mask = at[SUIT_MASK]
    return (shape.line or at[N_ENDS] >= 2) and (mask & (mask - 1)) == 0


@jit_core
def set_opening(shape, rp, board, tile, double_lead):
    """The open ends of the opening play: the double's suit on every arm (fill-first: all
    unfilled), or a lead's two suits."""
    at, ends, arms, suit_count = board.at, board.ends, board.arms, board.suit_count
    for v in range(N_SUITS):
        suit_count[v] = 0
    n_ends = rp.arms if double_lead else 2
    for i in range(n_ends):
        ends[i] = T_LOW[tile] if double_lead or i == 0 else T_HIGH[tile]
        arms[i] = double_lead and rp.fill
        suit_count[ends[i]] += 1
    at[N_ENDS] = n_ends
    at[N_EMPTY] = n_ends if double_lead and rp.fill else 0
    at[SUIT_MASK] = (1 << ends[0]) | (1 << ends[n_ends - 1])
    at[OPEN_SUIT] = ends[0]


# ---------------------------------------------------------------- logs
@jit_core
def log_event(shape, log, kind, seat, tile, suit):
    """Append an event to the event log (no end, no stitch-up, no ends showing: a draw or a
    knock); returns its row, or -1 past a full log, which still counts it so that the kernel can
    tell."""
    n = log.count[N_EVENTS]
    log.count[N_EVENTS] = n + 1
    if n >= log.events.shape[0]:
        return -1
    ev = log.events
    ev[n, EV_KIND], ev[n, EV_SEAT], ev[n, EV_TILE], ev[n, EV_SUIT] = kind, seat, tile, suit
    ev[n, EV_END_INDEX], ev[n, EV_STITCH], ev[n, EV_N_ENDS] = -1, 0, 0
    return n


@jit_core
def log_play(shape, log, board, seat, tile, suit, index, stitch):
    """Append a play to the event log: the end it went on (``index``, -1 for the opening), whether
    it stitched up and the ends showing after it."""
    n = log_event(shape, log, EV_PLAY, seat, tile, suit)
    if n >= 0:
        n_ends = board.at[N_ENDS]
        log.events[n, EV_END_INDEX], log.events[n, EV_STITCH] = index, stitch
        log.events[n, EV_N_ENDS] = n_ends
        for i in range(n_ends):
            log.ends[n, i] = board.ends[i]


@jit_core
def log_public(shape, log, kind, seat, x, suit):
    """Append an event to the public log that search strategies read (``suit``: the end a play
    went on, as in the event log; -1 for a draw or a knock)."""
    n = log.count[N_PUBLIC]
    log.pub[n, PUB_KIND], log.pub[n, PUB_SEAT], log.pub[n, PUB_X] = kind, seat, x
    log.pub[n, PUB_SUIT] = suit
    log.count[N_PUBLIC] = n + 1


event = gate("events", log_event)
""":func:`log_event` in the kernels that keep an event log, nothing elsewhere."""
event_play = gate("events", log_play)
""":func:`log_play` in the kernels that keep an event log, nothing elsewhere."""
public = gate("searches", log_public)
""":func:`log_public` in the kernels where a seat searches, nothing elsewhere."""


# ---------------------------------------------------------------- a turn
@jit_kernel
def open_with(shape, rp, board, notes, log, seat, tile, double_lead):
    """``seat`` makes the opening play with ``tile`` (the highest double, or any lead)."""
    at = board.at
    set_opening(shape, rp, board, tile, double_lead)
    take(board, seat, tile)
    if shape.styles:
        record_played(notes, seat, tile)
    at[OPENER], at[SEAT], at[PLAYS], at[KNOCKS], at[DRAWS], at[KNOCKED] = seat, seat, 1, 0, 0, 0
    at[OPENING] = tile
    at[OUT] = seat if goes_out(rp, board.counts, seat) else -1
    event_play(shape, log, board, seat, tile, T_LOW[tile] if double_lead else -1, -1, 0)
    public(shape, log, PUB_PLAY, seat, tile, T_LOW[tile] if double_lead else -1)


@jit_kernel
def record_played(notes, seat, tile):
    """Count a tile played by ``seat`` under each suit it holds."""
    notes.played[seat, T_LOW[tile]] += 1
    if T_HIGH[tile] != T_LOW[tile]:
        notes.played[seat, T_HIGH[tile]] += 1


@jit_kernel
def record_knock(notes, seat, psm):
    """What a knock tells every seat: ``seat`` lacks the playable suits ``psm``."""
    notes.lacks[seat] |= psm


@jit_kernel
def record_draw(notes, seat):
    """What a draw does to it: the drawn tile is unknown, so nothing is known of the new hand."""
    notes.lacks[seat] = 0


@jit_helper
def play(shape, rp, board, notes, log, seat, tile, suit):
    """``seat`` plays ``tile`` on an end showing ``suit``."""
    at = board.at
    take(board, seat, tile)
    if shape.styles:
        record_played(notes, seat, tile)
    index = place(shape, rp, board, tile, suit)
    at[PLAYS] += 1
    stitch = stitched_up(shape, at)
    if stitch:
        notes.stitch[seat] += 1
    at[KNOCKED] = 0
    at[SEAT] = seat
    if goes_out(rp, board.counts, seat):
        at[OUT] = seat
    event_play(shape, log, board, seat, tile, suit, index, 1 if stitch else 0)
    public(shape, log, PUB_PLAY, seat, tile, suit)


@jit_kernel
def drawable(rp, at):
    """How many tiles may still be drawn: the boneyard less ``boneyard_keep``."""
    return at[BONE_END] - at[BONE_POS] - rp.keep


@jit_helper
def draw_for(shape, rp, board, notes, log, seat, psm):
    """``seat``, with no legal move, draws as :func:`may_draw` says; returns its number of legal
    moves then (0 when it drew nothing, or nothing it can play)."""
    at = board.at
    n = 0
    drew = False
    while n == 0 and may_draw(rp, drawable(rp, at), drew) == 1:
        tile = board.bone[at[BONE_POS]]
        at[BONE_POS] += 1
        give(board, seat, tile)
        at[DRAWS] += 1
        drew = True
        if shape.styles:
            record_draw(notes, seat)
        event(shape, log, EV_DRAW, seat, tile, -1)
        public(shape, log, PUB_DRAW, seat, psm, -1)
        n = count_moves(shape, board.hands, seat, psm)
    return n


@jit_helper
def knock(shape, rp, board, notes, log, seat, psm):
    """``seat`` passes: every seat learns it lacks the playable suits."""
    at = board.at
    at[KNOCKS] += 1
    at[KNOCKED] |= 1 << seat
    if shape.styles:
        record_knock(notes, seat, psm)
    event(shape, log, EV_KNOCK, seat, -1, psm)
    public(shape, log, PUB_KNOCK, seat, psm, -1)


@jit_helper
def is_blocked(rp, counts, knocked, drawable):
    """Whether no seat can ever play again: no tile may be drawn now (``drawable`` tiles may be)
    and every seat still holding tiles (``counts``) has knocked since the last play (``knocked``,
    a mask of seats)."""
    if may_draw(rp, drawable, False) == 1:
        return False
    for s in range(rp.players):
        if counts[s] > 0 and not knocked >> s & 1:
            return False
    return True


@jit_helper
def blocked(shape, rp, board):
    """:func:`is_blocked` on ``board`` (a shape that never draws has nothing to draw)."""
    return is_blocked(rp, board.counts, board.at[KNOCKED],
                      drawable(rp, board.at) if shape.draws else 0)


@jit_helper
def advance(shape, rp, board, notes, log):
    """From the seat that moved last to the next seat that can play, drawing and knocking as the
    rules say. Returns ``(n_moves, playable suits)`` with ``board.at[SEAT]`` the seat to move, or
    ``(0, 0)`` when the hand is blocked."""
    at = board.at
    seat = at[SEAT]
    while True:
        seat = next_seat(rp, board.counts, seat)
        psm = playable_suits(shape, rp, at)
        n = count_moves(shape, board.hands, seat, psm)
        if n == 0 and shape.draws:
            n = draw_for(shape, rp, board, notes, log, seat, psm)
        if n > 0:
            at[SEAT] = seat
            return n, psm
        knock(shape, rp, board, notes, log, seat, psm)
        if blocked(shape, rp, board):
            at[SEAT] = seat
            return 0, 0


# ---------------------------------------------------------------- the end, the score
@jit_kernel
def goes_out(rp, counts, seat):
    """Whether the play that emptied ``seat``'s hand ends the hand (``team_out``: the partner is
    out too)."""
    if counts[seat] > 0:
        return False
    return team_out(rp) != 1 or counts[partner_of(rp, seat)] == 0


@jit_helper
def lowest_sides(rp, pips):
    """Mask of the sides with the fewest pips left (a partnership's two hands summed): in a
    blocked hand the one side that wins, or the two or more that tie."""
    low, mask = 1 << 30, 0
    for k in range(rp.sides):
        total = pips[k] + (pips[k + rp.sides] if rp.partnerships else 0)
        if total < low:
            low, mask = total, 1 << k
        elif total == low:
            mask |= 1 << k
    return mask


@jit_kernel
def score(rp, pips, out_seat):
    """``(winning_side, points)`` of a finished hand, as :func:`dominosim.reference.game.score`
    (a tie: ``(-1, 0)``); a blocked hand's winner is :func:`lowest_sides`. Both it and
    :func:`points` are inlined here (one compiled function, as the scoring was before it was
    split: each call passed the rules' fifteen fields by value)."""
    if out_seat >= 0:
        winner = side_of(rp, out_seat)
    else:
        mask = lowest_sides(rp, pips)
        if mask & (mask - 1):
            return -1, 0
        winner = 0
        while mask > 1:
            mask >>= 1
            winner += 1
    return winner, points(rp, pips, winner, out_seat)


@jit_helper
def points(rp, pips, winner, out_seat):
    """The ``scoring`` rule: the points ``winner`` scores from the pips left (``game``: 1;
    ``spots``: the losers' pips, less the winner side's own in a blocked hand; ``balance``: from
    each opponent, its pips less the winner's), :data:`UNDECIDED` for another code."""
    if rp.scoring == SCORE_GAME:
        return 1
    if rp.scoring == SCORE_SPOTS:
        losers, mine = 0, 0
        for s in range(rp.players):
            if side_of(rp, s) == winner:
                mine += pips[s]
            else:
                losers += pips[s]
        return losers - (mine if out_seat < 0 else 0)
    if rp.scoring == SCORE_BALANCE:
        total = 0
        for s in range(rp.players):
            if s != winner:
                total += pips[s] - pips[winner]
        return total
    return UNDECIDED

