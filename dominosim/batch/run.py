r"""Running a sweep: chunks as tasks, the local runner, the Dask runner, progress.

A chunk is hands ``start .. start + n - 1`` of one cell; hand ``i`` depends only on
``(seed, i)``, so a chunk's files are the same whoever plays it, whenever. The local runner plays
chunks one after another on every core (numba threads) while a writer thread stores the previous
one; the Dask runner sends each chunk to a worker, which plays it on one core and sends back its
encoded files, and this process stores them. Either way, only this process writes the folder.

Examples
--------
>>> from dominosim.batch import parse_sweep
>>> sweep = parse_sweep('hands = 500\nchunk_size = 200\n[rules]\npreset = "block"\n')
>>> [(t.start, t.n) for t in tasks_of(sweep, done={(0, 1): {}})]
[(0, 200), (400, 100)]
>>> files = play_and_encode(tasks_of(sweep, done={})[0])
>>> sorted(files)
['sums/cell=0/chunk-000000.parquet']
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from itertools import islice
from typing import Any, TextIO

import pandas as pd

from ..progress import bar, in_notebook
from ..rules import Rules
from ..simulation.play import simulate
from ..summary import Summary
from .dataset import ChunkForm, chunk_forms
from .lineups import playable
from .output import encode_hands, encode_sums, engine_version, versions
from .store import Store, chunk_path
from .sweep import Chunk, Sweep


@dataclass(frozen=True)
class Task(Chunk):
    """One chunk to play (the :class:`~dominosim.batch.sweep.Chunk`, and what its cell says):
    everything a worker needs, and nothing else (it is sent to Dask).
    """

    rules: Rules
    lineup: tuple[str, ...]
    seed: int
    keep: str
    form: ChunkForm | None = None
    """How the chunk's files are written (:func:`encode` needs it; playing does not)."""


def tasks_of(sweep: Sweep, done: Iterable[tuple[int, int]]) -> list[Task]:
    """The chunks of ``sweep`` not among ``done`` (``(cell, chunk)`` pairs), in sweep order."""
    done = set(done)
    forms = chunk_forms(sweep, engine_version(), versions())
    return [task_of(sweep, c, forms[c.cell]) for c in sweep.chunks()
            if (c.cell, c.index) not in done]


def task_of(sweep: Sweep, chunk: Chunk, form: ChunkForm | None) -> Task:
    """The task of playing ``chunk`` of ``sweep`` (``form``: how its files are written)."""
    cell = sweep.cells[chunk.cell]
    return Task(chunk.cell, chunk.index, chunk.start, chunk.n, cell.rules, cell.lineup,
                sweep.seed, sweep.keep, form)


def play(task: Task, n_jobs: int | None = None) -> Summary | pd.DataFrame:
    """Play a chunk on ``n_jobs`` threads: its summary, or its hand records (``keep='rows'``).

    A plug-in of the line-up is imported and compiled the first time this process plays it.
    """
    return simulate(task.rules, playable(task.lineup), task.n, task.seed, start=task.start,
                    keep=task.keep, n_jobs=n_jobs, chunk_size=task.n, progress=False)


def encode(task: Task, result: Summary | pd.DataFrame) -> dict[str, bytes]:
    """A played chunk's files, by path relative to the output folder."""
    form = task.form
    assert form is not None, "tasks_of gives every task its form"
    if isinstance(result, pd.DataFrame):
        files = {chunk_path("hands", task.cell, task.index):
                 encode_hands(result, form, task.index, task.start)}
        result = Summary.from_frame(task.rules, result)
    else:
        files = {}
    sums = encode_sums(result.sums, task.rules.players, form, task.index, task.start, task.n)
    return {chunk_path("sums", task.cell, task.index): sums, **files}


def play_and_encode(task: Task) -> dict[str, bytes]:
    """What a Dask worker runs: play a chunk on one thread and return its encoded files."""
    return encode(task, play(task, n_jobs=1))


# ---------------------------------------------------------------------------- progress
class Progress:
    """A progress bar on a terminal or in Jupyter (cells, chunks, hands per second, time left),
    plain log lines otherwise (at most one every ``interval`` seconds, and one at the end); nothing if ``quiet``.
    """

    def __init__(self, sweep: Sweep, done: Iterable[tuple[int, int]], *, quiet: bool = False,
                 stream: TextIO | None = None, interval: float = 10.0):
        self.stream = stream if stream is not None else sys.stderr
        self.quiet, self.interval = quiet, interval
        chunks = sweep.chunks()
        self.n_chunks, self.n_cells, self.total = len(chunks), len(sweep.cells), sweep.total_hands
        done = set(done)
        self.left = {c.index: 0 for c in sweep.cells}
        self.hands = 0
        for c in chunks:
            if (c.cell, c.index) in done:
                self.hands += c.n
            else:
                self.left[c.cell] += 1
        self.chunks, self.first = len(done), self.hands
        self.started = self.last = time.perf_counter()
        self.bar = None
        # a widget in Jupyter (the kernel's stderr is no terminal), text on a terminal
        widget = stream is None and in_notebook()
        if not quiet and (widget or self.stream.isatty()):
            self.bar = bar(total=self.total, initial=self.hands, desc=sweep.name, show=True,
                           file=None if widget else self.stream, smoothing=0.1)
            self.bar.set_postfix_str(self._counts(), refresh=False)

    @property
    def cells(self) -> int:
        """Cells whose every chunk is finished."""
        return sum(1 for n in self.left.values() if n == 0)

    def _counts(self) -> str:
        return f"cells {self.cells}/{self.n_cells}, chunks {self.chunks}/{self.n_chunks}"

    def say(self, text: str) -> None:
        """A log line (not with a progress bar, nor when quiet)."""
        if not self.quiet and self.bar is None:
            print(f"dominosim.batch: {text}", file=self.stream, flush=True)

    def update(self, task: Task) -> None:
        """Count a finished chunk."""
        self.chunks += 1
        self.hands += task.n
        self.left[task.cell] -= 1
        if self.bar is not None:
            self.bar.set_postfix_str(self._counts(), refresh=False)
            self.bar.update(task.n)
            return
        now = time.perf_counter()
        if now - self.last >= self.interval or self.chunks == self.n_chunks:
            self.last = now
            rate = (self.hands - self.first) / max(now - self.started, 1e-9)
            left = (self.total - self.hands) / rate if rate else float("nan")
            self.say(f"{self._counts()}, {self.hands:,}/{self.total:,} hands, "
                     f"{rate:,.0f} hands/s, {left:,.0f} s left")

    def close(self) -> None:
        """Close the bar."""
        if self.bar is not None:
            self.bar.close()


# ---------------------------------------------------------------------------- runners
def run_local(store: Store, tasks: list[Task], progress: Progress, jobs: int | None) -> None:
    """Play ``tasks`` in this process on ``jobs`` threads; a writer thread stores each chunk while
    the next one plays (at most one chunk waits, so memory stays at two chunks).
    """

    def store_chunk(task: Task, result: Summary | pd.DataFrame) -> None:
        store.save(task.cell, task.index, task.start, task.n, encode(task, result))

    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="dominosim-writer") as writer:
        waiting = None
        for task in tasks:
            result = play(task, jobs)
            if waiting is not None:
                waiting[1].result()
                progress.update(waiting[0])
            waiting = (task, writer.submit(store_chunk, task, result))
            del result
        if waiting is not None:
            waiting[1].result()
            progress.update(waiting[0])


def run_dask(store: Store, tasks: list[Task], progress: Progress, client: Any, *,
             play_fn: Callable[[Task], dict[str, bytes]] = play_and_encode) -> None:
    """Play ``tasks`` on the workers of a ``dask.distributed`` client and store what they return.

    At most two chunks per worker thread are in flight. A chunk whose worker dies is played again
    by another worker (the scheduler reschedules it); one that raises is retried twice.
    """
    import uuid

    from distributed import as_completed

    token = uuid.uuid4().hex[:8]
    todo = iter(tasks)
    in_flight: dict[str, Task] = {}

    def submit(task: Task):
        future = client.submit(play_fn, task, key=f"dominosim-{token}-{task.cell}-{task.index}",
                               retries=2, pure=False)
        in_flight[future.key] = task
        return future

    threads = max(1, sum(client.nthreads().values()))
    queue = as_completed([submit(t) for t in islice(todo, 2 * threads)])
    for future in queue:
        task = in_flight.pop(future.key)
        files = future.result()
        future.release()
        store.save(task.cell, task.index, task.start, task.n, files)
        progress.update(task)
        following = next(todo, None)
        if following is not None:
            queue.add(submit(following))
