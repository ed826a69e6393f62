"""The one place that defines how dominosim compiles its kernels."""

from __future__ import annotations

import numba

jit = numba.njit(cache=True, nogil=True)
"""Decorator for every kernel: compiled once, cached on disk, releasing the GIL."""

jit_kernel = numba.njit(cache=True, nogil=True, _nrt=False)
"""Decorator for the hand kernel and its helpers: compiled without numba's reference counting.

They never allocate (every array comes in from the driver), and without the runtime numba emits no
atomic increments and decrements around the array arguments of every call, which cost the hand
loop more than its own work (measured: 3.7 to ... microseconds a hand, Block 4p)."""

jit_parallel = numba.njit(cache=True, nogil=True, parallel=True)
"""Decorator for the one driver that runs ``prange`` over hands."""
