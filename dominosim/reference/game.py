"""The reference game state: the rule book (docs/rules.md) as plain Python, one small function per rule.

Tiles are ``(a, b)`` tuples with ``a <= b``; a move is ``Move(tile, suit)``: the tile goes on an open
end showing ``suit`` (``suit = -1`` for the lead of ``opening='any'`` onto an empty table). Legal
moves are listed in one canonical order, by tile id and then suit, in both engines.

The state knows nothing of strategies or randomness: the hand loop in :mod:`dominosim.reference.hand`
asks the strategies and the random streams, and calls the operations here, each of which checks the
rule it applies and raises :class:`IllegalMoveError` when asked to break it.

Each rule is decided here once, by a function of the rules and the open ends (a list of
:class:`End`, in the order they were opened) or by one method of :class:`GameState`:
:func:`highest_double` (who opens, whether to redeal), :func:`opening_ends`,
:func:`playable_ends` and :func:`playable_suits` (fill first), :func:`legal_moves`,
:func:`end_for` (where a tile goes), :func:`ends_after` and :func:`branches`, :func:`is_stitch_up`,
:func:`may_draw` (drawing), :meth:`GameState.knock` (knocks, known to lack),
:func:`next_seat`, :func:`ends_by_out`, :func:`is_blocked` and :func:`score`. Whatever else needs a
rule asks these: the strategies' view (:meth:`dominosim.strategies.SeatView.ends_after`), the
search's and the sampler's reading of a public history (:func:`layouts_before`), the layout
picture, the exact enumeration.

Each enumerated rule code is matched by name in one decider: :func:`opens_with_double`
(``opening``), :func:`may_draw` (``draw``), :func:`team_out` (``end``) and :func:`score`
(``scoring``); a code a decider does not know is refused with a ``ValueError``, never played as
another.

Examples
--------
>>> from dominosim.rules import Rules
>>> rules = Rules.preset("block", players=2, max_pip=3, hand_size=3)
>>> state = GameState.from_deal(rules, [[(3, 3), (1, 3), (0, 1)], [(2, 3), (0, 0), (1, 2)]], [])
>>> state.open_with_highest_double()
Move(tile=(3, 3), suit=3)
>>> state.ends_suits(), state.to_move
((3, 3), 1)
>>> state.legal_moves(1)
[Move(tile=(2, 3), suit=3)]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from ..checks import refuse
from ..rules import DRAWS, ENDS, OPENINGS, SCORINGS, Rules
from ..sides import left_of
from ..tiles import is_double, other_suit, pips, tile_id


class IllegalMoveError(Exception):
    """A move, draw or knock that the rules do not allow in the current position."""


class Move(NamedTuple):
    """A tile and the suit of the open end it is played on (-1: the lead onto an empty table)."""

    tile: tuple[int, int]
    suit: int


def move_key(move: Move) -> tuple[int, int]:
    """The canonical order of moves, shared by both engines: tile id, then suit."""
    return tile_id(move.tile), move.suit


class End(NamedTuple):
    """One open end of the layout: the suit it shows, and whether it is an unfilled arm of the
    opening double (only meaningful under ``fill_opening_first``).
    """

    suit: int
    empty_arm: bool = False


@dataclass(frozen=True)
class Event:
    """One public-or-private step of a hand.

    ``kind`` is ``'play'``, ``'draw'``, ``'knock'`` or ``'end'``. A play has ``seat``, ``tile``,
    ``suit`` (the end played on; -1 for a lead), ``end_index`` (position in the list of open ends,
    -1 for the opening), ``ends`` (the suits showing afterwards) and ``stitch_up``. A draw has
    ``seat`` and ``tile`` (hidden from the other seats). A knock has ``seat`` and ``suits``: the
    playable suits the knocker is now known to lack. The end has ``how`` (``'out'`` or
    ``'blocked'``), ``winning_side`` (-1 for a tie), ``points`` and ``pips`` by seat.
    """

    kind: str
    seat: int = -1
    tile: tuple[int, int] | None = None
    suit: int = -1
    end_index: int = -1
    ends: tuple[int, ...] = ()
    stitch_up: bool = False
    suits: tuple[int, ...] = ()
    how: str = ""
    winning_side: int | None = -1
    points: int | None = 0
    pips: tuple[int | None, ...] = ()

    @property
    def move(self) -> Move:
        """The move of a play event: its tile on its suit (-1 for a lead)."""
        if self.kind != "play" or self.tile is None:
            raise refuse("kind", "'play' for a move", self.kind)
        return Move(self.tile, self.suit)


# ---------------------------------------------------------------------------------- the layout
# docs/rules.md, "The layout and its open ends" and "The drawing of the layout": each rule is one function
# of the rules and the open ends (in the order they were opened), used by the game state, the
# strategies' view, the search's and the sampler's reading of the history, and the picture.
Layout = Sequence[End]


def highest_double(hands: Sequence[Sequence[tuple[int, int]]],
                   max_pip: int) -> tuple[int, tuple[int, int]] | None:
    """``(seat, double)``: the holder of the highest double, who opens under
    ``opening='highest_double'``; None when no seat holds a double (the deal is redealt).

    >>> highest_double([[(1, 1), (0, 2)], [(2, 2), (0, 0)]], max_pip=2)
    (1, (2, 2))
    >>> highest_double([[(0, 1)], [(1, 2)]], max_pip=2) is None
    True
    """
    for d in range(max_pip, -1, -1):
        for seat, hand in enumerate(hands):
            if (d, d) in hand:
                return seat, (d, d)
    return None


def opening_ends(rules: Rules, tile: tuple[int, int]) -> list[End]:
    """The open ends after the opening play: ``opening_arms`` arms showing a double's suit (empty
    arms under ``fill_opening_first``), or the two suits of a non-double lead.

    >>> opening_ends(Rules.preset("cross"), (5, 5))  # doctest: +NORMALIZE_WHITESPACE
    [End(suit=5, empty_arm=True), End(suit=5, empty_arm=True), End(suit=5, empty_arm=True),
     End(suit=5, empty_arm=True)]
    >>> opening_ends(Rules.preset("draw", opening="any"), (2, 4))
    [End(suit=2, empty_arm=False), End(suit=4, empty_arm=False)]
    """
    a, b = tile
    if a != b:
        return [End(a), End(b)]
    return [End(a, rules.fill_opening_first) for _ in range(rules.opening_arms)]


def playable_ends(rules: Rules, ends: Layout) -> Sequence[int]:
    """Indices of the ends a tile may go on, in order: only the empty arms of the opening double
    while any remains under ``fill_opening_first``, every end otherwise.
    """
    # the arms of the opening double are the first ends of the list: look no further
    if rules.fill_opening_first and any(e.empty_arm for e in ends[:rules.opening_arms]):
        return [i for i, e in enumerate(ends) if e.empty_arm]
    return range(len(ends))


def playable_suits(rules: Rules, ends: Layout) -> set[int]:
    """Suits shown by at least one playable end."""
    return {ends[i].suit for i in playable_ends(rules, ends)}


def end_for(rules: Rules, ends: Layout, suit: int) -> int:
    """Where a tile played on ``suit`` goes: the first playable end showing it (-1 if none)."""
    for i in playable_ends(rules, ends):
        if ends[i].suit == suit:
            return i
    return -1


def branches(rules: Rules, tile: tuple[int, int]) -> bool:
    """Whether ``tile``, played after the opening, opens two new chains (``doubles_branch``)."""
    return rules.doubles_branch and is_double(tile)


def ends_after(rules: Rules, ends: Layout, move: Move) -> tuple[list[End], int]:
    """The open ends after ``move`` (not the opening), and the index of the end it went on.

    The tile goes on :func:`end_for` the move's suit; that end then shows the tile's other suit,
    and a branching double adds two ends showing its suit. Raises :class:`IllegalMoveError` if no
    playable end shows the suit or the tile does not hold it.

    Examples
    --------
    docs/rules.md, worked example 2 (branching doubles): lead 6-6, then 6-3, then 3-3 on the 3.

    >>> rules = Rules.preset("ivory")
    >>> ends, i = ends_after(rules, opening_ends(rules, (6, 6)), Move((3, 6), 6))
    >>> [e.suit for e in ends], i
    ([3, 6], 0)
    >>> ends, i = ends_after(rules, ends, Move((3, 3), 3))
    >>> [e.suit for e in ends], i
    ([3, 6, 3, 3], 0)
    """
    index = end_for(rules, ends, move.suit)
    if index < 0 or move.suit not in move.tile:
        raise IllegalMoveError(f"{move} fits no playable end of {[e.suit for e in ends]}.")
    after = list(ends)
    after[index] = End(other_suit(move.tile, move.suit))
    if branches(rules, move.tile):
        after += [End(move.suit), End(move.suit)]
    return after, index


def layout_after(rules: Rules, ends: Layout, play: Event) -> list[End]:
    """The open ends after the play event ``play`` (the opening play if ``ends`` is empty): how
    anyone who saw a hand's history rebuilds its layout.
    """
    if not ends:
        return opening_ends(rules, play.move.tile)
    return ends_after(rules, ends, play.move)[0]


def layouts_before(rules: Rules, history: Sequence[Event]) -> Iterator[tuple[Event, list[End]]]:
    """Every event of ``history`` with the open ends just before it (docs/rules.md, worked example 1:
    under fill first, the 2 showing is not playable while arms of the 5-5 are empty).

    >>> rules = Rules.preset("cross")
    >>> plays = [Event("play", 0, (5, 5), 5), Event("play", 1, (2, 5), 5), Event("draw", 0)]
    >>> [(e.kind, playable_suits(rules, ends)) for e, ends in layouts_before(rules, plays)]
    [('play', set()), ('play', {5}), ('draw', {5})]
    """
    ends: list[End] = []
    for event in history:
        yield event, ends
        if event.kind == "play":
            ends = layout_after(rules, ends, event)


def legal_moves(rules: Rules, hand: Sequence[tuple[int, int]], ends: Layout) -> list[Move]:
    """The distinct legal moves of a hand on the open ends, in canonical order: ``(t, v)`` for
    every tile ``t`` held and suit ``v`` of ``t`` shown by a playable end.
    """
    suits = playable_suits(rules, ends)
    moves = {Move(t, v) for t in hand for v in set(t) if v in suits}
    return sorted(moves, key=move_key)


def is_stitch_up(suits: Sequence[int]) -> bool:
    """At least two open ends, all showing one suit (playable or not).

    docs/rules.md, worked example 3: ``2 2`` is a stitch-up, ``2 6`` is not, nor is a single end.

    >>> is_stitch_up([2, 2]), is_stitch_up([2, 6]), is_stitch_up([4])
    (True, False, False)
    """
    return len(suits) >= 2 and len(set(suits)) == 1


# ------------------------------------------------------------------------------ the enumerated rules
def _no_rule(field: str, value: str, allowed: Sequence[str]) -> ValueError:
    return refuse(field, "one of " + ", ".join(map(repr, allowed)), value)


def opens_with_double(rules: Rules) -> bool:
    """The ``opening`` rule: whether the holder of the highest double opens with it
    (``highest_double``) rather than the leader putting down any tile (``any``).

    >>> block = Rules.preset("block")
    >>> opens_with_double(block), opens_with_double(block.replace(opening="any"))
    (True, False)
    """
    if rules.opening == "highest_double":
        return True
    if rules.opening == "any":
        return False
    raise _no_rule("opening", rules.opening, OPENINGS)


def counts_pips(rules: Rules) -> bool:
    """The ``scoring`` rule's kind: whether a hand's points count pips (``spots``, ``balance``)
    rather than being one for the winning side (``game``).

    >>> counts_pips(Rules.preset("block")), counts_pips(Rules.preset("block", scoring="game"))
    (True, False)
    """
    if rules.scoring == "game":
        return False
    if rules.scoring in ("spots", "balance"):
        return True
    raise _no_rule("scoring", rules.scoring, SCORINGS)


def team_out(rules: Rules) -> bool:
    """The ``end`` rule: whether a hand ends only once a seat and its partner are both out, the
    turn skipping seats that are out (``team_out``), rather than when one seat is out (``out``).
    """
    if rules.end == "team_out":
        return True
    if rules.end == "out":
        return False
    raise _no_rule("end", rules.end, ENDS)


def drawable(rules: Rules, sleeping: int) -> int:
    """The ``draw`` and ``boneyard_keep`` rules: how many of the ``sleeping`` tiles a seat may
    still draw (none in Block, the boneyard less ``boneyard_keep`` otherwise).

    >>> drawable(Rules.preset("draw").replace(boneyard_keep=2), 5), drawable(Rules.preset("block"), 5)
    (3, 0)
    """
    if not rules.can_draw:
        return 0
    return max(0, sleeping - rules.boneyard_keep)


def may_draw(rules: Rules, drawable: int, drew: bool) -> bool:
    """The ``draw`` rule: whether a seat with no legal move takes a sleeping tile now (else it
    knocks). Never in Block (``none``); while a tile may be drawn (``drawable`` > 0), until it can
    play (``until_playable``) or once a turn (``one``: ``drew`` says it has drawn this turn).

    >>> one = Rules.preset("draw").replace(draw="one")
    >>> may_draw(one, 3, False), may_draw(one, 3, True), may_draw(Rules.preset("draw"), 3, True)
    (True, False, True)
    """
    if rules.draw == "until_playable":
        return drawable > 0
    if rules.draw == "one":
        return drawable > 0 and not drew
    if rules.draw == "none":
        return False
    raise _no_rule("draw", rules.draw, DRAWS)


# ------------------------------------------------------------------------------ turns and the end
def next_seat(rules: Rules, hands: Sequence[Sequence[tuple[int, int]]], seat: int) -> int:
    """Who moves after ``seat``: the seat to its left, skipping seats that are out under
    ``end='team_out'``.
    """
    nxt = left_of(rules.players, seat)
    if team_out(rules):
        while not hands[nxt]:
            nxt = left_of(rules.players, nxt)
    return nxt


def ends_by_out(rules: Rules, hands: Sequence[Sequence[tuple[int, int]]], seat: int) -> bool:
    """Whether ``seat``'s play ends the hand: it is out, and under ``team_out`` so is its
    partner.
    """
    if hands[seat]:
        return False
    return not team_out(rules) or all(not hands[s] for s in rules.seats_of(rules.side_of(seat)))


def is_blocked(holding: set[int], knocked: set[int], drawable: int) -> bool:
    """Whether the hand is blocked: every seat still holding tiles has knocked since the last play,
    and no tile can be drawn.
    """
    return drawable == 0 and holding <= knocked


@dataclass
class GameState:
    """Everything about a hand in progress, after the deal.

    Build it with :meth:`from_deal`; then open (:meth:`open_with_highest_double` or
    :meth:`lead`) and apply :meth:`play`, :meth:`draw` and :meth:`knock` until :attr:`over`.
    """

    rules: Rules
    hands: list[list[tuple[int, int]]]
    boneyard: list[tuple[int, int]]
    ends: list[End] = field(default_factory=list)
    to_move: int = 0
    opener: int = -1
    opening_tile: tuple[int, int] | None = None
    events: list[Event] = field(default_factory=list)
    knocked_since_play: set[int] = field(default_factory=set)
    lacks: list[set[int]] = field(default_factory=list)
    over: bool = False
    how: str = ""
    out_seat: int = -1
    winning_side: int | None = -1
    points: int | None = 0
    stitch_ups: list[int] = field(default_factory=list)
    seen: list[list[Event]] = field(default_factory=list)
    """What each seat has seen of :attr:`events`: other seats' drawn tiles hidden."""

    @classmethod
    def from_deal(cls, rules: Rules, hands: list[list[tuple[int, int]]],
                  boneyard: list[tuple[int, int]]) -> GameState:
        """A hand about to open, with explicit hands (seat by seat) and boneyard (draw order)."""
        hands = [sorted((min(t), max(t)) for t in h) for h in hands]
        boneyard = [(min(t), max(t)) for t in boneyard]
        if len(hands) != rules.players:
            raise ValueError(f"The value for `hands` must hold one hand per seat ({rules.players}), "
                             f"but {len(hands)} were passed.")
        return cls(rules=rules, hands=[sorted(h, key=tile_id) for h in hands], boneyard=boneyard,
                   lacks=[set() for _ in hands], stitch_ups=[0] * rules.players,
                   seen=[[] for _ in hands])

    def _emit(self, event: Event) -> None:
        self.events.append(event)
        hidden = Event("draw", seat=event.seat) if event.kind == "draw" else event
        for seat, seen in enumerate(self.seen):
            seen.append(event if seat == event.seat else hidden)

    # ------------------------------------------------------------------ what is showing
    def ends_suits(self) -> tuple[int, ...]:
        """The suit showing on every open end, in the order the ends were opened."""
        return tuple(e.suit for e in self.ends)

    def playable_ends(self) -> list[int]:
        """Indices of the ends a tile may go on (see :func:`playable_ends`)."""
        return list(playable_ends(self.rules, self.ends))

    def playable_suits(self) -> set[int]:
        """Suits shown by at least one playable end."""
        return playable_suits(self.rules, self.ends)

    def is_stitched_up(self) -> bool:
        """At least two open ends, all showing one suit (playable or not)."""
        return is_stitch_up(self.ends_suits())

    def pips_left(self) -> list[int]:
        """Pips in each seat's hand."""
        return [sum(pips(t) for t in h) for h in self.hands]

    def drawable(self) -> int:
        """Tiles a seat may still draw (:func:`drawable`)."""
        return drawable(self.rules, len(self.boneyard))

    # ------------------------------------------------------------------ moves
    def legal_moves(self, seat: int) -> list[Move]:
        """The distinct legal moves of ``seat``, in canonical order (empty if it must draw or knock).

        Before the opening, under ``opening='any'``, the leader may lead any tile (suit -1).
        """
        if not self.ends:
            if not opens_with_double(self.rules) and seat == self.rules.leader:
                return [Move(t, -1) for t in self.hands[seat]]
            return []
        return legal_moves(self.rules, self.hands[seat], self.ends)

    def _drew_this_turn(self, seat: int) -> bool:
        return bool(self.events) and self.events[-1].kind == "draw" and self.events[-1].seat == seat

    def may_draw(self, seat: int) -> bool:
        """Whether ``seat``, if it has no legal move, takes a sleeping tile now (the rule:
        :func:`may_draw`). A seat with no move that may not draw knocks.
        """
        return may_draw(self.rules, self.drawable(), self._drew_this_turn(seat))

    def must_draw(self, seat: int) -> bool:
        """Whether ``seat`` must now take a sleeping tile: it has no legal move and
        :meth:`may_draw`.
        """
        return self.may_draw(seat) and not self.legal_moves(seat)

    def _next_seat(self, seat: int) -> int:
        return next_seat(self.rules, self.hands, seat)

    def _check_turn(self, seat: int) -> None:
        if self.over or seat != self.to_move or not self.ends:
            raise IllegalMoveError(f"Seat {seat} is not to play now.")

    def _remove(self, seat: int, tile: tuple[int, int]) -> None:
        if tile not in self.hands[seat]:
            raise IllegalMoveError(f"Seat {seat} does not hold tile {tile}.")
        self.hands[seat].remove(tile)

    def _open(self, seat: int, move: Move) -> None:
        self._remove(seat, move.tile)
        self.opener = seat
        self.opening_tile = move.tile
        self.ends = opening_ends(self.rules, move.tile)
        self._after_play(seat, move, -1, opening=True)

    def open_with_highest_double(self) -> Move:
        """The forced opening: the holder of the highest double leads it. Raises if no seat holds a
        double (the deal must be redealt).
        """
        found = highest_double(self.hands, self.rules.max_pip)
        if found is None:
            raise IllegalMoveError("No seat holds a double: the deal must be redealt.")
        seat, tile = found
        self._open(seat, Move(tile, tile[0]))
        return Move(tile, tile[0])

    def lead(self, move: Move) -> None:
        """The opening under ``opening='any'``: the leader puts any tile of its hand down."""
        seat = self.rules.leader
        if self.ends or opens_with_double(self.rules) or seat is None:
            raise IllegalMoveError("A lead is only for the first play under opening='any'.")
        if move not in self.legal_moves(seat):
            raise IllegalMoveError(f"Seat {seat} cannot lead {move}.")
        self._open(seat, move)

    def play(self, seat: int, move: Move) -> int:
        """Play ``move`` for ``seat`` (who must be to move and the move legal); returns the index of
        the end it went on: the first playable end showing the move's suit.
        """
        self._check_turn(seat)
        try:
            if move.tile not in self.hands[seat]:
                raise IllegalMoveError
            ends, index = ends_after(self.rules, self.ends, move)
        except IllegalMoveError:
            raise IllegalMoveError(f"{move} is not a legal move for seat {seat}.") from None
        self._remove(seat, move.tile)
        self.ends = ends
        self._after_play(seat, move, index, opening=False)
        return index

    def _after_play(self, seat: int, move: Move, index: int, opening: bool) -> None:
        suits = self.ends_suits()
        stitched = not opening and is_stitch_up(suits)
        if stitched:
            self.stitch_ups[seat] += 1
        self._emit(Event("play", seat=seat, tile=move.tile, suit=move.suit,
                         end_index=index, ends=suits, stitch_up=stitched))
        self.knocked_since_play.clear()
        if ends_by_out(self.rules, self.hands, seat):
            self._finish("out", out_seat=seat)
            return
        self.to_move = self._next_seat(seat)

    def draw(self, seat: int) -> tuple[int, int]:
        """``seat``, having no legal move, takes the next sleeping tile (see :meth:`must_draw`)."""
        self._check_turn(seat)
        if self.legal_moves(seat):
            raise IllegalMoveError(f"Seat {seat} has a legal move and must play it.")
        if self.drawable() <= 0:
            raise IllegalMoveError(f"Seat {seat} cannot draw: no tile may be drawn.")
        if not self.may_draw(seat):
            raise IllegalMoveError(f"Seat {seat} has drawn its one tile this turn.")
        tile = self.boneyard.pop(0)
        self.hands[seat].append(tile)
        self.hands[seat].sort(key=tile_id)
        # The draw itself tells the table that the seat held none of the playable suits, but the
        # tile drawn is unknown, so nothing is known about the hand it now holds.
        self.lacks[seat] = set()
        self._emit(Event("draw", seat=seat, tile=tile))
        return tile

    def knock(self, seat: int) -> None:
        """``seat`` passes: it has no legal move and may draw no more."""
        self._check_turn(seat)
        if self.legal_moves(seat):
            raise IllegalMoveError(f"Seat {seat} has a legal move and must play it.")
        if self.may_draw(seat):
            raise IllegalMoveError(f"Seat {seat} must draw before it knocks.")
        suits = self.playable_suits()
        self.lacks[seat] |= suits
        self._emit(Event("knock", seat=seat, suits=tuple(sorted(suits))))
        self.knocked_since_play.add(seat)
        holding = {s for s in range(self.rules.players) if self.hands[s]}
        if is_blocked(holding, self.knocked_since_play, self.drawable()):
            self._finish("blocked")
            return
        self.to_move = self._next_seat(seat)

    # ------------------------------------------------------------------ the end
    def _finish(self, how: str, out_seat: int = -1) -> None:
        self.over = True
        self.how = how
        self.out_seat = out_seat
        left = self.pips_left()
        self.winning_side, self.points = score(self.rules, left, out_seat)
        self._emit(Event("end", how=how, winning_side=self.winning_side,
                                 points=self.points, pips=tuple(left)))


def score(rules: Rules, pips_left: list[int], out_seat: int = -1) -> tuple[int, int]:
    """``(winning_side, points)`` of a finished hand; ``out_seat`` is -1 for a blocked hand.

    >>> r = Rules(max_pip=6, players=4, hand_size=6, partnerships=True)
    >>> score(r, [10, 8, 3, 12])          # docs/rules.md example 5: 20 - 13
    (0, 7)
    >>> score(r, [7, 10, 0, 5], out_seat=2)  # example 6: the partner's 7 never count
    (0, 15)
    >>> score(Rules(max_pip=6, players=3, hand_size=6, scoring="balance"), [4, 9, 12])
    (0, 13)
    >>> score(Rules(max_pip=6, players=3, hand_size=6), [4, 4, 9])
    (-1, 0)
    """
    side_pips = [sum(pips_left[s] for s in rules.seats_of(k)) for k in range(rules.n_sides)]
    if out_seat >= 0:
        winner = rules.side_of(out_seat)
    else:
        low = min(side_pips)
        if side_pips.count(low) > 1:
            return -1, 0
        winner = side_pips.index(low)
    if not counts_pips(rules):
        return winner, 1
    if rules.scoring == "spots":
        won = set(rules.seats_of(winner))
        losers = sum(p for s, p in enumerate(pips_left) if s not in won)
        return winner, losers - (side_pips[winner] if out_seat < 0 else 0)
    if rules.scoring == "balance":  # individual play: from each opponent, its pips less the winner's
        mine = pips_left[winner]
        return winner, sum(p - mine for s, p in enumerate(pips_left) if s != winner)
    raise _no_rule("scoring", rules.scoring, SCORINGS)
