"""The cases of issue 20's hostile test that no other test file held: an analysis of a record that
cannot happen, a search strategy shared by threads, and the game ``ds.exact`` grew past 2.6 GB
on. (The other cases are in test_records_json_attacks, test_play_attacks, test_plugin_copies,
test_batch_engine_version, test_solver_bounds, test_exact_lazy, test_limits, test_api_fuzz.)"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest

import dominosim as ds
from dominosim.reference.handfile import HIDDEN, SCHEMA, Replay

# Block, double-2, two players, three tiles each: every tile is dealt, so seat 1 (hidden) holds
# exactly 0-0, 2-0 and 2-1. It plays 2-1, then "knocks" with a 2 open while holding 2-0: no deal
# of the hidden tiles agrees with that. Each event is legal on its own; the loader refuses the
# record (its count of consistent deals is 0), so the position is built with the loader's rule
# operations alone.
IMPOSSIBLE = {"schema": SCHEMA,
              "rules": {"preset": "block", "players": 2, "max_pip": 2, "hand_size": 3},
              "deal": {"hands": [["2-2", "1-0", "1-1"], None], "boneyard": None},
              "moves": ["2-2", "1: 2-1", "1-1", "1: knock", "0: 1-0 on 1"]}


def _impossible_position() -> ds.Position:
    """The position of IMPOSSIBLE after the knock (seat 0 to move)."""
    replay = Replay(ds.Rules.preset("block", players=2, max_pip=2, hand_size=3),
                    [[(2, 2), (0, 1), (1, 1)], [HIDDEN] * 3], [])
    replay.open(0, (2, 2))
    replay.play(1, (1, 2), 2)
    replay.play(0, (1, 1), 1)
    replay.state.knock(1)
    return ds.Position(replay.state)


@pytest.mark.parametrize("method", ["pimc", "playout"])
def test_analyze_on_an_impossible_record_is_one_line_and_does_not_call_itself_a_bug(method):
    with pytest.raises(ValueError, match=r"^Move 4 \('1: knock'\) cannot happen"):
        ds.HandLog.from_json(IMPOSSIBLE)
    position = _impossible_position()  # seat 0 to move, after the knock
    with pytest.raises((ValueError, RuntimeError)) as error:
        ds.analyze(position, budget=5, n_jobs=1, method=method)
    message = str(error.value)
    assert "\n" not in message and "bug" not in message
    assert message.startswith({
        "pimc": "No deal of the hidden tiles agrees with this position's public history: the "
                "position cannot happen",
        "playout": "The value for `view` must be a view some deal agrees with, but no deal of "
                   "the 2 tiles seat 0 cannot see is consistent with its history"}[method])


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_a_search_strategy_shared_by_threads_plays_as_one_thread_would(engine):
    """One ``MonteCarlo`` object in six simulations at once: each simulation's hands are those it
    plays alone (the object's arrays serve one decision at a time)."""
    rules = ds.Rules.preset("block", players=2)
    shared = ds.MonteCarlo(5)

    def run(seed: int):
        return ds.simulate(rules, [shared, "random"], n_hands=12, seed=seed, engine=engine)

    alone = [run(seed) for seed in range(6)]
    for _ in range(2):
        with ThreadPoolExecutor(6) as pool:
            together = list(pool.map(run, range(6)))
        assert all(a.equals(b) for a, b in zip(alone, together, strict=True))


def test_exact_answers_the_game_that_grew_past_gigabytes_and_refuses_a_lower_limit_at_once():
    """Block double-four, four players, two tiles each: past 2.6 GB in two minutes before issue
    20, then refused at once by its estimates. Since issue 24 enumerates seat 0's openings alone
    under ``random``, its lazy tree's estimate (about 1.0 million) is within the default limit
    and it is answered (905,017 states, about 3.5 s of CPU and 0.6 GB). Under a limit below its
    tree the refusal still comes before any enumeration: the deals-based estimate (259,459,200)
    refuses it, the tree's estimate is asked (1,000 probes) and refuses it too, in under 2 s of
    CPU."""
    rules = ds.Rules.preset("block", players=4, max_pip=4, hand_size=2)
    assert ds.exact(rules).attrs["states"] == 905_017
    clock = time.process_time()
    with pytest.raises(ValueError, match=r"^The value for `rules` must be small enough to "
                       r"enumerate \(at most 900,000 estimated states, see `max_states`\), but "
                       r".* has about ([0-9,]+) \(check_estimate=False lets the limit alone "
                       r"stop the work\)\.$") as refused:
        ds.exact(rules, max_states=900_000)
    assert time.process_time() - clock < 2.0
    estimate = int(refused.value.args[0].split("has about ")[1].split(" ")[0].replace(",", ""))
    assert 905_017 <= estimate < 259_459_200
