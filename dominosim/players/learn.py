"""Learning a player from a teacher's move values, by expert iteration.

:func:`learn` plays hands with a line-up, labels every decision met (two or more legal moves) with
a teacher's value of each legal move, and fits a linear model of the decision features
(:data:`~dominosim.strategies.features.FEATURES`) with scikit-learn. The model is a weighted sum of
the features, so the learned player is a :class:`~dominosim.strategies.weighted.Weighted`: its
weights travel as arrays into the compiled kernel, with no Python call per decision, and it is
saved and loaded like a tuned player. Then it repeats with the learned player at every seat
generating the next round's positions (expert iteration: the teacher corrects the moves the
learner actually meets), fitting on every round's positions so far, while the new player's
measured edge improves.

The teachers
------------
``"solve"`` (the default)
    The perfect-information solver (:func:`dominosim.solve`'s search, objective *win, then
    points*) on the real deal: every hidden tile and the boneyard's order as they are in the hand
    being played. One solve per decision, so a Block double-six 4p decision costs milliseconds to
    a few hundredths of a second. A single solve of the real deal knows too much for one decision,
    but the model only sees the features (what the seat can see), so the least-squares fit
    estimates the mean of these values over the hidden deals that agree with what the seat saw,
    weighted as they really occur in play: what ``pimc`` estimates by sampling worlds per decision,
    here sampled once per decision and averaged by the fit across decisions. That makes it about
    fifty times cheaper than ``"pimc:50"`` per labelled decision (``pimc:50`` takes about a second
    and a half per early Block 4p decision), which is what lets :func:`learn` label tens of
    thousands of decisions per round and finish within half an hour on two cores.
``"pimc:N"``
    :func:`dominosim.analyze` with ``method='pimc'`` and a budget of ``N`` worlds: the values of
    the moves from the seat's own view (hidden tiles sampled). Slower, and what the ``pimc``
    player would play.
``"imitate:S"``
    Imitation: the strategy ``S`` (any strategy name a line-up takes, a search such as
    ``"ismcts:1000"`` above all) is asked at each decision, from the seat's view and on a stream
    of its own, and the move it plays is the target (1, the other moves 0; ``win`` and
    ``points`` are NaN). No values, only choices, but cheap: ``ismcts:1000`` makes a Block 4p
    decision in about 1.5 ms, and imitating it fitted the strongest learned players measured
    (``benchmarks/README.md``, "A small MLP inside the kernel" and "``ds.learn`` imitating a
    search": six minutes on two cores for a player 0.06 to 0.07 stronger than the shipped
    ``learned`` head to head).

A value teacher's target for a move is ``win + points / (2 * P)``, ``win`` the teacher's win value (1, 1/2, 0) and
``points`` its points (negative when the side loses), ``P`` the pips of the whole set: winning
first, then by more. Only the differences between the moves of one decision matter to a player, so
the features and targets are centred within each decision before the fit (a ridge regression
without intercept on standardised columns); the features that are the same for every move
(:data:`~dominosim.strategies.features.CONTEXT`), and the partner's without partnerships, keep
weight 0.

The models
----------
``"linear"`` (the default)
    The ridge regression above: a :class:`~dominosim.strategies.weighted.Weighted` player.
``"mlp"``
    A small neural network (scikit-learn's ``MLPRegressor``: one hidden layer of ``hidden`` ReLU
    units, L2 penalty :data:`MLP_PENALTY`, early stopping on a tenth of the moves) of the
    standardised features, the context ones included (a hidden unit can weigh a move's features
    differently by the tiles left or the boneyard), fitted to the targets centred within each
    decision (what tells the moves apart, as for the linear model); the standardisation is folded
    into the first layer, so the player is an :class:`~dominosim.strategies.weighted.MLP` of the
    raw features, scored inside the compiled kernel like the linear player.
"""

from __future__ import annotations

import copy
import threading
import time
import warnings
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..checks import check_choice, check_jobs, refuse
from ..fast.players.weighted import MAX_HIDDEN
from ..progress import bar, want_progress
from ..reference.game import Move
from ..rng import Stream, check_seed
from ..rules import Rules, check_rules
from ..simulation.duplicate import compare
from ..simulation.play import replay
from ..solver.position import Position
from ..strategies.features import CONTEXT, FEATURE_NAMES, move_features
from ..strategies.lineup import resolve_lineup
from ..strategies.styles import Strategy
from ..strategies.view import view_of
from ..strategies.weighted import MLP, Weighted
from ..tiles import tile_id
from .tune import MAX_DEALS, full_vector, seed_of, tuned_features, unit_scaled

DOMAIN_LEARN = 0x5C3A1E94D7B20F63
"""The random domain of the hands :func:`learn` plays and of its teacher's samples."""
TEACHERS = ("solve", "pimc:N", "imitate:S")
"""The teachers :func:`learn` takes: the perfect-information solver on the real deal,
:func:`dominosim.analyze`'s ``pimc`` with ``N`` worlds, or the moves strategy ``S`` plays."""
IMITATE = "imitate:"
"""The prefix of an imitation teacher (``"imitate:S"``)."""
_ALLOWED = "'solve', 'pimc:N' with N a positive integer, or 'imitate:S' with S a strategy name"
TABLE_BITS = 20
"""The solver's table (``2**TABLE_BITS`` positions, 16 MB per thread) for the ``"solve"`` teacher."""
MAX_HANDS_PER_POSITION = 100
"""Hands played per decision asked for before :func:`learn` gives up on rules with too few."""
MAX_NODES = 200_000_000
"""The most nodes one teacher's solve may take (as :func:`dominosim.solve`'s default)."""
MODELS = ("linear", "mlp")
"""The models :func:`learn` fits (see :mod:`dominosim.players.learn`)."""
MLP_PENALTY = 1e-3
"""The L2 penalty of the ``"mlp"`` model's fit (scikit-learn's ``alpha``, on standardised
features)."""
MLP_EPOCHS = 300
"""The most passes of the ``"mlp"`` model's fit over the moves (it stops earlier when a tenth of
the moves held out stops improving)."""


@dataclass
class Learning:
    """What :func:`learn` returns.

    Attributes
    ----------
    player : Weighted
        The learned player: the best round's (its metadata say how it was fitted).
    weights : pandas.Series
        Its weights by feature name, scaled so that the largest in size is 1 (an ``"mlp"``
        player's linear part: 0; its hidden layer is ``player.hidden``, ``.bias``, ``.output``).
    rounds : pandas.DataFrame
        By round: ``positions`` labelled in the round and ``total`` so far, ``generated_by`` (the
        line-up that played the round's hands), ``edge``, ``ci_low``, ``ci_high`` (the round's
        player against ``against``: paired win-rate difference and its 95% interval, on the same
        duplicate deals every round), ``seconds`` and ``best`` (the round returned).
    positions : pandas.DataFrame
        Every labelled move: ``round``, ``hand``, ``decision`` (its number in the round), ``seat``,
        ``tile`` (id), ``suit``, the features, ``win``, ``points`` (NaN under an
        ``"imitate:S"`` teacher) and ``target``.
    seconds : float
        Wall time.
    """

    player: Weighted
    weights: pd.Series
    rounds: pd.DataFrame
    positions: pd.DataFrame = field(repr=False)
    seconds: float = 0.0


def check_teacher(teacher: Any) -> int | str:
    """The worlds of a ``"pimc:N"`` teacher, 0 for ``"solve"``, or the strategy name ``S`` of an
    ``"imitate:S"`` teacher; refuses anything else (:func:`teacher_for` also resolves ``S``).

    >>> check_teacher("solve"), check_teacher("pimc:50"), check_teacher("imitate:ismcts:1000")
    (0, 50, 'ismcts:1000')
    >>> check_teacher("pimc")
    Traceback (most recent call last):
    ...
    ValueError: The value for `teacher` must be 'solve', 'pimc:N' with N a positive integer, or 'imitate:S' with S a strategy name, but 'pimc' was passed.
    """
    if teacher == "solve":
        return 0
    if isinstance(teacher, str) and teacher.startswith("pimc:") and teacher[5:].isdigit() \
            and 0 < int(teacher[5:]) <= 1_000_000:
        return int(teacher[5:])
    if isinstance(teacher, str) and teacher.startswith(IMITATE) and teacher != IMITATE:
        return teacher[len(IMITATE):]
    raise ValueError(f"The value for `teacher` must be {_ALLOWED}, but {teacher!r} was passed.")


def teacher_for(teacher: Any, rules: Rules) -> int | Strategy:
    """What labels the moves under ``rules``: a value teacher's worlds (:func:`check_teacher`),
    or the strategy an ``"imitate:S"`` teacher imitates, refused in one line if it cannot play
    ``rules``.
    """
    spec = check_teacher(teacher)
    if isinstance(spec, int):
        return spec
    try:
        return resolve_lineup(rules, spec)[0]
    except ValueError as error:
        raise ValueError(f"The value for `teacher` must be {_ALLOWED}, but {teacher!r} was "
                         f"passed ({error})") from None


def decision_points(rules: Rules, lineup: Any, seed: int, hand: int) -> list[Position]:
    """The positions of hand ``hand`` (run ``seed``, played by ``lineup``) where the seat to move
    chooses among two or more legal moves (not the lead under ``opening='any'``).
    """
    log = replay(rules, lineup, seed, hand, engine="reference")
    found = []
    for k, event in enumerate(log.events):
        if event.kind == "play" and event.suit >= 0:
            position = log.position(k)
            if len(position.legal_moves()) >= 2:
                found.append(position)
    return found


def _values(position: Position, moves: list[Move], worlds: int, seed: int) -> np.ndarray:
    """A value teacher's ``(win, points)`` of each move, shape (moves, 2)."""
    if worlds == 0:
        from ..fast.search.solve import win_and_points
        from ..solver.solve import solve_state

        raw, _ = solve_state(position.state, moves, "win_points", MAX_NODES, TABLE_BITS)
        win, points = win_and_points.py_func(np.asarray(raw, dtype=np.int64))
        return np.stack([win / 2.0, points], axis=1)
    from ..solver.analyze import analyze

    table = analyze(position, method="pimc", budget=worlds, seed=seed, n_jobs=1, progress=False)
    at = {(tuple(t), int(s)): i for i, (t, s) in enumerate(zip(table["tile"], table["suit"],
                                                               strict=True))}
    rows = [at[(tuple(m.tile), m.suit)] for m in moves]
    return table[["win", "points"]].to_numpy(dtype=np.float64)[rows]


def _played(position: Position, moves: list[Move], strategy: Strategy, seed: int) -> np.ndarray:
    """1 for the move ``strategy`` plays at ``position`` (on the stream ``seed``), 0 for the rest."""
    seat = position.to_move
    view = view_of(position.state, seat, omniscient=getattr(strategy, "omniscient", False) is True,
                   to_move=seat)
    move = strategy.choose(view, moves, Stream(seed))
    return np.array([1.0 if m == move else 0.0 for m in moves])


def _label(position: Position, teacher: int | Strategy, seed: int, scale: float) -> np.ndarray:
    """One row per legal move: seat, tile id, suit, the features, win, points, target.

    ``teacher`` is the worlds of a value teacher (0: the solver), or the strategy imitated.
    """
    moves = position.legal_moves()
    view = position.view(position.to_move)
    if isinstance(teacher, int):
        win, points = _values(position, moves, teacher, seed).T
        targets = np.stack([win, points, win + points / scale], axis=1)
    else:
        chosen = _played(position, moves, teacher, seed)
        targets = np.stack([np.full_like(chosen, np.nan), np.full_like(chosen, np.nan), chosen],
                           axis=1)
    rows = []
    for move, values in zip(moves, targets, strict=True):
        head = [position.to_move, tile_id(move.tile), move.suit]
        rows.append(np.concatenate([head, move_features(view, move), values]))
    return np.array(rows)


def label_positions(rules: Rules, lineup: Any, teacher: str, n: int, seed: int,
                    n_jobs: int, tick: Callable[[int], None]) -> pd.DataFrame:
    """Label the first ``n`` decisions met in the hands of run ``seed`` played by ``lineup``."""
    how = teacher_for(teacher, rules)
    scale = 2.0 * rules.max_pip * (rules.max_pip + 1) * (rules.max_pip + 2) / 2
    positions: list[tuple[int, Position]] = []
    hand = 0
    while len(positions) < n:
        if hand >= MAX_HANDS_PER_POSITION * n + 1000:
            raise ValueError(f"The value for `rules` must give decisions (two or more legal "
                             f"moves) to learn from, but {hand:,} hands met only "
                             f"{len(positions):,} of the {n:,} asked for.")
        positions += [(hand, p) for p in decision_points(rules, lineup, seed, hand)]
        hand += 1
    positions = positions[:n]

    mine = threading.local()

    def asked() -> int | Strategy:
        """``how``, or this thread's copy of the imitated strategy: a search object serves one
        decision at a time (its lock), so threads sharing one would take turns.
        """
        if isinstance(how, int):
            return how
        if not hasattr(mine, "teacher"):
            mine.teacher = copy.copy(how)
        return mine.teacher

    def one(i: int) -> np.ndarray:
        rows = _label(positions[i][1], asked(), seed_of(seed, DOMAIN_LEARN, 7, i), scale)
        tick(1)
        return np.column_stack([np.full(len(rows), positions[i][0]), np.full(len(rows), i), rows])

    with ThreadPoolExecutor(max_workers=n_jobs) as pool:
        parts = list(pool.map(one, range(len(positions))))
    columns = ["hand", "decision", "seat", "tile", "suit", *FEATURE_NAMES, "win", "points",
               "target"]
    frame = pd.DataFrame(np.concatenate(parts) if parts else np.zeros((0, len(columns))),
                         columns=columns)
    for name in ("hand", "decision", "seat", "tile", "suit"):
        frame[name] = frame[name].astype(np.int64)
    return frame


def fit_weights(rules: Rules, data: pd.DataFrame, alpha: float = 1.0) -> np.ndarray:
    """The linear model's weights (full feature vector, the largest in size 1): a ridge regression
    of the targets on the features, both centred within each decision.

    >>> import pandas as pd
    >>> rules = Rules.preset("block", players=2)
    >>> rows = pd.DataFrame({"round": 0, "decision": [0, 0, 1, 1], "target": [1.0, 0, 0, 1],
    ...                      **{n: 0.0 for n in FEATURE_NAMES}})
    >>> rows["pips"] = [5.0, 2.0, 1.0, 6.0]
    >>> w = fit_weights(rules, rows)
    >>> float(w[FEATURE_NAMES.index("pips")])
    1.0
    """
    from sklearn.linear_model import Ridge

    x, y = centred(rules, data)
    spread = x.std(axis=0)
    spread[spread == 0] = 1.0
    model = Ridge(alpha=alpha, fit_intercept=False).fit(x / spread, y)
    return unit_scaled(full_vector(rules, model.coef_ / spread))


def centred(rules: Rules, data: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """The fitted features (:func:`~dominosim.players.tune.tuned_features`, one column each) and
    the targets of labelled moves, each less its mean over the moves of the move's decision
    (``round`` and ``decision``): what tells a decision's moves apart.
    """
    names = list(tuned_features(rules))
    groups = data.groupby(["round", "decision"], sort=False)
    x = data[names].to_numpy(dtype=np.float64) - groups[names].transform("mean").to_numpy()
    y = data["target"].to_numpy(dtype=np.float64) - groups["target"].transform("mean").to_numpy()
    return x, y


def mlp_features(rules: Rules) -> tuple[str, ...]:
    """The features the ``"mlp"`` model reads for ``rules``: every feature but the partner's
    without partnerships (the context ones included).

    >>> len(mlp_features(Rules.preset("draw", players=2))), len(FEATURE_NAMES)
    (19, 22)
    """
    return tuple(n for n in FEATURE_NAMES if n in tuned_features(rules) or n in CONTEXT)


def fit_mlp(rules: Rules, data: pd.DataFrame, hidden: int = 32, seed: int = 0) -> tuple[
        np.ndarray, np.ndarray, np.ndarray]:
    """The ``"mlp"`` model's hidden layer ``(hidden, bias, output)`` over the raw features (as
    :class:`~dominosim.strategies.weighted.MLP` takes it): scikit-learn's ``MLPRegressor`` (one
    hidden layer of ``hidden`` ReLU units, penalty :data:`MLP_PENALTY`, at most
    :data:`MLP_EPOCHS` epochs with early stopping, seeded
    by ``seed``) of the targets centred within each decision on the standardised features
    (:func:`mlp_features`), the standardisation folded into the hidden weights and biases. The
    network's own output bias is dropped: it is the same for every move.

    >>> import pandas as pd
    >>> rules = Rules.preset("block", players=2)
    >>> rng = np.random.default_rng(0)
    >>> rows = pd.DataFrame(rng.integers(0, 4, (400, len(FEATURE_NAMES))), columns=FEATURE_NAMES)
    >>> rows["round"], rows["decision"] = 0, np.arange(400) // 4
    >>> rows["target"] = np.maximum(rows["pips"] - 1, 0) - rows["keep_suit"]
    >>> hidden, bias, output = fit_mlp(rules, rows, hidden=8)
    >>> hidden.shape, bias.shape, output.shape
    ((8, 22), (8,), (8,))
    """
    from sklearn.neural_network import MLPRegressor

    groups = data.groupby(["round", "decision"], sort=False)
    y = data["target"].to_numpy(dtype=np.float64) - groups["target"].transform("mean").to_numpy()
    model = MLPRegressor(hidden_layer_sizes=(hidden,), alpha=MLP_PENALTY, max_iter=MLP_EPOCHS,
                         early_stopping=True, random_state=seed)
    return fit_network(model, data, y, mlp_features(rules))


def fit_network(model: Any, data: pd.DataFrame, y: np.ndarray,
                names: Sequence[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Fit a scikit-learn network of one hidden layer (an ``MLPRegressor``, or an
    ``MLPClassifier`` of two classes) to ``y`` on the standardised columns ``names`` of ``data``,
    and return its hidden layer ``(hidden, bias, output)`` over the raw features, as
    :class:`~dominosim.strategies.weighted.MLP` takes it: the standardisation folded into the
    hidden weights and biases, the network's own output bias dropped (the same for every move).
    Stopping at the model's ``max_iter`` is not a fault (the epochs are a budget).
    """
    from sklearn.exceptions import ConvergenceWarning

    x = data[list(names)].to_numpy(dtype=np.float64)
    mean, spread = x.mean(axis=0), x.std(axis=0)
    spread[spread == 0] = 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit((x - mean) / spread, y)
    inner = model.coefs_[0] / spread[:, None]  # features x units, on the raw features
    full = np.zeros((inner.shape[1], len(FEATURE_NAMES)))
    for j, name in enumerate(names):
        full[:, FEATURE_NAMES.index(name)] = inner[j]
    bias = model.intercepts_[0] - mean @ inner
    return full, bias, model.coefs_[1][:, 0].copy()


def fit_player(rules: Rules, data: pd.DataFrame, model: str, alpha: float, hidden: int,
               seed: int, name: str) -> Weighted:
    """The player of ``model`` (``"linear"`` or ``"mlp"``) fitted to the labelled moves."""
    if model == "mlp":
        return MLP(rules, *fit_mlp(rules, data, hidden, seed), name=name)
    return Weighted(rules, dict(zip(FEATURE_NAMES, fit_weights(rules, data, alpha), strict=True)),
                    name=name)


def _check(rules: Any, positions: Any, rounds: Any, eval_deals: Any, alpha: Any) -> None:
    check_rules(rules)
    for name, value, low, high in (("positions", positions, 10, MAX_DEALS),
                                   ("rounds", rounds, 1, 1000),
                                   ("eval_deals", eval_deals, 10, MAX_DEALS)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) \
                or not low <= value <= high:
            raise ValueError(f"The value for `{name}` must be an integer from {low} to {high:,}, "
                             f"but {value!r} was passed.")
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not 0 < alpha < 1e300:
        raise ValueError(f"The value for `alpha` must be a positive number below 1e300, but "
                         f"{alpha!r} was passed.")


def _method(model: str, imitating: bool) -> str:
    """The player's metadata ``method``: how it was fitted."""
    what = ("the move the teacher plays (1, the others 0)" if imitating
            else "the teacher's move values")
    if model == "linear":
        return (f"expert iteration; ridge regression (scikit-learn) of {what} on the features, "
                "centred within each decision")
    return (f"expert iteration; MLPRegressor (scikit-learn, one hidden layer of ReLU units) of "
            f"{what}, centred within each decision, on the standardised features")


def learn(rules: Rules, teacher: str = "solve", *, positions: int = 20_000, rounds: int = 4,
          start: Any = "tuned", against: Any = "tuned", eval_deals: int = 2000,
          alpha: float = 1.0, model: str = "linear", hidden: int = 32, seed: int = 0,
          name: str = "learned", n_jobs: int | None = None,
          progress: bool | None = None) -> Learning:
    """Fit a player to a teacher's move values, by expert iteration.

    Parameters
    ----------
    rules : Rules
        The rules to learn (the player refuses any other).
    teacher : str
        ``"solve"`` (the perfect-information solver on the real deal, the default: the cheapest
        teacher of values, see :mod:`dominosim.players.learn`), ``"pimc:N"``
        (:func:`dominosim.analyze` with ``N`` worlds, from the seat's view), or ``"imitate:S"``
        (the move strategy ``S`` plays is the target: ``"imitate:ismcts:1000"`` imitates a
        search).
    positions : int
        Decisions to label per round (every legal move of each is labelled).
    rounds : int
        The most rounds. Round 0's hands are played by ``start``; each later round's by the
        player the previous round fitted, at every seat. It stops early when a round's player
        does not beat the best so far against ``against``.
    start : strategy
        The line-up that plays round 0's hands (a name, a weighted player, one per seat).
    against : strategy
        Who every round's player is measured against (``ds.compare``, ``eval_deals`` duplicate
        deals, the same deals each round).
    eval_deals : int
        Duplicate deals of each round's measurement.
    alpha : float
        The ridge penalty (on standardised features) of the ``"linear"`` model.
    model : {"linear", "mlp"}
        A weighted sum of the features (:class:`~dominosim.strategies.weighted.Weighted`), or a
        small neural network of them (:class:`~dominosim.strategies.weighted.MLP`, one hidden
        layer of ``hidden`` ReLU units), both played inside the compiled kernel.
    hidden : int
        The ``"mlp"`` model's hidden units (1 to 64).
    seed : int
        Seeds the hands, the teacher's samples and the measurement; the same seed and arguments
        give the same player.
    name : str
        The player's name.
    n_jobs : int, optional
        Threads labelling positions and playing the measurement (None or -1: every core numba
        may use, as everywhere in dominosim).
    progress : bool, optional
        A progress bar over the labelled decisions.

    Returns
    -------
    Learning
        ``.player`` (a :class:`~dominosim.strategies.weighted.Weighted`, or an
        :class:`~dominosim.strategies.weighted.MLP`), ``.weights``,
        ``.rounds`` (each round's strength), ``.positions`` (the labelled moves).

    Examples
    --------
    >>> import dominosim as ds
    >>> small = ds.Rules.preset("block", players=2, max_pip=3, hand_size=3)
    >>> fit = ds.learn(small, positions=40, rounds=2, eval_deals=50, seed=1, progress=False)
    >>> list(fit.rounds.columns[:3]), fit.player.metadata["teacher"]
    (['round', 'positions', 'total'], 'solve')
    >>> net = ds.learn(small, positions=40, rounds=1, eval_deals=50, model="mlp", hidden=4,
    ...                seed=1, progress=False)
    >>> net.player
    MLP(Rules.preset('block', players=2, max_pip=3, hand_size=3), 4 hidden units, name='learned')
    """
    _check(rules, positions, rounds, eval_deals, alpha)
    check_choice("model", model, MODELS)
    if isinstance(hidden, bool) or not isinstance(hidden, (int, np.integer)) \
            or not 1 <= hidden <= MAX_HIDDEN:
        raise refuse("hidden", f"an integer from 1 to {MAX_HIDDEN}", hidden)
    imitating = not isinstance(teacher_for(teacher, rules), int)
    check_seed(seed)
    if not isinstance(name, str) or not name:
        raise ValueError(f"The value for `name` must be a non-empty string, but {name!r} was "
                         "passed.")
    threads = check_jobs(n_jobs)
    started = time.perf_counter()
    eval_seed = seed_of(seed, DOMAIN_LEARN, 3)
    data, rows, lineup = pd.DataFrame(), [], start
    best: tuple[float, Weighted | None] = (-np.inf, None)
    show = want_progress(progress, work=positions * rounds, long=1000)
    with bar(total=positions * rounds, desc=f"learn {name}", unit="decision",
             show=show) as progress_bar:
        for r in range(rounds):
            t0 = time.perf_counter()
            labelled = label_positions(rules, lineup, teacher, positions,
                                       seed_of(seed, DOMAIN_LEARN, 1, r), threads,
                                       progress_bar.update)
            labelled.insert(0, "round", r)
            data = pd.concat([data, labelled], ignore_index=True)
            player = fit_player(rules, data, model, alpha, hidden,
                                seed_of(seed, DOMAIN_LEARN, 5, r) % 2**32, name)
            row = compare(rules, player, against, eval_deals, eval_seed, n_jobs=n_jobs,
                          progress=False).row("win_rate_diff")
            rows.append({"round": r, "positions": positions, "total": (r + 1) * positions,
                         "generated_by": _describe(lineup), "edge": row.estimate,
                         "ci_low": row.ci_low, "ci_high": row.ci_high,
                         "seconds": time.perf_counter() - t0, "best": False})
            improved = row.estimate > best[0]
            if improved:
                best = (row.estimate, player)
                chosen = r
            if not improved:
                progress_bar.update(positions * (rounds - r - 1))
                break
            lineup = player
    kept = best[1]
    assert kept is not None  # round 0 always improves on -inf
    player = kept
    rows[chosen]["best"] = True
    player.metadata.update({
        "teacher": teacher, "positions": int((chosen + 1) * positions), "seed": seed,
        "rounds": chosen + 1, "start": _describe(start), "against": _describe(against),
        "eval_deals": int(eval_deals), "model": model,
        **({"alpha": float(alpha)} if model == "linear" else
           {"hidden": int(hidden), "penalty": MLP_PENALTY}),
        "method": _method(model, imitating)})
    used = data[data["round"] <= chosen].reset_index(drop=True)
    return Learning(player, player.weights, pd.DataFrame(rows), used,
                    time.perf_counter() - started)


def fit_temperature(vector: np.ndarray, data: pd.DataFrame) -> float:
    """The temperature at which a player's softmax policy best predicts a teacher's choices.

    ``data`` holds labelled moves as :func:`label_positions` writes them (the features, a
    ``target`` per move, a ``decision`` and optionally a ``round`` column naming its decision).
    The teacher chooses the moves of largest target in each decision (several on a tie); the
    temperature maximises the likelihood that a player drawing its moves by a softmax of its
    scores (``features @ vector``, :func:`dominosim.strategies.weighted.best_move`) makes one
    of them, over every decision (SciPy's bounded scalar minimiser on its logarithm, from a
    thousandth to a thousand times the spread of the scores within decisions).

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> rows = pd.DataFrame({"decision": [0, 0, 1, 1], "target": [1.0, 0, 0, 1],
    ...                      **{n: 0.0 for n in FEATURE_NAMES}})
    >>> rows["pips"] = [2.0, 1.0, 1.0, 2.0]  # the teacher picks the heavier move each time
    >>> vector = np.zeros(len(FEATURE_NAMES)); vector[FEATURE_NAMES.index("pips")] = 1.0
    >>> fit_temperature(vector, rows) < 0.05  # always right: near the deterministic player
    True
    """
    from scipy.optimize import minimize_scalar

    keys = [c for c in ("round", "decision") if c in data.columns]
    group = data.groupby(keys, sort=False).ngroup().to_numpy()
    scores = data[list(FEATURE_NAMES)].to_numpy(dtype=np.float64) @ np.asarray(vector, float)
    target = data["target"].to_numpy(dtype=np.float64)
    best = target == pd.Series(target).groupby(group).transform("max").to_numpy()
    n = int(group.max()) + 1 if len(group) else 0
    spread = float(np.std(scores - pd.Series(scores).groupby(group).transform("mean").to_numpy()))
    if n == 0 or spread == 0.0:
        raise ValueError("The value for `data` must hold decisions whose moves the player scores "
                         f"apart, but its {n} decisions give every move the same score.")
    order = np.argsort(group, kind="stable")
    scores, best, group = scores[order], best[order], group[order]
    starts = np.searchsorted(group, np.arange(n))

    def log_sums(z: np.ndarray) -> np.ndarray:  # log(sum(exp(z))) of each decision, stably
        top = np.maximum.reduceat(z, starts)
        return top + np.log(np.add.reduceat(np.exp(z - top[group]), starts))

    def loss(log_t: float) -> float:  # minus the log-likelihood of the teacher's choices
        z = scores / np.exp(log_t)
        return float(np.sum(log_sums(z) - log_sums(np.where(best, z, -np.inf))))

    low, high = np.log(spread * 1e-3), np.log(spread * 1e3)
    found = minimize_scalar(loss, bounds=(low, high), method="bounded",
                            options={"xatol": 1e-4})
    return float(np.exp(found.x))


def own_play_temperature(player: Weighted, teacher: str = "solve", positions: int = 5_000,
                         seed: int = 0) -> float:
    """:func:`fit_temperature` of ``player`` on the first ``positions`` decisions of hands it
    plays at every seat (run ``seed``), labelled by ``teacher`` (one thread): the temperature of
    ``python -m dominosim.players.fit temperature`` and of ``reports/strength_skilled.md``.
    """
    data = label_positions(player.rules, player, teacher, positions, seed, 1, lambda n: None)
    return fit_temperature(player.vector, data)


def _describe(lineup: Any) -> Any:
    if isinstance(lineup, (list, tuple)):
        return [_describe(s) for s in lineup]
    return getattr(lineup, "name", lineup if isinstance(lineup, str) else type(lineup).__name__)


__all__: Sequence[str] = ("Learning", "fit_temperature", "learn", "own_play_temperature")
