"""A position drawn from above: the layout in the middle, the hands around it.

Exported as :func:`dominosim.plots.position`.
"""

from __future__ import annotations

from typing import Any

from ..checks import refuse


def position(position: Any, *, seat: int | None = None, ax: Any = None, **kwargs: Any) -> Any:
    """Draw a :class:`~dominosim.solver.Position`: the tiles on the table (as
    :func:`dominosim.plots.layout` draws them) and every seat's hand written beside it, face up for
    all seats (``seat=None``) or only for ``seat`` (the others face down, as that seat sees them).

    Parameters
    ----------
    position : Position
    seat : int, optional
        Show only this seat's tiles.
    ax : matplotlib Axes, optional
    **kwargs
        Passed to every tile's patch, as :func:`dominosim.plots.layout` does.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import dominosim as ds
    >>> log = ds.replay(ds.Rules.preset("block", players=4), "random", seed=1, hand=0)
    >>> ax = ds.plots.position(log.position(6), seat=0)
    >>> "[?]" in ax.texts[-1].get_text()
    True
    """
    from ..reference.hand import HandLog
    from ..solver.position import Position
    from .base import axes
    from .tabletop import layout

    if not isinstance(position, Position):
        raise refuse("position", "a Position (from ds.Position.from_deal or log.position(k))",
                     type(position).__name__)
    rules = position.rules
    if seat is not None and (not isinstance(seat, int) or not 0 <= seat < rules.players):
        raise refuse("seat", f"None or a seat from 0 to {rules.players - 1}", seat)
    ax = axes(ax, size=(7.5, 6.0))
    to_move = position.to_move
    title = (f"{sum(e.kind == 'play' for e in position.history)} tiles down; "
             + (f"seat {to_move} to move" if to_move >= 0 else "the hand is over")
             + ("" if seat is None else f"; as seat {seat} sees it"))
    if position.opened:
        log = HandLog(rules, 0, 0, [(list(map(list, position.hands)), list(position.boneyard))],
                      list(position.history))
        layout(log, ax=ax, title=title, **kwargs)
    else:
        ax.set_axis_off()
        ax.set_title(title, fontsize="medium")
        ax.text(0.5, 0.5, "(empty table)", transform=ax.transAxes, ha="center", color="#777777")
    lines = []
    for s, hand in enumerate(position.hands):
        shown = seat is None or s == seat
        tiles = " ".join(f"{a}|{b}" for a, b in hand) if shown else " ".join(["[?]"] * len(hand))
        mark = "  <- to move" if s == to_move else ""
        lines.append(f"seat {s}: {tiles or '(out)'}{mark}")
    if rules.can_draw:
        bone = position.boneyard
        lines.append(f"boneyard: {' '.join(f'{a}|{b}' for a, b in bone) if seat is None else ''}"
                     f" ({len(bone)} tiles)")
    ax.text(0.0, -0.02, "\n".join(lines), transform=ax.transAxes, va="top", ha="left",
            family="monospace", fontsize=8)
    return ax
