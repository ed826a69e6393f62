"""Limits checked before any work starts, and a long search that Ctrl-C stops."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

import dominosim as ds
from dominosim.simulation.play import MAX_HANDS, MAX_ROWS
from dominosim.strategies.search import MAX_BUDGET

RULES = ds.Rules.preset("draw", players=2)


@pytest.mark.parametrize(("kwargs", "message"), [
    (dict(n_hands=10**18), "`n_hands` must be at most 100,000,000 .*MAX_ROWS"),
    (dict(n_hands=MAX_ROWS + 1, engine="reference"), "`n_hands` must be at most"),
    (dict(n_hands=MAX_HANDS + 1, keep="summary"), "`n_hands` must be at most .*MAX_HANDS"),
    (dict(n_hands=2, start=2**63 - 1), "`start` must leave the last hand index"),
    (dict(n_hands=1, start=2**64), "`start` must leave the last hand index"),
])
def test_simulate_refuses_runs_beyond_its_limits_before_allocating(kwargs, message):
    started = time.perf_counter()
    with pytest.raises(ValueError, match=message):
        ds.simulate(RULES, "random", **kwargs)
    assert time.perf_counter() - started < 1


def test_simulate_plays_the_last_hand_index_without_wrapping():
    last = 2**63 - 1
    df = ds.simulate(RULES, "random", 1, seed=3, start=last, engine="reference")
    assert df["hand"].tolist() == [last]
    assert ds.simulate(RULES, "random", 1, seed=3, start=last).equals(df)


def test_replay_refuses_a_hand_index_past_int64():
    with pytest.raises(ValueError, match="`hand` must be at most"):
        ds.replay(RULES, "random", seed=1, hand=2**63)


@pytest.mark.parametrize(("name", "message"), [
    ("mc:99999999999", r"`playouts` must be an integer from 1 to 100,000 .*MAX_BUDGET\['mc'\]"),
    ("ismcts:100000000", r"`iterations` must be an integer from 1 to 1,000,000 .*'ismcts'"),
    ("mc:١٢", "must name a search strategy"),
])
def test_search_budget_beyond_its_cap_is_refused_naming_the_cap(name, message):
    with pytest.raises(ValueError, match=message):
        ds.simulate(RULES, name, 10)


def test_search_budget_at_its_cap_is_accepted():
    assert ds.strategies.resolve(f"mc:{MAX_BUDGET['mc']}").budget == MAX_BUDGET["mc"]


def test_simulate_matches_refuses_an_unreachable_target_at_once():
    started = time.perf_counter()
    with pytest.raises(ValueError, match="`target` of the rules must be at most 10,000"):
        ds.simulate_matches(RULES.replace(target=10**12), "random", n_matches=1)
    assert time.perf_counter() - started < 1


@pytest.mark.slow
def test_long_search_stops_within_two_seconds_of_ctrl_c():
    code = ("import dominosim as ds\n"
            "rules = ds.Rules.preset('draw', players=2)\n"
            "ds.simulate(rules, 'mc:2', 2, seed=1)\n"  # compile (or load) the search kernel first
            "print('searching', flush=True)\n"
            "try:\n"
            "    ds.simulate(rules, 'mc:100000', 1000, seed=1)\n"
            "    print('finished', flush=True)\n"
            "except KeyboardInterrupt:\n"
            "    print('interrupted', flush=True)\n")
    with subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True) as proc:
        try:
            assert proc.stdout.readline().strip() == "searching"
            time.sleep(1.0)
            proc.send_signal(signal.SIGINT)
            sent = time.perf_counter()
            answer = proc.stdout.readline().strip()
            elapsed = time.perf_counter() - sent
            proc.wait(timeout=60)
        finally:
            proc.kill()
    assert answer == "interrupted"
    assert elapsed < 2.0
