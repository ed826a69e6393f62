"""The built-in ``learned`` player: its speed in the compiled kernel and its strength (issue 22).

``python benchmarks/bench_learn.py speed`` (``--hands``, default 100,000): for the two games the
shipped players were fitted for (Block double-six 4p in partnership with 7 tiles each, Draw
double-six 2p), CPU seconds of a block of hands with every seat playing ``learned`` on one thread
(after a warm-up that compiles or loads the kernel), and the decisions of two or more legal moves
per hand (``ds.decisions`` on 2,000 hands), so decisions per CPU second, the hand loop included.

``python benchmarks/bench_learn.py strength`` (``--against ismcts:1000``, ``--deals 2000``,
``--seed 2026``, ``--games block draw``): ``ds.compare`` of ``learned`` with ``--against`` on
duplicate deals, the paired win-rate difference (learned minus the other) with its 95% interval,
one Markdown row per game; run it with ``nice -n 10`` on a shared machine.

``--player`` (default ``learned``) names the player ``speed`` and ``strength`` measure: a name, or a
player file per game with ``{game}`` in its path (``file:players/mlp_{game}.npz``: ``block`` and
``draw``).

``python benchmarks/bench_learn.py compile`` (``--player``, ``--games``): CPU seconds of the first
``ds.simulate`` of 10 hands with the player at seat 0 and ``bully`` at the others, which compiles
the hand kernel when the cache is empty: run it right after ``python -m dominosim cache --clear``,
in a fresh process, one game at a time (the second game reuses the first one's compiled helpers).

``python benchmarks/bench_learn.py mlp`` (``--games``, ``--positions 20000``, ``--rounds 1``,
``--label-seed 77``, ``--start learned``, ``--target value``, ``--hidden 32``, and ``--against``,
``--deals``, ``--seed`` as for ``strength``): the small MLP's trials of issue 22. Round ``r``
labels ``--positions`` decisions (the ``solve`` teacher, label seed ``--label-seed + r``) of hands
played by ``--start`` (round 0) or by the previous round's MLP at every seat, fits an MLP of
``--hidden`` units on every round's labels so far and prints it against ``--against`` on
``--deals`` duplicate deals of ``--seed``. ``--target``: ``value`` (win + points, as
``ds.learn(model="mlp")`` fits, ``fit_mlp``), ``win`` (the win value alone), ``best``
(scikit-learn's ``MLPClassifier`` of "the move is among the solver's best", over the decisions
whose moves' values differ) or ``imitate`` (no solver: ``ds.decisions`` of ``--positions``
hands played by ``--start`` at every seat, an ``MLPClassifier`` of the move the seat chose).
``--save DIR`` writes each round's player.

``python benchmarks/bench_learn.py dagger`` (``--games``, ``--positions`` hands a round, ``--rounds``,
``--label-seed``, ``--hidden``, ``--teacher ismcts:1000``, and ``--against``, ``--deals``,
``--seed``): imitation with the learner in the loop (DAgger). Round 0 is the teacher's own play
(``ds.decisions`` of ``--positions`` hands, label seed ``--label-seed``), as ``mlp --target
imitate``; round ``r >= 1`` plays ``--positions`` hands (label seed ``--label-seed + r``) with the
previous round's MLP at every seat in the reference engine and asks the teacher, at every decision
the MLP meets, which move it would make there. Each round fits an ``MLPClassifier`` of ``--hidden``
units to every round's labels so far and prints it against ``--against``. ``--save DIR`` writes
each round's player.

``python benchmarks/bench_learn.py agree`` (``--games``, ``--positions 500`` hands, ``--label-seed``,
``--teacher``, ``--players``): how often players pick the teacher's move. The teacher plays
``--positions`` hands at every seat in the reference engine; at every decision of two or more
moves it is asked again with another random stream (its agreement with itself: how noisy its
choice is), and each of ``--players`` (names, or player files with ``{game}`` in
the path) is asked too; the table gives each share of decisions on which the move equals the one
the teacher played.

``python benchmarks/bench_learn.py learn`` (``--games``, ``--teacher``, ``--positions`` decisions a
round, ``--rounds``, ``--start``, ``--hidden`` (0: the linear model), ``--label-seed`` as
``ds.learn``'s seed, ``--save DIR``, and ``--against``, ``--deals``, ``--seed``): ``ds.learn`` as a
user runs it (``--teacher imitate:ismcts:1000`` for imitation; each round measured against
``tuned`` on 2,000 duplicate deals, its default), its rounds, wall and CPU seconds, then the
player it returns against ``--against`` on ``--deals`` duplicate deals of ``--seed``.

``python benchmarks/bench_learn.py models`` (``--positions 20000``, ``--games draw``): one round's
labels (the ``solve`` teacher on the decisions of ``tuned``'s hands, seed 77) fitted three ways
(the ridge regression of ``ds.learn``; a logistic regression of "the move is among the teacher's
best" on the centred features, over the decisions whose moves' values differ; the ridge regression
of the win value alone), each player against ``tuned`` on 2,000 duplicate deals (seed 99).
"""

from __future__ import annotations

import argparse
import time

import dominosim as ds
from dominosim.report.strength import GAMES, fast_speed
from dominosim.strategies.weighted import TUNED_RULES

NAMES = GAMES


def speed(hands: int, player: str, games: list[str]) -> None:
    """Print each game's decisions per CPU second of ``player`` at every seat."""
    print("| game | player | hands | CPU s (one thread) | decisions per hand | decisions per CPU s |")
    print("|---|---|---:|---:|---:|---:|")
    for game in games:
        who = player.format(game=game)
        cpu, per_hand = fast_speed(TUNED_RULES[game], who, hands)  # as the ladder measures
        print(f"| {NAMES[game]} | {who} | {hands:,} | {cpu:.2f} | {per_hand:.2f} | "
              f"{per_hand * hands / cpu:,.0f} |", flush=True)


def compile_time(player: str, games: list[str]) -> None:
    """Print the CPU seconds of the first block of hands with ``player`` in each game."""
    for game in games:
        who = player.format(game=game)
        rules = TUNED_RULES[game]
        t0 = time.process_time()
        ds.simulate(rules, [who] + ["bully"] * (rules.players - 1), 10, seed=1, n_jobs=1)
        print(f"| {NAMES[game]} | {who} | {time.process_time() - t0:.1f} CPU s |", flush=True)


def strength(player: str, against: str, deals: int, seed: int, games: list[str]) -> None:
    """Print ``player`` against ``against`` in each game."""
    print("| game | A | B | deals | edge A - B [95% CI] | wall s |")
    print("|---|---|---|---:|---|---:|")
    for game in games:
        who = player.format(game=game)
        t0 = time.perf_counter()
        row = ds.compare(TUNED_RULES[game], who, against, deals, seed,
                         progress=False).row("win_rate_diff")
        print(f"| {NAMES[game]} | {who} | {against} | {deals:,} | {row.estimate:+.3f} "
              f"[{row.ci_low:+.3f}, {row.ci_high:+.3f}] | {time.perf_counter() - t0:.0f} |",
              flush=True)


def models(positions: int, games: list[str]) -> None:
    """Print the three linear models' edges against ``tuned``."""
    from sklearn.linear_model import LogisticRegression

    from dominosim.players.learn import centred, fit_weights, label_positions
    from dominosim.players.tune import full_vector
    from dominosim.strategies.features import FEATURE_NAMES

    print("| game | model | edge against tuned [95% CI] |")
    print("|---|---|---|")
    for game in games:
        rules = TUNED_RULES[game]
        data = label_positions(rules, "tuned", "solve", positions, 77, 2, lambda k: None)
        data.insert(0, "round", 0)
        x, _ = centred(rules, data)
        groups = data.groupby(["round", "decision"])
        top = groups["target"].transform("max")
        best = (data["target"] == top).to_numpy().astype(int)
        differ = (top - groups["target"].transform("min")).to_numpy() > 1e-9
        spread = x.std(axis=0)
        spread[spread == 0] = 1.0
        logit = LogisticRegression(fit_intercept=False, max_iter=1000).fit(
            x[differ] / spread, best[differ])
        logistic = full_vector(rules, logit.coef_[0] / spread)
        wins = data.assign(target=data["win"])
        fits = {"ridge on win + points (ds.learn)": fit_weights(rules, data),
                "logistic on the teacher's best": logistic,
                "ridge on win alone": fit_weights(rules, wins)}
        for model, w in fits.items():
            player = ds.Weighted(rules, dict(zip(FEATURE_NAMES, w, strict=True)), name=model)
            row = ds.compare(rules, player, "tuned", 2_000, 99, progress=False).row(
                "win_rate_diff")
            print(f"| {NAMES[game]} | {model} | {row.estimate:+.3f} [{row.ci_low:+.3f}, "
                  f"{row.ci_high:+.3f}] |", flush=True)


def _classify(rules, data, label, hidden, name):
    """An MLPClassifier of ``label`` (0/1 per move) on the standardised features."""
    from sklearn.neural_network import MLPClassifier

    from dominosim.players.learn import MLP_EPOCHS, MLP_PENALTY, fit_network, mlp_features

    model = MLPClassifier(hidden_layer_sizes=(hidden,), alpha=MLP_PENALTY, max_iter=MLP_EPOCHS,
                          early_stopping=True, random_state=0)
    return ds.MLP(rules, *fit_network(model, data, label, mlp_features(rules)), name=name)


def _edge(rules, player, args) -> str:
    """Save ``player`` under ``--save`` (when given) and return its edge against ``--against``
    on ``--deals`` duplicate deals of ``--seed``, as ``+0.000 [+0.000, +0.000]``."""
    if args.save:
        player.save(f"{args.save}/{player.name}.npz")
    row = ds.compare(rules, player, args.against, args.deals, args.seed,
                     progress=False).row("win_rate_diff")
    return f"{row.estimate:+.3f} [{row.ci_low:+.3f}, {row.ci_high:+.3f}]"


def mlp(args) -> None:
    """Print each round's MLP against ``args.against``."""
    import pandas as pd

    from dominosim.players.learn import fit_mlp, label_positions

    print("| game | round | target | hidden | moves | generated by | against | edge [95% CI] |")
    print("|---|---:|---|---:|---:|---|---|---|")
    for game in args.games:
        rules, data, lineup = TUNED_RULES[game], pd.DataFrame(), args.start
        for r in range(args.rounds):
            name = f"mlp_{game}_{args.target}_{args.hidden}_r{r}"
            if args.target == "imitate":
                part = ds.decisions(rules, lineup, n_hands=args.positions,
                                    seed=args.label_seed + r)
                part["decision"] = part.groupby(["hand", "decision"]).ngroup()
            else:
                part = label_positions(rules, lineup, "solve", args.positions,
                                       args.label_seed + r, 1, lambda k: None)
            data = pd.concat([data, part.assign(round=r)], ignore_index=True)
            groups = data.groupby(["round", "decision"], sort=False)
            if args.target == "imitate":
                player = _classify(rules, data, data["chosen"].astype(int), args.hidden, name)
            elif args.target == "best":
                top = groups["target"].transform("max")
                differ = (top - groups["target"].transform("min")) > 1e-9
                player = _classify(rules, data[differ], (data["target"] == top)[differ].astype(
                    int), args.hidden, name)
            else:
                labels = data.assign(target=data["win"]) if args.target == "win" else data
                player = ds.MLP(rules, *fit_mlp(rules, labels, args.hidden, 0), name=name)
            print(f"| {NAMES[game]} | {r} | {args.target} | {args.hidden} | {len(data):,} | "
                  f"{getattr(lineup, 'name', lineup)} | {args.against} | "
                  f"{_edge(rules, player, args)} |", flush=True)
            lineup = player


def learn(args) -> None:
    """Print ``ds.learn``'s rounds, its time, and its player against ``args.against``."""
    model = "mlp" if args.hidden else "linear"
    for game in args.games:
        rules = TUNED_RULES[game]
        t0, c0 = time.perf_counter(), time.process_time()
        fit = ds.learn(rules, args.teacher, positions=args.positions, rounds=args.rounds,
                       start=args.start, model=model, hidden=max(args.hidden, 1),
                       seed=args.label_seed, name=f"learn_{game}_{model}{args.hidden or ''}",
                       progress=False)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        print(fit.rounds.to_markdown(index=False, floatfmt=".3f"))
        print(f"\n{NAMES[game]}: ds.learn took {wall:.0f} s of wall time, {cpu:.0f} s of CPU; "
              f"{len(fit.positions):,} labelled moves kept", flush=True)
        print(f"| {NAMES[game]} | {args.teacher} | {model} | {fit.rounds['best'].idxmax()} | "
              f"{args.against} | {_edge(rules, fit.player, args)} |", flush=True)


def asked(rules, student, teacher: str, hands: int, seed: int):
    """The decisions of ``hands`` hands of ``student`` at every seat (the reference engine), each
    marked ``chosen`` where ``teacher`` would have played."""
    from dominosim.players.decisions import _reference
    from dominosim.strategies.lineup import resolve_lineup

    return _reference(rules, student, range(hands), seed, resolve_lineup(rules, teacher)[0])


def dagger(args) -> None:
    """Print each DAgger round's MLP against ``args.against``."""
    import pandas as pd

    print("| game | round | hidden | moves | hands of | against | edge [95% CI] | CPU s |")
    print("|---|---:|---:|---:|---|---|---|---:|")
    for game in args.games:
        rules, data, student = TUNED_RULES[game], pd.DataFrame(), None
        for r in range(args.rounds):
            t0 = time.process_time()
            name = f"dagger_{game}_{args.hidden}_r{r}"
            if student is None:
                part = ds.decisions(rules, args.teacher, n_hands=args.positions,
                                    seed=args.label_seed)
            else:
                part = asked(rules, student, args.teacher, args.positions, args.label_seed + r)
            part["decision"] = part.groupby(["hand", "decision"]).ngroup()
            data = pd.concat([data, part.assign(round=r)], ignore_index=True)
            by = getattr(student, "name", args.teacher)
            student = _classify(rules, data, data["chosen"].astype(int), args.hidden, name)
            cpu = time.process_time() - t0
            print(f"| {NAMES[game]} | {r} | {args.hidden} | {len(data):,} | {by} | "
                  f"{args.against} | {_edge(rules, student, args)} | {cpu:.0f} |", flush=True)


class _Agreeing:
    """A seat that plays ``teacher``'s move and counts, per decision, which of ``others`` (the
    teacher again on another stream first) would have made the same move."""

    def __init__(self, teacher, others: list, tally) -> None:
        self.teacher, self.others, self.tally = teacher, others, tally
        self.name = "agreeing"

    def choose(self, view, moves, rng):
        from dominosim.rng import Stream, mix64

        again = Stream(mix64(rng._state ^ 0x5DEECE66D))  # another stream, fixed by this one
        move = self.teacher.choose(view, moves, rng)
        if len(moves) > 1 and moves[0].suit >= 0:
            self.tally[0] += 1
            self.tally[1] += self.teacher.choose(view, moves, again) == move
            for j, other in enumerate(self.others):
                self.tally[2 + j] += other.choose(view, moves, Stream(rng._state)) == move
        return move


def agree(args) -> None:
    """Print the teacher's agreement with itself and each player's with the teacher."""
    from dominosim.reference.hand import play_hand
    from dominosim.strategies.lineup import resolve_lineup

    print("| game | decisions | teacher | teacher again | " + " | ".join(args.players) + " |")
    print("|---|---:|---|---:|" + "---:|" * len(args.players))
    for game in args.games:
        rules = TUNED_RULES[game]
        teacher = resolve_lineup(rules, args.teacher)[0]
        others = [resolve_lineup(rules, p.format(game=game))[0] for p in args.players]
        tally = [0] * (2 + len(others))
        seat = _Agreeing(teacher, others, tally)
        for hand in range(args.positions):
            play_hand(rules, [seat] * rules.players, args.label_seed, hand)
        shares = " | ".join(f"{100 * t / tally[0]:.1f}%" for t in tally[1:])
        print(f"| {NAMES[game]} | {tally[0]:,} | {args.teacher} | {shares} |", flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("what", choices=["speed", "strength", "models", "compile", "mlp",
                                         "dagger", "agree", "learn"])
    parser.add_argument("--players", nargs="*", default=["learned", "tuned"])
    parser.add_argument("--teacher", default="ismcts:1000")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--label-seed", type=int, default=77)
    parser.add_argument("--start", default="learned")
    parser.add_argument("--target", choices=["value", "win", "best", "imitate"], default="value")
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--save", default=None)
    parser.add_argument("--player", default="learned")
    parser.add_argument("--positions", type=int, default=20_000)
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--against", default="ismcts:1000")
    parser.add_argument("--deals", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--games", nargs="+", choices=sorted(TUNED_RULES),
                        default=sorted(TUNED_RULES))
    args = parser.parse_args(argv)
    if args.what == "speed":
        speed(args.hands, args.player, args.games)
    elif args.what == "compile":
        compile_time(args.player, args.games)
    elif args.what == "mlp":
        mlp(args)
    elif args.what == "dagger":
        dagger(args)
    elif args.what == "agree":
        agree(args)
    elif args.what == "learn":
        learn(args)
    elif args.what == "models":
        models(args.positions, args.games)
    else:
        strength(args.player, args.against, args.deals, args.seed, args.games)


if __name__ == "__main__":
    main()
