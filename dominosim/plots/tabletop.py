"""One hand's layout drawn from its event log: the tiles on the table seen from above.

Play depends only on the multiset of open ends, so the engines keep no positions; this module gives
the tiles places the way players lay them (docs/rules.md, "The drawing of the layout"). Every open end is
a *chain* with a tip and a heading, in the order the engines list the ends (the opening tile's ends
first; a branching double appends two). A play goes on the chain of its event's ``end_index``:

* a tile lies along the chain, the half that matches the end touching it;
* a double lies crossways and the chain goes on past it; a branching double also starts two
  chains from its sides;
* a chain that would leave its region turns a corner, then turns again to come back: the line
  snakes. With a line opening, the right arm snakes downwards and the left arm upwards; the four
  arms of a cross snake in a pinwheel, each in its own quarter. Branch chains turn where they would
  run into tiles already down.

Each tile's face is tinted with the colour of the seat that played it, and numbered in the order
of play (0 the opening tile).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..checks import refuse
from ..reference.game import branches
from .base import PALETTE, axes

_GAP = 0.08
_PIPS = {0: [], 1: [(0.5, 0.5)], 2: [(0.25, 0.75), (0.75, 0.25)],
         3: [(0.25, 0.75), (0.5, 0.5), (0.75, 0.25)],
         4: [(0.25, 0.25), (0.25, 0.75), (0.75, 0.25), (0.75, 0.75)],
         5: [(0.25, 0.25), (0.25, 0.75), (0.75, 0.25), (0.75, 0.75), (0.5, 0.5)],
         6: [(0.25, 0.2), (0.25, 0.5), (0.25, 0.8), (0.75, 0.2), (0.75, 0.5), (0.75, 0.8)],
         7: [(0.25, 0.2), (0.25, 0.5), (0.25, 0.8), (0.75, 0.2), (0.75, 0.5), (0.75, 0.8),
             (0.5, 0.5)],
         8: [(0.2, 0.2), (0.2, 0.5), (0.2, 0.8), (0.5, 0.2), (0.5, 0.8), (0.8, 0.2), (0.8, 0.5),
             (0.8, 0.8)],
         9: [(x, y) for x in (0.2, 0.5, 0.8) for y in (0.2, 0.5, 0.8)]}


@dataclass
class _Placed:
    """A tile on the table: its rectangle and its two halves' suits (``near`` at ``x0``/``y0``
    when ``near_low``), the seat and the order of play.
    """

    x0: float
    y0: float
    x1: float
    y1: float
    near: int
    far: int
    near_low: bool
    seat: int
    order: int
    label: tuple[int, int] = (0, 1)
    """Which side of the tile its number goes: above it on a chain across the page, left of it
    on a chain up or down the page, outside the bend on a corner."""
    link: tuple[float, float, float, float] | None = None
    """A dashed link from the chain's tip when the tile had to be laid further along."""

    def overlaps(self, other: _Placed) -> bool:
        return (self.x0 < other.x1 - 1e-9 and other.x0 < self.x1 - 1e-9
                and self.y0 < other.y1 - 1e-9 and other.y0 < self.y1 - 1e-9)


def _rect(start: tuple[float, float], heading: tuple[int, int], length: float,
          width: float) -> tuple[float, float, float, float, bool]:
    """The rectangle that starts at ``start`` (the middle of its near edge) and runs ``length``
    along ``heading``; and whether its near end is at the low coordinate.
    """
    (x, y), (hx, hy) = start, heading
    if hx:
        xs = sorted((x, x + hx * length))
        return xs[0], y - width / 2, xs[1], y + width / 2, hx > 0
    ys = sorted((y, y + hy * length))
    return x - width / 2, ys[0], x + width / 2, ys[1], hy > 0


@dataclass
class _Chain:
    """An open end being laid: its tip, heading, the side it snakes towards and its region."""

    tip: tuple[float, float]
    heading: tuple[int, int]
    advance: tuple[int, int]
    region: tuple[float, float, float, float] | None
    turning_to: tuple[int, int] | None = None

    def inside(self, p: _Placed) -> bool:
        if self.region is None:
            return True
        x0, y0, x1, y1 = self.region
        return p.x0 >= x0 - 1e-9 and p.x1 <= x1 + 1e-9 and p.y0 >= y0 - 1e-9 and p.y1 <= y1 + 1e-9


class _Table:
    """Places the tiles of one hand, play by play."""

    def __init__(self, width: float, height: float) -> None:
        self.tiles: list[_Placed] = []
        self.chains: list[_Chain] = []
        self.width, self.height = width, height

    def free(self, p: _Placed) -> bool:
        return not any(p.overlaps(q) for q in self.tiles)

    def _corner(self, chain: _Chain, to: tuple[int, int], near: int, far: int, seat: int,
                order: int) -> tuple[_Placed, tuple[float, float]]:
        (x, y), (hx, hy) = chain.tip, chain.heading
        start = (x + 0.5 * hx - 0.5 * to[0], y + 0.5 * hy - 0.5 * to[1])
        return self._along(start, to, near, far, seat, order)

    @staticmethod
    def _along(start: tuple[float, float], heading: tuple[int, int], near: int, far: int,
               seat: int, order: int) -> tuple[_Placed, tuple[float, float]]:
        x0, y0, x1, y1, low = _rect(start, heading, 2.0, 1.0)
        tip = (start[0] + 2 * heading[0], start[1] + 2 * heading[1])
        return _Placed(x0, y0, x1, y1, near, far, low, seat, order), tip

    def play(self, index: int, tile: tuple[int, int], suit: int, seat: int, order: int,
             branches: bool) -> None:
        chain = self.chains[index]
        before = chain.heading
        self._lay(chain, tile, suit, seat, order, branches)
        if tile[0] != tile[1] and chain.heading != before:
            self.tiles[-1].label = before
        else:
            self.tiles[-1].label = (0, 1) if chain.heading[1] == 0 else (-1, 0)

    def _lay(self, chain: _Chain, tile: tuple[int, int], suit: int, seat: int, order: int,
             branches: bool) -> None:
        a, b = tile
        far = b if a == suit else a
        if a == b:
            placed, tip = self._crossways(chain.tip, chain.heading, a, seat, order)
            heading = chain.heading
            if not self.free(placed):
                placed, tip, heading = self._jump(
                    chain, lambda start, h: self._crossways(start, h, a, seat, order))
            self.tiles.append(placed)
            centre = ((placed.x0 + placed.x1) / 2, (placed.y0 + placed.y1) / 2)
            if heading != chain.heading:
                chain.turning_to = None
            chain.tip, chain.heading = tip, heading  # a pending bend waits for the next tile
            if branches:
                hx, hy = heading
                for side in (1, -1):
                    h = (-hy * side, hx * side)
                    start = (centre[0] + h[0], centre[1] + h[1])
                    self.chains.append(_Chain(start, h, heading, None))
            return
        options: list[tuple[tuple[_Placed, tuple[float, float]], tuple[int, int],
                            tuple[int, int] | None]] = []
        straight = self._along(chain.tip, chain.heading, suit, far, seat, order)
        if chain.turning_to is not None:
            options.append((self._corner(chain, chain.turning_to, suit, far, seat, order),
                            chain.turning_to, None))
        elif chain.inside(straight[0]):
            options.append((straight, chain.heading, None))
        else:
            back = (-chain.heading[0], -chain.heading[1])
            options.append((self._corner(chain, chain.advance, suit, far, seat, order),
                            chain.advance, back))
        # where the snake would run into tiles already down: go straight, or turn either way
        options.append((straight, chain.heading, None))
        for turn in ((-chain.heading[1], chain.heading[0]), (chain.heading[1], -chain.heading[0])):
            options.append((self._corner(chain, turn, suit, far, seat, order), turn, None))
        found = next((o for o in options if self.free(o[0][0])), None)
        if found is not None:
            (placed, tip), heading, turning = found
        else:
            # boxed in: lay it further along the first free way out, linked by a dashed line
            placed, tip, heading = self._jump(
                chain, lambda start, h: self._along(start, h, suit, far, seat, order))
            turning = None
        self.tiles.append(placed)
        chain.tip, chain.heading, chain.turning_to = tip, heading, turning

    @staticmethod
    def _crossways(start: tuple[float, float], heading: tuple[int, int], suit: int, seat: int,
                   order: int) -> tuple[_Placed, tuple[float, float]]:
        x0, y0, x1, y1, low = _rect(start, heading, 1.0, 2.0)
        tip = (start[0] + heading[0], start[1] + heading[1])
        return _Placed(x0, y0, x1, y1, suit, suit, low, seat, order), tip

    def _jump(self, chain: _Chain,
              make: Any) -> tuple[_Placed, tuple[float, float], tuple[int, int]]:
        """The first free place further along the chain (or turned either way), linked back."""
        hx, hy = chain.heading
        for step in range(1, 80):
            for h in ((hx, hy), (-hy, hx), (hy, -hx)):
                start = (chain.tip[0] + step * h[0], chain.tip[1] + step * h[1])
                placed, tip = make(start, h)
                if self.free(placed):
                    placed.link = (*chain.tip, *start)
                    return placed, tip, h
        placed, tip = make(chain.tip, chain.heading)
        return placed, tip, chain.heading

    def open(self, tile: tuple[int, int], seat: int, arms: int, suit_first: int) -> None:
        a, b = tile
        w, h = self.width, self.height
        if a != b:
            # a non-double lead (opening 'any') lies along the line: ends a, then b
            self.tiles.append(_Placed(-1, -0.5, 1, 0.5, a, b, True, seat, 0))
            self.chains = [_Chain((-1, 0), (-1, 0), (0, 1), (-w, -0.5, w, h)),
                           _Chain((1, 0), (1, 0), (0, -1), (-w, -h, w, 0.5))]
            return
        self.tiles.append(_Placed(-0.5, -1, 0.5, 1, a, a, True, seat, 0))
        if arms == 2:
            self.chains = [_Chain((-0.5, 0), (-1, 0), (0, 1), (-w, -0.5, w, h)),
                           _Chain((0.5, 0), (1, 0), (0, -1), (-w, -h, w, 0.5))]
        else:  # a cross: each arm snakes in its own quarter, like a pinwheel
            self.chains = [_Chain((-0.5, 0), (-1, 0), (0, 1), (-w, -0.5, -0.5, h)),
                           _Chain((0.5, 0), (1, 0), (0, -1), (0.5, -h, w, 0.5)),
                           _Chain((0, 1), (0, 1), (1, 0), (-0.5, 1, h, w)),
                           _Chain((0, -1), (0, -1), (-1, 0), (-h, -w, 0.5, -1))]


def place(log: Any, width: float | None = None) -> list[_Placed]:
    """The tiles of ``log``'s layout with their positions (see the module's notes), in the order
    of play; coordinates in half-tiles, the opening tile at the centre.

    Examples
    --------
    >>> import dominosim as ds
    >>> rules = ds.Rules.preset("block", players=2, max_pip=2, hand_size=3)
    >>> log = ds.play_hand(rules, "bully", deal=([[(2, 2), (0, 1), (1, 1)],
    ...                                           [(1, 2), (0, 0), (0, 2)]], []))
    >>> [(t.order, t.x0, t.x1, t.near, t.far) for t in place(log)[:3]]  # 2-2 across, 2-1 left
    [(0, -0.5, 0.5, 2, 2), (1, -2.5, -0.5, 2, 1), (2, -3.5, -2.5, 1, 1)]
    """
    plays = [e for e in log.events if e.kind == "play"]
    n = len(plays)
    rules = log.rules
    arms = rules.opening_arms
    w = width if width is not None else max(5.0, 2.0 * round((n / (2 if arms == 2 else 3)) ** 0.5
                                                             + 2))
    table = _Table(w, 4 * w)
    first = plays[0]
    table.open(first.tile, first.seat, arms, first.suit)
    for k, e in enumerate(plays[1:], start=1):
        table.play(e.end_index, e.tile, e.suit, e.seat, k, branches(rules, e.tile))
    return table.tiles


def _draw_half(ax: Any, x0: float, y0: float, size: float, suit: int, vertical: bool,
               color: str) -> None:
    from matplotlib.patches import Circle

    if suit > 9:
        ax.text(x0 + size / 2, y0 + size / 2, str(suit), ha="center", va="center",
                fontsize=8, color=color, fontweight="bold")
        return
    for px, py in _PIPS[suit]:
        if not vertical:
            px, py = py, px
        ax.add_patch(Circle((x0 + px * size, y0 + py * size), 0.085 * size, color=color,
                            zorder=4))


def _title(log: Any) -> str:
    from ..reference.transcript import game_name

    r, rec = log.rules, log.record
    if rec.get("winning_side", -1) < 0:
        result = "a tie"
    else:
        side = rec["winning_side"]
        seats = r.seats_of(side)
        who = f"seat{'s' if len(seats) > 1 else ''} {' and '.join(map(str, seats))}"
        how = "out" if rec.get("end") in (0, "out") else "blocked"
        result = f"{who} won ({how}), {rec['points']} points"
    return (f"{game_name(log)}, double-{r.max_pip}, {r.players} players: "
            f"{rec.get('plays', '?')} tiles down; {result}")


def layout(log: Any, *, numbers: bool = True, width: float | None = None, ax: Any = None,
           title: str | None = None, **kwargs: Any) -> Any:
    """Draw one hand's layout from its event log: the tiles on the table, seen from above.

    Pips on every tile; the line snakes across the table; doubles lie crossways; a cross opens with
    four arms and branching doubles start two new chains (see :mod:`dominosim.plots.tabletop`).
    Each tile is tinted with the colour of the seat that played it (legend), and numbered in the
    order of play.

    Parameters
    ----------
    log : HandLog
        From :func:`dominosim.replay` or :func:`dominosim.play_hand`.
    numbers : bool
        Write each tile's place in the order of play beside it.
    width : float, optional
        Half the width of the region a line snakes in, in half-tiles (default from the number
        of tiles).
    ax : matplotlib Axes, optional
    title : str, optional
    **kwargs
        Passed to every tile's :class:`matplotlib.patches.FancyBboxPatch`, over its defaults
        (``edgecolor``, ``linewidth``, ``alpha``...).

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import dominosim as ds
    >>> log = ds.replay(ds.Rules.preset("draw", players=2), "random", seed=3, hand=0)
    >>> ax = layout(log)
    >>> sum(e.kind == "play" for e in log.events) == log.record["plays"]
    True
    """
    from matplotlib.patches import FancyBboxPatch, Patch

    # A hand log is known by what the picture reads, not by its class: the log's own notebook
    # display calls this function, so importing the log's module here would close an import circle.
    if not all(hasattr(log, name) for name in ("rules", "deals", "events", "record")):
        raise refuse("log", "a HandLog (from dominosim.replay)", type(log).__name__)
    tiles = place(log, width)
    xs = [t.x0 for t in tiles] + [t.x1 for t in tiles]
    ys = [t.y0 for t in tiles] + [t.y1 for t in tiles]
    span_x, span_y = max(xs) - min(xs) + 2, max(ys) - min(ys) + 2
    scale = 0.42
    ax = axes(ax, size=(max(5.0, span_x * scale), max(3.5, span_y * scale + 1.0)))
    tint = [_light(PALETTE[s % len(PALETTE)]) for s in range(log.rules.players)]
    for t in tiles:
        ax.add_patch(FancyBboxPatch((t.x0 + _GAP, t.y0 + _GAP), t.x1 - t.x0 - 2 * _GAP,
                                    t.y1 - t.y0 - 2 * _GAP,
                                    **{"boxstyle": "round,pad=0,rounding_size=0.12",
                                       "facecolor": tint[t.seat], "edgecolor": "#222222",
                                       "linewidth": 1.0, "zorder": 2, **kwargs}))
        vertical = (t.y1 - t.y0) > (t.x1 - t.x0)
        low, high = (t.near, t.far) if t.near_low else (t.far, t.near)
        size = min(t.x1 - t.x0, t.y1 - t.y0) - 2 * _GAP
        if vertical:
            mid = (t.y0 + t.y1) / 2
            ax.plot([t.x0 + 0.18, t.x1 - 0.18], [mid, mid], color="#222222", linewidth=0.8,
                    zorder=3)
            _draw_half(ax, t.x0 + _GAP, t.y0 + _GAP, size, low, True, "#111111")
            _draw_half(ax, t.x0 + _GAP, mid + _GAP / 2 - 0.0, size, high, True, "#111111")
        else:
            mid = (t.x0 + t.x1) / 2
            ax.plot([mid, mid], [t.y0 + 0.18, t.y1 - 0.18], color="#222222", linewidth=0.8,
                    zorder=3)
            _draw_half(ax, t.x0 + _GAP, t.y0 + _GAP, size, low, False, "#111111")
            _draw_half(ax, mid + _GAP / 2, t.y0 + _GAP, size, high, False, "#111111")
        if t.link is not None:
            x0, y0, x1, y1 = t.link
            ax.plot([x0, x1], [y0, y1], color="#777777", linestyle="--", linewidth=1, zorder=1)
        if numbers:
            dx, dy = t.label
            x = t.x1 + 0.1 if dx > 0 else t.x0 - 0.1 if dx < 0 else (t.x0 + t.x1) / 2
            y = t.y1 + 0.02 if dy > 0 else t.y0 - 0.02 if dy < 0 else (t.y0 + t.y1) / 2
            ax.text(x, y, str(t.order), fontsize=6.5, color="#444444", zorder=5,
                    ha="left" if dx > 0 else "right" if dx < 0 else "center",
                    va="bottom" if dy > 0 else "top" if dy < 0 else "center")
    ax.set_xlim(min(xs) - 1, max(xs) + 1)
    ax.set_ylim(min(ys) - 1, max(ys) + 1)
    ax.set_aspect("equal")
    ax.set_axis_off()
    ax.legend(handles=[Patch(facecolor=tint[s], edgecolor="#222222", label=f"seat {s}")
                       for s in range(log.rules.players)], loc="upper left",
              bbox_to_anchor=(1.0, 1.0), frameon=False, fontsize="small", title="played by")
    ax.set_title(title or _title(log), fontsize="medium")
    return ax


def _light(color: str) -> tuple[float, float, float]:
    from matplotlib.colors import to_rgb

    r, g, b = to_rgb(color)
    return (0.62 + 0.38 * r, 0.62 + 0.38 * g, 0.62 + 0.38 * b)
