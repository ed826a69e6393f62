"""Tuning a weighted player with CMA-ES on duplicate deals.

:func:`tune` searches the weights of a :class:`~dominosim.strategies.weighted.Weighted` player
with the CMA-ES of the ``cma`` package. A candidate's fitness is its mean paired edge (win rate
difference, :func:`dominosim.compare`) over the strategies of ``against``, on duplicate deals: every
candidate of a generation plays the same deals (common random numbers, so that the differences
between candidates are not drowned by the luck of the deal), and each generation draws fresh deals.

The budget (duplicate deals, one deal against one opponent counting once) is spent in three parts:
80% on the search; 10% on choosing among the final search distribution's candidates on fresh
deals, where a bootstrap over those deals (which candidate would have been chosen on resampled
deals) gives each weight an interval; 10% on measuring the chosen player against each opponent
on fresh deals (:attr:`Tuning.results`).

A weighted sum is unchanged by a positive factor, so the weights are reported scaled so that the
largest in size is 1; the features that are the same for every legal move
(:data:`~dominosim.strategies.features.CONTEXT`) cannot matter to it and keep weight 0, as do the
partner's features without partnerships (:func:`tuned_features`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..progress import bar, want_progress
from ..rng import check_seed, mix64
from ..rules import Rules, check_rules
from ..simulation.duplicate import compare
from ..strategies.features import FEATURE_NAMES, MOVE_FEATURES
from ..strategies.weighted import Weighted

DOMAIN_TUNE = 0x9B05688C2B3E6C1F
"""The random domain of the tuner's deals and of its CMA-ES seed."""
SEARCH_SHARE, SELECT_SHARE = 0.8, 0.1
"""Shares of the budget spent on the search and on choosing among the final candidates (the rest
measures the chosen player)."""
START = {"pips": 1.0}
"""Where the search starts: the ``bully`` rule of thumb (heaviest tile first)."""


@dataclass
class Tuning:
    """What :func:`tune` returns.

    Attributes
    ----------
    player : Weighted
        The tuned player (its metadata say how it was fitted).
    weights : pandas.Series
        Its weights by feature name, scaled so that the largest in size is 1.
    intervals : pandas.DataFrame
        By feature: ``weight``, and ``ci_low``, ``ci_high``, the 2.5% and 97.5% points of the
        weights a bootstrap over the selection deals would have chosen.
    results : pandas.DataFrame
        By opponent: ``edge`` (the paired win-rate difference, tuned minus opponent), ``ci_low``,
        ``ci_high`` (95%), ``n_deals`` and ``seed`` of the fresh deals it was measured on.
    history : pandas.DataFrame
        By generation: the best and mean fitness (mean edge over the opponents) and the deals
        played so far.
    seconds : float
        Wall time.
    """

    player: Weighted
    weights: pd.Series
    intervals: pd.DataFrame
    results: pd.DataFrame
    history: pd.DataFrame = field(repr=False)
    seconds: float = 0.0


def seed_of(seed: int, domain: int, *parts: int) -> int:
    """The seed of one part of a fit (a generation, a round, a measurement...): the run's
    ``seed`` in the fitter's random ``domain`` (:data:`DOMAIN_TUNE`, ``learn``'s
    ``DOMAIN_LEARN``), mixed with ``parts`` in turn; a non-negative 63-bit integer.

    >>> seed_of(7, DOMAIN_TUNE, 2, 0) != seed_of(7, DOMAIN_TUNE, 2, 1), seed_of(7, DOMAIN_TUNE) >= 0
    (True, True)
    """
    key = seed ^ domain
    for part in parts:
        key = mix64(key + part)
    return key & ((1 << 63) - 1)


PARTNER_FEATURES = ("partner_lacks", "partner_shut", "partner_fed")
"""The features that are always 0 without partnerships (not tuned there)."""


def tuned_features(rules: Rules) -> tuple[str, ...]:
    """The features whose weights :func:`tune` searches for ``rules``: those that tell the moves
    of a decision apart (:data:`~dominosim.strategies.features.MOVE_FEATURES`), less the
    partner's without partnerships.
    """
    return tuple(n for n in MOVE_FEATURES
                 if rules.partnerships or n not in PARTNER_FEATURES)


def full_vector(rules: Rules, x: np.ndarray) -> np.ndarray:
    """The full weight vector (the features not fitted at 0) of coordinates ``x`` over
    :func:`tuned_features` (the search's, or a regression's coefficients).
    """
    full = np.zeros(len(FEATURE_NAMES))
    for j, name in enumerate(tuned_features(rules)):
        full[FEATURE_NAMES.index(name)] = x[j]
    return full


def unit_scaled(vector: np.ndarray) -> np.ndarray:
    """``vector`` scaled so that its largest weight in size is 1 (a weighted sum's choices are
    unchanged by a positive factor); all zeros stay zeros.
    """
    top = float(np.max(np.abs(vector)))
    return vector / top if top > 0 else vector


def _player(rules: Rules, vector: np.ndarray, name: str = "tuned") -> Weighted:
    return Weighted(rules, dict(zip(FEATURE_NAMES, vector.tolist(), strict=True)), name=name)


def _edges(rules: Rules, player: Weighted, against: Sequence[Any], n_deals: int, seed: int,
           n_jobs: int | None) -> np.ndarray:
    """Per deal, the player's paired edge against each opponent: shape (n_deals, opponents)."""
    cols = []
    for b in against:
        deals = compare(rules, player, b, n_deals, seed, n_jobs=n_jobs, keep_deals=True,
                        progress=False).deals
        assert deals is not None  # kept: keep_deals=True
        cols.append(deals["win_rate_diff"].to_numpy())
    return np.stack(cols, axis=1)


MAX_DEALS = 1 << 40
"""The most duplicate deals ``tune`` plays (``budget``) or plays per candidate (``deals``): as
:func:`dominosim.compare`'s ``n_deals``, far beyond any run that ends."""


def _check(rules: Any, against: Any, budget: Any, deals: Any) -> list[Any]:
    check_rules(rules)
    if isinstance(against, str) or not isinstance(against, (list, tuple)) or not against:
        raise ValueError("The value for `against` must be a non-empty list of strategies (names "
                         f"the compiled engine plays), but {against!r} was passed.")
    for name, value, low in (("budget", budget, 1000), ("deals", deals, 20)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
            raise ValueError(f"The value for `{name}` must be an integer of {low} or more, but "
                             f"{value!r} was passed.")
        if value > MAX_DEALS:
            raise ValueError(f"The value for `{name}` must be at most {MAX_DEALS:,}, but "
                             f"{value!r} was passed.")
    return list(against)


def _search(rules: Rules, against: list[Any], x0: np.ndarray, budget: int, deals: int, seed: int,
            n_jobs: int | None, tick: Callable[[int], None]) -> tuple[Any, list[dict]]:
    """Run CMA-ES until it has spent ``budget`` deals; returns the optimiser and its history."""
    import cma

    es = cma.CMAEvolutionStrategy(x0, 0.5, {"seed": seed_of(seed, DOMAIN_TUNE, 1) % (2**31 - 2)
                                            + 1, "verbose": -9, "CMA_diagonal": False})
    spent, history, generation = 0, [], 0
    per_generation = es.popsize * deals * len(against)
    while spent + per_generation <= budget:
        candidates = es.ask()
        gen_seed = seed_of(seed, DOMAIN_TUNE, 2, generation)
        fitness = [-float(_edges(rules, _player(rules, full_vector(rules, x)), against, deals, gen_seed,
                                 n_jobs).mean()) for x in candidates]
        es.tell(candidates, fitness)
        spent += per_generation
        tick(per_generation)
        history.append({"generation": generation, "best": -min(fitness),
                        "mean": -float(np.mean(fitness)), "deals": spent})
        generation += 1
    return es, history


def _select(rules: Rules, against: list[Any], es: Any, budget: int, seed: int,
            n_jobs: int | None, tick: Callable[[int], None]) -> tuple[np.ndarray, np.ndarray]:
    """The best of the final candidates (the distribution's mean and a sample) on fresh deals,
    and the bootstrap of the chosen weights over those deals (rows: resamples).
    """
    candidates = [np.asarray(es.mean)] + list(es.ask())
    n_deals = max(20, budget // (len(candidates) * len(against)))
    sel_seed = seed_of(seed, DOMAIN_TUNE, 3)
    per_deal = np.stack([_edges(rules, _player(rules, full_vector(rules, x)), against, n_deals, sel_seed,
                                n_jobs).mean(axis=1) for x in candidates], axis=1)
    tick(n_deals * len(candidates) * len(against))
    scaled = np.array([unit_scaled(full_vector(rules, x)) for x in candidates])
    rng = np.random.default_rng(seed_of(seed, DOMAIN_TUNE, 4))
    picks = [int(np.argmax(per_deal[rng.integers(0, n_deals, n_deals)].mean(axis=0)))
             for _ in range(200)]
    return scaled[int(np.argmax(per_deal.mean(axis=0)))], scaled[picks]


def _results(rules: Rules, player: Weighted, against: list[Any], budget: int, seed: int,
             n_jobs: int | None) -> pd.DataFrame:
    n_deals = max(20, budget // len(against))
    res_seed = seed_of(seed, DOMAIN_TUNE, 5)
    rows = []
    for b in against:
        row = compare(rules, player, b, n_deals, res_seed, n_jobs=n_jobs,
                      progress=False).row("win_rate_diff")
        rows.append({"opponent": getattr(b, "name", str(b)), "edge": row.estimate,
                     "ci_low": row.ci_low, "ci_high": row.ci_high, "n_deals": n_deals,
                     "seed": res_seed})
    return pd.DataFrame(rows)


def tune(rules: Rules, against: Sequence[Any], *, budget: int = 1_000_000, deals: int = 400,
         seed: int = 0, name: str = "tuned", n_jobs: int | None = None,
         progress: bool | None = None) -> Tuning:
    """Fit a weighted player's weights with CMA-ES on duplicate deals.

    Parameters
    ----------
    rules : Rules
        The rules to fit for (the player refuses any other).
    against : list of strategies
        The opponents (names the compiled engine plays, weighted players, ``"file:"`` players):
        a candidate's fitness is its mean paired edge over them.
    budget : int
        Duplicate deals to play in all (a deal against one opponent counts once): 80% for the
        search, 10% to choose among its final candidates, 10% to measure the result.
    deals : int
        Deals a candidate plays against each opponent per generation (the same for every
        candidate of a generation).
    seed : int
        Seeds the deals and the CMA-ES; the same seed and arguments give the same player.
    name : str
        The player's name.
    n_jobs : int, optional
        Threads for the compiled engine.
    progress : bool, optional
        A progress bar over the deals (by default for long runs in Jupyter or on a terminal).

    Returns
    -------
    Tuning
        ``.player``, ``.weights`` (a Series by feature), ``.intervals``, ``.results`` (its edge
        against each opponent) and ``.history``.

    Examples
    --------
    >>> import dominosim as ds
    >>> small = ds.Rules.preset("block", players=2, max_pip=4, hand_size=4)
    >>> t = ds.tune(small, ["random"], budget=3000, deals=50, seed=1, progress=False)
    >>> float(t.weights.abs().max()), list(t.results.columns[:4])
    (1.0, ['opponent', 'edge', 'ci_low', 'ci_high'])
    """
    against = _check(rules, against, budget, deals)
    check_seed(seed)
    if not isinstance(name, str) or not name:
        raise ValueError(f"The value for `name` must be a non-empty string, but {name!r} was "
                         "passed.")
    started = time.perf_counter()
    x0 = np.array([START.get(n, 0.0) for n in tuned_features(rules)])
    show = want_progress(progress, work=budget, long=False)
    with bar(total=budget, desc=f"tune {name}", unit="deal", show=show) as progress_bar:
        es, history = _search(rules, against, x0, int(budget * SEARCH_SHARE), deals, seed,
                              n_jobs, progress_bar.update)
        progress_bar.update(int(budget * SEARCH_SHARE) - (history[-1]["deals"] if history else 0))
        chosen, boot = _select(rules, against, es, int(budget * SELECT_SHARE), seed, n_jobs,
                               progress_bar.update)
        low, high = np.percentile(boot, [2.5, 97.5], axis=0)
        player = _player(rules, chosen, name)
        player.metadata.update({"seed": seed, "budget": int(budget), "deals": int(deals),
                                "against": [getattr(b, "name", str(b)) for b in against],
                                "method": "CMA-ES (cma) on duplicate deals",
                                "generations": len(history)})
        results = _results(rules, player, against, budget - int(budget * SEARCH_SHARE)
                           - int(budget * SELECT_SHARE), seed, n_jobs)
        progress_bar.update(budget - int(budget * SEARCH_SHARE) - int(budget * SELECT_SHARE))
    intervals = pd.DataFrame({"weight": chosen, "ci_low": low, "ci_high": high},
                             index=list(FEATURE_NAMES))
    return Tuning(player, player.weights, intervals, results, pd.DataFrame(history),
                  time.perf_counter() - started)
