"""Duplicate deals: strategies rotated over the same deals, paired deal by deal; Bradley-Terry."""

from __future__ import annotations

import math

import numpy as np
import pytest

import dominosim as ds
from dominosim.rng import Stream
from dominosim.simulation import duplicate
from dominosim.simulation.duplicate import bradley_terry, compare, tournament

BLOCK2 = ds.Rules.preset("block", players=2)
BLOCK3 = ds.Rules.preset("block", players=3)
BLOCK4 = ds.Rules.preset("block", players=4)  # partnerships: two sides of two seats


def lightest(view, moves, rng):
    return min(moves, key=lambda m: sum(m.tile))


def estimates(c):
    return dict(zip(c.table["quantity"], c.table["estimate"], strict=True))


def ses(c):
    return dict(zip(c.table["quantity"], c.table["se"], strict=True))


# ------------------------------------------------------------------ by hand, from simulate frames
def side_scores(rules, frame):
    """Score of every side per hand, written out hand by hand: a tie is shared by the tied sides."""
    out = np.zeros((len(frame), rules.n_sides))
    for h, row in enumerate(frame.itertuples()):
        if row.winning_side >= 0:
            out[h, row.winning_side] = 1.0
            continue
        pips = [sum(getattr(row, f"pips_{s}") for s in rules.seats_of(k))
                for k in range(rules.n_sides)]
        tied = [k for k in range(rules.n_sides) if pips[k] == min(pips)]
        assert len(tied) >= 2, "a tie must leave two or more sides on the fewest pips"
        for k in tied:
            out[h, k] = 1.0 / len(tied)
    return out


def side_points(rules, frame):
    out = np.zeros((len(frame), rules.n_sides))
    for h, row in enumerate(frame.itertuples()):
        if row.winning_side >= 0:
            out[h, row.winning_side] = row.points
    return out


def seats_for(rules, a, b, a_sides):
    return [a if rules.side_of(s) in a_sides else b for s in range(rules.players)]


def by_hand(rules, a, b, n, seed, engine="fast"):
    """The paired win-rate and points differences and A's win rate, from frames built here."""
    k = rules.n_sides
    lone_a, lone_b, pts_a, pts_b = [], [], [], []
    for side in range(k):
        fa = ds.simulate(rules, seats_for(rules, a, b, {side}), n, seed, engine=engine)
        others = set(range(k)) - {side}
        fb = ds.simulate(rules, seats_for(rules, a, b, others), n, seed, engine=engine)
        lone_a.append(side_scores(rules, fa)[:, side])
        pts_a.append(side_points(rules, fa)[:, side])
        lone_b.append(side_scores(rules, fb)[:, side])
        pts_b.append(side_points(rules, fb)[:, side])
    win_a, win_b = np.mean(lone_a, axis=0), np.mean(lone_b, axis=0)
    points_a, points_b = np.mean(pts_a, axis=0), np.mean(pts_b, axis=0)
    return win_a, win_b, win_a - win_b, points_a - points_b


# ---------------------------------------------------------------------------------- (a) itself
@pytest.mark.parametrize("rules", [BLOCK2, BLOCK4, ds.Rules.preset("draw", players=2)],
                         ids=["block2", "block4", "draw2"])
def test_compare_strategy_with_itself_two_sides_difference_exactly_zero(rules):
    c = compare(rules, "random", "random", n_deals=300, seed=5)
    est, se = estimates(c), ses(c)
    assert est["win_rate_diff"] == 0.0 and se["win_rate_diff"] == 0.0
    assert est["points_diff"] == 0.0 and se["points_diff"] == 0.0
    assert est["win_rate_a"] == est["win_rate_b"] == 0.5
    assert c.variance_reduction["win_rate"] == math.inf


@pytest.mark.parametrize("rules", [BLOCK3, ds.Rules.preset("draw", players=4),
                                   ds.Rules.preset("double_nine_cross", players=6,
                                                   partnerships=True)],
                         ids=["block3", "draw4", "d9cross6-partners"])
def test_compare_strategy_with_itself_many_sides_lone_rates_equal(rules):
    c = compare(rules, "bully", "bully", n_deals=200, seed=5)
    est = estimates(c)
    assert est["win_rate_a"] == est["win_rate_b"]
    assert est["points_a"] == est["points_b"]
    assert est["win_rate_diff"] == 0.0 and est["points_diff"] == 0.0
    # the rotations of one strategy share out each deal: lone rate is the fair share exactly
    assert est["win_rate_a"] == pytest.approx(1 / rules.n_sides, abs=1e-12)


def test_compare_itself_exact_zero_survives_chunking(monkeypatch):
    monkeypatch.setattr(duplicate, "CHUNK", 37)
    c = compare(BLOCK3, "random", "random", n_deals=200, seed=2)
    assert estimates(c)["win_rate_diff"] == 0.0


# ------------------------------------------------------------------------------- (b) by hand
@pytest.mark.parametrize(("rules", "n"), [(BLOCK2, 300), (BLOCK4, 300), (BLOCK3, 150)],
                         ids=["block2", "block4", "block3"])
def test_compare_paired_difference_equals_hand_computation(rules, n):
    win_a, win_b, diff, pdiff = by_hand(rules, "bully", "random", n, seed=11)
    c = compare(rules, "bully", "random", n_deals=n, seed=11, keep_deals=True)
    est, se = estimates(c), ses(c)
    assert est["win_rate_a"] == pytest.approx(win_a.mean(), abs=1e-12)
    assert est["win_rate_b"] == pytest.approx(win_b.mean(), abs=1e-12)
    assert est["win_rate_diff"] == pytest.approx(diff.mean(), abs=1e-12)
    assert se["win_rate_diff"] == pytest.approx(diff.std(ddof=1) / math.sqrt(n), rel=1e-9)
    assert est["points_diff"] == pytest.approx(pdiff.mean(), abs=1e-9)
    assert se["points_diff"] == pytest.approx(pdiff.std(ddof=1) / math.sqrt(n), rel=1e-9)
    np.testing.assert_allclose(c.deals["win_rate_diff"], diff, atol=1e-12)
    row = c.row("win_rate_diff")
    half = 1.959963984540054 * row.se
    assert (row.ci_low, row.ci_high) == pytest.approx((row.estimate - half, row.estimate + half))


def test_compare_two_sides_win_rates_sum_to_one_and_diff_is_twice_a_minus_one():
    c = compare(BLOCK2, "doubles", "random", n_deals=400, seed=4)
    est = estimates(c)
    assert est["win_rate_a"] + est["win_rate_b"] == pytest.approx(1.0, abs=1e-12)
    assert est["win_rate_diff"] == pytest.approx(2 * est["win_rate_a"] - 1, abs=1e-12)


def test_compare_many_sides_excess_is_rate_minus_fair_share():
    c = compare(BLOCK3, "bully", "random", n_deals=200, seed=4)
    est = estimates(c)
    assert est["win_rate_a_excess"] == pytest.approx(est["win_rate_a"] - 1 / 3, abs=1e-12)
    assert est["win_rate_b_excess"] == pytest.approx(est["win_rate_b"] - 1 / 3, abs=1e-12)
    assert list(c.table["lineup"]) == ["a_vs_rest_b"] * 3 + ["b_vs_rest_a"] * 3 + ["paired"] * 2


def test_compare_reference_engine_python_strategy_equals_hand_computation():
    n = 40
    _, _, diff, pdiff = by_hand(BLOCK2, lightest, "bully", n, seed=3, engine="reference")
    c = compare(BLOCK2, lightest, "bully", n_deals=n, seed=3, engine="reference")
    assert (c.a, c.b) == ("lightest", "bully")
    assert estimates(c)["win_rate_diff"] == pytest.approx(diff.mean(), abs=1e-12)
    assert estimates(c)["points_diff"] == pytest.approx(pdiff.mean(), abs=1e-12)


def test_compare_fast_and_reference_engines_give_the_same_table():
    fast = compare(BLOCK3, "doubles", "random", n_deals=60, seed=8)
    ref = compare(BLOCK3, "doubles", "random", n_deals=60, seed=8, engine="reference")
    np.testing.assert_array_equal(fast.table["estimate"], ref.table["estimate"])


def test_compare_result_does_not_depend_on_chunking(monkeypatch):
    whole = compare(BLOCK4, "bully", "random", n_deals=300, seed=6)
    monkeypatch.setattr(duplicate, "CHUNK", 37)
    chunked = compare(BLOCK4, "bully", "random", n_deals=300, seed=6)
    np.testing.assert_allclose(chunked.table["estimate"], whole.table["estimate"], rtol=1e-12)
    np.testing.assert_allclose(chunked.table["se"], whole.table["se"], rtol=1e-9)
    assert chunked.variance_reduction == pytest.approx(whole.variance_reduction, rel=1e-9)


# ------------------------------------------------------------------------ (c) variance reduction
def test_compare_block4_partners_random_vs_bully_variance_reduction_above_one():
    n, seed = 5000, 3
    c = compare(BLOCK4, "random", "bully", n_deals=n, seed=seed)
    x = side_scores(BLOCK4, ds.simulate(BLOCK4, seats_for(BLOCK4, "random", "bully", {0}), n,
                                        seed))
    y = side_scores(BLOCK4, ds.simulate(BLOCK4, seats_for(BLOCK4, "random", "bully", {1}), n,
                                        seed))
    dx, dy = x[:, 0] - x[:, 1], y[:, 1] - y[:, 0]  # A's minus B's result in line-ups X and Y
    ratio = (dx.var(ddof=1) + dy.var(ddof=1)) / (dx + dy).var(ddof=1)
    assert c.variance_reduction["win_rate"] == pytest.approx(ratio, rel=1e-9)
    # ratio > 1 exactly when the two line-ups' results covary negatively: test that with its SE
    prod = (dx - dx.mean()) * (dy - dy.mean())
    z = prod.mean() / (prod.std(ddof=1) / math.sqrt(n))
    assert z < -4  # measured about -8 at this seed
    assert c.variance_reduction["win_rate"] > 1
    assert c.variance_reduction["points"] > 1


def test_compare_block3_variance_reduction_compares_the_two_lineups():
    n = 150
    win_a, win_b, diff, _ = by_hand(BLOCK3, "bully", "random", n, seed=11)
    c = compare(BLOCK3, "bully", "random", n_deals=n, seed=11)
    ratio = (win_a.var(ddof=1) + win_b.var(ddof=1)) / diff.var(ddof=1)
    assert c.variance_reduction["win_rate"] == pytest.approx(ratio, rel=1e-9)


# ------------------------------------------------------------------------- (d) bully vs random
def test_compare_block2_bully_beats_random_interval_excludes_zero():
    c = compare(BLOCK2, "bully", "random", n_deals=5000, seed=0)
    row = c.row("win_rate_diff")
    assert row.ci_low > 0
    assert c.row("points_diff").ci_low > 0


# ---------------------------------------------------------------------------- (e) Bradley-Terry
@pytest.mark.parametrize(("w_ab", "w_ba"), [(30, 10), (7.5, 12.5), (1, 1), (123.5, 0.5)])
def test_bradley_terry_two_players_gap_is_log_win_ratio(w_ab, w_ba):
    theta = bradley_terry([[0, w_ab], [w_ba, 0]])
    assert theta[0] - theta[1] == pytest.approx(math.log(w_ab / w_ba), abs=1e-10)
    assert theta.sum() == pytest.approx(0.0, abs=1e-12)


def test_bradley_terry_recovers_strengths_from_expected_counts():
    # wins equal to their expectation under known strengths satisfy the likelihood equations,
    # so the maximum-likelihood fit returns those strengths exactly (up to the mean)
    truth = np.array([0.9, 0.2, -0.3, -0.8])
    truth -= truth.mean()
    games = np.array([[0, 100, 40, 7], [100, 0, 55, 23], [40, 55, 0, 80], [7, 23, 80, 0]])
    p = 1 / (1 + np.exp(truth[None, :] - truth[:, None]))
    theta = bradley_terry(games * p)
    np.testing.assert_allclose(theta, truth, atol=1e-10)


def test_bradley_terry_matches_scipy_minimiser():
    optimize = pytest.importorskip("scipy.optimize")
    wins = np.array([[0, 12, 30, 9.5], [20, 0, 14, 11], [4, 18.5, 0, 16], [7, 6, 20, 0]])

    def nll(free):
        t = np.append(free, -free.sum())
        return float((wins * np.logaddexp(0, t[None, :] - t[:, None])).sum())

    res = optimize.minimize(nll, np.zeros(3), method="BFGS", options={"gtol": 1e-10})
    expected = np.append(res.x, -res.x.sum())
    np.testing.assert_allclose(bradley_terry(wins), expected, atol=1e-5)


def test_bradley_terry_unbeaten_player_is_refused():
    with pytest.raises(ValueError, match=r"`wins` must let every group of players win"):
        bradley_terry([[0, 5, 3], [0, 0, 2], [0, 1, 0]])


def test_tournament_two_strategies_rating_gap_is_log_win_ratio():
    t = tournament(BLOCK2, ["bully", "random"], n_deals=300, seed=9, n_boot=20)
    w = t.wins
    ratings = t.ratings.set_index("strategy")["rating"]
    expected = math.log(w.loc["bully", "random"] / w.loc["random", "bully"])
    assert ratings["bully"] - ratings["random"] == pytest.approx(expected, abs=1e-10)
    assert w.loc["bully", "random"] + w.loc["random", "bully"] == pytest.approx(2 * 300)
    c = t.comparisons["bully", "random"]
    assert w.loc["bully", "random"] == pytest.approx(2 * 300 * c.row("win_rate_a").estimate)


def test_tournament_tables_are_consistent_and_ratings_have_mean_zero():
    t = tournament(BLOCK3, {"R": "random", "B": "bully", "D": "doubles"}, n_deals=150, seed=2,
                   n_boot=30)
    assert t.strategies == ("R", "B", "D")
    assert t.ratings["rating"].sum() == pytest.approx(0.0, abs=1e-12)
    assert (t.ratings["ci_low"] <= t.ratings["rating"]).all()
    assert (t.ratings["rating"] <= t.ratings["ci_high"]).all()
    m = t.win_matrix.to_numpy()
    assert np.isnan(np.diag(m)).all()
    np.testing.assert_allclose(m + m.T, np.where(np.eye(3, dtype=bool), np.nan, 1.0))
    # 3 sides: each deal is 6 games per pair
    w = t.wins.to_numpy()
    np.testing.assert_allclose((w + w.T)[~np.eye(3, dtype=bool)], 6 * 150)
    pair = t.pairs.set_index(["a", "b"]).loc[("B", "D")]
    assert pair["win_rate_diff"] == t.comparisons["B", "D"].row("win_rate_diff").estimate


def test_tournament_bootstrap_is_reproducible():
    one = tournament(BLOCK2, ["random", "bully"], n_deals=100, seed=4, n_boot=25)
    two = tournament(BLOCK2, ["random", "bully"], n_deals=100, seed=4, n_boot=25)
    assert one.ratings.equals(two.ratings)


def test_bootstrap_stream_matches_rng_stream():
    key = 0x1234_5678_9ABC_DEF0
    s = Stream(key)
    assert duplicate.below_many(key, 50, 97).tolist() == [s.below(97) for _ in range(50)]


def test_summary_names_strategies_and_variance_reduction():
    c = compare(BLOCK2, "bully", "random", n_deals=50)
    text = repr(c)
    assert "A='bully' vs B='random'" in text and "variance reduction" in text


# ------------------------------------------------------------------------------ (f) refusals
@pytest.mark.parametrize(("kwargs", "message"), [
    ({"n_deals": 0}, r"The value for `n_deals` must be an integer of 1 or more, but 0 was passed"),
    ({"n_deals": 2.5}, r"`n_deals` must be an integer of 1 or more, but 2.5 was passed"),
    ({"confidence": 1.0}, r"`confidence` must be a number strictly between 0 and 1 .* 1.0 was"),
    ({"confidence": True}, r"`confidence` must be a number strictly between 0 and 1"),
    ({"a": "rnadom"}, r"`a` must be a built-in strategy name \(one of 'random', 'bully'.* 'rnadom'"),
    ({"b": lightest}, r"`b` must be a built-in strategy name .* engine='reference'"),
    ({"b": 7, "engine": "reference"}, r"`b` must be a built-in name .* but 7 was passed"),
    ({"a": ["bully", "random"]}, r"`a` must be a single strategy .* not one per seat"),
    ({"engine": "turbo"}, r"`engine` must be one of 'fast', 'reference', but 'turbo' was passed"),
    ({"seed": -1}, r"`seed` must be an integer from 0 to 2\*\*63 - 1, but -1 was passed"),
    ({"rules": "block"}, r"`rules` must be a dominosim.Rules"),
])
def test_compare_refuses_bad_input_with_one_sentence(kwargs, message):
    args = {"rules": BLOCK2, "a": "bully", "b": "random", "n_deals": 10} | kwargs
    with pytest.raises(ValueError, match=message):
        compare(**args)


@pytest.mark.parametrize(("strategies", "message"), [
    (["bully"], r"`strategies` must hold 2 or more strategies, but 1 was passed"),
    (["bully", "bully"], r"`strategies` must have distinct labels .* \['bully', 'bully'\]"),
    ("bully", r"`strategies` must be a list of 2 or more strategies or a dict"),
    (["bully", "rnadom"], r"`strategies` must be a built-in strategy name .* 'rnadom'"),
])
def test_tournament_refuses_bad_strategies(strategies, message):
    with pytest.raises(ValueError, match=message):
        tournament(BLOCK2, strategies, n_deals=10)


def test_tournament_refuses_negative_n_boot():
    with pytest.raises(ValueError, match=r"`n_boot` must be an integer of 0 or more, but -1 was"):
        tournament(BLOCK2, ["bully", "random"], n_deals=10, n_boot=-1)


def test_comparison_row_refuses_unknown_quantity():
    c = compare(BLOCK2, "bully", "random", n_deals=10)
    with pytest.raises(ValueError, match=r"`quantity` must be one of 'win_rate_a'.* 'win_rate'"):
        c.row("win_rate")
