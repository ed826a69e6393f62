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

import sys
from typing import Any

import pandas as pd
from tqdm.auto import tqdm

from .records import column_dtypes, to_frame
from .reference import HandLog, play_hand, play_keyed, play_match
from .rng import _check_seed, hand_key
from .rules import Rules
from .strategies import resolve_lineup

ENGINES = ("reference",)


def _check_rules(rules: Any) -> Rules:
    if not isinstance(rules, Rules):
        raise ValueError(f"The value for `rules` must be a dominosim.Rules (for example "
                         f"Rules.preset('block', players=4)), but {rules!r} was passed.")
    return rules


def _check_count(name: str, value: Any, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"The value for `{name}` must be an integer of {low} or more, "
                         f"but {value!r} was passed.")
    return value


def _check_engine(engine: str) -> str:
    if engine not in ENGINES:
        raise ValueError(f"The value for `engine` must be one of "
                         f"{', '.join(map(repr, ENGINES))}, but {engine!r} was passed.")
    return engine


def _want_progress(progress: bool | None, n_hands: int) -> bool:
    if progress is None:
        return n_hands >= 5_000 and sys.stderr.isatty()
    return bool(progress)


def simulate(rules: Rules, strategies: Any, n_hands: int, seed: int = 0, *,
             engine: str = "reference", start: int = 0,
             progress: bool | None = None) -> pd.DataFrame:
    """Play ``n_hands`` seeded hands and return one record per hand.

    Parameters
    ----------
    rules : Rules
        The rule set (see :meth:`Rules.preset`).
    strategies : str, strategy, or sequence
        One strategy per seat (a built-in name such as ``'random'``, ``'bully'``, ``'doubles'``,
        an object with ``choose(view, moves, rng)``, or a function), or one for every seat.
    n_hands : int
        Hands to play.
    seed : int
        The run's seed; hand ``i`` depends only on ``(seed, i)``.
    engine : {'reference'}
        The engine that plays the hands.
    start : int
        Index of the first hand (hands ``start .. start + n_hands - 1`` are played), so a run can
        be continued or split into chunks with identical results.
    progress : bool, optional
        Show a progress bar; by default only for long runs on a terminal.

    Returns
    -------
    pandas.DataFrame
        One row per hand, columns as in :mod:`dominosim.records`.

    Examples
    --------
    >>> import dominosim as ds
    >>> df = ds.simulate(ds.Rules.preset("draw", players=2), "random", n_hands=50, seed=1)
    >>> df["end"].isin(["out", "blocked"]).all(), df["hand"].tolist()[:3]
    (True, [0, 1, 2])
    """
    rules = _check_rules(rules)
    _check_count("n_hands", n_hands)
    _check_count("start", start)
    _check_seed(seed)
    _check_engine(engine)
    lineup = resolve_lineup(rules, strategies)
    columns: dict[str, list] = {c: [] for c in column_dtypes(rules.players)}
    hands = range(start, start + n_hands)
    for i in tqdm(hands, disable=not _want_progress(progress, n_hands), unit="hand",
                  desc="dominosim"):
        rec = play_keyed(rules, lineup, hand_key(seed, i), seed, i).record
        for c, values in columns.items():
            values.append(rec[c])
    return to_frame(rules, columns)


def replay(rules: Rules, strategies: Any, seed: int, hand: int, *,
           engine: str = "reference") -> HandLog:
    """The full event log of hand ``hand`` of the run seeded ``seed``.

    The hand is the same one :func:`simulate` plays as row ``hand``; ``print(log.transcript())``
    shows it move by move.

    Examples
    --------
    >>> import dominosim as ds
    >>> rules = ds.Rules.preset("block", players=4)
    >>> log = ds.replay(rules, "random", seed=7, hand=3)
    >>> row = ds.simulate(rules, "random", n_hands=4, seed=7).iloc[3]
    >>> log.record["points"] == row["points"]
    True
    """
    rules = _check_rules(rules)
    _check_count("hand", hand)
    _check_seed(seed)
    _check_engine(engine)
    return play_hand(rules, strategies, seed=seed, hand=hand)


def simulate_matches(rules: Rules, strategies: Any, n_matches: int, seed: int = 0, *,
                     engine: str = "reference", progress: bool | None = None) -> pd.DataFrame:
    """Play ``n_matches`` matches to ``rules.target`` and return one row per match.

    Hand ``k`` of match ``j`` is keyed by ``(seed, j, k)``.

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
    rules = _check_rules(rules)
    _check_count("n_matches", n_matches)
    _check_seed(seed)
    _check_engine(engine)
    resolve_lineup(rules, strategies)
    rows = []
    for j in tqdm(range(n_matches), disable=not _want_progress(progress, 50 * n_matches),
                  unit="match", desc="dominosim"):
        m = play_match(rules, strategies, seed=seed, match=j)
        row = {"match": j, "winning_side": m.winning_side, "hands": len(m.hands)}
        row.update({f"score_{k}": v for k, v in enumerate(m.scores)})
        rows.append(row)
    frame = pd.DataFrame(rows, columns=["match", "winning_side", "hands"]
                         + [f"score_{k}" for k in range(rules.n_sides)])
    return frame.astype({"winning_side": "int8", "hands": "int32"})
