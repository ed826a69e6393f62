"""The value of a small two-player game under optimal play (the sequence-form linear program of
:mod:`dominosim.solver.game_value`), checked three ways: against the normal form built here by
brute force over every pure strategy of both seats on the reference engine's ``GameState`` (and
solved as a matrix game), by the minimax theorem (each seat's value from its own linear program,
adding up to 1), and between the bounds of ``ds.best_response`` against every built-in style.
"""

from __future__ import annotations

import copy
from fractions import Fraction
from itertools import combinations, product

import numpy as np
import pytest
from scipy.optimize import linprog

import dominosim as ds
from dominosim.reference.game import GameState, highest_double
from dominosim.solver.game_value import game_value
from dominosim.strategies.lineup import STYLES
from dominosim.tiles import full_set

BLOCK_D2 = ds.Rules(max_pip=2, players=2, hand_size=2)


# ---------------------------------------------------------------- the normal form, by brute force
def _states(rules: ds.Rules) -> list:
    """Every deal holding a double (a Block game: no boneyard order to enumerate), opened."""
    tiles = full_set(rules.max_pip)
    out = []
    for first in combinations(tiles, rules.hand_size):
        rest = [t for t in tiles if t not in first]
        for second in combinations(rest, rules.hand_size):
            if highest_double([first, second], rules.max_pip) is None:
                continue
            state = GameState.from_deal(rules, [list(first), list(second)],
                                        [t for t in rest if t not in second])
            state.open_with_highest_double()
            out.append((state, (first, second)))
    return out


def _key(state: GameState, dealt: tuple) -> tuple:
    seat = state.to_move
    return seat, dealt[seat], tuple((e.kind, e.seat, e.tile, e.suit) for e in state.seen[seat])


def _decisions(state: GameState, dealt: tuple, found: list) -> None:
    """Every decision (two or more moves) reachable from ``state``, by seat."""
    while not state.over:
        moves = state.legal_moves(state.to_move)
        if not moves:
            state.knock(state.to_move)
        elif len(moves) == 1:
            state.play(state.to_move, moves[0])
        else:
            found[state.to_move].setdefault(_key(state, dealt), moves)
            for move in moves:
                child = copy.deepcopy(state)
                child.play(child.to_move, move)
                _decisions(child, dealt, found)
            return


def _result(state: GameState, dealt: tuple, plans: tuple) -> Fraction:
    """Seat 0's result when each seat plays its pure strategy (information set -> move)."""
    state = copy.deepcopy(state)
    while not state.over:
        moves = state.legal_moves(state.to_move)
        if not moves:
            state.knock(state.to_move)
        else:
            move = moves[0] if len(moves) == 1 else plans[state.to_move][_key(state, dealt)]
            state.play(state.to_move, move)
    return Fraction(1, 2) if state.winning_side < 0 else Fraction(int(state.winning_side == 0))


def _matrix_game_value(matrix: np.ndarray) -> float:
    """max over mixed rows of the min over columns (an LP over the rows' probabilities)."""
    rows, cols = matrix.shape
    cost = np.zeros(rows + 1)
    cost[-1] = -1.0
    upper = np.hstack([-matrix.T, np.ones((cols, 1))])
    equal = np.hstack([np.ones((1, rows)), np.zeros((1, 1))])
    done = linprog(cost, A_ub=upper, b_ub=np.zeros(cols), A_eq=equal, b_eq=[1.0],
                   bounds=[(0, None)] * rows + [(None, None)], method="highs")
    return float(-done.fun)


def test_value_is_the_normal_forms_over_every_pure_strategy():
    states = _states(BLOCK_D2)
    found: list = [{}, {}]
    for state, dealt in states:
        _decisions(copy.deepcopy(state), dealt, found)
    pure = [[dict(zip(f, choice, strict=True)) for choice in product(*f.values())]
            for f in found]
    matrix = np.array([[float(sum(_result(s, d, (a, b)) for s, d in states) / len(states))
                        for b in pure[1]] for a in pure[0]])
    v = game_value(BLOCK_D2)
    assert v.information_sets == (len(found[0]), len(found[1]))
    assert len(pure[0]) > 4 and matrix.min() < matrix.max()
    assert v.value == pytest.approx(_matrix_game_value(matrix), abs=1e-9)
    # no pure strategy of seat 0 guarantees more, and none of seat 1 holds seat 0 lower
    assert matrix.min(axis=1).max() <= v.value + 1e-9 <= matrix.max(axis=0).min() + 2e-9


@pytest.mark.parametrize("rules", [
    ds.Rules(max_pip=2, players=2, hand_size=2, draw="until_playable"),
    ds.Rules(max_pip=2, players=2, hand_size=2, opening="any", leader=0),
    ds.Rules(max_pip=2, players=2, hand_size=3, opening="any", leader=1, scoring="balance"),
], ids=["draw d2", "block d2 seat 0 leads", "block d2 3 tiles seat 1 leads"])
def test_each_seats_own_program_gives_the_same_game(rules):
    v = game_value(rules)
    assert v.by_seat[0] == v.value
    assert v.by_seat[0] + v.by_seat[1] == pytest.approx(1.0, abs=1e-9)
    plan = v.plan
    assert plan[0] == pytest.approx(1.0) and (plan >= -1e-9).all()
    if rules.opening == "any":  # the leader's lead is worth something
        assert v.by_seat[rules.leader] > 0.55


@pytest.mark.parametrize("rules", [BLOCK_D2, ds.Rules(max_pip=2, players=2, hand_size=2,
                                                      draw="until_playable")],
                         ids=["block d2", "draw d2"])
def test_value_lies_between_the_best_replies_to_every_style(rules):
    # against a fixed strategy at seat 1, seat 0's best reply gets at least the value; a fixed
    # strategy at seat 0 gets at most the value against seat 1's best reply
    v = game_value(rules).value
    for style in STYLES:
        reply = ds.best_response(rules, style)
        assert 1 - float(reply.by_seat[1]) <= v + 1e-9
        assert v <= float(reply.by_seat[0]) + 1e-9


@pytest.mark.parametrize("bad, match", [
    (dict(rules=ds.Rules(max_pip=2, players=3, hand_size=1)), "`rules` must be a rule set of two"),
    (dict(rules="block"), "`rules` must be a Rules, but 'str' was passed"),
    (dict(rules=BLOCK_D2, max_nodes=10), r"`max_nodes` \(10\) is too small for this game"),
    (dict(rules=BLOCK_D2, max_nodes=0), "`max_nodes` must be a positive integer"),
])
def test_refusals_are_one_line(bad, match):
    with pytest.raises(ValueError, match=match) as error:
        game_value(**bad)
    assert "\n" not in str(error.value)
