"""Which numba compilations the test suite makes, in which test and worker, and at what CPU cost.

Run the suite with this file as a pytest plug-in, then print the tables::

    python benchmarks/suite_compiles.py                    # python -m pytest -q -n auto, recorded
    python benchmarks/suite_compiles.py -- tests/test_x.py # other pytest arguments after --
    python benchmarks/suite_compiles.py --report FOLDER    # the tables of an earlier recording
    python benchmarks/suite_compiles.py --split "STATEMENT" # every compilation of one statement
    python benchmarks/suite_compiles.py --split "A" --split "B" # A, then B, in one process

Every *top-level* compilation (numba's public ``"numba:compile"`` event; a kernel's callees are
counted in their caller's CPU) is written, per pytest process, to ``FOLDER/compiles-*.json``
(``FOLDER`` defaults to a new temporary folder, printed). A kernel loaded from numba's disk cache
fires no event, so with a warm cache the tables show only what still compiles. Processes started
by tests (notebook kernels, warm's workers, sweeps run as commands) are not recorded.

Each test's wall time, its worker's CPU and the CPU of the processes it started and waited for
(``resource.getrusage``) go to ``FOLDER/tests-*.json``: the report gives each worker's span, and the
tests that waited longest without running anything, most often for a kernel the other worker was
compiling (``dominosim.fast.core.diskcache``).

``--split`` runs one Python statement in this process instead (``import dominosim as ds`` done)
and lists every compilation it made, nested ones too, with its CPU including and excluding the
compilations it started: numba optimises each compiled function with all it calls, so a deep
chain of separately compiled functions shows as a large *total* at each level. It also gives the
CPU of the code libraries' LLVM steps (function passes, module passes, machine code), split by
whether the library is for compiled callers only or for Python. Repeated, ``--split`` runs its
statements in order in one process, each finding what the ones before it compiled.
"""

from __future__ import annotations

import argparse
import collections
import importlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ENV = "DOMINOSIM_COMPILE_LOG"
_records: list[dict] = []
"""The top-level compilations (those no other compilation started)."""
_levels: list[dict] = []
"""Every compilation, nested ones too, with its depth and its own CPU (``--split``)."""
_test = {"id": "<collection>"}
_tests: list[dict] = []
"""Per test: its start (epoch seconds), wall, the worker's CPU and its reaped children's CPU."""


def _cpu() -> tuple[float, float]:
    """CPU seconds of this process and of its children that have ended and been waited for."""
    own, children = (resource.getrusage(who) for who in (resource.RUSAGE_SELF,
                                                         resource.RUSAGE_CHILDREN))
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def _listener():
    from numba.core import event

    class Compiles(event.Listener):
        def __init__(self):
            self.open: list[list[float]] = []  # per compilation under way: start, children's CPU

        def on_start(self, ev):
            self.open.append([time.process_time(), 0.0])

        def on_end(self, ev):
            start, children = self.open.pop()
            cpu = time.process_time() - start
            if self.open:
                self.open[-1][1] += cpu
            func = getattr(ev.data.get("dispatcher"), "py_func", None)
            name = f"{getattr(func, '__module__', '?')}.{getattr(func, '__qualname__', '?')}"
            _levels.append({"func": name, "depth": len(self.open), "cpu": cpu,
                            "own": cpu - children})
            if not self.open:
                _records.append({"test": _test["id"], "func": name,
                                 "sig": str(ev.data.get("args")), "cpu": cpu})

    return Compiles()


def pytest_configure(config):  # noqa: D103 - pytest's hooks
    if os.environ.get(ENV):
        from numba.core import event

        event.register("numba:compile", _listener())


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):  # noqa: D103
    _test["id"] = item.nodeid  # the compilations from here on are this test's
    start, (own, children) = time.time(), _cpu()
    yield
    end, (own_end, children_end) = time.time(), _cpu()
    _tests.append({"test": item.nodeid, "start": start, "wall": end - start,
                   "self": own_end - own, "children": children_end - children})


def pytest_sessionfinish(session):  # noqa: D103
    folder = os.environ.get(ENV)
    if folder:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        for kind, rows in (("compiles", _records), ("tests", _tests)):
            Path(folder, f"{kind}-{worker}-{os.getpid()}.json").write_text(json.dumps(rows))


def _recorded(folder: Path, kind: str) -> list[dict]:
    """The rows of every process's ``kind`` file (``compiles`` or ``tests``) in ``folder``, each
    with its ``worker``."""
    rows = []
    for path in sorted(folder.glob(f"{kind}-*.json")):
        worker = path.stem.split("-")[1]
        rows += [dict(r, worker=worker) for r in json.loads(path.read_text())]
    return rows


def report_waits(folder: Path) -> None:
    """Print each worker's span and CPU, and the tests that waited longest without running."""
    rows = _recorded(folder, "tests")
    if not rows:
        return
    first = min(r["start"] for r in rows)
    print("| worker | tests | first start s | last end s | tests' wall s | own CPU s | "
          "children's CPU s | waiting s |\n|---|---:|---:|---:|---:|---:|---:|---:|")
    for worker in sorted({r["worker"] for r in rows}):
        mine = [r for r in rows if r["worker"] == worker]
        waits = sum(max(0.0, r["wall"] - r["self"]) for r in mine if r["children"] == 0)
        print(f"| {worker} | {len(mine)} | {min(r['start'] for r in mine) - first:.1f} | "
              f"{max(r['start'] + r['wall'] for r in mine) - first:.1f} | "
              f"{sum(r['wall'] for r in mine):.0f} | {sum(r['self'] for r in mine):.0f} | "
              f"{sum(r['children'] for r in mine):.0f} | {waits:.0f} |")
    print("\n(waiting: the wall time of the tests that started no process beyond their own CPU)\n")
    idle = sorted((r for r in rows if r["children"] == 0), key=lambda r: r["self"] - r["wall"])
    print("| test | worker | start s | wall s | own CPU s |\n|---|---|---:|---:|---:|")
    for r in idle[:15]:
        print(f"| `{r['test']}` | {r['worker']} | {r['start'] - first:.1f} | {r['wall']:.1f} | "
              f"{r['self']:.1f} |")
    print()


def report(folder: Path) -> None:
    """Print the tables of a recording in ``folder``."""
    report_waits(folder)
    rows = _recorded(folder, "compiles")
    if not rows:
        print(f"No compilation was recorded in {folder}.")
        return
    total = sum(r["cpu"] for r in rows)
    print(f"{len(rows)} top-level compilations, {total:.0f} s of CPU, in {folder}\n")
    by_func = collections.defaultdict(lambda: [0, 0.0, set()])
    for r in rows:
        entry = by_func[r["func"]]
        entry[0] += 1
        entry[1] += r["cpu"]
        entry[2].add(r["sig"])
    print("| function | compilations | signatures | CPU s |\n|---|---:|---:|---:|")
    for func, (n, cpu, sigs) in sorted(by_func.items(), key=lambda kv: -kv[1][1])[:25]:
        print(f"| `{func}` | {n} | {len(sigs)} | {cpu:.1f} |")
    twice = collections.defaultdict(list)
    for r in rows:
        twice[(r["func"], r["sig"])].append(r)
    dup = [(k, v) for k, v in twice.items() if len(v) > 1]
    wasted = sum(sum(r["cpu"] for r in v) - max(r["cpu"] for r in v) for _, v in dup)
    print(f"\n{len(dup)} signatures compiled in more than one worker: {wasted:.0f} s of CPU "
          "beyond one compilation each.")
    by_test = collections.Counter()
    for r in rows:
        by_test[r["test"]] += r["cpu"]
    print("\n| test | compile CPU s |\n|---|---:|")
    for test, cpu in by_test.most_common(25):
        print(f"| `{test}` | {cpu:.1f} |")


LLVM_STEPS = {"_optimize_functions": "function passes", "_optimize_final_module": "module passes",
              "_finalize_specific": "machine code"}
"""The code libraries' LLVM steps that ``--split`` times: numba's per-function optimisation of a
library's own functions, the optimisation of the library with its callees linked in, and emitting
its machine code."""


def _time_llvm_steps(totals: collections.Counter) -> None:
    """Add the CPU seconds of every library's LLVM steps to ``totals``, by step and by whether the
    library is for compiled callers only (:mod:`dominosim.fast.core.libraries`)."""
    from dominosim.fast.core.libraries import Library

    def timer(original, label):
        def timed(self, *args, **kwargs):
            start = time.process_time()
            try:
                return original(self, *args, **kwargs)
            finally:
                kind = "for callers" if self.callers_only else "for Python"
                totals[(label, kind)] += time.process_time() - start

        return timed

    for method, label in LLVM_STEPS.items():
        setattr(Library, method, timer(getattr(Library, method), label))


def split(statements: list[str]) -> None:
    """Run ``statements`` in order in this process, each with every compilation and the code
    libraries' LLVM steps recorded; print each one's compilations by own CPU, then its LLVM steps
    (a later statement finds what an earlier one compiled)."""
    from numba.core import event

    ds = importlib.import_module("dominosim")
    steps: collections.Counter = collections.Counter()
    _time_llvm_steps(steps)
    event.register("numba:compile", _listener())
    for statement in statements:
        _levels.clear()
        steps.clear()
        start = time.process_time()
        exec(statement, {"ds": ds})  # noqa: S102 - the user's own
        cpu = time.process_time() - start
        top = sum(r["cpu"] for r in _levels if r["depth"] == 0)
        print(f"{statement}\n\n{cpu:.1f} s of CPU; {len(_levels)} compilations, {top:.1f} s of "
              "CPU at the top level\n")
        print("| own CPU s | with its callees | depth | function |\n|---:|---:|---:|---|")
        for r in sorted(_levels, key=lambda r: -r["own"])[:40]:
            print(f"| {r['own']:.2f} | {r['cpu']:.2f} | {r['depth']} | `{r['func']}` |")
        print("\n| LLVM step | libraries | CPU s |\n|---|---|---:|")
        for (label, kind), t in sorted(steps.items()):
            print(f"| {label} | {kind} | {t:.1f} |")
        print()


def main() -> None:
    """Run the suite recorded, report an earlier recording, or split one statement's."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--report", type=Path, help="only print the tables of this folder")
    parser.add_argument("--split", metavar="STATEMENT", action="append",
                        help="run this Python statement (ds is dominosim) and list every "
                             "compilation it made and its LLVM steps; repeat it for several "
                             "statements, run in order in one process")
    parser.add_argument("pytest_args", nargs="*", help="pytest's arguments (after --)")
    args = parser.parse_args()
    if args.report:
        report(args.report)
        return
    if args.split:
        split(args.split)
        return
    folder = Path(tempfile.mkdtemp(prefix="dominosim-compiles-"))
    root = Path(__file__).resolve().parent
    env = dict(os.environ, **{ENV: str(folder)})
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(root), env.get("PYTHONPATH")) if p)
    pytest_args = args.pytest_args or ["-q", "-n", "auto"]
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "suite_compiles", *pytest_args],
                          env=env, check=False)
    print(f"\npytest exited {done.returncode} after {time.perf_counter() - start:.0f} s\n")
    report(folder)


if __name__ == "__main__":
    main()
