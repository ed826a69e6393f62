"""A hand's event log as text a person can follow at the table.

Examples
--------
>>> from dominosim.rules import Rules
>>> from dominosim.reference.hand import play_hand
>>> r = Rules.preset("block", players=2, max_pip=2, hand_size=3)
>>> log = play_hand(r, "bully", deal=([[(2, 2), (0, 1), (1, 1)], [(1, 2), (0, 0), (0, 2)]], []))
>>> print(transcript(log))
Block game, double-2 set, 2 players, 3 tiles each; individual play; scoring: spots.
Deal:
  Seat 0: 2-2 1-1 1-0
  Seat 1: 2-1 2-0 0-0
  Sleeping: 0 tiles
Seat 0 leads 2-2, the highest double.  Ends: 2 2
Seat 1 plays 2-1 on a 2.  Ends: 1 2
Seat 0 plays 1-1 on a 1.  Ends: 1 2
Seat 1 plays 2-0 on a 2.  Ends: 1 0
Seat 0 plays 1-0 on a 1. Stitch-up!  Ends: 0 0
Seat 0 is out. Seat 0 wins 0 points. Pips left: seat 0: 0, seat 1: 0.
"""

from __future__ import annotations

from typing import Any

from ..checks import refuse
from ..tiles import HIDDEN, label, tile_id
from .game import Move, opens_with_double


def move_text(move: Move) -> str:
    """A move as players say it and as a hand file and the play command list it: ``'6-4 on 6'``
    (a lead onto the empty table, suit -1: ``'6-4'``).

    >>> move_text(Move((4, 6), 6)), move_text(Move((6, 6), -1))
    ('6-4 on 6', '6-6')
    """
    return label(move.tile) + ("" if move.suit < 0 else f" on {move.suit}")


def game_name(log: Any) -> str:
    """The game's name as a transcript starts it: ``'Block game'``, ``'Cross game'``..."""
    r = log.rules
    if not r.can_draw:
        name = "Block game"
    elif r.opening_arms == 4:
        name = "Cross game"
    else:
        name = "Draw game"
    if r.doubles_branch:
        name += " with branching doubles"
    return name


def _side_name(log: Any, side: int) -> str:
    seats = log.rules.seats_of(side)
    if len(seats) == 1:
        return f"Seat {seats[0]}"
    return f"Side {side} (seats {seats[0]} and {seats[1]})"


def _hand_text(tiles: list[tuple[int, int]]) -> str:
    return " ".join(label(t)
                    for t in sorted(tiles, key=tile_id, reverse=True)) or "(none)"


def event_line(rules: Any, e: Any, *, first: bool = False, show_draw: bool = True) -> str:
    """One play, draw or knock as a line of the transcript (``first``: the opening play;
    ``show_draw=False`` hides the tile drawn, as the other seats see it).

    >>> from dominosim.reference.game import Event
    >>> event_line(None, Event("draw", seat=2, tile=(1, 5)), show_draw=False)
    'Seat 2 cannot play and draws a tile.'
    """
    if e.kind == "play":
        ends = "Ends: " + " ".join(map(str, e.ends))
        if first:
            how = ", the highest double" if opens_with_double(rules) else ""
            return f"Seat {e.seat} leads {label(e.tile)}{how}.  {ends}"
        stitch = " Stitch-up!" if e.stitch_up else ""
        return f"Seat {e.seat} plays {label(e.tile)} on a {e.suit}.{stitch}  {ends}"
    if e.kind == "draw":
        seen = show_draw and e.tile is not None and e.tile != HIDDEN
        return f"Seat {e.seat} cannot play and draws {label(e.tile) if seen else 'a tile'}."
    lacks = " or ".join(map(str, e.suits))
    return f"Seat {e.seat} knocks (holds no {lacks})."


def transcript(log: Any) -> str:
    """Write ``log`` out as plain text: the deal, every play, draw and knock, and the score.

    Parameters
    ----------
    log : HandLog
        From :func:`dominosim.replay` or :func:`dominosim.reference.play_hand`.

    Returns
    -------
    str
        One line per event, with the suits showing on the open ends after every play.
    """
    if not all(hasattr(log, name) for name in ("rules", "deals", "events", "record")):
        raise refuse("log", "a HandLog (from ds.replay, ds.play_hand or ds.HandLog.from_json)",
                     type(log).__name__)
    r = log.rules
    team = ("partnerships (" + ", ".join(
        " and ".join(map(str, r.seats_of(k))) for k in range(r.n_sides)) + ")"
            if r.partnerships else "individual play")
    lines = [f"{game_name(log)}, double-{r.max_pip} set, {r.players} players, "
             f"{r.hand_size} tiles each; {team}; scoring: {r.scoring}."]
    redeals = len(log.deals) - 1
    if redeals:
        lines.append(f"No double was dealt: redealt {redeals} time{'s' if redeals > 1 else ''}.")
    hands, boneyard = log.deals[-1]
    lines.append("Deal:")
    lines += [f"  Seat {s}: {_hand_text(h)}" for s, h in enumerate(hands)]
    lines.append(f"  Sleeping: {len(boneyard)} tiles")
    first = True
    for e in log.events:
        if e.kind != "end":
            lines.append(event_line(r, e, first=first))
            first = first and e.kind != "play"
        else:
            pips = ", ".join(f"seat {s}: {'?' if p is None else p}" for s, p in enumerate(e.pips))
            if e.how == "out":
                out = next(x.seat for x in reversed(log.events) if x.kind == "play")
                head = f"Seat {out} is out."
            else:
                head = "Blocked: nobody can play."
            if e.winning_side is None:  # hidden tiles decide it (a typed-in game)
                result = "The winner is not known."
            elif e.winning_side < 0:
                result = "A tie: no points."
            else:
                points = "an unknown number of" if e.points is None else e.points
                result = f"{_side_name(log, e.winning_side)} wins {points} points."
            lines.append(f"{head} {result} Pips left: {pips}.")
    return "\n".join(lines)
