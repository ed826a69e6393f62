"""numba's inliner copying a callee's IR once, not once per block.

A kernel decorated with :data:`~dominosim.fast.core.jit.jit_helper` (numba's ``inline="always"``)
is inlined at numba's IR level: before pasting the callee's blocks into the caller, numba's
``InlineWorker.inline_ir`` copies them, twice, with ``copy.deepcopy`` called on each block apart.
Every block refers to the function's scope, which holds every variable of the function, and each
variable refers back to the scope; with a fresh memo per block, each block's copy copies the whole
scope again. The cost grows with blocks times variables: the hand kernel (``play_hand``, 182 blocks
and 2,078 variables, inlined into every driver) took 1.9 s of CPU to copy, and the copies were a
sixth of the compile of a user's first ``mc`` game (``benchmarks/README.md``).

:func:`install` makes the blocks copied within one ``inline_ir`` share one memo, as if the blocks
had been copied together: the scope and each variable are copied once, and the blocks of the copy
share one scope as the callee's blocks do. numba keeps the first scope it finds and renames the
variables by name, so the inlined IR, and the machine code, are the same
(``tests/test_jit_inlining.py`` compares the LLVM IR of kernels compiled both ways). A block asked for a second time within one
``inline_ir`` starts a new memo, so that a second copy of the same IR is a copy of its own.

Examples
--------
>>> from numba.core import inline_closurecall
>>> install()
>>> inline_closurecall.InlineWorker.inline_ir.__name__, installed()
('inline_ir', True)
"""

from __future__ import annotations

import copy
import functools
import threading
from typing import Any

from numba.core import inline_closurecall, ir

_state = threading.local()
"""The memo shared by the blocks copied within this thread's ``inline_ir`` (None: outside it)."""
_original: Any = None
"""numba's own ``InlineWorker.inline_ir``, once :func:`install` has wrapped it."""


def _copy_block(block: ir.Block, memo: dict) -> ir.Block:
    """``copy.deepcopy`` of an IR block: the default copy, with the shared memo inside
    ``inline_ir``."""
    shared = getattr(_state, "memo", None)
    if shared is not None:
        if id(block) in shared:  # a second copy of this block: a copy of its own
            shared = _state.memo = {}
        memo = shared
    new = ir.Block.__new__(ir.Block)
    memo[id(block)] = new
    new.__dict__.update(copy.deepcopy(block.__dict__, memo))
    return new


def _inline_ir(self: Any, *args: Any, **kwargs: Any) -> Any:
    before = getattr(_state, "memo", None)
    _state.memo = {}
    try:
        return _original(self, *args, **kwargs)
    finally:
        _state.memo = before


def install() -> None:
    """Share one memo among the blocks copied by each of numba's ``inline_ir`` calls (once per
    process; :mod:`dominosim.fast.core.jit` calls it on import)."""
    global _original
    if _original is None:
        _original = inline_closurecall.InlineWorker.inline_ir
        inline_closurecall.InlineWorker.inline_ir = functools.wraps(_original)(_inline_ir)
        ir.Block.__deepcopy__ = _copy_block


def installed() -> bool:
    """Whether :func:`install` has run in this process."""
    return _original is not None
