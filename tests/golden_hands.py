"""The hands whose transcripts are kept as golden files in tests/golden/.

Regenerate them (after a deliberate change of behaviour, reviewed line by line) with
``python tests/golden_hands.py``.
"""

from __future__ import annotations

from pathlib import Path

import dominosim as ds

GOLDEN = Path(__file__).parent / "golden"

CASES = {
    "block_4p_partnership": (ds.Rules.preset("block", players=4),
                             ["bully", "random", "doubles", "random"], 7, 3),
    "draw_2p": (ds.Rules.preset("draw", players=2), ["random", "bully"], 7, 11),
    "cross_3p": (ds.Rules.preset("cross", players=3), "random", 3, 5),
    "double_nine_cross_4p": (ds.Rules.preset("double_nine_cross", players=4), "random", 1, 2),
    "ivory_3p": (ds.Rules.preset("ivory", players=3), "doubles", 5, 8),
    "draw_one_keep2_any": (ds.Rules.preset("draw", players=2, draw="one", boneyard_keep=2,
                                           opening="any", leader=1), "random", 9, 0),
}


def render(name: str) -> str:
    rules, strategies, seed, hand = CASES[name]
    return ds.replay(rules, strategies, seed=seed, hand=hand).transcript() + "\n"


if __name__ == "__main__":
    for case in CASES:
        (GOLDEN / f"{case}.txt").write_text(render(case))
        print("wrote", case)
