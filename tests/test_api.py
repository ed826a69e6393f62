"""The public functions refuse bad input with one sentence naming the parameter."""

from __future__ import annotations

import pytest

import dominosim as ds

RULES = ds.Rules.preset("draw", players=2)


@pytest.mark.parametrize(("kwargs", "field"), [
    (dict(n_hands=-1), "n_hands"),
    (dict(n_hands=10, seed=-3), "seed"),
    (dict(n_hands=10, engine="fastest"), "engine"),
    (dict(n_hands=10, keep="all"), "keep"),
    (dict(n_hands=10, chunk_size=0), "chunk_size"),
    (dict(n_hands=10, start=-1), "start"),
    (dict(n_hands=10, n_jobs=99), "n_jobs"),
])
def test_simulate_bad_argument_names_it(kwargs, field):
    with pytest.raises(ValueError, match=rf"`{field}` must be .* but .* was passed"):
        ds.simulate(RULES, "random", **kwargs)


def test_simulate_refuses_rules_of_the_wrong_type():
    with pytest.raises(ValueError, match="`rules` must be a dominosim.Rules"):
        ds.simulate("block", "random", 10)


def test_simulate_refuses_a_lineup_of_the_wrong_length():
    with pytest.raises(ValueError, match=r"one strategy per seat \(2\)"):
        ds.simulate(RULES, ["random"] * 3, 10)


def test_simulate_zero_hands_gives_an_empty_frame_with_every_column():
    df = ds.simulate(RULES, "random", 0)
    assert len(df) == 0 and "stitch_ups_1" in df.columns


def test_simulate_matches_only_on_the_reference_engine():
    with pytest.raises(ValueError, match="`engine` must be 'reference' for simulate_matches"):
        ds.simulate_matches(RULES, "random", 2, engine="fast")
    matches = ds.simulate_matches(RULES.replace(target=20), "random", 4, seed=1)
    assert (matches[["score_0", "score_1"]].max(axis=1) >= 20).all()
    assert (matches["winning_side"] == matches[["score_0", "score_1"]].values.argmax(axis=1)).all()
