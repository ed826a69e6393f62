"""Aggregates of many hands whose memory does not grow with the number of hands.

A :class:`Summary` holds sums (counts, sums and sums of squares) from which every rate and mean the
analysis needs follows, with its standard error. The compiled engine fills it directly
(``ds.simulate(..., keep="summary")``); :meth:`Summary.from_frame` computes the same sums from hand
records, and two summaries of disjoint runs add up with ``+``.

Examples
--------
>>> import dominosim as ds
>>> rules = ds.Rules.preset("draw", players=2)
>>> df = ds.simulate(rules, "random", n_hands=200, seed=3, engine="reference")
>>> s = Summary.from_frame(rules, df)
>>> s.n_hands, round(s.rate("blocked"), 3) == round(float((df["end"] == "blocked").mean()), 3)
(200, True)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .rules import Rules, check_rules
from .sides import relative_side

_BASE = ("hands", "blocked", "ties", "redeals", "redeals_sq", "points", "points_sq", "plays",
         "plays_sq", "knocks", "knocks_sq", "draws", "draws_sq", "stitch_ups", "stitch_ups_sq",
         "opener_side_wins")
_PER_SIDE = ("side_wins", "side_points", "side_points_sq", "rel_wins", "rel_points",
             "rel_points_sq")
_PER_SEAT = ("seat_opened", "seat_stitch_ups", "seat_pips")
_MEANS = ("redeals", "points", "plays", "knocks", "draws", "stitch_ups")


def summary_fields(players: int) -> list[str]:
    """Names of the sums, in the order the compiled engine writes them.

    Per side ``k`` (``players`` slots, the unused ones zero without partnerships): wins, points and
    squared points of side ``k``, then of the side ``k`` seats after the opener's side
    (``rel_*``); per seat: hands it opened, its stitch-ups and pips left.
    """
    names = list(_BASE)
    for group in _PER_SIDE:
        names += [f"{group}_{k}" for k in range(players)]
    for group in _PER_SEAT:
        names += [f"{group}_{s}" for s in range(players)]
    return names


@dataclass
class Summary:
    """Sums over a run of hands: see :func:`summary_fields` for what each holds."""

    rules: Rules
    sums: np.ndarray

    def __post_init__(self) -> None:
        """Refuse rules that are not a Rules, and sums of another length."""
        check_rules(self.rules)
        n = len(summary_fields(self.rules.players))
        if not isinstance(self.sums, np.ndarray) or self.sums.shape != (n,) or \
                self.sums.dtype.kind not in "iuf":
            raise ValueError(f"The value for `sums` must be a numpy array of {n} numbers (one per "
                             f"field of summary_fields({self.rules.players})), but a "
                             f"{type(self.sums).__name__} was passed.")

    @classmethod
    def empty(cls, rules: Rules) -> Summary:
        """A summary of no hands."""
        check_rules(rules)
        return cls(rules, np.zeros(len(summary_fields(rules.players)), dtype=np.float64))

    @property
    def n_hands(self) -> int:
        """Hands summed."""
        return int(self.sums[0])

    def __getitem__(self, name: str) -> float:
        """The sum named ``name`` (a field of :func:`~dominosim.summary.summary_fields`)."""
        return float(self.sums[summary_fields(self.rules.players).index(name)])

    def __add__(self, other: Summary) -> Summary:
        """The sums of both (of the same rules)."""
        if other.rules != self.rules:
            raise ValueError("Summaries of different rules cannot be added.")
        return Summary(self.rules, self.sums + other.sums)

    def __repr__(self) -> str:
        """One line: the hands, the rules and the main rates.

        >>> from dominosim.rules import Rules
        >>> Summary.empty(Rules.preset("draw", players=2))
        Summary of 0 hands, Rules.preset('draw', players=2)
        """
        head = f"Summary of {self.n_hands:,} hands, {self.rules!r}"
        if not self.n_hands:
            return head
        return (f"{head}: blocked {self.rate('blocked'):.4f}, opener's side wins "
                f"{self.rate('opener_side_wins'):.4f}, points {self.mean('points')[0]:.3f} a hand")

    def _repr_html_(self) -> str:
        from .display import card, frame

        return card("Summary", f"of {self.n_hands:,} hands, {self.rules!r}",
                    frame(self.table()) if self.n_hands else "")

    def rate(self, name: str) -> float:
        """``blocked``, ``ties`` or ``opener_side_wins`` as a share of hands."""
        return self[name] / self.n_hands if self.n_hands else float("nan")

    def mean(self, name: str) -> tuple[float, float]:
        """Mean per hand of ``redeals``, ``points``, ``plays``, ``knocks``, ``draws`` or
        ``stitch_ups``, with its standard error.
        """
        return self._mean_se(self[name], self[f"{name}_sq"])

    def _mean_se(self, total: float, total_sq: float) -> tuple[float, float]:
        n = self.n_hands
        mean = total / n
        var = max(total_sq / n - mean * mean, 0.0) * n / max(n - 1, 1)
        return mean, float(np.sqrt(var / n))

    def table(self) -> pd.DataFrame:
        """Every rate and mean as rows ``quantity, estimate, se`` (binomial SE for rates).

        Side quantities are given both by absolute side (``P_side<k>_wins``) and counted from the
        opener's side (``P_opener_side+<k>_wins``, ``k = 0`` the opener's own side).
        """
        n = self.n_hands
        rows = []
        for name in ("blocked", "ties", "opener_side_wins"):
            p = self.rate(name)
            rows.append((f"P_{name}", p, np.sqrt(p * (1 - p) / n)))
        for name in _MEANS:
            rows.append((f"E_{name}", *self.mean(name)))
        for k in range(self.rules.n_sides):
            for prefix, label in (("side", f"side{k}"), ("rel", f"opener_side+{k}")):
                p = self[f"{prefix}_wins_{k}"] / n
                rows.append((f"P_{label}_wins", p, np.sqrt(p * (1 - p) / n)))
                rows.append((f"E_points_{label}", *self._mean_se(
                    self[f"{prefix}_points_{k}"], self[f"{prefix}_points_sq_{k}"])))
        for s in range(self.rules.players):
            rows.append((f"P_opener_seat{s}", self[f"seat_opened_{s}"] / n, np.nan))
            rows.append((f"E_stitch_ups_seat{s}", self[f"seat_stitch_ups_{s}"] / n, np.nan))
            rows.append((f"E_pips_left_seat{s}", self[f"seat_pips_{s}"] / n, np.nan))
        return pd.DataFrame(rows, columns=["quantity", "estimate", "se"])

    @classmethod
    def from_frame(cls, rules: Rules, df: pd.DataFrame) -> Summary:
        """The sums of a DataFrame of hand records (an independent computation of what the
        compiled engine accumulates).
        """
        p = rules.players
        win = df["winning_side"].to_numpy().astype(np.int64)
        pts = df["points"].to_numpy().astype(np.float64)
        opener = df["opener"].to_numpy().astype(np.int64)
        rel = np.where(win >= 0, relative_side(p, rules.partnerships, win, opener), -1)
        values = {
            "hands": len(df),
            "blocked": float((df["end"] == "blocked").sum()),
            "ties": float((win < 0).sum()),
            "opener_side_wins": float((rel == 0).sum()),
        }
        for name in _MEANS:
            x = df[name].to_numpy().astype(np.float64)
            values[name] = x.sum()
            values[f"{name}_sq"] = (x * x).sum()
        decided = win >= 0
        for prefix, ids in (("side", win[decided]), ("rel", rel[decided])):
            # one pass per sum over the decided hands instead of one mask per side
            for suffix, weights in (("wins", None), ("points", pts[decided]),
                                    ("points_sq", pts[decided] ** 2)):
                per_side = np.bincount(ids, weights=weights, minlength=p)
                for k in range(p):
                    values[f"{prefix}_{suffix}_{k}"] = float(per_side[k])
        opened = np.bincount(opener, minlength=p)
        for s in range(p):
            values[f"seat_opened_{s}"] = float(opened[s])
            values[f"seat_stitch_ups_{s}"] = float(df[f"stitch_ups_{s}"].to_numpy().sum(dtype=np.int64))
            values[f"seat_pips_{s}"] = float(df[f"pips_{s}"].to_numpy().sum(dtype=np.int64))
        return cls(rules, np.array([values[f] for f in summary_fields(p)], dtype=np.float64))
