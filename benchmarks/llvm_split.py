"""Where the compilations of Python statements go: numba's top-level compilations and LLVM's steps.

Run ``python benchmarks/llvm_split.py "STATEMENT" ["STATEMENT" ...]`` (``import dominosim as ds``
done; the statements run in order in one process, so a later one finds what an earlier one
compiled). Set ``NUMBA_CACHE_DIR=$(mktemp -d)`` to start from an empty cache. For each statement
it prints its CPU seconds, the top-level compilations it made (a kernel's callees count in their
caller) and the CPU seconds of the code libraries' LLVM steps, split by whether the library is
for compiled callers only (:mod:`dominosim.fast.core.libraries`):

- ``function passes``: numba's per-function optimisation of a library's own functions;
- ``module passes``: the optimisation of a library with its callees linked in;
- ``machine code``: emitting it (part of finalising the library).

Example (``benchmarks/README.md``, "Where a second entry point's compilation goes")::

    NUMBA_CACHE_DIR=$(mktemp -d) python benchmarks/llvm_split.py \\
        "ds.simulate(ds.Rules.preset('draw', players=2), ['pimc:3', 'bully'], 2, seed=1, n_jobs=1)" \\
        "ds.simulate(ds.Rules.preset('draw', players=2), ['pimc:3', 'bully'], 2, seed=1, engine='reference')"
"""

from __future__ import annotations

import argparse
import collections
import time

STEPS = {"_optimize_functions": "function passes", "_optimize_final_module": "module passes",
         "_finalize_specific": "machine code"}


def _time_steps(totals: collections.Counter) -> None:
    from dominosim.fast.core.libraries import Library

    for method, label in STEPS.items():
        original = getattr(Library, method)

        def timed(self, *args, _original=original, _label=label, **kwargs):
            start = time.process_time()
            try:
                return _original(self, *args, **kwargs)
            finally:
                kind = "for callers" if self.callers_only else "for Python"
                totals[(_label, kind)] += time.process_time() - start

        setattr(Library, method, timed)


def _listen(tops: list) -> None:
    from numba.core import event

    class Tops(event.Listener):
        def __init__(self) -> None:
            self.open: list[float] = []

        def on_start(self, ev) -> None:
            self.open.append(time.process_time())

        def on_end(self, ev) -> None:
            cpu = time.process_time() - self.open.pop()
            if not self.open:
                tops.append((ev.data["dispatcher"].py_func.__qualname__, cpu))

    event.register("numba:compile", Tops())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("statements", nargs="+", help="Python statements, run in order")
    args = parser.parse_args(argv)
    import dominosim as ds

    totals: collections.Counter = collections.Counter()
    tops: list[tuple[str, float]] = []
    _time_steps(totals)
    _listen(tops)
    for statement in args.statements:
        totals.clear()
        tops.clear()
        start = time.process_time()
        exec(statement, {"ds": ds})
        cpu = time.process_time() - start
        print(f"{statement}\n  {cpu:.1f} s of CPU")
        print("  top-level compilations: "
              + (", ".join(f"{name} {t:.1f} s" for name, t in tops) or "none"))
        for (label, kind), t in sorted(totals.items()):
            print(f"  {label}, libraries {kind}: {t:.1f} s")


if __name__ == "__main__":
    main()
