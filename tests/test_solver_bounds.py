"""Solve and analyze under attack (issue 20): threads, Ctrl-C, memory and node limits, typed-in
hands with hidden tiles, and the arguments that used to wrap or slip past the checks."""

from __future__ import annotations

import _thread
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pandas as pd
import pytest

import dominosim as ds
from dominosim.solver.bounds import scratch_bytes, stack_bytes, table_bytes

BLOCK = ds.Rules.preset("block", players=2)
TYPED = '''{"schema": "dominosim.hand/1",
 "rules": {"preset": "block", "players": 3, "max_pip": 3, "hand_size": 3},
 "deal": {"hands": [["3-3", "1-0", "1-1"], null, null], "boneyard": null},
 "moves": ["3-3"]}'''


def _positions(n: int) -> list[ds.Position]:
    return [ds.replay(BLOCK, "random", seed=11, hand=h).position(4) for h in range(n)]


def _interrupt_after(seconds: float) -> float:
    """Send Ctrl-C to this (the main) thread in ``seconds``; returns when it will arrive."""
    timer = threading.Timer(seconds, _thread.interrupt_main)
    timer.start()
    _TIMERS.append(timer)
    return time.monotonic() + seconds


_TIMERS: list[threading.Timer] = []


@pytest.fixture(autouse=True)
def _no_late_interrupt():
    """Ctrl-C reaches the test as Python's ``KeyboardInterrupt`` whatever handler of SIGINT the
    process was left with (``_thread.interrupt_main`` does nothing while SIGINT is ignored, as
    it was in some pytest-xdist workers: the two Ctrl-C tests then ran their search to the end),
    and a Ctrl-C not yet sent when a test ends is cancelled (it must not reach the next one)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    while _TIMERS:
        _TIMERS.pop().cancel()
    signal.signal(signal.SIGINT, previous)


def test_solve_from_eight_threads_equals_the_same_solves_one_by_one():
    positions = _positions(8)
    serial = [ds.solve(p, objective="points") for p in positions]
    for _ in range(3):
        with ThreadPoolExecutor(8) as pool:
            threaded = list(pool.map(lambda p: ds.solve(p, objective="points"), positions * 2))
        for one, other in zip(serial * 2, threaded, strict=True):
            assert other.value == one.value
            pd.testing.assert_frame_equal(other.moves, one.moves)


def test_analyze_from_four_threads_equals_the_same_analyses_one_by_one():
    positions = _positions(4)
    serial = [ds.analyze(p, budget=150, seed=3, n_jobs=1) for p in positions]
    with ThreadPoolExecutor(4) as pool:
        threaded = list(pool.map(lambda p: ds.analyze(p, budget=150, seed=3, n_jobs=1),
                                 positions))
    for one, other in zip(serial, threaded, strict=True):
        pd.testing.assert_frame_equal(other, one)


def _long_position() -> ds.Position:
    """A position whose solve takes minutes (Double Nine Cross, 4 players, just opened); its
    kernels are compiled by a first call stopped at once by a tiny limit."""
    rules = ds.Rules.preset("double_nine_cross", players=4)
    position = ds.replay(rules, "random", seed=1, hand=0).position(1)
    with pytest.raises(ValueError, match="too small for this position"):
        ds.solve(position, max_nodes=10)
    return position


def test_solve_stops_within_two_seconds_of_ctrl_c():
    position = _long_position()
    arrives = _interrupt_after(1.0)
    with pytest.raises(KeyboardInterrupt):
        ds.solve(position, max_nodes=2**60)
    assert time.monotonic() - arrives < 2.0
    ds.solve(_positions(1)[0])  # the thread's table is usable again


def test_analyze_stops_within_two_seconds_of_ctrl_c_and_frees_its_tables():
    position = _long_position()
    arrives = _interrupt_after(1.0)
    with pytest.raises(KeyboardInterrupt):
        ds.analyze(position, budget=100_000, n_jobs=2, precision=0.001)  # never done early
    assert time.monotonic() - arrives < 2.0
    table = ds.analyze(_positions(1)[0], budget=100, n_jobs=2)
    assert table.attrs["samples"] >= 1


def test_analyze_world_past_max_nodes_advises_the_analysis_not_a_strategy():
    with pytest.raises(RuntimeError, match=r"^A sampled world needed more than 1,000 solver nodes "
                       r"\(the value for `max_nodes`.*pass a larger `max_nodes` or "
                       r"method='playout' \(ds.analyze and ds.review take both\), or analyze a "
                       r"later position of the hand\.$"):
        ds.analyze(_long_position(), budget=10, max_nodes=1_000, n_jobs=1)


def test_memory_estimates_bound_the_real_tables():
    from dominosim.fast.search.solve import make_stack
    from dominosim.fast.search.worlds import make_search_scratch
    from dominosim.records import max_events
    from dominosim.strategies.search import table_states

    for rules in (BLOCK, ds.Rules.preset("double_nine_cross", players=4)):
        stack = make_stack(rules.n_tiles, rules.players, rules.n_tiles + 3, 16)
        assert stack_bytes(stack) <= table_bytes(rules.n_tiles, 16)
        ss = make_search_scratch(rules.n_tiles, rules.players, max_events(rules), 1,
                                 table_states(rules), 16)
        real = sum(stack_bytes(a) if isinstance(a, tuple) else getattr(a, "nbytes", 0)
                   for a in ss)
        assert real <= scratch_bytes(rules, 16) <= 1.1 * real


@pytest.mark.parametrize("call, message", [
    (lambda p: ds.solve(p, max_memory=1 << 20),
     r"^The value for `max_memory` \(1 MB\) is too small: a table of 2\*\*22 positions needs "),
    (lambda p: ds.analyze(p, max_memory=1 << 20, n_jobs=2),
     r"^The value for `max_memory` \(1 MB\) is too small: an analysis on 2 threads \(n_jobs\) "
     r"needs "),
])
def test_memory_limit_refused_before_the_work_starts(call, message):
    with pytest.raises(ValueError, match=message):
        call(_positions(1)[0])


def test_typed_in_hand_with_hidden_tiles_is_not_solved_and_no_knock_is_invented():
    log = ds.HandLog.from_json(TYPED)
    position = log.position(1)
    assert position.hidden > 0 and position.to_move == 1
    settled = position.settled()  # seat 1's tiles are hidden: whether it can play is not known
    assert settled.to_move == 1 and settled.history == position.history
    with pytest.raises(ValueError, match=r"^The value for `position` must have every hand and the "
                       r"boneyard known to solve it \(perfect information\), but \d+ tiles"):
        ds.solve(position)
    with pytest.raises(ValueError, match=r"^The value for `position` must have the tiles of the "
                       r"seat to move known to analyze it, but seat 1 is to move"):
        ds.analyze(position)


@pytest.mark.parametrize("kwargs, name", [
    ({"seat": 2.0}, "seat"), ({"seed": 1.5}, "seed"), ({"seed": 2**64}, "seed"),
    ({"seed": -1}, "seed"), ({"budget": float("nan")}, "budget"), ({"budget": 2**70}, "budget"),
    ({"max_nodes": 2**63}, "max_nodes"), ({"max_memory": "1GB"}, "max_memory"),
])
def test_analyze_numbers_that_would_wrap_are_refused_in_one_line(kwargs, name):
    with pytest.raises(ValueError) as refused:
        ds.analyze(_positions(1)[0], **kwargs)
    text = str(refused.value)
    assert text.startswith(f"The value for `{name}` must be ") and "\n" not in text


@pytest.mark.parametrize("kwargs, name", [
    ({"max_nodes": 2**63}, "max_nodes"), ({"max_nodes": float("nan")}, "max_nodes"),
    ({"table_bits": True}, "table_bits"), ({"max_memory": -1}, "max_memory"),
])
def test_solve_numbers_that_would_wrap_are_refused_in_one_line(kwargs, name):
    with pytest.raises(ValueError, match=rf"^The value for `{name}` must be "):
        ds.solve(_positions(1)[0], **kwargs)


@pytest.mark.parametrize("hands, boneyard, name", [
    ([[(0.9, 1)], [(2, 2)]], [], "hands"), (None, [], "hands"), ([[(0, 1)], None], [], "hands"),
    ([[(0, 1)], [(2, 2)]], None, "boneyard"), ([[(0, 1, 2)], [(2, 2)]], [], "hands"),
    ([[(True, 1)], [(2, 2)]], [], "hands"),
])
def test_from_deal_never_rounds_or_crashes_on_a_bad_tile(hands, boneyard, name):
    rules = ds.Rules.preset("block", players=2, max_pip=2, hand_size=1)
    with pytest.raises(ValueError, match=rf"^The value for `{name}` must be|^The value for "
                       rf"`{name}` must hold \(a, b\) tiles of two integers"):
        ds.Position.from_deal(rules, hands, boneyard)


def test_exact_max_states_that_would_turn_the_guard_off_is_refused():
    rules = ds.Rules(max_pip=2, players=2, hand_size=2)
    for bad in (float("nan"), "abc", 2**63, 0, True, 1.5, None):
        with pytest.raises(ValueError, match=r"^The value for `max_states` must be a positive "
                           r"integer of at most 2\*\*62, but .* was passed\.$"):
            ds.exact(rules, max_states=bad)


def test_check_strategy_refuses_its_own_bad_arguments_instead_of_reporting_the_strategy():
    rules = ds.Rules.preset("draw", players=2)
    for kwargs, name in (({"rules": "draw"}, "rules"), ({"rules": []}, "rules"),
                         ({"rules": [rules, 3]}, r"rules\[1\]"), ({"n_hands": 0}, "n_hands"),
                         ({"n_hands": 2.5}, "n_hands"), ({"seed": -1}, "seed")):
        with pytest.raises(ValueError, match=rf"^The value for `{name}` must be "):
            ds.check_strategy("random", **kwargs)


PRESET_SENTENCE = (r"^The value for `rules` must be a dominosim.Rules \(for example "
                   r"Rules.preset\('draw', players=2\)\), but 'draw' was passed\.$")


@pytest.mark.parametrize("call", [
    lambda: ds.simulate("draw", "random", n_hands=3),
    lambda: ds.replay("draw", "random", seed=0, hand=0),
    lambda: ds.check_strategy("random", rules="draw"),
    lambda: ds.exact("draw"),
    lambda: ds.Position.from_deal("draw", [[(0, 0)], [(1, 1)]]),
    lambda: ds.compare("draw", "random", "bully", n_deals=4),
    lambda: ds.Summary.empty("draw"),
])
def test_a_preset_name_where_rules_are_expected_is_refused_in_the_same_sentence(call):
    with pytest.raises(ValueError, match=PRESET_SENTENCE):
        call()


def test_review_of_a_double_nine_cross_hand_shows_progress_and_advises_the_review(capsys):
    rules = ds.Rules.preset("double_nine_cross", players=4)
    log = ds.replay(rules, "random", seed=1, hand=0)
    with pytest.raises(RuntimeError, match=r"needed more than 1,000 solver nodes \(the value for "
                       r"`max_nodes`; 4 players, double-9\): pass a larger `max_nodes` or "
                       r"method='playout' \(ds.analyze and ds.review take both\)"):
        ds.review(log, 0, budget=10, max_nodes=1_000, progress=True)
    assert "review of seat 0" in capsys.readouterr().err
    table = ds.review(log, 0, method="playout", budget=10, max_nodes=1_000, progress=False)
    assert len(table) >= 1 and table["solved_best"].isna().all()
    assert "left unsolved" in table.attrs["note"]
