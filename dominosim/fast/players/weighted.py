"""The weighted player, compiled: each legal move scored as the weighted sum of its decision
features (:func:`~dominosim.fast.players.features.move_features`), the best played, the first in
canonical order on ties. The weights are data (``Lineup.weights``, one row per seat), so one cached
kernel plays every weight vector; the Python twin is
:class:`dominosim.strategies.weighted.Weighted`."""

from __future__ import annotations

from ...strategies.features import N_FEATURES
from ..core.board import MOVE_SUIT, MOVE_TILE
from ..core.jit import jit_kernel
from .features import move_features


@jit_kernel
def weighted_move(weights, shape, rp, seat, n, scratch):
    """The index of the best of the ``n`` legal moves in ``scratch.moves`` for ``seat``, whose
    weights are ``weights[seat]``: the largest weighted sum of the features (summed in feature
    order, as the Python twin does), the first move in canonical order on ties."""
    board, notes, moves, f = scratch.board, scratch.notes, scratch.moves, scratch.features
    best, best_score = 0, 0.0
    for i in range(n):
        move_features(shape, rp, board, notes, seat, moves[MOVE_TILE, i], moves[MOVE_SUIT, i], f)
        score = 0.0
        for j in range(N_FEATURES):
            score += weights[seat, j] * f[j]
        if i == 0 or score > best_score:
            best, best_score = i, score
    return best
