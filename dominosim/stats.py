"""Statistics every reader of hand records shares: the normal quantile, and a hand's result by side.

Defined once here and used by the analysis layer, the duplicate comparisons and the batch
summaries, so that an interval or a shared tie means the same everywhere.

Examples
--------
>>> round(z_value(0.95), 6)
1.959964
>>> side_shares(np.array([1, -1]), np.array([[5, 3], [4, 4]])).tolist()
[[0.0, 1.0], [0.5, 0.5]]
"""

from __future__ import annotations

from statistics import NormalDist
from typing import Any

import numpy as np

from .sides import n_sides, seats_of


def z_value(confidence: float) -> float:
    """The two-sided normal quantile of ``confidence``: ``mean -+ z se`` covers ``confidence``
    of a normal estimate (1.959964 for 0.95)."""
    return NormalDist().inv_cdf(0.5 + confidence / 2)


Z95 = z_value(0.95)
"""The two-sided 95% quantile of the standard normal."""


def pips_by_side(rows: Any, players: int, partnerships: bool) -> np.ndarray:
    """The pips left on each side, hand by hand, from the ``pips_<s>`` columns of hand records
    (a team counts both partners' tiles). Shape ``(hands, sides)``."""
    return np.stack([sum(rows[f"pips_{s}"].to_numpy().astype(np.int64)
                         for s in seats_of(players, partnerships, side))
                     for side in range(n_sides(players, partnerships))], axis=1)


def side_shares(winning_side: np.ndarray, side_pips: np.ndarray) -> np.ndarray:
    """Each side's share of each hand: 1 to the winner, 0 to the losers, and a tie (a blocked hand
    whose fewest pips several sides share, ``winning_side`` -1) shared equally by the tied sides,
    so a hand's shares add up to 1 (a tie as half a win between two sides).

    Parameters
    ----------
    winning_side : array of int, shape (hands,)
        The records' ``winning_side``: a side, or -1 for a tie.
    side_pips : array, shape (hands, sides)
        The pips left on each side (:func:`pips_by_side`); only the tied hands' rows are read.

    Returns
    -------
    numpy.ndarray of float, shape (hands, sides)

    Examples
    --------
    Three sides, the last two tied on 4 pips:

    >>> side_shares(np.array([-1]), np.array([[9, 4, 4]])).tolist()
    [[0.0, 0.5, 0.5]]
    """
    winner = np.asarray(winning_side).astype(np.int64)
    won = winner >= 0
    shares = np.zeros((len(winner), np.shape(side_pips)[1]))
    shares[np.flatnonzero(won), winner[won]] = 1.0
    if not won.all():
        pips = np.asarray(side_pips)[~won]
        tied = pips == pips.min(axis=1, keepdims=True)
        shares[~won] = tied / tied.sum(axis=1, keepdims=True)
    return shares
