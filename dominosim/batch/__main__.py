"""``python -m dominosim.batch [SWEEP.toml]``: run a sweep file, or the built-in default sweep.

Without a file it runs Block against Draw: the seed games (block, draw, cross, double_nine_cross,
ivory) at 2, 3 and 4 players in individual play, every seat playing `random`, then every seat
playing `bully`, 500,000 hands per cell, into results/block_vs_draw/ (see --print-default).

Results go to the output folder: sums/ (and hands/ with keep = "rows"), Parquet partitioned by
cell; summary.parquet and summary.csv (one row per cell, estimates with 95% intervals);
report.md; metadata.json (the sweep, each cell's rules, versions, timings); manifest.jsonl.
Running the same sweep again skips the chunks already finished, so an interrupted sweep resumes
where it stopped; a different sweep is refused in a folder that holds one, unless --fresh.

Exit status: 0 done; 2 bad input (a sweep file, option or output folder refused: nothing written;
or a cell the engine cannot play, met during the run: finished chunks are kept);
74 an environment failure (the output folder cannot be written or read back: a full or read-only
disk, missing permissions, a damaged metadata.json; finished chunks are kept, nothing
half-written); 130 interrupted (finished chunks are kept).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

from ..reference.game import IllegalMoveError
from .api import check_run, dry_run, run_sweep
from .markdown import block_vs_draw, cells_table
from .store import describe_os_error
from .sweep import DEFAULT_SWEEP, default_sweep, load_sweep

PROG = "python -m dominosim.batch"
EXIT_BAD_INPUT = 2
EXIT_ENVIRONMENT = 74
"""``EX_IOERR`` of the BSD ``sysexits.h`` convention: an input/output failure."""
EXIT_INTERRUPTED = 130


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        """Refuse bad arguments in one line, exit status 2."""
        self.exit(2, f"{self.prog}: error: {message}\n")


def _parser(prog: str) -> argparse.ArgumentParser:
    p = _Parser(prog=prog, description=__doc__.replace("``", ""),
                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("sweep", nargs="?", type=Path, metavar="SWEEP.toml",
                   help="the sweep file (schema: README, 'Batch sweeps'); default: the built-in "
                        "Block-against-Draw sweep")
    p.add_argument("--out", type=Path, metavar="DIR",
                   help="output folder (default: the file's `out`, else results/<name>)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--jobs", type=int, metavar="N",
                       help="local cores to use (default: all); chunks play one after another, "
                            "each on N cores")
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help="play the chunks on a running dask.distributed scheduler's workers "
                            "(e.g. tcp://10.0.0.5:8786), one core per chunk; needs the `dask` "
                            "extra on every machine and writes the same results as a local run")
    where.add_argument("--local-cluster", type=int, metavar="N",
                       help="start a dask.distributed cluster of N worker processes on this "
                            "machine and play the chunks on it")
    p.add_argument("--hands", type=int, metavar="N",
                   help="hands per cell, in place of the file's `hands`")
    p.add_argument("--fresh", action="store_true",
                   help="remove the results of an earlier sweep in the output folder and start "
                        "over (needed to run a changed sweep into it)")
    p.add_argument("--dry-run", action="store_true",
                   help="print the cells, chunks, hand counts and an estimated time (from a short "
                        "sample played now), and write nothing")
    p.add_argument("--quiet", action="store_true",
                   help="no progress bar, log lines or table; errors only")
    p.add_argument("--print-default", action="store_true",
                   help="print the built-in sweep as a TOML file to start from, and exit")
    return p


def _client(args: argparse.Namespace):
    """A Dask client for --scheduler or --local-cluster (None for a local run)."""
    if args.scheduler is None and args.local_cluster is None:
        return None
    try:
        from distributed import Client

        from .cluster import local_cluster
    except ImportError:
        raise ValueError("The options `--scheduler` and `--local-cluster` need dask.distributed: "
                         "pip install 'dominosim[dask]'.") from None
    if args.scheduler is not None:
        try:
            return Client(args.scheduler, timeout="15s")
        except (OSError, TimeoutError, ValueError) as e:
            raise ValueError(f"The value for `--scheduler` must be the address of a running "
                             f"dask.distributed scheduler, but {args.scheduler!r} was passed "
                             f"({type(e).__name__}: {e}).") from None
    if args.local_cluster < 1:
        raise ValueError(f"The value for `--local-cluster` must be an integer of 1 or more, but "
                         f"{args.local_cluster!r} was passed.")
    return Client(local_cluster(args.local_cluster))


def _print_tables(table: pd.DataFrame) -> None:
    with pd.option_context("display.width", 250, "display.max_columns", 30,
                           "display.max_colwidth", 40):
        compared = block_vs_draw(table)
        print(cells_table(table).to_string(index=False))
        if compared is not None:
            print("\nBlock against Draw (opener's side wins)\n" + compared.to_string(index=False))


def _environment_failure(prog: str, error: OSError) -> int:
    print(f"{prog}: error: {describe_os_error(error)}", file=sys.stderr)
    return EXIT_ENVIRONMENT


def main(argv: list[str] | None = None, prog: str = PROG) -> int:
    """Run the command line; returns the exit status (see the module documentation)."""
    parser = _parser(prog)
    args = parser.parse_args(argv)
    if args.print_default:
        print(DEFAULT_SWEEP, end="")
        return 0
    try:
        return _main(parser, args, prog)
    except OSError as e:
        return _environment_failure(prog, e)
    except KeyboardInterrupt:  # also while a plug-in's module is imported, before any chunk
        print(f"{prog}: interrupted; the finished chunks are kept: run the same command again "
              "to resume.", file=sys.stderr)
        return EXIT_INTERRUPTED


def _main(parser: argparse.ArgumentParser, args: argparse.Namespace, prog: str) -> int:
    client = None
    try:
        sweep = load_sweep(args.sweep) if args.sweep is not None else default_sweep()
        if args.hands is not None:
            if args.hands < 1:
                raise ValueError(f"The value for `--hands` must be an integer of 1 or more, but "
                                 f"{args.hands!r} was passed.")
            sweep = sweep.with_hands(args.hands)
        if args.dry_run:
            print(dry_run(sweep, args.out, jobs=args.jobs))
            return 0
        check_run(sweep, args.out, jobs=args.jobs, fresh=args.fresh)
        client = _client(args)
    except ValueError as e:
        parser.error(str(e))
    try:
        result = run_sweep(sweep, args.out, jobs=args.jobs, client=client, fresh=args.fresh,
                           quiet=args.quiet)
    except ValueError as e:  # the folder is locked by a sweep that is still running
        parser.error(str(e))
    except (RuntimeError, IllegalMoveError) as e:  # a cell the engine cannot play, met in a hand
        parser.error(f"{' '.join(str(e).split())} (the finished chunks are kept)")
    finally:
        if client is not None:
            cluster = client.cluster
            client.close()
            if cluster is not None:
                cluster.close()
    if not args.quiet:
        _print_tables(result.summary)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
