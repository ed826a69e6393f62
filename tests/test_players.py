"""Fitted players: the decision features in both engines, the weighted player, player files, tuning.

The features' compiled twin must equal the readable one on every decision of random rule sets,
and neither may change when a tile the seat cannot see changes; a weighted player plays the same
hands in both engines; a saved player comes back the same and is refused where it does not
belong; the tuner gives the same player for the same seed.
"""

from __future__ import annotations

import copy
import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rule_space import lineup, valid_rules

import dominosim as ds
from dominosim.fast.core import board as fb
from dominosim.fast.core.params import rule_params
from dominosim.fast.core.shape import Shape, words_of
from dominosim.fast.hand import driver
from dominosim.fast.players.features import move_features as compiled_features
from dominosim.reference.game import GameState
from dominosim.reference.hand import deal, play_out
from dominosim.rng import Stream, hand_key, seat_stream, stream_key
from dominosim.strategies.features import CONTEXT, FEATURE_NAMES, N_FEATURES, move_features
from dominosim.strategies.styles import BullyStrategy
from dominosim.strategies.view import view_of
from dominosim.strategies.weighted import TUNED_RULES, move_score, nearest_tuned, shipped
from dominosim.tiles import tile_id

LINEUPS = ("styles", "mixed", "random")


# ------------------------------------------------------------------------ the features' twins
@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(rules=valid_rules(max_pip_range=(1, 9), players_range=(2, 10)),
       who=st.sampled_from(LINEUPS), run_seed=st.integers(0, 2**40))
def test_features_same_in_both_engines_on_random_rule_sets(rules, who, run_seed):
    strategies = lineup(rules, who)
    fast = ds.decisions(rules, strategies, n_hands=12, seed=run_seed)
    ref = ds.decisions(rules, strategies, n_hands=12, seed=run_seed, engine="reference")
    pd.testing.assert_frame_equal(fast, ref)


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "max_pip", "players", "hand_size"),
                         [("double_nine_cross", 12, 6, None), ("draw", 15, 4, 12)])
def test_features_same_in_both_engines_on_sets_of_two_and_three_words(preset, max_pip, players,
                                                                       hand_size):
    rules = ds.Rules.preset(preset, players=players, max_pip=max_pip, hand_size=hand_size)
    strategies = lineup(rules, "styles")
    fast = ds.decisions(rules, strategies, n_hands=6, seed=11)
    ref = ds.decisions(rules, strategies, n_hands=6, seed=11, engine="reference")
    pd.testing.assert_frame_equal(fast, ref)


def test_decisions_mark_the_move_each_seat_made():
    d = ds.decisions(ds.Rules.preset("draw", players=3), "bully", n_hands=30, seed=4)
    by_decision = d.groupby(["hand", "decision"])
    assert (by_decision["chosen"].sum() == 1).all()
    assert (by_decision["seat"].nunique() == 1).all() and (by_decision.size() >= 2).all()
    # bully plays the heaviest tile: the chosen move is as heavy as any legal move
    heaviest = by_decision["pips"].transform("max")
    assert (d.loc[d["chosen"], "pips"] == heaviest[d["chosen"]]).all()


def test_a_teachers_labels_mark_its_move_while_the_seat_plays_its_own():
    from dominosim.players.decisions import _reference
    from dominosim.strategies.lineup import resolve_lineup

    rules = ds.Rules.preset("draw", players=3)
    own = ds.decisions(rules, "random", n_hands=30, seed=4, engine="reference")
    taught = _reference(rules, "random", range(30), 4, resolve_lineup(rules, "bully")[0])
    # the same hands, positions and moves: only the mark moves to bully's choice
    pd.testing.assert_frame_equal(taught.drop(columns="chosen"), own.drop(columns="chosen"))
    by_decision = taught.groupby(["hand", "decision"])
    assert (by_decision["chosen"].sum() == 1).all()
    heaviest = by_decision["pips"].transform("max")
    assert (taught.loc[taught["chosen"], "pips"] == heaviest[taught["chosen"]]).all()
    assert (own["chosen"] != taught["chosen"]).any()


def _board_of(state: GameState):
    """The compiled engine's board and notes for a reference position (what the features read)."""
    rules = state.rules
    board, notes = fb.make_board(rules.n_tiles, rules.players), fb.make_notes(rules.players)
    for s, hand in enumerate(state.hands):
        for tile in hand:
            fb.give(board, s, tile_id(tile))
    for i, tile in enumerate(state.boneyard):
        board.bone[i] = tile_id(tile)
    board.at[fb.BONE_POS], board.at[fb.BONE_END] = 0, len(state.boneyard)
    for i, end in enumerate(state.ends):
        board.ends[i], board.arms[i] = end.suit, end.empty_arm
        board.suit_count[end.suit] += 1
        board.at[fb.SUIT_MASK] |= 1 << end.suit
    board.at[fb.N_ENDS] = len(state.ends)
    for s, lacks in enumerate(state.lacks):
        notes.lacks[s] = sum(1 << v for v in lacks)
    for e in state.events:
        if e.kind == "play":
            notes.played[e.seat, e.tile[0]] += 1
            if e.tile[1] != e.tile[0]:
                notes.played[e.seat, e.tile[1]] += 1
    return board, notes


def _compiled(state: GameState, seat: int, moves) -> np.ndarray:
    rules = state.rules
    shape = Shape(words_of(rules.n_tiles), False, True, True)
    board, notes = _board_of(state)
    out, rows = np.zeros(N_FEATURES), []
    for m in moves:
        compiled_features(shape, rule_params(rules), board, notes, seat, tile_id(m.tile), m.suit,
                          out)
        rows.append(out.copy())
    return np.array(rows)


def _swap_hidden(state: GameState, seat: int, rng: np.random.Generator) -> GameState | None:
    """A copy of ``state`` with one tile swapped between two places ``seat`` cannot see (other
    hands, the boneyard), or None when there are not two such places."""
    other = copy.deepcopy(state)
    places = [h for s, h in enumerate(other.hands) if s != seat and h] + \
        ([other.boneyard] if other.boneyard else [])
    if len(places) < 2:
        return None
    a, b = rng.choice(len(places), size=2, replace=False)
    i, j = rng.integers(len(places[a])), rng.integers(len(places[b]))
    places[a][i], places[b][j] = places[b][j], places[a][i]
    return other


class _Probe:
    """Plays ``bully`` and, at every decision, checks the features against a hidden change."""

    name = "probe"

    def __init__(self, holder: dict, rng: np.random.Generator) -> None:
        self.holder, self.rng, self.checked = holder, rng, 0

    def choose(self, view, moves, rng):
        state = self.holder["state"]
        if moves[0].suit >= 0:
            twin = np.array([move_features(view, m) for m in moves])
            compiled = _compiled(state, view.seat, moves)
            np.testing.assert_array_equal(compiled, twin)
            changed = _swap_hidden(state, view.seat, self.rng)
            if changed is not None:
                np.testing.assert_array_equal(_compiled(changed, view.seat, moves), compiled)
                seen = view_of(changed, view.seat)
                np.testing.assert_array_equal(
                    np.array([move_features(seen, m) for m in moves]), twin)
                self.checked += 1
        return BullyStrategy().choose(view, moves, rng)


@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(rules=valid_rules(max_pip_range=(2, 9), players_range=(2, 8)), hand=st.integers(0, 10**6))
def test_features_never_change_when_a_hidden_tile_changes(rules, hand):
    key = hand_key(3, hand)
    hands, boneyard = deal(rules, key)[-1]
    state = GameState.from_deal(rules, [list(h) for h in hands], list(boneyard))
    probe = _Probe({"state": state}, np.random.default_rng(hand))
    rngs = [Stream(stream_key(key, seat_stream(s))) for s in range(rules.players)]
    play_out(state, [probe] * rules.players, rngs)
    assert probe.checked >= 0  # hands with no hidden place to swap check the twins only


def test_hidden_changes_are_checked_on_many_decisions():
    rules = ds.Rules.preset("draw", players=3)
    checked = 0
    for hand in range(20):
        key = hand_key(8, hand)
        hands, boneyard = deal(rules, key)[-1]
        state = GameState.from_deal(rules, [list(h) for h in hands], list(boneyard))
        probe = _Probe({"state": state}, np.random.default_rng(hand))
        play_out(state, [probe] * 3, [Stream(stream_key(key, seat_stream(s))) for s in range(3)])
        checked += probe.checked
    assert checked >= 100


def test_feature_table_names_are_unique_and_documented():
    assert len(set(FEATURE_NAMES)) == N_FEATURES == len(ds.FEATURES)
    assert 10 <= N_FEATURES <= 25
    assert set(CONTEXT) <= set(FEATURE_NAMES)
    with open("docs/players.md") as f:
        page = f.read()
    assert all(f"`{name}`" in page for name in FEATURE_NAMES)


# ------------------------------------------------------------------------ the weighted player
def _random_weights(seed: int) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    return dict(zip(FEATURE_NAMES, rng.normal(size=N_FEATURES).round(3).tolist(), strict=True))


@pytest.mark.parametrize(("preset", "players"), [("block", 4), ("draw", 2), ("double_nine_cross",
                                                                            5)])
def test_weighted_plays_the_same_hands_in_both_engines(preset, players):
    rules = ds.Rules.preset(preset, players=players)
    for seed in (1, 2):
        player = ds.Weighted(rules, _random_weights(seed))
        strategies = [player if s % 2 == 0 else "counter" for s in range(players)]
        fast = ds.simulate(rules, strategies, 150, seed)
        ref = ds.simulate(rules, strategies, 150, seed, engine="reference")
        pd.testing.assert_frame_equal(fast, ref)


def test_weighted_kernel_is_reused_for_other_weights():
    rules = ds.Rules.preset("block", players=4)
    ds.simulate(rules, [ds.Weighted(rules, _random_weights(3)), "bully"] * 2, 20, 1)
    compiled = {name: len(f.overloads) for name, f in (("rows", driver.rows_of),)}
    a = ds.simulate(rules, [ds.Weighted(rules, _random_weights(4)), "bully"] * 2, 300, 1)
    b = ds.simulate(rules, [ds.Weighted(rules, _random_weights(5)), "bully"] * 2, 300, 1)
    assert {"rows": len(driver.rows_of.overloads)} == compiled
    assert not a.equals(b)  # the weights reached the kernel


def test_weighted_breaks_ties_by_the_first_move_in_canonical_order():
    rules = ds.Rules.preset("block", players=2)
    zero = ds.Weighted(rules, {})
    d = ds.decisions(rules, [zero, "random"], n_hands=20, seed=2)
    first = d[d["seat"] == 0].groupby(["hand", "decision"]).head(1)
    assert len(first) > 20 and first["chosen"].all()


def test_weighted_refuses_bad_weights_and_other_rules():
    rules = ds.Rules.preset("block", players=2)
    with pytest.raises(ValueError, match="`weights` must map feature names"):
        ds.Weighted(rules, {"nope": 1})
    with pytest.raises(ValueError, match="finite numbers"):
        ds.Weighted(rules, {"pips": float("nan")})
    player = ds.Weighted(rules, {"pips": 1})
    other = ds.Rules.preset("block", players=3)
    for engine in ("fast", "reference"):
        with pytest.raises(ValueError, match="was fitted for .* so it cannot play") as error:
            ds.simulate(other, player, 10, 1, engine=engine)
        assert "\n" not in str(error.value)


def test_tuned_builtin_plays_the_player_of_the_nearer_game():
    assert nearest_tuned(ds.Rules.preset("draw", players=4)) == "draw"
    assert nearest_tuned(ds.Rules.preset("cross", players=4)) == "draw"
    assert nearest_tuned(ds.Rules.preset("block", players=2)) == "block"
    rules = ds.Rules.preset("draw", players=4)
    as_loaded = ds.Weighted(rules, shipped("draw").weights)
    assert ds.simulate(rules, "tuned", 200, 3).equals(ds.simulate(rules, as_loaded, 200, 3))
    for game, fitted in TUNED_RULES.items():
        assert shipped(game).rules == fitted


# ------------------------------------------------------------------------ player files
def test_player_file_round_trip_and_lineup_by_path(tmp_path):
    rules = ds.Rules.preset("block", players=2)
    player = ds.Weighted(rules, _random_weights(6), name="six",
                         metadata={"seed": 6, "against": ["bully"]})
    path = player.save(tmp_path / "six.npz")
    back = ds.load_player(path)
    assert back.weights.equals(player.weights) and back.rules == rules
    assert back.digest == player.digest and back.metadata["seed"] == 6
    entry = f"file:{path}"
    fast = ds.simulate(rules, [entry, "bully"], 100, 2)
    assert fast.equals(ds.simulate(rules, [player, "bully"], 100, 2))
    assert fast.equals(ds.simulate(rules, [entry, "bully"], 100, 2, engine="reference"))
    assert ds.compare(rules, entry, "bully", 50).a == entry


def _rewrite(path, change) -> None:
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(str(arrays["metadata"]))
    change(arrays, meta)
    arrays["metadata"] = np.array(json.dumps(meta))
    np.savez(path, **arrays)


def test_player_files_of_other_versions_changed_or_other_rules_are_refused(tmp_path):
    rules = ds.Rules.preset("block", players=2)
    path = ds.Weighted(rules, {"pips": 1}).save(tmp_path / "p.npz")
    _rewrite(path, lambda a, m: m.update(features_version=m["features_version"] + 1))
    with pytest.raises(ValueError, match="features of version .*: fit it again"):
        ds.load_player(path)
    path = ds.Weighted(rules, {"pips": 1}).save(tmp_path / "k.npz")
    _rewrite(path, lambda a, m: m.update(kind="learned"))
    with pytest.raises(ValueError, match="holds a player of kind 'learned', but this dominosim"):
        ds.load_player(path)
    path = ds.Weighted(rules, {"pips": 1}).save(tmp_path / "q.npz")
    _rewrite(path, lambda a, m: a.update(weights=a["weights"] * 2))
    with pytest.raises(ValueError, match="does not match its digest"):
        ds.load_player(path)
    path = ds.Weighted(rules, {"pips": 1}).save(tmp_path / "r.npz")
    with pytest.raises(ValueError, match="so it cannot play"):
        ds.simulate(ds.Rules.preset("draw", players=2), f"file:{path}", 5, 1)
    with pytest.raises(ValueError, match="must end in '.npz'"):
        ds.Weighted(rules, {}).save(tmp_path / "p.json")


# ------------------------------------------------------------------------ the MLP player
def _random_net(rules, seed: int, units: int = 12, temperature: float = 0.0) -> ds.MLP:
    """An MLP of random weights whose hidden units are active on some moves and not others."""
    rng = np.random.default_rng(seed)
    return ds.MLP(rules, rng.normal(0.0, 0.5, (units, N_FEATURES)).round(3),
                  rng.normal(0.0, 1.0, units).round(3), rng.normal(0.0, 1.0, units).round(3),
                  weights=_random_weights(seed + 100), name=f"net{seed}",
                  temperature=temperature)


@pytest.mark.parametrize(("preset", "players"), [("block", 4), ("draw", 2), ("double_nine_cross",
                                                                            5)])
def test_mlp_plays_the_same_hands_in_both_engines(preset, players):
    rules = ds.Rules.preset(preset, players=players)
    for seed in (1, 2):
        net = _random_net(rules, seed, units=4 + 20 * (seed - 1))
        soft = _random_net(rules, seed + 5, temperature=0.6)
        strategies = [(net, "counter", soft)[s % 3] for s in range(players)]
        fast = ds.simulate(rules, strategies, 150, seed)
        ref = ds.simulate(rules, strategies, 150, seed, engine="reference")
        pd.testing.assert_frame_equal(fast, ref)
        linear = [ds.Weighted(rules, s.weights) if isinstance(s, ds.MLP) else s
                  for s in strategies]
        assert not fast.equals(ds.simulate(rules, linear, 150, seed))  # the units reached play


def test_mlp_score_is_the_weighted_sum_plus_its_relu_units():
    rules = ds.Rules.preset("draw", players=2)
    net = _random_net(rules, 3)
    row = net.row_for(rules)
    state = GameState.from_deal(rules, *deal(rules, hand_key(3, 0))[-1])
    seat = state.to_move
    view = view_of(state, seat)
    for move in state.legal_moves(seat):
        f = move_features(view, move)
        expected = net.vector @ f + net.output @ np.maximum(net.bias + net.hidden @ f, 0.0)
        assert move_score(row, view, move) == pytest.approx(expected, rel=1e-12, abs=1e-12)
        assert move_score(net.vector, view, move) == pytest.approx(net.vector @ f, abs=1e-12)


def test_mlp_of_silent_units_plays_as_its_linear_part_and_breaks_ties_in_canonical_order():
    rules = ds.Rules.preset("block", players=4)
    weights = _random_weights(8)
    silent = ds.MLP(rules, np.ones((3, N_FEATURES)), [1.0, 2.0, 3.0], [0.0, 0.0, 0.0],
                    weights=weights)
    a = ds.simulate(rules, [silent, "bully"] * 2, 200, 4)
    assert a.equals(ds.simulate(rules, [ds.Weighted(rules, weights), "bully"] * 2, 200, 4))
    dead = ds.MLP(rules, -np.ones((2, N_FEATURES)), [-1.0, -1.0], [5.0, -5.0])  # never active
    d = ds.decisions(rules, [dead, "random"] * 2, n_hands=20, seed=2)
    first = d[d["seat"] == 0].groupby(["hand", "decision"]).head(1)
    assert len(first) > 20 and first["chosen"].all()


def test_mlp_refuses_bad_layers_and_other_rules():
    rules = ds.Rules.preset("block", players=2)
    with pytest.raises(ValueError, match=r"`hidden` must be an array of finite numbers of shape "
                                         r"\(units, 22\) with 1 to 64 units, but an array of "
                                         r"shape \(65, 22\) was passed"):
        ds.MLP(rules, np.zeros((65, N_FEATURES)), np.zeros(65), np.zeros(65))
    with pytest.raises(ValueError, match="`hidden` must be an array of finite numbers of shape"):
        ds.MLP(rules, np.zeros((0, N_FEATURES)), [], [])
    with pytest.raises(ValueError, match="`bias` must be an array of finite numbers, one per "
                                         "hidden unit"):
        ds.MLP(rules, np.zeros((2, N_FEATURES)), [0.0], [1.0, 1.0])
    with pytest.raises(ValueError, match="`output` must be an array of finite numbers, one per"):
        ds.MLP(rules, np.zeros((2, N_FEATURES)), [0.0, 0.0], [1.0, float("nan")])
    with pytest.raises(ValueError, match="`hidden` must be an array of finite numbers"):
        ds.MLP(rules, "abc", [0.0], [1.0])
    net = _random_net(rules, 1)
    for engine in ("fast", "reference"):
        with pytest.raises(ValueError, match="was fitted for .* so it cannot play"):
            ds.simulate(ds.Rules.preset("draw", players=2), net, 10, 1, engine=engine)


def test_mlp_file_round_trip_kind_and_refusals(tmp_path):
    rules = ds.Rules.preset("draw", players=2)
    net = _random_net(rules, 4, temperature=0.3)
    path = net.save(tmp_path / "net.npz")
    back = ds.load_player(path)
    assert isinstance(back, ds.MLP) and back.rules == rules and back.temperature == 0.3
    for name in ("vector", "hidden", "bias", "output"):
        assert np.array_equal(getattr(back, name), getattr(net, name))
    assert back.digest == net.digest != ds.Weighted(rules, net.weights, name=net.name,
                                                    temperature=0.3).digest
    with np.load(path) as data:  # a reader that knows only kind 'weighted' refuses it
        meta = json.loads(str(data["metadata"]))
    assert meta["kind"] == "mlp" and meta["hidden_units"] == 12
    entry = f"file:{path}"
    fast = ds.simulate(rules, [entry, "bully"], 100, 2)
    assert fast.equals(ds.simulate(rules, [net, "bully"], 100, 2))
    assert fast.equals(ds.simulate(rules, [entry, "bully"], 100, 2, engine="reference"))
    _rewrite(path, lambda a, m: a.update(hidden=a["hidden"] * 2))
    with pytest.raises(ValueError, match="does not match its digest"):
        ds.load_player(path)
    path = net.save(tmp_path / "k.npz")
    _rewrite(path, lambda a, m: m.update(kind="forest"))
    with pytest.raises(ValueError, match="of kind 'forest', but this dominosim plays only the "
                                         "kinds 'weighted', 'mlp'"):
        ds.load_player(path)
    path = net.save(tmp_path / "m.npz")
    _rewrite(path, lambda a, m: a.pop("bias"))
    with pytest.raises(ValueError, match="cannot be read as one"):
        ds.load_player(path)


# ------------------------------------------------------------------------ tuning
def test_tune_fits_a_player_and_repeats_itself_for_a_seed():
    small = ds.Rules.preset("block", players=2, max_pip=4, hand_size=4)
    a = ds.tune(small, ["random", "bully"], budget=4000, deals=40, seed=5, progress=False)
    b = ds.tune(small, ["random", "bully"], budget=4000, deals=40, seed=5, progress=False)
    assert a.weights.equals(b.weights)
    assert list(a.weights.index) == list(FEATURE_NAMES)
    assert float(a.weights.abs().max()) == 1.0
    assert (a.weights[list(CONTEXT)] == 0).all()
    assert (a.weights[["partner_lacks", "partner_shut", "partner_fed"]] == 0).all()
    assert (a.intervals["ci_low"] <= a.intervals["ci_high"]).all()
    assert list(a.results["opponent"]) == ["random", "bully"]
    assert (a.results["ci_low"] < a.results["edge"]).all()
    assert len(a.history) >= 2 and a.player.rules == small
    assert a.player.metadata["seed"] == 5


def test_tune_refuses_bad_arguments():
    small = ds.Rules.preset("block", players=2, max_pip=3, hand_size=3)
    with pytest.raises(ValueError, match="`against` must be a non-empty list"):
        ds.tune(small, "bully")
    with pytest.raises(ValueError, match="`budget` must be an integer of 1000 or more"):
        ds.tune(small, ["bully"], budget=10)
    with pytest.raises(ValueError, match="`budget` must be at most 1,099,511,627,776, but 10000"):
        ds.tune(small, ["bully"], budget=10**100)  # refused at once, not played for ever


def test_sweeps_name_a_player_file_and_refuse_to_resume_with_a_changed_one(tmp_path):
    from dominosim.batch import parse_sweep, run_sweep
    from dominosim.batch.lineups import check_entry

    rules = ds.Rules.preset("block", players=2)
    path = ds.Weighted(rules, {"pips": 1.0}).save(tmp_path / "p.npz")
    entry = f"file:{path}"
    assert check_entry(entry) == entry
    with pytest.raises(ValueError, match="is not a strategy dominosim can play: the value for "
                                         "`path` must be a player file"):
        check_entry(f"file:{tmp_path / 'missing.npz'}")
    text = f'hands = 20\nstrategies = ["{entry}", "random"]\n[rules]\npreset = "block"\n'
    first = parse_sweep(text)
    assert list(first.plan()["players"]) == [entry]
    assert run_sweep(first, tmp_path / "out", quiet=True).chunks_played == 1
    assert run_sweep(parse_sweep(text), tmp_path / "out", quiet=True).chunks_played == 0
    ds.Weighted(rules, {"pips": 2.0}).save(path)
    with pytest.raises(ValueError, match=r"holds a different sweep \(players\."):
        run_sweep(parse_sweep(text), tmp_path / "out", quiet=True)
