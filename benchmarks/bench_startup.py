"""Time of the first ``simulate`` in a fresh process: with an empty numba cache (compilation
included) and with a warm one (cache hit).

Run ``python benchmarks/bench_startup.py``. Each measurement is a new Python process that imports
dominosim and plays 1,000 hands of Block 4p; the cache lives in a temporary directory
(``NUMBA_CACHE_DIR``), emptied for the cold run and kept for the warm runs.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

SNIPPET = (
    "import time; t0 = time.perf_counter(); import dominosim as ds; "
    "ds.simulate(ds.Rules.preset('block', players=4), 'random', 1000, seed=1); "
    "print(time.perf_counter() - t0)"
)


def first_simulate(cache_dir: str) -> tuple[float, float]:
    """(seconds measured inside the process, wall seconds of the whole process)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", SNIPPET], env=env, capture_output=True,
                         text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1]), time.perf_counter() - t0


def main() -> None:
    with tempfile.TemporaryDirectory() as cache:
        cold = first_simulate(cache)
        warm = [first_simulate(cache) for _ in range(3)]
    print(f"fresh environment (empty cache): import + first simulate {cold[0]:.1f} s "
          f"(process {cold[1]:.1f} s)")
    best = min(warm)
    print(f"warm cache: import + first simulate {best[0]:.2f} s (process {best[1]:.2f} s), "
          f"best of {len(warm)}")


if __name__ == "__main__":
    main()
