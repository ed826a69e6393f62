"""Analysis: hand records in, tidy tables with intervals out.

Every function reads records, never an engine (docs/design.md, layer 6): a DataFrame of hand records
(:func:`dominosim.simulate`, or the batch runner's Parquet dataset, whose cell columns can be named
in ``groups``), a :class:`~dominosim.Summary` where sums suffice, or a dict of either by variant
label. Statistics live here; :mod:`dominosim.plots` only draws the tables.

* :mod:`~dominosim.analysis.tables`: :func:`win_rates` (by seat, side, opener or strategy, with
  Wilson intervals), :func:`opener_advantage`, :func:`outcome_rates`, :func:`per_hand` (points,
  hand length, knocks, draws), :func:`points_distribution`, :func:`stitch_ups`.
* :mod:`~dominosim.analysis.match`: :func:`match_win_probability` and :func:`match_curve`, exact
  by the Markov chain of the scores.
* :mod:`~dominosim.analysis.uncertainty`: Block against Draw, how much a seat does not know over
  the course of a hand, and how much of the outcome the deal decides (the hands are played by
  :mod:`dominosim.simulation.experiments`, whose functions are also reachable here).
* :func:`wilson_interval`.

Examples
--------
>>> import dominosim as ds
>>> rules = ds.Rules.preset("draw", players=3)
>>> hands = ds.simulate(rules, "random", n_hands=1_000, seed=5)
>>> t = ds.analysis.opener_advantage(hands, rules=rules)
>>> bool(t.loc[0, "ci_low"] < t.loc[0, "advantage"] < t.loc[0, "ci_high"])
True
"""

from importlib import import_module
from typing import Any

from .common import wilson_interval
from .match import match_curve, match_win_probability
from .tables import (
    opener_advantage,
    outcome_rates,
    per_hand,
    points_distribution,
    stitch_ups,
    win_rates,
)
from .uncertainty import luck_share, uncertainty_profile

# Played by dominosim.simulation.experiments (analysis reads records and imports no engine); kept
# reachable here under their documented names, loaded on first use.
_PLAYED = ("block_draw_uncertainty", "deal_replays", "hand_uncertainty", "value_of_information",
           "perfect_information_ceiling")


def __getattr__(name: str) -> Any:
    if name in _PLAYED:
        return getattr(import_module("dominosim.simulation.experiments"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "block_draw_uncertainty",
    "deal_replays",
    "hand_uncertainty",
    "luck_share",
    "uncertainty_profile",
    "value_of_information",
    "perfect_information_ceiling",
    "match_curve",
    "match_win_probability",
    "opener_advantage",
    "outcome_rates",
    "per_hand",
    "points_distribution",
    "stitch_ups",
    "wilson_interval",
    "win_rates",
]
