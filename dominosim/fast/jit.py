"""The one place that defines how dominosim compiles its kernels."""

from __future__ import annotations

import numba

jit = numba.njit(cache=True, nogil=True)
"""Decorator for every kernel: compiled once, cached on disk, releasing the GIL."""

jit_inline = numba.njit(cache=True, nogil=True, inline="always")
"""Decorator for the small helpers of the hand kernel: inlined into their caller at numba's IR
level, so that the array reference counting around calls can be pruned (it cost 5x the speed)."""

jit_parallel = numba.njit(cache=True, nogil=True, parallel=True)
"""Decorator for the one driver that runs ``prange`` over hands."""
