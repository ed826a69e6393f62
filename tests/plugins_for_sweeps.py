"""Compiled plug-ins that the sweep tests name by import path (``plugins_for_sweeps:lightest``):
pytest puts this folder on the Python path, and Dask workers and subprocesses get it from there.
``lightest`` is cached on disk: every process that plays it (test workers, Dask workers, the
command in a subprocess) then loads it instead of compiling it."""

from __future__ import annotations

import numba

from dominosim.tiles import PIPS


@numba.njit(cache=True)
def lightest(moves_tile, moves_suit, n_moves, view, rng):
    """The lightest legal tile (the first such move on a tie)."""
    best = 0
    for i in range(1, n_moves):
        if PIPS[moves_tile[i]] < PIPS[moves_tile[best]]:
            best = i
    return best


@numba.njit
def two_arguments(moves_tile, n_moves):
    return 0


def not_compiled(moves_tile, moves_suit, n_moves, view, rng):
    return 0


@numba.njit
def returns_a_float(moves_tile, moves_suit, n_moves, view, rng):
    return 0.5
