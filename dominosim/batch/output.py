"""What a sweep writes: chunk files in Parquet, the summary table per cell, versions.

Every chunk writes one row of sums (the :class:`~dominosim.Summary` of its hands) to
``sums/cell=<c>/``; with ``keep = "rows"`` it also writes its hand records to ``hands/cell=<c>/``.
The bytes depend only on the hands played, never on time, threads or machine, so two runs of a
sweep write identical files. The summary table adds up each cell's sums.

Examples
--------
>>> import dominosim as ds
>>> rules = ds.Rules.preset("draw", players=2)
>>> df = ds.simulate(rules, "random", n_hands=300, seed=1)
>>> s = ds.Summary.from_frame(rules, df)
>>> row = summary_row(s)
>>> row["hands"], round(row["blocked"], 4) == round(float((df["end"] == "blocked").mean()), 4)
(300, True)
>>> row["blocked_low"] <= row["blocked"] <= row["blocked_high"]
True
"""

from __future__ import annotations

import hashlib
import io
import math
import platform
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.dataset as pds
import pyarrow.parquet as pq

from ..analysis import wilson_interval
from ..stats import Z95
from ..summary import Summary, summary_fields

_CATEGORIES = ("opening_tile", "end")
ENGINE_SOURCES = ("fast/*.py", "tiles.py", "rng.py", "rules.py", "records.py", "summary.py",
                  "strategies.py")
"""The sources that decide a hand's record: their digest is the engine version of a sweep."""


# ---------------------------------------------------------------------------- chunk files
def encode_hands(frame: pd.DataFrame) -> bytes:
    """One chunk's hand records as Parquet bytes.

    Every column is declared non-null (records have no missing values, and the writer then skips
    definition levels); the integer columns are byte-stream-split and zstd-compressed (about 8
    bytes a hand at 4 players), the hand index delta-encoded and the only column with statistics,
    the two categorical columns dictionary-encoded. Together these take a third of the time of
    pyarrow's defaults, which matters: a rows sweep encodes every hand it plays.
    """
    table = pa.Table.from_pandas(frame, preserve_index=False)
    schema = pa.schema([f.with_nullable(False) for f in table.schema],
                       metadata=table.schema.metadata)
    encoding = {c: "BYTE_STREAM_SPLIT" for c in table.column_names if c not in _CATEGORIES}
    encoding["hand"] = "DELTA_BINARY_PACKED"
    sink = io.BytesIO()
    pq.write_table(table.cast(schema), sink, compression="zstd", compression_level=1,
                   use_dictionary=list(_CATEGORIES), column_encoding=encoding,
                   write_statistics=["hand"])
    return sink.getvalue()


def encode_sums(sums: np.ndarray, players: int, chunk: int, start: int) -> bytes:
    """One chunk's sums as a one-row Parquet table: ``chunk``, ``start``, then every field of
    :func:`~dominosim.summary.summary_fields` (``hands`` first)."""
    columns = {"chunk": pa.array([chunk], pa.int32()), "start": pa.array([start], pa.int64())}
    for name, value in zip(summary_fields(players), sums, strict=True):
        columns[name] = pa.array([value], pa.float64())
    sink = io.BytesIO()
    pq.write_table(pa.table(columns), sink)
    return sink.getvalue()


# ---------------------------------------------------------------------------- reading back
def read_sums(root: Path, cell: int, rules) -> Summary:
    """The sums of every finished chunk of ``cell`` under ``root``, added up in chunk order."""
    folder = Path(root) / "sums" / f"cell={cell}"
    total = Summary.empty(rules)
    names = summary_fields(rules.players)
    for path in sorted(folder.glob("chunk-*.parquet")):
        table = pq.read_table(path, columns=names)
        total = total + Summary(rules, np.array([table[n][0].as_py() for n in names]))
    return total


def read_hands(root: str | Path, cells: int | list[int] | None = None) -> pd.DataFrame:
    """The hand records of a sweep run with ``keep = "rows"``, with a ``cell`` column.

    Cells of different player counts have different per-seat columns: the frame holds them all
    (missing seats are empty). ``cells`` picks one cell or several.

    Examples
    --------
    >>> import tempfile
    >>> from dominosim.batch import parse_sweep, run_sweep
    >>> out = Path(tempfile.mkdtemp()) / "out"
    >>> sweep = parse_sweep('hands = 40\\nkeep = "rows"\\n[rules]\\npreset = "draw"\\n'
    ...                     '[grid]\\nplayers = [2, 3]\\n')
    >>> _ = run_sweep(sweep, out, quiet=True)
    >>> df = read_hands(out, cells=1)
    >>> len(df), df["cell"].unique().tolist(), "pips_2" in df
    (40, [1], True)
    """
    folder = Path(root) / "hands"
    wanted = [cells] if isinstance(cells, int) else cells
    parts = sorted((int(p.name.split("=", 1)[1]), p) for p in folder.glob("cell=*"))
    parts = [(c, p) for c, p in parts if wanted is None or c in wanted]
    frames = []
    for cell, path in parts:
        table = pds.dataset(path, format="parquet").to_table()
        frame = table.to_pandas()
        frame.insert(0, "cell", np.int32(cell))
        frames.append(frame)
    if not frames:
        raise ValueError(f"The folder {str(root)!r} holds no hand records for cells {cells!r} "
                         "(hand records are written with keep = \"rows\").")
    return pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]


# ---------------------------------------------------------------------------- the summary table
def summary_row(s: Summary) -> dict[str, float]:
    """The estimates of one cell: rates with 95% Wilson intervals, means and differences with
    95% normal intervals.

    ``opener_wins`` is the share of hands won by the opener's side; ``opener_advantage`` is that
    share less a fair share of the decided hands, ``(1 - ties) / sides`` (RULES.md), and
    ``opener_points_advantage`` the opener's side's mean points per hand less the mean over all
    sides. ``side<k>_wins`` is side ``k``'s share of the hands (a tie counts for no side).
    """
    n, rules = s.n_hands, s.rules
    sides = rules.n_sides
    row: dict[str, float] = {"hands": n, "sides": sides}
    for name, key in (("opener_wins", "opener_side_wins"), ("blocked", "blocked"),
                      ("ties", "ties")):
        row[name] = s.rate(key)
        row[f"{name}_low"], row[f"{name}_high"] = wilson_interval(s[key], n)
    # per hand: 1[opener's side wins] + 1[tie] / S - 1 / S; the two events exclude each other
    p, t = row["opener_wins"], row["ties"]
    advantage = p - (1 - t) / sides
    var = p * (1 - p) + t * (1 - t) / sides**2 - 2 * p * t / sides
    _with_interval(row, "opener_advantage", advantage, math.sqrt(max(var, 0.0) / n))
    # per hand: points * 1[opener's side wins] - points / S
    mean = (s["rel_points_0"] - s["points"] / sides) / n
    square = (s["rel_points_sq_0"] * (1 - 2 / sides) + s["points_sq"] / sides**2) / n
    _with_interval(row, "opener_points_advantage", mean,
                   math.sqrt(max(square - mean * mean, 0.0) / max(n - 1, 1)))
    for name in ("points", "stitch_ups", "plays", "draws", "knocks"):
        _with_interval(row, name, *s.mean(name))
    for k in range(sides):
        row[f"side{k}_wins"] = s[f"side_wins_{k}"] / n
        row[f"side{k}_wins_low"], row[f"side{k}_wins_high"] = wilson_interval(s[f"side_wins_{k}"], n)
    return row


def _with_interval(row: dict, name: str, estimate: float, se: float) -> None:
    row[name] = estimate
    row[f"{name}_low"], row[f"{name}_high"] = estimate - Z95 * se, estimate + Z95 * se


def summary_table(cells, sums: list[Summary]) -> pd.DataFrame:
    """One row per cell: its axes, line-up and :func:`summary_row` (side columns up to the most
    sides of any cell, empty where a cell has fewer)."""
    rows = []
    for cell, s in zip(cells, sums, strict=True):
        row = {"cell": cell.index, "label": cell.label, "preset": cell.preset,
               "players": cell.rules.players, "partnerships": cell.rules.partnerships,
               "strategies": cell.strategies_label, "lineup": ",".join(cell.lineup)}
        for key, value in cell.axes:
            if key not in row:
                row[key] = value
        row.update(summary_row(s))
        rows.append(row)
    frame = pd.DataFrame(rows)
    sides = [c for c in frame.columns if re.match(r"side\d+_", c)]
    return frame[[c for c in frame.columns if c not in sides] + sides]


def table_bytes(frame: pd.DataFrame) -> tuple[bytes, bytes]:
    """The summary table as Parquet and as CSV bytes."""
    sink = io.BytesIO()
    frame.to_parquet(sink, index=False)
    return sink.getvalue(), frame.to_csv(index=False, float_format="%.6g").encode()


# ---------------------------------------------------------------------------- versions
def engine_version() -> dict[str, str]:
    """The engine that plays the hands: a digest of :data:`ENGINE_SOURCES` and numba's version.

    >>> sorted(engine_version())
    ['name', 'numba', 'sources_sha256']
    """
    import numba

    root = Path(__file__).resolve().parent.parent
    paths = sorted(p for pattern in ENGINE_SOURCES for p in root.glob(pattern))
    h = hashlib.sha256()
    for p in paths:
        h.update(p.relative_to(root).as_posix().encode() + b"\0" + p.read_bytes())
    return {"name": "fast", "sources_sha256": h.hexdigest()[:16], "numba": numba.__version__}


def versions() -> dict[str, str]:
    """Versions of the package and of the libraries that write the results."""
    from .. import __version__

    return {"dominosim": __version__, "python": platform.python_version(),
            "numpy": np.__version__, "pandas": pd.__version__, "pyarrow": pa.__version__}
