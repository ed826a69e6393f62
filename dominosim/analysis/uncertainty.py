"""Block against Draw: how much a seat does not know, and how much of the outcome the deal decides.

The seed texts claim that the Block game, where some tiles sleep for ever, is more uncertain, and
that the Draw game, where every tile may come into play, lets players deduce more. Three measures:

(a) **Unknown tiles** (:func:`hand_uncertainty`, ``tiles_unknown``): at the start of each turn
    (before any draw), the tiles the seat to move cannot see: every other hand and the boneyard,
    that is the set size less its own hand and the tiles on the table. Also split into
    ``in_other_hands`` and ``sleeping``.
(b) **Entropy** (``entropy_bits``): ``log2`` of the number of hidden histories consistent with
    everything the seat to move has seen (:func:`dominosim.sampler.count_consistent`: the other
    hands as dealt, the tile of every draw by another seat, the set of sleeping tiles, agreeing with
    the hand sizes, every knock and forced draw and the opening double). All hidden histories are
    equally likely a priori, so this is the Shannon entropy, in bits, of the seat's posterior over
    them when the other seats' choices are not used as evidence. It is exact (big integers). In
    Block a hidden history is an allocation of the unseen tiles to the other hands and the
    boneyard; in draw games it also says which of a seat's tiles came with the deal and which with
    each draw, so it counts more than the allocations and bounds the allocation's entropy from
    above. ``counts_entropy_bits`` is the same count from the tile counts alone, ``log2`` of the
    multinomial ``U! / (h_1! ... h_k! b!)`` of the ``U`` unknown tiles over the other hands and the
    boneyard: the allocation's entropy if knocks and draws told nothing, comparable across games.
    The count's cost grows with the seats and the distinct draws (a few milliseconds a turn on a
    double-six set with up to four seats, measured); for larger tables count fewer hands, or use
    the counts-only entropy, an upper bound in Block.
(c) **Value of information** (:func:`value_of_information`): how much an omniscient version of a
    strategy gains over its honest twin, on duplicate deals. The omniscient strategies are not in
    the package yet; the function takes any two strategies, and :func:`block_draw_uncertainty`
    adds its columns when given the pairs.
(d) **Share of luck** (:func:`luck_share`): the fraction of the variance of a side's result that
    the deal explains, ``sum_s Var(E[Y_s | deal]) / sum_s Var(Y_s)`` over the sides ``s``, from
    duplicate plays of every deal (:func:`deal_replays`): the same shuffle (hands and boneyard
    order) played by several line-ups, or several times with fresh strategy streams. ``Y_s`` is
    the side's score in the hand (1 win, 0 loss, a tie shared) or its points. Estimated by the
    one-way random-effects analysis of variance with the deal as the random effect, with a
    jackknife interval over deals.

Examples
--------
>>> import dominosim as ds
>>> log = ds.replay(ds.Rules.preset("block", players=2), "random", seed=1, hand=0)
>>> u = hand_uncertainty(log)
>>> int(u.loc[0, "tiles_unknown"])            # 28 tiles less 8 in hand less the opening double
19
>>> bool((u["entropy_bits"] <= u["counts_entropy_bits"] + 1e-9).all())   # knocks only inform
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..game import GameState, Move
from ..progress import bar, want_progress
from ..reference import HandLog
from ..rules import Rules
from ..sampler import count_consistent
from ..strategies import view_of
from ._common import (
    Facts,
    check_choice,
    check_confidence,
    collect,
    refuse,
    side_scores,
    z_value,
)

OUTCOMES = ("score", "points")
PROFILE_X = ("turn", "progress")
UNCERTAINTY_COLUMNS = ["turn", "turns", "progress", "seat", "tiles_unknown", "in_other_hands",
                       "sleeping", "entropy_bits", "counts_entropy_bits"]


# --------------------------------------------------------------------------- (a), (b) per turn
def _turn_states(log: HandLog) -> Iterable[GameState]:
    """The game state at the start of every turn after the opening, rebuilt from the log."""
    rules = log.rules
    hands, boneyard = log.deals[-1]
    state = GameState.from_deal(rules, [list(h) for h in hands], list(boneyard))
    events = [e for e in log.events if e.kind != "end"]
    if rules.opening == "highest_double":
        state.open_with_highest_double()
    else:
        state.lead(Move(events[0].tile, events[0].suit))
    new_turn = True
    for e in events[1:]:
        if new_turn:
            yield state
        if e.kind == "play":
            state.play(e.seat, Move(e.tile, e.suit))
        elif e.kind == "draw":
            state.draw(e.seat)
        else:
            state.knock(e.seat)
        new_turn = e.kind != "draw"


def _log2_multinomial(parts: Sequence[int]) -> float:
    total = math.lgamma(sum(parts) + 1) - sum(math.lgamma(p + 1) for p in parts)
    return total / math.log(2)


def hand_uncertainty(logs: Any, *, entropy: bool = True) -> pd.DataFrame:
    """What the seat to move does not know, turn by turn, in one or more hands.

    Parameters
    ----------
    logs : HandLog or list of HandLog
        Event logs (:func:`dominosim.replay`, :func:`dominosim.play_hand`).
    entropy : bool
        Count the consistent hidden histories (measure (b) of the module; the slow part).

    Returns
    -------
    DataFrame
        One row per turn after the opening: ``hand`` (the log's hand), ``turn`` (0 the first turn
        after the opening), ``turns`` (turns in the hand), ``progress`` (``turn / turns``),
        ``seat`` (to move), ``tiles_unknown`` (measure (a)), ``in_other_hands``, ``sleeping``,
        ``entropy_bits`` (measure (b); NaN without ``entropy``) and ``counts_entropy_bits``.

    Examples
    --------
    >>> import dominosim as ds
    >>> rules = ds.Rules.preset("draw", players=2, max_pip=3, hand_size=3)
    >>> u = hand_uncertainty(ds.replay(rules, "random", seed=2, hand=0))
    >>> u.loc[0, ["turn", "seat", "tiles_unknown", "in_other_hands", "sleeping"]].tolist()
    [0, 1, 6, 2, 4]
    """
    if isinstance(logs, HandLog):
        logs = [logs]
    if not isinstance(entropy, bool):
        raise refuse("entropy", "True or False", entropy)
    rows = []
    for log in logs:
        if not isinstance(log, HandLog):
            raise refuse("logs", "a HandLog or a list of them (from dominosim.replay)",
                         type(log).__name__)
        first = len(rows)
        for turn, state in enumerate(_turn_states(log)):
            seat = state.to_move
            others = [len(h) for s, h in enumerate(state.hands) if s != seat]
            sleeping = len(state.boneyard)
            rows.append({"hand": log.hand, "turn": turn, "seat": seat,
                         "tiles_unknown": sum(others) + sleeping, "in_other_hands": sum(others),
                         "sleeping": sleeping,
                         "entropy_bits": math.log2(count_consistent(view_of(state, seat)))
                         if entropy else math.nan,
                         "counts_entropy_bits": _log2_multinomial(others + [sleeping])})
        for row in rows[first:]:
            row["turns"] = len(rows) - first
            row["progress"] = row["turn"] / row["turns"]
    return collect(rows, UNCERTAINTY_COLUMNS)


def uncertainty_profile(data: pd.DataFrame, *, x: str = "turn", bins: int = 10,
                        groups: Any = None, min_count: int = 1,
                        confidence: float = 0.95) -> pd.DataFrame:
    """Means of the measures of :func:`hand_uncertainty` over the course of a hand.

    Parameters
    ----------
    data : DataFrame
        From :func:`hand_uncertainty` (several hands, with any label columns added).
    x : {'turn', 'progress'}
        By turn (later turns average over the hands still going), or by the share of the hand
        played, cut into ``bins`` equal bins (each labelled by its midpoint).
    bins : int
        Bins of ``progress``.
    groups : str or list of str, optional
        Label columns to keep apart (such as ``game`` and ``players``).
    min_count : int
        Leave out the points averaged over fewer turns (the last turns of the longest hands,
        whose means say little).
    confidence : float

    Returns
    -------
    DataFrame
        Group labels, ``x`` and for each of ``tiles_unknown``, ``in_other_hands``,
        ``entropy_bits`` and ``counts_entropy_bits``: the mean and its normal interval
        (``<name>_ci_low``, ``<name>_ci_high``); ``n`` (turns averaged).

    Examples
    --------
    >>> import pandas as pd
    >>> d = pd.DataFrame({"turn": [0, 1, 0], "progress": [0, 0.5, 0], "tiles_unknown": [9, 7, 11],
    ...                   "in_other_hands": [5, 4, 6], "entropy_bits": [3.0, 2.0, 5.0],
    ...                   "counts_entropy_bits": [4.0, 3.0, 6.0]})
    >>> p = uncertainty_profile(d)
    >>> p[["turn", "n", "tiles_unknown"]].values.tolist()
    [[0.0, 2.0, 10.0], [1.0, 1.0, 7.0]]
    """
    check_choice("x", x, PROFILE_X)
    confidence = check_confidence(confidence)
    for name, value in (("bins", bins), ("min_count", min_count)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise refuse(name, "an integer of 1 or more", value)
    cols = [] if groups is None else [groups] if isinstance(groups, str) else list(groups)
    d = data.copy()
    if x == "progress":
        d["progress"] = (np.floor(d["progress"] * bins).clip(upper=bins - 1) + 0.5) / bins
    measures = [m for m in ("tiles_unknown", "in_other_hands", "entropy_bits",
                            "counts_entropy_bits") if m in d.columns]
    g = d.groupby(cols + [x], sort=True, observed=True)[measures]
    mean, sem, n = g.mean(), g.sem(), g.size()
    z = z_value(confidence)
    out = pd.DataFrame({"n": n})
    for m in measures:
        out[m] = mean[m]
        out[f"{m}_ci_low"] = mean[m] - z * sem[m]
        out[f"{m}_ci_high"] = mean[m] + z * sem[m]
    return out[out["n"] >= min_count].reset_index()


# ------------------------------------------------------------------------------ (d) the luck
def _lineup_label(lineup: Any) -> str:
    if isinstance(lineup, str):
        return lineup
    return ",".join(x if isinstance(x, str) else getattr(x, "name", type(x).__name__)
                    for x in lineup)


def deal_replays(rules: Rules, lineups: Any, n_deals: int, seed: int = 0, *,
                 plays: int = 1, progress: bool | None = None) -> pd.DataFrame:
    """Play every deal of a run several times: once per line-up, and ``plays`` times each.

    Deal ``i`` is the shuffle of hand ``i`` of the run seeded ``seed`` (every hand and the boneyard
    order), the same for every line-up (duplicate deals). Play 0 of a line-up is hand ``i`` of
    :func:`dominosim.simulate` with that line-up; play ``p >= 1`` plays the same shuffle again
    with strategy streams keyed by ``(seed, i, p)`` (reference engine), so random strategies choose
    afresh while the deal stays.

    Parameters
    ----------
    rules : Rules
    lineups : list
        Line-ups (a strategy name for all seats, or one per seat); for duplicate deals, rotations of
        the same strategies.
    n_deals : int
    seed : int
    plays : int
        Plays of every deal per line-up.
    progress : bool, optional
        A progress bar over the hands played (a widget in Jupyter); by default for long runs
        in Jupyter or on a terminal (see :mod:`dominosim.progress`).

    Returns
    -------
    DataFrame
        One row per deal, line-up, play and side: ``deal``, ``lineup`` (its position),
        ``strategies`` (the line-up's names), ``play``, ``side``, ``score`` (1 win, 0 loss, a tie
        shared by the tied sides) and ``points`` (the points the side won).

    Examples
    --------
    >>> import dominosim as ds
    >>> r = deal_replays(ds.Rules.preset("block", players=2), ["random"], n_deals=3, seed=1, plays=2)
    >>> len(r), float(r.groupby(["deal", "play"])["score"].sum().min())
    (12, 1.0)
    """
    from .. import api

    if not isinstance(lineups, Sequence) or isinstance(lineups, str) or not lineups:
        raise refuse("lineups", "a non-empty list of line-ups", lineups)
    for name, value in (("n_deals", n_deals), ("plays", plays)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise refuse(name, "an integer of 1 or more", value)
    facts = Facts(rules.players, rules.partnerships)
    parts = []
    total = len(lineups) * plays * n_deals
    show = want_progress(progress, work=total, long=api.LONG_HANDS["reference"])
    with bar(total=total, desc="deal replays", show=show) as progress_bar:
        for j, lineup in enumerate(lineups):
            frames = _replays(rules, lineup, n_deals, seed, plays, progress_bar.update)
            for p, f in enumerate(frames):
                scores = side_scores(f, facts)
                winner = f["winning_side"].to_numpy().astype(np.int64)
                pts = f["points"].to_numpy().astype(float)
                for side in range(facts.n_sides):
                    parts.append(pd.DataFrame({
                        "deal": np.arange(n_deals), "lineup": j,
                        "strategies": _lineup_label(lineup), "play": p, "side": side,
                        "score": scores[:, side],
                        "points": np.where(winner == side, pts, 0.0)}))
    out = pd.concat(parts, ignore_index=True)
    return out.sort_values(["deal", "lineup", "play", "side"], kind="stable",
                           ignore_index=True)


def _replays(rules: Rules, lineup: Any, n_deals: int, seed: int, plays: int,
             tick: Any) -> list[pd.DataFrame]:
    """The records of every play of every deal with one line-up; ``tick(n)`` after ``n`` hands."""
    from .. import api
    from ..reference import deal, play_keyed
    from ..rng import hand_key, replay_key
    from ..strategies import resolve_lineup

    engine = "fast" if all(isinstance(s, str) for s in
                           ([lineup] if isinstance(lineup, str) else lineup)) else "reference"
    frames = [api.simulate(rules, lineup, n_deals, seed, engine=engine, progress=False)]
    tick(n_deals)
    resolved = resolve_lineup(rules, lineup)
    for p in range(1, plays):
        recs = []
        for i in range(n_deals):
            key = hand_key(seed, i)
            shuffle = deal(rules, key)[-1]
            log = play_keyed(rules, resolved, replay_key(key, p), seed, i,
                             deal_override=shuffle)
            recs.append(log.record)
            tick(1)
        frames.append(pd.DataFrame(recs))
    return frames


def _share(a: np.ndarray, b: np.ndarray, w: np.ndarray, n_deals: np.ndarray, r: int,
           k: int) -> np.ndarray:
    """The deal's share of the variance from sums over deals: ``a`` of squared group means, ``b``
    of group means (per side), ``w`` of within-group squares; arrays over leave-one-out cases."""
    ssb = r * (a - (b**2 / n_deals[:, None])).sum(axis=1)
    msb = ssb / (k * (n_deals - 1))
    msw = w / (k * n_deals * (r - 1))
    var_deal = (msb - msw) / r
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.stack([var_deal / (var_deal + msw), var_deal, msw])


def luck_share(data: pd.DataFrame, *, outcome: str = "score", groups: Any = None,
               confidence: float = 0.95) -> pd.DataFrame:
    """The share of the variance of a side's result that the deal explains (measure (d)).

    With ``R`` plays of each of ``D`` deals (every line-up and play of :func:`deal_replays`),
    ``Y[d, s, r]`` side ``s``'s result in play ``r`` of deal ``d``: the one-way random-effects
    analysis of variance with the deal as the random effect, pooled over the sides, estimates
    ``var_deal = sum_s Var(E[Y_s | deal])`` as ``(MSB - MSW) / R`` and ``var_play`` (what varies
    between plays of one deal: the line-up, the seating, the strategies' random choices) as
    ``MSW``; the share is ``var_deal / (var_deal + var_play)``. It is 1 when every play of a deal
    ends alike (the deal decides everything), about 0 when the deal tells nothing; sampling can
    push the estimate slightly below 0. Its interval is a normal one from the jackknife over deals.

    Parameters
    ----------
    data : DataFrame
        Columns ``deal``, ``side`` and ``outcome``, with the same number of rows (plays) for every
        deal and side; from :func:`deal_replays`.
    outcome : {'score', 'points'}
    groups : str or list of str, optional
        Label columns to keep apart (such as ``game`` and ``players``).
    confidence : float

    Returns
    -------
    DataFrame
        Group labels, ``outcome``, ``deals``, ``plays`` (per deal), ``share``, ``se``, ``ci_low``,
        ``ci_high``, ``var_deal``, ``var_play``.

    Examples
    --------
    Three deals played twice by two sides: side 0 wins the first deal both times, the second
    once, the third never. MSB = 1/2, MSW = 1/6, so var_deal = (1/2 - 1/6) / 2 = 1/6 = var_play.

    >>> import pandas as pd
    >>> d = pd.DataFrame({"deal": [0] * 4 + [1] * 4 + [2] * 4, "side": [0, 1] * 6,
    ...                   "score": [1, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0, 1]})
    >>> t = luck_share(d)
    >>> round(float(t.loc[0, "share"]), 12), round(float(t.loc[0, "var_deal"]), 12)
    (0.5, 0.166666666667)
    """
    check_choice("outcome", outcome, OUTCOMES)
    confidence = check_confidence(confidence)
    cols = [] if groups is None else [groups] if isinstance(groups, str) else list(groups)
    missing = [c for c in ["deal", "side", outcome, *cols] if c not in data.columns]
    if missing:
        raise refuse("data", "a frame with columns `deal`, `side` and the outcome (from "
                     "deal_replays)", f"a frame without {missing[0]!r}")
    rows = []
    for key, part in (data.groupby(cols, sort=True, observed=True) if cols else [((), data)]):
        key = key if isinstance(key, tuple) else (key,)
        labels = dict(zip(cols, key, strict=True))
        g = part.groupby(["deal", "side"], sort=True)[outcome]
        size = g.size()
        if size.nunique() != 1 or size.iloc[0] < 2:
            raise refuse("data", "the same number (2 or more) of plays of every deal and side",
                         f"between {size.min()} and {size.max()} plays")
        r = int(size.iloc[0])
        means = g.mean().unstack("side")
        within = (g.var(ddof=1) * (r - 1)).groupby(level="deal").sum().to_numpy()
        m = means.to_numpy()
        d, k = m.shape
        if d < 3:
            raise refuse("data", "plays of 3 or more deals", f"{d} deals")
        a, b = (m**2).sum(axis=0), m.sum(axis=0)
        full = _share(a[None], b[None], np.array([within.sum()]), np.array([d]), r, k)[:, 0]
        loo = _share(a[None] - m**2, b[None] - m, within.sum() - within, np.full(d, d - 1), r, k)
        se = math.sqrt((d - 1) / d * ((loo[0] - loo[0].mean()) ** 2).sum())
        z = z_value(confidence)
        rows.append({**labels, "outcome": outcome, "deals": d, "plays": r, "share": full[0],
                     "se": se, "ci_low": full[0] - z * se, "ci_high": full[0] + z * se,
                     "var_deal": full[1], "var_play": full[2]})
    return collect(rows, ["outcome", "deals", "plays", "share", "se", "ci_low", "ci_high",
                          "var_deal", "var_play"])


# -------------------------------------------------------------------- (c) and the whole table
def value_of_information(rules: Rules, honest: Any, omniscient: Any, n_deals: int,
                         seed: int = 0, *, engine: str = "fast", confidence: float = 0.95,
                         progress: bool | None = None) -> pd.DataFrame:
    """How much an omniscient strategy gains over its honest twin, on duplicate deals (measure (c)).

    The two play each other on every deal with the sides rotated (:func:`dominosim.compare`, A
    the omniscient one); the gain is the paired difference of their win rates (a tie shared) and
    of their points per hand. The built-in pairs are ``mc`` / ``mc_omniscient`` and ``ismcts`` /
    ``ismcts_omniscient`` (with a budget: ``"mc:50"`` / ``"mc_omniscient:50"``); any two
    strategies can be passed.

    Parameters
    ----------
    rules : Rules
    honest, omniscient : str or strategy
    n_deals : int
    seed : int
    engine : {'fast', 'reference'}
    confidence : float
    progress : bool, optional
        A progress bar (as :func:`dominosim.compare`).

    Returns
    -------
    DataFrame
        ``quantity`` ('win_rate_gain', 'points_gain'), ``estimate``, ``se``, ``ci_low``,
        ``ci_high``, ``n_deals``.

    Examples
    --------
    >>> import dominosim as ds
    >>> v = value_of_information(ds.Rules.preset("draw", players=2), "bully", "bully", 50, seed=1)
    >>> v["estimate"].tolist()     # a strategy gains nothing over itself
    [0.0, 0.0]
    """
    from ..duplicate import compare

    c = compare(rules, omniscient, honest, n_deals, seed, engine=engine, confidence=confidence,
                progress=progress)
    rows = []
    for name, q in (("win_rate_gain", "win_rate_diff"), ("points_gain", "points_diff")):
        row = c.row(q)
        rows.append({"quantity": name, "estimate": float(row.estimate), "se": float(row.se),
                     "ci_low": float(row.ci_low), "ci_high": float(row.ci_high),
                     "n_deals": int(row.n_deals)})
    return pd.DataFrame(rows)


def _summarise_turns(u: pd.DataFrame) -> dict[str, float]:
    firsts = u[u["turn"] == 0]
    lasts = u[u["turn"] == u["turns"] - 1]
    out = {"turns": float(u.groupby("hand").size().mean())}
    for m, short in (("tiles_unknown", "unknown"), ("entropy_bits", "entropy"),
                     ("counts_entropy_bits", "counts_entropy")):
        out[f"{short}_first"] = float(firsts[m].mean())
        out[f"{short}_mean"] = float(u[m].mean())
        out[f"{short}_last"] = float(lasts[m].mean())
    out["in_other_hands_mean"] = float(u["in_other_hands"].mean())
    return out


def block_draw_uncertainty(*, players: Sequence[int] = (2, 3, 4), n_hands: int = 200,
                           plays: int = 4, strategy: str = "random", seed: int = 0,
                           entropy: bool = True, overrides: dict | None = None,
                           voi: dict[str, str] | None = None, voi_deals: int = 2_000,
                           confidence: float = 0.95,
                           progress: bool | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The Block against Draw uncertainty table: measures (a), (b), (d) and optionally (c).

    Block and Draw are compared like with like: the seed presets ``block`` and ``draw`` on the
    double-six set in individual play (``partnerships=False`` at four players, where the Block
    preset would pair the seats), with their own hand sizes (Block 8, 6, 6 and Draw 7, 5, 4 tiles
    at 2, 3, 4 players), every seat playing ``strategy``. Hands ``0 .. n_hands - 1`` of ``seed``
    are replayed for (a) and (b); each of them is played ``plays`` times for (d).

    Parameters
    ----------
    players : list of int
        Player counts.
    n_hands : int
        Hands per game and player count.
    plays : int
        Plays of every deal for the share of luck (2 or more).
    strategy : str
        The strategy of every seat.
    seed : int
    entropy : bool
        Count hidden histories (measure (b)).
    overrides : dict, optional
        Rule fields to change in both games (for example ``{"max_pip": 3, "hand_size": 3}``).
    voi : dict, optional
        ``{honest: omniscient}`` strategy pairs for measure (c), played on ``voi_deals`` deals.
    voi_deals : int
    confidence : float
    progress : bool, optional
        A progress bar over the table's rows (a widget in Jupyter); by default for long runs
        in Jupyter or on a terminal (see :mod:`dominosim.progress`).

    Returns
    -------
    table : DataFrame
        One row per game and player count: ``game``, ``players``, ``hand_size``, ``hands``,
        ``turns`` (per hand); ``unknown_first``, ``unknown_mean``, ``unknown_last`` (tiles unknown
        to the seat to move at the first turn, over all turns, at the last turn) and
        ``in_other_hands_mean``; the same for ``entropy`` and ``counts_entropy`` (bits);
        ``luck_share`` with ``luck_ci_low``, ``luck_ci_high`` (of the score) and
        ``luck_share_points``; with ``voi``, ``voi_<honest>`` and its ``_ci_low``, ``_ci_high``
        (the win-rate gain).
    turns : DataFrame
        Every turn of every hand (:func:`hand_uncertainty`) with ``game`` and ``players``, for
        :func:`uncertainty_profile` and :func:`dominosim.plots.uncertainty`.

    Examples
    --------
    >>> table, turns = block_draw_uncertainty(players=[2], n_hands=10, plays=2,
    ...                                       overrides={"max_pip": 3, "hand_size": 3})
    >>> table[["game", "players", "hand_size", "hands"]].values.tolist()
    [['block', 2, 3, 10], ['draw', 2, 3, 10]]
    """
    from .. import api

    confidence = check_confidence(confidence)
    rows, turn_frames = [], []
    work = len(players) * 2 * n_hands * (1 + plays) + (len(voi or {}) * voi_deals * 2)
    show = want_progress(progress, work=work, long=api.LONG_HANDS["reference"])
    with bar(total=len(players) * 2, desc="block vs draw", unit="row", unit_scale=False,
             show=show) as progress_bar:
        for p in players:
            for game in ("block", "draw"):
                progress_bar.set_postfix_str(f"{game} {p}p", refresh=True)
                rows.append(_uncertainty_row(game, p, n_hands, plays, strategy, seed, entropy,
                                             overrides, voi, voi_deals, confidence, turn_frames))
                progress_bar.update(1)
    turns = pd.concat(turn_frames, ignore_index=True)
    return pd.DataFrame(rows), turns


def _uncertainty_row(game: str, p: int, n_hands: int, plays: int, strategy: str, seed: int,
                     entropy: bool, overrides: dict | None, voi: dict[str, str] | None,
                     voi_deals: int, confidence: float, turn_frames: list) -> dict[str, Any]:
    """One row of :func:`block_draw_uncertainty`; its turns are appended to ``turn_frames``."""
    from .. import api

    rules = Rules.preset(game, players=p, partnerships=False, **(overrides or {}))
    logs = [api.replay(rules, strategy, seed, hand=i) for i in range(n_hands)]
    u = hand_uncertainty(logs, entropy=entropy)
    turn_frames.append(u.assign(game=game, players=p))
    row = {"game": game, "players": p, "hand_size": rules.hand_size, "hands": n_hands,
           **_summarise_turns(u)}
    replays = deal_replays(rules, [strategy], n_hands, seed, plays=plays, progress=False)
    luck = luck_share(replays, confidence=confidence).iloc[0]
    row.update(luck_share=luck["share"], luck_ci_low=luck["ci_low"],
               luck_ci_high=luck["ci_high"],
               luck_share_points=luck_share(replays, outcome="points").loc[0, "share"])
    for honest, omniscient in (voi or {}).items():
        v = value_of_information(rules, honest, omniscient, voi_deals, seed,
                                 confidence=confidence, progress=False).iloc[0]
        row.update({f"voi_{honest}": v["estimate"], f"voi_{honest}_ci_low": v["ci_low"],
                    f"voi_{honest}_ci_high": v["ci_high"]})
    return row
