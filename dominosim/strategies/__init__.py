"""Strategies: what a seat sees, how it chooses, the built-in styles and searches, and plug-ins.

=============  ===========================================================================
``registry``   every built-in name with its kind, compiled code and search flag (one table)
``view``       :class:`SeatView`, what a seat sees, and :func:`view_of`
``styles``     the strategy protocol and the built-in Python styles
``search``     the Monte Carlo and ISMCTS search strategies (they call the compiled search)
``sampler``    deals of the hidden tiles consistent with what a seat has seen
``lineup``     a strategy from a name, an object or a function; one per seat
``plugins``    the compiled plug-in API (:func:`compiled_strategy`)
=============  ===========================================================================

>>> from dominosim.strategies import resolve
>>> resolve("bully").name
'bully'
"""

from .lineup import BUILTINS, per_seat, resolve, resolve_lineup
from .registry import SEARCHES, STRATEGY_CODES, STYLES
from .styles import (
    AccompaniedStrategy,
    BullyStrategy,
    CounterStrategy,
    DoublesStrategy,
    FunctionStrategy,
    PartnerStrategy,
    RandomStrategy,
    StitcherStrategy,
    Strategy,
    heaviest_move,
)
from .view import SeatView, view_of

__all__ = [
    "BUILTINS",
    "SEARCHES",
    "STRATEGY_CODES",
    "STYLES",
    "AccompaniedStrategy",
    "BullyStrategy",
    "CounterStrategy",
    "DoublesStrategy",
    "FunctionStrategy",
    "PartnerStrategy",
    "RandomStrategy",
    "SeatView",
    "StitcherStrategy",
    "Strategy",
    "heaviest_move",
    "per_seat",
    "resolve",
    "resolve_lineup",
    "view_of",
]
