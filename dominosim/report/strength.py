"""The strength ladder: ``python -m dominosim.report.strength`` writes ``reports/strength.md``.

Every player of the ladder (:data:`PLAYERS`: ``random``, every style, ``tuned``, ``learned``,
``mc:100``, ``ismcts:1000``, ``pimc:50``, the players of issue 23 (``epimc:10+infer`` and
``best``, recorded by what it stands for, ``pimc:50+infer``) and an omniscient ceiling) is
rated in Block double-six 4p in partnership (7 tiles each) and in Draw double-six 2p on the
same duplicate deals (deals
``0 .. n - 1`` of the run seeded :data:`SEED`, each played with the sides swapped,
:func:`dominosim.compare`). The searches are too slow to play thousands of deals against everyone,
so the pairs are designed (:func:`pairs`): the fast players play each other, the searches play a
few anchors, on fewer deals the dearer they are; a deal's result for A is its mean score over the
two seatings (a win 1, a tie 1/2). Bradley-Terry log-strengths
(:func:`dominosim.simulation.duplicate.bradley_terry`) are fitted to the pairs' results, their 95%
intervals from a bootstrap over the deals of every pair; each player's decisions per second (two
or more legal moves, one thread, CPU seconds) are measured apart (:func:`speed`).

The pairs are written to ``reports/data/strength_pairs.csv`` as they finish (a run that is stopped
resumes where it was), the ratings to ``strength_ratings.csv``; :func:`render` draws the report
and its plot from them (``--render-only``).

Examples
--------
>>> [p for p in pairs("draw") if "pimc:50" in p[:2]][0]
('pimc:50', 'ismcts:1000', 200)
>>> [p for p in pairs("block") if p[0] == BEST]
[('pimc:50+infer', 'ismcts:1000', 100), ('pimc:50+infer', 'pimc:50', 100)]
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..analysis.common import mean_interval
from ..rules import Rules
from ..simulation.duplicate import bradley_terry, compare
from ..strategies.weighted import TUNED_RULES

__all__ = ["PLAYERS", "SEED", "compute_inference", "fast_speed", "main", "pairs", "ratings",
           "render", "speed", "speed_table"]

SEED = 2026
"""The seed of the ladder's deals."""
FAST = ("random", "bully", "doubles", "accompanied", "stitcher", "counter", "partner", "tuned",
        "learned")
"""The players that play each other on every deal."""
CEILING = "ismcts_omniscient:1000"
"""The ceiling: ``ismcts:1000`` that sees every hand (perfect information at its side only)."""
BEST = "pimc:50+infer"
"""What ``"best"`` stands for (:data:`~dominosim.strategies.registry.ALIASES`), under that name so
that the pairs recorded keep their meaning if the alias moves."""
EPIMC = "epimc:10+infer"
"""The search without strategy fusion (``epimc``), with inference."""
PLAYERS = (*FAST, "mc:100", "ismcts:1000", "pimc:50", EPIMC, BEST, CEILING)
"""Every player of the ladder."""
GAMES = {"block": "Block 4p partnership, 7 tiles each", "draw": "Draw 2p"}
"""The two games (:data:`~dominosim.strategies.weighted.TUNED_RULES`)."""
FAST_DEALS, SEARCH_DEALS, ISMCTS_DEALS, CEILING_DEALS = 2000, 2000, 1000, 500
"""Deals per pair: fast against fast, ``mc:100`` against its anchors (and ``learned`` against
``ismcts:1000``), ``ismcts:1000`` against its other anchors, the ceiling against its anchors."""
PIMC_DEALS = {"block": 100, "draw": 200}
"""Deals per pair of ``pimc:50`` (about a second per Block 4p hand on one core)."""
SPEED_HANDS = {"fast": 20_000, "mc:100": 400, "ismcts:1000": 200, "pimc:50": 6,
               EPIMC: 6, BEST: 6, CEILING: 200}
"""Hands played by every seat of a player to time its decisions."""
INFER_SEARCH, INFER_FIELDS, INFER_DEALS, INFER_SEED = "ismcts:300", ("bully", "ismcts:300"), 2000, 23
"""Inference alone (``--inference``): the search with and without ``+infer``, each against a
field on the same duplicate deals (the seed of ``benchmarks/bench_best.py``'s runs): ``bully``
(modelled as itself) and the same search (modelled as the learned player's softmax policy)."""


def _paired(values: np.ndarray) -> tuple[float, float, float]:
    """The mean of paired differences with its normal 95% interval."""
    mean = float(values.mean())
    low, high = mean_interval(mean, float(values.std(ddof=1)) / math.sqrt(len(values)), 0.95)
    return mean, low, high


def compute_inference(data: Path, games: list[str],
                      fields: Sequence[str] = INFER_FIELDS) -> pd.DataFrame:
    """Inference alone in each game and against each field: ``S+infer`` and ``S`` against the
    same field on the same deals, paired deal by deal; added to ``data/strength_inference.csv``
    (a game and field already there is kept, not played again).
    """
    path = data / "strength_inference.csv"
    old = pd.read_csv(path) if path.exists() else pd.DataFrame(columns=["game", "field"])
    done = set(zip(old["game"], old["field"], strict=True))
    rows = []
    for game, field in ((g, f) for f in fields for g in games if (g, f) not in done):
        rules = TUNED_RULES[game]
        t = time.perf_counter()
        runs = []
        for s in (f"{INFER_SEARCH}+infer", INFER_SEARCH):
            deals = compare(rules, s, field, n_deals=INFER_DEALS, seed=INFER_SEED,
                            keep_deals=True, n_jobs=1, progress=False).deals
            assert deals is not None  # kept: keep_deals=True
            runs.append(deals)
        win = runs[0]["win_rate_a"].to_numpy() - runs[1]["win_rate_a"].to_numpy()
        points = runs[0]["points_a"].to_numpy() - runs[1]["points_a"].to_numpy()
        rows.append({"game": game, "search": INFER_SEARCH, "field": field,
                     "deals": INFER_DEALS, "seed": INFER_SEED,
                     **dict(zip(("gain", "ci_low", "ci_high"), _paired(win), strict=True)),
                     **dict(zip(("points_gain", "points_low", "points_high"), _paired(points),
                                strict=True)),
                     "win_rate_with": float(runs[0]["win_rate_a"].mean()),
                     "win_rate_without": float(runs[1]["win_rate_a"].mean()),
                     "seconds": time.perf_counter() - t})
        print(rows[-1], flush=True)
        table = pd.concat([old, pd.DataFrame(rows)], ignore_index=True) if len(old) else \
            pd.DataFrame(rows)
        table.to_csv(path, index=False)  # after every game and field: nothing played is lost
    return pd.read_csv(path)


def _inference_section(data: Path) -> list[str]:
    """The inference table, when ``data/strength_inference.csv`` exists."""
    path = data / "strength_inference.csv"
    if not path.exists():
        return []
    t = pd.read_csv(path)
    lines = ["", "## Inference alone", "",
             f"The same search with and without inference (`{INFER_SEARCH}+infer` and "
             f"`{INFER_SEARCH}`), each against a field at every other seat on the same "
             f"{INFER_DEALS:,} duplicate deals of seed {INFER_SEED}, paired deal by deal (a deal's "
             "result: the mean over the two seatings); 95% intervals. `+infer` weighs the sampled "
             "worlds by how likely every past play of each other seat was under a model of its "
             "play (the README's \"Inference\"): against `bully` its known strategy (a line-up "
             "being public in a simulation); against a search, which cannot be replayed, the "
             "shipped learned player's softmax policy at its fitted temperature. Regenerate with "
             "`python -m dominosim.report.strength --inference`.", "",
             "| game | field | win rate with / without | gain in win rate [95% CI] | gain in "
             "points [95% CI] |", "|---|---|---|---|---|"]
    for _, r in t.iterrows():
        lines.append(f"| {GAMES[r['game']]} | `{r['field']}` | {r['win_rate_with']:.3f} / "
                     f"{r['win_rate_without']:.3f} | {r['gain']:+.3f} [{r['ci_low']:+.3f}, "
                     f"{r['ci_high']:+.3f}] | {r['points_gain']:+.3f} [{r['points_low']:+.3f}, "
                     f"{r['points_high']:+.3f}] |")
    return lines


def pairs(game: str) -> list[tuple[str, str, int]]:
    """The ladder's pairs ``(a, b, deals)`` for ``game`` (``"block"`` or ``"draw"``)."""
    found = [(a, b, FAST_DEALS) for a, b in combinations(FAST, 2)]
    found += [("mc:100", b, SEARCH_DEALS) for b in ("random", "tuned", "learned")]
    found += [("ismcts:1000", "learned", SEARCH_DEALS), ("ismcts:1000", "mc:100", ISMCTS_DEALS),
              ("ismcts:1000", "tuned", ISMCTS_DEALS), ("ismcts:1000", "random", ISMCTS_DEALS)]
    found += [("pimc:50", b, PIMC_DEALS[game]) for b in ("ismcts:1000", "learned")]
    found += [(EPIMC, "ismcts:1000", PIMC_DEALS[game])]
    found += [(BEST, b, PIMC_DEALS[game]) for b in ("ismcts:1000", "pimc:50")]
    found += [(CEILING, b, CEILING_DEALS) for b in ("ismcts:1000", "learned")]
    return found


def _pair(game: str, a: str, b: str, deals: int) -> tuple[dict, np.ndarray]:
    t0 = time.perf_counter()
    c = compare(TUNED_RULES[game], a, b, deals, SEED, keep_deals=True, progress=False)
    row = c.row("win_rate_diff")
    assert c.deals is not None  # kept: keep_deals=True
    scores = c.deals["win_rate_a"].to_numpy()
    return ({"game": game, "a": a, "b": b, "deals": deals, "score_a": float(scores.mean()),
             "edge": row.estimate, "ci_low": row.ci_low, "ci_high": row.ci_high,
             "seconds": time.perf_counter() - t0}, scores)


def ratings(game: str, scores: dict[tuple[str, str], np.ndarray], n_boot: int = 200,
            seed: int = SEED) -> pd.DataFrame:
    """Bradley-Terry ratings of ``game``'s players from each pair's per-deal scores of A, with the
    2.5% and 97.5% points of a bootstrap over every pair's deals.

    A resample in which some group of players wins (or loses) every game against the rest has no
    finite maximum-likelihood fit (:func:`~dominosim.simulation.duplicate.bradley_terry` refuses
    it): it is skipped and counted in the column ``boot_skipped``, and the points are those of the
    other resamples (NaN when none is left). The fit of the pairs as played must exist.

    >>> scores = {("tuned", "bully"): np.array([1.0] * 9 + [0.0])}  # 9 wins in 10
    >>> table = ratings("draw", scores, n_boot=20)
    >>> bool(np.isclose(table["rating"].iloc[1] - table["rating"].iloc[0], np.log(9)))
    True
    >>> int(table["boot_skipped"].iloc[0])  # the resamples of the ten deals with no loss
    5
    """
    names = sorted({p for pair in scores for p in pair}, key=PLAYERS.index)
    at = {p: i for i, p in enumerate(names)}

    def fit(resample: np.random.Generator | None) -> np.ndarray:
        wins = np.zeros((len(names), len(names)))
        for (a, b), s in scores.items():
            if resample is not None:
                s = s[resample.integers(0, len(s), len(s))]
            wins[at[a], at[b]] += s.sum()
            wins[at[b], at[a]] += (1 - s).sum()
        return bradley_terry(wins)

    theta = fit(None)
    rng = np.random.default_rng(seed)
    boot, skipped = [], 0
    for _ in range(n_boot):
        try:
            boot.append(fit(rng))
        except ValueError:  # no finite fit: a player, or a group, won or lost every game
            skipped += 1
    low, high = np.percentile(boot, [2.5, 97.5], axis=0) if boot else np.full((2, len(names)),
                                                                              np.nan)
    return pd.DataFrame({"game": game, "player": names, "rating": theta, "ci_low": low,
                         "ci_high": high, "boot_skipped": skipped})


def fast_speed(rules: Rules, player: str, hands: int) -> tuple[float, float]:
    """CPU seconds of ``hands`` hands of ``rules`` with ``player`` at every seat (one thread, after
    a warm-up that compiles or loads the kernel), and its decisions (two or more legal moves) per
    hand, counted by :func:`dominosim.decisions` on 2,000 hands.
    """
    from ..players.decisions import decisions
    from ..simulation.play import simulate

    simulate(rules, player, 100, seed=1, n_jobs=1)  # compile or load the kernel
    t0 = time.process_time()
    simulate(rules, player, hands, seed=1, n_jobs=1)
    cpu = time.process_time() - t0
    made = decisions(rules, player, 2000, seed=1).groupby(["hand", "decision"]).ngroups
    return cpu, made / 2000


def speed(game: str, player: str) -> float:
    """Decisions (two or more legal moves) per CPU second of ``player`` at every seat, one thread."""
    from ..players.decisions import decisions

    rules = TUNED_RULES[game]
    if player in FAST:
        n = SPEED_HANDS["fast"]
        cpu, per_hand = fast_speed(rules, player, n)
        return per_hand * n / cpu
    decisions(rules, player, 1, seed=2)  # compile or load the kernel
    t0 = time.process_time()
    made = decisions(rules, player, SPEED_HANDS[player], seed=1)
    cpu = time.process_time() - t0
    return made.groupby(["hand", "decision"]).ngroups / cpu


def speed_table(data: Path, games: list[str]) -> pd.DataFrame:
    """Every player's decisions per CPU second in ``games``, measured once and kept in
    ``data/strength_speed.csv`` (the players missing there are measured and added).
    """
    path = data / "strength_speed.csv"
    table = pd.read_csv(path) if path.exists() else pd.DataFrame(
        columns=["game", "player", "decisions_per_s"])
    for game in games:
        for player in PLAYERS:
            if ((table["game"] == game) & (table["player"] == player)).any():
                continue
            row = {"game": game, "player": player, "decisions_per_s": speed(game, player)}
            print(row, flush=True)
            table = pd.concat([table, pd.DataFrame([row])], ignore_index=True)
            table.to_csv(path, index=False)
    return table


def compute(data: Path, games: list[str], without: tuple[str, ...] = (),
            only: tuple[str, ...] = (), play: bool = True) -> None:
    """Play the pairs not yet in ``data/strength_pairs.csv`` (appending each as it finishes),
    fit the ratings and time the players into ``data/strength_ratings.csv``; with ``without``,
    only the pairs without those players, and with ``only`` only the pairs with one of those
    players (and no ratings in either case); with ``play=False`` no pair, the ratings of those
    played.
    """
    path = data / "strength_pairs.csv"
    scores_path = data / "strength_scores.npz"
    done = pd.read_csv(path) if path.exists() else pd.DataFrame(columns=["game", "a", "b"])
    kept = dict(np.load(scores_path)) if scores_path.exists() else {}
    rows = []
    for game in games:
        for a, b, deals in pairs(game):
            key = f"{game}|{a}|{b}"
            if a in without or b in without or (only and a not in only and b not in only) \
                    or not play:
                continue
            if ((done["game"] == game) & (done["a"] == a) & (done["b"] == b)).any() \
                    and key in kept:
                continue
            row, scores = _pair(game, a, b, deals)
            print(f"{game}: {a} - {b}, {deals} deals: {row['edge']:+.3f} "
                  f"[{row['ci_low']:+.3f}, {row['ci_high']:+.3f}] ({row['seconds']:.0f} s)",
                  flush=True)
            kept[key] = scores
            done = pd.concat([done, pd.DataFrame([row])], ignore_index=True)
            done.to_csv(path, index=False)
            np.savez(scores_path, **kept)
        if without or only:
            continue
        frame = ratings(game, {tuple(k.split("|")[1:]): v for k, v in kept.items()
                               if k.startswith(f"{game}|")})
        speeds = speed_table(data, [game])
        frame["decisions_per_s"] = frame["player"].map(
            speeds[speeds["game"] == game].set_index("player")["decisions_per_s"])
        rows.append(frame)
    if without or only:
        return
    old = data / "strength_ratings.csv"
    if old.exists():
        previous = pd.read_csv(old)
        rows.insert(0, previous[~previous["game"].isin(games)])
    pd.concat(rows, ignore_index=True).to_csv(old, index=False)


def render(data: Path, out: Path) -> None:
    """Write ``strength.md`` and its plot into ``out`` from ``data/strength_pairs.csv`` and
    ``data/strength_ratings.csv``.
    """
    import matplotlib.pyplot as plt

    pairs_table = pd.read_csv(data / "strength_pairs.csv")
    table = pd.read_csv(data / "strength_ratings.csv")
    lines = [
        "# The strength ladder",
        "",
        f"Every player in {' and '.join(GAMES.values())}, on the same duplicate deals (deals "
        f"0 to n - 1 of seed {SEED}, each played with the sides swapped; both partners of a side "
        "play the same player). Ratings are Bradley-Terry log-strengths (natural log, mean 0: a "
        "difference of d means odds of exp(d) of winning a deal's result), fitted to every pair "
        "played, with 95% intervals from a bootstrap (200 resamples) over each pair's deals. "
        "Decisions per second: decisions with two or more legal moves, every seat playing the "
        "player, one thread, CPU seconds (the hand loop included), on a machine shared with "
        "other jobs.",
        "",
        "**Pairs.** The searches cannot play thousands of deals against everyone on two cores, "
        f"so: the fast players ({', '.join(FAST)}) play each other on {FAST_DEALS:,} deals; "
        f"`mc:100` plays random, tuned and learned on {SEARCH_DEALS:,}; `ismcts:1000` plays "
        f"learned on {SEARCH_DEALS:,} and mc:100, tuned and random on {ISMCTS_DEALS:,}; "
        f"`pimc:50` plays ismcts:1000 and learned on {PIMC_DEALS['block']} deals in Block and "
        f"{PIMC_DEALS['draw']} in Draw; the ceiling `{CEILING}` (the same search seeing every "
        f"hand: perfect information at its own side) plays ismcts:1000 and learned on "
        f"{CEILING_DEALS}. The players of issue 23, searches that weigh their worlds by how likely "
        f"each seat's past plays were (`+infer`, the README's \"Inference\"): `{EPIMC}` (the "
        f"search without strategy fusion) plays ismcts:1000, and `{BEST}` (what the registry's "
        f"`\"best\"` stands for) plays ismcts:1000 and pimc:50, on as many deals as pimc:50 "
        "(the claims on 2,000 deals are in `benchmarks/README.md`). Every pair's edge is in the "
        "table under each game.",
        "",
        "Regenerate with `nice -n 10 python -m dominosim.report.strength` (it resumes from "
        "`reports/data/strength_pairs.csv`; `--render-only` redraws from the tables).",
    ]
    fig, axes = plt.subplots(1, len(GAMES), figsize=(11, 4.8))
    for ax, (game, title) in zip(np.atleast_1d(axes), GAMES.items(), strict=True):
        t = table[table["game"] == game].sort_values("rating", ascending=False)
        if t.empty:
            continue
        lines += ["", f"## {title}", "", f"![{title}](strength.png)", "",
                  "| player | rating [95% CI] | decisions per CPU s |", "|---|---|---:|"]
        for _, r in t.iterrows():
            rate = "not measured" if pd.isna(r["decisions_per_s"]) else \
                f"{r['decisions_per_s']:,.0f}"
            lines.append(f"| {r['player']} | {r['rating']:+.3f} [{r['ci_low']:+.3f}, "
                         f"{r['ci_high']:+.3f}] | {rate} |")
        p = pairs_table[pairs_table["game"] == game]
        played = set(zip(p["a"], p["b"], strict=True))
        missing = [f"{a} - {b}" for a, b, _ in pairs(game) if (a, b) not in played]
        if missing:
            lines += ["", f"Not played in this run (the machine's time ran out): "
                      f"{', '.join(missing)}; the ratings rest on the other pairs."]
        lines += ["", "| A | B | deals | A's mean score | edge A - B [95% CI] | wall s |",
                  "|---|---|---:|---:|---|---:|"]
        for _, r in p.iterrows():
            lines.append(f"| {r['a']} | {r['b']} | {int(r['deals']):,} | {r['score_a']:.3f} | "
                         f"{r['edge']:+.3f} [{r['ci_low']:+.3f}, {r['ci_high']:+.3f}] | "
                         f"{r['seconds']:.0f} |")
        t = t.dropna(subset=["decisions_per_s"])
        ax.errorbar(t["decisions_per_s"], t["rating"],
                    yerr=[t["rating"] - t["ci_low"], t["ci_high"] - t["rating"]], fmt="o")
        _label(ax, t)
        ax.set_xscale("log")
        ax.set_xlabel("decisions per CPU second (log)")
        ax.set_ylabel("Bradley-Terry rating")
        ax.set_title(title)
    fig.tight_layout()
    fig.savefig(out / "strength.png", dpi=110)
    plt.close(fig)
    lines += _inference_section(data)
    (out / "strength.md").write_text("\n".join(lines) + "\n")


def _label(ax: Any, t: pd.DataFrame) -> None:
    """Name each point, the labels moved down where two would overlap (players of close ratings
    and speeds), each joined to its point by a thin line.
    """
    ax.set_xscale("log")  # before the limits below
    gap = 0.045 * (t["ci_high"].max() - t["ci_low"].min())
    placed: list[tuple[float, float]] = []
    for _, r in t.sort_values("rating", ascending=False).iterrows():
        x, y = r["decisions_per_s"], r["rating"]
        near = [py for px, py in placed if abs(math.log10(px) - math.log10(x)) < 2.0]
        while any(abs(y - py) < 0.99 * gap for py in near):  # 0.99: a label placed exactly
            y = min(py for py in near if abs(y - py) < 0.99 * gap) - gap  # a gap below is clear
        placed.append((x, y))
        ax.annotate(r["player"], (r["decisions_per_s"], r["rating"]), xytext=(x * 1.6, y),
                    fontsize=7, va="center", arrowprops={"arrowstyle": "-", "lw": 0.4})
    lowest = min(min(y for _, y in placed), t["ci_low"].min())
    ax.set_ylim(bottom=lowest - gap)
    ax.set_xlim(right=t["decisions_per_s"].max() * 60)  # room for the labels of the fastest


def main(argv: list[str] | None = None) -> None:
    """Compute what is missing and render the report."""
    parser = argparse.ArgumentParser(prog="python -m dominosim.report.strength",
                                     description="The strength ladder.")
    parser.add_argument("--out", default="reports")
    parser.add_argument("--games", nargs="+", choices=sorted(GAMES), default=sorted(GAMES))
    parser.add_argument("--render-only", action="store_true")
    parser.add_argument("--ratings-only", action="store_true",
                        help="no new pair: the ratings of the pairs played, and the report")
    parser.add_argument("--speed-only", action="store_true",
                        help="measure the players' decisions per second only")
    parser.add_argument("--inference", action="store_true",
                        help="measure inference alone (its table), then render")
    parser.add_argument("--without", nargs="+", default=(), choices=PLAYERS,
                        help="play only the pairs without these players (no ratings, no report)")
    parser.add_argument("--only", nargs="+", default=(), choices=PLAYERS,
                        help="play only the pairs with one of these players (no ratings, no report)")
    args = parser.parse_args(argv)
    import matplotlib

    matplotlib.use("Agg")
    out = Path(args.out)
    (out / "data").mkdir(parents=True, exist_ok=True)
    if args.speed_only:
        speed_table(out / "data", args.games)
        return
    if args.inference:
        compute_inference(out / "data", args.games)
        render(out / "data", out)
        return
    if not args.render_only:
        compute(out / "data", args.games, tuple(args.without), tuple(args.only),
                play=not args.ratings_only)
    if not args.without and not args.only:
        render(out / "data", out)


if __name__ == "__main__":
    main()
