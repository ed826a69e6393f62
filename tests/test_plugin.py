"""Compiled plug-in strategies and the conformance checker."""

from __future__ import annotations

import numba
import pytest

import dominosim as ds
from dominosim.fast.core.rng import below
from dominosim.fast.hand.plugin import V_BONEYARD, V_HAND_OFFSET, V_N_ENDS, V_OPENER, V_TILE_COUNTS
from dominosim.tiles import PIPS


@numba.njit
def uniform(moves_tile, moves_suit, n_moves, view, rng):
    if view[V_BONEYARD] < 0:
        return 0
    return below(rng, 0, n_moves)


@numba.njit
def lightest(moves_tile, moves_suit, n_moves, view, rng):
    best = 0
    for i in range(1, n_moves):
        if PIPS[moves_tile[i]] < PIPS[moves_tile[best]]:
            best = i
    return best


@numba.njit
def hand_heaviest(moves_tile, moves_suit, n_moves, view, rng):
    # reads its own hand from the view: plays the move whose tile is its heaviest held tile
    players = view[1]
    seat = view[0]
    count = view[V_TILE_COUNTS + seat]
    heaviest = -1
    for i in range(count):
        t = view[V_TILE_COUNTS + V_HAND_OFFSET * players + i]
        if heaviest < 0 or PIPS[t] >= PIPS[heaviest]:
            heaviest = t
    for i in range(n_moves):
        if moves_tile[i] == heaviest:
            return i
    return n_moves - 1


@numba.njit
def out_of_range(moves_tile, moves_suit, n_moves, view, rng):
    return n_moves


@pytest.mark.parametrize(("preset", "kw"), [
    ("block", dict(players=4)), ("draw", dict(players=3, opening="any", leader=2)),
    ("double_nine_cross", dict(players=5))])
def test_plugin_uniform_plays_exactly_as_builtin_random(preset, kw):
    rules = ds.Rules.preset(preset, **kw)
    plug = ds.compiled_strategy(uniform)
    builtin = ds.simulate(rules, "random", 3_000, seed=9)
    assert ds.simulate(rules, plug, 3_000, seed=9).equals(builtin)
    assert ds.simulate(rules, plug, 300, seed=9, engine="reference").equals(builtin.iloc[:300])


@pytest.mark.parametrize("func", [lightest, hand_heaviest])
def test_plugin_engines_agree_hand_for_hand(func):
    plug = ds.compiled_strategy(func)
    for rules in (ds.Rules.preset("block", players=4), ds.Rules.preset("ivory", players=3)):
        lineup = [plug] + ["random"] * (rules.players - 1)
        fast = ds.simulate(rules, lineup, 1_000, seed=3)
        ref = ds.simulate(rules, lineup, 1_000, seed=3, engine="reference")
        assert fast.equals(ref)
        assert ds.replay(rules, lineup, 3, 17, engine="fast").events == ds.replay(
            rules, lineup, 3, 17).events


@numba.njit
def _by_the_table(moves_tile, moves_suit, n_moves, view, rng):
    """Chooses by what the view says of the table: before the lead, no opener and no ends."""
    return (view[V_OPENER] + 1 + view[V_N_ENDS]) % n_moves


def test_plugin_leading_under_opening_any_sees_an_empty_table_in_both_engines():
    rules = ds.Rules.preset("block", players=2, opening="any", leader=0)
    lineup = [ds.compiled_strategy(_by_the_table), "random"]
    fast = ds.simulate(rules, lineup, n_hands=300, seed=4)
    ref = ds.simulate(rules, lineup, n_hands=300, seed=4, engine="reference")
    assert fast.equals(ref)


def test_plugin_several_compiled_strategies_in_one_run_each_called_at_its_seat():
    light, heavy = ds.compiled_strategy(lightest), ds.compiled_strategy(hand_heaviest)
    rules = ds.Rules.preset("draw", players=3)
    lineup = [light, heavy, "mc:4"]
    fast = ds.simulate(rules, lineup, 400, seed=5)
    assert fast.equals(ds.simulate(rules, lineup, 400, seed=5, engine="reference"))
    # seat by seat: swapping the two plug-ins changes the hands, so each seat calls its own
    assert not fast.equals(ds.simulate(rules, [heavy, light, "mc:4"], 400, seed=5))


def test_plugin_differs_from_random_so_it_is_really_called():
    rules = ds.Rules.preset("block", players=2)
    plug = ds.compiled_strategy(lightest)
    assert not ds.simulate(rules, plug, 500, seed=1).equals(ds.simulate(rules, "random", 500,
                                                                         seed=1))


def test_plugin_illegal_index_is_refused_in_both_engines():
    rules = ds.Rules.preset("draw", players=2)
    bad = ds.compiled_strategy(out_of_range)
    with pytest.raises(ds.IllegalMoveError, match="index"):
        ds.simulate(rules, bad, 50, seed=1)
    with pytest.raises(ds.IllegalMoveError, match="returned move index"):
        ds.simulate(rules, bad, 50, seed=1, engine="reference")


def test_compiled_strategy_refuses_a_plain_function():
    with pytest.raises(ValueError, match="`func` must be a numba @njit function"):
        ds.compiled_strategy(lambda *args: 0)


def test_check_strategy_passes_a_conforming_plugin_and_flags_a_bad_one():
    good = ds.check_strategy(ds.compiled_strategy(lightest), n_hands=100)
    assert good.ok and good.engines == ("reference", "fast") and good.hands == 500
    bad = ds.check_strategy(ds.compiled_strategy(out_of_range), n_hands=20,
                            rules=ds.Rules.preset("draw", players=2))
    assert not bad.ok and "illegal move" in bad.problems[0]


def test_check_strategy_flags_hidden_randomness():
    import random as stdlib_random

    generator = stdlib_random.Random(0)

    def fickle(view, moves, rng):
        return moves[generator.randrange(len(moves))]

    report = ds.check_strategy(fickle, rules=ds.Rules.preset("draw", players=2), n_hands=50)
    assert not report.ok and "randomness other than its stream" in report.problems[0]
