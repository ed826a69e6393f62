"""Hands per second of dominosim's engines, beside the alternatives a user would pick.

Run ``python benchmarks/bench_engine.py`` (add ``--quick`` for a short run). It measures, for uniform
random play with full records:

* the compiled engine on the issue's rule sets, on one core and on all cores (best of ``--repeat``
  runs after an explicit warm-up, so compilation is not timed);
* the readable reference engine on the same rule sets (a short run);
* the ``dominoes`` package and OpenSpiel's ``python_block_dominoes`` (see ``others.py``) on their own
  games, beside dominosim on the rule set closest to each, in the same run;
* with ``--yardstick PROGRAM``, a narrow numba program that plays only double-six Block and Draw
  (``PROGRAM VARIANT N THREADS REPEATS`` printing ``games/s=...``; the developers' machines have
  one), run beside dominosim on Block 4p and Draw 2p, one core and all cores, alternating, so that
  the ratio is measured under the same load.

Every rate is complete hands per second of wall time, and, on one core, also per second of the
process's CPU time (steadier on a shared machine).

The first ``simulate`` in a fresh environment (compilation included) and from a warm cache, and peak
memory, are measured by ``bench_startup.py`` and ``bench_memory.py``.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from pathlib import Path

import numba

import dominosim as ds
from dominosim.fast import engine as fast

sys.path.insert(0, str(Path(__file__).parent))
import others  # noqa: E402

CASES = [
    ("Block double-six 2p", "block", dict(players=2)),
    ("Block double-six 4p (partners)", "block", dict(players=4)),
    ("Draw double-six 2p", "draw", dict(players=2)),
    ("Cross double-six 3p", "cross", dict(players=3)),
    ("Double Nine Cross 4p", "double_nine_cross", dict(players=4)),
    ("Ivory 3p", "ivory", dict(players=3)),
    ("Block double-twelve 4p (partners)", "block", dict(players=4, max_pip=12)),
]


def fast_rates(rules: ds.Rules, n: int, n_jobs: int, repeat: int) -> tuple[float, float]:
    """Best hands per second (of wall time, of CPU time) of the compiled engine over ``repeat``
    runs of ``n`` hands, full records."""
    run = fast.prepare(rules, "random")
    fast.play_rows(run, seed=1, start=0, n=1_000, n_jobs=n_jobs)  # warm-up: compiled or loaded
    wall = cpu = 0.0
    for r in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        fast.play_rows(run, seed=1 + r, start=0, n=n, n_jobs=n_jobs)
        wall = max(wall, n / (time.perf_counter() - t0))
        cpu = max(cpu, n / (time.process_time() - c0))
    return wall, cpu


def fast_rate(rules: ds.Rules, n: int, n_jobs: int, repeat: int) -> float:
    """Best hands per second of wall time (see :func:`fast_rates`)."""
    return fast_rates(rules, n, n_jobs, repeat)[0]


YARDSTICK = (("Block double-six 4p (partners)", "block4", "block", dict(players=4)),
             ("Draw double-six 2p", "draw2", "draw", dict(players=2)))


def yardstick_rates(program: str, variant: str, n: int, threads: int) -> tuple[float, float]:
    """The yardstick program's games per second of wall time and of CPU time."""
    out = subprocess.run([sys.executable, program, variant, str(n), str(threads), "3"],
                         capture_output=True, text=True, check=True).stdout
    wall = float(re.findall(r"games/s=([0-9,]+)", out)[-1].replace(",", ""))
    cpu = re.findall(r"games/cpu-s=([0-9,]+)", out)
    return wall, float(cpu[-1].replace(",", "")) if cpu else float("nan")


def yardstick(program: str, n: int, repeat: int, cores: int) -> None:
    """dominosim against the yardstick program, alternating, on one core and on all cores."""
    print(f"\nAgainst the yardstick {Path(program).name} (best of {repeat} alternations):")
    print(f"{'rule set':36s} {'cores':>5s} {'dominosim':>12s} {'yardstick':>12s} {'ratio':>6s} "
          f"{'ratio per CPU-s':>16s}")
    for label, variant, preset, kw in YARDSTICK:
        rules = ds.Rules.preset(preset, **kw)
        for jobs, threads in ((1, 0), (cores, cores)):
            ours, theirs = (0.0, 0.0), (0.0, 0.0)
            for _ in range(repeat):
                ours = tuple(map(max, ours, fast_rates(rules, n, jobs, 1)))
                theirs = tuple(map(max, theirs, yardstick_rates(program, variant, n, threads)))
            per_cpu = f"{ours[1] / theirs[1]:16.2f}" if jobs == 1 else f"{'':16s}"
            print(f"{label:36s} {jobs:5d} {ours[0]:12,.0f} {theirs[0]:12,.0f} "
                  f"{ours[0] / theirs[0]:6.2f}{per_cpu}")


def reference_rate(rules: ds.Rules, n: int) -> float:
    t0 = time.perf_counter()
    ds.simulate(rules, "random", n, seed=1, engine="reference")
    return n / (time.perf_counter() - t0)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=4_000_000, help="hands per timed run")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs; the best is kept")
    parser.add_argument("--reference-hands", type=int, default=2_000)
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke test")
    parser.add_argument("--yardstick", metavar="PROGRAM",
                        help="a narrow reference program to run beside dominosim (see above)")
    parser.add_argument("--only-yardstick", action="store_true",
                        help="measure only against the yardstick")
    args = parser.parse_args(argv)
    if args.quick:
        args.hands, args.repeat, args.reference_hands = 200_000, 1, 200
    cores = numba.config.NUMBA_NUM_THREADS
    print(f"dominosim {ds.__version__}, numba {numba.__version__}, {cores} cores; "
          f"{args.hands:,} hands per run, best of {args.repeat}")
    if args.yardstick:
        yardstick(args.yardstick, args.hands, args.repeat, cores)
        if args.only_yardstick:
            return
    print(f"\n{'rule set':36s} {'1 core':>12s} {'per CPU-s':>12s} {f'{cores} cores':>12s} "
          f"{'scaling':>8s} {'reference':>10s}")
    for label, preset, kw in CASES:
        rules = ds.Rules.preset(preset, **kw)
        one, one_cpu = fast_rates(rules, args.hands, 1, args.repeat)
        every = fast_rate(rules, args.hands, cores, args.repeat)
        ref = reference_rate(rules, args.reference_hands)
        print(f"{label:36s} {one:12,.0f} {one_cpu:12,.0f} {every:12,.0f} {every / one:7.2f}x "
              f"{ref:10,.0f}")

    print("\nSide by side with other engines (hands per second, random play, one core):")
    n_other = 2_000 if args.quick else 20_000
    dom = others.bench_dominoes(n_other, seed=0)
    spiel = others.bench_openspiel(n_other // 2, seed=0)
    latin = ds.Rules.preset("block", players=4, hand_size=7)
    spiel_like = ds.Rules.preset("block", players=2, hand_size=7, opening="any")
    ours_latin = fast_rate(latin, args.hands, 1, args.repeat)
    ours_spiel = fast_rate(spiel_like, args.hands, 1, args.repeat)
    for name, theirs, ours, rules_text in (
            ("dominoes (PyPI)", dom, ours_latin, "block, 4p partners, 7 tiles each"),
            ("OpenSpiel python_block_dominoes", spiel, ours_spiel,
             "block, 2p, 7 tiles each, opening any")):
        if theirs is None:
            print(f"{name:34s} not installed (see benchmarks/others.py); dominosim "
                  f"{ours:,.0f} on {rules_text}")
        else:
            print(f"{name:34s} {theirs:10,.0f}   dominosim {ours:12,.0f} on {rules_text}: "
                  f"{ours / theirs:,.0f}x")


if __name__ == "__main__":
    main()
