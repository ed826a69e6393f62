"""The analysis tables: hand-counted frames, summaries against records, textbook intervals."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binomtest

import dominosim as ds
from dominosim.analysis import (
    opener_advantage,
    outcome_rates,
    per_hand,
    points_distribution,
    stitch_ups,
    wilson_interval,
    win_rates,
)

BLOCK2 = ds.Rules.preset("block", players=2)
BLOCK4 = ds.Rules.preset("block", players=4)  # partnerships
DRAW3 = ds.Rules.preset("draw", players=3)


@pytest.fixture(scope="module")
def block2():
    return ds.simulate(BLOCK2, "random", n_hands=3_000, seed=11)


@pytest.fixture(scope="module")
def block4():
    return ds.simulate(BLOCK4, ["bully", "random", "bully", "random"], n_hands=3_000, seed=12)


def frame(**columns):
    """A hand-made frame of records of a 3-seat individual game."""
    n = len(next(iter(columns.values())))
    base = {"players": [3] * n, "partnerships": [False] * n}
    return pd.DataFrame({**base, **columns})


# ---------------------------------------------------------------------------------------- Wilson
def test_wilson_interval_newcombe_examples_match_the_textbook():
    # Newcombe (1998), Table I, method 3 (score interval without continuity correction)
    low, high = wilson_interval([81, 15, 0, 1], [263, 148, 20, 29])
    assert np.round(low, 4).tolist() == [0.2553, 0.0624, 0.0, 0.0061]
    assert np.round(high, 4).tolist() == [0.3662, 0.1605, 0.1611, 0.1718]


@pytest.mark.parametrize(("k", "n", "conf"), [(0, 10, 0.95), (7, 10, 0.9), (500, 1000, 0.99)])
def test_wilson_interval_equals_scipy_wilson(k, n, conf):
    ci = binomtest(k, n).proportion_ci(confidence_level=conf, method="wilson")
    assert wilson_interval(k, n, conf) == pytest.approx((ci.low, ci.high), abs=1e-12)


def test_wilson_interval_bad_confidence_names_it():
    with pytest.raises(ValueError, match=r"^The value for `confidence` must be a number strictly "
                                         r"between 0 and 1 \(such as 0.95\), but 95 was passed.$"):
        wilson_interval(1, 2, 95)


# ------------------------------------------------------------------------------------- win rates
def test_win_rates_hand_counted_frame_gives_counts_ties_and_scores():
    # seat 0 wins two, seat 2 one; one tie between seats 0 and 1 (5 pips each against 9)
    f = frame(opener=[0, 1, 2, 0, 1], winning_side=[0, 0, 2, -1, 1], points=[3, 4, 5, 0, 6],
              pips_0=[0, 2, 3, 5, 1], pips_1=[4, 1, 2, 5, 0], pips_2=[9, 9, 0, 9, 9])
    t = win_rates(f, by="seat")
    assert t["wins"].tolist() == [2, 1, 1]
    assert t["wins"].dtype == np.int64 and t["hands"].dtype == np.int64  # counts print as counts
    assert t["ties"].tolist() == [0.5, 0.5, 0]
    assert t["score"].tolist() == [0.5, 0.3, 0.2]
    assert t["win_rate"].tolist() == [0.4, 0.2, 0.2]
    assert np.allclose(t["ci_low"], wilson_interval([2, 1, 1], 5)[0])


def test_win_rates_by_opener_counts_sides_from_the_opener():
    f = frame(opener=[0, 1, 2, 0, 1], winning_side=[0, 0, 2, -1, 1], points=[3, 4, 5, 0, 6],
              pips_0=[0, 2, 3, 5, 1], pips_1=[4, 1, 2, 5, 0], pips_2=[9, 9, 0, 9, 9])
    t = win_rates(f, by="opener")
    # opener's side won hands 0, 2, 4; the side after it never; two after it, hand 1
    assert t["from_opener"].tolist() == [0, 1, 2]
    assert t["wins"].tolist() == [3, 0, 1]
    assert t["ties"].tolist() == [0.5, 0.5, 0]


def test_win_rates_partnership_seats_share_their_side(block4):
    t = win_rates(block4, by="seat", rules=BLOCK4)
    assert t.loc[0, "wins"] == t.loc[2, "wins"] == (block4["winning_side"] == 0).sum()
    assert t["fair_share"].tolist() == [0.5] * 4


def test_win_rates_by_strategy_labels_mixed_partners(block4):
    t = win_rates(block4, by="strategy", lineup={0: "bully", 1: "random", 2: "doubles",
                                                  3: "random"}, rules=BLOCK4)
    assert t["strategy"].tolist() == ["bully+doubles", "random"]
    assert t["hands"].tolist() == [3_000, 3_000]


def test_win_rates_summary_matches_records(block2):
    from_rows = win_rates(block2, by="side", rules=BLOCK2)
    from_sums = win_rates(ds.Summary.from_frame(BLOCK2, block2), by="side")
    pd.testing.assert_frame_equal(from_rows, from_sums)  # dtypes too: wins are integers in both


def test_win_rates_summary_of_three_sides_has_unknown_ties():
    hands = ds.simulate(DRAW3, "random", n_hands=500, seed=3)
    t = win_rates(ds.Summary.from_frame(DRAW3, hands), by="opener")
    assert t["ties"].isna().all() and (t["wins"] == win_rates(hands, by="opener",
                                                              rules=DRAW3)["wins"]).all()


def test_win_rates_bad_by_names_the_choices():
    with pytest.raises(ValueError, match=r"^The value for `by` must be one of 'seat', 'side', "
                                         r"'opener', 'strategy', but 'x' was passed.$"):
        win_rates(frame(winning_side=[0]), by="x")


def _without_attrs(frame: pd.DataFrame) -> pd.DataFrame:
    """Records that lost what ds.simulate attached (read back from a CSV file, say)."""
    plain = frame.copy()
    plain.attrs.clear()
    return plain


def test_win_rates_strategy_without_lineup_names_it(block2):
    with pytest.raises(ValueError, match="`lineup` must be a strategy name per seat"):
        win_rates(_without_attrs(block2), by="strategy", rules=BLOCK2)


def test_win_rates_records_without_facts_ask_for_rules(block2):
    with pytest.raises(ValueError, match=r"^The value for `rules` must be a dominosim.Rules when "
                                         r"the records have no `players`"):
        win_rates(_without_attrs(block2))


def test_analysis_reads_rules_and_lineup_from_simulate_attrs(block4):
    assert ds.Rules(**block4.attrs["rules"]) == BLOCK4 and block4.attrs["seed"] == 12
    assert block4.attrs["lineup"] == ["bully", "random", "bully", "random"]
    pd.testing.assert_frame_equal(win_rates(block4, by="side"),
                                  win_rates(_without_attrs(block4), by="side", rules=BLOCK4))
    by_strategy = win_rates(block4, by="strategy")
    pd.testing.assert_frame_equal(by_strategy, win_rates(
        _without_attrs(block4), by="strategy", rules=BLOCK4, lineup=["bully", "random"] * 2))
    assert by_strategy["strategy"].tolist() == ["bully", "random"]
    pd.testing.assert_frame_equal(opener_advantage(block4),
                                  opener_advantage(_without_attrs(block4), rules=BLOCK4))


def test_simulate_attrs_survive_a_parquet_file_and_still_serve_analysis(block4, tmp_path):
    path = tmp_path / "hands.parquet"
    block4.to_parquet(path)   # no warning: the attrs are plain data
    back = pd.read_parquet(path)
    assert back.attrs["rules"] == BLOCK4.to_dict() and back.attrs["lineup"] == block4.attrs["lineup"]
    pd.testing.assert_frame_equal(win_rates(back, by="strategy"), win_rates(block4, by="strategy"))


def test_win_rates_groups_split_by_variant_columns(block2):
    both = pd.concat([block2.assign(variant="block", players=2, partnerships=False),
                      block2.iloc[:1000].assign(variant="short", players=2, partnerships=False)])
    t = win_rates(both, by="side", groups="variant")
    assert t["variant"].tolist() == ["block", "block", "short", "short"]
    assert t["hands"].tolist() == [3000, 3000, 1000, 1000]


def test_win_rates_dict_of_summaries_labels_variants(block2):
    s = ds.Summary.from_frame(BLOCK2, block2)
    t = win_rates({"a": s, "b": s}, by="seat")
    assert t["variant"].tolist() == ["a", "a", "b", "b"]


# ------------------------------------------------------------------------------ opener advantage
def test_opener_advantage_hand_counted_value_and_se():
    f = frame(opener=[0, 1, 2, 0], winning_side=[0, 1, 0, -1], points=[6, 3, 9, 0])
    t = opener_advantage(f).iloc[0]
    # x per hand: 1, 1, 0, 1/3 (tie); advantage = mean(x) - 1/3
    x = np.array([1, 1, 0, 1 / 3])
    assert t["advantage"] == pytest.approx(x.mean() - 1 / 3)
    assert t["se"] == pytest.approx(x.std(ddof=1) / 2)
    # y = points * (1{opener's side} - 1/3): 4, 2, -3, 0
    assert t["points_advantage"] == pytest.approx(0.75)
    assert t["fair_share"] == pytest.approx(0.25)


@pytest.mark.parametrize("which", ["block2", "block4"])
def test_opener_advantage_summary_matches_records(which, request):
    rows = request.getfixturevalue(which)
    rules = BLOCK2 if which == "block2" else BLOCK4
    a = opener_advantage(rows, rules=rules)
    b = opener_advantage(ds.Summary.from_frame(rules, rows))
    pd.testing.assert_frame_equal(a, b, check_exact=False, rtol=1e-9)


# -------------------------------------------------------------------------------- how hands end
def test_outcome_rates_hand_counted():
    f = frame(end=pd.Categorical(["out", "blocked", "blocked", "out"]),
              winning_side=[0, -1, 1, 2])
    t = outcome_rates(f)
    assert t["count"].tolist() == [2, 2, 1]
    assert t["rate"].tolist() == [0.5, 0.5, 0.25]


def test_per_hand_summary_matches_records(block2):
    cols = ["points", "plays", "knocks", "stitch_ups"]
    a = per_hand(block2, columns=cols, rules=BLOCK2)
    b = per_hand(ds.Summary.from_frame(BLOCK2, block2), columns=cols)
    assert np.allclose(a["mean"], b["mean"]) and np.allclose(a["se"], b["se"])
    assert b["median"].isna().all()


def test_per_hand_bad_column_names_the_choices(block2):
    with pytest.raises(ValueError, match=r"^The value for `columns` must be one of 'points', "
                                         r".* but 'pips' was passed.$"):
        per_hand(block2, columns=["pips"], rules=BLOCK2)


def test_points_distribution_by_end_adds_up_to_one(block2):
    d = points_distribution(block2, by_end=True, rules=BLOCK2)
    assert d["share"].sum() == pytest.approx(1)
    assert d.groupby("end", observed=True)["count"].sum().to_dict() == \
        block2["end"].value_counts().to_dict()
    last = d.groupby("end", observed=True)["cumulative"].last()
    assert last.to_dict() == pytest.approx((block2["end"].value_counts() / len(block2)).to_dict())
    assert ((d["cum_ci_low"] <= d["cumulative"]) & (d["cumulative"] <= d["cum_ci_high"])).all()


def test_points_distribution_of_a_summary_asks_for_records(block2):
    with pytest.raises(ValueError, match="`data` must be a DataFrame of hand records for a points"):
        points_distribution(ds.Summary.from_frame(BLOCK2, block2))


# ---------------------------------------------------------------------------------- stitch-ups
def test_stitch_ups_per_play_ratio_and_delta_se():
    f = frame(stitch_ups=[0, 2, 1, 1], plays=[5, 9, 9, 3], stitch_ups_0=[0, 1, 1, 0],
              stitch_ups_1=[0, 1, 0, 1], stitch_ups_2=[0, 0, 0, 0])
    t = stitch_ups(f, per="play").iloc[0]
    s, m = np.array([0, 2, 1, 1.0]), np.array([4, 8, 8, 2.0])
    r = s.sum() / m.sum()
    assert t["rate"] == pytest.approx(4 / 22)
    assert t["se"] == pytest.approx(np.std(s - r * m, ddof=1) / 2 / m.mean())


def test_stitch_ups_per_hand_counts_hands_with_any():
    f = frame(stitch_ups=[0, 2, 1, 0], plays=[5, 9, 9, 3])
    t = stitch_ups(f).iloc[0]
    assert (t["rate"], t["p_any"]) == (0.75, 0.5)


def test_stitch_ups_summary_per_seat_and_play_match_records(block4):
    for per in ("seat", "play"):
        a = stitch_ups(block4, per=per, rules=BLOCK4)
        b = stitch_ups(ds.Summary.from_frame(BLOCK4, block4), per=per)
        assert np.allclose(a["rate"], b["rate"]) and b["se"].isna().all()


def test_stitch_ups_bad_per_names_the_choices():
    with pytest.raises(ValueError, match=r"`per` must be one of 'hand', 'play', 'seat', but "
                                         r"'tile' was passed."):
        stitch_ups(frame(stitch_ups=[0]), per="tile")


def test_analysis_rules_of_the_wrong_type_names_it(block2):
    with pytest.raises(ValueError, match=r"`rules` must be a dominosim.Rules or None"):
        outcome_rates(block2, rules="block")
    assert math.isclose(outcome_rates(block2, rules=BLOCK2)["rate"][:2].sum(), 1)
