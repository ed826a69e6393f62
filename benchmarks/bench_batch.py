"""The batch runner against ``ds.simulate``, its memory on 100 million hands, and Dask.

Run ``python benchmarks/bench_batch.py`` (``--quick`` for small sizes; ``--only speed``,
``memory`` or ``dask`` for one part). Uniform random play, Block 4p (partners), seed 1; every
timed run follows an explicit warm-up, so compilation is not timed, and the speed figures are the
best of ``--repeat`` runs taken in turn (the runner, then the alternative), because this virtual
machine is noisy; each figure is given by the clock and by CPU time (every thread of every
process involved), which other work on the machine disturbs much less.

* speed: a one-cell sweep of ``--hands`` hands in chunks of a million (sums only; and, at a
  half the size, with every hand written to Parquet) beside ``ds.simulate`` of the same hands
  (``keep="summary"``; ``keep="rows"``, a DataFrame in memory);
* memory: ``python -m dominosim.batch`` on a 100-million-hand sweep in a new process, its peak
  resident set size and its progress lines;
* dask: the same sweep on a local ``dask.distributed`` cluster of one single-threaded worker per
  core, beside the local runner on every core, chunks of a million hands;
* searches: a small sweep whose line-ups name a search with its budget (``"mc:200"``) and a
  plug-in by import path (``"bench_plugin:lightest"``, from this folder), Block 4p, on the local
  runner and on a local Dask cluster (``--searches`` hands a cell, chunks of 50), with a check
  that both write the same files.
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


def timed(fn) -> tuple[float, float]:
    """Wall-clock seconds and CPU seconds of this process (every thread) spent in ``fn()``."""
    t0, c0 = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - t0, time.process_time() - c0


def _cpu_of_workers(client) -> float:
    import psutil

    return sum(client.run(lambda: sum(psutil.Process().cpu_times()[:2])).values())


def speed(hands: int, repeat: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for keep, n in (("summary", hands), ("rows", hands // 2)):
            sweep = sweep_of(n, keep)
            run_sweep(sweep_of(20_000, keep), Path(tmp) / "warm", quiet=True, fresh=True)
            ds.simulate(RULES, "random", 20_000, seed=1, keep=keep)
            sweep_runs, simulate_runs = [], []
            for _ in range(repeat):
                sweep_runs.append(timed(lambda s=sweep, k=keep: run_sweep(
                    s, Path(tmp) / k, quiet=True, fresh=True)))
                simulate_runs.append(timed(lambda n=n, k=keep: ds.simulate(
                    RULES, "random", n, seed=1, keep=k, chunk_size=1_000_000)))
            (wall_a, cpu_a), (wall_b, cpu_b) = min(sweep_runs), min(simulate_runs)
            cpu_a, cpu_b = min(c for _, c in sweep_runs), min(c for _, c in simulate_runs)
            print(f"speed, keep={keep}, {n:,} hands on {numba.config.NUMBA_NUM_THREADS} cores: "
                  f"sweep {n / wall_a:,.0f} hands/s ({wall_a:.2f} s, CPU {cpu_a:.2f} s), "
                  f"ds.simulate {n / wall_b:,.0f} hands/s ({wall_b:.2f} s, CPU {cpu_b:.2f} s); "
                  f"ratio {wall_b / wall_a:.1%} by the clock, {cpu_b / cpu_a:.1%} by CPU time",
                  flush=True)


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
        dask_runs, local_runs = [], []
        for _ in range(repeat):
            before = _cpu_of_workers(client)
            wall, cpu = timed(lambda: run_sweep(sweep, Path(tmp) / "dask", client=client,
                                                quiet=True, fresh=True))
            dask_runs.append((wall, cpu + _cpu_of_workers(client) - before))
            local_runs.append(timed(lambda: run_sweep(sweep, Path(tmp) / "local", quiet=True,
                                                      fresh=True)))
    (wall_d, _), (wall_l, _) = min(dask_runs), min(local_runs)
    cpu_d, cpu_l = min(c for _, c in dask_runs), min(c for _, c in local_runs)
    print(f"dask, keep=summary, {hands:,} hands in chunks of 1,000,000: local cluster of {cores} "
          f"single-threaded workers {hands / wall_d:,.0f} hands/s ({wall_d:.2f} s, CPU of client "
          f"and workers {cpu_d:.2f} s), local runner on {cores} cores {hands / wall_l:,.0f} "
          f"hands/s ({wall_l:.2f} s, CPU {cpu_l:.2f} s); ratio {wall_l / wall_d:.1%} by the "
          f"clock, {cpu_l / cpu_d:.1%} by CPU time", flush=True)


SEARCHES = """\
seed = 1
hands = {hands}
chunk_size = 50
keep = "rows"
[rules]
preset = "block"
players = 4
[grid]
strategies = [["mc:200", "random"], ["mc:200", "bench_plugin:lightest"]]
"""


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*.parquet"))}


def searches(hands: int, repeat: int) -> None:
    from distributed import Client

    from dominosim.batch.cluster import local_cluster

    cores = numba.config.NUMBA_NUM_THREADS
    sweep = parse_sweep(SEARCHES.format(hands=hands))
    with tempfile.TemporaryDirectory() as tmp, local_cluster(cores) as cluster, \
            Client(cluster) as client:
        warm = parse_sweep(SEARCHES.format(hands=2 * cores))
        run_sweep(warm, Path(tmp) / "w", client=client, quiet=True)  # the workers compile
        run_sweep(warm, Path(tmp) / "w2", quiet=True)
        dask_runs, local_runs = [], []
        for _ in range(repeat):
            before = _cpu_of_workers(client)
            wall, cpu = timed(lambda: run_sweep(sweep, Path(tmp) / "dask", client=client,
                                                quiet=True, fresh=True))
            dask_runs.append((wall, cpu + _cpu_of_workers(client) - before))
            local_runs.append(timed(lambda: run_sweep(sweep, Path(tmp) / "local", quiet=True,
                                                      fresh=True)))
        same = _files(Path(tmp) / "dask") == _files(Path(tmp) / "local")
    (wall_d, _), (wall_l, _) = min(dask_runs), min(local_runs)
    cpu_d, cpu_l = min(c for _, c in dask_runs), min(c for _, c in local_runs)
    total = hands * len(sweep.cells)
    print(f"searches, keep=rows, {len(sweep.cells)} cells x {hands:,} hands ({total:,}), line-ups "
          f"{', '.join(c.strategies_label for c in sweep.cells)}: local runner on {cores} cores "
          f"{wall_l:.2f} s ({total / wall_l:,.1f} hands/s, CPU {cpu_l:.2f} s), local cluster of "
          f"{cores} single-threaded workers {wall_d:.2f} s ({total / wall_d:,.1f} hands/s, CPU of "
          f"client and workers {cpu_d:.2f} s); best of {repeat}; the same files: {same}",
          flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small sizes")
    parser.add_argument("--only", choices=("speed", "memory", "dask", "searches"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--searches", type=int, default=400, metavar="N",
                        help="hands a cell of the searches part (default 400)")
    args = parser.parse_args(argv)
    big = 10_000_000 if args.quick else 100_000_000
    if args.only in (None, "speed"):
        speed(2_000_000 if args.quick else 20_000_000, args.repeat)
    if args.only in (None, "dask"):
        dask(4_000_000 if args.quick else 20_000_000, args.repeat)
    if args.only in (None, "memory"):
        memory(big)
    if args.only in (None, "searches"):
        searches(100 if args.quick else args.searches, args.repeat)


if __name__ == "__main__":
    main()
