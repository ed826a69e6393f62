r"""The entry points of a batch sweep: :func:`run_sweep` and :func:`dry_run`.

Examples
--------
>>> import tempfile
>>> from pathlib import Path
>>> from dominosim.batch import parse_sweep
>>> sweep = parse_sweep('hands = 300\nchunk_size = 100\n[rules]\npreset = "draw"\n'
...                     '[grid]\nplayers = [2, 4]\n')
>>> out = Path(tempfile.mkdtemp()) / "out"
>>> first = run_sweep(sweep, out, quiet=True)
>>> first.chunks_played, first.summary["hands"].tolist()
(6, [300, 300])
>>> run_sweep(sweep, out, quiet=True).chunks_played          # everything is finished
0
"""

from __future__ import annotations

import dataclasses
import datetime
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import numba
import pandas as pd

from .dataset import chunk_forms
from .lineups import playable, plugin_paths
from .markdown import render
from .output import (
    engine_modules,
    engine_version,
    read_sums,
    summary_metadata,
    summary_table,
    table_bytes,
    versions,
)
from .run import (
    Progress,
    Task,
    encode,
    play,
    play_and_encode,
    run_dask,
    run_local,
    task_of,
    tasks_of,
)
from .store import Store, write_atomic
from .sweep import Chunk, Sweep


@dataclass
class SweepResult:
    """What :func:`run_sweep` did: the folder, the summary table, and the chunks it played."""

    out: Path
    summary: pd.DataFrame
    chunks_played: int
    chunks_skipped: int
    hands_played: int
    seconds: float

    SHOWN = ("label", "hands", "opener_advantage", "opener_advantage_low",
             "opener_advantage_high", "blocked", "ties", "points", "stitch_ups")
    """The summary's columns an HTML display shows (``summary`` holds them all)."""

    def __repr__(self) -> str:
        """One line: the folder, the cells and what this run played."""
        return (f"SweepResult({len(self.summary)} cells into {str(self.out)!r}: "
                f"{self.chunks_played} chunks played ({self.hands_played:,} hands in "
                f"{self.seconds:.1f} s), {self.chunks_skipped} finished earlier)")

    def _repr_html_(self) -> str:
        from ..display import card, frame

        shown = [c for c in self.SHOWN if c in self.summary]
        return card("Sweep", f"into {str(self.out)!r}: {len(self.summary)} cells, "
                    f"{self.chunks_played} chunks played ({self.hands_played:,} hands in "
                    f"{self.seconds:.1f} s), {self.chunks_skipped} finished earlier",
                    frame(self.summary[shown]),
                    "<p>Every column: <code>result.summary</code>; the report: "
                    "<code>report.md</code> in the folder.</p>")


def check_jobs(jobs: Any) -> int | None:
    """``jobs`` as the number of local cores to use (None: all that numba may use)."""
    most = numba.config.NUMBA_NUM_THREADS
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int)
                             or not 1 <= jobs <= most):
        raise ValueError(f"The value for `--jobs` must be an integer from 1 to {most} (the cores "
                         f"numba may use), but {jobs!r} was passed.")
    return jobs


def check_run(sweep: Sweep, out: str | Path | None = None, *, jobs: int | None = None,
              fresh: bool = False, client: Any = None) -> tuple[Store, bool]:
    """Refuse what :func:`run_sweep` would refuse (``ValueError``), writing nothing; returns the
    output folder's :class:`~dominosim.batch.store.Store` and whether the run starts afresh.
    """
    check_jobs(jobs)
    if jobs is not None and client is not None:
        raise ValueError("The value for `--jobs` must be left out with a Dask cluster (its "
                         f"workers' threads decide), but {jobs!r} was passed.")
    store = Store(Path(out if out is not None else sweep.out))
    return store, store.check(sweep.plan(), engine_version(), fresh=fresh,
                              modules=engine_modules())


def run_sweep(sweep: Sweep, out: str | Path | None = None, *, jobs: int | None = None,
              client: Any = None, fresh: bool = False, quiet: bool = False,
              stream: TextIO | None = None, play_fn=play_and_encode) -> SweepResult:
    """Play every unfinished chunk of ``sweep`` into the folder ``out`` and write its summary,
    report and metadata.

    Parameters
    ----------
    sweep : Sweep
        From :func:`~dominosim.batch.parse_sweep`, :func:`~dominosim.batch.load_sweep` or
        :func:`~dominosim.batch.default_sweep`.
    out : path, optional
        The output folder (default: the sweep's ``out``). A folder holding another sweep, or
        chunks of another engine build, is refused unless ``fresh``.
    jobs : int, optional
        Local cores (default: all); not with ``client``.
    client : distributed.Client, optional
        Play the chunks on this Dask cluster's workers instead (one core per chunk).
    fresh : bool
        Remove what an earlier sweep wrote to ``out`` first.
    quiet : bool
        No progress bar or log lines.
    stream : file, optional
        Where progress goes (default: standard error).
    play_fn : callable
        What Dask workers run for a chunk (default :func:`~dominosim.batch.run.play_and_encode`).

    Returns
    -------
    SweepResult

    Raises
    ------
    ValueError
        For a refused folder or ``jobs``, before anything is written.
    OSError
        When the folder cannot be written (a full or read-only disk);
        :class:`~dominosim.batch.store.OutputFailure` when its ``metadata.json`` is damaged.
        Nothing half-written is left; finished chunks are kept.
    """
    store, fresh = check_run(sweep, out, jobs=jobs, fresh=fresh, client=client)
    try:
        return _run(sweep, store, fresh, jobs, client, quiet, stream, play_fn)
    finally:
        store.release()


def _run(sweep: Sweep, store: Store, fresh: bool, jobs: int | None, client: Any, quiet: bool,
         stream: TextIO | None, play_fn) -> SweepResult:
    plan, engine = sweep.plan(), engine_version()
    started, clock = datetime.datetime.now(datetime.UTC), time.perf_counter()
    finished = store.prepare(fresh=fresh)
    done = {key for key, entry in finished.items() if _matches(sweep, key, entry)}
    runs = [] if fresh or not store.metadata_path.exists() else store.read_metadata()["runs"]
    run = {"started": started.isoformat(timespec="seconds"), "finished": None,
           "runner": "dask" if client is not None else "local",
           "cores": (sum(client.nthreads().values()) if client is not None
                     else jobs or numba.config.NUMBA_NUM_THREADS),
           "chunks_skipped": len(done)}
    metadata = _metadata(sweep, plan, engine, runs + [run])
    store.write_metadata(metadata)
    write_atomic(store.root / "sweep.toml", sweep.text.encode())
    todo = tasks_of(sweep, done)
    log = _logger(quiet, stream)
    log(f"sweep {sweep.name!r}: {len(sweep.cells)} cells, "
        f"{len(sweep.cells) * sweep.chunks_per_cell} chunks "
        f"({len(done)} finished earlier), {sweep.total_hands:,} hands, into {store.root}")
    if todo:
        # load (the first time on a machine: compile) the engine before the clock of progress
        log("loading the compiled engine (the first run on a machine compiles a kernel per game family, about 10 s each)")
        warm = dataclasses.replace(todo[0], n=1)
        if client is not None:
            plugins = tuple(plugin_paths(c.lineup for c in sweep.cells))
            if plugins:  # every worker imports every plug-in now, or the run stops here
                client.run(playable, plugins)
            client.run(play, warm, 1)
        else:
            play(warm, jobs)
    progress = Progress(sweep, done, quiet=quiet, stream=stream)
    try:
        if client is not None:
            run_dask(store, todo, progress, client, play_fn=play_fn)
        else:
            run_local(store, todo, progress, jobs)
    finally:
        progress.close()
    table = summary_table(sweep.cells, [read_sums(store.root, c.index, c.rules)
                                        for c in sweep.cells])
    parquet, csv = table_bytes(table, summary_metadata(sweep, engine))
    write_atomic(store.root / "summary.parquet", parquet)
    write_atomic(store.root / "summary.csv", csv)
    write_atomic(store.root / "report.md", render(sweep, table).encode())
    seconds = time.perf_counter() - clock
    played = sum(t.n for t in todo)
    run.update(finished=datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
               seconds=round(seconds, 3), chunks_played=len(todo), hands_played=played,
               hands_per_second=round(played / seconds) if seconds else None)
    store.write_metadata(metadata)
    log(f"wrote {store.root / 'summary.csv'} and {store.root / 'report.md'}")
    return SweepResult(store.root, table, len(todo), len(done), played, seconds)


def _logger(quiet: bool, stream: TextIO | None):
    def log(text: str) -> None:
        if not quiet:
            print(f"dominosim.batch: {text}", file=stream if stream is not None else sys.stderr,
                  flush=True)
    return log


def _matches(sweep: Sweep, key: tuple[int, int], entry: dict) -> bool:
    cell, index = key
    if not 0 <= cell < len(sweep.cells):
        return False
    start = index * sweep.chunk_size
    return (entry.get("start") == start and 0 <= start < sweep.hands
            and entry.get("hands") == min(sweep.chunk_size, sweep.hands - start))


def _metadata(sweep: Sweep, plan: dict, engine: dict, runs: list[dict]) -> dict:
    return {"sweep": {"name": sweep.name, "description": sweep.description,
                      "source": sweep.source, "text": sweep.text},
            "seed": sweep.seed, "hands_per_cell": sweep.hands, "chunk_size": sweep.chunk_size,
            "keep": sweep.keep, "cells": [c.describe() for c in sweep.cells], "engine": engine,
            "engine_modules": engine_modules(), "versions": versions(), "plan": plan,
            "runs": runs}


def dry_run(sweep: Sweep, out: str | Path | None = None, *, jobs: int | None = None,
            sample: int = 20_000) -> str:
    r"""What :func:`run_sweep` would do, as text: cells, chunks, hands (those already finished in
    ``out`` left out) and an estimated time from playing up to ``sample`` hands of every cell on
    this machine's ``jobs`` cores (fewer where they take over half a second: search strategies).
    Writes nothing.

    >>> from dominosim.batch import parse_sweep
    >>> text = dry_run(parse_sweep('hands = 5_000\n[rules]\npreset = "draw"\n'), sample=500)
    >>> print(text.splitlines()[0])
    Sweep 'sweep': 1 cells x 5,000 hands = 5,000 hands, seed 0, keep 'summary', chunks of 5,000.
    """
    check_jobs(jobs)
    store = Store(Path(out if out is not None else sweep.out))
    store.check(sweep.plan(), engine_version(), fresh=False, modules=engine_modules())
    done = {k for k, e in store.finished().items() if _matches(sweep, k, e)}
    # counted, not listed: a sweep's chunks are never built here (the manifest is what is read)
    per_cell = sweep.chunks_per_cell
    last = sweep.hands - (per_cell - 1) * sweep.chunk_size
    left = {c.index: [per_cell, sweep.hands] for c in sweep.cells}
    for done_cell, index in done:
        left[done_cell][0] -= 1
        left[done_cell][1] -= last if index == per_cell - 1 else sweep.chunk_size
    lines = [f"Sweep {sweep.name!r}: {len(sweep.cells)} cells x {sweep.hands:,} hands = "
             f"{sweep.total_hands:,} hands, seed {sweep.seed}, keep {sweep.keep!r}, "
             f"chunks of {sweep.chunk_size:,}.",
             f"Output folder {store.root}: {per_cell * len(sweep.cells):,} chunks, {len(done)} "
             f"finished, {sum(n for n, _ in left.values()):,} to play "
             f"({sum(h for _, h in left.values()):,} hands).", ""]
    rows, total = [], 0.0
    forms = chunk_forms(sweep, engine_version(), versions())
    for cell in sweep.cells:
        chunks, hands = left[cell.index]
        seconds = 0.0
        if chunks:
            index = next(j for j in range(per_cell) if (cell.index, j) not in done)
            start = index * sweep.chunk_size
            first = task_of(sweep, Chunk(cell.index, index, start,
                                         min(sweep.chunk_size, sweep.hands - start)),
                            forms[cell.index])
            seconds = _estimate(first, sample, jobs) * hands
        total += seconds
        rows.append({"cell": cell.index, "rules, players, line-up": cell.label,
                     "chunks to play": chunks, "hands to play": hands,
                     "seconds (est.)": round(seconds, 1)})
    with pd.option_context("display.width", 200, "display.max_colwidth", 60):
        lines.append(pd.DataFrame(rows).to_string(index=False))
    cores = jobs or numba.config.NUMBA_NUM_THREADS
    lines += ["", f"Estimated time: {total:,.0f} s on {cores} local cores (from up to {sample:,} "
              "hands of each cell played now; a Dask cluster of single-threaded workers takes "
              "about this times the local cores over its workers)."]
    return "\n".join(lines)


ESTIMATE_SECONDS = 0.5
"""A dry run's sample of a cell grows until playing it takes this long (or reaches ``sample``): a
cell of searches (``"mc:200"``) is timed on a few hundred hands, not on thousands."""


def _estimate(task: Task, sample: int, jobs: int | None) -> float:
    """Seconds per hand of a task's cell, from a sample played now: 16 hands, then as many as
    :data:`ESTIMATE_SECONDS` should take by that pace, up to ``sample``.
    """
    play(dataclasses.replace(task, index=0, start=0, n=1), jobs)
    n = min(sample, task.n, 16)
    while True:
        probe = dataclasses.replace(task, index=0, start=0, n=n)
        clock = time.perf_counter()
        encode(probe, play(probe, jobs))
        seconds = time.perf_counter() - clock
        most = min(sample, task.n)
        if seconds >= ESTIMATE_SECONDS or n >= most:
            return seconds / n
        n = min(most, max(2 * n, int(n * ESTIMATE_SECONDS / max(seconds, 1e-6))))
