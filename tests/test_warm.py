"""Compiling ahead of time and in parallel: numba's disk cache shared by processes, the kernels a
run needs, the worker processes, the order in which a sweep plays its cells, the estimate."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

import dominosim as ds
from dominosim.batch import parse_sweep
from dominosim.batch.api import startup_line
from dominosim.batch.run import Progress, tasks_of
from dominosim.fast import engine as fast
from dominosim.fast.core.diskcache import on_disk as entry_on_disk
from dominosim.simulation.warm import (
    Compiler,
    estimate_seconds,
    in_ready_order,
    kernel_of,
    kernels,
    on_disk,
)

ROOT = Path(__file__).resolve().parent.parent

KERNEL = """
import numba

@numba.njit(cache=True)
def f(x):
    return x * 2 + 1
"""

COMPILE = """
import os, sys, time
import numpy as np
import dominosim.fast.core.jit  # installs the lock of numba's index (diskcache.IndexLock)
import kern

which, ready = sys.argv[1], sys.argv[2]
types = [np.int8, np.int16, np.int32, np.int64, np.uint16, np.uint32, np.float32, np.float64]
open(os.path.join(ready, f"{which}-{os.getpid()}"), "w").close()  # imported: ready to compile
deadline = time.time() + 120  # (should the other process fail to start, do not wait for ever)
while len(os.listdir(ready)) < 2 and time.time() < deadline:  # both processes start compiling
    time.sleep(0.001)  # at the same moment (within a millisecond), asleep, not spinning
for t in (types[0::2] if which == "a" else types[1::2] if which == "b" else types):
    for shape in (None, (1,), (1, 1)):
        kern.f(t(3) if shape is None else np.full(shape, 3, t))
"""

CHECK = """
import numba
import numpy as np
import kern

types = [np.int8, np.int16, np.int32, np.int64, np.uint16, np.uint32, np.float32, np.float64]
wrong = 0
for t in types:
    for shape in (None, (1,), (1, 1)):
        x = t(3) if shape is None else np.full(shape, 3, t)
        y = kern.f(x)
        if (numba.typeof(x),) not in kern.f.overloads or np.shape(y) != np.shape(x) \\
                or not np.all(np.asarray(y) == 7):
            wrong += 1
print(sum(kern.f.stats.cache_misses.values()), sum(kern.f.stats.cache_hits.values()), wrong)
"""


WINDOW = """
import fcntl, os, sys
from pathlib import Path
from numba.core import event

cache, lock = Path(sys.argv[1]), sys.argv[2]


def saved():
    return any(cache.rglob("kern.f-*.nbi"))


class Watch(event.Listener):  # registered before dominosim's, so it is told first
    compiled = False

    def on_start(self, e):
        pass

    def on_end(self, e):
        if e.kind == "numba:compile" and e.data["dispatcher"].py_func.__name__ == "f":
            print("compiled, saved:", saved(), flush=True)
            Watch.compiled = True
        elif e.kind == "numba:compiler_lock" and Watch.compiled:
            Watch.compiled = False
            fd = os.open(lock, os.O_RDWR)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                held = False
            except BlockingIOError:
                held = True
            os.close(fd)
            print("compiler lock released, saved:", saved(), "index lock held:", held, flush=True)


for kind in ("numba:compile", "numba:compiler_lock"):
    event.register(kind, Watch())
import dominosim.fast.core.jit  # noqa: E402 - after Watch
import kern  # noqa: E402
kern.f(3)
"""


def _python(folder: Path, code: str, *args: str, **env_extra: str) -> subprocess.Popen:
    env = {"PYTHONPATH": f"{ROOT}:{folder}", "PATH": "/usr/bin:/bin", **env_extra}
    return subprocess.Popen([sys.executable, "-c", code, *args], cwd=folder, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _compile_together(folder: Path, first: str, second: str) -> tuple[int, int, int]:
    """Two processes compiling signatures of one cached function at the same moment, then a third
    loading every signature: its (cache misses, cache hits, wrong results)."""
    ready = Path(tempfile.mkdtemp(dir=folder, prefix="ready-"))
    both = [_python(folder, COMPILE, which, str(ready)) for which in (first, second)]
    errors = [process.communicate(timeout=600)[1] for process in both]
    assert [process.returncode for process in both] == [0, 0], errors
    out, err = _python(folder, CHECK).communicate(timeout=600)
    assert err == "" or "Traceback" not in err, err
    misses, hits, wrong = map(int, out.split())
    return misses, hits, wrong


@pytest.mark.slow
@pytest.mark.parametrize("first, second", [("a", "b"), ("all", "all")],
                         ids=["different-signatures", "same-signatures"])
def test_diskcache_two_processes_compiling_together_leave_every_kernel_usable(tmp_path, first,
                                                                               second):
    (tmp_path / "kern.py").write_text(KERNEL)
    for _ in range(2):
        for cached in tmp_path.glob("__pycache__/*.nb*"):
            cached.unlink()
        assert _compile_together(tmp_path, first, second) == (0, 24, 0)


TURNS_KERNEL = """
from dominosim.fast.core.jit import jit

@jit
def f(x):
    return x * 2 + 1
"""

FIRST = """
import sys, time
from pathlib import Path
from numba.core import event

ready = Path(sys.argv[1])


class Slow(event.Listener):  # the compilation holds its turn until the second process is waiting
    def on_start(self, e):
        print("compiling", flush=True)

    def on_end(self, e):
        while not ready.exists():
            time.sleep(0.01)
        time.sleep(0.5)


event.register("numba:compile", Slow())
import kern  # noqa: E402

assert kern.f(3) == 7
print(sum(kern.f.stats.cache_misses.values()), sum(kern.f.stats.cache_hits.values()))
"""

SECOND = """
import sys
from pathlib import Path
import numba
import kern

numba.njit(lambda x: x)(1)  # numba's compiler set up (a second or more) before the race
Path(sys.argv[1]).touch()
assert kern.f(3) == 7
print(sum(kern.f.stats.cache_misses.values()), sum(kern.f.stats.cache_hits.values()))
"""


def test_diskcache_a_signature_being_compiled_elsewhere_is_waited_for_and_loaded(tmp_path):
    """Two processes needing one signature of a kernel at the same moment: the second waits for
    the first's turn (:class:`~dominosim.fast.core.diskcache.Turns`), then loads what it saved
    instead of compiling it again (numba counts a cache hit, not a miss)."""
    (tmp_path / "kern.py").write_text(TURNS_KERNEL)
    ready = tmp_path / "second-is-calling"
    cache = {"NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    first = _python(tmp_path, FIRST, str(ready), **cache)
    assert first.stdout.readline().strip() == "compiling"  # it holds the turn now
    second = _python(tmp_path, SECOND, str(ready), **cache)
    outs = [process.communicate(timeout=300) for process in (first, second)]
    assert [process.returncode for process in (first, second)] == [0, 0], outs
    assert [out.strip() for out, _ in outs] == ["1 0", "0 1"]


def test_diskcache_numba_saves_a_new_signature_inside_the_index_locks_window(tmp_path):
    """The lock relies on numba's order, not on a private API: a signature is saved to the index
    after its ``numba:compile`` event ends (the lock is taken then: a process holding it keeps the
    index unwritten) and before the compiler lock is released (the lock is still held then, and
    the index written). A numba that saves elsewhere fails here."""
    import fcntl

    (tmp_path / "kern.py").write_text(KERNEL)
    cache = tmp_path / "cache"
    lock = cache / "numba-index.lock"
    cache.mkdir()
    held = os.open(lock, os.O_RDWR | os.O_CREAT)
    fcntl.flock(held, fcntl.LOCK_EX)  # another process saving
    process = _python(tmp_path, WINDOW, str(cache), str(lock), NUMBA_CACHE_DIR=str(cache))
    try:
        assert process.stdout.readline().strip() == "compiled, saved: False"
        time.sleep(1.0)
        assert process.poll() is None and not any(cache.rglob("kern.f-*.nbi"))  # waits its turn
    finally:
        os.close(held)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    assert out.strip() == "compiler lock released, saved: True index lock held: True"
    assert list(cache.rglob("kern.f-*.nbi")) and list(cache.rglob("kern.f-*.1.nbc"))


def test_diskcache_index_lock_follows_the_compiler_locks_nesting(tmp_path):
    """numba's events fed by hand: the file lock is taken when a compilation ends and dropped when
    the compiler lock taken around it is released; a callee's save takes and drops it inside its
    caller's compilation; a compilation ending inside a window (or a compiler lock taken there)
    keeps it without waiting for itself."""
    import fcntl
    import threading

    from numba.core.event import Event, EventStatus

    from dominosim.fast.core.diskcache import COMPILE, COMPILER_LOCK, IndexLock

    path = tmp_path / "numba-index.lock"
    lock = IndexLock(path)

    def free() -> bool:
        fd = os.open(path, os.O_RDWR | os.O_CREAT)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            return False
        finally:
            os.close(fd)

    start, end = EventStatus.START, EventStatus.END
    steps = [(COMPILER_LOCK, start, True), (COMPILER_LOCK, start, True),  # a kernel, its callee
             (COMPILE, end, False), (COMPILER_LOCK, end, True),  # the callee saved
             (COMPILE, end, False),  # the kernel compiled: its save's window
             (COMPILER_LOCK, start, False), (COMPILER_LOCK, end, False),
             (COMPILE, end, False), (COMPILER_LOCK, end, True)]  # the kernel saved
    seen: list[bool] = []

    def run() -> None:
        for kind, status, _ in steps:
            lock.notify(Event(kind, status))
            seen.append(free())

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(20)
    assert seen == [want for _, _, want in steps]  # and never waited for itself


def test_kernels_of_random_and_styles_share_what_the_shape_shares():
    games = [ds.Rules.preset(name, players=2)
             for name in ("block", "draw", "cross", "ivory", "double_nine_cross")]
    found = kernels(games, ["random", "bully", ["doubles", "random"]])
    # random: one per family (a line with or without drawing, any other layout); every style and
    # every game of one word of tiles: the general kernel
    assert [k.label for k in found] == ["block 2p random", "block 2p bully", "draw 2p random",
                                        "cross 2p random"]
    assert kernel_of(games[0], "bully") == kernel_of(ds.Rules.preset("ivory", players=4),
                                                     ["random", "counter"] * 2)
    assert kernel_of(games[0], "bully", "rows") != kernel_of(games[0], "bully", "summary")
    with pytest.raises(ValueError, match="The value for `keep` must be one of 'summary', 'rows'"):
        kernel_of(games[0], "random", "sums")


def test_on_disk_answers_after_a_kernel_is_compiled_here():
    kernel = kernel_of(ds.Rules.preset("draw", players=2), "random", "rows")
    fast.compile_kernel(fast.prepare(kernel.rules, "random"), "rows")
    assert on_disk(kernel)
    entry, args = fast.entry_call(fast.prepare(kernel.rules, "random"), "rows")
    assert entry_on_disk(entry, args)
    assert not entry_on_disk(entry, args[:-1])  # another signature: one argument short


class _Pretend:
    """A compiler whose kernels become ready when told."""

    def __init__(self, compiling):
        self.waiting, self.waits = set(compiling), 0

    def ready(self, kernel):
        return kernel not in self.waiting

    def wait(self):
        self.waits += 1
        self.waiting.pop()


def test_in_ready_order_plays_ready_kernels_first_and_keeps_each_kernels_order():
    tasks = [("a", 1), ("b", 1), ("a", 2), ("c", 1), ("b", 2)]
    compiler = _Pretend({"a"})
    order = list(in_ready_order(tasks, lambda t: t[0], compiler))
    assert order == [("b", 1), ("c", 1), ("b", 2), ("a", 1), ("a", 2)] and compiler.waits == 1
    assert list(in_ready_order(tasks, lambda t: t[0], _Pretend(()))) == tasks


@pytest.mark.slow
def test_compiler_compiles_in_worker_processes_then_this_process_plays_them():
    """Two kernels handed to two worker processes (which compile them, or load them when an
    earlier test compiled them); they are then on disk, and simulate gives the reference engine's
    records with them."""
    games = [ds.Rules.preset("block", players=2), ds.Rules.preset("draw", players=2)]
    found = kernels(games, ["random"], "rows")
    done = []
    with Compiler(found, 2, lambda k, s, e: done.append((k.label, e, s))) as compiler:
        while not compiler.finished:
            compiler.wait()
        assert len({w.process.pid for w in compiler.workers}) == 2
    assert sorted((label, error) for label, error, _ in done) == [("block 2p random", None),
                                                                  ("draw 2p random", None)]
    assert all(seconds > 0 for _, _, seconds in done)
    assert all(on_disk(k) for k in found)
    for rules in games:
        played = ds.simulate(rules, "random", 30, seed=4)
        assert played.equals(ds.simulate(rules, "random", 30, seed=4, engine="reference"))


def test_compiler_worker_failure_counts_as_ready_with_its_error():
    kernel = kernel_of(ds.Rules.preset("block", players=2), "random", "rows")
    broken = type(kernel)(kernel.keep, kernel.shape, "", None, None, "broken")
    seen = []
    with Compiler([broken], 1, lambda k, s, e: seen.append((k.label, type(e), str(e)))) as compiler:
        compiler.wait()
        assert compiler.ready(broken) and compiler.finished
    assert [(label, kind) for label, kind, _ in seen] == [("broken", RuntimeError)]
    assert seen[0][2] == "AttributeError: 'NoneType' object has no attribute 'players'"


def test_estimate_counts_compilation_only_for_kernels_not_on_disk():
    block = kernel_of(ds.Rules.preset("block", players=2), "random")
    draw = kernel_of(ds.Rules.preset("draw", players=2), "random")
    search = kernel_of(ds.Rules.preset("draw", players=2), "mc:10")
    assert estimate_seconds([], 2, 2) == pytest.approx(0.8)
    assert estimate_seconds([block, draw], 0, 2) == pytest.approx(12 + 0.8)
    assert estimate_seconds([block, draw], 0, 1) == pytest.approx(24 + 0.8)
    assert estimate_seconds([block, search], 0, 2) == pytest.approx(45 + 0.8)  # the longest
    cold = startup_line([block, draw], [block, draw], 15_000_000, 2)
    warm = startup_line([block, draw], [], 15_000_000, 2)
    assert cold.startswith("loading the compiled engine: 2 of its 2 kernels to compile")
    assert "about 15 s on 2 worker processes" in cold and "about 15 s to play 15,000,000" in cold
    assert warm.startswith("loading the compiled engine: its 2 kernels are on disk (about 1 s")


def test_warm_command_compiles_a_sweeps_kernels_then_finds_them_on_disk(tmp_path, capsys):
    from dominosim import cli

    path = tmp_path / "s.toml"
    path.write_text('hands = 10\n[rules]\npreset = "block"\n[grid]\n'
                    'strategies = ["random", "bully", "doubles"]\n')
    assert cli.main(["warm", str(path), "--jobs", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["kernel", "keep", "shape", "status", "cpu_seconds"]
    assert [line.split()[:4] for line in lines[1:]] == [["block", "2p", "random", "summary"],
                                                         ["block", "2p", "bully", "summary"]]
    assert cli.main(["warm", str(path)]) == 0
    again = capsys.readouterr().out.splitlines()[1:]
    assert len(again) == 2 and all(line.split()[-3:] == ["on", "disk", "0.0"] for line in again)


def test_warm_command_refuses_a_bad_sweep_file(tmp_path, capsys):
    from dominosim import cli

    with pytest.raises(SystemExit) as stop:
        cli.main(["warm", str(tmp_path / "none.toml")])
    assert stop.value.code == 2
    assert capsys.readouterr().err.startswith("dominosim warm: error: The sweep file ")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_shows_compiling_as_a_phase_of_its_own_on_a_terminal():
    sweep = parse_sweep('hands = 10\n[rules]\npreset = "block"\n[grid]\nplayers = [2, 3]\n')
    stream = _Terminal()
    progress = Progress(sweep, done=(), stream=stream)
    progress.compiling(2)
    kernel = kernel_of(sweep.cells[0].rules, "random")
    progress.compiled(kernel, 9.0, None)
    assert "compiling kernels:  50%" in stream.getvalue() and "1/2" in stream.getvalue()
    progress.compiled(kernel, 9.0, None)
    assert progress.compile_bar is None and "2/2" in stream.getvalue()
    for task in tasks_of(sweep, done=()):
        progress.update(task)
    progress.close()
    assert "cells 2/2, chunks 2/2" in stream.getvalue()


def test_progress_in_log_lines_counts_the_rate_of_hands_from_the_end_of_compiling():
    sweep = parse_sweep('hands = 10\n[rules]\npreset = "block"\n[grid]\nplayers = [2, 3]\n')
    stream = io.StringIO()
    progress = Progress(sweep, done=(), stream=stream)
    progress.compiling(1)
    started = progress.started
    time.sleep(0.01)
    progress.compiled(kernel_of(sweep.cells[0].rules, "random"), 9.0, None)
    assert progress.started > started and stream.getvalue() == ""
