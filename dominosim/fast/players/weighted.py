"""The weighted player, compiled: each legal move scored as the weighted sum of its decision
features (:func:`~dominosim.fast.players.features.move_features`), the best played, the first in
canonical order on ties, or with a temperature above 0 a move drawn by a softmax of the scores.
A player may add a hidden layer of ReLU units to the sum (a small MLP,
:class:`dominosim.strategies.weighted.MLP`): the score is then the weighted sum plus
``sum_h out[h] * max(0, bias[h] + sum_j w[h, j] * f[j])``. The weights are data
(``Lineup.weights``, one row per seat, :data:`ROW`: the weights in feature order, the
temperature, the number of hidden units, then each unit's weights, bias and output weight), so
one cached kernel plays every player; the Python twin is
:class:`dominosim.strategies.weighted.Weighted` (:func:`~dominosim.strategies.weighted.best_move`).
Inference (:mod:`dominosim.fast.search.infer`) models a seat by such a player and asks
:func:`move_likelihood` how likely the play it saw was."""

from __future__ import annotations

import math

from ...strategies.features import N_FEATURES
from ..core.board import MOVE_SUIT, MOVE_TILE
from ..core.jit import jit_helper, jit_kernel
from ..core.rng import uniform
from .features import move_features

TEMPERATURE = N_FEATURES
"""The column of ``Lineup.weights`` that holds a seat's temperature (0: the best move), after its
weights."""
HIDDEN = TEMPERATURE + 1
"""The column that holds a seat's number of hidden units (0, or a column past the row's end: a
linear player)."""
UNITS = HIDDEN + 1
"""Where a seat's hidden units start: unit ``h`` takes the ``UNIT`` columns from
``UNITS + h * UNIT``, its weights in feature order, then its bias, then its output weight."""
UNIT = N_FEATURES + 2
"""Columns of one hidden unit."""
MAX_HIDDEN = 64
"""The most hidden units a player may have."""
ROW = UNITS + MAX_HIDDEN * UNIT
"""The most columns of a seat's row (the width of inference's model rows); a line-up's rows are
as wide as its widest player's (a linear player's row ends at its temperature)."""
SCORES = N_FEATURES
"""Where the moves' scores start in ``scratch.features`` (after one move's features; room for as
many scores as the moves array has columns)."""


@jit_kernel
def score_moves(weights, shape, rp, seat, n, table):
    """``(best, top)``: the weighted sums of the features of the ``n`` moves in ``table.moves``
    (summed in feature order, as the Python twin does; plus the hidden units', :func:`hidden_sum`,
    for an MLP) written to ``table.features[SCORES + i]``,
    the index of the largest (the first in canonical order on ties) and its sum. ``table`` holds
    ``board``, ``notes``, ``moves`` and ``features`` (the hand's scratch, or inference's replay)."""
    board, notes, moves, f = table.board, table.notes, table.moves, table.features
    hidden = int(weights[seat, HIDDEN]) if weights.shape[1] > HIDDEN else 0
    best, top = 0, 0.0
    for i in range(n):
        move_features(shape, rp, board, notes, seat, moves[MOVE_TILE, i], moves[MOVE_SUIT, i], f)
        score = 0.0
        for j in range(N_FEATURES):
            score += weights[seat, j] * f[j]
        if hidden > 0:
            score += hidden_sum(weights, seat, hidden, f)
        f[SCORES + i] = score
        if i == 0 or score > top:
            best, top = i, score
    return best, top


@jit_kernel
def hidden_sum(weights, seat, hidden, f):
    """The hidden layer's part of a move's score, from its features ``f``: over the ``hidden``
    units in order, the unit's output weight times ``max(0, bias + sum_j w[j] * f[j])`` (the bias
    first, then the features in order; a unit at 0 adds nothing), as
    :func:`dominosim.strategies.weighted.hidden_sum` sums."""
    total = 0.0
    for h in range(hidden):
        at = UNITS + h * UNIT
        a = weights[seat, at + N_FEATURES]
        for j in range(N_FEATURES):
            a += weights[seat, at + j] * f[j]
        if a > 0.0:
            total += weights[seat, at + N_FEATURES + 1] * a
    return total


@jit_kernel
def softmax_total(f, n, top, temperature):
    """The sum of ``exp((score - top) / temperature)`` over the ``n`` scores in ``f[SCORES:]``,
    in canonical order."""
    total = 0.0
    for i in range(n):
        total += math.exp((f[SCORES + i] - top) / temperature)
    return total


@jit_kernel
def weighted_move(weights, shape, rp, seat, n, scratch):
    """The index of the move ``seat`` plays among the ``n`` legal moves in ``scratch.moves``,
    whose weights are ``weights[seat]``: the largest weighted sum of the features, the first move
    in canonical order on ties (:func:`score_moves`); with a temperature above 0, drawn from
    stream ``scratch.rng[seat]`` by a softmax of the sums
    (:func:`dominosim.strategies.weighted.best_move`: the same sums in the same order)."""
    best, top = score_moves(weights, shape, rp, seat, n, scratch)
    temperature = weights[seat, TEMPERATURE]
    if temperature <= 0.0:
        return best
    f = scratch.features
    target = uniform(scratch.rng, seat) * softmax_total(f, n, top, temperature)
    running = 0.0
    for i in range(n):
        running += math.exp((f[SCORES + i] - top) / temperature)
        if target < running:
            return i
    return n - 1


@jit_helper
def move_likelihood(weights, shape, rp, seat, n, k, table):
    """The probability that the weighted player ``weights[seat]`` plays move ``k`` of the ``n``
    in ``table.moves`` (:func:`dominosim.strategies.weighted.move_probability`): 1 or 0 at
    temperature 0 (whether ``k`` is its best move), else ``k``'s share of the softmax."""
    best, top = score_moves(weights, shape, rp, seat, n, table)
    temperature = weights[seat, TEMPERATURE]
    if temperature <= 0.0:
        return 1.0 if best == k else 0.0
    f = table.features
    return math.exp((f[SCORES + k] - top) / temperature) / softmax_total(f, n, top, temperature)
