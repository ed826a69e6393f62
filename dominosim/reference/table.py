"""A hand as a sequence of integer actions: the reference engine's rules for game-AI frameworks.

The OpenSpiel game (:mod:`dominosim.openspiel`) and the PettingZoo environment
(:mod:`dominosim.pettingzoo`) both drive a :class:`Table`: a hand in which every step is either a
*chance outcome* (a tile dealt, or a tile drawn) or a seat's *action* (a move, or a knock), each an
integer. Every rule is decided by the reference engine's :class:`~dominosim.reference.game.GameState`
and its functions; this module only numbers what they allow and encodes what each seat sees.

Actions
    A move ``(tile, suit)`` is ``3 * tile_id + k``: ``k = 0`` for a lead onto the empty table
    (``opening='any'``), 1 for the tile's low suit (a double's only suit), 2 for its high suit. So
    sorting actions sorts moves by tile id and then suit, the canonical move order of both engines.
    The knock (:func:`knock_action`) follows the moves: ``3 * n_tiles``, the only action of a seat that has no move
    and may not draw.
Chance outcomes
    Tile ids. The deal gives tiles one at a time, seat 0's first; each draw gives the next sleeping
    tile, uniform among them. Under ``opening='highest_double'`` the deal is drawn straight from
    the distribution the reference engine's redeals give (uniform over deals in which some seat
    holds a double), so a hand never needs a redeal here (:func:`deal_outcomes`). The forced
    opening double is played by the table, not by a seat, as in the reference engine.

Returns
-------
    Zero-sum: every seat of the winning side gets ``+points`` (the rules' scoring), and the same
    total is taken in equal shares from the seats of the other sides (each loses
    ``points / (n_sides - 1)``); a tie gives 0 to all.
What a seat sees
    :func:`observation` (the position now) and :func:`information_state` (everything the seat has
    seen since the deal), as text and as a flat vector, built only from the seat's own hand and
    the public history (``GameState.seen``): other seats' tiles, the boneyard and other
    seats' drawn tiles never enter them.

Examples
--------
>>> from dominosim.rules import Rules
>>> table = Table(Rules.preset("block", players=2, max_pip=2, hand_size=2))
>>> for tile in [(2, 2), (0, 1), (1, 2), (1, 1)]:   # the deal: seat 0's two tiles, then seat 1's
...     table.apply(tile_id(tile))
>>> table.to_move, [action_name(table.rules, a) for a in table.legal_actions()]
(1, ['2-1 on 2'])
>>> table.apply(table.legal_actions()[0])
>>> table.to_move, [action_name(table.rules, a) for a in table.legal_actions()]
(0, ['1-0 on 1'])
>>> table.apply(table.legal_actions()[0])   # seat 0 is out; seat 1 holds 1-1
>>> table.is_over(), table.returns()
(True, [2.0, -2.0])
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from math import comb

import numpy as np

from ..rules import Rules
from ..strategies.view import SeatView
from ..tiles import IS_DOUBLE, PIPS, label, tile_id, tile_of
from .game import End, Event, GameState, Move, counts_pips, opens_with_double

CHANCE = -1
""":attr:`Table.to_move` at a chance node (a tile dealt or drawn)."""
TERMINAL = -2
""":attr:`Table.to_move` once the hand is over."""


def knock_action(rules: Rules) -> int:
    """The knock action of ``rules``: ``3 * n_tiles``, after every move."""
    return 3 * rules.n_tiles


def n_actions(rules: Rules) -> int:
    """How many distinct actions: three per tile, and the knock."""
    return 3 * rules.n_tiles + 1


def encode(move: Move) -> int:
    """The action of ``move`` (see the module's docstring).

    >>> encode(Move((2, 5), 5)), encode(Move((2, 5), 2)), encode(Move((3, 3), 3)), encode(Move((0, 1), -1))
    (53, 52, 28, 3)
    """
    a, b = move.tile
    k = 0 if move.suit < 0 else 1 if move.suit == a else 2
    return 3 * tile_id(move.tile) + k


def decode(action: int) -> Move:
    """The move of a move action (the inverse of :func:`encode`).

    >>> decode(53), decode(3)
    (Move(tile=(2, 5), suit=5), Move(tile=(0, 1), suit=-1))
    """
    tid, k = divmod(int(action), 3)
    a, b = tile_of(tid)
    return Move((a, b), -1 if k == 0 else a if k == 1 else b)


def action_name(rules: Rules, action: int) -> str:
    """An action in words: ``'5-2 on 5'``, ``'lead 1-0'`` or ``'knock'``."""
    if action == knock_action(rules):
        return "knock"
    move = decode(action)
    return f"lead {label(move.tile)}" if move.suit < 0 else f"{label(move.tile)} on {move.suit}"


def deal_outcomes(rules: Rules, dealt: Sequence[int]) -> list[tuple[int, float]]:
    """The next tile of the deal and its probability, given the tile ids ``dealt`` so far.

    Under ``opening='any'`` every tile not yet dealt is equally likely. Under
    ``'highest_double'`` the reference engine redeals until some seat holds a double, so the deal
    played is uniform over the deals that hold one; dealt one tile at a time, a tile's chance is
    proportional to the number of such deals that go on with it: while no double has been dealt, a
    non-double weighs ``1 - C(r-1-d, m-1) / C(r-1, m-1)`` against a double's 1, with ``r`` tiles
    left, ``d`` of them doubles, and ``m`` still to deal.

    >>> rules = Rules.preset("block", players=2, max_pip=1, hand_size=1)
    >>> deal_outcomes(rules, [1])   # after 0-1, a double must follow
    [(0, 0.5), (2, 0.5)]
    """
    done = set(dealt)
    left = [t for t in range(rules.n_tiles) if t not in done]
    if not opens_with_double(rules) or any(IS_DOUBLE[t] for t in dealt):
        return [(t, 1.0 / len(left)) for t in left]
    r, m = len(left), rules.players * rules.hand_size - len(dealt)
    d = sum(bool(IS_DOUBLE[t]) for t in left)
    plain = 1.0 - (comb(r - 1 - d, m - 1) / comb(r - 1, m - 1) if r - 1 >= d else 0.0)
    weights = [(t, 1.0 if IS_DOUBLE[t] else plain) for t in left]
    total = sum(w for _, w in weights)
    return [(t, w / total) for t, w in weights if w > 0]


def max_actions(rules: Rules) -> int:
    """An upper bound on the steps of a hand, chance outcomes included: every tile dealt or
    drawn and played once, and at most one knock by every seat per play, per draw and at the
    end.
    """
    total, players = rules.n_tiles, rules.players
    return 2 * total + players * (2 * total + 2)


def max_points(rules: Rules) -> int:
    """An upper bound on a hand's points: 1 under ``'game'``, the pips of the whole set else."""
    return int(PIPS[:rules.n_tiles].sum()) if counts_pips(rules) else 1


class Table:
    """One hand, step by step: chance outcomes (the deal, each draw) and seats' actions.

    Parameters
    ----------
    rules : Rules

    Attributes
    ----------
    rules : Rules
    dealt : list of int
        The tile ids dealt so far, seat 0's first.
    state : GameState or None
        The reference engine's state, from the end of the deal on.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.dealt: list[int] = []
        self.state: GameState | None = None

    def clone(self) -> Table:
        """An independent copy."""
        twin = copy.copy(self)
        twin.dealt = list(self.dealt)
        twin.state = None if self.state is None else _copy_state(self.state)
        return twin

    @property
    def game(self) -> GameState:
        """The reference state (from the end of the deal on)."""
        if self.state is None:
            raise ValueError("The hand is still being dealt: it has no game state yet.")
        return self.state

    def _leader(self) -> int:
        return 0 if self.rules.leader is None else self.rules.leader

    # ------------------------------------------------------------------ whose turn
    @property
    def to_move(self) -> int:
        """The seat to act, :data:`CHANCE` or :data:`TERMINAL`."""
        state = self.state
        if state is None:
            return CHANCE
        if state.over:
            return TERMINAL
        if not state.ends:
            return self._leader()
        seat = state.to_move
        return CHANCE if state.must_draw(seat) else seat

    @property
    def turn(self) -> int:
        """The seat whose turn it is, drawing or choosing (public, unlike whether it must draw);
        -1 during the deal and after the end.
        """
        state = self.state
        if state is None or state.over:
            return -1
        return state.to_move if state.ends else self._leader()

    def is_chance(self) -> bool:
        """Whether the next step is a tile dealt or drawn."""
        return self.to_move == CHANCE

    def is_over(self) -> bool:
        """Whether the hand has ended."""
        return self.state is not None and self.state.over

    # ------------------------------------------------------------------ steps
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The tile ids the next chance step may give, with their probabilities."""
        if self.state is None:
            return deal_outcomes(self.rules, self.dealt)
        sleeping = sorted(tile_id(t) for t in self.state.boneyard)
        return [(t, 1.0 / len(sleeping)) for t in sleeping]

    def legal_actions(self) -> list[int]:
        """The actions of the seat to move, in canonical order (the knock alone if it has no
        move); empty at a chance node or the end.
        """
        seat = self.to_move
        if seat < 0:
            return []
        moves = self.game.legal_moves(seat)
        return [encode(m) for m in moves] if moves else [knock_action(self.rules)]

    def apply(self, action: int) -> None:
        """Apply a chance outcome (a tile id) or the seat to move's action."""
        seat = self.to_move
        if seat == CHANCE:
            self._chance(int(action))
        elif seat == TERMINAL:
            raise ValueError("The hand is over: no action can be applied.")
        elif action == knock_action(self.rules):
            self.game.knock(seat)
        elif not self.game.ends:
            self.game.lead(decode(action))
        else:
            self.game.play(seat, decode(action))

    def _chance(self, tid: int) -> None:
        if self.state is not None:  # a draw: the tile goes to the front of the boneyard
            boneyard = self.state.boneyard
            boneyard.insert(0, boneyard.pop(boneyard.index(tile_of(tid))))
            self.state.draw(self.state.to_move)
            return
        if tid not in dict(deal_outcomes(self.rules, self.dealt)):
            raise ValueError(f"The value for `action` must be a tile id not yet dealt that the "
                             f"deal allows, but {tid} was passed.")
        self.dealt.append(tid)
        h, players = self.rules.hand_size, self.rules.players
        if len(self.dealt) < h * players:
            return
        hands = [[tile_of(t) for t in self.dealt[s * h:(s + 1) * h]] for s in range(players)]
        done = set(self.dealt)
        boneyard = [tile_of(t) for t in range(self.rules.n_tiles) if t not in done]
        self.state = GameState.from_deal(self.rules, hands, boneyard)
        if opens_with_double(self.rules):
            self.state.open_with_highest_double()

    # ------------------------------------------------------------------ the end
    def returns(self) -> list[float]:
        """Each seat's result: 0 before the end; then zero-sum points (see the module's
        docstring).
        """
        rules, players = self.rules, self.rules.players
        won, points = (self.game.winning_side, self.game.points) if self.is_over() else (-1, 0)
        if won is None or points is None or won < 0:  # not over, or a tie
            return [0.0] * players
        share = points / (rules.n_sides - 1)
        return [float(points) if rules.side_of(s) == won else -share for s in range(players)]

    def hand_of(self, seat: int) -> list[tuple[int, int]]:
        """The tiles dealt to ``seat`` so far (its whole deal once the deal is over)."""
        h = self.rules.hand_size
        return [tile_of(t) for t in self.dealt[seat * h:(seat + 1) * h]]


def _copy_state(state: GameState) -> GameState:
    """A copy of ``state`` sharing only immutable parts (rules, events, tiles)."""
    twin = copy.copy(state)
    twin.hands = [list(h) for h in state.hands]
    twin.boneyard = list(state.boneyard)
    twin.ends = list(state.ends)
    twin.events = list(state.events)
    twin.knocked_since_play = set(state.knocked_since_play)
    twin.lacks = [set(x) for x in state.lacks]
    twin.stitch_ups = list(state.stitch_ups)
    twin.seen = [list(s) for s in state.seen]
    return twin


# -------------------------------------------------------------------------- what a seat sees
class Encoding:
    """The shapes of the vectors a seat sees under ``rules``: :func:`observation` and
    :func:`information_state`.

    Parameters
    ----------
    rules : Rules
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        p, t, s = rules.players, rules.n_tiles, rules.max_pip + 1
        self.observation_pieces = [("seat", p), ("to_move", p), ("hand", t), ("table", t),
                                   ("ends", s), ("playable", s), ("empty_arms", s),
                                   ("tile_counts", p), ("boneyard", 1), ("lacks", p * s)]
        self.event_size = 3 + p + t + s
        self.max_events = max_actions(rules) - rules.players * rules.hand_size
        self.information_pieces = [("seat", p), ("dealt", t),
                                   ("history", self.max_events * self.event_size)]

    @property
    def observation_size(self) -> int:
        """Length of the observation vector."""
        return sum(n for _, n in self.observation_pieces)

    @property
    def information_size(self) -> int:
        """Length of the information-state vector."""
        return sum(n for _, n in self.information_pieces)


def _views(pieces: list[tuple[str, int]], out: np.ndarray) -> dict[str, np.ndarray]:
    views, at = {}, 0
    for name, size in pieces:
        views[name] = out[at:at + size]
        at += size
    return views


def observation(table: Table, seat: int, out: np.ndarray, *, private: bool = True,
                public: bool = True) -> None:
    """Write what ``seat`` sees now into ``out`` (zeroed first; :class:`Encoding` gives the
    layout): its seat, whose turn it is, its own hand (``private``), and the public position
    (``public``): the tiles on the table, the open ends by suit (all, playable, unfilled arms),
    every seat's tile count, the boneyard's size, and the suits each seat is known to lack.
    """
    rules = table.rules
    out[:] = 0
    v = _views(Encoding(rules).observation_pieces, out)
    v["seat"][seat] = 1
    if table.turn >= 0:
        v["to_move"][table.turn] = 1
    state = table.state
    if private:
        for tile in (state.hands[seat] if state is not None else table.hand_of(seat)):
            v["hand"][tile_id(tile)] = 1
    if not public:
        return
    h = rules.hand_size
    if state is None:
        for s in range(rules.players):
            v["tile_counts"][s] = min(h, max(0, len(table.dealt) - s * h))
        v["boneyard"][0] = rules.n_tiles - len(table.dealt)
        return
    for e in state.events:
        if e.kind == "play":
            v["table"][tile_id(e.move.tile)] = 1
    playable = set(state.playable_ends())
    for i, end in enumerate(state.ends):
        v["ends"][end.suit] += 1
        v["playable"][end.suit] += i in playable
        v["empty_arms"][end.suit] += end.empty_arm
    v["tile_counts"][:] = [len(hand) for hand in state.hands]
    v["boneyard"][0] = len(state.boneyard)
    s = rules.max_pip + 1
    for k, lacks in enumerate(state.lacks):
        for suit in lacks:
            v["lacks"][k * s + suit] = 1


def _seen(table: Table, seat: int) -> list[Event]:
    return [] if table.state is None else [e for e in table.state.seen[seat] if e.kind != "end"]


def information_state(table: Table, seat: int, out: np.ndarray, *, private: bool = True) -> None:
    """Write everything ``seat`` has seen into ``out`` (zeroed first): its seat, its dealt tiles
    (``private``), and every event since the deal, one slot each: the kind (play, draw, knock),
    the seat, the tile (for a draw only the drawer's own, and only if ``private``) and the suit
    played on.
    """
    rules = table.rules
    enc = Encoding(rules)
    out[:] = 0
    v = _views(enc.information_pieces, out)
    v["seat"][seat] = 1
    if private:
        for tile in table.hand_of(seat):
            v["dealt"][tile_id(tile)] = 1
    history = v["history"].reshape(enc.max_events, enc.event_size)
    p, t = rules.players, rules.n_tiles
    for row, e in zip(history, _seen(table, seat), strict=False):
        row[("play", "draw", "knock").index(e.kind)] = 1
        row[3 + e.seat] = 1
        if e.tile is not None and (e.kind == "play" or private):
            row[3 + p + tile_id(e.tile)] = 1
        if e.kind == "play" and e.suit >= 0:
            row[3 + p + t + e.suit] = 1


def _tiles(tiles: Sequence[tuple[int, int]]) -> str:
    return " ".join(label(t) for t in tiles) or "-"


def observation_text(table: Table, seat: int, *, private: bool = True, public: bool = True) -> str:
    """What ``seat`` sees now, as text (the same facts as :func:`observation`)."""
    state, rules = table.state, table.rules
    parts = [f"seat {seat}"]
    if table.turn >= 0:
        parts.append(f"to move {table.turn}")
    if private:
        hand = state.hands[seat] if state is not None else table.hand_of(seat)
        parts.append(f"hand {_tiles(hand)}")
    if public and state is None:
        parts.append(f"dealing, {len(table.dealt)} tiles dealt")
    elif public and state is not None:
        playable = set(state.playable_ends())
        ends = " ".join(f"{e.suit}{'*' if e.empty_arm else ''}{'' if i in playable else '!'}"
                        for i, e in enumerate(state.ends))
        parts.append(f"table {_tiles([e.move.tile for e in state.events if e.kind == 'play'])}")
        parts.append(f"ends {ends or '-'}")
        parts.append("tiles " + " ".join(str(len(h)) for h in state.hands))
        parts.append(f"boneyard {len(state.boneyard)}")
        lacks = [f"{k}:{''.join(map(str, sorted(x)))}" for k, x in enumerate(state.lacks) if x]
        parts.append("lacks " + (" ".join(lacks) or "-"))
        if not opens_with_double(rules) and not state.ends:
            parts.append(f"leader {rules.leader}")
    return "; ".join(parts)


def _event_text(e: Event, seat: int, private: bool) -> str:
    if e.kind == "play":
        return f"{e.seat}:{label(e.move.tile)}" + ("" if e.suit < 0 else f"@{e.suit}")
    if e.kind == "draw":
        shown = e.tile is not None and private and e.seat == seat
        return f"{e.seat}:draw" + (f" {label(e.tile)}" if e.tile is not None and shown else "")
    return f"{e.seat}:knock"


def information_state_text(table: Table, seat: int, *, private: bool = True) -> str:
    """Everything ``seat`` has seen, as text (the same facts as :func:`information_state`)."""
    parts = [f"seat {seat}"]
    if private:
        parts.append(f"dealt {_tiles(table.hand_of(seat))}")
    parts.append("history " + (" ".join(_event_text(e, seat, private)
                                        for e in _seen(table, seat)) or "-"))
    return "; ".join(parts)


def state_from_view(view: SeatView, hands: list[list[tuple[int, int]]],
                    boneyard: list[tuple[int, int]]) -> GameState:
    """A reference game state at ``view``'s decision, with the hidden tiles filled in by
    ``hands`` and ``boneyard`` (for example a world drawn by
    :func:`dominosim.strategies.sampler.sample_hidden`): the open ends, the history, the known
    lacks and the knocks since the last play are the view's own.

    The state's ``seen`` records hold the view's history for every seat (other seats' drawn tiles
    are not known to the viewer); what a search needs (legal moves, draws, knocks, the end, the
    score) is exact.
    """
    rules = view.rules
    history = list(view.history)
    knocked: set[int] = set()
    for e in history:
        if e.kind == "play":
            knocked.clear()
        elif e.kind == "knock":
            knocked.add(e.seat)
    opening = next((e.tile for e in history if e.kind == "play"), None)
    stitch = [sum(e.stitch_up for e in history if e.kind == "play" and e.seat == s)
              for s in range(rules.players)]
    return GameState(rules=rules, hands=[sorted(h, key=tile_id) for h in hands],
                     boneyard=list(boneyard), ends=[End(*e) for e in view.layout],
                     to_move=view.seat, opener=view.opener, opening_tile=opening,
                     events=history, knocked_since_play=knocked,
                     lacks=[set(x) for x in view.known_lacks], stitch_ups=stitch,
                     seen=[list(history) for _ in range(rules.players)])


def table_from_view(view: SeatView, hands: list[list[tuple[int, int]]],
                    boneyard: list[tuple[int, int]]) -> Table:
    """A :class:`Table` at ``view``'s decision (see :func:`state_from_view`)."""
    table = Table(view.rules)
    table.state = state_from_view(view, hands, boneyard)
    return table
