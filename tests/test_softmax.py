"""The weighted player at a temperature above 0: a softmax policy over its scores.

Both engines draw the same move hand for hand (the same sums, the same uniform from the seat's
stream); the moves come with the probabilities the softmax gives (a chi-square test against the
exact probabilities, fixed streams); the temperature is kept in player files and bad values are
refused in one line. Inference models a seat playing an MLP by its own softmax (its hidden units
included), world by world as the reference twin computes it.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from test_infer import _allocation, _positions, _scratch
from test_players import _random_net, _random_weights, _rewrite
from test_sampler import _hidden, _histories, _replay

import dominosim as ds
from dominosim.fast.hand import driver
from dominosim.fast.search import consistent as fc
from dominosim.fast.search import infer as fi
from dominosim.reference.game import GameState, Move
from dominosim.reference.hand import deal, play_out
from dominosim.rng import Stream, hand_key, seat_stream, stream_key
from dominosim.strategies.features import FEATURE_NAMES, N_FEATURES
from dominosim.strategies.styles import BullyStrategy
from dominosim.strategies.view import view_of
from dominosim.strategies.weighted import _digest, best_move, move_probability, move_score


@pytest.mark.parametrize(("preset", "players"), [("block", 4), ("draw", 2), ("cross", 3),
                                                 ("double_nine_cross", 5)])
def test_softmax_player_plays_the_same_hands_in_both_engines(preset, players):
    rules = ds.Rules.preset(preset, players=players)
    for seed in (1, 2):
        warm = ds.Weighted(rules, _random_weights(seed), temperature=0.4)
        hot = ds.Weighted(rules, _random_weights(seed + 10), temperature=3.0)
        strategies = [(warm, "random", hot, "counter")[s % 4] for s in range(players)]
        fast = ds.simulate(rules, strategies, 150, seed)
        ref = ds.simulate(rules, strategies, 150, seed, engine="reference")
        pd.testing.assert_frame_equal(fast, ref)
        cold = [warm.with_temperature(0) if s is warm else s for s in strategies]
        assert not fast.equals(ds.simulate(rules, cold, 150, seed))  # the draws reached play


class _FirstWide:
    """Plays ``bully`` and keeps the first decision with at least four legal moves."""

    def __init__(self) -> None:
        self.found = None

    def choose(self, view, moves, rng):
        if self.found is None and moves[0].suit >= 0 and len(moves) >= 4:
            self.found = (view, list(moves))
        return BullyStrategy().choose(view, moves, rng)


def _wide_decision(rules):
    for hand in range(50):
        key = hand_key(4, hand)
        hands, boneyard = deal(rules, key)[-1]
        state = GameState.from_deal(rules, [list(h) for h in hands], list(boneyard))
        probe = _FirstWide()
        play_out(state, [probe] * rules.players,
                 [Stream(stream_key(key, seat_stream(s))) for s in range(rules.players)])
        if probe.found is not None:
            return probe.found
    raise AssertionError("no decision with four legal moves in 50 hands")


@pytest.mark.parametrize("temperature", [0.5, 2.0, 50.0])
def test_softmax_draws_each_move_with_its_softmax_probability(temperature):
    rules = ds.Rules.preset("draw", players=2)
    vector = ds.Weighted(rules, _random_weights(7)).vector
    view, moves = _wide_decision(rules)
    scores = np.array([move_score(vector, view, m) for m in moves])
    assert len(set(scores.tolist())) > 1
    exact = np.exp((scores - scores.max()) / temperature)
    exact /= exact.sum()  # computed apart from best_move's running sums
    n = 20_000
    drawn = [best_move(vector, view, moves, temperature, Stream(stream_key(hand_key(9, k), 0)))
             for k in range(n)]
    counts = np.array([sum(d == m for d in drawn) for m in moves])
    assert counts.sum() == n
    keep = exact * n >= 5  # chi-square needs expected counts of 5 or more
    expected = exact[keep] * n
    observed = counts[keep]
    observed_rest, expected_rest = counts[~keep].sum(), exact[~keep].sum() * n
    if expected_rest >= 5:
        observed, expected = np.append(observed, observed_rest), np.append(expected, expected_rest)
    expected *= observed.sum() / expected.sum()
    # fixed streams: this p-value is a fixed number, far from the rejection region
    assert stats.chisquare(observed, expected).pvalue > 0.001
    assert best_move(vector, view, moves) == moves[int(np.argmax(scores))]
    with pytest.raises(ValueError, match=r"^The value for `rng` must be the seat's random stream"):
        best_move(vector, view, moves, temperature)


def test_softmax_temperature_is_checked_kept_in_files_and_passed_as_data(tmp_path):
    rules = ds.Rules.preset("block", players=2)
    player = ds.Weighted(rules, _random_weights(3), name="warm", temperature=0.8)
    assert "temperature=0.8" in repr(player)
    back = ds.load_player(player.save(tmp_path / "warm.npz"))
    assert back.temperature == 0.8 and back.digest == player.digest
    assert ds.simulate(rules, [f"file:{tmp_path / 'warm.npz'}", "bully"], 100, 5).equals(
        ds.simulate(rules, [player, "bully"], 100, 5))
    cold = player.with_temperature(0)
    assert cold.temperature == 0.0 and player.temperature == 0.8
    assert cold.weights.equals(player.weights) and cold.rules == rules
    assert ds.tuned_player(rules).temperature == 0.0  # files saved before temperatures existed
    for bad in (-1, math.nan, math.inf, "hot", True, None):
        with pytest.raises(ValueError, match=r"^The value for `temperature` must be 0 .* but "
                                             r".* was passed\.$"):
            ds.Weighted(rules, {}, temperature=bad)
    path = player.save(tmp_path / "bad.npz")

    def too_cold(arrays, meta):  # a file written so, not one changed after (its digest matches)
        meta["temperature"] = -2
        meta["digest"] = _digest(arrays["weights"], meta)

    _rewrite(path, too_cold)
    with pytest.raises(ValueError, match="holds the temperature -2, but a player's temperature"):
        ds.load_player(path)
    ds.simulate(rules, [player, "bully"], 20, 1)
    compiled = len(driver.rows_of.overloads)
    ds.simulate(rules, [player.with_temperature(5.0), "bully"], 20, 1)
    ds.simulate(rules, [cold, "bully"], 20, 1)
    assert len(driver.rows_of.overloads) == compiled  # one kernel for every temperature


def test_fit_temperature_recovers_the_temperature_of_simulated_choices():
    """Choices drawn by a softmax at a known temperature (numpy's own draws, apart from the
    players' code): the fitted temperature is within 10% of it, and ties among the teacher's
    best moves count as one choice."""
    from dominosim.players.learn import fit_temperature

    rng = np.random.default_rng(11)
    vector = rng.normal(size=N_FEATURES)
    for truth in (0.3, 1.5):
        parts, decisions, targets = [], [], []
        for d in range(4_000):
            features = rng.normal(size=(int(rng.integers(2, 7)), N_FEATURES))
            scores = features @ vector
            p = np.exp((scores - scores.max()) / truth)
            chosen = rng.choice(len(p), p=p / p.sum())
            parts.append(features)
            decisions += [d] * len(p)
            targets += [float(i == chosen) for i in range(len(p))]
        rows = pd.DataFrame(np.concatenate(parts), columns=list(FEATURE_NAMES))
        rows["decision"], rows["target"] = decisions, targets
        fitted = fit_temperature(vector, rows)
        assert abs(math.log(fitted / truth)) < 0.1, (truth, fitted)
    tied = pd.DataFrame({"decision": [0, 0, 0], "target": [1.0, 1.0, 0.0],
                         **{n: 0.0 for n in FEATURE_NAMES}})
    tied["pips"] = [1.0, 1.0, 0.0]  # the player scores the two best equal: always right
    unit = np.zeros(N_FEATURES)
    unit[FEATURE_NAMES.index("pips")] = 1.0
    assert fit_temperature(unit, tied) < 0.05
    with pytest.raises(ValueError, match="every move the same score"):
        fit_temperature(np.zeros(N_FEATURES), tied)


def test_fit_command_prints_the_learned_players_temperature(capsys):
    from dominosim.players import fit

    assert fit.main(["temperature", "--positions", "40", "--games", "draw", "--seed", "3"]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("draw: the shipped learned player's softmax temperature")
    assert 0.0 < float(line.rsplit(" ", 1)[1]) < 1e3


def _model_likelihood(rules, row, temperature, me, hands, boneyard, history):
    """The likelihood of ``history`` from this deal when every seat but ``me`` plays the
    weighted player of ``row`` (a linear row or an MLP's), replayed on the reference game state."""
    weight = 1.0
    for k, ev in enumerate(history):
        state = _replay(rules, hands, boneyard, history[:k])
        if ev.kind == "play" and ev.seat != me and not (
                state.opener < 0 and rules.opening == "highest_double"):
            moves = state.legal_moves(ev.seat)
            if len(moves) > 1:
                chosen = [Move(*m) for m in moves].index(Move(ev.tile, ev.suit))
                weight *= move_probability(row, view_of(state, ev.seat), moves, chosen,
                                           temperature)
    return weight


def test_inference_models_an_mlp_seat_by_its_own_softmax():
    """A search's inference weighs each sampled world by the MLP's softmax probability of every
    play the modelled seat made (one history per world in Block, so world by world), as the
    reference twin (move_probability of its row) computes it; its linear part alone would not."""
    rules = ds.Rules.preset("block", players=2, max_pip=3, hand_size=3)
    net = _random_net(rules, 5, units=6, temperature=0.7)
    lineup = ["random", net]
    checked = differ = 0
    for view, mine in itertools.islice(_positions(rules, lineup, range(6)), 0, None, 2):
        history = [e for e in view.history if e.kind != "end"]
        post, linear = {}, {}
        for state, hands, order in _histories(view, mine):
            alloc = _hidden(view, state)
            post[alloc] = _model_likelihood(rules, net.row_for(rules), 0.7, 0, hands, order,
                                            history)
            linear[alloc] = _model_likelihood(rules, net.vector, 0.7, 0, hands, order, history)
        core, rp, board, ss = _scratch(view, lineup, 1)
        for _ in range(100):
            fc.draw_deal(rp, 0, board.hands, ss.sampler, ss.infer.cand, ss.rng, rules.players)
            alloc = _allocation(rules, 0, ss.infer.cand.hands)
            assert fi.world_weight(core, rp, 0, ss) == pytest.approx(post[alloc], rel=1e-12,
                                                                     abs=0)
        differ += any(abs(post[a] - linear[a]) > 1e-3 for a in post)
        checked += 1
    assert checked >= 4 and differ >= 1
