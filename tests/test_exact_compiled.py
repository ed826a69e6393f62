"""The compiled lazy enumeration (dominosim.fast.exact) against the Python one it ports: equal,
fraction for fraction, count for count and state for state, under every rule option; ds.exact
takes it for line-ups of ``random`` and keeps the Python engine for the rest and for what does
not fit; its rule tables are the reference engine's."""

from __future__ import annotations

import numpy as np
import pytest
from exact_values import exact_table, rules_of
from test_exact_lazy import OPTIONS

import dominosim as ds
from dominosim.fast.exact.layouts import MAX_LAYOUTS, tables
from dominosim.fast.exact.lazy import mulmod
from dominosim.fast.exact.totals import StatesFull, _primes, enumerate_random, fits
from dominosim.reference.game import (
    Move,
    branches,
    ends_after,
    legal_moves,
    opening_ends,
    playable_suits,
)
from dominosim.solver.lazy import Lazy, enumerate_hands, layout_key
from dominosim.tiles import full_set

TABLE = exact_table()
CASES = dict(OPTIONS)
CASES.update({f"config {c}": rules_of(TABLE[TABLE["config_id"] == c].iloc[0])
              for c in ("1", "2", "9")})
CASES["draw_keep3"] = ds.Rules(max_pip=3, players=2, hand_size=2, draw="until_playable",
                               boneyard_keep=3)


@pytest.mark.parametrize("name", list(CASES))
def test_compiled_equals_the_python_enumeration(name):
    rules = CASES[name]
    assert fits(rules)
    game = Lazy(rules, ["random"] * rules.players, set(), 10**7)
    by_opener, opened, played, no_double = enumerate_hands(game)
    fast = enumerate_random(rules, 10**6)
    assert fast[0] == by_opener  # every quantity, by opener, as a Fraction
    assert fast[1:4] == (opened, played, no_double)
    assert fast[4] == len(game.memo)  # the same states, counted as the Python engine counts them


def test_a_total_outgrowing_the_primes_is_computed_again_with_more():
    """Two primes cannot hold the fractions of configuration 2 (one recovers, one checks): the
    enumeration runs again modulo two new primes, the four residues together recover the
    fractions, and the result is the Python engine's."""
    rules = CASES["config 2"]
    game = Lazy(rules, ["random"] * 2, set(), 10**7)
    assert enumerate_random(rules, 10**6, n_primes=2)[0] == enumerate_hands(game)[0]


def test_exact_takes_the_compiled_engine_for_random_and_python_for_styles(monkeypatch):
    import dominosim.fast.exact.totals as compiled

    rules = CASES["config 2"]
    calls = []
    real = compiled.enumerate_random
    monkeypatch.setattr(compiled, "enumerate_random",
                        lambda *a, **k: calls.append(a) or real(*a, **k))
    random = ds.exact(rules)
    assert len(calls) == 1
    mixed = ds.exact(rules, ["bully", "random"])
    assert len(calls) == 1  # a style: the Python engine
    assert random.loc["P_opener_side_wins", "exact"] != mixed.loc["P_opener_side_wins", "exact"]


def test_the_state_limit_stops_the_compiled_enumeration():
    with pytest.raises(StatesFull):
        enumerate_random(CASES["config 2"], 500)


def test_what_does_not_fit_is_said():
    assert fits(ds.Rules(max_pip=4, players=4, hand_size=2, partnerships=True))
    assert not fits(ds.Rules.preset("block", players=4))  # 28 tiles: the deals pass int64
    assert not fits(ds.Rules.preset("draw", players=2, max_pip=9, hand_size=7))  # 55 tiles


@pytest.mark.parametrize("few", [MAX_LAYOUTS, 0], ids=["over-tiles", "over-plays"])
@pytest.mark.parametrize("name", ["cross", "branch4_fill", "lead_any", "team_out"])
def test_the_layout_tables_are_the_reference_rules(name, few):
    """From every opening, each layout reached has the reference engine's playable suits, and
    each tile the reference engine's legal moves on it, each to the layout the reference engine
    gives (numbered once: one layout per canonical list of open ends), found over the tiles.
    Found over the plays (``few=0``), the layouts are those reached by tiles played once each, and the moves those
    of the tiles not yet played."""
    rules = CASES[name]
    t = tables(rules, few)
    over_plays = few == 0
    tiles = full_set(rules.max_pip)
    most_ends = rules.opening_arms + 2 * (rules.max_pip + 1)
    ends_of = {int(t.open_layout[i]): layout_key(rules, opening_ends(rules, tile))
               for i, tile in enumerate(tiles) if t.open_layout[i] >= 0}
    assert ends_of
    queue = [(int(t.open_layout[i]), 1 << i if over_plays else 0)
             for i in range(len(tiles)) if t.open_layout[i] >= 0]
    seen = set()
    while queue:
        layout, played = queue.pop()
        if (layout, played) in seen:
            continue
        seen.add((layout, played))
        ends = ends_of[layout]
        assert t.want[layout] == sum(1 << v for v in playable_suits(rules, ends))
        for i, tile in enumerate(tiles):
            if played >> i & 1:
                continue  # played already: no seat holds it here
            if branches(rules, tile) and len(ends) + 2 > most_ends:
                continue  # a double branching again, after every double has: never met
            moves = legal_moves(rules, [tile], ends)
            assert t.mv_n[layout, i] == len(moves)
            for j, move in enumerate(moves):
                after = layout_key(rules, ends_after(rules, ends, Move(move.tile, move.suit))[0])
                nxt = int(t.mv_next[layout, i, j])
                ends_of.setdefault(nxt, after)
                assert ends_of[nxt] == after
                queue.append((nxt, played | 1 << i if over_plays else 0))
    assert len(ends_of) <= t.n_layouts


def test_layouts_found_over_the_plays_enumerate_the_same_fractions(monkeypatch):
    """Every rule set of the options, its layouts found over the plays (the search that keeps
    only the layouts hands reach), totals what the Python enumeration does."""
    import dominosim.fast.exact.layouts as layouts

    monkeypatch.setattr(layouts, "FEW_LAYOUTS", 0)
    for name in ("cross", "branch4_fill", "lead_any", "team_out", "draw_keep3"):
        rules = CASES[name]
        game = Lazy(rules, ["random"] * rules.players, set(), 10**7)
        assert enumerate_random(rules, 10**6)[0] == enumerate_hands(game)[0], name


def test_mulmod_equals_exact_integer_arithmetic_on_the_primes_and_their_edges():
    """The residues' product without an integer division (a quotient read from floats, then
    corrected) is exact for every pair of residues of the enumeration's primes, the largest
    included, where the float quotient is most often one off."""
    rng = np.random.default_rng(7)
    for m in _primes(16):
        edges = [0, 1, 2, m // 2, m // 2 + 1, m - 2, m - 1]
        pairs = [(a, b) for a in edges for b in edges]
        pairs += [tuple(x) for x in rng.integers(0, m, size=(2_000, 2))]
        got = [int(mulmod(np.int64(a), np.int64(b), np.int64(m))) for a, b in pairs]
        assert got == [int(a) * int(b) % m for a, b in pairs]
