"""Block against Draw, played: how much a seat does not know, and how much of the outcome the deal decides.

The seed texts claim that the Block game, where some tiles sleep for ever, is more uncertain, and
that the Draw game, where every tile may come into play, lets players deduce more. Three measures:

(a) **Unknown tiles** (:func:`hand_uncertainty`, ``tiles_unknown``): at the start of each turn
    (before any draw), the tiles the seat to move cannot see: every other hand and the boneyard,
    that is the set size less its own hand and the tiles on the table. Also split into
    ``in_other_hands`` and ``sleeping``.
(b) **Entropy** (``entropy_bits``): ``log2`` of the number of hidden histories consistent with
    everything the seat to move has seen (:func:`dominosim.strategies.sampler.count_consistent`: the other
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

from ..analysis.common import Facts, collect, side_scores
from ..analysis.uncertainty import luck_share
from ..checks import check_choice, check_confidence, check_fraction, refuse
from ..progress import bar, want_progress
from ..reference.game import GameState, opens_with_double
from ..reference.hand import HandLog
from ..rules import Rules
from ..stats import side_shares
from ..strategies.sampler import count_consistent
from ..strategies.view import view_of

UNCERTAINTY_COLUMNS = ["turn", "turns", "progress", "seat", "tiles_unknown", "in_other_hands",
                       "sleeping", "entropy_bits", "counts_entropy_bits"]



# --------------------------------------------------------------------------- (a), (b) per turn
def _turn_states(log: HandLog) -> Iterable[GameState]:
    """The game state at the start of every turn after the opening, rebuilt from the log."""
    rules = log.rules
    hands, boneyard = log.deals[-1]
    state = GameState.from_deal(rules, [list(h) for h in hands], list(boneyard))
    events = [e for e in log.events if e.kind != "end"]
    if opens_with_double(rules):
        state.open_with_highest_double()
    else:
        state.lead(events[0].move)
    new_turn = True
    for e in events[1:]:
        if new_turn:
            yield state
        if e.kind == "play":
            state.play(e.seat, e.move)
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
    rows: list[dict[str, Any]] = []
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
    from . import play as api

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
    from ..reference.hand import deal, play_keyed
    from ..rng import hand_key, replay_key
    from ..strategies.lineup import resolve_lineup
    from ..strategies.weighted import player_of
    from . import play as api

    engine = "fast" if all(isinstance(s, str) or player_of(s) is not None for s in
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
    from .duplicate import compare

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
    from . import play as api

    confidence = check_confidence(confidence)
    rows: list[dict[str, Any]] = []
    turn_frames: list[pd.DataFrame] = []
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
    from . import play as api

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


def perfect_information_ceiling(rules: Rules, seed: int = 0, *, pimc: str = "pimc:10",
                                sides: str = "max_n", precision: float = 0.02, batch: int = 500,
                                max_deals: int = 20_000, confidence: float = 0.95,
                                progress: bool | None = None) -> pd.DataFrame:
    """The opener's side's result when every tile is known and every seat plays perfectly
    (:func:`dominosim.solve` of the deal), beside its result when every seat plays ``pimc``
    (the same solver on sampled worlds of what it can see), deal by deal.

    Deal ``h`` is the deal of hand ``h`` of the run seeded ``seed`` (both engines deal it so);
    its perfect-information value is the ``win`` value (1 a win, 0 a loss, a tie shared equally by
    the tied sides) of the position before the opening, for the opener's side, with the boneyard's
    order known and the sides playing as ``sides`` says (:func:`dominosim.solve`: ``'max_n'``, each
    side for itself, or ``'coalition'``, the others together against the opener's side; the same
    with two sides); its ``pimc`` value is the same side's share of that hand played by ``pimc``
    at every seat. The gap
    (solve minus pimc, paired by deal) is what hidden tiles cost a player who reasons perfectly
    from what it sees. Deals are added ``batch`` at a time until every interval is within
    ``+-precision`` (or ``max_deals`` are played).

    Returns
    -------
    DataFrame
        ``quantity`` ('solve', 'pimc', 'gap'), ``estimate``, ``se``, ``ci_low``, ``ci_high``,
        ``n_deals``.

    Examples
    --------
    >>> import dominosim as ds
    >>> rules = ds.Rules.preset("block", players=2, max_pip=3, hand_size=3)
    >>> t = perfect_information_ceiling(rules, seed=1, pimc="pimc:4", precision=0.2, batch=50)
    >>> t["quantity"].tolist(), bool((t["ci_high"] - t["estimate"] <= 0.2).all())
    (['solve', 'pimc', 'gap'], True)
    """
    from scipy.stats import norm

    from ..reference.hand import deal
    from ..rng import hand_key
    from ..solver import Position, solve
    from ..solver.solve import SIDES
    from .play import check_count, check_rules, simulate

    rules = check_rules(rules)
    check_choice("sides", sides, SIDES)
    check_count("batch", batch, low=2)
    check_count("max_deals", max_deals, low=batch)
    confidence = check_confidence(confidence)
    precision = check_fraction("precision", precision, "the widest half-width, such as 0.02")
    z = float(norm.ppf(0.5 + confidence / 2))
    solved: list[float] = []
    played: list[float] = []
    show = want_progress(progress, work=max_deals, long=1_000)
    with bar(total=max_deals, desc="ceiling", unit="deal", show=show) as shown:
        while len(solved) < max_deals:
            start = len(solved)
            for h in range(start, start + batch):
                hands, boneyard = deal(rules, hand_key(seed, h))[-1]
                position = Position.from_deal(rules, hands, boneyard)
                solved.append(float(solve(position, sides=sides).value))
            hands_df = simulate(rules, pimc, n_hands=batch, seed=seed, start=start)
            assert isinstance(hands_df, pd.DataFrame)  # keep="rows"
            side = hands_df["opener"].map(rules.side_of).to_numpy()
            shares = side_shares(hands_df, rules.players, rules.partnerships)
            played += shares[np.arange(len(side)), side].tolist()
            shown.update(batch)
            table = _ceiling_table(np.array(solved), np.array(played), z)
            if (table["ci_high"] - table["estimate"] <= precision).all():
                break
    return table


def _ceiling_table(solved: np.ndarray, played: np.ndarray, z: float) -> pd.DataFrame:
    rows = []
    for name, x in (("solve", solved), ("pimc", played), ("gap", solved - played)):
        se = float(x.std(ddof=1) / math.sqrt(len(x)))
        mean = float(x.mean())
        rows.append({"quantity": name, "estimate": mean, "se": se, "ci_low": mean - z * se,
                     "ci_high": mean + z * se, "n_deals": len(x)})
    return pd.DataFrame(rows)
