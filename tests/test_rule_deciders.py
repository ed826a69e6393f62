"""One decider per rule per engine: every field of ``Rules`` is read by a named function of the
reference engine and of the compiled engine, every code of an enumerated field is matched by name
in both, and a code either engine has no rule for is refused, never played as another.

``DECIDERS`` is the table of ``docs/engine.md`` ("Adding a rule option"): a new field fails
:func:`test_every_rules_field_has_a_decider_in_each_engine` until it is listed, a new code fails
:func:`test_every_code_is_decided_by_name_in_both_engines` until both deciders match it.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect

import numpy as np
import pytest

import dominosim as ds
from dominosim import rules as rules_module
from dominosim.fast.core import params as fp
from dominosim.fast.core import turn as ft
from dominosim.fast.core.status import ERR_RULE, OK
from dominosim.reference import game
from dominosim.rules import Rules

# field -> (reference decider, compiled decider, the Params field it reads); a compiled decider of
# None: the field is no rule of a hand (the compiled engine plays hands, not matches).
DECIDERS = {
    "max_pip": ("dominosim.reference.game.highest_double", "dominosim.fast.hand.kernel.highest_double", "max_pip"),
    "players": ("dominosim.reference.game.next_seat", "dominosim.fast.core.turn.left_of", "players"),
    "hand_size": ("dominosim.reference.hand.deal", "dominosim.fast.hand.kernel.deal", "hand_size"),
    "partnerships": ("dominosim.rules.Rules.side_of", "dominosim.fast.core.turn.side_of", "partnerships"),
    "opening": ("dominosim.reference.game.opens_with_double", "dominosim.fast.core.turn.leads_any", "opening"),
    "leader": ("dominosim.reference.game.GameState.lead", "dominosim.fast.hand.kernel.start_hand", "leader"),
    "draw": ("dominosim.reference.game.may_draw", "dominosim.fast.core.turn.may_draw", "draw"),
    "boneyard_keep": ("dominosim.reference.game.drawable", "dominosim.fast.core.turn.drawable", "keep"),
    "opening_arms": ("dominosim.reference.game.opening_ends", "dominosim.fast.core.turn.set_opening", "arms"),
    "fill_opening_first": ("dominosim.reference.game.playable_ends", "dominosim.fast.core.turn.filling_first", "fill"),
    "doubles_branch": ("dominosim.reference.game.branches", "dominosim.fast.core.turn.branches", "branch"),
    "end": ("dominosim.reference.game.team_out", "dominosim.fast.core.turn.team_out", "end"),
    "scoring": ("dominosim.reference.game.score", "dominosim.fast.core.turn.points", "scoring"),
    "target": ("dominosim.reference.hand.play_match", None, None),
}
# The enumerated fields: their codes in the compiled engine and their deciders, asked of one code.
ENUMERATED = {"opening": rules_module.OPENINGS, "draw": rules_module.DRAWS,
              "end": rules_module.ENDS, "scoring": rules_module.SCORINGS}
BASE = Rules(max_pip=6, players=3, hand_size=5, draw="until_playable")


def _ask_reference(rules: Rules, field: str) -> object:
    """The reference decider of ``field`` asked once under ``rules``."""
    if field == "opening":
        return game.opens_with_double(rules)
    if field == "draw":
        return game.may_draw(rules, 1, False)
    if field == "end":
        return game.team_out(rules)
    return game.score(rules, [3, 5, 8], out_seat=0)


def _ask_compiled(rp, field: str) -> int:
    """The compiled decider of ``field`` asked once under ``rp``."""
    if field == "opening":
        return ft.leads_any(rp)
    if field == "draw":
        return ft.may_draw(rp, 1, False)
    if field == "end":
        return ft.team_out(rp)
    return ft.points(rp, np.array([3, 5, 8], dtype=np.int64), 0, 0)


def _with(rules: Rules, field: str, value: str) -> Rules:
    """``rules`` with ``field`` set to ``value`` without validation (a code no engine knows)."""
    changed = dataclasses.replace(rules)
    object.__setattr__(changed, field, value)
    return changed


def _undecided() -> list[tuple[str, str, str]]:
    """``(engine, field, code)`` for every code of an enumerated field that an engine's decider
    does not decide."""
    missing = []
    for field, codes in ENUMERATED.items():
        for code in codes:
            rules = _with(BASE, field, code)
            try:
                _ask_reference(rules, field)
            except ValueError:
                missing.append(("reference", field, code))
            table = fp.CODES[field]
            if code not in table:
                missing.append(("compiled", field, code))
                continue
            rp = fp.rule_params(BASE)._replace(**{field: np.int64(table[code])})
            if _ask_compiled(rp, field) == ft.UNDECIDED or \
                    ft.rule_status(rp, np.zeros(3, np.int64)) != OK:
                missing.append(("compiled", field, code))
    return missing


def _resolve(path: str):
    module, _, name = path.rpartition(".")
    try:
        return getattr(importlib.import_module(module), name)
    except ModuleNotFoundError:  # a method: the class is the last module part
        module, _, cls = module.rpartition(".")
        return getattr(getattr(importlib.import_module(module), cls), name)


def _source(function) -> str:
    return inspect.getsource(getattr(function, "py_func", function))


def test_every_rules_field_has_a_decider_in_each_engine():
    assert {f.name for f in dataclasses.fields(Rules)} == set(DECIDERS)
    derived = {"tiles", "sides"}  # read from max_pip, players and partnerships
    assert {p for _, _, p in DECIDERS.values() if p} | derived == set(fp.Params._fields)


@pytest.mark.parametrize("field", sorted(DECIDERS))
def test_each_decider_reads_its_field(field):
    reference, compiled, param = DECIDERS[field]
    assert field in _source(_resolve(reference))
    if compiled is not None:
        assert f"rp.{param}" in _source(_resolve(compiled))


def test_every_code_is_decided_by_name_in_both_engines():
    for field, codes in ENUMERATED.items():
        assert set(fp.CODES[field]) == set(codes), field
    assert _undecided() == []


@pytest.mark.parametrize("field", sorted(ENUMERATED))
def test_an_unknown_code_is_refused_by_both_engines(field):
    with pytest.raises(ValueError, match=f"The value for `{field}` must be one of .*'third'"):
        _ask_reference(_with(BASE, field, "third"), field)
    rp = fp.rule_params(BASE)._replace(**{field: np.int64(max(fp.CODES[field].values()) + 1)})
    assert _ask_compiled(rp, field) == ft.UNDECIDED
    assert ft.rule_status(rp, np.zeros(3, np.int64)) == ERR_RULE


def test_a_new_code_without_deciders_fails_the_check(monkeypatch):
    """A third draw mode added to the rules and the compiled codes, but to no decider: the check
    above names it in both engines, and the compiled engine stops a hand of it with a sentence."""
    monkeypatch.setattr(rules_module, "DRAWS", (*rules_module.DRAWS, "third"))
    monkeypatch.setitem(fp.DRAW_CODES, "third", 3)
    monkeypatch.setitem(ENUMERATED, "draw", rules_module.DRAWS)
    assert _undecided() == [("reference", "draw", "third"), ("compiled", "draw", "third")]
    third = Rules(max_pip=6, players=2, hand_size=7, draw="third")  # valid now
    with pytest.raises(ValueError, match="no rule for a code of these rules .*draw='third'"):
        ds.replay(third, "random", seed=1, hand=0, engine="fast")


def _hands(rules: Rules, engine: str, n: int = 8) -> list:
    logs = [ds.replay(rules, "random", seed=11, hand=h, engine=engine) for h in range(n)]
    return [(log.events, log.record) for log in logs]


# Each field changed alone: both engines play the same hands, and other hands than before.
VARIANTS = {
    "max_pip": (Rules(max_pip=6, players=2, hand_size=7), {"max_pip": 5}),
    "players": (Rules(max_pip=6, players=2, hand_size=7), {"players": 3}),
    "hand_size": (Rules(max_pip=6, players=2, hand_size=7), {"hand_size": 5}),
    "partnerships": (Rules(max_pip=6, players=4, hand_size=7), {"partnerships": True}),
    "opening": (Rules(max_pip=6, players=2, hand_size=7), {"opening": "any"}),
    "leader": (Rules(max_pip=6, players=2, hand_size=7, opening="any"), {"leader": 1}),
    "draw": (Rules(max_pip=6, players=2, hand_size=7), {"draw": "until_playable"}),
    "draw_one": (Rules(max_pip=6, players=2, hand_size=7, draw="until_playable"),
                 {"draw": "one"}),
    "boneyard_keep": (Rules(max_pip=6, players=4, hand_size=6, draw="until_playable"),
                      {"boneyard_keep": 2}),
    "opening_arms": (Rules(max_pip=6, players=2, hand_size=7), {"opening_arms": 4}),
    "fill_opening_first": (Rules(max_pip=6, players=2, hand_size=7, opening_arms=4),
                           {"fill_opening_first": True}),
    "doubles_branch": (Rules(max_pip=6, players=2, hand_size=7), {"doubles_branch": True}),
    "end": (Rules(max_pip=6, players=4, hand_size=5, partnerships=True, draw="until_playable"),
            {"end": "team_out"}),
    "scoring": (Rules(max_pip=6, players=3, hand_size=5), {"scoring": "balance"}),
    "scoring_game": (Rules(max_pip=6, players=3, hand_size=5), {"scoring": "game"}),
}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_each_field_changes_the_hands_of_both_engines_alike(name):
    base, change = VARIANTS[name]
    changed = base.replace(**change)
    reference = _hands(changed, "reference")
    assert reference != _hands(base, "reference")
    assert _hands(changed, "fast") == reference


def test_the_match_target_is_no_rule_of_a_hand():
    base = Rules(max_pip=6, players=2, hand_size=7)
    longer = base.replace(target=150)
    for engine in ("reference", "fast"):
        assert _hands(longer, engine, 3) == _hands(base, engine, 3)
