"""Fitted players in the compiled engine: the decision features of a legal move
(:mod:`~dominosim.fast.players.features`, the compiled twin of
:mod:`dominosim.strategies.features`) and the players that score moves with them
(:mod:`~dominosim.fast.players.weighted`)."""
