"""A compiled plug-in's contract, held in both engines and reported by ``check_strategy``."""

from __future__ import annotations

import numba
import pytest

import dominosim as ds
from dominosim.fast.core.rng import below
from dominosim.fast.hand.plugin import FAULT_RAISED, FAULT_WROTE, V_BONEYARD, plugin_fault_message

RULES = ds.Rules.preset("draw", players=2)
ENGINES = ("fast", "reference")


@numba.njit
def raises_late(moves_tile, moves_suit, n_moves, view, rng):
    if view[V_BONEYARD] < 3:
        raise ValueError("the boneyard is nearly empty")
    return 0


@numba.njit
def raises_on_a_draw(moves_tile, moves_suit, n_moves, view, rng):
    # the exception depends on the stream: played again in Python, the stream must be restored
    k = below(rng, 0, n_moves)
    if below(rng, 0, 50) == 7:
        raise KeyError(k)
    return k


@numba.njit
def returns_float(moves_tile, moves_suit, n_moves, view, rng):
    return 0.7 * (n_moves - 1) + 0.2


@numba.njit
def returns_tuple(moves_tile, moves_suit, n_moves, view, rng):
    return (0, 1)


@numba.njit
def four_arguments(moves_tile, moves_suit, n_moves, view):
    return 0


@numba.njit
def writes_moves(moves_tile, moves_suit, n_moves, view, rng):
    moves_tile[0] = moves_tile[n_moves - 1]
    return 0


@numba.njit
def writes_view(moves_tile, moves_suit, n_moves, view, rng):
    view[0] += 1
    return 0


@numba.njit
def one_past_the_end(moves_tile, moves_suit, n_moves, view, rng):
    return n_moves


@numba.njit
def first(moves_tile, moves_suit, n_moves, view, rng):
    return 0


@pytest.mark.parametrize("engine", ENGINES)
def test_plugin_exception_stops_the_run_with_that_exception(engine, capfd):
    plug = ds.compiled_strategy(raises_late)
    with pytest.raises(ValueError, match="the boneyard is nearly empty") as caught:
        ds.simulate(RULES, [plug, "random"], 200, seed=1, engine=engine)
    assert "'raises_late' at seat 0" in " ".join(caught.value.__notes__)
    assert "Exception ignored" not in capfd.readouterr().err


def test_plugin_exception_that_depends_on_its_stream_is_raised_again_from_that_stream():
    plug = ds.compiled_strategy(raises_on_a_draw)
    with pytest.raises(KeyError) as fast:
        ds.simulate(RULES, [plug, "random"], 400, seed=6, n_jobs=1)
    with pytest.raises(KeyError) as reference:
        ds.simulate(RULES, [plug, "random"], 400, seed=6, engine="reference")
    assert fast.value.args == reference.value.args


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("func", [writes_moves, writes_view])
def test_plugin_writing_its_arguments_stops_the_run_naming_strategy_and_seat(engine, func):
    plug = ds.compiled_strategy(func)
    with pytest.raises(RuntimeError, match=f"'{func.__name__}' at seat 1 wrote into its"):
        ds.simulate(RULES, ["random", plug], 100, seed=2, engine=engine)


@pytest.mark.parametrize("engine", ENGINES)
def test_plugin_index_out_of_range_names_strategy_seat_and_index(engine):
    plug = ds.compiled_strategy(one_past_the_end)
    with pytest.raises(ds.IllegalMoveError, match=r"'one_past_the_end' at seat 1 returned move "
                                                  r"index (\d+), but it had \1 legal moves"):
        ds.simulate(RULES, ["random", plug], 100, seed=3, engine=engine)


@pytest.mark.parametrize(("func", "message"), [
    (returns_float, "'returns_float' must return an integer move index, but it returns float64"),
    (returns_tuple, "'returns_tuple' must return an integer move index, but it returns Tuple"),
    (four_arguments, "'four_arguments' must take 5 arguments"),
])
def test_compiled_strategy_refuses_a_wrong_signature_in_one_line(func, message):
    with pytest.raises(ValueError, match=message) as caught:
        ds.compiled_strategy(func)
    assert "\n" not in str(caught.value)


def test_plugin_faults_leave_no_record_for_the_next_run():
    plug = ds.compiled_strategy(first)
    before = ds.simulate(RULES, [plug, "random"], 300, seed=5)
    assert ds.simulate(RULES, [plug, "random"], 300, seed=5).equals(before)
    assert not plug._record.any()


def test_plugin_fault_message_names_each_fault():
    assert "raised an exception" in plugin_fault_message(FAULT_RAISED, "s", 2)
    assert "seat 2 wrote into" in plugin_fault_message(FAULT_WROTE, "s", 2)
    assert plugin_fault_message(-1, "s", 0, n_moves=4).endswith("(indices 0 to 3).")


@pytest.mark.parametrize("func", [raises_late, writes_moves, one_past_the_end])
def test_check_strategy_reports_a_faulty_plugin_as_a_finding(func):
    report = ds.check_strategy(ds.compiled_strategy(func), rules=RULES, n_hands=30)
    assert not report.ok and func.__name__ in report.problems[0]


@pytest.mark.parametrize("func", [returns_float, returns_tuple, four_arguments])
def test_check_strategy_reports_a_plugin_of_the_wrong_signature_as_a_finding(func):
    report = ds.check_strategy(func, rules=RULES, n_hands=30)
    assert not report.ok and report.problems == [report.problems[0]]
    assert func.__name__ in report.problems[0]


def test_check_strategy_takes_a_numba_function_and_checks_it_in_both_engines():
    report = ds.check_strategy(first, rules=RULES, n_hands=30)
    assert report.ok and report.engines == ("reference", "fast") and report.problems == []


def test_check_strategy_reports_a_raising_python_strategy_as_a_finding():
    def broken(view, moves, rng):
        raise KeyError("no such seat")

    report = ds.check_strategy(broken, rules=[RULES, ds.Rules.preset("block", players=4)],
                               n_hands=10)
    assert not report.ok and len(report.problems) == 2
    assert "KeyError" in report.problems[0] and "no such seat" in report.problems[0]
