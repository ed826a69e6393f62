"""``python -m dominosim``: the ``dominosim`` console command (:mod:`dominosim.cli`).

Without arguments it runs the built-in sweep, Block against Draw: the seed games at 2, 3 and 4
players in individual play with `random` and with `bully` players, into ``results/block_vs_draw/``
(results and a Markdown report), after one line saying how many hands, where and about how long.
``python -m dominosim --help`` lists the subcommands (``batch``, ``report``).
"""

from __future__ import annotations

from .cli import main

if __name__ == "__main__":
    raise SystemExit(main())
