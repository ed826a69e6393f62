"""The strategies a sweep's line-ups may name, checked in the driver and built where hands are played.

A line-up entry is one of

- a built-in name (``"random"``, ``"bully"``, ``"mc"``: :mod:`dominosim.strategies.registry`);
- a search strategy with its budget (``"mc:200"``, ``"ismcts:2000"``, ``"mc_omniscient:50"``),
  parsed and checked by :func:`dominosim.strategies.search.resolve_search`, the parser every other
  entry point uses;
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
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numba

from ..fast.hand.plugin import CompiledStrategy
from ..strategies.registry import NAMES
from ..strategies.search import resolve_search

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
    _LOADED[path], _DIGESTS[path] = strategy, _digest_of(module)
    return strategy


def plugin_source_digest(path: str) -> str | None:
    """The SHA-256 of the plug-in's module file as this process imported it (None for a module
    without a file). A sweep's plan holds it, so a folder whose chunks one version of a plug-in
    played is not resumed with another (a process imports a module once: edit it, and start a new
    process).

    >>> plugin_source_digest("math:nope")
    Traceback (most recent call last):
    ...
    ValueError: 'math:nope' is not a strategy dominosim can play: the module 'math' has no attribute 'nope'.
    """
    load_plugin(path)
    return _DIGESTS[path]


def _digest_of(module: Any) -> str | None:
    source = getattr(module, "__file__", None)
    try:
        return hashlib.sha256(Path(source).read_bytes()).hexdigest() if source else None
    except OSError:
        return None


def plugin_paths(lineups: Iterable[Iterable[str]]) -> list[str]:
    """The distinct plug-in paths of ``lineups``, in order of first appearance.

    >>> plugin_paths([("mc:20", "random"), ("random", "mymodule:choose", "mymodule:choose")])
    ['mymodule:choose']
    """
    return list(dict.fromkeys(e for lineup in lineups for e in lineup if _names_plugin(e)))


def _names_plugin(entry: str) -> bool:
    """Whether a (checked) line-up entry is a plug-in's path: not a built-in, not a search."""
    if entry in NAMES or not is_plugin_path(entry):
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
    it is neither a built-in name, nor a search with a budget, nor an import path 'package.module:function'
    """
    if not isinstance(entry, str):
        return "it is not a string"
    if entry in NAMES:
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
            "'package.module:function'")


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
