"""The reference game state: the rule book (docs/rules.md) as plain Python, one small function per rule.

Tiles are ``(a, b)`` tuples with ``a <= b``; a move is ``Move(tile, suit)``: the tile goes on an open
end showing ``suit`` (``suit = -1`` for the lead of ``opening='any'`` onto an empty table). Legal
moves are listed in one canonical order, by tile id and then suit, in both engines.

The state knows nothing of strategies or randomness: the hand loop in :mod:`dominosim.reference`
asks the strategies and the random streams, and calls the operations here, each of which checks the
rule it applies and raises :class:`IllegalMoveError` when asked to break it.

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

from dataclasses import dataclass, field
from typing import NamedTuple

from .rules import Rules
from .tiles import is_double, other_suit, pips, tile_id


class IllegalMoveError(Exception):
    """A move, draw or knock that the rules do not allow in the current position."""


class Move(NamedTuple):
    """A tile and the suit of the open end it is played on (-1: the lead onto an empty table)."""

    tile: tuple[int, int]
    suit: int


def move_key(move: Move) -> tuple[int, int]:
    """The canonical order of moves, shared by both engines: tile id, then suit."""
    return tile_id(move.tile), move.suit


@dataclass
class End:
    """One open end of the layout: the suit it shows, and whether it is an unfilled arm of the
    opening double (only meaningful under ``fill_opening_first``)."""

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
    winning_side: int = -1
    points: int = 0
    pips: tuple[int, ...] = ()


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
    winning_side: int = -1
    points: int = 0
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
        """Indices of the ends a tile may go on: only empty arms of the opening double while any
        remains under ``fill_opening_first``, every end otherwise."""
        if self.rules.fill_opening_first and any(e.empty_arm for e in self.ends):
            return [i for i, e in enumerate(self.ends) if e.empty_arm]
        return list(range(len(self.ends)))

    def playable_suits(self) -> set[int]:
        """Suits shown by at least one playable end."""
        return {self.ends[i].suit for i in self.playable_ends()}

    def is_stitched_up(self) -> bool:
        """At least two open ends, all showing one suit (playable or not)."""
        return len(self.ends) >= 2 and len({e.suit for e in self.ends}) == 1

    def pips_left(self) -> list[int]:
        """Pips in each seat's hand."""
        return [sum(pips(t) for t in h) for h in self.hands]

    def drawable(self) -> int:
        """Tiles a seat may still draw: none in Block, the boneyard less ``boneyard_keep`` otherwise."""
        if not self.rules.can_draw:
            return 0
        return max(0, len(self.boneyard) - self.rules.boneyard_keep)

    # ------------------------------------------------------------------ moves
    def legal_moves(self, seat: int) -> list[Move]:
        """The distinct legal moves of ``seat``, in canonical order (empty if it must draw or knock).

        Before the opening, under ``opening='any'``, the leader may lead any tile (suit -1).
        """
        if not self.ends:
            if self.rules.opening == "any" and seat == self.rules.leader:
                return [Move(t, -1) for t in self.hands[seat]]
            return []
        suits = self.playable_suits()
        moves = {Move(t, v) for t in self.hands[seat] for v in set(t) if v in suits}
        return sorted(moves, key=move_key)

    def _next_seat(self, seat: int) -> int:
        nxt = (seat + 1) % self.rules.players
        if self.rules.end == "team_out":
            while not self.hands[nxt]:
                nxt = (nxt + 1) % self.rules.players
        return nxt

    def _remove(self, seat: int, tile: tuple[int, int]) -> None:
        if tile not in self.hands[seat]:
            raise IllegalMoveError(f"Seat {seat} does not hold tile {tile}.")
        self.hands[seat].remove(tile)

    def open_with_highest_double(self) -> Move:
        """The forced opening: the holder of the highest double leads it. Raises if no seat holds a
        double (the deal must be redealt)."""
        for d in range(self.rules.max_pip, -1, -1):
            for seat, hand in enumerate(self.hands):
                if (d, d) in hand:
                    self._remove(seat, (d, d))
                    self.opener = seat
                    self.opening_tile = (d, d)
                    fill = self.rules.fill_opening_first
                    self.ends = [End(d, fill) for _ in range(self.rules.opening_arms)]
                    self._after_play(seat, Move((d, d), d), -1, opening=True)
                    return Move((d, d), d)
        raise IllegalMoveError("No seat holds a double: the deal must be redealt.")

    def lead(self, move: Move) -> None:
        """The opening under ``opening='any'``: the leader puts any tile of its hand down."""
        seat = self.rules.leader
        if self.ends or self.rules.opening != "any":
            raise IllegalMoveError("A lead is only for the first play under opening='any'.")
        if move not in self.legal_moves(seat):
            raise IllegalMoveError(f"Seat {seat} cannot lead {move}.")
        self._remove(seat, move.tile)
        a, b = move.tile
        self.opener = seat
        self.opening_tile = move.tile
        self.ends = [End(a), End(b)]
        self._after_play(seat, move, -1, opening=True)

    def play(self, seat: int, move: Move) -> int:
        """Play ``move`` for ``seat`` (who must be to move and the move legal); returns the index of
        the end it went on: the first playable end showing the move's suit."""
        if self.over or seat != self.to_move or not self.ends:
            raise IllegalMoveError(f"Seat {seat} is not to play now.")
        # legal: the seat holds the tile, the tile holds the suit, a playable end shows it
        playable = [i for i in self.playable_ends() if self.ends[i].suit == move.suit]
        if move.tile not in self.hands[seat] or move.suit not in move.tile or not playable:
            raise IllegalMoveError(f"{move} is not a legal move for seat {seat}.")
        self._remove(seat, move.tile)
        index = playable[0]
        self.ends[index] = End(other_suit(move.tile, move.suit))
        if is_double(move.tile) and self.rules.doubles_branch:
            self.ends += [End(move.suit), End(move.suit)]
        self._after_play(seat, move, index, opening=False)
        return index

    def _after_play(self, seat: int, move: Move, index: int, opening: bool) -> None:
        stitched = not opening and self.is_stitched_up()
        if stitched:
            self.stitch_ups[seat] += 1
        self._emit(Event("play", seat=seat, tile=move.tile, suit=move.suit,
                                 end_index=index, ends=self.ends_suits(), stitch_up=stitched))
        self.knocked_since_play.clear()
        if not self.hands[seat]:
            side = self.rules.side_of(seat)
            if self.rules.end == "out" or all(not self.hands[s] for s in self.rules.seats_of(side)):
                self._finish("out", out_seat=seat)
                return
        self.to_move = self._next_seat(seat)

    def draw(self, seat: int) -> tuple[int, int]:
        """``seat``, having no legal move, takes the next sleeping tile."""
        if self.over or seat != self.to_move or not self.ends:
            raise IllegalMoveError(f"Seat {seat} is not to play now.")
        if self.legal_moves(seat):
            raise IllegalMoveError(f"Seat {seat} has a legal move and must play it.")
        if self.drawable() <= 0:
            raise IllegalMoveError(f"Seat {seat} cannot draw: no tile may be drawn.")
        if self.rules.draw == "one" and self.events and self.events[-1].kind == "draw" \
                and self.events[-1].seat == seat:
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
        if self.over or seat != self.to_move or not self.ends:
            raise IllegalMoveError(f"Seat {seat} is not to play now.")
        if self.legal_moves(seat):
            raise IllegalMoveError(f"Seat {seat} has a legal move and must play it.")
        drew_this_turn = bool(self.events) and self.events[-1].kind == "draw" \
            and self.events[-1].seat == seat
        if self.drawable() > 0 and not (self.rules.draw == "one" and drew_this_turn):
            raise IllegalMoveError(f"Seat {seat} must draw before it knocks.")
        suits = self.playable_suits()
        self.lacks[seat] |= suits
        self._emit(Event("knock", seat=seat, suits=tuple(sorted(suits))))
        self.knocked_since_play.add(seat)
        holding = {s for s in range(self.rules.players) if self.hands[s]}
        if self.drawable() == 0 and holding <= self.knocked_since_play:
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
    if rules.scoring == "game":
        return winner, 1
    won = set(rules.seats_of(winner))
    losers = sum(p for s, p in enumerate(pips_left) if s not in won)
    if rules.scoring == "spots":
        return winner, losers - (side_pips[winner] if out_seat < 0 else 0)
    # balance: individual play; from each opponent, its pips minus the winner's.
    mine = pips_left[winner]
    return winner, sum(p - mine for s, p in enumerate(pips_left) if s != winner)
