"""numba's on-disk cache shared by processes: one writer of an index at a time, and whether a
kernel is already on disk.

numba writes each cache file atomically (a temporary file, then a rename), but it adds an entry to
a function's index by reading the index, choosing the first free data file name and writing the
index back. Two processes compiling *different* signatures of one function at the same moment (two
game families of ``driver.sums_of``, say, compiled by :mod:`dominosim.warm`'s worker processes or
by two pytest workers) can both read the same index: one entry is then lost, or worse, both choose
the same data file name and one signature's index entry points at the other's compiled code (numba
issue 10128 discusses a file lock as the remedy).

:class:`IndexLock` makes the writers take turns with numba's public event API
(:mod:`numba.core.event`, documented for applications) and nothing private: a dispatcher saves a
new signature to the cache after its ``"numba:compile"`` event ends and before it releases the
compiler lock (the ``"numba:compiler_lock"`` event's end), so the listener holds an exclusive lock
on a file of the cache location (:func:`lock_path`) from the one to the other. The expensive part,
the compilation itself, runs outside the lock: processes compile in parallel and only their saves
(milliseconds) take turns. ``tests/test_warm.py`` checks that this installed numba saves inside
that window (so an upgrade that moves the save fails a test rather than the cache) and that two
processes compiling together leave every signature usable. :func:`install` registers the listener
once per process; :mod:`dominosim.fast.core.jit` calls it on import. Two processes compiling the
*same* signature write the same entry; the last rename wins and either copy is usable.

Compiling the same signature twice is also wasted work: two pytest workers, or two of
:mod:`dominosim.simulation.warm`'s worker processes, that need one kernel at the same moment would
each spend its 10-40 s of CPU on it. :class:`Turns` makes them take turns per signature: every
kernel decorated in :mod:`dominosim.fast.core.jit` takes an exclusive lock named after its function
and signature (:meth:`Turns.path`) around a compilation started from Python (not around its
callees', which run inside it). The process that waits then finds the signature in numba's disk
cache, since numba looks there before compiling, and loads it in about a second instead.

Examples
--------
>>> lock = install()
>>> lock is install(), lock.path.name  # one listener per process
(True, 'numba-index.lock')
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from numba.core import caching
from numba.core import event as numba_event

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; writers there are not serialised
    fcntl = None  # type: ignore[assignment]

LOCK_NAME = "numba-index.lock"
"""The lock file, one per cache location."""
COMPILE, COMPILER_LOCK = "numba:compile", "numba:compiler_lock"
EVENTS = (COMPILE, COMPILER_LOCK)
"""The numba events :class:`IndexLock` listens to."""


def lock_path(cache_dir: str | None, fallback: Path) -> Path:
    """The lock file of a cache location: in ``NUMBA_CACHE_DIR`` when it is set (``cache_dir``),
    else in ``fallback`` (the compiled engine's ``__pycache__``); in the temporary folder when
    that cannot be written."""
    for folder in ([Path(cache_dir)] if cache_dir else []) + [fallback]:
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / LOCK_NAME
            os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o666))
            return path
        except OSError:
            continue
    user = os.getuid() if hasattr(os, "getuid") else 0
    return Path(tempfile.gettempdir()) / f"dominosim-{user}-{LOCK_NAME}"


def _locked(path: Path) -> int | None:
    """The descriptor of ``path`` opened and exclusively locked, waiting for another process that
    holds it (closing it releases the lock); None if the file cannot be opened: the save or
    compilation it guards then goes ahead unserialised, as numba's own would."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError:
        return None
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


class IndexLock(numba_event.Listener):
    """Holds an exclusive lock on :attr:`path` from the end of a dispatcher's compilation until
    it releases numba's compiler lock: the window in which numba saves the new signature to its
    cache index (see the module's docstring).

    Per thread, it counts how deep the compiler lock is held (the ``"numba:compiler_lock"``
    events nest) and releases the file lock when the compiler lock drops below the depth at which
    the file lock was taken; nested compilations (a kernel's callees) each take and release it
    around their own save.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.local = threading.local()

    def _state(self) -> tuple[list[int], list[tuple[int | None, int]]]:
        local = self.local
        if not hasattr(local, "depth"):
            local.depth, local.held = [0], []
        return local.depth, local.held

    def on_start(self, event: Any) -> None:
        """A compiler lock taken: one level deeper."""
        if event.kind == COMPILER_LOCK:
            self._state()[0][0] += 1

    def on_end(self, event: Any) -> None:
        """A compilation ended: take the file lock; a compiler lock released: release the file
        locks taken at a deeper level."""
        depth, held = self._state()
        if event.kind == COMPILE:
            if depth[0] > 0 and fcntl is not None:
                # held already (a compilation ending inside another's window): flock on a second
                # descriptor would wait for this very process, so the window only widens
                fd = _locked(self.path) if not any(f is not None for f, _ in held) else None
                held.append((fd, depth[0]))
            return
        depth[0] = max(0, depth[0] - 1)
        while held and held[-1][1] > depth[0]:
            fd = held.pop()[0]
            if fd is not None:
                os.close(fd)  # closing releases the lock



class Turns:
    """Per-signature locks that make processes take turns compiling one signature of a kernel
    (see the module's docstring), in ``folder`` (the cache location of :func:`lock_path`).

    :meth:`wrap` routes a dispatcher's ``compile`` (numba's documented method, which its call on
    new argument types goes through) through :meth:`turn`. Only the outermost compilation of a
    thread takes a lock: a kernel's callees are compiled inside it, and a process never holds two
    of these locks, so two processes cannot wait for each other.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.local = threading.local()

    def path(self, dispatcher: Any, sig: Any) -> Path:
        """The lock file of ``dispatcher``'s compilation for ``sig`` (its module, name and
        signature, digested)."""
        func = dispatcher.py_func
        name = f"{func.__module__}.{func.__qualname__}:{sig}".encode()
        return self.folder / f"numba-compile-{hashlib.sha1(name).hexdigest()[:20]}.lock"

    @contextmanager
    def turn(self, dispatcher: Any, sig: Any) -> Iterator[None]:
        """Hold the lock of ``dispatcher``'s compilation for ``sig`` (waiting while another
        process holds it) if no compilation runs in this thread already."""
        depth = getattr(self.local, "depth", 0)
        fd = _locked(self.path(dispatcher, sig)) if depth == 0 and fcntl else None
        self.local.depth = depth + 1
        try:
            yield
        finally:
            self.local.depth = depth
            if fd is not None:
                os.close(fd)  # closing releases the lock

    def wrap(self, dispatcher: Any) -> Any:
        """``dispatcher`` with its ``compile`` taking turns (:meth:`turn`); returns it."""
        compile_ = dispatcher.compile

        def compile(sig: Any) -> Any:
            with self.turn(dispatcher, sig):
                return compile_(sig)

        compile.__doc__ = compile_.__doc__
        dispatcher.compile = compile
        return dispatcher


_installed: IndexLock | None = None


def install(path: Path | None = None) -> IndexLock:
    """Register :class:`IndexLock` for this process's numba (once; later calls return it)."""
    global _installed
    if _installed is None:
        import numba

        fallback = Path(os.path.abspath(__file__)).parent.parent / "__pycache__"
        _installed = IndexLock(path or lock_path(numba.config.CACHE_DIR, fallback))
        for kind in EVENTS:
            numba_event.register(kind, _installed)
    return _installed


def turns() -> Turns:
    """The per-signature compilation locks of this process, beside :func:`install`'s lock file."""
    global _turns
    if _turns is None:
        _turns = Turns(install().path.parent)
    return _turns


_turns: Turns | None = None


def on_disk(dispatcher: Any, args: tuple) -> bool:
    """Whether ``dispatcher`` (a cached numba function) has its compilation for the types of
    ``args`` in memory or on disk, without loading it.

    Reads numba's index the way numba does; anything unexpected (another numba, no cache) answers
    False, which only makes an estimate count a compilation that may not happen.
    """
    try:
        sig = tuple(dispatcher.typeof_pyval(a) for a in args)
        if sig in dispatcher.overloads:
            return True
        cache = dispatcher._cache
        if not isinstance(cache, caching.Cache):
            return False
        key = cache._index_key(sig, dispatcher.targetctx.codegen())
        name = cache._cache_file._load_index().get(key)
        return name is not None and os.path.exists(cache._cache_file._data_path(name))
    except Exception:  # noqa: BLE001 - a probe: a failure means "not known to be on disk"
        return False
