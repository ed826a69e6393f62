"""Exact expected values of a small rule set under ``random`` and the deterministic styles: every
deal, every choice of a ``random`` seat and every draw accounted for, in
:class:`fractions.Fraction`. :func:`exact` enumerates lazily (:mod:`dominosim.solver.lazy`: tiles
revealed only when a decision or a rule needs them, deals counted, not listed); the enumeration
over every full deal below (:class:`_Game`, :func:`full_deal_totals`) is kept as its independent
check and for continuations from a known position. A line-up of ``random`` alone runs the same
enumeration compiled (:mod:`dominosim.fast.exact`), equal to it fraction for fraction.

The hand is played by the reference engine's rule functions (:mod:`dominosim.reference.game`:
:func:`~dominosim.reference.game.legal_moves`, :func:`~dominosim.reference.game.ends_after`,
:func:`~dominosim.reference.game.next_seat`, :func:`~dominosim.reference.game.score`, ...) on immutable states, so
the rules are the ones both engines play. The readings of the rule book it follows:

* ``random`` picks uniformly among the distinct legal moves (a seat with one move plays it), and
  leads uniformly among its tiles under ``opening='any'``;
* a deterministic style (``bully``, ``doubles``, ``accompanied``, ``stitcher``, ``counter``,
  ``partner``: :mod:`dominosim.strategies.styles`) plays the one move its ``choose`` picks from a
  :class:`~dominosim.strategies.SeatView` of the enumeration's state (a seat with one move plays
  it, as in the engines). The styles read the suits each seat is known to lack, and ``partner``
  the tiles its partner played: a state keeps these only when some seat of the line-up reads them
  (:data:`_READS`), so states that differ only in what nobody reads are evaluated once, and
  states that differ in what a style reads are never merged;
* the boneyard is a uniformly shuffled sequence, so each draw is uniform among the tiles still
  asleep (the states keep the sleeping tiles as a set);
* a deal with no double under ``opening='highest_double'`` is redealt (rejection sampling): the
  hand played is uniform over the deals holding a double, and the number of redeals is geometric.

Equal states met along different deals are evaluated once (a table of the expected rest of the
hand from each state).

Examples
--------
>>> from dominosim.rules import Rules
>>> rules = Rules(max_pip=2, players=2, hand_size=2)
>>> exact(rules, "bully").loc["P_opener_side_wins", "exact"]
Fraction(37, 45)
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from itertools import combinations

import pandas as pd

from ..checks import check_limit, check_memory, refuse
from ..fast.exact import totals as compiled
from ..progress import bar, want_progress
from ..reference.game import (
    Move,
    drawable,
    ends_after,
    ends_by_out,
    highest_double,
    is_blocked,
    is_stitch_up,
    legal_moves,
    may_draw,
    next_seat,
    opening_ends,
    opens_with_double,
    playable_suits,
    score,
)
from ..rules import Rules, check_rules
from ..strategies.lineup import BUILTINS, STYLES, per_seat
from ..strategies.view import SeatView
from ..tiles import full_set, pips
from .lazy import Lazy, StateLimitError, collector_paused, enumerate_hands, seat_view
from .tree_size import tree_size
from .vectors import Quantities, plus, total

__all__ = ["exact", "estimated_states", "reads_of", "MAX_STATES", "TREE_WITHIN"]

_READS = {
    "random": frozenset(),
    "bully": frozenset(),
    "doubles": frozenset(),
    "accompanied": frozenset(),
    "stitcher": frozenset({"lacks"}),
    "counter": frozenset({"lacks"}),
    "partner": frozenset({"lacks", "plays"}),
}
"""What each enumerable built-in reads of the public history beyond its hand and the layout:
``lacks``, the suits each seat is known to lack; ``plays``, the tiles each seat has played (see
:mod:`dominosim.strategies.styles`). The enumeration's states keep only what the line-up reads."""

MAX_STATES = 3_000_000
"""The largest :func:`estimated_states` that :func:`exact` takes on by default, and the most states
it then keeps (about 3 GB: :data:`BYTES_PER_STATE`)."""

PROGRESS_STATES = 1_000_000
"""The estimated states from which :func:`exact` shows its bar by default (``progress=None``) in
Jupyter or on a terminal: about a second of the compiled enumeration, several of the Python one."""

TREE_WITHIN = 1000
"""How far past the limit the deals-based estimate (:func:`estimated_states`) may be for
:func:`exact` to ask the lazy tree's estimate (:func:`~dominosim.solver.tree_size.tree_size`)
before it refuses. The tree's probes of the double-four sets take about a second; past this
ratio the rule sets are larger (the double-five and double-six sets), their probes take seconds
each, and their trees are far past any limit the memory allows."""

BYTES_PER_STATE = 1000
"""The memory one state of the lazy enumeration takes with its tables: the peak resident memory
grown over the states kept was at most 946 bytes a state on every rule set measured (Block
double-four, four players, at 3 million states; 645 to 680 with two players), by
``python benchmarks/bench_exact_states.py`` (``benchmarks/README.md``)."""


def _deals(tiles: list, players: int, size: int):
    """Every way to deal ``size`` tiles to each seat (hands as sorted tuples), with the rest."""
    if players == 0:
        yield (), tuple(tiles)
        return
    for hand in combinations(tiles, size):
        rest = [t for t in tiles if t not in hand]
        for others, bone in _deals(rest, players - 1, size):
            yield (hand,) + others, bone


def estimated_states(rules: Rules, strategies: str | Sequence[str] = "random") -> int:
    """The work of :func:`exact` it checks before it starts, counted from what a state holds:
    the deals, times the sets of tiles that may have been drawn from the boneyard so far (every
    set of at most as many tiles as may be drawn), times the tiles dealt (the plays that can
    have been made), times two (a seat to move before and after its playable tiles are
    revealed); half as much again when a seat plays ``partner`` with partnerships (its states
    keep the tiles each seat played).

    An estimate, not a proof: the lazy enumeration met at most 0.83 as many states as this on
    every configuration of the validation table and every Draw rule set measured (the other
    options, four line-ups: ``python benchmarks/bench_exact_states.py``,
    ``benchmarks/README.md``), but up to 4.5 times as many where the hands are large and few
    tiles lie asleep (the deals are then few, the states are not: Block double-three, two
    players of five tiles, under ``random``); a count of every
    value a state's key can hold bounds it for certain but is far larger (the places of the
    tiles alone, ``(players + 3) ** tiles``, are 60 million for configuration 4). What
    bounds the memory for certain is ``max_states``: :func:`exact` stops, with an error, at the
    moment it would keep more states than that, whatever the estimate said.

    >>> estimated_states(Rules(max_pip=3, players=2, hand_size=3))
    50400
    >>> estimated_states(Rules(max_pip=3, players=2, hand_size=3, draw="until_playable"))
    806400
    >>> estimated_states(Rules(max_pip=3, players=4, hand_size=2, partnerships=True), "partner")
    2721600
    """
    n, h, p = rules.n_tiles, rules.hand_size, rules.players
    deals = math.factorial(n) // (math.factorial(h) ** p * math.factorial(n - h * p))
    asleep = n - h * p
    drawn = sum(math.comb(asleep, k) for k in range(drawable(rules, asleep) + 1))
    plays = "plays" in reads_of(rules, _lineup(rules, strategies))
    states = 2 * deals * drawn * h * p
    return states * 3 // 2 if plays else states


def _check_memory(states: int, name: str, value: int) -> None:
    """Refuse a limit of ``states`` states that would not fit in the memory the machine has free
    (``name`` the parameter that set it, ``value`` its value).
    """
    try:
        free = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):  # not a POSIX system: nothing to check
        return
    if states * BYTES_PER_STATE > free:
        raise refuse(name, f"the free memory (at most {free // BYTES_PER_STATE:,} states "
                     f"of about {BYTES_PER_STATE} bytes each)", value,
                     shown=f"{value:,}", verb="fit in")


class _Game(Quantities):
    """The enumeration for one rule set and line-up: ``rest(state)`` is the expected rest of the
    hand from ``state``.

    A state is ``(hands, ends, bone, seat, knocked, drew, lacks, plays)``: the hands (sorted
    tuples), the open ends (:meth:`canonical`), the sleeping tiles (a set), the seat to move, the
    seats that knocked since the last play, whether the seat to move has drawn this turn, and what
    the line-up's styles read of the public history (:data:`_READS`): ``lacks`` the suits each
    seat is known to lack, ``plays`` the tiles each seat has played (None when no seat reads
    them, so that states differing only there are one state).
    """

    def __init__(self, rules: Rules, lineup: list[str] | None = None) -> None:
        self.rules = rules
        lineup = ["random"] * rules.players if lineup is None else lineup
        self.lineup = lineup
        self.styles = [None if name == "random" else BUILTINS[name]() for name in lineup]
        reads = reads_of(rules, lineup)
        self.keeps_lacks, self.keeps_plays = "lacks" in reads, "plays" in reads
        super().__init__(rules)
        self.rest = lru_cache(maxsize=None)(self._rest)

    def start(self) -> tuple:
        """``(lacks, plays)`` before the opening: nothing known, nothing played."""
        p = self.rules.players
        return ((frozenset(),) * p if self.keeps_lacks else None,
                ((),) * p if self.keeps_plays else None)

    def canonical(self, ends) -> tuple:
        """The open ends as a state key: in order under fill-first (the opening's arms are the
        first ends), else as a multiset (sorted): where a tile goes then changes only which of
        equal ends it covers, and nothing that follows depends on the order (the styles read the
        suits left showing as a set).
        """
        return tuple(ends) if self.rules.fill_opening_first else tuple(sorted(ends))

    def view(self, hands, ends, bone, seat: int, lacks, plays) -> SeatView:
        """What ``seat`` sees, as far as the built-in styles read it (:func:`seat_view`)."""
        return seat_view(self.rules, seat, hands[seat], ends, tuple(len(h) for h in hands),
                         len(bone), lacks, plays)

    def choices(self, moves: list, hands, ends, bone, seat: int, lacks, plays) -> list:
        """The moves ``seat`` may make, each equally likely: all of them for ``random``, the
        style's one choice otherwise (a single legal move is played without asking).
        """
        style = self.styles[seat]
        if style is None or len(moves) == 1:
            return moves
        return [style.choose(self.view(hands, ends, bone, seat, lacks, plays), moves, None)]

    def finish(self, hands, out_seat: int) -> tuple:
        rules = self.rules
        v = [0] * self.size
        self.add_result(v, *score(rules, [sum(pips(t) for t in h) for h in hands], out_seat))
        v[self.OUT if out_seat >= 0 else self.BLOCKED] = 1
        return 1, tuple(v)

    def played(self, plays, seat: int, tile) -> tuple | None:
        """``plays`` with ``tile`` added to ``seat``'s tiles."""
        if plays is None:
            return None
        return tuple(tuple(sorted(t + (tile,))) if s == seat else t for s, t in enumerate(plays))

    def after_play(self, hands, ends, bone, seat: int, tile, suit: int, lacks=None,
                   plays=None) -> tuple:
        """The rest of the hand from the play of ``tile`` on ``suit`` by ``seat`` on (``lacks``
        and ``plays`` as :meth:`start` gives them: None when the line-up reads neither).
        """
        hands = tuple(tuple(t for t in h if t != tile) if s == seat else h
                      for s, h in enumerate(hands))
        new_ends, _ = ends_after(self.rules, ends, Move(tile, suit))
        v = self.continue_after(hands, self.canonical(new_ends), bone, seat, lacks,
                                self.played(plays, seat, tile))
        v = plus(v, self.PLAYS)
        if is_stitch_up([e.suit for e in new_ends]):
            v = plus(v, self.STITCH + seat)
        return v

    def continue_after(self, hands, ends, bone, seat: int, lacks, plays) -> tuple:
        if ends_by_out(self.rules, hands, seat):
            return self.finish(hands, seat)
        return self.rest(hands, ends, bone, next_seat(self.rules, hands, seat), frozenset(),
                         False, lacks, plays)

    def _rest(self, hands, ends, bone, seat: int, knocked: frozenset, drew: bool, lacks,
              plays) -> tuple:
        rules = self.rules
        moves = legal_moves(rules, hands[seat], ends)
        if moves:
            moves = self.choices(moves, hands, ends, bone, seat, lacks, plays)
            return _mean([self.after_play(hands, ends, bone, seat, m.tile, m.suit, lacks, plays)
                          for m in moves])
        to_draw = drawable(rules, len(bone))
        if may_draw(rules, to_draw, drew):
            # a draw tells the table nothing of the hand the seat now holds
            after = _with(lacks, seat, frozenset())
            children = []
            for tile in bone:
                taken = tuple(tuple(sorted(h + (tile,))) if s == seat else h
                              for s, h in enumerate(hands))
                children.append(self.rest(taken, ends, bone - {tile}, seat, knocked, True, after,
                                          plays))
            return plus(_mean(children), self.DRAWS)
        knocked = knocked | {seat}
        if lacks is not None:
            lacks = _with(lacks, seat, lacks[seat] | playable_suits(rules, ends))
        holding = {s for s in range(rules.players) if hands[s]}
        if is_blocked(holding, set(knocked), to_draw):
            v = self.finish(hands, -1)
        else:
            v = self.rest(hands, ends, bone, next_seat(rules, hands, seat), knocked, False, lacks,
                          plays)
        return plus(v, self.KNOCKS)


def _mean(vectors: list) -> tuple:
    """The mean of the ``vectors``, reduced."""
    return total(vectors, len(vectors))


def _with(items: tuple | None, index: int, value) -> tuple | None:
    """``items`` with entry ``index`` replaced by ``value`` (None stays None)."""
    if items is None:
        return None
    return items[:index] + (value,) + items[index + 1:]


def exact(rules: Rules, strategies: str | Sequence[str] = "random", *,
          max_states: int = MAX_STATES, max_memory: int | None = None,
          check_estimate: bool = True, progress: bool | None = None) -> pd.DataFrame:
    """The exact expected values of a hand of ``rules`` under a line-up of ``random`` and the
    deterministic built-in styles.

    Enumerates every deal, every choice of a ``random`` seat and every draw in exact rational
    arithmetic; a style's seat plays the style's one choice, made on the view the enumeration
    builds (see the module documentation for the readings of the rules).

    Parameters
    ----------
    rules : Rules
        A small rule set (double-2 to double-4 sets with few tiles per hand).
    strategies : str or list of str
        One name for every seat, or a list of one per seat, among ``'random'`` and the
        deterministic styles ``'bully'``, ``'doubles'``, ``'accompanied'``, ``'stitcher'``,
        ``'counter'`` and ``'partner'`` (searches and a user's strategies are not enumerated).
    max_states : int
        Refuse a rule set whose estimated number of states is larger, and a limit the free
        memory cannot hold (:data:`BYTES_PER_STATE` each), before any work; stop with an error
        at the moment the enumeration would keep more states than this. The estimate is
        :func:`estimated_states` (from the deals) and, where that one would refuse but is within
        :data:`TREE_WITHIN` times the limit, the smaller of it and the lazy enumeration's tree
        estimated by 1,000 random probes
        (:func:`~dominosim.solver.tree_size.tree_size`: 0.2 to 1.4 s of CPU on the rule sets
        measured; each state is at least one node of the tree, so it bounds the states in
        expectation). Every validation configuration the
        default reaches takes under a minute; double-four sets need a larger limit
        (``benchmarks/README.md``). Ctrl-C stops it at once (:class:`KeyboardInterrupt`).
    max_memory : int or None
        The bytes the enumeration's states may take (None, the default: only ``max_states``
        and the free memory bound them). The states are counted at :data:`BYTES_PER_STATE`
        each, the most measured: a rule set whose estimate needs more is refused before any
        work, and the enumeration stops with an error at the moment its states would need
        more, so ``max_memory`` bounds it like ``max_states // BYTES_PER_STATE`` would.
    check_estimate : bool
        True (the default): refuse before any work a rule set whose estimate (see
        ``max_states``) exceeds ``max_states`` or, at :data:`BYTES_PER_STATE` each,
        ``max_memory``. False: skip that refusal and let the limits alone bound the work. The
        memory ``max_states`` states need is still checked before any work, and the enumeration
        still stops with an error where it would keep more. The tree's estimate is close where
        few orders of play meet in one state (Block double-four, four players of two tiles each:
        1.0 million against 905,017 states met) and useless where many do (the fill-first
        crosses: configuration 9d's tree is 18,000 times its 3.2 million states, and its
        deals-based estimate, 81 million, 25 times), so configuration 9d runs only with
        ``check_estimate=False`` and a larger ``max_states`` (8 million). Without the estimate,
        a rule set too large for the limit runs until it meets the limit.
    progress : bool or None
        A bar of the states kept so far, out of the most the limits allow (the enumeration
        ends wherever its states end, usually short of that; a bar that fills meets the limit):
        True shows it, False not, None (the default) for a rule set estimated at a million
        states or more, in Jupyter or on a terminal (:mod:`dominosim.progress`).

    Returns
    -------
    pandas.DataFrame
        Indexed by ``quantity``, the names of the validation table
        (``tests/data/validation/README.md``): ``P_opener_side_wins``, ``P_side<k>_wins`` and
        ``E_points_side<k>`` (side ``k`` counted from the opener's), ``P_tie``, ``P_blocked``,
        ``P_chip_out``, ``E_points_winner``, ``E_plays``, ``E_knocks``, ``E_draws``,
        ``E_stitchups``, ``E_stitchups_seat<k>`` (seat ``k`` counted from the opener),
        ``E_redeals``, ``P_at_least_one_redeal``, ``P_no_double_in_a_deal`` and
        ``P_opening_double_<d>-<d>`` (highest-double openings only); column ``exact``
        (:class:`fractions.Fraction`) and ``value`` (float).

    Examples
    --------
    >>> import dominosim as ds
    >>> table = ds.exact(ds.Rules(max_pip=2, players=2, hand_size=2))
    >>> table.loc["P_opener_side_wins", "exact"], table.loc["E_plays", "exact"]
    (Fraction(5, 6), Fraction(121, 45))
    >>> ds.exact(ds.Rules(max_pip=3, players=2, hand_size=3),
    ...          ["bully", "random"]).loc["P_side0_wins", "exact"]
    Fraction(22109, 30096)

    A double-four set: its deals-based estimate (259 million states) is past the default
    limit, the tree's (1.0 million) is not (1.8 s of CPU and 0.7 GB)::

        ds.exact(ds.Rules.preset("block", players=4, max_pip=4, hand_size=2))

    Configuration 9d (a fill-first cross), whose estimates are both far past its 3.2 million
    states, with the limits alone bounding the work (9.6 s, 1.3 GB)::

        ds.exact(ds.Rules(max_pip=4, players=2, hand_size=6, draw="until_playable",
                          opening_arms=4, fill_opening_first=True),
                 max_states=8_000_000, check_estimate=False)
    """
    check_rules(rules)
    max_states = check_limit("max_states", max_states)
    if max_memory is not None:
        max_memory = check_limit("max_memory", max_memory)
    if not isinstance(check_estimate, bool):
        raise refuse("check_estimate", "True or False", check_estimate)
    want_progress(progress, work=0, long=1)  # a wrong value is refused before any work
    lineup = _lineup(rules, strategies)
    # the most states kept (`name`'s limit): max_states, or fewer when max_memory binds first
    limit, name, value = max_states, "max_states", max_states
    if max_memory is not None and max_memory // BYTES_PER_STATE < max_states:
        limit, name, value = max_memory // BYTES_PER_STATE, "max_memory", max_memory
    states = estimated_states(rules, lineup)
    if check_estimate:
        if limit < states <= TREE_WITHIN * limit:  # asked only where the deals' refuses
            states = min(states, math.ceil(tree_size(rules, lineup, reads_of(rules, lineup))))
        if states > max_states:
            raise ValueError(f"The value for `rules` must be small enough to enumerate (at most "
                             f"{max_states:,} estimated states, see `max_states`), but "
                             f"{rules!r} has about {states:,} (check_estimate=False lets "
                             f"the limit alone stop the work).")
        check_memory("max_memory", states * BYTES_PER_STATE, max_memory,
                     f"the enumeration of {rules!r} (about {states:,} estimated states of "
                     f"{BYTES_PER_STATE} bytes)", "a smaller rule set")
    _check_memory(limit, name, value)
    show = want_progress(progress, work=states, long=PROGRESS_STATES)
    with bar(total=limit, desc="ds.exact", unit="state", show=show) as states_bar:

        def on_states(n: int) -> None:
            states_bar.update(n - states_bar.n)

        try:
            table = _enumerated(rules, lineup, limit, on_states if show else None)
        except (StateLimitError, compiled.StatesFull):
            met = (f"states than {value:,} bytes hold ({limit:,} of {BYTES_PER_STATE} "
                   f"bytes each)" if name == "max_memory" else f"than {limit:,} states")
            raise ValueError(f"The value for `{name}` must be larger for {rules!r}: the "
                             f"enumeration met more {met} (the estimate "
                             f"was {states:,}).") from None
        on_states(table.attrs["states"])  # the bar ends at the states met, in either engine
    return table


def _enumerated(rules: Rules, lineup: list[str], limit: int, on_states=None) -> pd.DataFrame:
    """The table of :func:`exact` by the compiled enumeration where it can take ``rules`` and
    ``lineup``, else by the Python one.
    """
    if set(lineup) == {"random"} and compiled.fits(rules):
        try:
            return _compiled(rules, limit, on_states)
        except compiled.TooLarge:
            pass  # more layouts or pip sums than its tables hold: the Python engine
    return _in_python(rules, lineup, limit, on_states)


def _compiled(rules: Rules, limit: int, on_states=None) -> pd.DataFrame:
    """:func:`exact` of a line-up of ``random`` by the compiled enumeration."""
    by_opener, opened_double, played, no_double, states = compiled.enumerate_random(
        rules, limit, on_states=on_states)
    table = _table(rules, Quantities(rules), by_opener, opened_double, played, no_double)
    table.attrs["states"] = states
    return table


def _in_python(rules: Rules, lineup: list[str], limit: int, on_states=None) -> pd.DataFrame:
    """:func:`exact` by the Python enumeration (:mod:`dominosim.solver.lazy`)."""
    game = Lazy(rules, lineup, reads_of(rules, lineup), limit, on_states)
    with collector_paused():  # till the states are freed, by their reference counts
        by_opener, opened_double, played, no_double = enumerate_hands(game)
        table = _table(rules, game, by_opener, opened_double, played, no_double)
        table.attrs["states"] = len(game.memo)
        del game
    return table


def _lineup(rules: Rules, strategies) -> list[str]:
    """One enumerable built-in name per seat, or the error naming them."""
    names = ", ".join(map(repr, STYLES))
    allowed = (f"one of {names} (random or a deterministic style: searches and a user's "
               f"strategies are not enumerated), or a list of one per seat")
    if isinstance(strategies, str):
        strategies = [strategies]
    elif not isinstance(strategies, (list, tuple)):
        raise refuse("strategies", allowed, strategies)
    for name in strategies:
        if not isinstance(name, str) or name not in STYLES:
            raise refuse("strategies", allowed, name)
    return per_seat(rules, strategies[0] if len(strategies) == 1 else list(strategies))


def reads_of(rules: Rules, lineup: list[str]) -> set:
    """What a line-up of enumerable built-ins reads of the public history (:func:`_reads` of
    each seat's name), as :class:`~dominosim.solver.lazy.Lazy` and
    :func:`~dominosim.solver.tree_size.tree_size` take it.
    """
    return set().union(*(_reads(rules, name) for name in lineup))


def _reads(rules: Rules, name: str) -> frozenset:
    """What built-in ``name`` reads of the public history (:data:`_READS`), under ``rules``."""
    if name == "partner" and not rules.partnerships:
        return frozenset()  # it plays as bully
    return _READS[name]


def full_deal_totals(rules: Rules, lineup: list[str]) -> tuple[dict, dict, int, int]:
    """The enumeration over every full deal (the one :func:`exact` made before the lazy one,
    kept as an independent check of it: ``tests/test_exact_lazy.py``), with the same result as
    :func:`~dominosim.solver.lazy.enumerate_hands`. Only for the smallest rule sets: its work
    grows with the number of deals.

    >>> full_deal_totals(Rules(max_pip=1, players=2, hand_size=1), ["random"] * 2)[1:]
    ({0: 2, 1: 4}, 6, 0)
    """
    game = _Game(rules, lineup)
    p = rules.players
    by_opener: dict[int, list] = {seat: [] for seat in range(p)}
    opened_double = {d: 0 for d in range(rules.max_pip + 1)}
    played = no_double = 0
    for hands, bone in _deals(full_set(rules.max_pip), p, rules.hand_size):
        hands = tuple(tuple(sorted(h)) for h in hands)
        found = highest_double(hands, rules.max_pip)
        no_double += found is None
        if not opens_with_double(rules):
            assert rules.leader is not None  # Rules sets it under opening='any'
            seat = rules.leader
            leads = game.choices([Move(t, -1) for t in hands[seat]], hands, (), bone, seat,
                                 *game.start())
            vector = _mean([_opened(game, hands, frozenset(bone), seat, m.tile) for m in leads])
        else:
            if found is None:
                continue
            seat, tile = found
            opened_double[tile[0]] += 1
            vector = _opened(game, hands, frozenset(bone), seat, tile)
        played += 1
        by_opener[seat].append(vector)
    fractions = {}
    for seat, vectors in by_opener.items():
        den, nums = total(vectors) if vectors else (1, (0,) * game.size)
        fractions[seat] = [Fraction(x, den) for x in nums]
    return fractions, opened_double, played, no_double


def _opened(game: _Game, hands, bone: frozenset, seat: int, tile) -> tuple:
    """The hand's vector from the opening play of ``tile`` by ``seat`` on."""
    hands = tuple(tuple(t for t in h if t != tile) if s == seat else h
                  for s, h in enumerate(hands))
    ends = game.canonical(opening_ends(game.rules, tile))
    lacks, plays = game.start()
    v = game.continue_after(hands, ends, bone, seat, lacks, game.played(plays, seat, tile))
    return plus(v, game.PLAYS)


def _table(rules: Rules, game: Quantities, by_opener: dict, opened_double: dict, played: int,
           no_double: int) -> pd.DataFrame:
    p, s = rules.players, rules.n_sides
    rows: dict[str, Fraction] = {}

    def total(index_of) -> Fraction:
        return sum((by_opener[o][index_of(o)] for o in range(p)), Fraction(0)) / played

    for k in range(s):
        rows[f"P_side{k}_wins"] = total(lambda o, k=k: game.WIN + (rules.side_of(o) + k) % s)
    rows["P_opener_side_wins"] = rows["P_side0_wins"]
    rows["P_tie"] = total(lambda o: game.TIE)
    rows["P_blocked"] = total(lambda o: game.BLOCKED)
    rows["P_chip_out"] = total(lambda o: game.OUT)
    rows["E_points_winner"] = total(lambda o: game.POINTS)
    for k in range(s):
        rows[f"E_points_side{k}"] = total(
            lambda o, k=k: game.SIDE_POINTS + (rules.side_of(o) + k) % s)
    rows["E_plays"] = total(lambda o: game.PLAYS)
    rows["E_knocks"] = total(lambda o: game.KNOCKS)
    rows["E_draws"] = total(lambda o: game.DRAWS)
    rows["E_stitchups"] = sum((total(lambda o, j=j: game.STITCH + j) for j in range(p)),
                              Fraction(0))
    for k in range(p):
        rows[f"E_stitchups_seat{k}"] = total(lambda o, k=k: game.STITCH + (o + k) % p)
    q = Fraction(no_double, played + (no_double if opens_with_double(rules) else 0))
    rows["P_no_double_in_a_deal"] = q
    redealt = q if opens_with_double(rules) else Fraction(0)
    rows["P_at_least_one_redeal"] = redealt
    rows["E_redeals"] = redealt / (1 - redealt)
    if opens_with_double(rules):
        for d in range(rules.max_pip + 1):
            rows[f"P_opening_double_{d}-{d}"] = Fraction(opened_double[d], played)
    frame = pd.DataFrame({"exact": pd.Series(rows, dtype=object)})
    frame["value"] = [float(x) for x in frame["exact"]]
    frame.index.name = "quantity"
    return frame
