"""The player styles' defining behaviour in scripted positions (reference engine), and the same
choice from the compiled engine's kernel."""

from __future__ import annotations

import pytest

import dominosim as ds
from dominosim.fast.core import turn as ft
from dominosim.fast.core.board import N_ENDS, SUIT_MASK, give
from dominosim.fast.core.params import STRATEGY_CODES, lineup_arrays, rule_params
from dominosim.fast.core.shape import Shape
from dominosim.fast.hand import kernel as k
from dominosim.reference.game import End, Event, GameState, Move
from dominosim.strategies import resolve, view_of
from dominosim.tiles import tile_id


def _position(rules, hands, ends, lacks=None, history_plays=()):
    """A state with ``ends`` showing, seat 0 to move, and optional knowledge."""
    state = GameState.from_deal(rules, hands, [])
    state.ends = [End(v) for v in ends]
    for seat, suits in (lacks or {}).items():
        state.lacks[seat] = set(suits)
    for seat, tile in history_plays:
        state._emit(Event("play", seat=seat, tile=tile, suit=tile[0]))
    state.to_move = 0
    return state


def _choice(name, state):
    moves = state.legal_moves(0)
    return resolve(name).choose(view_of(state, 0), moves, None)


def _kernel_choice(name, state):
    """The same decision taken by the compiled engine's kernel."""
    rules = state.rules
    shape = Shape.of(rules, styles=True)
    rp = rule_params(rules)
    scratch = k.make_scratch(rules.n_tiles, rules.players, 0, 0, False)
    board, notes = scratch.board, scratch.notes
    for s, hand in enumerate(state.hands):
        for t in hand:
            give(board, s, tile_id(t))
    for i, e in enumerate(state.ends):
        board.ends[i] = e.suit
        board.suit_count[e.suit] += 1
    mask = sum(1 << v for v in set(e.suit for e in state.ends))
    board.at[SUIT_MASK], board.at[N_ENDS] = mask, len(state.ends)
    notes.lacks[:] = [sum(1 << v for v in x) for x in state.lacks]
    for e in state.events:
        if e.kind == "play":
            ft.record_played(notes, e.seat, tile_id(e.tile))
    n = len(state.legal_moves(0))
    lineup = lineup_arrays([STRATEGY_CODES[name].code] * rules.players)
    status, tile, suit = k.choose(shape, rp, lineup, 0, n, mask, scratch, None)
    assert status == k.OK
    return int(tile), int(suit)


def _same_in_kernel(name, state, move):
    assert _kernel_choice(name, state) == (tile_id(move.tile), move.suit)


SOLO = ds.Rules(max_pip=6, players=2, hand_size=5)
PAIRS = ds.Rules(max_pip=6, players=4, hand_size=5, partnerships=True)


def test_accompanied_plays_the_tile_whose_other_suit_it_holds_most():
    # ends 2 and 0; (2,6) leaves a 6 (no other 6 held), (0,5) leaves a 5 (two other 5s held)
    state = _position(SOLO, [[(4, 5), (5, 5), (0, 5), (2, 3), (2, 6)], [(1, 1)]], [2, 0])
    move = _choice("accompanied", state)
    assert move == Move((0, 5), 0)
    _same_in_kernel("accompanied", state, move)


def test_stitcher_stitches_on_a_suit_it_holds_and_the_opponent_lacks():
    # ends 4 and 1; (1,4) on the 1 stitches up on 4: it holds 4-6, the opponent lacks 4
    state = _position(SOLO, [[(1, 4), (6, 6), (4, 6)], [(0, 0)]], [4, 1], lacks={1: {4}})
    move = _choice("stitcher", state)
    assert move == Move((1, 4), 1)
    _same_in_kernel("stitcher", state, move)


def test_stitcher_avoids_a_stitch_up_the_opponent_may_answer():
    # same position, but nothing is known of the opponent: the heavier non-stitch is played
    state = _position(SOLO, [[(1, 4), (1, 2), (4, 6)], [(0, 0)]], [4, 1])
    move = _choice("stitcher", state)
    assert move == Move((4, 6), 4)
    _same_in_kernel("stitcher", state, move)


def test_counter_leaves_suits_the_next_seat_lacks():
    # the next seat (1) knocked on 3; (1,3) on the 1 leaves 3 and 5 showing, (5,6) leaves 1 and 6
    state = _position(PAIRS, [[(1, 3), (5, 6)], [(0, 0)], [(2, 2)], [(4, 4)]], [1, 5],
                      lacks={1: {3}})
    move = _choice("counter", state)
    assert move == Move((1, 3), 1)
    _same_in_kernel("counter", state, move)


def test_partner_does_not_block_its_partner_and_feeds_its_suits():
    # partner (seat 2) lacks 6 and 2 and has played two tiles holding 4
    history = [(2, (4, 5)), (2, (0, 4))]
    state = _position(PAIRS, [[(3, 6), (2, 3), (3, 4)], [(0, 0)], [(1, 1)], [(5, 5)]], [3, 6],
                      lacks={2: {2, 6}}, history_plays=history)
    move = _choice("partner", state)
    # (3,6) on the 3 leaves 6,6: blocks the partner; (2,3) leaves 2,6: blocks too;
    # (3,4) on the 3 leaves 4 and 6: does not block, and feeds the 4
    assert move == Move((3, 4), 3)
    _same_in_kernel("partner", state, move)


@pytest.mark.parametrize("name", ["accompanied", "stitcher", "counter", "partner"])
def test_styles_lead_their_heaviest_tile_under_opening_any(name):
    rules = ds.Rules(max_pip=6, players=2, hand_size=3, opening="any")
    log = ds.play_hand(rules, name, deal=([[(0, 1), (2, 6), (3, 3)], [(1, 1), (0, 0), (4, 4)]], []))
    assert log.events[0].tile == (2, 6)
