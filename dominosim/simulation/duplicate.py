"""Comparing strategies on duplicate deals: the same deals, the strategies rotated over the seats.

Hand ``i`` of a run deals its tiles from ``(seed, i)`` alone, whoever sits at the table, so
:func:`dominosim.simulate` with two line-ups on one seed plays the same deals in both. Playing every
deal once per rotation and pairing the results deal by deal cancels most of the luck of the deal
(docs/design.md, "Strategies"):

* **Two sides** (two individual seats, or four players in partnerships): line-up X puts strategy A
  on side 0's seats and B on side 1's, line-up Y swaps them; each deal is played in both.
* **Three or more sides** (individual play with 3+ seats, or partnerships of 6+ players, where a
  side is a team): two line-ups reported apart, "A against the rest playing B" (A on one side, B on
  every other) and "B against the rest playing A", each over every rotation of the lone side, so
  each deal is played ``2 * n_sides`` times.

A hand scores 1 for a win, 0 for a loss; a tie is shared among the tied sides (docs/design.md: "a
tie counts as a share of a win"): half each when two tie, a third each in the rare three-way tie of
3+ sides, so that the shares of a hand always sum to 1 and the fair share of a side is
``1 / n_sides``.

Examples
--------
>>> import dominosim as ds
>>> from dominosim.simulation.duplicate import compare
>>> c = compare(ds.Rules.preset("block", players=2), "bully", "random", n_deals=200, seed=1)
>>> c.table["quantity"].tolist()
['win_rate_a', 'win_rate_b', 'win_rate_diff', 'points_a', 'points_b', 'points_diff']
>>> row = c.row("win_rate_diff")
>>> bool(row.ci_low < row.estimate < row.ci_high)
True
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..checks import check_confidence, check_limit
from ..progress import bar, want_progress
from ..rng import DOMAIN_DUPLICATE_BOOTSTRAP, below_many, check_seed, mix64
from ..rules import Rules
from ..stats import side_shares, z_value
from ..strategies.lineup import BUILTINS, resolve
from ..strategies.search import resolve_search
from ..strategies.weighted import player_of
from .play import check_count, check_engine, check_rules, long_hands, simulate

CHUNK = 250_000
"""Deals played per call of :func:`simulate`: memory stays bounded however many deals are asked."""

# Per-deal series whose means and variances are accumulated; the last six are the two line-ups'
# contributions to the paired differences, kept only for the variance reduction.
_SERIES = ("win_rate_a", "win_rate_b", "win_rate_diff", "points_a", "points_b", "points_diff",
           "win_part_1", "win_part_2", "win_part_sum", "points_part_1", "points_part_2",
           "points_part_sum")
DEAL_COLUMNS = _SERIES[:6]
"""Per-deal columns of :attr:`Comparison.deals` (after ``deal``)."""


# --------------------------------------------------------------------------------------- checks
def _label(strategy: Any) -> str:
    """A strategy's name: the built-in name, its ``name`` attribute, or the function's name."""
    if isinstance(strategy, str):
        return strategy
    name = getattr(strategy, "name", None)
    if isinstance(name, str) and name:
        return name
    return getattr(strategy, "__name__", type(strategy).__name__)


def _check_strategy(param: str, strategy: Any, engine: str) -> Any:
    builtins = ", ".join(map(repr, BUILTINS))
    if isinstance(strategy, (list, tuple)):
        raise ValueError(f"The value for `{param}` must be a single strategy (a built-in name or a "
                         f"Python strategy), not one per seat, but {strategy!r} was passed.")
    if engine == "fast":
        if not (isinstance(strategy, str) and strategy in BUILTINS) and \
                resolve_search(strategy) is None and player_of(strategy) is None:
            raise ValueError(f"The value for `{param}` must be a built-in strategy name (one of "
                             f"{builtins}; a search with a budget as 'mc:200'; a weighted "
                             f"player or 'file:player.npz') with "
                             f"engine='fast', but {strategy!r} was passed; run Python strategies "
                             f"with engine='reference'.")
        return strategy
    try:
        resolve(strategy)
    except ValueError:
        raise ValueError(f"The value for `{param}` must be a built-in name (one of {builtins}), an "
                         f"object with a choose(view, moves, rng) method, or a function, but "
                         f"{strategy!r} was passed.") from None
    return strategy


# ---------------------------------------------------------------------------------- playing
def _side_results(rules: Rules, frame: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Per hand and side: the score (1 win, 0 loss, a tie shared by the tied sides:
    :func:`dominosim.stats.side_shares`) and points.
    """
    winner = frame["winning_side"].to_numpy().astype(np.int64)
    won = winner >= 0
    scores = side_shares(frame, rules.players, rules.partnerships)
    points = np.zeros_like(scores)
    points[won, winner[won]] = frame["points"].to_numpy()[won]
    return scores, points


def _play_chunk(rules: Rules, a: Any, b: Any, seed: int, start: int, n: int, engine: str,
                n_jobs: int | None, tick: Any = None) -> np.ndarray:
    """The per-deal series of ``_SERIES`` for deals ``start .. start + n - 1``, shape (n, 12)."""
    k = rules.n_sides
    played: dict[tuple[bool, ...], tuple[np.ndarray, np.ndarray]] = {}

    def lone(a_alone: bool, side: int) -> tuple[np.ndarray, np.ndarray]:
        # who sits on each side (True: A); with two sides the four rotations are two line-ups
        sides = tuple((s == side) == a_alone for s in range(k))
        if sides not in played:
            lineup = [a if sides[rules.side_of(seat)] else b for seat in range(rules.players)]
            frame = simulate(rules, lineup, n, seed, engine=engine, start=start, n_jobs=n_jobs,
                             progress=False)
            played[sides] = _side_results(rules, frame)
            if tick is not None:
                tick(n)
        return played[sides]

    a_runs = [lone(True, s) for s in range(k)]
    b_runs = [lone(False, s) for s in range(k)]
    win_a = sum(a_runs[s][0][:, s] for s in range(k)) / k
    win_b = sum(b_runs[s][0][:, s] for s in range(k)) / k
    points_a = sum(a_runs[s][1][:, s] for s in range(k)) / k
    points_b = sum(b_runs[s][1][:, s] for s in range(k)) / k
    if k == 2:
        # line-up X (A on side 0) and Y (A on side 1): each one's A-minus-B result
        (sx, px), (sy, py) = a_runs
        parts = (sx[:, 0] - sx[:, 1], sy[:, 1] - sy[:, 0], px[:, 0] - px[:, 1], py[:, 1] - py[:, 0])
    else:
        parts = (win_a, -win_b, points_a, -points_b)
    w1, w2, p1, p2 = parts
    return np.stack([win_a, win_b, win_a - win_b, points_a, points_b, points_a - points_b,
                     w1, w2, w1 + w2, p1, p2, p1 + p2], axis=1)


@dataclass
class _Moments:
    """Count, means and sums of squared deviations of several series, merged chunk by chunk."""

    n: int = 0
    mean: np.ndarray = field(default_factory=lambda: np.zeros(len(_SERIES)))
    m2: np.ndarray = field(default_factory=lambda: np.zeros(len(_SERIES)))

    def add(self, values: np.ndarray) -> None:
        n_b = len(values)
        mean_b = values.mean(axis=0)
        m2_b = ((values - mean_b) ** 2).sum(axis=0)
        total = self.n + n_b
        delta = mean_b - self.mean
        # Chan, Golub and LeVeque's pairwise update: exact zeros stay exact zeros
        self.mean = self.mean + delta * (n_b / total)
        self.m2 = self.m2 + m2_b + delta**2 * (self.n * n_b / total)
        self.n = total

    def var(self) -> np.ndarray:
        return self.m2 / (self.n - 1) if self.n > 1 else np.full(len(_SERIES), np.nan)


def _ratio(unpaired: float, paired: float) -> float:
    if math.isnan(unpaired) or math.isnan(paired):
        return math.nan
    if paired == 0:
        return math.inf if unpaired > 0 else math.nan
    return unpaired / paired


# ----------------------------------------------------------------------------------- results
_TWO_SIDE_ROWS = [("a_vs_b", q, q, 0.0) for q in DEAL_COLUMNS]


def _many_side_rows(n_sides: int) -> list[tuple[str, str, str, float]]:
    fair = 1.0 / n_sides
    return [("a_vs_rest_b", "win_rate_a", "win_rate_a", 0.0),
            ("a_vs_rest_b", "win_rate_a_excess", "win_rate_a", fair),
            ("a_vs_rest_b", "points_a", "points_a", 0.0),
            ("b_vs_rest_a", "win_rate_b", "win_rate_b", 0.0),
            ("b_vs_rest_a", "win_rate_b_excess", "win_rate_b", fair),
            ("b_vs_rest_a", "points_b", "points_b", 0.0),
            ("paired", "win_rate_diff", "win_rate_diff", 0.0),
            ("paired", "points_diff", "points_diff", 0.0)]


def _table(moments: _Moments, n_sides: int, confidence: float) -> pd.DataFrame:
    z = z_value(confidence)
    var = moments.var()
    index = {name: i for i, name in enumerate(_SERIES)}
    rows = []
    for lineup, quantity, series, offset in (_TWO_SIDE_ROWS if n_sides == 2
                                             else _many_side_rows(n_sides)):
        i = index[series]
        estimate = float(moments.mean[i]) - offset
        se = math.sqrt(var[i] / moments.n)
        rows.append((lineup, quantity, estimate, se, estimate - z * se, estimate + z * se,
                     moments.n))
    return pd.DataFrame(rows, columns=["lineup", "quantity", "estimate", "se", "ci_low",
                                       "ci_high", "n_deals"])


def _describe(rules: Rules) -> str:
    team = ", partnerships" if rules.partnerships else ""
    return (f"double-{rules.max_pip}, {rules.players} players{team}, hand {rules.hand_size}, "
            f"draw={rules.draw!r}, scoring={rules.scoring!r}")


@dataclass(frozen=True, repr=False)
class Comparison:
    """Strategy A against strategy B on duplicate deals (returned by :func:`compare`).

    Attributes
    ----------
    a, b : str
        The strategies' names (A and B).
    rules : Rules
    seed, n_deals : int
        Deals ``0 .. n_deals - 1`` of the run seeded ``seed``.
    engine : str
    confidence : float
        Coverage of the intervals in :attr:`table`.
    table : pandas.DataFrame
        One row per quantity: ``lineup``, ``quantity``, ``estimate``, ``se`` (standard error from
        the per-deal results), ``ci_low``, ``ci_high`` (normal interval), ``n_deals``. With two
        sides, ``lineup`` is ``'a_vs_b'`` (both line-ups, X and Y) and the quantities are
        ``win_rate_a``, ``win_rate_b`` (their sum is 1), ``win_rate_diff`` (A's minus B's, paired by
        deal), ``points_a``, ``points_b`` (each one's points per hand) and ``points_diff``. With
        three or more sides, ``lineup`` ``'a_vs_rest_b'`` holds ``win_rate_a`` (lone A's win
        rate), ``win_rate_a_excess`` (the same less the fair share ``1 / n_sides``) and
        ``points_a`` (lone A's points per hand); ``'b_vs_rest_a'`` the same for lone B;
        ``'paired'`` holds ``win_rate_diff`` (lone A's minus lone B's win rate, paired by deal) and
        ``points_diff``.
    variance_reduction : dict
        ``{'win_rate': r, 'points': r}``: the variance the paired difference would have if the two
        line-ups were played on independent deals (the sum of the two line-ups' per-deal
        variances) over its variance on duplicate deals. Above 1, duplicate deals helped; ``inf``
        when the paired difference does not vary at all (A and B the same strategy).
    deals : pandas.DataFrame or None
        With ``keep_deals=True``, one row per deal: ``deal`` and the per-deal results
        ``win_rate_a``, ``win_rate_b``, ``win_rate_diff``, ``points_a``, ``points_b``,
        ``points_diff`` whose means are the table's estimates.
    """

    a: str
    b: str
    rules: Rules
    seed: int
    n_deals: int
    engine: str
    confidence: float
    table: pd.DataFrame
    variance_reduction: dict[str, float]
    deals: pd.DataFrame | None = None

    def row(self, quantity: str) -> pd.Series:
        """The table's row for ``quantity`` (``estimate``, ``se``, ``ci_low``, ``ci_high``, ...)."""
        hit = self.table[self.table["quantity"] == quantity]
        if hit.empty:
            names = ", ".join(map(repr, self.table["quantity"]))
            raise ValueError(f"The value for `quantity` must be one of {names}, but {quantity!r} "
                             f"was passed.")
        return hit.iloc[0]

    def summary(self) -> str:
        """A readable report: the set-up, the table and the variance reduction."""
        k = self.rules.n_sides
        plays = 2 if k == 2 else 2 * k
        lines = [f"Duplicate comparison: A={self.a!r} vs B={self.b!r}",
                 f"  rules: {_describe(self.rules)} ({k} sides)",
                 f"  {self.n_deals} deals (seed {self.seed}, engine {self.engine!r}), each played "
                 f"{plays} times; {self.confidence:.0%} normal intervals",
                 self.table.to_string(index=False, float_format=lambda v: f"{v:.4f}"),
                 "  variance reduction (unpaired / paired): "
                 + ", ".join(f"{q} {r:.2f}" for q, r in self.variance_reduction.items())]
        return "\n".join(lines)

    def __repr__(self) -> str:
        """Two lines: who, on what, the paired win-rate difference and the variance reduction
        (:meth:`summary` has the whole table).
        """
        diff = self.row("win_rate_diff")
        return (f"Comparison A={self.a!r} vs B={self.b!r}, {self.n_deals:,} deals (seed "
                f"{self.seed}) of {self.rules!r}:\n  win_rate_diff {diff.estimate:+.4f} "
                f"[{diff.ci_low:+.4f}, {diff.ci_high:+.4f}], variance reduction "
                + ", ".join(f"{q} {r:.2f}" for q, r in self.variance_reduction.items()))

    def _repr_html_(self) -> str:
        from ..display import card, frame

        reduction = ", ".join(f"{q} {r:.2f}" for q, r in self.variance_reduction.items())
        return card(f"A={self.a!r} vs B={self.b!r}",
                    f"on {self.n_deals:,} duplicate deals (seed {self.seed}, engine "
                    f"{self.engine!r}) of {self.rules!r}; {self.confidence:.0%} intervals",
                    frame(self.table),
                    f"<p>variance reduction (unpaired / paired): {reduction}</p>")


def compare(rules: Rules, a: Any, b: Any, n_deals: int, seed: int = 0, *, engine: str = "fast",
            n_jobs: int | None = None, confidence: float = 0.95,
            keep_deals: bool = False, progress: bool | None = None) -> Comparison:
    """Compare strategy ``a`` with strategy ``b`` on duplicate deals.

    Every deal ``0 .. n_deals - 1`` of the run seeded ``seed`` is played with the strategies
    rotated over the sides (both partners of a side play the same strategy), and the results are
    paired deal by deal, so the luck of the deal cancels. With two sides, line-up X puts ``a`` on
    side 0 and ``b`` on side 1, line-up Y swaps them; A's result on a deal is its mean score over
    the two (win 1, tie 1/2, loss 0) and the paired difference is A's minus B's. With three or more
    sides the line-ups "A against the rest playing B" and "B against the rest playing A" are
    reported apart, each over every rotation of the lone side; the paired difference is lone A's
    win rate minus lone B's. Points per hand are paired the same way.

    Parameters
    ----------
    rules : Rules
    a, b : str or strategy
        One strategy each: a built-in name, a weighted player (``ds.Weighted``, or a saved one
        as ``"file:player.npz"``), or with ``engine='reference'`` a function
        ``f(view, moves, rng)`` or an object with ``choose``.
    n_deals : int
        Deals to play (1 or more); each is played 2 times (two sides) or ``2 * n_sides`` times.
    seed : int
        The run's seed; the deals do not depend on the strategies.
    engine : {'fast', 'reference'}
    n_jobs : int, optional
        Threads for the fast engine.
    confidence : float
        Coverage of the normal intervals, in (0, 1).
    keep_deals : bool
        Keep the per-deal results in :attr:`Comparison.deals` (memory grows with ``n_deals``).
    progress : bool, optional
        A progress bar over the hands played (a widget in Jupyter); by default for long runs
        in Jupyter or on a terminal (see :mod:`dominosim.progress`).

    Returns
    -------
    Comparison
        Estimates with standard errors and intervals in ``table``, and ``variance_reduction``.

    Examples
    --------
    >>> import dominosim as ds
    >>> c = compare(ds.Rules.preset("block", players=2), "bully", "random", n_deals=200)
    >>> round(float(c.row("win_rate_a").estimate + c.row("win_rate_b").estimate), 12)
    1.0
    >>> same = compare(ds.Rules.preset("block", players=3), "bully", "bully", n_deals=200)
    >>> float(same.row("win_rate_diff").estimate), sorted(set(same.table["lineup"]))
    (0.0, ['a_vs_rest_b', 'b_vs_rest_a', 'paired'])
    """
    rules = check_rules(rules)
    check_engine(engine)
    a = _check_strategy("a", a, engine)
    b = _check_strategy("b", b, engine)
    check_count("n_deals", n_deals, low=1)
    _check_at_most("n_deals", n_deals, MAX_DEALS)
    check_seed(seed)
    confidence = check_confidence(confidence)
    hands = n_deals * _lineups(rules)
    show = want_progress(progress, work=hands, long=long_hands(engine, [a, b]))
    with bar(total=hands, desc=f"{_label(a)} vs {_label(b)}", show=show) as progress_bar:
        return _compare(rules, a, b, n_deals, seed, engine, n_jobs, confidence, keep_deals,
                        progress_bar.update)


def _lineups(rules: Rules) -> int:
    """Line-ups a comparison plays every deal with: 2 with two sides, ``2 * sides`` with more."""
    return 2 if rules.n_sides == 2 else 2 * rules.n_sides


def _compare(rules: Rules, a: Any, b: Any, n_deals: int, seed: int, engine: str,
             n_jobs: int | None, confidence: float, keep_deals: bool, tick: Any) -> Comparison:
    """:func:`compare` on checked arguments; ``tick(n)`` after every ``n`` hands played."""
    moments = _Moments()
    chunks = []
    for start in range(0, n_deals, CHUNK):
        values = _play_chunk(rules, a, b, seed, start, min(CHUNK, n_deals - start), engine,
                             n_jobs, tick)
        moments.add(values)
        if keep_deals:
            chunks.append(values[:, :len(DEAL_COLUMNS)])
    var = moments.var()
    i = {name: j for j, name in enumerate(_SERIES)}
    reduction = {
        "win_rate": _ratio(var[i["win_part_1"]] + var[i["win_part_2"]], var[i["win_part_sum"]]),
        "points": _ratio(var[i["points_part_1"]] + var[i["points_part_2"]],
                         var[i["points_part_sum"]]),
    }
    deals = None
    if keep_deals:
        deals = pd.DataFrame(np.concatenate(chunks), columns=list(DEAL_COLUMNS))
        deals.insert(0, "deal", np.arange(n_deals, dtype=np.int64))
    return Comparison(_label(a), _label(b), rules, seed, n_deals, engine, confidence,
                      _table(moments, rules.n_sides, confidence), reduction, deals)


# ---------------------------------------------------------------------------- Bradley-Terry
def _strongly_connected(beats: np.ndarray) -> bool:
    reach = beats | np.eye(len(beats), dtype=bool)
    while True:
        wider = reach | ((reach.astype(np.int64) @ reach.astype(np.int64)) > 0)
        if (wider == reach).all():
            return bool(reach.all())
        reach = wider


def _log_likelihood(theta: np.ndarray, wins: np.ndarray) -> float:
    gap = theta[:, None] - theta[None, :]
    return float(-(wins * np.logaddexp(0.0, -gap)).sum())


MAX_DEALS = 1 << 40
"""The most deals one comparison or tournament plays (every deal is played several times)."""
MAX_BOOT = 1_000_000
"""The most bootstrap resamples of a tournament's ratings."""
MAX_NEWTON_STEPS = 100_000
"""The most Newton steps :func:`bradley_terry` may be asked for."""


def _check_at_most(name: str, value: int, most: int) -> None:
    if value > most:
        raise ValueError(f"The value for `{name}` must be an integer of at most {most:,}, but "
                         f"{value!r} was passed.")


def bradley_terry(wins: Any, *, tol: float = 1e-12, max_iter: int = 100) -> np.ndarray:
    """Maximum-likelihood Bradley-Terry log-strengths from a matrix of pairwise wins.

    The model: ``P(i beats j) = 1 / (1 + exp(theta_j - theta_i))``. The log-likelihood
    ``sum_ij wins[i, j] * log P(i beats j)`` is concave; it is maximised by Newton's method with
    step halving, the scale fixed by ``mean(theta) = 0`` (natural-log strengths; multiply by
    ``400 / ln 10`` for an Elo-like scale). Wins may be fractional (a tie counts half to each).

    Parameters
    ----------
    wins : array_like, shape (k, k)
        ``wins[i, j]``: wins of ``i`` over ``j`` (the diagonal is ignored). The maximum exists only
        if every split of the players into two groups has a win each way across it.
    tol : float
        Stop when no rating moves by more than this.
    max_iter : int
        Newton steps at most.

    Returns
    -------
    numpy.ndarray
        ``theta``, one log-strength per player, mean 0.

    Examples
    --------
    >>> theta = bradley_terry([[0, 30], [10, 0]])   # two players: theta_0 - theta_1 = log(30/10)
    >>> round(float(theta[0] - theta[1]), 12) == round(float(np.log(3)), 12)
    True
    """
    if isinstance(tol, bool) or not isinstance(tol, (int, float)) or not 0 < tol < 1:
        raise ValueError(f"The value for `tol` must be a number between 0 and 1, but {tol!r} was "
                         "passed.")
    max_iter = check_limit("max_iter", max_iter, 1, MAX_NEWTON_STEPS)
    try:
        w = np.array(wins, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"The value for `wins` must be a square matrix of win counts, but a "
                         f"{type(wins).__name__} was passed.") from None
    if w.ndim != 2 or w.shape[0] != w.shape[1] or w.shape[0] < 2:
        raise ValueError(f"The value for `wins` must be a square matrix of 2 or more players, but "
                         f"an array of shape {w.shape} was passed.")
    if not np.isfinite(w).all() or (w < 0).any():
        raise ValueError("The value for `wins` must hold finite counts of 0 or more, but "
                         f"{w.tolist()!r} was passed.")
    np.fill_diagonal(w, 0.0)
    if not _strongly_connected(w > 0):
        raise ValueError("The value for `wins` must let every group of players win at least once "
                         "against the rest (else the maximum-likelihood strengths are infinite), "
                         f"but {w.tolist()!r} was passed.")
    k = len(w)
    games = w + w.T
    theta = np.zeros(k)
    for _ in range(max_iter):
        p = 0.5 * (1.0 + np.tanh((theta[:, None] - theta[None, :]) / 2))
        grad = (w - games * p).sum(axis=1)
        h = games * p * (1 - p)
        laplacian = np.diag(h.sum(axis=1)) - h
        # the Hessian is -laplacian, singular along the constant vector: solve on mean-zero
        step = np.linalg.solve(laplacian + 1.0 / k, grad)
        before, t = _log_likelihood(theta, w), 1.0
        while _log_likelihood(theta + t * step, w) < before and t > 1e-10:
            t /= 2
        theta = theta + t * step
        theta -= theta.mean()
        if np.abs(t * step).max() <= tol:
            break
    return theta


# ------------------------------------------------------------------------------ tournament
def _check_strategies(strategies: Any, engine: str) -> tuple[list[str], list[Any]]:
    if isinstance(strategies, Mapping):
        labels, strats = [str(k) for k in strategies], list(strategies.values())
    elif isinstance(strategies, Sequence) and not isinstance(strategies, str):
        strats = list(strategies)
        labels = [_label(s) for s in strats]
    else:
        raise ValueError(f"The value for `strategies` must be a list of 2 or more strategies or a "
                         f"dict of them by label, but {strategies!r} was passed.")
    if len(strats) < 2:
        raise ValueError(f"The value for `strategies` must hold 2 or more strategies, but "
                         f"{len(strats)} was passed.")
    if len(set(labels)) != len(labels):
        raise ValueError(f"The value for `strategies` must have distinct labels (pass a dict to "
                         f"name them), but the labels {labels!r} were passed.")
    for s in strats:
        _check_strategy("strategies", s, engine)
    return labels, strats


def _fit_or_nan(wins: np.ndarray) -> np.ndarray:
    try:
        return bradley_terry(wins)
    except ValueError:
        return np.full(len(wins), np.nan)


def _wins_matrix(k: int, pairs: list[tuple[int, int]], a_wins: np.ndarray,
                 games: float) -> np.ndarray:
    w = np.zeros((k, k))
    for (i, j), won in zip(pairs, a_wins, strict=True):
        w[i, j], w[j, i] = won, games - won
    return w


def _ratings(labels: list[str], pairs: list[tuple[int, int]], per_deal: np.ndarray, plays: int,
             seed: int, n_boot: int, confidence: float) -> tuple[pd.DataFrame, np.ndarray]:
    """Ratings with bootstrap intervals; ``per_deal`` (n_deals, n_pairs) holds A's wins per deal."""
    n, k = len(per_deal), len(labels)
    wins = _wins_matrix(k, pairs, per_deal.sum(axis=0), plays * n)
    theta = _fit_or_nan(wins)
    base = mix64(seed ^ DOMAIN_DUPLICATE_BOOTSTRAP)
    boot = np.empty((n_boot, k))
    for r in range(n_boot):
        counts = np.bincount(below_many(mix64(base + r), n, n), minlength=n)
        boot[r] = _fit_or_nan(_wins_matrix(k, pairs, counts @ per_deal, plays * n))
    if n_boot < 2 or np.isnan(boot).any():
        se = low = high = np.full(k, np.nan)
    else:
        se = boot.std(axis=0, ddof=1)
        low, high = np.quantile(boot, [(1 - confidence) / 2, (1 + confidence) / 2], axis=0)
    table = pd.DataFrame({"strategy": labels, "rating": theta, "se": se, "ci_low": low,
                          "ci_high": high, "elo": theta * 400 / math.log(10)})
    table = table.sort_values("rating", ascending=False, kind="stable").reset_index(drop=True)
    return table, wins


@dataclass(frozen=True, repr=False)
class Tournament:
    """Every pair of strategies on duplicate deals (returned by :func:`tournament`).

    Attributes
    ----------
    strategies : tuple of str
        The labels, in the order given.
    rules : Rules
    seed, n_deals : int
    engine : str
    confidence : float
    pairs : pandas.DataFrame
        One row per pair (A before B in the given order): ``a``, ``b``, ``win_rate_a`` (A's
        duplicate win rate over B, ``1/2 + win_rate_diff / 2``), ``win_rate_diff`` with ``se``,
        ``ci_low``, ``ci_high``, ``points_diff`` with ``points_se``, ``points_ci_low``,
        ``points_ci_high``, ``variance_reduction`` (win rate) and ``n_deals``; as in
        :class:`Comparison` (with 3+ sides, lone A's minus lone B's).
    win_matrix : pandas.DataFrame
        Row A, column B: A's duplicate win rate over B; the diagonal is NaN.
    wins : pandas.DataFrame
        The Bradley-Terry counts: row A, column B, A's wins over B counted per deal and rotation
        (each deal is 2 games with two sides, ``2 * n_sides`` with more; a tie counts half; with
        3+ sides a game is A's if lone A wins it, or if lone B loses it).
    ratings : pandas.DataFrame
        ``strategy``, ``rating`` (maximum-likelihood Bradley-Terry log-strength, natural log,
        mean 0 over the strategies: A beats B with probability ``1 / (1 + exp(r_B - r_A))``),
        ``se`` and ``ci_low``, ``ci_high`` (percentile interval) from a bootstrap over deals, and
        ``elo`` (the rating times ``400 / ln 10``); best first. NaN where the maximum does not
        exist (a strategy won or lost every game).
    comparisons : dict
        ``{(a, b): Comparison}`` for every pair.
    n_boot : int
        Bootstrap resamples of the deals (keyed by ``seed``; the same resample for every pair).
    """

    strategies: tuple[str, ...]
    rules: Rules
    seed: int
    n_deals: int
    engine: str
    confidence: float
    pairs: pd.DataFrame
    win_matrix: pd.DataFrame
    wins: pd.DataFrame
    ratings: pd.DataFrame
    comparisons: dict[tuple[str, str], Comparison]
    n_boot: int

    def summary(self) -> str:
        """A readable report: the pairs, the win matrix and the ratings."""
        fmt = {"float_format": lambda v: f"{v:.4f}", "index": False}
        return "\n".join([
            f"Duplicate tournament: {', '.join(map(repr, self.strategies))}",
            f"  rules: {_describe(self.rules)} ({self.rules.n_sides} sides)",
            f"  {self.n_deals} deals (seed {self.seed}, engine {self.engine!r}); "
            f"{self.confidence:.0%} intervals, ratings by a {self.n_boot}-resample bootstrap",
            self.pairs.to_string(**fmt),
            "A's win rate over B (row A, column B):",
            self.win_matrix.to_string(float_format=lambda v: f"{v:.4f}"),
            "Bradley-Terry ratings (log-strength, mean 0):",
            self.ratings.to_string(**fmt)])

    def __repr__(self) -> str:
        """Two lines: the strategies, the deals and the ratings, best first (:meth:`summary`
        has the tables).
        """
        ratings = ", ".join(f"{r.strategy} {r.rating:+.3f}" for r in self.ratings.itertuples())
        return (f"Tournament of {', '.join(map(repr, self.strategies))}, {self.n_deals:,} deals "
                f"(seed {self.seed}) of {self.rules!r}:\n  Bradley-Terry ratings {ratings}")

    def _repr_html_(self) -> str:
        from ..display import card, frame

        return card("Tournament", f"of {', '.join(map(repr, self.strategies))} on "
                    f"{self.n_deals:,} duplicate deals per pair (seed {self.seed}) of "
                    f"{self.rules!r}; {self.confidence:.0%} intervals",
                    "<p>Bradley-Terry ratings (log-strength, mean 0), best first:</p>",
                    frame(self.ratings),
                    "<p>A's win rate over B (row A, column B):</p>",
                    frame(self.win_matrix, index=True),
                    "<p>Every pair:</p>", frame(self.pairs))


def _pair_row(a: str, b: str, c: Comparison) -> dict[str, Any]:
    win, pts = c.row("win_rate_diff"), c.row("points_diff")
    return {"a": a, "b": b, "win_rate_a": 0.5 + win.estimate / 2, "win_rate_diff": win.estimate,
            "se": win.se, "ci_low": win.ci_low, "ci_high": win.ci_high,
            "points_diff": pts.estimate, "points_se": pts.se, "points_ci_low": pts.ci_low,
            "points_ci_high": pts.ci_high, "variance_reduction": c.variance_reduction["win_rate"],
            "n_deals": c.n_deals}


def tournament(rules: Rules, strategies: Any, n_deals: int, seed: int = 0, *,
               engine: str = "fast", n_jobs: int | None = None, confidence: float = 0.95,
               n_boot: int = 200, progress: bool | None = None) -> Tournament:
    """Every pair of ``strategies`` compared on the same duplicate deals, and Bradley-Terry ratings.

    Each pair is played by :func:`compare` on deals ``0 .. n_deals - 1`` of ``seed``. The ratings
    are fitted by maximum likelihood (:func:`bradley_terry`) to the pairwise duplicate win counts,
    with intervals from a bootstrap over deals (resampled with a counter-based stream keyed by
    ``seed``, the same resample for every pair, since all pairs play the same deals).

    Parameters
    ----------
    rules : Rules
    strategies : list or dict
        Two or more strategies (built-in names, or with ``engine='reference'`` Python strategies)
        with distinct labels; a dict gives them labels.
    n_deals : int
        Deals per pair (1 or more).
    seed : int
    engine : {'fast', 'reference'}
    n_jobs : int, optional
        Threads for the fast engine.
    confidence : float
        Coverage of the intervals, in (0, 1).
    n_boot : int
        Bootstrap resamples for the ratings' intervals (0 for none).
    progress : bool, optional
        A progress bar over the hands of every pair (a widget in Jupyter); by default for
        long runs in Jupyter or on a terminal.

    Returns
    -------
    Tournament

    Examples
    --------
    >>> import dominosim as ds
    >>> t = tournament(ds.Rules.preset("block", players=2), ["random", "bully", "doubles"],
    ...                n_deals=200, seed=1, n_boot=50)
    >>> t.pairs[["a", "b"]].values.tolist()
    [['random', 'bully'], ['random', 'doubles'], ['bully', 'doubles']]
    >>> round(float(t.ratings["rating"].sum()), 9), list(t.ratings.columns)
    (0.0, ['strategy', 'rating', 'se', 'ci_low', 'ci_high', 'elo'])
    >>> w = t.win_matrix
    >>> round(float(w.loc["bully", "random"] + w.loc["random", "bully"]), 12)
    1.0
    """
    rules = check_rules(rules)
    check_engine(engine)
    labels, strats = _check_strategies(strategies, engine)
    check_count("n_deals", n_deals, low=1)
    _check_at_most("n_deals", n_deals, MAX_DEALS)
    check_count("n_boot", n_boot)
    _check_at_most("n_boot", n_boot, MAX_BOOT)
    check_seed(seed)
    confidence = check_confidence(confidence)
    k = rules.n_sides
    plays = 2 if k == 2 else 2 * k
    pairs = [(i, j) for i in range(len(labels)) for j in range(i + 1, len(labels))]
    comparisons, rows, per_deal = {}, [], []
    hands = len(pairs) * n_deals * _lineups(rules)
    show = want_progress(progress, work=hands, long=long_hands(engine, strats))
    with bar(total=hands, desc="tournament", show=show) as progress_bar:
        for i, j in pairs:
            c = _compare(rules, strats[i], strats[j], n_deals, seed, engine, n_jobs, confidence,
                         True, progress_bar.update)
            assert c.deals is not None  # kept: the argument True above
            per_deal.append(plays * (1 + c.deals["win_rate_diff"].to_numpy()) / 2)
            comparisons[labels[i], labels[j]] = dataclasses.replace(c, a=labels[i], b=labels[j],
                                                                    deals=None)
            rows.append(_pair_row(labels[i], labels[j], c))
    ratings, wins = _ratings(labels, pairs, np.stack(per_deal, axis=1), plays, seed, n_boot,
                             confidence)
    matrix = pd.DataFrame(np.nan, index=labels, columns=labels)
    for (i, j), row in zip(pairs, rows, strict=True):
        matrix.iloc[i, j], matrix.iloc[j, i] = row["win_rate_a"], 1 - row["win_rate_a"]
    return Tournament(tuple(labels), rules, seed, n_deals, engine, confidence, pd.DataFrame(rows),
                      matrix, pd.DataFrame(wins, index=labels, columns=labels), ratings,
                      comparisons, n_boot)
