"""Strategies: what a seat sees, how it chooses, and the built-in player styles.

A strategy is any object with a ``choose(view, moves, rng)`` method, or a plain function
``f(view, moves, rng)``, that returns one of ``moves``. It is asked only when the seat has two or more
legal moves (a single legal move, and the forced opening double, are played without asking it).

* ``view`` (:class:`SeatView`) is all a player at the table sees: its own hand, the open ends and
  which are playable, the public history, every seat's tile count, the boneyard size, and the suits
  each seat is known to lack.
* ``moves`` are the distinct legal moves (:class:`~dominosim.game.Move`) in canonical order.
* ``rng`` (:class:`~dominosim.rng.Stream`) is the seat's own random stream for this hand: draw from it
  and from nothing else, so that hands replay exactly.

Built-ins, by name (their tie-breaking is part of their definition and identical in every engine):

``random``
    Uniform over the distinct legal moves: one ``rng.below(len(moves))`` per decision.
``bully``
    Heaviest tile first; among equally heavy tiles a double first, then the higher tile id; a
    non-double that fits two suits goes on the higher one. No randomness.
``doubles``
    Doubles first (the heaviest double), then as ``bully``. No randomness.

Examples
--------
>>> from dominosim.game import Move
>>> moves = [Move((1, 2), 2), Move((0, 0), 0), Move((2, 4), 2), Move((2, 4), 4)]
>>> resolve("bully").choose(None, moves, None)
Move(tile=(2, 4), suit=4)
>>> resolve("doubles").choose(None, moves, None)
Move(tile=(0, 0), suit=0)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .game import Event, GameState, Move
from .rng import Stream
from .rules import Rules
from .tiles import is_double, pips, tile_id


@dataclass(frozen=True)
class SeatView:
    """What seat ``seat`` sees when it is to move.

    Attributes
    ----------
    rules : Rules
    seat : int
    hand : tuple of (a, b)
        Its own tiles, by tile id.
    ends : tuple of int
        The suit showing on every open end, in the order the ends were opened.
    playable : tuple of bool
        Whether each end may be played on now (only unfilled arms while a cross is being filled).
    history : tuple of Event
        Every public event so far; tiles drawn by other seats are hidden (``tile=None``).
    tile_counts : tuple of int
        Tiles in each seat's hand.
    boneyard_size : int
    known_lacks : tuple of frozenset
        For each seat, the suits it is known to lack: suits that were playable when it knocked or
        was forced to draw, if it has drawn nothing since.
    opener : int
        The seat that made the opening play (-1 before it).
    """

    rules: Rules
    seat: int
    hand: tuple[tuple[int, int], ...]
    ends: tuple[int, ...]
    playable: tuple[bool, ...]
    history: tuple[Event, ...]
    tile_counts: tuple[int, ...]
    boneyard_size: int
    known_lacks: tuple[frozenset[int], ...]
    opener: int

    @property
    def partner(self) -> int | None:
        """The partner's seat with partnerships, else None."""
        if not self.rules.partnerships:
            return None
        return (self.seat + self.rules.players // 2) % self.rules.players


def view_of(state: GameState, seat: int) -> SeatView:
    """The view of ``seat`` in ``state``: nothing hidden from that seat leaks into it."""
    playable = set(state.playable_ends())
    history = tuple(
        e if e.kind != "draw" or e.seat == seat else Event("draw", seat=e.seat)
        for e in state.events
    )
    return SeatView(
        rules=state.rules,
        seat=seat,
        hand=tuple(state.hands[seat]),
        ends=state.ends_suits(),
        playable=tuple(i in playable for i in range(len(state.ends))),
        history=history,
        tile_counts=tuple(len(h) for h in state.hands),
        boneyard_size=len(state.boneyard),
        known_lacks=tuple(frozenset(x) for x in state.lacks),
        opener=state.opener,
    )


class Strategy(Protocol):
    """The strategy protocol: ``choose`` returns one of ``moves``."""

    name: str

    def choose(self, view: SeatView, moves: Sequence[Move], rng: Stream) -> Move: ...


class RandomStrategy:
    """Uniform over the distinct legal moves (one random number per decision)."""

    name = "random"

    def choose(self, view: SeatView, moves: Sequence[Move], rng: Stream) -> Move:
        return moves[rng.below(len(moves))]


def _heaviest(move: Move) -> tuple[int, bool, int, int]:
    return pips(move.tile), is_double(move.tile), tile_id(move.tile), move.suit


class BullyStrategy:
    """Heaviest tile first; ties: a double, then the higher tile id, then the higher suit."""

    name = "bully"

    def choose(self, view: SeatView, moves: Sequence[Move], rng: Stream) -> Move:
        return max(moves, key=_heaviest)


class DoublesStrategy:
    """Doubles first (heaviest double first), then as ``bully``."""

    name = "doubles"

    def choose(self, view: SeatView, moves: Sequence[Move], rng: Stream) -> Move:
        return max(moves, key=lambda m: (is_double(m.tile), *_heaviest(m)))


class FunctionStrategy:
    """Wraps a plain function ``f(view, moves, rng) -> Move`` as a strategy."""

    def __init__(self, func: Callable[[SeatView, Sequence[Move], Stream], Move]) -> None:
        self.func = func
        self.name = getattr(func, "__name__", "custom")

    def choose(self, view: SeatView, moves: Sequence[Move], rng: Stream) -> Move:
        return self.func(view, moves, rng)


BUILTINS: dict[str, Callable[[], Any]] = {
    "random": RandomStrategy,
    "bully": BullyStrategy,
    "doubles": DoublesStrategy,
}
"""Built-in strategies by name; the compiled engine numbers them in this order."""


def resolve(strategy: Any) -> Strategy:
    """A strategy object from a built-in name, an object with ``choose``, or a function.

    >>> resolve("random").name
    'random'
    >>> resolve("rnadom")
    Traceback (most recent call last):
    ...
    ValueError: The value for `strategies` must be a built-in name (one of 'random', 'bully', 'doubles'), an object with a choose(view, moves, rng) method, or a function, but 'rnadom' was passed.
    """
    if isinstance(strategy, str) and strategy in BUILTINS:
        return BUILTINS[strategy]()
    if hasattr(strategy, "choose") and callable(strategy.choose):
        return strategy
    if callable(strategy) and not isinstance(strategy, str):
        return FunctionStrategy(strategy)
    names = ", ".join(repr(n) for n in BUILTINS)
    raise ValueError(
        f"The value for `strategies` must be a built-in name (one of {names}), an object with a "
        f"choose(view, moves, rng) method, or a function, but {strategy!r} was passed.")


def resolve_lineup(rules: Rules, strategies: Any) -> list[Strategy]:
    """One strategy per seat: a single strategy (name or object) is given to every seat."""
    if isinstance(strategies, str) or not isinstance(strategies, (list, tuple)):
        strategies = [strategies] * rules.players
    if len(strategies) != rules.players:
        raise ValueError(
            f"The value for `strategies` must name one strategy per seat ({rules.players}) or a "
            f"single strategy for all, but {len(strategies)} were passed.")
    return [resolve(s) for s in strategies]
