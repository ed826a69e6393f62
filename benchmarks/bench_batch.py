"""The batch runner against ``ds.simulate``, its memory on 100 million hands, and Dask.

Run ``python benchmarks/bench_batch.py`` (``--quick`` for small sizes; ``--only speed``,
``memory`` or ``dask`` for one part). Uniform random play, Block 4p (partners), seed 1; every
timed run follows an explicit warm-up, so compilation is not timed, and the speed figures are the
best of ``--repeat`` runs taken in turn (the runner, then the alternative), because this virtual
machine is noisy.

* speed: a one-cell sweep of ``--hands`` hands in chunks of a million (sums only; and, at a
  tenth of the size, with every hand written to Parquet) beside ``ds.simulate`` of the same hands
  (``keep="summary"``; ``keep="rows"``, a DataFrame in memory);
* memory: ``python -m dominosim.batch`` on a 100-million-hand sweep in a new process, its peak
  resident set size and its progress lines;
* dask: the same sweep on a local ``dask.distributed`` cluster of one single-threaded worker per
  core, beside the local runner on every core, chunks of a million hands.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numba

import dominosim as ds
from dominosim.batch import parse_sweep, run_sweep

RULES = ds.Rules.preset("block", players=4)
SWEEP = """\
seed = 1
hands = {hands}
chunk_size = {chunk}
keep = "{keep}"
[rules]
preset = "block"
players = 4
"""


def sweep_of(hands: int, keep: str, chunk: int = 1_000_000):
    return parse_sweep(SWEEP.format(hands=hands, keep=keep, chunk=min(chunk, hands)))


def timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def speed(hands: int, repeat: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for keep, n in (("summary", hands), ("rows", hands // 10)):
            sweep = sweep_of(n, keep)
            run_sweep(sweep_of(20_000, keep), Path(tmp) / "warm", quiet=True, fresh=True)
            ds.simulate(RULES, "random", 20_000, seed=1, keep=keep)
            best_sweep = best_simulate = float("inf")
            for _ in range(repeat):
                best_sweep = min(best_sweep, timed(lambda s=sweep, k=keep: run_sweep(
                    s, Path(tmp) / k, quiet=True, fresh=True)))
                best_simulate = min(best_simulate, timed(lambda n=n, k=keep: ds.simulate(
                    RULES, "random", n, seed=1, keep=k, chunk_size=1_000_000)))
            print(f"speed, keep={keep}, {n:,} hands on {numba.config.NUMBA_NUM_THREADS} cores: "
                  f"sweep {n / best_sweep:,.0f} hands/s ({best_sweep:.2f} s), ds.simulate "
                  f"{n / best_simulate:,.0f} hands/s ({best_simulate:.2f} s), ratio "
                  f"{best_simulate / best_sweep:.1%}", flush=True)


def memory(hands: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.toml"
        path.write_text(SWEEP.format(hands=hands, chunk=1_000_000, keep="summary"))
        t0 = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "dominosim.batch", str(path), "--out",
                               str(Path(tmp) / "out"), "--quiet"], check=True)
        seconds = time.perf_counter() - t0
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"memory, keep=summary, {hands:,} hands (--quiet): peak RSS {peak:,.0f} MiB, "
              f"{seconds:.1f} s with start-up ({hands / seconds:,.0f} hands/s), exit "
              f"{proc.returncode}", flush=True)
        log = subprocess.run([sys.executable, "-m", "dominosim.batch", str(path), "--out",
                              str(Path(tmp) / "log"), "--hands", str(hands // 10)],
                             check=True, capture_output=True, text=True)
        lines = [x for x in log.stderr.splitlines() if x.startswith("dominosim.batch:")]
        print(f"progress lines of a {hands // 10:,}-hand run off a terminal (one every 10 s):")
        for line in lines:
            print("    " + line)


def dask(hands: int, repeat: int) -> None:
    from distributed import Client, LocalCluster

    cores = numba.config.NUMBA_NUM_THREADS
    sweep = sweep_of(hands, "summary")
    with tempfile.TemporaryDirectory() as tmp, LocalCluster(
            n_workers=cores, threads_per_worker=1, processes=True,
            dashboard_address=None) as cluster, Client(cluster) as client:
        run_sweep(sweep_of(2 * cores * 20_000, "summary", chunk=20_000), Path(tmp) / "w",
                  client=client, quiet=True)  # every worker loads the compiled engine
        run_sweep(sweep_of(20_000, "summary"), Path(tmp) / "w2", quiet=True)
        best_dask = best_local = float("inf")
        for _ in range(repeat):
            best_dask = min(best_dask, timed(lambda: run_sweep(
                sweep, Path(tmp) / "dask", client=client, quiet=True, fresh=True)))
            best_local = min(best_local, timed(lambda: run_sweep(
                sweep, Path(tmp) / "local", quiet=True, fresh=True)))
    print(f"dask, keep=summary, {hands:,} hands in chunks of 1,000,000: local cluster of {cores} "
          f"single-threaded workers {hands / best_dask:,.0f} hands/s ({best_dask:.2f} s), local "
          f"runner on {cores} cores {hands / best_local:,.0f} hands/s ({best_local:.2f} s), "
          f"ratio {best_local / best_dask:.1%}", flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small sizes")
    parser.add_argument("--only", choices=("speed", "memory", "dask"))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    big = 10_000_000 if args.quick else 100_000_000
    if args.only in (None, "speed"):
        speed(2_000_000 if args.quick else 20_000_000, args.repeat)
    if args.only in (None, "dask"):
        dask(4_000_000 if args.quick else 20_000_000, args.repeat)
    if args.only in (None, "memory"):
        memory(big)


if __name__ == "__main__":
    main()
