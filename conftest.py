"""Shared by the tests and the doctests: figures drawn by a test are closed after it, and the tests
marked ``slow`` run first (``tests/scheduling.py``)."""

from __future__ import annotations

import sys

import pytest
from scheduling import slow_first


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked ``slow`` first (:func:`scheduling.slow_first`)."""
    slow_first(items)
