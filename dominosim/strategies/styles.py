"""The built-in player styles, and the strategy protocol.

A strategy is any object with a ``choose(view, moves, rng)`` method, or a plain function
``f(view, moves, rng)``, that returns one of ``moves``. It is asked only when the seat has two or more
legal moves (a single legal move, and the forced opening double, are played without asking it).

* ``view`` (:class:`SeatView`) is all a player at the table sees: its own hand, the open ends and
  which are playable, the public history, every seat's tile count, the boneyard size, and the suits
  each seat is known to lack.
* ``moves`` are the distinct legal moves (:class:`~dominosim.reference.game.Move`) in canonical order.
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
``accompanied``
    The tile whose other suit (the suit it leaves showing) you hold most of among your other
    tiles (the rule Moreno Montiel et al. 2020 found best among simple ones); ties as ``bully``.
``stitcher``
    Seeks stitch-ups on a suit it still holds and every opponent is known to lack; avoids
    stitch-ups on any other suit; otherwise, and on ties, as ``bully``.
``counter``
    Leaves as many distinct suits showing as it can that the next seat (its left-hand opponent)
    is known to lack, less those its partner is known to lack; ties as ``bully``.
``partner``
    Never leaves only suits its partner is known to lack when it can help it; then feeds the suits
    its partner has played (the number of the partner's played tiles holding each suit left
    showing); ties as ``bully``. Without partnerships it plays as ``bully``.

The four styles read only public knowledge (knocks, draws, plays) and their own hand. Every
deterministic built-in leads its heaviest tile when ``opening='any'`` (the ``bully`` key).

Examples
--------
>>> from dominosim.reference.game import Move
>>> moves = [Move((1, 2), 2), Move((0, 0), 0), Move((2, 4), 2), Move((2, 4), 4)]
>>> BullyStrategy().choose(None, moves, None)
Move(tile=(2, 4), suit=4)
>>> DoublesStrategy().choose(None, moves, None)
Move(tile=(0, 0), suit=0)
"""


from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from ..reference.game import Move, is_stitch_up
from ..rng import Stream
from ..sides import left_of
from ..tiles import is_double, other_suit, pips, tile_id
from .view import SeatView


class Strategy(Protocol):
    """The strategy protocol: ``choose`` returns one of ``moves``."""

    name: str

    def choose(self, view: SeatView, moves: Sequence[Move], rng: Stream) -> Move:
        """One of ``moves`` (never empty), from what ``view`` shows; ``rng`` is the seat's own
        random stream.
        """
        ...


class RandomStrategy:
    """Uniform over the distinct legal moves (one random number per decision)."""

    name = "random"

    def choose(self, view: SeatView, moves: Sequence[Move], rng: Stream) -> Move:
        """A move drawn uniformly with one number of ``rng``."""
        return moves[rng.below(len(moves))]


def heaviest_move(move: Move) -> tuple[int, bool, int, int]:
    """The order of ``bully``: the pips, then a double, then the tile id, then the suit."""
    return pips(move.tile), is_double(move.tile), tile_id(move.tile), move.suit


class BullyStrategy:
    """Heaviest tile first; ties: a double, then the higher tile id, then the higher suit."""

    name = "bully"

    def choose(self, view: SeatView, moves: Sequence[Move], rng: Stream) -> Move:
        """The heaviest move (:func:`heaviest_move`)."""
        return max(moves, key=heaviest_move)


class DoublesStrategy:
    """Doubles first (heaviest double first), then as ``bully``."""

    name = "doubles"

    def choose(self, view: SeatView, moves: Sequence[Move], rng: Stream) -> Move:
        """The heaviest double, else the heaviest move."""
        return max(moves, key=lambda m: (is_double(m.tile), *heaviest_move(m)))


class _Style:
    """A deterministic style: the move with the largest ``key``, then the ``bully`` key."""

    name = "style"

    def key(self, view: SeatView, move: Move) -> tuple[int, ...]:
        raise NotImplementedError

    def choose(self, view: SeatView, moves: Sequence[Move], rng: Stream) -> Move:
        if moves[0].suit < 0:  # the lead under opening='any'
            return max(moves, key=heaviest_move)
        return max(moves, key=lambda m: (*self.key(view, m), *heaviest_move(m)))


class AccompaniedStrategy(_Style):
    """The tile whose other suit you hold most of; ties as ``bully``."""

    name = "accompanied"

    def key(self, view: SeatView, move: Move) -> tuple[int, ...]:
        """Tiles left in hand that hold the suit the move leaves showing."""
        left = other_suit(move.tile, move.suit)
        return (sum(1 for t in view.hand if t != move.tile and left in t),)


class StitcherStrategy(_Style):
    """Stitch up on a suit you hold and every opponent lacks; avoid other stitch-ups."""

    name = "stitcher"

    def key(self, view: SeatView, move: Move) -> tuple[int, ...]:
        """2 for a stitch-up it wants, 1 for no stitch-up, 0 for one it does not want."""
        ends = view.ends_after(move)
        if not is_stitch_up(ends):
            return (1,)
        suit = ends[0]
        mine = any(suit in t for t in view.hand if t != move.tile)
        lacking = all(suit in view.known_lacks[s] for s in view.rules.opponents_of(view.seat))
        return (2,) if mine and lacking else (0,)


class CounterStrategy(_Style):
    """Leave suits the next seat lacks showing, less those the partner lacks."""

    name = "counter"

    def key(self, view: SeatView, move: Move) -> tuple[int, ...]:
        """The suits left showing that the next seat lacks, less those the partner lacks."""
        suits = set(view.ends_after(move))
        nxt = left_of(view.rules.players, view.seat)
        score = len(suits & view.known_lacks[nxt])
        if view.partner is not None:
            score -= len(suits & view.known_lacks[view.partner])
        return (score,)


class PartnerStrategy(_Style):
    """Do not block the partner; feed the suits the partner has played."""

    name = "partner"

    def key(self, view: SeatView, move: Move) -> tuple[int, ...]:
        """Whether the partner can still play, then how many of its played suits stay showing."""
        if view.partner is None:
            return (0, 0)
        suits = set(view.ends_after(move))
        blocks = suits <= view.known_lacks[view.partner]
        played = [e.move.tile for e in view.history if e.kind == "play" and e.seat == view.partner]
        fed = sum(1 for v in suits for t in played if v in t)
        return (0 if blocks else 1, fed)


class FunctionStrategy:
    """Wraps a plain function ``f(view, moves, rng) -> Move`` as a strategy."""

    def __init__(self, func: Callable[[SeatView, Sequence[Move], Stream], Move]) -> None:
        self.func = func
        self.name = getattr(func, "__name__", "custom")

    def choose(self, view: SeatView, moves: Sequence[Move], rng: Stream) -> Move:
        """What the function returns."""
        return self.func(view, moves, rng)


