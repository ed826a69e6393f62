"""``ds.solve(..., sides="max_n")``: games of three or more sides, each side for itself.

The compiled max-n search (table, shallow pruning, a sole win stopping the search) is checked
against an exhaustive max-n written here in plain Python on the reference engine's positions
(``Position.after``, no table, no pruning, no compiled code): every root move's result for every
side must agree exactly, fraction for fraction, and so must the line chosen (the first best move in
canonical order).
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from test_solver import _random_deal

import dominosim as ds
from dominosim.tiles import pips


# ---------------------------------------------------------------- the independent max-n
def _results(position, objective: str) -> list:
    """Every side's result in a finished hand: ``win`` shares a tie equally among the sides with
    the fewest pips; ``points`` gives the winner its points and every other side their negative."""
    rules, state = position.rules, position.state
    n = rules.n_sides
    if objective == "points":
        winner, points = position.outcome
        return [0] * n if winner < 0 else [points if k == winner else -points for k in range(n)]
    if state.out_seat >= 0:
        won = [rules.side_of(state.out_seat)]
    else:
        left = [sum(pips(t) for s in rules.seats_of(k) for t in state.hands[s]) for k in range(n)]
        won = [k for k in range(n) if left[k] == min(left)]
    return [Fraction(1, len(won)) if k in won else Fraction(0) for k in range(n)]


def _max_n(position, objective: str) -> list:
    """The results of every side when each seat plays, among its legal moves in canonical order,
    the first one best for its own side."""
    position = position.settled()
    if position.over:
        return _results(position, objective)
    side = position.rules.side_of(position.to_move)
    best = None
    for move in position.legal_moves():
        results = _max_n(position.after(move), objective)
        if best is None or results[side] > best[side]:
            best = results
    return best


def _deal(rules: ds.Rules, rnd: random.Random):
    return ds.Position.from_deal(rules, *_random_deal(rules, rnd))


def _along(position, rnd: random.Random, count: int) -> list:
    """``position`` and up to ``count - 1`` later ones along random play."""
    out = [position.settled()]
    while len(out) < count:
        nxt = out[-1].after(rnd.choice(out[-1].legal_moves())).settled()
        if nxt.over:
            break
        out.append(nxt)
    return out


GAMES = {
    "block 3p spots": dict(name="block", players=3, max_pip=3, hand_size=3),
    "block 3p balance": dict(name="block", players=3, max_pip=3, hand_size=3, scoring="balance"),
    "block 4p alone": dict(name="block", players=4, max_pip=3, hand_size=2, partnerships=False),
    "draw 3p": dict(name="draw", players=3, max_pip=3, hand_size=2),
    "cross 3p (fill first, 4 arms)": dict(name="cross", players=3, max_pip=3, hand_size=2),
    "draw 3p lead any": dict(name="draw", players=3, max_pip=3, hand_size=2, opening="any",
                             leader=1),
}


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("objective", ["win", "points"])
def test_max_n_agrees_with_exhaustive_max_n(game, objective):
    spec = dict(GAMES[game])
    rules = ds.Rules.preset(spec.pop("name"), **spec)
    rnd = random.Random(f"{game}/{objective}")
    checked = 0
    for _ in range(4):
        for position in _along(_deal(rules, rnd), rnd, 3):
            s = ds.solve(position, objective=objective, sides="max_n", table_bits=16)
            side = rules.side_of(position.to_move)
            each = [_max_n(position.after(m), objective) for m in position.legal_moves()]
            mine = [r[side] for r in each]
            assert list(s.moves["value"]) == [float(v) if objective == "win" else v for v in mine]
            assert s.value == max(s.moves["value"])
            assert list(s.moves["best"]) == [v == max(mine) for v in mine]
            assert list(s.side_values) == _max_n(position, objective), (game, str(position))
            if objective == "win":
                assert sum(s.side_values) == 1
            checked += 1
    assert checked >= 8


def test_max_n_is_not_the_coalition():
    # on three sides the coalition's value is what the side to move can guarantee: never more
    # than its max-n result, and less on some of these deals
    rules = ds.Rules.preset("block", players=3, max_pip=3, hand_size=3)
    rnd = random.Random(24)
    lower = 0
    for _ in range(12):
        position = _deal(rules, rnd)
        coalition = ds.solve(position, table_bits=16).value
        max_n = ds.solve(position, sides="max_n", table_bits=16).value
        assert coalition <= max_n
        lower += coalition < max_n
    assert lower > 0


def test_two_sides_play_the_same_game_either_way():
    rules = ds.Rules.preset("block", players=4, max_pip=3, hand_size=2)  # two partnerships
    position = _deal(rules, random.Random(5))
    a = ds.solve(position, sides="max_n", table_bits=16)
    b = ds.solve(position, table_bits=16)
    assert list(a.moves["value"]) == list(b.moves["value"]) and a.best == b.best
    assert a.side_values is None and a.sides == "max_n"
    assert "(win) for side" in repr(a)


def test_the_repr_says_how_three_sides_played():
    position = _deal(ds.Rules.preset("block", players=3, max_pip=3, hand_size=3), random.Random(2))
    assert "(win, max_n) for side" in repr(ds.solve(position, sides="max_n", table_bits=16))
    assert "(points, coalition) for side" in repr(ds.solve(position, "points", table_bits=16))


@pytest.mark.parametrize("bad", ["maxn", "max-n", None, 3])
def test_sides_must_be_named(bad):
    position = _deal(ds.Rules.preset("block", players=3, max_pip=3, hand_size=3),
                     random.Random(1))
    with pytest.raises(ValueError, match=r"^The value for `sides` must be one of 'coalition', "
                                         r"'max_n', but .* was passed\.$"):
        ds.solve(position, sides=bad)
