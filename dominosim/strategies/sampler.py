"""The consistent-deal sampler: the hidden tiles as seen from one seat, counted and sampled exactly.

Search strategies (Monte Carlo, ISMCTS) need deals of the tiles a seat cannot see that agree with
everything it has seen. This module counts them exactly and samples them exactly uniformly, for
every draw mode (``none``, ``until_playable``, ``one``), any opening, layout and player count.

The model
---------
The deal is a uniform shuffle and draws are taken from the boneyard in order, so every *hidden
history* is equally likely a priori: the initial hand of every other seat (a set), the tile taken
by every draw of another seat, and the set of tiles still sleeping (their order is uniform and
independent of the rest). The observations are the public history seen by seat ``me`` (its own
draws shown) and its own hand. A hidden history is *consistent* when replaying the public events
on it is legal; the other seats' choices among legal moves are not used as evidence. The sampler
draws uniformly from the consistent hidden histories and reports where the unseen tiles are now.

Each other seat ``s`` owns *slots*: the deal (time -1, ``hand_size`` tiles) and one slot per draw
of ``s`` (time: the index of the draw event, one tile). Every observation about ``s`` is a
constraint ``(t, F)``: the tiles ``s`` holds at time ``t`` avoid the tile set ``F``. A knock at
event ``t`` forbids every tile holding a suit then playable; a draw at event ``t`` does the same at
time ``t - 1/2``, before the drawn tile arrives (every draw is forced: the seat had no legal
move); under ``opening='highest_double'`` the opening double ``d-d`` says that no seat was dealt
a higher double, a constraint at time ``-1/2`` on every other seat. The *items* to place are the
unseen tiles (those not in ``me``'s hand and never played) and the tiles the other seats played.
A tile in slot ``(s, j)`` (time ``tau``) is in ``s``'s hand from ``tau`` on, until it is played:

* an unseen tile may sleep (stay in the boneyard), or sit in slot ``(s, j)`` if it avoids ``F``
  for every constraint of ``s`` later than ``tau`` (it is still held, so all of them saw it);
* a tile ``s`` played at event ``p`` may sit only in a slot ``(s, j)`` with ``tau < p``, and it
  must avoid ``F`` for every constraint of ``s`` with ``tau < t < p``.

A hidden history is exactly an assignment of the items to the slots and the boneyard with every
slot and the boneyard filled to capacity (hand sizes and the boneyard size are public), and it is
consistent exactly when every item sits where it is allowed: a play needs the tile in hand, and a
constraint concerns precisely the tiles acquired before it and not yet played. Slots of one seat
that allow the same items (for example the first tiles of one run of draws under
``until_playable``, which all met the same constraints) are merged into one *place*; the count is
then multiplied by the multinomial number of ways to spread a place's tiles over its slots. The
count of assignments is a dynamic programme over items whose state is the remaining capacity of
every place (exact Python integers); a sample is drawn item by item with probabilities equal to
the ratios of conditional counts, each drawn exactly with big-integer rejection on 64-bit chunks.

In Block (``draw='none'``) every seat has one slot, the deal, and a tile played after a knock was
in the hand at the knock; since plays are public, the constraint of a knock on the *unseen* tiles
is that the seat's current hand lacks the knocked suits; as no tile is ever gained, every knock
ever made still applies. So a Block seat's hand lacks every suit it ever knocked on (and any
double above the opening one), each allocation is one hidden history, and :func:`count_consistent`
counts allocations. Under ``until_playable`` and ``one`` an allocation of the current hands can
arise from several hidden histories (which tile came when), and allocations are drawn in
proportion to their number of histories, as the shuffle model requires; there
:func:`count_consistent` counts hidden histories.

A hand record typed in (:meth:`dominosim.HandLog.from_json`) is seen by no seat in particular: some
tiles of any hand, of the boneyard or of a draw may be known. :func:`count_dealt` counts its hidden
histories with the same slots, constraints and table, every seat's slots included: a known tile is
one item whose only slot is where the record puts it (it must be allowed there like any other), so
it only takes room; 0 means no deal could have produced the record. :func:`can_be_dealt` asks only
whether there is one (a maximum flow of the items into the places, in polynomial time).

The cost is the number of reachable capacity states times the number of items: instant for
Block with up to four seats and for two- to four-seat draw games; it grows with the number of
other seats and of distinct draw slots.

Examples
--------
>>> from dominosim.reference.game import GameState
>>> from dominosim.rng import Stream
>>> from dominosim.rules import Rules
>>> from dominosim.strategies import view_of
>>> rules = Rules.preset("block", players=2, max_pip=3, hand_size=3)
>>> state = GameState.from_deal(rules, [[(3, 3), (1, 3), (0, 1)], [(2, 3), (0, 0), (1, 2)]],
...                             [(0, 2), (0, 3), (1, 1), (2, 2)])
>>> state.open_with_highest_double()
Move(tile=(3, 3), suit=3)
>>> view = view_of(state, 1)
>>> count_consistent(view)  # seat 0 holds 2 of the 6 tiles seat 1 cannot see
15
>>> hands, boneyard = sample_hidden(view, Stream(1))
>>> len(hands[0]), hands[1] == list(view.hand), len(boneyard)
(2, True, 4)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from math import factorial

import numpy as np

from ..reference.game import Event, layouts_before, opens_with_double, playable_suits
from ..rng import Stream
from ..rules import Rules
from ..tiles import HIDDEN, n_tiles, tile_id, tile_of
from .view import SeatView

Tile = tuple[int, int]
_Item = tuple[Tile, int, int]


@dataclass(frozen=True)
class _Slot:
    """Where tiles entered a seat's hand: the deal (``draw=-1``) or draw number ``draw``."""

    seat: int
    time: float
    cap: int
    draw: int


@dataclass
class _Reading:
    """What the history says, seat by seat."""

    slots: dict[int, list[_Slot]]
    constraints: dict[int, list[tuple[float, frozenset[Tile]]]]
    plays: list[tuple[int, Tile, int]]
    draws: list[tuple[int, Tile | None]]


def _tiles_with(max_pip: int, suits: set[int] | tuple[int, ...]) -> frozenset[Tile]:
    return frozenset(t for t in map(tile_of, range(n_tiles(max_pip))) if t[0] in suits
                     or t[1] in suits)


def _read_history(rules: Rules, history: Sequence[Event], me: int) -> _Reading:
    """Slots, constraints, plays and draws of every seat but ``me`` (-1: of every seat)."""
    others = [s for s in range(rules.players) if s != me]
    slots = {s: [_Slot(s, -1.0, rules.hand_size, -1)] for s in others}
    constraints: dict[int, list[tuple[float, frozenset[Tile]]]] = {s: [] for s in others}
    plays: list[tuple[int, Tile, int]] = []
    draws: list[tuple[int, Tile | None]] = []
    for e, (ev, ends) in enumerate(layouts_before(rules, history)):
        if ev.kind == "play":
            if not plays and opens_with_double(rules):
                # the opener led the highest double: no seat was dealt a higher one
                d = ev.move.tile[0]
                higher = frozenset((x, x) for x in range(d + 1, rules.max_pip + 1))
                for s in others:
                    constraints[s].append((-0.5, higher))
            plays.append((ev.seat, ev.move.tile, e))
        elif ev.kind == "draw":
            if ev.seat != me:
                # a forced draw: the hand before it held no tile of a playable suit
                playable = playable_suits(rules, ends)
                constraints[ev.seat].append((e - 0.5, _tiles_with(rules.max_pip, playable)))
                slots[ev.seat].append(_Slot(ev.seat, float(e), 1, len(draws)))
            draws.append((ev.seat, ev.tile))
        elif ev.kind == "knock" and ev.seat != me:
            constraints[ev.seat].append((float(e), _tiles_with(rules.max_pip, ev.suits)))
    return _Reading(slots, constraints, plays, draws)


def _held_allowed(tile: Tile, slot: _Slot, cons: list[tuple[float, frozenset[Tile]]]) -> bool:
    return all(tile not in f for t, f in cons if t > slot.time)


def _played_allowed(tile: Tile, when: int, slot: _Slot,
                    cons: list[tuple[float, frozenset[Tile]]]) -> bool:
    return slot.time < when and all(tile not in f for t, f in cons if slot.time < t < when)


def _below(rng: Stream, n: int) -> int:
    """A uniform integer in ``0 .. n - 1``, exactly, for any ``n >= 1`` (rejection on 64-bit
    chunks: each round succeeds with probability above 1/2).
    """
    if n == 1:
        return 0
    bits = (n - 1).bit_length()
    chunks = (bits + 63) // 64
    while True:
        x = 0
        for _ in range(chunks):
            x = (x << 64) | rng.next64()
        x >>= chunks * 64 - bits
        if x < n:
            return x


def _shuffle(rng: Stream, items: list) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = _below(rng, i + 1)
        items[i], items[j] = items[j], items[i]


class DealSampler:
    """Counts and samples the hidden histories consistent with one seat's view.

    Build it once per decision and call :meth:`sample` as often as needed: the counting table is
    kept, so each sample costs one pass over the items.

    Parameters
    ----------
    view : SeatView
        What the sampling seat sees (:func:`dominosim.strategies.view_of`).

    Raises
    ------
    ValueError
        If no hidden history agrees with the view.

    Examples
    --------
    >>> from dominosim.reference.hand import play_hand
    >>> from dominosim.rules import Rules
    >>> from dominosim.reference.game import GameState
    >>> from dominosim.strategies import view_of
    >>> rules = Rules.preset("draw", players=2, max_pip=3, hand_size=3)
    >>> log = play_hand(rules, "random", seed=3)
    >>> hands, boneyard = log.deals[-1]
    >>> state = GameState.from_deal(rules, [list(h) for h in hands], list(boneyard))
    >>> state.open_with_highest_double().suit >= 0
    True
    >>> sampler = DealSampler(view_of(state, 0))
    >>> sampler.count >= 1
    True
    >>> hidden, sleeping = sampler.sample(Stream(5))
    >>> len(hidden[1]) == len(state.hands[1]), len(sleeping) == len(state.boneyard)
    (True, True)
    """

    def __init__(self, view: SeatView) -> None:
        self.view = view
        rules, me = view.rules, view.seat
        reading = _read_history(rules, view.history, me)
        self._reading = reading
        played = {t for _, t, _ in reading.plays}
        seen = played | set(view.hand)
        unseen = [tile_of(i) for i in range(n_tiles(rules.max_pip)) if tile_of(i) not in seen]
        # items: the tiles other seats played (they cannot sleep), then the unseen tiles
        items: list[_Item] = [(t, s, p) for s, t, p in reading.plays if s != me]
        items += [(t, -1, -1) for t in unseen]
        slots = [slot for s in sorted(reading.slots) for slot in reading.slots[s]]
        self._table = _Table(reading, slots, items)
        expected = sum(view.tile_counts[s] for s in range(rules.players) if s != me)
        if len(unseen) != expected + view.boneyard_size or \
                sum(self._table.caps) + view.boneyard_size != len(items):
            raise ValueError(
                f"The value for `view` must be a view whose tile counts ({view.tile_counts}) and "
                f"boneyard size ({view.boneyard_size}) agree with its history, but they leave "
                f"{len(unseen)} unseen tiles.")
        self.assignments = self._table.count()
        if self.assignments == 0:
            raise ValueError(
                f"The value for `view` must be a view some deal agrees with, but no deal of the "
                f"{len(unseen)} tiles seat {me} cannot see is consistent with its history.")

    @property
    def count(self) -> int:
        """The number of consistent hidden histories (in Block: of hidden allocations)."""
        return self.assignments * self._table.factor

    def sample(self, rng: Stream) -> tuple[list[list[Tile]], list[Tile]]:
        """Every seat's current hand (the viewer's own in place) and the boneyard in a uniform
        order; see :func:`sample_hidden`.
        """
        table = self._table
        by_place, sleeping = table.assign(rng)
        hands: list[list[Tile]] = [[] for _ in range(self.view.rules.players)]
        hands[self.view.seat] = list(self.view.hand)
        # unseen tiles placed in a slot are held now; the other items were played since
        unseen = {t for t, sleeps in zip(table.items, table.sleeps, strict=True) if sleeps}
        for place, tiles in zip(table.places, by_place, strict=True):
            hands[place[0].seat] += [t for t in tiles if t in unseen]
        for hand in hands:
            hand.sort(key=tile_id)
        _shuffle(rng, sleeping)
        return hands, sleeping

    def sample_deal(self, rng: Stream) -> tuple[list[list[Tile]], list[Tile]]:
        """A whole deal (every seat's dealt hand, the boneyard in draw order) on which the public
        history replays exactly as the viewer saw it; uniform over the consistent ones.
        """
        by_place, sleeping = self._table.assign(rng)
        rules, me = self.view.rules, self.view.seat
        hands: list[list[Tile]] = [[] for _ in range(rules.players)]
        drawn: list[Tile | None] = [t for _, t in self._reading.draws]
        for place, tiles in zip(self._table.places, by_place, strict=True):
            tiles = list(tiles)
            _shuffle(rng, tiles)
            for slot in place:
                mine, tiles = tiles[:slot.cap], tiles[slot.cap:]
                if slot.draw < 0:
                    hands[slot.seat] += mine
                else:
                    drawn[slot.draw] = mine[0]
        my_draws = {t for s, t in self._reading.draws if s == me}
        my_plays = [t for s, t, _ in self._reading.plays if s == me]
        hands[me] = [t for t in list(self.view.hand) + my_plays if t not in my_draws]
        _shuffle(rng, sleeping)
        return [sorted(h, key=tile_id) for h in hands], [t for t in drawn if t] + sleeping


class _Table:
    """The items spread over the places and the boneyard: the counting table (the module's
    docstring). ``items`` are ``(tile, seat, event)``: a tile ``seat`` played at ``event``, or
    ``(tile, -1, -1)`` for a tile never played (it may sleep); the boneyard takes the items the
    slots leave.
    """

    def __init__(self, reading: _Reading, slots: list[_Slot], items: list[_Item]) -> None:
        allowed = [[_allowed(reading, item, slot) for item in items] for slot in slots]
        # merge slots of one seat that allow the same items: one place, the tiles spread later
        groups: dict[tuple[int, tuple[bool, ...]], list[int]] = {}
        for k, slot in enumerate(slots):
            groups.setdefault((slot.seat, tuple(allowed[k])), []).append(k)
        self.places = [[slots[k] for k in ks] for ks in groups.values()]
        columns = list(groups)
        self.caps = tuple(sum(s.cap for s in place) for place in self.places)
        self.factor = 1
        for place in self.places:
            spread = factorial(sum(s.cap for s in place))
            for s in place:
                spread //= factorial(s.cap)
            self.factor *= spread
        options = [tuple(p for p, (_, col) in enumerate(columns) if col[i])
                   for i in range(len(items))]
        # interchangeable items next to each other: fewer distinct states in the table
        order = sorted(range(len(items)), key=lambda i: (items[i][1] < 0, options[i], i))
        self.items = [items[i][0] for i in order]
        self.options = [options[i] for i in order]
        self.sleeps = [items[i][1] < 0 for i in order]
        self._memo: dict[tuple[int, tuple[int, ...]], int] = {}

    def count(self, i: int = 0, caps: tuple[int, ...] | None = None) -> int:
        """Assignments of items ``i ..`` that fill ``caps`` (all the places' capacities at first)
        and the rest of the boneyard.
        """
        caps = self.caps if caps is None else caps
        if i == len(self.items):
            return 1
        key = (i, caps)
        found = self._memo.get(key)
        if found is not None:
            return found
        total = 0
        for nxt in self.choices(i, caps):
            total += self.count(i + 1, nxt)
        self._memo[key] = total
        return total

    def exists(self) -> bool:
        """Whether some assignment fills the places (``count() > 0``), as a flow: one unit from
        each item to a place that allows it (or asleep), each place taking its capacity. Solved
        by scipy's maximum flow in polynomial time, where counting can take seconds.
        """
        from scipy.sparse import csr_matrix
        from scipy.sparse.csgraph import maximum_flow

        n, places = len(self.items), len(self.caps)
        asleep, sink = 1 + n + places, 2 + n + places  # 0 is the source, then items, places
        edges = [(0, 1 + i, 1) for i in range(n)]
        edges += [(1 + i, 1 + n + p, 1) for i in range(n) for p in self.options[i]]
        edges += [(1 + i, asleep, 1) for i in range(n) if self.sleeps[i]]
        edges += [(1 + n + p, sink, cap) for p, cap in enumerate(self.caps)]
        edges += [(asleep, sink, n - sum(self.caps))]
        rows, cols, caps = zip(*[e for e in edges if e[2] > 0], strict=True) if n else ((), (), ())
        graph = csr_matrix((np.array(caps, dtype=np.int32), (rows, cols)), shape=(sink + 1,) * 2)
        return n == 0 or int(maximum_flow(graph, 0, sink).flow_value) == n

    def choices(self, i: int, caps: tuple[int, ...]) -> list[tuple[int, ...]]:
        """The capacity states after placing item ``i``: asleep first, then each place."""
        out = []
        if self.sleeps[i] and len(self.items) - i > sum(caps):
            out.append(caps)
        for p in self.options[i]:
            if caps[p]:
                out.append(caps[:p] + (caps[p] - 1,) + caps[p + 1:])
        return out

    def assign(self, rng: Stream) -> tuple[list[list[Tile]], list[Tile]]:
        """Items by place, and the sleeping items, drawn uniformly."""
        caps = self.caps
        by_place: list[list[Tile]] = [[] for _ in self.places]
        sleeping: list[Tile] = []
        for i, tile in enumerate(self.items):
            choices = self.choices(i, caps)
            weights = [self.count(i + 1, c) for c in choices]
            r = _below(rng, sum(weights))
            k = 0
            while r >= weights[k]:
                r -= weights[k]
                k += 1
            nxt = choices[k]
            if nxt == caps:
                sleeping.append(tile)
            else:
                by_place[next(p for p in range(len(caps)) if nxt[p] != caps[p])].append(tile)
            caps = nxt
        return by_place, sleeping


def _allowed(reading: _Reading, item: _Item, slot: _Slot) -> bool:
    """Whether ``item`` may sit in ``slot``: held through every later constraint of its seat, or,
    if played, acquired before its play and held through the constraints in between.
    """
    tile, seat, when = item
    cons = reading.constraints[slot.seat]
    if seat < 0:
        return _held_allowed(tile, slot, cons)
    return seat == slot.seat and _played_allowed(tile, when, slot, cons)


def count_consistent(view: SeatView) -> int:
    """The number of hidden histories consistent with ``view``.

    A hidden history is where every tile the viewer cannot see went: the other seats' dealt hands,
    the tile of every draw by another seat, and the tiles still sleeping (as a set). In Block
    (``draw='none'``) it is exactly the number of consistent allocations of the unseen tiles to
    the other hands and the boneyard; in draw games an allocation may have several histories.

    Parameters
    ----------
    view : SeatView

    Returns
    -------
    int
        An exact count (at least 1).

    Raises
    ------
    ValueError
        If no history is consistent (the view was not produced by a legal hand).

    Examples
    --------
    >>> from dominosim.reference.game import GameState
    >>> from dominosim.rules import Rules
    >>> from dominosim.strategies import view_of
    >>> rules = Rules.preset("block", players=2, max_pip=2, hand_size=2)
    >>> state = GameState.from_deal(rules, [[(1, 1), (0, 2)], [(2, 2), (0, 0)]], [(0, 1), (1, 2)])
    >>> state.open_with_highest_double(), state.legal_moves(0)
    (Move(tile=(2, 2), suit=2), [Move(tile=(0, 2), suit=2)])
    >>> count_consistent(view_of(state, 0))  # seat 1 holds one of (0, 0), (0, 1), (1, 2)
    3
    """
    return DealSampler(view).count


def count_dealt(rules: Rules, hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile],
                history: Sequence[Event]) -> int:
    """The number of hidden histories that agree with a hand's whole history when its deal is
    known in part (a hand record typed in): :func:`count_consistent` seen by no seat in
    particular, the slots of every seat counted.

    A known tile sits where the record puts it: in its seat's deal, in the slot of the draw that
    names it or takes it from the boneyard, or asleep (a known tile of the boneyard after the last
    draw). It must be allowed there as any item is (held through every later knock and forced
    draw of its seat, and acquired before its seat played it); the hidden tiles are then counted
    in the room the known ones leave, exactly as for one seat's view.

    Parameters
    ----------
    rules : Rules
    hands : list of list of (a, b)
        The dealt hands, :data:`~dominosim.tiles.HIDDEN` for a tile nobody saw.
    boneyard : list of (a, b)
        The sleeping tiles in draw order, ``HIDDEN`` for a tile nobody saw.
    history : sequence of Event
        Every play, draw and knock in order (an end event is ignored); a draw's tile is ``HIDDEN``
        (or None) when nobody saw it.

    Returns
    -------
    int
        An exact count; 0 when no deal agrees with the history.

    Examples
    --------
    Block, double-two, two seats of three tiles: every tile is dealt, so seat 1 holds the three
    seat 0 does not. After 2-2, 2-1 and 1-1 it still holds 2-0 and 0-0, and may not knock:

    >>> from dominosim.reference.game import GameState, Move
    >>> rules = Rules.preset("block", players=2, max_pip=2, hand_size=3)
    >>> state = GameState.from_deal(rules, [[(2, 2), (0, 1), (1, 1)], [(1, 2), (0, 2), (0, 0)]],
    ...                             [])
    >>> _ = state.open_with_highest_double()
    >>> _ = state.play(1, Move((1, 2), 2)), state.play(0, Move((1, 1), 1))
    >>> hands = [[(2, 2), (0, 1), (1, 1)], [HIDDEN] * 3]
    >>> count_dealt(rules, hands, [], state.events)
    1
    >>> count_dealt(rules, hands, [], state.events + [Event("knock", seat=1, suits=(1, 2))])
    0
    """
    table = _dealt_table(rules, hands, boneyard, history)
    return 0 if table is None else table.count() * table.factor


def can_be_dealt(rules: Rules, hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile],
                 history: Sequence[Event]) -> bool:
    """Whether some deal agrees with the history (``count_dealt(...) > 0``), found without
    counting them: a maximum flow of the hidden tiles into the room the known ones leave, in
    polynomial time (see :func:`count_dealt` for the parameters).

    Examples
    --------
    >>> rules = Rules.preset("block", players=2, max_pip=2, hand_size=3)
    >>> hands = [[(2, 2), (0, 1), (1, 1)], [HIDDEN] * 3]  # seat 1: 0-0, 2-0 and 2-1
    >>> opening = Event("play", seat=0, tile=(2, 2), suit=2)
    >>> can_be_dealt(rules, hands, [], [opening])
    True
    >>> can_be_dealt(rules, hands, [], [opening, Event("knock", seat=1, suits=(2,))])
    False
    """
    table = _dealt_table(rules, hands, boneyard, history)
    return table is not None and table.exists()


def _dealt_table(rules: Rules, hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile],
                 history: Sequence[Event]) -> _Table | None:
    """The counting table of the hidden tiles of a deal known in part (:func:`count_dealt`);
    None when a known tile cannot be where the record puts it.
    """
    reading = _read_history(rules, [e for e in history if e.kind != "end"], -1)
    if len(reading.draws) > len(boneyard):
        return None
    deal_slot = {s: slots[0] for s, slots in reading.slots.items()}
    draw_slot = {slot.draw: slot for slots in reading.slots.values() for slot in slots[1:]}
    # where the record puts each known tile: a slot, or None for asleep
    known: list[tuple[Tile | None, _Slot | None]] = [
        (t, deal_slot[s]) for s, hand in enumerate(hands) for t in hand]
    known += [(t, draw_slot[k]) for k, (_, t) in enumerate(reading.draws)]
    known += [(t, draw_slot[k] if k < len(reading.draws) else None)
              for k, t in enumerate(boneyard)]
    where: dict[Tile, _Slot | None] = {}
    for tile, slot in known:
        if tile is None or tile == HIDDEN:
            continue
        if where.setdefault(tile, slot) != slot:
            return None  # one tile in two places
    played = {t: (s, p) for s, t, p in reading.plays}
    room = {slot: slot.cap for slots in reading.slots.values() for slot in slots}
    hidden: list[_Item] = []
    for tile in map(tile_of, range(n_tiles(rules.max_pip))):
        item = (tile, *played.get(tile, (-1, -1)))
        if tile not in where:
            hidden.append(item)
            continue
        slot = where[tile]
        if slot is None and tile in played:
            return None  # a tile asleep to the end was played
        if slot is not None:
            if not _allowed(reading, item, slot):
                return None
            room[slot] -= 1
    if min(room.values(), default=0) < 0:
        return None
    slots = [replace(slot, cap=room[slot]) for s in sorted(reading.slots)
             for slot in reading.slots[s] if room[slot]]
    table = _Table(reading, slots, hidden)
    return table if sum(table.caps) <= len(hidden) else None


def sample_hidden(view: SeatView, rng: Stream) -> tuple[list[list[Tile]], list[Tile]]:
    """A uniform draw of the hidden tiles consistent with ``view``.

    Parameters
    ----------
    view : SeatView
    rng : Stream
        The only source of randomness (for example the strategy's own stream).

    Returns
    -------
    hands : list of list of (a, b)
        Every seat's current hand, by tile id; the viewer's own hand is its real one.
    boneyard : list of (a, b)
        The sleeping tiles, in a uniformly random order.

    Raises
    ------
    ValueError
        If no hidden history is consistent with ``view``.

    Examples
    --------
    >>> from dominosim.reference.game import GameState
    >>> from dominosim.rules import Rules
    >>> from dominosim.strategies import view_of
    >>> rules = Rules.preset("block", players=2, max_pip=2, hand_size=2)
    >>> state = GameState.from_deal(rules, [[(1, 1), (0, 2)], [(2, 2), (0, 0)]], [(0, 1), (1, 2)])
    >>> _ = state.open_with_highest_double()
    >>> hands, boneyard = sample_hidden(view_of(state, 0), Stream(2))
    >>> hands[0], len(hands[1]), len(boneyard)
    ([(1, 1), (0, 2)], 1, 2)
    """
    return DealSampler(view).sample(rng)
