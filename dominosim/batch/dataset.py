r"""A sweep's Parquet files as one dataset: one schema for every cell, the cell's rules in every row.

Every chunk file of a sweep has the same columns, whatever the player count of its cell, so any
Parquet reader takes a whole folder (``hands/``, ``sums/``) at once and keeps every column:

- **per-seat and per-side columns up to the sweep's largest player count**: a 2-player cell of a
  sweep over 2, 3 and 4 players has ``pips_2`` and ``pips_3`` (and ``rel_points_2``... in
  ``sums/``), empty (null) in its rows;
- **the cell's columns**: ``preset``, ``players``, ``partnerships``, ``strategies`` (the line-up as
  the sweep gives it, ``'bully/random'``), ``lineup`` (every seat's strategy, ``'bully,random,bully'``),
  ``label`` (``'draw 3p bully/random'``), then every other swept rule option under its own name
  (``rule_<name>`` where a record column has that name: ``rule_end``), so rows group by rules
  without a join. Text columns are dictionary-encoded (categorical in pandas). The ``cell``
  number is the Hive partition of the folder (``cell=<c>``);
- **key-value metadata** ``dominosim`` in every file: JSON with the sweep's settings (``seed``,
  ``hands``, ``chunk_size``, ``keep``), the cell (its rules, line-up, axes), the chunk, the engine
  and the library versions. It holds only what decides the results, so a resumed sweep still writes
  identical bytes.

:func:`read_chunks` reads the files the manifest lists (a stray file is named in a warning and left
out); :func:`~dominosim.batch.read_hands` and :func:`~dominosim.batch.read_sums` are built on it.

Examples
--------
>>> import tempfile, json
>>> from pathlib import Path
>>> import pyarrow.parquet as pq
>>> from dominosim.batch import parse_sweep, run_sweep
>>> sweep = parse_sweep('hands = 30\nkeep = "rows"\n[rules]\npreset = "block"\n'
...                     '[grid]\nplayers = [2, 3]\n')
>>> out = Path(tempfile.mkdtemp())
>>> _ = run_sweep(sweep, out, quiet=True)
>>> f = pq.ParquetFile(out / "hands" / "cell=0" / "chunk-000000.parquet")
>>> "pips_2" in f.schema_arrow.names, f.read(columns=["pips_2"])["pips_2"].null_count
(True, 30)
>>> meta = json.loads(f.schema_arrow.metadata[b"dominosim"])
>>> meta["cell"]["rules"]["players"], meta["sweep"]["seed"], sorted(meta["versions"])[:2]
(2, 0, ['dominosim', 'numpy'])
"""

from __future__ import annotations

import json
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.dataset as pds

from ..records import BASE_COLUMNS, SEAT_COLUMNS
from ..summary import summary_fields
from .store import Store

METADATA_KEY = b"dominosim"
"""The key of every file's key-value metadata that holds its JSON description."""

CELL_COLUMNS = ("preset", "players", "partnerships", "strategies", "lineup", "label")
"""The columns every file has for its cell, before the swept rule options."""

PARTITIONING = pds.partitioning(pa.schema([("cell", pa.int32())]), flavor="hive")
"""The folders' partitioning: ``cell=<c>``."""

CATEGORY_TYPES = {"opening_tile": pa.dictionary(pa.int16(), pa.string()),
                  "end": pa.dictionary(pa.int8(), pa.string())}
"""The Arrow types of the categorical record columns (the rest follow their NumPy dtypes)."""
_SUMS_HEAD = (("chunk", pa.int32()), ("start", pa.int64()))


@dataclass(frozen=True)
class ChunkForm:
    """How the chunk files of one cell are written (sent with each chunk to whoever plays it).

    Attributes
    ----------
    hands, sums : pyarrow.Schema
        The sweep's schemas of hand records and of sums (the same for every cell).
    values : tuple of (str, value)
        The cell's columns and their values.
    metadata : dict
        What every file of the cell carries under the ``dominosim`` key (the chunk is added).
    """

    hands: pa.Schema
    sums: pa.Schema
    values: tuple[tuple[str, Any], ...]
    metadata: dict

    def cell_columns(self, n: int) -> dict[str, pa.Array]:
        """The cell's columns for ``n`` rows (text as a one-word dictionary: cheap to build and
        to store).
        """
        columns = {}
        for name, value in self.values:
            kind = self.hands.field(name).type
            if pa.types.is_dictionary(kind):
                word = value if isinstance(value, str) or value is None else str(value)
                columns[name] = pa.DictionaryArray.from_arrays(
                    pa.array(np.zeros(n, np.int8)), pa.array([word], kind.value_type))
            else:
                columns[name] = pa.repeat(pa.scalar(value, kind), n)
        return columns

    def file_metadata(self, chunk: int, start: int, n: int) -> dict[bytes, bytes]:
        """The key-value metadata of one chunk file."""
        meta = dict(self.metadata, chunk={"index": chunk, "start": start, "hands": n})
        return {METADATA_KEY: json.dumps(meta, sort_keys=True).encode()}


def cell_values(cell, axis_names: list[str]) -> dict[str, Any]:
    """The cell's columns: :data:`CELL_COLUMNS`, then the swept rule options (``rule_end`` for
    the rule ``end``, whose name is a record column).
    """
    values = {"preset": cell.preset, "players": cell.rules.players,
              "partnerships": cell.rules.partnerships, "strategies": cell.strategies_label,
              "lineup": ",".join(cell.lineup), "label": cell.label}
    for key in axis_names:
        values[_axis_column(key)] = getattr(cell.rules, key)
    return values


def _axis_column(key: str) -> str:
    return f"rule_{key}" if key in BASE_COLUMNS else key


def _axes(sweep) -> list[str]:
    """The swept rule options that are not cell columns already."""
    names: list[str] = []
    for cell in sweep.cells:
        for key, _ in cell.axes:
            if key not in ("preset", "players", "partnerships", "strategies") and key not in names:
                names.append(key)
    return names


_TEXT = pa.dictionary(pa.int8(), pa.string())


def _cell_schema(sweep, axis_names: list[str]) -> list[pa.Field]:
    fields = [pa.field("preset", _TEXT, nullable=False),
              pa.field("players", pa.int8(), nullable=False),
              pa.field("partnerships", pa.bool_(), nullable=False),
              pa.field("strategies", _TEXT, nullable=False),
              pa.field("lineup", _TEXT, nullable=False),
              pa.field("label", _TEXT, nullable=False)]
    for key in axis_names:
        values = [getattr(c.rules, key) for c in sweep.cells]
        kinds = {type(v) for v in values if v is not None}
        kind = pa.array(values).type if len(kinds) == 1 else pa.string()
        if pa.types.is_string(kind):
            kind = _TEXT
        fields.append(pa.field(_axis_column(key), kind, nullable=any(v is None for v in values)))
    return fields


def chunk_forms(sweep, engine: dict, versions: dict) -> dict[int, ChunkForm]:
    """The :class:`ChunkForm` of every cell of ``sweep``, by cell index.

    Per-seat columns are declared nullable where some cell of the sweep has fewer seats; every
    other column is declared non-null.
    """
    players = [c.rules.players for c in sweep.cells]
    most, fewest = max(players), min(players)
    axis_names = _axes(sweep)
    head = _cell_schema(sweep, axis_names)
    records = [pa.field(name, CATEGORY_TYPES.get(name, pa.from_numpy_dtype(dtype)), nullable=False)
               for name, dtype in BASE_COLUMNS.items()]
    records += [pa.field(f"{prefix}_{s}", pa.from_numpy_dtype(dtype), nullable=s >= fewest)
                for prefix, dtype in SEAT_COLUMNS.items() for s in range(most)]
    hands = pa.schema(head + records)
    names = summary_fields(most)
    short = set(names) - set(summary_fields(fewest))
    sums = pa.schema(head + [pa.field(n, t, nullable=False) for n, t in _SUMS_HEAD]
                     + [pa.field(n, pa.float64(), nullable=n in short) for n in names])
    settings = {"seed": sweep.seed, "hands": sweep.hands, "chunk_size": sweep.chunk_size,
                "keep": sweep.keep}
    forms = {}
    for cell in sweep.cells:
        description = cell.describe()
        meta = {"sweep": settings, "seed": sweep.seed,
                "cell": {k: description[k] for k in ("preset", "axes", "rules", "strategies",
                                                     "lineup", "label")},
                "engine": engine, "versions": versions}
        forms[cell.index] = ChunkForm(hands, sums, tuple(cell_values(cell, axis_names).items()),
                                      meta)
    return forms


# ---------------------------------------------------------------------------- reading
def listed_files(root: str | Path, kind: str, cells: list[int] | None = None) -> list[Path]:
    """The ``kind`` files (``'hands'`` or ``'sums'``) of the chunks the manifest of ``root``
    lists, in cell and chunk order; every other Parquet file in that folder is named in a
    warning and left out (a copy of a chunk, say, would otherwise count twice).
    """
    root = Path(root)
    listed = {}
    for (cell, chunk), entry in sorted(Store(root).listed().items()):
        if cells is not None and cell not in cells:
            continue
        for name in entry["files"]:
            if name.startswith(f"{kind}/") and (root / name).is_file():
                listed[(root / name).resolve()] = (cell, chunk)
    folder = root / kind
    wanted = None if cells is None else {f"cell={c}" for c in cells}
    for path in sorted(folder.rglob("*.parquet")) if folder.is_dir() else []:
        if path.name.startswith(".") or path.resolve() in listed:
            continue
        if wanted is None or path.parent.name in wanted:
            warnings.warn(f"The file {str(path)!r} is not a chunk the sweep's manifest lists (a "
                          "copy, or a file of another run): it is left out.", stacklevel=3)
    return list(listed)


def read_chunks(root: str | Path, kind: str, cells: list[int] | None = None,
                columns: list[str] | None = None) -> pa.Table:
    r"""The ``kind`` files of the chunks the manifest lists as one table, with the ``cell``
    partition column (see :func:`listed_files`).

    >>> import tempfile
    >>> from dominosim.batch import parse_sweep, run_sweep
    >>> out = tempfile.mkdtemp()
    >>> _ = run_sweep(parse_sweep('hands = 20\n[rules]\npreset = "draw"\n'), out, quiet=True)
    >>> read_chunks(out, "sums", columns=["cell", "players", "hands"]).to_pylist()
    [{'cell': 0, 'players': 2, 'hands': 20.0}]
    """
    files = listed_files(root, kind, cells)
    if not files:
        return pa.table({})
    dataset = pds.dataset([str(p) for p in files], format="parquet", partitioning=PARTITIONING,
                          partition_base_dir=str((Path(root) / kind).resolve()))
    return dataset.to_table(columns=columns)
