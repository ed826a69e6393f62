"""Hand records: the columns of the public contract (docs/records.md) and their compact dtypes.

Both engines produce records with exactly these columns; :func:`to_frame` turns them into the
DataFrame that :func:`dominosim.simulate` returns.

Columns
-------
hand : int64
    Index of the hand in its run.
opener : int8
    Seat that made the opening play.
opening_double : int8
    Suit of the opening double; -1 when an ``opening='any'`` lead is not a double.
opening_tile : category
    The opening tile, written high end first (``'6-6'``).
redeals : int32
    Deals thrown in because no seat held a double.
end : category
    ``'out'`` (a seat, or with ``team_out`` a side, went out) or ``'blocked'``.
winning_side : int8
    The winning side, -1 for a tie. The side of seat ``s`` is ``s mod players/2`` with partnerships,
    ``s`` otherwise.
points : int16
    Points scored by the winning side.
plays, knocks, draws, stitch_ups : int16
    Counts over the hand; ``plays`` includes the opening play.
boneyard_left : int16
    Tiles still sleeping at the end.
out_seat : int8
    The seat whose last tile ended the hand, -1 for a blocked hand.
pips_<s>, tiles_left_<s>, stitch_ups_<s> : int16
    Per seat: pips and tiles left in hand at the end, stitch-ups made.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd

from .rules import Rules
from .tiles import TILE_LABELS, n_tiles

END_CATEGORIES = ("out", "blocked")

BASE_COLUMNS: dict[str, str] = {
    "hand": "int64",
    "opener": "int8",
    "opening_double": "int8",
    "opening_tile": "int16",
    "redeals": "int32",
    "end": "int8",
    "winning_side": "int8",
    "points": "int16",
    "plays": "int16",
    "knocks": "int16",
    "draws": "int16",
    "stitch_ups": "int16",
    "boneyard_left": "int16",
    "out_seat": "int8",
}
SEAT_COLUMNS: dict[str, str] = {"pips": "int16", "tiles_left": "int16", "stitch_ups": "int16"}


def column_dtypes(players: int) -> dict[str, str]:
    """Storage dtype of every column, in order; ``opening_tile`` and ``end`` as integer codes."""
    cols = dict(BASE_COLUMNS)
    for prefix, dtype in SEAT_COLUMNS.items():
        for s in range(players):
            cols[f"{prefix}_{s}"] = dtype
    return cols


def to_frame(rules: Rules, columns: Mapping[str, Iterable]) -> pd.DataFrame:
    """A DataFrame of hand records from code columns (``end`` as 0/1, ``opening_tile`` as tile id).

    >>> from dominosim.rules import Rules
    >>> r = Rules.preset("block", players=2)
    >>> cols = {c: [0] for c in column_dtypes(2)}
    >>> cols.update(opening_tile=[27], end=[1])
    >>> df = to_frame(r, cols)
    >>> df.loc[0, "opening_tile"], df.loc[0, "end"]
    ('6-6', 'blocked')
    """
    data = {}
    for name, dtype in column_dtypes(rules.players).items():
        values = np.asarray(columns[name]).astype(dtype, copy=False)
        if name == "opening_tile":
            cats = pd.CategoricalDtype(TILE_LABELS[: n_tiles(rules.max_pip)])
            data[name] = pd.Categorical.from_codes(values, dtype=cats)
        elif name == "end":
            data[name] = pd.Categorical.from_codes(values, dtype=pd.CategoricalDtype(END_CATEGORIES))
        else:
            data[name] = values
    return pd.DataFrame(data, copy=False)


def max_events(rules: Rules) -> int:
    """An upper bound on the events of one hand's log: every tile played and drawn once, and at
    most one knock per seat between two plays.

    >>> max_events(Rules.preset("block", players=2))  # 28 tiles: 56 plays and draws, 58 knocks, 1
    115
    """
    t = rules.n_tiles
    return 2 * t + rules.players * (t + 1) + 1
