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

Examples
--------
>>> lock = install()
>>> lock is install(), lock.path.name  # one listener per process
(True, 'numba-index.lock')
"""

from __future__ import annotations

import os
import tempfile
import threading
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
                fd = self._acquire() if not any(f is not None for f, _ in held) else None
                held.append((fd, depth[0]))
            return
        depth[0] = max(0, depth[0] - 1)
        while held and held[-1][1] > depth[0]:
            fd = held.pop()[0]
            if fd is not None:
                os.close(fd)  # closing releases the lock

    def _acquire(self) -> int | None:
        """The locked file's descriptor (None if the lock file cannot be opened: the save then
        goes ahead unserialised, as numba's own would)."""
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)
        except OSError:
            return None
        fcntl.flock(fd, fcntl.LOCK_EX)
        return fd


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
