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


def refuse(name: str, allowed: str, value: Any) -> ValueError:
    """The one-sentence error of a bad argument."""
    return ValueError(f"The value for `{name}` must be {allowed}, but {value!r} was passed.")


def check_choice(name: str, value: Any, choices: Sequence[str]) -> str:
    """``value`` if it is one of ``choices``, else the error naming them."""
    if not isinstance(value, str) or value not in choices:
        raise refuse(name, "one of " + ", ".join(map(repr, choices)), value)
    return value


def check_confidence(confidence: Any) -> float:
    """A coverage strictly between 0 and 1."""
    if (isinstance(confidence, bool) or not isinstance(confidence, (int, float))
            or not 0 < confidence < 1):
        raise refuse("confidence", "a number strictly between 0 and 1 (such as 0.95)", confidence)
    return float(confidence)
