"""The one place that defines how dominosim compiles its kernels."""

from __future__ import annotations

import numba

jit = numba.njit(cache=True, nogil=True)
"""Decorator for every kernel: compiled once, cached on disk, releasing the GIL."""

jit_kernel = numba.njit(cache=True, nogil=True, _nrt=False)
"""Decorator for the hand kernel: compiled without numba's reference-counting runtime.

The kernel never allocates (every array comes in from the driver), and without the runtime numba
emits no atomic increments and decrements around array arguments (measured: they cost the hand loop
more than its own work)."""

jit_helper = numba.njit(cache=True, nogil=True, _nrt=False, inline="always")
"""Decorator for the kernel's small helpers: as :data:`jit_kernel`, and inlined into the caller at
numba's IR level so that calls cost nothing (numba does not inline across compiled functions)."""

jit_parallel = numba.njit(cache=True, nogil=True, parallel=True)
"""Decorator for the one driver that runs ``prange`` over hands."""
