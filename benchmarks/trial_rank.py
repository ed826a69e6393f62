"""The imitators of ``trial_extra_features.py`` fitted with a loss over each decision (issue 22).

``python benchmarks/trial_rank.py GAME TRAIN TEST`` labels the same hands as
``trial_extra_features.py`` (``ismcts:1000`` at every seat, ``TRAIN`` hands of seed 401 and
``TEST`` of seed 402) and fits LightGBM's ranker on each of its three input sets, with the moves
of one decision as one query and the move played as the relevant one, under two of its losses
(``lambdarank`` and ``rank_xendcg``). It prints each one's share of decisions (training, test)
on which its highest scored move is the teacher's, and its fit's CPU seconds.

LightGBM is not a dependency of dominosim (``pip install lightgbm`` first). Boosted trees are not
a model the compiled kernel can play; the trial only asks whether a loss over the decision
agrees with the teacher more often than the per-move classifier.
"""

from __future__ import annotations

import sys
import time

from trial_extra_features import EXTRA, TUNED_RULES, data, mlp_features, tile_names


def agreement(model, df, cols) -> float:
    """The share of decisions of ``df`` whose highest scored move is the one played."""
    scored = df.assign(score=model.predict(df[cols].to_numpy(float)))
    return scored.loc[scored.groupby("decision")["score"].idxmax(), "chosen"].mean()


def main(game: str, train: int, test: int) -> None:
    """Print each input set and loss's agreement with the teacher."""
    import lightgbm as lgb

    rules = TUNED_RULES[game]
    t = time.process_time()
    tr, te = data(rules, train, 401), data(rules, test, 402)
    print(game, "labels", len(tr), len(te), f"{time.process_time() - t:.0f} CPU s", flush=True)
    base = list(mlp_features(rules))
    sizes = tr.groupby("decision", sort=False).size().to_numpy()  # moves of a decision in a row
    for name, cols in (("the model's features", base), ("with the extra ones", base + EXTRA),
                       ("with the extra ones and the tiles", base + EXTRA + tile_names(rules))):
        for loss in ("lambdarank", "rank_xendcg"):
            t = time.process_time()
            model = lgb.LGBMRanker(objective=loss, n_estimators=300, learning_rate=0.05,
                                   num_leaves=31, min_child_samples=50, verbose=-1, n_jobs=1)
            model.fit(tr[cols].to_numpy(float), tr["chosen"].astype(int), group=sizes)
            print(f"| {game} | {name} | {loss} | {agreement(model, tr, cols):.3f} | "
                  f"{agreement(model, te, cols):.3f} | {time.process_time() - t:.0f} |",
                  flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
