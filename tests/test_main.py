"""The README's main command: the default study writes its table and report."""

from __future__ import annotations

import pandas as pd

from dominosim.__main__ import main


def test_main_default_study_writes_table_and_report(tmp_path, capsys):
    assert main(["--hands", "300", "--seed", "5", "--out", str(tmp_path)]) == 0
    table = pd.read_csv(tmp_path / "default_summary.csv")
    assert len(table) == 12
    assert set(table["variant"]) == {"block", "draw", "cross", "ivory"}
    assert (table["hands"] == 300).all()
    assert table["P(opener wins)"].between(0, 1).all()
    report = (tmp_path / "default_report.md").read_text()
    assert "300 hands per variant" in report
    assert "block" in capsys.readouterr().out
