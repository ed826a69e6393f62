"""Block against Draw measures: unknown tiles, entropy of the hidden history, share of luck."""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np
import pandas as pd
import pytest

import dominosim as ds
from dominosim.analysis import (
    block_draw_uncertainty,
    deal_replays,
    hand_uncertainty,
    luck_share,
    uncertainty_profile,
    value_of_information,
)
from dominosim.reference.hand import play_hand
from dominosim.rng import Stream
from dominosim.tiles import n_tiles, tile_of

TINY_BLOCK = ds.Rules.preset("block", players=2, max_pip=2, hand_size=2)


def test_hand_uncertainty_scripted_block_hand_counts_by_hand():
    # double-2 set (6 tiles), 2 tiles each, 2 sleeping. Seat 0 leads 2-2; seat 1 (1-1, 0-0) knocks
    # on 2; seat 0 plays 0-2 and is out.
    deal = ([[(2, 2), (0, 2)], [(1, 1), (0, 0)]], [(0, 1), (1, 2)])
    log = play_hand(TINY_BLOCK, "bully", deal=deal)
    assert [e.kind for e in log.events] == ["play", "knock", "play", "end"]
    u = hand_uncertainty(log)
    assert len(u) == 2 and u["turns"].tolist() == [2, 2]
    first, second = u.iloc[0], u.iloc[1]
    # turn 0, seat 1: unseen 0-1, 0-2, 1-2; seat 0 holds one of them, two sleep: 3 allocations
    assert (first["seat"], first["tiles_unknown"], first["in_other_hands"], first["sleeping"]) == \
        (1, 3, 1, 2)
    assert first["entropy_bits"] == pytest.approx(math.log2(3))
    assert first["counts_entropy_bits"] == pytest.approx(math.log2(3))
    # turn 1, seat 0: unseen 0-0, 0-1, 1-1, 1-2, seat 1 holds two; its knock on 2 rules out 1-2:
    # C(3, 2) = 3 allocations instead of C(4, 2) = 6
    assert (second["seat"], second["tiles_unknown"], second["progress"]) == (0, 4, 0.5)
    assert second["entropy_bits"] == pytest.approx(math.log2(3))
    assert second["counts_entropy_bits"] == pytest.approx(math.log2(6))


def test_hand_uncertainty_block_entropy_equals_brute_force_allocations():
    """In Block the count is the number of allocations of the unseen tiles that agree with the
    hand sizes, the knocks and the opening double: enumerate them."""
    rules = ds.Rules.preset("block", players=3, max_pip=3, hand_size=3)
    for hand in range(6):
        log = ds.replay(rules, "random", seed=9, hand=hand)
        u = hand_uncertainty(log)
        for row in u.itertuples():
            assert row.entropy_bits == pytest.approx(
                math.log2(_brute_force_block(log, row.turn)), abs=1e-12)


def _brute_force_block(log, turn):
    """Allocations of the tiles seat-to-move cannot see, consistent with its view at ``turn``."""
    rules = log.rules
    from dominosim.simulation.experiments import _turn_states

    state = next(s for t, s in enumerate(_turn_states(log)) if t == turn)
    me = state.to_move
    played = [e for e in state.events if e.kind == "play"]
    on_table = {e.tile for e in played}
    unseen = [tile_of(i) for i in range(n_tiles(rules.max_pip))
              if tile_of(i) not in on_table and tile_of(i) not in state.hands[me]]
    d = played[0].tile[0]
    lacks = {s: set() for s in range(rules.players)}
    for e in state.events:
        if e.kind == "knock":
            lacks[e.seat] |= set(e.suits)
    others = [s for s in range(rules.players) if s != me]

    def fits(seat, tiles):
        return all(not (set(t) & lacks[seat]) and not (t[0] == t[1] and t[0] > d) for t in tiles)

    def count(seats, pool):
        if not seats:
            return 1
        seat, rest = seats[0], seats[1:]
        return sum(count(rest, [t for t in pool if t not in pick])
                   for pick in combinations(pool, len(state.hands[seat])) if fits(seat, pick))

    return count(others, unseen)


def test_hand_uncertainty_draw_unknown_tiles_fall_as_tiles_are_drawn():
    rules = ds.Rules.preset("draw", players=2)
    log = ds.replay(rules, "random", seed=3, hand=0)
    u = hand_uncertainty(log, entropy=False)
    # unknown = 28 - own hand - tiles on the table, for the seat to move
    assert (u["tiles_unknown"] == u["in_other_hands"] + u["sleeping"]).all()
    assert u["entropy_bits"].isna().all() and u["turns"].eq(len(u)).all()
    assert u["progress"].is_monotonic_increasing and u["progress"].max() < 1


def test_hand_uncertainty_refuses_other_objects():
    with pytest.raises(ValueError, match=r"`logs` must be a HandLog or a list of them"):
        hand_uncertainty(["not a log"])


def test_uncertainty_profile_progress_bins_average_turns():
    d = pd.DataFrame({"turn": [0, 1, 2, 0], "progress": [0.0, 1 / 3, 2 / 3, 0.0],
                      "tiles_unknown": [9, 8, 7, 11], "in_other_hands": [5, 4, 3, 6],
                      "game": ["a", "a", "a", "b"]})
    p = uncertainty_profile(d, x="progress", bins=2, groups="game")
    assert p[["game", "progress", "n", "tiles_unknown"]].values.tolist() == [
        ["a", 0.25, 2, 8.5], ["a", 0.75, 1, 7.0], ["b", 0.25, 1, 11.0]]


def test_uncertainty_profile_bad_x_names_the_choices():
    with pytest.raises(ValueError, match=r"`x` must be one of 'turn', 'progress', but 'time'"):
        uncertainty_profile(pd.DataFrame(), x="time")


# ----------------------------------------------------------------------------------- the luck
def test_deal_replays_play_zero_is_the_simulated_hand():
    rules = ds.Rules.preset("draw", players=3)
    r = deal_replays(rules, ["random"], n_deals=40, seed=4, plays=2)
    sim = ds.simulate(rules, "random", 40, seed=4)
    won = r[(r["play"] == 0) & (r["score"] == 1)].set_index("deal")["side"]
    decided = sim[sim["winning_side"] >= 0]
    assert (won.loc[decided.index] == decided["winning_side"]).all()
    # the same shuffle played afresh with other random choices: other results
    again = r[r["play"] == 1]
    assert len(again) == 120 and not np.array_equal(again["score"], r[r["play"] == 0]["score"])


def test_luck_share_deterministic_players_the_deal_decides_everything():
    # bully is deterministic: every play of a deal ends alike, so the deal explains it all
    r = deal_replays(ds.Rules.preset("block", players=2), ["bully"], n_deals=200, seed=1, plays=3)
    t = luck_share(r).iloc[0]
    assert t["share"] == pytest.approx(1.0) and t["var_play"] == 0


def test_luck_share_independent_plays_share_near_zero():
    # outcomes that ignore the deal: a fair coin per play, so var_deal = 0 in truth
    stream = Stream(7)
    coin = np.array([stream.below(2) for _ in range(400 * 3)])
    d = pd.DataFrame({"deal": np.repeat(np.arange(400), 3).repeat(2), "side": [0, 1] * 1200,
                      "score": np.stack([coin, 1 - coin], axis=1).ravel()})
    t = luck_share(d).iloc[0]
    assert t["ci_low"] < 0 < t["ci_high"] and abs(t["share"]) < 0.1


def test_luck_share_jackknife_se_matches_leaving_each_deal_out():
    rng_scores = [1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 1, 0, 0, 1, 0]
    d = pd.DataFrame({"deal": np.repeat(np.arange(5), 3), "side": 0, "score": rng_scores})
    d = pd.concat([d, d.assign(side=1, score=1 - d["score"])])
    full = luck_share(d).iloc[0]
    loo = [luck_share(d[d["deal"] != k]).iloc[0]["share"] for k in range(5)]
    se = math.sqrt(4 / 5 * ((np.array(loo) - np.mean(loo)) ** 2).sum())
    assert full["se"] == pytest.approx(se, rel=1e-12)


def test_luck_share_unbalanced_plays_are_refused():
    d = pd.DataFrame({"deal": [0, 0, 1], "side": [0, 0, 0], "score": [1, 0, 1]})
    with pytest.raises(ValueError, match=r"`data` must be the same number \(2 or more\) of plays"):
        luck_share(d)


def test_value_of_information_is_the_paired_gain_of_the_first_over_the_second():
    v = value_of_information(ds.Rules.preset("block", players=2), "random", "bully", 2_000,
                             seed=3).set_index("quantity")
    c = ds.compare(ds.Rules.preset("block", players=2), "bully", "random", 2_000, seed=3)
    assert v.loc["win_rate_gain", "estimate"] == c.row("win_rate_diff").estimate
    assert v.loc["win_rate_gain", "ci_low"] > 0


def test_value_of_information_omniscient_search_gains_over_its_honest_twin():
    # with all 28 tiles dealt, the omniscient search knows every move that can ever be made
    rules = ds.Rules.preset("block", players=4, hand_size=7)
    v = value_of_information(rules, "mc:10", "mc_omniscient:10", 300, seed=4).set_index("quantity")
    assert v.loc["win_rate_gain", "ci_low"] > 0.2
    assert v.loc["points_gain", "ci_low"] > 0


def test_block_draw_uncertainty_table_tiny_sets():
    table, turns = block_draw_uncertainty(players=[2, 3], n_hands=12, plays=2, seed=5,
                                          overrides={"max_pip": 3, "hand_size": 2},
                                          voi={"random": "bully"}, voi_deals=30)
    assert table[["game", "players"]].values.tolist() == [
        ["block", 2], ["draw", 2], ["block", 3], ["draw", 3]]
    # first turn: 10 tiles, the seat's 2 and the opening double seen
    assert table["unknown_first"].tolist() == [7, 7, 7, 7]
    assert set(turns["game"]) == {"block", "draw"} and "voi_random" in table.columns
    block2 = turns[(turns["game"] == "block") & (turns["players"] == 2)]
    assert table.loc[0, "entropy_mean"] == pytest.approx(block2["entropy_bits"].mean())
