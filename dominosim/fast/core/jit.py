"""The one place that defines how dominosim compiles its kernels."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numba

from . import diskcache  # noqa: F401 - concurrent processes take turns adding to numba's index

jit = numba.njit(cache=True, nogil=True)
"""Decorator for every kernel: compiled once, cached on disk, releasing the GIL."""

jit_kernel = numba.njit(cache=True, nogil=True, _nrt=False)
"""Decorator for the hand kernel and its larger, colder helpers (the deterministic strategies, the
plug-in call, the score): compiled without numba's reference-counting runtime, and not inlined, so
that compiling the kernel stays short.

The kernel never allocates (every array comes in from the driver), and without the runtime numba
emits no atomic increments and decrements around array arguments (measured: they cost the hand loop
more than its own work)."""

jit_helper = numba.njit(cache=True, nogil=True, _nrt=False, inline="always")
"""Decorator for the kernel's small helpers: as :data:`jit_kernel`, and inlined into the caller at
numba's IR level so that calls cost nothing."""

if not hasattr(numba.core.cpu.CPUTargetOptions, "noalias"):
    # numba keeps an option to mark a function's array arguments as not aliasing one another, but
    # does not map it to a decorator keyword: map it, for the entry points below.
    numba.core.cpu.CPUTargetOptions.noalias = numba.core.options._mapping("noalias")

jit_entry = numba.njit(cache=True, nogil=True, _nrt=False, noalias=True)
"""Decorator for the compiled engine's entry points (the drivers), into which the hand kernel is
inlined: as :data:`jit_kernel`, and with every array argument marked as not aliasing the others
(each is its own allocation), so that LLVM keeps the position's scalars in registers across the
stores into the hands and the ends (measured: see ``docs/engine.md``)."""


def _drop_stale_caches() -> None:
    """Delete numba's cached kernels when any source file of the compiled engine has changed.

    numba checks only the file that defines a cached function, not the files of the functions it
    calls or inlines: after an edit of ``hand/kernel.py`` the cached drivers in ``hand/driver.py`` would still
    run the old kernel. A digest of every source file here decides instead.
    """
    here = Path(__file__).parent.parent
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sorted(here.rglob("*.py"))))
    folders = [here / sub / "__pycache__" for sub in ("", "core", "hand", "search")]
    if numba.config.CACHE_DIR:
        folders += [p / sub for p in Path(numba.config.CACHE_DIR).rglob("fast") if p.is_dir()
                    and p.parent.name == "dominosim" for sub in ("", "core", "hand", "search")]
    for folder in folders:
        stamp = folder / "dominosim-sources.sha256"
        try:
            if stamp.exists() and stamp.read_text() == digest.hexdigest():
                continue
            for cached in list(folder.glob("*.nbi")) + list(folder.glob("*.nbc")):
                cached.unlink()
            folder.mkdir(parents=True, exist_ok=True)
            stamp.write_text(digest.hexdigest())
        except OSError:  # a read-only install: numba caches elsewhere, or not at all
            pass


_drop_stale_caches()
