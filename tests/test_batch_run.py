"""Running sweeps locally: results equal to ``simulate``, identical reruns, resume, refusals."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import dominosim as ds
from dominosim.batch import parse_sweep, read_hands, run_sweep
from dominosim.batch.output import read_sums, summary_row
from dominosim.batch.run import Progress, tasks_of
from dominosim.batch.store import Store

SWEEP = """\
seed = 5
hands = 2_500
chunk_size = 1_000
keep = "{keep}"
strategies = ["bully", "random"]
[rules]
preset = "draw"
[grid]
players = [2, 3]
"""


def _sweep(keep: str = "summary", **changes: str):
    text = SWEEP.format(keep=keep)
    for old, new in changes.items():
        text = text.replace(old, new)
    return parse_sweep(text, source="test.toml")


def _files(root: Path) -> dict[str, bytes]:
    """Every result file (not the metadata, whose timings differ between runs)."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name not in ("metadata.json", "manifest.jsonl")}


def _manifest(root: Path) -> list[dict]:
    return [json.loads(line) for line in (root / "manifest.jsonl").read_text().splitlines()]


def test_run_sums_equal_simulate_summary_of_each_cell(tmp_path):
    sweep = _sweep()
    result = run_sweep(sweep, tmp_path / "out", quiet=True)
    assert (result.chunks_played, result.hands_played) == (6, 5_000)
    for cell in sweep.cells:
        expected = ds.simulate(cell.rules, list(cell.lineup), 2_500, seed=5, keep="summary")
        got = read_sums(tmp_path / "out", cell.index, cell.rules)
        np.testing.assert_array_equal(got.sums, expected.sums)
    assert sorted(p.name for p in (tmp_path / "out" / "sums" / "cell=1").iterdir()) == [
        "chunk-000000.parquet", "chunk-000001.parquet", "chunk-000002.parquet"]
    assert not (tmp_path / "out" / "hands").exists()


def test_run_rows_equal_simulate_rows_of_each_cell(tmp_path):
    sweep = _sweep("rows")
    run_sweep(sweep, tmp_path, quiet=True)
    for cell in sweep.cells:
        expected = ds.simulate(cell.rules, list(cell.lineup), 2_500, seed=5)
        got = read_hands(tmp_path, cells=cell.index)
        assert (got.pop("cell") == cell.index).all()
        pd.testing.assert_frame_equal(got[list(expected.columns)], expected)


def test_run_rows_and_summary_modes_give_the_same_table(tmp_path):
    rows = run_sweep(_sweep("rows"), tmp_path / "rows", quiet=True).summary
    summary = run_sweep(_sweep("summary"), tmp_path / "sums", quiet=True).summary
    pd.testing.assert_frame_equal(rows, summary)
    assert list(rows["label"]) == ["draw 2p bully/random", "draw 3p bully/random"]
    assert list(rows["lineup"]) == ["bully,random", "bully,random,bully"]


def test_summary_row_estimates_equal_direct_computation_from_rows():
    rules = ds.Rules.preset("block", players=4)
    df = ds.simulate(rules, ["bully", "random", "bully", "random"], 3_000, seed=9)
    row = summary_row(ds.Summary.from_frame(rules, df))
    side = df["winning_side"].astype(int)
    opener_side = df["opener"].astype(int) % 2
    wins = (side == opener_side).astype(float)
    tie = (side < 0).astype(float)
    per_hand = wins + tie / 2 - 1 / 2
    assert row["opener_wins"] == pytest.approx(wins.mean(), abs=1e-12)
    assert row["opener_advantage"] == pytest.approx(per_hand.mean(), abs=1e-12)
    half = 1.959963984540054 * per_hand.std(ddof=0) / np.sqrt(len(df))
    assert row["opener_advantage_high"] - row["opener_advantage"] == pytest.approx(half, rel=1e-9)
    points = df["points"].astype(float)
    gain = points * wins - points / 2
    assert row["opener_points_advantage"] == pytest.approx(gain.mean(), abs=1e-9)
    half = 1.959963984540054 * gain.std(ddof=1) / np.sqrt(len(df))
    assert row["opener_points_advantage_high"] - row["opener_points_advantage"] == pytest.approx(
        half, rel=1e-9)
    assert row["side1_wins"] == pytest.approx((side == 1).mean(), abs=1e-12)
    assert row["side0_wins_low"] < row["side0_wins"] < row["side0_wins_high"]
    assert row["stitch_ups"] == pytest.approx(df["stitch_ups"].mean(), abs=1e-12)
    assert "side2_wins" not in row


def test_run_twice_writes_identical_bytes(tmp_path):
    sweep = _sweep("rows")
    run_sweep(sweep, tmp_path / "a", quiet=True, jobs=1)
    run_sweep(sweep, tmp_path / "b", quiet=True)
    first, second = _files(tmp_path / "a"), _files(tmp_path / "b")
    assert first == second
    assert {"summary.csv", "summary.parquet", "report.md", "sweep.toml",
            "hands/cell=1/chunk-000002.parquet"} <= set(first)


def test_run_again_skips_finished_chunks_and_replays_missing_ones(tmp_path):
    sweep = _sweep()
    run_sweep(sweep, tmp_path, quiet=True)
    before = _files(tmp_path)
    again = run_sweep(sweep, tmp_path, quiet=True)
    assert (again.chunks_played, again.chunks_skipped) == (0, 6)
    (tmp_path / "sums" / "cell=1" / "chunk-000001.parquet").unlink()
    third = run_sweep(sweep, tmp_path, quiet=True)
    assert (third.chunks_played, third.hands_played) == (1, 1_000)
    assert _files(tmp_path) == before
    runs = json.loads((tmp_path / "metadata.json").read_text())["runs"]
    assert [r["chunks_played"] for r in runs] == [6, 0, 1]


def test_run_torn_manifest_line_and_corrupt_chunk_are_replayed(tmp_path):
    sweep = _sweep("rows")
    run_sweep(sweep, tmp_path, quiet=True)
    before = _files(tmp_path)
    lines = (tmp_path / "manifest.jsonl").read_text().splitlines()
    # a kill while appending the last line; a chunk file damaged on disk
    (tmp_path / "manifest.jsonl").write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:17])
    damaged = tmp_path / "hands" / "cell=0" / "chunk-000000.parquet"
    damaged.write_bytes(damaged.read_bytes()[:-1] + b"\0")
    (tmp_path / "sums" / "cell=0" / ".chunk-000001.parquet.tmp-123").write_bytes(b"half")
    result = run_sweep(sweep, tmp_path, quiet=True)
    assert (result.chunks_played, result.chunks_skipped) == (2, 4)
    assert _files(tmp_path) == before
    keys = [(e["cell"], e["chunk"]) for e in _manifest(tmp_path)]
    assert sorted(keys) == sorted(set(keys)) and len(keys) == 6


def test_run_changed_sweep_is_refused_unless_fresh(tmp_path):
    run_sweep(_sweep(), tmp_path, quiet=True)
    before = _files(tmp_path)
    changed = _sweep(**{"hands = 2_500": "hands = 3_000"})
    with pytest.raises(ValueError) as caught:
        run_sweep(changed, tmp_path, quiet=True)
    assert str(caught.value) == (
        f"The output folder {str(tmp_path)!r} holds a different sweep (hands: 2500 there, 3000 in "
        "this sweep): pass --fresh to replace its results, or choose another --out.")
    assert _files(tmp_path) == before
    result = run_sweep(changed, tmp_path, quiet=True, fresh=True)
    assert result.chunks_played == 6
    assert result.summary["hands"].tolist() == [3_000, 3_000]


def test_run_renamed_sweep_resumes_in_same_folder(tmp_path):
    run_sweep(_sweep(), tmp_path, quiet=True)
    renamed = _sweep(**{"seed = 5": 'name = "other"\nseed = 5  # same sweep'})
    assert run_sweep(renamed, tmp_path, quiet=True).chunks_played == 0


def test_run_into_foreign_folder_is_refused_even_fresh(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    for fresh in (False, True):
        with pytest.raises(ValueError, match="The value for `--out` must be a new or empty "
                           "folder, or one a sweep wrote"):
            run_sweep(_sweep(), tmp_path, quiet=True, fresh=fresh)
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_run_fresh_keeps_files_the_sweep_did_not_write(tmp_path):
    run_sweep(_sweep(), tmp_path, quiet=True)
    (tmp_path / "notes.txt").write_text("mine")
    run_sweep(_sweep(**{"seed = 5": "seed = 6"}), tmp_path, quiet=True, fresh=True)
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_progress_off_terminal_writes_log_lines(tmp_path):
    stream = io.StringIO()
    run_sweep(_sweep(), tmp_path, stream=stream)
    lines = stream.getvalue().splitlines()
    assert lines[0].startswith("dominosim.batch: sweep 'test': 2 cells, 6 chunks (0 finished "
                               "earlier), 5,000 hands, into ")
    assert lines[1].startswith("dominosim.batch: loading the compiled engine")
    assert lines[2].startswith("dominosim.batch: cells 2/2, chunks 6/6, 5,000/5,000 hands, ")
    assert "hands/s" in lines[2] and len(lines) == 4
    assert lines[-1].endswith("report.md")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_on_terminal_shows_bar_with_cells_chunks_and_rate():
    sweep = _sweep()
    stream = _Terminal()
    progress = Progress(sweep, done={(0, 0)}, stream=stream)
    for task in tasks_of(sweep, done={(0, 0)}):
        progress.update(task)
    progress.close()
    text = stream.getvalue()
    assert "cells 2/2, chunks 6/6" in text and "hand/s" in text and "5.00k/5.00k" in text
    assert "dominosim.batch:" not in text


def test_progress_quiet_writes_nothing(tmp_path):
    stream = _Terminal()
    run_sweep(_sweep(), tmp_path, stream=stream, quiet=True)
    assert stream.getvalue() == ""


def test_run_into_folder_held_by_running_sweep_is_refused(tmp_path):
    other = Store(tmp_path)
    other.prepare(fresh=False)  # as a sweep still running into the folder
    with pytest.raises(ValueError, match="is in use by another sweep that is still running"):
        run_sweep(_sweep(), tmp_path, quiet=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == [".lock", "manifest.jsonl"]
    other.release()
    assert run_sweep(_sweep(), tmp_path, quiet=True).chunks_played == 6


def test_run_killed_before_metadata_starts_afresh(tmp_path):
    (tmp_path / ".lock").write_text("")
    (tmp_path / "manifest.jsonl").write_text('{"cell": 0, "ch')
    result = run_sweep(_sweep(), tmp_path, quiet=True)
    assert (result.chunks_played, result.chunks_skipped) == (6, 0)
