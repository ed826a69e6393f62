"""Positions and what can be known about them: the perfect-information solver.

* :class:`Position` (:mod:`~dominosim.solver.position`): the full state of a hand at one moment;
* :func:`solve` (:mod:`~dominosim.solver.solve`): its value and every move's value when every hand
  and the boneyard's order are known and every seat plays perfectly;
* :func:`exact` (:mod:`~dominosim.solver.exact`): the exact expected values of a small rule set
  under ``random``, every deal, choice and draw enumerated.
"""

from .exact import exact
from .position import Position, SeatView, position_of
from .solve import Solution, solve

__all__ = ["exact", "Position", "SeatView", "Solution", "position_of", "solve"]
