"""The strength ladder's design and ratings (reports/strength.md), without playing its pairs."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dominosim.report import strength


def test_every_player_is_in_a_connected_design_of_pairs():
    for game in strength.GAMES:
        found = strength.pairs(game)
        assert len({(a, b) for a, b, _ in found}) == len(found)
        players = {p for a, b, _ in found for p in (a, b)}
        assert players == set(strength.PLAYERS)
        reach, frontier = {"random"}, ["random"]
        while frontier:  # every player is linked to random through played pairs
            p = frontier.pop()
            for a, b, _ in found:
                for x, y in ((a, b), (b, a)):
                    if x == p and y not in reach:
                        reach.add(y)
                        frontier.append(y)
        assert reach == players
        assert ("learned", "ismcts:1000") in {(b, a) for a, b, d in found if d >= 2000}
        assert {b for a, b, _ in found if a == strength.BEST} >= {"ismcts:1000", "pimc:50"}


def test_the_ladder_records_best_by_what_it_stands_for():
    from dominosim.strategies.registry import ALIASES

    assert ALIASES["best"] == strength.BEST  # a new "best" needs its own pairs in the ladder


def test_ratings_recover_the_odds_of_each_pair():
    # A wins 3 deals in 4 against B, B 3 in 4 against C: Bradley-Terry gives log 3 each step
    scores = {("tuned", "bully"): np.array([1, 1, 1, 0.0] * 50),
              ("bully", "random"): np.array([1, 0.5, 0.5, 1, 1, 0] * 40)}
    table = strength.ratings("block", scores, n_boot=50).set_index("player")
    assert list(table.index) == ["random", "bully", "tuned"]
    assert table.loc["tuned", "rating"] - table.loc["bully", "rating"] == pytest.approx(np.log(3))
    assert table.loc["bully", "rating"] - table.loc["random", "rating"] == pytest.approx(np.log(2))
    assert table["rating"].sum() == pytest.approx(0, abs=1e-9)
    assert (table["ci_low"] <= table["rating"]).all() and (table["rating"] <= table["ci_high"]).all()


def test_ratings_skip_and_count_the_resamples_with_no_finite_fit():
    # tuned wins 9 deals in 10 over bully: a resample of the ten deals with no loss (or no win) has
    # no finite Bradley-Terry fit; any other, with k wins, rates tuned log(k / (10 - k)) / 2
    s = np.array([1.0] * 9 + [0.0])
    table = strength.ratings("draw", {("tuned", "bully"): s}, n_boot=40).set_index("player")
    rng = np.random.default_rng(strength.SEED)
    wins = [s[rng.integers(0, len(s), len(s))].sum() for _ in range(40)]
    kept = np.array([np.log(k / (10 - k)) / 2 for k in wins if 0 < k < 10])
    assert 0 < len(kept) < 40
    assert table["boot_skipped"].tolist() == [40 - len(kept)] * 2
    assert table.loc["tuned", "rating"] == pytest.approx(np.log(9) / 2)
    assert table.loc["tuned", "ci_low"] == pytest.approx(np.percentile(kept, 2.5))
    assert table.loc["tuned", "ci_high"] == pytest.approx(np.percentile(kept, 97.5))
    assert table.loc["bully", "ci_low"] == pytest.approx(-np.percentile(kept, 97.5))


def test_render_writes_the_report_from_its_tables(tmp_path):
    pd.DataFrame({"game": "draw", "a": ["tuned"], "b": ["random"], "deals": [10],
                  "score_a": [0.7], "edge": [0.4], "ci_low": [0.1], "ci_high": [0.7],
                  "seconds": [1.0]}).to_csv(tmp_path / "strength_pairs.csv", index=False)
    pd.DataFrame({"game": "draw", "player": ["tuned", "random"], "rating": [0.4, -0.4],
                  "ci_low": [0.2, -0.6], "ci_high": [0.6, -0.2],
                  "decisions_per_s": [1e6, 3e6]}).to_csv(tmp_path / "strength_ratings.csv",
                                                          index=False)
    strength.render(tmp_path, tmp_path)
    text = (tmp_path / "strength.md").read_text()
    assert "| tuned | +0.400 [+0.200, +0.600] | 1,000,000 |" in text
    assert "| tuned | random | 10 | 0.700 | +0.400 [+0.100, +0.700] | 1 |" in text
    assert f"`{strength.EPIMC}` (the search without strategy fusion)" in text
    assert "{" not in text  # every name filled in
    assert (tmp_path / "strength.png").stat().st_size > 0


def test_render_adds_inference_alone_when_its_table_exists(tmp_path):
    test_render_writes_the_report_from_its_tables(tmp_path)
    assert "Inference alone" not in (tmp_path / "strength.md").read_text()
    pd.DataFrame({"game": ["draw"], "search": "ismcts:300", "field": "bully", "deals": 2000,
                  "seed": 23, "gain": [0.027], "ci_low": [0.011], "ci_high": [0.043],
                  "points_gain": [0.115], "points_low": [-0.394], "points_high": [0.624],
                  "win_rate_with": [0.745], "win_rate_without": [0.718],
                  "seconds": [228.0]}).to_csv(tmp_path / "strength_inference.csv", index=False)
    strength.render(tmp_path, tmp_path)
    text = (tmp_path / "strength.md").read_text()
    assert "## Inference alone" in text
    assert "| Draw 2p | `bully` | 0.745 / 0.718 | +0.027 [+0.011, +0.043] | +0.115 [-0.394, " \
        "+0.624] |" in text


def test_inference_alone_keeps_the_games_and_fields_already_played(tmp_path):
    """``compute_inference`` plays only the (game, field) pairs its table lacks: with every pair
    there it plays nothing and returns the table as it was."""
    rows = [{"game": g, "search": "ismcts:300", "field": f, "deals": 2000, "seed": 23,
             "gain": 0.01 * i, "ci_low": 0.0, "ci_high": 0.1, "points_gain": 0.0,
             "points_low": 0.0, "points_high": 0.0, "win_rate_with": 0.5,
             "win_rate_without": 0.5, "seconds": 1.0}
            for i, (g, f) in enumerate((g, f) for g in ("block", "draw")
                                       for f in strength.INFER_FIELDS)]
    pd.DataFrame(rows).to_csv(tmp_path / "strength_inference.csv", index=False)
    table = strength.compute_inference(tmp_path, ["block", "draw"])
    pd.testing.assert_frame_equal(table, pd.DataFrame(rows))
