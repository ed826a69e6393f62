"""Rules: presets as the table gives them, and every refusal as one sentence naming the field."""

from __future__ import annotations

import pytest

from dominosim import Rules

PRESET_TABLE = [
    ("block", 6, {2: 8, 3: 6, 4: 6, 5: 5}),
    ("block", 9, {4: 9}),
    ("block", 12, {4: 12}),
    ("draw", 6, {2: 7, 3: 5, 4: 4, 5: 3}),
    ("cross", 6, {2: 7, 3: 5, 4: 4, 5: 3}),
    ("double_nine_cross", 9, {2: 7, 3: 7, **{p: 5 for p in range(4, 11)}}),
    ("double_nine_cross", 12, {2: 7, 3: 7, **{p: 5 for p in range(4, 11)}}),
    ("ivory", 6, {2: 5, 3: 5, 4: 5, 5: 5}),
]


@pytest.mark.parametrize(("name", "max_pip", "sizes"), PRESET_TABLE)
def test_preset_hand_sizes_match_the_table(name, max_pip, sizes):
    for players, hand_size in sizes.items():
        rules = Rules.preset(name, players=players, max_pip=max_pip)
        assert rules.hand_size == hand_size
        assert rules.max_pip == max_pip


def test_preset_fields_match_the_table():
    block = Rules.preset("block", players=4)
    assert (block.partnerships, block.draw, block.opening_arms, block.fill_opening_first,
            block.doubles_branch, block.scoring, block.target) == (
        True, "none", 2, False, False, "spots", 100)
    assert not Rules.preset("block", players=3).partnerships
    draw = Rules.preset("draw", players=4)
    assert (draw.partnerships, draw.draw, draw.opening_arms) == (False, "until_playable", 2)
    cross = Rules.preset("cross", players=3)
    assert (cross.opening_arms, cross.fill_opening_first, cross.doubles_branch) == (4, True, False)
    d9 = Rules.preset("double_nine_cross", players=4)
    assert (d9.max_pip, d9.opening_arms, d9.fill_opening_first, d9.doubles_branch) == (
        9, 4, True, True)
    ivory = Rules.preset("ivory", players=3)
    assert (ivory.draw, ivory.opening_arms, ivory.doubles_branch, ivory.scoring, ivory.target) == (
        "until_playable", 2, True, "balance", 100)


def test_preset_overrides_win_field_by_field():
    latin = Rules.preset("block", players=4, hand_size=7)
    assert latin.hand_size * latin.players == latin.n_tiles and latin.partnerships
    assert not Rules.preset("block", players=4, partnerships=False).partnerships
    assert Rules.preset("draw", players=4, partnerships=True).partnerships
    small = Rules.preset("block", players=2, max_pip=3, hand_size=3)
    assert (small.n_tiles, small.boneyard_size) == (10, 4)


@pytest.mark.parametrize(("name", "players", "max_pip"), [
    ("block", 3, 9), ("block", 2, 12), ("draw", 6, 6), ("block", 4, 3), ("ivory", 6, 6),
    ("double_nine_cross", 2, 6),
])
def test_preset_without_table_size_asks_for_hand_size(name, players, max_pip):
    with pytest.raises(ValueError, match=r"`hand_size` must be given .*pass hand_size="):
        Rules.preset(name, players=players, max_pip=max_pip)


def test_preset_unknown_name_is_refused():
    with pytest.raises(ValueError, match=r"`name` must be one of .*'block'.* but 'blok' was passed"):
        Rules.preset("blok", players=2)


def test_preset_unknown_field_is_refused():
    with pytest.raises(ValueError, match=r"unknown field\(s\) \['hands'\]"):
        Rules.preset("block", players=2, hands=3)


def test_constructor_unknown_field_is_refused_naming_every_field():
    with pytest.raises(ValueError, match=r"^Rules got unknown field\(s\) \['scorring'\]; the "
                                         r"fields are max_pip, players, hand_size, .*, scoring, "
                                         r"target\.$"):
        Rules(max_pip=6, players=2, hand_size=7, scorring="spots")
    assert Rules(**Rules.preset("draw", players=2).to_dict()) == Rules.preset("draw", players=2)


BASE = dict(max_pip=6, players=4, hand_size=5)

REFUSALS = [
    (dict(max_pip=0), "max_pip", "1 to 15"),
    (dict(max_pip=16), "max_pip", "1 to 15"),
    (dict(max_pip=6.0), "max_pip", "1 to 15"),
    (dict(players=1), "players", "2 to 10"),
    (dict(players=11), "players", "2 to 10"),
    (dict(hand_size=0), "hand_size", "from 1 to 7"),
    (dict(hand_size=8), "hand_size", "from 1 to 7"),
    (dict(players=2, partnerships=True), "partnerships", "4, 6, 8 or 10"),
    (dict(players=5, partnerships=True), "partnerships", "4, 6, 8 or 10"),
    (dict(partnerships=1), "partnerships", "True or False"),
    (dict(opening="first"), "opening", "'highest_double', 'any'"),
    (dict(leader=1), "leader", "None with opening='highest_double'"),
    (dict(opening="any", leader=4), "leader", "a seat from 0 to 3"),
    (dict(opening="any", opening_arms=4), "opening_arms", "cross needs a double"),
    (dict(opening="any", fill_opening_first=True), "fill_opening_first", "cross needs a double"),
    (dict(draw="some"), "draw", "'none', 'until_playable', 'one'"),
    (dict(boneyard_keep=1), "boneyard_keep", "0 with draw='none'"),
    (dict(draw="one", boneyard_keep=9), "boneyard_keep", "from 0 to the boneyard size, 8"),
    (dict(draw="one", boneyard_keep=-1), "boneyard_keep", "from 0 to the boneyard size"),
    (dict(opening_arms=3), "opening_arms", "2 or 4"),
    (dict(end="all_out"), "end", "'out', 'team_out'"),
    (dict(end="team_out"), "end", "needs partnerships"),
    (dict(scoring="sptos"), "scoring", "'game', 'spots', 'balance'"),
    (dict(partnerships=True, scoring="balance"), "scoring", "individual play"),
    (dict(target=0), "target", "1 or more"),
]


@pytest.mark.parametrize(("change", "field", "allowed"), REFUSALS)
def test_rules_invalid_value_names_field_allowed_and_value(change, field, allowed):
    with pytest.raises(ValueError) as info:
        Rules(**{**BASE, **change})
    message = str(info.value)
    assert f"`{field}`" in message
    assert allowed in message
    assert repr(change.get(field, change[next(iter(change))])) in message or "was passed" in message
    assert "\n" not in message


def test_rules_valid_edge_values_are_accepted():
    assert Rules(max_pip=1, players=2, hand_size=1).n_tiles == 3
    assert Rules(max_pip=15, players=10, hand_size=13).boneyard_size == 6
    assert Rules(**BASE, draw="until_playable", boneyard_keep=8).boneyard_keep == 8
    assert Rules(**BASE, opening="any").leader == 0
    assert Rules(**BASE, partnerships=True, end="team_out").end == "team_out"


def test_rules_are_frozen_and_replace_validates():
    rules = Rules(**BASE)
    with pytest.raises(AttributeError):
        rules.players = 3  # type: ignore[misc]
    with pytest.raises(ValueError, match="`players`"):
        rules.replace(players=12)


def test_rules_sides_and_partners():
    rules = Rules(**BASE, partnerships=True)
    assert rules.n_sides == 2
    assert [rules.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert rules.seats_of(1) == (1, 3)
    solo = Rules(**BASE)
    assert solo.n_sides == 4 and solo.seats_of(2) == (2,)
