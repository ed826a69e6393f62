"""A compiled plug-in cannot change what the engine plays, nor read out of its arrays (issue 20):
it gets copies, every entry is compared (two writes that cancel in a sum are still found), and
its reads are bounds-checked, in both engines and in check_strategy."""

from __future__ import annotations

import numba
import pytest

import dominosim as ds

RULES = ds.Rules.preset("draw", players=2)


@numba.njit
def cancelling_writes(moves_tile, moves_suit, n_moves, view, rng):
    moves_tile[0] += 3
    moves_tile[1] -= 1
    return 0


@numba.njit
def view_writes_that_cancel(moves_tile, moves_suit, n_moves, view, rng):
    view[0] += 1
    view[1] -= 3
    return 0


@numba.njit
def reads_far_out(moves_tile, moves_suit, n_moves, view, rng):
    return moves_tile[1_000_000_000] * 0


@numba.njit
def reads_below(moves_tile, moves_suit, n_moves, view, rng):
    return view[-1_000_000_000] * 0


@pytest.mark.parametrize("engine", ["fast", "reference"])
@pytest.mark.parametrize("func", [cancelling_writes, view_writes_that_cancel])
def test_plugin_writes_that_cancel_in_a_sum_are_refused_in_both_engines(func, engine):
    with pytest.raises(RuntimeError, match=r"wrote into its moves_tile, moves_suit or view "
                       r"arrays; a strategy must only read them"):
        ds.simulate(RULES, [ds.compiled_strategy(func), "random"], n_hands=20, seed=1,
                    engine=engine)


@pytest.mark.parametrize("engine", ["fast", "reference"])
@pytest.mark.parametrize("func", [reads_far_out, reads_below])
def test_plugin_reading_out_of_its_arrays_raises_index_error_in_both_engines(func, engine):
    with pytest.raises(IndexError, match="out of bounds"):
        ds.simulate(RULES, [ds.compiled_strategy(func), "random"], n_hands=20, seed=1,
                    engine=engine)


@pytest.mark.parametrize("func", [cancelling_writes, reads_far_out])
def test_check_strategy_reports_a_plugin_that_writes_or_reads_out_of_bounds(func):
    report = ds.check_strategy(func, rules=RULES, n_hands=5)
    assert not report.ok
    assert any("wrote into" in p or "out of bounds" in p for p in report.problems)


def test_a_plugin_that_only_reads_plays_the_same_hands_in_both_engines():
    from dominosim.tiles import PIPS

    @numba.njit
    def heaviest(moves_tile, moves_suit, n_moves, view, rng):
        best = 0
        for i in range(1, n_moves):
            if PIPS[moves_tile[i]] > PIPS[moves_tile[best]]:
                best = i
        return best

    strategy = ds.compiled_strategy(heaviest)
    fast = ds.simulate(RULES, [strategy, "random"], n_hands=200, seed=3)
    reference = ds.simulate(RULES, [strategy, "random"], n_hands=200, seed=3, engine="reference")
    assert fast.equals(reference) and (fast[["pips_0", "pips_1"]] >= 0).all().all()
