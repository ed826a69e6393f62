"""Time of the first ``simulate`` in a fresh process: with an empty numba cache (compilation
included) and with a warm one (cache hit), for a built-in style and for the search strategies.

Run ``python benchmarks/bench_startup.py`` (or ``python benchmarks/bench_startup.py bully tuned``
for some of the cases). Each measurement is a new Python process that imports
dominosim and plays hands of Block 4p (1,000 with ``random``, ``bully`` or ``tuned``, 20 with ``mc:10``,
``ismcts:100`` or ``pimc:5``); the cache lives in a temporary directory (``NUMBA_CACHE_DIR``), emptied before
each cold run and kept for the warm runs. Besides the wall time it prints the process's CPU time,
which a busy machine inflates less.

``python benchmarks/bench_startup.py --sweep`` times the README's first command instead, ``python
-m dominosim.batch`` (the built-in sweep, 15 million hands), with an empty cache and then three times
with the warm one: wall seconds, CPU seconds of the whole process tree (the worker processes that
compile kernels included) and their ratio, the cores kept busy on average. ``--hands N`` plays fewer
hands per cell (``--hands 1`` leaves little but compiling and loading); ``--jobs N`` as the
command's.
"""

from __future__ import annotations

import argparse
import os
import resource
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


def sweep(cache_dir: str, out: str, extra: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process and every process it waited for) of ``python -m
    dominosim.batch --fresh`` into ``out``."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "dominosim.batch", "--fresh", "--out", out, "--quiet",
                    *extra], env=env, check=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main_sweep(extra: list[str]) -> None:
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as out:
        for label, repeats in (("empty cache", 1), ("warm cache", 3)):
            for _ in range(repeats):
                wall, cpu = sweep(cache, out, extra)
                print(f"python -m dominosim.batch {' '.join(extra)}: {label}: {wall:.1f} s wall, "
                      f"{cpu:.1f} s CPU ({cpu / wall:.2f} cores busy on average)", flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", metavar="STRATEGY",
                        help="only these strategies of the cases (default: every case)")
    parser.add_argument("--sweep", action="store_true", help="time `python -m dominosim.batch`")
    parser.add_argument("--hands", type=int, help="with --sweep: hands per cell")
    parser.add_argument("--jobs", type=int, help="with --sweep: the command's --jobs")
    args = parser.parse_args(argv)
    names = args.names
    if args.sweep:
        extra = [*(["--hands", str(args.hands)] if args.hands else []),
                 *(["--jobs", str(args.jobs)] if args.jobs else [])]
        main_sweep(extra)
        return
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
