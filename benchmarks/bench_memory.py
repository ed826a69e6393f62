"""Peak memory of large runs: rows for 10 million hands, and the summary mode from 1 to 100 million.

Run ``python benchmarks/bench_memory.py`` (``--quick`` for 1M rows and up to 10M summarised).
Each run is a new process; its peak resident set size is read from ``resource.getrusage``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys

SNIPPET = """
import resource, time, dominosim as ds
rules = ds.Rules.preset("block", players=4)
ds.simulate(rules, "random", 1000, seed=1)  # load the compiled kernels
t0 = time.perf_counter()
res = ds.simulate(rules, "random", {n}, seed=1, keep="{keep}", progress=False)
seconds = time.perf_counter() - t0
size = res.memory_usage(deep=True).sum() if "{keep}" == "rows" else res.sums.nbytes
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{{seconds:.1f}} {{size / 2**20:.1f}} {{peak:.0f}}")
"""


def run(n: int, keep: str) -> tuple[float, float, float]:
    out = subprocess.run([sys.executable, "-c", SNIPPET.format(n=n, keep=keep)],
                         capture_output=True, text=True, check=True)
    seconds, size, peak = map(float, out.stdout.split())
    return seconds, size, peak


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    rows_n = 1_000_000 if args.quick else 10_000_000
    sizes = [1_000_000, 10_000_000] if args.quick else [1_000_000, 10_000_000, 100_000_000]
    seconds, size, peak = run(rows_n, "rows")
    print(f"rows, Block 4p, {rows_n:,} hands: DataFrame {size:,.0f} MiB, peak RSS {peak:,.0f} MiB, "
          f"{seconds:.1f} s")
    for n in sizes:
        seconds, _, peak = run(n, "summary")
        print(f"summary, Block 4p, {n:,} hands: peak RSS {peak:,.0f} MiB, {seconds:.1f} s "
              f"({n / seconds:,.0f} hands/s)")


if __name__ == "__main__":
    main()
