"""The compiled engine against the reference engine, hand for hand and event for event.

When they disagree the rule book decides: the reference engine is checked against docs/rules.md by the
scripted tests and against the exact values; here the compiled engine must equal it exactly.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st
from rule_space import LINEUPS, lineup, valid_rules

import dominosim as ds

PRESET_CASES = (
    [("block", 6, p) for p in (2, 3, 4, 5)] + [("block", 9, 4), ("block", 12, 4)]
    + [("draw", 6, p) for p in (2, 3, 4, 5)] + [("cross", 6, p) for p in (2, 3, 4, 5)]
    + [("double_nine_cross", 9, p) for p in range(2, 11)]
    + [("double_nine_cross", 12, p) for p in range(2, 11)]
    + [("ivory", 6, p) for p in (2, 3, 4, 5)]
)
HANDS_BY_SET = {6: 2_000, 9: 600, 12: 300}


def first_difference(a: pd.DataFrame, b: pd.DataFrame) -> str:
    """A readable account of the first hand on which two record frames differ."""
    if list(a.columns) != list(b.columns) or len(a) != len(b):
        return f"shapes differ: {a.shape} vs {b.shape}"
    for c in a.columns:
        differ = np.flatnonzero(a[c].astype(str).to_numpy() != b[c].astype(str).to_numpy())
        if differ.size:
            i = differ[0]
            return f"hand {a['hand'].iloc[i]}: column {c!r} is {a[c].iloc[i]} vs {b[c].iloc[i]}"
    return "dtypes differ: " + str([(c, a[c].dtype, b[c].dtype) for c in a.columns
                                    if a[c].dtype != b[c].dtype])


def assert_same_hands(rules: ds.Rules, strategies, n_hands: int, seed: int) -> None:
    fast = ds.simulate(rules, strategies, n_hands, seed, engine="fast")
    ref = ds.simulate(rules, strategies, n_hands, seed, engine="reference")
    assert fast.equals(ref), first_difference(fast, ref)


@pytest.mark.slow
@pytest.mark.parametrize("who", LINEUPS)
@pytest.mark.parametrize(("preset", "max_pip", "players"), PRESET_CASES)
def test_engines_agree_on_every_preset_and_lineup(preset, max_pip, players, who):
    rules = ds.Rules.preset(preset, players=players, max_pip=max_pip)
    # the reference engine's time grows with the set: about the same time for every case
    n_hands = HANDS_BY_SET[max_pip]
    assert_same_hands(rules, lineup(rules, who), n_hands=n_hands, seed=players * 31 + max_pip)


def _random_combinations_shard(shard: int):
    """30 of the 120 hypothesis-generated rule combinations; four shards so that pytest-xdist can
    spread them over cores (a fixed hypothesis seed each, so they never change between runs)."""

    @pytest.mark.slow
    @seed(2026 + shard)
    @settings(max_examples=30, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(rules=valid_rules(), who=st.sampled_from(LINEUPS), run_seed=st.integers(0, 2**40))
    def test(rules, who, run_seed):
        assert_same_hands(rules, lineup(rules, who), n_hands=2_000, seed=run_seed)

    return test


test_engines_agree_on_random_rule_combinations_0 = _random_combinations_shard(0)
test_engines_agree_on_random_rule_combinations_1 = _random_combinations_shard(1)
test_engines_agree_on_random_rule_combinations_2 = _random_combinations_shard(2)
test_engines_agree_on_random_rule_combinations_3 = _random_combinations_shard(3)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(rules=valid_rules(max_pip_range=(1, 15), players_range=(2, 10)),
       who=st.sampled_from(LINEUPS), hand=st.integers(0, 10**6))
def test_engines_agree_on_event_logs(rules, who, hand):
    fast = ds.replay(rules, lineup(rules, who), seed=5, hand=hand, engine="fast")
    ref = ds.replay(rules, lineup(rules, who), seed=5, hand=hand, engine="reference")
    assert fast.deals == ref.deals
    assert fast.events == ref.events
    assert fast.record == ref.record
    assert fast.transcript() == ref.transcript()


def test_fast_engine_same_for_one_and_two_threads_and_any_chunking():
    rules = ds.Rules.preset("draw", players=3)
    one = ds.simulate(rules, "random", 30_000, seed=4, n_jobs=1)
    two = ds.simulate(rules, "random", 30_000, seed=4, n_jobs=2)
    chunked = ds.simulate(rules, "random", 30_000, seed=4, chunk_size=7_777)
    tail = ds.simulate(rules, "random", 10_000, seed=4, start=20_000)
    assert one.equals(two)
    assert one.equals(chunked)
    assert one.iloc[20_000:].reset_index(drop=True).equals(tail)


def test_fast_summary_equals_sums_of_rows():
    rules = ds.Rules.preset("block", players=4)
    rows = ds.simulate(rules, ["bully", "random", "doubles", "random"], 20_000, seed=8)
    summary = ds.simulate(rules, ["bully", "random", "doubles", "random"], 20_000, seed=8,
                          keep="summary", chunk_size=6_000)
    expected = ds.Summary.from_frame(rules, rows)
    np.testing.assert_allclose(summary.sums, expected.sums)
    assert summary.n_hands == 20_000


def test_fast_engine_refuses_python_strategies_with_a_sentence():
    rules = ds.Rules.preset("draw", players=2)
    with pytest.raises(ValueError, match=r"`strategies` must be built-in names .* engine='reference'"):
        ds.simulate(rules, [lambda view, moves, rng: moves[0], "random"], 10)
