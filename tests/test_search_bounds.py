"""The search strategies' bounds (issue 20): the memory of their arrays, estimated before they
start and checked against ``max_memory`` in both engines, and the node limit of a sampled world
(``max_nodes`` of ``pimc`` and ``epimc``)."""

from __future__ import annotations

import pytest
from exact_values import exact_table, rules_of

import dominosim as ds
from dominosim.fast.search.worlds import _nbytes, make_search_scratch, scratch_bytes
from dominosim.records import max_events
from dominosim.strategies.search import EPIMC, PIMC, SearchStrategy, table_states

KINDS = ["mc:100", "ismcts:1000", "ismcts:20000", "pimc:50", "epimc:10", "epimc:40+infer"]


def _validation_rules() -> list[ds.Rules]:
    table = exact_table().drop_duplicates("config_id")
    return [rules_of(row) for _, row in table.iterrows()] + \
        [ds.Rules.preset("double_nine_cross", players=4), ds.Rules.preset("block", players=4)]


def test_memory_estimate_is_the_bytes_of_the_arrays_on_every_validation_configuration():
    """The estimate is exact (worst ratio estimate / real: 1), counted without allocating."""
    for rules in _validation_rules():
        for name in KINDS:
            search = SearchStrategy.from_name(name)
            real = make_search_scratch(rules.n_tiles, rules.players, max_events(rules),
                                       search.nodes, table_states(rules), search.table_bits)
            assert search.memory(rules) == _nbytes(real), (rules, name)
    assert scratch_bytes(28, 4, 60, 1, 1) < scratch_bytes(28, 4, 60, 2, 1)  # nodes count


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_memory_limit_refused_in_one_line_before_the_first_hand(engine):
    rules = ds.Rules.preset("block", players=2)
    small = SearchStrategy("ismcts", 20_000, max_memory=4 << 20)
    need = small.memory(rules)
    with pytest.raises(ValueError, match=r"^The value for `max_memory` \(4 MB\) is too small: "
                       r"the 'ismcts:20000' search's arrays on 1 thread needs 17 MB; pass a "
                       r"larger `max_memory` or a smaller budget\.$"):
        ds.simulate(rules, [small, "random"], n_hands=2, seed=1, engine=engine, n_jobs=1)
    # the limit is the bytes of one thread's arrays: exactly enough passes the check
    exact = SearchStrategy("ismcts", 20_000, max_memory=need)
    exact.check_bounds(rules)
    with pytest.raises(ValueError, match="on 2 threads needs"):
        exact.check_bounds(rules, threads=2)


def test_compiled_engine_counts_a_thread_per_block_of_hands_against_the_limit():
    from dominosim.fast import engine as fast

    rules = ds.Rules.preset("block", players=2)
    search = SearchStrategy("mc", 5, max_memory=None)
    run = fast.prepare(rules, [search, "random"])
    fast.check_search_memory(run, threads=64)  # no limit
    limited = SearchStrategy("mc", 5, max_memory=3 * search.memory(rules))
    run = fast.prepare(rules, [limited, "random"])
    fast.check_search_memory(run, threads=3)
    with pytest.raises(ValueError, match=r"'mc:5' search's arrays on 4 threads needs"):
        fast.check_search_memory(run, threads=4)


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_a_world_past_max_nodes_stops_the_run_in_one_line(engine):
    """``pimc:3`` against ``random`` on Block 2p: the kernels the suite compiles already."""
    rules = ds.Rules.preset("block", players=2)
    with pytest.raises(RuntimeError, match=r"^A sampled world of the 'pimc' or 'epimc' strategy "
                       r"needed more than 5 solver nodes \(its `max_nodes`; 2 players, "
                       r"double-6\).*or a larger `max_nodes`\.$"):
        ds.simulate(rules, [PIMC(3, max_nodes=5), "random"], n_hands=2, seed=3, engine=engine)
    # the default limit plays the same hands as before
    plain = ds.simulate(rules, ["pimc:3", "random"], n_hands=2, seed=3, engine=engine)
    assert plain.equals(ds.simulate(rules, [PIMC(3, max_nodes=10**9), "random"], n_hands=2,
                                    seed=3, engine=engine))


@pytest.mark.parametrize("make, name", [
    (lambda: SearchStrategy("mc", 5, max_memory=0), "max_memory"),
    (lambda: SearchStrategy("mc", 5, max_memory=float("nan")), "max_memory"),
    (lambda: SearchStrategy("ismcts", 5, max_memory="1GB"), "max_memory"),
    (lambda: SearchStrategy("mc", 5, max_nodes=100), "max_nodes"),
    (lambda: PIMC(5, max_nodes=0), "max_nodes"),
    (lambda: EPIMC(5, max_nodes=2**63), "max_nodes"),
    (lambda: ds.MonteCarlo(5, max_memory=True), "max_memory"),
])
def test_bad_limits_are_refused_in_one_line(make, name):
    with pytest.raises(ValueError, match=rf"^The value for `{name}` must be ") as error:
        make()
    assert "\n" not in str(error.value)
