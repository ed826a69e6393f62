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

from .game import End, Event, GameState, Move, ends_after, is_stitch_up
from .rng import Stream
from .rules import Rules
from .sides import left_of
from .tiles import is_double, other_suit, pips, tile_id


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
    hidden : tuple or None
        Only for strategies marked ``omniscient`` (value-of-information experiments): every seat's
        hand and the boneyard in draw order. None for every other strategy.
    layout : tuple of End
        The open ends as the game state keeps them (:class:`~dominosim.game.End`: the suit, and
        whether it is an unfilled arm of the opening double), for :meth:`ends_after`.
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
    hidden: tuple[tuple[tuple[tuple[int, int], ...], ...], tuple[tuple[int, int], ...]] | None = None
    layout: tuple[End, ...] = ()

    @property
    def partner(self) -> int | None:
        """The partner's seat with partnerships, else None."""
        return self.rules.partner_of(self.seat)

    def ends_after(self, move: Move) -> tuple[int, ...]:
        """The suits showing on the open ends after ``move``, in order (the game's own rule,
        :func:`dominosim.game.ends_after`: where the tile goes, branching doubles).

        >>> from dominosim.game import GameState
        >>> rules = Rules.preset("ivory", players=2)
        >>> state = GameState.from_deal(rules, [[(6, 6), (1, 3)], [(3, 6), (3, 3)]], [])
        >>> _ = state.open_with_highest_double()
        >>> view_of(state, 1).ends_after(Move((3, 6), 6))
        (3, 6)
        """
        return tuple(e.suit for e in ends_after(self.rules, self.layout, move)[0])


def view_of(state: GameState, seat: int, omniscient: bool = False) -> SeatView:
    """The view of ``seat`` in ``state``: nothing hidden from that seat leaks into it, unless
    ``omniscient`` (then :attr:`SeatView.hidden` holds every hand and the boneyard)."""
    playable = set(state.playable_ends())
    history = tuple(state.seen[seat])
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
        hidden=(tuple(tuple(h) for h in state.hands), tuple(state.boneyard)) if omniscient
        else None,
        layout=tuple(state.ends),
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


def heaviest_move(move: Move) -> tuple[int, bool, int, int]:
    return pips(move.tile), is_double(move.tile), tile_id(move.tile), move.suit


class BullyStrategy:
    """Heaviest tile first; ties: a double, then the higher tile id, then the higher suit."""

    name = "bully"

    def choose(self, view: SeatView, moves: Sequence[Move], rng: Stream) -> Move:
        return max(moves, key=heaviest_move)


class DoublesStrategy:
    """Doubles first (heaviest double first), then as ``bully``."""

    name = "doubles"

    def choose(self, view: SeatView, moves: Sequence[Move], rng: Stream) -> Move:
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
        left = other_suit(move.tile, move.suit)
        return (sum(1 for t in view.hand if t != move.tile and left in t),)


class StitcherStrategy(_Style):
    """Stitch up on a suit you hold and every opponent lacks; avoid other stitch-ups."""

    name = "stitcher"

    def key(self, view: SeatView, move: Move) -> tuple[int, ...]:
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
        if view.partner is None:
            return (0, 0)
        suits = set(view.ends_after(move))
        blocks = suits <= view.known_lacks[view.partner]
        played = [e.tile for e in view.history if e.kind == "play" and e.seat == view.partner]
        fed = sum(1 for v in suits for t in played if v in t)
        return (0 if blocks else 1, fed)


class FunctionStrategy:
    """Wraps a plain function ``f(view, moves, rng) -> Move`` as a strategy."""

    def __init__(self, func: Callable[[SeatView, Sequence[Move], Stream], Move]) -> None:
        self.func = func
        self.name = getattr(func, "__name__", "custom")

    def choose(self, view: SeatView, moves: Sequence[Move], rng: Stream) -> Move:
        return self.func(view, moves, rng)


def _search(name: str) -> Callable[[], Any]:
    def make() -> Any:
        from .search import SearchStrategy  # the search module builds on this one

        return SearchStrategy.from_name(name)

    make.__name__ = name
    return make


BUILTINS: dict[str, Callable[[], Any]] = {
    "random": RandomStrategy,
    "bully": BullyStrategy,
    "doubles": DoublesStrategy,
    "accompanied": AccompaniedStrategy,
    "stitcher": StitcherStrategy,
    "counter": CounterStrategy,
    "partner": PartnerStrategy,
    "mc": _search("mc"),
    "ismcts": _search("ismcts"),
    "mc_omniscient": _search("mc_omniscient"),
    "ismcts_omniscient": _search("ismcts_omniscient"),
}
"""Built-in strategies by name; the compiled engine numbers them in this order. The search
strategies (:mod:`dominosim.search`) also take a budget: ``"mc:200"``."""
SEARCHES = ("mc", "ismcts", "mc_omniscient", "ismcts_omniscient")
"""The built-in search strategies (:mod:`dominosim.search`)."""
STYLES = tuple(name for name in BUILTINS if name not in SEARCHES)
"""The built-ins that do not search: a rule each, thousands of times cheaper than a search."""


def resolve(strategy: Any) -> Strategy:
    """A strategy object from a built-in name, an object with ``choose``, or a function.

    >>> resolve("random").name
    'random'
    >>> resolve("rnadom")
    Traceback (most recent call last):
    ...
    ValueError: The value for `strategies` must be a built-in name (one of 'random', 'bully', 'doubles', 'accompanied', 'stitcher', 'counter', 'partner', 'mc', 'ismcts', 'mc_omniscient', 'ismcts_omniscient'; a search with a budget as 'mc:200'), an object with a choose(view, moves, rng) method, or a function, but 'rnadom' was passed.
    """
    if isinstance(strategy, str) and strategy in BUILTINS:
        return BUILTINS[strategy]()
    if isinstance(strategy, str) and ":" in strategy:
        from .search import SearchStrategy

        return SearchStrategy.from_name(strategy)
    if hasattr(strategy, "choose") and callable(strategy.choose):
        return strategy
    if callable(strategy) and not isinstance(strategy, str):
        return FunctionStrategy(strategy)
    names = ", ".join(repr(n) for n in BUILTINS)
    raise ValueError(
        f"The value for `strategies` must be a built-in name (one of {names}; a search with a "
        f"budget as 'mc:200'), an object with a choose(view, moves, rng) method, or a function, "
        f"but {strategy!r} was passed.")


def per_seat(rules: Rules, strategies: Any) -> list[Any]:
    """The line-up as one entry per seat: a single strategy (name or object) sits at every seat."""
    if isinstance(strategies, str) or not isinstance(strategies, (list, tuple)):
        strategies = [strategies] * rules.players
    if len(strategies) != rules.players:
        raise ValueError(
            f"The value for `strategies` must name one strategy per seat ({rules.players}) or a "
            f"single strategy for all, but {len(strategies)} were passed.")
    return list(strategies)


def resolve_lineup(rules: Rules, strategies: Any) -> list[Strategy]:
    """One strategy object per seat (see :func:`per_seat`)."""
    return [resolve(s) for s in per_seat(rules, strategies)]
