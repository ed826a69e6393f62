"""What a seat sees when it is to move: :class:`SeatView` and :func:`view_of`.

A strategy reads only this view: its own hand, the open ends and which are playable, the public
history, every seat's tile count, the boneyard size, and the suits each seat is known to lack.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..reference.game import End, Event, GameState, Move, ends_after
from ..rules import Rules


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
        The open ends as the game state keeps them (:class:`~dominosim.reference.game.End`: the suit, and
        whether it is an unfilled arm of the opening double), for :meth:`ends_after`.
    to_move : int
        The seat whose turn it is (``seat`` itself when a strategy is asked to choose; a
        :meth:`dominosim.Position.view` may be of another seat; -1 once the hand is over).
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
    to_move: int = -1

    @property
    def partner(self) -> int | None:
        """The partner's seat with partnerships, else None."""
        return self.rules.partner_of(self.seat)

    def ends_after(self, move: Move) -> tuple[int, ...]:
        """The suits showing on the open ends after ``move``, in order (the game's own rule,
        :func:`dominosim.reference.game.ends_after`: where the tile goes, branching doubles).

        >>> from dominosim.reference.game import GameState
        >>> rules = Rules.preset("ivory", players=2)
        >>> state = GameState.from_deal(rules, [[(6, 6), (1, 3)], [(3, 6), (3, 3)]], [])
        >>> _ = state.open_with_highest_double()
        >>> view_of(state, 1).ends_after(Move((3, 6), 6))
        (3, 6)
        """
        return tuple(e.suit for e in ends_after(self.rules, self.layout, move)[0])


def view_of(state: GameState, seat: int, omniscient: bool = False,
            to_move: int | None = None) -> SeatView:
    """The view of ``seat`` in ``state``: nothing hidden from that seat leaks into it, unless
    ``omniscient`` (then :attr:`SeatView.hidden` holds every hand and the boneyard).

    ``to_move`` is the seat whose turn it is (default: the state's, or -1 once it is over; a
    position before the opening knows better, :attr:`dominosim.Position.to_move`). The history
    holds the plays, draws and knocks, not the end of the hand.
    """
    playable = set(state.playable_ends())
    history = tuple(e for e in state.seen[seat] if e.kind != "end")
    if to_move is None:
        to_move = -1 if state.over else state.to_move
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
        to_move=to_move,
    )


