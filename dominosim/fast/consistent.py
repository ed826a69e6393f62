"""The consistent-deal sampler of :mod:`dominosim.sampler`, compiled, for the search strategies.

The model, the slots, the constraints and the places are those of :mod:`dominosim.sampler` (read
its documentation first); this module builds them from a compact *public log* instead of a
:class:`~dominosim.strategies.SeatView`, and keeps the counts in ``float64``:

* the public log has one row per event, ``(kind, seat, x)``: a play (``x``: the tile), a draw
  (``x``: the bit mask of the suits that were playable, so the seat held none of their tiles; the
  drawn tile is never in the log), a knock (``x``: the playable suits it shows the seat lacks);
* times are doubled so that they are integers: the deal is at -2, the opening-double constraint
  at -1, event ``e`` at ``2e`` and the moment before a draw at ``2e - 1``;
* the table of the dynamic programme is dense, ``(items + 1) x states``, a state being the
  remaining capacity of every place in mixed radix. Counts up to 2**53 are exact and larger ones
  carry a relative rounding error of about 1e-16, which is also the only departure of the sample
  from exactly uniform.

:func:`prepare` reads the log and fills the table (once per decision); :func:`draw_deal` then
samples the other seats' current hands and the boneyard in a uniform order. Statuses:
``prepare`` returns the number of states, or :data:`TOO_MANY_STATES` (the table would exceed
``R_SEARCH_STATES``) or :data:`NO_DEAL` (no hidden history agrees with the log).
"""

from __future__ import annotations

import numpy as np

from .jit import jit, jit_helper, jit_kernel
from .model import (
    R_HAND,
    R_OPEN_ANY,
    R_PLAYERS,
    R_TILES,
    T_HIGH,
    T_LOW,
    give,
    holds,
)
from .rng import next64, shuffle

PUB_PLAY, PUB_DRAW, PUB_KNOCK = 0, 1, 2
PUB_KIND, PUB_SEAT, PUB_X = 0, 1, 2
TOO_MANY_STATES = -1
NO_DEAL = -2
NO_LIMIT = 99  # a constraint's double limit when it forbids no double by rank

# info slots of the sampler's scratch
I_ITEMS, I_PLACES, I_STATES, I_FULL, I_SLOTS, I_CONS = range(6)
_UNIT = 1.0 / 9007199254740992.0  # 2**-53


@jit
def make_sampler_scratch(t, p, n_events, states):
    """The sampler's arrays for ``t`` tiles, ``p`` seats, a public log of ``n_events`` rows and a
    table of up to ``states`` states (allocated once per block of hands)."""
    slots = p + t
    return (
        np.zeros(16, np.int64),  # info
        np.zeros((4, slots), np.int64),  # slots: seat, time, capacity, place
        np.zeros((4, n_events + p), np.int64),  # constraints: seat, time, suit mask, double limit
        np.zeros((3, t), np.int64),  # items: tile, seat that played it (-1: unseen), when
        np.zeros((t, slots), np.bool_),  # allowed[item, slot]
        np.zeros((4, slots), np.int64),  # places: seat, capacity, representative slot, stride
        np.zeros((t, slots + 1), np.int64),  # options: count, then the places of each item
        np.zeros(max(states, 1), np.int64),  # capacity left in each state
        np.zeros((t + 1) * max(states, 1), np.float64),  # the table, row by item
    )


@jit_helper
def uniform(rng, i):
    """A double in [0, 1) with 53 random bits from stream ``rng[i]``."""
    return np.float64(next64(rng, i) >> np.uint64(11)) * _UNIT


@jit_helper
def _forbids(cons, c, tile):
    """Whether constraint ``c`` forbids ``tile``: it holds a suit of the mask, or it is a double
    above the limit."""
    a, b = T_LOW[tile], T_HIGH[tile]
    if (cons[2, c] >> a) & 1 or (cons[2, c] >> b) & 1:
        return True
    return a == b and a > cons[3, c]


@jit_kernel
def _allowed(cons, n_cons, seat, time, tile, played_by, when):
    """Whether the item ``tile`` (unseen when ``played_by < 0``, else played at ``when``) may sit
    in the slot of ``seat`` opened at ``time``."""
    if played_by >= 0 and (played_by != seat or time >= when):
        return False
    for c in range(n_cons):
        if cons[0, c] != seat or cons[1, c] <= time:
            continue
        if played_by >= 0 and cons[1, c] >= when:
            continue
        if _forbids(cons, c, tile):
            return False
    return True


@jit_kernel
def _read_log(rp, me, pub, n_pub, hands, ss):
    """Slots, constraints and items from the public log (see :mod:`dominosim.sampler`)."""
    info, slots, cons, items = ss[0], ss[1], ss[2], ss[3]
    players, t = rp[R_PLAYERS], rp[R_TILES]
    n_slots = 0
    for s in range(players):
        if s != me:
            slots[0, n_slots], slots[1, n_slots], slots[2, n_slots] = s, -2, rp[R_HAND]
            n_slots += 1
    n_cons = 0
    n_items = 0
    first_play = True
    for e in range(n_pub):
        kind, seat, x = pub[e, PUB_KIND], pub[e, PUB_SEAT], pub[e, PUB_X]
        if kind == PUB_PLAY:
            if first_play and rp[R_OPEN_ANY] == 0:
                for s in range(players):  # the opener held the highest double dealt
                    if s != me:
                        cons[0, n_cons], cons[1, n_cons] = s, -1
                        cons[2, n_cons], cons[3, n_cons] = 0, T_LOW[x]
                        n_cons += 1
            first_play = False
            if seat != me:
                items[0, n_items], items[1, n_items], items[2, n_items] = x, seat, 2 * e
                n_items += 1
        elif seat != me:
            time = 2 * e if kind == PUB_KNOCK else 2 * e - 1
            cons[0, n_cons], cons[1, n_cons] = seat, time
            cons[2, n_cons], cons[3, n_cons] = x, NO_LIMIT
            n_cons += 1
            if kind == PUB_DRAW:
                slots[0, n_slots], slots[1, n_slots], slots[2, n_slots] = seat, 2 * e, 1
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
            items[0, n_items], items[1, n_items], items[2, n_items] = tile, -1, -1
            n_items += 1
    info[I_ITEMS], info[I_SLOTS], info[I_CONS] = n_items, n_slots, n_cons


@jit_kernel
def _make_places(ss):
    """Merge the slots of a seat that allow the same items into places; list each item's
    options. Returns the number of places."""
    info, slots, cons, items, allowed, places, options = ss[0], ss[1], ss[2], ss[3], ss[4], \
        ss[5], ss[6]
    n_items, n_slots, n_cons = info[I_ITEMS], info[I_SLOTS], info[I_CONS]
    for k in range(n_slots):
        for i in range(n_items):
            allowed[i, k] = _allowed(cons, n_cons, slots[0, k], slots[1, k], items[0, i],
                                     items[1, i], items[2, i])
    n_places = 0
    for k in range(n_slots):
        found = -1
        for q in range(n_places):
            r = places[2, q]
            if places[0, q] != slots[0, k]:
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
            places[0, found], places[1, found], places[2, found] = slots[0, k], 0, k
            n_places += 1
        places[1, found] += slots[2, k]
        slots[3, k] = found
    for i in range(n_items):
        n = 0
        for q in range(n_places):
            if allowed[i, places[2, q]]:
                options[i, 1 + n] = q
                n += 1
        options[i, 0] = n
    info[I_PLACES] = n_places
    return n_places


@jit_kernel
def prepare(rp, me, pub, n_pub, hands, counts, boneyard, ss):
    """Read the public log as seat ``me`` sees it and fill the counting table.

    ``hands`` is read only at row ``me`` (the viewer's own tiles). Returns the number of states
    of the table, or a negative status (:data:`TOO_MANY_STATES`, :data:`NO_DEAL`).
    """
    info, items, places, options, left, table = ss[0], ss[3], ss[5], ss[6], ss[7], ss[8]
    _read_log(rp, me, pub, n_pub, hands, ss)
    n_places = _make_places(ss)
    n_items = info[I_ITEMS]
    expected = boneyard
    for s in range(rp[R_PLAYERS]):
        if s != me:
            expected += counts[s]
    unseen = 0
    cap = 0
    for i in range(n_items):
        if items[1, i] < 0:
            unseen += 1
    for q in range(n_places):
        cap += places[1, q]
    if unseen != expected or cap + boneyard != n_items:
        return NO_DEAL
    n_states = 1
    limit = left.shape[0]
    for q in range(n_places):
        places[3, q] = n_states
        n_states *= places[1, q] + 1
        if n_states > limit:
            return TOO_MANY_STATES
    full = 0
    for q in range(n_places):
        full += places[1, q] * places[3, q]
    info[I_STATES], info[I_FULL] = n_states, full
    for idx in range(n_states):
        total = 0
        for q in range(n_places):
            total += (idx // places[3, q]) % (places[1, q] + 1)
        left[idx] = total
    base = n_items * n_states
    for idx in range(n_states):
        table[base + idx] = 0.0
    table[base] = 1.0
    for i in range(n_items - 1, -1, -1):
        row, nxt = i * n_states, (i + 1) * n_states
        rest = n_items - i
        may_sleep = items[1, i] < 0
        for idx in range(n_states):
            if left[idx] > rest:
                table[row + idx] = 0.0
                continue
            v = table[nxt + idx] if may_sleep and rest > left[idx] else 0.0
            for j in range(options[i, 0]):
                q = options[i, 1 + j]
                if (idx // places[3, q]) % (places[1, q] + 1) > 0:
                    v += table[nxt + idx - places[3, q]]
            table[row + idx] = v
    if table[full] <= 0.0:
        return NO_DEAL
    return n_states


@jit
def count_of(ss):
    """The number of consistent assignments counted by the last :func:`prepare` (a float)."""
    return ss[8][ss[0][I_FULL]]


@jit_kernel
def draw_deal(rp, me, hands, ss, out_hands, out_counts, out_pips, bone, rng, i_rng):
    """A uniform draw of the hidden tiles from the table of the last :func:`prepare`.

    Writes every seat's current hand into ``out_hands`` (row ``me`` copied from ``hands``), their
    counts and pips, and the sleeping tiles into ``bone`` in a uniform order; returns how many
    sleep. Randomness: stream ``rng[i_rng]`` only.
    """
    info, items, places, options, left, table = ss[0], ss[3], ss[5], ss[6], ss[7], ss[8]
    n_items, n_states, idx = info[I_ITEMS], info[I_STATES], info[I_FULL]
    for s in range(rp[R_PLAYERS]):
        out_counts[s] = 0
        out_pips[s] = 0
        for w in range(out_hands.shape[1]):
            out_hands[s, w] = 0
    for tile in range(rp[R_TILES]):
        if holds(hands, me, tile):
            give(out_hands, out_counts, out_pips, me, tile)
    n_bone = 0
    for i in range(n_items):
        nxt = (i + 1) * n_states
        u = uniform(rng, i_rng) * table[i * n_states + idx]
        chosen = -1
        if items[1, i] < 0 and n_items - i > left[idx]:
            w = table[nxt + idx]
            if u < w:
                bone[n_bone] = items[0, i]
                n_bone += 1
                continue
            u -= w
        for j in range(options[i, 0]):
            q = options[i, 1 + j]
            if (idx // places[3, q]) % (places[1, q] + 1) > 0:
                w = table[nxt + idx - places[3, q]]
                if w > 0.0:
                    chosen = q
                    if u < w:
                        break
                    u -= w
        if chosen < 0:  # rounding left nothing but sleep
            bone[n_bone] = items[0, i]
            n_bone += 1
            continue
        idx -= places[3, chosen]
        if items[1, i] < 0:  # an unseen tile in a slot is held now; a played one left
            give(out_hands, out_counts, out_pips, places[0, chosen], items[0, i])
    shuffle(rng, i_rng, bone, n_bone)
    return n_bone
