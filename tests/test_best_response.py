"""ds.best_response against brute force: every deterministic reply of the replying seat (one move
per information set) evaluated by the reference engine's game state over every deal and every
boneyard order; the best of them equals the best response's value, seat by seat."""

from __future__ import annotations

import copy
from fractions import Fraction
from itertools import combinations, permutations, product

import pytest

import dominosim as ds
from dominosim.reference.game import GameState
from dominosim.strategies import resolve, view_of
from dominosim.tiles import full_set


def _walk(state: GameState, replier: int, strategy, policy: dict, infosets: dict) -> Fraction:
    """The replier's expected result from ``state`` (win 1, tie 1/2) when it plays ``policy``
    (information set -> move index; the first move where it has none), recording every
    information set it meets in ``infosets``."""
    while not state.over:
        seat = state.to_move
        if state.must_draw(seat):
            state.draw(seat)
            continue
        moves = state.legal_moves(seat)
        if not moves:
            state.knock(seat)
            continue
        if len(moves) == 1:
            state.play(seat, moves[0])
            continue
        if seat == replier:
            key = (tuple(sorted(state.hands[seat])), tuple(state.seen[seat]))
            infosets[key] = len(moves)
            state.play(seat, moves[policy.get(key, 0)])
            continue
        if strategy is not None:
            state.play(seat, strategy.choose(view_of(state, seat), moves, None))
            continue
        total = Fraction(0)
        for move in moves:
            branch = copy.deepcopy(state)
            branch.play(seat, move)
            total += _walk(branch, replier, strategy, policy, infosets)
        return total / len(moves)
    if state.winning_side < 0:
        return Fraction(1, 2)
    return Fraction(int(state.winning_side == replier))


def _value(rules, replier, strategy, policy, infosets) -> Fraction:
    """The mean over every deal holding a double and every boneyard order."""
    tiles = full_set(rules.max_pip)
    h = rules.hand_size
    total, count = Fraction(0), 0
    for first in combinations(tiles, h):
        rest = [t for t in tiles if t not in first]
        for second in combinations(rest, h):
            bone = [t for t in rest if t not in second]
            for order in permutations(bone):
                state = GameState.from_deal(rules, [list(first), list(second)], list(order))
                try:
                    state.open_with_highest_double()
                except Exception:
                    break  # no double: redealt
                total += _walk(state, replier, strategy, policy, infosets)
                count += 1
    return total / count


@pytest.mark.parametrize("rules, name", [
    (ds.Rules(max_pip=2, players=2, hand_size=2), "random"),
    (ds.Rules(max_pip=2, players=2, hand_size=2), "bully"),
    (ds.Rules(max_pip=2, players=2, hand_size=2), "stitcher"),
], ids=["block-d2-random", "block-d2-bully", "block-d2-stitcher"])
def test_best_response_equals_the_best_deterministic_reply(rules, name):
    strategy = None if name == "random" else resolve(name)
    reply = ds.best_response(rules, name)
    for replier in range(2):
        infosets: dict = {}
        _value(rules, replier, strategy, {}, infosets)
        assert infosets  # the replier has choices to make
        # information sets met only under other replies are found as the replies change
        best = Fraction(-1)
        seen: set = set()
        while True:
            keys = sorted(infosets, key=repr)
            for choice in product(*(range(infosets[k]) for k in keys)):
                policy = dict(zip(keys, choice, strict=True))
                best = max(best, _value(rules, replier, strategy, policy, infosets))
            if set(infosets) == seen:
                break
            seen = set(infosets)
        assert reply.by_seat[replier] == best
    assert reply.value == sum(reply.by_seat) / 2
    assert reply.gain == reply.value - Fraction(1, 2) >= 0


def test_best_response_refuses_what_it_cannot_solve():
    with pytest.raises(ValueError, match="`rules` must have two players"):
        ds.best_response(ds.Rules(max_pip=2, players=3, hand_size=1))
    with pytest.raises(ValueError, match="`strategy` must be one of 'random', 'bully'.* but 'mc'"):
        ds.best_response(ds.Rules(max_pip=2, players=2, hand_size=2), "mc")
