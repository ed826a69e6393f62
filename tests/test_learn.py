"""Learned players: the teacher's labels, the fit, expert iteration, files, the built-in.

Tiny players on small rules (double-three, three tiles each): the labels must agree with the
solver and with the features of ``ds.decisions`` on the same hands, the fit must recover a known
linear rule, the same seed must give the same player, and the built-in ``"learned"`` must play the
shipped weights.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import dominosim as ds
from dominosim.players.learn import (
    check_teacher,
    decision_points,
    fit_mlp,
    fit_weights,
    label_positions,
)
from dominosim.strategies.features import CONTEXT, FEATURE_NAMES, MOVE_FEATURES
from dominosim.strategies.weighted import TUNED_RULES, shipped

SMALL = ds.Rules.preset("block", players=2, max_pip=3, hand_size=3)
PAIRS = ds.Rules.preset("block", players=4, max_pip=3, hand_size=2)


@pytest.fixture(scope="module")
def fitted():
    return ds.learn(SMALL, positions=60, rounds=3, eval_deals=60, seed=4, n_jobs=1,
                    progress=False)


def test_labels_are_the_solvers_values_of_the_decisions_met_in_play():
    data = label_positions(PAIRS, "bully", "solve", 30, 9, 2, lambda k: None)
    met = ds.decisions(PAIRS, "bully", n_hands=int(data["hand"].max()) + 1, seed=9)
    met = met[met["hand"] <= data["hand"].max()]
    keys = ["hand", "seat", "tile", "suit"]
    assert data[keys].equals(met[keys].iloc[:len(data)].reset_index(drop=True))
    names = list(FEATURE_NAMES)
    assert np.array_equal(data[names].to_numpy(), met[names].iloc[:len(data)].to_numpy())
    # the win values are the solver's (objective 'win'), position by position
    positions = [p for h in range(int(data["hand"].max()) + 1)
                 for p in decision_points(PAIRS, "bully", 9, h)][:30]
    for i, position in enumerate(positions):
        solution = ds.solve(position, "win", table_bits=16)
        assert data.loc[data["decision"] == i, "win"].tolist() == solution.moves["value"].tolist()
    scale = 2 * 3 * 4 * 5 / 2
    assert np.allclose(data["target"], data["win"] + data["points"] / scale)


def test_imitation_labels_mark_the_move_the_imitated_strategy_plays():
    # bully plays its heaviest tile: the one move marked in each decision is a heaviest one
    data = label_positions(PAIRS, "random", "imitate:bully", 40, 9, 2, lambda k: None)
    assert data["decision"].nunique() == 40
    by = data.groupby("decision")
    assert (by["target"].sum() == 1).all() and set(data["target"]) == {0.0, 1.0}
    marked = data[data["target"] == 1]
    assert (marked["pips"].to_numpy() == by["pips"].max().to_numpy()).all()
    assert data["win"].isna().all() and data["points"].isna().all()  # no values: choices
    # the positions are those met in random play, as with the solver's labels
    solved = label_positions(PAIRS, "random", "solve", 40, 9, 2, lambda k: None)
    keys = ["hand", "decision", "seat", "tile", "suit", *FEATURE_NAMES]
    assert data[keys].equals(solved[keys])


def test_learn_imitates_a_search_and_repeats_itself_for_a_seed():
    kw = dict(teacher="imitate:ismcts:30", positions=80, rounds=2, eval_deals=40, seed=6,
              n_jobs=1, progress=False)
    a, b = ds.learn(SMALL, **kw), ds.learn(SMALL, **kw)
    assert a.weights.equals(b.weights) and a.positions.equals(b.positions)
    assert a.player.metadata["teacher"] == "imitate:ismcts:30"
    assert "the move the teacher plays" in a.player.metadata["method"]
    assert (a.positions.groupby(["round", "decision"])["target"].sum() == 1).all()


def test_imitation_labels_are_the_same_on_one_thread_and_on_two():
    # each labelling thread asks a copy of the search (one object serves one decision at a time)
    one = label_positions(SMALL, "random", "imitate:ismcts:30", 60, 5, 1, lambda k: None)
    two = label_positions(SMALL, "random", "imitate:ismcts:30", 60, 5, 2, lambda k: None)
    assert one.equals(two) and one["target"].sum() == 60


def test_learn_by_imitating_bully_plays_as_bully():
    fit = ds.learn(SMALL, teacher="imitate:bully", positions=300, rounds=1, eval_deals=40,
                   seed=2, n_jobs=1, progress=False)
    played = ds.decisions(SMALL, [fit.player, fit.player], n_hands=300, seed=8)
    mine = played[played["chosen"]].set_index(["hand", "decision"])["pips"]
    heaviest = played.groupby(["hand", "decision"])["pips"].max()
    assert (mine == heaviest.loc[mine.index]).mean() > 0.95


def test_fit_recovers_a_linear_rule():
    rng = np.random.default_rng(3)
    n = 400
    rows = pd.DataFrame(rng.integers(0, 5, size=(n, len(FEATURE_NAMES))).astype(float),
                        columns=list(FEATURE_NAMES))
    rows["round"], rows["decision"] = 0, np.arange(n) // 4
    for name in CONTEXT:  # the same for every move of a decision
        rows[name] = rows.groupby("decision")[name].transform("first")
    true = {"pips": 0.5, "keep_suit": -1.0, "unseen_left": 0.25}
    rows["target"] = sum(w * rows[f] for f, w in true.items()) + 7.0 * rows["boneyard"]
    w = pd.Series(fit_weights(SMALL, rows, alpha=1e-6), index=list(FEATURE_NAMES))
    for name in MOVE_FEATURES:
        if name in ("partner_lacks", "partner_shut", "partner_fed"):
            continue
        assert w[name] == pytest.approx(true.get(name, 0.0), abs=1e-6)
    assert (w[list(CONTEXT)] == 0).all()  # the same for every move: never fitted


def test_learn_iterates_and_repeats_itself_for_a_seed(fitted):
    again = ds.learn(SMALL, positions=60, rounds=3, eval_deals=60, seed=4, n_jobs=1,
                     progress=False)
    assert fitted.weights.equals(again.weights)
    rounds = fitted.rounds
    assert list(rounds.columns) == ["round", "positions", "total", "generated_by", "edge",
                                    "ci_low", "ci_high", "seconds", "best"]
    assert rounds["generated_by"].iloc[0] == "tuned"
    assert (rounds["generated_by"].iloc[1:] == "learned").all()  # expert iteration
    assert rounds["best"].sum() == 1
    best = rounds[rounds["best"]].iloc[0]
    assert best["edge"] == rounds["edge"].max()
    if len(rounds) < 3:  # stopped early: the last round did not improve
        assert rounds["edge"].iloc[-1] <= rounds["edge"].iloc[:-1].max()
    assert (rounds["ci_low"] <= rounds["edge"]).all() and (rounds["edge"] <= rounds["ci_high"]).all()
    assert float(fitted.weights.abs().max()) == 1.0
    assert (fitted.weights[list(CONTEXT)] == 0).all()
    meta = fitted.player.metadata
    assert meta["teacher"] == "solve" and meta["seed"] == 4
    assert meta["positions"] == 60 * (int(best["round"]) + 1)
    assert fitted.positions["round"].max() == best["round"]
    assert fitted.positions.groupby(["round", "decision"]).size().min() >= 2


def test_learned_player_file_round_trip(fitted, tmp_path):
    path = fitted.player.save(tmp_path / "learned.npz")
    back = ds.load_player(path)
    assert back.weights.equals(fitted.weights) and back.digest == fitted.player.digest
    assert back.metadata["teacher"] == "solve" and back.metadata["positions"] > 0
    assert back.metadata["features_version"] == ds.FEATURES_VERSION
    hands = ds.simulate(SMALL, [f"file:{path}", "bully"], 60, 2)
    assert hands.equals(ds.simulate(SMALL, [f"file:{path}", "bully"], 60, 2, engine="reference"))


def test_learned_builtin_plays_the_shipped_player_of_the_nearer_game():
    rules = ds.Rules.preset("block", players=2, max_pip=4, hand_size=4)
    as_loaded = ds.Weighted(rules, shipped("block", "learned").weights)
    assert ds.simulate(rules, "learned", 200, 3).equals(ds.simulate(rules, as_loaded, 200, 3))
    for game, rules in TUNED_RULES.items():
        player = ds.tuned_player(rules, "learned")
        assert player.rules == rules and player.metadata["teacher"] == "solve"
        assert not player.weights.equals(shipped(game).weights)  # not the tuned one


def test_learn_fits_an_mlp_that_repeats_itself_and_plays_in_both_engines(tmp_path):
    a = ds.learn(SMALL, positions=60, rounds=2, eval_deals=60, model="mlp", hidden=6, seed=4,
                 n_jobs=1, progress=False)
    b = ds.learn(SMALL, positions=60, rounds=2, eval_deals=60, model="mlp", hidden=6, seed=4,
                 n_jobs=1, progress=False)
    assert isinstance(a.player, ds.MLP) and a.player.hidden.shape == (6, len(FEATURE_NAMES))
    for name in ("hidden", "bias", "output"):
        assert np.array_equal(getattr(a.player, name), getattr(b.player, name))
    assert (a.player.vector == 0).all() and a.rounds["best"].sum() == 1
    assert a.player.metadata["model"] == "mlp" and a.player.metadata["hidden"] == 6
    assert (a.player.hidden[:, [FEATURE_NAMES.index(n) for n in ("partner_lacks",
                                                             "partner_shut")]] == 0).all()
    path = a.player.save(tmp_path / "net.npz")
    hands = ds.simulate(SMALL, [f"file:{path}", "bully"], 60, 2)
    assert hands.equals(ds.simulate(SMALL, [a.player, "bully"], 60, 2, engine="reference"))


def test_mlp_fit_finds_a_rule_no_weighted_sum_can_play():
    """The target rewards a double only while the seat keeps many tiles (a product of two
    features): the MLP ranks the moves of its decisions as the rule does far more often
    than the best linear model."""
    rng = np.random.default_rng(5)
    n = 4000
    rows = pd.DataFrame(0.0, index=range(n), columns=list(FEATURE_NAMES))
    rows["round"], rows["decision"] = 0, np.arange(n) // 4
    rows["double"] = rng.integers(0, 2, n).astype(float)
    rows["pips"] = rng.integers(0, 13, n).astype(float)
    rows["my_tiles"] = rows.groupby("decision")["pips"].transform(lambda s: rng.integers(1, 8))
    rows["target"] = rows["double"] * (rows["my_tiles"] - 4.0) + 0.05 * rows["pips"]
    hidden, bias, output = fit_mlp(SMALL, rows, hidden=8, seed=0)
    linear = fit_weights(SMALL, rows, alpha=1e-6)
    f = rows[list(FEATURE_NAMES)].to_numpy()
    rows["mlp"] = np.maximum(f @ hidden.T + bias, 0.0) @ output  # as the player scores
    rows["linear"] = f @ linear

    def agree(column):
        groups = rows.groupby("decision")
        return float((groups[column].idxmax() == groups["target"].idxmax()).mean())

    assert agree("mlp") > 0.95 > 0.8 > agree("linear")


@pytest.mark.parametrize(("bad", "match"), [
    ({"teacher": "pimc"}, "`teacher` must be 'solve', 'pimc:N' with N a positive integer, or "
                          "'imitate:S' with S a strategy name, but 'pimc' was passed"),
    ({"teacher": "ismcts:10"}, "`teacher` must be"),
    ({"teacher": "imitate:"}, "`teacher` must be .* but 'imitate:' was passed"),
    ({"teacher": "imitate:ismcst:10"}, r"`teacher` must be .* but 'imitate:ismcst:10' was passed "
                                       r"\(The value for `strategies`"),
    ({"positions": 5}, "`positions` must be an integer from 10"),
    ({"rounds": 0}, "`rounds` must be an integer from 1"),
    ({"eval_deals": True}, "`eval_deals` must be an integer"),
    ({"alpha": 0.0}, "`alpha` must be a positive number"),
    ({"name": ""}, "`name` must be a non-empty string"),
    ({"model": "forest"}, "`model` must be one of 'linear', 'mlp'"),
    ({"model": "mlp", "hidden": 0}, "`hidden` must be an integer from 1 to 64, but 0"),
    ({"model": "mlp", "hidden": 2.5}, "`hidden` must be an integer from 1 to 64"),
    ({"n_jobs": 0}, r"`n_jobs` must be None, -1 or an integer from 1 to \d+ \(the cores"),
    # refused at once, not after labelling a round (ds.compare refuses it)
    ({"n_jobs": 10**6}, r"`n_jobs` must be None, -1 or an integer from 1 to \d+ \(the cores"),
])
def test_learn_refuses_bad_arguments(bad, match):
    with pytest.raises(ValueError, match=match) as error:
        ds.learn(SMALL, **bad)
    assert "\n" not in str(error.value)
    with pytest.raises(ValueError, match=r"`rules` must be a dominosim\.Rules \(for example Rules\.preset\('block'"):
        ds.learn("block")
    assert check_teacher("pimc:7") == 7
