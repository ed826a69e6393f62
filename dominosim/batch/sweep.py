r"""Sweep files: the TOML schema, its validation and its expansion into cells and chunks.

A sweep file names base rules (a preset plus overrides), grid axes whose every combination is a
cell, the hands per cell, the seed, the chunk size and what to keep. Everything is checked here,
before anything runs: a problem raises one ``ValueError`` sentence that names the key and, where
the file shows it, its line.

Examples
--------
>>> sweep = parse_sweep('''
... hands = 1_000
... chunk_size = 400
... [rules]
... preset = "block"
... [grid]
... players = [2, 3]
... strategies = ["random", ["bully", "random"]]
... ''')
>>> len(sweep.cells), [c.label for c in sweep.cells][:2]
(4, ['block 2p random', 'block 2p bully/random'])
>>> sweep.cells[3].lineup, [(c.start, c.n) for c in sweep.chunks() if c.cell == 0]
(('bully', 'random', 'bully'), [(0, 400), (400, 400), (800, 200)])
>>> parse_sweep('hands = 10\n[rules]\npreset = "blok"\n', source="s.toml")
Traceback (most recent call last):
...
ValueError: s.toml, line 3: The value for `rules.preset` must be one of 'block', 'draw', 'cross', 'double_nine_cross', 'ivory', but 'blok' was passed.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..checks import refuse
from ..rng import check_seed
from ..rules import PRESETS, Rules
from ..strategies.registry import NAMES as STRATEGY_IDS
from .lineups import player_files, plugin_paths, plugin_source_digest, refusal

KEEPS = ("summary", "rows")
TOP_KEYS = ("name", "description", "seed", "hands", "chunk_size", "keep", "out", "strategies",
            "rules", "grid")
RULE_FIELDS = tuple(f.name for f in dataclasses.fields(Rules))
RULES_KEYS = ("preset", *RULE_FIELDS)
GRID_KEYS = ("preset", "strategies", *RULE_FIELDS)
DEFAULT_CHUNK = 1_000_000
MAX_CHUNKS = 100_000
"""Chunks one sweep may have (over every cell): each is a task, a manifest line and files."""
MAX_SWEEP_HANDS = 1 << 50
"""Hands one sweep may play over every cell (as :data:`dominosim.simulation.play.MAX_HANDS` for one run)."""

DEFAULT_SWEEP = """\
# The built-in sweep of `python -m dominosim.batch`: Block against Draw and the other seed games
# at 2, 3 and 4 players in individual play (so that Block and Draw differ only in drawing), with
# every seat playing uniformly at random, then every seat playing `bully`.
name = "block_vs_draw"
description = "Block against Draw: the opener's advantage, blocked hands, points and stitch-ups of the seed games at 2 to 4 players, individual play."
seed = 2026
hands = 500_000
chunk_size = 250_000
keep = "summary"
out = "results/block_vs_draw"

[rules]
partnerships = false

[grid]
preset = ["block", "draw", "cross", "double_nine_cross", "ivory"]
players = [2, 3, 4]
strategies = ["random", "bully"]
"""


@dataclass(frozen=True)
class Cell:
    """One combination of the grid axes: its rules and line-up.

    Attributes
    ----------
    index : int
        Position in the sweep (the ``cell=`` partition of the results).
    preset : str
        The preset the rules were built from.
    axes : tuple of (str, value)
        The value of every grid axis in this cell (line-ups as tuples of names).
    rules : Rules
        The cell's validated rules.
    strategies : tuple of str
        The line-up as the sweep gives it: seat ``s`` plays ``strategies[s % len(strategies)]``.
    lineup : tuple of str
        The strategy of every seat.
    """

    index: int
    preset: str
    axes: tuple[tuple[str, Any], ...]
    rules: Rules
    strategies: tuple[str, ...]
    lineup: tuple[str, ...]

    @property
    def strategies_label(self) -> str:
        """The line-up as the sweep gave it, names joined by ``/`` (``'bully/random'``)."""
        return "/".join(self.strategies)

    @property
    def label(self) -> str:
        """A short name: preset, players, line-up, then the other axes (``'draw 3p random'``)."""
        parts = [self.preset, f"{self.rules.players}p", self.strategies_label]
        parts += [f"{k}={v}" for k, v in self.axes if k not in ("preset", "players", "strategies")]
        return " ".join(parts)

    def describe(self) -> dict[str, Any]:
        """The cell as plain data (for metadata and the fingerprint of a sweep)."""
        return {"cell": self.index, "label": self.label, "preset": self.preset,
                "axes": {k: list(v) if isinstance(v, tuple) else v for k, v in self.axes},
                "rules": self.rules.to_dict(), "strategies": list(self.strategies),
                "lineup": list(self.lineup)}


@dataclass(frozen=True)
class Chunk:
    """Hands ``start .. start + n - 1`` of cell ``cell``; the ``index``-th chunk of that cell."""

    cell: int
    index: int
    start: int
    n: int


@dataclass(frozen=True)
class Sweep:
    """A validated sweep: settings and cells (build one with :func:`parse_sweep`)."""

    name: str
    description: str
    seed: int
    hands: int
    chunk_size: int
    keep: str
    out: str
    cells: tuple[Cell, ...]
    text: str
    source: str

    @property
    def total_hands(self) -> int:
        """Hands over every cell."""
        return self.hands * len(self.cells)

    def chunks(self) -> list[Chunk]:
        """Every chunk of every cell, cell by cell."""
        return [Chunk(c.index, j, lo, min(self.chunk_size, self.hands - lo))
                for c in self.cells
                for j, lo in enumerate(range(0, self.hands, self.chunk_size))]

    @property
    def chunks_per_cell(self) -> int:
        """Chunks in each cell."""
        return -(-self.hands // self.chunk_size)

    def with_hands(self, hands: int) -> Sweep:
        """The same sweep with another number of hands per cell."""
        _check_positive("hands", hands)
        _check_limits("hands", hands, self.chunk_size, len(self.cells), self.keep)
        return dataclasses.replace(self, hands=hands)

    def plan(self) -> dict[str, Any]:
        """Everything that decides the results (not names, labels or the form of the file): two
        runs with equal plans write equal files. A plug-in's module is there as the digest of its
        file (:func:`~dominosim.batch.lineups.plugin_source_digest`).
        """
        plan = {"seed": self.seed, "hands": self.hands, "chunk_size": self.chunk_size,
                "keep": self.keep,
                "cells": [{"rules": c.rules.to_dict(), "lineup": list(c.lineup)}
                          for c in self.cells]}
        plugins = plugin_paths(c.lineup for c in self.cells)
        if plugins:  # a plug-in's code decides its hands: a changed module is another sweep
            plan["plugins"] = {path: plugin_source_digest(path) for path in plugins}
        players = player_files(c.lineup for c in self.cells)
        if players:  # so do a saved player's weights: a changed file is another sweep
            plan["players"] = players
        return plan


def _refuse(key: str, allowed: str, value: Any) -> ValueError:
    return refuse(key, allowed, value, limit=200)


def _check_limits(key: str, hands: int, chunk_size: int, n_cells: int, keep: str) -> None:
    """The limits of a sweep, checked before any chunk is listed (``key`` is the one to blame
    for hands and chunks: ``'hands'`` or ``--hands``).
    """
    from ..simulation.play import MAX_ROWS

    if hands > MAX_SWEEP_HANDS // max(n_cells, 1):
        raise _refuse(key, f"at most {MAX_SWEEP_HANDS // max(n_cells, 1):,} with {n_cells} "
                      f"cells (at most 2**50 hands a sweep)", hands)
    if n_cells * -(-hands // chunk_size) > MAX_CHUNKS:
        raise _refuse(key, f"at most {MAX_CHUNKS:,} chunks a sweep: {n_cells} cells x "
                      f"{-(-hands // chunk_size):,} chunks of {chunk_size:,} hands is too many; "
                      "raise chunk_size or lower hands", hands)
    if keep == "rows" and chunk_size > MAX_ROWS:
        raise _refuse("chunk_size", f"at most {MAX_ROWS:,} with keep = \"rows\" (the hands of "
                      "a chunk are held in memory)", chunk_size)


def _check_positive(key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise _refuse(key, "an integer of 1 or more", value)
    return value


class _SweepError(ValueError):
    """A problem with a key: ``where`` is its dotted path, for the line look-up."""

    def __init__(self, where: str, message: str):
        super().__init__(message)
        self.where = where


def _located(where: str, error: ValueError) -> _SweepError:
    return _SweepError(where, str(error))


def parse_sweep(text: str, *, source: str = "<sweep>") -> Sweep:
    r"""Validate a sweep file's text and expand it into cells.

    Parameters
    ----------
    text : str
        The TOML text (schema in the README, section "Batch sweeps").
    source : str
        The file's name, used in error messages.

    Returns
    -------
    Sweep

    Raises
    ------
    ValueError
        One sentence naming the key, the allowed values and the value found, prefixed by
        ``source`` and the key's line where the file shows it.

    Examples
    --------
    >>> s = parse_sweep('hands = 5\n[rules]\npreset = "draw"\nplayers = 3\n')
    >>> [c.label for c in s.cells], s.keep, s.seed
    (['draw 3p random'], 'summary', 0)
    >>> parse_sweep('hands = 5\nhadns = 6\n', source="s.toml")
    Traceback (most recent call last):
    ...
    ValueError: s.toml, line 2: The key `hadns` is not a sweep setting: the keys are name, description, seed, hands, chunk_size, keep, out, strategies, rules, grid.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        found = re.search(r"\(at line (\d+), column \d+\)", str(e))
        where = f"{source}, line {found.group(1)}" if found else source
        reason = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(e))
        raise ValueError(f"{where}: The sweep file is not valid TOML: {reason}.") from None
    try:
        return _build(data, text, source)
    except _SweepError as e:
        line = _line_of(text, e.where)
        where = f"{source}, line {line}" if line else source
        raise ValueError(f"{where}: {e}") from None


def load_sweep(path: str | Path) -> Sweep:
    """Read and validate the sweep file at ``path`` (see :func:`parse_sweep`)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"The sweep file {str(path)!r} cannot be read: "
                         f"{getattr(e, 'strerror', None) or e}.") from None
    return parse_sweep(text, source=str(path))


def default_sweep() -> Sweep:
    """The built-in sweep of ``python -m dominosim.batch`` (Block against Draw).

    >>> s = default_sweep()
    >>> len(s.cells), s.hands, s.cells[0].label
    (30, 500000, 'block 2p random')
    """
    return parse_sweep(DEFAULT_SWEEP, source="<default sweep>")


def _unknown(where: str, key: str, allowed: tuple[str, ...], what: str) -> _SweepError:
    return _SweepError(where, f"The key `{key}` is not {what}: the keys are "
                       f"{', '.join(allowed)}.")


def _table(data: dict, key: str) -> dict:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise _SweepError(key, str(_refuse(key, "a table", value)))
    return value


def _build(data: dict, text: str, source: str) -> Sweep:
    for key in data:
        if key not in TOP_KEYS:
            raise _unknown(key, key, TOP_KEYS, "a sweep setting")
    rules, grid = _table(data, "rules"), _table(data, "grid")
    for key in rules:
        if key not in RULES_KEYS:
            raise _unknown(f"rules.{key}", key, RULES_KEYS, "a field of the rules")
    for key in grid:
        if key not in GRID_KEYS:
            raise _unknown(f"grid.{key}", key, GRID_KEYS, "a grid axis")
        if key in rules:
            raise _SweepError(f"grid.{key}", f"The key `{key}` is both in [rules] and in [grid]: "
                              "give it in one place.")
    axes = _axes(grid)
    n_cells = math.prod(len(values) for _, values in axes)
    if n_cells > MAX_CHUNKS:
        raise _SweepError("grid", f"The grid must have at most {MAX_CHUNKS:,} cells (one chunk "
                          f"each at least), but its axes make {n_cells:,}.")
    settings = _settings(data, source, n_cells)
    base_lineup = _lineup("strategies", data.get("strategies", "random"))
    if "preset" in rules:
        _check_preset("rules.preset", rules["preset"])
    elif "preset" not in grid:
        raise _SweepError("rules", "The value for `rules.preset` must be given (in [rules], or as "
                          "an axis in [grid]): one of " + ", ".join(map(repr, PRESETS)) + ".")
    cells = []
    for index, combo in enumerate(itertools.product(*(values for _, values in axes))):
        chosen = tuple(zip((k for k, _ in axes), combo, strict=True))
        cells.append(_cell(index, chosen, rules, base_lineup))
    return Sweep(cells=tuple(cells), text=text, source=source, **settings)


def _settings(data: dict, source: str, n_cells: int) -> dict[str, Any]:
    stem = Path(source).stem if not source.startswith("<") else "sweep"
    name = data.get("name", stem)
    description = data.get("description", "")
    for key, value in (("name", name), ("description", description)):
        if not isinstance(value, str):
            raise _SweepError(key, str(_refuse(key, "a string", value)))
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}", name):  # a name, never a path
        raise _SweepError("name", str(_refuse(
            "name", "up to 100 letters, digits, '_', '-' or '.', starting with a letter or digit",
            name)))
    try:
        seed = check_seed(data.get("seed", 0))
    except ValueError as e:
        raise _located("seed", e) from None
    if "hands" not in data:
        raise _SweepError("", "The value for `hands` (hands per cell) must be given: an integer of "
                          "1 or more.")
    hands = _positive("hands", data["hands"])
    chunk_size = _positive("chunk_size", data.get("chunk_size", min(hands, DEFAULT_CHUNK)))
    keep = data.get("keep", "summary")
    if not isinstance(keep, str) or keep not in KEEPS:
        raise _SweepError("keep", str(_refuse("keep", "one of " + ", ".join(map(repr, KEEPS)),
                                              keep)))
    out = data.get("out", f"results/{name}")
    if not isinstance(out, str) or not out or "\0" in out:
        raise _SweepError("out", str(_refuse("out", "a folder path as a string", out)))
    try:
        _check_limits("hands", hands, chunk_size, n_cells, keep)
    except ValueError as e:
        raise _located("chunk_size" if "`chunk_size`" in str(e) else "hands", e) from None
    return dict(name=name, description=description, seed=seed, hands=hands,
                chunk_size=chunk_size, keep=keep, out=out)


def _positive(key: str, value: Any) -> int:
    try:
        return _check_positive(key, value)
    except ValueError as e:
        raise _located(key, e) from None


def _check_preset(where: str, value: Any) -> str:
    if not isinstance(value, str) or value not in PRESETS:
        raise _SweepError(where, str(_refuse(where, "one of " + ", ".join(map(repr, PRESETS)),
                                             value)))
    return value


def _axes(grid: dict) -> list[tuple[str, tuple]]:
    axes = []
    for key, values in grid.items():
        where = f"grid.{key}"
        if not isinstance(values, list) or not values:
            raise _SweepError(where, str(_refuse(where, "a non-empty array of values", values)))
        if key == "preset":
            values = [_check_preset(where, v) for v in values]
        elif key == "strategies":
            values = [_lineup(where, v) for v in values]
        if len(set(map(repr, values))) < len(values):
            raise _SweepError(where, str(_refuse(where, "an array without repeated values",
                                                 values)))
        axes.append((key, tuple(values)))
    return axes


def _lineup(where: str, value: Any) -> tuple[str, ...]:
    names = ", ".join(map(repr, STRATEGY_IDS))
    allowed = (f"a built-in strategy name ({names}), a search with a budget ('mc:200'), a "
               "plug-in's import path ('package.module:function') or a saved player "
               "('file:player.npz'), or an array of them, one per seat in turn")
    items = value if isinstance(value, list) else [value]
    if not items:
        raise _SweepError(where, str(_refuse(where, allowed, value)))
    for item in items:
        reason = refusal(item) if isinstance(item, str) else None
        if not isinstance(item, str) or reason is not None:
            error = str(_refuse(where, allowed, item))
            if reason is not None and not reason.startswith("it is neither"):
                error = f"{error[:-1]}: {reason}."
            raise _SweepError(where, error)
    return tuple(items)


def _cell(index: int, chosen: tuple[tuple[str, Any], ...], rules: dict,
          base_lineup: tuple[str, ...]) -> Cell:
    fields = {**rules, **{k: v for k, v in chosen if k != "strategies"}}
    preset = fields.pop("preset")
    players = fields.pop("players", 2)
    lineup = dict(chosen).get("strategies", base_lineup)
    context = ", ".join(f"{k}={'/'.join(v) if k == 'strategies' else v!r}" for k, v in chosen)
    try:
        built = Rules.preset(preset, players=players, **fields)
    except ValueError as e:
        field = re.search(r"`(\w+)`", str(e))
        key = field.group(1) if field else "preset"
        where = f"grid.{key}" if key in dict(chosen) else f"rules.{key}"
        suffix = f" (in the cell {context})" if context else ""
        raise _SweepError(where, f"{str(e).rstrip('.')}{suffix}.") from None
    if len(lineup) > built.players:
        where = "grid.strategies" if "strategies" in dict(chosen) else "strategies"
        raise _SweepError(where, str(_refuse(
            where, f"at most one name per seat ({built.players} at this table)", list(lineup))))
    seats = tuple(lineup[s % len(lineup)] for s in range(built.players))
    return Cell(index, preset, chosen, built, tuple(lineup), seats)


def _line_of(text: str, where: str) -> int | None:
    """The line of the key ``where`` (dotted path: ``'grid.players'``) in a TOML text, when a
    ``key = value`` line or a ``[table]`` header shows it.
    """
    table = ""
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        header = re.fullmatch(r"\[\s*([\w.\-\"' ]+?)\s*\]\s*(#.*)?", line)
        if header:
            table = header.group(1).replace('"', "").replace("'", "").replace(" ", "")
            if table == where:
                return number
            continue
        key = re.match(r"([\w.\-\"' ]+?)\s*=", line)
        if key:
            name = key.group(1).replace('"', "").replace("'", "").replace(" ", "")
            if (f"{table}.{name}" if table else name) == where:
                return number
    return None
