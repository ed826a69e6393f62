"""The compiled engine's small kernels, called from plain Python against their Python twins."""

from __future__ import annotations

import random

import numpy as np
import pytest

import dominosim as ds
from dominosim import rng as py
from dominosim.fast.core import board as fb
from dominosim.fast.core import turn as ft
from dominosim.fast.core.bits import lowest_bit, popcount
from dominosim.fast.core.params import rule_params
from dominosim.fast.core.rng import (
    below,
    deal_key,
    hand_key,
    match_hand_key,
    seat_key,
    shuffle,
    uniform,
)
from dominosim.fast.core.shape import Shape, words_of
from dominosim.fast.hand.driver import summary_width
from dominosim.reference.game import End, GameState, score
from dominosim.summary import summary_fields
from dominosim.tiles import full_set, tile_id


@pytest.mark.parametrize(("seed", "hand"), [(0, 0), (7, 3), (2**63 - 1, 10**12)])
def test_fast_rng_streams_equal_python_streams(seed, hand):
    base = py.hand_key(seed, hand)
    assert int(hand_key(np.uint64(seed), hand)) == base
    assert int(match_hand_key(np.uint64(seed), hand, 5)) == py.match_hand_key(seed, hand, 5)
    assert int(seat_key(np.uint64(base), 3)) == py.stream_key(base, py.seat_stream(3))
    state = np.array([deal_key(np.uint64(base), 2)], dtype=np.uint64)
    stream = py.Stream(py.stream_key(base, py.deal_stream(2)))
    assert [int(below(state, 0, 28)) for _ in range(100)] == [stream.below(28) for _ in range(100)]
    assert [uniform(state, 0) for _ in range(100)] == [stream.uniform() for _ in range(100)]
    items = np.arange(91, dtype=np.int64)
    shuffle(np.array([deal_key(np.uint64(base), 0)], dtype=np.uint64), 0, items, 91)
    expected = list(range(91))
    py.Stream(py.stream_key(base, 0)).shuffle(expected)
    assert items.tolist() == expected


def test_bits_popcount_and_lowest_bit():
    rnd = random.Random(3)
    for _ in range(500):
        x = rnd.getrandbits(64)
        assert popcount(np.uint64(x)) == bin(x).count("1")
        if x:
            assert lowest_bit(np.uint64(x)) == (x & -x).bit_length() - 1


@pytest.mark.parametrize("max_pip", [3, 6, 12, 15])
def test_kernel_legal_moves_equal_reference_in_canonical_order(max_pip):
    rules = ds.Rules(max_pip=max_pip, players=2, hand_size=4)
    rnd = random.Random(max_pip)
    tiles = full_set(max_pip)
    board = fb.make_board(rules.n_tiles, 2)
    hands, counts, pips = board.hands, board.counts, board.pips
    shape = Shape(words_of(rules.n_tiles), line=False, draws=False)
    for _ in range(200):
        hand = rnd.sample(tiles, rnd.randint(1, min(12, len(tiles))))
        suits = rnd.sample(range(max_pip + 1), rnd.randint(1, 3))
        hands[:] = 0
        counts[:] = 0
        pips[:] = 0
        for t in hand:
            fb.give(board, 0, tile_id(t))
        state = GameState.from_deal(rules, [hand, []], [])
        state.ends = [End(v) for v in suits]
        expected = [(tile_id(m.tile), m.suit) for m in state.legal_moves(0)]
        psm = sum(1 << v for v in set(suits))
        n = fb.count_moves(shape, hands, 0, psm)
        assert n == len(expected)
        assert [tuple(int(x) for x in fb.kth_move(shape, hands, 0, psm, i)) for i in range(n)] == expected
        assert counts[0] == len(hand) and pips[0] == sum(a + b for a, b in hand)


def test_kernel_score_equals_reference_score():
    rnd = random.Random(5)
    for _ in range(500):
        players = rnd.choice([2, 3, 4, 6])
        partners = players in (4, 6) and rnd.random() < 0.5
        scoring = rnd.choice(["game", "spots"] + ([] if partners else ["balance"]))
        rules = ds.Rules(max_pip=9, players=players, hand_size=3, partnerships=partners,
                         scoring=scoring)
        pips = [rnd.randint(0, 12) for _ in range(players)]
        out_seat = rnd.choice([-1, rnd.randrange(players)])
        if out_seat >= 0:
            pips[out_seat] = 0
        got = ft.score(rule_params(rules), np.array(pips, dtype=np.int64), out_seat)
        assert tuple(int(x) for x in got) == score(rules, pips, out_seat)


def test_summary_layout_names_every_slot():
    for players in range(2, 11):
        assert summary_width(players) == len(summary_fields(players))
