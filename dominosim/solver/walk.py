"""The steps of a walk over every history of a small two-player hand, shared by
:func:`~dominosim.solver.best_response.best_response` and
:func:`~dominosim.solver.game_value.game_value`: a history (:class:`Node`), the step of a seat
with no legal move (:func:`settle`), the step of a play (:func:`played`) and the result of a finished
hand (:func:`result`). Every rule is decided by the reference engine's functions
(:mod:`dominosim.reference.game`); the walkers decide only who chooses the moves.
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

from ..reference.game import (
    Move,
    drawable,
    ends_after,
    ends_by_out,
    is_blocked,
    may_draw,
    next_seat,
    opening_ends,
    playable_suits,
    score,
)
from ..rules import Rules
from ..tiles import pips


class Node(NamedTuple):
    """A history of a hand: the state reached and what each seat has seen of it."""

    hands: tuple
    """Each seat's tiles, in tile order."""
    ends: tuple
    """The open ends (empty before the opening)."""
    bone: frozenset
    """The sleeping tiles."""
    seat: int
    """The seat to move."""
    knocked: frozenset
    """The seats that knocked since the last play."""
    drew: bool
    """Whether the seat to move has drawn this turn."""
    lacks: tuple
    """Each seat's suits it is known to lack (shown by its knocks since its last draw)."""
    plays: tuple
    """Each seat's played tiles, in tile order."""
    seen: tuple
    """Each seat's view of the events so far: ``('dealt', hand)`` first, then ``('play', seat,
    tile, suit)``, ``('knock', seat)`` and ``('draw', seat, tile)`` (``tile`` None for a draw of
    another seat)."""


def root(hands: tuple, bone, seat: int, seen: tuple) -> Node:
    """The history of a deal before its opening: ``seat`` to move, nothing played."""
    empty: frozenset = frozenset()
    return Node(hands, (), frozenset(bone), seat, empty, False, (empty,) * len(hands),
                ((),) * len(hands), seen)


def settle(rules: Rules, node: Node) -> list[Node] | None:
    """The step of a seat with no legal move: the equally likely histories that follow (one per
    sleeping tile when it draws, the next seat's turn when it knocks), or None when its knock
    blocks the hand (finished: :func:`result` of ``node.hands``, ``out_seat`` -1).
    """
    seat = node.seat
    to_draw = drawable(rules, len(node.bone))
    if may_draw(rules, to_draw, node.drew):
        lacks = _set(node.lacks, seat, frozenset())
        found = []
        for tile in sorted(node.bone):
            found.append(node._replace(
                hands=_set(node.hands, seat, tuple(sorted(node.hands[seat] + (tile,)))),
                bone=node.bone - {tile}, drew=True, lacks=lacks,
                seen=tuple(v + (("draw", seat, tile if s == seat else None),)
                           for s, v in enumerate(node.seen))))
        return found
    knocked = node.knocked | {seat}
    holding = {s for s, h in enumerate(node.hands) if h}
    if is_blocked(holding, set(knocked), to_draw):
        return None
    return [node._replace(
        seat=next_seat(rules, node.hands, seat), knocked=knocked, drew=False,
        lacks=_set(node.lacks, seat, node.lacks[seat] | playable_suits(rules, node.ends)),
        seen=tuple(v + (("knock", seat),) for v in node.seen))]


def played(rules: Rules, node: Node, move: Move) -> tuple[Node, bool]:
    """The history after ``move`` by the seat to move (the opening when nothing is down), and
    whether it ends the hand (then its ``seat`` is the one out: :func:`result` of its ``hands``).
    """
    seat = node.seat
    hands = _set(node.hands, seat, tuple(t for t in node.hands[seat] if t != move.tile))
    ends = opening_ends(rules, move.tile) if not node.ends else ends_after(rules, node.ends, move)[0]
    out = ends_by_out(rules, hands, seat)
    return node._replace(
        hands=hands, ends=tuple(ends), seat=seat if out else next_seat(rules, hands, seat),
        knocked=frozenset(), drew=False,
        plays=_set(node.plays, seat, tuple(sorted(node.plays[seat] + (move.tile,)))),
        seen=tuple(v + (("play", seat, move.tile, move.suit),) for v in node.seen)), out


def result(rules: Rules, hands: tuple, out_seat: int, seat: int) -> Fraction:
    """``seat``'s result of the hand finished with ``hands`` (``out_seat`` the seat out, -1 when
    blocked): 1 a win of its side, 1/2 a tie, 0 a loss.
    """
    winner, _ = score(rules, [sum(pips(t) for t in h) for h in hands], out_seat)
    if winner < 0:
        return Fraction(1, 2)
    return Fraction(int(winner == rules.side_of(seat)))


def _set(values: tuple, seat: int, value) -> tuple:
    """``values`` with ``seat``'s entry replaced by ``value``."""
    return values[:seat] + (value,) + values[seat + 1:]
