"""The Markdown report of a sweep: what was played, the Block-against-Draw comparison when the
sweep holds both games, and every cell's estimates with their intervals.

The report is built from the summary table alone (no timings), so two runs write the same report.

Examples
--------
>>> import pandas as pd
>>> print(markdown_table(pd.DataFrame({"a": [1, 2], "b": ["x", "y"]})))
| a | b |
|---:|---|
| 1 | x |
| 2 | y |
"""

from __future__ import annotations

import math

import pandas as pd

from .output import Z95
from .sweep import Sweep


def markdown_table(frame: pd.DataFrame) -> str:
    """A DataFrame as a Markdown table (numbers right-aligned)."""
    align = ["---:" if pd.api.types.is_numeric_dtype(frame[c]) else "---" for c in frame.columns]
    lines = ["| " + " | ".join(map(str, frame.columns)) + " |", "|" + "|".join(align) + "|"]
    for row in frame.itertuples(index=False):
        lines.append("| " + " | ".join(map(str, row)) + " |")
    return "\n".join(lines)


def _ci(value: float, low: float, high: float, digits: int = 3) -> str:
    return f"{value:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def cells_table(table: pd.DataFrame) -> pd.DataFrame:
    """The report's table of every cell, formatted."""
    return pd.DataFrame({
        "cell": table["cell"],
        "rules, players, line-up": table["label"],
        "hands": table["hands"].map("{:,}".format),
        "opener's side wins [95% CI]": [
            _ci(r.opener_wins, r.opener_wins_low, r.opener_wins_high) for r in table.itertuples()],
        "advantage [95% CI]": [
            f"{r.opener_advantage:+.3f} [{r.opener_advantage_low:+.3f}, "
            f"{r.opener_advantage_high:+.3f}]" for r in table.itertuples()],
        "blocked": [_ci(r.blocked, r.blocked_low, r.blocked_high) for r in table.itertuples()],
        "ties": table["ties"].map("{:.3f}".format),
        "points/hand": [_ci(r.points, r.points_low, r.points_high, 2) for r in table.itertuples()],
        "stitch-ups/hand": table["stitch_ups"].map("{:.3f}".format),
        "plays/hand": table["plays"].map("{:.2f}".format),
    })


def _diff(a: pd.Series, b: pd.Series, name: str, n_a: int, n_b: int) -> str:
    """``b - a`` for two independent proportions, with a normal 95% interval."""
    d = b[name] - a[name]
    se = math.sqrt(a[name] * (1 - a[name]) / n_a + b[name] * (1 - b[name]) / n_b)
    return f"{d:+.3f} [{d - Z95 * se:+.3f}, {d + Z95 * se:+.3f}]"


def block_vs_draw(table: pd.DataFrame) -> pd.DataFrame | None:
    """Block and Draw side by side for every setting in which the sweep plays both, or None."""
    if not {"block", "draw"} <= set(table["preset"]):
        return None
    keys = ["players", "partnerships", "strategies"]
    other = [c for c in table.columns[table.columns.get_loc("lineup") + 1:
                                      table.columns.get_loc("hands")]]
    keys += [c for c in other if c != "preset"]
    rows = []
    for values, group in table.groupby(keys, sort=False):
        by = group.set_index("preset")
        if "block" not in by.index or "draw" not in by.index:
            continue
        b, d = by.loc["block"], by.loc["draw"]
        rows.append({**dict(zip(keys, values if isinstance(values, tuple) else (values,),
                                strict=True)),
                     "opener's side wins, Block": f"{b.opener_wins:.3f}",
                     "opener's side wins, Draw": f"{d.opener_wins:.3f}",
                     "Draw - Block [95% CI]": _diff(b, d, "opener_wins", b.hands, d.hands),
                     "blocked, Block": f"{b.blocked:.3f}",
                     "blocked, Draw": f"{d.blocked:.3f}",
                     "points/hand, Block": f"{b.points:.2f}",
                     "points/hand, Draw": f"{d.points:.2f}"})
    return pd.DataFrame(rows) if rows else None


def render(sweep: Sweep, table: pd.DataFrame) -> str:
    """The whole report."""
    parts = [f"# Sweep `{sweep.name}`", ""]
    if sweep.description:
        parts += [sweep.description, ""]
    files = "`sums/` (one row of sums per chunk)"
    if sweep.keep == "rows":
        files = "`hands/` (one row per hand), " + files
    parts += [f"{len(sweep.cells)} cells of {sweep.hands:,} hands ({sweep.total_hands:,} in all), "
              f"seed {sweep.seed}, on the compiled engine. Files beside this report: {files}, "
              "partitioned by cell; `summary.parquet` and `summary.csv` (one row per cell, every "
              "estimate with its interval); `metadata.json` (the sweep, each cell's rules, "
              "versions and timings).", ""]
    compared = block_vs_draw(table)
    if compared is not None:
        parts += ["## Block against Draw", "",
                  "Like with like: the same set, players, partnerships and line-up, with drawing "
                  "(Draw) and without (Block); the presets' hand sizes differ as the seeds say. The "
                  "opener is the seat that led: its side's share of the hands won in each game, and "
                  "the difference with a 95% interval (normal approximation, the two games' hands "
                  "independent).", "",
                  markdown_table(compared), ""]
    parts += ["## Every cell", "",
              "Shares of hands with 95% Wilson intervals; means per hand with 95% normal "
              "intervals. A tie (a blocked hand whose fewest pips are shared) counts for no side. "
              "The advantage is the opener's side's share less a fair share of the decided hands, "
              "(1 - ties) / sides, as docs/rules.md defines it.", "", markdown_table(cells_table(table)), ""]
    return "\n".join(parts)
