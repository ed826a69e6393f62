"""Rates and means of hand records, with intervals: who wins, how hands end, how long they last.

Every function takes ``data`` first (a DataFrame of hand records, a :class:`~dominosim.Summary`,
or a dict of either by variant label), then keyword arguments only: ``groups`` (columns of the
records to split by, such as the batch runner's cell columns; a dict's keys become a ``variant``
column), ``rules`` (the table's facts; needed for records without ``players`` and
``partnerships`` columns, except those of :func:`dominosim.simulate`, which carry their rules in
``DataFrame.attrs``) and ``confidence`` (coverage of the intervals, 0.95 by default). Each
returns a tidy DataFrame: the group labels first, then the documented columns.

Examples
--------
>>> import dominosim as ds
>>> rules = ds.Rules.preset("block", players=2)
>>> hands = ds.simulate(rules, "random", n_hands=2_000, seed=1)
>>> t = win_rates(hands, by="seat")          # the rules travel with the records (attrs)
>>> t["seat"].tolist(), t["hands"].tolist(), t["fair_share"].tolist()
([0, 1], [2000, 2000], [0.5, 0.5])
>>> bool((t["ci_low"] < t["win_rate"]).all() and (t["win_rate"] < t["ci_high"]).all())
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..checks import check_choice, check_confidence, refuse
from ..rules import Rules
from .common import (
    Facts,
    Source,
    collect,
    mean_interval,
    mean_se,
    opener_side,
    side_scores,
    sources,
    wilson_interval,
)

WIN_BY = ("seat", "side", "opener", "strategy")
STITCH_PER = ("hand", "play", "seat")
PER_HAND = ("points", "plays", "knocks", "draws", "stitch_ups", "redeals", "boneyard_left")
_WIN_COLUMNS = ["hands", "wins", "ties", "win_rate", "ci_low", "ci_high", "score", "fair_share"]


# ----------------------------------------------------------------------------------- win rates
def _lineup_labels(lineup: Any, facts: Facts) -> list[str]:
    """The strategy label of every side: its seats' names, joined by '+' when partners differ."""
    if isinstance(lineup, str):
        names: list[Any] = [lineup] * facts.players
    elif isinstance(lineup, Mapping):
        names = [lineup.get(s) for s in range(facts.players)]
    elif isinstance(lineup, Sequence):
        names = list(lineup)
    else:
        names = []
    if len(names) != facts.players or not all(isinstance(n, str) for n in names):
        raise refuse("lineup", f"a strategy name for each of the {facts.players} seats (a list, "
                     "or a dict by seat)", lineup)
    labels = []
    for side in range(facts.n_sides):
        seats = [names[s] for s in facts.seats_of(side)]
        labels.append(seats[0] if len(set(seats)) == 1 else "+".join(seats))
    return labels


def _side_tallies(src: Source, relative: bool) -> tuple[np.ndarray, np.ndarray]:
    """Per side: outright wins (a count), and ties shared (their shares summed; NaN if unknown)."""
    k = src.facts.n_sides
    if src.rows is not None:
        scores = side_scores(src.rows, src.facts)
        winner = src.rows["winning_side"].to_numpy().astype(np.int64)
        if relative:
            shift = opener_side(src.rows, src.facts)
            idx = (np.arange(k)[None, :] + shift[:, None]) % k
            scores = np.take_along_axis(scores, idx, axis=1)
            winner = np.where(winner >= 0, (winner - shift) % k, -1)
        wins = np.array([(winner == j).sum() for j in range(k)], dtype=np.int64)
        return wins, scores.sum(axis=0) - wins
    s = src.totals
    prefix = "rel" if relative else "side"
    # a summary adds its wins as floats (every total of a summary is one): whole numbers of hands
    wins = np.rint([s[f"{prefix}_wins_{j}"] for j in range(k)]).astype(np.int64)
    # with two sides every tie is shared by both; with more, the tied sides are not summed
    ties = np.full(k, s["ties"] / 2 if k == 2 else math.nan)
    return wins, ties


def _win_rows(src: Source, by: str, lineup: Any) -> list[dict[str, Any]]:
    facts, n = src.facts, src.n_hands
    wins, ties = _side_tallies(src, relative=by == "opener")
    rows = []
    if by == "seat":
        for seat in range(facts.players):
            side = facts.side_of(seat)
            rows.append({"seat": seat, "hands": n, "wins": wins[side], "ties": ties[side]})
    elif by in ("side", "opener"):
        name = "side" if by == "side" else "from_opener"
        rows = [{name: j, "hands": n, "wins": wins[j], "ties": ties[j]}
                for j in range(facts.n_sides)]
    else:
        if lineup is None and src.rows is not None:
            lineup = src.rows.attrs.get("lineup")  # the records of ds.simulate carry it
        if lineup is None:
            raise refuse("lineup", "a strategy name per seat with by='strategy'", lineup)
        labels = _lineup_labels(lineup, facts)
        for label in dict.fromkeys(labels):
            js = [j for j in range(facts.n_sides) if labels[j] == label]
            rows.append({"strategy": label, "hands": n * len(js), "wins": wins[js].sum(),
                         "ties": ties[js].sum()})
    for row in rows:
        row["fair_share"] = 1 / facts.n_sides
    return rows


def win_rates(data: Any, *, by: str = "seat", lineup: Any = None, groups: Any = None,
              rules: Rules | None = None, confidence: float = 0.95) -> pd.DataFrame:
    """Win rates with Wilson intervals, by seat, side, position from the opener, or strategy.

    Parameters
    ----------
    data : DataFrame, Summary or dict of them
        Hand records or their summary (see :mod:`dominosim.analysis`).
    by : {'seat', 'side', 'opener', 'strategy'}
        ``'seat'``: the share of hands the seat's side won. ``'side'``: per side. ``'opener'``:
        per side counted from the opener's (``from_opener`` 0 is the opener's side, 1 the next
        side to its left, ...). ``'strategy'``: per strategy of ``lineup``, pooled over the sides
        playing it (trials are side-hands; the sides of one hand are not independent, which makes
        the interval conservative).
    lineup : str, list or dict, optional
        With ``by='strategy'``: the strategy name of every seat (a list, a dict by seat, or one
        name for all); default the records' ``attrs["lineup"]`` (set by
        :func:`dominosim.simulate`). A side whose partners play different strategies is
        labelled ``'a+b'``.
    groups : str or list of str, optional
        Columns to split the records by (variants, cells).
    rules : Rules, optional
        The table's facts, when the records lack ``players`` and ``partnerships`` columns
        (default the records' ``attrs["rules"]``, set by :func:`dominosim.simulate`).
    confidence : float

    Returns
    -------
    DataFrame
        Group labels, then ``seat`` / ``side`` / ``from_opener`` / ``strategy``, and: ``hands``
        (trials), ``wins`` (outright wins), ``ties`` (the tie shares won: a tie counts ``1 / m``
        to each of the ``m`` tied sides; NaN from a summary of three or more sides, which does
        not record who tied), ``win_rate`` (``wins / hands``), ``ci_low``, ``ci_high`` (its
        Wilson interval), ``score`` (``(wins + ties) / hands``: a tie as a share of a win, as in
        :func:`dominosim.compare`) and ``fair_share`` (``1 / sides``).

    Examples
    --------
    >>> import dominosim as ds
    >>> rules = ds.Rules.preset("block", players=4)       # partnerships: seats 0 and 2 together
    >>> hands = ds.simulate(rules, ["bully", "random"] * 2, n_hands=1_000, seed=3)
    >>> t = win_rates(hands, by="strategy")   # line-up and rules from hands.attrs
    >>> t["strategy"].tolist(), float(t["score"].sum())
    (['bully', 'random'], 1.0)
    >>> s = win_rates(hands, by="seat", rules=rules)
    >>> bool(s.loc[0, "win_rate"] == s.loc[2, "win_rate"])
    True
    """
    check_choice("by", by, WIN_BY)
    confidence = check_confidence(confidence)
    rows = []
    for labels, src in sources(data, groups, rules):
        for row in _win_rows(src, by, lineup):
            rows.append({**labels, **row})
    out = collect(rows, [c for c in ("seat", "side", "from_opener", "strategy")
                         if rows and c in rows[0]] + _WIN_COLUMNS)
    if not out.empty:
        out["win_rate"] = out["wins"] / out["hands"]
        out["ci_low"], out["ci_high"] = wilson_interval(out["wins"], out["hands"], confidence)
        out["score"] = (out["wins"] + out["ties"]) / out["hands"]
    return out


# --------------------------------------------------------------------------- opener advantage
def _opener_moments(src: Source) -> dict[str, float]:
    """Means of the per-hand series behind the opener's advantage and their second moments."""
    k, n = src.facts.n_sides, src.n_hands
    if src.rows is not None:
        rows = src.rows
        won = rows["winning_side"].to_numpy().astype(np.int64)
        opened = won == opener_side(rows, src.facts)
        tie = won < 0
        pts = rows["points"].to_numpy().astype(float)
        y = pts * (opened - 1 / k)
        return {"p_open": opened.mean(), "p_tie": tie.mean(), "y": y.mean(),
                "y_sq": (y * y).mean()}
    s = src.totals
    # y = points * (1{opener's side won} - 1/k): y^2 = points^2 (1{..} (1 - 2/k) + 1/k^2)
    return {"p_open": s["opener_side_wins"] / n, "p_tie": s["ties"] / n,
            "y": (s["rel_points_0"] - s["points"] / k) / n,
            "y_sq": ((1 - 2 / k) * s["rel_points_sq_0"] + s["points_sq"] / k**2) / n}


def opener_advantage(data: Any, *, groups: Any = None, rules: Rules | None = None,
                     confidence: float = 0.95) -> pd.DataFrame:
    """The opener's advantage (docs/rules.md, "Terms the analysis uses"), with intervals.

    The advantage is ``P(the opener's side wins) - (1 - P(tie)) / S`` with ``S`` sides: the
    opener's share of the decided hands beyond a fair one. Per hand it is the mean of
    ``1{opener's side won} + 1{tie} / S - 1 / S``, so its standard error comes from that series'
    variance (``p_o + p_t / S^2 - (p_o + p_t / S)^2`` over ``n``). The points version is the
    opener's side's mean points per hand minus the mean over all sides, the mean of ``points *
    (1{opener's side won} - 1 / S)``.

    Parameters
    ----------
    data : DataFrame, Summary or dict of them
    groups : str or list of str, optional
    rules : Rules, optional
    confidence : float

    Returns
    -------
    DataFrame
        Group labels, then ``hands``, ``sides``, ``p_opener`` (the opener's side's win rate) with
        its Wilson interval ``p_ci_low``, ``p_ci_high``; ``p_tie``; ``fair_share`` (``(1 - p_tie)
        / S``); ``advantage`` with ``se``, ``ci_low``, ``ci_high`` (normal interval);
        ``points_advantage`` (points per hand) with ``points_se``, ``points_ci_low``,
        ``points_ci_high``.

    Examples
    --------
    A hand-made record: the opener's side wins two hands of three, the third is a tie.

    >>> import pandas as pd
    >>> rows = pd.DataFrame({"opener": [0, 1, 0], "winning_side": [0, 1, -1],
    ...                      "points": [10, 4, 0], "players": 2, "partnerships": False})
    >>> t = opener_advantage(rows)
    >>> round(float(t.loc[0, "advantage"]), 12)          # 2/3 - (1 - 1/3) / 2
    0.333333333333
    >>> round(float(t.loc[0, "points_advantage"]), 12)   # 14/3 - (14/3) / 2
    2.333333333333
    """
    confidence = check_confidence(confidence)
    rows = []
    for labels, src in sources(data, groups, rules):
        k, n = src.facts.n_sides, src.n_hands
        m = _opener_moments(src)
        p_o, p_t = m["p_open"], m["p_tie"]
        x_mean = p_o + p_t / k
        x_var = (p_o + p_t / k**2 - x_mean**2) * n / max(n - 1, 1)
        y_var = (m["y_sq"] - m["y"] ** 2) * n / max(n - 1, 1)
        adv, se = x_mean - 1 / k, math.sqrt(max(x_var, 0) / n)
        pts_se = math.sqrt(max(y_var, 0) / n)
        p_low, p_high = wilson_interval(p_o * n, n, confidence)
        a_low, a_high = mean_interval(adv, se, confidence)
        b_low, b_high = mean_interval(m["y"], pts_se, confidence)
        rows.append({**labels, "hands": n, "sides": k, "p_opener": p_o, "p_ci_low": p_low,
                     "p_ci_high": p_high, "p_tie": p_t, "fair_share": (1 - p_t) / k,
                     "advantage": adv, "se": se, "ci_low": a_low, "ci_high": a_high,
                     "points_advantage": m["y"], "points_se": pts_se,
                     "points_ci_low": b_low, "points_ci_high": b_high})
    return collect(rows, ["hands", "sides", "p_opener", "p_ci_low", "p_ci_high", "p_tie",
                          "fair_share", "advantage", "se", "ci_low", "ci_high",
                          "points_advantage", "points_se", "points_ci_low", "points_ci_high"])


# ------------------------------------------------------------------------------ how hands end
def outcome_rates(data: Any, *, groups: Any = None, rules: Rules | None = None,
                  confidence: float = 0.95) -> pd.DataFrame:
    """How hands end: the rates of ``out``, ``blocked`` and ``tie`` with Wilson intervals.

    A tie is a blocked hand with no winner (so ``tie`` is part of ``blocked``).

    Parameters
    ----------
    data : DataFrame, Summary or dict of them
    groups : str or list of str, optional
    rules : Rules, optional
    confidence : float

    Returns
    -------
    DataFrame
        Group labels, then ``outcome`` ('out', 'blocked', 'tie'), ``hands``, ``count``, ``rate``,
        ``ci_low``, ``ci_high``.

    Examples
    --------
    >>> import dominosim as ds
    >>> rules = ds.Rules.preset("block", players=2)
    >>> t = outcome_rates(ds.simulate(rules, "random", n_hands=500, seed=2), rules=rules)
    >>> t["outcome"].tolist(), float(t["rate"][0] + t["rate"][1])
    (['out', 'blocked', 'tie'], 1.0)
    """
    confidence = check_confidence(confidence)
    rows = []
    for labels, src in sources(data, groups, rules):
        n = src.n_hands
        if src.rows is not None:
            blocked = float((src.rows["end"] == "blocked").sum())
            ties = float((src.rows["winning_side"] < 0).sum())
        else:
            blocked, ties = src.totals["blocked"], src.totals["ties"]
        for outcome, count in (("out", n - blocked), ("blocked", blocked), ("tie", ties)):
            rows.append({**labels, "outcome": outcome, "hands": n, "count": count})
    out = collect(rows, ["outcome", "hands", "count", "rate", "ci_low", "ci_high"])
    out["rate"] = out["count"] / out["hands"]
    out["ci_low"], out["ci_high"] = wilson_interval(out["count"], out["hands"], confidence)
    return out


# ----------------------------------------------------------------------------------- per hand
def per_hand(data: Any, *, columns: Any = ("points", "plays", "knocks", "draws"),
             groups: Any = None, rules: Rules | None = None,
             confidence: float = 0.95) -> pd.DataFrame:
    """Means per hand of counts in the records, with normal intervals.

    ``points`` are the points the winning side scored (0 for a tie); ``plays`` is the hand's
    length in plays (the opening play included); ``knocks``, ``draws``, ``stitch_ups``,
    ``redeals`` and ``boneyard_left`` are counts per hand.

    Parameters
    ----------
    data : DataFrame, Summary or dict of them
        A summary holds ``points``, ``plays``, ``knocks``, ``draws``, ``stitch_ups`` and
        ``redeals`` (means and standard errors only).
    columns : str or list of str
        Any of 'points', 'plays', 'knocks', 'draws', 'stitch_ups', 'redeals', 'boneyard_left'.
    groups : str or list of str, optional
    rules : Rules, optional
    confidence : float

    Returns
    -------
    DataFrame
        Group labels, then ``quantity``, ``hands``, ``mean``, ``sd``, ``se``, ``ci_low``,
        ``ci_high``, and from records the quartiles and extremes ``min``, ``q25``, ``median``,
        ``q75``, ``max`` (NaN from a summary).

    Examples
    --------
    >>> import pandas as pd
    >>> rows = pd.DataFrame({"plays": [10, 12, 14], "players": 2, "partnerships": False})
    >>> t = per_hand(rows, columns="plays")
    >>> t[["quantity", "mean", "sd", "median"]].values.tolist()
    [['plays', 12.0, 2.0, 12.0]]
    """
    confidence = check_confidence(confidence)
    cols = [columns] if isinstance(columns, str) else list(columns)
    for c in cols:
        check_choice("columns", c, PER_HAND)
    rows = []
    for labels, src in sources(data, groups, rules):
        for c in cols:
            row: dict[str, Any] = {**labels, "quantity": c, "hands": src.n_hands}
            if src.rows is not None:
                x = src.rows[c].to_numpy().astype(float)
                row["mean"], row["sd"], row["se"] = mean_se(x)
                if len(x):
                    q = np.quantile(x, [0, 0.25, 0.5, 0.75, 1])
                    row.update(zip(("min", "q25", "median", "q75", "max"), q.tolist(),
                                   strict=True))
            else:
                if c == "boneyard_left":
                    src.need_rows("boneyard_left")
                mean, se = src.totals.mean(c)
                row.update(mean=mean, sd=se * math.sqrt(src.n_hands), se=se)
            rows.append(row)
    out = collect(rows, ["quantity", "hands", "mean", "sd", "se", "ci_low", "ci_high", "min",
                         "q25", "median", "q75", "max"])
    out["ci_low"], out["ci_high"] = mean_interval(out["mean"], out["se"], confidence)
    return out


def points_distribution(data: Any, *, groups: Any = None, by_end: bool = False,
                        rules: Rules | None = None, confidence: float = 0.95) -> pd.DataFrame:
    """The distribution of the points scored per hand (0 for a tie), from hand records.

    Parameters
    ----------
    data : DataFrame or dict of them
        Hand records (a summary does not hold the distribution).
    groups : str or list of str, optional
    by_end : bool
        Split by how the hand ended (an ``end`` column, 'out' or 'blocked').
    rules : Rules, optional
    confidence : float

    Returns
    -------
    DataFrame
        Group labels (and ``end``), then ``points``, ``count``, ``hands`` (of the group),
        ``share`` (``count / hands``, so the shares of a group add up to 1 over points and ends)
        with its Wilson interval ``ci_low``, ``ci_high``, and ``cumulative`` (the share at or
        below ``points``, within the group and end) with ``cum_ci_low``, ``cum_ci_high``.

    Examples
    --------
    >>> import pandas as pd
    >>> rows = pd.DataFrame({"points": [0, 5, 5, 9], "players": 2, "partnerships": False})
    >>> d = points_distribution(rows)
    >>> d["points"].tolist(), d["count"].tolist(), d["share"].tolist()
    ([0, 5, 9], [1, 2, 1], [0.25, 0.5, 0.25])
    """
    if not isinstance(by_end, bool):
        raise refuse("by_end", "True or False", by_end)
    confidence = check_confidence(confidence)
    parts = []
    for labels, src in sources(data, groups, rules):
        rows = src.need_rows("a points distribution")
        keys = ["end", "points"] if by_end else ["points"]
        counts = rows.groupby(keys, observed=True).size().rename("count").reset_index()
        counts["hands"] = len(rows)
        counts["share"] = counts["count"] / len(rows)
        counts["ci_low"], counts["ci_high"] = wilson_interval(counts["count"], len(rows),
                                                              confidence)
        below = counts.groupby(keys[:-1], observed=True)["count"].cumsum() if by_end \
            else counts["count"].cumsum()
        counts["cumulative"] = below / len(rows)
        counts["cum_ci_low"], counts["cum_ci_high"] = wilson_interval(below, len(rows),
                                                                      confidence)
        for name, value in reversed(labels.items()):
            counts.insert(0, name, value)
        parts.append(counts)
    if not parts:
        return pd.DataFrame(columns=["points", "count", "hands", "share", "ci_low", "ci_high",
                                     "cumulative", "cum_ci_low", "cum_ci_high"])
    return pd.concat(parts, ignore_index=True).astype({"points": "int64", "count": "int64"})


# ---------------------------------------------------------------------------------- stitch-ups
def _ratio_se(s: np.ndarray, m: np.ndarray) -> tuple[float, float]:
    """``sum(s) / sum(m)`` and its delta-method standard error (hands as the sampling units)."""
    n, total = len(s), m.sum()
    if n < 2 or total == 0:
        return (s.sum() / total if total else math.nan), math.nan
    r = s.sum() / total
    resid = s - r * m
    return float(r), float(math.sqrt(resid.var(ddof=1) / n) / (total / n))


def stitch_ups(data: Any, *, per: str = "hand", groups: Any = None,
               rules: Rules | None = None, confidence: float = 0.95) -> pd.DataFrame:
    """Stitch-up frequencies (docs/rules.md: a play after which two or more ends all show one suit).

    Parameters
    ----------
    data : DataFrame, Summary or dict of them
    per : {'hand', 'play', 'seat'}
        ``'hand'``: stitch-ups per hand (mean and interval), and from records the share of hands
        with at least one (``p_any`` with its Wilson interval). ``'play'``: per play after the
        opening one (which never stitches up), the ratio ``sum(stitch_ups) / sum(plays - 1)``
        with a delta-method interval over hands. ``'seat'``: per hand, by seat.
    groups : str or list of str, optional
        Columns to split by: stitch-ups by variant.
    rules : Rules, optional
    confidence : float

    Returns
    -------
    DataFrame
        Group labels, ``per``, (``seat`` with ``per='seat'``), ``hands``, ``rate`` (stitch-ups per
        hand, or per play) with ``se``, ``ci_low``,
        ``ci_high``, and ``p_any``, ``p_ci_low``, ``p_ci_high`` (NaN unless ``per='hand'`` on
        records). A summary gives standard errors for ``per='hand'`` only.

    Examples
    --------
    >>> import pandas as pd
    >>> rows = pd.DataFrame({"stitch_ups": [0, 2, 1], "plays": [5, 9, 9], "stitch_ups_0": [0, 1, 1],
    ...                      "stitch_ups_1": [0, 1, 0], "players": 2, "partnerships": False})
    >>> float(stitch_ups(rows, per="play").loc[0, "rate"])   # 3 stitch-ups in 4 + 8 + 8 plays
    0.15
    >>> stitch_ups(rows, per="seat")["rate"].round(4).tolist()
    [0.6667, 0.3333]
    """
    check_choice("per", per, STITCH_PER)
    confidence = check_confidence(confidence)
    rows = []
    for labels, src in sources(data, groups, rules):
        n = src.n_hands
        base = {**labels, "per": per, "hands": n}
        if per == "seat":
            for seat in range(src.facts.players):
                if src.rows is not None:
                    mean, _, se = mean_se(src.rows[f"stitch_ups_{seat}"].to_numpy().astype(float))
                else:
                    mean, se = src.totals[f"seat_stitch_ups_{seat}"] / n, math.nan
                rows.append({**base, "seat": seat, "rate": mean, "se": se})
        elif per == "play":
            if src.rows is not None:
                rate, se = _ratio_se(src.rows["stitch_ups"].to_numpy().astype(float),
                                     src.rows["plays"].to_numpy().astype(float) - 1)
            else:
                s = src.totals
                rate, se = s["stitch_ups"] / (s["plays"] - n), math.nan
            rows.append({**base, "rate": rate, "se": se})
        else:
            row = {**base}
            if src.rows is not None:
                x = src.rows["stitch_ups"].to_numpy().astype(float)
                row["rate"], _, row["se"] = mean_se(x)
                hits = float((x > 0).sum())
                row["p_any"] = hits / n if n else math.nan
                row["p_ci_low"], row["p_ci_high"] = wilson_interval(hits, n, confidence)
            else:
                row["rate"], row["se"] = src.totals.mean("stitch_ups")
            rows.append(row)
    head = ["per", "seat"] if per == "seat" else ["per"]
    out = collect(rows, head + ["hands", "rate", "se", "ci_low", "ci_high", "p_any", "p_ci_low",
                                "p_ci_high"])
    out["ci_low"], out["ci_high"] = mean_interval(out["rate"], out["se"], confidence)
    return out
