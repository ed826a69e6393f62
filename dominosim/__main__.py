"""``python -m dominosim``: the same as ``python -m dominosim.batch`` (see its ``--help``).

Without arguments it runs the built-in sweep, Block against Draw: the seed games at 2, 3 and 4
players in individual play with `random` and with `bully` players, and writes its results and a
Markdown report to ``results/block_vs_draw/``.
"""

from __future__ import annotations

from .batch.__main__ import main as _batch_main


def main(argv: list[str] | None = None) -> int:
    """Run the batch command line (``python -m dominosim.batch``); returns the exit status."""
    return _batch_main(argv, prog="python -m dominosim")


if __name__ == "__main__":
    raise SystemExit(main())
