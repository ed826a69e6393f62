"""Python entry points of the compiled engine: validate, prepare arrays, call the kernels.

:func:`prepare` turns rules and a line-up into a :class:`Run` (the kernels' parameters, the
line-up's codes, the :class:`~dominosim.fast.core.shape.Shape` that picks the specialised kernel); the
functions below play it.

Examples
--------
>>> from dominosim.rules import Rules
>>> run = prepare(Rules.preset("draw", players=2), "random")
>>> run.shape
Shape(words=1, line=True, draws=True, styles=False, plugins=False, events=False, searches=False)
>>> cols, redeals = play_rows(run, seed=1, start=0, n=5)
>>> cols.shape, redeals.shape
((5, 18), (5,))
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..checks import check_jobs
from ..records import max_events, to_frame
from ..reference.game import Event, IllegalMoveError
from ..reference.hand import HandLog
from ..rng import hand_key
from ..rules import Rules
from ..strategies.lineup import per_seat
from ..strategies.registry import ALIASES
from ..strategies.search import (
    model_arrays,
    reads_features,
    resolve_search,
    search_error,
    table_states,
)
from ..strategies.weighted import player_of, stacked_rows
from ..summary import Summary
from ..tiles import tile_of
from .core.board import (
    EV_DRAW,
    EV_END_INDEX,
    EV_KIND,
    EV_N_ENDS,
    EV_PLAY,
    EV_SEAT,
    EV_STITCH,
    EV_SUIT,
    EV_TILE,
    N_EVENTS,
)
from .core.params import (
    PLUGIN,
    S_WEIGHTED,
    STRATEGY_CODES,
    Lineup,
    Params,
    lineup_arrays,
    rule_params,
)
from .core.rng import deal_key, shuffle
from .core.shape import Shape
from .core.status import (
    ERR_METHOD,
    ERR_PLUGIN,
    ERR_REDEALS,
    ERR_RULE,
    ERR_SEARCH_DEAL,
    ERR_SEARCH_SOLVER,
    ERR_SEARCH_STATES,
    OK,
    STATUSES,
    code_of,
    fault_seat,
    fault_value,
)
from .hand import kernel as k
from .hand.driver import Block, logged, rows_of, summary_width, sums_of
from .hand.plugin import CompiledStrategy, raise_plugin_fault
from .search.solve import C_CAP
from .search.worlds import make_search_scratch, scratch_bytes

BLOCKS_PER_THREAD = 8


@dataclass(frozen=True)
class Run:
    """A line-up on rules, ready for the kernels: ``rp`` the rules, ``lineup`` the codes,
    budgets and plug-in addresses by seat, ``shape`` the kernel's specialisation, ``dims`` the
    sizes of a search's arrays (None when no seat searches), ``world_nodes`` the node limit of a
    sampled world (the smallest ``max_nodes`` of the line-up's ``pimc`` and ``epimc`` seats; 0:
    the default), ``searches`` the line-up's search strategies (their ``max_memory``)."""

    rules: Rules
    rp: Params
    lineup: Lineup
    shape: Shape
    dims: np.ndarray | None
    names: tuple[str, ...]
    world_nodes: int = 0
    searches: tuple = ()


def _code(s: Any) -> tuple[int, int, int, int]:
    """``(code, budget, plug-in address, inference candidates)`` of one seat's strategy."""
    if isinstance(s, CompiledStrategy):
        return PLUGIN, 0, s.address, 0
    if player_of(s) is not None:
        return S_WEIGHTED, 0, 0, 0
    search = resolve_search(s)
    if search is not None:
        return STRATEGY_CODES[search.builtin].code, search.budget, 0, search.infer
    if not isinstance(s, str) or s not in STRATEGY_CODES:
        names = ", ".join(map(repr, [*STRATEGY_CODES, *ALIASES]))  # "best" plays too
        raise ValueError(
            f"The value for `strategies` must be built-in names ({names}; a search with "
            f"a budget as 'mc:200') or compiled "
            f"strategies (ds.compiled_strategy) with engine='fast', but {s!r} was passed; "
            f"run Python strategies with engine='reference'.")
    return STRATEGY_CODES[s].code, 0, 0, 0


def prepare(rules: Rules, strategies: Any, *, events: bool = False) -> Run:
    """A :class:`Run` of ``strategies`` (one for every seat, or one per seat) on ``rules``;
    raises ``ValueError`` for anything the compiled engine cannot play (a Python strategy needs
    ``engine='reference'``). ``events``: the kernel writes the event log (replays)."""
    seats = [player_of(s) or s for s in per_seat(rules, strategies)]
    codes, budgets, plugins, infer = zip(*(_code(s) for s in seats), strict=True)
    weights = None
    if S_WEIGHTED in codes:  # the players' rows, checked against the rules they were fitted for
        weights = stacked_rows([s.row_for(rules) if code == S_WEIGHTED else np.zeros(0)
                                for s, code in zip(seats, codes, strict=True)])
    models = model_arrays(rules, seats) if any(infer) else (None, None)
    lineup = lineup_arrays(codes, budgets, plugins, weights, infer, *models)
    searching = [c for c in seats if resolve_search(c) is not None]
    style_codes = {c.code for c in STRATEGY_CODES.values() if c.kind in ("style", "player")}
    # a plug-in's view and the weighted players' features read the style tables
    styles = PLUGIN in codes or any(c in style_codes for c in codes)
    shape = Shape.of(rules, styles=styles, plugins=PLUGIN in codes, events=events,
                     searches=bool(searching))
    dims, world_nodes, found = None, 0, []
    if searching:
        found = [resolve_search(c) for c in searching]
        dims = np.array([max_events(rules), max(s.nodes for s in found), table_states(rules),
                         max(s.table_bits for s in found)], dtype=np.int64)
        world_nodes = min((s.max_nodes for s in found if s.max_nodes is not None), default=0)
    names = tuple(getattr(s, "name", str(s)) for s in seats)
    run = Run(rules, rule_params(rules), lineup, shape, dims, names, world_nodes, tuple(found))
    check_search_memory(run)
    return run


def check_search_memory(run: Run, threads: int = 1) -> None:
    """Refuse, before anything is compiled or allocated, a run whose search arrays (one set per
    thread, sized for the line-up's largest search) on ``threads`` threads pass a searching
    seat's ``max_memory``."""
    if run.dims is None:
        return
    need = scratch_bytes(run.rules.n_tiles, run.rules.players, *(int(d) for d in run.dims))
    for search in run.searches:
        search.check_bounds(run.rules, need, threads)


def _check_status(run: Run, status: np.ndarray) -> None:
    bad = status[status != OK]
    if not bad.size:
        return
    code = code_of(bad[0])
    if code == ERR_REDEALS:
        raise RuntimeError(f"No double was dealt in {k.MAX_REDEALS} deals of one hand.")
    if code == ERR_RULE:
        raise ValueError(search_error(run.rules, -code))
    if code in (ERR_SEARCH_STATES, ERR_SEARCH_DEAL, ERR_SEARCH_SOLVER, ERR_METHOD):
        raise RuntimeError(search_error(run.rules, -code, run.world_nodes or None))
    if code == ERR_PLUGIN:
        raise_plugin_fault([int(a) for a in run.lineup.plugins])  # a recorded fault, if any
        seat = fault_seat(bad[0])
        raise IllegalMoveError(f"The compiled strategy {run.names[seat]!r} at seat {seat} returned "
                               f"{fault_value(bad[0])}, which is not an index of its legal moves "
                               "(0 to n_moves - 1).")
    raise RuntimeError(f"The compiled engine stopped with status {int(bad[0])} "
                       f"({STATUSES[code] if code < len(STATUSES) else 'unknown'}).")


def scratch_of(run: Run, n_events: int = 0) -> tuple:
    """The arrays one block of hands works in: the kernel's scratch, and the search's (None when no
    seat searches)."""
    rules, shape = run.rules, run.shape
    n_pub = max_events(rules) if shape.searches else 0
    scratch = k.make_scratch(rules.n_tiles, rules.players, n_events, n_pub, shape.plugins)
    if run.dims is None:
        return scratch, None
    n_events, nodes, states, bits = (int(d) for d in run.dims)
    ss = make_search_scratch(rules.n_tiles, rules.players, n_events, nodes, states, bits,
                             weighted=reads_features(run.lineup.models, run.lineup.infer))
    if run.world_nodes and ss.stack is not None:
        ss.stack.ctl[C_CAP] = run.world_nodes
    return scratch, ss


def row_of(run: Run) -> np.ndarray:
    """One record row, as :func:`~dominosim.fast.hand.driver.sums_of` fills it hand after hand."""
    return np.zeros(k.n_record_cols(run.rules.players), dtype=np.int16)


def _blocks(n: int, threads: int) -> list[tuple[int, int]]:
    """``(lo, hi)`` of each block of ``n`` hands for ``threads`` threads."""
    count = max(1, min(n, threads * BLOCKS_PER_THREAD)) if threads > 1 else 1
    return [(b * n // count, (b + 1) * n // count) for b in range(count)]


def _each_block(play, blocks: list[tuple[int, int]], threads: int) -> np.ndarray:
    """``play(b, lo, hi)`` for every block ``b``, on ``threads`` threads (the kernels release the
    GIL); the statuses in block order.

    The threads are daemons, taking blocks in turn: a run interrupted by Ctrl-C (see
    :mod:`dominosim.simulation.play`) must not keep the interpreter from exiting, which the
    workers of a :class:`concurrent.futures.ThreadPoolExecutor` would (they are joined at exit).
    """
    statuses = np.zeros(len(blocks), dtype=np.int64)
    if threads == 1:
        for b, (lo, hi) in enumerate(blocks):
            statuses[b] = play(b, lo, hi)
        return statuses
    errors: list[BaseException] = []

    def work(first: int) -> None:
        try:
            for b in range(first, len(blocks), threads):
                statuses[b] = play(b, *blocks[b])
        except BaseException as error:  # handed to the caller below
            errors.append(error)

    workers = [threading.Thread(target=work, args=(t,), daemon=True) for t in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    if errors:
        raise errors[0]
    return statuses


def search_kind(run: Run) -> str:
    """What the search's scratch adds to a kernel's types: ``''`` (no seat searches), ``'search'``
    or ``'solve'`` (a seat solves sampled worlds: the solver's stack is compiled in)."""
    if run.dims is None:
        return ""
    return "solve" if run.dims[3] else "search"


def kernel_keep(run: Run, keep: str) -> str:
    """The output of the compiled entry point that plays ``run`` with output ``keep``
    (``driver.rows_of`` for ``'rows'``, ``driver.sums_of`` for ``'summary'``): ``'rows'`` for a
    run with a searching seat whatever ``keep`` (:func:`play_summary` sums its rows), else
    ``keep``.

    A search costs milliseconds a hand, so a kernel adding hands into sums saves such a run
    nothing, while compiling the search into a second entry point cost about 12 s of CPU more,
    its callees compiled already (Block 4p ``mc:10``, ``benchmarks/README.md``): a summary of
    searches (a sweep) after rows of the same searches (``simulate``) now compiles nothing
    more.
    """
    return "rows" if run.dims is not None else keep


def entry_call(run: Run, keep: str, n: int = 0) -> tuple[Any, tuple]:
    """The compiled entry point that plays ``run`` with output ``keep`` and its arguments for
    hands ``0 .. n - 1`` (one block): what :func:`compile_kernel` calls and what
    :func:`~dominosim.fast.core.diskcache.on_disk` looks up."""
    seed, start, lo, hi = np.uint64(0), np.int64(0), np.int64(0), np.int64(n)
    if kernel_keep(run, keep) == "rows":
        out = np.zeros((n, k.n_record_cols(run.rules.players)), dtype=np.int16)
        return rows_of, (run.shape, run.rp, run.lineup, Block(seed, start, lo, hi), out,
                         np.zeros(n, dtype=np.int32), *scratch_of(run))
    acc = np.zeros(summary_width(run.rules.players), dtype=np.float64)
    return sums_of, (run.shape, run.rp, run.lineup, Block(seed, start, lo, hi), row_of(run), acc,
                     *scratch_of(run))


def compile_kernel(run: Run, keep: str) -> None:
    """Compile (or load from numba's disk cache) the kernel that plays ``run`` with output
    ``keep``, playing no hand."""
    entry, args = entry_call(run, keep)
    _check_status(run, np.array([entry(*args)]))


def play_rows(run: Run, seed: int, start: int, n: int,
              n_jobs: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Records of hands ``start .. start + n - 1``: an ``int16`` array (columns ``C_*``, then per
    seat pips, tiles left, stitch-ups) and the ``int32`` redeal counts."""
    threads = check_jobs(n_jobs)
    check_search_memory(run, max(1, min(threads, n)))
    out = np.zeros((n, k.n_record_cols(run.rules.players)), dtype=np.int16)
    redeals = np.zeros(n, dtype=np.int32)
    seed_, start_ = np.uint64(seed), np.int64(start)

    def play(b: int, lo: int, hi: int) -> int:
        return rows_of(run.shape, run.rp, run.lineup, Block(seed_, start_, np.int64(lo),
                                                             np.int64(hi)), out, redeals,
                       *scratch_of(run))

    _check_status(run, _each_block(play, _blocks(n, threads), threads))
    return out, redeals


def play_summary(run: Run, seed: int, start: int, n: int, n_jobs: int | None = None) -> np.ndarray:
    """Sums over hands ``start .. start + n - 1`` (layout in :mod:`dominosim.fast.hand.driver`).

    A run with a searching seat plays the rows and sums them (:func:`kernel_keep`,
    :meth:`~dominosim.summary.Summary.from_frame`): the same sums, the hands' rows held only for
    this call's hands."""
    if kernel_keep(run, "summary") == "rows":
        rows, redeals = play_rows(run, seed, start, n, n_jobs)
        frame = to_frame(run.rules, rows_to_columns(run.rules, rows, redeals, start))
        return Summary.from_frame(run.rules, frame).sums
    threads = check_jobs(n_jobs)
    check_search_memory(run, max(1, min(threads, n)))
    blocks = _blocks(n, threads)
    acc = np.zeros((len(blocks), summary_width(run.rules.players)), dtype=np.float64)
    seed_, start_ = np.uint64(seed), np.int64(start)

    def play(b: int, lo: int, hi: int) -> int:
        return sums_of(run.shape, run.rp, run.lineup, Block(seed_, start_, np.int64(lo),
                                                             np.int64(hi)), row_of(run), acc[b],
                       *scratch_of(run))

    _check_status(run, _each_block(play, blocks, threads))
    return acc.sum(axis=0)


def _deal_of(rules: Rules, perm: np.ndarray) -> tuple[list, list]:
    h, p = rules.hand_size, rules.players
    hands = [[tile_of(int(t)) for t in perm[s * h:(s + 1) * h]] for s in range(p)]
    return hands, [tile_of(int(t)) for t in perm[p * h:]]


def replay_log(run: Run, seed: int, hand: int) -> HandLog:
    """The event log of one hand played by the compiled engine, as a :class:`HandLog` (``run``
    prepared with ``events=True``)."""
    rules = run.rules
    base = hand_key(seed, hand)
    out = np.zeros(k.n_record_cols(rules.players), dtype=np.int16)
    scratch, search = scratch_of(run, max_events(rules))
    status, redeals = logged(run.shape, run.rp, run.lineup, np.uint64(base), out, scratch, search)
    _check_status(run, np.array([status]))
    deals = []
    for d in range(redeals):  # the thrown deals, reshuffled by the compiled streams
        thrown = np.arange(rules.n_tiles, dtype=np.int64)
        shuffle(np.array([deal_key(np.uint64(base), d)], dtype=np.uint64), 0, thrown, len(thrown))
        deals.append(_deal_of(rules, thrown))
    deals.append(_deal_of(rules, scratch.board.bone))
    events = []
    log = scratch.log
    n_events = int(log.count[N_EVENTS])
    for row, ends in zip(log.events[:n_events], log.ends[:n_events], strict=True):
        kind, seat = int(row[EV_KIND]), int(row[EV_SEAT])
        if kind == EV_PLAY:
            events.append(Event("play", seat=seat, tile=tile_of(int(row[EV_TILE])),
                                suit=int(row[EV_SUIT]), end_index=int(row[EV_END_INDEX]),
                                ends=tuple(int(x) for x in ends[:row[EV_N_ENDS]]),
                                stitch_up=bool(row[EV_STITCH])))
        elif kind == EV_DRAW:
            events.append(Event("draw", seat=seat, tile=tile_of(int(row[EV_TILE]))))
        else:
            mask = int(row[EV_SUIT])
            events.append(Event("knock", seat=seat,
                                suits=tuple(v for v in range(16) if mask >> v & 1)))
    record = record_dict(rules, out, redeals, hand)
    pips = tuple(record[f"pips_{s}"] for s in range(rules.players))
    events.append(Event("end", how="out" if record["end"] == 0 else "blocked",
                        winning_side=record["winning_side"], points=record["points"], pips=pips))
    return HandLog(rules, seed, hand, deals, events, record)


def record_dict(rules: Rules, row: np.ndarray, redeals: int, hand: int) -> dict[str, int]:
    """One record row as the reference engine's record dict (the layout of
    :func:`rows_to_columns`, read once)."""
    cols = rows_to_columns(rules, row[None, :], np.array([redeals]), hand)
    return {name: int(values[0]) for name, values in cols.items()}


def rows_to_columns(rules: Rules, rows: np.ndarray, redeals: np.ndarray,
                    start: int) -> dict[str, np.ndarray]:
    """Record rows as named columns (codes for ``end`` and ``opening_tile``)."""
    p = rules.players
    cols = {
        "hand": np.arange(start, start + len(rows), dtype=np.int64),
        "opener": rows[:, k.C_OPENER],
        "opening_double": rows[:, k.C_OPEN_DOUBLE],
        "opening_tile": rows[:, k.C_OPEN_TILE],
        "redeals": redeals,
        "end": rows[:, k.C_END],
        "winning_side": rows[:, k.C_WIN],
        "points": rows[:, k.C_POINTS],
        "plays": rows[:, k.C_PLAYS],
        "knocks": rows[:, k.C_KNOCKS],
        "draws": rows[:, k.C_DRAWS],
        "stitch_ups": rows[:, k.C_STITCH],
        "boneyard_left": rows[:, k.C_BONE_LEFT],
        "out_seat": rows[:, k.C_OUT_SEAT],
    }
    for prefix, offset in (("pips", 0), ("tiles_left", p), ("stitch_ups", 2 * p)):
        for s in range(p):
            cols[f"{prefix}_{s}"] = rows[:, k.N_BASE_COLS + offset + s]
    return cols
