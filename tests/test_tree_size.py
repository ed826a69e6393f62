"""The lazy enumeration's tree estimated by random probes (``dominosim.solver.tree_size``), the
estimate ``ds.exact`` checks where the deals-based one refuses: unbiased against the tree walked
node by node, at least the states the enumeration keeps, and what ``ds.exact`` then takes or
refuses."""

from __future__ import annotations

import importlib
import math
import random
import statistics

import pytest
from tqdm import tqdm

import dominosim as ds
from dominosim.solver.exact import estimated_states, reads_of
from dominosim.solver.tree_size import Children, probe, tree_nodes, tree_size

CASES = {
    "block": (ds.Rules(max_pip=3, players=2, hand_size=2), ["random"] * 2),
    "draw": (ds.Rules(max_pip=3, players=2, hand_size=2, draw="until_playable",
                      boneyard_keep=4), ["random"] * 2),
    "cross": (ds.Rules(max_pip=3, players=2, hand_size=2, draw="until_playable", boneyard_keep=4,
                       opening_arms=4, fill_opening_first=True), ["random"] * 2),
    "lead_any": (ds.Rules(max_pip=3, players=2, hand_size=2, opening="any", leader=1),
                 ["bully", "random"]),
    "styles": (ds.Rules(max_pip=3, players=2, hand_size=3), ["bully", "bully"]),
    "three": (ds.Rules(max_pip=3, players=3, hand_size=2), ["stitcher", "random", "random"]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_the_probes_estimate_the_walked_tree_without_bias(name):
    """Knuth's estimator is unbiased: the mean of 2,000 probes (seed 1) lies within 4 standard
    errors of the tree walked node by node; and the tree has at least as many nodes as the
    enumeration keeps states (a state is one node or more)."""
    rules, lineup = CASES[name]
    reads = reads_of(rules, lineup)
    nodes = tree_nodes(rules, lineup, reads)
    game = Children(rules, lineup, reads)
    roots, rng = game.first(), random.Random(1)
    found = [probe(game, roots, rng) for _ in range(2000)]
    mean, se = statistics.fmean(found), statistics.stdev(found) / math.sqrt(len(found))
    assert abs(mean - nodes) <= 4 * se, (mean, se, nodes)
    assert nodes >= ds.exact(rules, lineup).attrs["states"] > 0
    assert tree_size(rules, lineup, reads, probes=2000, seed=1) == pytest.approx(mean)


def test_exact_takes_a_rule_set_the_tree_fits_and_the_deals_do_not():
    """Validation configuration 5 (Block double-three, four players of two tiles each, in
    partnership): 1,814,400 states by its deals, about 45,000 by its tree (seat 0's openings;
    about 180,000 over every seat's), 42,606 met. Under a limit of 100,000 the deals refuse it;
    the tree's estimate takes it, and the table is the one the default limit gives. Under
    30,000 the tree refuses it too."""
    rules = ds.Rules(max_pip=3, players=4, hand_size=2, partnerships=True)
    assert estimated_states(rules) > 100_000 > tree_size(rules, ["random"] * 4, set())
    assert ds.exact(rules, max_states=100_000).equals(ds.exact(rules))
    with pytest.raises(ValueError, match=r"^The value for `rules` must be small enough to "
                                         r"enumerate \(at most 30,000 estimated states, see "
                                         r"`max_states`\), but .* has about 4[0-9],[0-9]{3} "
                                         r"\(check_estimate=False lets the limit alone stop "
                                         r"the work\)\.$"):
        ds.exact(rules, max_states=30_000)


def test_exact_asks_the_tree_only_where_the_deals_refuse(monkeypatch):
    """The probes cost a second on the double-four sets: a rule set its deals-based estimate
    takes never pays for them."""
    module = importlib.import_module("dominosim.solver.exact")

    def refuse(*args, **kwargs):
        raise AssertionError("the tree was asked")

    monkeypatch.setattr(module, "tree_size", refuse)
    rules = ds.Rules(max_pip=3, players=2, hand_size=2)
    assert ds.exact(rules).attrs["states"] == 322  # seat 0's openings (644 over both seats')
    with pytest.raises(AssertionError, match="the tree was asked"):
        ds.exact(rules, max_states=1_000)


def test_the_same_arguments_give_the_same_estimate():
    rules = ds.Rules(max_pip=3, players=2, hand_size=2, draw="until_playable")
    first = tree_size(rules, ["random"] * 2, set(), probes=300, seed=7)
    assert tree_size(rules, ["random"] * 2, set(), probes=300, seed=7) == first
    assert tree_size(rules, ["random"] * 2, set(), probes=300, seed=8) != first


@pytest.mark.parametrize("lineup", ["random", "bully"])
def test_exact_shows_the_states_kept_on_request(capsys, lineup):
    """``progress=True`` draws the states kept against the limit, in both engines (``random``
    alone runs the compiled one, a style the Python one), ending at the states met; the default
    draws nothing under pytest (not interactive); a wrong value is refused before any work."""
    rules = ds.Rules(max_pip=3, players=2, hand_size=3)
    states = ds.exact(rules, lineup, progress=True).attrs["states"]
    err = capsys.readouterr().err
    last = err.replace("\r", "\n").strip().split("\n")[-1]  # the bar as it was left
    assert last.startswith("ds.exact") and f" {tqdm.format_sizeof(states)}/3.00M " in last
    ds.exact(rules, lineup)
    assert capsys.readouterr().err == ""
    with pytest.raises(ValueError, match=r"^The value for `progress` must be True, False or "
                                         r"None .*, but 'yes' was passed\.$"):
        ds.exact(rules, lineup, progress="yes")
