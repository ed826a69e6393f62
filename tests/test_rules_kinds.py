"""Rules fields accept values of their own kind only, and store plain Python values."""

from __future__ import annotations

import json

import numpy as np
import pytest

import dominosim as ds


@pytest.mark.parametrize(("field", "value"), [
    ("opening_arms", 2.0), ("opening_arms", True), ("opening_arms", 3), ("target", 100.0),
    ("target", np.float64(100)), ("hand_size", False), ("boneyard_keep", "0"),
    ("max_pip", np.bool_(True))])
def test_rules_integer_field_refuses_floats_bools_and_strings(field, value):
    fields = dict(max_pip=6, players=2, hand_size=7, draw="until_playable") | {field: value}
    with pytest.raises(ValueError, match=f"The value for `{field}` must be"):
        ds.Rules(**fields)


def test_rules_numpy_integers_are_stored_as_plain_int_and_serialise():
    rules = ds.Rules.preset("draw", players=np.int64(3), max_pip=np.int32(6),
                            target=np.int64(150), opening_arms=np.int8(2))
    assert all(type(getattr(rules, f)) is int
               for f in ("players", "max_pip", "hand_size", "target", "opening_arms"))
    assert json.loads(json.dumps(rules.to_dict()))["target"] == 150
    assert rules == ds.Rules.preset("draw", players=3, target=150)


@pytest.mark.parametrize("field", ["opening", "draw", "end", "scoring"])
@pytest.mark.parametrize("value", [np.array(["out"]), np.array(["a", "b"] * 40), ["spots"]])
def test_rules_string_field_refuses_arrays_with_its_own_one_line_message(field, value):
    with pytest.raises(ValueError, match=f"The value for `{field}` must be one of") as caught:
        ds.Rules.preset("draw", players=2, **{field: value})
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("value", [True, 16, 0, 6.0])
def test_rules_preset_blames_a_bad_max_pip_on_max_pip(value):
    with pytest.raises(ValueError, match="The value for `max_pip` must be an integer from 1 to 15"):
        ds.Rules.preset("block", players=4, max_pip=value)


def test_rules_numpy_bool_is_stored_as_plain_bool():
    rules = ds.Rules.preset("block", players=4, partnerships=np.bool_(False))
    assert rules.partnerships is False
