"""numba's inliner copying a callee's IR once (:mod:`dominosim.fast.core.inlining`): the copies share
one scope, and the compiled code is the same as numba's own."""

from __future__ import annotations

import copy
import subprocess
import sys
from pathlib import Path

import numpy as np
from numba import njit
from numba.core import compiler, ir

from dominosim.fast.core import inlining

ROOT = Path(__file__).resolve().parent.parent

KERNELS = """
import numpy as np
from numba import njit


@njit(inline="always")
def inner(x, i):
    if x[i] > 2:
        return x[i] * 2
    return -x[i]


@njit(inline="always")
def helper(x, n):
    s = 0
    for i in range(n):
        if x[i] > 0:
            s += inner(x, i)
        else:
            s -= 1
    return s


@njit
def f(x):
    return helper(x, 3) + helper(x, x.shape[0])
"""

PRINT_LLVM = """
import sys
if sys.argv[1] == "patched":
    from dominosim.fast.core import inlining
    inlining.install()
    assert inlining.installed()
else:
    assert "dominosim" not in sys.modules
import numpy as np
from kernels import f
print(f(np.arange(5)))
print(f.inspect_llvm(f.signatures[0]))
"""


def _several_blocks(x, n):
    s = 0
    for i in range(n):
        if x[i] > 0:
            s += x[i]
        else:
            s -= 1
    return s


def test_the_inlined_code_is_numbas_own(tmp_path):
    """The same kernels compiled by numba's inliner and by the patched one, each in a fresh
    process: the same result and the same LLVM IR, line for line."""
    (tmp_path / "kernels.py").write_text(KERNELS)
    out = {}
    for how in ("numba", "patched"):
        done = subprocess.run([sys.executable, "-c", PRINT_LLVM, how], cwd=tmp_path,
                              capture_output=True, text=True, timeout=300,
                              env={"PYTHONPATH": f"{ROOT}:{tmp_path}", "PATH": "/usr/bin:/bin"})
        assert done.returncode == 0, done.stderr
        out[how] = done.stdout
    assert out["numba"].splitlines()[0] == "6"
    assert "define" in out["numba"]
    assert out["patched"] == out["numba"]


def test_the_blocks_copied_by_one_inlining_share_one_scope(monkeypatch):
    """numba's ``inline_ir`` returns the copy of the callee's IR it made: with the patch installed,
    its blocks share one scope, a copy (not the callee's), as the callee's blocks do."""
    inlining.install()
    made = []

    def spy(self, caller_ir, block, i, callee_ir, *args, **kwargs):
        result = real(self, caller_ir, block, i, callee_ir, *args, **kwargs)
        made.append((callee_ir, result[0]))
        return result

    real = inlining._original
    monkeypatch.setattr(inlining, "_original", spy)
    helper = njit(inline="always")(_several_blocks)

    @njit
    def caller(x):
        return helper(x, 2) + helper(x, x.shape[0])

    assert caller(np.array([1, -1, 3])) == 0 + 3
    assert len(made) == 2
    for callee, copied in made:
        assert len(copied.blocks) > 3
        scopes = {id(b.scope) for b in copied.blocks.values()}
        assert len(scopes) == 1
        assert id(next(iter(callee.blocks.values())).scope) not in scopes


def test_outside_an_inlining_each_copy_is_numbas_default():
    """Outside ``inline_ir`` a block's deep copy copies its scope, each copy its own; inside, a
    block copied a second time gets a copy of its own too."""
    inlining.install()
    blocks = list(compiler.run_frontend(_several_blocks).blocks.values())
    assert len(blocks) > 3 and len({id(b.scope) for b in blocks}) == 1
    copies = [copy.deepcopy(b) for b in blocks]
    assert len({id(c.scope) for c in copies}) == len(blocks)
    assert all(c.scope is not blocks[0].scope and isinstance(c, ir.Block) for c in copies)
    assert [list(map(str, c.body)) for c in copies] == [list(map(str, b.body)) for b in blocks]

    inlining._state.memo = {}
    try:
        first = [copy.deepcopy(b) for b in blocks]
        again = copy.deepcopy(blocks[0])
    finally:
        inlining._state.memo = None
    assert len({id(c.scope) for c in first}) == 1
    assert again is not first[0] and again.scope is not first[0].scope
    assert list(map(str, again.body)) == list(map(str, blocks[0].body))
