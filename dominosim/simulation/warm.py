"""Compiling the engine's kernels ahead of time, on every core at once.

The compiled engine runs one kernel per game family and line-up kind (its
:class:`~dominosim.fast.shape.Shape`, its output and its search), compiled by numba on first use
and kept in numba's disk cache. numba's compilation holds the GIL, so threads cannot share it:
:class:`Compiler` compiles every kernel that is not on disk yet in its own worker process (one per
core), each writing the disk cache, and the calling process loads each kernel from the cache as
soon as it is there. A sweep plays a cell as soon as its kernel is ready
(:func:`dominosim.batch.run.run_local`); :func:`warm` (``ds.warm``, ``dominosim warm``) compiles
ahead of time, for a machine or a notebook image prepared before its users arrive.

Examples
--------
Draw's ``bully`` shares Block's kernel (every line-up with a style plays on the general kernel of
its set size):

>>> import dominosim as ds
>>> [k.label for k in kernels([ds.Rules.preset("block"), ds.Rules.preset("draw")],
...                           ["random", "bully"])]
['block 2p random', 'block 2p bully', 'draw 2p random']
"""

from __future__ import annotations

import dataclasses
import os
import pickle
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_futures
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..checks import check_jobs, refuse
from ..progress import bar, want_progress
from ..rules import Rules
from .play import check_rules

KEEPS = ("summary", "rows")
COMPILE_CPU_SECONDS = {"": 12.0, "search": 45.0, "solve": 80.0}
"""CPU seconds one kernel takes to compile in a new process on the project's machine, by search
kind (``benchmarks/README.md``, issue 21): what an estimate counts for a kernel not on disk."""
LOAD_SECONDS = 0.4
"""Seconds to load one kernel from the disk cache."""


@dataclass(frozen=True)
class Kernel:
    """One compiled kernel: equal kernels are one compilation.

    ``keep`` is the compiled output (``'summary'`` or ``'rows'``; a search's summary is played
    by its rows' kernel, :func:`dominosim.fast.engine.kernel_keep`), ``shape`` the
    specialisation, ``search`` what the search's scratch adds (``''``, ``'search'``,
    ``'solve'``); ``rules`` and ``dims`` are one game it plays (what a worker compiles it with)
    and ``label`` names it.
    """

    keep: str
    shape: Any
    search: str
    rules: Rules = field(compare=False)
    dims: tuple[int, ...] | None = field(compare=False)
    label: str = field(compare=False)


def kernel_of(rules: Rules, strategies: Any, keep: str = "summary", label: str = "") -> Kernel:
    """The kernel that plays ``strategies`` on ``rules`` with output ``keep``; raises
    ``ValueError`` for what the compiled engine cannot play.
    """
    from ..fast import engine as fast

    if keep not in KEEPS:
        raise ValueError(f"The value for `keep` must be one of {', '.join(map(repr, KEEPS))}, "
                         f"but {keep!r} was passed.")
    run = fast.prepare(check_rules(rules), strategies)
    dims = None if run.dims is None else tuple(int(d) for d in run.dims)
    label = label or f"{_game(rules)} {_lineup_label(strategies)}"
    return Kernel(fast.kernel_keep(run, keep), run.shape, fast.search_kind(run), rules, dims,
                  label)


def kernels(rules_list: Iterable[Rules], lineups: Iterable[Any],
            keep: str | Iterable[str] = "summary") -> list[Kernel]:
    """The distinct kernels of every line-up on every rule set (outputs ``keep``), in order of
    first use.
    """
    keeps = [keep] if isinstance(keep, str) else list(keep)
    lineups = list(lineups)
    found: dict[Kernel, Kernel] = {}
    for rules in rules_list:
        check_rules(rules)
        for lineup in lineups:
            for k in keeps:
                kernel = kernel_of(rules, lineup, k)
                found.setdefault(kernel, kernel)
    return list(found)


def _game(rules: Rules) -> str:
    from ..rules import PRESETS

    for name in PRESETS:
        try:
            if Rules.preset(name, players=rules.players, partnerships=rules.partnerships,
                            max_pip=rules.max_pip) == rules:
                return f"{name} {rules.players}p"
        except ValueError:
            continue
    return f"double-{rules.max_pip} {rules.players}p"


def _lineup_label(lineup: Any) -> str:
    seats = lineup if isinstance(lineup, (list, tuple)) else [lineup]
    return "/".join(dict.fromkeys(getattr(s, "name", str(s)) for s in seats))


def _run_of(kernel: Kernel) -> Any:
    """A run that the kernel plays (its line-up does not matter to the compiled code: codes,
    budgets and plug-in addresses are data).
    """
    from ..fast import engine as fast

    run = fast.prepare(kernel.rules, "random")
    dims = None if kernel.dims is None else np.array(kernel.dims, dtype=np.int64)
    return dataclasses.replace(run, shape=kernel.shape, dims=dims)


def on_disk(kernel: Kernel) -> bool:
    """Whether ``kernel`` is compiled already: in this process or in numba's disk cache."""
    from ..fast import engine as fast
    from ..fast.core.diskcache import on_disk as entry_on_disk

    return entry_on_disk(*fast.entry_call(_run_of(kernel), kernel.keep))


def compile_here(kernel: Kernel) -> float:
    """Compile ``kernel`` (or load it from the disk cache) in this process; returns the CPU
    seconds it took. What a worker process runs.
    """
    from ..fast import engine as fast

    clock = time.process_time()
    fast.compile_kernel(_run_of(kernel), kernel.keep)
    return time.process_time() - clock


class _Worker:
    """A Python process that compiles the kernels it is sent (:func:`serve`), one at a time.

    A plain subprocess, not :mod:`multiprocessing`: its ``spawn`` start re-runs the caller's main
    script, which a user's script without a ``__main__`` guard cannot survive, and ``fork`` copies
    a process whose threads may hold locks.
    """

    def __init__(self) -> None:
        env = dict(os.environ)
        root = str(Path(__file__).resolve().parents[2])  # the folder of this very dominosim
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        import numba

        if numba.config.CACHE_DIR:
            env["NUMBA_CACHE_DIR"] = numba.config.CACHE_DIR
        self.process = subprocess.Popen(
            [sys.executable, "-c", "from dominosim.simulation.warm import serve; serve()"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)

    def compile(self, kernel: Kernel) -> float:
        """Compile ``kernel`` in the process; the CPU seconds it took."""
        _send(self.process.stdin, kernel)
        reply = _receive(self.process.stdout)
        if reply is None:
            raise RuntimeError(f"The process compiling the kernel of {kernel.label!r} stopped "
                               f"(exit status {self.process.wait()}).")
        seconds, error = reply
        if error is not None:
            raise RuntimeError(error)
        return seconds

    def close(self) -> None:
        """Let the process finish (end of its input) or stop it."""
        try:
            if self.process.stdin is not None:
                self.process.stdin.close()
            self.process.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()


def _send(stream: Any, obj: Any) -> None:
    data = pickle.dumps(obj)
    stream.write(len(data).to_bytes(8, "little") + data)
    stream.flush()


def _receive(stream: Any) -> Any:
    head = stream.read(8)
    if len(head) < 8:
        return None
    return pickle.loads(stream.read(int.from_bytes(head, "little")))  # noqa: S301 - our own pipe


def serve() -> None:
    """A worker process's loop: read kernels on standard input, compile each, answer ``(cpu
    seconds, error or None)`` on standard output (what numba prints goes to standard error).
    """
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    requests = sys.stdin.buffer
    while True:
        kernel = _receive(requests)
        if kernel is None:
            return
        try:
            _send(answers, (compile_here(kernel), None))
        except Exception as error:  # noqa: BLE001 - handed to the caller as a sentence
            _send(answers, (0.0, f"{type(error).__name__}: {error}"))


class Compiler:
    """Compiles ``todo`` (kernels not on disk) in worker processes, at most ``workers`` at once,
    in order; :meth:`ready` says whether a kernel may be played now (a kernel not in ``todo`` always
    is) and :meth:`wait` blocks until one more is compiled. ``on_compiled(kernel, cpu_seconds,
    error)`` is called in this process for each, in the order they finish.

    A kernel whose worker fails counts as ready: the process that plays it then compiles it itself
    and meets the error where it would have without the workers.
    """

    def __init__(self, todo: list[Kernel], workers: int,
                 on_compiled: Callable[[Kernel, float, BaseException | None], None] | None = None):
        self.todo, self.on_compiled = list(todo), on_compiled
        self.futures: dict[Future, Kernel] = {}
        self.waiting = set(self.todo)
        self.pool = None
        self.workers: list[_Worker] = []
        self.local = threading.local()
        if self.todo:
            n = max(1, min(workers, len(self.todo)))
            self.pool = ThreadPoolExecutor(max_workers=n, thread_name_prefix="dominosim-compile")
            self.futures = {self.pool.submit(self._compile, k): k for k in self.todo}

    def _compile(self, kernel: Kernel) -> float:
        """In a thread of the pool: compile in the thread's own worker process."""
        worker = getattr(self.local, "worker", None)
        if worker is None:
            worker = self.local.worker = _Worker()
            self.workers.append(worker)
        return worker.compile(kernel)

    def _finish(self, future: Future) -> None:
        kernel = self.futures.pop(future)
        self.waiting.discard(kernel)
        error = future.exception()
        seconds = 0.0 if error is not None else future.result()
        if self.on_compiled is not None:
            self.on_compiled(kernel, seconds, error)

    def _poll(self) -> None:
        for future in [f for f in self.futures if f.done()]:
            self._finish(future)

    def ready(self, kernel: Kernel) -> bool:
        """Whether ``kernel`` can be played now (compiled, or never needed compiling)."""
        if kernel in self.waiting:
            self._poll()
        return kernel not in self.waiting

    def wait(self) -> None:
        """Block until at least one more kernel is compiled (nothing if none is waiting)."""
        if self.futures:
            finished, _ = wait_futures(list(self.futures), return_when=FIRST_COMPLETED)
            for future in finished:
                self._finish(future)

    @property
    def finished(self) -> bool:
        """Whether every kernel is compiled."""
        self._poll()
        return not self.waiting

    def close(self) -> None:
        """Drop the kernels not started and end the worker processes (a kernel being compiled is
        finished first, unless this process is being interrupted).
        """
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None
        for worker in self.workers:
            worker.close()

    def __enter__(self) -> Compiler:
        """The compiler itself; leaving the block closes it."""
        return self

    def __exit__(self, kind: Any, *exc: Any) -> None:
        """Close; on Ctrl-C, stop the worker processes at once."""
        if kind is not None and issubclass(kind, KeyboardInterrupt):
            for worker in self.workers:
                worker.process.kill()
        self.close()


def in_ready_order(tasks: Iterable[Any], kernel: Callable[[Any], Kernel],
                   compiler: Compiler) -> Iterator[Any]:
    """``tasks`` in their order, except that a task whose kernel is still compiling waits (with the
    later tasks of that kernel) until it is ready, while tasks of ready kernels go ahead.
    """
    held: dict[Kernel, list[Any]] = {}

    def released() -> Iterator[Any]:
        for k in [k for k in held if compiler.ready(k)]:
            yield from held.pop(k)

    for task in tasks:
        yield from released()
        k = kernel(task)
        if k in held or not compiler.ready(k):
            held.setdefault(k, []).append(task)
        else:
            yield task
    while held:
        yield from released()
        if held:
            compiler.wait()


def workers_for(n_jobs: int | None) -> int:
    """Worker processes for ``n_jobs`` cores (default: every core numba may use)."""
    import numba

    return n_jobs if n_jobs is not None else numba.config.NUMBA_NUM_THREADS


def estimate_seconds(todo: list[Kernel], cached: int, cores: int) -> float:
    """Wall seconds to compile ``todo`` on ``cores`` worker processes and load ``cached`` kernels
    (:data:`COMPILE_CPU_SECONDS`, :data:`LOAD_SECONDS`): the work spread over the cores, but never
    less than the longest kernel.
    """
    if not todo:
        return cached * LOAD_SECONDS
    costs = [COMPILE_CPU_SECONDS[k.search] for k in todo]
    return max(sum(costs) / max(1, min(cores, len(todo))), max(costs)) + \
        (cached + len(todo)) * LOAD_SECONDS


def warm(rules_list: Rules | Iterable[Rules], lineups: Any = "random", *,
         keep: str | Iterable[str] = "summary", n_jobs: int | None = None,
         progress: bool | None = None) -> pd.DataFrame:
    """Compile the kernels that ``lineups`` on ``rules_list`` need, on every core at once.

    Each kernel not in numba's disk cache yet is compiled in a worker process (one per core), so
    that later runs, here or in any process of this machine, load it in a fraction of a second.

    Parameters
    ----------
    rules_list : Rules or sequence of Rules
        The game families.
    lineups : str, strategy or list
        A line-up, or a list of line-ups, each as :func:`~dominosim.simulate` takes
        ``strategies`` (a name for every seat, or a list of one per seat:
        ``[["bully", "random"]]``); default ``'random'``.
    keep : {'summary', 'rows'} or both
        The outputs to compile for (``simulate``'s ``keep``; a sweep keeps ``'summary'``).
    n_jobs : int, optional
        Worker processes (default: every core numba may use).
    progress : bool, optional
        A progress bar (by default on a terminal or in Jupyter, when something compiles).

    Returns
    -------
    pandas.DataFrame
        One row per kernel: ``kernel`` (a game and line-up it plays), ``keep``, ``shape``,
        ``status`` (``'compiled'``, ``'on disk'`` or ``'failed: ...'``) and ``cpu_seconds``.

    Examples
    --------
    >>> import dominosim as ds
    >>> table = ds.warm([ds.Rules.preset("block", players=2)], "random", keep="rows")
    >>> table[["kernel", "keep"]].values.tolist(), set(table["status"]) <= {"compiled", "on disk"}
    ([['block 2p random', 'rows']], True)
    """
    rules_list, keeps = _check_rules_list(rules_list), _check_keeps(keep)
    if isinstance(lineups, (list, tuple)) and not lineups:
        raise refuse("lineups", "a line-up or a non-empty list of line-ups", lineups)
    lineups = list(lineups) if isinstance(lineups, (list, tuple)) else [lineups]
    check_jobs(n_jobs)
    want_progress(progress, work=0, long=1)
    return compile_all(kernels(rules_list, lineups, keeps), n_jobs=n_jobs, progress=progress)


def _check_rules_list(value: Any) -> list[Rules]:
    """``warm``'s game families: a ``Rules`` or a non-empty list or tuple of them."""
    found = [value] if isinstance(value, Rules) else \
        list(value) if isinstance(value, (list, tuple)) else []
    if not found or not all(isinstance(r, Rules) for r in found):
        raise refuse("rules_list", "a Rules or a non-empty list of Rules (for example "
                     "[Rules.preset('block', players=4)])", value)
    return found


def _check_keeps(value: Any) -> list[str]:
    """``warm``'s outputs: ``'summary'``, ``'rows'`` or a non-empty list or tuple of them."""
    found = [value] if isinstance(value, str) else \
        list(value) if isinstance(value, (list, tuple)) else []
    if not found or not all(isinstance(k, str) and k in KEEPS for k in found):
        raise refuse("keep", "'summary', 'rows' or a non-empty list of them", value)
    return found


def compile_all(found: list[Kernel], *, n_jobs: int | None = None,
                progress: bool | None = None) -> pd.DataFrame:
    """Compile every kernel of ``found`` not on disk yet, in worker processes (:func:`warm`, which
    says what the table holds).
    """
    cores = workers_for(check_jobs(n_jobs))
    todo = [k for k in found if not on_disk(k)]
    rows = {k: {"kernel": k.label, "keep": k.keep, "shape": _shape_text(k), "status": "on disk",
                "cpu_seconds": 0.0} for k in found}
    show = want_progress(progress, work=len(todo), long=1)
    with bar(total=len(todo), desc="compiling kernels", unit="kernel", show=show,
             unit_scale=False) as compile_bar:

        def compiled(kernel: Kernel, seconds: float, error: BaseException | None) -> None:
            rows[kernel].update(status="compiled" if error is None else f"failed: {error}",
                                cpu_seconds=round(seconds, 1))
            compile_bar.set_postfix_str(kernel.label, refresh=False)
            compile_bar.update(1)

        with Compiler(todo, cores, compiled) as compiler:
            while not compiler.finished:
                compiler.wait()
    return pd.DataFrame(list(rows.values()),
                        columns=["kernel", "keep", "shape", "status", "cpu_seconds"])


def _shape_text(kernel: Kernel) -> str:
    shape = kernel.shape
    facts = [f"words={shape.words}"] + [name for name in ("line", "draws", "styles", "plugins")
                                         if getattr(shape, name)]
    return ", ".join(facts + ([kernel.search] if kernel.search else []))
