"""The size of the lazy enumeration's tree, estimated by random probes (Knuth, 1975), before any
work: the check :func:`dominosim.solver.exact.exact` makes when the deals-based count
(:func:`~dominosim.solver.exact.estimated_states`) would refuse a rule set.

The lazy enumeration (:mod:`dominosim.solver.lazy`) evaluates each state once, so the states it
keeps are the distinct nodes of its tree: a state met along two paths is one state but two nodes.
A probe walks from a random first state to the end of a hand, choosing a child uniformly at every
state, and multiplies the numbers of children met: the sum of those products over the walk's
depths is an unbiased estimate of the tree's nodes (Knuth, *Estimating the efficiency of
backtrack programs*, Mathematics of Computation 29, 1975). The mean over many probes estimates a
bound of the states. It is tight where few paths meet (Block games led by a double: 1.1 times the
states of double-four, four players of two tiles each) and loose where many orders of play reach
one state (the fill-first crosses and the boneyard's draws: ``benchmarks/README.md``).

Examples
--------
>>> from dominosim.rules import Rules
>>> rules = Rules(max_pip=2, players=2, hand_size=2)
>>> tree_nodes(rules, ["random", "random"], set())  # every node from seat 0's openings, walked
72
>>> round(tree_size(rules, ["random", "random"], set(), probes=4000, seed=0))
73
"""

from __future__ import annotations

import random

from ..rules import Rules
from .lazy import Lazy, moved_from_seat_0, openings

__all__ = ["Children", "probe", "tree_nodes", "tree_size"]


class Children(Lazy):
    """The lazy enumeration asked for a state's children instead of their values: ``visit``
    records the state it is given and answers a zero vector, so ``_rest`` of a state lists the
    states it would evaluate next (a finished hand is a leaf, not a state).
    """

    def __init__(self, rules: Rules, lineup: list[str], reads: set) -> None:
        super().__init__(rules, lineup, reads, max_states=0)
        self.met: list = []
        self.zero = (1, (0,) * self.size)

    def visit(self, *state) -> tuple:
        """Record ``state`` as a child of the state being expanded."""
        self.met.append(state)
        return self.zero

    def finish(self, pool, known, hidden, lack, out_seat: int) -> tuple:
        """A finished hand is a leaf: its value is not asked for."""
        return self.zero

    def children(self, state: tuple) -> list:
        """The distinct states ``state`` would visit, in the enumeration's order."""
        self.met = []
        self._rest(*state)
        return list(dict.fromkeys(self.met))

    def first(self) -> list:
        """The distinct states the openings visit first (the roots of the tree)."""
        rules, p = self.rules, self.rules.players
        lack = (0,) * p
        self.met = []
        random_only = all(style is None for style in self.styles)
        for seat, pool, bone, hand, hidden, leads, double in openings(rules):
            if moved_from_seat_0(random_only, seat, double):
                continue  # not enumerated: seat 0's totals, moved
            known = tuple(hand if s == seat else 0 for s in range(p))
            for move in self.opening_moves(seat, pool, known, hidden, bone, leads):
                self.opened(pool, known, hidden, lack, bone, seat, move.tile)
        return list(dict.fromkeys(self.met))


def tree_size(rules: Rules, lineup: list[str], reads: set, *, probes: int = 1000,
              seed: int = 0) -> float:
    """The estimated nodes of the lazy enumeration's tree for ``rules`` and ``lineup`` (one
    enumerable built-in per seat, reading ``reads`` of the public history, as for
    :class:`~dominosim.solver.lazy.Lazy`): the mean of ``probes`` random probes' estimates
    (:func:`probe`) from ``random.Random(seed)``, so the same arguments give the same number.

    It bounds the states :func:`~dominosim.solver.exact.exact` keeps in expectation (each state
    is at least one node). Its standard error is the spread of the probes over
    ``sqrt(probes)``; a probe's estimate has a long tail, so a mean of few probes tends to fall
    short of the tree.
    """
    game = Children(rules, lineup, reads)
    roots = game.first()
    rng = random.Random(seed)
    return sum(probe(game, roots, rng) for _ in range(probes)) / probes


def probe(game: Children, roots: list, rng: random.Random) -> float:
    """One probe's estimate of the nodes of ``game``'s tree below ``roots``: a walk from a
    random root to the end of a hand, each child chosen uniformly, summing the products of the
    numbers of children met (the weight of each depth).
    """
    found, weight, state = 0.0, len(roots), rng.choice(roots)
    while True:
        found += weight
        children = game.children(state)
        if not children:
            return found
        weight *= len(children)
        state = rng.choice(children)


def tree_nodes(rules: Rules, lineup: list[str], reads: set) -> int:
    """Every node of the lazy enumeration's tree for ``rules`` and ``lineup``, walked one by one
    (only for the smallest rule sets: the check of :func:`tree_size`).
    """
    game = Children(rules, lineup, reads)
    stack = game.first()
    nodes = 0
    while stack:
        state = stack.pop()
        nodes += 1
        stack.extend(game.children(state))
    return nodes
