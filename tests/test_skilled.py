"""reports/strength_skilled.md: the share of luck under the learned player's softmax."""

from __future__ import annotations

import pandas as pd

from dominosim.report import skilled


def test_luck_table_is_computed_for_every_cell_and_rendered(tmp_path, monkeypatch):
    monkeypatch.setattr(skilled, "CELLS", [("block", 2), ("draw", 2)])
    luck = skilled.compute_luck(deals=40, positions=30)
    assert list(luck["strategy"]) == ["random", "learned (softmax)"] * 2
    assert luck["temperature"].isna().tolist() == [True, False, True, False]
    assert ((luck["share"] > -0.5) & (luck["share"] < 1.0)).all()  # replays of a deal vary
    assert (luck["ci_low"] <= luck["share"]).all() and (luck["share"] <= luck["ci_high"]).all()
    data = tmp_path / "data"
    data.mkdir()
    pd.DataFrame({"preset": ["block"], "players": [2], "strategy": ["random"], "hands": [10],
                  "advantage": [0.1], "ci_low": [0.0], "ci_high": [0.2], "stitch_ups": [1.0],
                  "stitch_low": [0.9], "stitch_high": [1.1], "blocked": [0.5]}).to_csv(
        data / "strength_skilled.csv", index=False)
    skilled.render(data, tmp_path)
    assert "share of luck under" not in (tmp_path / "strength_skilled.md").read_text()
    luck.to_csv(data / "strength_skilled_luck.csv", index=False)
    skilled.render(data, tmp_path)
    text = (tmp_path / "strength_skilled.md").read_text()
    assert "## The share of luck under the learned player" in text
    r = luck.iloc[1]
    assert (f"| block | 2 | learned (softmax) | {r['share']:.3f} [{r['ci_low']:.3f}, "
            f"{r['ci_high']:.3f}] | {r['share_points']:.3f} |") in text
    assert f"{r['temperature']:.3f} for the player fitted for block" in text


def test_softmax_cost_is_measured_and_stated(tmp_path):
    cost = skilled.compute_cost({"block": 1.3, "draw": 1.1}, deals=60)
    assert list(cost["game"]) == ["block", "draw"]
    assert ((cost["ci_low"] <= cost["edge"]) & (cost["edge"] <= cost["ci_high"])).all()
    luck = pd.DataFrame({"preset": ["draw"], "players": [2], "strategy": ["learned (softmax)"],
                         "temperature": [1.1], "deals": [10], "plays": [2], "share": [0.1],
                         "ci_low": [0.0], "ci_high": [0.2], "share_points": [0.1]})
    text = "\n".join(skilled._luck_section(luck, cost))
    r = cost.iloc[1]
    assert (f"{r['edge']:+.3f} [{r['ci_low']:+.3f}, {r['ci_high']:+.3f}] in Draw 2p" in text)
    assert "much weaker" not in "\n".join(skilled._luck_section(luck))
