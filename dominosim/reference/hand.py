"""The reference engine: plays hands and matches of any :class:`~dominosim.rules.Rules` with one
strategy per seat, in plain Python, with full event logs.

It is the oracle the compiled engine is tested against and the place to read how a hand unfolds:
:func:`deal` (shuffle, redeal while no seat holds a double), then :func:`play_out` (the opening, then
one :func:`take_turn` after another until the hand ends).

Examples
--------
>>> from dominosim.rules import Rules
>>> rules = Rules.preset("draw", players=2)
>>> log = play_hand(rules, ["random", "bully"], seed=7, hand=0)
>>> log.record["plays"] >= 1, log.events[-1].kind
(True, 'end')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..checks import check_limit, refuse
from ..records import END_CATEGORIES
from ..rng import Stream, check_seed, deal_stream, hand_key, match_hand_key, seat_stream, stream_key
from ..rules import Rules, check_rules
from ..strategies.lineup import resolve_lineup
from ..strategies.styles import Strategy
from ..strategies.view import view_of
from ..tiles import HIDDEN, label, n_tiles, tile_id, tile_of
from .game import Event, GameState, IllegalMoveError, Move, highest_double, opens_with_double
from .transcript import transcript

MAX_REDEALS = 1_000_000
MAX_MATCH_HANDS = 100_000

Hands = list[list[tuple[int, int]]]


@dataclass
class HandLog:
    """Everything that happened in one hand.

    Attributes
    ----------
    rules : Rules
    seed, hand : int
        The run seed and hand index (for a match hand, ``hand`` is ``(match, k)``).
    deals : list of (hands, boneyard)
        Every deal in order; all but the last were redealt for want of a double.
    events : list of Event
        Every play, draw and knock, then the end.
    record : dict
        The hand record (the columns of :mod:`dominosim.records`, with tiles as ``(a, b)``).
    """

    rules: Rules
    seed: int
    hand: Any
    deals: list[tuple[Hands, list[tuple[int, int]]]]
    events: list[Event]
    record: dict[str, Any] = field(default_factory=dict)

    def position(self, k: int) -> Any:
        """The :class:`~dominosim.solver.Position` before event ``k`` of :attr:`events` (0: before
        the opening), see :func:`dominosim.solver.position.position_of`.
        """
        from ..solver.position import position_of

        return position_of(self, k)

    def to_json(self) -> str:
        """The hand as JSON text of the ``dominosim.hand/1`` schema (docs/records.md, "Game
        records"): the rules, the deals, the moves in order and the result.

        :meth:`from_json` reads it back to an equal log.

        Examples
        --------
        >>> import dominosim as ds
        >>> log = ds.replay(ds.Rules.preset("draw", players=2), "random", seed=3, hand=0)
        >>> again = ds.HandLog.from_json(log.to_json())
        >>> again.events == log.events, again.record == log.record
        (True, True)
        """
        from .handfile import dump

        return dump(self.rules, self.deals, self.events, seed=self.seed, hand=self.hand,
                    record=self.record)

    @classmethod
    def from_json(cls, text: str | bytes | dict) -> HandLog:
        """A hand read from JSON text of the ``dominosim.hand/1`` schema: a log written by
        :meth:`to_json`, or a real game typed in (docs/records.md, "Game records").

        Every move is replayed by the reference engine's rule operations; the draws and knocks
        the rules force on a seat whose tiles are all known may be left out. A hand or the
        boneyard nobody saw may be ``null`` (or hold ``"?"`` tiles): those tiles are
        ``(-1, -1)`` in :attr:`deals`, and what they decide (the pips of a hidden hand, and then
        the points) is None in the record.

        With hidden tiles, each move is checked against the tiles known, and the whole record
        against every deal of the hidden tiles: the record is refused unless some deal agrees
        with all its plays, knocks and draws at once (the model of the search strategies'
        consistent-deal sampler: :func:`~dominosim.strategies.sampler.can_be_dealt`, whose
        count is :func:`~dominosim.strategies.sampler.count_dealt`). The error names the first
        move no deal agrees with: a knock by a seat that must hold a tile it could play, a play
        of a suit a seat lacked when it last drew, a tile another seat must hold. That costs
        about a millisecond per record (benchmarks/README.md, issue 20).

        Parameters
        ----------
        text : str, bytes or dict
            The JSON text (or the object it holds).

        Raises
        ------
        ValueError
            For a file that does not follow the schema, for an illegal move (one sentence naming
            the move's number, the move and the legal moves) and for a record no deal could have
            produced (naming the first move no deal agrees with, its seat and why).

        Examples
        --------
        >>> import dominosim as ds
        >>> game = '''
        ... {"schema": "dominosim.hand/1",
        ...  "rules": {"preset": "block", "players": 2, "max_pip": 2, "hand_size": 3},
        ...  "deal": {"hands": [["2-2", "1-0", "1-1"], null], "boneyard": null},
        ...  "moves": ["2-2", "2-1", "1-1", "1: 2-0 on 2", "0: 1-0 on 1"]}'''
        >>> log = ds.HandLog.from_json(game)
        >>> log.outcome(), log.record["pips_0"], log.record["pips_1"]
        ('out, side 0 wins points not known, 5 plays', 0, None)
        >>> ds.HandLog.from_json(game.replace('"1: 2-0 on 2", ', ''))
        Traceback (most recent call last):
        ...
        ValueError: Move 4 ('0: 1-0 on 1') is illegal (seat 1 is to move); the legal moves of seat 1 are: any tile it may hold that fits, 1: knock.

        Every tile is dealt here, so seat 1 holds the 2-0 and cannot knock with a 2 open:

        >>> ds.HandLog.from_json(game.replace('"1: 2-0 on 2"', '"1: knock"'))
        Traceback (most recent call last):
        ...
        ValueError: Move 4 ('1: knock') cannot happen: every deal of the hidden tiles that agrees with the moves before it leaves seat 1 a tile it could play.
        """
        from .handfile import load

        rules, seed, hand, deals, state, replay = load(text)
        _check_possible(rules, deals[-1], state.events, replay.made)
        log = cls(rules, seed, hand, deals, state.events)
        if state.over:
            log.record = record_of(state, len(deals) - 1, hand)
            for s in range(rules.players):
                if not replay.known(s):
                    log.record[f"pips_{s}"] = None
            log.record["winning_side"], log.record["points"] = state.winning_side, state.points
        return log

    def transcript(self) -> str:
        """The hand as text a person can follow at the table (see :func:`dominosim.reference.transcript`)."""
        return transcript(self)

    def outcome(self) -> str:
        """How the hand ended, in words: ``'out, side 1 wins 15 points, 20 plays'``."""
        r = self.record
        if not r:
            return "not played"
        side, points = r["winning_side"], r["points"]
        won = ("the winner not known" if side is None else "a tie" if side < 0
               else f"side {side} wins " + ("points not known" if points is None
                                            else f"{points} points"))
        end = END_CATEGORIES[r["end"]] if isinstance(r["end"], int) else r["end"]
        return f"{end}, {won}, {r['plays']} plays"

    def __repr__(self) -> str:
        """One line: which hand, the rules and the outcome (``transcript()`` tells it all)."""
        return (f"HandLog(hand={self.hand!r}, seed={self.seed}, {self.rules!r}: "
                f"{self.outcome()}, {len(self.events)} events)")

    def _repr_html_(self) -> str:
        import pandas as pd
        from matplotlib.figure import Figure

        from ..display import card, folded, frame, png
        from ..plots.tabletop import layout  # the notebook display hook draws the table

        figure = Figure(figsize=(6, 5))
        layout(self, ax=figure.subplots())
        return card(f"Hand {self.hand!r}", f"of seed {self.seed}, {self.rules!r}: "
                    f"{self.outcome()}",
                    png(figure, alt="the layout at the end of the hand"),
                    frame(pd.DataFrame([self.record])),
                    folded(f"Transcript ({len(self.events)} events)", self.transcript()))


def _check_possible(rules: Rules, deal: tuple[Hands, list[tuple[int, int]]],
                    events: Sequence[Event], made: Sequence[tuple[str, int]]) -> None:
    """Refuse a loaded hand no deal could have produced: one whose hidden tiles no allocation
    fits through the whole history (:func:`~dominosim.strategies.sampler.can_be_dealt`, the
    count of consistent deals is 0). The event to blame is the first whose history up to it has
    no consistent deal.
    """
    from bisect import bisect_left

    from ..strategies.sampler import can_be_dealt
    from .handfile import has_hidden

    if not has_hidden(deal):  # the engine replayed every move on the whole deal
        return
    history = [e for e in events if e.kind != "end"]
    if can_be_dealt(rules, *deal, history):
        return
    # a history with no consistent deal stays so as it goes on: blame the first such prefix's
    # last event (the deal alone has one: the loader checked its sizes and its repeated tiles)
    k = bisect_left(range(len(history) + 1), True, lo=1,
                    key=lambda n: not can_be_dealt(rules, *deal, history[:n]))
    event = history[k - 1]
    before, seat = "no deal of the hidden tiles that agrees with the moves before it", event.seat
    tile = HIDDEN if event.tile is None else event.tile
    if event.kind == "knock":
        why = (f"every deal of the hidden tiles that agrees with the moves before it leaves seat "
               f"{seat} a tile it could play")
    elif event.kind == "play":
        why = f"{before} puts the {label(tile)} in seat {seat}'s hand"
    elif tile != HIDDEN and can_be_dealt(rules, *deal,
                                         history[:k - 1] + [replace(event, tile=HIDDEN)]):
        why = f"{before} leaves the {label(tile)} asleep for seat {seat} to draw"
    else:  # a draw, which a seat makes only with no tile to play
        why = f"{before} leaves seat {seat} without a tile it could play, as a draw needs"
    # the move that made it (a draw or knock the rules force on a seat whose tiles are all known
    # agrees with every deal the moves before it allow: the replay checked it on those tiles)
    number = next((n for n, (_, after) in enumerate(made) if after >= k), len(made) - 1)
    raise ValueError(f"Move {number + 1} ({made[number][0]!r}) cannot happen: {why}.")


def deal(rules: Rules, key: int) -> list[tuple[Hands, list[tuple[int, int]]]]:
    """Every deal of the hand keyed ``key``: deal ``k`` shuffles the whole set with stream ``k``;
    seat ``s`` takes positions ``s*h .. s*h+h-1``, the boneyard the rest in order. Under
    ``opening='highest_double'`` deals repeat until some seat holds a double.
    """
    deals = []
    h, players = rules.hand_size, rules.players
    for k in range(MAX_REDEALS):
        ids = list(range(n_tiles(rules.max_pip)))
        Stream(stream_key(key, deal_stream(k))).shuffle(ids)
        hands = [[tile_of(t) for t in ids[s * h:(s + 1) * h]] for s in range(players)]
        boneyard = [tile_of(t) for t in ids[players * h:]]
        deals.append((hands, boneyard))
        if not opens_with_double(rules) or highest_double(hands, rules.max_pip) is not None:
            return deals
    raise RuntimeError(f"No double was dealt in {MAX_REDEALS} deals.")


def _ask(strategy: Strategy, state: GameState, seat: int, moves: list[Move], rng: Stream) -> Move:
    if len(moves) == 1:
        return moves[0]
    view = view_of(state, seat, omniscient=getattr(strategy, "omniscient", False) is True)
    move = strategy.choose(view, moves, rng)
    if move not in moves:
        raise IllegalMoveError(
            f"Strategy {getattr(strategy, 'name', strategy)!r} at seat {seat} chose {move!r}, "
            f"which is not one of its legal moves {moves}.")
    return Move(*move)


def take_turn(state: GameState, strategies: Sequence[Strategy], rngs: Sequence[Stream]) -> None:
    """The seat to move draws while it has no legal move and the rules make it draw
    (:meth:`GameState.may_draw`), then plays if it can, or knocks.
    """
    seat = state.to_move
    moves = state.legal_moves(seat)
    while not moves and state.may_draw(seat):
        state.draw(seat)
        moves = state.legal_moves(seat)
    if moves:
        state.play(seat, _ask(strategies[seat], state, seat, moves, rngs[seat]))
    else:
        state.knock(seat)


def play_out(state: GameState, strategies: Sequence[Strategy], rngs: Sequence[Stream]) -> None:
    """Open the hand and take turns until it ends."""
    if opens_with_double(state.rules):
        state.open_with_highest_double()
    else:
        leader = state.rules.leader
        assert leader is not None  # Rules sets it under opening='any'
        state.lead(_ask(strategies[leader], state, leader, state.legal_moves(leader), rngs[leader]))
    while not state.over:
        take_turn(state, strategies, rngs)


def record_of(state: GameState, redeals: int, hand: Any = 0) -> dict[str, Any]:
    """The hand record of a finished hand."""
    events = state.events
    assert state.opening_tile is not None, "record_of reads a finished hand"
    rec: dict[str, Any] = {
        "hand": hand,
        "opener": state.opener,
        "opening_double": state.opening_tile[0] if state.opening_tile[0] == state.opening_tile[1]
        else -1,
        "opening_tile": tile_id(state.opening_tile),
        "redeals": redeals,
        "end": 0 if state.how == "out" else 1,
        "winning_side": state.winning_side,
        "points": state.points,
        "plays": sum(e.kind == "play" for e in events),
        "knocks": sum(e.kind == "knock" for e in events),
        "draws": sum(e.kind == "draw" for e in events),
        "stitch_ups": sum(state.stitch_ups),
        "boneyard_left": len(state.boneyard),
        "out_seat": state.out_seat,
    }
    left = state.pips_left()
    for s in range(state.rules.players):
        rec[f"pips_{s}"] = left[s]
    for s in range(state.rules.players):
        rec[f"tiles_left_{s}"] = len(state.hands[s])
    for s in range(state.rules.players):
        rec[f"stitch_ups_{s}"] = state.stitch_ups[s]
    return rec


def play_keyed(rules: Rules, strategies: Sequence[Strategy], key: int, seed: int = 0,
               hand: Any = 0, deal_override: tuple[Hands, list] | None = None) -> HandLog:
    """Play the hand whose streams are keyed ``key`` (or the explicit ``deal_override``)."""
    deals = [deal_override] if deal_override is not None else deal(rules, key)
    hands, boneyard = deals[-1]
    state = GameState.from_deal(rules, [list(h) for h in hands], list(boneyard))
    rngs = [Stream(stream_key(key, seat_stream(s))) for s in range(rules.players)]
    play_out(state, strategies, rngs)
    log = HandLog(rules, seed, hand, deals, state.events)
    log.record = record_of(state, len(deals) - 1, hand)
    return log


def play_hand(rules: Rules, strategies: Any, seed: int = 0, hand: int = 0,
              deal: tuple[Hands, list] | None = None) -> HandLog:
    """Play hand ``hand`` of the run seeded ``seed`` and return its :class:`HandLog`.

    Parameters
    ----------
    rules : Rules
    strategies : str, strategy, or a sequence of one per seat
    seed, hand : int
        Identify the hand: its deal, draws and every strategy choice come from ``(seed, hand)``.
    deal : (hands, boneyard), optional
        Play this deal instead (scripted hands in tests and teaching): ``hands`` a list of tile
        lists by seat, ``boneyard`` the sleeping tiles in the order they will be drawn.

    Examples
    --------
    >>> from dominosim.rules import Rules
    >>> r = Rules.preset("block", players=2, max_pip=2, hand_size=3)
    >>> log = play_hand(r, "bully", deal=([[(2, 2), (0, 1), (1, 1)], [(1, 2), (0, 0), (0, 2)]], []))
    >>> [(e.kind, e.seat, e.tile) for e in log.events[:-1]]
    [('play', 0, (2, 2)), ('play', 1, (1, 2)), ('play', 0, (1, 1)), ('play', 1, (0, 2)), ('play', 0, (0, 1))]
    >>> log.record["winning_side"], log.record["points"], log.record["stitch_ups_0"]
    (0, 0, 1)
    """
    check_rules(rules)
    check_seed(seed)
    check_limit("hand", hand, 0, MAX_ID)
    if deal is not None:
        deal = _checked_deal(rules, deal)
    return play_keyed(rules, resolve_lineup(rules, strategies), hand_key(seed, hand), seed, hand,
                      deal_override=deal)


MAX_ID = (1 << 63) - 1
"""The largest hand or match index (ids are int64)."""


def _checked_deal(rules: Rules, deal: Any) -> tuple[Hands, list]:
    """``deal`` as ``(hands, boneyard)``, checked as :meth:`dominosim.Position.from_deal` does."""
    from ..solver.position import Position

    if not isinstance(deal, (list, tuple)) or len(deal) != 2:
        raise refuse("deal", "None or (hands, boneyard)", deal)
    position = Position.from_deal(rules, deal[0], deal[1])
    return [list(h) for h in position.hands], list(position.boneyard)


@dataclass
class MatchLog:
    """A match: its hands, in order, and the running score by side."""

    rules: Rules
    seed: int
    match: int
    hands: list[HandLog]
    scores: list[int]
    winning_side: int


def play_match(rules: Rules, strategies: Any, seed: int = 0, match: int = 0) -> MatchLog:
    """Play match ``match`` of the run seeded ``seed`` to ``rules.target``.

    Hand ``k`` is keyed by ``(seed, match, k)``; after each hand the winning side adds its points,
    and the first side to reach the target wins.

    Examples
    --------
    >>> from dominosim.rules import Rules
    >>> m = play_match(Rules.preset("draw", players=2, target=30), "random", seed=1)
    >>> max(m.scores) >= 30, m.scores[m.winning_side] == max(m.scores)
    (True, True)
    """
    check_rules(rules)
    check_seed(seed)
    check_limit("match", match, 0, MAX_ID)
    lineup = resolve_lineup(rules, strategies)
    scores = [0] * rules.n_sides
    logs = []
    for k in range(MAX_MATCH_HANDS):
        log = play_keyed(rules, lineup, match_hand_key(seed, match, k), seed, (match, k))
        logs.append(log)
        side = log.record["winning_side"]
        if side >= 0:
            scores[side] += log.record["points"]
            if scores[side] >= rules.target:
                return MatchLog(rules, seed, match, logs, scores, side)
    raise RuntimeError(f"No side reached the target in {MAX_MATCH_HANDS} hands.")

