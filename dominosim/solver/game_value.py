"""The value of a small two-player game under optimal play of both seats: :func:`game_value`.

Dominoes with hidden hands is a two-player zero-sum game of imperfect information with chance (the
deal, the draws). Its value, and a strategy of each seat reaching it, are the solution of the
*sequence-form* linear program (Koller, Megiddo and von Stengel, 1994), whose size is that of the
game tree rather than the (exponential) number of pure strategies:

* a seat's *information set* is what it has seen: its dealt hand and every public event, its own
  draws with the tile drawn (the other seat's without); a *sequence* is an information set and a
  move there (plus the empty sequence); a strategy is a *realization plan* ``x``, the probability
  of playing each sequence's moves, with ``x[empty] = 1`` and, at every information set, the plan
  of its parent sequence split among its moves (``E x = e``, ``x >= 0``);
* the payoff matrix ``A[s0, s1]`` adds, over every end of a hand reached by the sequences ``s0``
  of seat 0 and ``s1`` of seat 1, the chance of the deal and the draws times seat 0's result
  (1 a win, 1/2 a tie, 0 a loss);
* seat 0's value is ``max_x min_y x' A y``; for a fixed ``x`` the inner minimum is a linear program
  whose dual has one free variable ``q`` per information set of seat 1, so the value is
  ``max q[root]`` subject to ``F' q <= A' x``, ``E x = e``, ``x >= 0``: one linear program, solved
  by SciPy's HiGHS (:func:`scipy.optimize.linprog`).

Only decisions with two or more legal moves are information sets (a forced move changes nothing).
Every rule is decided by the reference engine's functions (:mod:`dominosim.reference.game`).

Examples
--------
>>> import dominosim as ds
>>> v = game_value(ds.Rules(max_pip=2, players=2, hand_size=2))
>>> round(v.value, 9), v.sequences, v.information_sets
(0.5, (7, 7), (3, 3))

When seat 0 leads any tile it likes, the lead is worth much:

>>> round(game_value(ds.Rules(max_pip=2, players=2, hand_size=2, opening="any", leader=0)).value, 4)
0.9056
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

import numpy as np

from ..checks import check_limit, refuse
from ..reference.game import Move, highest_double, legal_moves, move_key, opens_with_double
from ..rules import Rules
from ..tiles import full_set
from .walk import Node, played, result, root, settle

__all__ = ["GameValue", "game_value"]


@dataclass(frozen=True)
class GameValue:
    """The value of a two-player game under optimal play of both seats.

    Attributes
    ----------
    value : float
        Seat 0's expected result (a win 1, a tie 1/2, a loss 0) when both seats play optimally;
        seat 1's is ``1 - value``. Every strategy of seat 0 guarantees at most this, and seat 0
        has one guaranteeing it.
    by_seat : tuple of float
        Each seat's value, each from its own linear program (seat 0's is :attr:`value`); they add
        up to 1 (the minimax theorem), up to the solver's tolerance.
    sequences : tuple of int
        The number of sequences of seat 0 and of seat 1 (the empty one included).
    information_sets : tuple of int
        The number of information sets (decisions with two or more moves) of each seat.
    plan : numpy.ndarray
        Seat 0's optimal realization plan, one probability per sequence (the empty one first).
    """

    value: float
    by_seat: tuple
    sequences: tuple
    information_sets: tuple
    plan: np.ndarray


class _Game:
    """The game tree walked once: the sequences, the information sets and the payoff matrix."""

    def __init__(self, rules: Rules, max_nodes: int) -> None:
        self.rules = rules
        self.nodes, self.max_nodes = 0, max_nodes
        self.infos: list[dict] = [{}, {}]  # key -> (index, parent sequence)
        self.seqs: list[dict] = [{(): 0}, {(): 0}]  # (information set, move) -> index
        self.payoff: dict[tuple[int, int], list] = {}  # (s0, s1) -> [chance, seat 0's result]

    def leaf(self, hands, out_seat: int, chance: Fraction, at: tuple) -> None:
        cell = self.payoff.setdefault(at, [Fraction(0), Fraction(0)])
        cell[0] += chance
        cell[1] += chance * result(self.rules, hands, out_seat, 0)

    def decide(self, seat: int, key: tuple, moves: list, at: tuple):
        """The sequences of ``seat`` choosing each of ``moves`` at information set ``key``."""
        info = self.infos[seat].setdefault(key, (len(self.infos[seat]), at[seat]))[0]
        for move in moves:
            seq = self.seqs[seat].setdefault((info, move), len(self.seqs[seat]))
            yield move, (seq, at[1]) if seat == 0 else (at[0], seq)

    def walk(self, node: Node, chance: Fraction, at: tuple) -> None:
        """Every continuation of ``node`` reached with probability ``chance`` by the sequences
        ``at``.
        """
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise ValueError(f"The value for `max_nodes` ({self.max_nodes:,}) is too small for "
                             f"this game: its tree has more nodes; pass a smaller rule set or a "
                             "larger `max_nodes`.")
        seat = node.seat
        moves = legal_moves(self.rules, node.hands[seat], node.ends)
        if len(moves) == 1:
            self.play(node, moves[0], chance, at)
        elif moves:
            for move, after in self.decide(seat, (seat, node.seen[seat]), moves, at):
                self.play(node, move, chance, after)
        elif (children := settle(self.rules, node)) is None:
            self.leaf(node.hands, -1, chance, at)
        else:
            for child in children:
                self.walk(child, chance / len(children), at)

    def play(self, node: Node, move: Move, chance: Fraction, at: tuple) -> None:
        """:meth:`walk` after ``move`` by the seat to move (the opening when nothing is down)."""
        child, out = played(self.rules, node, move)
        if out:
            self.leaf(child.hands, child.seat, chance, at)
        else:
            self.walk(child, chance, at)

    def deal(self, hands: tuple, bone: tuple, chance: Fraction) -> None:
        """Walk one deal from its opening."""
        seen: tuple = tuple((("dealt", h),) for h in hands)
        if opens_with_double(self.rules):
            found = highest_double(hands, self.rules.max_pip)
            assert found is not None, "_deals keeps the deals holding a double"
            seat, tile = found
            self.play(root(hands, bone, seat, seen), Move(tile, tile[0]), chance, (0, 0))
            return
        leader = self.rules.leader
        assert leader is not None, "Rules names the leader under opening='any'"
        node = root(hands, bone, leader, seen)
        leads = sorted({Move(t, -1) for t in hands[leader]}, key=move_key)
        for move, after in self.decide(leader, (leader, seen[leader]), leads, (0, 0)):
            self.play(node, move, chance, after)


def _deals(rules: Rules):
    """Every deal of the hand played (a deal without a double is redealt under the highest-double
    opening), each as ``(hands, boneyard)``; all equally likely.
    """
    tiles = full_set(rules.max_pip)
    h = rules.hand_size
    found = []
    for first in combinations(tiles, h):
        rest = [t for t in tiles if t not in first]
        for second in combinations(rest, h):
            hands = (first, second)
            if opens_with_double(rules) and highest_double(hands, rules.max_pip) is None:
                continue
            found.append((hands, tuple(t for t in rest if t not in second)))
    return found


def _constraints(game: _Game, seat: int):
    """The realization plans of ``seat``: ``E x = e`` with a row for the empty sequence (``x = 1``)
    and one per information set (its moves' plans add up to its parent sequence's).
    """
    from scipy.sparse import coo_matrix

    rows, cols, vals = [0], [0], [1.0]
    for key, seq in game.seqs[seat].items():
        if key:
            rows.append(key[0] + 1)
            cols.append(seq)
            vals.append(1.0)
    for info, parent in game.infos[seat].values():
        rows.append(info + 1)
        cols.append(parent)
        vals.append(-1.0)
    shape = (len(game.infos[seat]) + 1, len(game.seqs[seat]))
    return coo_matrix((vals, (rows, cols)), shape=shape).tocsr()


def _solve(game: _Game, seat: int) -> tuple[float, np.ndarray]:
    """``seat``'s value and optimal realization plan: ``max q[root]`` over its plan ``x`` and the
    free ``q`` (one per information set of the other seat, and the root) subject to
    ``F' q <= A' x`` and ``E x = e``, ``x >= 0`` (``A``: ``seat``'s payoff, ``E``, ``F``: the two
    seats' plans).
    """
    from scipy.optimize import linprog
    from scipy.sparse import bmat, coo_matrix, csr_matrix

    e, f = _constraints(game, seat), _constraints(game, 1 - seat)
    keys = list(game.payoff)
    cells = [game.payoff[k] for k in keys]
    values = [float(won if seat == 0 else reach - won) for reach, won in cells]
    mine, theirs = [k[seat] for k in keys], [k[1 - seat] for k in keys]
    a = coo_matrix((values, (mine, theirs)), shape=(e.shape[1], f.shape[1])).tocsr()
    n, m = e.shape[1], f.shape[0]
    cost = np.zeros(n + m)
    cost[n] = -1.0  # maximise q[root]
    rhs = np.zeros(e.shape[0])
    rhs[0] = 1.0
    done = linprog(cost, A_ub=bmat([[-a.T, f.T]], format="csr"), b_ub=np.zeros(f.shape[1]),
                   A_eq=bmat([[e, csr_matrix((e.shape[0], m))]], format="csr"), b_eq=rhs,
                   bounds=[(0, None)] * n + [(None, None)] * m, method="highs")
    assert done.status == 0, done.message
    return float(-done.fun), done.x[:n]


def game_value(rules: Rules, *, max_nodes: int = 4_000_000) -> GameValue:
    """The value of a small two-player game under optimal play of both seats, by the
    sequence-form linear program (see the module documentation) solved by SciPy's HiGHS.

    Parameters
    ----------
    rules : Rules
        Two players, individual play, a set small enough to walk every deal's whole game tree
        (double-2 sets, and double-3 with three tiles each: seconds to a minute).
    max_nodes : int
        The walk of the game tree stops, and refuses the rule set, past this many nodes (1 to
        2**62; measured: about 60,000 a second and 550 bytes each, so about 2 GB at the default;
        Draw double-3 with three tiles each has 1.2 million).

    Returns
    -------
    GameValue
        ``.value`` (seat 0's), the sizes, and seat 0's optimal realization plan.

    Examples
    --------
    >>> import dominosim as ds
    >>> round(ds.game_value(ds.Rules(max_pip=2, players=2, hand_size=2, draw="until_playable")).value, 9)
    0.5
    """
    if not isinstance(rules, Rules):
        raise refuse("rules", "a Rules", type(rules).__name__)
    if rules.players != 2:
        raise refuse("rules", "a rule set of two players", rules)
    game = _Game(rules, check_limit("max_nodes", max_nodes))
    deals = _deals(rules)
    for hands, bone in deals:
        game.deal(hands, bone, Fraction(1, len(deals)))
    (v0, plan), (v1, _) = _solve(game, 0), _solve(game, 1)
    return GameValue(v0, (v0, v1), (len(game.seqs[0]), len(game.seqs[1])),
                     (len(game.infos[0]), len(game.infos[1])), plan)
