"""The match chain: hand-computed tiny matches, two solvers against each other, simulated matches."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import numpy as np
import pandas as pd
import pytest

import dominosim as ds
from dominosim.analysis import match_curve, match_win_probability


def hands_of(outcomes):
    """Records realising a hand distribution: ``outcomes`` maps (side, points) to a count."""
    rows = [(side, pts) for (side, pts), n in outcomes.items() for _ in range(n)]
    return pd.DataFrame(rows, columns=["winning_side", "points"])


def brute_force(dist, target, k):
    """P(each side wins) by recursion over every score vector, in exact fractions; ``dist`` maps
    (side, points) to a probability, ties and zero-point hands included (self-loops)."""
    stay = sum(p for (side, pts), p in dist.items() if side < 0 or pts == 0)
    moves = {key: p / (1 - stay) for key, p in dist.items() if key[0] >= 0 and key[1] > 0}

    @cache
    def win(scores):
        out = [Fraction(0)] * k
        for (side, pts), p in moves.items():
            after = list(scores)
            after[side] += pts
            if after[side] >= target:
                out[side] += p
            else:
                for j, v in enumerate(win(tuple(after))):
                    out[j] += p * v
        return tuple(out)

    return win((0,) * k)


def test_match_two_sides_target_two_hand_computed():
    # per hand: side 0 scores 1 w.p. 1/2, side 1 scores 1 w.p. 1/4, a tie w.p. 1/4
    hands = hands_of({(0, 1): 2, (1, 1): 1, (-1, 0): 1})
    t = match_win_probability(hands, target=2, players=2)
    # scoring hands go 2:1; side 0 needs two before side 1 does: (2/3)^2 (1 + 2/3) = 20/27
    assert t["p_win"].tolist() == pytest.approx([20 / 27, 7 / 27], abs=1e-14)
    # 2 scoring hands w.p. 5/9, 3 w.p. 4/9: 22/9, over P(score) = 3/4: 88/27 hands
    assert t["expected_hands"].tolist() == pytest.approx([88 / 27] * 2, abs=1e-13)


def test_match_zero_point_wins_are_self_loops_like_ties():
    with_ties = hands_of({(0, 2): 1, (1, 1): 1, (-1, 0): 2})
    with_zero = hands_of({(0, 2): 1, (1, 1): 1, (0, 0): 1, (1, 0): 1})
    a = match_win_probability(with_ties, target=3, players=2)
    b = match_win_probability(with_zero, target=3, players=2)
    assert np.allclose(a["p_win"], b["p_win"], atol=1e-14)
    assert np.allclose(a["expected_hands"], b["expected_hands"], atol=1e-13)


@pytest.mark.parametrize(("k", "target"), [(3, 4), (4, 3), (2, 7)])
def test_match_interleaving_formula_equals_brute_force(k, target):
    rng = np.random.default_rng(k * 10 + target)
    counts = {(side, pts): int(rng.integers(1, 5)) for side in range(k) for pts in (1, 2, 3)}
    counts[(-1, 0)] = 2
    total = sum(counts.values())
    exact = brute_force({key: Fraction(n, total) for key, n in counts.items()}, target, k)
    got = match_win_probability(hands_of(counts), target=target, players=k)["p_win"]
    assert got.tolist() == pytest.approx([float(x) for x in exact], abs=1e-13)


def test_match_curve_grid_equals_interleaving_formula_at_every_score():
    rules = ds.Rules.preset("draw", players=2, target=40)
    hands = ds.simulate(rules, "random", n_hands=3_000, seed=5)
    curve = match_curve(hands, rules=rules, side=1, opponent_scores=[0, 17, 39])
    for row in curve.iloc[::7].itertuples():
        scores = [int(row.opponent_score), int(row.score)]
        t = match_win_probability(hands, rules=rules, scores=scores)
        assert row.p_win == pytest.approx(t.loc[1, "p_win"], abs=1e-12)
        assert row.expected_hands == pytest.approx(t.loc[1, "expected_hands"], rel=1e-12)


def test_match_curve_steps_with_own_score_in_units_of_its_points():
    # side 2 always scores 3: from 10 - s points short, it needs ceil((10 - s) / 3) hands
    hands = hands_of({(0, 1): 3, (0, 4): 1, (1, 2): 2, (1, 5): 1, (2, 3): 2})
    p = match_curve(hands, target=10, players=3, side=2, opponent_scores=[5])["p_win"].to_numpy()
    assert np.allclose(p[1:3], p[1]) and np.allclose(p[4:6], p[4]) and np.allclose(p[7:], p[7])
    assert p[0] < p[1] < p[4] < p[7] < 1


@pytest.mark.parametrize(("preset", "players", "target", "n_matches"),
                         [("draw", 2, 40, 500), ("block", 3, 30, 400)])
def test_match_chain_agrees_with_simulated_matches(preset, players, target, n_matches):
    rules = ds.Rules.preset(preset, players=players, target=target)
    hands = ds.simulate(rules, "random", n_hands=200_000, seed=21)
    chain = match_win_probability(hands, rules=rules)
    matches = ds.simulate_matches(rules, "random", n_matches=n_matches, seed=22)
    for side in range(rules.n_sides):
        p = chain.loc[side, "p_win"]
        won = (matches["winning_side"] == side).mean()
        # the chain's own error (200,000 hands) is a small fraction of the matches' sampling error
        assert abs(won - p) < 4 * np.sqrt(p * (1 - p) / n_matches)
    mean, se = matches["hands"].mean(), matches["hands"].std(ddof=1) / np.sqrt(n_matches)
    assert abs(mean - chain.loc[0, "expected_hands"]) < 4 * se


def test_match_bad_scores_name_the_parameter():
    hands = hands_of({(0, 1): 1, (1, 1): 1})
    with pytest.raises(ValueError, match=r"^The value for `scores` must be a score for each of the "
                                         r"2 sides, each from 0 to 9, but \[0, 10\] was passed.$"):
        match_win_probability(hands, target=10, players=2, scores=[0, 10])


def test_match_without_target_names_it():
    hands = hands_of({(0, 1): 1, (1, 1): 1})
    with pytest.raises(ValueError, match=r"`target` must be an integer of 1 or more"):
        match_win_probability(hands, players=2)


def test_match_hands_that_never_score_are_refused():
    with pytest.raises(ValueError, match=r"`data` must be records in which some hand scores"):
        match_win_probability(hands_of({(-1, 0): 3}), target=5, players=2)


def test_match_side_that_never_scores_never_wins():
    t = match_win_probability(hands_of({(0, 1): 1, (2, 3): 1}), target=6, players=3)
    assert t.loc[1, "p_win"] == 0 and t["p_win"].sum() == pytest.approx(1, abs=1e-14)


def test_match_bootstrap_interval_covers_the_estimate_and_replays_with_its_seed():
    rules = ds.Rules.preset("block", players=2, target=60)
    hands = ds.simulate(rules, "random", n_hands=2_000, seed=6)
    a = match_win_probability(hands, rules=rules, n_boot=40, seed=1)
    b = match_win_probability(hands, rules=rules, n_boot=40, seed=1)
    pd.testing.assert_frame_equal(a, b)
    assert ((a["ci_low"] < a["p_win"]) & (a["p_win"] < a["ci_high"])).all()
    # the interval shrinks with the records: four times the hands, about half the width
    more = match_win_probability(ds.simulate(rules, "random", n_hands=8_000, seed=6),
                                 rules=rules, n_boot=40, seed=1)
    width, narrower = (a["ci_high"] - a["ci_low"])[0], (more["ci_high"] - more["ci_low"])[0]
    assert 0.3 < narrower / width < 0.8


def test_match_curve_bootstrap_bands_contain_the_curve():
    hands = hands_of({(0, 1): 30, (0, 3): 10, (1, 2): 25, (-1, 0): 5})
    c = match_curve(hands, target=8, players=2, opponent_scores=[0, 4], n_boot=30, seed=2)
    assert ((c["ci_low"] <= c["p_win"] + 1e-12) & (c["p_win"] <= c["ci_high"] + 1e-12)).all()
    assert (c["ci_high"] > c["ci_low"]).any()


def test_match_bad_n_boot_names_it():
    with pytest.raises(ValueError, match=r"^The value for `n_boot` must be an integer of 0 or more"):
        match_win_probability(hands_of({(0, 1): 1, (1, 1): 1}), target=3, players=2, n_boot=-1)
