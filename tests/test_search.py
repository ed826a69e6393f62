"""The search strategies: the compiled sampler against the exact one, playouts against the kernel,
the choice of ``mc`` against an exact computation, and both engines hand for hand."""

from __future__ import annotations

import copy
from collections import Counter
from fractions import Fraction

import numba
import numpy as np
import pytest
from scipy.stats import chisquare
from test_sampler import SMALL, _allocation, _brute, _chi_square_position, _positions

import dominosim as ds
from dominosim.fast import consistent as fc
from dominosim.fast import kernel as k
from dominosim.fast import model as m
from dominosim.fast import search as fs
from dominosim.fast.rng import seat_key
from dominosim.game import GameState
from dominosim.rng import Stream, hand_key
from dominosim.sampler import DealSampler
from dominosim.search import (
    ISMCTS,
    MonteCarlo,
    SearchStrategy,
    log_buffer,
    position_arrays,
    table_states,
)
from dominosim.strategies import view_of
from dominosim.tiles import tile_id, tile_of

SEARCHES = ["mc:5", "ismcts:60", "mc_omniscient:5", "ismcts_omniscient:60"]


def _prepared(view):
    """The compiled sampler's scratch after reading ``view`` (and the position arrays)."""
    rules = view.rules
    ss = fc.make_sampler_scratch(rules.n_tiles, rules.players, m.max_events(rules),
                                 table_states(rules))
    pub = np.zeros((m.max_events(rules), 3), dtype=np.int64)
    pos = position_arrays(view, pub)
    hands, counts, bone_n, n_pub = pos[0], pos[1], pos[10], pos[11]
    rp = m.rule_params(rules)
    status = fc.prepare(rp, view.seat, pub, n_pub, hands, counts, bone_n, ss)
    return rp, ss, hands, status


def _compiled_samples(view, n, seed):
    rp, ss, hands, status = _prepared(view)
    assert status > 0
    p, t = view.rules.players, view.rules.n_tiles
    out = np.zeros((p, hands.shape[1]), dtype=np.uint64)
    cp = np.zeros((2, p), dtype=np.int64)
    bone = np.zeros(t, dtype=np.int64)
    rng = np.array([seed], dtype=np.uint64)
    for _ in range(n):
        nb = fc.draw_deal(rp, view.seat, hands, ss, out, cp[0], cp[1], bone, rng, 0)
        held = [[tile_of(x) for x in range(t) if m.holds(out, s, x)] for s in range(p)]
        yield held, [tile_of(int(x)) for x in bone[:nb]], cp.copy()


# ------------------------------------------------------------------------ the compiled sampler
@pytest.mark.parametrize("rules", SMALL, ids=lambda r: f"{r.draw}-{r.players}p-{r.opening}")
def test_compiled_sampler_counts_equal_exact_sampler(rules):
    checked = 0
    for seed in range(4):
        for state, seat, _ in _positions(rules, seed):
            view = view_of(state, seat)
            _, ss, _, status = _prepared(view)
            assert status > 0
            assert fc.count_of(ss) == DealSampler(view).assignments
            checked += 1
    assert checked >= 10


@pytest.mark.parametrize("preset,players", [("block", 4), ("draw", 2), ("draw", 3), ("cross", 4)])
def test_compiled_sampler_counts_equal_exact_sampler_full_sets(preset, players):
    rules = ds.Rules.preset(preset, players=players)
    log = ds.replay(rules, "random", seed=5, hand=1, engine="reference")
    hands, boneyard = log.deals[-1]
    from test_sampler import _replay

    events = [e for e in log.events if e.kind != "end"]
    for cut in range(1, len(events), 3):
        state = _replay(rules, hands, boneyard, events[:cut])
        view = view_of(state, state.to_move)
        _, ss, _, status = _prepared(view)
        exact = DealSampler(view).assignments
        assert status > 0
        assert fc.count_of(ss) == pytest.approx(float(exact), rel=1e-12)


@pytest.mark.parametrize("rules,uneven", [(SMALL[1], False), (SMALL[3], True), (SMALL[5], True),
                                          (SMALL[7], False)],
                         ids=["block3", "draw", "draw-one", "cross"])
def test_compiled_sampler_distribution_matches_brute_force(rules, uneven):
    view, found = _chi_square_position(rules, uneven)
    n = 3000
    seen = Counter()
    for hands, boneyard, cp in _compiled_samples(view, n, 20261130):
        assert sorted(hands[view.seat]) == sorted(view.hand)
        assert list(cp[0]) == list(view.tile_counts)
        seen[_allocation(view, hands, boneyard)] += 1
    assert set(seen) <= set(found)
    keys = sorted(found, key=repr)
    total = sum(found.values())
    observed = [seen[key] for key in keys]
    expected = [n * found[key] / total for key in keys]
    assert chisquare(observed, expected).pvalue > 0.001


@numba.njit(_nrt=False)  # as the kernels: views made without the runtime are not freed by it
def _view_sizes(buffers):
    """Sizes of the views by kind (int64, uint64, float64, bool), and the tree's shape."""
    v = fs.search_views(buffers)
    s = v[16]
    ints = (v[0].size + v[2].size + v[3].size + v[5].size + v[6].size + v[8].size + v[9].size
            + v[10].size + v[13].size + v[14].size + s[0].size + s[1].size + s[2].size
            + s[3].size + s[5].size + s[6].size + s[7].size + s[9].size)
    uints = v[1].size + v[4].size + v[11].size
    floats = v[12].size + v[15].size + s[8].size
    bools = v[7].size + s[4].size
    return ints, uints, floats, bools, v[14].shape[1], v[0].shape[0]


def test_search_views_cut_the_buffers_exactly():
    for t, p, e, nodes, states in ((28, 4, 200, 1001, 1 << 20), (136, 10, 2000, 1, 5),
                                   (6, 2, 0, 0, 0)):
        buffers = fs.make_search_scratch(t, p, e, nodes, states)
        ints, uints, floats, bools, tree, log = _view_sizes(buffers)
        assert (ints + fs.N_DIMS, uints, floats, bools) == tuple(b.size for b in buffers)
        assert tree == max(nodes, 1) and log == max(e if nodes else 0, 1)
        assert log_buffer(buffers).shape == (log, 3)


def test_compiled_sampler_block_hands_lack_knocked_suits():
    rules = ds.Rules.preset("block", players=4)
    log = ds.replay(rules, "random", seed=3, hand=0, engine="reference")
    knocks = [i for i, e in enumerate(log.events) if e.kind == "knock"]
    assert knocks
    from test_sampler import _replay

    hands, boneyard = log.deals[-1]
    events = [e for e in log.events if e.kind != "end"][:knocks[0] + 1]
    state = _replay(rules, hands, boneyard, events)
    knocker = events[-1].seat
    viewer = (knocker + 1) % 4
    for held, _, _ in _compiled_samples(view_of(state, viewer), 200, 7):
        assert not any(v in t for t in held[knocker] for v in events[-1].suits)


def test_compiled_sampler_refuses_a_table_over_its_limit():
    rules = ds.Rules.preset("draw", players=4, hand_size=5)
    hands = [[tile_of(i + 5 * s) for i in range(5)] for s in range(4)]
    state = GameState.from_deal(rules, hands, [tile_of(i) for i in range(20, 28)])
    state.open_with_highest_double()
    view = view_of(state, 0)  # three other hands of up to 5 tiles: more than 10 states
    pub = np.zeros((m.max_events(rules), 3), dtype=np.int64)
    pos = position_arrays(view, pub)
    for limit, ok in ((10, False), (table_states(rules), True)):
        ss = fc.make_sampler_scratch(rules.n_tiles, 4, m.max_events(rules), limit)
        status = fc.prepare(m.rule_params(rules), 0, pub, pos[11], pos[0], pos[1], pos[10], ss)
        assert (status > 0) == ok and (ok or status == fc.TOO_MANY_STATES)


# ------------------------------------------------------------------------ playouts
@numba.njit
def _random_hand_by_playout(rp, base):
    """A hand dealt by the kernel, opened with the highest double, then played out by
    :func:`dominosim.fast.search.playout` with the seats' own streams."""
    t, p = rp[m.R_TILES], rp[m.R_PLAYERS]
    scratch = k.make_scratch(t, p)
    perm, hands, counts, pips, ends, arms, suit_count = scratch[:7]
    k.deal_hand(rp, base, perm, hands, counts, pips, scratch[10])
    opener, d = -1, -1
    for v in range(rp[m.R_MAX_PIP], -1, -1):
        for s in range(p):
            if opener < 0 and m.holds(hands, s, m.T_DOUBLE[v]):
                opener, d = s, v
    m.take(hands, counts, pips, opener, m.T_DOUBLE[d])
    g = np.zeros(fs.N_G, np.int64)
    g[fs.G_N_ENDS] = rp[m.R_ARMS]
    for i in range(rp[m.R_ARMS]):
        ends[i] = d
    suit_count[:] = 0
    suit_count[d] = rp[m.R_ARMS]
    g[fs.G_SUIT_MASK], g[fs.G_OPEN_SUIT], g[fs.G_SEAT], g[fs.G_OUT] = 1 << d, d, opener, -1
    bone = perm[p * rp[m.R_HAND]:].copy()
    g[fs.G_BONE_N] = bone.shape[0]
    rng = np.zeros(p, np.uint64)
    for s in range(p):
        rng[s] = seat_key(base, s)
    winner, points = fs.playout(rp, hands, counts, pips, ends, arms, suit_count, bone, g, rng)
    return winner, points, pips.copy(), g[fs.G_BONE_POS]


@pytest.mark.parametrize("preset,players", [("block", 2), ("block", 4), ("draw", 2), ("draw", 3),
                                            ("draw", 4)])
def test_playout_equals_the_kernel_with_random_players(preset, players):
    rules = ds.Rules.preset(preset, players=players)
    rp = m.rule_params(rules)
    df = ds.simulate(rules, "random", n_hands=300, seed=9)
    for i, row in df.iterrows():
        winner, points, pips, drawn = _random_hand_by_playout(rp, np.uint64(hand_key(9, i)))
        assert (winner, points) == (row["winning_side"], row["points"])
        assert list(pips) == [row[f"pips_{s}"] for s in range(players)]
        assert drawn == row["draws"]


# ------------------------------------------------------------------------ the choice of mc
def _exact_value(state, side):
    """The exact reward to ``side`` when every seat plays uniformly among its distinct legal
    moves from ``state`` on (Block: no draws)."""
    if state.over:
        win = state.events[-1].winning_side
        return Fraction(1, 2) if win < 0 else Fraction(int(win == side))
    seat = state.to_move
    moves = state.legal_moves(seat)
    if not moves:
        after = copy.deepcopy(state)
        after.knock(seat)
        return _exact_value(after, side)
    total = Fraction(0)
    for move in moves:
        after = copy.deepcopy(state)
        after.play(seat, move)
        total += _exact_value(after, side)
    return total / len(moves)


def _move_values(state, seat, dealt):
    """Each legal move's exact expected reward over the deals consistent with ``seat``'s view
    (uniform) and uniform random play afterwards: what ``mc`` estimates."""
    view = view_of(state, seat)
    rules = state.rules
    found = _brute(view, dealt[seat])
    others = [s for s in range(rules.players) if s != seat]
    values = []
    for move in state.legal_moves(seat):
        total = Fraction(0)
        for (alloc, boneyard), weight in found.items():
            world = copy.deepcopy(state)
            for s, hand in zip(others, alloc, strict=True):
                world.hands[s] = list(hand)
            world.boneyard = sorted(boneyard)
            world.play(seat, move)
            total += weight * _exact_value(world, rules.side_of(seat))
        values.append(total / sum(found.values()))
    return view, values


def _decisive_positions(rules, margin):
    """Positions (the first few by seed) where the best move's exact value beats every other
    by ``margin``."""
    found = []
    for seed in range(40):
        for state, seat, dealt in _positions(rules, seed):
            if seat != state.to_move or len(state.legal_moves(seat)) < 2:
                continue
            view, values = _move_values(state, seat, dealt)
            best = max(values)
            if sum(v > best - margin for v in values) == 1:
                found.append((view, state.legal_moves(seat), values.index(best)))
                break
        if len(found) == 4:
            return found
    raise AssertionError("no decisive position")


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("make", [lambda: MonteCarlo(playouts=2000), lambda: ISMCTS(iterations=2000)],
                         ids=["mc", "ismcts"])
def test_search_plays_the_move_with_the_best_exact_value(players, make):
    # mc estimates exactly these values (uniform consistent deals, uniform random play after);
    # where one move is better by 0.1 or more, both searches must find it
    rules = ds.Rules.preset("block", players=players, max_pip=3, hand_size=3)
    for view, moves, best in _decisive_positions(rules, Fraction(1, 10)):
        chosen = make().choose(view, moves, Stream(4))
        assert moves.index(chosen) == best


# ------------------------------------------------------------------------ both engines
@pytest.mark.parametrize("preset,players", [("block", 4), ("draw", 2), ("draw", 3), ("draw", 4),
                                            ("cross", 4), ("ivory", 3),
                                            ("block", 2)])
@pytest.mark.parametrize("search", SEARCHES)
def test_search_strategies_identical_in_both_engines(preset, players, search):
    rules = ds.Rules.preset(preset, players=players)
    lineup = [search] + ["random", "bully"] * players
    lineup = lineup[:players]
    fast = ds.simulate(rules, lineup, n_hands=25, seed=3)
    ref = ds.simulate(rules, lineup, n_hands=25, seed=3, engine="reference")
    assert fast.equals(ref)


def test_search_event_logs_identical_in_both_engines():
    rules = ds.Rules.preset("draw", players=3, opening="any", leader=1)
    lineup = ["ismcts:80", "mc:6", "mc_omniscient:4"]
    for hand in range(6):
        fast = ds.replay(rules, lineup, seed=8, hand=hand)
        ref = ds.replay(rules, lineup, seed=8, hand=hand, engine="reference")
        assert fast.events == ref.events


def test_honest_search_ignores_the_hidden_tiles():
    rules = ds.Rules.preset("draw", players=3)
    log = ds.replay(rules, "random", seed=2, hand=4, engine="reference")
    from test_sampler import _replay

    hands, boneyard = log.deals[-1]
    events = [e for e in log.events if e.kind != "end"]
    cut = next(c for c in range(4, len(events))
               if len(_replay(rules, hands, boneyard, events[:c]).legal_moves(
                   _replay(rules, hands, boneyard, events[:c]).to_move)) >= 2)
    state = _replay(rules, hands, boneyard, events[:cut])
    seat = state.to_move
    moves = state.legal_moves(seat)
    view = view_of(state, seat, omniscient=True)
    ss = SearchStrategy("mc", 20)._arrays(rules)
    rp = m.rule_params(rules, search_nodes=1, search_states=table_states(rules))
    tiles = np.zeros(2 * rules.n_tiles, dtype=np.int64)
    suits = np.zeros(2 * rules.n_tiles, dtype=np.int64)
    tiles[:len(moves)] = [tile_id(mv.tile) for mv in moves]
    suits[:len(moves)] = [mv.suit for mv in moves]
    picks = []
    for with_hidden in (False, True):  # the arrays hold the true hands and boneyard, or not
        pos = position_arrays(view, log_buffer(ss), omniscient=with_hidden)
        assert (pos[0].sum() > 0) and (pos[9].any() == with_hidden)
        rng = np.array([77], dtype=np.uint64)
        picks.append((fs.decide(rp, 0, False, 20, seat, len(moves), tiles, suits, *pos, ss, rng),
                      int(rng[0])))
    assert picks[0] == picks[1]


# ------------------------------------------------------------------------ names and budgets
def test_search_names_carry_budgets():
    assert SearchStrategy.from_name("mc").budget == 100
    assert SearchStrategy.from_name("ismcts").budget == 1000
    assert SearchStrategy.from_name("mc_omniscient:7").name == "mc_omniscient:7"
    assert ISMCTS(iterations=9, omniscient=True).omniscient
    assert ds.strategies.resolve("ismcts:30").budget == 30


@pytest.mark.parametrize("spec,message", [
    ("mc:0", "The value for `playouts` must be an integer from 1"),
    ("mc:x", "must name a search strategy as 'mc', 'ismcts'"),
    ("ismcts:-4", "must name a search strategy"),
    ("mcts:10", "must be built-in names .* a search with a budget as 'mc:200'"),
])
def test_search_bad_names_refused(spec, message):
    with pytest.raises(ValueError, match=message):
        ds.simulate(ds.Rules.preset("block", players=2), [spec, "random"], n_hands=2)


def test_search_bad_arguments_refused():
    with pytest.raises(ValueError, match="The value for `iterations` must be an integer"):
        ISMCTS(iterations=2.5)
    with pytest.raises(ValueError, match="The value for `omniscient` must be True or False"):
        MonteCarlo(omniscient="yes")


def test_omniscient_views_only_for_omniscient_strategies():
    seen = []

    def spy(view, moves, rng):
        seen.append(view.hidden)
        return moves[0]

    ds.simulate(ds.Rules.preset("draw", players=2), [spy, "mc_omniscient:2"], n_hands=5,
                engine="reference")
    assert seen and all(h is None for h in seen)
