"""Bit operations on ``uint64`` words for the kernels: population count and trailing zeros.

They compile to single instructions (LLVM's ``ctpop`` and ``cttz``); :func:`popcount` and
:func:`lowest_bit` are the jitted functions kernels and tests call.

>>> int(popcount(np.uint64(0b1011))), int(lowest_bit(np.uint64(0b1000)))
(3, 3)
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from .jit import jit_helper


@intrinsic
def _ctpop(typingctx, x):
    if x != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen


@intrinsic
def _cttz(typingctx, x):
    if x != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.uint64(types.uint64), codegen


@jit_helper
def popcount(x):
    """Number of set bits of the ``uint64`` ``x``."""
    return np.int64(_ctpop(x))


@jit_helper
def lowest_bit(x):
    """Index of the lowest set bit of the ``uint64`` ``x`` (64 when ``x`` is 0)."""
    return np.int64(_cttz(x))
