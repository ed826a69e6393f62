"""Instructions and data references per hand of two or more checkouts, counted by Valgrind.

Run ``python benchmarks/count_versions.py OLD NEW [MORE ...] --case 1`` where each argument is the
root of a checkout, as for ``bench_versions.py`` (the case numbers are its ``CASES``). Timings on
this shared 2-core machine spread by 10 to 20% between rounds; these counts spread less, but
not nil: the same code counted 6,617, 6,686 and 7,004 instructions a hand in three runs of Draw
2p (the Python side of a run does not repeat to the instruction), so only changes well above 5%
show in one run. For each checkout, Valgrind's ``cachegrind`` runs the case's child twice,
once with no hands timed and once with ``--hands``, and the difference divided by the hands is
what one hand costs: instructions, data reads and writes (``--cache-sim=yes``: first-level data
misses too). It counts work, not time: a stall on a spilled register or a mispredicted branch
costs more than its one instruction, so a slowdown in time with level counts lies there.

Valgrind shows the code a CPU of its own, so the kernels are compiled for numba's ``generic``
CPU (``NUMBA_CPU_NAME=generic``, in a cache of the script's own per checkout): a first run
outside Valgrind compiles them (after ``dominosim cache --clear`` there: a cache built from other
sources is refused, not reused), and both runs under Valgrind load them (compiling under Valgrind
takes several minutes). The counts are of that generic code, the same for every checkout.
Needs ``valgrind`` on the PATH.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_versions import CASES

CHILD = """
import json, sys
import dominosim as ds
preset, players, strategy, n, keep = json.loads(sys.argv[1])
rules = ds.Rules.preset(preset, players=players)
ds.simulate(rules, strategy, 1000, seed=7, n_jobs=1, keep=keep)  # compiles or loads the kernel
if n:
    ds.simulate(rules, strategy, n, seed=1, n_jobs=1, keep=keep)
"""

FIELDS = {"I": r"I\s+refs:\s+([\d,]+)", "D": r"D\s+refs:\s+[\d,]+\s+\(\s*([\d,]+) rd\s+\+\s+([\d,]+) wr",
          "D1": r"D1\s+misses:\s+([\d,]+)"}


def environment(root: str) -> dict[str, str]:
    """The child's environment: the checkout, one thread, generic kernels in a cache of its own."""
    digest = hashlib.sha256(str(Path(root).resolve()).encode()).hexdigest()[:12]
    cache = Path(tempfile.gettempdir()) / f"count_versions_{digest}"
    return dict(os.environ, PYTHONPATH=root, NUMBA_NUM_THREADS="1", NUMBA_CACHE_DIR=str(cache),
                NUMBA_CPU_NAME="generic", PYTHONHASHSEED="0")


def child(case: tuple, hands: int) -> list[str]:
    """The child's command line: ``case`` played for ``hands`` after its warm-up."""
    _, preset, players, strategy, _, keep = case
    return [os.path.realpath(sys.executable), "-c", CHILD,
            json.dumps([preset, players, strategy, hands, keep])]


def counts(root: str, case: tuple, hands: int) -> dict[str, int]:
    """Valgrind's totals for the child of ``case`` playing ``hands`` after its warm-up."""
    env = environment(root)
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=yes",
                              f"--cachegrind-out-file={tmp}/cg.out", *child(case, hands)],
                             env=env, cwd=root, capture_output=True, text=True, check=True)
    text = out.stderr
    i = int(re.search(FIELDS["I"], text).group(1).replace(",", ""))
    rd, wr = (int(g.replace(",", "")) for g in re.search(FIELDS["D"], text).groups())
    d1 = int(re.search(FIELDS["D1"], text).group(1).replace(",", ""))
    return {"instructions": i, "reads": rd, "writes": wr, "D1 misses": d1}


def main(argv: list[str] | None = None) -> None:
    """Print, for each checkout, the counts per hand of one case, and their ratio to the first."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("roots", nargs="+", help="roots of the checkouts, the baseline first")
    parser.add_argument("--case", type=int, default=1, help="a case of bench_versions.py (1)")
    parser.add_argument("--hands", type=int, default=200_000, help="hands counted (200,000)")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        sys.exit("count_versions.py needs valgrind on the PATH (apt install valgrind).")
    case = CASES[args.case]
    print(f"{case[0]}, {args.hands:,} hands, per hand:\n")
    print("| checkout | instructions | data reads | data writes | D1 misses | ratio to the first |")
    print("|---|---:|---:|---:|---:|---|")
    first = None
    for root in args.roots:
        # a cache built from other sources is refused, not reused: clear it, then fill it
        subprocess.run([sys.executable, "-m", "dominosim", "cache", "--clear"],
                       env=environment(root), cwd=root, check=True, capture_output=True)
        subprocess.run(child(case, 0), env=environment(root), cwd=root,
                       check=True)  # compiles, outside Valgrind
        base = counts(root, case, 0)
        full = counts(root, case, args.hands)
        per = {k: (full[k] - base[k]) / args.hands for k in full}
        first = first or per
        ratio = ", ".join(f"{per[k] / first[k]:.3f}" if first[k] else "-"
                          for k in ("instructions", "reads", "writes"))
        print(f"| `{root}` | {per['instructions']:,.1f} | {per['reads']:,.1f} | "
              f"{per['writes']:,.1f} | {per['D1 misses']:,.2f} | {ratio} |", flush=True)
    print(json.dumps({"case": case[0], "hands": args.hands}))


if __name__ == "__main__":
    main()
