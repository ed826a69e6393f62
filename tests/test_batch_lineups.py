"""What a sweep's line-ups may name: built-ins, searches with budgets, plug-ins by import path."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from dominosim.batch import api, lineups, parse_sweep, run_sweep
from dominosim.batch.lineups import check_entry, is_plugin_path, load_plugin, playable
from dominosim.batch.run import play as api_play
from dominosim.fast.hand.plugin import CompiledStrategy
from dominosim.strategies.registry import NAMES, SEARCHES


@pytest.mark.parametrize("name", [*NAMES, *(f"{s}:7" for s in SEARCHES), "mc:200",
                                  "ismcts:2000", "mc_omniscient:50", "plugins_for_sweeps:lightest"])
def test_lineups_accept_builtins_searches_with_budgets_and_plugins(name):
    assert check_entry(name) == name


@pytest.mark.parametrize("name, reason", [
    ("mc:0", "the value for `playouts` must be an integer from 1 to 100,000"),
    ("ismcts:0", "the value for `iterations` must be an integer from 1 to 1,000,000"),
    ("mc:-3", "must name a search strategy"),
    ("bully:3", "it is neither a built-in name, nor a search with a budget, nor an import path"),
    ("plugins_for_sweeps", "it is neither a built-in name"),
    ("plugins_for_sweeps:lightest:2", "it is neither a built-in name"),
    ("plugins_for_sweeps.lightest", "it is neither a built-in name"),
])
def test_lineups_refuse_a_bad_budget_or_a_malformed_name_naming_it(name, reason):
    with pytest.raises(ValueError, match="^" + repr(name) + " is not a strategy dominosim can "
                       "play: ") as caught:
        check_entry(name)
    assert reason in str(caught.value) and "\n" not in str(caught.value)


def test_lineups_plugin_is_imported_and_wrapped_once_per_process_under_its_path():
    first = load_plugin("plugins_for_sweeps:lightest")
    assert isinstance(first, CompiledStrategy) and first.name == "plugins_for_sweeps:lightest"
    assert load_plugin("plugins_for_sweeps:lightest") is first
    seats = playable(("mc:3", "plugins_for_sweeps:lightest", "random"))
    assert seats[0] == "mc:3" and seats[1] is first and seats[2] == "random"


def test_lineups_a_player_that_cannot_import_the_plugin_says_so_in_one_line():
    with pytest.raises(RuntimeError) as caught:
        playable(("random", "plugins_not_installed_here:choose"))
    message = str(caught.value)
    assert message.startswith("'plugins_not_installed_here:choose' is not a strategy dominosim "
                              "can play: the module 'plugins_not_installed_here' cannot be "
                              "imported (ModuleNotFoundError")
    assert "in the process" in message and "PYTHONPATH" in message and "\n" not in message


def test_lineups_plugin_path_form():
    assert is_plugin_path("a.b_c.d:choose") and is_plugin_path("_m:_f")
    for name in ("mc:200", "a.b", "a:b:c", "a..b:c", ".a:b", "a:1b", "é:f", "a b:c"):
        assert not is_plugin_path(name), name


def test_lineups_cells_name_the_strategies_as_the_file_writes_them():
    sweep = parse_sweep('hands = 5\n[rules]\npreset = "block"\nplayers = 4\n[grid]\n'
                        'strategies = [["mc:20", "plugins_for_sweeps:lightest"], "ismcts:30"]\n')
    first, second = sweep.cells
    assert first.lineup == ("mc:20", "plugins_for_sweeps:lightest") * 2
    assert first.label == "block 4p mc:20/plugins_for_sweeps:lightest"
    assert second.lineup == ("ismcts:30",) * 4
    assert sweep.plan()["cells"][0]["lineup"] == list(first.lineup)


def test_lineups_a_changed_plugin_module_is_another_sweep_until_fresh(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    name = "plugin_edited_between_runs"
    path, module = f"{name}:lightest", tmp_path / f"{name}.py"
    source = (Path(__file__).parent / "plugins_for_sweeps.py").read_text()
    module.write_text(source)
    text = f'hands = 20\nstrategies = ["{path}", "random"]\n[rules]\npreset = "block"\n'
    first = parse_sweep(text)
    assert first.plan()["plugins"] == {path: lineups.plugin_source_digest(path)}
    assert run_sweep(first, tmp_path / "out", quiet=True).chunks_played == 1
    assert run_sweep(parse_sweep(text), tmp_path / "out", quiet=True).chunks_played == 0
    module.write_text(source + "\n# edited\n")
    # a new process imports the edited module: in this one, forget the first import
    for table, key in ((sys.modules, name), (lineups._LOADED, path), (lineups._DIGESTS, path)):
        monkeypatch.delitem(table, key)
    edited = parse_sweep(text)
    with pytest.raises(ValueError, match=rf"holds a different sweep \(plugins\.{name}:lightest: "
                       r"'[0-9a-f]{64}' there, '[0-9a-f]{64}' in this sweep\): pass --fresh"):
        run_sweep(edited, tmp_path / "out", quiet=True)
    assert run_sweep(edited, tmp_path / "out", quiet=True, fresh=True).chunks_played == 1


def test_lineups_dry_run_times_a_cell_of_searches_on_a_small_sample(monkeypatch):
    played: dict[str, int] = {}

    def counted(task, jobs=None):
        played[task.lineup[0]] = played.get(task.lineup[0], 0) + task.n
        return api_play(task, jobs)

    monkeypatch.setattr(api, "play", counted)
    sweep = parse_sweep('hands = 1_000_000\n[rules]\npreset = "block"\n[grid]\n'
                        'strategies = ["mc:200", ["plugins_for_sweeps:lightest", "random"]]\n')
    text = api.dry_run(sweep, sample=4_000, jobs=1)
    assert "block 2p mc:200" in text and "Estimated time: " in text
    # the plug-in's cell is fast: its whole sample; the search's is cut at about half a second
    assert 4_000 < played["plugins_for_sweeps:lightest"] < 4_000 + 4_000
    assert played["mc:200"] < 2_000
