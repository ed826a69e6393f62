"""The weighted player, compiled: each legal move scored as the weighted sum of its decision
features (:func:`~dominosim.fast.players.features.move_features`), the best played, the first in
canonical order on ties, or with a temperature above 0 a move drawn by a softmax of the scores.
The weights are data (``Lineup.weights``, one row per seat: the weights in feature order, then
the temperature), so one cached kernel plays every player; the Python twin is
:class:`dominosim.strategies.weighted.Weighted` (:func:`~dominosim.strategies.weighted.best_move`)."""

from __future__ import annotations

import math

from ...strategies.features import N_FEATURES
from ..core.board import MOVE_SUIT, MOVE_TILE
from ..core.jit import jit_kernel
from ..core.rng import uniform
from .features import move_features

TEMPERATURE = N_FEATURES
"""The column of ``Lineup.weights`` that holds a seat's temperature (0: the best move), after its
weights; a seat's row has ``ROW`` columns."""
ROW = TEMPERATURE + 1
"""Columns of a seat's row of ``Lineup.weights``."""
SCORES = N_FEATURES
"""Where the moves' scores start in ``scratch.features`` (after one move's features; room for as
many scores as the moves array has columns)."""


@jit_kernel
def weighted_move(weights, shape, rp, seat, n, scratch):
    """The index of the move ``seat`` plays among the ``n`` legal moves in ``scratch.moves``,
    whose weights are ``weights[seat]``: the largest weighted sum of the features (summed in
    feature order, as the Python twin does), the first move in canonical order on ties; with a
    temperature above 0, drawn from stream ``scratch.rng[seat]`` by a softmax of the sums
    (:func:`dominosim.strategies.weighted.best_move`: the same sums in the same order)."""
    board, notes, moves, f = scratch.board, scratch.notes, scratch.moves, scratch.features
    best, top = 0, 0.0
    for i in range(n):
        move_features(shape, rp, board, notes, seat, moves[MOVE_TILE, i], moves[MOVE_SUIT, i], f)
        score = 0.0
        for j in range(N_FEATURES):
            score += weights[seat, j] * f[j]
        f[SCORES + i] = score
        if i == 0 or score > top:
            best, top = i, score
    temperature = weights[seat, TEMPERATURE]
    if temperature <= 0.0:
        return best
    total = 0.0
    for i in range(n):
        total += math.exp((f[SCORES + i] - top) / temperature)
    target = uniform(scratch.rng, seat) * total
    running = 0.0
    for i in range(n):
        running += math.exp((f[SCORES + i] - top) / temperature)
        if target < running:
            return i
    return n - 1
