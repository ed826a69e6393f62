"""The objects display themselves: a short text repr and an HTML table with their key figures."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from rule_space import valid_rules

import dominosim as ds
from dominosim.batch import parse_sweep, run_sweep

BLOCK4 = ds.Rules.preset("block", players=4)
DRAW2 = ds.Rules.preset("draw", players=2)


def _short(text: str, lines: int = 2, width: int = 200) -> bool:
    return len(text.splitlines()) <= lines and all(len(x) <= width for x in text.splitlines())


def test_rules_repr_is_the_preset_call_that_builds_them():
    small = ds.Rules.preset("block", players=2, max_pip=3, hand_size=3)
    assert repr(small) == "Rules.preset('block', players=2, max_pip=3, hand_size=3)"
    assert repr(BLOCK4) == "Rules.preset('block', players=4)"
    assert repr(ds.Rules.preset("ivory", players=3)) == "Rules.preset('ivory', players=3)"


@settings(max_examples=60, deadline=None)
@given(valid_rules())
def test_rules_repr_evaluates_to_equal_rules(rules):
    assert eval(repr(rules), {"Rules": ds.Rules}) == rules


def test_rules_html_is_a_table_of_fields_naming_the_preset():
    html = ds.Rules.preset("draw", players=3, scoring="game")._repr_html_()
    assert "preset &#x27;draw&#x27;, 3 players, with scoring=&#x27;game&#x27;" in html
    assert "<td>hand_size</td><td>5</td><td></td>" in html
    assert "<td>scoring</td><td>game</td><td>changed</td>" in html
    assert "28 tiles, 5 each, 13 sleeping, 3 sides" in html


def test_summary_repr_is_one_line_and_html_holds_its_table():
    s = ds.simulate(DRAW2, "random", 2_000, seed=3, keep="summary")
    text = repr(s)
    assert _short(text, 1)
    assert text.startswith("Summary of 2,000 hands, Rules.preset('draw', players=2): blocked ")
    assert f"{s.rate('blocked'):.4f}" in text
    html = s._repr_html_()
    table = s.table()
    assert html.count("</tr>") == len(table) + 1
    for q in ("P_blocked", "E_points", "P_side1_wins"):
        assert f"<td>{q}</td>" in html
        estimate = table.loc[table["quantity"] == q, "estimate"].iloc[0]
        assert f"<td>{estimate:.4f}</td>" in html


def test_handlog_repr_is_one_line_and_html_shows_record_folded_transcript_and_layout():
    log = ds.replay(BLOCK4, "random", seed=7, hand=3)
    text = repr(log)
    assert _short(text, 1)
    assert text == (f"HandLog(hand=3, seed=7, Rules.preset('block', players=4): "
                    f"{log.outcome()}, {len(log.events)} events)")
    assert log.outcome().startswith(("out, ", "blocked, "))
    html = log._repr_html_()
    assert html.count('<img src="data:image/png;base64,') == 1
    record = html.split("<table")[1].split("</table>")[0]
    columns = [c.split("</th>")[0] for c in record.split("<th>")[1:]]
    cells = [c.split("</td>")[0] for c in record.split("<td>")[1:]]
    assert dict(zip(columns, cells, strict=True)) == {k: str(v) for k, v in log.record.items()}
    assert f"<details><summary>Transcript ({len(log.events)} events)</summary><pre>" in html
    first_play = log.transcript().splitlines()[7]
    assert first_play.split(".")[0] in html


@pytest.fixture(scope="module")
def comparison():
    return ds.compare(ds.Rules.preset("block", players=2), "bully", "random", n_deals=300, seed=2)


def test_comparison_repr_is_two_lines_with_the_paired_difference(comparison):
    text = repr(comparison)
    assert _short(text, 2)
    diff = comparison.row("win_rate_diff")
    assert "A='bully' vs B='random', 300 deals (seed 2)" in text
    assert f"win_rate_diff {diff.estimate:+.4f} [{diff.ci_low:+.4f}, {diff.ci_high:+.4f}]" in text
    assert "variance reduction win_rate" in text


def test_comparison_html_holds_its_table_and_variance_reduction(comparison):
    html = comparison._repr_html_()
    for q in ("win_rate_a", "win_rate_diff", "points_diff"):
        row = comparison.row(q)
        assert f"<td>{q}</td>" in html and f"<td>{row.estimate:.4f}</td>" in html
    assert f"win_rate {comparison.variance_reduction['win_rate']:.2f}" in html


def test_tournament_repr_lists_ratings_and_html_holds_its_tables():
    t = ds.tournament(ds.Rules.preset("block", players=2), ["random", "bully", "doubles"],
                      n_deals=150, seed=1, n_boot=20)
    text = repr(t)
    assert _short(text, 2)
    best = t.ratings.iloc[0]
    assert f"Bradley-Terry ratings {best.strategy} {best.rating:+.3f}, " in text
    html = t._repr_html_()
    for r in t.ratings.itertuples():
        assert f"<td>{r.strategy}</td>" in html and f"<td>{r.rating:.4f}</td>" in html
    assert f"<td>{t.win_matrix.loc['bully', 'random']:.4f}</td>" in html
    assert html.count("<table") == 3


def test_sweep_result_repr_is_one_line_and_html_shows_each_cell(tmp_path):
    sweep = parse_sweep('hands = 400\nchunk_size = 200\n[rules]\npreset = "draw"\n'
                        '[grid]\nplayers = [2, 3]\n')
    result = run_sweep(sweep, tmp_path, quiet=True)
    text = repr(result)
    assert _short(text, 1, 300)
    assert text.startswith(f"SweepResult(2 cells into {str(tmp_path)!r}: 4 chunks played (800 "
                           "hands in ")
    html = result._repr_html_()
    for row in result.summary.itertuples():
        assert f"<td>{row.label}</td>" in html and f"<td>{row.blocked:.4f}</td>" in html
        assert f"<td>{row.opener_advantage:.4f}</td>" in html
