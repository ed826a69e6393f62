"""Fitted players, compiled: what a fitted player reads of a legal move and how it scores it.

Holds :mod:`.features` (the decision features of one legal move, the compiled twin of
:mod:`dominosim.strategies.features`) and :mod:`.weighted` (the weighted player: every legal
move scored as a weighted sum of its features, plus an MLP's hidden layer of ReLU units when the
player has one, the weights an array of the line-up).

May import: :mod:`dominosim.fast.core` and the package's rule and feature tables
(``dominosim.strategies.features``); nothing from :mod:`dominosim.fast.search`,
:mod:`dominosim.fast.hand` or :mod:`dominosim.fast.engine` (the hand kernel calls the players,
and the searches' inference models a seat by one, never the other way).
"""
