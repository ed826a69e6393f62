"""Kernels compiled for the shape's core (:data:`dominosim.fast.core.jit.jit_core`): each reads
only the core's attributes of its shape and passes the shape on only to kernels of its kind, so
that compiling it for the core cannot change what it does; and a call with a shape that has
extras compiles it for the core alone."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import textwrap
from dataclasses import fields

import numba
import numpy as np

import dominosim.fast
from dominosim.fast.core import board, turn
from dominosim.fast.core.jit import CoreDispatcher, jit_core
from dominosim.fast.core.shape import Shape, ShapeType
from dominosim.rules import Rules

_EVERY_EXTRA = Shape(**{f.name: 1 if f.name == "words" else True for f in fields(Shape)})
CORE = {f.name for f in fields(Shape) if getattr(_EVERY_EXTRA.core, f.name)} | {"core"}
"""What a core kernel may read of its shape: the fields :attr:`Shape.core` keeps (of a shape
with every extra, those still set in its core), and the core itself."""


def _kernels() -> dict[str, object]:
    """Every dispatcher defined in a module of ``dominosim.fast``, by its qualified name."""
    found = {}
    for info in pkgutil.walk_packages(dominosim.fast.__path__, "dominosim.fast."):
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if isinstance(obj, numba.core.dispatcher.Dispatcher) \
                    and obj.py_func.__module__ == info.name:
                found[f"{info.name}.{name}"] = obj
    return found


def _resolve(node: ast.expr, names: dict) -> object:
    """The object a name or a dotted name (``turn.stitched_up``) stands for, or None."""
    if isinstance(node, ast.Name):
        return names.get(node.id)
    if isinstance(node, ast.Attribute):
        return getattr(_resolve(node.value, names), node.attr, None)
    return None


def shape_misuse(dispatcher) -> list[str]:
    """What of its first argument, the shape, a kernel reads beyond the core or passes to a
    callee that is not a core kernel (empty for a kernel fit to compile for the core)."""
    func = dispatcher.py_func
    tree = ast.parse(textwrap.dedent(inspect.getsource(func)))
    name = tree.body[0].args.args[0].arg
    wrong = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id == name and node.attr not in CORE:
            wrong.append(f"reads {name}.{node.attr}")
        if isinstance(node, ast.Call) and any(isinstance(a, ast.Name) and a.id == name
                                              for a in node.args):
            if not isinstance(_resolve(node.func, func.__globals__), CoreDispatcher):
                wrong.append(f"passes {name} to {ast.unparse(node.func)}")
    return wrong


def test_core_kernels_read_only_the_core_and_pass_the_shape_only_to_core_kernels():
    core = {n: k for n, k in _kernels().items() if isinstance(k, CoreDispatcher)}
    assert len(core) >= 19  # turn's, styles' and board's readers of the layout and the hands
    for kernel in core.values():
        assert next(iter(inspect.signature(kernel.py_func).parameters)) == "shape"
    misused = {n: shape_misuse(k) for n, k in core.items()}
    assert {n: wrong for n, wrong in misused.items() if wrong} == {}


def test_the_check_sees_a_kernel_reading_an_extra_or_passing_the_shape_on():
    @jit_core
    def reads_styles(shape, x):
        return x + 1 if shape.styles else x

    @jit_core
    def passes_on(shape, rp, board_, notes, log, seat, tile, double_lead):
        turn.open_with(shape, rp, board_, notes, log, seat, tile, double_lead)

    @jit_core
    def fine(shape, at):
        return turn.stitched_up(shape, at) and shape.words == 1

    assert shape_misuse(reads_styles) == ["reads shape.styles"]
    assert shape_misuse(passes_on) == ["passes shape to turn.open_with"]
    assert shape_misuse(fine) == []


def test_a_call_with_extras_compiles_the_core_kernel_for_the_core():
    rules = Rules.preset("double_nine_cross", players=4)
    full, core = Shape.of(rules, styles=True, events=True), Shape.of(rules).core
    assert full != core and full.core == core

    @numba.njit
    def both(full, core, at):
        return turn.stitched_up(full, at), turn.stitched_up(core, at)

    at = np.zeros(len(board.AT_FIELDS), dtype=np.int64)
    at[turn.N_ENDS], at[turn.SUIT_MASK] = 3, 0b100
    assert both(full, core, at) == (True, True)
    shapes = {sig[0] for sig in turn.stitched_up.signatures}
    assert ShapeType(full) not in shapes and ShapeType(core) in shapes
    assert all(s.shape == s.shape.core for s in shapes if isinstance(s, ShapeType))

