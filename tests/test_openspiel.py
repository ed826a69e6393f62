"""The OpenSpiel game (dominosim.openspiel): OpenSpiel's own conformance test on every preset and
on random rule sets, views that hide what they must, playthroughs equal to the reference engine,
the deal's distribution, OpenSpiel's python_block_dominoes on the same rules, and the two bridges
(a dominosim strategy as a bot, a bot at a dominosim seat)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pyspiel
import pytest
from hypothesis import HealthCheck, given, settings
from rule_space import valid_rules

import dominosim as ds
from dominosim import openspiel
from dominosim.reference.table import Table, encode
from dominosim.tiles import IS_DOUBLE, full_set, tile_id

PRESET_GAMES = [(name, p) for name in ds.PRESETS for p in (2, 3, 4)]


def _random_play(state, rng: np.random.Generator, hook=None):
    """Play ``state`` to the end: chance by its probabilities, seats uniformly at random."""
    while not state.is_terminal():
        if hook is not None:
            hook(state)
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(outcomes[rng.choice(len(outcomes), p=probs)])
        else:
            actions = state.legal_actions()
            state.apply_action(actions[rng.integers(len(actions))])
    return state


# ------------------------------------------------------------------- OpenSpiel's own tests
@pytest.mark.parametrize(("preset", "players"), PRESET_GAMES)
def test_random_sim_test_passes_on_every_preset(preset, players):
    game = openspiel.game(ds.Rules.preset(preset, players=players))
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


@settings(max_examples=50, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(valid_rules())
def test_random_sim_test_passes_on_random_rule_sets(rules):
    game = openspiel.game(rules)
    assert openspiel.rules_of(game.get_parameters()) == rules
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_load_game_takes_the_rules_as_parameters():
    game = pyspiel.load_game("dominosim", {"preset": "draw", "players": 3, "scoring": "game"})
    assert game.rules == ds.Rules.preset("draw", players=3, scoring="game")
    assert game.num_players() == 3 and game.max_utility() == 1.0
    text = pyspiel.load_game("dominosim(preset=block,players=4,partnerships=0,hand_size=7)")
    assert text.rules == ds.Rules.preset("block", players=4, partnerships=False, hand_size=7)
    with pytest.raises(ValueError, match="The value for `scoring` must be one of"):
        pyspiel.load_game("dominosim", {"preset": "draw", "scoring": "sptos"})


# ------------------------------------------------------------------- the views hide the rest
def _views(state, seat):
    return (state.observation_string(seat), list(state.observation_tensor(seat)),
            state.information_state_string(seat), list(state.information_state_tensor(seat)))


def _swap_hidden(state, seat, rng):
    """A copy of ``state`` in which a tile ``seat`` cannot see trades places with another hidden
    tile (another seat's, or a sleeping one), and the seat whose hand changed; None if ``seat``
    sees every tile."""
    twin = state.clone()
    game = twin.table.state
    holders = [s for s in range(game.rules.players) if s != seat and game.hands[s]]
    if not holders:
        return None, None
    s = holders[rng.integers(len(holders))]
    places = [("hand", o) for o in holders if o != s] + ([("boneyard", -1)] if game.boneyard
                                                         else [])
    if not places:
        return None, None
    where, other = places[rng.integers(len(places))]
    i = rng.integers(len(game.hands[s]))
    pile = game.boneyard if where == "boneyard" else game.hands[other]
    j = rng.integers(len(pile))
    game.hands[s][i], pile[j] = pile[j], game.hands[s][i]
    game.hands[s].sort(key=tile_id)
    if where == "hand":
        pile.sort(key=tile_id)
    return twin, s


@pytest.mark.parametrize(("preset", "players"), PRESET_GAMES)
def test_views_do_not_change_when_a_hidden_tile_does(preset, players):
    game = openspiel.game(ds.Rules.preset(preset, players=players))
    rng = np.random.default_rng(players)
    checked = seen_change = 0

    def check(state):
        nonlocal checked, seen_change
        if state.table.state is None:
            return
        for seat in range(players):
            twin, owner = _swap_hidden(state, seat, rng)
            if twin is None:
                continue
            assert _views(twin, seat) == _views(state, seat)
            checked += 1
            # the tile's owner does see it: the check above could fail
            seen_change += _views(twin, owner)[0] != _views(state, owner)[0]

    for _ in range(3):
        _random_play(game.new_initial_state(), rng, check)
    assert checked > 20 and seen_change > 0


def test_other_seats_drawn_tiles_stay_hidden():
    game = openspiel.game(ds.Rules.preset("draw", players=2, hand_size=3))
    state = _random_play(game.new_initial_state(), np.random.default_rng(4))
    draws = [e for e in state.table.state.events if e.kind == "draw"]
    assert draws
    for e in draws:
        mine, theirs = e.seat, 1 - e.seat
        assert f"{e.seat}:draw {e.tile[1]}-{e.tile[0]}" in state.information_state_string(mine)
        assert f"{e.seat}:draw {e.tile[1]}-{e.tile[0]}" not in state.information_state_string(
            theirs)


# ------------------------------------------------------------------- equal to the reference engine
def _replay_in_openspiel(rules, lineup, seed, hand):
    """Hand ``hand`` of seed ``seed`` in the OpenSpiel game: the chance outcomes are the reference
    engine's deal and draws, the seats :class:`StrategyBot` with the reference engine's streams."""
    log = ds.replay(rules, lineup, seed=seed, hand=hand)
    hands, _ = log.deals[-1]
    dealt = [tile_id(t) for h in hands for t in h]
    drawn = [tile_id(e.tile) for e in log.events if e.kind == "draw"]
    bots = [openspiel.StrategyBot(s, seat, seed=seed, hand=hand) for seat, s in enumerate(lineup)]
    state = openspiel.game(rules).new_initial_state()
    chance = iter(dealt + drawn)
    while not state.is_terminal():
        if state.is_chance_node():
            tile = next(chance)
            assert dict(state.chance_outcomes()).get(tile, 0) > 0
            state.apply_action(tile)
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    assert next(chance, None) is None
    return log, state


@pytest.mark.parametrize(("preset", "players"), PRESET_GAMES)
def test_playthrough_equals_the_reference_engine_move_for_move(preset, players):
    rules = ds.Rules.preset(preset, players=players)
    lineup = ["random", "bully", "counter", "random"][:players]
    for hand in range(4):
        log, state = _replay_in_openspiel(rules, lineup, seed=11, hand=hand)
        assert state.table.state.events == log.events
        returns = state.returns()
        won, points = log.record["winning_side"], log.record["points"]
        assert sum(returns) == pytest.approx(0.0)
        winners = [s for s in range(players) if rules.side_of(s) == won]
        assert [returns[s] for s in winners] == [points] * len(winners)
        assert (won < 0 or points == 0) == (returns == [0.0] * players)


def test_playthrough_equals_the_reference_engine_under_opening_any():
    rules = ds.Rules.preset("draw", players=3, opening="any", leader=2, draw="one")
    for hand in range(5):
        log, state = _replay_in_openspiel(rules, ["random"] * 3, seed=5, hand=hand)
        assert state.table.state.events == log.events


def test_deal_is_uniform_over_deals_holding_a_double():
    # the reference engine redeals until a seat holds a double: every ordered deal holding one is
    # equally likely, and the chance nodes must give exactly that
    rules = ds.Rules.preset("block", players=2, max_pip=2, hand_size=2)
    probs = {}

    def walk(table, p):
        if table.state is not None:
            probs[tuple(table.dealt)] = p
            return
        for tile, q in table.chance_outcomes():
            twin = table.clone()
            twin.apply(tile)
            walk(twin, p * q)

    walk(Table(rules), 1.0)
    good = [d for d in itertools.permutations(range(rules.n_tiles), 4)
            if any(IS_DOUBLE[t] for t in d)]
    assert set(probs) == set(good)
    assert all(p == pytest.approx(1 / len(good), rel=1e-12) for p in probs.values())


def test_actions_follow_the_canonical_move_order():
    rules = ds.Rules.preset("double_nine_cross", players=3)
    state = _random_play(openspiel.game(rules).new_initial_state(), np.random.default_rng(2))
    game = state.table.state
    assert game.over
    table = Table(rules)
    table.state = game
    legal = [encode(m) for m in sorted(game.legal_moves(0), key=lambda m: (tile_id(m.tile),
                                                                           m.suit))]
    assert legal == sorted(legal)


# ------------------------------------------------------------------- OpenSpiel's block dominoes
def _stats(game, n, seed, blocked_of, plays_of):
    rng = np.random.default_rng(seed)
    wins0, ties, blocked, plays = [], [], [], []
    for _ in range(n):
        state = _random_play(game.new_initial_state(), rng)
        r = state.returns()
        wins0.append(r[0] > 0)
        ties.append(r[0] == 0)
        blocked.append(blocked_of(state))
        plays.append(plays_of(state))
    return {k: np.asarray(v, float) for k, v in
            dict(win_0=wins0, tie=ties, blocked=blocked, plays=plays).items()}


@pytest.mark.slow
def test_python_block_dominoes_gives_the_same_statistics_on_the_same_rules():
    # benchmarks/others.py: OpenSpiel's game is block, 2 players, 7 tiles each, player 0 leads any
    # tile. Scoring differs after a block ('spots' takes the winner's pips off), so the points are
    # not compared; who wins, ties, blocked hands and the tiles played are.
    import open_spiel.python.games  # noqa: F401 (registers python_block_dominoes)

    theirs = pyspiel.load_game("python_block_dominoes")
    ours = openspiel.game(ds.Rules.preset("block", players=2, hand_size=7, opening="any"))
    n = 1500
    a = _stats(theirs, n, 1, lambda s: bool(s.hands[0]) and bool(s.hands[1]),
               lambda s: len(s.actions_history))
    b = _stats(ours, n, 2, lambda s: s.table.state.how == "blocked",
               lambda s: sum(e.kind == "play" for e in s.table.state.events))
    for key in a:
        se = math.sqrt(a[key].var(ddof=1) / n + b[key].var(ddof=1) / n)
        assert abs(a[key].mean() - b[key].mean()) < 4 * se, (key, a[key].mean(), b[key].mean())
    assert 0.1 < a["blocked"].mean() < 0.9  # both games do block, and do go out


# ------------------------------------------------------------------- the bridges
def _mcts(game, seed):
    from open_spiel.python.algorithms import mcts

    rng = np.random.RandomState(seed)
    return mcts.MCTSBot(game, 2.0, 30, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)


def test_an_openspiel_mcts_bot_sits_at_a_seat_in_compare():
    rules = ds.Rules.preset("block", players=2, max_pip=3, hand_size=3)
    bot = openspiel.BotStrategy(_mcts, name="mcts")
    c = ds.compare(rules, bot, "random", n_deals=30, seed=3, engine="reference")
    again = ds.compare(rules, bot, "random", n_deals=30, seed=3, engine="reference")
    assert c.table.equals(again.table)  # the bot draws from its seat's stream only
    assert c.row("win_rate_a").estimate + c.row("win_rate_b").estimate == pytest.approx(1.0)


def test_bot_strategy_sees_only_its_seat():
    # two deals that agree on seat 0's view ask the bot in identical worlds
    rules = ds.Rules.preset("block", players=2, max_pip=3, hand_size=3)
    asked = []

    def make(game, seed):
        class Spy(pyspiel.Bot):
            def step(self, state):
                asked.append((str(state), seed))
                return state.legal_actions()[0]

            def restart_at(self, state):
                pass
        return Spy()

    deal = [[(3, 3), (0, 1), (1, 2)], [(2, 3), (0, 2), (0, 0)]]
    other = [[(3, 3), (0, 1), (1, 2)], [(2, 3), (1, 3), (1, 1)]]
    from dominosim.reference.game import GameState, Move
    from dominosim.rng import Stream
    from dominosim.strategies.view import view_of

    for hands in (deal, other):
        rest = [t for t in full_set(3) if all(t not in h for h in hands)]
        state = GameState.from_deal(rules, [list(h) for h in hands], rest)
        state.open_with_highest_double()
        state.play(1, Move((2, 3), 3))
        view = view_of(state, 0)
        openspiel.BotStrategy(make).choose(view, state.legal_moves(0), Stream(9))
    assert asked[0] == asked[1]


def test_a_dominosim_strategy_plays_as_an_openspiel_bot():
    from open_spiel.python.algorithms import evaluate_bots

    game = openspiel.game(ds.Rules.preset("draw", players=3))
    bots = [openspiel.StrategyBot("bully", 0), openspiel.StrategyBot("ismcts:50", 1),
            openspiel.StrategyBot("random", 2)]
    rng = np.random.RandomState(0)
    for _ in range(3):
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        assert sum(returns) == pytest.approx(0.0)
