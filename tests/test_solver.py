"""Positions and the perfect-information solver.

The compiled solver is checked against an exhaustive minimax written here in plain Python on the
reference engine's GameState (no alpha-beta, no table, no compiled code), on small sets of every
game family and rule option: every legal move's value must agree exactly.
"""

from __future__ import annotations

import copy
import random

import matplotlib
import numpy as np
import pandas as pd
import pytest

import dominosim as ds
from dominosim.reference.game import GameState, Move
from dominosim.tiles import full_set

matplotlib.use("Agg")


# ---------------------------------------------------------------- the independent oracle
def _forced(state: GameState) -> GameState:
    """Draw or knock for the seat to move while it has no legal move."""
    while state.ends and not state.over and not state.legal_moves(state.to_move):
        if state.may_draw(state.to_move):
            state.draw(state.to_move)
        else:
            state.knock(state.to_move)
    return state


def _leaf(state: GameState, side: int, objective: str):
    if objective == "win_points":  # win first, then points: compared as a pair
        return _leaf(state, side, "win"), _leaf(state, side, "points")
    if objective == "win":
        return 1 if state.winning_side < 0 else (2 if state.winning_side == side else 0)
    if state.winning_side < 0:
        return 0
    return state.points if state.winning_side == side else -state.points


def _child(state: GameState, move: Move) -> GameState:
    child = copy.deepcopy(state)
    if not child.ends:
        if child.rules.opening == "any":
            child.lead(move)
        else:
            child.open_with_highest_double()
    else:
        child.play(child.to_move, move)
    return _forced(child)


def _minimax(state: GameState, side: int, objective: str):
    if state.over:
        return _leaf(state, side, objective)
    seat = state.to_move
    values = [_minimax(_child(state, m), side, objective) for m in state.legal_moves(seat)]
    return max(values) if state.rules.side_of(seat) == side else min(values)


def _oracle_moves(position, objective: str) -> list:
    """Every root move's value by exhaustive minimax (win values doubled, as integers)."""
    state = _forced(position.state)
    side = position.rules.side_of(position.to_move)
    out = []
    for move in position.legal_moves():
        if not state.ends and position.rules.opening == "highest_double":
            child = copy.deepcopy(state)
            child.open_with_highest_double()
            child = _forced(child)
        else:
            child = _child(state, move)
        out.append(_minimax(child, side, objective))
    return out


def _random_deal(rules: ds.Rules, rnd: random.Random):
    while True:
        tiles = full_set(rules.max_pip)
        rnd.shuffle(tiles)
        h, p = rules.hand_size, rules.players
        hands = [tiles[s * h:(s + 1) * h] for s in range(p)]
        if rules.opening == "any" or any(a == b for hand in hands for a, b in hand):
            return hands, tiles[p * h:]


def _positions_along(position, rnd: random.Random, count: int):
    """``position`` and ``count - 1`` later positions along random play."""
    out = [position]
    while len(out) < count:
        pos = out[-1].settled()
        if pos.over:
            break
        nxt = pos.after(rnd.choice(pos.legal_moves())).settled()
        if nxt.over:
            break
        out.append(nxt)
    return out


GAMES = {
    "block 2p game": dict(name="block", players=2, max_pip=3, hand_size=3, scoring="game"),
    "block 2p spots": dict(name="block", players=2, max_pip=3, hand_size=4),
    "block 3p balance (coalition)": dict(name="block", players=3, max_pip=3, hand_size=3,
                                         scoring="balance"),
    "block 4p partners team_out": dict(name="block", players=4, max_pip=3, hand_size=2,
                                       end="team_out"),
    "block 4p partners": dict(name="block", players=4, max_pip=3, hand_size=2),
    "draw 2p until_playable": dict(name="draw", players=2, max_pip=3, hand_size=3),
    "draw 2p one, keep 1": dict(name="draw", players=2, max_pip=3, hand_size=3, draw="one",
                                boneyard_keep=1),
    "draw 2p opening any": dict(name="draw", players=2, max_pip=3, hand_size=3, opening="any",
                                leader=1),
    "block 2p opening any balance": dict(name="block", players=2, max_pip=2, hand_size=3,
                                         opening="any", scoring="balance"),
    "cross 2p (fill first, 4 arms)": dict(name="cross", players=2, max_pip=3, hand_size=3),
    "cross 3p": dict(name="cross", players=3, max_pip=3, hand_size=2),
    "ivory 2p (branching doubles)": dict(name="ivory", players=2, max_pip=3, hand_size=3),
    "double nine cross 2p (branching, fill first)": dict(name="double_nine_cross", players=2,
                                                         max_pip=3, hand_size=3),
    "block 2p branching 4 arms no fill": dict(name="block", players=2, max_pip=3, hand_size=4,
                                              opening_arms=4, doubles_branch=True),
}


def _rules(spec: dict) -> ds.Rules:
    spec = dict(spec)
    return ds.Rules.preset(spec.pop("name"), **spec)


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("objective", ["win", "points"])
def test_solver_agrees_with_exhaustive_minimax(game, objective):
    rules = _rules(GAMES[game])
    rnd = random.Random(f"{game}/{objective}")
    checked = 0
    for _ in range(4):
        hands, boneyard = _random_deal(rules, rnd)
        start = ds.Position.from_deal(rules, hands, boneyard)
        for position in _positions_along(start, rnd, 3):
            solution = ds.solve(position, objective=objective, table_bits=16)
            expected = _oracle_moves(position.settled(), objective)
            got = [v * 2 if objective == "win" else v for v in solution.moves["value"]]
            assert got == expected, (game, str(position))
            assert solution.value == max(solution.moves["value"])
            assert all(solution.moves.loc[solution.moves["best"], "value"] == solution.value)
            checked += 1
    assert checked >= 4


@pytest.mark.parametrize("game", sorted(GAMES))
def test_win_then_points_objective_agrees_with_exhaustive_minimax(game):
    # the pimc strategy's objective: every seat plays to win, then for points
    from dominosim.fast.search.solve import WIN_UNIT
    from dominosim.solver.solve import solve_state

    rules = _rules(GAMES[game])
    rnd = random.Random(f"{game}/win_points")
    checked = 0
    for _ in range(3):
        hands, boneyard = _random_deal(rules, rnd)
        start = ds.Position.from_deal(rules, hands, boneyard)
        for position in _positions_along(start, rnd, 3):
            position = position.settled()
            values, _ = solve_state(position.state, position.legal_moves(), "win_points",
                                    table_bits=16)
            pairs = [((int(v) + WIN_UNIT // 2) // WIN_UNIT,) for v in values]
            pairs = [(w, int(v) - w * WIN_UNIT) for (w,), v in zip(pairs, values, strict=True)]
            assert pairs == _oracle_moves(position, "win_points"), (game, str(position))
            checked += 1
    assert checked >= 3


def test_value_of_a_worked_position():
    # seat 1 to move after 2-2: 2-0 wins (it sets up a block it wins 0 pips to 2), 2-1 loses
    rules = ds.Rules.preset("block", players=2, max_pip=2, hand_size=3)
    pos = ds.Position.from_deal(rules, [[(2, 2), (0, 1), (1, 1)], [(1, 2), (0, 0), (0, 2)]])
    s = ds.solve(pos.after(((2, 2), 2)))
    assert s.value == 1.0
    assert s.best == [Move((0, 2), 2)]
    assert list(s.moves["value"]) == [1.0, 0.0]
    opening = ds.solve(pos)
    assert opening.value == 0.0 and opening.best == [Move((2, 2), 2)]


def test_out_of_reach_names_the_size():
    rules = ds.Rules.preset("block", players=4)
    log = ds.replay(rules, "random", seed=5, hand=0)
    with pytest.raises(ValueError, match=r"`max_nodes` \(100\) is too small .* 24 tiles in hands and 4 in"):
        ds.solve(log.position(0), max_nodes=100)


@pytest.mark.parametrize("bad, match", [
    (dict(objective="wins"), "`objective` must be one of 'win', 'points', but 'wins'"),
    (dict(max_nodes=0), "`max_nodes` must be a positive integer"),
    (dict(table_bits=40), "`table_bits` must be an integer from 16 to 26"),
])
def test_solve_refuses_bad_arguments(bad, match):
    rules = ds.Rules.preset("block", players=2)
    log = ds.replay(rules, "random", seed=1, hand=0)
    with pytest.raises(ValueError, match=match):
        ds.solve(log.position(3), **bad)


def test_solve_refuses_a_finished_hand():
    rules = ds.Rules.preset("block", players=2)
    log = ds.replay(rules, "random", seed=1, hand=0)
    with pytest.raises(ValueError, match="`position` must be a hand in progress"):
        ds.solve(log.position(len(log.events)))


# ---------------------------------------------------------------- positions
def test_log_position_replays_every_event():
    rules = ds.Rules.preset("draw", players=3)
    log = ds.replay(rules, "random", seed=4, hand=1)
    final = log.position(len(log.events))
    assert final.over and final.outcome == (log.record["winning_side"], log.record["points"])
    for k, event in enumerate(log.events[:-1]):
        pos = log.position(k)
        assert len(pos.history) == k
        if event.kind == "play":
            assert pos.to_move == event.seat
            suit = event.suit if pos.opened else event.tile[0]
            assert Move(event.tile, suit) in pos.legal_moves()
    with pytest.raises(ValueError, match="`k` must be an event index from 0 to"):
        log.position(len(log.events) + 1)


def test_from_deal_matches_the_log():
    rules = ds.Rules.preset("block", players=4)
    log = ds.replay(rules, "random", seed=9, hand=2)
    hands, boneyard = log.deals[-1]
    pos = ds.Position.from_deal(rules, hands, boneyard)
    assert pos.hands == log.position(0).hands
    assert pos.to_move == log.events[0].seat
    assert not pos.opened and pos.ends == ()


def test_from_deal_refuses_bad_deals():
    rules = ds.Rules.preset("block", players=2, max_pip=2, hand_size=2)
    with pytest.raises(ValueError, match=r"each tile once, but \[\(0, 1\)\]"):
        ds.Position.from_deal(rules, [[(0, 1), (2, 2)], [(1, 0), (0, 0)]])
    with pytest.raises(ValueError, match="tiles of the double-2 set, but \\(3, 1\\)"):
        ds.Position.from_deal(rules, [[(3, 1), (2, 2)], [(1, 1), (0, 0)]])
    with pytest.raises(ValueError, match="must give some seat a double"):
        ds.Position.from_deal(rules, [[(0, 1), (1, 2)], [(0, 2)]])


def test_view_hides_other_hands_and_draws():
    rules = ds.Rules.preset("draw", players=2)
    log = next(log for log in (ds.replay(rules, "random", seed=3, hand=h) for h in range(50))
               if any(e.kind == "draw" for e in log.events))
    k = next(i for i, e in enumerate(log.events) if e.kind == "draw") + 1
    pos = log.position(k)
    drawer = log.events[k - 1].seat
    other = 1 - drawer
    mine, theirs = pos.view(drawer), pos.view(other)
    assert mine.hand == pos.hands[drawer] and theirs.hand == pos.hands[other]
    assert mine.history[-1].tile == log.events[k - 1].tile
    assert theirs.history[-1].kind == "draw" and theirs.history[-1].tile is None
    assert theirs.tile_counts == tuple(len(h) for h in pos.hands)
    assert theirs.boneyard_size == len(pos.boneyard)
    with pytest.raises(ValueError, match="`seat` must be a seat from 0 to 1, but 2"):
        pos.view(2)


def test_text_board_shows_every_hand_and_the_seat_to_move():
    rules = ds.Rules.preset("draw", players=2)
    log = ds.replay(rules, "random", seed=3, hand=0)
    pos = log.position(4)
    text = str(pos)
    assert f"seat {pos.to_move} " in text and "<- to move" in text
    assert "boneyard (" in text and text.count("\nseat ") == 2
    assert " ".join(map(str, pos.ends)) + " showing" in text


def test_position_plot_hides_other_hands():
    rules = ds.Rules.preset("block", players=4)
    log = ds.replay(rules, "random", seed=1, hand=0)
    pos = log.position(6)
    ax = ds.plots.position(pos, seat=2)
    text = ax.texts[-1].get_text()
    assert text.count("[?]") == sum(len(h) for s, h in enumerate(pos.hands) if s != 2)
    every = ds.plots.position(pos).texts[-1].get_text()
    assert "[?]" not in every
    empty = ds.plots.position(log.position(0))
    assert empty.get_title().startswith("0 tiles down")
    with pytest.raises(ValueError, match="`seat` must be None or a seat from 0 to 3"):
        ds.plots.position(pos, seat=7)


# ---------------------------------------------------------------- move analysis
def _open_hand_position():
    """Block double-3, 2 players, 5 tiles each: nothing sleeps, so each seat can infer the other
    hand exactly and the analysis has one consistent world."""
    rules = ds.Rules.preset("block", players=2, max_pip=3, hand_size=5)
    hands = [[(3, 3), (0, 1), (1, 2), (0, 3), (2, 2)], [(2, 3), (1, 3), (0, 0), (1, 1), (0, 2)]]
    position = ds.Position.from_deal(rules, hands)
    return position.after(((3, 3), 3))


def test_pimc_with_nothing_hidden_equals_the_solver():
    position = _open_hand_position()
    table = ds.analyze(position, budget=30)
    win, points = ds.solve(position, "win"), ds.solve(position, "points")
    assert list(table["win"]) == list(win.moves["value"])
    assert list(table["points"]) == list(points.moves["value"])
    assert (table["win_low"] == table["win"]).all() and (table["win_high"] == table["win"]).all()


@pytest.mark.parametrize("players", [2, 3])
def test_pimc_analysis_agrees_with_the_solver_over_every_consistent_world(players):
    # the exact pimc value of a move: the solved value averaged over every hidden history
    # consistent with the seat's view (enumerated apart, weighted by its number of histories)
    from test_sampler import _brute

    from dominosim.solver.solve import solve_state
    from dominosim.strategies.view import view_of

    rules = ds.Rules.preset("block", players=players, max_pip=3, hand_size=3)
    checked = 0
    for hand in range(12):
        log = ds.replay(rules, "random", seed=5, hand=hand, engine="reference")
        for k in range(2, len(log.events)):
            position = log.position(k).settled()
            if position.over or not position.opened or len(position.legal_moves()) < 2:
                continue
            seat, moves = position.to_move, position.legal_moves()
            found = _brute(view_of(position.state, seat), log.deals[-1][0][seat])
            total = sum(found.values())
            exact = np.zeros(len(moves))
            for (others, boneyard), weight in found.items():
                world = copy.deepcopy(position.state)
                for s, hand_now in zip([s for s in range(players) if s != seat], others, strict=True):
                    world.hands[s] = list(hand_now)
                world.boneyard = sorted(boneyard)
                exact += weight * solve_state(world, moves, "win")[0] / 2
            exact /= total
            table = ds.analyze(position, budget=2000, seed=hand, precision=0.01)
            se = (table["win_high"] - table["win"]) / 1.959963984540054
            assert (abs(table["win"] - exact) <= 4 * se + 1e-9).all(), (hand, k)
            checked += 1
            break
    assert checked >= 8


def test_pimc_analysis_does_not_depend_on_the_threads():
    rules = ds.Rules.preset("block", players=4)
    position = ds.replay(rules, "random", seed=4, hand=0).position(8)
    one = ds.analyze(position, budget=300, seed=2, n_jobs=1, precision=0.001)
    two = ds.analyze(position, budget=300, seed=2, n_jobs=2, precision=0.001)
    assert one.attrs["samples"] == two.attrs["samples"] == 300
    pd.testing.assert_frame_equal(one, two)


def test_analysis_to_a_precision_narrows_every_interval():
    rules = ds.Rules.preset("block", players=4)
    position = ds.replay(rules, "random", seed=0, hand=0).position(6)
    table = ds.analyze(position, budget=5000, seed=1, precision=0.03)
    assert ((table["win_high"] - table["win"]) <= 0.03).all()
    assert table.attrs["samples"] < 5000


def test_playout_agrees_with_exact_random_continuation():
    from dominosim.solver.exact import _Game

    position = _open_hand_position()
    rules = position.rules
    table = ds.analyze(position, method="playout", budget=3000, seed=5)
    game = _Game(rules)
    side = rules.side_of(position.to_move)
    before = position.state
    hands = tuple(tuple(sorted(h)) for h in before.hands)
    for row in table.itertuples():
        den, nums = game.after_play(hands, game.canonical(before.ends), frozenset(),
                                    position.to_move, row.tile, row.suit)
        exact = (nums[game.WIN + side] + nums[game.TIE] / 2) / den
        se = (row.win_high - row.win) / 1.959963984540054
        assert abs(row.win - exact) <= 4 * se + 1e-9, row.move
    assert table.attrs["samples"] <= 3000


def test_pimc_stops_when_the_best_move_separates():
    rules = ds.Rules.preset("block", players=4, hand_size=7)
    log = ds.replay(rules, "random", seed=4, hand=0)
    table = ds.analyze(log.position(8), budget=3000, seed=1)
    assert table.attrs["separated"] and table.attrs["samples"] < 3000
    best = table[table["best"]].iloc[0]
    assert all(best["win_low"] > r.win_high for r in table.itertuples() if not r.best)


@pytest.mark.parametrize("kwargs, match", [
    (dict(method="mcts"), "`method` must be one of 'pimc', 'playout'"),
    (dict(budget=0), "`budget` must be a positive integer"),
    (dict(precision=0), "`precision` must be None or a number between 0 and 1, but 0 was"),
    (dict(n_jobs=0), "`n_jobs` must be None, -1 or an integer from 1 to"),
    (dict(seat=2), r"`seat` must be None or the seat to move \(0\): only it knows"),
])
def test_analyze_refuses_bad_arguments(kwargs, match):
    rules = ds.Rules.preset("block", players=4, hand_size=7)
    log = ds.replay(rules, "random", seed=4, hand=0)
    with pytest.raises(ValueError, match=match):
        ds.analyze(log.position(8), **kwargs)
    with pytest.raises(ValueError, match="`position` must be a hand in progress after the open"):
        ds.analyze(log.position(0))


# ---------------------------------------------------------------- the pimc strategy
def test_pimc_plays_the_solvers_move_when_nothing_is_hidden():
    from dominosim.rng import Stream
    from dominosim.solver import PIMC
    from dominosim.strategies.view import view_of

    position = _open_hand_position()
    state = position.state
    moves = position.legal_moves()
    solved = ds.solve(position)
    chosen = PIMC(3).choose(view_of(state, position.to_move), moves, Stream(1))
    assert chosen in solved.best


def test_pimc_beats_random_on_duplicate_deals():
    from dominosim.solver import PIMC

    rules = ds.Rules.preset("block", players=2)
    won = 0.0
    deals = 30
    for hand in range(deals):
        for lineup, side in (([PIMC(10), "random"], 0), (["random", PIMC(10)], 1)):
            log = ds.play_hand(rules, lineup, seed=21, hand=hand)
            winner = log.record["winning_side"]
            won += 0.5 if winner < 0 else float(winner == side)
    assert won / (2 * deals) > 0.6


def test_pimc_refuses_a_bad_sample_count():
    from dominosim.solver import PIMC

    with pytest.raises(ValueError, match="`samples` must be an integer from 1 to 100,000 .*, but 0 was passed"):
        PIMC(0)
