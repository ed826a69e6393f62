"""Instructions per hand of two or more checkouts, counted by Valgrind, for the compiled kernels alone.

Run ``python benchmarks/count_versions.py OLD NEW [MORE ...] --case 1`` where each argument is the
root of a checkout, as for ``bench_versions.py`` (the case numbers are its ``CASES``). Timings on
this shared 2-core machine spread by 10 to 20% between rounds; these counts do not. For each
checkout, Valgrind's ``callgrind`` runs the case's child twice, once with no hands counted and once
with ``--hands``, and the difference divided by the hands is what one hand costs.

Two figures come out of each run:

- the **compiled kernels'** instructions, which repeat exactly between runs (the same machine code
  on the same seeded hands). At the end of each run the child writes the start address of every
  compiled function numba loaded for it (each overload's ``library``: every function its linked
  module defines, located with ``library.get_pointer_to_function``), and callgrind's cost of each
  of those functions (code with no symbol is a function named by the address it is entered at) is
  read from its output. A second table gives the count of each kernel (``driver.sums_of`` is the
  hand loop with every ``inline="always"`` helper inside it; the kernels LLVM did not inline into
  it, ``turn.score`` for instance, are their own lines);
- the **whole process's** instructions, which do not repeat to the instruction: the Python side of
  a run differs between runs (the same code counted 6,617, 6,686 and 7,004 instructions a hand in
  three runs of Draw 2p), so only changes well above 5% show in them.

With ``--branches`` it simulates a branch predictor too and gives the kernels' conditional and
indirect branches per hand and how many of them Valgrind's simple predictor mispredicts (not the
CPU's own predictor). With ``--data`` callgrind simulates the caches too (about twice as long) and the kernels' data
reads and writes per hand are given as well (a spilled register is one of each). It counts work,
not time: a stall on a spilled register or a mispredicted branch costs more than its one
instruction, so a slowdown in time with level counts lies there.

Valgrind shows the code a CPU of its own, so the kernels are compiled for a named CPU, numba's
``generic`` unless ``--cpu`` says otherwise (``NUMBA_CPU_NAME``, with the features of that CPU less
AVX-512, which Valgrind does not know, in ``NUMBA_CPU_FEATURES``: numba would take the host's
otherwise, and the code would differ inside Valgrind), in a cache of the script's own per checkout
and CPU, emptied first: a first run outside Valgrind compiles them, and both runs under Valgrind
load them (compiling under Valgrind takes several minutes). The same CPU for every checkout.
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
from numba.core.dispatcher import Dispatcher
preset, players, strategy, n, keep = json.loads(sys.argv[1])
rules = ds.Rules.preset(preset, players=players)
ds.simulate(rules, strategy, 1000, seed=7, n_jobs=1, keep=keep)  # compiles or loads the kernel
if n:
    ds.simulate(rules, strategy, n, seed=1, n_jobs=1, keep=keep)
starts = {}
for name, module in list(sys.modules.items()):
    if name.split(".")[0] == "dominosim":
        for obj in list(vars(module).values()):
            if isinstance(obj, Dispatcher):
                for result in obj.overloads.values():
                    library = result.library
                    for fn in (library._shared_module or library._final_module).functions:
                        address = 0 if fn.is_declaration else \\
                            library.get_pointer_to_function(fn.name)
                        if address:
                            starts.setdefault(address, fn.name)
with open(sys.argv[2], "w") as f:
    json.dump(starts, f)
"""


def environment(root: str, cpu: str) -> dict[str, str]:
    """The child's environment: the checkout, one thread, kernels for ``cpu`` in a cache of their
    own."""
    features = "" if cpu == "generic" else "-avx512f"  # the CPU's own, not the host's
    return dict(os.environ, PYTHONPATH=root, NUMBA_NUM_THREADS="1", NUMBA_CPU_NAME=cpu,
                NUMBA_CPU_FEATURES=features, NUMBA_CACHE_DIR=str(cache(root, cpu)),
                PYTHONHASHSEED="0")


def cache(root: str, cpu: str) -> Path:
    """The numba cache of this script for the checkout at ``root`` and code for ``cpu``."""
    digest = hashlib.sha256(f"{Path(root).resolve()} {cpu}".encode()).hexdigest()[:12]
    return Path(tempfile.gettempdir()) / f"count_versions_{digest}"


def child(case: tuple, hands: int, starts: str) -> list[str]:
    """The child's command line: ``case`` played for ``hands`` after its warm-up, the compiled
    functions' addresses written to the file ``starts``."""
    _, preset, players, strategy, _, keep = case
    return [os.path.realpath(sys.executable), "-c", CHILD,
            json.dumps([preset, players, strategy, hands, keep]), starts]


def short(symbol: str) -> str:
    """``module.function`` of a numba symbol (``_ZN9dominosim4fast4core4turn5scoreB4v119...`` is
    ``turn.score``), marked ``(cpython)`` or ``(cfunc)`` for numba's wrappers."""
    wrapper = " (cfunc)" if symbol.startswith("cfunc.") else ""
    symbol = symbol.removeprefix("cfunc.")
    if not symbol.startswith("_ZN"):
        return symbol + wrapper
    parts, i = [], 3
    while (m := re.match(r"\d+", symbol[i:])) is not None:
        size = int(m.group())
        i += len(m.group())
        parts.append(symbol[i:i + size])
        i += size
    if parts and parts[0] == "cpython":
        wrapper = " (cpython)"
    return ".".join(parts[-2:]) + wrapper


def read_callgrind(path: str) -> tuple[dict[str, int], dict[str, dict[str, int]]]:
    """Callgrind's totals and the self cost of each function (its name as callgrind wrote it, a
    hexadecimal address for code with no symbol), each as ``{event: count}``."""
    events: list[str] = []
    totals: dict[str, int] = {}
    cost: dict[str, list[int]] = {}
    fn, skip = "", False
    with open(path) as f:
        for line in f:
            if skip:  # the line after ``calls=`` is the call's inclusive cost
                skip = False
            elif line[:1].isdigit() or line[:1] in "+-*":
                acc = cost.setdefault(fn, [0] * len(events))
                for k, x in enumerate(line.split()[1:]):
                    acc[k] += int(x)
            elif line.startswith("fn="):
                fn = line[3:].strip().split("'")[0]  # ``'2``: a recursion level of the same code
            elif line.startswith("calls="):
                skip = True
            elif line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith("summary:"):
                totals = dict(zip(events, map(int, line.split()[1:]), strict=True))
    return totals, {name: dict(zip(events, c, strict=True)) for name, c in cost.items()}


def counts(root: str, case: tuple, hands: int, data: bool, cpu: str,
           branches: bool = False) -> tuple[dict, dict]:
    """Callgrind's totals for the child of ``case`` playing ``hands`` after its warm-up, and the
    counts of each compiled kernel (by :func:`short` name, the overloads of a name summed)."""
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["valgrind", "--tool=callgrind", f"--cache-sim={'yes' if data else 'no'}",
                        f"--branch-sim={'yes' if branches else 'no'}",
                        "--compress-strings=no", "--compress-pos=no",
                        f"--callgrind-out-file={tmp}/cg.out", *child(case, hands, f"{tmp}/s.json")],
                       env=environment(root, cpu), cwd=root, capture_output=True, text=True, check=True)
        totals, cost = read_callgrind(f"{tmp}/cg.out")
        with open(f"{tmp}/s.json") as f:
            starts = {int(a): name for a, name in json.load(f).items()}
    kernels: dict[str, dict[str, int]] = {}
    for fn, c in cost.items():
        if fn.startswith("0x") and int(fn, 16) in starts:
            acc = kernels.setdefault(short(starts[int(fn, 16)]), dict.fromkeys(c, 0))
            for k, x in c.items():
                acc[k] += x
    return totals, kernels


def main(argv: list[str] | None = None) -> None:
    """Print, for each checkout, the counts per hand of one case, and their ratio to the first."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("roots", nargs="+", help="roots of the checkouts, the baseline first")
    parser.add_argument("--case", type=int, default=1, help="a case of bench_versions.py (1)")
    parser.add_argument("--hands", type=int, default=100_000, help="hands counted (100,000)")
    parser.add_argument("--data", action="store_true",
                        help="count the kernels' data reads and writes too (twice as long)")
    parser.add_argument("--branches", action="store_true",
                        help="count the kernels' branches and those Valgrind's simple predictor "
                             "mispredicts (conditional and indirect)")
    parser.add_argument("--cpu", default="generic",
                        help="the CPU the kernels are compiled for (numba's generic; one whose "
                             "instructions Valgrind knows, e.g. haswell or znver3)")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        sys.exit("count_versions.py needs valgrind on the PATH (apt install valgrind).")
    case = CASES[args.case]
    events = ("Ir",) + (("Dr", "Dw") if args.data else ()) + \
        (("Bc", "Bcm", "Bi", "Bim") if args.branches else ())
    per_kernel: list[dict[str, dict[str, float]]] = []
    print(f"{case[0]}, {args.hands:,} hands, code for the `{args.cpu}` CPU, per hand:\n")
    print("| checkout | compiled kernels: instructions" + (" | reads | writes" if args.data else "")
          + (" | branches | mispredicted | indirect | mispredicted" if args.branches else "")
          + " | ratio to the first | whole process: instructions (not exact) | ratio |")
    print("|---|" + "---:|" * (len(events) + 3))
    first: tuple[float, float] | None = None
    for root in args.roots:
        shutil.rmtree(cache(root, args.cpu), ignore_errors=True)  # built from other sources?
        subprocess.run(child(case, 0, os.devnull), env=environment(root, args.cpu), cwd=root,
                       check=True)  # compiles, outside Valgrind
        base_totals, base = counts(root, case, 0, args.data, args.cpu, args.branches)
        full_totals, full = counts(root, case, args.hands, args.data, args.cpu, args.branches)
        kernels = {name: {e: (c[e] - base.get(name, {}).get(e, 0)) / args.hands for e in events}
                   for name, c in full.items()}
        per_kernel.append(kernels)
        compiled = [sum(k[e] for k in kernels.values()) for e in events]
        whole = (full_totals["Ir"] - base_totals["Ir"]) / args.hands
        first = first or (compiled[0], whole)
        print(f"| `{root}` | " + " | ".join(f"{x:,.1f}" for x in compiled)
              + f" | {compiled[0] / first[0]:.4f} | {whole:,.1f} | {whole / first[1]:.3f} |",
              flush=True)
    names = sorted({n for k in per_kernel for n in k},
                   key=lambda n: -max(k.get(n, {}).get("Ir", 0) for k in per_kernel))
    print("\n| kernel (instructions a hand) | " + " | ".join(f"`{r}`" for r in args.roots) + " |")
    print("|---|" + "---:|" * len(args.roots))
    for name in names:
        cells = [k[name]["Ir"] if name in k else 0.0 for k in per_kernel]
        if any(c >= 0.05 for c in cells):
            print(f"| `{name}` | " + " | ".join(f"{c:,.2f}" for c in cells) + " |")
    print(json.dumps({"case": case[0], "hands": args.hands, "cpu": args.cpu}))


if __name__ == "__main__":
    main()
