"""The opener's advantage, stitch-ups and the share of luck under skilled play:
``python -m dominosim.report.skilled`` writes ``reports/strength_skilled.md``.

The sweep's reports (``opener_advantage.md``, ``stitch_ups.md``) measure these with every seat
playing ``random`` or ``bully``. Here every seat plays the built-in ``learned`` (or ``tuned``),
beside ``random`` on the same hands' seeds, :data:`HANDS` hands per cell, in Block and Draw
double-six with 2, 3 and 4 players (the presets' rules, as in the sweep: Block 4p in partnership
with 6 tiles each, every other game each seat for itself; the fitted player of the nearer game
plays, see docs/players.md).

The share of luck (:func:`~dominosim.analysis.luck_share`: the share of a side's result's variance
that the deal explains, every deal played :data:`PLAYS` times with fresh strategy streams) needs a
player whose choices can vary, so here the learned player draws its moves by a softmax of its
scores (:func:`~dominosim.strategies.weighted.best_move`) at the temperature that best predicts
its teacher's choices (:func:`~dominosim.players.learn.own_play_temperature`, fitted on
:data:`TEMPERATURE_POSITIONS` decisions of its own play in each of the two games it was fitted
for), beside ``random`` on the same deals, :data:`LUCK_DEALS` deals per cell, in the games of the
Block-against-Draw report (``block_vs_draw.md``: each seat for itself).

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

__all__ = ["CELLS", "HANDS", "STRATEGIES", "compute", "compute_cost", "compute_luck",
           "learned_temperatures", "main", "render"]

CELLS = [(preset, players) for preset in ("block", "draw") for players in (2, 3, 4)]
"""The presets and player counts."""
STRATEGIES = ("random", "tuned", "learned")
"""Who plays every seat."""
HANDS, SEED = 100_000, 2026
"""Hands per cell and the run's seed."""
LUCK_DEALS, PLAYS, TEMPERATURE_POSITIONS = 100_000, 2, 5_000
"""Deals per cell and plays of each for the share of luck; decisions the temperature is fitted on."""


def learned_temperatures(positions: int = TEMPERATURE_POSITIONS) -> dict[str, float]:
    """The shipped learned players' softmax temperatures, by game (``"block"``, ``"draw"``)."""
    from ..players.learn import own_play_temperature
    from ..strategies.weighted import TUNED_RULES, shipped

    return {game: own_play_temperature(shipped(game, "learned"), "solve", positions, SEED)
            for game in TUNED_RULES}


def compute_luck(deals: int = LUCK_DEALS, positions: int = TEMPERATURE_POSITIONS) -> pd.DataFrame:
    """One row per cell and player: the share of luck of the score and of the points."""
    from ..analysis import luck_share
    from ..simulation.experiments import deal_replays
    from ..strategies.weighted import Weighted, nearest_tuned, tuned_player

    temperatures = learned_temperatures(positions)
    rows = []
    for preset, players in CELLS:
        rules = Rules.preset(preset, players=players, partnerships=False)
        t = temperatures[nearest_tuned(rules)]
        soft = Weighted(rules, tuned_player(rules, "learned").weights, temperature=t,
                        name=f"learned at {t:.3f}")
        for name, player in (("random", "random"), ("learned (softmax)", soft)):
            replays = deal_replays(rules, [[player] * players], deals, SEED, plays=PLAYS,
                                   progress=False)
            luck = luck_share(replays).iloc[0]
            rows.append({"preset": preset, "players": players, "strategy": name,
                         "temperature": float("nan") if player == "random" else t, "deals": deals,
                         "plays": PLAYS, "share": luck["share"], "ci_low": luck["ci_low"],
                         "ci_high": luck["ci_high"],
                         "share_points": luck_share(replays, outcome="points").loc[0, "share"]})
            print(rows[-1], flush=True)
    return pd.DataFrame(rows)


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
    luck_file, cost_file = data / "strength_skilled_luck.csv", data / "strength_skilled_cost.csv"
    if luck_file.exists():
        lines += _luck_section(pd.read_csv(luck_file),
                               pd.read_csv(cost_file) if cost_file.exists() else None)
    (out / "strength_skilled.md").write_text("\n".join(lines) + "\n")


COST_DEALS = 2_000
"""Duplicate deals of the softmax player against the deterministic one, in each fitted game."""


def compute_cost(temperatures: dict[str, float], deals: int = COST_DEALS) -> pd.DataFrame:
    """What the softmax costs: the learned player at its temperature against itself at 0, on
    duplicate deals of each game it was fitted for.
    """
    from ..simulation.duplicate import compare
    from ..strategies.weighted import TUNED_RULES, shipped

    rows = []
    for game, rules in TUNED_RULES.items():
        player = shipped(game, "learned")
        row = compare(rules, player.with_temperature(temperatures[game]), player, deals,
                      seed=SEED, progress=False).row("win_rate_diff")
        rows.append({"game": game, "temperature": temperatures[game], "deals": deals,
                     "edge": row.estimate, "ci_low": row.ci_low, "ci_high": row.ci_high})
    return pd.DataFrame(rows)


def _luck_section(luck: pd.DataFrame, cost: pd.DataFrame | None = None) -> list[str]:
    """The share-of-luck table, under ``random`` and the learned player's softmax."""
    temps = luck.dropna(subset=["temperature"]).groupby("preset")["temperature"].first()
    lines = [
        "",
        "## The share of luck under the learned player",
        "",
        f"The share of a side's result's variance that the deal explains (`ds.analysis.luck_share`"
        f": every deal played {int(luck['plays'].iloc[0])} times with fresh strategy streams, a "
        f"random-effects analysis of variance, jackknife 95% interval), on "
        f"{int(luck['deals'].iloc[0]):,} deals per cell, seed {SEED}, each seat for itself as in "
        "`block_vs_draw.md`. The built-in `learned` is deterministic, so every replay of a deal "
        "would end alike (a share of 1 by construction); here it draws its moves by a softmax of "
        "its scores at the temperature that best predicts its teacher's (the solver's) choices on "
        f"{TEMPERATURE_POSITIONS:,} decisions of its own play: "
        + ", ".join(f"{t:.3f} for the player fitted for {game}" for game, t in temps.items())
        + " (`python -m dominosim.players.fit temperature`). The value of information of "
        "`block_vs_draw.md` compares a search with its omniscient twin and has no learned "
        "counterpart, so it is not repeated here.",
        "",
    ]
    if cost is not None:
        names = {"block": "Block 4p in partnership (7 tiles each)", "draw": "Draw 2p"}
        lines += [
            "At these temperatures the learned scores predict the solver's choice only loosely, "
            "so the softmax player is much weaker than the deterministic one: on "
            f"{int(cost['deals'].iloc[0]):,} duplicate deals of seed {SEED}, its win rate less "
            "the deterministic player's is "
            + "; ".join(f"{r['edge']:+.3f} [{r['ci_low']:+.3f}, {r['ci_high']:+.3f}] in "
                        f"{names[r['game']]}" for _, r in cost.iterrows())
            + ". The shares below are of play at that level.",
            "",
        ]
    lines += [
        "| game | players | every seat | share of luck, score [95% CI] | share of luck, points |",
        "|---|---:|---|---|---:|",
    ]
    for _, r in luck.iterrows():
        lines.append(f"| {r['preset']} | {r['players']} | {r['strategy']} | {r['share']:.3f} "
                     f"[{r['ci_low']:.3f}, {r['ci_high']:.3f}] | {r['share_points']:.3f} |")
    return lines


def main(argv: list[str] | None = None) -> None:
    """Compute the table (unless ``--render-only``) and write the report."""
    parser = argparse.ArgumentParser(prog="python -m dominosim.report.skilled")
    parser.add_argument("--out", default="reports")
    parser.add_argument("--hands", type=int, default=HANDS)
    parser.add_argument("--luck-deals", type=int, default=LUCK_DEALS)
    parser.add_argument("--render-only", action="store_true")
    parser.add_argument("--only", choices=("advantage", "luck", "cost"),
                        help="compute one table")
    args = parser.parse_args(argv)
    out = Path(args.out)
    (out / "data").mkdir(parents=True, exist_ok=True)
    if not args.render_only and args.only in (None, "advantage"):
        compute(args.hands).to_csv(out / "data" / "strength_skilled.csv", index=False)
    if not args.render_only and args.only in (None, "luck"):
        compute_luck(args.luck_deals).to_csv(out / "data" / "strength_skilled_luck.csv",
                                             index=False)
    if not args.render_only and args.only in (None, "luck", "cost"):
        luck = pd.read_csv(out / "data" / "strength_skilled_luck.csv")
        temps = luck.dropna(subset=["temperature"]).groupby("preset")["temperature"].first()
        compute_cost(temps.to_dict()).to_csv(out / "data" / "strength_skilled_cost.csv",
                                             index=False)
    render(out / "data", out)


if __name__ == "__main__":
    main()
