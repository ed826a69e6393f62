"""Python entry points of the compiled engine: validate, prepare arrays, call the kernels.

Examples
--------
>>> from dominosim.rules import Rules
>>> rules = Rules.preset("draw", players=2)
>>> cols, redeals = play_rows(rules, strategy_ids(rules, "random"), seed=1, start=0, n=5)
>>> cols.shape, redeals.shape
((5, 18), (5,))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numba
import numpy as np

from ..game import Event, IllegalMoveError
from ..reference import HandLog
from ..rng import hand_key
from ..rules import Rules
from ..search import resolve_search, search_error, table_states
from ..strategies import per_seat
from ..tiles import tile_of
from . import kernel as k
from . import model as m
from .driver import run_logged, run_rows, run_summary, summary_width
from .plugin import CompiledStrategy, raise_plugin_fault
from .rng import deal_key, shuffle

BLOCKS_PER_THREAD = 8


def strategy_ids(rules: Rules, strategies: Any) -> np.ndarray:
    """Built-in strategy ids per seat; raises ``ValueError`` for anything the compiled engine cannot
    play (a Python strategy needs ``engine='reference'``)."""
    strategies = per_seat(rules, strategies)
    ids = []
    for s in strategies:
        if isinstance(s, CompiledStrategy):
            ids.append(k.S_PLUGIN)
            continue
        search = resolve_search(s)
        if search is not None:
            ids.append(k.STRATEGY_IDS[search.builtin] | search.budget << k.CODE_BITS)
            continue
        if not isinstance(s, str) or s not in k.STRATEGY_IDS:
            names = ", ".join(map(repr, k.STRATEGY_IDS))
            raise ValueError(
                f"The value for `strategies` must be built-in names ({names}; a search with "
                f"a budget as 'mc:200') or compiled "
                f"strategies (ds.compiled_strategy) with engine='fast', but {s!r} was passed; "
                f"run Python strategies with engine='reference'.")
        ids.append(k.STRATEGY_IDS[s])
    return np.array(ids, dtype=np.int64)


def params(rules: Rules, ids: np.ndarray, plugins: Sequence[int] = ()) -> np.ndarray:
    """The kernels' rule parameters for the line-up ``ids``, with the sizes of a search's arrays
    (the largest ``ismcts`` tree among the seats)."""
    codes = ids & 255
    searching = (codes >= k.S_MC) & (codes <= k.S_ISMCTS_OMNI)
    if not searching.any():
        return m.rule_params(rules, plugins)
    trees = (codes == k.S_ISMCTS) | (codes == k.S_ISMCTS_OMNI)
    nodes = int((ids[trees] >> k.CODE_BITS).max()) + 1 if trees.any() else 1
    return m.rule_params(rules, plugins, nodes, table_states(rules))


def plugin_addresses(rules: Rules, strategies: Any) -> list[int]:
    """By seat, the address of the compiled strategy it plays (0 for a built-in)."""
    return [s.address if isinstance(s, CompiledStrategy) else 0
            for s in per_seat(rules, strategies)]


def _threads(n_jobs: int | None) -> int:
    most = numba.config.NUMBA_NUM_THREADS
    if n_jobs is None or n_jobs == -1:
        return most
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, int) or not 1 <= n_jobs <= most:
        raise ValueError(f"The value for `n_jobs` must be None, -1 or an integer from 1 to {most} "
                         f"(the cores numba may use), but {n_jobs!r} was passed.")
    return n_jobs


def _check_status(rules: Rules, status: np.ndarray, plugins: Sequence[int] = ()) -> None:
    bad = status[status != k.OK]
    if bad.size:
        if bad[0] == k.ERR_REDEALS:
            raise RuntimeError(f"No double was dealt in {k.MAX_REDEALS} deals of one hand.")
        if bad[0] in (k.ERR_SEARCH_STATES, k.ERR_SEARCH_DEAL):
            raise RuntimeError(search_error(rules, -1 if bad[0] == k.ERR_SEARCH_STATES else -2))
        if bad[0] == k.ERR_PLUGIN:
            raise_plugin_fault(plugins)  # raises the recorded fault (seat, code, exception)
            raise IllegalMoveError("A compiled strategy returned a move index outside its legal "
                                   "moves (0 to n_moves - 1).")
        raise RuntimeError(f"The compiled engine stopped with status {int(bad[0])}.")


def play_rows(rules: Rules, ids: np.ndarray, seed: int, start: int, n: int,
              n_jobs: int | None = None, plugins: Sequence[int] = ()) -> tuple[np.ndarray, np.ndarray]:
    """Records of hands ``start .. start + n - 1``: an ``int16`` array (columns ``C_*``, then per
    seat pips, tiles left, stitch-ups) and the ``int32`` redeal counts."""
    threads = _threads(n_jobs)
    out = np.zeros((n, k.n_record_cols(rules.players)), dtype=np.int16)
    redeals = np.zeros(n, dtype=np.int32)
    n_blocks = max(1, min(n, threads * BLOCKS_PER_THREAD))
    status = np.zeros(n_blocks, dtype=np.int64)
    previous = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        run_rows(params(rules, ids, plugins), ids, np.uint64(seed), np.int64(start), out, redeals,
                 status, n_blocks)
    finally:
        numba.set_num_threads(previous)
    _check_status(rules, status, plugins)
    return out, redeals


def play_summary(rules: Rules, ids: np.ndarray, seed: int, start: int, n: int,
                 n_jobs: int | None = None, plugins: Sequence[int] = ()) -> np.ndarray:
    """Sums over hands ``start .. start + n - 1`` (layout in :mod:`dominosim.fast.driver`)."""
    threads = _threads(n_jobs)
    n_blocks = max(1, min(n, threads * BLOCKS_PER_THREAD))
    acc = np.zeros((n_blocks, summary_width(rules.players)), dtype=np.float64)
    status = np.zeros(n_blocks, dtype=np.int64)
    previous = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        run_summary(params(rules, ids, plugins), ids, np.uint64(seed), np.int64(start), n, acc, status)
    finally:
        numba.set_num_threads(previous)
    _check_status(rules, status, plugins)
    return acc.sum(axis=0)


def _deal_of(rules: Rules, perm: np.ndarray) -> tuple[list, list]:
    h, p = rules.hand_size, rules.players
    hands = [[tile_of(int(t)) for t in perm[s * h:(s + 1) * h]] for s in range(p)]
    return hands, [tile_of(int(t)) for t in perm[p * h:]]


def replay_log(rules: Rules, ids: np.ndarray, seed: int, hand: int, plugins: Sequence[int] = ()) -> HandLog:
    """The event log of one hand played by the compiled engine, as a :class:`HandLog`."""
    base = hand_key(seed, hand)
    out = np.zeros(k.n_record_cols(rules.players), dtype=np.int16)
    log = np.zeros((m.max_events(rules), k.EV_COLS), dtype=np.int64)
    log_ends = np.zeros((m.max_events(rules), k.MAX_ENDS), dtype=np.int64)
    status, redeals, perm = run_logged(params(rules, ids, plugins), ids, np.uint64(base), out, log,
                                       log_ends)
    _check_status(rules, np.array([status]), plugins)
    deals = []
    for d in range(redeals):  # the thrown deals, reshuffled by the compiled streams
        thrown = np.arange(rules.n_tiles, dtype=np.int64)
        shuffle(np.array([deal_key(np.uint64(base), d)], dtype=np.uint64), 0, thrown, len(thrown))
        deals.append(_deal_of(rules, thrown))
    deals.append(_deal_of(rules, perm))
    events = []
    n_events = int(out[k.C_PLAYS]) + int(out[k.C_KNOCKS]) + int(out[k.C_DRAWS])
    for row, ends in zip(log[:n_events], log_ends[:n_events], strict=True):
        kind, seat = int(row[k.EV_KIND]), int(row[k.EV_SEAT])
        if kind == k.EV_PLAY:
            events.append(Event("play", seat=seat, tile=tile_of(int(row[k.EV_TILE])),
                                suit=int(row[k.EV_SUIT]), end_index=int(row[k.EV_END_INDEX]),
                                ends=tuple(int(x) for x in ends[:row[k.EV_N_ENDS]]),
                                stitch_up=bool(row[k.EV_STITCH])))
        elif kind == k.EV_DRAW:
            events.append(Event("draw", seat=seat, tile=tile_of(int(row[k.EV_TILE]))))
        else:
            mask = int(row[k.EV_SUIT])
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
