"""Fitted players: the decisions met in play (:func:`decisions`) and tuning a weighted player
(:func:`tune`). The players themselves, and their files, are in
:mod:`dominosim.strategies.weighted`; the features in :mod:`dominosim.strategies.features`.
"""

from .decisions import decisions
from .tune import Tuning, tune

__all__ = ["Tuning", "decisions", "tune"]
