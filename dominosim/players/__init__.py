"""Fitted players: the decisions met in play (:func:`decisions`) and tuning a weighted player
(:func:`tune`). The players themselves, and their files, are in
:mod:`dominosim.strategies.weighted`; the features in :mod:`dominosim.strategies.features`."""

from .positions import decisions

__all__ = ["decisions"]
