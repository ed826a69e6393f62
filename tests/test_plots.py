"""Plots draw the numbers of their tables; the layout puts every tile of a hand on the table."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import dominosim as ds  # noqa: E402
from dominosim import analysis, plots  # noqa: E402
from dominosim.plots.tabletop import place  # noqa: E402

BLOCK3 = ds.Rules.preset("block", players=3)


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def hands():
    return ds.simulate(BLOCK3, "random", n_hands=2_000, seed=8)


def test_win_rates_bars_are_the_table_and_whiskers_its_interval(hands):
    t = analysis.win_rates(hands, by="seat", rules=BLOCK3)
    ax = plots.win_rates(t)
    heights = [p.get_height() for p in ax.patches]
    assert heights == pytest.approx(t["win_rate"].tolist())
    whiskers = [c for c in ax.collections if c.get_segments() and len(c.get_segments()) == 3]
    segs = whiskers[0].get_segments()
    assert np.allclose([s[:, 1] for s in segs], t[["ci_low", "ci_high"]].to_numpy())
    fair = [c for c in ax.collections if c.get_linestyle()[0][1] is not None]
    assert fair and all(np.allclose(s[:, 1], 1 / 3) for s in fair[0].get_segments())
    assert ax.get_xlabel() == "seat" and "Wilson" in ax.get_title()


def test_win_rates_on_a_given_axes_returns_it(hands):
    fig, ax = plt.subplots()
    assert plots.win_rates(analysis.win_rates(hands, by="opener", rules=BLOCK3), ax=ax) is ax
    assert ax.get_xlabel().startswith("side, counted from the opener's")


def test_win_rates_hue_draws_variants_side_by_side(hands):
    both = pd.concat([hands.assign(variant="a"), hands.iloc[:500].assign(variant="b")])
    ax = plots.win_rates(analysis.win_rates(both, by="side", rules=BLOCK3, groups="variant"))
    assert len(ax.patches) == 6
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["fair share", "a", "b"]


def test_win_rates_refuses_other_tables(hands):
    with pytest.raises(ValueError, match=r"`data` must be a DataFrame from "
                                         r"dominosim.analysis.win_rates \(with a `win_rate`"):
        plots.win_rates(analysis.outcome_rates(hands, rules=BLOCK3))


def test_opener_advantage_points_across_variants_with_intervals():
    rows = []
    for preset in ("block", "draw"):
        for p in (2, 3):
            r = ds.Rules.preset(preset, players=p)
            rows.append(ds.simulate(r, "random", n_hands=500, seed=1).assign(
                variant=preset, players=p, partnerships=False))
    t = analysis.opener_advantage(pd.concat(rows), groups=["variant", "players"])
    ax = plots.opener_advantage(t)
    ys = np.concatenate([line.get_ydata() for line in ax.get_lines() if line.get_marker() == "o"])
    assert sorted(ys) == pytest.approx(sorted(t["advantage"]))
    assert ax.get_xlabel() == "variant" and ax.get_legend().get_title().get_text() == "players"
    points_ax = plots.opener_advantage(t, points=True)
    assert points_ax.get_ylabel() == "opener advantage (points per hand)"


def test_stitch_ups_labels_follow_the_unit(hands):
    per_play = analysis.stitch_ups(hands, per="play", rules=BLOCK3)
    ax = plots.stitch_ups(per_play)
    assert ax.get_ylabel() == "stitch-ups per play (after the opening)"
    assert ax.patches[0].get_height() == pytest.approx(per_play.loc[0, "rate"])
    seats = plots.stitch_ups(analysis.stitch_ups(hands, per="seat", rules=BLOCK3))
    assert seats.get_xlabel() == "seat" and len(seats.patches) == 3


def test_uncertainty_draws_a_line_and_band_per_game_and_player_count():
    turns = pd.DataFrame({"game": ["block"] * 4 + ["draw"] * 4, "players": [2, 2, 3, 3] * 2,
                          "turn": [0, 1] * 4, "entropy_bits": np.arange(8.0),
                          "tiles_unknown": np.arange(8)})
    profile = analysis.uncertainty_profile(turns, groups=["game", "players"])
    ax = plots.uncertainty(profile)
    assert len(ax.get_lines()) == 4 and len(ax.collections) == 4
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "block, 2 players", "block, 3 players", "draw, 2 players", "draw, 3 players"]
    assert plots.uncertainty(profile, y="tiles_unknown").get_ylabel() == \
        "tiles unknown to the seat to move (tiles)"


def test_uncertainty_bad_y_names_the_choices():
    with pytest.raises(ValueError, match=r"`y` must be one of 'entropy_bits', "):
        plots.uncertainty(pd.DataFrame(), y="bits")


def test_points_steps_are_the_shares_by_end(hands):
    d = analysis.points_distribution(hands, rules=BLOCK3, by_end=True)
    ax = plots.points(d)
    lines = ax.get_lines()
    assert len(lines) == 2
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["out", "blocked"]
    out = d[d["end"] == "out"]
    assert lines[0].get_xdata().tolist() == out["points"].tolist()
    assert np.allclose(lines[0].get_ydata(), out["share"])


def test_tournament_heat_map_annotates_rates_and_interval_half_widths():
    t = ds.tournament(ds.Rules.preset("block", players=2), ["random", "bully"], n_deals=300,
                      seed=2, n_boot=0)
    ax = plots.tournament(t)
    texts = [x.get_text() for x in ax.texts]
    half = (t.pairs.loc[0, "ci_high"] - t.pairs.loc[0, "ci_low"]) / 4
    assert texts[1] == f"{t.win_matrix.iloc[0, 1]:.3f}\n±{half:.3f}"
    assert texts[0] == texts[3] == "—"
    assert ax.images[0].get_array()[1, 0] == pytest.approx(t.win_matrix.iloc[1, 0])


def test_tournament_refuses_a_frame_that_is_not_square():
    with pytest.raises(ValueError, match=r"`data` must be a dominosim.tournament result or its "
                                         r"win_matrix"):
        plots.tournament(pd.DataFrame({"a": [1, 2]}))


def test_match_curve_a_line_per_opponent_score():
    rules = ds.Rules.preset("draw", players=2, target=50)
    c = analysis.match_curve(ds.simulate(rules, "random", n_hands=2_000, seed=3), rules=rules,
                             opponent_scores=[0, 25])
    ax = plots.match_curve(c)
    lines = ax.get_lines()
    assert len(lines) == 3 and ax.get_ylim() == (0, 1) and ax.get_xlim() == (0, 50)
    assert np.allclose(lines[1].get_ydata(), c[c["opponent_score"] == 25]["p_win"])
    assert ax.get_title() == "Winning a match to 50" and not ax.collections
    banded = plots.match_curve(analysis.match_curve(
        ds.simulate(rules, "random", n_hands=500, seed=3), rules=rules, opponent_scores=[0],
        n_boot=20))
    assert len(banded.collections) == 1 and banded.get_title().endswith("bootstrap bands")


# -------------------------------------------------------------------------------- the layout
def test_layout_scripted_line_hand_positions():
    rules = ds.Rules.preset("block", players=2, max_pip=3, hand_size=3)
    deal = ([[(3, 3), (1, 3), (0, 1)], [(2, 3), (2, 2), (0, 2)]], [(0, 0), (1, 1), (1, 2), (0, 3)])
    log = ds.play_hand(rules, "bully", deal=deal)
    tiles = place(log)
    by_order = {t.order: t for t in tiles}
    # 3-3 across the centre; 2-3 on end 0 (the left); 2-2 across the line after it
    assert (by_order[0].x0, by_order[0].y0, by_order[0].x1, by_order[0].y1) == (-0.5, -1, 0.5, 1)
    plays = [e for e in log.events if e.kind == "play"]
    assert plays[1].tile == (2, 3) and plays[1].end_index == 0
    assert (by_order[1].x0, by_order[1].x1, by_order[1].near, by_order[1].far) == (-2.5, -0.5, 3, 2)
    assert plays[2].tile == (1, 3) and plays[2].end_index == 1
    assert (by_order[2].x0, by_order[2].x1) == (0.5, 2.5)
    assert plays[3].tile == (2, 2)
    assert (by_order[3].x1 - by_order[3].x0, by_order[3].y1 - by_order[3].y0) == (1, 2)


@pytest.mark.parametrize("preset", ["block", "draw", "cross", "double_nine_cross", "ivory"])
def test_layout_places_every_tile_without_overlap(preset):
    rules = ds.Rules.preset(preset, players=3)
    for hand in range(15):
        log = ds.replay(rules, "random", seed=4, hand=hand)
        tiles = place(log)
        assert len(tiles) == log.record["plays"]
        for i, a in enumerate(tiles):
            assert not any(a.overlaps(b) for b in tiles[i + 1:]), (preset, hand, a.order)


def test_layout_cross_opens_four_arms():
    log = ds.replay(ds.Rules.preset("cross", players=2), "random", seed=1, hand=0)
    tiles = place(log)[1:5]
    centres = {(np.sign(round((t.x0 + t.x1) / 2, 6)), np.sign(round((t.y0 + t.y1) / 2, 6)))
               for t in tiles}
    assert centres == {(-1, 0), (1, 0), (0, 1), (0, -1)}


def test_layout_draws_a_face_per_tile_and_a_seat_legend():
    log = ds.replay(ds.Rules.preset("draw", players=2), "random", seed=3, hand=0)
    ax = plots.layout(log)
    faces = [p for p in ax.patches if type(p).__name__ == "FancyBboxPatch"]
    assert len(faces) == log.record["plays"]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["seat 0", "seat 1"]
    numbers = sorted(int(t.get_text()) for t in ax.texts)
    assert numbers == list(range(log.record["plays"]))


def test_layout_refuses_a_frame():
    with pytest.raises(ValueError, match=r"`log` must be a HandLog \(from dominosim.replay\)"):
        plots.layout(pd.DataFrame())


# ------------------------------------------------------------------------- keyword arguments
def test_bar_charts_pass_keywords_to_every_bar_over_the_defaults(hands):
    ax = plots.win_rates(analysis.win_rates(hands, by="seat", rules=BLOCK3), alpha=0.4,
                         hatch="//", color="#123456")
    assert len(ax.patches) == 3
    assert all(p.get_alpha() == 0.4 and p.get_hatch() == "//" for p in ax.patches)
    assert all(matplotlib.colors.to_hex(p.get_facecolor()) == "#123456" for p in ax.patches)
    seats = plots.stitch_ups(analysis.stitch_ups(hands, per="seat", rules=BLOCK3), width=0.3)
    assert [p.get_width() for p in seats.patches] == pytest.approx([0.3] * 3)


def test_opener_advantage_passes_keywords_to_its_points():
    t = pd.DataFrame({"variant": ["block", "draw"], "advantage": [0.1, 0.2],
                      "ci_low": [0.0, 0.1], "ci_high": [0.2, 0.3]})
    ax = plots.opener_advantage(t, x="variant", markersize=11, fmt="s")
    marks = [line for line in ax.get_lines() if line.get_marker() == "s"]
    assert len(marks) == 1 and marks[0].get_markersize() == 11
    assert marks[0].get_ydata().tolist() == [0.1, 0.2]


def test_line_charts_pass_keywords_to_their_lines():
    turns = pd.DataFrame({"game": ["block"] * 2 + ["draw"] * 2, "turn": [0, 1] * 2,
                          "entropy_bits": np.arange(4.0), "tiles_unknown": np.arange(4)})
    ax = plots.uncertainty(analysis.uncertainty_profile(turns, groups=["game"]), linewidth=3.5,
                           marker="x")
    assert [(line.get_linewidth(), line.get_marker()) for line in ax.get_lines()] == \
        [(3.5, "x")] * 2
    c = analysis.match_curve(pd.DataFrame({"winning_side": [0, 1, 1], "points": [3, 2, 1]}),
                             target=10, players=2, opponent_scores=[0, 5])
    curve = plots.match_curve(c, linestyle="--")
    drawn = [line for line in curve.get_lines() if line.get_label().endswith("points")]
    assert len(drawn) == 2 and all(line.get_linestyle() == "--" for line in drawn)


def test_points_and_tournament_pass_keywords_to_their_artists(hands):
    ax = plots.points(analysis.points_distribution(hands, rules=BLOCK3), color="black",
                      linewidth=0.5)
    assert all(line.get_linewidth() == 0.5 and line.get_color() == "black"
               for line in ax.get_lines())
    m = pd.DataFrame([[np.nan, 0.6], [0.4, np.nan]], index=["a", "b"], columns=["a", "b"])
    heat = plots.tournament(m, cmap="viridis", vmin=0.25)
    assert heat.images[0].get_cmap().name == "viridis"
    assert heat.images[0].get_clim() == (0.25, 1)


def test_layout_and_position_pass_keywords_to_every_tile():
    log = ds.replay(ds.Rules.preset("block", players=2), "random", seed=3, hand=0)
    tiles = sum(e.kind == "play" for e in log.events)
    ax = plots.layout(log, linewidth=2.5, edgecolor="red")
    boxes = [p for p in ax.patches if p.get_linewidth() == 2.5]
    assert len(boxes) == tiles
    assert all(matplotlib.colors.to_hex(p.get_edgecolor()) == "#ff0000" for p in boxes)
    seen = plots.position(log.position(len(log.events)), seat=0, alpha=0.3)
    assert sum(p.get_alpha() == 0.3 for p in seen.patches) == tiles


def test_plot_options_after_the_table_are_keywords_only():
    log = ds.replay(ds.Rules.preset("block", players=2), "random", seed=3, hand=0)
    with pytest.raises(TypeError):
        plots.position(log.position(2), 0)
