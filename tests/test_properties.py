"""Property tests: hands of random valid rule sets, replayed event by event by a checker written
from docs/rules.md alone (it shares no move, turn or scoring code with the engine).

The checker starts from the deal the hand was played from and walks the event log: it keeps its own
hands, boneyard and list of open ends, and asserts at every step that the event was allowed and that
the hand ends exactly when the rules say. It then checks the score identities and the hand record.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dominosim import Rules, play_hand

BUILTINS = ["random", "bully", "doubles"]


def set_size(max_pip):
    return (max_pip + 1) * (max_pip + 2) // 2


def full_set(max_pip):
    return [(a, b) for b in range(max_pip + 1) for a in range(b + 1)]


def tid(tile):
    a, b = sorted(tile)
    return b * (b + 1) // 2 + a


@st.composite
def rule_kwargs(draw):
    """Keyword arguments of a valid Rules, as the table "Which combinations are valid" allows."""
    # Tiny sets matter, but most hands should be long enough to knock, draw and block.
    max_pip = draw(st.integers(1, 8) | st.integers(4, 8))
    size = set_size(max_pip)
    teams = [p for p in (4, 6) if p <= size]
    players = draw(st.integers(2, min(6, size)) | st.sampled_from(teams or [2]))
    most = size // players
    # Half the time a hand of at least half the most tiles: long hands knock, draw and block.
    hand_size = draw(st.integers(1, most) | st.integers((most + 1) // 2, most))
    kw = dict(max_pip=max_pip, players=players, hand_size=hand_size)
    kw["partnerships"] = players in (4, 6) and draw(st.booleans())
    kw["opening"] = draw(st.sampled_from(["highest_double", "any"]))
    if kw["opening"] == "any":
        leader = draw(st.none() | st.integers(0, players - 1))
        if leader is not None:
            kw["leader"] = leader
    else:
        kw["opening_arms"] = draw(st.sampled_from([2, 4]))
        kw["fill_opening_first"] = draw(st.booleans())
    kw["draw"] = draw(st.sampled_from(["none", "until_playable", "one"]))
    if kw["draw"] != "none":
        kw["boneyard_keep"] = draw(st.integers(0, size - players * hand_size))
    kw["doubles_branch"] = draw(st.booleans())
    kw["end"] = draw(st.sampled_from(["out", "team_out"])) if kw["partnerships"] else "out"
    kw["scoring"] = draw(st.sampled_from(["game", "spots"] if kw["partnerships"]
                                         else ["game", "spots", "balance"]))
    return kw


@st.composite
def hands_to_play(draw):
    rules = Rules(**draw(rule_kwargs()))
    if draw(st.booleans()):
        lineup = draw(st.sampled_from(BUILTINS))
    else:
        lineup = draw(st.lists(st.sampled_from(BUILTINS), min_size=rules.players,
                               max_size=rules.players))
    seed = draw(st.integers(0, 2**40))
    hand = draw(st.integers(0, 10**6))
    return rules, lineup, seed, hand


# ---------------------------------------------------------------------------------- the checker


class Replay:
    """The table as docs/rules.md describes it, rebuilt from a deal and moved on by events."""

    def __init__(self, rules, hands, boneyard):
        self.rules = rules
        self.hands = [Counter(h) for h in hands]
        self.boneyard = list(boneyard)
        self.played = []
        self.ends = []  # [suit, empty arm of the opening double]
        self.stitch_ups = [0] * rules.players

    def side(self, seat):
        r = self.rules
        return seat % (r.players // 2) if r.partnerships else seat

    def holds(self, seat):
        return sum(self.hands[seat].values()) > 0

    def playable(self):
        """Indices of the open ends a tile may go on now."""
        if self.rules.fill_opening_first and any(empty for _, empty in self.ends):
            return [i for i, (_, empty) in enumerate(self.ends) if empty]
        return list(range(len(self.ends)))

    def playable_suits(self):
        return {self.ends[i][0] for i in self.playable()}

    def moves(self, seat):
        suits = self.playable_suits()
        return {(t, v) for t in self.hands[seat] for v in set(t) if v in suits}

    def drawable(self):
        if self.rules.draw == "none":
            return 0
        return max(0, len(self.boneyard) - self.rules.boneyard_keep)

    def next_seat(self, seat):
        nxt = (seat + 1) % self.rules.players
        while self.rules.end == "team_out" and not self.holds(nxt):
            nxt = (nxt + 1) % self.rules.players
        return nxt

    def take(self, seat, tile):
        assert self.hands[seat].get(tile) == 1, f"seat {seat} played {tile}, which it does not hold"
        del self.hands[seat][tile]
        self.played.append(tile)

    def suits(self):
        return tuple(s for s, _ in self.ends)

    def stitched(self):
        return len(self.ends) >= 2 and len(set(self.suits())) == 1

    def out_side_done(self, seat):
        """Whether a play that emptied ``seat``'s hand ends the hand."""
        if self.holds(seat):
            return False
        if self.rules.end == "out":
            return True
        return all(not self.holds(s) for s in range(self.rules.players)
                   if self.side(s) == self.side(seat))


def check_deals(rules, deals):
    full = sorted(full_set(rules.max_pip))
    for hands, boneyard in deals:
        assert len(hands) == rules.players
        assert all(len(h) == rules.hand_size for h in hands)
        assert len(boneyard) == rules.boneyard_size
        assert sorted([t for h in hands for t in h] + list(boneyard)) == full
    has_double = [any(a == b for h in hands for a, b in h) for hands, _ in deals]
    if rules.opening == "highest_double":
        assert has_double[-1] and not any(has_double[:-1])
    else:
        assert len(deals) == 1


def check_opening(table, event):
    rules = table.rules
    assert event.kind == "play" and event.end_index == -1 and not event.stitch_up
    if rules.opening == "highest_double":
        d = max(a for h in table.hands for a, b in h if a == b)
        holder = next(s for s in range(rules.players) if table.hands[s][(d, d)])
        assert (event.seat, event.tile, event.suit) == (holder, (d, d), d)
        table.ends = [[d, rules.fill_opening_first] for _ in range(rules.opening_arms)]
    else:
        assert event.seat == rules.leader and event.suit == -1
        a, b = event.tile
        table.ends = [[a, False], [b, False]]
    table.take(event.seat, event.tile)
    assert event.ends == table.suits()


def check_play(table, event):
    seat, tile, suit = event.seat, event.tile, event.suit
    assert (tile, suit) in table.moves(seat), f"illegal play {tile} on {suit}"
    index = next(i for i in table.playable() if table.ends[i][0] == suit)
    assert event.end_index == index
    table.take(seat, tile)
    table.ends[index] = [tile[1] if tile[0] == suit else tile[0], False]
    if tile[0] == tile[1] and table.rules.doubles_branch:
        table.ends += [[suit, False], [suit, False]]
    assert event.ends == table.suits()
    assert event.stitch_up == table.stitched()
    table.stitch_ups[seat] += event.stitch_up


def replay(log, decisions=None):
    """Walk the log; return the checker's table and ``(how, out_seat)``.

    ``decisions`` maps an event index to what a strategy was shown just before that event (see
    :class:`Recorder`); each is checked against the checker's own table at that moment.
    """
    decisions = decisions or {}
    rules = log.rules
    check_deals(rules, log.deals)
    hands, boneyard = log.deals[-1]
    table = Replay(rules, hands, boneyard)
    events = log.events
    assert events[-1].kind == "end"
    assert all(e.kind != "end" for e in events[:-1])

    if 0 in decisions:
        leader = rules.leader
        assert decisions[0]["moves"] == sorted(((t, -1) for t in table.hands[leader]),
                                               key=lambda m: tid(m[0]))
    check_opening(table, events[0])
    finished = ("out", events[0].seat) if table.out_side_done(events[0].seat) else None
    to_move = table.next_seat(events[0].seat)
    knocked, drew = set(), False
    lacks = [set() for _ in range(rules.players)]
    for k, event in enumerate(events[1:-1], start=1):
        assert finished is None, f"the hand should have ended before {event}"
        assert event.seat == to_move, f"seat {event.seat} acted out of turn"
        seat = event.seat
        if k in decisions:
            check_decision(table, lacks, seat, decisions[k])
        if event.kind == "play":
            check_play(table, event)
            knocked, drew = set(), False
            if table.out_side_done(seat):
                finished = ("out", seat)
            else:
                to_move = table.next_seat(seat)
        elif event.kind == "draw":
            assert not table.moves(seat), "a seat with a legal move drew"
            assert table.rules.draw != "none" and table.drawable() > 0
            assert not (table.rules.draw == "one" and drew), "a second draw in one turn"
            assert event.tile == table.boneyard[0], "draws follow the boneyard order"
            table.hands[seat][table.boneyard.pop(0)] += 1
            drew = True
            lacks[seat] = set()
        else:
            assert event.kind == "knock"
            assert not table.moves(seat), "a seat with a legal move knocked"
            assert table.drawable() == 0 or (table.rules.draw == "one" and drew)
            assert event.suits == tuple(sorted(table.playable_suits()))
            lacks[seat] |= table.playable_suits()
            knocked.add(seat)
            holding = {s for s in range(rules.players) if table.holds(s)}
            if table.drawable() == 0 and holding <= knocked:
                finished = ("blocked", -1)
            else:
                to_move = table.next_seat(seat)
                drew = False
    assert finished is not None, "the hand ended before the rules end it"
    return table, finished


def check_decision(table, lacks, seat, seen):
    """A strategy is asked only with two or more moves: exactly the distinct legal moves, in
    canonical order, with a view that shows the table and the known-to-lack suits."""
    moves = table.moves(seat)
    assert len(moves) >= 2
    assert seen["moves"] == sorted(moves, key=lambda m: (tid(m[0]), m[1]))
    assert seen["seat"] == seat
    assert seen["hand"] == sorted(table.hands[seat].elements(), key=tid)
    assert seen["ends"] == table.suits()
    playable = set(table.playable())
    assert seen["playable"] == tuple(i in playable for i in range(len(table.ends)))
    assert seen["boneyard_size"] == len(table.boneyard)
    assert seen["tile_counts"] == tuple(sum(h.values()) for h in table.hands)
    assert seen["known_lacks"] == tuple(frozenset(x) for x in lacks), "wrong known-to-lack suits"


class Recorder:
    """Plays like ``random`` and writes down, by event index, what it was shown."""

    name = "recorder"

    def __init__(self):
        self.seen = {}

    def choose(self, view, moves, rng):
        assert len(view.history) not in self.seen
        self.seen[len(view.history)] = dict(
            seat=view.seat, moves=[tuple(m) for m in moves], hand=list(view.hand),
            ends=view.ends, playable=view.playable, boneyard_size=view.boneyard_size,
            tile_counts=view.tile_counts, known_lacks=view.known_lacks)
        # Tiles other seats drew are hidden from this seat.
        assert all(e.tile is None for e in view.history if e.kind == "draw" and e.seat != view.seat)
        return moves[rng.below(len(moves))]


def expected_score(rules, pips, how, out_seat):
    side = (lambda s: s % (rules.players // 2)) if rules.partnerships else (lambda s: s)
    n_sides = rules.players // 2 if rules.partnerships else rules.players
    side_pips = [sum(p for s, p in enumerate(pips) if side(s) == k) for k in range(n_sides)]
    if how == "out":
        winner = side(out_seat)
    else:
        low = min(side_pips)
        if side_pips.count(low) > 1:
            return -1, 0
        winner = side_pips.index(low)
    losers = sum(p for s, p in enumerate(pips) if side(s) != winner)
    if rules.scoring == "game":
        return winner, 1
    if rules.scoring == "spots":
        return winner, losers if how == "out" else losers - side_pips[winner]
    return winner, sum(p - pips[winner] for s, p in enumerate(pips) if s != winner)


def check_end(log, table, finished):
    rules, end, rec = log.rules, log.events[-1], log.record
    how, out_seat = finished
    pips = [sum((a + b) * n for (a, b), n in h.items()) for h in table.hands]
    assert end.how == how and list(end.pips) == pips
    winner, points = expected_score(rules, pips, how, out_seat)
    assert (end.winning_side, end.points) == (winner, points), "wrong winner or points"
    if how == "out":
        assert pips[out_seat] == 0
        if rules.scoring == "balance":  # balance after an out equals spots
            assert points == sum(pips)
    else:
        # Blocked: nobody can ever play again.
        assert table.drawable() == 0
        assert all(not table.moves(s) for s in range(rules.players) if table.holds(s))
    if winner == -1:
        assert how == "blocked" and points == 0

    # Tiles are conserved: hands, boneyard and table hold the set, once each.
    left = [t for h in table.hands for t, n in h.items() for _ in range(n)]
    assert sorted(left + table.boneyard + table.played) == sorted(full_set(rules.max_pip))

    events = log.events
    count = Counter(e.kind for e in events)
    assert rec["plays"] == count["play"] == len(table.played)
    assert rec["knocks"] == count["knock"]
    assert rec["draws"] == count["draw"]
    assert rec["stitch_ups"] == sum(e.stitch_up for e in events) == sum(table.stitch_ups)
    assert rec["boneyard_left"] == len(table.boneyard)
    assert rec["end"] == (0 if how == "out" else 1)
    assert (rec["winning_side"], rec["points"]) == (winner, points)
    assert rec["out_seat"] == out_seat
    assert rec["opener"] == events[0].seat
    assert rec["opening_tile"] == tid(events[0].tile)
    a, b = events[0].tile
    assert rec["opening_double"] == (a if a == b else -1)
    assert rec["redeals"] == len(log.deals) - 1
    for s in range(rules.players):
        assert rec[f"pips_{s}"] == pips[s]
        assert rec[f"tiles_left_{s}"] == sum(table.hands[s].values())
        assert rec[f"stitch_ups_{s}"] == table.stitch_ups[s]


# ---------------------------------------------------------------------------------- properties


@settings(max_examples=1000, deadline=None, derandomize=True)
@given(hands_to_play())
def test_hand_random_rules_replays_legally_and_scores_right(case):
    rules, lineup, seed, hand = case
    log = play_hand(rules, lineup, seed=seed, hand=hand)
    table, finished = replay(log)
    check_end(log, table, finished)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(hands_to_play())
def test_strategy_random_rules_offered_exactly_the_legal_moves_and_lacks(case):
    rules, _, seed, hand = case
    recorder = Recorder()
    log = play_hand(rules, recorder, seed=seed, hand=hand)
    table, finished = replay(log, recorder.seen)
    check_end(log, table, finished)
    plain = play_hand(rules, "random", seed=seed, hand=hand)
    assert plain.events == log.events  # the recorder plays exactly like `random`


@settings(max_examples=150, deadline=None, derandomize=True)
@given(hands_to_play(), st.sampled_from(BUILTINS))
def test_hand_same_key_same_deal_any_lineup_and_replays_exactly(case, other):
    rules, lineup, seed, hand = case
    log = play_hand(rules, lineup, seed=seed, hand=hand)
    again = play_hand(rules, lineup, seed=seed, hand=hand)
    assert again.events == log.events and again.record == log.record
    assert play_hand(rules, other, seed=seed, hand=hand).deals == log.deals


# ---------------------------------------------------------------------------------- the checker
# The checker must be able to fail: it rejects logs and views that break the rules.


def check(log, decisions=None):
    table, finished = replay(log, decisions)
    check_end(log, table, finished)


def _hand_with_draws():
    rules = Rules(max_pip=6, players=2, hand_size=7, draw="until_playable")
    for hand in range(200):
        log = play_hand(rules, "random", seed=11, hand=hand)
        kinds = Counter(e.kind for e in log.events)
        if kinds["draw"] and kinds["play"] >= 4:
            return log
    raise AssertionError("no hand with draws found")


def test_checker_tile_not_held_rejected():
    log = _hand_with_draws()
    check(log)
    events = log.events
    i = next(k for k, e in enumerate(events) if k > 0 and e.kind == "play")
    other_hand = log.deals[-1][0][1 - events[i].seat]
    bad = dataclasses.replace(events[i], tile=other_hand[0])
    with pytest.raises(AssertionError, match="illegal play"):
        check(dataclasses.replace(log, events=[*events[:i], bad, *events[i + 1:]]))


def test_checker_missing_draw_rejected():
    log = _hand_with_draws()
    j = next(k for k, e in enumerate(log.events) if e.kind == "draw")
    with pytest.raises(AssertionError):
        check(dataclasses.replace(log, events=log.events[:j] + log.events[j + 1:]))


def test_checker_wrong_points_rejected():
    log = _hand_with_draws()
    end = dataclasses.replace(log.events[-1], points=log.events[-1].points + 1)
    with pytest.raises(AssertionError, match="wrong winner or points"):
        check(dataclasses.replace(log, events=[*log.events[:-1], end]))


def test_checker_view_forgetting_a_knock_rejected():
    rules = Rules(max_pip=6, players=3, hand_size=5, draw="one")
    for hand in range(300):
        recorder = Recorder()
        log = play_hand(rules, recorder, seed=4, hand=hand)
        lacking = {k: v for k, v in recorder.seen.items() if any(v["known_lacks"])}
        if lacking:
            break
    else:
        raise AssertionError("no decision with a known-to-lack suit found")
    check(log, recorder.seen)
    k, seen = next(iter(lacking.items()))
    blank = dict(seen, known_lacks=tuple(frozenset() for _ in seen["known_lacks"]))
    with pytest.raises(AssertionError, match="wrong known-to-lack"):
        check(log, {**recorder.seen, k: blank})
