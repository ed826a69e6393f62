"""Code libraries compiled for compiled callers: LLVM code to link, not optimised or emitted alone.

numba compiles every function that compiled code calls into a code library of its own and, when it
finalises the library, links in its callees' LLVM code, runs LLVM's module passes on the whole and
emits machine code for it. A caller links the LLVM code of its callees' libraries and does the
same again, so a function at depth ``d`` of a chain is optimised and emitted ``d + 1`` times,
while only the outermost library (the one Python calls) ever runs. In the searching kernel these
repeated passes and emissions were most of the compilation (``benchmarks/README.md``).

A library made while compiling for a compiled caller (within :func:`for_callers`, which
:class:`~dominosim.fast.core.jit.Dispatcher` enters) is *for callers only*: finalising it links its
callees' code and checks it, but neither runs the module passes nor adds it to the execution
engine, so no machine code is emitted for it; the library that Python calls runs the passes once,
on everything it links, and emits it. Such a library has no function pointer (Python never calls
it: the dispatcher compiles the function again, with numba's wrappers, when Python does), and the
disk cache holds its LLVM bitcode instead of object code. A function that uses the Python API
(``print``, say) reads its *environment*, a numba object, through a global variable, and checks
that it is set; the outer library sets those of the callees it linked in, as numba does for a
library loaded from the cache.

:func:`install` makes numba's CPU code generator create these libraries (once per process;
:mod:`dominosim.fast.core.jit` calls it on import).

Examples
--------
>>> install()
>>> from numba.core.registry import cpu_target
>>> cpu_target.target_context.codegen()._library_class is Library
True
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from llvmlite import binding as ll
from numba.core.codegen import JITCodeLibrary
from numba.core.environment import lookup_environment

_state = threading.local()
KIND = "dominosim-callers-only"
"""The disk cache's kind of serialisation for a library for callers only (its LLVM bitcode)."""
ENV_PREFIX = "_ZN08NumbaEnv"
"""The start of the names of numba's global variables holding a function's environment."""


@contextmanager
def for_callers(on: bool = True) -> Iterator[None]:
    """Within it, this thread compiles for a call from compiled code (``on``) or not."""
    before = compiling_for_callers()
    _state.on = on
    try:
        yield
    finally:
        _state.on = before


def compiling_for_callers() -> bool:
    """Whether this thread compiles for a call from compiled code (:func:`for_callers`)."""
    return getattr(_state, "on", False)


class _WithoutEnvironments:
    """A code generator that sets no environment (a library for callers only has none in the
    execution engine); everything else is the code generator's."""

    def __init__(self, codegen: Any) -> None:
        self._codegen = codegen

    def set_env(self, env_name: str, env: Any) -> None:
        pass

    def __getattr__(self, name: str) -> Any:
        return getattr(self._codegen, name)


class Library(JITCodeLibrary):
    """numba's JIT code library, for callers only when made while compiling for compiled
    callers (see the module's docstring)."""

    def __init__(self, codegen: Any, name: str, **kwargs: Any) -> None:
        super().__init__(codegen, name, **kwargs)
        self.callers_only = compiling_for_callers()

    @property
    def codegen(self) -> Any:
        """The code generator (one that sets no environment, for a library for callers only)."""
        return _WithoutEnvironments(self._codegen) if self.callers_only else self._codegen

    def _optimize_final_module(self) -> None:
        if not self.callers_only:  # the caller optimises the linked code once, as a whole
            super()._optimize_final_module()

    def _finalize_final_module(self) -> None:
        if self.callers_only:
            self._finalize_dynamic_globals()
            self._verify_declare_only_symbols()
            self._finalized = True
            return
        super()._finalize_final_module()
        for gv in self._final_module.global_variables:  # the environments of linked callees
            if gv.name.startswith(ENV_PREFIX):
                env = lookup_environment(gv.name)
                if env is not None:
                    self._codegen.set_env(gv.name, env)

    def get_pointer_to_function(self, name: str) -> int:
        """numba's, and 0 (no such function) in a library for callers only."""
        if self.callers_only:
            self._ensure_finalized()
            return 0
        return super().get_pointer_to_function(name)

    def serialize_using_object_code(self) -> tuple:
        """numba's; a library for callers only is cached as its LLVM bitcode."""
        if not self.callers_only:
            return super().serialize_using_object_code()
        return (self.name, KIND, self._get_module_for_linking().as_bitcode())

    @classmethod
    def _unserialize(cls, codegen: Any, state: tuple) -> Any:
        name, kind, data = state
        if kind != KIND:
            with for_callers(False):  # a library with machine code, whatever the caller
                return super()._unserialize(codegen, state)
        self = codegen.create_library(name)
        self.callers_only = True
        self._final_module = self._shared_module = ll.parse_bitcode(data)
        self._finalized = True
        return self


def install() -> None:
    """Make numba's CPU code generator create :class:`Library` objects (once per process)."""
    from numba.core.registry import cpu_target

    cpu_target.target_context.codegen()._library_class = Library
