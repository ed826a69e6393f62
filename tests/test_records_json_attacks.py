"""Hand records under attack (issue 20): every key known, every number checked, impossible
records refused, one-line errors for what is not a hand file, and to_json always valid JSON."""

from __future__ import annotations

import json
import time

import pytest

import dominosim as ds
from dominosim.reference.handfile import HIDDEN, SCHEMA

SMALL = {"preset": "block", "players": 2, "max_pip": 2, "hand_size": 3}
HIDDEN_SEAT_1 = (["2-2", "1-0", "1-1"], None)
# Every tile is dealt, so hidden seat 1 holds 2-1, 2-0 and 0-0: after 2-1 and 1-1 it must play
# the 2-0 (a knock there, holding it, cannot happen: KNOCK_HOLDING_2_0), and seat 0 goes out.
FINISHED = ["2-2", "1: 2-1", "1-1", "1: 2-0 on 2", "0: 1-0 on 1"]
KNOCK_HOLDING_2_0 = ["2-2", "1: 2-1", "1-1", "1: knock", "0: 1-0 on 1"]


def game(moves=FINISHED, hands=HIDDEN_SEAT_1, boneyard=None, rules=SMALL, **more) -> dict:
    return {"schema": SCHEMA, "rules": rules, "deal": {"hands": list(hands), "boneyard": boneyard},
            "moves": moves, **more}


def refused(data, pattern: str) -> str:
    with pytest.raises(ValueError, match=pattern) as caught:
        ds.HandLog.from_json(data)
    message = str(caught.value)
    assert "\n" not in message and len(message) < 600
    return message


def test_a_misspelt_key_of_the_deal_is_refused_not_read_as_an_unknown_boneyard():
    data = game()
    data["deal"]["boneyad"] = data["deal"].pop("boneyard")
    refused(data, r"^The value for `deal` must be an object with the keys 'hands' and 'boneyard' "
                  r"only, but \"the key 'boneyad'\" was passed\.$")


def test_an_unknown_key_of_the_result_is_refused():
    refused(game(result={"winning_side": 0, "pionts": 2}), r"^The value for `result` must be an "
            r"object with the keys 'winning_side', 'points', 'out_seat', but \"the key 'pionts'\"")


@pytest.mark.parametrize("key, value", [
    ("points", -3), ("points", 2.5), ("points", float("nan")), ("points", "2"), ("points", True),
    ("winning_side", 7), ("winning_side", -2), ("out_seat", 5), ("out_seat", 0.0),
    ("points", 10**9),
])
def test_result_numbers_of_a_hidden_hand_are_checked(key, value):
    data = game(result={key: value})  # as an object: NaN is no JSON text
    refused(data, rf"^The value for `result.{key}` must be null or an integer from ")
    if value == value:  # and as text
        refused(json.dumps(data), rf"^The value for `result.{key}` must be null or an integer ")


@pytest.mark.parametrize("key, value", [
    ("seed", float("nan")), ("seed", float("inf")), ("seed", "7"), ("seed", -1), ("seed", 2**64),
    ("seed", 1.5), ("hand", -1), ("hand", 2**64), ("hand", "3"), ("hand", [1]),
    ("hand", [0, -1]), ("hand", float("inf")),
])
def test_seed_and_hand_are_range_checked(key, value):
    refused(json.dumps(game(**{key: value})),
            rf"^The value for `{key}` must be null|^The value for `text` must be JSON text, but "
            r"it holds (NaN|Infinity)")


def test_to_json_writes_valid_json_or_refuses():
    log = ds.HandLog.from_json(json.dumps(game(seed=2**63 - 1, hand=[3, 4])))
    text = log.to_json()
    assert json.loads(text)["seed"] == 2**63 - 1 and json.loads(text)["hand"] == [3, 4]
    log.seed = float("nan")  # set by hand: to_json must not write NaN, which is not JSON
    with pytest.raises(ValueError):
        log.to_json()


@pytest.mark.parametrize("text, pattern", [
    (json.dumps({**game(), "redeals": None}), r"^The value for `redeals` must be a list of the "
     r"deals redealt"),
    (json.dumps({**game(), "rules": {}}), r"^The value for `rules` must be an object naming a "
     r"preset"),
    (json.dumps({**game(), "rules": {"preset": "block", "plyers": 2}}),
     r"^The value for `rules` must be an object of a preset and fields of dominosim.Rules .*"
     r"the key plyers"),
    ("[" * 100_000 + "]" * 100_000, r"^The value for `text` must be a hand file .* nests too deep"),
    ('{"schema": "dominosim.hand/1", "seed": ' + "9" * 5000 + "}",
     r"^The value for `text` must be a hand file whose numbers have at most 30 digits"),
    ("{not json", r"^The value for `text` must be JSON text"),
    (json.dumps({k: v for k, v in game(result={"points": 2}).items() if k != "moves"}),
     r"^The value for `moves` must be a list of move strings .* but 'nothing' was passed"),
])
def test_files_that_are_not_hand_files_get_one_line_naming_the_field(text, pattern):
    refused(text, pattern)


def test_a_redealt_deal_holding_a_double_is_refused():
    rules = {"preset": "block", "players": 2, "max_pip": 3, "hand_size": 1}
    thrown = {"hands": [["1-1"], ["2-0"]], "boneyard": None}
    data = game(moves=[], hands=(["3-3"], ["2-1"]), rules=rules, redeals=[thrown])
    refused(data, r"^The value for `redeals\[0\]` must be a deal in which no hand holds a double")
    hidden = {"hands": [None, None], "boneyard": ["3-3", "2-2", "1-1", "0-0", "3-2", "3-1",
                                                  "3-0", "1-0"]}
    ds.HandLog.from_json(json.dumps({**data, "redeals": [hidden]}))  # possible: doubles asleep
    nowhere = {"hands": [None, None], "boneyard": None}  # 8 hidden sleeping tiles: room for all
    ds.HandLog.from_json(json.dumps({**data, "redeals": [nowhere]}))
    packed = {"hands": [None, None], "boneyard": ["3-2", "3-1", "3-0", "1-0", "2-1", "2-0", "?",
                                                  "?"]}  # four doubles, two hidden places
    refused({**data, "redeals": [packed]}, r"the boneyard has no room for every double")


def test_an_opening_double_that_cannot_be_the_highest_is_refused():
    rules = {"preset": "block", "players": 4}  # the sleeping tiles known: the 6-6 is in a hand
    data = game(moves=["0: 5-5"], hands=(["5-5"] + ["?"] * 5, None, None, None), rules=rules,
                boneyard=["6-5", "6-4", "6-3", "6-2"])
    refused(data, r"^Move 1 \('0: 5-5'\) is illegal.*cannot be the highest double dealt")
    ds.HandLog.from_json(json.dumps({**data, "moves": ["1: 6-6"]}))
    asleep = {**data, "deal": {"hands": data["deal"]["hands"], "boneyard": None}}
    ds.HandLog.from_json(json.dumps(asleep))  # the 6-6 may sleep: 5-5 may open


def test_a_hidden_seat_that_plays_a_suit_it_knocked_on_is_refused():
    rules = {"preset": "block", "players": 2, "max_pip": 3, "hand_size": 3}
    # seat 1 knocks with only 3s showing: it may play on the 2 later, never a 3
    good = game(moves=["0: 3-3", "1: knock", "0: 3-2 on 3", "1: 2-0 on 2"],
                hands=(["3-3", "3-2", "1-1"], None), rules=rules)
    ds.HandLog.from_json(json.dumps(good))
    bad = game(moves=["0: 3-3", "1: knock", "0: 3-2 on 3", "1: 3-0 on 3"],
               hands=(["3-3", "3-2", "1-1"], None), rules=rules)
    refused(bad, r"^Move 4 \('1: 3-0 on 3'\) is illegal.*knocked with 3 showing")


def test_a_known_seat_that_knocks_holding_a_playable_tile_is_refused():
    known = (["2-2", "1-0", "1-1"], ["2-1", "2-0", "0-0"])
    assert ds.HandLog.from_json(game(hands=known)).record["out_seat"] == 0
    refused(game(moves=KNOCK_HOLDING_2_0, hands=known),
            r"^Move 4 \('1: knock'\) is illegal \(Seat 1 has a legal move and must play it\); "
            r"the legal moves of seat 1 are: 1: 2-0 on 2\.$")
    partly = (["2-2", "1-0", "1-1"], ["2-0", "?", "?"])  # the 2-0 known, the rest not
    refused(game(moves=KNOCK_HOLDING_2_0, hands=partly),
            r"^Move 4 \('1: knock'\) is illegal \(Seat 1 has a legal move and must play it\)")
    refused(game(moves=["2-2", "1: 2-1", "1-1", "1: 0-0 on 1"], hands=known),
            r"^Move 4 \('1: 0-0 on 1'\) is illegal \(the 0-0 on 1 fits no playable end\)")
    refused(game(moves=["2-2", "1: 1-0 on 2"], hands=known),
            r"^Move 2 \('1: 1-0 on 2'\) is illegal \(seat 1 does not hold the 1-0\)")


def test_a_hidden_seat_that_knocks_holding_a_tile_it_must_hold_is_refused():
    # the record this file's FINISHED used to be: each move legal on the tiles known, yet seat 1
    # must hold the 2-0 when it knocks with a 2 open
    refused(game(moves=KNOCK_HOLDING_2_0),
            r"^Move 4 \('1: knock'\) cannot happen: every deal of the hidden tiles that agrees "
            r"with the moves before it leaves seat 1 a tile it could play\.$")
    refused(json.dumps(game(moves=KNOCK_HOLDING_2_0[:4])), r"^Move 4 \('1: knock'\) cannot")


DRAW_3 = {"preset": "draw", "players": 2, "max_pip": 3, "hand_size": 2}


def test_a_hidden_seat_that_plays_a_suit_it_drew_on_is_refused():
    # seat 1 draws with only 3s open (it held no 3), draws the 0-0, then plays a 3 it never drew:
    # the replay forgets what a seat lacked once it draws; the count of deals does not
    bad = game(moves=["3-3", "1: draw", "1: 3-2 on 3"], hands=(["3-3", "1-1"], None),
               boneyard=["0-0"] + ["?"] * 5, rules=DRAW_3)
    refused(bad, r"^Move 3 \('1: 3-2 on 3'\) cannot happen: no deal of the hidden tiles that "
                 r"agrees with the moves before it puts the 3-2 in seat 1's hand\.$")
    good = game(moves=["3-3", "1: draw", "1: draw", "1: 3-2 on 3"], hands=(["3-3", "1-1"], None),
                boneyard=["0-0"] + ["?"] * 5, rules=DRAW_3)  # the second draw may be the 3-2
    assert [e.tile for e in ds.HandLog.from_json(good).events[1:4]] == [(0, 0), HIDDEN, (2, 3)]


def test_a_hidden_seat_that_draws_holding_a_tile_it_could_play_is_refused():
    rules = {"preset": "draw", "players": 2, "max_pip": 2, "hand_size": 2}
    # the sleeping tiles are known, so seat 1 holds 2-1 and 2-0, and cannot draw on the 2-2
    refused(game(moves=["2-2", "1: draw"], hands=(["2-2", "1-1"], None),
                 boneyard=["0-0", "1-0"], rules=rules),
            r"^Move 2 \('1: draw'\) cannot happen: no deal of the hidden tiles that agrees with "
            r"the moves before it leaves seat 1 without a tile it could play, as a draw needs\.$")


def test_a_draw_of_a_tile_a_hidden_seat_must_hold_is_refused():
    rules = {"preset": "draw", "players": 2, "max_pip": 2, "hand_size": 2}
    # seat 1 draws on the 2-2, so it was dealt the two tiles without a 2: 0-0 and 1-0
    moves = ["2-2", "1: draw", "1: 2-0 on 2", "0: draw 0-0"]
    refused(game(moves=moves, hands=(["2-2", "1-1"], None), rules=rules),
            r"^Move 4 \('0: draw 0-0'\) cannot happen: no deal of the hidden tiles that agrees "
            r"with the moves before it leaves the 0-0 asleep for seat 0 to draw\.$")


def test_a_hidden_seat_that_plays_a_tile_another_hidden_seat_must_hold_is_refused():
    rules = {"preset": "block", "players": 3, "max_pip": 2, "hand_size": 2}
    # seats 1 and 2 hold 0-0, 1-0, 2-0, 2-1; seat 1 knocks on the 2-2, so it holds 0-0 and 1-0
    moves = ["2-2", "1: knock", "2: 2-0 on 2", "0: knock", "1: 0-0 on 0"]
    hands = (["2-2", "1-1"], None, None)
    refused(game(moves=moves + ["2: 1-0 on 0"], hands=hands, rules=rules),
            r"^Move 6 \('2: 1-0 on 0'\) cannot happen: no deal of the hidden tiles that agrees "
            r"with the moves before it puts the 1-0 in seat 2's hand\.$")
    assert ds.HandLog.from_json(game(moves=moves + ["2: 2-1 on 2"], hands=hands,
                                     rules=rules)).record["out_seat"] == 2


def test_the_move_parser_is_linear_on_long_whitespace():
    start = time.perf_counter()
    for text in ("0:" + " " * 20_000 + "x", "draw" + " " * 20_000 + "x",
                 " " * 20_000 + "2-2" + " " * 20_000):
        refused(game(moves=[text]), r"^Move 1 must be written")
    assert time.perf_counter() - start < 0.5
    spaced = game(moves=["  2-2  ", " 1 :  2-1  ", "1-1", "1:   2-0  on 2", "0:  1-0   on   1 "])
    assert ds.HandLog.from_json(json.dumps(spaced)).record["out_seat"] == 0
