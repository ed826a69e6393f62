"""Shared by the tests and the doctests: figures drawn by a test are closed after it."""

from __future__ import annotations

import sys

import pytest


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")

# The deprecated aliases of moved modules warn when imported (tests/test_layers.py checks that);
# the doctest collector must not import them.
collect_ignore = [f"dominosim/{name}.py" for name in
                  ("api", "check", "duplicate", "game", "sampler", "search", "transcript")]
