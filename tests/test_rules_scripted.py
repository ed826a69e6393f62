"""Scripted hands, one or more for every rule of docs/rules.md: explicit tiles, every step asserted.

Tiles are written ``(low, high)`` as the engine stores them; docs/rules.md writes them high end first, so
its 5-2 is ``(2, 5)`` here. Ends are compared in the engine's list order (the order they were
opened, docs/rules.md "The drawing of the layout"); its worked examples list them as a multiset,
so those comparisons sort both sides.
"""

from __future__ import annotations

import pytest

from dominosim.reference.game import GameState, IllegalMoveError, Move, score
from dominosim.reference.hand import deal, play_hand, play_match
from dominosim.rng import hand_key
from dominosim.rules import Rules
from dominosim.tiles import full_set, tile_id

M = Move


def rest(max_pip, hands):
    """The tiles no hand holds, in id order: the boneyard of a scripted deal."""
    held = {t for h in hands for t in h}
    return [t for t in full_set(max_pip) if t not in held]


def new(rules, hands, boneyard=None):
    """A hand about to open; the boneyard defaults to the rest of the set."""
    return GameState.from_deal(rules, hands, rest(rules.max_pip, hands) if boneyard is None
                               else boneyard)


def opened(rules, hands, boneyard=None):
    """A hand after its forced highest-double opening."""
    state = new(rules, hands, boneyard)
    state.open_with_highest_double()
    return state


class Script:
    """A strategy that answers each question with the next scripted move (the engine asks only
    when there are two or more legal moves), then with the first move offered; it remembers what
    it was offered."""

    name = "script"

    def __init__(self, *moves):
        self.moves = list(moves)
        self.offered = []

    def choose(self, view, moves, rng):
        self.offered.append(list(moves))
        return self.moves.pop(0) if self.moves else moves[0]


def kinds(events):
    return [(e.kind, e.seat) for e in events]


# ---------------------------------------------------------------------------------- opening


def test_opening_highest_double_holder_leads_then_left_plays():
    rules = Rules(max_pip=3, players=3, hand_size=2)
    state = new(rules, [[(0, 1), (2, 2)], [(1, 2), (3, 3)], [(0, 0), (1, 3)]])
    assert state.open_with_highest_double() == M((3, 3), 3)
    assert state.opener == 1
    assert state.opening_tile == (3, 3)
    assert state.ends_suits() == (3, 3)
    assert state.hands[1] == [(1, 2)]
    assert state.to_move == 2
    first = state.events[0]
    assert (first.kind, first.seat, first.tile, first.end_index) == ("play", 1, (3, 3), -1)
    assert not first.stitch_up


def test_opening_top_double_sleeping_next_highest_leads():
    rules = Rules(max_pip=3, players=2, hand_size=2)
    state = new(rules, [[(0, 1), (1, 1)], [(2, 2), (0, 3)]])
    assert (3, 3) in state.boneyard
    assert state.open_with_highest_double() == M((2, 2), 2)
    assert state.opener == 1
    assert state.to_move == 0


def test_opening_no_double_dealt_raises():
    rules = Rules(max_pip=3, players=2, hand_size=2)
    state = new(rules, [[(0, 1), (1, 2)], [(2, 3), (0, 3)]])
    with pytest.raises(IllegalMoveError, match="redealt"):
        state.open_with_highest_double()


def test_opening_play_is_a_play_and_can_chip_out():
    rules = Rules(max_pip=2, players=2, hand_size=1)
    state = opened(rules, [[(2, 2)], [(0, 1)]])
    assert state.over and state.how == "out"
    assert (state.out_seat, state.winning_side, state.points) == (0, 0, 1)


def _redeal_case(rules, seed, at_least):
    for i in range(2000):
        if len(deal(rules, hand_key(seed, i))) >= at_least:
            return i
    raise AssertionError("no hand needed the redeals searched for")


def test_deal_without_double_redeals_until_one_is_dealt():
    rules = Rules(max_pip=3, players=2, hand_size=1)
    i = _redeal_case(rules, seed=5, at_least=3)
    log = play_hand(rules, "random", seed=5, hand=i)
    assert log.deals == deal(rules, hand_key(5, i))
    for hands, boneyard in log.deals:
        assert sorted([t for h in hands for t in h] + boneyard, key=tile_id) == full_set(3)
    for hands, _ in log.deals[:-1]:
        assert not any(a == b for h in hands for a, b in h)
    hands, _ = log.deals[-1]
    doubles = [a for h in hands for a, b in h if a == b]
    assert doubles
    assert log.events[0].tile == (max(doubles), max(doubles))
    assert log.record["redeals"] == len(log.deals) - 1 >= 2


def test_deal_opening_any_never_redeals():
    rules = Rules(max_pip=3, players=2, hand_size=1)
    i = _redeal_case(rules, seed=5, at_least=2)
    any_rules = rules.replace(opening="any")
    deals = deal(any_rules, hand_key(5, i))
    assert deals == deal(rules, hand_key(5, i))[:1]
    assert play_hand(any_rules, "random", seed=5, hand=i).record["redeals"] == 0


def test_lead_any_non_double_leaves_both_suits_open():
    rules = Rules(max_pip=3, players=2, hand_size=3, opening="any")
    state = new(rules, [[(0, 1), (1, 3), (2, 2)], [(0, 0), (1, 2), (0, 3)]])
    assert state.legal_moves(0) == [M((0, 1), -1), M((2, 2), -1), M((1, 3), -1)]
    assert state.legal_moves(1) == []
    state.lead(M((1, 3), -1))
    assert state.ends_suits() == (1, 3)
    assert (state.opener, state.opening_tile, state.to_move) == (0, (1, 3), 1)
    assert state.legal_moves(1) == [M((1, 2), 1), M((0, 3), 3)]


def test_lead_any_leader_strategy_chooses_the_tile():
    rules = Rules(max_pip=3, players=3, hand_size=2, opening="any", leader=1)
    hands = [[(0, 2), (1, 2)], [(0, 1), (2, 3)], [(0, 3), (1, 3)]]
    leader = Script(M((0, 1), -1))
    log = play_hand(rules, ["bully", leader, "bully"], deal=(hands, rest(3, hands)))
    assert leader.offered[0] == [M((0, 1), -1), M((2, 3), -1)]
    first = log.events[0]
    assert (first.kind, first.seat, first.tile, first.ends) == ("play", 1, (0, 1), (0, 1))
    assert log.events[1].seat == 2
    assert log.record["opener"] == 1
    assert log.record["opening_double"] == -1
    assert log.record["redeals"] == 0


def test_lead_any_double_opens_two_ends_even_when_doubles_branch():
    rules = Rules(max_pip=3, players=2, hand_size=2, opening="any", doubles_branch=True)
    state = new(rules, [[(2, 2), (0, 1)], [(0, 2), (1, 3)]])
    state.lead(M((2, 2), -1))
    assert state.ends_suits() == (2, 2)
    assert not state.events[0].stitch_up


def test_lead_outside_opening_any_or_twice_raises():
    hands = [[(2, 2), (0, 1)], [(0, 2), (1, 3)]]
    with pytest.raises(IllegalMoveError, match="only for the first play"):
        new(Rules(max_pip=3, players=2, hand_size=2), hands).lead(M((2, 2), -1))
    state = new(Rules(max_pip=3, players=2, hand_size=2, opening="any"), hands)
    with pytest.raises(IllegalMoveError, match="not to play now"):
        state.play(0, M((2, 2), 2))
    state.lead(M((0, 1), -1))
    with pytest.raises(IllegalMoveError, match="only for the first play"):
        state.lead(M((2, 2), -1))


# ---------------------------------------------------------------------------------- must play


def test_must_play_knock_with_legal_move_raises():
    state = opened(Rules(max_pip=3, players=2, hand_size=2), [[(3, 3), (0, 0)], [(2, 3), (1, 1)]])
    assert state.legal_moves(1) == [M((2, 3), 3)]
    with pytest.raises(IllegalMoveError, match="must play"):
        state.knock(1)


def test_must_play_draw_with_legal_move_raises():
    rules = Rules(max_pip=3, players=2, hand_size=2, draw="until_playable")
    state = opened(rules, [[(3, 3), (0, 0)], [(2, 3), (1, 1)]])
    with pytest.raises(IllegalMoveError, match="must play"):
        state.draw(1)
    assert len(state.boneyard) == 6


def test_must_play_illegal_tiles_and_turns_raise():
    state = opened(Rules(max_pip=3, players=2, hand_size=2), [[(3, 3), (0, 0)], [(2, 3), (1, 1)]])
    with pytest.raises(IllegalMoveError, match="not a legal move"):
        state.play(1, M((1, 3), 3))  # not in its hand
    with pytest.raises(IllegalMoveError, match="not a legal move"):
        state.play(1, M((1, 1), 1))  # no end shows 1
    with pytest.raises(IllegalMoveError, match="not a legal move"):
        state.play(1, M((2, 3), 2))  # no end shows 2
    with pytest.raises(IllegalMoveError, match="not to play now"):
        state.play(0, M((0, 0), 0))
    assert state.ends_suits() == (3, 3) and len(state.events) == 1


def test_must_play_strategy_choosing_illegal_move_raises():
    rules = Rules(max_pip=3, players=2, hand_size=2)
    hands = [[(3, 3), (0, 0)], [(2, 3), (1, 3)]]
    with pytest.raises(IllegalMoveError, match="not one of its legal moves"):
        play_hand(rules, ["bully", Script(M((1, 1), 1))], deal=(hands, rest(3, hands)))


# ---------------------------------------------------------------------------------- no move


def test_block_no_move_knocks_and_turn_passes_left():
    state = opened(Rules(max_pip=3, players=3, hand_size=2),
                   [[(3, 3), (0, 1)], [(0, 0), (1, 1)], [(2, 3), (1, 2)]])
    assert state.legal_moves(1) == []
    with pytest.raises(IllegalMoveError, match="cannot draw"):
        state.draw(1)
    state.knock(1)
    last = state.events[-1]
    assert (last.kind, last.seat, last.suits) == ("knock", 1, (3,))
    assert state.to_move == 2 and not state.over
    state.play(2, M((2, 3), 3))
    assert state.ends_suits() == (2, 3)


def test_until_playable_draws_several_then_plays():
    rules = Rules(max_pip=3, players=2, hand_size=2, draw="until_playable")
    boneyard = [(0, 2), (1, 2), (2, 3), (0, 3), (1, 3), (2, 2)]
    state = opened(rules, [[(3, 3), (0, 1)], [(0, 0), (1, 1)]], boneyard)
    with pytest.raises(IllegalMoveError, match="must draw"):
        state.knock(1)
    assert state.draw(1) == (0, 2) and state.legal_moves(1) == []
    assert state.draw(1) == (1, 2) and state.legal_moves(1) == []
    assert state.draw(1) == (2, 3) and state.legal_moves(1) == [M((2, 3), 3)]
    with pytest.raises(IllegalMoveError, match="must play"):
        state.draw(1)
    state.play(1, M((2, 3), 3))
    assert kinds(state.events) == [("play", 0), ("draw", 1), ("draw", 1), ("draw", 1),
                                   ("play", 1)]
    assert state.boneyard == [(0, 3), (1, 3), (2, 2)]


def test_until_playable_hand_loop_draws_in_boneyard_order():
    rules = Rules(max_pip=3, players=2, hand_size=2, draw="until_playable")
    hands = [[(3, 3), (0, 1)], [(0, 0), (1, 1)]]
    boneyard = [(0, 2), (1, 2), (2, 3), (0, 3), (1, 3), (2, 2)]
    log = play_hand(rules, "bully", deal=(hands, boneyard))
    assert [(e.kind, e.seat, e.tile) for e in log.events[:5]] == [
        ("play", 0, (3, 3)), ("draw", 1, (0, 2)), ("draw", 1, (1, 2)), ("draw", 1, (2, 3)),
        ("play", 1, (2, 3))]


def test_until_playable_boneyard_runs_out_then_knocks():
    rules = Rules(max_pip=3, players=3, hand_size=2, draw="until_playable")
    hands = [[(3, 3), (0, 3)], [(0, 1), (0, 2)], [(1, 3), (2, 3)]]
    boneyard = [(0, 0), (1, 1), (2, 2), (1, 2)]
    log = play_hand(rules, "bully", deal=(hands, boneyard))
    assert [(e.kind, e.seat, e.tile) for e in log.events[:6]] == [
        ("play", 0, (3, 3)), ("draw", 1, (0, 0)), ("draw", 1, (1, 1)), ("draw", 1, (2, 2)),
        ("draw", 1, (1, 2)), ("knock", 1, None)]
    assert log.events[5].suits == (3,)
    # bully plays 3-2 (heavier than 3-1), then seat 0 chips out with 3-0.
    assert [(e.seat, e.tile) for e in log.events[6:8]] == [(2, (2, 3)), (0, (0, 3))]
    assert log.record["end"] == 0 and log.record["out_seat"] == 0
    assert log.record["boneyard_left"] == 0 and log.record["draws"] == 4
    assert log.record["points"] == 12 + 4


def _draw_one_state():
    rules = Rules(max_pip=3, players=2, hand_size=2, draw="one")
    boneyard = [(0, 2), (1, 2), (1, 3), (2, 2), (2, 3), (0, 3)]
    return opened(rules, [[(3, 3), (0, 0)], [(0, 1), (1, 1)]], boneyard)


def test_draw_one_unplayable_draw_then_knocks():
    state = _draw_one_state()
    assert state.draw(1) == (0, 2)
    assert state.legal_moves(1) == []
    with pytest.raises(IllegalMoveError, match="drawn its one tile"):
        state.draw(1)
    state.knock(1)
    assert len(state.boneyard) == 5
    assert state.to_move == 0 and not state.over


def test_draw_one_playable_draw_must_be_played():
    state = _draw_one_state()
    state.draw(1)
    state.knock(1)
    state.draw(0)
    state.knock(0)
    assert state.draw(1) == (1, 3)
    assert state.legal_moves(1) == [M((1, 3), 3)]
    with pytest.raises(IllegalMoveError, match="must play"):
        state.knock(1)
    state.play(1, M((1, 3), 3))
    assert state.ends_suits() == (1, 3)
    assert not state.over


def test_draw_one_empty_boneyard_knocks_without_drawing():
    rules = Rules(max_pip=2, players=2, hand_size=3, draw="one")
    state = opened(rules, [[(2, 2), (0, 2), (1, 2)], [(0, 0), (0, 1), (1, 1)]], [])
    with pytest.raises(IllegalMoveError, match="cannot draw"):
        state.draw(1)
    state.knock(1)
    assert kinds(state.events) == [("play", 0), ("knock", 1)]
    assert not state.over  # seat 0 can still play


# A dead cross: 3-3 at the centre of a cross that must be filled first; once the three other
# 3-tiles are on three arms, the fourth arm shows 3 and no tile can ever go on it.
def _dead_cross(rules, rest0, rest1, boneyard):
    state = opened(rules, [[(3, 3), (0, 3), *rest0], [(1, 3), (2, 3), *rest1]], boneyard)
    assert state.legal_moves(1) == [M((1, 3), 3), M((2, 3), 3)]
    state.play(1, M((1, 3), 3))
    state.play(0, M((0, 3), 3))
    state.play(1, M((2, 3), 3))
    assert state.ends_suits() == (1, 0, 2, 3)
    assert state.playable_ends() == [3]
    return state


def test_draw_one_worked_example_4_blocks_without_more_knocks():
    rules = Rules(max_pip=3, players=2, hand_size=4, draw="one", opening_arms=4,
                  fill_opening_first=True)
    state = _dead_cross(rules, [(0, 0), (0, 1)], [(1, 1), (1, 2)], [(0, 2), (2, 2)])
    # Seat A (0) cannot play, draws one, still cannot: it knocks (1 tile left).
    assert state.legal_moves(0) == []
    assert state.draw(0) == (0, 2)
    assert state.legal_moves(0) == []
    state.knock(0)
    assert len(state.boneyard) == 1 and not state.over
    # Seat B (1) cannot play, draws the last tile, still cannot: it knocks, and that ends it.
    assert state.legal_moves(1) == []
    assert state.draw(1) == (2, 2)
    assert state.legal_moves(1) == []
    state.knock(1)
    assert state.over and state.how == "blocked"
    assert kinds(state.events[-5:]) == [("draw", 0), ("knock", 0), ("draw", 1), ("knock", 1),
                                        ("end", -1)]
    assert state.pips_left() == [3, 9]
    assert (state.winning_side, state.points) == (0, 6)


def test_draw_one_worked_example_4_hand_loop_agrees():
    rules = Rules(max_pip=3, players=2, hand_size=4, draw="one", opening_arms=4,
                  fill_opening_first=True)
    hands = [[(3, 3), (0, 3), (0, 0), (0, 1)], [(1, 3), (2, 3), (1, 1), (1, 2)]]
    log = play_hand(rules, "bully", deal=(hands, [(0, 2), (2, 2)]))
    assert [e.kind for e in log.events] == ["play"] * 4 + ["draw", "knock", "draw", "knock",
                                                           "end"]
    assert log.record["end"] == 1 and log.record["knocks"] == 2
    assert log.record["boneyard_left"] == 0


def test_boneyard_keep_stops_drawing_and_blocks_at_keep():
    rules = Rules(max_pip=3, players=2, hand_size=3, draw="until_playable", boneyard_keep=2,
                  opening_arms=4, fill_opening_first=True)
    state = _dead_cross(rules, [(0, 0)], [(1, 1)], [(0, 1), (0, 2), (1, 2), (2, 2)])
    assert state.draw(0) == (0, 1)
    assert state.draw(0) == (0, 2)
    assert state.drawable() == 0
    with pytest.raises(IllegalMoveError, match="cannot draw"):
        state.draw(0)
    state.knock(0)
    assert not state.over
    state.knock(1)
    assert state.over and state.how == "blocked"
    assert state.boneyard == [(1, 2), (2, 2)]
    assert (state.winning_side, state.points) == (1, 3 - 2)


def test_boneyard_keep_zero_same_position_must_draw_on():
    rules = Rules(max_pip=3, players=2, hand_size=3, draw="until_playable", opening_arms=4,
                  fill_opening_first=True)
    state = _dead_cross(rules, [(0, 0)], [(1, 1)], [(0, 1), (0, 2), (1, 2), (2, 2)])
    state.draw(0)
    state.draw(0)
    with pytest.raises(IllegalMoveError, match="must draw"):
        state.knock(0)


# ---------------------------------------------------------------------------------- layout


def test_cross_fill_first_worked_example_1():
    rules = Rules.preset("cross", players=3)
    state = opened(rules, [[(5, 5), (0, 0)], [(2, 5), (3, 4)], [(2, 6), (1, 5)]])
    # docs/rules.md has the next seat hold 6-6 too; a highest-double opening would have led it, so it
    # is handed over after the 5-5 lead to set the example's position exactly.
    state.boneyard.remove((6, 6))
    state.hands[1].append((6, 6))
    assert state.ends_suits() == (5, 5, 5, 5)
    assert all(e.empty_arm for e in state.ends)
    assert state.legal_moves(1) == [M((2, 5), 5)]
    assert state.play(1, M((2, 5), 5)) == 0
    assert state.ends_suits() == (2, 5, 5, 5)
    assert state.playable_suits() == {5}
    assert state.legal_moves(2) == [M((1, 5), 5)]
    with pytest.raises(IllegalMoveError, match="not a legal move"):
        state.play(2, M((2, 6), 2))
    assert state.play(2, M((1, 5), 5)) == 1
    assert state.ends_suits() == (2, 1, 5, 5)
    assert not any(e.stitch_up for e in state.events)


def test_cross_without_fill_first_new_ends_playable_at_once():
    rules = Rules(max_pip=6, players=3, hand_size=2, opening_arms=4)
    state = opened(rules, [[(5, 5), (0, 0)], [(2, 5), (3, 4)], [(2, 6), (1, 5)]])
    state.play(1, M((2, 5), 5))
    assert state.legal_moves(2) == [M((1, 5), 5), M((2, 6), 2)]


def _two_arm_fill_state():
    rules = Rules(max_pip=3, players=2, hand_size=3, fill_opening_first=True)
    state = opened(rules, [[(3, 3), (1, 2), (0, 0)], [(2, 3), (1, 3), (1, 1)]])
    state.play(1, M((2, 3), 3))
    return state


def test_fill_first_two_arms_second_arm_before_new_end():
    state = _two_arm_fill_state()
    assert state.ends_suits() == (2, 3)
    assert state.playable_ends() == [1]
    assert state.legal_moves(0) == []  # 2-1 matches the 2 showing, but an arm is empty
    with pytest.raises(IllegalMoveError, match="not a legal move"):
        state.play(0, M((1, 2), 2))
    state.knock(0)
    state.play(1, M((1, 3), 3))
    assert state.ends_suits() == (2, 1)
    assert state.legal_moves(0) == [M((1, 2), 1), M((1, 2), 2)]


def test_branching_double_worked_example_2():
    rules = Rules(max_pip=6, players=4, hand_size=2, doubles_branch=True)
    state = opened(rules, [[(6, 6), (0, 0)], [(3, 6), (0, 2)], [(3, 3), (0, 4)],
                           [(1, 3), (0, 5)]])
    assert state.ends_suits() == (6, 6)  # the opening double does not branch
    state.play(1, M((3, 6), 6))
    assert sorted(state.ends_suits()) == [3, 6]
    state.play(2, M((3, 3), 3))
    assert sorted(state.ends_suits()) == [3, 3, 3, 6]
    assert state.legal_moves(3) == [M((1, 3), 3)]
    assert state.play(3, M((1, 3), 3)) == 0
    assert sorted(state.ends_suits()) == [1, 3, 3, 6]


def test_double_without_branching_keeps_one_end():
    rules = Rules(max_pip=6, players=4, hand_size=2)
    state = opened(rules, [[(6, 6), (0, 0)], [(3, 6), (0, 2)], [(3, 3), (0, 4)],
                           [(1, 3), (0, 5)]])
    state.play(1, M((3, 6), 6))
    state.play(2, M((3, 3), 3))
    assert state.ends_suits() == (3, 6)


def _distinct_moves_state():
    rules = Rules(max_pip=3, players=2, hand_size=3)
    return opened(rules, [[(3, 3), (1, 3), (0, 1)], [(2, 3), (1, 2), (0, 0)]])


def test_moves_two_ends_same_suit_one_move():
    state = _distinct_moves_state()
    assert state.ends_suits() == (3, 3)
    assert state.legal_moves(1) == [M((2, 3), 3)]


def test_moves_non_double_both_suits_showing_two_moves():
    state = _distinct_moves_state()
    state.play(1, M((2, 3), 3))
    state.play(0, M((1, 3), 3))
    assert state.ends_suits() == (2, 1)
    assert state.legal_moves(1) == [M((1, 2), 1), M((1, 2), 2)]
    state.play(1, M((1, 2), 2))
    assert state.ends_suits() == (1, 1)


def test_moves_listed_by_tile_id_then_suit():
    state = opened(Rules(max_pip=3, players=2, hand_size=3), [[(3, 3), (0, 0), (0, 1)],
                                                              [(2, 3), (1, 3), (0, 3)]])
    moves = state.legal_moves(1)
    assert moves == sorted(moves, key=lambda m: (tile_id(m.tile), m.suit))
    assert [m.tile for m in moves] == [(0, 3), (1, 3), (2, 3)]


# ---------------------------------------------------------------------------------- end


def test_out_last_tile_ends_hand_and_side_wins():
    state = opened(Rules(max_pip=3, players=2, hand_size=2), [[(3, 3), (1, 3)],
                                                             [(2, 3), (2, 2)]])
    state.play(1, M((2, 3), 3))
    assert not state.over
    state.play(0, M((1, 3), 3))
    assert state.over and state.how == "out"
    assert (state.out_seat, state.winning_side, state.points) == (0, 0, 4)
    end = state.events[-1]
    assert (end.kind, end.how, end.pips) == ("end", "out", (0, 4))
    with pytest.raises(IllegalMoveError, match="not to play now"):
        state.play(1, M((2, 2), 2))


# Partnerships: seats 0 and 2 against 1 and 3.
TEAM_HANDS = [[(6, 6), (5, 6)], [(4, 6), (0, 1)], [(4, 5), (3, 4)], [(2, 5), (0, 2)]]


def _team_state(end):
    rules = Rules(max_pip=6, players=4, hand_size=2, partnerships=True, end=end)
    state = opened(rules, TEAM_HANDS)
    state.play(1, M((4, 6), 6))
    assert state.legal_moves(2) == [M((3, 4), 4), M((4, 5), 4)]
    state.play(2, M((4, 5), 4))
    state.play(3, M((2, 5), 5))
    state.play(0, M((5, 6), 6))  # seat 0 plays its last tile
    return state


def test_out_partnership_worked_example_6_partner_pips_never_count():
    rules = Rules(max_pip=6, players=4, hand_size=2, partnerships=True)
    state = opened(rules, [[(6, 6), (5, 6)], [(4, 6), (5, 5)], [(4, 5), (3, 4)],
                           [(2, 5), (1, 4)]])
    state.play(1, M((4, 6), 6))
    state.play(2, M((4, 5), 4))
    state.play(3, M((2, 5), 5))
    state.play(0, M((5, 6), 6))
    assert state.over and state.how == "out" and state.out_seat == 0
    assert state.pips_left() == [0, 10, 7, 5]
    assert (state.winning_side, state.points) == (0, 15)


def test_out_partnership_first_out_ends_hand():
    state = _team_state("out")
    assert state.over and state.how == "out"
    assert state.pips_left() == [0, 1, 7, 2]
    assert (state.winning_side, state.points) == (0, 1 + 2)  # the partner's 7 never count


def test_team_out_partner_plays_on_and_out_seat_skipped():
    state = _team_state("team_out")
    assert not state.over and state.to_move == 1
    assert state.ends_suits() == (2, 5)
    state.knock(1)
    state.knock(2)
    assert not state.over  # seat 3 has not knocked
    state.play(3, M((0, 2), 2))
    assert not state.over  # seat 3 is out, its partner is not
    assert state.to_move == 1  # seat 0 is out and skipped
    state.play(1, M((0, 1), 0))
    assert state.over and state.how == "out"
    assert (state.out_seat, state.winning_side, state.points) == (1, 1, 7)


def test_team_out_blocked_run_counts_only_seats_holding_tiles():
    rules = Rules(max_pip=6, players=4, hand_size=2, partnerships=True, end="team_out")
    hands = [[(6, 6), (5, 6)], [(4, 6), (1, 1)], [(4, 5), (3, 4)], [(2, 5), (0, 2)]]
    state = opened(rules, hands)
    state.play(1, M((4, 6), 6))
    state.play(2, M((4, 5), 4))
    state.play(3, M((2, 5), 5))
    state.play(0, M((5, 6), 6))
    state.knock(1)
    state.knock(2)
    state.play(3, M((0, 2), 2))  # ends 0 5: seat 1 holds 1-1, seat 2 holds 4-3
    state.knock(1)
    assert not state.over
    state.knock(2)
    assert state.over and state.how == "blocked"
    assert (state.winning_side, state.points) == (1, 7 - 2)


def test_block_knock_by_every_seat_ends_blocked():
    rules = Rules(max_pip=2, players=2, hand_size=3)
    state = opened(rules, [[(2, 2), (0, 1), (0, 0)], [(0, 2), (1, 2), (1, 1)]], [])
    state.play(1, M((0, 2), 2))
    state.play(0, M((0, 1), 0))
    state.play(1, M((1, 2), 1))
    assert state.ends_suits() == (2, 2)
    state.knock(0)
    assert not state.over
    state.knock(1)
    assert state.over and state.how == "blocked"
    assert (state.winning_side, state.points) == (0, 2 - 0)


def test_block_partnership_four_knocks_end_blocked():
    rules = Rules(max_pip=3, players=4, hand_size=2, partnerships=True, opening_arms=4,
                  fill_opening_first=True)
    state = opened(rules, [[(3, 3), (0, 0)], [(1, 3), (1, 1)], [(2, 3), (0, 1)],
                           [(0, 3), (1, 2)]], [(0, 2), (2, 2)])
    state.play(1, M((1, 3), 3))
    state.play(2, M((2, 3), 3))
    state.play(3, M((0, 3), 3))
    for seat in (0, 1, 2):
        state.knock(seat)
        assert not state.over
    state.knock(3)
    assert state.over and state.how == "blocked"
    assert (state.winning_side, state.points) == (0, (2 + 3) - (0 + 1))


def test_until_playable_empty_boneyard_all_knock_ends_blocked():
    rules = Rules(max_pip=3, players=2, hand_size=4, draw="until_playable", opening_arms=4,
                  fill_opening_first=True)
    state = _dead_cross(rules, [(0, 0), (0, 1)], [(1, 1), (1, 2)], [(0, 2), (2, 2)])
    state.draw(0)
    state.draw(0)
    state.knock(0)
    assert not state.over
    state.knock(1)
    assert state.over and state.how == "blocked"
    assert state.pips_left() == [7, 5]
    assert (state.winning_side, state.points) == (1, 2)


def test_block_tie_no_points_no_winner():
    rules = Rules(max_pip=3, players=2, hand_size=4, opening_arms=4, fill_opening_first=True)
    state = _dead_cross(rules, [(0, 1), (1, 2)], [(0, 0), (2, 2)], [(1, 1), (0, 2)])
    state.knock(0)
    state.knock(1)
    assert state.over and state.how == "blocked"
    assert state.pips_left() == [4, 4]
    assert (state.winning_side, state.points) == (-1, 0)
    assert state.events[-1].winning_side == -1


# ---------------------------------------------------------------------------------- scoring


@pytest.mark.parametrize(("scoring", "points"), [("game", 1), ("spots", 3), ("balance", 3)])
def test_score_after_out_each_mode(scoring, points):
    rules = Rules(max_pip=3, players=3, hand_size=2, scoring=scoring)
    state = opened(rules, [[(3, 3), (0, 1)], [(1, 1), (1, 3)], [(1, 2), (2, 3)]])
    state.play(1, M((1, 3), 3))
    state.play(2, M((1, 2), 1))
    state.knock(0)
    state.knock(1)
    state.play(2, M((2, 3), 3))
    assert state.how == "out" and state.pips_left() == [1, 2, 0]
    assert (state.winning_side, state.points) == (2, points)


@pytest.mark.parametrize(("scoring", "points"), [("game", 1), ("spots", 10), ("balance", 9)])
def test_score_after_block_each_mode(scoring, points):
    rules = Rules(max_pip=3, players=3, hand_size=3, opening_arms=4, fill_opening_first=True,
                  scoring=scoring)
    state = opened(rules, [[(3, 3), (0, 3), (0, 1)], [(1, 3), (0, 2), (1, 1)],
                           [(2, 3), (1, 2), (2, 2)]])
    state.play(1, M((1, 3), 3))
    state.play(2, M((2, 3), 3))
    state.play(0, M((0, 3), 3))
    for seat in (1, 2, 0):
        state.knock(seat)
    assert state.how == "blocked" and state.pips_left() == [1, 4, 7]
    assert (state.winning_side, state.points) == (0, points)  # spots 11 - 1; balance 3 + 6


def test_score_worked_example_5_partnership_block():
    rules = Rules(max_pip=6, players=4, hand_size=6, partnerships=True)
    assert score(rules, [10, 8, 3, 12]) == (0, 20 - 13)


def test_score_worked_example_5_three_players_spots_and_balance():
    spots = Rules(max_pip=6, players=3, hand_size=6)
    assert score(spots, [4, 9, 12]) == (0, 17)
    assert score(spots.replace(scoring="balance"), [4, 9, 12]) == (0, 13)
    assert score(spots.replace(scoring="game"), [4, 9, 12]) == (0, 1)


@pytest.mark.parametrize("scoring", ["game", "spots", "balance"])
def test_score_worked_example_5_tie_scores_nothing(scoring):
    rules = Rules(max_pip=6, players=3, hand_size=6, scoring=scoring)
    assert score(rules, [4, 4, 9]) == (-1, 0)


def test_score_worked_example_6_partner_pips_never_count():
    rules = Rules(max_pip=6, players=4, hand_size=6, partnerships=True)
    assert score(rules, [0, 10, 7, 5], out_seat=0) == (0, 15)


@pytest.mark.parametrize(("rules", "lineup"), [
    (Rules.preset("draw", players=2, target=30), "random"),
    (Rules.preset("block", players=4, target=40), ["bully", "random", "doubles", "random"]),
    (Rules.preset("ivory", players=3, target=50), "random"),
])
def test_match_scores_add_up_and_winner_reaches_target_first(rules, lineup):
    match = play_match(rules, lineup, seed=3, match=2)
    running = [0] * rules.n_sides
    for k, log in enumerate(match.hands):
        assert log.hand == (2, k)
        assert max(running) < rules.target  # nobody had won before this hand
        if log.record["winning_side"] >= 0:
            running[log.record["winning_side"]] += log.record["points"]
    assert running == match.scores
    assert match.scores[match.winning_side] >= rules.target
    assert match.hands[-1].record["winning_side"] == match.winning_side
    assert sum(s >= rules.target for s in match.scores) == 1


# ---------------------------------------------------------------------------------- stitch-ups


def test_stitch_up_worked_example_3_every_case():
    rules = Rules(max_pip=6, players=2, hand_size=3)
    state = opened(rules, [[(4, 4), (4, 6), (2, 2)], [(2, 4), (2, 6), (0, 1)]])
    assert state.ends_suits() == (4, 4)  # two ends, one suit, but the opening never counts
    state.play(1, M((2, 4), 4))
    assert sorted(state.ends_suits()) == [2, 4]
    state.play(0, M((4, 6), 4))
    assert sorted(state.ends_suits()) == [2, 6]
    state.play(1, M((2, 6), 6))
    assert state.ends_suits() == (2, 2)
    state.play(0, M((2, 2), 2))  # a double on a stitched pair, and seat 0's last tile
    assert state.ends_suits() == (2, 2)
    assert [e.stitch_up for e in state.events if e.kind == "play"] == [False, False, False,
                                                                       True, True]
    assert state.stitch_ups == [1, 1]
    assert state.over and state.how == "out"


def test_stitch_up_record_counts_per_seat():
    rules = Rules(max_pip=6, players=2, hand_size=3)
    hands = [[(4, 4), (4, 6), (2, 2)], [(2, 4), (2, 6), (0, 1)]]
    play_0 = Script(M((4, 6), 4))
    play_1 = Script(M((2, 6), 6))
    log = play_hand(rules, [play_0, play_1], deal=(hands, rest(6, hands)))
    assert (log.record["stitch_ups"], log.record["stitch_ups_0"], log.record["stitch_ups_1"]) \
        == (2, 1, 1)


def test_stitch_up_opening_cross_never_counts():
    state = opened(Rules.preset("cross", players=2), [[(5, 5), (0, 0)], [(2, 5), (3, 4)]])
    assert state.ends_suits() == (5, 5, 5, 5)
    assert not state.events[0].stitch_up and state.stitch_ups == [0, 0]


# ---------------------------------------------------------------------------------- known to lack


def test_lacks_knock_adds_playable_suits_only():
    state = _two_arm_fill_state()
    state.knock(0)
    assert state.lacks[0] == {3}  # the 2 showing was not playable
    assert state.lacks[1] == set()


def test_lacks_accumulate_over_knocks_and_survive_plays():
    state = _two_arm_fill_state()
    state.knock(0)
    state.play(1, M((1, 3), 3))
    state.play(0, M((1, 2), 1))
    assert state.ends_suits() == (2, 2)
    assert state.lacks[0] == {3}
    state.knock(1)
    assert state.lacks[1] == {2}
    state.knock(0)
    assert state.lacks[0] == {2, 3}
    assert state.over and state.how == "blocked"


def test_lacks_draw_clears_them():
    state = _draw_one_state()
    state.draw(1)
    assert state.lacks[1] == set()
    state.knock(1)
    assert state.lacks[1] == {3}
    state.draw(0)
    state.knock(0)
    assert state.lacks == [{3}, {3}]
    state.draw(1)
    assert state.lacks == [{3}, set()]
