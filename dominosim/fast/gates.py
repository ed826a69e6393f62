"""Calls that exist only in the kernels whose :class:`~dominosim.fast.shape.Shape` needs them.

``if shape.events:`` already makes LLVM drop the code of an event log that a run does not keep,
but numba still compiles everything such a branch calls. The functions here are resolved while
numba types the caller: when the shape says the run needs it, the call is the real function;
otherwise it is a no-op, and the real function is never compiled for that kernel (a run of
``random`` players compiles no style, no plug-in call and no log). Each gate is one ``@overload``;
the real functions live with their rules (:mod:`dominosim.fast.turn`, :mod:`~dominosim.fast.styles`,
:mod:`~dominosim.fast.kernel`).
"""

from __future__ import annotations

from numba.extending import overload

_OPTIONS = {"nogil": True, "_nrt": False}  # the callers are cached, these wrappers inside them


def gate(flag: str, real, default: int = 0):
    """A function ``f(shape, *args)`` that calls ``real(shape, *args)`` when ``shape.<flag>``,
    else returns ``default`` without compiling ``real`` (``real`` takes the shape first)."""
    code = real.py_func.__code__
    names = code.co_varnames[:code.co_argcount]
    args = ", ".join(names)
    namespace: dict = {}
    exec(f"def {real.__name__}_if_{flag}({args}):\n    pass\n", namespace)  # noqa: S102
    stub = namespace[f"{real.__name__}_if_{flag}"]
    exec(f"def on({args}):\n    return real({args})\n"  # noqa: S102
         f"def off({args}):\n    return default\n", {"real": real, "default": default}, namespace)
    exec(f"def typing({args}):\n"  # noqa: S102
         f"    return on if getattr({names[0]}.shape, flag) else off\n",
         {"on": namespace["on"], "off": namespace["off"], "flag": flag}, namespace)
    overload(stub, jit_options=_OPTIONS)(namespace["typing"])
    return stub
