"""Positions and what can be known about them: the perfect-information solver.

* :class:`Position` (:mod:`~dominosim.solver.position`): the full state of a hand at one moment;
* :func:`solve` (:mod:`~dominosim.solver.solve`): its value and every move's value when every hand
  and the boneyard's order are known and every seat plays perfectly;
* :func:`exact` (:mod:`~dominosim.solver.exact`): the exact expected values of a small rule set
  under ``random``, every deal, choice and draw enumerated;
* :func:`best_response` (:mod:`~dominosim.solver.best_response`): the exact best reply to a
  strategy on a small two-player rule set, and how much it gains (its exploitability);
* :func:`game_value` (:mod:`~dominosim.solver.game_value`): the value
  of a small two-player game under optimal play of both seats (the sequence-form linear program);
* :func:`analyze` (:mod:`~dominosim.solver.analyze`): every move's value from what one seat sees
  (perfect-information Monte Carlo or play-outs), with 95% intervals;
* :func:`PIMC`: the ``pimc`` search strategy (defined with the other searches in
  :mod:`dominosim.strategies.search`; it solves sampled worlds in both engines).
"""

from ..strategies.search import PIMC
from .analyze import analyze
from .best_response import BestResponse, best_response
from .exact import exact
from .game_value import GameValue, game_value
from .position import Position, SeatView, position_of
from .solve import Solution, solve

__all__ = ["analyze", "BestResponse", "best_response", "exact", "GameValue", "game_value", "PIMC", "Position", "SeatView", "Solution", "position_of", "solve"]
