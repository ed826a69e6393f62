"""Positions: the full state of a hand at one moment, and what one seat sees of it.

A :class:`Position` holds the rules, every hand, the boneyard in draw order, the open ends, the
history and the seat to move. It is built on the reference engine's
:class:`~dominosim.reference.game.GameState` (the rule book in plain Python): a position is a state of that
engine, and every step to another position is one of its operations. Build one from a deal
(:meth:`Position.from_deal`) or from a played hand (``log.position(k)``, see
:func:`position_of`).

Examples
--------
>>> from dominosim.rules import Rules
>>> rules = Rules.preset("block", players=2, max_pip=2, hand_size=3)
>>> pos = Position.from_deal(rules, [[(2, 2), (0, 1), (1, 1)], [(1, 2), (0, 0), (0, 2)]])
>>> pos.to_move, pos.opened, pos.legal_moves()
(0, False, [Move(tile=(2, 2), suit=2)])
>>> after = pos.after(pos.legal_moves()[0])
>>> after.to_move, after.ends, after.legal_moves()
(1, (2, 2), [Move(tile=(0, 2), suit=2), Move(tile=(1, 2), suit=2)])
>>> after.view(1).hand, after.view(1).tile_counts
(((0, 0), (0, 2), (1, 2)), (2, 3))
"""

from __future__ import annotations

import copy
import numbers
from typing import Any

from ..reference.game import (
    Event,
    GameState,
    IllegalMoveError,
    Move,
    highest_double,
    opens_with_double,
)
from ..rules import Rules, check_rules
from ..strategies.view import SeatView, view_of
from ..tiles import HIDDEN, label, pips

__all__ = ["Position", "SeatView", "position_of"]


class Position:
    """The full state of a hand at one moment (see the module documentation).

    Build one with :meth:`from_deal` or ``log.position(k)``; a position is never changed in place:
    :meth:`after` returns the next one.

    Attributes
    ----------
    rules : Rules
    hands : tuple of tuples of (a, b)
        Every seat's tiles, in tile-id order.
    boneyard : tuple of (a, b)
        The sleeping tiles in draw order.
    ends : tuple of int
        The suit showing on every open end, in the order the ends were opened (empty before the
        opening).
    history : tuple of Event
        Every play, draw and knock so far.
    to_move : int
        The seat whose turn it is (-1 once the hand is over).
    """

    def __init__(self, state: GameState) -> None:
        self._state = state

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_deal(cls, rules: Rules, hands: Any, boneyard: Any = ()) -> Position:
        """The position before the opening: ``hands`` a list per seat of ``(a, b)`` tiles,
        ``boneyard`` the sleeping tiles in draw order.

        Every tile of the set must appear at most once; a Block game takes no boneyard that could be
        drawn, but the tiles may be listed (they stay asleep).

        Examples
        --------
        >>> from dominosim.rules import Rules
        >>> rules = Rules.preset("draw", players=2, max_pip=2, hand_size=2)
        >>> pos = Position.from_deal(rules, [[(0, 0), (1, 2)], [(2, 2), (0, 1)]], [(1, 1), (0, 2)])
        >>> pos.to_move, pos.boneyard
        (1, ((1, 1), (0, 2)))
        """
        check_rules(rules)
        hands = [[_tile(rules, t, "hands") for t in hand] for hand in _seq(hands, "hands", True)]
        boneyard = [_tile(rules, t, "boneyard") for t in _seq(boneyard, "boneyard")]
        every = [t for h in hands for t in h] + boneyard
        if len(set(every)) != len(every):
            twice = sorted({t for t in every if every.count(t) > 1})
            raise ValueError(f"The value for `hands` and `boneyard` must hold each tile once, but "
                             f"{twice} appear more than once.")
        state = GameState.from_deal(rules, hands, boneyard)
        if opens_with_double(rules) and highest_double(state.hands, rules.max_pip) is None:
            raise ValueError("The value for `hands` must give some seat a double under "
                             "opening='highest_double' (the deal would be redealt), but none holds "
                             "one.")
        return cls(state)

    @property
    def hidden(self) -> int:
        """How many tiles of the hands and the boneyard nobody saw (a typed-in hand, see
        :mod:`dominosim.reference.handfile`; 0 for a dealt or replayed hand).
        """
        state = self._state
        return sum(h.count(HIDDEN) for h in state.hands) + state.boneyard.count(HIDDEN)

    def check_known(self, what: str, seat: int | None = None) -> None:
        """Refuse (``ValueError``) to ``what`` this position when its hidden tiles matter: all of
        them (``seat`` None: the solver needs every hand), or the tiles of ``seat``, whose moves
        are analysed.
        """
        if seat is None and self.hidden:
            raise ValueError(f"The value for `position` must have every hand and the boneyard "
                             f"known to {what} it (perfect information), but {self.hidden} tiles "
                             "of this typed-in hand are hidden: ds.analyze values the moves from "
                             "what the seat to move sees.")
        if seat is not None and HIDDEN in self._state.hands[seat]:
            raise ValueError(f"The value for `position` must have the tiles of the seat to move "
                             f"known to {what} it, but seat {seat} is to move and its tiles are "
                             "hidden (its knocks and plays are not known either).")

    def after(self, move: Move | tuple) -> Position:
        """The position after the seat to move plays ``move`` (the opening included), and then
        draws and knocks the rules force until a seat has a choice or the hand ends.
        """
        state = copy.deepcopy(self._state)
        move = Move(*move)
        if not state.ends:
            if not opens_with_double(self.rules):
                state.lead(move)
            else:
                forced = state.open_with_highest_double()
                if forced != move:
                    raise IllegalMoveError(f"{move} is not a legal move: the opening is {forced}.")
        else:
            state.play(state.to_move, move)
        return Position(_settled(state))

    def settled(self) -> Position:
        """The position after the draws and knocks the rules force on the seat to move (itself
        when the seat to move has a legal move, the hand is over or not yet opened).
        """
        return Position(_settled(copy.deepcopy(self._state)))

    # ------------------------------------------------------------------ what it holds
    @property
    def rules(self) -> Rules:
        """The rules of the hand."""
        return self._state.rules

    @property
    def hands(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """Every seat's tiles."""
        return tuple(tuple(h) for h in self._state.hands)

    @property
    def boneyard(self) -> tuple[tuple[int, int], ...]:
        """The sleeping tiles in draw order."""
        return tuple(self._state.boneyard)

    @property
    def ends(self) -> tuple[int, ...]:
        """The suit showing on every open end, in the order the ends were opened."""
        return self._state.ends_suits()

    @property
    def history(self) -> tuple[Event, ...]:
        """Every play, draw and knock so far."""
        return tuple(e for e in self._state.events if e.kind != "end")

    @property
    def opened(self) -> bool:
        """Whether the opening play has been made."""
        return bool(self._state.ends)

    @property
    def over(self) -> bool:
        """Whether the hand is over."""
        return self._state.over

    @property
    def state(self) -> GameState:
        """A copy of the reference engine's state of this position."""
        return copy.deepcopy(self._state)

    @property
    def to_move(self) -> int:
        """The seat whose turn it is (the opener before the opening; -1 once the hand is over)."""
        state = self._state
        if state.over:
            return -1
        if not state.ends:
            if not opens_with_double(self.rules) and self.rules.leader is not None:
                return self.rules.leader
            found = highest_double(state.hands, self.rules.max_pip)
            return -1 if found is None else found[0]  # a deal without a double is refused
        return state.to_move

    @property
    def outcome(self) -> tuple[int | None, int | None] | None:
        """``(winning side, points)`` once the hand is over (-1: a tie; None where hidden tiles
        of a typed-in game decide), None before.
        """
        return (self._state.winning_side, self._state.points) if self._state.over else None

    def legal_moves(self) -> list[Move]:
        """The distinct legal moves of the seat to move in canonical order: the opening (the highest
        double, or any tile of the leader with suit -1), or its plays (empty when it must draw or
        knock, or the hand is over).
        """
        state = self._state
        if state.over:
            return []
        if not state.ends and opens_with_double(self.rules):
            found = highest_double(state.hands, self.rules.max_pip)
            return [] if found is None else [Move(found[1], found[1][0])]
        return state.legal_moves(self.to_move)

    def view(self, seat: int) -> SeatView:
        """What ``seat`` sees (:class:`dominosim.SeatView`, as a strategy sees it): its own tiles,
        the tile counts, the boneyard's size, the open ends and the public history (other seats'
        drawn tiles hidden).
        """
        if not isinstance(seat, int) or not 0 <= seat < self.rules.players:
            raise ValueError(f"The value for `seat` must be a seat from 0 to "
                             f"{self.rules.players - 1}, but {seat!r} was passed.")
        return view_of(self._state, seat, to_move=self.to_move)

    # ------------------------------------------------------------------ display
    def __str__(self) -> str:
        """The text board: the rules, the table, every hand and the boneyard."""
        rules, state = self.rules, self._state
        lines = [f"{rules!r}"]
        lines.append("table: " + (" ".join(str(s) for s in self.ends) + " showing, "
                                  f"{sum(e.kind == 'play' for e in state.events)} tiles down"
                                  if self.ends else "empty (before the opening)"))
        for s, hand in enumerate(state.hands):
            mark = " <- to move" if s == self.to_move else ""
            tiles = " ".join(label(t) for t in hand) or "(out)"
            spots = "?" if HIDDEN in hand else sum(pips(t) for t in hand)
            lines.append(f"seat {s} (side {rules.side_of(s)}, {len(hand)} tiles, "
                         f"{spots} pips): {tiles}{mark}")
        if rules.can_draw or state.boneyard:
            lines.append(f"boneyard ({len(state.boneyard)}, in draw order): "
                         + (" ".join(label(t) for t in state.boneyard) or "empty"))
        if state.over:
            side, points = state.winning_side, state.points
            lines.append(f"over ({state.how}): " + (
                "the winner not known" if side is None else "a tie" if side < 0
                else f"side {side} wins {'?' if points is None else points} points"))
        return "\n".join(lines)

    def __repr__(self) -> str:
        """One line: the rules, the tiles down and the seat to move."""
        return (f"Position({self.rules!r}, {sum(e.kind == 'play' for e in self._state.events)} "
                f"tiles down, to move: {self.to_move})")


def _seq(value: Any, name: str, nested: bool = False) -> list:
    """``value`` as a list (of lists, when ``nested``), or the error naming ``name``."""
    kinds = (list, tuple)
    if not isinstance(value, kinds) or (nested and not all(isinstance(h, kinds) for h in value)):
        allowed = "a list per seat of (a, b) tiles" if nested else "a list of (a, b) tiles"
        raise ValueError(f"The value for `{name}` must be {allowed}, but {_short(value)} was "
                         "passed.")
    return list(value)


def _short(value: Any) -> str:
    shown = " ".join(repr(value).split())
    return shown if len(shown) <= 200 else shown[:200] + "..."


def _tile(rules: Rules, tile: Any, name: str) -> tuple[int, int]:
    parts = tuple(tile) if isinstance(tile, (list, tuple)) else ()
    if len(parts) != 2 or not all(isinstance(x, numbers.Integral) and not isinstance(x, bool)
                                  for x in parts):  # (0.9, 1) is no tile: never rounded to 0-1
        raise ValueError(f"The value for `{name}` must hold (a, b) tiles of two integers, but "
                         f"{_short(tile)} was passed.")
    a, b = int(parts[0]), int(parts[1])
    if not (0 <= a <= rules.max_pip and 0 <= b <= rules.max_pip):
        raise ValueError(f"The value for `{name}` must hold tiles of the double-{rules.max_pip} "
                         f"set, but {tile!r} was passed.")
    return (min(a, b), max(a, b))


def _settled(state: GameState) -> GameState:
    """Apply the draws and knocks the rules force on the seat to move (the reference engine's own
    operations) until a seat has a legal move or the hand ends.
    """
    while state.ends and not state.over and HIDDEN not in state.hands[state.to_move] \
            and not state.legal_moves(state.to_move):  # a hidden hand's knocks are not known
        if state.may_draw(state.to_move):
            state.draw(state.to_move)
        else:
            state.knock(state.to_move)
    return state


def position_of(log: Any, k: int) -> Position:
    """The position of a played hand before event ``k`` of ``log.events`` (0: before the opening).

    Examples
    --------
    >>> import dominosim as ds
    >>> log = ds.replay(ds.Rules.preset("draw", players=2), "random", seed=3, hand=0)
    >>> log.position(0).opened, log.position(1).opened
    (False, True)
    >>> log.position(len(log.events)).over
    True
    """
    n = len(log.events)
    if isinstance(k, numbers.Integral) and not isinstance(k, bool):
        k = int(k)  # an index read from a table (``ds.review``'s ``event``) is a numpy integer
    if not isinstance(k, int) or not 0 <= k <= n:
        raise ValueError(f"The value for `k` must be an event index from 0 to {n}, but {k!r} was "
                         f"passed.")
    from ..reference.handfile import has_hidden, replay_events

    if has_hidden(log.deals[-1]):  # a typed-in game: tiles nobody saw stay hidden
        return Position(replay_events(log.rules, log.deals[-1], log.events[:k]).state)
    hands, boneyard = log.deals[-1]
    state = GameState.from_deal(log.rules, [list(h) for h in hands], list(boneyard))
    for event in log.events[:k]:
        if event.kind == "play":
            if not state.ends:
                if not opens_with_double(log.rules):
                    state.lead(Move(event.tile, -1))
                else:
                    state.open_with_highest_double()
            else:
                state.play(event.seat, Move(event.tile, event.suit))
        elif event.kind == "draw":
            state.draw(event.seat)
        elif event.kind == "knock":
            state.knock(event.seat)
    return Position(state)
