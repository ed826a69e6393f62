"""Exact expected values of a small rule set under the ``random`` strategy: every deal, every
choice and every draw enumerated, in :class:`fractions.Fraction`.

The hand is played by the reference engine's rule functions (:mod:`dominosim.reference.game`:
:func:`~dominosim.reference.game.legal_moves`, :func:`~dominosim.reference.game.ends_after`,
:func:`~dominosim.reference.game.next_seat`, :func:`~dominosim.reference.game.score`, ...) on immutable states, so
the rules are the ones both engines play. The readings of the rule book it follows:

* ``random`` picks uniformly among the distinct legal moves (a seat with one move plays it), and
  leads uniformly among its tiles under ``opening='any'``;
* the boneyard is a uniformly shuffled sequence, so each draw is uniform among the tiles still
  asleep (the states keep the sleeping tiles as a set);
* a deal with no double under ``opening='highest_double'`` is redealt (rejection sampling): the
  hand played is uniform over the deals holding a double, and the number of redeals is geometric.

Equal states met along different deals are evaluated once (a table of the expected rest of the
hand from each state).
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from itertools import combinations

import pandas as pd

from ..checks import refuse
from ..reference.game import (
    Move,
    ends_after,
    ends_by_out,
    highest_double,
    is_blocked,
    is_stitch_up,
    legal_moves,
    next_seat,
    opening_ends,
    score,
)
from ..rules import Rules
from ..tiles import full_set, pips

__all__ = ["exact", "estimated_states", "MAX_STATES"]

MAX_STATES = 3_000_000
"""The largest :func:`estimated_states` that :func:`exact` takes on by default (about a minute)."""


def _deals(tiles: list, players: int, size: int):
    """Every way to deal ``size`` tiles to each seat (hands as sorted tuples), with the rest."""
    if players == 0:
        yield (), tuple(tiles)
        return
    for hand in combinations(tiles, size):
        rest = [t for t in tiles if t not in hand]
        for others, bone in _deals(rest, players - 1, size):
            yield (hand,) + others, bone


def estimated_states(rules: Rules) -> int:
    """A rough count of the work of :func:`exact`: the deals, times the tiles dealt, times one more
    than the tiles that may be drawn (measured: about 30 microseconds each).

    >>> estimated_states(Rules(max_pip=3, players=2, hand_size=3))
    25200
    """
    n, h, p = rules.n_tiles, rules.hand_size, rules.players
    deals = math.factorial(n) // (math.factorial(h) ** p * math.factorial(n - h * p))
    drawable = n - h * p - rules.boneyard_keep if rules.can_draw else 0
    return deals * h * p * (1 + drawable)


class _Game:
    """The enumeration for one rule set: ``rest(state)`` is the expected rest of the hand."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        p, s = rules.players, rules.n_sides
        # the vector of a hand's quantities, by absolute seat and side
        self.WIN, self.TIE, self.BLOCKED, self.OUT, self.POINTS = 0, s, s + 1, s + 2, s + 3
        self.SIDE_POINTS = s + 4
        self.PLAYS, self.KNOCKS, self.DRAWS = 2 * s + 4, 2 * s + 5, 2 * s + 6
        self.STITCH = 2 * s + 7
        self.size = 2 * s + 7 + p
        self.rest = lru_cache(maxsize=None)(self._rest)

    def canonical(self, ends) -> tuple:
        """The open ends as a state key: in order under fill-first (the opening's arms are the
        first ends), else as a multiset (sorted): where a tile goes then changes only which of
        equal ends it covers, and nothing that follows depends on the order."""
        return tuple(ends) if self.rules.fill_opening_first else tuple(sorted(ends))

    def finish(self, hands, out_seat: int) -> tuple:
        rules = self.rules
        v = [0] * self.size
        winner, points = score(rules, [sum(pips(t) for t in h) for h in hands], out_seat)
        if winner < 0:
            v[self.TIE] = 1
        else:
            v[self.WIN + winner] = 1
            v[self.POINTS] = points
            v[self.SIDE_POINTS + winner] = points
        v[self.OUT if out_seat >= 0 else self.BLOCKED] = 1
        return 1, tuple(v)

    def after_play(self, hands, ends, bone, seat: int, tile, suit: int) -> tuple:
        """The rest of the hand from the play of ``tile`` on ``suit`` by ``seat`` on."""
        hands = tuple(tuple(t for t in h if t != tile) if s == seat else h
                      for s, h in enumerate(hands))
        new_ends, _ = ends_after(self.rules, ends, Move(tile, suit))
        v = self.continue_after(hands, self.canonical(new_ends), bone, seat)
        v = _plus(v, self.PLAYS)
        if is_stitch_up([e.suit for e in new_ends]):
            v = _plus(v, self.STITCH + seat)
        return v

    def continue_after(self, hands, ends, bone, seat: int) -> tuple:
        if ends_by_out(self.rules, hands, seat):
            return self.finish(hands, seat)
        return self.rest(hands, ends, bone, next_seat(self.rules, hands, seat), frozenset(),
                         False)

    def _rest(self, hands, ends, bone, seat: int, knocked: frozenset, drew: bool) -> tuple:
        rules = self.rules
        moves = legal_moves(rules, hands[seat], ends)
        if moves:
            return _mean([self.after_play(hands, ends, bone, seat, m.tile, m.suit)
                          for m in moves])
        drawable = max(0, len(bone) - rules.boneyard_keep) if rules.can_draw else 0
        if drawable > 0 and (rules.draw == "until_playable" or not drew):
            children = []
            for tile in bone:
                taken = tuple(tuple(sorted(h + (tile,))) if s == seat else h
                              for s, h in enumerate(hands))
                children.append(self.rest(taken, ends, bone - {tile}, seat, knocked, True))
            return _plus(_mean(children), self.DRAWS)
        knocked = knocked | {seat}
        holding = {s for s in range(rules.players) if hands[s]}
        if is_blocked(holding, set(knocked), drawable):
            v = self.finish(hands, -1)
        else:
            v = self.rest(hands, ends, bone, next_seat(rules, hands, seat), knocked, False)
        return _plus(v, self.KNOCKS)


# A vector of expected values is ``(denominator, numerators)`` in integers (Fraction arithmetic
# on every entry costs most of the enumeration's time): each entry is ``numerator / denominator``.
def _plus(v: tuple, index: int) -> tuple:
    """``v`` with 1 added to entry ``index``."""
    den, nums = v
    nums = list(nums)
    nums[index] += den
    return den, tuple(nums)


def _sum(vectors: list) -> tuple:
    """The sum of the ``vectors``."""
    den = math.lcm(*(d for d, _ in vectors))
    total = [0] * len(vectors[0][1])
    for d, nums in vectors:
        f = den // d
        for i, x in enumerate(nums):
            if x:
                total[i] += x * f
    return den, total


def _mean(vectors: list) -> tuple:
    """The mean of the ``vectors``, reduced."""
    den, total = _sum(vectors)
    den *= len(vectors)
    g = math.gcd(den, *total)
    return den // g, tuple(x // g for x in total)


def exact(rules: Rules, strategies: str = "random", *, max_states: int = MAX_STATES
          ) -> pd.DataFrame:
    """The exact expected values of a hand of ``rules`` with every seat playing ``random``.

    Enumerates every deal, every choice and every draw in exact rational arithmetic (see the
    module documentation for the readings of the rules).

    Parameters
    ----------
    rules : Rules
        A small rule set (double-2 to double-4 sets with few tiles per hand).
    strategies : {'random'}
        The line-up: only ``'random'`` (every seat) is enumerated.
    max_states : int
        Refuse a rule set whose estimated number of states (:func:`estimated_states`) is larger.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``quantity``, the names of the validation table
        (``tests/data/validation/README.md``): ``P_opener_side_wins``, ``P_side<k>_wins`` and
        ``E_points_side<k>`` (side ``k`` counted from the opener's), ``P_tie``, ``P_blocked``,
        ``P_chip_out``, ``E_points_winner``, ``E_plays``, ``E_knocks``, ``E_draws``,
        ``E_stitchups``, ``E_stitchups_seat<k>`` (seat ``k`` counted from the opener),
        ``E_redeals``, ``P_at_least_one_redeal``, ``P_no_double_in_a_deal`` and
        ``P_opening_double_<d>-<d>`` (highest-double openings only); column ``exact``
        (:class:`fractions.Fraction`) and ``value`` (float).

    Examples
    --------
    >>> import dominosim as ds
    >>> table = ds.exact(ds.Rules(max_pip=2, players=2, hand_size=2))
    >>> table.loc["P_opener_side_wins", "exact"], table.loc["E_plays", "exact"]
    (Fraction(5, 6), Fraction(121, 45))
    """
    if not isinstance(rules, Rules):
        raise refuse("rules", "a Rules", type(rules).__name__)
    if strategies != "random":
        raise refuse("strategies", "'random' (exact values are enumerated for the random "
                     "strategy at every seat)", strategies)
    states = estimated_states(rules)
    if states > max_states:
        raise ValueError(f"The value for `rules` must be small enough to enumerate (at most "
                         f"{max_states:,} estimated states, see `max_states`), but "
                         f"{rules!r} has about {states:,}.")
    game = _Game(rules)
    p = rules.players
    by_opener: dict[int, list] = {seat: [] for seat in range(p)}
    opened_double = {d: 0 for d in range(rules.max_pip + 1)}
    played = no_double = 0
    for hands, bone in _deals(full_set(rules.max_pip), p, rules.hand_size):
        hands = tuple(tuple(sorted(h)) for h in hands)
        found = highest_double(hands, rules.max_pip)
        no_double += found is None
        if rules.opening == "any":
            seat = rules.leader
            vector = _mean([_opened(game, hands, frozenset(bone), seat, tile)
                            for tile in hands[seat]])
        else:
            if found is None:
                continue
            seat, tile = found
            opened_double[tile[0]] += 1
            vector = _opened(game, hands, frozenset(bone), seat, tile)
        played += 1
        by_opener[seat].append(vector)
        if len(by_opener[seat]) > 256:
            den, total = _sum(by_opener[seat])
            by_opener[seat] = [(den, tuple(total))]
    for seat, vectors in by_opener.items():
        den, total = _sum(vectors) if vectors else (1, [0] * game.size)
        by_opener[seat] = [Fraction(x, den) for x in total]
    return _table(rules, game, by_opener, opened_double, played, no_double)


def _opened(game: _Game, hands, bone: frozenset, seat: int, tile) -> tuple:
    """The hand's vector from the opening play of ``tile`` by ``seat`` on."""
    hands = tuple(tuple(t for t in h if t != tile) if s == seat else h
                  for s, h in enumerate(hands))
    ends = game.canonical(opening_ends(game.rules, tile))
    return _plus(game.continue_after(hands, ends, bone, seat), game.PLAYS)


def _table(rules: Rules, game: _Game, by_opener: dict, opened_double: dict, played: int,
           no_double: int) -> pd.DataFrame:
    p, s = rules.players, rules.n_sides
    rows: dict[str, Fraction] = {}

    def total(index_of) -> Fraction:
        return sum((by_opener[o][index_of(o)] for o in range(p)), Fraction(0)) / played

    for k in range(s):
        rows[f"P_side{k}_wins"] = total(lambda o, k=k: game.WIN + (rules.side_of(o) + k) % s)
    rows["P_opener_side_wins"] = rows["P_side0_wins"]
    rows["P_tie"] = total(lambda o: game.TIE)
    rows["P_blocked"] = total(lambda o: game.BLOCKED)
    rows["P_chip_out"] = total(lambda o: game.OUT)
    rows["E_points_winner"] = total(lambda o: game.POINTS)
    for k in range(s):
        rows[f"E_points_side{k}"] = total(
            lambda o, k=k: game.SIDE_POINTS + (rules.side_of(o) + k) % s)
    rows["E_plays"] = total(lambda o: game.PLAYS)
    rows["E_knocks"] = total(lambda o: game.KNOCKS)
    rows["E_draws"] = total(lambda o: game.DRAWS)
    rows["E_stitchups"] = sum((total(lambda o, j=j: game.STITCH + j) for j in range(p)),
                              Fraction(0))
    for k in range(p):
        rows[f"E_stitchups_seat{k}"] = total(lambda o, k=k: game.STITCH + (o + k) % p)
    q = Fraction(no_double, played + (no_double if rules.opening == "highest_double" else 0))
    rows["P_no_double_in_a_deal"] = q
    redealt = q if rules.opening == "highest_double" else Fraction(0)
    rows["P_at_least_one_redeal"] = redealt
    rows["E_redeals"] = redealt / (1 - redealt)
    if rules.opening == "highest_double":
        for d in range(rules.max_pip + 1):
            rows[f"P_opening_double_{d}-{d}"] = Fraction(opened_double[d], played)
    frame = pd.DataFrame({"exact": pd.Series(rows, dtype=object)})
    frame["value"] = [float(x) for x in frame["exact"]]
    frame.index.name = "quantity"
    return frame
