"""The command line: help, bad input (exit 2, nothing written), dry run, examples, default sweep."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from dominosim.__main__ import main as dominosim_main
from dominosim.batch import load_sweep
from dominosim.batch.__main__ import main

EXAMPLES = sorted((Path(__file__).parent.parent / "examples").glob("*.toml"))


def test_cli_help_explains_every_option(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["--help"])
    assert caught.value.code == 0
    text = capsys.readouterr().out
    for option in ("--out", "--jobs", "--scheduler", "--local-cluster", "--fresh", "--dry-run",
                   "--quiet", "--hands", "SWEEP.toml", "Block against Draw", "Exit status"):
        assert option in text


@pytest.mark.parametrize("text, argv, message", [
    ('hands = 10\n[rules]\npreset = "draw"\nscoring = "sptos"\n', [],
     "sweep.toml, line 4: The value for `scoring` must be one of 'game', 'spots', "
     "'balance', but 'sptos' was passed."),
    ('hands = 10\n[grid]\npreset = ["draw"]\nstrategies = ["random", "magic"]\n', [],
     "sweep.toml, line 4: The value for `grid.strategies` must be a built-in strategy "),
    ('hands = 10\n[rules]\npreset = "draw"\n', ["--jobs", "99"],
     "error: The value for `--jobs` must be an integer from 1 to "),
    ('hands = 10\n[rules]\npreset = "draw"\n', ["--hands", "0"],
     "error: The value for `--hands` must be an integer of 1 or more, but 0 was passed."),
    ('hands = 10\n[rules]\npreset = "draw"\n', ["--local-cluster", "0"],
     "error: The value for `--local-cluster` must be an integer of 1 or more, but 0 was passed."),
    ('hands = 10\n[rules]\npreset = "draw"\n', ["--jobs", "1", "--local-cluster", "2"],
     "error: argument --local-cluster: not allowed with argument --jobs"),
    ('hands = ten\n', [], "sweep.toml, line 1: The sweep file is not valid TOML: "),
    # a search's budget, and a plug-in's import path, are checked before anything is written
    ('hands = 10\nstrategies = "mc:0"\n[rules]\npreset = "draw"\n', [],
     "sweep.toml, line 2: The value for `strategies` must be a built-in strategy name "),
    ('hands = 10\nstrategies = "mc:0"\n[rules]\npreset = "draw"\n', [],
     "but 'mc:0' was passed: the value for `playouts` must be an integer from 1 to 100,000"),
    ('hands = 10\n[rules]\npreset = "draw"\n[grid]\nstrategies = ["random", ["mc:x", "random"]]\n',
     [], "sweep.toml, line 5: The value for `grid.strategies` must be a built-in strategy name "),
    ('hands = 10\n[rules]\npreset = "draw"\n[grid]\nstrategies = ["random", ["mc:x", "random"]]\n',
     [], "but 'mc:x' was passed: the value for `strategies` must name a search strategy as 'mc'"),
    ('hands = 10\nstrategies = ["ismcts:0.5", "random"]\n[rules]\npreset = "draw"\n', [],
     "but 'ismcts:0.5' was passed: the value for `strategies` must name a search strategy"),
    ('hands = 10\nstrategies = "no_such_module_for_sweeps:choose"\n[rules]\npreset = "draw"\n',
     [], "but 'no_such_module_for_sweeps:choose' was passed: the module "
     "'no_such_module_for_sweeps' cannot be imported (ModuleNotFoundError: No module named "
     "'no_such_module_for_sweeps')."),
    ('hands = 10\nstrategies = "plugins_for_sweeps:missing"\n[rules]\npreset = "draw"\n', [],
     "but 'plugins_for_sweeps:missing' was passed: the module 'plugins_for_sweeps' has no "
     "attribute 'missing'."),
    ('hands = 10\nstrategies = "plugins_for_sweeps:not_compiled"\n[rules]\npreset = "draw"\n',
     [], "but 'plugins_for_sweeps:not_compiled' was passed: 'not_compiled' of the module "
     "'plugins_for_sweeps' is a function, not a numba @njit function"),
    ('hands = 10\nstrategies = "plugins_for_sweeps:two_arguments"\n[rules]\npreset = "draw"\n',
     [], "but 'plugins_for_sweeps:two_arguments' was passed: the compiled strategy "
     "'plugins_for_sweeps:two_arguments' must take 5 arguments"),
    ('hands = 10\nstrategies = "plugins_for_sweeps:returns_a_float"\n[rules]\npreset = "draw"\n',
     [], "must return an integer move index, but it returns float64."),
])
def test_cli_bad_input_exits_2_in_one_line_writing_nothing(tmp_path, capsys, text, argv,
                                                           message):
    (tmp_path / "sweep.toml").write_text(text)
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as caught:
        main([str(tmp_path / "sweep.toml"), "--out", str(out), *argv])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err
    assert not out.exists()


def test_cli_missing_file_exits_2(tmp_path, capsys):
    with pytest.raises(SystemExit) as caught:
        main([str(tmp_path / "nope.toml")])
    assert caught.value.code == 2
    assert "The sweep file" in capsys.readouterr().err


def test_cli_changed_sweep_exits_2_until_fresh(tmp_path, capsys):
    path, out = tmp_path / "s.toml", tmp_path / "out"
    path.write_text('hands = 300\n[rules]\npreset = "block"\n')
    assert main([str(path), "--out", str(out), "--quiet"]) == 0
    path.write_text('hands = 300\n[rules]\npreset = "block"\nplayers = 3\n')
    with pytest.raises(SystemExit) as caught:
        main([str(path), "--out", str(out), "--quiet"])
    assert caught.value.code == 2
    assert ("holds a different sweep (cells[0].rules.players: 2 there, 3 in this sweep): pass "
            "--fresh" in capsys.readouterr().err)
    assert main([str(path), "--out", str(out), "--quiet", "--fresh"]) == 0
    assert pd.read_csv(out / "summary.csv")["players"].tolist() == [3]


def test_cli_dry_run_lists_cells_and_estimate_and_writes_nothing(tmp_path, capsys):
    out = tmp_path / "out"
    assert main([str(EXAMPLES[0]), "--out", str(out), "--dry-run", "--jobs", "1"]) == 0
    text = capsys.readouterr().out
    sweep = load_sweep(EXAMPLES[0])
    assert f"{len(sweep.cells)} cells x {sweep.hands:,} hands" in text
    assert f"{len(sweep.chunks())} chunks, 0 finished, {len(sweep.chunks())} to play" in text
    for cell in sweep.cells:
        assert cell.label in text
    assert "Estimated time: " in text and " s on 1 local cores" in text
    assert not out.exists()


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_cli_example_sweep_runs_and_writes_its_results(tmp_path, path, capsys):
    out = tmp_path / "out"
    assert main([str(path), "--out", str(out)]) == 0
    sweep = load_sweep(path)
    table = pd.read_csv(out / "summary.csv")
    assert table["label"].tolist() == [c.label for c in sweep.cells]
    assert (table["hands"] == sweep.hands).all()
    assert (table["opener_wins_low"] <= table["opener_wins"]).all()
    assert pd.read_parquet(out / "summary.parquet").shape == table.shape
    assert (out / "hands").exists() == (sweep.keep == "rows")
    assert sweep.cells[0].label in capsys.readouterr().out


def test_cli_default_sweep_small_writes_results_and_report(tmp_path, capsys):
    out = tmp_path / "results"
    assert main(["--hands", "400", "--out", str(out)]) == 0
    table = pd.read_csv(out / "summary.csv")
    assert len(table) == 30 and (table["hands"] == 400).all()
    assert set(table["preset"]) == {"block", "draw", "cross", "double_nine_cross", "ivory"}
    report = (out / "report.md").read_text()
    assert report.startswith("# Sweep `block_vs_draw`")
    assert "## Block against Draw" in report and "| 4 | False | bully |" in report
    assert "30 cells of 400 hands (12,000 in all), seed 2026" in report
    printed = capsys.readouterr()
    assert "block 2p random" in printed.out and "Block against Draw" in printed.out


def test_cli_python_m_dominosim_runs_the_batch_command(tmp_path, capsys):
    path = tmp_path / "s.toml"
    path.write_text('hands = 200\n[rules]\npreset = "ivory"\n[grid]\nplayers = [2, 5]\n')
    assert dominosim_main([str(path), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    assert pd.read_csv(tmp_path / "out" / "summary.csv")["label"].tolist() == [
        "ivory 2p random", "ivory 5p random"]
    assert capsys.readouterr().out == ""
    # its help is the console command's: the subcommands, the batch command among them
    assert dominosim_main(["--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: dominosim [COMMAND]")
    assert "\n  batch " in out
