"""The lazy exact enumeration behind :func:`dominosim.solver.exact.exact`: tiles are revealed only
when a decision or a rule needs them, the unrevealed ones stay exchangeable, and completions are
counted instead of enumerated.

A state of the enumeration knows, for every seat, the tiles of its hand revealed so far and how
many it holds unrevealed, with the suits its unrevealed tiles are known (to the enumeration) to
lack; the boneyard's revealed tiles and how many it holds unrevealed; and the *pool*, the set of
tiles not revealed anywhere. Every way of placing the pool's tiles in the unrevealed slots that
respects the lacks (a *completion*) is one deal, equally likely: :meth:`_Lazy.completions` counts
them by classes of interchangeable tiles (tiles that may go to the same seats).

What is revealed, and when:

* the opening: the location of the highest double (double by double, from the top), or the
  leader's whole hand under ``opening='any'``;
* a seat to move reveals the unrevealed tiles it holds that hold a playable suit (its legal
  moves are then known, and its other unrevealed tiles lack those suits); a seat playing a
  deterministic style with two or more legal moves reveals its whole hand (the style reads it);
* a draw reveals the tile drawn (uniform over the boneyard's tiles: a revealed one, or a pool
  tile weighted by the completions that leave it in the boneyard);
* the end of the hand needs only the pips left in each hand: the unrevealed pips are counted by
  sums (:meth:`_Lazy.hidden_pips`), never by listing the deals.

Each state's value is the *total* over its completions (the expected vector times the number of
completions), kept as integers over one common denominator: a reveal is then a plain sum of its
children, a ``random`` choice among ``k`` moves the sum over ``k``, a draw the sum over the
boneyard's size. Equal states reached along different paths are evaluated once.

Every rule is decided by the reference engine's functions (:mod:`dominosim.reference.game`), on
the tiles the state has revealed: a seat's unrevealed tiles provably hold no playable suit when it
decides.
"""

from __future__ import annotations

import gc
import math
from contextlib import contextmanager
from fractions import Fraction
from functools import lru_cache
from itertools import combinations

from ..reference.game import (
    Event,
    Move,
    drawable,
    ends_after,
    ends_by_out,
    is_blocked,
    is_stitch_up,
    legal_moves,
    may_draw,
    next_seat,
    opening_ends,
    opens_with_double,
    playable_ends,
    playable_suits,
    score,
)
from ..rules import Rules
from ..strategies.lineup import BUILTINS
from ..strategies.view import SeatView
from ..tiles import full_set, pips
from .vectors import Quantities, plus, total

__all__ = ["Lazy", "StateLimitError", "collector_paused", "enumerate_hands", "layout_key",
           "moved_from_seat_0", "no_double_pool", "openings", "seat_view"]


_MISSING = object()
"""What a cache lookup answers for a key it does not hold (None is a value it keeps)."""


class StateLimitError(ValueError):
    """The enumeration met more states than its limit allows (raised before memory runs out)."""


def _bits(mask: int):
    """The indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class Lazy(Quantities):
    """The lazy enumeration of one rule set and line-up.

    Parameters
    ----------
    rules : Rules
    lineup : list of str
        One enumerable built-in per seat (``random`` or a deterministic style).
    reads : set of str
        What the line-up reads of the public history: ``"lacks"`` and/or ``"plays"``.
    max_states : int
        The most states it may keep: one more raises :class:`StateLimitError`, so memory is
        bounded by ``max_states`` times the size of a state (``benchmarks/README.md``).
    on_states : callable or None
        Called with the states kept so far at every 16,384th new state.
    """

    def __init__(self, rules: Rules, lineup: list[str], reads: set, max_states: int,
                 on_states=None) -> None:
        super().__init__(rules)
        self.on_states = on_states
        self.rules = rules
        self.lineup = lineup
        self.styles = [None if name == "random" else BUILTINS[name]() for name in lineup]
        self.keeps_lacks, self.keeps_plays = "lacks" in reads, "plays" in reads
        self.max_states = max_states
        self.tiles = full_set(rules.max_pip)
        self.suits = [(1 << a) | (1 << b) for a, b in self.tiles]
        self.pips = [pips(t) for t in self.tiles]
        self.memo: dict = {}
        self.counts: dict = {}
        self.hidden_memo: dict = {}
        self.finish_memo: dict = {}
        self.suits_of: dict = {}
        self.count_of: dict = {}
        self.settled_of: dict = {}
        self.hands: dict = {}
        self.scores: dict[tuple, tuple[int, int]] = {}
        self.index = {tile: t for t, tile in enumerate(self.tiles)}
        self.mask_pips: dict = {}
        self.suits_at: dict = {}  # ends -> (playable suits, their mask)
        self.moves_of: dict = {}  # (hand mask, ends) -> the legal moves' outcomes
        self.ends_of: dict = {}  # (ends, move) -> its outcome (see outcome)
        # the reference rules' answers that depend on a count or the hands' sizes alone
        self.drawable = [drawable(rules, n) for n in range(len(self.tiles) + 1)]
        self.turn_of: dict = {}  # (tiles held by each seat, seat) -> (out, next seat)
        self.revealed_of: dict = {}  # (pool, hidden, lack, bone) after a reveal -> revealed()

    # ------------------------------------------------------------------ completions
    def completions(self, pool: int, hidden: tuple, lack: tuple) -> int:
        """How many ways the ``pool``'s tiles fill the seats' ``hidden`` slots (each tile only in
        a seat whose ``lack`` it avoids) and the boneyard's (the rest, anywhere).
        """
        found = self.count_of.get((pool, hidden, lack))
        if found is not None:
            return found
        classes: dict[int, int] = {}
        for t in _bits(pool):
            allowed = 0
            for s, h in enumerate(hidden):
                if h and not self.suits[t] & lack[s]:
                    allowed |= 1 << s
            classes[allowed] = classes.get(allowed, 0) + 1
        key = (tuple(sorted(classes.items())), hidden)
        found = self.counts.get(key)
        if found is None:
            found = self.counts[key] = _fill(key[0], hidden)
        self.count_of[(pool, hidden, lack)] = found
        return found

    def hidden_pips(self, pool: int, hidden: tuple, lack: tuple) -> dict:
        """``{pips of each seat's unrevealed tiles: completions}``."""
        key = (pool, hidden, lack)
        found = self.hidden_memo.get(key)
        if found is not None:
            return found
        p = len(hidden)
        spare = pool.bit_count() - sum(hidden)  # the boneyard's unrevealed slots
        layer = {(hidden, (0,) * p, spare): 1}
        for t in _bits(pool):
            nxt: dict = {}
            for (caps, sums, bone), n in layer.items():
                if bone:
                    k = (caps, sums, bone - 1)
                    nxt[k] = nxt.get(k, 0) + n
                for s in range(p):
                    if caps[s] and not self.suits[t] & lack[s]:
                        k = (caps[:s] + (caps[s] - 1,) + caps[s + 1:],
                             sums[:s] + (sums[s] + self.pips[t],) + sums[s + 1:], bone)
                        nxt[k] = nxt.get(k, 0) + n
            layer = nxt
        found = {sums: n for (caps, sums, bone), n in layer.items()}
        self.hidden_memo[key] = found
        return found

    # ------------------------------------------------------------------ the hand
    def held(self, known: tuple, hidden: tuple) -> tuple:
        """Tiles held by each seat (the reference functions read only whether a hand is empty)."""
        return tuple(map(int.__add__, map(int.bit_count, known), hidden))

    def pips_of(self, mask: int) -> int:
        """The pips of the tiles of ``mask``."""
        found = self.mask_pips.get(mask)
        if found is None:
            found = self.mask_pips[mask] = sum(self.pips[t] for t in _bits(mask))
        return found

    def hand(self, mask: int) -> tuple:
        """The tiles of ``mask``, in id order."""
        found = self.hands.get(mask)
        if found is None:
            found = self.hands[mask] = tuple(self.tiles[t] for t in _bits(mask))
        return found

    def finish(self, pool, known, hidden, lack, out_seat: int) -> tuple:
        """The total of the hand's quantities over the completions of a finished hand."""
        pool, lack, _ = self.settled(pool, hidden, lack, 0)
        shown = tuple(map(self.pips_of, known))
        key = (pool, shown, hidden, lack, out_seat)
        found = self.finish_memo.get(key)
        if found is not None:
            return found
        v = [0] * self.size
        for sums, n in self.hidden_pips(pool, hidden, lack).items():
            left = tuple(a + b for a, b in zip(shown, sums, strict=True))
            result = self.scores.get((left, out_seat))
            if result is None:
                result = self.scores[(left, out_seat)] = score(self.rules, list(left), out_seat)
            self.add_result(v, *result, n)
        v[self.OUT if out_seat >= 0 else self.BLOCKED] = sum(
            self.hidden_pips(pool, hidden, lack).values())
        found = self.finish_memo[key] = (1, tuple(v))
        return found

    def opened(self, pool, known, hidden, lack, bone, seat: int, tile) -> tuple:
        """The total from the opening play of ``tile`` (revealed in ``seat``'s hand) on."""
        outcome = (Move(tile, -1), 1 << self.index[tile],
                   self.canonical(opening_ends(self.rules, tile)), False)
        n = self.completions(pool, hidden, lack)
        pool, lack, bone = self.settled(pool, hidden, lack, bone)
        v = self.play(pool, known, hidden, lack, bone, seat, self.start_pub(), outcome,
                      self.turn_after(known, hidden, seat), n)
        return plus(v, self.PLAYS, n)

    def opening_moves(self, seat: int, pool: int, known: tuple, hidden: tuple, bone: int,
                      leads: tuple) -> list:
        """The opening plays ``seat`` makes from ``leads`` (the ids of :func:`openings`): each
        one under ``random``, a style's one choice (read on its view) where it has two or more.
        """
        moves = [Move(self.tiles[t], -1) for t in leads]
        style = self.styles[seat]
        if style is not None and len(moves) > 1:
            view = self.view(known, hidden, bone, pool, (), seat, self.start_pub())
            moves = [style.choose(view, moves, None)]
        return moves

    def canonical(self, ends) -> tuple:
        """The open ends as a state key (:func:`layout_key`)."""
        return layout_key(self.rules, ends)

    def start_pub(self) -> tuple:
        """What the styles read of the public history before the opening."""
        p = self.rules.players
        return ((frozenset(),) * p if self.keeps_lacks else None,
                ((),) * p if self.keeps_plays else None)

    def played(self, pub: tuple, seat: int, tile) -> tuple:
        """``pub`` with ``tile`` added to the tiles ``seat`` played (when the line-up reads them)."""
        lacks, plays = pub
        if plays is not None:
            plays = plays[:seat] + (tuple(sorted(plays[seat] + (tile,))),) + plays[seat + 1:]
        return lacks, plays

    def turn_after(self, known: tuple, hidden: tuple, seat: int) -> tuple:
        """``(whether the hand ends, the seat to move next)`` once ``seat`` has played a tile."""
        held = self.held(known, hidden)
        found = self.turn_of.get((held, seat))
        if found is None:
            left = held[:seat] + (held[seat] - 1,) + held[seat + 1:]
            found = self.turn_of[(held, seat)] = (ends_by_out(self.rules, left, seat),
                                                  next_seat(self.rules, left, seat))
        return found

    def settled(self, pool: int, hidden: tuple, lack: tuple, bone: int) -> tuple:
        """``(pool, lack, bone)`` without the tiles that can only lie asleep for ever, once no
        tile can be drawn any more: a pool tile no seat may hold, and the revealed boneyard.
        Each lies in the boneyard in every completion, so the count of completions, and every
        quantity, is the same without them.
        """
        if self.drawable[bone.bit_count() + pool.bit_count() - sum(hidden)]:
            return pool, lack, bone
        found = self.settled_of.get((pool, hidden, lack))
        if found is not None:
            return found
        keep = 0
        for t in _bits(pool):
            for s, h in enumerate(hidden):
                if h and not self.suits[t] & lack[s]:
                    keep |= 1 << t
                    break
        found = self.settled_of[(pool, hidden, lack)] = (keep, self.normal(keep, hidden, lack), 0)
        return found

    def rest(self, pool, known, hidden, lack, bone, ends, seat, knocked, drew, pub) -> tuple:
        """The total of the rest of the hand over the completions of the state."""
        pool, lack, bone = self.settled(pool, hidden, lack, bone)
        return self.visit(pool, known, hidden, lack, bone, ends, seat, knocked, drew, pub)

    def visit(self, *state) -> tuple:
        """:meth:`rest` of a state already settled: its pool, hidden counts, lacks and boneyard
        are those of a settled state (a play or a knock changes none of them, and
        :meth:`settled` of a settled state is itself).
        """
        found = self.memo.get(state)
        if found is None:
            if len(self.memo) >= self.max_states:
                raise StateLimitError(len(self.memo))
            found = self.memo[state] = self._rest(*state)
            if self.on_states is not None and not len(self.memo) & 0x3FFF:
                self.on_states(len(self.memo))
        return found

    def _rest(self, pool, known, hidden, lack, bone, ends, seat, knocked, drew, pub) -> tuple:
        rules = self.rules
        found = self.suits_at.get(ends)
        if found is None:
            suits = playable_suits(rules, ends)
            found = self.suits_at[ends] = (suits, sum(1 << v for v in suits))
        suits, want = found
        if hidden[seat] and want & ~lack[seat] & self.present(pool):
            # reveal the unrevealed tiles of the seat that hold a playable suit
            return self.reveal(pool, known, hidden, lack, bone, ends, seat, knocked, drew, pub,
                               want)
        moves = self.moves_of.get((known[seat], ends))
        if moves is None:
            moves = self.moves_of[(known[seat], ends)] = tuple(
                self.outcome(ends, m) for m in legal_moves(rules, self.hand(known[seat]), ends))
        n = self.completions(pool, hidden, lack)
        if moves:
            style = self.styles[seat]
            if style is not None and len(moves) > 1:
                if hidden[seat]:
                    return self.reveal(pool, known, hidden, lack, bone, ends, seat, knocked,
                                       drew, pub, -1)
                chosen = style.choose(self.view(known, hidden, bone, pool, ends, seat, pub),
                                      [m[0] for m in moves], None)
                moves = [self.outcome(ends, chosen)]
            turn = self.turn_after(known, hidden, seat)
            v = total([self.play(pool, known, hidden, lack, bone, seat, pub, m, turn, n)
                       for m in moves], len(moves))
            return plus(v, self.PLAYS, n)
        unrevealed = pool.bit_count() - sum(hidden)
        to_draw = self.drawable[bone.bit_count() + unrevealed]
        if may_draw(rules, to_draw, drew):
            return plus(self.draw(pool, known, hidden, lack, bone, ends, seat, knocked, pub,
                                  unrevealed), self.DRAWS, n)
        knocked |= 1 << seat
        lacks, plays = pub
        if lacks is not None:
            lacks = lacks[:seat] + (lacks[seat] | suits,) + lacks[seat + 1:]
        held = self.held(known, hidden)
        holding = {s for s in range(rules.players) if held[s]}
        knockers = {s for s in range(rules.players) if knocked >> s & 1}
        if is_blocked(holding, knockers, to_draw):
            v = self.finish(pool, known, hidden, lack, -1)
        else:
            v = self.visit(pool, known, hidden, lack, bone, ends, next_seat(rules, held, seat),
                           knocked, False, (lacks, plays))
        return plus(v, self.KNOCKS, n)

    def reveal(self, pool, known, hidden, lack, bone, ends, seat, knocked, drew, pub,
               want: int) -> tuple:
        """The sum over what ``seat`` may hold unrevealed among the tiles holding a suit of
        ``want`` (all its tiles when ``want`` is -1): the rest of its tiles then lack ``want``.
        """
        mine = lack[seat]
        suits = self.suits
        cand = [1 << t for t in _bits(pool) if suits[t] & want and not suits[t] & mine]
        h = hidden[seat]
        sizes = [h] if want == -1 else range(min(h, len(cand)) + 1)
        after_lack = lack[:seat] + (mine | want if want != -1 else 0,) + lack[seat + 1:]
        children = []
        for k in sizes:
            left = hidden[:seat] + (h - k,) + hidden[seat + 1:]
            for chosen in combinations(cand, k):
                mask = sum(chosen)
                key = (pool & ~mask, left, after_lack, bone)
                found = self.revealed_of.get(key, _MISSING)
                if found is _MISSING:  # (None, a state with no completion, is kept too)
                    found = self.revealed_of[key] = self.revealed(*key)
                if found is not None:
                    rest_pool, new_lack, new_bone = found
                    children.append(self.visit(
                        rest_pool, known[:seat] + (known[seat] | mask,) + known[seat + 1:],
                        left, new_lack, new_bone, ends, seat, knocked, drew, pub))
        return total(children, 1)

    def revealed(self, pool: int, hidden: tuple, lack: tuple, bone: int):
        """``(pool, lack, bone)`` of the state after a reveal (or a draw of an unrevealed tile),
        settled, or None when no completion is left.
        """
        lack = self.normal(pool, hidden, lack)
        if not self.completions(pool, hidden, lack):
            return None
        return self.settled(pool, hidden, lack, bone)

    def present(self, pool: int) -> int:
        """The suits held by a tile of ``pool``, as a bit mask."""
        found = self.suits_of.get(pool)
        if found is None:
            found = 0
            for t in _bits(pool):
                found |= self.suits[t]
            self.suits_of[pool] = found
        return found

    def normal(self, pool: int, hidden: tuple, lack: tuple) -> tuple:
        """``lack`` reduced to what matters: the suits of the pool, for seats with unrevealed
        tiles (states that differ only elsewhere are one state).
        """
        present = self.present(pool)
        return tuple([m & present if h else 0 for m, h in zip(lack, hidden, strict=True)])

    def outcome(self, ends: tuple, move: Move) -> tuple:
        """``(move, its tile's bit, the canonical ends after it, whether it stitches up)``."""
        found = self.ends_of.get((ends, move))
        if found is None:
            layout, _ = ends_after(self.rules, ends, move)
            found = self.ends_of[(ends, move)] = (move, 1 << self.index[move.tile],
                                                  self.canonical(layout),
                                                  is_stitch_up([e.suit for e in layout]))
        return found

    def play(self, pool, known, hidden, lack, bone, seat, pub, outcome, turn, n) -> tuple:
        """The total after ``seat`` plays a move, given as its :meth:`outcome`, less the play
        itself (``turn``: :meth:`turn_after`; ``n`` completions; the state settled).
        """
        move, bit, ends, stitched = outcome
        known = known[:seat] + (known[seat] & ~bit,) + known[seat + 1:]
        out, nxt = turn
        if out:
            v = self.finish(pool, known, hidden, lack, seat)
        else:
            v = self.visit(pool, known, hidden, lack, bone, ends, nxt, 0, False,
                           self.played(pub, seat, move.tile))
        return plus(v, self.STITCH + seat, n) if stitched else v

    def draw(self, pool, known, hidden, lack, bone, ends, seat, knocked, pub,
             unrevealed: int) -> tuple:
        """The mean over the tile ``seat`` draws: each of the boneyard's tiles equally likely."""
        lacks, plays = pub
        if lacks is not None:  # a draw tells the table nothing of the hand the seat now holds
            lacks = lacks[:seat] + (frozenset(),) + lacks[seat + 1:]
        children = []
        for t in _bits(bone):
            children.append(self.rest(
                pool, known[:seat] + (known[seat] | 1 << t,) + known[seat + 1:], hidden, lack,
                bone & ~(1 << t), ends, seat, knocked, True, (lacks, plays)))
        if unrevealed:
            for t in _bits(pool):
                found = self.revealed(pool & ~(1 << t), hidden, lack, bone)
                if found is not None:
                    rest_pool, new_lack, new_bone = found
                    children.append(self.visit(
                        rest_pool, known[:seat] + (known[seat] | 1 << t,) + known[seat + 1:],
                        hidden, new_lack, new_bone, ends, seat, knocked, True, (lacks, plays)))
        return total(children, bone.bit_count() + unrevealed)

    def view(self, known, hidden, bone, pool, ends, seat, pub):
        """What the style of ``seat`` (whose hand is all revealed) reads."""
        counts = self.held(known, hidden)
        size = bone.bit_count() + pool.bit_count() - sum(hidden)
        return seat_view(self.rules, seat, self.hand(known[seat]), ends, counts, size, *pub)


def layout_key(rules: Rules, ends) -> tuple:
    """The open ends as a key of the enumerations' states: sorted, and under fill-first the
    opening double's arms (the first ``opening_arms`` ends, which the rules read by place) sorted
    apart from the ends added after them. Ends showing the same suit and equally filled are
    interchangeable (a tile goes on the first playable end of its suit), so the rest of the hand
    is the same from layouts of one key.

    >>> from dominosim.reference.game import End
    >>> rules = Rules.preset("cross")
    >>> layout_key(rules, [End(5, True), End(2), End(5, True), End(3), End(1), End(1)])
    (End(suit=2, empty_arm=False), End(suit=3, empty_arm=False), End(suit=5, empty_arm=True), \
End(suit=5, empty_arm=True), End(suit=1, empty_arm=False), End(suit=1, empty_arm=False))
    """
    if rules.fill_opening_first:
        arms = rules.opening_arms
        return tuple(sorted(ends[:arms])) + tuple(sorted(ends[arms:]))
    return tuple(sorted(ends))


def seat_view(rules: Rules, seat: int, hand: tuple, ends: tuple, tile_counts: tuple,
              boneyard_size: int, lacks, plays) -> SeatView:
    """What ``seat`` sees, as far as the built-in styles read it: its hand, the open ends and
    which are playable, the tile counts, the boneyard's size, the suits each seat is known to
    lack (empty when no seat of the line-up reads them), and a history of the plays alone, each
    seat's in tile order (empty when no seat reads it). The order of the plays, the draws, the
    knocks and the opener are not kept: no built-in style reads them
    (``tests/test_exact_styles.py`` checks every style's choice against the full view).
    """
    playable = set(playable_ends(rules, ends))
    history = () if plays is None else _history(plays)
    return SeatView(
        rules=rules, seat=seat, hand=hand, ends=tuple(e.suit for e in ends),
        playable=tuple(i in playable for i in range(len(ends))), history=history,
        tile_counts=tile_counts, boneyard_size=boneyard_size,
        known_lacks=lacks if lacks is not None else (frozenset(),) * rules.players, opener=-1,
        layout=tuple(ends), to_move=seat)


@lru_cache(maxsize=1 << 16)
def _history(plays: tuple) -> tuple:
    """The plays as a history of events: each seat's tiles, seat by seat."""
    return tuple(Event("play", seat=s, tile=t) for s, tiles in enumerate(plays) for t in tiles)


def _fill(classes: tuple, caps: tuple) -> int:
    """The ways to place tiles of ``classes`` (``(seats allowed as a bit mask, count)``) so that
    seat ``s`` receives ``caps[s]`` of them; the rest go to the boneyard.
    """
    memo: dict = {}

    def go(i: int, caps: tuple) -> int:
        if i == len(classes):
            return 0 if any(caps) else 1
        key = (i, caps)
        if key in memo:
            return memo[key]
        allowed, count = classes[i]
        seats = [s for s in _bits(allowed) if caps[s]]
        found = 0
        for split, ways in _splits(count, [caps[s] for s in seats]):
            new = list(caps)
            for s, k in zip(seats, split, strict=True):
                new[s] -= k
            found += ways * go(i + 1, tuple(new))
        memo[key] = found
        return found

    return go(0, caps)


def _splits(count: int, caps: list):
    """Every ``(k_1..k_m, ways)``: ``k_j <= caps[j]`` of ``count`` tiles to each of ``m`` seats
    (the rest to the boneyard), and the multinomial number of ways to choose them.
    """
    if not caps:
        yield (), 1
        return
    for k in range(min(count, caps[0]) + 1):
        for rest, ways in _splits(count - k, caps[1:]):
            yield (k,) + rest, ways * math.comb(count, k)



@contextmanager
def collector_paused():
    """The cyclic garbage collector paused (as it was after): the enumeration keeps millions of
    tuples, which hold no reference cycles, and every full collection would walk them all (a
    third of the enumeration's time, ``benchmarks/README.md``). Usable as a decorator.

    Examples
    --------
    >>> import gc
    >>> with collector_paused():
    ...     print(gc.isenabled())
    False
    >>> gc.isenabled()
    True
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def openings(rules: Rules):
    """Every way a hand opens, as both lazy enumerations (this one and the compiled one of
    :mod:`dominosim.fast.exact`) start it: ``(seat, pool, bone, hand, hidden, leads, double)``.
    ``seat`` opens holding the tiles of the bit mask ``hand`` (revealed) and ``hidden[seat]``
    more; ``hidden`` are the seats' unrevealed tiles, ``pool`` the tiles revealed nowhere and
    ``bone`` the boneyard's revealed tiles; ``leads`` the ids of the tiles it may lead, and
    ``double`` the opening double's suit (-1 under ``opening='any'``). Under the highest double,
    each double from the top opens in turn, held by each seat, and then lies in the boneyard
    for the doubles below it.

    >>> [(seat, hand, leads, double) for seat, _, _, hand, _, leads, double
    ...  in openings(Rules(max_pip=1, players=2, hand_size=1))]
    [(0, 4, (2,), 1), (1, 4, (2,), 1), (0, 1, (0,), 0), (1, 1, (0,), 0)]
    """
    p, h, n = rules.players, rules.hand_size, rules.n_tiles
    pool = (1 << n) - 1
    if not opens_with_double(rules):
        seat = rules.leader
        assert seat is not None  # Rules sets it under opening='any'
        hidden = tuple(0 if s == seat else h for s in range(p))
        for chosen in combinations(range(n), h):
            mask = sum(1 << t for t in chosen)
            yield seat, pool & ~mask, 0, mask, hidden, chosen, -1
        return
    tiles, bone = full_set(rules.max_pip), 0
    for d in range(rules.max_pip, -1, -1):
        t = tiles.index((d, d))
        for seat in range(p):
            hidden = tuple(h - 1 if s == seat else h for s in range(p))
            yield seat, pool & ~(1 << t), bone, 1 << t, hidden, (t,), d
        if pool.bit_count() - p * h == 0:
            break  # the boneyard is full: no deal leaves this double asleep
        pool &= ~(1 << t)
        bone |= 1 << t


def moved_from_seat_0(random_only: bool, seat: int, double: int) -> bool:
    """Whether an opening of :func:`openings` is not enumerated, its totals being seat 0's
    opening of the same ``double`` with every seat moved ``seat`` places on
    (:meth:`~dominosim.solver.vectors.Quantities.moved`): where every seat plays ``random``
    (``random_only``) and the highest double opens. Nothing in the rule book reads a seat by its
    number, and ``random`` does not either; a style might break ties by seat, so a line-up with
    one is enumerated from every seat.

    >>> [moved_from_seat_0(True, seat, 6) for seat in range(3)], moved_from_seat_0(False, 1, 6)
    ([False, True, True], False)
    """
    return random_only and double >= 0 and seat > 0


def no_double_pool(rules: Rules) -> int | None:
    """The tiles of the deals that hold no double (every double then sleeps), whose completions
    are the deals redealt; None when the boneyard cannot hold every double.
    """
    tiles = full_set(rules.max_pip)
    if rules.n_tiles - rules.players * rules.hand_size < rules.max_pip + 1:
        return None
    return (1 << rules.n_tiles) - 1 - sum(1 << tiles.index((d, d))
                                          for d in range(rules.max_pip + 1))


@collector_paused()
def enumerate_hands(game: Lazy) -> tuple[dict, dict, int, int]:
    """Every deal's hand, lazily: ``(by_opener, opened_double, played, no_double)``, the totals
    of the quantities over the deals opened by each seat (:class:`fractions.Fraction` entries),
    how many deals each double opened, the deals played and the deals holding no double.
    Where every seat plays ``random``, a double's openings by seats other than seat 0 are seat
    0's totals moved (:meth:`~dominosim.solver.vectors.Quantities.moved`), not enumerated: the
    memo holds the states of seat 0's openings alone.
    """
    rules = game.rules
    p = rules.players
    lack = (0,) * p
    by_opener: dict[int, list] = {seat: [] for seat in range(p)}
    opened_double = {d: 0 for d in range(rules.max_pip + 1)}
    played = 0
    free = no_double_pool(rules)
    no_double = 0 if free is None else game.completions(free, (rules.hand_size,) * p, lack)
    by_seat_0: dict[int, tuple] = {}
    random_only = all(style is None for style in game.styles)
    for seat, pool, bone, hand, hidden, leads, double in openings(rules):
        known = tuple(hand if s == seat else 0 for s in range(p))
        n = game.completions(pool, hidden, lack)
        if moved_from_seat_0(random_only, seat, double):
            den, nums = by_seat_0[double]
            where, moved = game.moved(seat), [0] * game.size
            for i, x in enumerate(nums):
                moved[where[i]] = x
            by_opener[seat].append((den, tuple(moved)))
        else:
            moves = game.opening_moves(seat, pool, known, hidden, bone, leads)
            by_opener[seat].append(total([game.opened(pool, known, hidden, lack, bone, seat,
                                                      m.tile) for m in moves], len(moves)))
            if double >= 0:
                by_seat_0[double] = by_opener[seat][-1]
        played += n
        if double >= 0:
            opened_double[double] += n
    fractions = {}
    for seat, vectors in by_opener.items():
        den, nums = total(vectors, 1) if vectors else (1, (0,) * game.size)
        fractions[seat] = [Fraction(x, den) for x in nums]
    return fractions, opened_double, played, no_double
