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
from dominosim.fast.core import board as fb
from dominosim.fast.core import turn as ft
from dominosim.fast.core.params import rule_params
from dominosim.fast.core.rng import seat_key
from dominosim.fast.core.shape import Shape
from dominosim.fast.engine import max_events
from dominosim.fast.hand import kernel as k
from dominosim.fast.search import consistent as fc
from dominosim.fast.search import search as fs
from dominosim.fast.search import worlds as fw
from dominosim.reference.game import GameState
from dominosim.rng import Stream, hand_key
from dominosim.strategies import view_of
from dominosim.strategies.sampler import DealSampler
from dominosim.strategies.search import (
    ISMCTS,
    MonteCarlo,
    SearchStrategy,
    position_board,
    resolve_search,
    table_states,
)
from dominosim.tiles import tile_id, tile_of

SEARCHES = ["mc:5", "ismcts:60", "mc_omniscient:5", "ismcts_omniscient:60", "pimc:3"]


def _prepared(view):
    """The compiled sampler's scratch after reading ``view`` (and the position arrays)."""
    rules = view.rules
    ss = fc.make_sampler_scratch(rules.n_tiles, rules.players, max_events(rules),
                                 table_states(rules))
    pub = np.zeros((max_events(rules), fb.PUB_COLS), dtype=np.int64)
    board, n_pub = position_board(view, pub)
    rp = rule_params(rules)
    status = fc.prepare(rp, view.seat, pub, n_pub, board.hands, board.counts,
                        board.at[fb.BONE_END], ss)
    return rp, ss, board.hands, status


def _compiled_samples(view, n, seed):
    rp, ss, hands, status = _prepared(view)
    assert status > 0
    p, t = view.rules.players, view.rules.n_tiles
    out = fb.make_board(t, p)
    rng = np.array([seed], dtype=np.uint64)
    for _ in range(n):
        nb = fc.draw_deal(rp, view.seat, hands, ss, out, rng, 0)
        held = [[tile_of(x) for x in range(t) if fb.holds(out.hands, s, x)] for s in range(p)]
        yield held, [tile_of(int(x)) for x in out.bone[:nb]], np.stack([out.counts, out.pips])


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


def test_search_scratch_has_the_sizes_asked_for():
    for t, p, e, nodes, states, bits in ((28, 4, 200, 1001, 1 << 20, 0), (136, 10, 2000, 1, 5, 0),
                                         (6, 2, 0, 0, 0, 0), (28, 4, 200, 1, 1 << 20, 12)):
        ss = fw.make_search_scratch(t, p, e, nodes, states, bits)
        assert (ss.stack is None) == (bits == 0)
        if bits:
            assert ss.stack.tt.shape == (1 << bits, 2) and ss.stack.hands.shape == (t + 3, p, 1)
        assert ss.tree.shape == (8, max(nodes, 1)) and ss.value.shape == (max(nodes, 1),)
        assert ss.sampler.codes.shape == (max(states, 1),)
        assert ss.sampler.cons.shape == (4, e + p)
        assert ss.dealt.hands.shape == ss.work.hands.shape == (p, (t + 63) // 64)
        assert ss.moves.shape == (2, 2 * t) and ss.rng.shape == (p + 1,)


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
    pub = np.zeros((max_events(rules), fb.PUB_COLS), dtype=np.int64)
    board, n_pub = position_board(view, pub)
    for limit, ok in ((10, False), (table_states(rules), True)):
        ss = fc.make_sampler_scratch(rules.n_tiles, 4, max_events(rules), limit)
        status = fc.prepare(rule_params(rules), 0, pub, n_pub, board.hands, board.counts,
                            board.at[fb.BONE_END], ss)
        assert (status > 0) == ok and (ok or status == fc.TOO_MANY_STATES)


# ------------------------------------------------------------------------ playouts
@numba.njit
def _random_hand_by_playout(core, rp, base):
    """A hand dealt by the kernel, opened with the highest double, then played out by
    :func:`dominosim.fast.search.search.playout` with the seats' own streams."""
    t, p = rp.tiles, rp.players
    board, notes, log = fb.make_board(t, p), fb.make_notes(p), fb.make_log(0, 0)
    rng = np.zeros(p + 1, np.uint64)
    k.deal(core, rp, base, board, rng)
    opener, tile = k.highest_double(rp, board.hands)
    ft.open_with(core, rp, board, notes, log, opener, tile, True)
    for s in range(p):
        rng[s] = seat_key(base, s)
    winner, points = fs.playout(core, rp, board, notes, log, rng)
    return winner, points, board.pips.copy(), board.at[fb.BONE_POS] - p * rp.hand_size


@pytest.mark.parametrize("preset,players", [("block", 2), ("block", 4), ("draw", 2), ("draw", 3),
                                            ("draw", 4)])
def test_playout_equals_the_kernel_with_random_players(preset, players):
    rules = ds.Rules.preset(preset, players=players)
    rp = rule_params(rules)
    df = ds.simulate(rules, "random", n_hands=300, seed=9)
    for i, row in df.iterrows():
        winner, points, pips, drawn = _random_hand_by_playout(Shape.of(rules), rp,
                                                              np.uint64(hand_key(9, i)))
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


def test_search_summary_is_the_sums_of_its_rows_played_by_the_rows_kernel():
    """A summary of searches is played by the rows' kernel and summed (``fast.kernel_keep``):
    the sums of the reference engine's records, with no second entry point compiled."""
    from dominosim.fast import engine as fast
    from dominosim.fast.hand.driver import sums_of

    rules = ds.Rules.preset("draw", players=3)
    lineup = ["mc:3", "bully", "random"]
    summary = ds.simulate(rules, lineup, n_hands=30, seed=6, keep="summary", chunk_size=11,
                          n_jobs=2)
    ref = ds.simulate(rules, lineup, n_hands=30, seed=6, engine="reference")
    np.testing.assert_array_equal(summary.sums, ds.Summary.from_frame(rules, ref).sums)
    run, plain = fast.prepare(rules, lineup), fast.prepare(rules, "bully")
    assert (fast.kernel_keep(run, "summary"), fast.kernel_keep(plain, "summary")) == ("rows",
                                                                                    "summary")
    ds.simulate(rules, "bully", n_hands=5, seed=6, keep="summary")
    compiled = [sig[0] for sig in sums_of.overloads]
    assert numba.typeof(plain.shape) in compiled and numba.typeof(run.shape) not in compiled


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
    ss, pub = SearchStrategy("mc", 20)._arrays(rules)
    rp = rule_params(rules)
    arr = np.zeros((2, 2 * rules.n_tiles), dtype=np.int64)
    arr[0, :len(moves)] = [tile_id(mv.tile) for mv in moves]
    arr[1, :len(moves)] = [mv.suit for mv in moves]
    picks = []
    for with_hidden in (False, True):  # the arrays hold the true hands and boneyard, or not
        board, n_pub = position_board(view, pub, omniscient=with_hidden)
        assert (board.hands.sum() > 0) and (board.bone.any() == with_hidden)
        rng = np.array([77], dtype=np.uint64)
        budget, decision = fs.Budget(fs.MC, False, 20), fs.Decision(seat, len(moves), arr, board,
                                                                     pub, n_pub)
        picks.append((fs.decide(Shape.searching(rules), rp, budget, decision, ss, rng),
                      int(rng[0])))
    assert picks[0] == picks[1]


# ------------------------------------------------------------------------ names and budgets
def test_search_names_carry_budgets():
    assert SearchStrategy.from_name("mc").budget == 100
    assert SearchStrategy.from_name("ismcts").budget == 1000
    assert SearchStrategy.from_name("mc_omniscient:7").name == "mc_omniscient:7"
    assert ISMCTS(iterations=9, omniscient=True).omniscient
    assert ds.strategies.resolve("ismcts:30").budget == 30
    # "best", a plain name for a search with its budget, is one search wherever a name is read
    assert ds.strategies.resolve("best").name == resolve_search("best").name == "pimc:50+infer"


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
