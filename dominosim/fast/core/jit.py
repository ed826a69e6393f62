"""The one place that defines how dominosim compiles its kernels, and what its on-disk cache holds.

numba caches each compiled function beside the file that defines it and checks only that file: a
cached driver whose inlined kernel lives in another file that has since changed would run the old
kernel. So every cache folder of the compiled engine carries a stamp, a digest of every source
file under ``dominosim/fast/``. At import the stamps are compared (nothing is deleted): a cache
built from other sources is *stale*, and then this process compiles without the on-disk cache,
with a one-line message saying how to clear it (``dominosim cache --clear``, or
:func:`clear_cache`). A folder without any cached kernel (or not there yet) takes the current
stamp, since what is compiled into it next is built from these sources.

Examples
--------
>>> from dominosim.fast.core import jit
>>> isinstance(jit.stale_folders(), list)
True
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numba
from numba.core import sigutils, types
from numba.core.compiler import Compiler
from numba.core.compiler_lock import global_compiler_lock
from numba.core.dispatcher import _FunctionCompiler
from numba.core.registry import CPUDispatcher

from . import diskcache, inlining, libraries

diskcache.install()  # concurrent processes take turns adding to numba's cache index
inlining.install()  # numba's inliner copies a callee's IR once, not once per block
libraries.install()  # a callee's library is optimised and emitted only by the library Python calls

FAST = Path(os.path.abspath(__file__)).parent.parent
"""The compiled engine's sources: ``dominosim/fast/``."""
STAMP = "dominosim-sources.sha256"
"""The file in a cache folder that holds the digest of the sources its kernels were built from."""
CACHED = ("*.nbi", "*.nbc")
"""numba's cache files: an index per function and its compiled code."""

_log = logging.getLogger("dominosim")


def sources_digest(root: Path = FAST) -> str:
    """The digest of every source file under ``root`` (names and contents)."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def cache_folders(root: Path = FAST) -> list[Path]:
    """The folders where numba caches the kernels of the sources under ``root``: each package's
    ``__pycache__`` or, when ``NUMBA_CACHE_DIR`` is set, the folder numba names there after the
    package's path (its name and the SHA-1 of its path)."""
    packages = sorted({p.parent for p in root.rglob("*.py")})
    if numba.config.CACHE_DIR:
        base = Path(numba.config.CACHE_DIR)
        return [base / f"{p.name}_{hashlib.sha1(str(p).encode()).hexdigest()}" for p in packages]
    return [p / "__pycache__" for p in packages]


def _has_cache(folder: Path) -> bool:
    return any(next(folder.glob(pattern), None) for pattern in CACHED)


def stale_folders(folders: Iterable[Path] | None = None, digest: str | None = None) -> list[Path]:
    """The cache folders holding kernels built from other sources than the current ones (their
    stamp differs or is missing). Stamps a folder that holds no kernel yet (creating it), since
    what is cached there next is built from the current sources; deletes nothing."""
    digest = digest or sources_digest()
    stale = []
    for folder in cache_folders() if folders is None else folders:
        stamp = folder / STAMP
        try:
            if stamp.exists() and stamp.read_text() == digest:
                continue
            if folder.is_dir() and _has_cache(folder):
                stale.append(folder)
            else:
                folder.mkdir(parents=True, exist_ok=True)
                stamp.write_text(digest)
        except OSError:  # a read-only install: numba caches elsewhere, or not at all
            continue
    return stale


def clear_cache(folders: Iterable[Path] | None = None, digest: str | None = None) -> int:
    """Delete the compiled engine's cached kernels and stamp the folders with the current sources;
    returns how many files were deleted. The command ``dominosim cache --clear`` calls it.

    Parameters
    ----------
    folders : iterable of Path, optional
        The cache folders (default: :func:`cache_folders`).
    digest : str, optional
        The stamp to write (default: :func:`sources_digest`).
    """
    digest = digest or sources_digest()
    deleted = 0
    for folder in cache_folders() if folders is None else folders:
        if not folder.is_dir():
            continue
        for pattern in CACHED:
            for cached in folder.glob(pattern):
                cached.unlink()
                deleted += 1
        (folder / STAMP).write_text(digest)
    return deleted


STALE = stale_folders()
"""The stale cache folders found at import; when there are any, nothing is read from or written to
the on-disk cache in this process."""
CACHE = not STALE
if STALE:
    _log.warning("dominosim: the compiled engine's cache in %s was built from other sources, so "
                 "this process compiles without it; run `dominosim cache --clear` to rebuild it.",
                 STALE[0].parent)


class NoAliasCompiler(Compiler):
    """numba's compiler with every array argument marked as not aliasing the others (numba's
    ``noalias`` flag, reached through the documented ``pipeline_class`` option)."""

    def __init__(self, typingctx, targetctx, library, args, return_type, flags, locals):
        flags.noalias = True
        super().__init__(typingctx, targetctx, library, args, return_type, flags, locals)


class Dispatcher(CPUDispatcher):
    """numba's CPU dispatcher, except that a call from compiled code compiles the callee for its
    arguments' types without their literal values.

    numba types a constant argument (``f(board, 0)``) as its literal and compiles the callee
    for it, apart from the same call with a variable. Its type inference also meets the
    constant first where a variable carried round a loop starts from one (``n_nodes = 1``, then
    ``n_nodes = descend(..., n_nodes)``): that compiles a signature no call keeps, and again for
    every callee it passes the constant on to. Compiling ``ismcts`` from an empty cache made 115
    signatures of 84 functions, 16 of them for literals; without the literals 99, and the process
    took 47.7 s of CPU instead of 57.3 s (``benchmarks/README.md``). The kernels read their
    constants from the shape (:mod:`.shape`) and the rules' params, not from literal arguments,
    so no kernel loses a specialisation it relies on.

    Also, a compilation for a call from compiled code leaves out numba's CPython and C wrappers,
    which only a call from Python uses (:class:`_Compiler`): numba compiles every callee into a
    library of its own and emits its machine code, while callers link its LLVM code; the wrappers
    unbox and box every argument (the shape, the params, each scratch array), so much of each
    callee's compilation went to them. Such a compilation serves callers only
    (:meth:`add_overload`); a call from Python that finds no other compiles the function again
    with them (:meth:`compile`), and that one then serves callers too. A user's first ``mc``
    game took 0.84 of the CPU (``benchmarks/README.md``). Such a compilation's code library is
    also for callers only (:mod:`.libraries`): linked into its callers, it is neither optimised
    on its own nor emitted as machine code.
    """

    def get_call_template(self, args: Any, kws: Any) -> Any:
        """numba's call template for ``args`` and ``kws`` with their literal types widened."""
        with libraries.for_callers():
            return super().get_call_template(tuple(types.unliteral(a) for a in args),
                                             {k: types.unliteral(v) for k, v in kws.items()})

    def add_overload(self, cres: Any) -> None:
        """numba's, except that a compilation without wrappers is not offered to Python."""
        if _wrapped(cres):
            super().add_overload(cres)
        else:
            self.overloads[tuple(cres.signature.args)] = cres

    def compile(self, sig: Any) -> Any:
        """numba's, except that Python gets a compilation with its wrappers."""
        with global_compiler_lock:  # no other thread compiles meanwhile, nor sees the cache
            entry = super().compile(sig)
            args = tuple(sigutils.normalize_signature(sig)[0])
            if libraries.compiling_for_callers() or _wrapped(self.overloads[args]):
                return entry
            # compile it again with the wrappers, numba saving it over the unwrapped one in its
            # own save window (diskcache.IndexLock), unless the cache holds it with its wrappers
            # by now (another process called it from Python since this one loaded it unwrapped,
            # or compiled it for callers): then that is loaded
            del self.overloads[args]
            load = self._cache.load_overload

            def load_wrapped(*a: Any, **k: Any) -> Any:
                cres = load(*a, **k)
                return cres if cres is not None and _wrapped(cres) else None

            self._cache.load_overload = load_wrapped
            try:
                return super().compile(sig)
            finally:
                del self._cache.load_overload


def _wrapped(cres: Any) -> bool:
    """Whether a compilation has its CPython wrapper (Python can call it)."""
    return bool(cres.library.get_pointer_to_function(cres.fndesc.llvm_cpython_wrapper_name))


class _Compiler(_FunctionCompiler):
    """numba's, without the wrappers when compiling for compiled callers."""

    def _customize_flags(self, flags: Any) -> Any:
        if libraries.compiling_for_callers():
            flags.no_cpython_wrapper = True
            flags.no_cfunc_wrapper = True
        return flags


class CoreDispatcher(Dispatcher):
    """:class:`Dispatcher` for a kernel that reads of its :class:`~.shape.Shape` only the core
    (``words``, ``line``, ``draws``): a call from compiled code compiles it for the shape's core
    (:attr:`~.shape.Shape.core`), so that the hand kernel of a run with styles, searches or a log
    and the searches' playouts (the core itself) share one compilation instead of one each.
    ``tests/test_jit_core.py`` checks that such a kernel reads no other attribute of its shape
    and passes its shape on only to kernels of this kind.
    """

    cores: dict[type, Any] = {}
    """numba type classes whose values have a core, and the function from such a type to its
    core's type (:mod:`.shape` registers its ``ShapeType``; this module is below it)."""

    def get_call_template(self, args: Any, kws: Any) -> Any:
        """:meth:`Dispatcher.get_call_template` with every shape's type that of its core."""

        def core(t: Any) -> Any:
            to = self.cores.get(type(t))
            return t if to is None else to(t)

        return super().get_call_template(tuple(core(a) for a in args),
                                         {k: core(v) for k, v in kws.items()})


def _taking_turns(decorator: Any, kind: type = Dispatcher) -> Any:
    """``decorator`` making a ``kind`` of :class:`Dispatcher` whose kernels take turns with other
    processes compiling the same signature (:class:`~dominosim.fast.core.diskcache.Turns`), when
    the disk cache is in use: without it the process that waited would compile all the same."""

    def decorate(func: Any) -> Any:
        dispatcher = decorator(func)
        dispatcher.__class__ = kind  # numba's own, with its typing of calls overridden
        dispatcher._compiler.__class__ = _Compiler
        return diskcache.turns().wrap(dispatcher) if CACHE else dispatcher

    return decorate


jit = _taking_turns(numba.njit(cache=CACHE, nogil=True))
"""Decorator for every kernel: compiled once, cached on disk, releasing the GIL."""

jit_kernel = _taking_turns(numba.njit(cache=CACHE, nogil=True, _nrt=False))
"""Decorator for the hand kernel and its larger, colder helpers (the deterministic strategies, the
plug-in call, the score): compiled without numba's reference-counting runtime, and not inlined, so
that compiling the kernel stays short.

The kernel never allocates (every array comes in from the driver), and without the runtime numba
emits no atomic increments and decrements around array arguments (measured: they cost the hand loop
more than its own work)."""

jit_core = _taking_turns(numba.njit(cache=CACHE, nogil=True, _nrt=False), CoreDispatcher)
"""Decorator for a :data:`jit_kernel` whose first argument is the run's shape and that reads only
its core (:class:`CoreDispatcher`): compiled once per core, whatever the extras of the caller's
shape."""

jit_helper = _taking_turns(numba.njit(cache=CACHE, nogil=True, _nrt=False, inline="always"))
"""Decorator for the kernel's small helpers: as :data:`jit_kernel`, and inlined into the caller at
numba's IR level so that calls cost nothing. Also for a function with one caller whose callees are
large: a wrapper (``search_move``, the searches' ``decide``) or a link of a chain of single
callers (inference's, :mod:`dominosim.fast.search.infer`). numba compiles every function with the
code of all it calls linked in and optimises it again, so each such function compiled on its own
is one more pass over everything below it (``benchmarks/README.md``). Not for a large function:
inlined into an already large caller, it made LLVM slower than the level it saved (the searches'
``mc_decide`` and ``ismcts_decide``: ``benchmarks/README.md``)."""

jit_entry = _taking_turns(numba.njit(cache=CACHE, nogil=True, _nrt=False,
                                     pipeline_class=NoAliasCompiler))
"""Decorator for the compiled engine's entry points (the drivers), into which the hand kernel is
inlined: as :data:`jit_kernel`, and with every array argument marked as not aliasing the others
(each is its own allocation), so that LLVM keeps the position's scalars in registers across the
stores into the hands and the ends (measured: see ``docs/engine.md``)."""
