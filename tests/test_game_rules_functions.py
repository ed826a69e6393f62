"""The reference engine's rule functions, one per rule (dominosim.reference.game), on docs/rules.md's worked
examples, and the shared helpers that every other module asks instead of deciding again:
sides and partners (dominosim.sides, Rules), the statistics (dominosim.stats) and the stream
domains (dominosim.rng)."""

from __future__ import annotations

import copy
import random

import numpy as np
import pandas as pd
import pytest

import dominosim as ds
from dominosim import rng, sides
from dominosim.analysis.common import Facts, opener_side, side_scores
from dominosim.reference.game import (
    End,
    GameState,
    IllegalMoveError,
    Move,
    end_for,
    ends_after,
    ends_by_out,
    highest_double,
    is_blocked,
    is_stitch_up,
    layout_after,
    layouts_before,
    legal_moves,
    next_seat,
    opening_ends,
    playable_ends,
    playable_suits,
)
from dominosim.reference.hand import play_hand
from dominosim.stats import Z95, pips_by_side, side_shares, z_value
from dominosim.strategies import view_of

CROSS = ds.Rules.preset("cross", players=3)
BRANCHING = ds.Rules.preset("ivory", players=3)
BLOCK = ds.Rules.preset("block", players=2)


def suits(ends):
    return [e.suit for e in ends]


# ------------------------------------------------------------------ worked example 1: cross
def test_cross_fill_first_opening_leaves_four_empty_arms():
    ends = opening_ends(CROSS, (5, 5))
    assert ends == [End(5, True)] * 4
    assert list(playable_ends(CROSS, ends)) == [0, 1, 2, 3]


def test_cross_fill_first_worked_example_1_moves_and_ends():
    ends = opening_ends(CROSS, (5, 5))
    assert legal_moves(CROSS, [(2, 5), (6, 6), (3, 4)], ends) == [Move((2, 5), 5)]
    ends, index = ends_after(CROSS, ends, Move((2, 5), 5))
    assert (suits(ends), index) == ([2, 5, 5, 5], 0)
    assert [e.empty_arm for e in ends] == [False, True, True, True]
    # (2-6, 2) is not legal while arms are empty; (5-1, 5) is
    assert legal_moves(CROSS, [(2, 6), (1, 5)], ends) == [Move((1, 5), 5)]
    assert playable_suits(CROSS, ends) == {5}
    with pytest.raises(IllegalMoveError):
        ends_after(CROSS, ends, Move((2, 6), 2))
    ends, index = ends_after(CROSS, ends, Move((1, 5), 5))
    assert (suits(ends), index) == ([2, 1, 5, 5], 1)


def test_cross_fill_first_all_arms_filled_every_end_playable():
    ends = opening_ends(CROSS, (5, 5))
    for tile in [(2, 5), (1, 5), (0, 5), (4, 5)]:
        ends, _ = ends_after(CROSS, ends, Move(tile, 5))
    assert suits(ends) == [2, 1, 0, 4]
    assert list(playable_ends(CROSS, ends)) == [0, 1, 2, 3]
    assert end_for(CROSS, ends, 0) == 2


def test_fill_first_two_arms_filled_end_waits_for_the_other_arm():
    rules = ds.Rules.preset("draw", players=2, fill_opening_first=True)
    ends, _ = ends_after(rules, opening_ends(rules, (3, 3)), Move((2, 3), 3))
    assert end_for(rules, ends, 2) == -1
    assert end_for(rules, ends, 3) == 1


# ------------------------------------------------------------------ worked example 2: branching
def test_branching_double_worked_example_2_three_ends_one_move():
    ends = opening_ends(BRANCHING, (6, 6))
    assert suits(ends) == [6, 6]  # the opening double does not branch
    ends, _ = ends_after(BRANCHING, ends, Move((3, 6), 6))
    assert suits(ends) == [3, 6]
    ends, index = ends_after(BRANCHING, ends, Move((3, 3), 3))
    assert (suits(ends), index) == ([3, 6, 3, 3], 0)
    assert legal_moves(BRANCHING, [(1, 3)], ends) == [Move((1, 3), 3)]
    ends, index = ends_after(BRANCHING, ends, Move((1, 3), 3))
    assert (suits(ends), index) == ([1, 6, 3, 3], 0)  # the first end showing 3


def test_double_without_branching_keeps_one_end():
    rules = ds.Rules.preset("draw", players=2)
    ends, _ = ends_after(rules, [End(3), End(6)], Move((3, 3), 3))
    assert suits(ends) == [3, 6]


# ------------------------------------------------------------------ worked example 3: stitch-ups
def test_stitch_ups_worked_example_3():
    ends = opening_ends(BLOCK, (4, 4))
    seen = []
    for move in [Move((2, 4), 4), Move((4, 6), 4), Move((2, 6), 6), Move((2, 2), 2)]:
        ends, _ = ends_after(BLOCK, ends, move)
        seen.append((suits(ends), is_stitch_up(suits(ends))))
    assert seen == [([2, 4], False), ([2, 6], False), ([2, 2], True), ([2, 2], True)]


def test_stitch_up_needs_two_ends_of_one_suit():
    assert not is_stitch_up([])
    assert not is_stitch_up([3])
    assert is_stitch_up([1, 1, 1, 1])
    assert not is_stitch_up([1, 1, 1, 2])


def test_ends_after_refuses_a_tile_without_the_suit():
    with pytest.raises(IllegalMoveError):
        ends_after(BLOCK, [End(4), End(4)], Move((2, 3), 4))


# ------------------------------------------------------------------ one rule, every caller
def _random_hand(seed, rules, strategies="random"):
    return play_hand(rules, strategies, seed=seed, hand=0)


RULE_SETS = [ds.Rules.preset("cross", players=3), ds.Rules.preset("double_nine_cross", players=4),
             ds.Rules.preset("ivory", players=3), ds.Rules.preset("block", players=4),
             ds.Rules.preset("draw", players=2, opening="any", draw="one"),
             ds.Rules.preset("draw", players=4, fill_opening_first=True, doubles_branch=True)]


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"{r.players}p-{r.draw}-{r.opening_arms}")
def test_layouts_before_rebuilds_every_play_of_a_hand(rules):
    for seed in range(15):
        events = _random_hand(seed, rules).events
        for event, ends in layouts_before(rules, events):
            if event.kind != "play":
                continue
            after = layout_after(rules, ends, event)
            assert tuple(suits(after)) == event.ends
            if ends:
                assert end_for(rules, ends, event.suit) == event.end_index


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"{r.players}p-{r.draw}-{r.opening_arms}")
def test_seat_view_ends_after_agrees_with_the_game_state_play(rules):
    rnd = random.Random(rules.players)
    checked = 0
    for seed in range(10):
        deals = _random_hand(seed, rules).deals
        hands, boneyard = deals[-1]
        state = GameState.from_deal(rules, [list(h) for h in hands], list(boneyard))
        if rules.opening == "any":
            state.lead(state.legal_moves(rules.leader)[0])
        else:
            state.open_with_highest_double()
        while not state.over:
            seat = state.to_move
            while state.must_draw(seat):
                state.draw(seat)
            moves = state.legal_moves(seat)
            if not moves:
                state.knock(seat)
                continue
            view = view_of(state, seat)
            for move in moves:
                trial = copy.deepcopy(state)
                trial.play(seat, move)
                assert view.ends_after(move) == trial.ends_suits()
                checked += 1
            state.play(seat, moves[rnd.randrange(len(moves))])
    assert checked > 50


# ------------------------------------------------------------------ opening, turns, the end
def test_highest_double_finds_the_holder_or_none():
    assert highest_double([[(0, 0), (1, 2)], [(1, 1)], [(2, 3)]], max_pip=3) == (1, (1, 1))
    assert highest_double([[(0, 1)], [(1, 2)]], max_pip=3) is None


def test_next_seat_passes_left_and_skips_seats_out_only_under_team_out():
    hands = [[(0, 1)], [], [(2, 2)], [(1, 3)]]
    solo = ds.Rules.preset("block", players=4, partnerships=True)
    team = solo.replace(end="team_out")
    assert next_seat(solo, hands, 0) == 1
    assert next_seat(team, hands, 0) == 2
    assert next_seat(team, hands, 3) == 0


def test_ends_by_out_needs_both_partners_under_team_out():
    out = ds.Rules.preset("block", players=4)
    team = out.replace(end="team_out")
    hands = [[], [(1, 1)], [(2, 2)], [(3, 3)]]
    assert ends_by_out(out, hands, 0)
    assert not ends_by_out(team, hands, 0)
    assert ends_by_out(team, [[], [(1, 1)], [], [(3, 3)]], 2)
    assert not ends_by_out(out, hands, 1)


def test_is_blocked_only_when_every_holder_knocked_and_nothing_can_be_drawn():
    assert is_blocked({0, 1}, {0, 1}, drawable=0)
    assert not is_blocked({0, 1}, {0, 1}, drawable=1)
    assert not is_blocked({0, 1, 2}, {0, 1}, drawable=0)
    assert is_blocked({1}, {0, 1}, drawable=0)


def _stuck_state(rules, boneyard):
    state = GameState.from_deal(rules, [[(3, 3), (0, 0)], [(1, 1), (0, 2)]], boneyard)
    state.open_with_highest_double()
    return state


def test_must_draw_until_playable_draws_until_a_move_then_stops():
    rules = ds.Rules(max_pip=3, players=2, hand_size=2, draw="until_playable")
    state = _stuck_state(rules, [(0, 1), (1, 2), (2, 3), (1, 3), (0, 3), (2, 2)])
    drawn = []
    while state.must_draw(1):
        drawn.append(state.draw(1))
    assert drawn == [(0, 1), (1, 2), (2, 3)]
    assert state.legal_moves(1) == [Move((2, 3), 3)]


def test_must_draw_one_draws_once_then_knocks():
    rules = ds.Rules(max_pip=3, players=2, hand_size=2, draw="one")
    state = _stuck_state(rules, [(0, 1), (1, 2), (2, 3), (1, 3), (0, 3), (2, 2)])
    assert state.must_draw(1)
    state.draw(1)
    assert not state.must_draw(1)
    state.knock(1)
    assert [e.kind for e in state.events] == ["play", "draw", "knock"]


def test_must_draw_never_in_block_nor_with_a_move():
    rules = ds.Rules(max_pip=3, players=2, hand_size=2)
    state = _stuck_state(rules, [(0, 1), (1, 2), (2, 3), (1, 3), (0, 3), (2, 2)])
    assert not state.must_draw(1)
    draw = ds.Rules(max_pip=3, players=2, hand_size=2, draw="until_playable")
    state = GameState.from_deal(draw, [[(3, 3)], [(1, 3)]], [(0, 1)])
    state.open_with_highest_double()
    assert not state.must_draw(1)


def test_must_draw_respects_boneyard_keep():
    rules = ds.Rules(max_pip=3, players=2, hand_size=2, draw="until_playable", boneyard_keep=5)
    state = _stuck_state(rules, [(0, 1), (1, 2), (2, 3), (1, 3), (0, 3), (2, 2)])
    assert state.must_draw(1)
    state.draw(1)
    assert not state.must_draw(1)


# ------------------------------------------------------------------ sides and partners
@pytest.mark.parametrize("players,partnerships", [(2, False), (3, False), (4, True), (4, False),
                                                  (6, True), (10, True)])
def test_sides_one_definition_for_rules_and_analysis(players, partnerships):
    rules = ds.Rules(max_pip=9, players=players, hand_size=2, partnerships=partnerships)
    facts = Facts(players, partnerships)
    assert rules.n_sides == facts.n_sides == sides.n_sides(players, partnerships)
    for seat in range(players):
        side = rules.side_of(seat)
        assert side == facts.side_of(seat)
        assert seat in rules.seats_of(side)
        assert rules.seats_of(side) == facts.seats_of(side)
        partner = rules.partner_of(seat)
        if partnerships:
            assert rules.side_of(partner) == side and partner != seat
            assert rules.partner_of(partner) == seat
        else:
            assert partner is None
        assert all(rules.side_of(s) != side for s in rules.opponents_of(seat))
        assert sides.relative_side(players, partnerships, side, seat) == 0
        assert sides.relative_side(players, partnerships, rules.side_of((seat + 1) % players),
                                   seat) == 1 % rules.n_sides
        assert len(rules.opponents_of(seat)) == players - len(rules.seats_of(side))
    seats = np.arange(players)
    assert rules.side_of(seats).tolist() == [rules.side_of(s) for s in range(players)]


def test_opener_side_of_records_uses_the_rules_sides():
    rows = pd.DataFrame({"opener": [0, 1, 2, 3, 5]})
    assert opener_side(rows, Facts(6, True)).tolist() == [0, 1, 2, 0, 2]
    assert opener_side(rows, Facts(6, False)).tolist() == [0, 1, 2, 3, 5]


# ------------------------------------------------------------------ statistics
def test_z_value_is_the_normal_quantile():
    assert z_value(0.95) == pytest.approx(1.959963984540054, abs=1e-15)
    assert Z95 == z_value(0.95)
    assert z_value(0.99) == pytest.approx(2.5758293035489, abs=1e-12)


def test_side_shares_split_a_tie_among_the_fewest_pips():
    rows = pd.DataFrame({"winning_side": [0, -1, -1, 2], "pips_0": [1, 4, 3, 0],
                         "pips_1": [5, 4, 3, 0], "pips_2": [9, 9, 3, 0]})
    shares = side_shares(rows, 3, False)
    assert shares.tolist() == [[1, 0, 0], [0.5, 0.5, 0], [1 / 3, 1 / 3, 1 / 3], [0, 0, 1]]
    assert np.allclose(shares.sum(axis=1), 1)


def test_side_shares_without_ties_need_no_pips():
    rows = pd.DataFrame({"winning_side": [1, 0, 1]})
    assert side_shares(rows, 4, True).tolist() == [[0, 1], [1, 0], [0, 1]]


def test_side_scores_of_records_count_partners_pips_together():
    rows = pd.DataFrame({"winning_side": [-1, 1], "pips_0": [3, 0], "pips_1": [2, 1],
                         "pips_2": [4, 9], "pips_3": [5, 2]})
    assert pips_by_side(rows, 4, True).tolist() == [[7, 7], [9, 3]]
    assert side_scores(rows, Facts(4, True)).tolist() == [[0.5, 0.5], [0, 1]]


# ------------------------------------------------------------------ random-stream domains
def test_stream_domains_distinct_and_unchanged():
    assert len(set(rng.DOMAINS.values())) == len(rng.DOMAINS)
    # changing a domain key changes every result drawn from it: these values are the streams
    assert rng.DOMAINS == {"hand": 0x6A09E667F3BCC909, "match": 0xBB67AE8584CAA73B,
                           "duplicate_bootstrap": 0x3C6EF372FE94F82B,
                           "match_bootstrap": 0x510E527FADE682D1, "replay": 0x3C6EF372FE94F82C}


def test_below_many_equals_the_stream_drawn_one_at_a_time():
    for key, n in [(0, 1), (12345, 97), (rng.MASK64, 2), (rng.hand_key(3, 4), 1000)]:
        stream = rng.Stream(key)
        assert rng.below_many(key, 40, n).tolist() == [stream.below(n) for _ in range(40)]


def test_replay_key_differs_from_the_hand_key_and_between_replays():
    key = rng.hand_key(7, 0)
    keys = {key} | {rng.replay_key(key, p) for p in range(1, 6)}
    assert len(keys) == 6
