"""Block against Draw, read from records: how uncertainty evolves over a hand, and the deal's share.

The hands are played by :mod:`dominosim.simulation.experiments` (:func:`hand_uncertainty`,
:func:`deal_replays`, :func:`value_of_information`, :func:`block_draw_uncertainty`, also reachable
here by their old names); this module reads their tables:

* :func:`uncertainty_profile`: the means of the per-turn measures over the course of a hand;
* :func:`luck_share`: the fraction of the variance of a side's result that the deal explains
  (measure (d) of :mod:`dominosim.simulation.experiments`).

Examples
--------
>>> import pandas as pd
>>> d = pd.DataFrame({"turn": [0, 1], "progress": [0.0, 0.5], "tiles_unknown": [9, 7]})
>>> uncertainty_profile(d)["tiles_unknown"].tolist()
[9.0, 7.0]
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from ..checks import check_choice, check_confidence, refuse
from .common import collect, z_value

OUTCOMES = ("score", "points")
PROFILE_X = ("turn", "progress")


def uncertainty_profile(data: pd.DataFrame, *, x: str = "turn", bins: int = 10,
                        groups: Any = None, min_count: int = 1,
                        confidence: float = 0.95) -> pd.DataFrame:
    """Means of the measures of :func:`hand_uncertainty` over the course of a hand.

    Parameters
    ----------
    data : DataFrame
        From :func:`hand_uncertainty` (several hands, with any label columns added).
    x : {'turn', 'progress'}
        By turn (later turns average over the hands still going), or by the share of the hand
        played, cut into ``bins`` equal bins (each labelled by its midpoint).
    bins : int
        Bins of ``progress``.
    groups : str or list of str, optional
        Label columns to keep apart (such as ``game`` and ``players``).
    min_count : int
        Leave out the points averaged over fewer turns (the last turns of the longest hands,
        whose means say little).
    confidence : float

    Returns
    -------
    DataFrame
        Group labels, ``x`` and for each of ``tiles_unknown``, ``in_other_hands``,
        ``entropy_bits`` and ``counts_entropy_bits``: the mean and its normal interval
        (``<name>_ci_low``, ``<name>_ci_high``); ``n`` (turns averaged).

    Examples
    --------
    >>> import pandas as pd
    >>> d = pd.DataFrame({"turn": [0, 1, 0], "progress": [0, 0.5, 0], "tiles_unknown": [9, 7, 11],
    ...                   "in_other_hands": [5, 4, 6], "entropy_bits": [3.0, 2.0, 5.0],
    ...                   "counts_entropy_bits": [4.0, 3.0, 6.0]})
    >>> p = uncertainty_profile(d)
    >>> p[["turn", "n", "tiles_unknown"]].values.tolist()
    [[0.0, 2.0, 10.0], [1.0, 1.0, 7.0]]
    """
    check_choice("x", x, PROFILE_X)
    confidence = check_confidence(confidence)
    for name, value in (("bins", bins), ("min_count", min_count)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise refuse(name, "an integer of 1 or more", value)
    cols = [] if groups is None else [groups] if isinstance(groups, str) else list(groups)
    d = data.copy()
    if x == "progress":
        d["progress"] = (np.floor(d["progress"] * bins).clip(upper=bins - 1) + 0.5) / bins
    measures = [m for m in ("tiles_unknown", "in_other_hands", "entropy_bits",
                            "counts_entropy_bits") if m in d.columns]
    g = d.groupby(cols + [x], sort=True, observed=True)[measures]
    mean, sem, n = g.mean(), g.sem(), g.size()
    z = z_value(confidence)
    out = pd.DataFrame({"n": n})
    for m in measures:
        out[m] = mean[m]
        out[f"{m}_ci_low"] = mean[m] - z * sem[m]
        out[f"{m}_ci_high"] = mean[m] + z * sem[m]
    return out[out["n"] >= min_count].reset_index()


def _share(a: np.ndarray, b: np.ndarray, w: np.ndarray, n_deals: np.ndarray, r: int,
           k: int) -> np.ndarray:
    """The deal's share of the variance from sums over deals: ``a`` of squared group means, ``b``
    of group means (per side), ``w`` of within-group squares; arrays over leave-one-out cases.
    """
    ssb = r * (a - (b**2 / n_deals[:, None])).sum(axis=1)
    msb = ssb / (k * (n_deals - 1))
    msw = w / (k * n_deals * (r - 1))
    var_deal = (msb - msw) / r
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.stack([var_deal / (var_deal + msw), var_deal, msw])


def luck_share(data: pd.DataFrame, *, outcome: str = "score", groups: Any = None,
               confidence: float = 0.95) -> pd.DataFrame:
    """The share of the variance of a side's result that the deal explains (measure (d)).

    With ``R`` plays of each of ``D`` deals (every line-up and play of :func:`deal_replays`),
    ``Y[d, s, r]`` side ``s``'s result in play ``r`` of deal ``d``: the one-way random-effects
    analysis of variance with the deal as the random effect, pooled over the sides, estimates
    ``var_deal = sum_s Var(E[Y_s | deal])`` as ``(MSB - MSW) / R`` and ``var_play`` (what varies
    between plays of one deal: the line-up, the seating, the strategies' random choices) as
    ``MSW``; the share is ``var_deal / (var_deal + var_play)``. It is 1 when every play of a deal
    ends alike (the deal decides everything), about 0 when the deal tells nothing; sampling can
    push the estimate slightly below 0. Its interval is a normal one from the jackknife over deals.

    Parameters
    ----------
    data : DataFrame
        Columns ``deal``, ``side`` and ``outcome``, with the same number of rows (plays) for every
        deal and side; from :func:`deal_replays`.
    outcome : {'score', 'points'}
    groups : str or list of str, optional
        Label columns to keep apart (such as ``game`` and ``players``).
    confidence : float

    Returns
    -------
    DataFrame
        Group labels, ``outcome``, ``deals``, ``plays`` (per deal), ``share``, ``se``, ``ci_low``,
        ``ci_high``, ``var_deal``, ``var_play``.

    Examples
    --------
    Three deals played twice by two sides: side 0 wins the first deal both times, the second
    once, the third never. MSB = 1/2, MSW = 1/6, so var_deal = (1/2 - 1/6) / 2 = 1/6 = var_play.

    >>> import pandas as pd
    >>> d = pd.DataFrame({"deal": [0] * 4 + [1] * 4 + [2] * 4, "side": [0, 1] * 6,
    ...                   "score": [1, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0, 1]})
    >>> t = luck_share(d)
    >>> round(float(t.loc[0, "share"]), 12), round(float(t.loc[0, "var_deal"]), 12)
    (0.5, 0.166666666667)
    """
    check_choice("outcome", outcome, OUTCOMES)
    confidence = check_confidence(confidence)
    cols = [] if groups is None else [groups] if isinstance(groups, str) else list(groups)
    missing = [c for c in ["deal", "side", outcome, *cols] if c not in data.columns]
    if missing:
        raise refuse("data", "a frame with columns `deal`, `side` and the outcome (from "
                     "deal_replays)", f"a frame without {missing[0]!r}")
    rows = []
    for key, part in (data.groupby(cols, sort=True, observed=True) if cols else [((), data)]):
        key = key if isinstance(key, tuple) else (key,)
        labels = dict(zip(cols, key, strict=True))
        g = part.groupby(["deal", "side"], sort=True)[outcome]
        size = g.size()
        if size.nunique() != 1 or size.iloc[0] < 2:
            raise refuse("data", "the same number (2 or more) of plays of every deal and side",
                         f"between {size.min()} and {size.max()} plays")
        r = int(size.iloc[0])
        means = g.mean().unstack("side")
        within = (g.var(ddof=1) * (r - 1)).groupby(level="deal").sum().to_numpy()
        m = means.to_numpy()
        d, k = m.shape
        if d < 3:
            raise refuse("data", "plays of 3 or more deals", f"{d} deals")
        a, b = (m**2).sum(axis=0), m.sum(axis=0)
        full = _share(a[None], b[None], np.array([within.sum()]), np.array([d]), r, k)[:, 0]
        loo = _share(a[None] - m**2, b[None] - m, within.sum() - within, np.full(d, d - 1), r, k)
        se = math.sqrt((d - 1) / d * ((loo[0] - loo[0].mean()) ** 2).sum())
        z = z_value(confidence)
        rows.append({**labels, "outcome": outcome, "deals": d, "plays": r, "share": full[0],
                     "se": se, "ci_low": full[0] - z * se, "ci_high": full[0] + z * se,
                     "var_deal": full[1], "var_play": full[2]})
    return collect(rows, ["outcome", "deals", "plays", "share", "se", "ci_low", "ci_high",
                          "var_deal", "var_play"])
