"""Both engines against the exact values of tests/data/validation (uniform random play).

Each configuration is simulated at a fixed seed; every quantity must lie within 4 standard errors of
its exact value (the seed is fixed, so the test cannot flake).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from exact_values import check_config, exact_table, find_validation, rules_of

import dominosim as ds
from dominosim.reference.hand import deal
from dominosim.rng import hand_key
from dominosim.tiles import IS_DOUBLE, tile_id

TABLE = exact_table()
CONFIGS = sorted(TABLE["config_id"].unique())


@pytest.mark.slow
@pytest.mark.parametrize("config_id", CONFIGS)
def test_reference_engine_matches_exact_values(config_id):
    rows = TABLE[TABLE["config_id"] == config_id]
    rules = rules_of(rows.iloc[0])
    df = ds.simulate(rules, "random", n_hands=15_000, seed=2024, engine="reference")
    assert check_config(rules, rows, df) == []


def _fresh_deals(rules: ds.Rules, n: int) -> np.ndarray:
    """Highest double dealt in each of ``n`` fresh deals (-1 when there is none)."""
    out = np.empty(n, dtype=int)
    dealt = rules.hand_size * rules.players
    for i in range(n):
        hands, _ = deal(rules.replace(opening="any", opening_arms=2, fill_opening_first=False),
                        hand_key(99, i))[0]
        doubles = [a for h in hands for (a, b) in h if a == b]
        out[i] = max(doubles, default=-1)
        assert sum(len(h) for h in hands) == dealt
    return out


REDEAL = pd.read_csv(find_validation() / "redeal.csv")


@pytest.mark.parametrize(("preset", "players", "max_pip"), [
    ("ivory", 2, 6), ("double_nine_cross", 2, 9), ("draw", 2, 6)])
def test_deal_no_double_rate_matches_exact(preset, players, max_pip):
    rules = ds.Rules.preset(preset, players=players, max_pip=max_pip)
    highest = _fresh_deals(rules, 40_000)
    rows = REDEAL[(REDEAL.preset == preset) & (REDEAL.players == players)]
    p = float(rows[rows.quantity.str.startswith("P_no_double")].exact_float.iloc[0])
    est = np.mean(highest < 0)
    assert abs(est - p) <= 4 * np.sqrt(p * (1 - p) / len(highest))


def test_deal_highest_double_distribution_matches_exact():
    rules = ds.Rules.preset("draw", players=2)
    highest = _fresh_deals(rules, 40_000)
    rows = REDEAL[(REDEAL.preset == "draw") & (REDEAL.players == 2)
                  & REDEAL.quantity.str.startswith("P_highest_dealt_double")]
    for row in rows.itertuples():
        d = int(row.quantity.split("_")[4].split("-")[0])
        p = float(row.exact_float)
        est = np.mean(highest == d)
        assert abs(est - p) <= 4 * np.sqrt(p * (1 - p) / len(highest)) + 1e-12, row.quantity


def test_deal_redeals_until_a_double_is_dealt():
    rules = ds.Rules(max_pip=3, players=2, hand_size=2)
    redealt = 0
    for i in range(300):
        deals = deal(rules, hand_key(3, i))
        *thrown, played = deals
        redealt += len(thrown)
        assert any(IS_DOUBLE[tile_id(t)] for h in played[0] for t in h)
        for hands, _ in thrown:
            assert not any(IS_DOUBLE[tile_id(t)] for h in hands for t in h)
    assert redealt > 0


@pytest.mark.slow
@pytest.mark.parametrize("config_id", CONFIGS)
def test_fast_engine_matches_exact_values_at_a_million_hands(config_id):
    rows = TABLE[TABLE["config_id"] == config_id]
    rules = rules_of(rows.iloc[0])
    df = ds.simulate(rules, "random", n_hands=1_000_000, seed=77)
    assert check_config(rules, rows, df) == []


@pytest.mark.slow
def test_fast_engine_redeal_rate_matches_exact_at_a_million_hands():
    # ivory with 2 players redeals 1 deal in 37; E[redeals] per played hand is exact in redeal.csv
    rules = ds.Rules.preset("ivory", players=2)
    summary = ds.simulate(rules, "random", n_hands=1_000_000, seed=78, keep="summary")
    rows = REDEAL[(REDEAL.preset == "ivory") & (REDEAL.players == 2)]
    exact = float(rows[rows.quantity == "E_redeals"].exact_float.iloc[0])
    mean, se = summary.mean("redeals")
    assert abs(mean - exact) <= 4 * se
