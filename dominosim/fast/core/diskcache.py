"""numba's on-disk cache shared by processes: one writer of an index at a time, and whether a
kernel is already on disk.

numba writes each cache file atomically (a temporary file, then a rename), but it adds an entry to
a function's index by reading the index, choosing the first free data file name and writing the
index back. Two processes compiling *different* signatures of one function at the same moment (two
game families of ``driver.sums_of``, say, compiled by :mod:`dominosim.warm`'s worker processes or
by two pytest workers) can both read the same index: one entry is then lost, or worse, both choose
the same data file name and one signature's index entry points at the other's compiled code (numba
issue 10128 discusses a file lock as the remedy). :func:`locked_save` holds an exclusive lock on a
file of the cache folder while an entry is added, so concurrent writers take turns; it is installed
on import of :mod:`dominosim.fast.jit`. Two processes compiling the *same* signature write the same
entry; the last rename wins and either copy is usable.

Examples
--------
>>> from numba.core.caching import IndexDataCacheFile
>>> IndexDataCacheFile.save is locked_save
True
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

from numba.core import caching

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; writers there are not serialised
    fcntl = None  # type: ignore[assignment]

LOCK_NAME = "numba-index.lock"
"""The lock file, one per cache folder."""

_numba_save = caching.IndexDataCacheFile.save


@contextlib.contextmanager
def folder_lock(folder: str) -> Iterator[None]:
    """An exclusive lock on ``folder``'s :data:`LOCK_NAME` for the duration of the block."""
    if fcntl is None:
        yield
        return
    fd = os.open(os.path.join(folder, LOCK_NAME), os.O_RDWR | os.O_CREAT, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def locked_save(self: caching.IndexDataCacheFile, key: Any, data: Any) -> None:
    """numba's ``IndexDataCacheFile.save`` (read the index, add the entry, write the index and the
    data) under the cache folder's lock."""
    with folder_lock(self._cache_path):
        _numba_save(self, key, data)


caching.IndexDataCacheFile.save = locked_save


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
