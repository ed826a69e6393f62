"""Hands per second of the domino engines a user would otherwise pick.

Two third-party engines are timed playing complete hands with uniformly random legal play:

``dominoes`` (PyPI, ``pip install dominoes``; checked against version 6.1.0)
    ``dominoes.Game.new(starting_domino=Domino(6, 6))`` deals a hand and plays the forced opening;
    then, until ``game.result`` is set, the package's own random player
    (``dominoes.players.random``, which shuffles ``game.valid_moves``) picks and
    ``game.make_move(*game.valid_moves[0])`` plays. The timed region is exactly that loop, deal
    included, for every hand. The package draws from the global :mod:`random` generator; it is
    seeded for the run and its earlier state restored afterwards.

    Rules, as read in its source:

    * ``dominoes/game.py``, ``_randomized_hands``: the 28 tiles of a double-six set are shuffled
      and dealt 7 to each of 4 hands, so nothing is left to draw; ``Game`` has no draw move: a seat
      that cannot play passes (``make_move`` records ``None`` and moves on), and the hand ends when
      a seat is out or no seat can play (stuck).
    * The ``Game`` docstring and ``make_move``: seats 0 and 2 play seats 1 and 3. Out: the side
      going out scores every pip left in the other three hands, the partner's included. Stuck: the
      side with fewer pips scores both sides' pips; a tie scores 0.
    * Opening: ``Game.new()`` lets seat 0 lead any tile; ``Game.new(starting_domino=d)`` makes the
      holder of ``d`` lead it. ``dominoes/series.py`` (``Series``, used by the package's CLI)
      opens its first hand with ``[6|6]`` and later hands with the previous hand's winner leading
      any tile. This benchmark opens every hand with ``[6|6]``; the whole set is dealt, so some
      seat always holds it.

    Closest dominosim rule set: ``Rules.preset("block", players=4, hand_size=7)`` (double-six,
    partnerships 0-2 against 1-3, no draw, highest double leads). It differs in hand size (the
    preset deals 6) and in scoring: ``'spots'`` never counts the partner's pips when a side goes
    out, and after a block it scores the losers' pips less the winners'.

OpenSpiel's ``python_block_dominoes`` (PyPI, ``pip install open_spiel``; checked against 2.0.2)
    ``pyspiel.load_game("python_block_dominoes")`` after importing ``open_spiel.python.games``
    (which registers the Python games). Each game starts from ``game.new_initial_state()`` and runs
    until ``state.is_terminal()``: chance nodes (the deal) take an outcome sampled from
    ``state.chance_outcomes()`` by its probabilities, player nodes a uniformly random entry of
    ``state.legal_actions()``. The uniforms come from a seeded :func:`numpy.random.default_rng`,
    drawn once per game (``game.max_game_length()`` of them) so that the driver adds almost no
    time. The timed region is the whole loop, deal included, for every game.

    Rules, as read in ``open_spiel/python/games/block_dominoes.py``:

    * ``_NUM_PLAYERS = 2``, ``_HAND_SIZE = 7``, ``_DECK`` is the 28 tiles of pips 0-6 (double-six);
      14 chance nodes deal 7 tiles to player 0, then 7 to player 1, and the other 14 tiles are
      never used (no draw).
    * Player 0 moves first and may lead any tile (``get_legal_actions`` with no open edges). A
      player with no legal tile is skipped (no pass action); the game ends when a player is out or
      both are blocked.
    * ``returns``: the player with fewer pips in hand wins the other player's pips (after going
      out or after a block alike); equal pips score 0.

    Closest dominosim rule set: ``Rules.preset("block", players=2, hand_size=7, opening="any")``
    (double-six, 2 players, no draw, seat 0 leads any tile). It differs in hand size (the preset
    deals 8) and, after a block, in scoring: ``'spots'`` subtracts the winner's own pips.

Run ``python benchmarks/others.py`` (``--hands N`` to set the number of hands for both engines,
``--seed S``). An engine that is not installed is reported with the pip command that installs it.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType

OPENSPIEL_GAME = "python_block_dominoes"


def _version(distribution: str) -> str:
    """The installed version of ``distribution``, or ``'unknown'``."""
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def _check_hands(n_hands: int) -> None:
    if isinstance(n_hands, bool) or not isinstance(n_hands, int) or n_hands < 1:
        raise ValueError(f"`n_hands` must be a positive integer, but {n_hands!r} was passed.")


# ---------------------------------------------------------------------------------- dominoes
def _load_dominoes() -> ModuleType | None:
    """The ``dominoes`` package, or None when it is not installed."""
    try:
        import dominoes
    except ImportError:
        return None
    return dominoes


def _time_dominoes(n_hands: int, seed: int) -> float | None:
    """Seconds taken by ``n_hands`` random hands of ``dominoes``, or None when not installed.

    Parameters
    ----------
    n_hands : int
        Hands to play, each from the deal to ``game.result`` being set.
    seed : int
        Seed of the global :mod:`random` generator the package draws from (restored afterwards).

    Returns
    -------
    float or None
        Wall-clock seconds of the play loop.
    """
    _check_hands(n_hands)
    dominoes = _load_dominoes()
    if dominoes is None:
        return None
    new_hand = dominoes.Game.new
    double_six = dominoes.Domino(6, 6)
    rank_moves = dominoes.players.random
    saved = random.getstate()
    random.seed(seed)
    try:
        start = time.perf_counter()
        for _ in range(n_hands):
            # Deals the four hands and plays the forced [6|6] lead.
            game = new_hand(starting_domino=double_six)
            while game.result is None:
                rank_moves(game)  # puts the seat's random pick first in game.valid_moves
                game.make_move(*game.valid_moves[0])
        return time.perf_counter() - start
    finally:
        random.setstate(saved)


def bench_dominoes(n_hands: int, seed: int) -> float | None:
    """Hands per second of the ``dominoes`` package's 4-player partnership game, random players.

    Parameters
    ----------
    n_hands : int
        Complete hands to play (deal to end); must be at least 1.
    seed : int
        Seed for the package's (global :mod:`random`) generator.

    Returns
    -------
    float or None
        Hands per second, or None when ``dominoes`` is not installed.

    Raises
    ------
    ValueError
        If ``n_hands`` is not a positive integer.
    """
    seconds = _time_dominoes(n_hands, seed)
    return None if seconds is None else n_hands / seconds


# ---------------------------------------------------------------------------------- OpenSpiel
def _load_openspiel() -> ModuleType | None:
    """``pyspiel`` with OpenSpiel's Python games registered, or None when not installed."""
    try:
        import open_spiel.python.games  # noqa: F401  (registers python_block_dominoes)
        import pyspiel
    except ImportError:
        return None
    return pyspiel


def _sample_outcome(outcomes: Sequence[tuple[int, float]], u: float) -> int:
    """The chance outcome that the uniform ``u`` in [0, 1) selects (inverse of the CDF).

    Parameters
    ----------
    outcomes : sequence of (int, float)
        ``(action, probability)`` pairs, as returned by ``state.chance_outcomes()``.
    u : float
        A uniform draw in [0, 1).

    Returns
    -------
    int
        The selected action.
    """
    cumulative = 0.0
    for action, probability in outcomes:
        cumulative += probability
        if u < cumulative:
            return action
    return outcomes[-1][0]  # the probabilities' sum rounded to just under 1


def _time_openspiel(n_hands: int, seed: int) -> float | None:
    """Seconds taken by ``n_hands`` random games of ``python_block_dominoes``, or None.

    Parameters
    ----------
    n_hands : int
        Games to play, each from the initial (pre-deal) state until ``state.is_terminal()``.
    seed : int
        Seed of the :func:`numpy.random.default_rng` generator that drives every choice.

    Returns
    -------
    float or None
        Wall-clock seconds of the play loop, or None when OpenSpiel is not installed.
    """
    _check_hands(n_hands)
    pyspiel = _load_openspiel()
    if pyspiel is None:
        return None
    import numpy as np

    game = pyspiel.load_game(OPENSPIEL_GAME)
    longest = game.max_game_length()  # chance nodes and moves together
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    for _ in range(n_hands):
        state = game.new_initial_state()
        uniforms = rng.random(longest).tolist()
        step = 0
        while not state.is_terminal():
            u = uniforms[step]
            step += 1
            if state.is_chance_node():
                action = _sample_outcome(state.chance_outcomes(), u)
            else:
                legal = state.legal_actions()
                action = legal[int(u * len(legal))]
            state.apply_action(action)
    return time.perf_counter() - start


def bench_openspiel(n_hands: int, seed: int) -> float | None:
    """Games per second of OpenSpiel's ``python_block_dominoes`` with uniformly random play.

    Parameters
    ----------
    n_hands : int
        Complete games to play (deal to terminal state); must be at least 1.
    seed : int
        Seed of the numpy generator that samples chance outcomes and legal actions.

    Returns
    -------
    float or None
        Games per second, or None when ``open_spiel`` is not installed.

    Raises
    ------
    ValueError
        If ``n_hands`` is not a positive integer.
    """
    seconds = _time_openspiel(n_hands, seed)
    return None if seconds is None else n_hands / seconds


# ---------------------------------------------------------------------------------- report
@dataclass(frozen=True)
class _Engine:
    """What the report needs to know about one engine."""

    name: str
    distribution: str
    install: str
    rules: str
    default_hands: int  # about 10-20 s on a 2-core machine
    is_installed: Callable[[], bool]
    time_hands: Callable[[int, int], float | None]


ENGINES = (
    _Engine(
        name="dominoes",
        distribution="dominoes",
        install="pip install dominoes",
        rules="double-six, 4 players in partnerships (0+2 v 1+3), 7 tiles each, block (no draw, "
              "nothing left to draw), [6|6] holder leads it",
        default_hands=40_000,
        is_installed=lambda: _load_dominoes() is not None,
        time_hands=_time_dominoes,
    ),
    _Engine(
        name=f"open_spiel {OPENSPIEL_GAME}",
        distribution="open_spiel",
        install="pip install open_spiel",
        rules="double-six, 2 players, no partnerships, 7 tiles each, block (no draw, 14 tiles "
              "unused), player 0 leads any tile",
        default_hands=14_000,
        is_installed=lambda: _load_openspiel() is not None,
        time_hands=_time_openspiel,
    ),
)


def main(argv: Sequence[str] | None = None) -> int:
    """Time every engine and print one line each.

    Parameters
    ----------
    argv : sequence of str, optional
        Command-line arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        The exit status, 0.
    """
    parser = argparse.ArgumentParser(
        description="Hands per second of the dominoes and OpenSpiel engines with random play.")
    parser.add_argument(
        "--hands", type=int, default=None,
        help="complete hands per engine (default: "
             + ", ".join(f"{e.default_hands} for {e.name}" for e in ENGINES)
             + "; about 10-20 s each on 2 cores)")
    parser.add_argument("--seed", type=int, default=0, help="seed of every engine (default 0)")
    args = parser.parse_args(argv)
    if args.hands is not None and args.hands < 1:
        parser.error(f"--hands must be at least 1, but {args.hands} was passed")

    for engine in ENGINES:
        if not engine.is_installed():
            print(f"{engine.name}: unavailable (not installed); install with: {engine.install}",
                  flush=True)
            continue
        n_hands = engine.default_hands if args.hands is None else args.hands
        seconds = engine.time_hands(n_hands, args.seed)
        print(f"{engine.name} {_version(engine.distribution)} | {engine.rules} | "
              f"{n_hands} hands | {seconds:.2f} s | {n_hands / seconds:,.0f} hands/s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
