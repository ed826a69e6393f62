"""ds.review: each decision of a seat against the best move by analysis, and the solver's view."""

from __future__ import annotations

import json

import numpy as np
import pytest

import dominosim as ds
from dominosim.solver.review import COLUMNS

TINY = ds.Rules.preset("block", players=2, max_pip=2, hand_size=3)
DEAL = ([[(2, 2), (0, 1), (1, 1)], [(1, 2), (0, 0), (0, 2)]], [])


def typed(moves, hands=(["2-2", "1-0", "1-1"], ["2-1", "0-0", "2-0"])) -> ds.HandLog:
    return ds.HandLog.from_json(json.dumps({
        "schema": "dominosim.hand/1",
        "rules": {"preset": "block", "players": 2, "max_pip": 2, "hand_size": 3},
        "deal": {"hands": list(hands), "boneyard": None}, "moves": moves}))


def test_review_of_a_blunder_shows_the_win_lost_and_the_solved_loss():
    # after 2-2, seat 1 sees every tile: 2-0 wins (seat 0 is left with 1-1 against 0-0 ...),
    # 2-1 loses for sure (the solve doctest's position)
    log = typed(["2-2", "2-1", "1-1", "2-0", "1-0 on 0"])
    table = ds.review(log, 1, budget=50)
    assert list(table.columns) == list(COLUMNS)
    first = table.iloc[0]
    assert (first["event"], first["legal_moves"], first["made"], first["best"]) == \
        (1, 2, "2-1 on 2", "2-0 on 2")
    assert (first["made_win"], first["best_win"], first["win_lost"]) == (0.0, 1.0, 1.0)
    assert (first["solved_value"], first["solved_made"], first["solved_lost"]) == (1.0, 0.0, 1.0)
    assert first["solved_best"] == "2-0 on 2"


def test_review_lists_only_the_seats_choices_and_never_a_negative_loss():
    rules = ds.Rules.preset("block", players=4)
    log = ds.replay(rules, "random", seed=5, hand=2)
    table = ds.review(log, 1, budget=60, seed=3)
    chosen = [k for k, e in enumerate(log.events) if e.kind == "play" and e.seat == 1
              and k > 0 and len(log.position(k).legal_moves()) > 1]
    assert list(table["event"]) == chosen and len(chosen) >= 1
    assert list(table["decision"]) == list(range(1, len(chosen) + 1))
    assert (table["win_lost"] >= 0).all()
    np.testing.assert_allclose(table["win_lost"], table["best_win"] - table["made_win"])
    assert (table["solved_value"] >= table["solved_made"]).all()
    assert table["solved_value"].isin([0.0, 0.5, 1.0]).all()
    for k, made in zip(table["event"], table["made"], strict=True):
        e = log.events[k]
        assert made == f"{e.tile[1]}-{e.tile[0]} on {e.suit}"
    assert "note" not in table.attrs
    for k, position in zip(table["event"], table["position"], strict=True):
        assert str(position) == str(log.position(k)) and position.to_move == 1
    again = ds.review(log, 1, budget=60, seed=3)
    assert again.drop(columns="position").equals(table.drop(columns="position"))


def test_review_of_a_typed_in_game_with_a_hidden_hand_leaves_the_solver_out():
    log = typed(["0: 2-2", "2-1", "0: 1-1 on 1", "2-0", "0: 1-0 on 0"],
                hands=(None, ["2-1", "0-0", "2-0"]))
    table = ds.review(log, 1, budget=50)
    assert (table.loc[0, "made"], table.loc[0, "win_lost"]) == ("2-1 on 2", 1.0)
    assert table[["solved_value", "solved_made", "solved_lost"]].isna().all().all()
    assert "perfect-information columns are NaN" in table.attrs["note"]
    with pytest.raises(ValueError, match=r"`log` must be a hand whose seat 0 knew its own tiles"):
        ds.review(typed(["0: 2-2", "2-0", "0: 1-0 on 0", "2-1 on 1", "0: knock"],
                        hands=(None, ["2-1", "0-0", "2-0"])), 0, budget=10)


def test_review_refuses_a_bad_seat_and_a_non_log():
    log = ds.play_hand(TINY, "bully", deal=DEAL)
    with pytest.raises(ValueError, match=r"`seat` must be a seat from 0 to 1, but 2 was passed"):
        ds.review(log, 2)
    with pytest.raises(ValueError, match=r"`log` must be a HandLog"):
        ds.review("log.json", 0)
