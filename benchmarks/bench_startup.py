"""Time of the first ``simulate`` in a fresh process: with an empty numba cache (compilation
included) and with a warm one (cache hit), for a built-in style and for the search strategies.

Run ``python benchmarks/bench_startup.py`` (or ``python benchmarks/bench_startup.py bully tuned``
for some of the cases). Each measurement is a new Python process that imports
dominosim and plays hands of Block 4p (1,000 with ``random``, ``bully`` or ``tuned``, 20 with ``mc:10``,
``ismcts:100`` or ``pimc:5``); the cache lives in a temporary directory (``NUMBA_CACHE_DIR``), emptied before
each cold run and kept for the warm runs. Besides the wall time it prints the process's CPU time,
which a busy machine inflates less.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

SNIPPET = (
    "import time; t0 = time.perf_counter(); c0 = time.process_time(); import dominosim as ds; "
    "ds.simulate(ds.Rules.preset('block', players=4), {strategy!r}, {hands}, seed=1); "
    "print(time.perf_counter() - t0, time.process_time() - c0)"
)
CASES = (("random", 1000), ("bully", 1000), ("tuned", 1000), ("mc:10", 20), ("ismcts:100", 20),
         ("pimc:5", 20))


def first_simulate(cache_dir: str, strategy: str, hands: int) -> tuple[float, float, float]:
    """(seconds measured inside the process, its CPU seconds, wall seconds of the process)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", SNIPPET.format(strategy=strategy, hands=hands)],
                         env=env, capture_output=True, text=True, check=True)
    inside, cpu = map(float, out.stdout.strip().splitlines()[-1].split())
    return inside, cpu, time.perf_counter() - t0


def main(argv: list[str] | None = None) -> None:
    """Every case, or only the strategies named on the command line."""
    names = sys.argv[1:] if argv is None else argv
    for strategy, hands in CASES:
        if names and strategy not in names:
            continue
        with tempfile.TemporaryDirectory() as cache:
            cold = first_simulate(cache, strategy, hands)
            warm = min(first_simulate(cache, strategy, hands) for _ in range(3))
        print(f"{strategy:>11s}: empty cache: import + first simulate {cold[0]:.1f} s "
              f"({cold[1]:.1f} s CPU, process {cold[2]:.1f} s); warm cache: {warm[0]:.2f} s "
              f"(process {warm[2]:.2f} s, best of 3)", flush=True)


if __name__ == "__main__":
    main()
