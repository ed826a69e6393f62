"""The suite's workers keep each ``xdist_group`` together (``tests/scheduling.py``)."""

from __future__ import annotations

import re
import subprocess
import sys

GROUPED = '''
import pytest

@pytest.mark.xdist_group("together")
@pytest.mark.parametrize("k", range(4))
def test_grouped(k):
    pass

@pytest.mark.parametrize("k", range(4))
def test_free(k):
    pass
'''


def test_the_installed_pytest_xdist_runs_a_group_in_one_worker(tmp_path):
    # pytest-xdist 3.8 under pytest 9.2 lost every group without a word (pyproject.toml's cap)
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "test_grouped.py").write_text(GROUPED)
    done = subprocess.run([sys.executable, "-m", "pytest", "-n", "2", "--dist", "loadgroup",
                           "-v", "-p", "no:cacheprovider", "-p", "no:benchmark"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    grouped = re.findall(r"\[(gw\d+)\].* PASSED test_grouped\.py::test_grouped\[\d\](\S*)",
                         done.stdout)
    assert len(grouped) == 4, done.stdout[-2000:]
    assert {suffix for _, suffix in grouped} == {"@together"}
    assert len({worker for worker, _ in grouped}) == 1
