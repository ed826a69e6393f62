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

import functools
import hashlib
import io
import json
import math
import platform
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from ..analysis import wilson_interval
from ..records import SEAT_COLUMNS
from ..rules import Rules
from ..stats import Z95
from ..summary import Summary, summary_fields
from .dataset import CATEGORY_TYPES, METADATA_KEY, ChunkForm, listed_files, read_chunks


# ---------------------------------------------------------------------------- chunk files
def encode_hands(frame: pd.DataFrame, form: ChunkForm, chunk: int, start: int) -> bytes:
    """One chunk's hand records as Parquet bytes, in the sweep's schema (``form.hands``): the
    cell's columns, the records, empty per-seat columns for seats the cell does not have, and
    the file's metadata (see :mod:`dominosim.batch.dataset`).

    Columns are declared non-null where every cell has them (the writer then skips definition
    levels); the integer columns are byte-stream-split and zstd-compressed (about 8 bytes a
    hand at 4 players), the hand index delta-encoded and the only column with statistics, the
    categorical and cell columns dictionary-encoded. Together these take a third of the time of
    pyarrow's defaults, which matters: a rows sweep encodes every hand it plays.
    """
    n = len(frame)
    columns = form.cell_columns(n)
    for field in form.hands:
        if field.name in columns:
            continue
        if field.name in frame:
            values = frame[field.name]
            if isinstance(values.dtype, pd.CategoricalDtype):
                columns[field.name] = pa.DictionaryArray.from_arrays(
                    pa.array(values.cat.codes.to_numpy(), field.type.index_type),
                    pa.array(values.cat.categories.astype(str).to_numpy(), pa.string()))
            else:
                columns[field.name] = pa.array(values.to_numpy(), field.type)
        else:
            columns[field.name] = pa.nulls(n, field.type)
    schema = form.hands.with_metadata(form.file_metadata(chunk, start, n))
    table = pa.Table.from_pydict(columns, schema=schema)
    cells = [name for name, _ in form.values]
    dictionary = [*CATEGORY_TYPES, *cells]
    encoding = {f.name: "BYTE_STREAM_SPLIT" for f in form.hands
                if f.name not in dictionary and pa.types.is_integer(f.type)}
    encoding["hand"] = "DELTA_BINARY_PACKED"
    sink = io.BytesIO()
    pq.write_table(table, sink, compression="zstd", compression_level=1,
                   use_dictionary=dictionary, column_encoding=encoding,
                   write_statistics=["hand"])
    return sink.getvalue()


def encode_sums(sums: np.ndarray, players: int, form: ChunkForm, chunk: int, start: int,
                n: int) -> bytes:
    """One chunk's sums as a one-row Parquet table in the sweep's schema (``form.sums``): the
    cell's columns, ``chunk``, ``start``, then every field of
    :func:`~dominosim.summary.summary_fields` (``hands`` first) up to the sweep's largest
    player count, empty beyond the cell's.
    """
    values = dict(zip(summary_fields(players), sums, strict=True))
    columns = form.cell_columns(1)
    columns.update(chunk=pa.array([chunk], pa.int32()), start=pa.array([start], pa.int64()))
    for field in form.sums:
        if field.name not in columns:
            columns[field.name] = pa.array([values.get(field.name)], pa.float64())
    schema = form.sums.with_metadata(form.file_metadata(chunk, start, n))
    sink = io.BytesIO()
    pq.write_table(pa.Table.from_pydict(columns, schema=schema), sink)
    return sink.getvalue()


# ---------------------------------------------------------------------------- reading back
def read_sums(root: str | Path, cell: int, rules: Rules | None = None) -> Summary:
    r"""The :class:`~dominosim.Summary` of ``cell``: the sums of the chunks the manifest of
    ``root`` lists, added up in chunk order (a stray file is named in a warning and left out).

    ``rules`` default to those the cell's files carry in their metadata.

    >>> import tempfile
    >>> from dominosim.batch import parse_sweep, run_sweep
    >>> out = tempfile.mkdtemp()
    >>> _ = run_sweep(parse_sweep('hands = 300\nchunk_size = 100\n[rules]\npreset = "draw"\n'),
    ...               out, quiet=True)
    >>> read_sums(out, 0)
    Summary of 300 hands, Rules.preset('draw', players=2): blocked ...
    """
    paths = listed_files(root, "sums", [cell])
    if rules is None:
        if not paths:
            raise ValueError(f"The value for `cell` must be a cell with finished chunks in "
                             f"{str(root)!r} (or pass `rules`), but {cell!r} was passed.")
        meta = json.loads(pq.read_schema(paths[0]).metadata[METADATA_KEY])
        rules = Rules(**meta["cell"]["rules"])
    total = Summary.empty(rules)
    names = summary_fields(rules.players)
    for path in paths:
        table = pq.read_table(path, columns=names)
        total = total + Summary(rules, np.array([table[n][0].as_py() for n in names]))
    return total


def read_hands(root: str | Path, cells: int | list[int] | None = None) -> pd.DataFrame:
    r"""The hand records of a sweep run with ``keep = "rows"``: the ``cell`` number, the cell's
    columns (preset, players, line-up, swept rule options) and the records.

    A thin reader of the ``hands/`` dataset (:mod:`dominosim.batch.dataset`): it reads the
    chunks the manifest lists (a stray file is named in a warning and left out). ``cells`` picks
    one cell or several; per-seat columns go up to the most players among them, empty (NaN)
    for the seats a cell does not have. Any Parquet reader takes the same folder whole, e.g.
    ``pd.read_parquet(root / "hands")``.

    Examples
    --------
    >>> import tempfile
    >>> from dominosim.batch import parse_sweep, run_sweep
    >>> out = Path(tempfile.mkdtemp()) / "out"
    >>> sweep = parse_sweep('hands = 40\nkeep = "rows"\n[rules]\npreset = "draw"\n'
    ...                     '[grid]\nplayers = [2, 3]\n')
    >>> _ = run_sweep(sweep, out, quiet=True)
    >>> df = read_hands(out, cells=1)
    >>> len(df), df["cell"].unique().tolist(), df["players"].unique().tolist(), "pips_2" in df
    (40, [1], [3], True)
    >>> read_hands(out).groupby("players")["hand"].count().to_dict()
    {2: 40, 3: 40}
    """
    wanted = [cells] if isinstance(cells, int) else cells
    table = read_chunks(root, "hands", wanted)
    if table.num_rows == 0:
        raise ValueError(f"The folder {str(root)!r} holds no hand records for cells {cells!r} "
                         "(hand records are written with keep = \"rows\").")
    most = pc.max(table["players"]).as_py()
    seat = re.compile(rf"({'|'.join(SEAT_COLUMNS)})_(\d+)")

    def kept(name: str) -> bool:
        found = seat.fullmatch(name)
        return name != "cell" and (found is None or int(found.group(2)) < most)

    names = ["cell"] + [n for n in table.column_names if kept(n)]
    return table.select(names).to_pandas()


# ---------------------------------------------------------------------------- the summary table
def summary_row(s: Summary) -> dict[str, float]:
    """The estimates of one cell: rates with 95% Wilson intervals, means and differences with
    95% normal intervals.

    ``opener_wins`` is the share of hands won by the opener's side; ``opener_advantage`` is that
    share less a fair share of the decided hands, ``(1 - ties) / sides`` (docs/rules.md), and
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
    sides of any cell, empty where a cell has fewer).
    """
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


def table_bytes(frame: pd.DataFrame, metadata: dict | None = None) -> tuple[bytes, bytes]:
    """The summary table as Parquet and as CSV bytes; ``metadata`` (the sweep, its cells, the
    versions) goes as JSON under the Parquet file's ``dominosim`` key.
    """
    table = pa.Table.from_pandas(frame, preserve_index=False)
    if metadata is not None:
        table = table.replace_schema_metadata(
            {**table.schema.metadata, METADATA_KEY: json.dumps(metadata, sort_keys=True).encode()})
    sink = io.BytesIO()
    pq.write_table(table, sink)
    return sink.getvalue(), frame.to_csv(index=False, float_format="%.6g").encode()


def summary_metadata(sweep, engine: dict) -> dict:
    """What ``summary.parquet`` carries under its ``dominosim`` key: the sweep's name,
    description and settings, every cell (rules, line-up, axes), the engine and the versions.
    """
    return {"sweep": {"name": sweep.name, "description": sweep.description, "seed": sweep.seed,
                      "hands": sweep.hands, "chunk_size": sweep.chunk_size, "keep": sweep.keep},
            "seed": sweep.seed, "cells": [c.describe() for c in sweep.cells], "engine": engine,
            "versions": versions()}


# ---------------------------------------------------------------------------- versions
def engine_modules(root: str | Path | None = None) -> dict[str, str]:
    """The SHA-256 (16 hex digits) of every module of the package, by path from its folder
    (``root``, default: the folder of the package this process imported).

    Every module, not a list of those thought to matter: a module added, moved or edited anywhere
    in the package (a strategy, the reference engine, the writers) changes the engine version, so
    a folder is never resumed by a package that could play or write its hands otherwise. Read once
    per process and folder, as the process imported it.

    >>> modules = engine_modules()
    >>> "batch/output.py" in modules and "strategies/styles.py" in modules
    True
    """
    folder = Path(root).resolve() if root is not None else Path(__file__).resolve().parent.parent
    return dict(_module_digests(str(folder)))


@functools.cache
def _module_digests(folder: str) -> tuple[tuple[str, str], ...]:
    root = Path(folder)
    paths = sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.parts)
    return tuple((p.relative_to(root).as_posix(), hashlib.sha256(p.read_bytes()).hexdigest()[:16])
                 for p in paths)


def engine_version(root: str | Path | None = None) -> dict[str, str]:
    """The engine that plays the hands: one digest of :func:`engine_modules` (every module of the
    package), and the versions of numba and numpy, which compile and run it.

    >>> sorted(engine_version())
    ['name', 'numba', 'numpy', 'sources_sha256']
    """
    import numba

    modules = engine_modules(root)
    text = "".join(f"{name}\0{sha}\n" for name, sha in modules.items())
    return {"name": "fast", "sources_sha256": hashlib.sha256(text.encode()).hexdigest()[:16],
            "numba": numba.__version__, "numpy": np.__version__}


def versions() -> dict[str, str]:
    """Versions of the package and of the libraries that write the results."""
    from .. import __version__

    return {"dominosim": __version__, "python": platform.python_version(),
            "numpy": np.__version__, "pandas": pd.__version__, "pyarrow": pa.__version__}
