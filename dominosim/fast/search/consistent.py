"""The consistent-deal sampler of :mod:`dominosim.sampler`, compiled, for the search strategies.

The model, the slots, the constraints and the places are those of :mod:`dominosim.sampler` (read
its documentation first); this module builds them from a compact *public log* instead of a
:class:`~dominosim.strategies.SeatView`, and keeps the counts in ``float64``:

* the public log has one row per event, ``(kind, seat, x, suit)``: a play (``x``: the tile;
  ``suit``, read only by the inference of :mod:`.infer`: the end it went on), a draw
  (``x``: the bit mask of the suits that were playable, so the seat held none of their tiles; the
  drawn tile is never in the log), a knock (``x``: the playable suits it shows the seat lacks);
* times are doubled so that they are integers: the deal is at -2, the opening-double constraint
  at -1, event ``e`` at ``2e`` and the moment before a draw at ``2e - 1``;
* the table of the dynamic programme is sparse: a state is the remaining capacity of every place
  (coded in mixed radix), and only the states reachable from the full one are kept, layer by layer
  (one layer per item, sorted codes, found by binary search). The dense product of the capacities
  can run to hundreds of millions in draw games with many draws, while the reachable states stay
  in the hundreds or thousands. Counts up to 2**53 are exact and larger ones carry a relative
  rounding error of about 1e-16, which is also the only departure of the sample from exactly
  uniform.

:func:`prepare` reads the log and fills the table (once per decision); :func:`draw_deal` then
samples the other seats' current hands and the boneyard in a uniform order. Statuses:
``prepare`` returns the number of states kept, or :data:`~dominosim.fast.core.status.TOO_MANY_STATES`
(more reachable states than the table holds) or :data:`~dominosim.fast.core.status.NO_DEAL` (no
hidden history agrees with the log).

The sampler's arrays are read by named rows: ``slots[SLOT_SEAT, k]``, ``cons[CON_SUITS, c]``,
``items[ITEM_TILE, i]``, ``places[PLACE_CAP, q]``; ``options[i, OPT_COUNT]`` is how many places item
``i`` may go to, listed from ``options[i, OPT_FIRST]`` on.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..core.board import (
    PUB_DRAW,
    PUB_KIND,
    PUB_KNOCK,
    PUB_PLAY,
    PUB_SEAT,
    PUB_X,
    T_HIGH,
    T_LOW,
    give,
    holds,
)
from ..core.jit import jit, jit_helper, jit_kernel
from ..core.rng import shuffle, uniform
from ..core.status import NO_DEAL, TOO_MANY_STATES
from ..core.turn import leads_any

NO_LIMIT = 99  # a constraint's double limit when it forbids no double by rank

SLOT_SEAT, SLOT_TIME, SLOT_CAP, SLOT_PLACE = range(4)
"""Rows of ``slots``: a slot is room in a seat's hand opened at a time (the deal, a draw): its
seat, its time, its capacity, and the place it was merged into."""
CON_SEAT, CON_TIME, CON_SUITS, CON_LIMIT = range(4)
"""Rows of ``cons``: a constraint says a seat held, until a time, no tile of the suits of a mask
and no double above a limit."""
ITEM_TILE, ITEM_BY, ITEM_WHEN, ITEM_PLACE = range(4)
"""Rows of ``items``: a hidden tile, the seat that played it (-1: unseen), when, and the place the
last :func:`draw_deal` put it in (-1: it sleeps; read by the inference of :mod:`.infer`)."""
PLACE_SEAT, PLACE_CAP, PLACE_REP, PLACE_STRIDE = range(4)
"""Rows of ``places``: slots of a seat that allow the same items, merged: the seat, the capacity,
a representative slot and the place's stride in the mixed-radix code of a state."""
OPT_COUNT, OPT_FIRST = 0, 1
"""Columns of ``options[i]``: how many places item ``i`` may go to, then the first of them."""

# info slots of the sampler's scratch
I_ITEMS, I_PLACES, I_STATES, I_FULL, I_SLOTS, I_CONS = range(6)
MAX_CODE = 1 << 62  # the mixed-radix codes of the states must fit an int64


Sampler = namedtuple("Sampler", ["info", "slots", "cons", "items", "allowed", "places", "options",
                                 "codes", "weights", "starts"])
"""The sampler's arrays (see :func:`make_sampler_scratch`)."""


@jit
def make_sampler_scratch(t, p, n_events, states):
    """The sampler's arrays for ``t`` tiles, ``p`` seats, a public log of ``n_events`` rows and a
    table of up to ``states`` reachable states over all layers (allocated once per block)."""
    slots = p + t
    return Sampler(
        np.zeros(16, np.int64),  # info
        np.zeros((SLOT_PLACE + 1, slots), np.int64),  # slots
        np.zeros((CON_LIMIT + 1, n_events + p), np.int64),  # constraints
        np.zeros((ITEM_PLACE + 1, t), np.int64),  # items
        np.zeros((t, slots), np.bool_),  # allowed[item, slot]
        np.zeros((PLACE_STRIDE + 1, slots), np.int64),  # places
        np.zeros((t, slots + 1), np.int64),  # options: count, then the places of each item
        np.empty(max(states, 1), np.int64),  # the states' codes, layer after layer, sorted
        np.empty(max(states, 1), np.float64),  # their counts
        np.zeros(t + 2, np.int64),  # where each layer starts
    )


@jit_helper
def _set_slot(slots, k, seat, time, capacity):
    slots[SLOT_SEAT, k], slots[SLOT_TIME, k], slots[SLOT_CAP, k] = seat, time, capacity


@jit_helper
def _set_item(items, i, tile, played_by, when):
    items[ITEM_TILE, i], items[ITEM_BY, i], items[ITEM_WHEN, i] = tile, played_by, when


@jit_helper
def _forbids(cons, c, tile):
    """Whether constraint ``c`` forbids ``tile``: it holds a suit of the mask, or it is a double
    above the limit."""
    a, b = T_LOW[tile], T_HIGH[tile]
    if (cons[CON_SUITS, c] >> a) & 1 or (cons[CON_SUITS, c] >> b) & 1:
        return True
    return a == b and a > cons[CON_LIMIT, c]


@jit_kernel
def _allowed(cons, n_cons, seat, time, tile, played_by, when):
    """Whether the item ``tile`` (unseen when ``played_by < 0``, else played at ``when``) may sit
    in the slot of ``seat`` opened at ``time``."""
    if played_by >= 0 and (played_by != seat or time >= when):
        return False
    for c in range(n_cons):
        if cons[CON_SEAT, c] != seat or cons[CON_TIME, c] <= time:
            continue
        if played_by >= 0 and cons[CON_TIME, c] >= when:
            continue
        if _forbids(cons, c, tile):
            return False
    return True


@jit_kernel
def _read_log(rp, me, pub, n_pub, hands, ss):
    """Slots, constraints and items from the public log (see :mod:`dominosim.sampler`)."""
    info, slots, cons, items = ss.info, ss.slots, ss.cons, ss.items
    players, t = rp.players, rp.tiles
    n_slots = 0
    for s in range(players):
        if s != me:
            _set_slot(slots, n_slots, s, -2, rp.hand_size)
            n_slots += 1
    n_cons = 0
    n_items = 0
    first_play = True
    for e in range(n_pub):
        kind, seat, x = pub[e, PUB_KIND], pub[e, PUB_SEAT], pub[e, PUB_X]
        if kind == PUB_PLAY:
            if first_play and leads_any(rp) == 0:
                for s in range(players):  # the opener held the highest double dealt
                    if s != me:
                        cons[CON_SEAT, n_cons], cons[CON_TIME, n_cons] = s, -1
                        cons[CON_SUITS, n_cons], cons[CON_LIMIT, n_cons] = 0, T_LOW[x]
                        n_cons += 1
            first_play = False
            if seat != me:
                _set_item(items, n_items, x, seat, 2 * e)
                n_items += 1
        elif seat != me:
            time = 2 * e if kind == PUB_KNOCK else 2 * e - 1
            cons[CON_SEAT, n_cons], cons[CON_TIME, n_cons] = seat, time
            cons[CON_SUITS, n_cons], cons[CON_LIMIT, n_cons] = x, NO_LIMIT
            n_cons += 1
            if kind == PUB_DRAW:
                _set_slot(slots, n_slots, seat, 2 * e, 1)
                n_slots += 1
    # the unseen tiles: neither in the viewer's hand nor played by anyone
    for tile in range(t):
        if holds(hands, me, tile):
            continue
        seen = False
        for e in range(n_pub):
            if pub[e, PUB_KIND] == PUB_PLAY and pub[e, PUB_X] == tile:
                seen = True
                break
        if not seen:
            _set_item(items, n_items, tile, -1, -1)
            n_items += 1
    info[I_ITEMS], info[I_SLOTS], info[I_CONS] = n_items, n_slots, n_cons


@jit_kernel
def _make_places(ss):
    """Merge the slots of a seat that allow the same items into places; list each item's
    options. Returns the number of places."""
    info, slots, cons, items, allowed = ss.info, ss.slots, ss.cons, ss.items, ss.allowed
    places, options = ss.places, ss.options
    n_items, n_slots, n_cons = info[I_ITEMS], info[I_SLOTS], info[I_CONS]
    for k in range(n_slots):
        for i in range(n_items):
            allowed[i, k] = _allowed(cons, n_cons, slots[SLOT_SEAT, k], slots[SLOT_TIME, k],
                                     items[ITEM_TILE, i], items[ITEM_BY, i], items[ITEM_WHEN, i])
    n_places = 0
    for k in range(n_slots):
        found = -1
        for q in range(n_places):
            r = places[PLACE_REP, q]
            if places[PLACE_SEAT, q] != slots[SLOT_SEAT, k]:
                continue
            same = True
            for i in range(n_items):
                if allowed[i, k] != allowed[i, r]:
                    same = False
                    break
            if same:
                found = q
                break
        if found < 0:
            found = n_places
            places[PLACE_SEAT, found], places[PLACE_CAP, found] = slots[SLOT_SEAT, k], 0
            places[PLACE_REP, found] = k
            n_places += 1
        places[PLACE_CAP, found] += slots[SLOT_CAP, k]
        slots[SLOT_PLACE, k] = found
    for i in range(n_items):
        n = 0
        for q in range(n_places):
            if allowed[i, places[PLACE_REP, q]]:
                options[i, OPT_FIRST + n] = q
                n += 1
        options[i, OPT_COUNT] = n
    info[I_PLACES] = n_places
    _order_items(items, options, n_items)
    return n_places


@jit_helper
def _before(items, options, i, j):
    """Item ``i`` goes before item ``j``: played ones first, then by their options (so that
    interchangeable items are neighbours and fewer distinct states arise)."""
    if (items[ITEM_BY, i] < 0) != (items[ITEM_BY, j] < 0):
        return items[ITEM_BY, i] >= 0
    for k in range(OPT_FIRST + min(options[i, OPT_COUNT], options[j, OPT_COUNT])):  # all columns
        if options[i, k] != options[j, k]:
            return options[i, k] < options[j, k]
    return False


@jit_kernel
def _order_items(items, options, n_items):
    """Insertion sort of the items (and their options) by :func:`_before`; stable."""
    for i in range(1, n_items):
        j = i
        while j > 0 and _before(items, options, j, j - 1):
            for r in range(ITEM_WHEN + 1):
                items[r, j], items[r, j - 1] = items[r, j - 1], items[r, j]
            for k in range(OPT_FIRST + max(options[j, OPT_COUNT], options[j - 1, OPT_COUNT])):
                options[j, k], options[j - 1, k] = options[j - 1, k], options[j, k]
            j -= 1


@jit_helper
def _digit(places, code, q):
    """The remaining capacity of place ``q`` in the state ``code``."""
    return (code // places[PLACE_STRIDE, q]) % (places[PLACE_CAP, q] + 1)


@jit_kernel
def _sort(codes, lo, hi):
    """Sort ``codes[lo:hi]`` in place (heapsort: no allocation); return the end of its distinct
    prefix after removing duplicates."""
    n = hi - lo
    for root in range(n // 2 - 1, -1, -1):
        _sift(codes, lo, root, n)
    for end in range(n - 1, 0, -1):
        codes[lo], codes[lo + end] = codes[lo + end], codes[lo]
        _sift(codes, lo, 0, end)
    out = lo
    for i in range(lo, hi):
        if out == lo or codes[i] != codes[out - 1]:
            codes[out] = codes[i]
            out += 1
    return out


@jit_helper
def _sift(codes, lo, root, n):
    while True:
        child = 2 * root + 1
        if child >= n:
            return
        if child + 1 < n and codes[lo + child + 1] > codes[lo + child]:
            child += 1
        if codes[lo + root] >= codes[lo + child]:
            return
        codes[lo + root], codes[lo + child] = codes[lo + child], codes[lo + root]
        root = child


@jit_helper
def _find(codes, lo, hi, code):
    """The position of ``code`` in the sorted ``codes[lo:hi]``, or -1."""
    end = hi
    while lo < hi:
        mid = (lo + hi) >> 1
        if codes[mid] < code:
            lo = mid + 1
        else:
            hi = mid
    if lo < end and codes[lo] == code:
        return lo
    return -1


@jit_helper
def _left(places, n_places, code):
    """The capacity left over all places in the state ``code``."""
    total = 0
    for q in range(n_places):
        total += _digit(places, code, q)
    return total


@jit_kernel
def _successor_weight(ss, i, code, choice):
    """The count of the state after item ``i`` goes to ``choice`` (-1: sleeps; else the ``j``-th
    option) from state ``code``, or 0 if it cannot."""
    places, options, codes, counts, starts = ss.places, ss.options, ss.codes, ss.weights, ss.starts
    if choice < 0:
        nxt = code
    else:
        q = options[i, OPT_FIRST + choice]
        if _digit(places, code, q) == 0:
            return 0.0
        nxt = code - places[PLACE_STRIDE, q]
    k = _find(codes, starts[i + 1], starts[i + 2], nxt)
    return counts[k] if k >= 0 else 0.0


@jit_kernel
def _forward(ss, n_items, n_places, full):
    """The states reachable after each item from the full one, a sorted layer per item; False
    when they would not fit the table."""
    items, places, options, codes, starts = ss.items, ss.places, ss.options, ss.codes, ss.starts
    limit = codes.shape[0]
    starts[0], codes[0], starts[1] = 0, full, 1
    for i in range(n_items):
        rest = n_items - i
        out = starts[i + 1]
        for k in range(starts[i], starts[i + 1]):
            code = codes[k]
            left = _left(places, n_places, code)
            if out + options[i, OPT_COUNT] + 1 > limit:
                return False
            if items[ITEM_BY, i] < 0 and rest > left:
                codes[out] = code
                out += 1
            for j in range(options[i, OPT_COUNT]):
                q = options[i, OPT_FIRST + j]
                if _digit(places, code, q) > 0:
                    codes[out] = code - places[PLACE_STRIDE, q]
                    out += 1
        starts[i + 2] = _sort(codes, starts[i + 1], out)
    return True


@jit_kernel
def _backward(ss, n_items):
    """The number of ways to finish from each state, last layer first."""
    items, options, codes, weights, starts = ss.items, ss.options, ss.codes, ss.weights, ss.starts
    for k in range(starts[n_items], starts[n_items + 1]):
        weights[k] = 1.0 if codes[k] == 0 else 0.0
    for i in range(n_items - 1, -1, -1):
        for k in range(starts[i], starts[i + 1]):
            v = _successor_weight(ss, i, codes[k], -1) if items[ITEM_BY, i] < 0 else 0.0
            for j in range(options[i, OPT_COUNT]):
                v += _successor_weight(ss, i, codes[k], j)
            weights[k] = v


@jit_kernel
def prepare(rp, me, pub, n_pub, hands, counts, boneyard, ss):
    """Read the public log as seat ``me`` sees it and fill the counting table.

    ``hands`` is read only at row ``me`` (the viewer's own tiles). Returns the number of states
    kept, or a negative status (:data:`TOO_MANY_STATES`, :data:`NO_DEAL`).
    """
    info, items, places, starts = ss.info, ss.items, ss.places, ss.starts
    _read_log(rp, me, pub, n_pub, hands, ss)
    n_places = _make_places(ss)
    n_items = info[I_ITEMS]
    expected = boneyard
    for s in range(rp.players):
        if s != me:
            expected += counts[s]
    unseen = 0
    cap = 0
    for i in range(n_items):
        if items[ITEM_BY, i] < 0:
            unseen += 1
    for q in range(n_places):
        cap += places[PLACE_CAP, q]
    if unseen != expected or cap + boneyard != n_items:
        return NO_DEAL
    radix = 1
    full = 0
    for q in range(n_places):
        places[PLACE_STRIDE, q] = radix
        full += places[PLACE_CAP, q] * radix
        if radix > MAX_CODE // (places[PLACE_CAP, q] + 1):
            return TOO_MANY_STATES
        radix *= places[PLACE_CAP, q] + 1
    info[I_FULL] = full
    if not _forward(ss, n_items, n_places, full):
        return TOO_MANY_STATES
    _backward(ss, n_items)
    info[I_STATES] = starts[n_items + 1]
    if ss.weights[0] <= 0.0:
        return NO_DEAL
    return starts[n_items + 1]


@jit
def count_of(ss):
    """The number of consistent assignments counted by the last :func:`prepare` (a float)."""
    return ss.weights[0]


@jit_kernel
def draw_deal(rp, me, hands, ss, out, rng, i_rng):
    """A uniform draw of the hidden tiles from the table of the last :func:`prepare`.

    Writes every seat's current hand into the :class:`~dominosim.fast.core.board.Board` ``out`` (row
    ``me`` copied from ``hands``), their counts and pips, and the sleeping tiles into ``out.bone``
    in a uniform order; returns how many sleep. Randomness: stream ``rng[i_rng]`` only.
    """
    out_hands, out_counts, out_pips, bone = out.hands, out.counts, out.pips, out.bone
    info, items, places, options = ss.info, ss.items, ss.places, ss.options
    codes, weights = ss.codes, ss.weights
    n_items = info[I_ITEMS]
    for s in range(rp.players):
        out_counts[s] = 0
        out_pips[s] = 0
        for w in range(out_hands.shape[1]):
            out_hands[s, w] = 0
    for tile in range(rp.tiles):
        if holds(hands, me, tile):
            give(out, me, tile)
    n_bone = 0
    code = codes[0]
    total = weights[0]
    for i in range(n_items):
        u = uniform(rng, i_rng) * total
        chosen, weight, decided = -2, 0.0, False
        if items[ITEM_BY, i] < 0:
            w = _successor_weight(ss, i, code, -1)
            if w > 0.0:
                chosen, weight = -1, w
                decided = u < w
                u -= w
        j = 0
        while not decided and j < options[i, OPT_COUNT]:
            w = _successor_weight(ss, i, code, j)
            if w > 0.0:  # rounding can leave u past the last: it takes the last possible one
                chosen, weight = j, w
                decided = u < w
                u -= w
            j += 1
        total = weight
        items[ITEM_PLACE, i] = -1 if chosen == -1 else options[i, OPT_FIRST + chosen]
        if chosen == -1:
            bone[n_bone] = items[ITEM_TILE, i]
            n_bone += 1
            continue
        q = options[i, OPT_FIRST + chosen]
        code -= places[PLACE_STRIDE, q]
        if items[ITEM_BY, i] < 0:  # an unseen tile in a slot is held now; a played one left
            give(out, places[PLACE_SEAT, q], items[ITEM_TILE, i])
    shuffle(rng, i_rng, bone, n_bone)
    return n_bone
