"""python -m dominosim.report: the committed reports are what the command renders, and its numbers
are the sweep's."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from dominosim import report
from dominosim.batch import parse_sweep, run_sweep

REPORTS = Path(__file__).parent.parent / "reports"


def test_report_committed_markdown_is_what_render_only_writes(tmp_path):
    copy = tmp_path / "reports"
    shutil.copytree(REPORTS, copy)
    for md in copy.glob("*.md"):
        md.unlink()
    report.main(["--out", str(copy), "--render-only"])
    for md in sorted(REPORTS.glob("*.md")):
        assert (copy / md.name).read_text() == md.read_text(), md.name
    for png in REPORTS.glob("*.png"):
        assert (copy / png.name).stat().st_size > 10_000


def test_report_sweep_numbers_are_the_sweeps_estimates(tmp_path):
    sweep = parse_sweep('hands = 3000\nseed = 4\n[rules]\npreset = "block"\n'
                        '[grid]\nplayers = [2, 3]\nstrategies = [["random"], ["bully"]]\n')
    run_sweep(sweep, tmp_path / "sweep", quiet=True)
    report.main(["--sweep", str(tmp_path / "sweep"), "--out", str(tmp_path / "r"), "--only",
                 "sweep"])
    summary = pd.read_csv(tmp_path / "sweep" / "summary.csv")
    text = (tmp_path / "r" / "opener_advantage.md").read_text()
    assert len(summary) == 4
    for row in summary.itertuples():
        assert f"{row.opener_advantage:+.4f} [{row.opener_advantage_low:+.4f}" in text
    stitches = (tmp_path / "r" / "stitch_ups.md").read_text()
    assert all(f"{x:.3f}" in stitches for x in summary["stitch_ups"])


def test_report_missing_sweep_is_refused_with_exit_code_2(tmp_path):
    done = subprocess.run([sys.executable, "-m", "dominosim.report", "--sweep",
                           str(tmp_path / "nothing"), "--out", str(tmp_path / "r"), "--only",
                           "sweep"], capture_output=True, text=True)
    assert done.returncode == 2
    assert "The value for `--sweep` must be the output folder of a finished sweep" in done.stderr


@pytest.mark.parametrize("part", ["block_vs_draw", "strategies"])
def test_report_quick_parts_run_end_to_end(tmp_path, part):
    written = report.main(["--out", str(tmp_path), "--quick", "--only", part])
    names = {p.name for p in written}
    assert f"{part}.md" in names and any(n.endswith(".png") for n in names)
    text = (tmp_path / f"{part}.md").read_text()
    if part == "block_vs_draw":  # the perfect-information ceiling, each game with its deals
        ceiling = pd.read_csv(tmp_path / "data" / "block_vs_draw_ceiling.csv")
        assert len(ceiling) == 6 and (ceiling["deals"] >= 10).all()
        assert (ceiling["sides"] == "max_n").all()
        assert "## The perfect-information ceiling" in text and "every seat `pimc:2`" in text
    else:  # pimc among the search strategies
        pimc = pd.read_csv(tmp_path / "data" / "search_pimc.csv")
        assert set(pimc["b"]) == {"random", "ismcts:1000"}
        assert "| pimc:2 | ismcts:1000 |" in text


def test_report_ceiling_recomputes_only_the_games_of_many_sides(tmp_path):
    copy = tmp_path / "reports"
    shutil.copytree(REPORTS, copy)
    before = pd.read_csv(REPORTS / "data" / "block_vs_draw_ceiling.csv")
    report.main(["--out", str(copy), "--quick", "--only", "ceiling", "--ceiling-many-sides"])
    after = pd.read_csv(copy / "data" / "block_vs_draw_ceiling.csv")
    assert after[["game", "players"]].equals(before[["game", "players"]])
    many = (after["players"] == 3) | ((after["game"] == "draw") & (after["players"] == 4))
    numbers = [c for c in before.columns if c not in ("game", "players", "strategy", "sides")]
    assert after.loc[~many, numbers].equals(before.loc[~many, numbers])  # two sides: kept
    assert (after.loc[many, "strategy"] == "pimc:2").all() and (after["sides"] == "max_n").all()
    assert "every side plays for itself" in (copy / "block_vs_draw.md").read_text()
