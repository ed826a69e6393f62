"""The opener's advantage and stitch-ups under skilled play:
``python -m dominosim.report.skilled`` writes ``reports/strength_skilled.md``.

The sweep's reports (``opener_advantage.md``, ``stitch_ups.md``) measure these with every seat
playing ``random`` or ``bully``. Here every seat plays the built-in ``learned`` (or ``tuned``),
beside ``random`` on the same hands' seeds, :data:`HANDS` hands per cell, in Block and Draw
double-six with 2, 3 and 4 players (the presets' rules, as in the sweep: Block 4p in partnership
with 6 tiles each, every other game each seat for itself; the fitted player of the nearer game
plays, see docs/players.md).

Examples
--------
>>> [name for name, _ in CELLS][:2]
['block', 'block']
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from ..analysis import opener_advantage, outcome_rates, stitch_ups
from ..rules import Rules
from ..simulation.play import simulate

__all__ = ["CELLS", "HANDS", "STRATEGIES", "compute", "main", "render"]

CELLS = [(preset, players) for preset in ("block", "draw") for players in (2, 3, 4)]
"""The presets and player counts."""
STRATEGIES = ("random", "tuned", "learned")
"""Who plays every seat."""
HANDS, SEED = 100_000, 2026
"""Hands per cell and the run's seed."""


def compute(hands: int = HANDS) -> pd.DataFrame:
    """One row per cell and strategy: the opener's advantage, blocked hands and stitch-ups."""
    rows = []
    for preset, players in CELLS:
        rules = Rules.preset(preset, players=players)
        for strategy in STRATEGIES:
            summary = simulate(rules, strategy, hands, seed=SEED, keep="summary")
            adv = opener_advantage(summary).iloc[0]
            st = stitch_ups(summary).iloc[0]
            blocked = float(outcome_rates(summary).set_index("outcome").loc["blocked", "rate"])
            rows.append({"preset": preset, "players": players, "strategy": strategy,
                         "hands": hands, "advantage": adv["advantage"], "ci_low": adv["ci_low"],
                         "ci_high": adv["ci_high"], "stitch_ups": st["rate"],
                         "stitch_low": st["ci_low"], "stitch_high": st["ci_high"],
                         "blocked": blocked})
            print(rows[-1], flush=True)
    return pd.DataFrame(rows)


def render(data: Path, out: Path) -> None:
    """Write ``strength_skilled.md`` from ``data/strength_skilled.csv``."""
    table = pd.read_csv(data / "strength_skilled.csv")
    lines = [
        "# The opener's advantage and stitch-ups under skilled play",
        "",
        f"Every seat plays the same player: `random`, the built-in `tuned` or the built-in "
        f"`learned` (fitted players of the ladder, `reports/strength.md`); {HANDS:,} hands per "
        f"cell, seed {SEED}, the presets' rules (Block 4p in partnership with 6 tiles each, every "
        "other game each seat for itself), as in the sweep's reports `opener_advantage.md` and "
        "`stitch_ups.md`, which have the `random` and `bully` figures on 500,000 hands. The opener's advantage: the share of hands the opener's side wins "
        "less its fair share of the decided hands, with a 95% interval; stitch-ups per hand (all "
        "seats) with a 95% interval; the share of hands that end blocked. Regenerate with "
        "`python -m dominosim.report.skilled`.",
        "",
        "| game | players | every seat | hands | opener's advantage [95% CI] | stitch-ups per "
        "hand [95% CI] | blocked |",
        "|---|---:|---|---:|---|---|---:|",
    ]
    for _, r in table.iterrows():
        lines.append(f"| {r['preset']} | {r['players']} | {r['strategy']} | {int(r['hands']):,} "
                     f"| {r['advantage']:+.4f} [{r['ci_low']:+.4f}, {r['ci_high']:+.4f}] | "
                     f"{r['stitch_ups']:.3f} [{r['stitch_low']:.3f}, {r['stitch_high']:.3f}] | "
                     f"{r['blocked']:.3f} |")
    (out / "strength_skilled.md").write_text("\n".join(lines) + "\n")


def main(argv: list[str] | None = None) -> None:
    """Compute the table (unless ``--render-only``) and write the report."""
    parser = argparse.ArgumentParser(prog="python -m dominosim.report.skilled")
    parser.add_argument("--out", default="reports")
    parser.add_argument("--hands", type=int, default=HANDS)
    parser.add_argument("--render-only", action="store_true")
    args = parser.parse_args(argv)
    out = Path(args.out)
    (out / "data").mkdir(parents=True, exist_ok=True)
    if not args.render_only:
        compute(args.hands).to_csv(out / "data" / "strength_skilled.csv", index=False)
    render(out / "data", out)


if __name__ == "__main__":
    main()
