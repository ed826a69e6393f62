"""Matches to a target: the exact probability of winning, from the distribution of hand scores.

The chain
---------
A match (docs/rules.md, "Matches"; :func:`dominosim.reference.play_match`) deals hand after hand, each
independent of the others and alike in distribution; after each hand the winning side adds its
points, and the first side whose total reaches ``target`` wins. So the running scores form a Markov
chain on the vectors ``(s_0, ..., s_{S-1})`` with every ``s_j < target``, absorbing as soon as one
side reaches the target, whose step is one hand drawn from the hand-level distribution of
``(winning_side, points)``, estimated by the records' empirical distribution.

*Ties and zero-point hands.* A tie scores nothing (``winning_side = -1``), and a side may win a hand
worth 0 points (under ``spots``, going out while every loser holds only blanks). Neither moves the
score, and as in the engine's match loop neither can end the match: they are self-loops of the
chain. They leave every absorption probability unchanged (the chain is the same as the one whose
hands are drawn from the *scoring* hands only) and lengthen the match: a match of ``N`` scoring
hands takes ``N / P(a hand scores)`` hands on average.

*Solving it.* With two sides the chain lives on a ``target x target`` grid; it is solved exactly by
backward induction (:func:`match_curve` gives the whole grid). With ``S`` sides the grid has
``target^S`` states (10^8 for four players to 100), so the same absorption probabilities are
computed from the chain's structure: each scoring hand goes to side ``j`` with probability
``pi_j`` and adds points drawn from side ``j``'s own distribution, so the sides' totals are
independent renewal processes interleaved at random. Side ``j`` needs ``N_j`` of its scoring hands
to cover what it lacks (``P(N_j > n)`` by convolution), and side ``k`` wins when its ``N_k``-th
scoring hand comes before every other side's ``N_j``-th; summing over the interleavings gives
``P(k wins) = sum_n P(N_k = n) sum_b pi_k * Binom(n - 1; n - 1 + b, pi_k) * H(b)``, with ``H(b)``
the probability that ``b`` scoring hands of the other sides leave all of them short (the
interleavings of the other sides merged pairwise with binomial weights). Every term is a
probability, so the sum is exact up to rounding (about 1e-14); with two sides the tests check it
against the backward induction, and both against simulated matches.

Examples
--------
>>> import pandas as pd
>>> hands = pd.DataFrame({"winning_side": [0, 0, 1, -1], "points": [1, 1, 1, 0]})
>>> t = match_win_probability(hands, target=2, players=2)   # 2/3 then 1/3 per scoring hand
>>> t["p_win"].round(6).tolist()                              # 20/27, 7/27
[0.740741, 0.259259]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..checks import check_confidence, refuse
from ..rng import DOMAIN_MATCH_BOOTSTRAP, check_seed, mix64
from ..rules import Rules
from .common import Facts, collect, sources


def _check_target(target: Any, facts: Facts) -> int:
    if target is None:
        target = facts.target
    if isinstance(target, bool) or not isinstance(target, (int, np.integer)) or target < 1:
        raise refuse("target", "an integer of 1 or more (or rules with a target)", target)
    return int(target)


def _facts(data: Any, players: Any) -> dict[str, Any]:
    """Extra facts for records of the hand distribution alone (``winning_side``, ``points``)."""
    if players is None:
        return {}
    if isinstance(players, bool) or not isinstance(players, int) or players < 2:
        raise refuse("players", "the number of sides, an integer of 2 or more", players)
    return {"players": players}


class _Hands:
    """The hand-level distribution of one group: ``pi`` (the side of a scoring hand) and ``f``
    (``f[j, x]``: the probability that side ``j``'s scoring hand is worth ``x`` points), from
    ``counts[j, x]`` (scoring hands of side ``j`` worth ``x``) and the hands that score nothing.
    """

    def __init__(self, counts: np.ndarray, idle: float) -> None:
        total = counts.sum()
        if total == 0:
            raise refuse("data", "records in which some hand scores points (else no match "
                         "ends)", "hands that never score")
        self.counts, self.idle = counts, idle
        self.n_hands = int(round(total + idle))
        self.p_score = total / (total + idle)
        self.pi = counts.sum(axis=1) / total
        with np.errstate(invalid="ignore"):
            self.f = np.nan_to_num(counts / counts.sum(axis=1, keepdims=True))
        self.n_sides = len(counts)
        self._short: dict[tuple[int, int], np.ndarray] = {}
        self.binomials: dict[float, np.ndarray] = {}

    @classmethod
    def of(cls, rows: pd.DataFrame, n_sides: int) -> _Hands:
        side = rows["winning_side"].to_numpy().astype(np.int64)
        pts = rows["points"].to_numpy().astype(np.int64)
        if len(rows) == 0:
            raise refuse("data", "hand records with at least one hand", "no hands")
        if (side >= n_sides).any() or (pts < 0).any():
            raise refuse("data", f"records whose winning sides are below {n_sides} and whose "
                         "points are 0 or more", "other records")
        scoring = (side >= 0) & (pts > 0)
        counts = np.zeros((n_sides, int(pts[scoring].max(initial=0)) + 1))
        np.add.at(counts, (side[scoring], pts[scoring]), 1.0)
        return cls(counts, float((~scoring).sum()))

    def resamples(self, n_boot: int, seed: int) -> list[_Hands]:
        """``n_boot`` bootstrap copies: as many hands drawn with replacement from these (a
        multinomial draw over the outcomes), from a counter-based generator keyed by ``seed``.
        """
        gen = np.random.Generator(np.random.Philox(key=mix64(seed ^ DOMAIN_MATCH_BOOTSTRAP)))
        flat = np.append(self.counts.ravel(), self.idle)
        draws = gen.multinomial(self.n_hands, flat / flat.sum(), size=n_boot)
        return [_Hands(d[:-1].reshape(self.counts.shape).astype(float), float(d[-1]))
                for d in draws]

    def short(self, j: int, need: int) -> np.ndarray:
        """``P(N_j > n)`` for ``n = 0 .. need``: side ``j`` still short of ``need`` points after
        ``n`` of its scoring hands (0 from ``n = need`` on, as every scoring hand adds one or
        more).
        """
        key = (j, need)
        if key not in self._short:
            g = np.zeros(need)
            g[0] = 1.0
            out = [1.0]
            for _ in range(need):
                g = np.convolve(g, self.f[j])[:need]
                out.append(g.sum())
            self._short[key] = np.array(out)
        return self._short[key]


def _binomial(p: float, size: int, cache: dict[float, np.ndarray]) -> np.ndarray:
    """``T[m, a] = Binom(a; m, p)`` for ``m, a < size`` (log-gamma, exact to rounding), cached by
    ``p``: every merge and sum of the chain reads it.
    """
    table = cache.get(p)
    if table is None or len(table) < size:
        from scipy.special import gammaln

        m = np.arange(size)[:, None]
        a = np.arange(size)[None, :]
        ok = a <= m
        k, n = np.where(ok, a, 0), np.where(ok, m, 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            log = (gammaln(n + 1) - gammaln(k + 1) - gammaln(n - k + 1)
                   + np.where(k > 0, k * np.log(p), 0.0)
                   + np.where(n - k > 0, (n - k) * np.log1p(-p), 0.0))
        table = np.where(ok, np.exp(log), 0.0)
        cache[p] = table
    return table


def _merge(h1: np.ndarray, r1: float, h2: np.ndarray, r2: float,
           cache: dict[float, np.ndarray]) -> np.ndarray:
    """Two sides' 'still short' curves merged: ``H(m)``, the probability that both are still short
    after ``m`` scoring hands shared between them at rates ``r1 : r2`` (binomially).
    """
    l1, l2 = len(h1), len(h2)
    table = _binomial(r1 / (r1 + r2), l1 + l2, cache)
    m = np.arange(l1 + l2 - 1)[:, None]
    a = np.arange(l1)[None, :]
    b = m - a
    ok = (b >= 0) & (b < l2)
    weights = table[m, a] * h1[None, :] * np.where(ok, h2[np.clip(b, 0, l2 - 1)], 0.0)
    return weights.sum(axis=1)


def _merged(hands: _Hands, needs: Sequence[int], sides: Sequence[int]) -> tuple[np.ndarray, float]:
    """The merged 'all still short' curve of ``sides`` and their total rate."""
    h, rate = np.ones(1), 0.0
    for j in sides:
        if hands.pi[j] == 0:
            continue  # a side that never scores is always short: a factor of 1
        hj = hands.short(j, needs[j])
        h = hj if rate == 0 else _merge(h, rate, hj, hands.pi[j], hands.binomials)
        rate += hands.pi[j]
    return h, rate


def _absorption(hands: _Hands, needs: Sequence[int]) -> tuple[np.ndarray, float]:
    """Each side's probability of winning, and the expected number of scoring hands to the end."""
    k = hands.n_sides
    p_win = np.zeros(k)
    for side in range(k):
        pi = hands.pi[side]
        if pi == 0:
            continue
        others, rho = _merged(hands, needs, [j for j in range(k) if j != side])
        short = hands.short(side, needs[side])
        q = short[:-1] - short[1:]                      # P(N = n), n = 1 .. need
        if rho == 0:
            p_win[side] = 1.0
            continue
        p = pi / (pi + rho)
        n = np.arange(1, len(q) + 1)[:, None]
        b = np.arange(len(others))[None, :]
        table = _binomial(p, len(q) + len(others), hands.binomials)
        p_win[side] = float((q[:, None] * p * table[n - 1 + b, n - 1] * others[None, :]).sum())
    everyone, _ = _merged(hands, needs, range(k))
    return p_win, float(everyone.sum())


def _check_boot(n_boot: Any, seed: Any, confidence: Any) -> tuple[int, float]:
    if isinstance(n_boot, bool) or not isinstance(n_boot, int) or n_boot < 0:
        raise refuse("n_boot", "an integer of 0 or more", n_boot)
    check_seed(seed)
    return n_boot, check_confidence(confidence)


def _percentiles(boot: np.ndarray, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    """Percentile interval over the first axis (NaN without resamples)."""
    if len(boot) == 0:
        nan = np.full(boot.shape[1:], np.nan)
        return nan, nan
    low, high = np.quantile(boot, [(1 - confidence) / 2, (1 + confidence) / 2], axis=0)
    return low, high


def _check_scores(scores: Any, k: int, target: int) -> list[int]:
    if scores is None:
        return [0] * k
    ok = (isinstance(scores, Sequence) and len(scores) == k
          and all(isinstance(s, (int, np.integer)) and not isinstance(s, bool) and 0 <= s < target
                  for s in scores))
    if not ok:
        raise refuse("scores", f"a score for each of the {k} sides, each from 0 to {target - 1}",
                     scores)
    return [int(s) for s in scores]


def match_win_probability(data: Any, *, target: int | None = None, scores: Any = None,
                          groups: Any = None, rules: Rules | None = None,
                          players: int | None = None, n_boot: int = 0, seed: int = 0,
                          confidence: float = 0.95) -> pd.DataFrame:
    """Every side's exact probability of winning a match to ``target`` (see the module's notes).

    Parameters
    ----------
    data : DataFrame or dict of them
        Hand records (at least ``winning_side`` and ``points``); their empirical distribution is
        the hand-level distribution of the chain.
    target : int, optional
        Points that win the match (100, or 121 on a cribbage board); default ``rules.target`` or
        the records' ``target`` column.
    scores : list of int, optional
        The sides' scores now (default all 0), each below ``target``.
    groups : str or list of str, optional
    rules : Rules, optional
        The table's facts (sides), when the records lack ``players`` and ``partnerships``.
    players : int, optional
        Instead of ``rules``, for records of individual play: the number of seats (= sides).
    n_boot : int
        Bootstrap resamples of the hands for the intervals (0: none). The chain is exact for
        the records' distribution; the intervals say how much that distribution, a sample, moves
        it.
    seed : int
        Keys the resampling (a counter-based Philox generator).
    confidence : float

    Returns
    -------
    DataFrame
        Group labels, then ``side``, ``p_win`` with its percentile interval ``ci_low``,
        ``ci_high`` (NaN without ``n_boot``), ``expected_hands`` (hands to the end of the match
        from ``scores``, ties and zero-point hands included), ``p_scoring_hand`` (the share of
        hands that score), ``hands`` (records used) and ``target``.

    Examples
    --------
    >>> import dominosim as ds
    >>> rules = ds.Rules.preset("draw", players=2, target=100)
    >>> hands = ds.simulate(rules, "random", n_hands=2_000, seed=4)
    >>> t = match_win_probability(hands, rules=rules)
    >>> round(float(t["p_win"].sum()), 12), bool(t["expected_hands"].iloc[0] > 1)
    (1.0, True)
    """
    extra = _facts(data, players)
    n_boot, confidence = _check_boot(n_boot, seed, confidence)
    rows = []
    for labels, src in sources(_with(data, extra), groups, rules):
        records = src.need_rows("a match analysis")
        target_ = _check_target(target, src.facts)
        k = src.facts.n_sides
        now = _check_scores(scores, k, target_)
        needs = [target_ - s for s in now]
        hands = _Hands.of(records, k)
        p_win, scoring = _absorption(hands, needs)
        boot = np.array([_absorption(h, needs)[0] for h in hands.resamples(n_boot, seed)])
        low, high = _percentiles(boot.reshape(n_boot, k), confidence)
        for side in range(k):
            rows.append({**labels, "side": side, "p_win": p_win[side], "ci_low": low[side],
                         "ci_high": high[side], "expected_hands": scoring / hands.p_score,
                         "p_scoring_hand": hands.p_score, "hands": hands.n_hands,
                         "target": target_})
    return collect(rows, ["side", "p_win", "ci_low", "ci_high", "expected_hands",
                          "p_scoring_hand", "hands", "target"])


def _with(data: Any, extra: dict[str, Any]) -> Any:
    if not extra or not isinstance(data, pd.DataFrame):
        return data
    return data.assign(players=extra["players"], partnerships=False)


def _two_side_grid(hands: _Hands, target: int, side: int) -> tuple[np.ndarray, np.ndarray]:
    """Backward induction on the grid: ``V[a, b]`` = P(``side`` wins | its score a, the other's b)
    and ``E[a, b]`` the expected scoring hands to the end.
    """
    from scipy.linalg import solve_triangular

    t = target
    p0 = hands.pi[side] * hands.f[side]
    p1 = hands.pi[1 - side] * hands.f[1 - side]
    step = np.arange(t)[None, :] - np.arange(t)[:, None]     # a' - a

    def toeplitz(p: np.ndarray) -> np.ndarray:
        return np.where((step > 0) & (step < len(p)), p[np.clip(step, 0, len(p) - 1)], 0.0)

    b0, b1 = toeplitz(p0), toeplitz(p1)
    # probability that side 0's next scoring hand from score a reaches the target
    reach0 = np.array([p0[max(t - a, 0):].sum() for a in range(t)])
    solve = solve_triangular(np.eye(t) - b1, np.eye(t))      # the moves of side 1 along a row
    v, e = np.zeros((t, t)), np.zeros((t, t))
    for a in range(t - 1, -1, -1):
        v[a] = solve @ (reach0[a] + b0[a] @ v)
        e[a] = solve @ (1.0 + b0[a] @ e)
    return v, e


def _curve(hands: _Hands, t: int, side: int, opp: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """``P(side wins)`` and the expected scoring hands, by opponents' score and own score."""
    k = hands.n_sides
    if k == 2:
        v, e = _two_side_grid(hands, t, side)
        return v[:, opp].T, e[:, opp].T
    p, e = np.zeros((len(opp), t)), np.zeros((len(opp), t))
    for i, b in enumerate(opp):
        for a in range(t):
            needs = [t - b] * k
            needs[side] = t - a
            p_all, e[i, a] = _absorption(hands, needs)
            p[i, a] = p_all[side]
    return p, e


def match_curve(data: Any, *, target: int | None = None, side: int = 0,
                opponent_scores: Any = None, groups: Any = None, rules: Rules | None = None,
                players: int | None = None, n_boot: int = 0, seed: int = 0,
                confidence: float = 0.95) -> pd.DataFrame:
    """The probability that ``side`` wins the match, against its own score, for a few scores of
    the other sides (each of them at ``opponent_score``).

    With two sides the whole grid is solved by backward induction on the chain; with more, each
    point is computed as in :func:`match_win_probability`.

    Parameters
    ----------
    data : DataFrame or dict of them
        Hand records.
    target : int, optional
    side : int
        The side whose chances are given.
    opponent_scores : list of int, optional
        Scores of the other sides (default 0 and a quarter, half and three quarters of
        ``target``).
    groups, rules, players, n_boot, seed, confidence
        As in :func:`match_win_probability` (with three or more sides each resample costs
        ``target`` times the opponents' scores chain solutions: keep ``n_boot`` small there).

    Returns
    -------
    DataFrame
        Group labels, then ``side``, ``score`` (0 to ``target - 1``), ``opponent_score``,
        ``p_win`` with ``ci_low``, ``ci_high`` (NaN without ``n_boot``), ``expected_hands`` and
        ``target``.

    Examples
    --------
    >>> import pandas as pd
    >>> hands = pd.DataFrame({"winning_side": [0, 1], "points": [1, 1]})
    >>> c = match_curve(hands, target=2, players=2, opponent_scores=[0, 1])
    >>> c[["score", "opponent_score", "p_win"]].values.tolist()
    [[0.0, 0.0, 0.5], [1.0, 0.0, 0.75], [0.0, 1.0, 0.25], [1.0, 1.0, 0.5]]
    """
    extra = _facts(data, players)
    n_boot, confidence = _check_boot(n_boot, seed, confidence)
    rows = []
    for labels, src in sources(_with(data, extra), groups, rules):
        records = src.need_rows("a match analysis")
        t = _check_target(target, src.facts)
        k = src.facts.n_sides
        if isinstance(side, bool) or not isinstance(side, int) or not 0 <= side < k:
            raise refuse("side", f"a side from 0 to {k - 1}", side)
        opp = ([0, t // 4, t // 2, 3 * t // 4] if opponent_scores is None
               else list(opponent_scores))
        opp = list(dict.fromkeys(_check_scores(opp, len(opp), t)))
        hands = _Hands.of(records, k)
        p, e = _curve(hands, t, side, opp)
        boot = np.array([_curve(h, t, side, opp)[0] for h in hands.resamples(n_boot, seed)])
        low, high = _percentiles(boot.reshape(n_boot, len(opp), t), confidence)
        for i, b in enumerate(opp):
            for a in range(t):
                rows.append({**labels, "side": side, "score": a, "opponent_score": b,
                             "p_win": float(p[i, a]), "ci_low": low[i, a], "ci_high": high[i, a],
                             "expected_hands": e[i, a] / hands.p_score, "target": t})
    return collect(rows, ["side", "score", "opponent_score", "p_win", "ci_low", "ci_high",
                          "expected_hands", "target"])
