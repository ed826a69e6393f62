"""The PettingZoo environment (dominosim.pettingzoo): PettingZoo's own API and seed tests on every
preset and on random rule sets, observations that hide what they must, episodes equal to the
reference engine's hands and matches, and both render modes."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from pettingzoo.test import api_test, seed_test
from rule_space import valid_rules

import dominosim as ds
from dominosim import pettingzoo
from dominosim.reference.table import encode, knock_action
from dominosim.rng import Stream, hand_key, match_hand_key, seat_stream, stream_key
from dominosim.strategies.lineup import resolve_lineup
from dominosim.strategies.view import view_of
from dominosim.tiles import tile_id

PRESET_GAMES = [(name, p) for name in ds.PRESETS for p in (2, 3, 4)]
# PettingZoo's api_test advises a Box observation; an action-masked environment's is a Dict.
API_WARNINGS = [
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
]


@pytest.mark.filterwarnings(*API_WARNINGS)
@pytest.mark.parametrize(("preset", "players"), PRESET_GAMES)
def test_api_and_seed_tests_pass_on_every_preset(preset, players):
    rules = ds.Rules.preset(preset, players=players)
    api_test(pettingzoo.env(rules), num_cycles=200)
    seed_test(lambda: pettingzoo.env(rules), num_cycles=200)


@pytest.mark.filterwarnings(*API_WARNINGS)
@settings(max_examples=50, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(valid_rules())
def test_api_and_seed_tests_pass_on_random_rule_sets(rules):
    # one tile each under a highest-double opening: no seat ever acts (refused, tested below)
    assume(rules.hand_size > 1 or rules.opening == "any")
    api_test(pettingzoo.env(rules), num_cycles=100)
    seed_test(lambda: pettingzoo.env(rules, observation="information_state"), num_cycles=100)


@pytest.mark.filterwarnings(*API_WARNINGS)
def test_api_test_passes_for_a_match():
    api_test(pettingzoo.env(ds.Rules.preset("block", players=4), target=30), num_cycles=500)


# ------------------------------------------------------------------- the reference engine's hands
def _play(e, rules, lineup, keys):
    """Play ``e`` to the end with ``lineup`` choosing as in the reference engine (a single move
    without asking; each seat's stream keyed as the hand ``keys[k]``); the unwrapped env."""
    strategies = resolve_lineup(rules, lineup)
    raw, hand, rngs = e.unwrapped, -1, None
    for agent in e.agent_iter():
        _, _, termination, _, _ = e.last()
        if termination:
            e.step(None)
            continue
        if rngs is None or raw._hand != hand:
            hand = raw._hand
            rngs = [Stream(stream_key(keys(hand), seat_stream(s))) for s in range(rules.players)]
        seat = int(agent.split("_")[1])
        moves = raw.table.state.legal_moves(seat)
        if not moves:
            e.step(knock_action(rules))
        elif len(moves) == 1:
            e.step(encode(moves[0]))
        else:
            view = view_of(raw.table.state, seat)
            e.step(encode(strategies[seat].choose(view, moves, rngs[seat])))
    return raw


@pytest.mark.parametrize(("preset", "players"), PRESET_GAMES)
def test_an_episode_is_the_reference_engines_hand(preset, players):
    rules = ds.Rules.preset(preset, players=players)
    lineup = ["random", "bully", "counter", "random"][:players]
    e = pettingzoo.env(rules)
    for hand in range(3):
        if hand == 0:
            e.reset(seed=21)
        else:
            e.reset()
        raw = _play(e, rules, lineup, lambda _, h=hand: hand_key(21, h))
        log = ds.replay(rules, lineup, seed=21, hand=hand)
        assert raw.table.state.events == log.events
        assert sum(raw.totals.values()) == pytest.approx(0.0)
        won, points = log.record["winning_side"], log.record["points"]
        for s in range(players):
            if rules.side_of(s) == won:
                assert raw.totals[f"seat_{s}"] == points


def test_a_match_episode_is_the_reference_engines_match():
    rules = ds.Rules.preset("draw", players=3, target=40)
    lineup = ["random", "bully", "random"]
    e = pettingzoo.env(rules, target=40)
    e.reset(seed=3)
    raw = _play(e, rules, lineup, lambda k: match_hand_key(3, 0, k))
    match = ds.play_match(rules, lineup, seed=3, match=0)
    assert raw.scores == match.scores
    assert raw._hand + 1 == len(match.hands)
    assert raw.totals == {f"seat_{s}": 1.0 if s == match.winning_side else -0.5
                          for s in range(3)}


# ------------------------------------------------------------------- the views hide the rest
@pytest.mark.parametrize("kind", pettingzoo.OBSERVATIONS)
@pytest.mark.parametrize(("preset", "players"), [("draw", 3), ("block", 4), ("cross", 2)])
def test_observation_does_not_change_when_a_hidden_tile_does(preset, players, kind):
    rules = ds.Rules.preset(preset, players=players)
    e = pettingzoo.env(rules, observation=kind)
    e.reset(seed=5)
    raw, rng, checked, owner_saw = e.unwrapped, np.random.default_rng(0), 0, 0
    for _agent in e.agent_iter():
        obs, _, termination, _, _ = e.last()
        if termination:
            e.step(None)
            continue
        state = raw.table.state
        for seat in range(players):
            others = [s for s in range(players) if s != seat and state.hands[s]]
            if not others or not state.boneyard:
                continue
            owner = others[rng.integers(len(others))]
            before = [raw.observe(f"seat_{s}")["observation"] for s in (seat, owner)]
            i, j = rng.integers(len(state.hands[owner])), rng.integers(len(state.boneyard))
            state.hands[owner][i], state.boneyard[j] = state.boneyard[j], state.hands[owner][i]
            after = [raw.observe(f"seat_{s}")["observation"] for s in (seat, owner)]
            state.hands[owner][i], state.boneyard[j] = state.boneyard[j], state.hands[owner][i]
            assert np.array_equal(before[0], after[0])
            owner_saw += kind == "observation" and not np.array_equal(before[1], after[1])
            checked += 1
        mask = obs["action_mask"]
        e.step(int(mask.nonzero()[0][rng.integers(mask.sum())]))
    assert checked > 5
    assert owner_saw > 0 or kind == "information_state"


def test_illegal_action_is_refused_with_the_legal_ones():
    e = pettingzoo.env(ds.Rules.preset("block", players=2, max_pip=2, hand_size=2))
    e.reset(seed=0)
    legal = e.unwrapped.table.legal_actions()
    wrong = next(a for a in range(e.action_space("seat_0").n) if a not in legal)
    with pytest.raises(ValueError, match="The value for `action` must be one of the legal"):
        e.step(wrong)
    assert e.unwrapped.table.legal_actions() == legal  # nothing was played


# ------------------------------------------------------------------- rendering
def test_render_ansi_is_the_text_board():
    e = pettingzoo.env(ds.Rules.preset("draw", players=2), render_mode="ansi")
    e.reset(seed=2)
    text = e.render()
    state = e.unwrapped.table.state
    assert "seat 0" in text and "seat 1" in text
    assert " ".join(f"{b}-{a}" for a, b in state.hands[0]) in text


def test_render_rgb_array_is_the_position_picture():
    e = pettingzoo.env(ds.Rules.preset("cross", players=4), render_mode="rgb_array")
    e.reset(seed=2)
    picture = e.render()
    assert picture.dtype == np.uint8 and picture.shape[2] == 3
    assert len(np.unique(picture.reshape(-1, 3), axis=0)) > 10


def test_env_refuses_bad_arguments():
    rules = ds.Rules.preset("draw")
    with pytest.raises(ValueError, match="The value for `render_mode` must be None, 'ansi'"):
        pettingzoo.env(rules, render_mode="human")
    with pytest.raises(ValueError, match="The value for `target` must be None or a positive"):
        pettingzoo.env(rules, target=0)
    with pytest.raises(ValueError, match="The value for `hand_size` must be 2 or more"):
        pettingzoo.env(ds.Rules.preset("draw", hand_size=1))
    assert tile_id((0, 1)) == 1  # the action numbering shares the tile ids
