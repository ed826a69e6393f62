"""Tests that must share a pytest-xdist worker (``--dist loadgroup``, set in ``pyproject.toml``).

numba compiles a kernel signature once for all the suite's workers: a worker that needs a
signature another worker is compiling waits for it (``dominosim.fast.core.diskcache``). Two tests
that need the same long compilation, run at the same time in the two workers, leave one core
idle for that long; in one group they run one after the other in one worker, and the other worker
goes on with the rest of the suite.
"""

from __future__ import annotations

import pytest

STACK_AND_MODEL = pytest.mark.xdist_group("stack_and_model")
"""The tests whose line-up compiles the searching kernel with the solver's stack and the weighted
model's table (a ``pimc`` or ``epimc`` seat that infers, and so models another search seat as the learned player's softmax): about
two minutes of CPU from an empty cache, measured by ``benchmarks/suite_compiles.py``; with the
two in separate workers, one of them waited 135 s for the other's compilation."""
