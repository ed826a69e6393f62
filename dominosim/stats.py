"""Statistics every reader of hand records shares: the normal quantile, and a hand's result by side.

Defined once here and used by the analysis layer, the duplicate comparisons and the batch
summaries, so that an interval or a shared tie means the same everywhere.

Examples
--------
>>> round(z_value(0.95), 6)
1.959964
"""

from __future__ import annotations

from statistics import NormalDist
from typing import Any

import numpy as np

from .sides import n_sides, seats_of


def z_value(confidence: float) -> float:
    """The two-sided normal quantile of ``confidence``: ``mean -+ z se`` covers ``confidence``
    of a normal estimate (1.959964 for 0.95).
    """
    return NormalDist().inv_cdf(0.5 + confidence / 2)


Z95 = z_value(0.95)
"""The two-sided 95% quantile of the standard normal."""


def pips_by_side(rows: Any, players: int, partnerships: bool) -> np.ndarray:
    """The pips left on each side, hand by hand, from the ``pips_<s>`` columns of hand records
    (a team counts both partners' tiles). Shape ``(hands, sides)``.
    """
    return np.stack([sum(rows[f"pips_{s}"].to_numpy().astype(np.int64)
                         for s in seats_of(players, partnerships, side))
                     for side in range(n_sides(players, partnerships))], axis=1)


def side_shares(rows: Any, players: int, partnerships: bool) -> np.ndarray:
    """Each side's share of each hand of some hand records: 1 to the winner, 0 to the losers,
    and a tie (a blocked hand whose fewest pips several sides share, ``winning_side`` -1) shared
    equally by the tied sides, so a hand's shares add up to 1 (a tie as half a win between two
    sides).

    Parameters
    ----------
    rows : DataFrame
        Hand records: ``winning_side``, and the ``pips_<s>`` columns (read only if some hand is a
        tie).
    players, partnerships :
        The table, for the sides (:mod:`dominosim.sides`).

    Returns
    -------
    numpy.ndarray of float, shape (hands, sides)

    Examples
    --------
    Three seats: seat 1 wins the first hand; seats 1 and 2 tie on 4 pips in the second.

    >>> import pandas as pd
    >>> rows = pd.DataFrame({"winning_side": [1, -1], "pips_0": [5, 9], "pips_1": [0, 4],
    ...                      "pips_2": [7, 4]})
    >>> side_shares(rows, players=3, partnerships=False).tolist()
    [[0.0, 1.0, 0.0], [0.0, 0.5, 0.5]]
    """
    winner = rows["winning_side"].to_numpy().astype(np.int64)
    won = winner >= 0
    shares = np.zeros((len(winner), n_sides(players, partnerships)))
    shares[np.flatnonzero(won), winner[won]] = 1.0
    if not won.all():
        pips = pips_by_side(rows, players, partnerships)[~won]
        tied = pips == pips.min(axis=1, keepdims=True)
        shares[~won] = tied / tied.sum(axis=1, keepdims=True)
    return shares
