"""Fitted players: the decisions met in play (:func:`decisions`), tuning a weighted player
(:func:`tune`) and learning one from a teacher's move values (:func:`learn`). The players
themselves, and their files, are in :mod:`dominosim.strategies.weighted`; the features in
:mod:`dominosim.strategies.features`.
"""

from .decisions import decisions
from .learn import Learning, learn
from .tune import Tuning, tune

__all__ = ["Learning", "Tuning", "decisions", "learn", "tune"]
