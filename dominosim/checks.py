"""Argument checks every layer shares, with the one-sentence error of a bad argument.

>>> check_choice("x", "turn", ("turn", "progress"))
'turn'
>>> check_confidence(1.5)
Traceback (most recent call last):
...
ValueError: The value for `confidence` must be a number strictly between 0 and 1 (such as 0.95), but 1.5 was passed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def refuse(name: str, allowed: str, value: Any, *, limit: int | None = None,
           shown: str | None = None, verb: str = "be") -> ValueError:
    """The one-sentence error of a bad argument: the only place that sentence is written.

    Parameters
    ----------
    name : str
        The argument (or setting) refused, shown in backquotes.
    allowed : str
        What it must be: ``"one of 'a', 'b'"``, ``"an integer from 1 to 9"``...
    value : Any
        The value received; its ``repr`` is shown on one line (an array's repr spans several).
    limit : int, optional
        Cut the shown value after this many characters (a whole file's worth of TOML).
    shown : str, optional
        The value as it should read when its ``repr`` does not (a count with its thousands
        separated).
    verb : str
        What the value must do: ``"be"`` (the default) ``allowed``, or ``"fit in"``, ``"hold"``...

    Returns
    -------
    ValueError
        To be raised by the caller.

    Examples
    --------
    >>> refuse("scoring", "one of 'game', 'spots'", "sptos")
    ValueError("The value for `scoring` must be one of 'game', 'spots', but 'sptos' was passed.")
    >>> str(refuse("n", "at most 3", list(range(9)), limit=10))
    'The value for `n` must be at most 3, but [0, 1, 2,... was passed.'
    >>> str(refuse("n", "the free memory", 10**6, shown=f"{10**6:,}", verb="fit in"))
    'The value for `n` must fit in the free memory, but 1,000,000 was passed.'
    """
    if shown is None:
        shown = " ".join(line.strip() for line in repr(value).splitlines())
    if limit is not None and len(shown) > limit:
        shown = shown[:limit] + "..."
    return ValueError(f"The value for `{name}` must {verb} {allowed}, but {shown} was passed.")


def check_choice(name: str, value: Any, choices: Sequence[str]) -> str:
    """``value`` if it is one of ``choices``, else the error naming them."""
    if not isinstance(value, str) or value not in choices:
        raise refuse(name, "one of " + ", ".join(map(repr, choices)), value)
    return value


def check_fraction(name: str, value: Any, example: str) -> float:
    """A number strictly between 0 and 1 (``example`` says what one looks like)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 1:
        raise refuse(name, f"a number strictly between 0 and 1 ({example})", value)
    return float(value)


def check_jobs(n_jobs: Any) -> int:
    """Threads for compiled work: ``None`` or ``-1`` for every core numba may use, or a count
    from 1 to that number.
    """
    import numba  # here, not at import: the checks are loaded by every layer

    most = numba.config.NUMBA_NUM_THREADS
    if n_jobs is None or n_jobs == -1:
        return most
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, int) or not 1 <= n_jobs <= most:
        raise refuse("n_jobs", f"None, -1 or an integer from 1 to {most} (the cores numba may "
                     "use)", n_jobs)
    return n_jobs


def check_confidence(confidence: Any) -> float:
    """A coverage strictly between 0 and 1."""
    return check_fraction("confidence", confidence, "such as 0.95")


MB = 1 << 20
DEFAULT_MAX_MEMORY = 1 << 30
"""The most bytes a solve's table, an analysis's or a search strategy's arrays may take by default
(1 GB)."""


def check_memory(name: str, need: int, limit: Any, what: str,
                 smaller: str = "a smaller table") -> None:
    """Refuse a computation that needs ``need`` bytes (``what`` says of what) past ``limit``
    bytes (the ``name`` parameter; None: no limit); the sentence offers ``smaller`` as the other
    remedy.

    >>> check_memory("max_memory", 3 * MB, 2 * MB, "the search's arrays", "a smaller budget")
    Traceback (most recent call last):
    ...
    ValueError: The value for `max_memory` (2 MB) is too small: the search's arrays needs 3 MB; pass a larger `max_memory` or a smaller budget.
    """
    if limit is not None and need > limit:
        raise ValueError(f"The value for `{name}` ({limit / MB:,.0f} MB) is too small: {what} "
                         f"needs {need / MB:,.0f} MB; pass a larger `{name}` or {smaller}.")


MAX_LIMIT = 2**62
"""The largest count a limit (``max_states``, ``max_nodes``, ``max_memory``) may be: the
compiled counters are 64-bit signed integers, and a larger limit would wrap."""


def check_limit(name: str, value: Any, low: int = 1, most: int = MAX_LIMIT) -> int:
    """``value`` as a limit: an integer from ``low`` to ``most`` (never a bool, a float, NaN or
    a string, which would turn a guard off or wrap in compiled code).

    >>> check_limit("max_states", 1_000)
    1000
    >>> check_limit("max_states", float("nan"))
    Traceback (most recent call last):
    ...
    ValueError: The value for `max_states` must be a positive integer of at most 2**62, but nan was passed.
    """
    import numbers

    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or \
            not low <= int(value) <= most:
        shown = "2**62" if most == MAX_LIMIT else f"{most:,}"
        allowed = (f"a positive integer of at most {shown}" if low == 1
                   else f"an integer from {low:,} to {shown}")
        raise refuse(name, allowed, value)
    return int(value)
