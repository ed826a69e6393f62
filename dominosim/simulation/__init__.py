"""Everything that plays hands: runs, replays, matches, duplicate deals and experiments.

=================  =======================================================================
``play``           :func:`simulate`, :func:`replay`, :func:`simulate_matches` (either engine)
``duplicate``      :func:`compare`, :func:`tournament` on duplicate deals, Bradley-Terry
``experiments``    deal replays, value of information, the Block against Draw measurement
``check``          :func:`check_strategy`, a user's strategy played and checked
=================  =======================================================================

>>> from dominosim.simulation import simulate
>>> from dominosim.rules import Rules
>>> len(simulate(Rules.preset("block", players=2), "bully", n_hands=3, seed=1))
3
"""

from .check import CheckReport, check_strategy
from .duplicate import Comparison, Tournament, bradley_terry, compare, tournament
from .play import replay, simulate, simulate_matches

__all__ = ["CheckReport", "Comparison", "Tournament", "bradley_terry", "check_strategy", "compare",
           "replay", "simulate", "simulate_matches", "tournament"]
