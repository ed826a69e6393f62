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
from .api import replay, simulate, simulate_matches
from .check import CheckReport, check_strategy
from .duplicate import Comparison, Tournament, bradley_terry, compare, tournament
from .fast.plugin import CompiledStrategy, compiled_strategy
from .game import IllegalMoveError, Move
from .reference import HandLog, MatchLog, play_hand, play_match
from .rules import PRESETS, Rules
from .search import ISMCTS, MonteCarlo, SearchStrategy
from .solver import Position, Solution, analyze, exact, solve
from .strategies import BUILTINS, SEARCHES, STYLES, SeatView
from .summary import Summary
from .transcript import transcript

__version__ = "0.1.0"

__all__ = [
    "analysis",
    "analyze",
    "plots",
    "BUILTINS",
    "ISMCTS",
    "MonteCarlo",
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
    "play_hand",
    "play_match",
    "replay",
    "simulate",
    "simulate_matches",
    "transcript",
]
