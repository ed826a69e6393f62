"""Tests that must share a pytest-xdist worker (``--dist loadgroup``, set in ``pyproject.toml``'s
``addopts``, so that pytest-xdist's workers read it too: run without workers by ``-n 0``, since
``-p no:xdist`` leaves that option unknown).

numba compiles a kernel signature once for all the suite's workers: a worker that needs a
signature another worker is compiling waits for it (``dominosim.fast.core.diskcache``). Two tests
that need the same long compilation, run at the same time in the two workers, leave one core
idle for that long; in one group they run one after the other in one worker, and the other worker
goes on with the rest of the suite.

pytest-xdist 3.8 passes a test's group to its scheduler in the test's id, which pytest 9.2 no
longer lets it rewrite: there every group is ignored without a word, so ``pyproject.toml`` keeps
pytest below 9.2, and ``tests/test_scheduling.py`` checks that the installed pair keeps a group in
one worker.
"""

from __future__ import annotations

import pytest

SOLVER_STACK = pytest.mark.xdist_group("solver_stack")
"""The tests that compile first the searching kernels with the solver's stack (``pimc``,
``epimc``), with and without the weighted model's table (a seat that infers models another search
seat as the learned player's softmax): about two minutes of CPU for the one, one and a half for
the other, from an empty cache (``benchmarks/suite_compiles.py``). Run in separate workers, one
of them waited 135 s for the other's compilation."""
