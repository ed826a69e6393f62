"""ds.exact under the deterministic styles and line-ups mixing them with random: the enumeration's
view gives every style the choice it makes on the reference engine's full view, and both engines'
Monte Carlo lies within 4 standard errors of the exact values."""

from __future__ import annotations

import random

import pytest
from exact_values import check_monte_carlo

import dominosim as ds
from dominosim.reference.game import GameState, Move, highest_double
from dominosim.solver.exact import _READS, _Game
from dominosim.strategies import resolve, view_of
from dominosim.strategies.registry import STYLES
from dominosim.tiles import full_set

DETERMINISTIC = [name for name in STYLES if name != "random"]


def test_every_enumerable_builtin_says_what_it_reads():
    assert set(_READS) == set(STYLES)


def _walk(rules: ds.Rules, seed: int):
    """Every decision (a state and seat with two or more legal moves) of a hand of ``rules``
    played uniformly at random by the reference engine's game state."""
    rng = random.Random(seed)
    tiles = full_set(rules.max_pip)
    h = rules.hand_size
    while True:  # redeal until a seat holds a double
        rng.shuffle(tiles)
        hands = [tiles[s * h:(s + 1) * h] for s in range(rules.players)]
        if highest_double(hands, rules.max_pip) is not None:
            break
    state = GameState.from_deal(rules, hands, tiles[rules.players * h:])
    if state.rules.opening == "any":
        state.lead(Move(hands[rules.leader][0], -1))
    else:
        state.open_with_highest_double()
    while not state.over:
        seat = state.to_move
        while state.must_draw(seat):
            state.draw(seat)
        moves = state.legal_moves(seat)
        if not moves:
            state.knock(seat)
            continue
        if len(moves) > 1:
            yield state, seat, moves
        state.play(seat, rng.choice(moves))


def _enumeration_view(game: _Game, state: GameState, seat: int):
    """The view the enumeration builds in the state that ``state`` reaches."""
    p = state.rules.players
    hands = tuple(tuple(sorted(h)) for h in state.hands)
    lacks, plays = game.start()
    if lacks is not None:
        lacks = tuple(frozenset(x) for x in state.lacks)
    if plays is not None:
        plays = tuple(tuple(sorted(e.tile for e in state.events
                                   if e.kind == "play" and e.seat == s)) for s in range(p))
    ends = game.canonical(state.ends)
    return game.view(hands, ends, frozenset(state.boneyard), seat, lacks, plays)


@pytest.mark.parametrize("rules", [
    ds.Rules.preset("draw", players=4, partnerships=True),
    ds.Rules.preset("cross", players=4, partnerships=True),
    ds.Rules.preset("ivory", players=2),
    ds.Rules.preset("block", players=3),
    ds.Rules.preset("draw", players=2, draw="one", boneyard_keep=2),
], ids=["draw4-partners", "cross4-partners", "ivory2", "block3", "draw2-one-keep2"])
def test_enumeration_view_gives_every_style_its_full_view_choice(rules):
    decisions = 0
    for name in DETERMINISTIC:
        style = resolve(name)
        game = _Game(rules, [name] * rules.players)
        for hand in range(12):
            for state, seat, moves in _walk(rules, hand):
                full = style.choose(view_of(state, seat), moves, None)
                assert style.choose(_enumeration_view(game, state, seat), moves, None) == full
                decisions += 1
    assert decisions > 200


def _check_monte_carlo(rules: ds.Rules, lineup, hands, exact=None):
    """Every quantity estimated from ``hands`` lies within 4 standard errors of ``exact``."""
    table = ds.exact(rules, lineup) if exact is None else exact
    check_monte_carlo(rules, table, hands, label=lineup)


BLOCK2 = ds.Rules(max_pip=3, players=2, hand_size=3)
LEAD2 = BLOCK2.replace(opening="any")
BLOCK3 = ds.Rules(max_pip=3, players=3, hand_size=2)
DRAW2 = ds.Rules(max_pip=3, players=2, hand_size=2, draw="until_playable")
SMALL = ds.Rules(max_pip=3, players=2, hand_size=2)


@pytest.mark.parametrize("rules, lineup, seed", [
    (BLOCK2, "bully", 1),
    (BLOCK2, "doubles", 2),
    (BLOCK2, ["accompanied", "random"], 3),
    (BLOCK2, ["stitcher", "counter"], 4),
    (LEAD2, ["doubles", "accompanied"], 5),
    (BLOCK3, ["stitcher", "counter", "random"], 6),
    (DRAW2, ["accompanied", "counter"], 7),
    (DRAW2, ["random", "stitcher"], 8),
], ids=["block2-bully", "block2-doubles", "block2-accompanied-random", "block2-stitcher-counter",
        "lead2-doubles-accompanied", "block3-stitcher-counter-random", "draw2-accompanied-counter",
        "draw2-random-stitcher"])
def test_compiled_monte_carlo_agrees_with_exact_styles_within_4_se(rules, lineup, seed):
    hands = ds.simulate(rules, lineup, n_hands=60_000, seed=seed, engine="fast")
    _check_monte_carlo(rules, lineup, hands)


def test_reference_monte_carlo_agrees_with_exact_styles_within_4_se():
    lineup = ["stitcher", "random"]
    hands = ds.simulate(BLOCK2, lineup, n_hands=5_000, seed=10, engine="reference")
    _check_monte_carlo(BLOCK2, lineup, hands)


def test_styles_change_the_exact_values_and_random_is_unchanged():
    bully = ds.exact(SMALL, "bully")["exact"]
    mixed = ds.exact(SMALL, ["bully", "random"])["exact"]
    assert bully["P_opener_side_wins"] != mixed["P_opener_side_wins"]
    assert ds.exact(SMALL, ["random", "random"])["exact"].equals(ds.exact(SMALL)["exact"])
    # a deterministic deal's outcome: the quantities are fractions of the deals played
    assert bully["P_side0_wins"] + bully["P_side1_wins"] + bully["P_tie"] == 1


def test_partner_without_partnerships_is_bully_exactly():
    assert ds.exact(SMALL, "partner")["exact"].equals(ds.exact(SMALL, "bully")["exact"])


@pytest.mark.parametrize("strategies, named", [
    ("mc", "'mc'"), (["bully", "ismcts:10"], "'ismcts:10'"), ([print, "random"], "built-in"),
    (3, "3")])
def test_exact_refuses_what_it_cannot_enumerate(strategies, named):
    with pytest.raises(ValueError, match=r"`strategies` must be one of 'random', 'bully'.*"
                                         r"but .*" + named.strip("'")):
        ds.exact(SMALL, strategies)


def test_exact_refuses_a_lineup_of_the_wrong_length():
    with pytest.raises(ValueError, match=r"one strategy per seat \(2\).*but 3 were passed"):
        ds.exact(SMALL, ["bully", "random", "bully"])
