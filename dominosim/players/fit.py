"""Rebuild the shipped players: ``python -m dominosim.players.fit tuned`` (or ``learned``).

The built-in ``"tuned"`` strategy plays with two weighted players shipped as package data
(``dominosim/strategies/fitted/``): one fitted for Block double-six 4p in partnership with 7 tiles
each, one for Draw double-six 2p (:data:`~dominosim.strategies.weighted.TUNED_RULES`). This
command fits both with :func:`~dominosim.players.tune.tune` against every built-in style
(:data:`AGAINST`), with the budget and seed written below unless told otherwise, and writes them
where the package reads them (or to ``--out``). The same command, seed and budget give the same
files' weights. ``learned`` fits the two games' learned players with
:func:`~dominosim.players.learn.learn` (teacher, positions per round, rounds and seed below) and
writes ``learned_block.npz`` and ``learned_draw.npz`` (``--model mlp --hidden 32``: a small MLP
instead of the linear model, :func:`~dominosim.players.learn.learn`'s ``model``). ``temperature`` plays ``--positions``
decisions with the shipped learned player at every seat, labels them with ``--teacher`` and
prints the temperature at which the player's softmax best predicts the teacher's choices
(:func:`~dominosim.players.learn.own_play_temperature`; the player to use is
``ds.tuned_player(rules, "learned").with_temperature(T)``); it writes nothing.

Examples
--------
>>> parser().parse_args(["tuned", "--budget", "5000"]).budget
5000
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..strategies.weighted import FITTED, SHIPPED, TUNED_RULES, shipped, shipped_file
from .learn import MODELS, learn, own_play_temperature
from .tune import tune

AGAINST = ("bully", "doubles", "accompanied", "stitcher", "counter", "partner")
"""The opponents the shipped ``tuned`` players are fitted against: every built-in style."""
BUDGET, DEALS, SEED = 4_000_000, 500, 2026
"""The shipped players' budget (duplicate deals in all), deals per candidate and opponent, seed."""
TEACHER, POSITIONS, ROUNDS = "solve", 20_000, 4
"""The shipped ``learned`` players' teacher, decisions labelled per round and most rounds."""


def parser() -> argparse.ArgumentParser:
    """The command's arguments."""
    p = argparse.ArgumentParser(prog="python -m dominosim.players.fit",
                                description="Fit the players dominosim ships.")
    p.add_argument("which", choices=(*SHIPPED, "temperature"),
                   help="the built-in player to fit, or the learned player's softmax temperature")
    p.add_argument("--budget", type=int, default=BUDGET, help="tuned: duplicate deals per game")
    p.add_argument("--deals", type=int, default=DEALS,
                   help="tuned: deals per candidate and opponent")
    p.add_argument("--teacher", default=TEACHER, help="learned: the teacher")
    p.add_argument("--positions", type=int, default=POSITIONS,
                   help="learned: decisions labelled per round")
    p.add_argument("--rounds", type=int, default=ROUNDS, help="learned: the most rounds")
    p.add_argument("--model", choices=MODELS, default="linear",
                   help="learned: a weighted sum of the features, or a small MLP of them")
    p.add_argument("--hidden", type=int, default=32, help="learned: the MLP's hidden units")
    p.add_argument("--seed", type=int, default=SEED)
    p.add_argument("--out", type=Path, default=FITTED, help="where to write the players")
    p.add_argument("--games", nargs="+", choices=sorted(TUNED_RULES), default=sorted(TUNED_RULES))
    return p


def main(argv: list[str] | None = None) -> int:
    """Fit and write the players; print each one's weights and results."""
    args = parser().parse_args(argv)
    for game in args.games:
        if args.which == "temperature":
            temperature = own_play_temperature(shipped(game, "learned"), args.teacher,
                                               args.positions, args.seed)
            print(f"{game}: the shipped learned player's softmax temperature, fitted to "
                  f"{args.teacher}'s choices on {args.positions:,} decisions of its own play "
                  f"(seed {args.seed}): {temperature:.4f}", flush=True)
            continue
        if args.which == "learned":
            fit = learn(TUNED_RULES[game], args.teacher, positions=args.positions,
                        rounds=args.rounds, model=args.model, hidden=args.hidden,
                        seed=args.seed, progress=sys.stderr.isatty())
            path = fit.player.save(shipped_file("learned", game, args.out))
            print(f"{game}: {TUNED_RULES[game]!r} -> {path} ({fit.seconds:.0f} s)")
            print(fit.weights[fit.weights != 0].round(3).to_string())
            print(fit.rounds.to_string(index=False), flush=True)
            continue
        result = tune(TUNED_RULES[game], list(AGAINST), budget=args.budget, deals=args.deals,
                      seed=args.seed, name="tuned", progress=sys.stderr.isatty())
        path = result.player.save(shipped_file("tuned", game, args.out))
        print(f"{game}: {TUNED_RULES[game]!r} -> {path} ({result.seconds:.0f} s, "
              f"{len(result.history)} generations)")
        print(result.intervals.round(3).to_string())
        print(result.results.to_string(index=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
