"""Shared helpers: estimate the quantities of tests/data/validation/exact.csv from hand records."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

import dominosim as ds

VALIDATION = Path(__file__).resolve().parent / "data" / "validation"
"""The validation tables, kept in the repository (tests/data/README.md says where they come from)."""


def find_validation() -> Path:
    """The folder of ``exact.csv`` and ``redeal.csv``: ``tests/data/validation`` in this repository."""
    return VALIDATION


def exact_table() -> pd.DataFrame:
    return pd.read_csv(find_validation() / "exact.csv", dtype={"config_id": str})


def rules_of(row: pd.Series) -> ds.Rules:
    return ds.Rules(
        max_pip=int(row.max_pip), players=int(row.players), hand_size=int(row.hand_size),
        partnerships=bool(row.partnerships), draw=row.draw, opening_arms=int(row.opening_arms),
        fill_opening_first=bool(row.fill_opening_first), doubles_branch=bool(row.doubles_branch),
        scoring=row.scoring)


COLUMN_MEANS = {"E_points_winner": "points", "E_plays": "plays", "E_knocks": "knocks",
                "E_draws": "draws", "E_stitchups": "stitch_ups", "E_redeals": "redeals"}
"""The quantities that are the mean of one column of the hand records."""
END_RATES = {"P_blocked": "blocked", "P_chip_out": "out"}
"""The quantities that are the rate of one value of the ``end`` column."""


def samples(rules: ds.Rules, df: pd.DataFrame, quantity: str) -> np.ndarray | None:
    """Per-hand values whose mean estimates ``quantity`` (None: not a per-hand quantity).
    Reads only the columns ``quantity`` needs (converting all of them for each quantity once
    took most of a million-hand test's time)."""
    if quantity in COLUMN_MEANS:
        return df[COLUMN_MEANS[quantity]].to_numpy(dtype=float)
    if quantity in END_RATES:
        return (df["end"] == END_RATES[quantity]).to_numpy(dtype=float)
    if quantity == "P_at_least_one_redeal":
        return (df["redeals"].to_numpy() > 0).astype(float)
    if quantity.startswith("P_opening_double_"):
        d = int(quantity.split("_")[-1].split("-")[0])
        return (df["opening_double"].to_numpy() == d).astype(float)
    players = rules.players
    opener = df["opener"].to_numpy().astype(int)
    if quantity.startswith("E_stitchups_seat"):
        k = int(quantity[len("E_stitchups_seat"):])
        per_seat = df[[f"stitch_ups_{s}" for s in range(players)]].to_numpy()
        return per_seat[np.arange(len(df)), (opener + k) % players].astype(float)
    win = df["winning_side"].to_numpy().astype(int)
    if quantity == "P_tie":
        return (win < 0).astype(float)
    n_sides = rules.n_sides
    opener_side = opener % n_sides if rules.partnerships else opener
    # side k counted from the opener's side
    rel = np.where(win >= 0, (win - opener_side) % n_sides, -1)
    if quantity == "P_opener_side_wins":
        return (rel == 0).astype(float)
    if quantity.startswith("P_side") and quantity.endswith("_wins"):
        k = int(quantity[len("P_side"):-len("_wins")])
        return (rel == k).astype(float)
    if quantity.startswith("E_points_side"):
        k = int(quantity[len("E_points_side"):])
        return np.where(rel == k, df["points"].to_numpy().astype(float), 0.0)
    return None


def check_config(rules: ds.Rules, rows: pd.DataFrame, df: pd.DataFrame, z: float = 4.0) -> list[str]:
    """Every quantity whose estimate lies more than ``z`` standard errors from its exact value."""
    failures = []
    n = len(df)
    for row in rows.itertuples():
        x = samples(rules, df, row.quantity)
        if x is None:
            continue
        mean = x.mean()
        se = x.std(ddof=1) / np.sqrt(n) if n > 1 else np.inf
        exact = float(row.exact_float)
        # a quantity that is exactly constant must be met exactly
        tolerance = z * se if se > 0 else 1e-12
        if abs(mean - exact) > tolerance:
            failures.append(f"{row.quantity}: estimate {mean:.6f}, exact {exact:.6f}, se {se:.6f}")
    return failures


def check_monte_carlo(rules: ds.Rules, table: pd.DataFrame, df: pd.DataFrame, *,
                      skip_redeals: bool = False, label: object = None) -> None:
    """Assert that every quantity of the exact ``table`` (``ds.exact``) that the hands ``df``
    estimate lies within 4 standard errors of its exact value, and that at least 12 do
    (``skip_redeals``: not the redeal quantities; ``label`` goes into the failure's message).
    """
    checked = 0
    for quantity, row in table.iterrows():
        values = samples(rules, df, quantity)
        if values is None or skip_redeals and quantity.endswith(("redeal", "redeals")):
            continue
        se = values.std(ddof=1) / np.sqrt(len(values))
        assert abs(values.mean() - row["value"]) <= 4 * se + 1e-12, (quantity, label)
        checked += 1
    assert checked >= 12
