"""dominosim: seeded, exact-rule domino simulations turned into trustworthy numbers.

The public API lives here:

>>> import dominosim as ds
>>> rules = ds.Rules.preset("block", players=4)
>>> hands = ds.simulate(rules, ["bully", "random", "bully", "random"], n_hands=10, seed=7)
>>> log = ds.replay(rules, ["bully", "random", "bully", "random"], seed=7, hand=3)
>>> int(hands.loc[3, "points"]) == log.record["points"]
True
"""

from . import analysis, plots
from .play import play  # the package's function: ds.play stays it (see dominosim/play/__init__.py)
from .players import Learning, Tuning, decisions, learn, tune
from .reference.game import IllegalMoveError, Move
from .reference.hand import HandLog, MatchLog, play_hand, play_match
from .reference.transcript import transcript
from .rules import PRESETS, Rules
from .simulation.check import CheckReport, check_strategy
from .simulation.duplicate import Comparison, Tournament, bradley_terry, compare, tournament
from .simulation.play import replay, simulate, simulate_matches
from .simulation.warm import warm
from .solver import (
    BestResponse,
    GameValue,
    Position,
    Solution,
    analyze,
    best_response,
    exact,
    game_value,
    solve,
)
from .solver.review import review
from .strategies.features import FEATURE_NAMES, FEATURES, FEATURES_VERSION
from .strategies.lineup import BUILTINS, SEARCHES, STYLES
from .strategies.plugins import CompiledStrategy, compiled_strategy
from .strategies.search import ISMCTS, PIMC, MonteCarlo, SearchStrategy
from .strategies.view import SeatView
from .strategies.weighted import MLP, Weighted, load_player, tuned_player
from .summary import Summary

__version__ = "0.1.0"

__all__ = [
    "analysis",
    "analyze",
    "plots",
    "BUILTINS",
    "ISMCTS",
    "MonteCarlo",
    "PIMC",
    "SEARCHES",
    "STYLES",
    "SearchStrategy",
    "CheckReport",
    "check_strategy",
    "Comparison",
    "CompiledStrategy",
    "compiled_strategy",
    "Tournament",
    "bradley_terry",
    "compare",
    "exact",
    "BestResponse",
    "best_response",
    "GameValue",
    "game_value",
    "tournament",
    "PRESETS",
    "HandLog",
    "IllegalMoveError",
    "MatchLog",
    "Move",
    "Position",
    "Solution",
    "solve",
    "Rules",
    "SeatView",
    "Summary",
    "play",
    "play_hand",
    "play_match",
    "replay",
    "review",
    "simulate",
    "simulate_matches",
    "transcript",
    "FEATURES",
    "FEATURE_NAMES",
    "FEATURES_VERSION",
    "Learning",
    "MLP",
    "Tuning",
    "Weighted",
    "decisions",
    "learn",
    "load_player",
    "tune",
    "tuned_player",
    "warm",
]
