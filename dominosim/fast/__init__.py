"""The compiled engine: numba kernels that play hands identical to the reference engine's.

Layout: :mod:`.jit` (the one jit decorator), :mod:`.rng` (the random streams, as in
:mod:`dominosim.rng`), :mod:`.kernel` (one hand: deal, moves, draws, knocks, the end and the score),
:mod:`.driver` (``prange`` over hands, rows or aggregates, and the Python wrappers).
"""
