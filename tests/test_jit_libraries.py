"""Code libraries for compiled callers only (:mod:`dominosim.fast.core.libraries`): a callee's
library is neither optimised on its own nor emitted, the library Python calls is, and both work
when compiled, when loaded from numba's disk cache and when linked into a caller compiled later."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

KERNELS = """
from dominosim.fast.core.jit import jit, jit_kernel


@jit_kernel
def leaf(x):
    if x < 0:
        return -x
    return x * 3


@jit_kernel
def middle(x):
    return leaf(x) + leaf(x - 10)


@jit
def outer(x):
    return middle(x) + 1


@jit
def other(x):
    return middle(x) * 2


@jit
def says(x):  # printing uses the Python API, which reads the function's environment
    print("callee sees", x)
    return x + 1


@jit
def calls(x):
    return says(x) * 2


@jit
def calls_too(x):
    return says(x) * 3
"""

FIRST = """
from numba import types
import kern

only = lambda f: f.overloads[(types.int64,)].library.callers_only
print(kern.outer(5), kern.calls(5))
print(only(kern.leaf), only(kern.middle), only(kern.says), only(kern.outer), only(kern.calls))
"""

SECOND = """
from numba import types
import kern

only = lambda f: f.overloads[(types.int64,)].library.callers_only
print(kern.other(5), kern.calls_too(5))
print(sum(kern.middle.stats.cache_hits.values()), sum(kern.says.stats.cache_hits.values()),
      only(kern.middle), only(kern.says), only(kern.other))
print(kern.middle(5), only(kern.middle), kern.outer(5))
"""


def _env(folder: Path, cache: Path) -> dict[str, str]:
    """A process's environment: this checkout and ``folder`` importable, numba's cache ``cache``."""
    return {"PYTHONPATH": f"{ROOT}:{folder}", "PATH": "/usr/bin:/bin",
            "NUMBA_CACHE_DIR": str(cache)}


def _run(folder: Path, code: str, cache: Path) -> list[str]:
    done = subprocess.run([sys.executable, "-c", code], cwd=folder, capture_output=True,
                          text=True, timeout=120, env=_env(folder, cache))
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_callees_are_linked_not_emitted_and_work_compiled_cached_and_linked_later(tmp_path):
    (tmp_path / "kern.py").write_text(KERNELS)
    cache = tmp_path / "cache"
    # compiled: the callees' libraries are for callers only, the callers' are not
    assert _run(tmp_path, FIRST, cache) == ["callee sees 5", "21 12",
                                            "True True True False False"]
    # another process: new callers link the callees loaded from the disk cache (their LLVM
    # code), whose environments the callers set (the print reads it); Python calling a callee
    # compiles it again with numba's wrappers, and the cached caller still works
    assert _run(tmp_path, SECOND, cache) == ["callee sees 5", "40 18", "1 1 True True False",
                                             "20 False 21"]


WAITS = """
import sys
from numba import types
import kern

print(kern.outer(5), kern.middle.overloads[(types.int64,)].library.callers_only, flush=True)
sys.stdin.readline()  # meanwhile another process calls middle from Python: saved with wrappers
print(kern.middle(5), kern.middle.overloads[(types.int64,)].library.callers_only,
      sum(kern.middle.stats.cache_misses.values()), sum(kern.middle.stats.cache_hits.values()))
"""

CALLS_MIDDLE = """
import kern

print(kern.middle(5), sum(kern.middle.stats.cache_misses.values()))
"""


def test_a_callee_called_from_python_loads_the_wrapped_compilation_another_process_saved(
        tmp_path):
    """A process holding a callee compiled for callers only, then calling it from Python, loads
    the compilation with wrappers that another process saved meanwhile instead of compiling it a
    second time (the suite's two workers did: about 15 s of CPU in one run)."""
    (tmp_path / "kern.py").write_text(KERNELS)
    cache = tmp_path / "cache"
    first = subprocess.Popen([sys.executable, "-c", WAITS], cwd=tmp_path,
                             env=_env(tmp_path, cache), text=True, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert first.stdout.readline().split() == ["21", "True"]  # middle: for callers only
        # middle's unwrapped compilation on disk, loaded, then compiled with its wrappers
        assert _run(tmp_path, CALLS_MIDDLE, cache) == ["20 1"]
        out, err = first.communicate("go\n", timeout=120)
    finally:
        first.kill()
    assert first.returncode == 0, err
    # one miss (its first compilation, for outer), then a hit: the wrapped one, from disk
    assert out.split() == ["20", "False", "1", "1"]
