"""The strategies a sweep's line-ups may name, checked in the driver and built where hands are played.

A line-up entry is one of

- a built-in name (``"random"``, ``"bully"``, ``"mc"``: :mod:`dominosim.strategies.registry`);
- a search strategy with its budget (``"mc:200"``, ``"ismcts:2000"``, ``"mc_omniscient:50"``),
  parsed and checked by :func:`dominosim.strategies.search.resolve_search`, the parser every other
  entry point uses;
- a saved player, ``"file:path/to/player.npz"`` (:func:`dominosim.load_player`): read when the
  sweep file is checked, its file's digest part of the sweep's plan, so that a resume refuses a
  changed file; a player fitted for other rules than a cell's is refused when the cell is played;
- a user's plug-in named by import path, ``"package.module:function"``: a numba ``@njit``
  function as :func:`dominosim.compiled_strategy` expects. The driver imports and compiles it when
  the sweep file is checked (so a wrong path is refused before anything is written); whoever plays
  the hands (this process, or each Dask worker) imports it again, wraps it once per process and
  plays it under the name as written.

The records, the summary and the report name every strategy as the sweep file writes it.

Examples
--------
>>> check_entry("mc:200"), check_entry("bully")
('mc:200', 'bully')
>>> check_entry("mc:0")
Traceback (most recent call last):
...
ValueError: 'mc:0' is not a strategy dominosim can play: the value for `playouts` must be an integer from 1 to 100,000 (the cap dominosim.strategies.search.MAX_BUDGET['mc']), but 0 was passed.
>>> check_entry("no_such_module_here:choose")
Traceback (most recent call last):
...
ValueError: 'no_such_module_here:choose' is not a strategy dominosim can play: the module 'no_such_module_here' cannot be imported (ModuleNotFoundError: No module named 'no_such_module_here').
"""

from __future__ import annotations

import hashlib
import importlib
import os
import re
import socket
import sys
import sysconfig
import types
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numba

from ..fast.hand.plugin import CompiledStrategy
from ..strategies.registry import NAMES
from ..strategies.search import resolve_search
from ..strategies.weighted import FILE_PREFIX, load_player

PLUGIN_PATH = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*:[A-Za-z_]\w*", re.ASCII)
"""An import path ``package.module:function`` (Python identifiers around one colon)."""

_LOADED: dict[str, CompiledStrategy] = {}
"""The plug-ins this process has imported and wrapped, by path (one compilation per process)."""
_DIGESTS: dict[str, str | None] = {}
"""The digest of each loaded plug-in's module file, read when it was imported."""


class _Refused(ValueError):
    """A line-up entry refused: the message names it; ``reason`` is the clause after it."""

    def __init__(self, entry: Any, reason: str) -> None:
        self.reason = _clause(reason)
        super().__init__(f"{entry!r} is not a strategy dominosim can play: {self.reason}.")


def is_plugin_path(entry: str) -> bool:
    """Whether ``entry`` has the form of a plug-in's import path (it is not checked further).

    >>> is_plugin_path("mypkg.mymodule:choose"), is_plugin_path("mc:200")
    (True, False)
    """
    return bool(PLUGIN_PATH.fullmatch(entry))


def load_plugin(path: str) -> CompiledStrategy:
    """The plug-in at ``path`` (``"package.module:function"``) wrapped by
    :func:`dominosim.compiled_strategy` and named ``path``; imported once per process.

    Raises
    ------
    ValueError
        One sentence naming the path: the module cannot be imported, it has no such attribute,
        or the attribute is not a numba function of the plug-in's signature.

    Examples
    --------
    >>> load_plugin("math:sqrt")
    Traceback (most recent call last):
    ...
    ValueError: 'math:sqrt' is not a strategy dominosim can play: 'sqrt' of the module 'math' is a builtin_function_or_method, not a numba @njit function choose(moves_tile, moves_suit, n_moves, view, rng) -> int.
    """
    try:
        return _load(path)
    except _Refused as error:  # the public error is a plain ValueError
        raise ValueError(str(error)) from None


def _load(path: str) -> CompiledStrategy:
    if path in _LOADED:
        return _LOADED[path]
    module_name, _, attribute = path.partition(":")
    try:
        module = importlib.import_module(module_name)
    except SystemExit as error:  # sys.exit() at import would end the sweep having written nothing
        raise _Refused(path, f"the module {module_name!r} cannot be imported (it called "
                             f"sys.exit({error.code!r}) while importing)") from None
    except Exception as error:  # a missing module, or one that fails while importing
        raise _Refused(path, f"the module {module_name!r} cannot be imported "
                             f"({type(error).__name__}: {_first_line(error)})") from None
    func = getattr(module, attribute, None)
    if func is None:
        raise _Refused(path, f"the module {module_name!r} has no attribute {attribute!r}")
    if not isinstance(func, numba.core.registry.CPUDispatcher):
        raise _Refused(path, f"{attribute!r} of the module {module_name!r} is a "
                             f"{type(func).__name__}, not a numba @njit function choose(moves_tile, "
                             "moves_suit, n_moves, view, rng) -> int")
    try:
        strategy = CompiledStrategy(func, name=path)
    except ValueError as error:  # the wrong number of arguments, or not an integer returned
        raise _Refused(path, _first_line(error)) from None
    _LOADED[path], _DIGESTS[path] = strategy, _digest_of(module, func)
    return strategy


def plugin_source_digest(path: str) -> str | None:
    """The SHA-256 of the plug-in's code as this process imported it: the file of the module the
    path names, of the module that defines the function (a package may re-export it), and of
    every module of the user's they import, directly or through each other (modules of the
    standard library, of installed libraries and of dominosim itself are left out: their
    versions are the engine's). None when none of them has a file. A sweep's plan holds it, so a
    folder whose chunks one version of a plug-in played is not resumed with another (a process
    imports a module once: edit it, and start a new process).

    >>> plugin_source_digest("math:nope")
    Traceback (most recent call last):
    ...
    ValueError: 'math:nope' is not a strategy dominosim can play: the module 'math' has no attribute 'nope'.
    """
    load_plugin(path)
    return _DIGESTS[path]


def _digest_of(module: Any, func: Any) -> str | None:
    files = _user_files([module, sys.modules.get(getattr(func, "__module__", None) or "")])
    if not files:
        return None
    h = hashlib.sha256()
    for name in sorted(files):
        try:
            data = Path(name).read_bytes()
        except OSError:
            data = b""
        h.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    return h.hexdigest()


def _library_folders() -> tuple[Path, ...]:
    """Where the standard library, installed libraries and dominosim live."""
    folders = {Path(p).resolve() for key in ("stdlib", "platstdlib", "purelib", "platlib")
               if (p := sysconfig.get_paths().get(key))}
    folders.add(Path(__file__).resolve().parent.parent)
    return tuple(folders)


def _user_files(roots: list[Any]) -> set[str]:
    """The files of the user's modules reachable from ``roots``: a module, a function or class
    imported from a module, or a numba function, found in a module's names, is followed.
    """
    libraries = _library_folders()
    seen: set[str] = set()
    files: set[str] = set()
    todo = [m for m in roots if isinstance(m, types.ModuleType)]
    while todo:
        module = todo.pop()
        if module.__name__ in seen:
            continue
        seen.add(module.__name__)
        source = getattr(module, "__file__", None)
        if not source:
            continue
        path = Path(source).resolve()
        if any(path.is_relative_to(folder) for folder in libraries):
            continue
        files.add(str(path))
        for value in list(vars(module).values()):
            if isinstance(value, types.ModuleType):
                todo.append(value)
                continue
            try:
                inner = getattr(value, "py_func", value)  # a numba function: its Python one
                name = getattr(inner, "__module__", None)
            except Exception:  # an object whose attributes cannot be read is not followed
                continue
            if isinstance(name, str) and name in sys.modules:
                todo.append(sys.modules[name])
    return files


def player_files(lineups: Iterable[Iterable[str]]) -> dict[str, str]:
    """The saved players ``lineups`` name (``"file:..."`` entries), each with the SHA-256 of its
    file, in order of first appearance: a sweep's plan holds them, so a folder whose chunks one
    version of a player played is not resumed with another.

    >>> player_files([("random", "bully")])
    {}
    """
    entries = dict.fromkeys(e for lineup in lineups for e in lineup
                            if isinstance(e, str) and e.startswith(FILE_PREFIX))
    return {e: hashlib.sha256(Path(e[len(FILE_PREFIX):]).read_bytes()).hexdigest()
            for e in entries}


def plugin_paths(lineups: Iterable[Iterable[str]]) -> list[str]:
    """The distinct plug-in paths of ``lineups``, in order of first appearance.

    >>> plugin_paths([("mc:20", "random"), ("random", "mymodule:choose", "mymodule:choose")])
    ['mymodule:choose']
    """
    return list(dict.fromkeys(e for lineup in lineups for e in lineup if _names_plugin(e)))


def _names_plugin(entry: str) -> bool:
    """Whether a (checked) line-up entry is a plug-in's path: not a built-in, not a search."""
    if entry in NAMES or entry.startswith(FILE_PREFIX) or not is_plugin_path(entry):
        return False
    try:
        return resolve_search(entry) is None
    except ValueError:  # a search's name with a bad budget is no plug-in
        return False


def check_entry(entry: Any) -> str:
    """``entry`` if a line-up may hold it (a built-in, a search with a budget or a plug-in that
    imports and compiles); otherwise a ``ValueError`` naming it, and why.

    >>> check_entry("ismcts:2000")
    'ismcts:2000'
    """
    reason = refusal(entry)
    if reason is not None:
        raise ValueError(str(_Refused(entry, reason)))
    return entry


def refusal(entry: Any) -> str | None:
    """Why a line-up may not hold ``entry`` (a clause), or None when it may (see
    :func:`check_entry`).

    >>> refusal("mc:20") is None
    True
    >>> print(refusal("magic"))
    it is neither a built-in name, nor a search with a budget, nor an import path 'package.module:function', nor a saved player 'file:player.npz'
    """
    if not isinstance(entry, str):
        return "it is not a string"
    if entry in NAMES:
        return None
    if entry.startswith(FILE_PREFIX):
        try:
            load_player(entry[len(FILE_PREFIX):])
        except ValueError as error:
            return _clause(_first_line(error))
        return None
    try:
        if resolve_search(entry) is not None:
            return None
    except ValueError as error:  # a search's name with a bad budget
        return _clause(_first_line(error))
    if is_plugin_path(entry):
        try:
            _load(entry)
        except _Refused as error:
            return error.reason
        return None
    return ("it is neither a built-in name, nor a search with a budget, nor an import path "
            "'package.module:function', nor a saved player 'file:player.npz'")


def playable(lineup: tuple[str, ...]) -> list[Any]:
    """The line-up as :func:`dominosim.simulate` takes it: plug-in paths replaced by their
    wrapped functions (imported here, once per process), every other name as it is.

    Raises
    ------
    RuntimeError
        A plug-in that this process cannot import (a Dask worker without the user's module on
        its Python path), naming it and the process.

    >>> playable(("mc:20", "random"))
    ['mc:20', 'random']
    """
    seats: list[Any] = []
    for entry in lineup:
        if not _names_plugin(entry):
            seats.append(entry)
            continue
        try:
            seats.append(_load(entry))
        except _Refused as error:
            raise RuntimeError(
                f"{str(error).rstrip('.')}, in the process {os.getpid()} on "
                f"{socket.gethostname()!r} that plays the hands (every machine that plays them, "
                "each Dask worker too, must import it: install it there or set PYTHONPATH)."
            ) from None
    return seats


def _clause(text: str) -> str:
    """A sentence as a clause of another: no capital, no full stop."""
    text = text.rstrip(".")
    return f"{text[:1].lower()}{text[1:]}"


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
