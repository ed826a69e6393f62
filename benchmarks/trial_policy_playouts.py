"""A trial, not in the package: searches whose play-outs the learned model makes (issue 22).

The learned player misses ``ismcts:1000`` by 0.07 to 0.15 in win rate (``benchmarks/README.md``).
The route left was a small search whose play-outs the learned player makes instead of uniform
random play. ``trial_policy_playouts.patch`` (against ``fbc54d3``) makes the play-outs of ``mc``
and ``ismcts`` play every seat by its inference model's softmax when the search has a model table
(a line-up with a search that infers and models another seat as a weighted player, as ``+infer``
models a search seat by the shipped learned player): ``mc:10+infer:1`` is then ``mc:10`` with
learned play-outs (one candidate per world: the worlds stay uniform). Apply it to a scratch
checkout, then run this file from there::

    git worktree add --detach /tmp/trial HEAD && cd /tmp/trial
    git apply benchmarks/trial_policy_playouts.patch
    PYTHONPATH=$PWD python benchmarks/trial_policy_playouts.py draw "mc:10+infer:1" 300 2026

It prints the paired win-rate difference against ``ismcts:1000`` on duplicate deals (``ds.compare``,
one thread) and the CPU seconds.
"""

from __future__ import annotations

import sys
import time

import dominosim as ds
from dominosim.fast.search import search
from dominosim.strategies.weighted import TUNED_RULES


def main(game: str, player: str, deals: int, seed: int, against: str = "ismcts:1000") -> None:
    if not hasattr(search, "policy_turns"):
        raise SystemExit("Apply benchmarks/trial_policy_playouts.patch first (see the docstring).")
    rules = TUNED_RULES[game]  # the ladder's games: Block 4p with 7 tiles each, Draw 2p
    clock = time.process_time()
    row = ds.compare(rules, player, against, n_deals=deals, seed=seed, n_jobs=1,
                     progress=False).row("win_rate_diff")
    print(f"{game} {player} - {against}: {row.estimate:+.3f} [{row.ci_low:+.3f}, "
          f"{row.ci_high:+.3f}] on {deals} deals of seed {seed}, "
          f"{time.process_time() - clock:.0f} CPU s")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), *sys.argv[5:6])
