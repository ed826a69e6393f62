"""Hand logs as JSON: the ``dominosim.hand/1`` schema (docs/records.md, "Game records").

A hand file holds the rules (a preset and its overrides, or every field), the deal as far as it is
known (a hand or the boneyard may be ``null``, or hold ``"?"`` for a tile nobody saw) and the moves
in order, one short string each::

    "0: 6-6"          seat 0 opens with the 6-6 (the seat prefix is optional)
    "1: 6-4 on 6"     a play: the tile, and the suit of the end it goes on
    "2: 4-2"          the same without ``on`` when the tile fits only one suit
    "3: draw 5-1"     a draw of a known tile; ``"3: draw"`` when nobody saw it
    "0: knock"        a pass

Draws and knocks the rules force on a seat whose tiles are all known may be left out: before each
move the loader applies them, as the reference engine does. :func:`load` replays the moves with the
reference engine's rule operations (:class:`~dominosim.reference.game.GameState`), so an illegal
move is refused with one sentence naming its number, the move and the legal moves.

A tile nobody saw is :data:`HIDDEN` in the loaded log; a hidden tile becomes known when its seat
plays it (or a draw names it). With hidden tiles the loader checks what the known tiles allow: a
played tile must fit a playable end and be nowhere else known, a draw or knock must be allowed by
the rules, and a seat whose own tiles are all known must play when it can.

Examples
--------
>>> from dominosim.rules import Rules
>>> rules = Rules.preset("block", players=2, max_pip=2, hand_size=3)
>>> text = dump(rules, [([[(2, 2), (0, 1), (1, 1)], [(1, 2), (0, 0), (0, 2)]], [])],
...             [], seed=None, hand=None) # no moves yet
>>> '"schema": "dominosim.hand/1"' in text
True
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Sequence
from typing import Any

from ..checks import refuse
from ..rules import PRESETS, Rules
from ..tiles import HIDDEN, full_set, label, n_tiles, tile_id
from .game import (
    Event,
    GameState,
    IllegalMoveError,
    Move,
    counts_pips,
    highest_double,
    opens_with_double,
    score,
)
from .transcript import move_text

SCHEMA = "dominosim.hand/1"
"""The schema name written in every hand file; a file of another schema is refused."""
KEYS = ("schema", "note", "rules", "seed", "hand", "redeals", "deal", "moves", "result")
"""The keys of a hand file, in the order they are written; any other is refused."""

_MOVE = re.compile(r"^\s*(?:(?P<seat>\d+)\s*:\s*)?(?:(?P<kind>draw|knock)\b\s*)?"
                   r"(?:(?P<a>\d+)\s*-\s*(?P<b>\d+))?(?:\s+on\s+(?P<suit>-?\d+))?\s*$")

Deal = tuple[list[list[tuple[int, int]]], list[tuple[int, int]]]
MAX_MOVE_TEXT = 200
"""The longest move string read (a move is a dozen characters)."""
MAX_JSON_DIGITS = 30
"""An integer of more digits in a hand file is refused (no field needs more than 20)."""


# ------------------------------------------------------------------------------ writing
def _deal_json(deal: Deal) -> dict[str, Any]:
    hands, boneyard = deal
    return {"hands": [None if h and all(t == HIDDEN for t in h) else [label(t) for t in h]
                      for h in hands],
            "boneyard": None if boneyard and all(t == HIDDEN for t in boneyard)
            else [label(t) for t in boneyard]}


def event_text(event: Event, opening: bool = False) -> str:
    """One event as a hand file's move string: ``'1: 6-4 on 6'``, ``'2: draw 5-1'``, ``'3: knock'``
    (a play is its seat and :func:`~dominosim.reference.transcript.move_text`).

    >>> event_text(Event("play", seat=1, tile=(4, 6), suit=6))
    '1: 6-4 on 6'
    >>> event_text(Event("play", seat=0, tile=(6, 6), suit=6), opening=True)
    '0: 6-6'
    """
    if event.kind == "play":
        return f"{event.seat}: " + move_text(event.move._replace(suit=-1) if opening
                                             else event.move)
    if event.kind == "draw":
        shown = "" if event.tile is None or event.tile == HIDDEN else f" {label(event.tile)}"
        return f"{event.seat}: draw{shown}"
    return f"{event.seat}: {event.kind}"


def rules_json(rules: Rules) -> dict[str, Any]:
    """The rules as the nearest preset, the player count and the fields that differ.

    >>> rules_json(Rules.preset("draw", players=3, scoring="game"))
    {'preset': 'draw', 'players': 3, 'scoring': 'game'}
    """
    name, diff = rules.nearest_preset()
    return {"preset": name, "players": rules.players, **diff}


def dump(rules: Rules, deals: Sequence[Deal], events: Sequence[Event], *, seed: Any,
         hand: Any, record: dict[str, Any] | None = None) -> str:
    """The JSON text of a hand: see :meth:`dominosim.HandLog.to_json`."""
    moves, opened = [], False
    for event in events:
        if event.kind == "end":
            continue
        moves.append(event_text(event, opening=not opened and event.kind == "play"))
        opened = opened or event.kind == "play"
    data: dict[str, Any] = {"schema": SCHEMA, "rules": rules_json(rules)}
    if seed is not None:
        data["seed"] = seed
    if hand is not None:
        data["hand"] = list(hand) if isinstance(hand, tuple) else hand
    if len(deals) > 1:
        data["redeals"] = [_deal_json(d) for d in deals[:-1]]
    data["deal"] = _deal_json(deals[-1])
    data["moves"] = moves
    if record:
        data["result"] = {k: (None if v is None else int(v)) for k, v in record.items()
                          if k in ("winning_side", "points", "out_seat")}
    return _format(data)


def _format(data: dict[str, Any]) -> str:
    """JSON a person can read and type: one line per key, a hand or a move per line."""
    def one(value: Any) -> str:
        return json.dumps(value, allow_nan=False)  # never NaN or Infinity: not JSON

    lines = []
    for key, value in data.items():
        if key == "moves":
            body = ",\n  ".join(one(m) for m in value)
            text = f"[\n  {body}\n ]" if value else "[]"
        elif key == "deal":
            hands = ",\n   ".join(one(h) for h in value["hands"])
            text = f'{{"hands": [\n   {hands}],\n  "boneyard": {one(value["boneyard"])}}}'
        else:
            text = one(value)
        lines.append(f" {one(key)}: {text}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


# ------------------------------------------------------------------------------ reading
def _rules(data: Any) -> Rules:
    if isinstance(data, Rules):
        return data
    if not isinstance(data, dict):
        raise refuse("rules", "an object: a preset name with its overrides, or every field", data)
    fields = dict(data)
    name = fields.pop("preset", None)
    allowed = {f.name for f in dataclasses.fields(Rules)}
    unknown = sorted(set(fields) - allowed, key=str)
    if unknown:
        raise refuse("rules", "an object of a preset and fields of dominosim.Rules (" +
                   ", ".join(sorted(allowed)) + ")", f"the key {unknown[0]}")
    if name is None:
        if not fields:
            raise refuse("rules", "an object naming a preset (such as {\"preset\": \"block\", "
                       "\"players\": 4}) or every field", data)
        return Rules(**fields)
    if not isinstance(name, str) or name not in PRESETS:
        raise refuse("rules.preset", "one of " + ", ".join(map(repr, PRESETS)), name)
    return Rules.preset(name, **fields)


def parse_tile(text: Any, rules: Rules, where: str) -> tuple[int, int]:
    """A tile written ``'6-4'`` (either end first), or :data:`HIDDEN` for ``'?'``.

    >>> parse_tile("4-6", Rules.preset("draw"), "deal"), parse_tile("?", Rules.preset("draw"), "x")
    ((4, 6), (-1, -1))
    """
    if text == "?":
        return HIDDEN
    match = re.fullmatch(r"\s*(\d+)\s*-\s*(\d+)\s*", text) if isinstance(text, str) else None
    if match is None or max(int(match[1]), int(match[2])) > rules.max_pip:
        raise refuse(where, f"a tile of the double-{rules.max_pip} set written 'a-b' (or '?' for "
                   "one nobody saw)", text)
    a, b = int(match[1]), int(match[2])
    return (min(a, b), max(a, b))


def _deal(data: Any, rules: Rules, where: str) -> Deal:
    if not isinstance(data, dict):
        raise refuse(where, "an object with `hands` and `boneyard`", data)
    unknown = sorted(set(data) - {"hands", "boneyard"}, key=str)
    if unknown:
        raise refuse(f"{where}", "an object with the keys 'hands' and 'boneyard' only",
                   f"the key {unknown[0]!r}")
    hands_in = data.get("hands")
    if not isinstance(hands_in, list) or len(hands_in) != rules.players:
        raise refuse(f"{where}.hands", f"a list of {rules.players} hands (null for a hand nobody "
                   "saw)", hands_in)
    hands = []
    for s, h in enumerate(hands_in):
        h = ["?"] * rules.hand_size if h is None else h
        if not isinstance(h, list) or len(h) != rules.hand_size:
            raise refuse(f"{where}.hands[{s}]", f"a list of {rules.hand_size} tiles or null", h)
        hands.append([parse_tile(t, rules, f"{where}.hands[{s}]") for t in h])
    size = rules.boneyard_size
    bone_in = data.get("boneyard")
    bone_in = ["?"] * size if bone_in is None else bone_in
    if not isinstance(bone_in, list) or len(bone_in) != size:
        raise refuse(f"{where}.boneyard", f"a list of the {size} sleeping tiles in draw order, or "
                   "null", bone_in)
    boneyard = [parse_tile(t, rules, f"{where}.boneyard") for t in bone_in]
    if not rules.can_draw and HIDDEN in boneyard and not any(HIDDEN in h for h in hands):
        # No tile is ever drawn: the sleeping tiles are the rest of the set, in any order.
        rest = iter(t for t in full_set(rules.max_pip)
                    if t not in boneyard and all(t not in h for h in hands))
        boneyard = [next(rest) if t == HIDDEN else t for t in boneyard]
    known = [t for h in hands for t in h if t != HIDDEN] + [t for t in boneyard if t != HIDDEN]
    twice = sorted({label(t) for t in known if known.count(t) > 1})
    if twice:
        raise refuse(where, "a deal holding each tile at most once", twice)
    return hands, boneyard


def _parse_move(text: Any, number: int, rules: Rules) -> tuple[int | None, str, Any, int | None]:
    """``(seat or None, kind, tile or None, suit or None)`` of move string ``text``."""
    if isinstance(text, str) and len(text) > MAX_MOVE_TEXT:
        raise ValueError(f"Move {number} must be written in at most {MAX_MOVE_TEXT} characters "
                         f"(such as '1: 6-4 on 6'), but {len(text):,} were passed.")
    match = _MOVE.match(" ".join(text.split())) if isinstance(text, str) else None
    if match is None or (match["kind"] is None and match["a"] is None) or \
            (match["kind"] == "knock" and (match["a"] or match["suit"])) or \
            (match["kind"] == "draw" and match["suit"]):
        raise ValueError(f"Move {number} must be written 'SEAT: TILE on SUIT', 'SEAT: draw "
                         f"[TILE]' or 'SEAT: knock' (the seat and 'on SUIT' optional), but "
                         f"{text!r} was passed.")
    seat = None if match["seat"] is None else int(match["seat"])
    if seat is not None and seat >= rules.players:
        raise ValueError(f"Move {number} must name a seat from 0 to {rules.players - 1}, but "
                         f"{text!r} was passed.")
    tile = None if match["a"] is None else parse_tile(f"{match['a']}-{match['b']}", rules,
                                                      f"move {number}")
    suit = None if match["suit"] is None else int(match["suit"])
    return seat, match["kind"] or "play", tile, suit


class Replay:
    """A hand's moves applied one by one to a reference :class:`GameState` whose unknown tiles are
    :data:`HIDDEN`: a hidden tile is revealed when its seat plays it or a draw names it.
    """

    def __init__(self, rules: Rules, hands: list[list[tuple[int, int]]],
                 boneyard: list[tuple[int, int]]) -> None:
        self.rules = rules
        self.state = GameState.from_deal(rules, [list(h) for h in hands], list(boneyard))
        self.made: list[tuple[str, int]] = []
        """Each move applied (its text) and the number of events once it was (forced draws and
        knocks before it included)."""

    # -------------------------------------------------------------- what is known
    def known(self, seat: int) -> bool:
        """Whether every tile of ``seat``'s hand is known (its legal moves are then known)."""
        return HIDDEN not in self.state.hands[seat]

    def _placed(self, tile: tuple[int, int]) -> bool:
        state = self.state
        return (any(tile in h for h in state.hands) or tile in state.boneyard
                or any(e.kind == "play" and e.tile == tile for e in state.events))

    def _reveal_in_hand(self, seat: int, tile: tuple[int, int]) -> bool:
        hand = self.state.hands[seat]
        if tile in hand or HIDDEN not in hand or self._placed(tile):
            return False
        hand[hand.index(HIDDEN)] = tile
        hand.sort(key=tile_id)
        return True

    def _forget(self, seat: int, tile: tuple[int, int]) -> None:
        hand = self.state.hands[seat]
        hand[hand.index(tile)] = HIDDEN
        hand.sort(key=tile_id)

    def to_move(self) -> int:
        """The seat to move (the opener before the opening)."""
        state = self.state
        if state.ends:
            return state.to_move
        if not opens_with_double(self.rules) and self.rules.leader is not None:
            return self.rules.leader
        found = highest_double(state.hands, self.rules.max_pip)
        return -1 if found is None else found[0]

    def legal(self, seat: int) -> list[Move]:
        """The legal moves of ``seat`` as far as its known tiles tell."""
        state = self.state
        if not state.ends and opens_with_double(self.rules):
            found = highest_double(state.hands, self.rules.max_pip)
            return [] if found is None or found[0] != seat else [Move(found[1], found[1][0])]
        return state.legal_moves(seat)

    # -------------------------------------------------------------- applying moves
    def forced(self) -> bool:
        """Apply one draw or knock the rules force on the seat to move, if its tiles are all
        known and it has no legal move; whether one was applied.
        """
        state = self.state
        if state.over or not state.ends:
            return False
        seat = state.to_move
        if not self.known(seat) or self.legal(seat):
            return False
        if state.may_draw(seat):
            state.draw(seat)
        else:
            state.knock(seat)
        return True

    def open(self, seat: int | None, tile: tuple[int, int]) -> int:
        """The opening play of ``tile`` (by ``seat`` when given); returns the opener."""
        state, rules = self.state, self.rules
        if not opens_with_double(rules):
            seat = rules.leader if seat is None else seat
            if seat is None or seat != rules.leader:
                raise IllegalMoveError(f"seat {rules.leader} leads")
            revealed = self._reveal_in_hand(seat, tile)
            try:
                state.lead(Move(tile, -1))
            except IllegalMoveError:
                if revealed:
                    self._forget(seat, tile)
                raise
            return seat
        holder = [s for s, h in enumerate(state.hands) if tile in h]
        if seat is None:
            unknown = [s for s in range(rules.players) if not self.known(s)]
            seat = holder[0] if holder else (unknown[0] if len(unknown) == 1 else None)
            if seat is None:
                raise IllegalMoveError("name the seat that opened, its hand is not known")
        if tile[0] == tile[1] and _doubles_in_hidden_hands(state.hands, state.boneyard,
                                                           rules.max_pip, tile[0]):
            raise IllegalMoveError(f"{label(tile)} cannot be the highest double dealt: a higher "
                                   "double is in a hand nobody saw (the boneyard has no room for "
                                   "it)")
        revealed = self._reveal_in_hand(seat, tile)
        found = highest_double(state.hands, rules.max_pip)
        if found != (seat, tile):
            if revealed:
                self._forget(seat, tile)
            raise IllegalMoveError("the holder of the highest double opens with it")
        state.open_with_highest_double()
        return seat

    def play(self, seat: int, tile: tuple[int, int], suit: int) -> None:
        """Play ``tile`` of ``seat`` on ``suit``, revealing it if it was hidden."""
        lacked = sorted(set(tile) & self.state.lacks[seat])
        if lacked and not self.known(seat):  # a known hand's knock was checked when it came
            raise IllegalMoveError(f"seat {seat} knocked with {lacked[0]} showing and has drawn "
                                   f"nothing since: it cannot hold {label(tile)}")
        revealed = self._reveal_in_hand(seat, tile)
        try:
            self.state.play(seat, Move(tile, suit))
        except IllegalMoveError:
            if revealed:
                self._forget(seat, tile)
            raise

    def draw(self, seat: int, tile: tuple[int, int] | None) -> None:
        """Draw for ``seat`` (``tile``: the tile the file names, or None)."""
        state = self.state
        if state.over or not state.ends or seat != state.to_move:
            raise IllegalMoveError(f"seat {seat} is not to move")
        if tile is not None and tile != HIDDEN and state.boneyard:
            top = state.boneyard[0]
            if top == HIDDEN and not self._placed(tile):
                state.boneyard[0] = tile
            elif top != tile:
                raise IllegalMoveError(f"the next sleeping tile is {label(top)}")
        state.draw(seat)

    def finish(self) -> None:
        """With hidden tiles left in a hand at the end, the points are not known: the end event
        and the record say None for what the hidden tiles decide.
        """
        state = self.state
        if not state.over or all(self.known(s) for s in range(self.rules.players)):
            return
        end = state.events[-1]
        pips = tuple(None if not self.known(s) else sum(a + b for a, b in h)
                     for s, h in enumerate(state.hands))
        won: int | None = None
        points: int | None = None
        if state.out_seat >= 0 and not counts_pips(self.rules):
            won, points = score(self.rules, [0] * self.rules.players, state.out_seat)
        elif state.out_seat >= 0:
            won = self.rules.side_of(state.out_seat)
        state.winning_side, state.points = won, points
        state.events[-1] = Event("end", how=end.how, winning_side=won, points=points, pips=pips)


def _step(replay: Replay, number: int, text: str) -> None:
    """Apply move ``number`` (``text``), with the forced draws and knocks before it."""
    rules, state = replay.rules, replay.state
    seat, kind, tile, suit = _parse_move(text, number, rules)
    if state.over:
        raise ValueError(f"Move {number} ({text!r}) comes after the end of the hand.")
    while state.ends and seat is not None and seat != state.to_move and replay.forced():
        pass
    if kind == "play" and state.ends and seat in (None, state.to_move):
        while replay.forced():
            pass
    mover = replay.to_move()
    try:
        if state.over:
            raise IllegalMoveError("the hand is over")
        if not state.ends:
            if kind != "play":
                raise IllegalMoveError("the hand opens with a play")
            replay.open(seat, tile)
            return
        if seat is not None and seat != mover:
            raise IllegalMoveError(f"seat {mover} is to move")
        seat = mover
        if kind == "knock":
            state.knock(seat)
        elif kind == "draw":
            replay.draw(seat, tile)
        else:
            if replay.known(seat) and tile not in state.hands[seat]:
                raise IllegalMoveError(f"seat {seat} does not hold the {label(tile)}")
            fits = sorted({v for v in set(tile) if v in state.playable_suits()})
            if suit is None and fits:
                if len(fits) > 1 and replay.known(seat):
                    raise IllegalMoveError(f"it fits the ends {fits}: write 'on SUIT'")
                suit = fits[0]
            if suit is None and not fits:
                raise IllegalMoveError(f"the {label(tile)} fits no playable end")
            if suit is None or suit not in fits:
                raise IllegalMoveError(f"the {label(tile)} on {suit} fits no playable end")
            replay.play(seat, tile, suit)
    except IllegalMoveError as error:
        mover = replay.to_move()
        legal = _legal_text(replay, mover)
        raise ValueError(f"Move {number} ({text!r}) is illegal ({str(error).rstrip('.')}); the "
                         f"legal moves of seat "
                         f"{mover} are: {legal}.") from None


def _legal_text(replay: Replay, seat: int) -> str:
    state = replay.state
    if seat < 0 or state.over:
        return "none, the hand is over" if state.over else "not known"
    moves = replay.legal(seat)
    opening = not state.ends
    words = [f"{seat}: {label(m.tile)}" + ("" if opening else f" on {m.suit}") for m in moves]
    if not replay.known(seat):
        words.append("any tile it may hold that fits")
    if state.ends and not moves:
        words.append(f"{seat}: draw" if state.may_draw(seat) else f"{seat}: knock")
    elif state.ends and not replay.known(seat):
        words.append(f"{seat}: draw" if state.may_draw(seat) else f"{seat}: knock")
    return ", ".join(words)


def load(text: str | bytes | dict) -> tuple[Rules, Any, Any, list[Deal], GameState, Replay]:
    """Read a hand file and replay its moves: ``(rules, seed, hand, deals, final state, replay)``
    (see :meth:`dominosim.HandLog.from_json`).
    """
    if not isinstance(text, (str, bytes, dict)):
        raise refuse("text", "JSON text (a str or bytes) or the dict it holds",
                     type(text).__name__)
    data = _json(text) if isinstance(text, (str, bytes)) else text
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        got = data.get("schema") if isinstance(data, dict) else type(data).__name__
        raise refuse("schema", f"{SCHEMA!r}", got)
    unknown = sorted(set(data) - set(KEYS))
    if unknown:
        raise refuse("keys of a hand file", "among " + ", ".join(map(repr, KEYS)), unknown[0])
    rules = _rules(data.get("rules"))
    seed, hand = _seed(data.get("seed")), _hand(data.get("hand"))
    redeals = data.get("redeals", [])
    if not isinstance(redeals, list) or (redeals and not opens_with_double(rules)):
        raise refuse("redeals", "a list of the deals redealt (none unless opening='highest_double')",
                   redeals)
    deals = [_deal(d, rules, f"redeals[{i}]") for i, d in enumerate(redeals)]
    for i, deal in enumerate(deals):
        _check_redealt(deal, rules, f"redeals[{i}]")
    deals.append(_deal(data.get("deal"), rules, "deal"))
    hands, boneyard = deals[-1]
    if "moves" not in data:
        raise refuse("moves", "a list of move strings (an empty list before the opening)",
                   "nothing")
    moves = data["moves"]
    if not isinstance(moves, list):
        raise refuse("moves", "a list of move strings", moves)
    replay = Replay(rules, hands, boneyard)
    for number, move in enumerate(moves, start=1):
        _step(replay, number, move)
        replay.made.append((move, len(replay.state.events)))
    while replay.forced():
        pass
    replay.finish()
    _check_result(replay.state, data.get("result"), rules)
    return rules, seed, hand, deals, replay.state, replay


def _json(text: str | bytes) -> Any:
    """The JSON value of ``text``; a one-line error for what is not JSON, nests too deep, or
    holds an integer of more than :data:`MAX_JSON_DIGITS` digits.
    """
    def integer(digits: str) -> int:
        if len(digits.lstrip("-")) > MAX_JSON_DIGITS:
            raise ValueError(f"The value for `text` must be a hand file whose numbers have at most "
                             f"{MAX_JSON_DIGITS} digits, but one of {len(digits):,} characters "
                             f"({digits[:20]}...) was passed.")
        return int(digits)

    try:
        return json.loads(text, parse_int=integer, parse_constant=_no_constant)
    except RecursionError:
        raise ValueError("The value for `text` must be a hand file (JSON of the "
                         f"{SCHEMA!r} schema), but it nests too deep to read.") from None
    except UnicodeDecodeError as error:
        raise ValueError(f"The value for `text` must be UTF-8 JSON text, but it is not "
                         f"({error.reason}).") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"The value for `text` must be JSON text (a hand file of the {SCHEMA!r} "
                         f"schema), but it is not: {error.msg} at line {error.lineno}, column "
                         f"{error.colno}.") from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"The value for `text` must be JSON text, but it holds {name}, which JSON "
                     "does not have.")


MAX_ID = (1 << 63) - 1
"""The largest seed and hand index (the engines' ids are int64)."""


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _seed(value: Any) -> Any:
    if value is not None and not (_is_int(value) and 0 <= value <= MAX_ID):
        raise refuse("seed", "null or an integer from 0 to 2**63 - 1", value)
    return value


def _hand(value: Any) -> Any:
    """The hand's index: an integer, or ``[match, k]`` (hand ``k`` of a match), or null."""
    if value is None or (_is_int(value) and 0 <= value <= MAX_ID):
        return value
    if isinstance(value, list) and len(value) == 2 and all(_is_int(v) and 0 <= v <= MAX_ID
                                                           for v in value):
        return tuple(value)
    raise refuse("hand", "null, an integer from 0 to 2**63 - 1, or [match, k] of two", value)


def _check_redealt(deal: Deal, rules: Rules, where: str) -> None:
    """A deal is redealt only when no hand holds a double: refuse one that must hold one."""
    hands, boneyard = deal
    held = [t for h in hands for t in h if t != HIDDEN and t[0] == t[1]]
    if held:
        raise refuse(where, "a deal in which no hand holds a double (only such a deal is "
                   f"redealt), but seat {next(s for s, h in enumerate(hands) if held[0] in h)} "
                   "holds", label(held[0]))
    if _doubles_in_hidden_hands(hands, boneyard, rules.max_pip, -1):
        raise refuse(where, "a deal in which no hand holds a double (only such a deal is "
                   "redealt), but the boneyard has no room for every double", "this deal")


def _doubles_in_hidden_hands(hands, boneyard, max_pip: int, above: int) -> bool:
    """Whether some double higher than ``above``, seen nowhere, must be in a hidden hand: more
    of them than the boneyard has hidden tiles.
    """
    seen = {t for h in hands for t in h} | set(boneyard)
    missing = [(d, d) for d in range(above + 1, max_pip + 1) if (d, d) not in seen]
    return len(missing) > boneyard.count(HIDDEN)


RESULT_KEYS = ("winning_side", "points", "out_seat")


def _check_result(state: GameState, result: Any, rules: Rules) -> None:
    """A ``result`` given in the file must agree with the moves; it supplies what hidden tiles
    left unknown (the winning side and points of a hand whose losers' pips nobody saw).
    """
    if result is None:
        return
    if not isinstance(result, dict) or not state.over:
        raise refuse("result", "an object with `winning_side`, `points` and `out_seat` for a "
                   "hand whose moves reach its end", result)
    unknown = sorted(set(result) - set(RESULT_KEYS), key=str)
    if unknown:
        raise refuse("result", "an object with the keys " + ", ".join(map(repr, RESULT_KEYS)),
                   f"the key {unknown[0]!r}")
    most = 10 * rules.max_pip * n_tiles(rules.max_pip)  # far above the pips of the whole set
    ranges = {"winning_side": (-1, rules.n_sides - 1), "points": (0, most),
              "out_seat": (-1, rules.players - 1)}
    for key, (low, high) in ranges.items():
        given = result.get(key)
        if given is not None and not (_is_int(given) and low <= given <= high):
            raise refuse(f"result.{key}", f"null or an integer from {low} to {high}", given)
    for key in RESULT_KEYS:
        given, found = result.get(key), getattr(state, key)
        if given is None:
            continue
        if found is None:
            setattr(state, key, given)
        elif given != found:
            raise refuse(f"result.{key}", f"{found!r}, as the moves give", given)
    end = state.events[-1]
    state.events[-1] = Event("end", how=end.how, winning_side=state.winning_side,
                             points=state.points, pips=end.pips)


def replay_events(rules: Rules, deal: Deal, events: Sequence[Event]) -> Replay:
    """The :class:`Replay` of a loaded log's events (every event explicit), for positions."""
    replay = Replay(rules, *deal)
    for event in events:
        if event.kind == "play":
            if not replay.state.ends:
                replay.open(event.seat, event.move.tile)
            else:
                replay.play(event.seat, event.move.tile, event.suit)
        elif event.kind == "draw":
            replay.draw(event.seat, event.tile)
        elif event.kind == "knock":
            replay.state.knock(event.seat)
    return replay


def has_hidden(deal: Deal) -> bool:
    """Whether any tile of a deal is :data:`HIDDEN`."""
    hands, boneyard = deal
    return any(HIDDEN in h for h in hands) or HIDDEN in boneyard


__all__ = ["HIDDEN", "SCHEMA", "Replay", "dump", "event_text", "has_hidden", "load", "n_tiles",
           "parse_tile", "replay_events", "rules_json"]
