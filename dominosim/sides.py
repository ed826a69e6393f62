"""Seats, sides and partners: the arithmetic of docs/rules.md's "Seats, sides and partnerships", in one place.

Seats ``0 .. players - 1`` sit in a circle and play passes to the left, seat ``s`` to seat
``s + 1``. With partnerships (an even number of 4 or more seats) seat ``s`` partners seat
``s + players / 2`` and there are ``players / 2`` sides, side ``k`` holding seats ``k`` and
``k + players / 2``; otherwise every seat is a side of its own.

:class:`~dominosim.rules.Rules` answers these questions for a rule set (``rules.side_of(seat)``
and so on) and the analysis layer, which may know only the ``players`` and ``partnerships`` columns
of some records, asks the same functions here. ``side_of`` also works on numpy arrays of seats.

Examples
--------
>>> n_sides(4, True), side_of(4, True, 3), seats_of(4, True, 1), partner_of(4, True, 1)
(2, 1, (1, 3), 3)
>>> n_sides(3, False), side_of(3, False, 2), seats_of(3, False, 2), partner_of(3, False, 2)
(3, 2, (2,), None)
>>> import numpy as np
>>> side_of(6, True, np.arange(6)).tolist()
[0, 1, 2, 0, 1, 2]
"""

from __future__ import annotations

from typing import Any


def n_sides(players: int, partnerships: bool) -> int:
    """How many sides: teams of two with partnerships, single seats otherwise."""
    return players // 2 if partnerships else players


def side_of(players: int, partnerships: bool, seat: Any) -> Any:
    """The side of ``seat`` (an int or a numpy array of seats): ``seat mod players/2`` with
    partnerships, the seat itself otherwise.
    """
    return seat % (players // 2) if partnerships else seat


def seats_of(players: int, partnerships: bool, side: int) -> tuple[int, ...]:
    """The seats on ``side``, in seat order."""
    return (side, side + players // 2) if partnerships else (side,)


def partner_of(players: int, partnerships: bool, seat: int) -> int | None:
    """The partner of ``seat`` with partnerships, None in individual play."""
    return (seat + players // 2) % players if partnerships else None


def relative_side(players: int, partnerships: bool, side: Any, seat: Any) -> Any:
    """``side`` counted from ``seat``'s side, going left: 0 is ``seat``'s own side, 1 the next
    side to its left, and so on (ints or numpy arrays; how the opener's side is compared).

    >>> relative_side(4, True, 0, 3), relative_side(3, False, 0, 2)
    (1, 1)
    """
    return (side - side_of(players, partnerships, seat)) % n_sides(players, partnerships)


def left_of(players: int, seat: int) -> int:
    """The seat to the left of ``seat``: the next one in the circle (turn order before any seat
    that is out is skipped, see :func:`dominosim.reference.game.next_seat`).
    """
    return (seat + 1) % players
