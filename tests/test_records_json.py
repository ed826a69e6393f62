"""Game records: a hand log saved as JSON (schema dominosim.hand/1) loads back to the same log,
and a real game typed in is replayed move by move by the reference engine's rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rule_space import lineup

import dominosim as ds
from dominosim.reference.handfile import HIDDEN, SCHEMA

PRESET_PLAYERS = [("block", 2), ("block", 4), ("draw", 2), ("draw", 3), ("cross", 4),
                  ("double_nine_cross", 4), ("ivory", 3)]


def assert_same_log(loaded: ds.HandLog, log: ds.HandLog) -> None:
    assert loaded.rules == log.rules
    assert loaded.deals == log.deals
    assert loaded.events == log.events
    assert loaded.record == log.record
    assert (loaded.seed, loaded.hand) == (log.seed, log.hand)


# ------------------------------------------------------------------------------ round trips
@settings(max_examples=40, deadline=None, derandomize=True)
@given(case=st.sampled_from(PRESET_PLAYERS), who=st.sampled_from(["random", "mixed", "styles"]),
       engine=st.sampled_from(["reference", "fast"]), hand=st.integers(0, 10**6))
def test_hand_log_round_trips_through_json_in_both_engines(case, who, engine, hand):
    preset, players = case
    rules = ds.Rules.preset(preset, players=players)
    log = ds.replay(rules, lineup(rules, who), seed=11, hand=hand, engine=engine)
    assert_same_log(ds.HandLog.from_json(log.to_json()), log)


def test_hand_log_of_search_strategies_round_trips_through_json():
    # the rules, line-up and engine of test_search's event-log test: no kernel of its own (the
    # compiled engine's logs are covered above, and a log does not depend on who chose the moves)
    rules = ds.Rules.preset("draw", players=3, opening="any", leader=1)
    for hand in (0, 1):
        log = ds.replay(rules, ["ismcts:80", "mc:6", "mc_omniscient:4"], seed=8, hand=hand)
        assert_same_log(ds.HandLog.from_json(log.to_json()), log)


def test_hand_log_with_redeals_keeps_the_thrown_deals():
    rules = ds.Rules.preset("block", players=2, max_pip=3, hand_size=1)
    log = next(lg for h in range(50) if len((lg := ds.replay(rules, "random", 1, h)).deals) > 1)
    text = log.to_json()
    assert len(json.loads(text)["redeals"]) == len(log.deals) - 1
    assert_same_log(ds.HandLog.from_json(text), log)


def test_hand_json_names_its_schema_and_rules_by_preset():
    log = ds.replay(ds.Rules.preset("draw", players=3, scoring="game"), "random", seed=2, hand=0)
    data = json.loads(log.to_json())
    assert data["schema"] == SCHEMA == "dominosim.hand/1"
    assert data["rules"] == {"preset": "draw", "players": 3, "scoring": "game"}
    assert data["result"]["points"] == log.record["points"]
    assert all(isinstance(m, str) for m in data["moves"])


# ------------------------------------------------------------------------------ typed-in games
SMALL = {"preset": "block", "players": 2, "max_pip": 2, "hand_size": 3}


def game(moves, hands=(["2-2", "1-0", "1-1"], ["2-1", "0-0", "2-0"]), boneyard=None,
         rules=SMALL, **more) -> str:
    return json.dumps({"schema": SCHEMA, "rules": rules,
                       "deal": {"hands": list(hands), "boneyard": boneyard},
                       "moves": moves, **more})


def test_typed_in_game_equals_the_hand_the_engine_plays():
    rules = ds.Rules.preset("block", players=2, max_pip=2, hand_size=3)
    played = ds.play_hand(rules, "bully", deal=([[(2, 2), (0, 1), (1, 1)],
                                                 [(1, 2), (0, 0), (0, 2)]], []))
    typed = ds.HandLog.from_json(game(["2-2", "2-1", "1-1", "2-0", "1-0 on 1"], boneyard=[]))
    assert typed.events == played.events
    assert typed.record["points"] == played.record["points"] == 0


def test_typed_in_game_accepts_every_field_of_the_rules_and_seats():
    rules = ds.Rules.preset("block", players=2, max_pip=2, hand_size=3).to_dict()
    typed = ds.HandLog.from_json(game(["0: 2-2", "1: 2-1 on 2", "0: 1-1 on 1", "1: 2-0",
                                       "0: 1-0 on 0"], rules=rules))
    assert typed.record["winning_side"] == 0 and typed.record["out_seat"] == 0


def test_typed_in_game_implies_the_knocks_that_end_a_blocked_hand():
    # 2-2, 2-0, 1-0 on 0, 2-1 on 1: both ends show 2; seat 0 (1-1) and seat 1 (0-0) must knock
    typed = ds.HandLog.from_json(game(["2-2", "2-0", "1-0", "2-1 on 1"]))
    assert [e.kind for e in typed.events] == ["play"] * 4 + ["knock", "knock", "end"]
    assert (typed.record["end"], typed.record["winning_side"], typed.record["points"]) == (1, 1, 2)
    assert ds.HandLog.from_json(typed.to_json()).events == typed.events


def test_typed_in_game_implies_the_draws_of_a_known_hand():
    rules = {"preset": "draw", "players": 2, "max_pip": 2, "hand_size": 2}
    typed = ds.HandLog.from_json(game(["2-2", "1: 2-0 on 2", "0: 2-1 on 2", "1: 0-0", "0: 1-1"],
                                      hands=(["2-2", "1-1"], ["1-0", "0-0"]),
                                      boneyard=["2-0", "2-1"], rules=rules))
    assert [(e.kind, e.seat, e.tile) for e in typed.events[:-1]] == [
        ("play", 0, (2, 2)), ("draw", 1, (0, 2)), ("play", 1, (0, 2)), ("draw", 0, (1, 2)),
        ("play", 0, (1, 2)), ("play", 1, (0, 0)), ("play", 0, (1, 1))]
    assert typed.record["out_seat"] == 0 and typed.record["points"] == 1


def test_typed_in_game_refuses_an_illegal_move_naming_number_and_legal_moves():
    with pytest.raises(ValueError, match=r"^Move 2 \('1: 1-1'\) is illegal .*; the legal moves "
                                         r"of seat 1 are: 1: 2-0 on 2, 1: 2-1 on 2\.$"):
        ds.HandLog.from_json(game(["2-2", "1: 1-1", "1-0"]))


def test_typed_in_game_refuses_a_play_out_of_turn():
    with pytest.raises(ValueError, match=r"Move 2 \('0: 1-1 on 2'\) is illegal \(seat 1 is to "
                                         r"move\)"):
        ds.HandLog.from_json(game(["2-2", "0: 1-1 on 2"]))


def test_typed_in_game_refuses_a_tile_shown_twice_and_a_bad_move_string():
    with pytest.raises(ValueError, match=r"`deal` must be a deal holding each tile at most once"):
        ds.HandLog.from_json(game([], hands=(["2-2", "1-0", "1-1"], ["2-2", "0-0", "2-0"])))
    with pytest.raises(ValueError, match=r"Move 1 must be written 'SEAT: TILE on SUIT'"):
        ds.HandLog.from_json(game(["play the six"]))
    with pytest.raises(ValueError, match=r"`schema` must be 'dominosim.hand/1', but 'other/2'"):
        ds.HandLog.from_json(json.dumps({"schema": "other/2"}))


def test_typed_in_game_asks_for_the_end_when_a_tile_fits_two():
    # after 2-2, 2-0, 1-0 on 0 the ends show 1 and 2: the 2-1 fits both
    with pytest.raises(ValueError, match=r"^Move 4 \('2-1'\) is illegal \(it fits the ends "
                                         r"\[1, 2\]: write 'on SUIT'\)"):
        ds.HandLog.from_json(game(["2-2", "2-0", "1-0", "2-1"]))


def test_typed_in_game_with_hidden_hand_reveals_tiles_as_they_are_played():
    typed = ds.HandLog.from_json(game(["2-2", "1: 2-1", "1-1", "1: 2-0 on 2", "0: 1-0 on 1"],
                                      hands=(["2-2", "1-0", "1-1"], None)))
    assert typed.deals[-1][0][1] == [HIDDEN] * 3
    assert typed.record["out_seat"] == 0 and typed.record["pips_1"] is None
    assert typed.record["points"] is None
    position = typed.position(2)
    assert position.view(0).hand == ((0, 1), (1, 1))
    assert position.hands[1] == (HIDDEN, HIDDEN)
    assert "?" in str(position)
    again = ds.HandLog.from_json(typed.to_json())
    assert again.events == typed.events


def test_typed_in_game_with_hidden_hand_takes_the_points_from_its_result():
    text = game(["2-2", "1: 2-1", "1-1", "1: 2-0 on 2", "0: 1-0 on 1"],
                hands=(["2-2", "1-0", "1-1"], None),
                result={"winning_side": 0, "points": 0, "out_seat": 0})
    assert ds.HandLog.from_json(text).record["points"] == 0
    wrong = text.replace('"winning_side": 0', '"winning_side": 1')
    with pytest.raises(ValueError, match=r"`result.winning_side` must be 0, as the moves give"):
        ds.HandLog.from_json(wrong)


def test_typed_in_game_with_hidden_hand_refuses_a_tile_known_elsewhere():
    with pytest.raises(ValueError, match=r"^Move 2 \('1: 1-0 on 1'\) is illegal"):
        ds.HandLog.from_json(game(["2-2", "1: 1-0 on 1"], hands=(["2-2", "1-0", "1-1"], None)))


def test_typed_in_draw_game_with_unknown_boneyard_takes_named_draws():
    rules = {"preset": "draw", "players": 2, "max_pip": 2, "hand_size": 2}
    # seat 0: 2-2 1-1; seat 1 and the boneyard (2 tiles) unknown; the hand not finished
    text = game(["2-2", "1: draw", "1: 2-0 on 2", "0: draw 2-1", "0: 2-1 on 2"],
                hands=(["2-2", "1-1"], None), rules=rules)
    typed = ds.HandLog.from_json(text)
    draws = [e for e in typed.events if e.kind == "draw"]
    assert [d.tile for d in draws] == [HIDDEN, (1, 2)]
    assert typed.record == {} and typed.outcome() == "not played"
    assert typed.position(len(typed.events)).view(0).hand == ((1, 1),)


def _as_seen_by(log: ds.HandLog, seat: int) -> str:
    """The hand file of ``log`` as ``seat`` would type it in: its own tiles only, the others'
    draws unnamed."""
    data = json.loads(log.to_json())
    data["deal"]["hands"] = [h if s == seat else None for s, h in enumerate(data["deal"]["hands"])]
    data["deal"]["boneyard"] = None
    data.pop("redeals", None)
    data["moves"] = [m if "draw" not in m or m.startswith(f"{seat}:") else m.split(" draw")[0]
                     + " draw" for m in data["moves"]]
    return json.dumps(data)


@settings(max_examples=25, deadline=None, derandomize=True)
@given(case=st.sampled_from(PRESET_PLAYERS), hand=st.integers(0, 10**6),
       seat=st.integers(0, 2))
def test_hand_seen_by_one_seat_loads_with_the_same_public_events(case, hand, seat):
    preset, players = case
    rules = ds.Rules.preset(preset, players=players)
    log = ds.replay(rules, "random", seed=12, hand=hand)
    seen = ds.HandLog.from_json(_as_seen_by(log, seat))
    hide = [e.kind == "draw" and e.seat != seat for e in log.events]
    assert [(e.kind, e.seat, HIDDEN if h else e.tile, e.suit, e.ends, e.suits)
            for e, h in zip(log.events, hide, strict=True)] == \
        [(e.kind, e.seat, e.tile, e.suit, e.ends, e.suits) for e in seen.events]
    end, got = log.events[-1], seen.events[-1]
    assert (got.how, got.pips[seat]) == (end.how, end.pips[seat])
    assert got.winning_side in (end.winning_side, None)
    assert seen.record["points"] == log.record["points"]  # taken from the file's result


ROOT = Path(__file__).resolve().parent.parent


def test_example_game_and_the_documented_schema_example_load_as_documented():
    game_file = ds.HandLog.from_json((ROOT / "examples" / "game.json").read_text())
    docs = (ROOT / "docs" / "records.md").read_text()
    typed = ds.HandLog.from_json(docs.split("```json\n")[1].split("```")[0])
    assert [(e.kind, e.seat, e.tile, e.suit) for e in typed.events] == \
        [(e.kind, e.seat, e.tile, e.suit) for e in game_file.events]
    assert game_file.record["points"] == typed.record["points"] == 20
    documented = docs.split("ValueError: ")[1].split("\n")[0]
    bad = (ROOT / "examples" / "game.json").read_text().replace('"0: 3-1"', '"0: 6-0"')
    with pytest.raises(ValueError) as error:
        ds.HandLog.from_json(bad)
    assert str(error.value) == documented
