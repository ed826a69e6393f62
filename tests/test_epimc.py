"""``epimc``: its choice against an independent implementation of the same algorithm on the
reference game state (a plain minimax for the leaves and the replies, the information sets keyed
by the public events and the seat's hand), on the compiled sampler's worlds; both engines hand
for hand; the analysis's ``epimc`` method."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from scheduling import SOLVER_STACK
from test_sampler import _replay

import dominosim as ds
from dominosim.fast.core import board as fb
from dominosim.fast.core.params import rule_params
from dominosim.fast.core.shape import Shape
from dominosim.fast.engine import max_events
from dominosim.fast.search import epimc as fe
from dominosim.fast.search import pimc as fp
from dominosim.fast.search import worlds as fw
from dominosim.fast.search.solve import WIN_UNIT
from dominosim.reference.hand import play_hand
from dominosim.strategies import view_of
from dominosim.strategies.registry import METHODS
from dominosim.strategies.search import SearchStrategy, position_board, table_states
from dominosim.tiles import tile_id, tile_of


def _leaf(state, side):
    won = state.winning_side
    if won < 0:
        return WIN_UNIT
    return 2 * WIN_UNIT + state.points if won == side else -state.points


def _settle(state):
    """Draw and knock until a seat can play; its legal moves (none when the hand is over)."""
    while not state.over:
        seat = state.to_move
        moves = state.legal_moves(seat)
        while not moves and state.may_draw(seat):
            state.draw(seat)
            moves = state.legal_moves(seat)
        if moves:
            return moves
        state.knock(seat)
    return []


def _after(state, seat, move):
    child = copy.deepcopy(state)
    child.play(seat, move)
    return child


def _minimax(state, side):
    """The value to ``side`` (win, then points) with every tile known and every seat perfect."""
    moves = _settle(state)
    if state.over:
        return _leaf(state, side)
    seat = state.to_move
    values = [_minimax(_after(state, seat, m), side) for m in moves]
    return max(values) if state.rules.side_of(seat) == side else min(values)


def _line(world, me, move):
    """``(value, None)`` when the hand ends before ``me`` moves again, else ``(None, (key, the
    values of its next moves))``."""
    rules, side = world.rules, world.rules.side_of(me)
    state = _after(world, me, move)
    start = len(state.events)
    while True:
        moves = _settle(state)
        if state.over:
            return _leaf(state, side), None
        seat = state.to_move
        values = [_minimax(_after(state, seat, m), side) for m in moves]
        if seat == me:
            seen = tuple((e.kind, e.seat, e.tile if e.kind == "play" else None)
                         for e in state.events[start:])
            return None, ((seen, tuple(sorted(state.hands[me], key=tile_id))), values)
        pick = max if rules.side_of(seat) == side else min
        best = values.index(pick(values))  # the first best, in canonical order
        state.play(seat, moves[best])


def _epimc_choice(worlds, me, moves):
    totals = []
    for move in moves:
        base, sets = 0, {}
        for world in worlds:
            value, found = _line(world, me, move)
            if found is None:
                base += value
                continue
            key, values = found
            sets[key] = [a + b for a, b in zip(sets.get(key, [0] * len(values)), values,
                                                strict=True)]
        totals.append(base + sum(max(v) for v in sets.values()))
    return totals.index(max(totals)), totals


def _worlds(state, view, moves, budget, seed):
    """The compiled decision (its arrays: the solver's stack, and the search's arrays without it,
    as the searching kernel passes them) and its ``budget`` worlds as reference game states."""
    rules, me = view.rules, view.seat
    ss = fw.make_search_scratch(rules.n_tiles, rules.players, max_events(rules),
                                SearchStrategy("epimc", budget).nodes, table_states(rules), 12)
    st, ss = ss.stack, ss._replace(stack=None)
    pub = np.zeros((max_events(rules), fb.PUB_COLS), dtype=np.int64)
    board, n_pub = position_board(view, pub)
    core, rp = Shape.searching(rules), rule_params(rules)
    arr = np.zeros((2, 2 * rules.n_tiles), dtype=np.int64)
    arr[0, :len(moves)] = [tile_id(m.tile) for m in moves]
    arr[1, :len(moves)] = [m.suit for m in moves]
    dec = fw.Decision(me, len(moves), arr, board, pub, n_pub)
    assert fw.set_root(rp, dec, False, ss, seed) > 0
    worlds = []
    for k in range(budget):
        fp.sample_world(core, rp, me, board, ss, st, seed, k)
        world = copy.deepcopy(state)
        world.hands = [[tile_of(x) for x in range(rules.n_tiles)
                        if fb.holds(st.hands[0], s, x)] for s in range(rules.players)]
        at = st.at[0]
        world.boneyard = [tile_of(int(x)) for x in st.bone[at[fb.BONE_POS]:at[fb.BONE_END]]]
        worlds.append(world)
    return core, rp, dec, st, ss, worlds


def _decisions(rules, seeds):
    """Every position of the hands ``seeds`` played by ``random`` where the seat that plays next
    has two legal moves or more: ``(seed, event index, state, seat, its moves)``."""
    for seed in seeds:
        log = play_hand(rules, "random", seed=seed)
        hands, boneyard = log.deals[-1]
        events = [e for e in log.events if e.kind != "end"]
        for k in range(1, len(events)):
            if events[k].kind != "play":
                continue
            state = _replay(rules, hands, boneyard, events[:k])
            me = events[k].seat
            moves = state.legal_moves(me)
            if state.to_move == me and len(moves) >= 2:
                yield seed, k, state, me, moves


@pytest.mark.parametrize("rules", [
    ds.Rules.preset("block", players=2, max_pip=3, hand_size=3),
    ds.Rules.preset("block", players=3, max_pip=3, hand_size=3),
    ds.Rules.preset("draw", players=2, max_pip=3, hand_size=3),
], ids=["block2", "block3", "draw2"])
def test_epimc_chooses_as_an_independent_implementation(rules):
    checked = 0
    for seed, k, state, me, moves in _decisions(rules, range(30)):
        view = view_of(state, me)
        core, rp, dec, st, ss, worlds = _worlds(state, view, moves, 6, np.uint64(seed * 100 + k))
        budget = fw.Budget(METHODS.index("epimc"), False, 6)
        got = fe.epimc_decide(st, core, rp, budget, dec, ss, np.uint64(seed * 100 + k))
        want, _ = _epimc_choice(worlds, me, moves)
        assert got == want
        checked += 1
    assert checked >= 15


def test_epimc_names_and_limits():
    assert SearchStrategy.from_name("epimc:8+infer").name == "epimc:8+infer"
    assert SearchStrategy.from_name("epimc").budget == 10
    with pytest.raises(ValueError, match="omniscient"):
        SearchStrategy("epimc", 5, omniscient=True)


@SOLVER_STACK
@pytest.mark.parametrize("preset,players", [("block", 4), ("draw", 2)])
def test_epimc_identical_in_both_engines(preset, players):
    rules = ds.Rules.preset(preset, players=players)
    lineup = ["epimc:2+infer:4", "bully"] * (players // 2)
    fast = ds.simulate(rules, lineup, n_hands=3, seed=5)
    ref = ds.simulate(rules, lineup, n_hands=3, seed=5, engine="reference")
    assert fast.equals(ref)


def test_analyze_epimc_ranks_moves_as_the_strategy_chooses():
    """``ds.analyze(method="epimc")`` on the worlds of a seed: its best move is the move the
    ``epimc`` search plays on the same worlds, in every position checked."""
    from dominosim.rng import mix64
    from dominosim.solver.position import Position

    rules = ds.Rules.preset("block", players=2, max_pip=3, hand_size=3)
    checked = 0
    for seed, _, state, me, moves in _decisions(rules, range(10)):
        table = ds.analyze(Position(state), method="epimc", budget=6, seed=seed, n_jobs=1)
        world_seed = np.uint64(mix64(seed))
        core, rp, dec, st, ss, _ = _worlds(state, view_of(state, me), moves, 6, world_seed)
        budget = fw.Budget(METHODS.index("epimc"), False, 6)
        chosen = fe.epimc_decide(st, core, rp, budget, dec, ss, world_seed)
        assert int(table["best"].to_numpy().argmax()) == chosen
        assert table.attrs["samples"] == 6
        checked += 1
    assert checked >= 8
