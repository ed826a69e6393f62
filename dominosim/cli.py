"""The ``dominosim`` console command (also ``python -m dominosim``): one entry, a subcommand each.

``dominosim batch ...`` is ``python -m dominosim.batch ...`` (sweeps) and ``dominosim report ...``
is ``python -m dominosim.report ...`` (the reports); each takes its own ``--help``. Without a
subcommand the command runs the built-in sweep, Block against Draw, after one line saying how many
hands it plays, where it writes and roughly how long it takes; a sweep file or an option of
``batch`` in first place is handed to ``batch`` as well (``dominosim examples/strategies.toml``).

Examples
--------
>>> main(["--version"])  # doctest: +ELLIPSIS
dominosim ...
0
"""

from __future__ import annotations

import sys
from collections.abc import Callable

PROG = "dominosim"
HANDS_PER_SECOND_PER_CORE = 500_000
"""A round figure for the default sweep's random and bully players on the compiled engine (the
README's 15 s for its 15 million hands on 2 cores, warm cache); only used to say roughly how long."""
COMPILE_SECONDS = 60
"""The engine's first compilation on a machine for the default sweep's six kernels (about a minute
measured on 2 cores)."""


def _batch(argv: list[str], prog: str) -> int:
    from .batch.__main__ import main as batch_main

    return batch_main(argv, prog=prog)


def _report(argv: list[str], prog: str) -> int:
    from .report.build import cli as report_cli

    return report_cli(argv, prog=prog)


def _play(argv: list[str], prog: str) -> int:
    from .play import main as play_main

    return play_main(argv, prog=prog)


def _cache(argv: list[str], prog: str) -> int:
    import argparse

    from .fast.core import jit

    parser = argparse.ArgumentParser(prog=prog, description=(
        "Say whether the compiled engine's on-disk cache was built from the installed sources; "
        "--clear deletes the cached kernels so that the next run compiles them again."))
    parser.add_argument("--clear", action="store_true", help="delete the cached kernels")
    args = parser.parse_args(argv)
    if args.clear:
        print(f"{prog}: deleted {jit.clear_cache()} cached files of the compiled engine.")
        return 0
    stale = jit.stale_folders()
    print(f"{prog}: " + (f"stale (built from other sources) in {len(stale)} folders; run "
                         f"`{prog} --clear`." if stale else "up to date."))
    return 0


COMMANDS: dict[str, tuple[str, Callable[[list[str], str], int]]] = {
    "batch": ("play a sweep file (default: the built-in sweep) into Parquet results, a summary "
              "and a report", _batch),
    "report": ("regenerate the Markdown reports and figures of reports/", _report),
    "play": ("play a hand at the terminal against any strategies, then see the review of your "
             "decisions", _play),
    "cache": ("say whether the compiled engine's cache is stale; --clear deletes it", _cache),
}
"""The subcommands: name -> (one-line help, runner taking the remaining arguments and a prog).
A new one (say ``play``, a hand at the terminal) is one more entry; ``--help`` lists it."""


def _help() -> str:
    width = max(len(name) for name in COMMANDS)
    lines = [f"usage: {PROG} [COMMAND] [ARGS ...]", "",
             "Seeded, exact-rule domino simulations (docs/ holds the rule book and the design).",
             "", "commands:"]
    lines += [f"  {name:<{width}}  {text}" for name, (text, _) in COMMANDS.items()]
    lines += ["", f"Run `{PROG} COMMAND --help` for a command's options. Without a command,",
              f"`{PROG}` runs the built-in sweep, Block against Draw (as `{PROG} batch` does),",
              "after saying how many hands it plays, where it writes and about how long it takes;",
              f"a sweep file or a `batch` option in first place goes to `{PROG} batch`.", "",
              "options:", "  -h, --help  show this help and exit",
              "  --version   print the version and exit"]
    return "\n".join(lines)


def announce(cores: int | None = None) -> str:
    """The line printed before the built-in sweep runs: its hands, its folder, about how long.

    >>> print(announce(cores=2))  # doctest: +NORMALIZE_WHITESPACE
    dominosim: running the built-in sweep 'block_vs_draw' (Block against Draw): 30 cells x 500,000
    hands = 15,000,000 hands into results/block_vs_draw/ on 2 cores, about 15 s, plus about 60 s
    the first time on a machine to compile the engine; Ctrl-C stops it and the same command
    resumes (`dominosim --help` for the commands).
    """
    from .batch.sweep import default_sweep

    if cores is None:
        import numba

        cores = numba.config.NUMBA_NUM_THREADS
    sweep = default_sweep()
    seconds = sweep.total_hands / (HANDS_PER_SECOND_PER_CORE * cores)
    return (f"{PROG}: running the built-in sweep {sweep.name!r} (Block against Draw): "
            f"{len(sweep.cells)} cells x {sweep.hands:,} hands = {sweep.total_hands:,} hands "
            f"into {sweep.out}/ on {cores} cores, about {_duration(seconds)}, plus about "
            f"{_duration(COMPILE_SECONDS)} the first time on a machine to compile the engine; "
            f"Ctrl-C stops it and the same command resumes (`{PROG} --help` for the commands).")


def _duration(seconds: float) -> str:
    """A rough duration: ``'25 s'``, ``'2 min'``, ``'1 h 5 min'``."""
    if seconds < 90:
        return f"{max(5, round(seconds / 5) * 5)} s"
    minutes = round(seconds / 60)
    return f"{minutes} min" if minutes < 60 else f"{minutes // 60} h {minutes % 60} min"


def main(argv: list[str] | None = None) -> int:
    """Run the ``dominosim`` command line; returns the exit status.

    Parameters
    ----------
    argv : list of str, optional
        The arguments after the command's name (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        0 when done, 2 for bad input, 130 when interrupted (as ``dominosim batch``).
    """
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv:
        print(announce(), file=sys.stderr, flush=True)
        return _batch([], PROG)
    first, rest = argv[0], argv[1:]
    if first in ("-h", "--help"):
        print(_help())
        return 0
    if first == "--version":
        from . import __version__

        print(f"{PROG} {__version__}")
        return 0
    if first in COMMANDS:
        return COMMANDS[first][1](rest, f"{PROG} {first}")
    if first.startswith("-") or first.endswith(".toml"):
        return _batch(argv, PROG)
    allowed = ", ".join(repr(name) for name in COMMANDS)
    print(f"{PROG}: error: The value for the command must be one of {allowed}, or a sweep file "
          f"(.toml), but {first!r} was passed.", file=sys.stderr)
    return 2
