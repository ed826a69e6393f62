"""Plots: the analysis tables and a hand's layout, drawn with matplotlib.

Each function takes its data first (a table of :mod:`dominosim.analysis`, a tournament, or a hand's
event log) and everything else by keyword, draws on ``ax`` or on a new figure, and returns the Axes;
none calls ``show()``. matplotlib is imported only when a plot is drawn.

* :func:`win_rates`, :func:`opener_advantage`, :func:`stitch_ups`, :func:`uncertainty`,
  :func:`points`, :func:`tournament`, :func:`match_curve` (in :mod:`~dominosim.plots.charts`);
* :func:`layout`: one hand's tiles on the table (in :mod:`~dominosim.plots.tabletop`);
* :func:`position`: a position from above, with the hands (in :mod:`dominosim.plots.positions`).

Examples
--------
>>> import matplotlib
>>> matplotlib.use("Agg")
>>> import dominosim as ds
>>> rules = ds.Rules.preset("block", players=2)
>>> hands = ds.simulate(rules, "random", n_hands=1_000, seed=1)
>>> ax = ds.plots.points(ds.analysis.points_distribution(hands, rules=rules, by_end=True))
>>> ax.get_title()
'Points per hand, with Wilson bands'
"""

from .charts import (
    match_curve,
    opener_advantage,
    points,
    stitch_ups,
    tournament,
    uncertainty,
    win_rates,
)
from .positions import position
from .tabletop import layout

__all__ = [
    "layout",
    "match_curve",
    "opener_advantage",
    "points",
    "position",
    "stitch_ups",
    "tournament",
    "uncertainty",
    "win_rates",
]
