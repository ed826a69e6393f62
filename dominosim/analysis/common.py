"""What every analysis function shares: input checks, the Wilson interval, groups of hands.

An analysis function reads *records*, never an engine: a DataFrame of hand records (one row per hand,
the columns of :mod:`dominosim.records`, from :func:`dominosim.simulate` or the batch runner's
Parquet dataset, which adds cell columns), a :class:`~dominosim.Summary` of sums, or a dict of
either by variant label. To know which seats form a side it needs the table's facts, ``players`` and
``partnerships``: from ``rules``, or else from columns of those names (the batch runner's cell
columns), one value per group.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .. import sides
from ..checks import check_confidence, refuse
from ..rules import Rules, check_rules
from ..stats import side_shares, z_value
from ..summary import Summary


def wilson_interval(successes: Any, n: Any, confidence: float = 0.95) -> tuple[Any, Any]:
    """The Wilson score interval of a binomial proportion.

    ``(p + z^2 / 2n -+ z sqrt(p (1 - p) / n + z^2 / 4n^2)) / (1 + z^2 / n)`` with ``p = successes
    / n`` and ``z`` the normal quantile of ``confidence``. Unlike the normal (Wald) interval it stays
    inside [0, 1] and keeps its coverage near 0 and 1. ``successes`` may be fractional (a tie
    counted as half a win); the formula is then applied to the fractional share.

    Parameters
    ----------
    successes, n : float or array_like
        Successes and trials (broadcast together); NaN where ``n`` is 0.
    confidence : float
        Coverage, strictly between 0 and 1.

    Returns
    -------
    (low, high) : floats or arrays

    Examples
    --------
    Newcombe (1998), example (a): 81 successes in 263 trials.

    >>> low, high = wilson_interval(81, 263)
    >>> round(float(low), 4), round(float(high), 4)
    (0.2553, 0.3662)
    """
    confidence = check_confidence(confidence)
    z = z_value(confidence)
    s = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = s / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    low, high = np.clip(centre - half, 0, 1), np.clip(centre + half, 0, 1)
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


def mean_interval(mean: Any, se: Any, confidence: float) -> tuple[Any, Any]:
    """A normal interval ``mean -+ z se``."""
    z = z_value(confidence)
    return mean - z * se, mean + z * se


# ------------------------------------------------------------------------------ the table's facts
@dataclass(frozen=True)
class Facts:
    """What a group of hands needs to know about its table."""

    players: int
    partnerships: bool
    target: int | None = None

    @property
    def n_sides(self) -> int:
        """Sides at the table."""
        return sides.n_sides(self.players, self.partnerships)

    def side_of(self, seat: Any) -> Any:
        """The side of a seat, or of a numpy array of seats (:func:`dominosim.sides.side_of`)."""
        return sides.side_of(self.players, self.partnerships, seat)

    def seats_of(self, side: int) -> tuple[int, ...]:
        """The seats of side ``side``."""
        return sides.seats_of(self.players, self.partnerships, side)


def rules_of(df: pd.DataFrame) -> Rules | None:
    """The rules a frame's ``attrs`` carry (set by :func:`dominosim.simulate`), or None."""
    found = df.attrs.get("rules")
    if isinstance(found, Rules):
        return found
    if isinstance(found, Mapping):
        try:
            return Rules(**found)
        except (TypeError, ValueError):
            return None
    return None


def _facts_of_frame(df: pd.DataFrame, rules: Rules | None) -> Facts:
    if rules is None:
        rules = rules_of(df)
    if rules is not None:
        return Facts(rules.players, rules.partnerships, rules.target)
    if "players" not in df.columns or "partnerships" not in df.columns:
        raise refuse("rules", "a dominosim.Rules when the records have no `players` and "
                     "`partnerships` columns", rules)
    values: dict[str, Any] = {}
    for col in ("players", "partnerships", "target"):
        if col in df.columns:
            found = pd.unique(df[col])
            if len(found) > 1:
                raise refuse("groups", f"columns that hold one `{col}` per group (group by "
                             f"{col!r} too)", None)
            values[col] = found[0] if len(found) else None
    target = values.get("target")
    return Facts(int(values["players"]), bool(values["partnerships"]),
                 None if target is None or pd.isna(target) else int(target))


@dataclass(frozen=True)
class Source:
    """One group of hands: its records or its summary, and its table's facts."""

    facts: Facts
    rows: pd.DataFrame | None = None
    summary: Summary | None = None

    @property
    def n_hands(self) -> int:
        """Hands in the records (rows, or the summary's count)."""
        return len(self.rows) if self.rows is not None else self.totals.n_hands

    @property
    def totals(self) -> Summary:
        """The summary of a source that holds one (the analyses read it when there are no rows)."""
        if self.summary is None:
            raise RuntimeError("This source holds hand records, not their summary.")
        return self.summary

    def need_rows(self, what: str) -> pd.DataFrame:
        """The rows, or the error saying that ``what`` needs one row per hand."""
        if self.rows is None:
            raise refuse("data", f"a DataFrame of hand records for {what} (a Summary holds only "
                         "sums)", self.summary)
        return self.rows


def _as_list(groups: Any) -> list[str]:
    if groups is None:
        return []
    if isinstance(groups, str):
        return [groups]
    if isinstance(groups, Sequence) and all(isinstance(g, str) for g in groups):
        return list(groups)
    raise refuse("groups", "a column name or a list of column names", groups)


def sources(data: Any, groups: Any = None,
            rules: Rules | None = None) -> Iterator[tuple[dict[str, Any], Source]]:
    """The groups of ``data`` as ``(labels, Source)``: one per value of the ``groups`` columns of a
    DataFrame, one per entry of a dict (labelled ``variant``), or the whole of it.
    """
    check_rules(rules, optional=True)
    if isinstance(data, Summary):
        yield {}, Source(Facts(data.rules.players, data.rules.partnerships, data.rules.target),
                         summary=data)
        return
    if isinstance(data, Mapping):
        for label, part in data.items():
            for labels, source in sources(part, groups, rules):
                yield {"variant": label, **labels}, source
        return
    if not isinstance(data, pd.DataFrame):
        raise refuse("data", "a DataFrame of hand records, a dominosim.Summary or a dict of them",
                     type(data).__name__)
    cols = _as_list(groups)
    missing = [c for c in cols if c not in data.columns]
    if missing:
        raise refuse("groups", "columns of the records", missing[0])
    if not cols:
        yield {}, Source(_facts_of_frame(data, rules), rows=data)
        return
    for key, part in data.groupby(cols, sort=True, observed=True):
        key = key if isinstance(key, tuple) else (key,)
        yield dict(zip(cols, key, strict=True)), Source(_facts_of_frame(part, rules), rows=part)


def collect(rows: list[dict[str, Any]], columns: list[str]) -> pd.DataFrame:
    """A DataFrame of result rows with the group labels first, then ``columns`` in order."""
    frame = pd.DataFrame(rows)
    if frame.empty:
        return pd.DataFrame(columns=columns)
    labels = [c for c in frame.columns if c not in columns]
    return frame.reindex(columns=labels + columns).reset_index(drop=True)


# -------------------------------------------------------------------------- per hand, per side
def side_scores(rows: pd.DataFrame, facts: Facts) -> np.ndarray:
    """Per hand and side: 1 for a win, 0 for a loss, a tie shared equally by the tied sides (those
    with the fewest pips), so every hand's scores add up to 1 (:func:`dominosim.stats.side_shares`).
    Shape ``(hands, sides)``.
    """
    return side_shares(rows, facts.players, facts.partnerships)


def opener_side(rows: pd.DataFrame, facts: Facts) -> np.ndarray:
    """The opener's side, hand by hand."""
    return facts.side_of(rows["opener"].to_numpy().astype(np.int64))


def mean_se(x: np.ndarray) -> tuple[float, float, float]:
    """Mean, standard deviation (ddof 1) and standard error of ``x`` (NaN where undefined)."""
    n = len(x)
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = float(np.mean(x))
    sd = float(np.std(x, ddof=1)) if n > 1 else math.nan
    return mean, sd, sd / math.sqrt(n) if n > 1 else math.nan
