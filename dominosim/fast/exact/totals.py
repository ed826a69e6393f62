"""The Python side of the compiled lazy enumeration: it builds the context, plays the openings and
recovers the totals as fractions.

:func:`enumerate_random` returns what :func:`dominosim.solver.lazy.enumerate_hands` returns, fraction
for fraction; :func:`fits` says whether a rule set is within its bounds (else the Python engine
runs). The totals are computed modulo a few primes near ``2**31`` and recovered as fractions by
rational reconstruction, each checked against one more prime; a check that fails (a total whose
numerator and denominator outgrow the primes) runs the enumeration again with twice as many.

Examples
--------
>>> from dominosim.rules import Rules
>>> by_opener, opened, played, no_double, states = enumerate_random(Rules(max_pip=2, players=2,
...                                                                       hand_size=2))
>>> played, no_double
(90, 0)
"""

from __future__ import annotations

import math
import threading
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from ...rules import Rules
from ...solver.lazy import moved_from_seat_0, no_double_pool, openings
from ...solver.vectors import Quantities
from ...tiles import full_set
from ..core.params import rule_params
from .count import completions, make_maps
from .layouts import TooLarge, tables
from .lazy import (
    BONE,
    FULL,
    KNOWN,
    LAYOUT,
    OPENING,
    POOL,
    SEAT,
    SH_RADIX,
    TILE,
    Ctx,
    settle,
    visit,
)

__all__ = ["StatesFull", "TooLarge", "enumerate_random", "fits"]


class StatesFull(ValueError):
    """The enumeration met more states than its ``max_states``."""


@lru_cache
def _primes(k: int, below: int = 2 ** 31) -> list[int]:
    """The ``k`` largest primes below ``below`` (by trial division: a few milliseconds)."""
    found: list[int] = []
    n = below - 1
    while len(found) < k:
        if n % 2 and all(n % f for f in range(3, math.isqrt(n) + 1, 2)):
            found.append(n)
        n -= 1
    return found


def _packing(rules: Rules) -> tuple[int, int]:
    """``(radix, bits)``: a seat's unrevealed tiles, counted in base ``radix``, and the bits of a
    seat's pip sum (any hand's pips fit: they are at most the set's)."""
    return rules.hand_size + 1, sum(a + b for a, b in full_set(rules.max_pip)).bit_length()


def fits(rules: Rules) -> bool:
    """Whether the compiled enumeration takes ``rules``: at most 31 tiles, every count of deals
    within ``int64``, and a state's key within its packing."""
    n, p, h = rules.n_tiles, rules.players, rules.hand_size
    if n > 31 or p > 12 or (rules.max_pip + 1) * p > 63 or 5 * p > 63:
        return False
    radix, bits = _packing(rules)
    if radix ** p > 1 << 20 or (radix ** p) << (p * bits) >= 1 << 62:
        return False
    return math.comb(n, h) ** p < 1 << 62


def depth(rules: Rules) -> int:
    """Rows of the state stack, one per node on the longest path of a hand: each tile is drawn and
    played at most once, between two of these every seat may knock once, each turn (a play, a
    draw or a knock) may follow a reveal; plus the opening and the finished hand.

    >>> depth(Rules(max_pip=2, players=2, hand_size=2))
    80
    """
    n = rules.n_tiles
    return 2 * (2 * n + rules.players * (2 * n + 1)) + 4


def kept_slots(q: Quantities, rules: Rules) -> list[int]:
    """The slots of :class:`~dominosim.solver.vectors.Quantities` the enumeration keeps, in the
    order of its values (``lazy.Q_WIN`` to ``lazy.Q_STITCH``): each side's wins, the hands gone
    out, each side's points, the plays, knocks and draws, each seat's stitch-ups. Ties, blocked
    hands and the winner's points follow from them (:func:`full_values`), so a memo row is three
    quantities shorter."""
    s, p = rules.n_sides, rules.players
    return ([q.WIN + k for k in range(s)] + [q.OUT] + [q.SIDE_POINTS + k for k in range(s)]
            + [q.PLAYS, q.KNOCKS, q.DRAWS] + [q.STITCH + k for k in range(p)])


def full_values(kept: np.ndarray, n: int, q: Quantities, rules: Rules,
                primes: list[int]) -> np.ndarray:
    """The residues of every quantity from those :func:`kept_slots` keeps and the number ``n`` of
    completions they total over: every completion is won by one side or tied (ties: ``n`` less
    the wins), goes out or is blocked (blocked: ``n`` less the hands gone out), and the winner's
    points are its side's (the winner's points: the sum of the sides')."""
    slots, s = kept_slots(q, rules), rules.n_sides
    full = np.zeros(q.size * len(primes), dtype=np.int64)
    for j, m in enumerate(primes):
        row = full[j * q.size:(j + 1) * q.size]
        row[slots] = kept[j * len(slots):(j + 1) * len(slots)]
        row[q.TIE] = (n - int(row[q.WIN:q.WIN + s].sum())) % m
        row[q.BLOCKED] = (n - int(row[q.OUT])) % m
        row[q.POINTS] = int(row[q.SIDE_POINTS:q.SIDE_POINTS + s].sum()) % m
    return full


def _context(rules: Rules, max_states: int, moduli: list[int]) -> tuple[Ctx, Quantities]:
    t = tables(rules)
    p, q = rules.players, Quantities(rules)
    primes, n_primes = np.array(moduli, dtype=np.int64), len(moduli)
    top = 2 * rules.n_tiles + 2
    inv = np.zeros((n_primes, top + 1), dtype=np.int64)
    for j, m in enumerate(primes):
        for k in range(1, top + 1):
            inv[j, k] = pow(k, int(m) - 2, int(m))
    radix, bits = _packing(rules)
    kept = kept_slots(q, rules)
    width, size, rows = 2 + p, len(kept) * n_primes, depth(rules)
    slots = 1 << max(4, (2 * max_states).bit_length())
    quantities = np.array([kept.index(slot) for slot in (q.WIN, q.OUT, q.SIDE_POINTS, q.PLAYS,
                                                         q.KNOCKS, q.DRAWS, q.STITCH)]
                          + [len(kept)], dtype=np.int64)  # lazy.Q_WIN .. Q_SIZE
    ctx = Ctx(p=np.int64(p), rp=rule_params(rules), suits=t.suits, pips=t.pips,
              drawable=t.drawable, want=t.want, mv_n=t.mv_n, mv_next=t.mv_next,
              mv_stitch=t.mv_stitch, open_layout=t.open_layout, q=quantities, primes=primes,
              inv=inv, st=np.zeros((rows, KNOWN + 3 * p), dtype=np.int64),
              it=np.zeros((rows, 2), dtype=np.int64), acc=np.zeros((rows, size), dtype=np.int64),
              val=np.zeros((rows, size), dtype=np.int64),
              keys=np.empty((max_states, width), dtype=np.int64),
              rows=np.full(slots, -1, dtype=np.int64),
              vals=np.empty((max_states, size), dtype=np.uint32),
              used=np.zeros(2, dtype=np.int64), stop=np.zeros(1, dtype=np.int64),
              counts=np.full((1 << 20, 4), -1, dtype=np.int64),
              scratch=np.zeros(4 * p + 2 + 2 * radix ** p, dtype=np.int64), maps=make_maps(),
              shape=np.array([radix, bits, rules.max_pip + 1], dtype=np.int64))
    return ctx, q


def _count(ctx: Ctx, pool: int, hidden) -> int:
    """The completions of ``pool`` into the ``hidden`` slots before anything is known to lack."""
    p = int(ctx.p)
    return int(completions(ctx.suits, np.int64(pool), np.asarray(hidden, dtype=np.int64),
                           np.zeros(p, dtype=np.int64), ctx.shape[SH_RADIX],
                           ctx.scratch[4 * p + 2:]))


def _opened(ctx: Ctx, pool: int, bone: int, known: list, hidden: list, seat: int,
            tile: int, on_states=None) -> np.ndarray:
    """The residues of the total from ``seat``'s opening play of ``tile`` on (``on_states``: see
    :func:`_interruptible`)."""
    p = int(ctx.p)
    row = ctx.st[0]
    row[:] = 0
    row[POOL], row[BONE], row[LAYOUT], row[SEAT], row[TILE] = pool, bone, OPENING, seat, tile
    row[KNOWN:KNOWN + p] = known
    row[KNOWN + p:KNOWN + 2 * p] = hidden  # the lacks: none yet
    settle(ctx, 0)
    status = _interruptible(ctx, on_states)
    if status == FULL:
        raise StatesFull(int(ctx.used[0]))
    if status < 0:
        raise TooLarge("a finished hand's pip sums outgrow the compiled maps")
    return ctx.val[0].copy()


def _interruptible(ctx: Ctx, on_states=None) -> int:
    """:func:`~.lazy.visit` of depth 0 in a thread, so that Ctrl-C reaches this one at once: it
    sets ``ctx.stop``, which the enumeration reads at every state, and is raised again once the
    thread has stopped. ``on_states`` (None, or a function of one int) is called with the states
    kept so far every 0.05 s while the thread runs, and once at its end."""
    status = [0]

    def work() -> None:
        status[0] = visit(ctx, 0)

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    try:
        while thread.is_alive():
            thread.join(0.05)
            if on_states is not None:
                on_states(int(ctx.used[0] - ctx.used[1]))
    except KeyboardInterrupt:
        ctx.stop[0] = 1
        thread.join()
        raise
    return status[0]


class _Run(NamedTuple):
    """One enumeration's results: the residues of each opener's totals (``size`` quantities
    modulo each prime, prime by prime), and the counts and states of :func:`enumerate_random`."""

    by_opener: dict
    opened_double: dict
    played: int
    no_double: int
    states: int
    size: int


def _run(rules: Rules, max_states: int, moduli: list[int], on_states=None) -> _Run:
    """One enumeration modulo the primes ``moduli``."""
    ctx, q = _context(rules, max_states, moduli)
    p, size = rules.players, int(ctx.q[-1])
    mods = np.repeat(ctx.primes, size)  # the prime of each entry of a value
    by_opener = {seat: np.zeros(size * len(moduli), dtype=np.int64) for seat in range(p)}
    completed = dict.fromkeys(range(p), 0)  # the completions each opener's totals are over
    opened_double = {d: 0 for d in range(rules.max_pip + 1)}
    played = 0
    free = no_double_pool(rules)
    no_double = 0 if free is None else _count(ctx, free, (rules.hand_size,) * p)
    by_seat_0: dict = {}  # a double opened by seat 0: its total, which the other seats' move
    for seat, pool, bone, hand, hidden, leads, double in openings(rules):
        if moved_from_seat_0(True, seat, double):
            v = _moved(by_seat_0[double], q, rules, seat, len(moduli))
        else:
            known = [hand if s == seat else 0 for s in range(p)]
            v = sum(_opened(ctx, pool, bone, known, hidden, seat, t, on_states)
                    for t in leads) % mods
            v = v * np.repeat(ctx.inv[:, len(leads)], size) % mods
            if double >= 0:
                by_seat_0[double] = v
        by_opener[seat] = (by_opener[seat] + v) % mods
        n = _count(ctx, pool, hidden)
        completed[seat] += n
        played += n
        if double >= 0:
            opened_double[double] += n
    states = int(ctx.used[0] - ctx.used[1])
    full = {seat: full_values(v, completed[seat], q, rules, moduli)
            for seat, v in by_opener.items()}
    return _Run(full, opened_double, played, no_double, states, q.size)


def _moved(v: np.ndarray, q: Quantities, rules: Rules, r: int, n_primes: int) -> np.ndarray:
    """The residues ``v`` of a hand opened by seat 0 (the kept slots, prime by prime), for the
    same hand opened by seat ``r``: every seat moved ``r`` places on
    (:meth:`~dominosim.solver.vectors.Quantities.moved`; as the Python enumeration does, under
    ``random`` only seat 0's openings are enumerated)."""
    kept = kept_slots(q, rules)
    where = q.moved(r)
    size = len(kept)
    to = np.array([kept.index(where[slot]) for slot in kept], dtype=np.int64)
    moved = np.empty_like(v)
    moved[(np.arange(n_primes)[:, None] * size + to[None, :]).ravel()] = v
    return moved


def _fraction(residues: list[int], primes: list[int]) -> Fraction | None:
    """The fraction whose residues modulo ``primes[:-1]`` are ``residues[:-1]`` (rational
    reconstruction), if it also agrees with the last; else None."""
    m, u = 1, 0
    for r, prime in zip(residues[:-1], primes[:-1], strict=True):  # CRT
        u += m * ((r - u) * pow(m, -1, prime) % prime)
        m *= prime
    bound = math.isqrt(m // 2)
    r0, r1, s0, s1 = m, u % m, 0, 1
    while r1 > bound:
        quotient = r0 // r1
        r0, r1, s0, s1 = r1, r0 - quotient * r1, s1, s0 - quotient * s1
    if s1 == 0 or abs(s1) > bound or math.gcd(r1, abs(s1)) != 1:
        return None
    value = Fraction(r1, s1)
    last = primes[-1]
    if value.denominator % last == 0 or (
            value.numerator * pow(value.denominator, -1, last) - residues[-1]) % last:
        return None
    return value


def enumerate_random(rules: Rules, max_states: int = 3_000_000, n_primes: int | None = None,
                     on_states=None):
    """:func:`dominosim.solver.lazy.enumerate_hands` of ``rules`` with every seat playing
    ``random``, compiled: ``(by_opener, opened_double, played, no_double, states)`` (``states``:
    the states of the memo before a play, a draw, a knock or a reveal, as the Python engine
    counts them). Raises :class:`StatesFull` past ``max_states``, and
    :class:`~dominosim.fast.exact.layouts.TooLarge` for more layouts than the tables hold.
    ``n_primes`` (default: 4, or 6 where tiles are drawn, whose boneyard sizes divide the totals
    and lengthen their fractions: configuration 9d's need 6) is how many primes a run keeps.
    Where their residues do not determine every fraction, the enumeration runs again modulo as
    many new primes and recovers the fractions from the residues of both runs (and so on), so a
    run's memory stays that of ``n_primes`` primes. ``on_states`` (None, or a function of one
    int): called with the states kept so far, every 0.05 s while a run enumerates.
    """
    if n_primes is None:
        n_primes = 6 if rules.can_draw else 4
    primes: list[int] = []
    residues: dict = {}
    while True:
        moduli = _primes(len(primes) + n_primes)[len(primes):]
        run = _run(rules, max_states, moduli, on_states)
        primes += moduli
        residues = {seat: np.concatenate([residues.get(seat, np.zeros(0, np.int64)), v])
                    for seat, v in run.by_opener.items()}  # prime by prime, as `primes`
        fractions: dict = {}
        for seat, v in residues.items():
            values = [_fraction([int(v[j * run.size + i]) % m for j, m in enumerate(primes)],
                                primes) for i in range(run.size)]
            if any(x is None for x in values):
                break
            fractions[seat] = values
        else:
            return fractions, run.opened_double, run.played, run.no_double, run.states


