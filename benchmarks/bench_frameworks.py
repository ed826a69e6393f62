"""Steps per second of dominosim's OpenSpiel game and PettingZoo environment, against OpenSpiel's
own Python block dominoes.

Every game is played from its first state to its end with uniformly random legal actions (chance
nodes by their probabilities), driven by one seeded :func:`numpy.random.default_rng`; a *step* is
one applied action, chance outcomes included (OpenSpiel) or one ``env.step`` (PettingZoo, whose
deal and draws happen inside). Times are CPU seconds of the process (time.process_time), so a
loaded machine changes them little. Three rows:

``python_block_dominoes``
    OpenSpiel's Python game (double-six, 2 players, 7 tiles each, player 0 leads any tile).
``dominosim (OpenSpiel)``
    ``pyspiel.load_game("dominosim", ...)`` on the same rules:
    ``Rules.preset("block", players=2, hand_size=7, opening="any")`` (benchmarks/others.py).
``dominosim (PettingZoo)``
    ``dominosim.pettingzoo.env`` on the same rules.

Run ``python benchmarks/bench_frameworks.py`` (``--hands N``, ``--seed S``).
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def _play_openspiel(game, n: int, seed: int) -> tuple[int, float]:
    """Steps and seconds of ``n`` random games of the pyspiel ``game``."""
    rng = np.random.default_rng(seed)
    steps = 0
    start = time.process_time()
    for _ in range(n):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(outcomes[rng.choice(len(outcomes), p=probs)])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[rng.integers(len(actions))])
            steps += 1
    return steps, time.process_time() - start


def _play_pettingzoo(env, n: int, seed: int) -> tuple[int, float]:
    """Steps and seconds of ``n`` random episodes of the AEC ``env`` (one hand each)."""
    rng = np.random.default_rng(seed)
    steps = 0
    start = time.process_time()
    env.reset(seed=seed)
    for k in range(n):
        if k:
            env.reset()
        for _ in env.agent_iter():
            observation, _, termination, _, _ = env.last()
            if termination:
                env.step(None)
                continue
            legal = observation["action_mask"].nonzero()[0]
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
    return steps, time.process_time() - start


def main(argv: list[str] | None = None) -> None:
    """Print a Markdown table of steps and hands per second."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    import open_spiel.python.games  # noqa: F401 (registers python_block_dominoes)
    import pyspiel

    import dominosim as ds
    from dominosim import openspiel, pettingzoo

    rules = ds.Rules.preset("block", players=2, hand_size=7, opening="any")
    rows = [
        ("python_block_dominoes", _play_openspiel(pyspiel.load_game("python_block_dominoes"),
                                                  args.hands, args.seed)),
        ("dominosim (OpenSpiel)", _play_openspiel(openspiel.game(rules), args.hands, args.seed)),
        ("dominosim (PettingZoo)", _play_pettingzoo(pettingzoo.env(rules), args.hands,
                                                    args.seed)),
    ]
    print(f"{args.hands:,} random hands each, seed {args.seed}")
    print("| game | steps | steps/s | hands/s |\n|---|---:|---:|---:|")
    for name, (steps, seconds) in rows:
        print(f"| {name} | {steps:,} | {steps / seconds:,.0f} | {args.hands / seconds:,.0f} |")


if __name__ == "__main__":
    main()
