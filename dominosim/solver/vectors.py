"""The exact enumerations' vectors of a hand's quantities, in integers over one denominator.

A vector is ``(denominator, numerators)``: entry ``i`` is ``numerators[i] / denominator``
(:class:`fractions.Fraction` arithmetic on every entry would cost most of an enumeration's
time). :class:`Quantities` names the entries.

Examples
--------
>>> total([(2, (1, 0)), (3, (0, 1))], 2)
(12, (3, 2))
>>> plus((4, (1, 2)), 1, 3)
(4, (1, 14))
"""

from __future__ import annotations

import math

from ..rules import Rules

__all__ = ["Quantities", "plus", "total"]


class Quantities:
    """Where each quantity of a hand sits in a vector, by absolute seat and side: ``WIN + k``
    (side ``k`` wins), ``TIE``, ``BLOCKED``, ``OUT``, ``POINTS`` (the winner's), ``SIDE_POINTS +
    k``, ``PLAYS``, ``KNOCKS``, ``DRAWS`` and ``STITCH + s`` (seat ``s``'s stitch-ups); ``size``
    entries in all.
    """

    def __init__(self, rules: Rules) -> None:
        s, p = rules.n_sides, rules.players
        self.WIN, self.TIE, self.BLOCKED, self.OUT, self.POINTS = 0, s, s + 1, s + 2, s + 3
        self.SIDE_POINTS = s + 4
        self.PLAYS, self.KNOCKS, self.DRAWS = 2 * s + 4, 2 * s + 5, 2 * s + 6
        self.STITCH = 2 * s + 7
        self.size = 2 * s + 7 + p
        self.n_sides, self.players = s, p

    def moved(self, r: int) -> list[int]:
        """Where each entry goes when every seat moves ``r`` places on (seat ``s`` to ``(s + r)
        mod players``, so side ``k`` to ``(k + r) mod sides``): entry ``i`` of a hand's vector
        is entry ``moved(r)[i]`` of the same hand with its seats moved. Nothing in the rule book
        reads a seat by its number (the turn passes on, ties and points compare sides), so a
        hand opened by seat ``r`` totals what the same hand opened by seat 0 does, moved.

        >>> Quantities(Rules(max_pip=2, players=3, hand_size=2)).moved(1)
        [1, 2, 0, 3, 4, 5, 6, 8, 9, 7, 10, 11, 12, 14, 15, 13]
        """
        s, p = self.n_sides, self.players
        where = list(range(self.size))
        for k in range(s):
            where[self.WIN + k] = self.WIN + (k + r) % s
            where[self.SIDE_POINTS + k] = self.SIDE_POINTS + (k + r) % s
        for seat in range(p):
            where[self.STITCH + seat] = self.STITCH + (seat + r) % p
        return where

    def add_result(self, v: list, winner: int, points: int, n: int = 1) -> None:
        """Add ``n`` hands won by side ``winner`` (-1: a tie) for ``points`` to ``v``."""
        if winner < 0:
            v[self.TIE] += n
            return
        v[self.WIN + winner] += n
        v[self.POINTS] += n * points
        v[self.SIDE_POINTS + winner] += n * points


def plus(v: tuple, index: int, n: int = 1) -> tuple:
    """``v`` with ``n`` added to entry ``index``."""
    den, nums = v
    nums = list(nums)
    nums[index] += den * n
    return den, tuple(nums)


def total(vectors: list, k: int = 1) -> tuple:
    """The sum of ``vectors`` divided by ``k``, reduced (``k`` 1: the plain sum)."""
    if len(vectors) == 1 and k == 1:
        return vectors[0]
    if not vectors:
        raise ValueError("The value for `vectors` must hold a vector, but none was passed.")
    den = math.lcm(*[d for d, _ in vectors])
    sums = list(map(sum, zip(*[nums if d == den else [x * (den // d) for x in nums]
                               for d, nums in vectors], strict=True)))
    den *= k
    g = math.gcd(den, *sums)
    if g == 1:
        return den, tuple(sums)
    return den // g, tuple([x // g for x in sums])
