"""Charts of the analysis tables: each takes the table first, everything else by keyword.

Every function draws one table of :mod:`dominosim.analysis` (statistics there, drawing here), on
``ax`` or on a new figure, and returns the Axes; none calls ``show()``. Intervals are the table's
own (``ci_low``, ``ci_high``).

Examples
--------
>>> import matplotlib
>>> matplotlib.use("Agg")
>>> import dominosim as ds
>>> rules = ds.Rules.preset("block", players=3)
>>> hands = ds.simulate(rules, "random", n_hands=500, seed=1)
>>> ax = win_rates(ds.analysis.win_rates(hands, by="opener", rules=rules))
>>> ax.get_ylabel()
'win rate (share of hands won)'
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..checks import check_choice, refuse
from .base import PALETTE, axes, check_column, dodge, need_frame

_WIN_KEYS = {"seat": "seat", "side": "side",
             "from_opener": "side, counted from the opener's (0: the opener's side)",
             "strategy": "strategy"}
_STATS = {"hands", "wins", "ties", "win_rate", "ci_low", "ci_high", "score", "fair_share",
          "sides", "p_opener", "p_ci_low", "p_ci_high", "p_tie", "advantage", "se",
          "points_advantage", "points_se", "points_ci_low", "points_ci_high", "per", "rate",
          "p_any", "seat", "count", "share", "cumulative", "points", "end", "n", "turn",
          "progress", "side", "opponent_score", "p_win", "expected_hands", "target",
          "from_opener", "strategy", "outcome"}
_UNCERTAINTY_Y = {"entropy_bits": "entropy of the hidden history (bits)",
                  "counts_entropy_bits": "entropy from the tile counts alone (bits)",
                  "tiles_unknown": "tiles unknown to the seat to move (tiles)",
                  "in_other_hands": "unknown tiles in other hands (tiles)"}


def _labels(data: pd.DataFrame) -> list[str]:
    """The label columns of a table: the ones that are not statistics (variants, cells)."""
    return [c for c in data.columns if c not in _STATS and not c.endswith(("_ci_low", "_ci_high"))]


def _errors(values: pd.Series, low: pd.Series, high: pd.Series) -> np.ndarray:
    return np.abs(np.vstack([values - low, high - values]).astype(float))


def _levels(data: pd.DataFrame, column: str | None) -> list[Any]:
    if column is None:
        return [None]
    return list(pd.unique(data[column]))


def _subset(data: pd.DataFrame, column: str | None, level: Any) -> pd.DataFrame:
    return data if column is None else data[data[column] == level]


def _grouped(data: pd.DataFrame, x: str, y: str, low: str, high: str, hue: str | None, ax: Any,
             bars: bool, kwargs: dict[str, Any]) -> list[Any]:
    """Bars (or points) of ``y`` by ``x`` and ``hue`` with interval whiskers; returns x levels.

    ``kwargs`` go to every ``ax.bar`` (or ``ax.errorbar``) call, over the defaults.
    """
    xs = list(pd.unique(data[x]))
    hues = _levels(data, hue)
    offsets = dodge(len(hues), 0.8 if bars else 0.5)
    for i, level in enumerate(hues):
        part = _subset(data, hue, level)
        pos = np.array([xs.index(v) for v in part[x]]) + offsets[i]
        color = PALETTE[i % len(PALETTE)]
        err = _errors(part[y], part[low], part[high])
        label = None if level is None else str(level)
        if bars:
            ax.bar(pos, part[y], **{"width": 0.8 / len(hues), "color": color, "label": label,
                                    "yerr": err, "capsize": 3, "error_kw": {"elinewidth": 1.2},
                                    **kwargs})
        else:
            ax.errorbar(pos, part[y], **{"yerr": err, "fmt": "o", "color": color, "label": label,
                                         "capsize": 3, "markersize": 6, "elinewidth": 1.4,
                                         **kwargs})
    ax.set_xticks(range(len(xs)), [str(v) for v in xs])
    if hue is not None:
        ax.legend(title=hue, frameon=False, fontsize="small")
    return xs


def win_rates(data: pd.DataFrame, *, hue: str | None = None, ax: Any = None,
              title: str | None = None, **kwargs: Any) -> Any:
    """Win rates as bars with their Wilson intervals and the fair share marked.

    Parameters
    ----------
    data : DataFrame
        From :func:`dominosim.analysis.win_rates`.
    hue : str, optional
        A label column to draw side by side (default: the first label column, such as
        ``variant``, if any).
    ax : matplotlib Axes, optional
    title : str, optional
    **kwargs
        Passed to ``ax.bar``, over its defaults (``color``, ``linewidth``, ``alpha``...).

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> t = pd.DataFrame({"seat": [0, 1], "hands": 100, "wins": [60, 40], "win_rate": [0.6, 0.4],
    ...                   "ci_low": [0.5, 0.31], "ci_high": [0.69, 0.5], "fair_share": 0.5})
    >>> ax = win_rates(t)
    >>> len(ax.patches), ax.get_xlabel()
    (2, 'seat')
    """
    need_frame(data, ["win_rate", "ci_low", "ci_high"], "dominosim.analysis.win_rates")
    key = next((k for k in _WIN_KEYS if k in data.columns), None)
    if key is None:
        raise refuse("data", "a DataFrame from dominosim.analysis.win_rates (with a `seat`, "
                     "`side`, `from_opener` or `strategy` column)", list(data.columns))
    labels = _labels(data)
    hue = check_column("hue", hue, data) if hue is not None else (labels[0] if labels else None)
    ax = axes(ax)
    xs = _grouped(data, key, "win_rate", "ci_low", "ci_high", hue, ax, bars=True, kwargs=kwargs)
    if "fair_share" in data.columns:
        fair = data.groupby(key, sort=False)["fair_share"].first()
        for i, v in enumerate(xs):
            ax.hlines(fair[v], i - 0.45, i + 0.45, colors="black", linestyles="--", linewidth=1.2,
                      label="fair share" if i == 0 else None)
        handles, names = ax.get_legend_handles_labels()
        ax.legend(handles, names, frameon=False, fontsize="small", title=hue)
    ax.set_xlabel(_WIN_KEYS[key])
    ax.set_ylabel("win rate (share of hands won)")
    ax.set_ylim(0, min(1.0, max(float(data["ci_high"].max()) * 1.25, 0.1)))
    ax.set_title(title or f"Win rates by {key.replace('_', ' ')}, with Wilson intervals")
    return ax


def opener_advantage(data: pd.DataFrame, *, x: str | None = None, hue: str | None = None,
                     points: bool = False, ax: Any = None, title: str | None = None,
                     **kwargs: Any) -> Any:
    """The opener's advantage across variants, as points with their intervals.

    Parameters
    ----------
    data : DataFrame
        From :func:`dominosim.analysis.opener_advantage` with ``groups`` (such as a variant and
        the player count).
    x : str, optional
        The label column along the axis (default the first label column).
    hue : str, optional
        A label column drawn in colours (default the second label column, if any).
    points : bool
        The points version (points per hand) instead of the share of decided hands.
    ax : matplotlib Axes, optional
    title : str, optional
    **kwargs
        Passed to ``ax.errorbar``, over its defaults (``color``, ``linewidth``, ``alpha``...).

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> t = pd.DataFrame({"variant": ["block", "draw"], "advantage": [0.08, 0.03],
    ...                   "ci_low": [0.07, 0.02], "ci_high": [0.09, 0.04]})
    >>> opener_advantage(t).get_xlabel()
    'variant'
    """
    y, low, high = (("points_advantage", "points_ci_low", "points_ci_high") if points
                    else ("advantage", "ci_low", "ci_high"))
    need_frame(data, [y, low, high], "dominosim.analysis.opener_advantage")
    labels = _labels(data)
    x = check_column("x", x, data) or (labels[0] if labels else None)
    if x is None:
        data = data.assign(table="all hands")
        x = "table"
    hue = check_column("hue", hue, data) or next((c for c in labels if c != x), None)
    ax = axes(ax)
    _grouped(data, x, y, low, high, hue, ax, bars=False, kwargs=kwargs)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xlabel(x)
    ax.set_ylabel("opener advantage (points per hand)" if points else
                  "opener advantage (share of decided hands\nbeyond a fair share)")
    ax.set_title(title or "The opener's advantage, with confidence intervals")
    return ax


def stitch_ups(data: pd.DataFrame, *, x: str | None = None, hue: str | None = None,
               ax: Any = None, title: str | None = None, **kwargs: Any) -> Any:
    """Stitch-up frequencies by variant (or seat), as bars with their intervals.

    Parameters
    ----------
    data : DataFrame
        From :func:`dominosim.analysis.stitch_ups` (``per`` 'hand', 'play' or 'seat').
    x : str, optional
        The label column along the axis (default ``seat`` for ``per='seat'``, else the first
        label column).
    hue : str, optional
    ax : matplotlib Axes, optional
    title : str, optional
    **kwargs
        Passed to ``ax.bar``, over its defaults (``color``, ``linewidth``, ``alpha``...).

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> t = pd.DataFrame({"variant": ["block", "draw"], "per": "hand", "rate": [0.5, 0.4],
    ...                   "ci_low": [0.45, 0.35], "ci_high": [0.55, 0.45]})
    >>> stitch_ups(t).get_ylabel()
    'stitch-ups per hand'
    """
    need_frame(data, ["per", "rate", "ci_low", "ci_high"], "dominosim.analysis.stitch_ups")
    per = str(data["per"].iloc[0]) if len(data) else "hand"
    labels = _labels(data)
    default = "seat" if per == "seat" else (labels[0] if labels else None)
    x = check_column("x", x, data) or default
    if x is None:
        data = data.assign(table="all hands")
        x = "table"
    hue = check_column("hue", hue, data) or next((c for c in labels if c != x), None)
    ax = axes(ax)
    _grouped(data, x, "rate", "ci_low", "ci_high", hue, ax, bars=True, kwargs=kwargs)
    ax.set_xlabel(x)
    ax.set_ylabel({"hand": "stitch-ups per hand", "seat": "stitch-ups per hand, by seat",
                   "play": "stitch-ups per play (after the opening)"}[per])
    ax.set_title(title or "Stitch-up frequency, with confidence intervals")
    return ax


def uncertainty(data: pd.DataFrame, *, y: str = "entropy_bits", hue: str | None = "game",
                style: str | None = "players", ax: Any = None, title: str | None = None,
                **kwargs: Any) -> Any:
    """A measure of what the seat to move does not know, over the course of a hand.

    Parameters
    ----------
    data : DataFrame
        From :func:`dominosim.analysis.uncertainty_profile` (``x`` 'turn' or 'progress').
    y : {'entropy_bits', 'counts_entropy_bits', 'tiles_unknown', 'in_other_hands'}
    hue : str, optional
        The label column drawn in colours (default ``game``: Block against Draw).
    style : str, optional
        The label column drawn in line styles (default ``players``).
    ax : matplotlib Axes, optional
    title : str, optional
    **kwargs
        Passed to ``ax.plot`` (the lines), over its defaults (``color``, ``linewidth``, ``alpha``...).

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> p = pd.DataFrame({"game": ["block"] * 2 + ["draw"] * 2, "players": 2, "turn": [0, 1] * 2,
    ...                   "entropy_bits": [9.0, 6, 9, 7], "entropy_bits_ci_low": [8.5, 5.5, 8.5, 6.5],
    ...                   "entropy_bits_ci_high": [9.5, 6.5, 9.5, 7.5]})
    >>> ax = uncertainty(p)
    >>> len(ax.get_lines()), ax.get_xlabel()
    (2, 'turn (turns after the opening play)')
    """
    check_choice("y", y, tuple(_UNCERTAINTY_Y))
    need_frame(data, [y, f"{y}_ci_low", f"{y}_ci_high"],
               "dominosim.analysis.uncertainty_profile")
    x = "turn" if "turn" in data.columns else "progress"
    need_frame(data, [x], "dominosim.analysis.uncertainty_profile")
    # the defaults apply when the table has those columns; a column asked for must exist
    hue = None if hue == "game" and "game" not in data.columns else check_column("hue", hue, data)
    style = (None if style == "players" and "players" not in data.columns
             else check_column("style", style, data))
    ax = axes(ax)
    styles = ["-", "--", ":", "-."]
    style_levels = _levels(data, style)
    for i, h in enumerate(_levels(data, hue)):
        for j, s in enumerate(style_levels):
            part = _subset(_subset(data, hue, h), style, s).sort_values(x)
            if part.empty:
                continue
            color = PALETTE[i % len(PALETTE)]
            name = ", ".join(str(v) for v, c in ((h, hue), (s, style)) if c is not None)
            if style == "players":
                name = ", ".join([str(h)] * (hue is not None) + [f"{s} players"])
            ax.plot(part[x], part[y], **{"color": color, "linestyle": styles[j % len(styles)],
                                         "label": name or None, "linewidth": 1.8, **kwargs})
            ax.fill_between(part[x], part[f"{y}_ci_low"], part[f"{y}_ci_high"], color=color,
                            alpha=0.18, linewidth=0)
    ax.set_xlabel("turn (turns after the opening play)" if x == "turn"
                  else "share of the hand played")
    ax.set_ylabel(_UNCERTAINTY_Y[y])
    if hue is not None or style is not None:
        ax.legend(frameon=False, fontsize="small")
    ax.set_title(title or "Uncertainty over the hand, with confidence intervals")
    return ax


def points(data: pd.DataFrame, *, hue: str | None = None, cumulative: bool = False,
           ax: Any = None, title: str | None = None, **kwargs: Any) -> Any:
    """The distribution of the points per hand: shares as steps, their intervals as bands.

    Parameters
    ----------
    data : DataFrame
        From :func:`dominosim.analysis.points_distribution`.
    hue : str, optional
        A label column drawn in colours (default ``end`` if present, else the first label).
    cumulative : bool
        The share at or below each score instead.
    ax : matplotlib Axes, optional
    title : str, optional
    **kwargs
        Passed to ``ax.step``, over its defaults (``color``, ``linewidth``, ``alpha``...).

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> d = pd.DataFrame({"points": [0, 5, 9], "share": [0.25, 0.5, 0.25], "cumulative": [0.25, 0.75, 1],
    ...                   "ci_low": [0.1, 0.3, 0.1], "ci_high": [0.4, 0.7, 0.4]})
    >>> points(d).get_xlabel()
    'points scored in the hand (pips)'
    """
    need_frame(data, ["points", "share", "ci_low", "ci_high", "cumulative"],
               "dominosim.analysis.points_distribution")
    labels = _labels(data)
    if hue is None:
        hue = "end" if "end" in data.columns else (labels[0] if labels else None)
    else:
        hue = check_column("hue", hue, data)
    ax = axes(ax)
    for i, level in enumerate(_levels(data, hue)):
        part = _subset(data, hue, level).sort_values("points")
        color = PALETTE[i % len(PALETTE)]
        y = part["cumulative"] if cumulative else part["share"]
        ax.step(part["points"], y, **{"where": "mid", "color": color, "linewidth": 1.6,
                                      "label": None if level is None else str(level), **kwargs})
        low, high = ("cum_ci_low", "cum_ci_high") if cumulative else ("ci_low", "ci_high")
        if low in part.columns:
            ax.fill_between(part["points"], part[low], part[high], step="mid", color=color,
                            alpha=0.2, linewidth=0)
    ax.set_xlabel("points scored in the hand (pips)")
    ax.set_ylabel("share of hands at or below" if cumulative else "share of hands")
    if hue is not None:
        ax.legend(title=hue, frameon=False, fontsize="small")
    ax.set_title(title or "Points per hand, with Wilson bands")
    return ax


def tournament(data: Any, *, annotate: bool = True, ax: Any = None,
               title: str | None = None, **kwargs: Any) -> Any:
    """A duplicate tournament's win matrix as a heat map (row's win rate against the column).

    Parameters
    ----------
    data : Tournament or DataFrame
        A :func:`dominosim.tournament` result (its cells then also show the half-width of each
        95% interval), or its ``win_matrix``.
    annotate : bool
        Write the rates in the cells.
    ax : matplotlib Axes, optional
    title : str, optional
    **kwargs
        Passed to ``ax.imshow``, over its defaults (``color``, ``linewidth``, ``alpha``...).

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np, pandas as pd
    >>> m = pd.DataFrame([[np.nan, 0.6], [0.4, np.nan]], index=["a", "b"], columns=["a", "b"])
    >>> [t.get_text() for t in tournament(m).texts]
    ['—', '0.600', '0.400', '—']
    """
    from ..simulation.duplicate import Tournament

    half: dict[tuple[str, str], float] = {}
    if isinstance(data, Tournament):
        for row in data.pairs.itertuples():
            # win_rate_a = 1/2 + diff / 2: the interval's half-width halves too
            half[row.a, row.b] = half[row.b, row.a] = (row.ci_high - row.ci_low) / 4
        matrix = data.win_matrix
    elif isinstance(data, pd.DataFrame) and list(data.index) == list(data.columns):
        matrix = data
    else:
        raise refuse("data", "a dominosim.tournament result or its win_matrix (a square "
                     "DataFrame)", type(data).__name__)
    names = [str(v) for v in matrix.columns]
    k = len(names)
    ax = axes(ax, size=(1.2 * k + 2.6, 1.0 * k + 1.6))
    image = ax.imshow(matrix.to_numpy(dtype=float), **{"cmap": "RdBu", "vmin": 0, "vmax": 1,
                                                       **kwargs})
    bar = ax.figure.colorbar(image, ax=ax, shrink=0.85)
    bar.set_label("row's duplicate win rate against the column")
    ax.set_xticks(range(k), names, rotation=30, ha="right")
    ax.set_yticks(range(k), names)
    if annotate:
        for i, a in enumerate(matrix.index):
            for j, b in enumerate(matrix.columns):
                v = matrix.iloc[i, j]
                if pd.isna(v):
                    ax.text(j, i, "—", ha="center", va="center", color="gray")
                    continue
                text = f"{v:.3f}" + (f"\n±{half[a, b]:.3f}" if (a, b) in half else "")
                ax.text(j, i, text, ha="center", va="center", fontsize="small",
                        color="white" if abs(v - 0.5) > 0.3 else "black")
    ax.set_xlabel("opponent (column)")
    ax.set_ylabel("strategy (row)")
    ax.set_title(title or "Duplicate win rates (row against column)")
    return ax


def match_curve(data: pd.DataFrame, *, ax: Any = None, title: str | None = None,
                **kwargs: Any) -> Any:
    """The probability of winning a match against one's own score, a line per opponents' score.

    Parameters
    ----------
    data : DataFrame
        From :func:`dominosim.analysis.match_curve`; its intervals (with ``n_boot``) are drawn
        as bands.
    ax : matplotlib Axes, optional
    title : str, optional
    **kwargs
        Passed to ``ax.plot``, over its defaults (``color``, ``linewidth``, ``alpha``...).

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> hands = pd.DataFrame({"winning_side": [0, 1, 1], "points": [3, 2, 1]})
    >>> import dominosim as ds
    >>> c = ds.analysis.match_curve(hands, target=10, players=2, opponent_scores=[0, 5])
    >>> len(match_curve(c).get_lines())
    3
    """
    need_frame(data, ["score", "opponent_score", "p_win", "target"],
               "dominosim.analysis.match_curve")
    ax = axes(ax)
    for i, b in enumerate(_levels(data, "opponent_score")):
        part = data[data["opponent_score"] == b].sort_values("score")
        color = PALETTE[i % len(PALETTE)]
        ax.plot(part["score"], part["p_win"], **{"color": color, "linewidth": 1.8,
                                                 "label": f"{int(b)} points", **kwargs})
        if "ci_low" in part.columns and part["ci_low"].notna().any():
            ax.fill_between(part["score"], part["ci_low"], part["ci_high"], color=color,
                            alpha=0.2, linewidth=0)
    ax.axhline(0.5, color="gray", linewidth=0.8, linestyle=":")
    target = int(data["target"].iloc[0]) if len(data) else 0
    side = int(data["side"].iloc[0]) if "side" in data.columns and len(data) else 0
    ax.set_xlim(0, target)
    ax.set_ylim(0, 1)
    ax.set_xlabel(f"side {side}'s score (points)")
    ax.set_ylabel("probability of winning the match")
    ax.legend(title="others' score", frameon=False, fontsize="small")
    band = (", with bootstrap bands" if "ci_low" in data.columns and data["ci_low"].notna().any()
            else "")
    ax.set_title(title or f"Winning a match to {target}{band}")
    return ax
