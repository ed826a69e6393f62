"""The lazy exact enumeration of :mod:`dominosim.solver.lazy`, compiled, for line-ups of ``random``.

The states, the reveals and the values are those of :class:`dominosim.solver.lazy.Lazy` (read its
documentation first); here a state is a row of ``Ctx.st`` (columns ``POOL`` to ``LACK + p``), a
value is a vector of the hand's quantities (:class:`dominosim.solver.vectors.Quantities`) as
residues modulo a few primes (``Ctx.primes``), and the memo is an open-addressing table of the
states' keys (``Ctx.keys``, ``Ctx.rows``) and their values (``Ctx.vals``). Dividing by the ``k``
moves of a ``random`` choice or the boneyard's size multiplies by an inverse modulo each prime;
:mod:`.totals` recovers each total as a fraction from its residues and checks it against one
more prime.

:func:`visit` is the one recursive function: a node is classified (:func:`kind_of`), its children
are written one by one into the next row (:func:`next_child`), visited, and summed. Statuses: 0,
:data:`FULL` when the memo would hold more than ``Ctx.vals`` rows (the caller's ``max_states``),
:data:`TOO_MANY_SUMS` or :data:`STOPPED`.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..core.bits import lowest_bit, popcount
from ..core.jit import jit_helper, jit_kernel
from ..core.turn import goes_out, is_blocked, may_draw, next_seat, score
from .count import SEED, completions, mix, pip_sums

POOL, BONE, LAYOUT, SEAT, KNOCKED, DREW, OUT, TILE, KNOWN = range(9)
"""Columns of a state row; ``KNOWN + s``, ``KNOWN + p + s`` (hidden) and ``KNOWN + 2p + s``
(lacks) per seat. ``LAYOUT`` is :data:`OPENING` before the opening play of ``TILE`` by ``SEAT``,
:data:`FINISHED` for a finished hand (``OUT``: the seat that went out, -1 when blocked)."""
OPENING, FINISHED = -1, -2
K_OPEN, K_FINISH, K_REVEAL, K_PLAY, K_DRAW, K_KNOCK = range(6)
FULL, TOO_MANY_SUMS, STOPPED = -1, -2, -3
"""The statuses of a memo that would hold more states than its rows, of a finished hand whose
pip sums outgrow :class:`~.count.Maps`, and of an enumeration stopped by ``Ctx.stop``."""
Q_WIN, Q_OUT, Q_SIDE_POINTS, Q_PLAYS, Q_KNOCKS, Q_DRAWS, Q_STITCH, Q_SIZE = range(8)
"""Slots of ``Ctx.q``: where each quantity a value keeps sits in it (the slots of
:func:`~.totals.kept_slots`, in that order), and its size."""

Ctx = namedtuple("Ctx", ["p", "rp", "suits", "pips", "drawable", "want", "mv_n", "mv_next",
                         "mv_stitch", "open_layout", "q", "primes", "inv", "st", "it", "acc",
                         "val", "keys", "rows", "vals", "used", "stop", "counts", "scratch", "maps",
                         "shape"])
"""Everything :func:`visit` reads and writes: ``p`` players, ``rp`` the rules' params, the tables
of :mod:`.layouts`, ``q`` (:data:`Q_SIZE` slots), ``primes`` and ``inv[j, k]`` (the inverse of
``k`` modulo prime ``j``), the state rows ``st``, cursors ``it``, sums ``acc`` and values ``val`` by
depth (rows enough for the deepest hand: :func:`dominosim.fast.exact.totals.depth`), the memo
(``keys``, ``rows``: -1 or a row of ``vals``; ``used[0]``: rows taken, ``used[1]`` of them by
finished hands and openings), ``stop[0]`` (1: stop at once, Ctrl-C), the completions' cache
``counts`` (see :func:`count`),
``scratch`` (counts ``[0, p)``, pips ``[p, 2p)``, a key ``[2p, 4p + 2)``, the completions'
table after), ``maps`` (:class:`~.count.Maps`) and ``shape`` (``radix``, the
pip sums' ``bits``, the bits of a seat's lacks in the cache's key)."""
SH_RADIX, SH_BITS, SH_LACK = range(3)


@jit_kernel
def count(c, d):
    """The completions of the state at depth ``d``, kept in a direct-mapped cache by the pool, the
    unrevealed counts and the lacks (``Ctx.counts``: rows of those three words and the count)."""
    p, row = c.p, c.st[d]
    hidden, lack = 0, 0
    for s in range(p):
        hidden |= row[KNOWN + p + s] << (5 * s)
        lack |= row[KNOWN + 2 * p + s] << (c.shape[SH_LACK] * s)
    h = mix(mix(mix(np.uint64(SEED), row[POOL]), hidden), lack)
    slot = np.int64(h & np.uint64(c.counts.shape[0] - 1))
    line = c.counts[slot]
    if line[3] >= 0 and line[0] == row[POOL] and line[1] == hidden and line[2] == lack:
        return line[3]
    found = completions(c.suits, row[POOL], row[KNOWN + p:KNOWN + 2 * p],
                        row[KNOWN + 2 * p:KNOWN + 3 * p], c.shape[SH_RADIX],
                        c.scratch[4 * p + 2:])
    line[0], line[1], line[2], line[3] = row[POOL], hidden, lack, found
    return found


@jit_helper
def present(c, pool):
    """The suits held by a tile of ``pool`` (bit mask)."""
    found = 0
    rest = np.uint64(pool)
    while rest:
        found |= c.suits[lowest_bit(rest)]
        rest &= rest - np.uint64(1)
    return found


@jit_kernel
def settle(c, d):
    """Reduce the state at depth ``d`` to what matters: the lacks to the suits of the pool, for
    seats with unrevealed tiles; once nothing can be drawn, the tiles no seat may hold and the
    revealed boneyard dropped (they sleep in every completion)."""
    p, row = c.p, c.st[d]
    hidden = 0
    for s in range(p):
        hidden += row[KNOWN + p + s]
    pool = row[POOL]
    if c.drawable[popcount(np.uint64(row[BONE])) + popcount(np.uint64(pool)) - hidden] == 0:
        keep = 0
        rest = np.uint64(pool)
        while rest:
            t = lowest_bit(rest)
            rest &= rest - np.uint64(1)
            for s in range(p):
                if row[KNOWN + p + s] > 0 and c.suits[t] & row[KNOWN + 2 * p + s] == 0:
                    keep |= 1 << t
                    break
        row[POOL], row[BONE] = keep, 0
    mask = present(c, row[POOL])
    for s in range(p):
        row[KNOWN + 2 * p + s] = row[KNOWN + 2 * p + s] & mask if row[KNOWN + p + s] else 0


@jit_helper
def held(c, d, counts):
    """Tiles held by each seat at depth ``d``, into ``counts``."""
    p, row = c.p, c.st[d]
    for s in range(p):
        counts[s] = popcount(np.uint64(row[KNOWN + s])) + row[KNOWN + p + s]


@jit_helper
def unrevealed(c, d):
    """The boneyard's unrevealed slots at depth ``d``."""
    p, row = c.p, c.st[d]
    n = popcount(np.uint64(row[POOL]))
    for s in range(p):
        n -= row[KNOWN + p + s]
    return n


@jit_helper
def n_moves(c, d):
    """The legal moves of the seat to move at depth ``d`` (its hand revealed where it matters)."""
    row = c.st[d]
    n = 0
    rest = np.uint64(row[KNOWN + row[SEAT]])
    while rest:
        n += c.mv_n[row[LAYOUT], lowest_bit(rest)]
        rest &= rest - np.uint64(1)
    return n


@jit_kernel
def kind_of(c, d):
    """The kind of the node at depth ``d`` (``K_*``) and how many its value is divided by."""
    p, row = c.p, c.st[d]
    if row[LAYOUT] == OPENING:
        return K_OPEN, 1
    if row[LAYOUT] == FINISHED:
        return K_FINISH, 1
    seat = row[SEAT]
    want = c.want[row[LAYOUT]]
    if row[KNOWN + p + seat] and want & ~row[KNOWN + 2 * p + seat] & present(c, row[POOL]):
        return K_REVEAL, 1
    k = n_moves(c, d)
    if k:
        return K_PLAY, k
    free = unrevealed(c, d)
    to_draw = c.drawable[popcount(np.uint64(row[BONE])) + free]
    if may_draw(c.rp, to_draw, row[DREW] == 1) == 1:
        return K_DRAW, popcount(np.uint64(row[BONE])) + free
    return K_KNOCK, 1


@jit_helper
def copy_down(c, d):
    """The state at depth ``d`` copied to depth ``d + 1``."""
    for i in range(c.st.shape[1]):
        c.st[d + 1, i] = c.st[d, i]


@jit_kernel
def finish_child(c, d, out_seat):
    """Depth ``d + 1`` becomes the finished hand of the state there (``out_seat``: -1 blocked)."""
    row = c.st[d + 1]
    row[LAYOUT], row[OUT], row[BONE] = FINISHED, out_seat, 0
    row[SEAT], row[KNOCKED], row[DREW], row[TILE] = 0, 0, 0, 0
    settle(c, d + 1)


@jit_kernel
def play_child(c, d, tile, after):
    """Depth ``d + 1`` becomes the state after the seat at depth ``d`` plays ``tile`` to the layout
    ``after``."""
    copy_down(c, d)
    row = c.st[d + 1]
    seat = row[SEAT]
    row[KNOWN + seat] &= ~(1 << tile)
    counts = c.scratch[:c.p]
    held(c, d + 1, counts)
    if goes_out(c.rp, counts, seat):
        finish_child(c, d, seat)
        return
    row[LAYOUT], row[SEAT], row[KNOCKED], row[DREW], row[TILE] = after, next_seat(
        c.rp, counts, seat), 0, 0, 0


@jit_kernel
def reveal_child(c, d):
    """The next way the seat at depth ``d`` may hold unrevealed tiles of a playable suit, at depth
    ``d + 1``: 1, or 0 for a way no deal completes, or -1 after the last (cursor ``it[d, 0]``: the
    next subset of the candidates ``it[d, 1]``, counted down from the full set)."""
    p, row = c.p, c.st[d]
    seat = row[SEAT]
    cand, sub = c.it[d, 1], c.it[d, 0]
    if sub < 0:
        return -1
    c.it[d, 0] = (sub - 1) & cand if sub else -1
    k = popcount(np.uint64(sub))
    if k > row[KNOWN + p + seat]:
        return 0
    copy_down(c, d)
    child = c.st[d + 1]
    child[POOL] &= ~sub
    child[KNOWN + seat] |= sub
    child[KNOWN + p + seat] -= k
    child[KNOWN + 2 * p + seat] |= c.want[row[LAYOUT]]
    settle(c, d + 1)
    return 1 if count(c, d + 1) > 0 else 0


@jit_kernel
def draw_child(c, d):
    """The next tile the seat at depth ``d`` may draw, at depth ``d + 1`` (the boneyard's revealed
    tiles, then the pool's while it has unrevealed slots): 1, 0 (no deal), -1 after the last."""
    row = c.st[d]
    seat = row[SEAT]
    t = c.it[d, 0]
    c.it[d, 0] += 1
    n = c.suits.shape[0]
    if t >= 2 * n:
        return -1
    from_bone = t < n
    tile = t if from_bone else t - n
    if from_bone and not row[BONE] >> tile & 1:
        return 0
    if not from_bone and (unrevealed(c, d) == 0 or not row[POOL] >> tile & 1):
        return 0
    copy_down(c, d)
    child = c.st[d + 1]
    if from_bone:
        child[BONE] &= ~(1 << tile)
    else:
        child[POOL] &= ~(1 << tile)
    child[KNOWN + seat] |= 1 << tile
    child[DREW] = 1
    settle(c, d + 1)
    return 1 if from_bone or count(c, d + 1) > 0 else 0


@jit_kernel
def play_next(c, d):
    """The next move of the seat at depth ``d``, at depth ``d + 1``: 1 (2 when it stitches up),
    or -1 after the last (cursor ``it[d, 0]``: tile times 2 plus the move of the tile)."""
    row = c.st[d]
    mine = row[KNOWN + row[SEAT]]
    n = c.suits.shape[0]
    while c.it[d, 0] < 2 * n:
        at = c.it[d, 0]
        c.it[d, 0] += 1
        tile, j = at // 2, at % 2
        if mine >> tile & 1 and j < c.mv_n[row[LAYOUT], tile]:
            play_child(c, d, tile, c.mv_next[row[LAYOUT], tile, j])
            return 2 if c.mv_stitch[row[LAYOUT], tile, j] else 1
    return -1


@jit_kernel
def knock_child(c, d):
    """Depth ``d + 1`` becomes the state after the seat at depth ``d`` knocks."""
    copy_down(c, d)
    row = c.st[d + 1]
    seat = row[SEAT]
    row[KNOCKED] |= 1 << seat
    counts = c.scratch[:c.p]
    held(c, d + 1, counts)
    to_draw = c.drawable[popcount(np.uint64(row[BONE])) + unrevealed(c, d + 1)]
    if is_blocked(c.rp, counts, row[KNOCKED], to_draw):
        finish_child(c, d, -1)
    else:
        row[SEAT], row[DREW] = next_seat(c.rp, counts, seat), 0


@jit_kernel
def next_child(c, d, kind):
    """Write the next child of the node at depth ``d`` at depth ``d + 1``: 1 to visit it, 2 to
    visit it and add a stitch-up, 0 to skip it, -1 after the last."""
    if kind == K_REVEAL:
        return reveal_child(c, d)
    if kind == K_DRAW:
        return draw_child(c, d)
    if kind == K_PLAY:
        return play_next(c, d)
    if c.it[d, 0]:
        return -1
    c.it[d, 0] = 1
    if kind == K_KNOCK:
        knock_child(c, d)
        return 1
    row = c.st[d]  # K_OPEN: the opening play of TILE (in KNOWN) by SEAT
    play_child(c, d, row[TILE], c.open_layout[row[TILE]])
    return 1


@jit_kernel
def start(c, d, kind):
    """Set the cursor of the node at depth ``d`` before its first child."""
    c.it[d, 0] = 0
    if kind == K_REVEAL:
        p, row = c.p, c.st[d]
        seat = row[SEAT]
        want, mine = c.want[row[LAYOUT]], row[KNOWN + 2 * p + seat]
        cand = 0
        rest = np.uint64(row[POOL])
        while rest:
            t = lowest_bit(rest)
            rest &= rest - np.uint64(1)
            if c.suits[t] & want and not c.suits[t] & mine:
                cand |= 1 << t
        c.it[d, 0], c.it[d, 1] = cand, cand


@jit_helper
def add_n(c, v, index, n):
    """Add the integer ``n`` to entry ``index`` of the value ``v``, modulo every prime."""
    size = c.q[Q_SIZE]
    for j in range(c.primes.shape[0]):
        m = c.primes[j]
        add_residue(v, j * size + index, n % m, m)


@jit_helper
def credit(c, v, winner, points, ways):
    """Add ``ways`` completions won by side ``winner`` for ``points`` to the value ``v``, modulo
    every prime (a tie adds nothing: ties, blocked hands and the winner's points are not kept,
    :func:`~.totals.full_values` derives them)."""
    size, q = c.q[Q_SIZE], c.q
    if winner < 0:
        return
    for j in range(c.primes.shape[0]):
        m, base = c.primes[j], j * size
        w = ways % m
        add_residue(v, base + q[Q_WIN] + winner, w, m)
        add_residue(v, base + q[Q_SIDE_POINTS] + winner, mulmod(w, points % m, m), m)


@jit_helper
def add_residue(v, i, x, m):
    """``v[i] += x`` for residues of ``m`` (a subtraction, not a division, keeps the sum one)."""
    y = v[i] + x
    v[i] = y - m if y >= m else y


@jit_helper
def add_value(c, v, w):
    """``v += w``, modulo every prime (both hold residues)."""
    size = c.q[Q_SIZE]
    for j in range(c.primes.shape[0]):
        m = c.primes[j]
        for i in range(j * size, (j + 1) * size):
            add_residue(v, i, w[i], m)


@jit_helper
def mulmod(a, b, m):
    """``a * b`` modulo ``m`` for residues ``a, b`` of a prime ``m`` below 2**31, without an
    integer division: the quotient read from the float product is exact or one off (its
    relative error is a few units of 2**-53 on a quotient below 2**32), and corrected."""
    x = a * b - np.int64(float(a) * float(b) / float(m)) * m
    if x < 0:
        return x + m
    return x - m if x >= m else x


@jit_helper
def divide(c, v, k):
    """``v /= k``, modulo every prime."""
    size = c.q[Q_SIZE]
    for j in range(c.primes.shape[0]):
        m, inverse = c.primes[j], c.inv[j, k]
        for i in range(j * size, (j + 1) * size):
            v[i] = mulmod(v[i], inverse, m)


@jit_kernel
def finish_value(c, d, v):
    """The total of the quantities over the completions of the finished hand at depth ``d``:
    0, or :data:`TOO_MANY_SUMS`."""
    p, row = c.p, c.st[d]
    bits = c.shape[SH_BITS]
    left = c.scratch[p:2 * p]
    out = row[OUT]
    ways_all = 0
    found = pip_sums(c.suits, c.pips, row[POOL], row[KNOWN + p:KNOWN + 2 * p],
                     row[KNOWN + 2 * p:KNOWN + 3 * p], c.shape[SH_RADIX], bits, c.maps)
    if found < 0:
        return TOO_MANY_SUMS
    for s in range(p):  # the pips each seat shows
        left[s] = 0
        rest = np.uint64(row[KNOWN + s])
        while rest:
            left[s] += c.pips[lowest_bit(rest)]
            rest &= rest - np.uint64(1)
    for i in range(found):
        key, ways = c.maps.out[i], c.maps.ways_out[i]
        for s in range(p):
            left[s] += key >> (s * bits) & ((1 << bits) - 1)
        winner, points = score(c.rp, left, out)
        for s in range(p):
            left[s] -= key >> (s * bits) & ((1 << bits) - 1)
        credit(c, v, winner, points, ways)
        ways_all += ways
    if out >= 0:
        add_n(c, v, c.q[Q_OUT], ways_all)
    return 0


@jit_helper
def key_of(c, d, key):
    """The memo key of the state at depth ``d``, into ``key`` (its first ``2 + p`` words: one for
    the pool and the boneyard, one for the layout and the turn, then one a seat: its revealed
    tiles, its unrevealed count from bit 32 and its lacks from bit 40, which :func:`~.totals.fits`
    leaves room for); returns its hash."""
    p, row = c.p, c.st[d]
    key[0] = row[POOL] | row[BONE] << 32
    key[1] = (row[LAYOUT] + 2) | row[SEAT] << 24 | row[KNOCKED] << 30 | row[DREW] << 45 | (
        row[OUT] + 1) << 46 | row[TILE] << 52
    for s in range(p):
        key[2 + s] = row[KNOWN + s] | row[KNOWN + p + s] << 32 | row[KNOWN + 2 * p + s] << 40
    h = np.uint64(SEED)
    for i in range(2 + p):
        h = mix(h, key[i])
    return h


@jit_kernel
def probe(c, d):
    """The memo slot of the state at depth ``d``: where it is kept, or the empty slot it would
    take; and whether it is kept."""
    key = c.scratch[2 * c.p:4 * c.p + 2]
    h = key_of(c, d, key)
    mask = c.rows.shape[0] - 1
    slot = np.int64(h & np.uint64(mask))
    width = c.keys.shape[1]
    while True:
        if c.rows[slot] < 0:
            return slot, False
        same = True
        for i in range(width):
            if c.keys[c.rows[slot], i] != key[i]:
                same = False
                break
        if same:
            return slot, True
        slot = (slot + 1) & mask


@jit_kernel
def remember(c, d, slot):
    """Keep the value at depth ``d`` for its state, in the empty memo ``slot`` its probe found
    before the children were visited (probed again if a child took it since): 0, or
    :data:`FULL`."""
    if c.rows[slot] >= 0:
        slot, _ = probe(c, d)
    else:
        key_of(c, d, c.scratch[2 * c.p:4 * c.p + 2])
    row = c.used[0]
    if row >= c.vals.shape[0]:
        return FULL
    c.used[0] += 1
    if c.st[d, LAYOUT] < 0:
        c.used[1] += 1
    c.rows[slot] = row
    for i in range(c.keys.shape[1]):
        c.keys[row, i] = c.scratch[2 * c.p + i]
    for i in range(c.vals.shape[1]):
        c.vals[row, i] = c.val[d, i]
    return 0


@jit_kernel
def visit(c, d):
    """The total of the rest of the hand over the completions of the state at depth ``d``, into
    ``val[d]``: 0, or :data:`FULL`."""
    if c.stop[0]:
        return STOPPED
    slot, found = probe(c, d)
    if found:
        for i in range(c.vals.shape[1]):
            c.val[d, i] = c.vals[c.rows[slot], i]
        return 0
    kind, k = kind_of(c, d)
    n = 0 if kind == K_FINISH or kind == K_REVEAL else count(c, d)  # a reveal adds no count
    acc = c.acc[d]
    for i in range(acc.shape[0]):
        acc[i] = 0
    if kind == K_FINISH:
        status = finish_value(c, d, acc)
        if status < 0:
            return status
    else:
        start(c, d, kind)
        r = next_child(c, d, kind)
        while r >= 0:
            if r > 0:
                status = visit(c, d + 1)
                if status < 0:
                    return status
                add_value(c, acc, c.val[d + 1])
                if r == 2:
                    add_n(c, acc, c.q[Q_STITCH] + c.st[d, SEAT], n)
            r = next_child(c, d, kind)
        if k > 1:
            divide(c, acc, k)
        if kind != K_REVEAL:
            add_n(c, acc, c.q[Q_PLAYS] if kind <= K_PLAY else c.q[Q_DRAWS]
                  if kind == K_DRAW else c.q[Q_KNOCKS], n)
    for i in range(acc.shape[0]):
        c.val[d, i] = acc[i]
    return remember(c, d, slot)
