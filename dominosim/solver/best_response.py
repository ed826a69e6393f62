"""The best reply to a fixed strategy, and how much it gains: :func:`best_response`.

For a two-player rule set small enough to enumerate, the replying seat's best strategy against a
fixed one (``random`` or a deterministic built-in style) is found by backward induction over the
replier's information sets: everything it has seen (its dealt hand, every public event, the tiles
it drew itself) and nothing else. The histories of an information set share the replier's legal
moves; each move's value is summed over them, weighted by how likely each is (the deal, the draws
and the fixed strategy's choices, never the replier's own), with the replier's later choices
already made best. The replier has perfect recall, so this is a best reply among all strategies,
mixed ones included.

A result counts 1 for a win, 1/2 for a tie and 0 for a loss, the quantity that
``ds.compare(...).row("win_rate_a")`` estimates. Everything is exact (:class:`fractions.Fraction`).

Examples
--------
>>> import dominosim as ds
>>> reply = best_response(ds.Rules(max_pip=3, players=2, hand_size=3), "bully")
>>> reply.value, reply.gain
(Fraction(219, 380), Fraction(29, 380))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

import pandas as pd

from ..checks import check_choice, refuse
from ..reference.game import Move, highest_double, legal_moves, move_key, opens_with_double
from ..rules import Rules
from ..strategies.lineup import BUILTINS, STYLES
from ..tiles import full_set, label
from .lazy import seat_view
from .walk import Node, played, result, root, settle

__all__ = ["BestResponse", "best_response"]


@dataclass(frozen=True)
class BestResponse:
    """The best reply to a strategy.

    Attributes
    ----------
    value : Fraction
        The replier's expected result (win 1, tie 1/2), averaged over the two seats it may take.
    gain : Fraction
        ``value`` less the strategy's own against itself (1/2 over both seats): how much the
        strategy can be exploited.
    policy : pandas.DataFrame
        One row per information set where the replier has two or more moves: ``seat``,
        ``dealt`` (its dealt hand), ``history`` (the public events it saw, its own draws shown),
        ``move`` (the best one; ties go to the first in canonical move order) and ``value`` (the
        best move's expected result, given the information set is reached).
    by_seat : tuple of Fraction
        The replier's value at seat 0 and at seat 1.
    """

    value: Fraction
    gain: Fraction
    policy: pd.DataFrame
    by_seat: tuple


class _Tree:
    """The hand as seen by the enumeration: histories (:class:`~dominosim.solver.walk.Node`), the
    replier's view of the events its ``seen[replier]``.
    """

    def __init__(self, rules: Rules, strategy: str, replier: int) -> None:
        self.rules = rules
        self.replier = replier
        self.style = None if strategy == "random" else BUILTINS[strategy]()
        self.rows: list = []

    def advance(self, node: Node, weight: Fraction, out: dict) -> Fraction:
        """Play ``node`` on until the replier must choose among two or more moves or the hand
        ends: the ended hands' weighted results, and ``out`` filled with ``{information set:
        [(node, weight), ...]}`` for the choices reached.
        """
        rules = self.rules
        hands, seat = node.hands, node.seat
        moves = legal_moves(rules, hands[seat], node.ends)
        if moves:
            if seat == self.replier and len(moves) > 1:
                out.setdefault((hands[seat], node.seen[seat]), []).append((node, weight))
                return Fraction(0)
            if seat != self.replier and len(moves) > 1 and self.style is not None:
                view = seat_view(rules, seat, hands[seat], node.ends, tuple(len(h) for h in hands),
                                 len(node.bone), node.lacks, node.plays)
                moves = [self.style.choose(view, moves, None)]
            share = weight / len(moves)
            return sum((self.advance_play(node, m, share, out) for m in moves), Fraction(0))
        children = settle(rules, node)
        if children is None:
            return weight * result(rules, hands, -1, self.replier)
        share = weight / len(children)
        return sum((self.advance(child, share, out) for child in children), Fraction(0))

    def advance_play(self, node: Node, move: Move, weight: Fraction, out: dict) -> Fraction:
        """:meth:`advance` after ``move`` by the seat to move."""
        child, ended = played(self.rules, node, move)
        if ended:
            return weight * result(self.rules, child.hands, child.seat, self.replier)
        return self.advance(child, weight, out)

    def solve(self, info: tuple, histories: list) -> Fraction:
        """The weighted value of information set ``info`` under the best reply (its move
        recorded in :attr:`rows`).
        """
        first = histories[0][0]
        moves = legal_moves(self.rules, first.hands[self.replier], first.ends)
        best: Fraction | None = None
        best_move = None
        for move in sorted(moves, key=move_key):
            out: dict = {}
            found = sum((self.advance_play(node, move, w, out) for node, w in histories),
                        Fraction(0))
            found += sum((self.solve(key, group) for key, group in out.items()), Fraction(0))
            if best is None or found > best:
                best, best_move = found, move
        reach = sum((w for _, w in histories), Fraction(0))
        assert best is not None, "a decision has at least one legal move"
        dealt = first.seen[self.replier][0][1]
        self.rows.append((self.replier, dealt, info[1][1:], best_move, best / reach))
        return best


def _opening(rules: Rules, replier: int, hands, bone) -> tuple[Node, bool] | None:
    """The history after the opening of a deal and whether it ends the hand (None when the deal
    is redealt).
    """
    found = highest_double(hands, rules.max_pip)
    if found is None:
        return None
    seat, tile = found
    # the replier's dealt hand as its history shows it: its opening double last
    dealt = tuple(t for t in hands[replier] if t != tile) + ((tile,) if seat == replier else ())
    seen = tuple((("dealt", dealt if s == replier else h),) for s, h in enumerate(hands))
    return played(rules, root(hands, bone, seat, seen), Move(tile, tile[0]))


def best_response(rules: Rules, strategy: str = "random") -> BestResponse:
    """The exact best reply to ``strategy`` on a small two-player rule set, and its gain.

    Parameters
    ----------
    rules : Rules
        Two players, individual play, opening by the highest double, a set small enough to
        enumerate every deal (double-2 and double-3 sets: under a minute each on the validation
        table's double-three configurations, ``benchmarks/README.md``).
    strategy : str
        The fixed strategy: ``'random'`` or a deterministic built-in style.

    Returns
    -------
    BestResponse
        ``.value``, ``.gain``, ``.policy`` and ``.by_seat``.

    Examples
    --------
    >>> import dominosim as ds
    >>> rules = ds.Rules(max_pip=2, players=2, hand_size=2)
    >>> best_response(rules, "random").value
    Fraction(91, 180)
    >>> best_response(rules, "random").policy.columns.tolist()
    ['seat', 'dealt', 'history', 'move', 'value']
    """
    if not isinstance(rules, Rules):
        raise refuse("rules", "a Rules", type(rules).__name__)
    if rules.players != 2 or not opens_with_double(rules):
        raise ValueError(f"The value for `rules` must have two players and the highest-double "
                         f"opening, but {rules!r} was passed.")
    check_choice("strategy", strategy, STYLES)
    by_seat, rows = [], []
    tiles = full_set(rules.max_pip)
    h = rules.hand_size
    for replier in range(2):
        tree = _Tree(rules, strategy, replier)
        total, deals = Fraction(0), 0
        first: dict = {}
        for mine in combinations(tiles, h):
            rest = [t for t in tiles if t not in mine]
            for theirs in combinations(rest, h):
                hands = (mine, theirs) if replier == 0 else (theirs, mine)
                opened = _opening(rules, replier, hands, [t for t in rest if t not in theirs])
                if opened is None:
                    continue
                deals += 1
                node, ended = opened
                if ended:  # the opener is out at once
                    total += result(rules, node.hands, node.seat, replier)
                else:
                    total += tree.advance(node, Fraction(1), first)
        total += sum((tree.solve(key, group) for key, group in first.items()), Fraction(0))
        by_seat.append(total / deals)
        rows += tree.rows
    value = sum(by_seat, Fraction(0)) / 2
    policy = pd.DataFrame(
        [(seat, " ".join(label(t) for t in dealt), _history(history), _move(move), float(v))
         for seat, dealt, history, move, v in rows],
        columns=["seat", "dealt", "history", "move", "value"])
    return BestResponse(value, value - Fraction(1, 2), policy, tuple(by_seat))


def _move(move: Move) -> str:
    return f"{label(move.tile)} on {move.suit}"


def _history(events: tuple) -> str:
    """The public events as text: ``s1 3-2 on 3``, ``s0 knocks``, ``s0 draws 4-1`` (a hidden
    draw: ``s1 draws``).
    """
    words = []
    for event in events:
        if event[0] == "play":
            words.append(f"s{event[1]} {_move(Move(event[2], event[3]))}")
        elif event[0] == "knock":
            words.append(f"s{event[1]} knocks")
        else:
            words.append(f"s{event[1]} draws" + (f" {label(event[2])}" if event[2] else ""))
    return ", ".join(words)
