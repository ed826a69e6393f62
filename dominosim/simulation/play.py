"""The simulation driver: the functions a notebook user calls.

Examples
--------
>>> import dominosim as ds
>>> rules = ds.Rules.preset("block", players=4)
>>> df = ds.simulate(rules, ["bully", "random", "bully", "random"], n_hands=20, seed=7,
...                  engine="reference")
>>> len(df), list(df.columns[:4])
(20, ['hand', 'opener', 'opening_double', 'opening_tile'])
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from ..progress import bar, want_progress
from ..records import column_dtypes, to_frame
from ..reference.hand import HandLog, play_hand, play_keyed, play_match
from ..rng import check_seed, hand_key
from ..rules import Rules
from ..rules import check_rules as _check_rules
from ..strategies.lineup import per_seat, resolve_lineup
from ..strategies.search import resolve_search
from ..summary import Summary

ENGINES = ("fast", "reference")
KEEPS = ("rows", "summary")
DEFAULT_CHUNK = 250_000
MAX_HAND_INDEX = (1 << 63) - 1
"""The largest hand index (``start + n_hands - 1``): hand ids are int64 and never wrap."""
MAX_ROWS = 100_000_000
"""Hands one ``keep='rows'`` run may return (5.5 GB of records at 4 players); split a
larger run with ``start``, or keep its summary."""
MAX_HANDS = 1 << 50
"""Hands one ``keep='summary'`` run may play (years of compute: a typo, not an experiment)."""
MAX_MATCH_TARGET = 10_000
"""The largest ``rules.target`` :func:`simulate_matches` plays to."""
MAX_MATCHES = 10_000_000
"""Matches one :func:`simulate_matches` call may play."""
POLL_SECONDS = 0.25
"""How often the caller's thread looks up while the compiled engine runs (for Ctrl-C)."""


def check_rules(rules: Any) -> Rules:
    """``rules`` if a :class:`~dominosim.Rules` (see :func:`dominosim.rules.check_rules`)."""
    return _check_rules(rules)


def check_count(name: str, value: Any, low: int = 0) -> int:
    """``value`` as an int if it is an integer of at least ``low``, else the error naming ``name``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or \
            value < low:
        raise ValueError(f"The value for `{name}` must be an integer of {low} or more, "
                         f"but {value!r} was passed.")
    return int(value)


def _check_at_most(name: str, value: int, most: int, cap: str, advice: str) -> None:
    if value > most:
        raise ValueError(f"The value for `{name}` must be at most {most:,} ({cap}; {advice}), "
                         f"but {value!r} was passed.")


def _check_hands(n_hands: int, start: int, keep: str) -> None:
    """The limits of one run, checked before anything is allocated or played."""
    if keep == "rows":
        _check_at_most("n_hands", n_hands, MAX_ROWS, "dominosim.simulation.play.MAX_ROWS with keep='rows'",
                       "keep='summary' has no such limit, or split the run with `start`")
    else:
        _check_at_most("n_hands", n_hands, MAX_HANDS, "dominosim.simulation.play.MAX_HANDS", "split the run")
    last = start + max(n_hands, 1) - 1
    if last > MAX_HAND_INDEX:
        raise ValueError(f"The value for `start` must leave the last hand index start + n_hands "
                         f"- 1 at most 2**63 - 1 (hand ids are int64), but start={start!r} with "
                         f"n_hands={n_hands!r} was passed.")


_ENGINE_LOCK = threading.Lock()


def _interruptibly(call: Callable, *args: Any) -> Any:
    """``call(*args)`` in a worker thread, while this thread waits in short steps.

    The compiled kernels release the GIL, so Ctrl-C (``KeyboardInterrupt``) reaches this thread
    within :data:`POLL_SECONDS` even during a long search; the call in progress then finishes in
    the background, and the next run waits for it (the compiled engine runs one call at a time).
    """
    result: dict[str, Any] = {}

    def work() -> None:
        try:
            result["value"] = call(*args)
        except BaseException as error:  # handed to the caller's thread below
            result["error"] = error
        finally:
            _ENGINE_LOCK.release()

    while not _ENGINE_LOCK.acquire(timeout=POLL_SECONDS):
        pass
    worker = threading.Thread(target=work, name="dominosim-engine", daemon=True)
    try:
        worker.start()
    except BaseException:
        _ENGINE_LOCK.release()
        raise
    while worker.is_alive():
        worker.join(POLL_SECONDS)
    if "error" in result:
        raise result["error"]
    return result["value"]


def check_engine(engine: str) -> str:
    """``engine`` if it is one of :data:`ENGINES`, else the error."""
    if engine not in ENGINES:
        raise ValueError(f"The value for `engine` must be one of "
                         f"{', '.join(map(repr, ENGINES))}, but {engine!r} was passed.")
    return engine


LONG_HANDS = {"fast": 2_000_000, "reference": 5_000, "search": 100}
"""Hands that take a few seconds or more: by default a bar is shown from these on (in Jupyter or
on a terminal), by engine, and for a line-up with a search strategy."""


def long_hands(engine: str, strategies: Any) -> int:
    """Hands that make a long run (:data:`LONG_HANDS`) for ``engine`` and these strategies."""
    seats = strategies if isinstance(strategies, (list, tuple)) else [strategies]
    if any(resolve_search(s) is not None for s in seats):
        return LONG_HANDS["search"]
    return LONG_HANDS[engine]


def _lineup_names(rules: Rules, strategies: Any) -> tuple[str, ...]:
    """Every seat's strategy name (a built-in name, or an object's ``name``)."""
    names = []
    for s in per_seat(rules, strategies):
        name = s if isinstance(s, str) else getattr(s, "name", None)
        names.append(name if isinstance(name, str) and name else
                     getattr(s, "__name__", type(s).__name__))
    return tuple(names)


def _with_attrs(df: pd.DataFrame, rules: Rules, strategies: Any, seed: int, start: int,
                engine: str) -> pd.DataFrame:
    # plain data (the rules as a dict of fields): pyarrow then keeps attrs in a Parquet file
    df.attrs.update(rules=rules.to_dict(), lineup=list(_lineup_names(rules, strategies)),
                    seed=seed, start=start, engine=engine)
    return df


def simulate(rules: Rules, strategies: Any, n_hands: int, seed: int = 0, *,
             engine: str = "fast", keep: str = "rows", start: int = 0,
             n_jobs: int | None = None, chunk_size: int = DEFAULT_CHUNK,
             progress: bool | None = None) -> pd.DataFrame | Summary:
    """Play ``n_hands`` seeded hands and return one record per hand (or their summary).

    Parameters
    ----------
    rules : Rules
        The rule set (see :meth:`Rules.preset`).
    strategies : str, strategy, or sequence
        One strategy per seat (a built-in name such as ``'random'``, ``'bully'``, ``'doubles'``,
        or, with ``engine='reference'``, an object with ``choose(view, moves, rng)`` or a
        function), or one for every seat.
    n_hands : int
        Hands to play.
    seed : int
        The run's seed; hand ``i`` depends only on ``(seed, i)``, in either engine.
    engine : {'fast', 'reference'}
        The compiled engine (default) or the readable reference engine; both give identical
        records hand for hand.
    keep : {'rows', 'summary'}
        ``'rows'``: a DataFrame, one row per hand. ``'summary'``: a :class:`~dominosim.Summary`
        of sums whose memory does not grow with ``n_hands``.
    start : int
        Index of the first hand (hands ``start .. start + n_hands - 1`` are played), so a run can
        be continued or split into chunks with identical results.
    n_jobs : int, optional
        Threads for the fast engine (default: every core numba may use).
    chunk_size : int
        Hands per call of the compiled kernel (progress is reported per chunk; results do not
        depend on it).
    progress : bool, optional
        Show a progress bar (a widget in Jupyter); by default only for long runs (see
        :data:`LONG_HANDS`) in Jupyter or on a terminal, never in scripts' logs or tests.

    Returns
    -------
    pandas.DataFrame or Summary
        One row per hand, columns as in :mod:`dominosim.records`; or the summary. The
        DataFrame's ``attrs`` hold the run as plain data: ``rules`` (the fields, as
        :meth:`Rules.to_dict`; ``Rules(**df.attrs["rules"])`` rebuilds them), ``lineup``
        (every seat's strategy name), ``seed``, ``start`` and ``engine``; the analysis functions
        read ``rules`` and ``lineup`` there when they are not passed, and ``df.to_parquet``
        keeps them.

    Examples
    --------
    >>> import dominosim as ds
    >>> rules = ds.Rules.preset("draw", players=2)
    >>> df = ds.simulate(rules, "random", n_hands=50, seed=1)
    >>> bool(df["end"].isin(["out", "blocked"]).all()), df["hand"].tolist()[:3]
    (True, [0, 1, 2])
    >>> ref = ds.simulate(rules, "random", n_hands=50, seed=1, engine="reference")
    >>> ref.equals(df)
    True
    >>> ds.simulate(rules, "random", n_hands=10_000, seed=1, keep="summary").n_hands
    10000
    >>> ds.Rules(**df.attrs["rules"]) == rules, df.attrs["lineup"], df.attrs["seed"]
    (True, ['random', 'random'], 1)
    """
    rules = check_rules(rules)
    n_hands = check_count("n_hands", n_hands)
    start = check_count("start", start)
    chunk_size = check_count("chunk_size", chunk_size, low=1)
    check_seed(seed)
    check_engine(engine)
    if keep not in KEEPS:
        raise ValueError(f"The value for `keep` must be one of {', '.join(map(repr, KEEPS))}, "
                         f"but {keep!r} was passed.")
    _check_hands(n_hands, start, keep)
    show = want_progress(progress, work=n_hands, long=long_hands(engine, strategies))
    if engine == "reference":
        df = _simulate_reference(rules, strategies, n_hands, seed, start, show)
        if keep == "summary":
            return Summary.from_frame(rules, df)
        return _with_attrs(df, rules, strategies, seed, start, engine)
    from ..fast import engine as fast

    run = fast.prepare(rules, strategies)
    summary = Summary.empty(rules)
    dtypes = column_dtypes(rules.players)
    # rows go straight into their final columns: no list of chunks, no concatenation
    columns = {c: np.empty(n_hands if keep == "rows" else 0, d) for c, d in dtypes.items()}
    if show:  # a bar that moves: at least 50 steps (results never depend on the chunking)
        chunk_size = min(chunk_size, max(64, -(-n_hands // 50)))
    with bar(total=n_hands, show=show) as progress_bar:
        for lo in range(start, start + n_hands, chunk_size):
            n = min(chunk_size, start + n_hands - lo)
            if keep == "summary":
                summary = summary + Summary(rules, _interruptibly(
                    fast.play_summary, run, seed, lo, n, n_jobs))
            else:
                rows, redeals = _interruptibly(fast.play_rows, run, seed, lo, n, n_jobs)
                for c, values in fast.rows_to_columns(rules, rows, redeals, lo).items():
                    columns[c][lo - start:lo - start + n] = values
            progress_bar.update(n)
    if keep == "summary":
        return summary
    return _with_attrs(to_frame(rules, columns), rules, strategies, seed, start, engine)


def _simulate_reference(rules: Rules, strategies: Any, n_hands: int, seed: int, start: int,
                        show: bool) -> pd.DataFrame:
    lineup = resolve_lineup(rules, strategies)
    columns: dict[str, list] = {c: [] for c in column_dtypes(rules.players)}
    with bar(total=n_hands, show=show) as progress_bar:
        for i in range(start, start + n_hands):
            rec = play_keyed(rules, lineup, hand_key(seed, i), seed, i).record
            for c, values in columns.items():
                values.append(rec[c])
            progress_bar.update(1)
    return to_frame(rules, columns)


def replay(rules: Rules, strategies: Any, seed: int, hand: int, *,
           engine: str = "reference") -> HandLog:
    """The full event log of hand ``hand`` of the run seeded ``seed``.

    The hand is the same one :func:`simulate` plays as row ``hand``; ``print(log.transcript())``
    shows it move by move. Both engines give the same log (``engine='fast'`` plays built-in
    strategies only).

    Examples
    --------
    >>> import dominosim as ds
    >>> rules = ds.Rules.preset("block", players=4)
    >>> log = ds.replay(rules, "random", seed=7, hand=3)
    >>> row = ds.simulate(rules, "random", n_hands=4, seed=7).iloc[3]
    >>> log.record["points"] == int(row["points"])
    True
    """
    rules = check_rules(rules)
    hand = check_count("hand", hand)
    _check_at_most("hand", hand, MAX_HAND_INDEX, "2**63 - 1", "hand ids are int64")
    check_seed(seed)
    check_engine(engine)
    if engine == "fast":
        from ..fast import engine as fast

        return fast.replay_log(fast.prepare(rules, strategies, events=True), seed, hand)
    return play_hand(rules, strategies, seed=seed, hand=hand)


def simulate_matches(rules: Rules, strategies: Any, n_matches: int, seed: int = 0, *,
                     engine: str = "reference", progress: bool | None = None) -> pd.DataFrame:
    """Play ``n_matches`` matches to ``rules.target`` and return one row per match.

    Hand ``k`` of match ``j`` is keyed by ``(seed, j, k)``. Matches are played by the reference
    engine.

    Returns
    -------
    pandas.DataFrame
        Columns ``match``, ``winning_side``, ``hands`` (hands played) and ``score_<k>`` per side.

    Examples
    --------
    >>> import dominosim as ds
    >>> m = ds.simulate_matches(ds.Rules.preset("draw", players=3, target=50), "random",
    ...                         n_matches=5, seed=2)
    >>> bool((m[["score_0", "score_1", "score_2"]].max(axis=1) >= 50).all())
    True
    """
    rules = check_rules(rules)
    n_matches = check_count("n_matches", n_matches)
    _check_at_most("n_matches", n_matches, MAX_MATCHES, "dominosim.simulation.play.MAX_MATCHES",
                   "split the run")
    if rules.target > MAX_MATCH_TARGET:
        raise ValueError(f"The value for `target` of the rules must be at most "
                         f"{MAX_MATCH_TARGET:,} (dominosim.simulation.play.MAX_MATCH_TARGET) to play matches, "
                         f"but {rules.target!r} was passed.")
    check_seed(seed)
    if engine != "reference":
        raise ValueError("The value for `engine` must be 'reference' for simulate_matches (the "
                         f"compiled engine plays single hands so far), but {engine!r} was passed.")
    resolve_lineup(rules, strategies)
    rows = []
    show = want_progress(progress, work=50 * n_matches, long=LONG_HANDS["reference"])
    with bar(total=n_matches, unit="match", show=show) as progress_bar:
        for j in range(n_matches):
            m = play_match(rules, strategies, seed=seed, match=j)
            row = {"match": j, "winning_side": m.winning_side, "hands": len(m.hands)}
            row.update({f"score_{k}": v for k, v in enumerate(m.scores)})
            rows.append(row)
            progress_bar.update(1)
    frame = pd.DataFrame(rows, columns=["match", "winning_side", "hands"]
                         + [f"score_{k}" for k in range(rules.n_sides)])
    return frame.astype({"winning_side": "int8", "hands": "int32"})
