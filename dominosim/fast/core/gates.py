"""Calls that exist only in the kernels whose :class:`~dominosim.fast.core.shape.Shape` needs them.

``if shape.events:`` already makes LLVM drop the code of an event log that a run does not keep,
but numba still compiles everything such a branch calls. The functions here are resolved while
numba types the caller: when the shape says the run needs it, the call is the real function;
otherwise it is a no-op, and the real function is never compiled for that kernel (a run of
``random`` players compiles no style, no plug-in call and no log; a search that does not solve
compiles no solver). Each gate is one ``@overload`` of a stub taking ``(x, *args)``, so no code is
generated from strings; the real functions live with their rules (:mod:`dominosim.fast.core.turn`,
:mod:`~dominosim.fast.core.styles`, :mod:`~dominosim.fast.hand.kernel`).
"""

from __future__ import annotations

from numba import types
from numba.extending import overload

_OPTIONS = {"nogil": True, "_nrt": False}  # the callers are cached, these wrappers inside them


def _gated(real, default: float, name: str, wanted) -> object:
    """A stub ``f(x, *args)`` resolved while numba types its caller: ``real(x, *args)`` when
    ``wanted(type of x)``, else a function returning ``default`` (``real`` is then not compiled)."""

    def stub(x, *args):
        """Replaced by :func:`typing`'s choice wherever numba compiles a call to it."""

    def typing(x, *args):
        if wanted(x):
            return lambda x, *args: real(x, *args)
        return lambda x, *args: default

    stub.__name__ = stub.__qualname__ = name  # what numba's messages call it
    overload(stub, jit_options=_OPTIONS)(typing)
    return stub


def gate(flag: str, real, default: int = 0):
    """A function ``f(shape, *args)`` that calls ``real(shape, *args)`` when ``shape.<flag>``,
    else returns ``default`` without compiling ``real`` (``real`` takes the shape first)."""
    return _gated(real, default, f"{real.__name__}_if_{flag}",
                  lambda shape: getattr(shape.shape, flag))


def given(real, default: float = 0):
    """A function ``f(x, *args)`` that calls ``real(x, *args)`` when ``x`` is not None, else
    returns ``default`` without compiling ``real``: ``x`` is an optional part of a scratch (the
    solver's stack of a search that does not solve is None)."""
    return _gated(real, default, f"{real.__name__}_if_given",
                  lambda x: not isinstance(x, (types.NoneType, types.Omitted)))
