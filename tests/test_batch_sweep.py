"""Sweep files: schema, expansion into cells and chunks, and the refusal of bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from dominosim import Rules
from dominosim.batch import default_sweep, parse_sweep
from dominosim.batch.sweep import DEFAULT_CHUNK

BASE = 'hands = 1_000\n[rules]\npreset = "block"\n'


def test_sweep_grid_expands_every_combination_in_file_order():
    sweep = parse_sweep('hands = 10\n[rules]\npartnerships = false\n[grid]\n'
                        'players = [2, 4]\npreset = ["block", "draw"]\n'
                        'scoring = ["game", "spots"]\n')
    combos = [(c.rules.players, c.preset, c.rules.scoring) for c in sweep.cells]
    assert combos == [(p, g, s) for p in (2, 4) for g in ("block", "draw") for s in ("game", "spots")]
    assert [c.index for c in sweep.cells] == list(range(8))
    assert sweep.cells[6].rules == Rules.preset("draw", players=4, partnerships=False,
                                                scoring="game")


def test_sweep_lineup_repeats_around_the_table():
    sweep = parse_sweep(BASE.replace("hands", 'strategies = ["bully", "random"]\nhands')
                        + "[grid]\nplayers = [2, 3, 4]\n")
    assert [c.lineup for c in sweep.cells] == [
        ("bully", "random"), ("bully", "random", "bully"), ("bully", "random", "bully", "random")]
    assert {c.strategies_label for c in sweep.cells} == {"bully/random"}


def test_sweep_chunks_cover_each_cell_once_in_order():
    sweep = parse_sweep("hands = 1_050\nchunk_size = 250\n[rules]\npreset = \"draw\"\n"
                        "[grid]\nplayers = [2, 3]\n")
    for cell in sweep.cells:
        ranges = [(c.start, c.n) for c in sweep.chunks() if c.cell == cell.index]
        assert ranges == [(0, 250), (250, 250), (500, 250), (750, 250), (1000, 50)]
    assert sum(c.n for c in sweep.chunks()) == sweep.total_hands == 2_100


def test_sweep_missing_settings_take_their_defaults():
    sweep = parse_sweep(BASE, source="runs/mine.toml")
    assert (sweep.name, sweep.seed, sweep.keep, sweep.out) == ("mine", 0, "summary",
                                                              "results/mine")
    assert sweep.chunk_size == 1_000
    assert parse_sweep("hands = 5_000_000\n[rules]\npreset = \"draw\"\n").chunk_size == DEFAULT_CHUNK
    assert sweep.cells[0].rules == Rules.preset("block", players=2)
    assert sweep.cells[0].lineup == ("random", "random")


def test_sweep_preset_partnerships_follow_player_count_unless_given():
    sweep = parse_sweep('hands = 10\n[rules]\npreset = "block"\n[grid]\nplayers = [2, 4]\n')
    assert [c.rules.partnerships for c in sweep.cells] == [False, True]


def test_sweep_plan_changes_with_anything_that_changes_results():
    plans = [parse_sweep(text).plan() for text in (
        BASE, BASE + "seed = 1\n".replace("seed", "[grid]\nmax_pip = [6]\n#"),
        BASE.replace("1_000", "1_001"), "seed = 2\n" + BASE, 'keep = "rows"\n' + BASE,
        "chunk_size = 100\n" + BASE, BASE.replace("block", "draw"))]
    assert plans[0] == plans[1]  # a one-value axis is the same cell
    for other in plans[2:]:
        assert other != plans[0]
    assert parse_sweep('name = "x"\n' + BASE).plan() == plans[0]


@pytest.mark.parametrize("text, message", [
    ("hands = 10\nhadns = 6\n[rules]\npreset = \"draw\"\n",
     "s.toml, line 2: The key `hadns` is not a sweep setting: the keys are name, description, "
     "seed, hands, chunk_size, keep, out, strategies, rules, grid."),
    ("hands = 10\n[rules]\npreset = \"draw\"\n\nscorring = \"game\"\n",
     "s.toml, line 5: The key `scorring` is not a field of the rules: the keys are preset, "),
    ("hands = 10\n[rules]\npreset = \"draw\"\n[grid]\nplayer = [2, 3]\n",
     "s.toml, line 5: The key `player` is not a grid axis: the keys are preset, strategies, "),
])
def test_sweep_unknown_key_names_key_and_line(text, message):
    with pytest.raises(ValueError) as caught:
        parse_sweep(text, source="s.toml")
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("text, message", [
    (BASE.replace('"block"', '"blok"'),
     "s.toml, line 3: The value for `rules.preset` must be one of 'block', 'draw', 'cross', "
     "'double_nine_cross', 'ivory', but 'blok' was passed."),
    ('hands = 10\n[grid]\npreset = ["draw", "ivroy"]\n',
     "s.toml, line 3: The value for `grid.preset` must be one of 'block', 'draw', 'cross', "
     "'double_nine_cross', 'ivory', but 'ivroy' was passed."),
    (BASE + '[grid]\nstrategies = ["random", ["bully", "randm"]]\n',
     "s.toml, line 5: The value for `grid.strategies` must be a built-in strategy name ("),
    ('strategies = "bulli"\n' + BASE,
     "s.toml, line 1: The value for `strategies` must be a built-in strategy name ("),
    ('keep = "all"\n' + BASE,
     "s.toml, line 1: The value for `keep` must be one of 'summary', 'rows', but 'all' was passed."),
    (BASE.replace("1_000", '"1000"'),
     "s.toml, line 1: The value for `hands` must be an integer of 1 or more, but '1000' was passed."),
    ("chunk_size = 0\n" + BASE,
     "s.toml, line 1: The value for `chunk_size` must be an integer of 1 or more, but 0 was passed."),
    ("seed = -3\n" + BASE,
     "s.toml, line 1: The value for `seed` must be an integer from 0 to 2**63 - 1, but -3 was "
     "passed."),
    (BASE + 'scoring = "sptos"\n',
     "s.toml, line 4: The value for `scoring` must be one of 'game', 'spots', 'balance', but "
     "'sptos' was passed."),
    (BASE + "[grid]\nplayers = 4\n",
     "s.toml, line 5: The value for `grid.players` must be a non-empty array of values, but 4 was "
     "passed."),
    (BASE + "[grid]\nplayers = [2, 3, 2]\n",
     "s.toml, line 5: The value for `grid.players` must be an array without repeated values, but "
     "[2, 3, 2] was passed."),
    (BASE + '[grid]\nplayers = ["4"]\n',
     "s.toml, line 5: The value for `players` must be an integer from 2 to 10, but '4' was "
     "passed (in the cell players='4')."),
    ("hands = 10\n[rules]\nplayers = 3\n",
     "s.toml, line 2: The value for `rules.preset` must be given (in [rules], or as an axis in "
     "[grid]): one of 'block', "),
    ("[rules]\npreset = \"draw\"\n",
     "s.toml: The value for `hands` (hands per cell) must be given: an integer of 1 or more."),
    ('out = 3\n' + BASE,
     "s.toml, line 1: The value for `out` must be a folder path as a string, but 3 was passed."),
    (BASE + "[grid]\nplayers = [2, 3]\n[rules.extra]\n",
     "s.toml, line 6: The key `extra` is not a field of the rules"),
])
def test_sweep_bad_value_names_key_and_line(text, message):
    with pytest.raises(ValueError) as caught:
        parse_sweep(text, source="s.toml")
    assert str(caught.value).startswith(message), str(caught.value)
    assert "\n" not in str(caught.value)


def test_sweep_impossible_cell_names_rule_line_and_cell():
    text = BASE + "partnerships = true\n[grid]\nplayers = [4, 3]\n"
    with pytest.raises(ValueError) as caught:
        parse_sweep(text, source="s.toml")
    assert str(caught.value) == (
        "s.toml, line 4: The value for `partnerships` must be False, or True only with 4, 6, 8 or "
        "10 players (there are 3), but True was passed (in the cell players=3).")


def test_sweep_missing_hand_size_for_cell_is_refused():
    text = BASE + "max_pip = 9\n[grid]\nplayers = [4, 3]\n"
    with pytest.raises(ValueError, match=r"^s\.toml: The value for `hand_size` must be given for "
                       r"preset 'block' with a double-9 set and 3 players.*\(in the cell "
                       r"players=3\)\.$"):
        parse_sweep(text, source="s.toml")


def test_sweep_lineup_longer_than_table_is_refused():
    text = BASE + '[grid]\nstrategies = [["bully", "random", "doubles"]]\n'
    with pytest.raises(ValueError, match=r"^s\.toml, line 5: The value for `grid.strategies` must "
                       r"be at most one name per seat \(2 at this table\), but \['bully', "
                       r"'random', 'doubles'\] was passed\.$"):
        parse_sweep(text, source="s.toml")


def test_sweep_key_in_rules_and_grid_is_refused():
    with pytest.raises(ValueError, match=r"^s\.toml, line 5: The key `preset` is both in \[rules\] "
                       r"and in \[grid\]"):
        parse_sweep(BASE + '[grid]\npreset = ["draw"]\n', source="s.toml")


def test_sweep_invalid_toml_names_line():
    with pytest.raises(ValueError, match=r"^s\.toml, line 2: The sweep file is not valid TOML: "):
        parse_sweep("hands = 10\n[rules\npreset = 'draw'\n", source="s.toml")


def test_default_sweep_plays_block_against_draw_in_individual_play():
    sweep = default_sweep()
    assert {c.preset for c in sweep.cells} == {"block", "draw", "cross", "double_nine_cross",
                                               "ivory"}
    assert {c.rules.players for c in sweep.cells} == {2, 3, 4}
    assert {c.lineup[0] for c in sweep.cells} == {"random", "bully"}
    assert not any(c.rules.partnerships for c in sweep.cells)
    assert len(sweep.cells) == 30 and sweep.keep == "summary"


def test_readme_sweep_example_parses_into_its_six_cells():
    readme = (Path(__file__).parent.parent / "README.md").read_text()
    section = readme[readme.index("## Batch sweeps"):readme.index("## Rules")]
    text = section.split("```toml\n", 1)[1].split("```", 1)[0]
    sweep = parse_sweep(text, source="README.md")
    assert [c.label for c in sweep.cells] == [
        f"block 4p {s} hand_size={h}" for s in ("random", "accompanied/random", "bully/random")
        for h in (6, 7)]
    assert sweep.cells[3].lineup == ("accompanied", "random", "accompanied", "random")
    assert all(c.rules.partnerships for c in sweep.cells)
    assert (sweep.name, sweep.seed, sweep.chunk_size, sweep.out) == ("styles", 11, 250_000,
                                                                   "results/styles")
