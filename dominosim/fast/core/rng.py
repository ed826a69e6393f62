"""The counter-based streams of :mod:`dominosim.rng`, compiled: identical numbers, on ``uint64``.

Every function here is tested equal to its Python twin. They are inlined into their callers (numba
IR inlining), which lets numba drop the atomic reference counting around array arguments. A stream's state is one ``uint64`` kept in
an array slot, so kernels can hold one per seat without allocating.
"""

from __future__ import annotations

import numpy as np

from ... import rng as _py
from .jit import jit_helper as jit

_GAMMA = np.uint64(_py.GAMMA)
_M1 = np.uint64(_py.MIX_M1)
_M2 = np.uint64(_py.MIX_M2)
_DOMAIN_HAND = np.uint64(_py.DOMAIN_HAND)
_DOMAIN_MATCH = np.uint64(_py.DOMAIN_MATCH)
_SEAT_BASE = np.uint64(_py.SEAT_STREAM_BASE)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_S11 = np.uint64(11)
_UNIT = _py.UNIT


@jit
def mix64(z):
    """The splitmix64 finaliser on a ``uint64``."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@jit
def hand_key(seed, hand):
    """Key of hand ``hand`` of the run seeded ``seed`` (both non-negative integers)."""
    return mix64(mix64(np.uint64(seed) ^ _DOMAIN_HAND) + np.uint64(hand))


@jit
def match_hand_key(seed, match, k):
    """Key of hand ``k`` of match ``match``."""
    return mix64(mix64(mix64(np.uint64(seed) ^ _DOMAIN_MATCH) + np.uint64(match)) + np.uint64(k))


@jit
def deal_key(base, deal):
    """Key of deal number ``deal`` of the hand keyed ``base``."""
    return mix64(base + np.uint64(deal))


@jit
def seat_key(base, seat):
    """Key of the stream of the strategy at ``seat``."""
    return mix64(base + _SEAT_BASE + np.uint64(seat))


@jit
def next64(states, i):
    """Advance stream ``states[i]`` and return its next output."""
    states[i] += _GAMMA
    return mix64(states[i])


@jit
def below(states, i, n):
    """A number in ``0 .. n - 1`` from stream ``states[i]`` (multiply-shift on the top 32 bits)."""
    return np.int64(((next64(states, i) >> _S32) * np.uint64(n)) >> _S32)


@jit
def uniform(states, i):
    """A double in [0, 1) with 53 random bits from stream ``states[i]``."""
    return np.float64(next64(states, i) >> _S11) * _UNIT


@jit
def shuffle(states, i, items, n):
    """Fisher-Yates shuffle of ``items[:n]`` in place, from the last position down (the same
    numbers as ``below(states, i, k + 1)`` for ``k = n - 1 .. 1``, with the state in a register)."""
    state = states[i]
    for k in range(n - 1, 0, -1):
        state += _GAMMA
        j = np.int64(((mix64(state) >> _S32) * np.uint64(k + 1)) >> _S32)
        tmp = items[k]
        items[k] = items[j]
        items[j] = tmp
    states[i] = state
