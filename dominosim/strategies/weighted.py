"""Weighted players: a legal move's score is a weighted sum of its decision features.

:class:`Weighted` is a fitted player as data: a weight per feature of
:data:`~dominosim.strategies.features.FEATURES`, the rules it was fitted for, and how it was
fitted. It plays in both engines, hand for hand the same: the reference engine calls
:meth:`Weighted.choose` (the features of :func:`~dominosim.strategies.features.move_features`),
the compiled engine receives the weights as an array in the line-up and scores the moves inside
the kernel (:mod:`dominosim.fast.players.weighted`), with no Python call per decision. A move's
score is ``sum(w[j] * f[j])`` in feature order; the best move is played, the first in canonical
order on ties; the lead under ``opening='any'`` is the heaviest tile, as for every
deterministic built-in.

A player is a file: :meth:`Weighted.save` writes one ``.npz`` holding the weights, the features'
names and a JSON document of metadata (the rules it was fitted for, :data:`FEATURES_VERSION`,
the teacher if any, positions, seed, the dominosim version, a digest); :func:`load_player` reads
it back, refusing a file of another feature version or a changed file; a line-up names one as
``"file:path/to/player.npz"``. A player fitted for some rules refuses to play others.

The built-ins ``"tuned"`` and ``"learned"`` (:data:`SHIPPED`) play on any rules: with the player
shipped for Draw double-six 2p when the rules draw, and with the one shipped for Block double-six
4p in partnership (7 tiles each) when they do not (the nearer of the two; see docs/players.md).
They are rebuilt by ``python -m dominosim.players.fit tuned`` (``ds.tune``) and ``python -m
dominosim.players.fit learned`` (``ds.learn``).

Examples
--------
>>> from dominosim.rules import Rules
>>> rules = Rules.preset("block", players=2)
>>> p = Weighted(rules, {"pips": 1.0, "keep_suit": 0.5})
>>> float(p.weights["pips"]), float(p.weights["double"])
(1.0, 0.0)
>>> p.weights_for(Rules.preset("draw", players=2))
Traceback (most recent call last):
...
ValueError: The player 'weighted' was fitted for Rules.preset('block', players=2), so it cannot play Rules.preset('draw', players=2) (fit one for these rules with ds.tune).
"""

from __future__ import annotations

import hashlib
import io
import json
import math
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..checks import check_choice, refuse
from ..fast.players.weighted import HIDDEN, MAX_HIDDEN, TEMPERATURE, UNIT, UNITS
from ..reference.game import Move
from ..rng import Stream
from ..rules import Rules, check_rules
from ..tiles import is_double, pips, tile_id
from .features import FEATURE_NAMES, FEATURES_VERSION, N_FEATURES, move_features
from .registry import PLAYERS
from .view import SeatView

FILE_PREFIX = "file:"
"""A line-up entry ``"file:path/to/player.npz"`` names a saved player."""
FITTED = Path(__file__).parent / "fitted"
"""Where the shipped players live (package data)."""
SHIPPED = PLAYERS
"""The built-in fitted players (the registry's ``PLAYERS``): ``tuned`` (:func:`dominosim.tune`)
and ``learned`` (:func:`dominosim.learn`), each shipped as two files (:func:`shipped_file`)."""
TUNED_RULES = {"block": Rules.preset("block", players=4, hand_size=7),
               "draw": Rules.preset("draw", players=2)}
"""The rules each shipped ``tuned`` (and ``learned``) player was fitted for."""


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("dominosim")
    except PackageNotFoundError:  # a source checkout that is not installed
        return "unknown"


def check_weights(weights: Any) -> np.ndarray:
    """The weights as a ``float64`` vector in feature order, from a mapping or Series of feature
    name to number (features not named weigh 0).

    >>> check_weights({"pips": 2})[:3].tolist()
    [2.0, 0.0, 0.0]
    >>> check_weights({"pipz": 1})
    Traceback (most recent call last):
    ...
    ValueError: The value for `weights` must map feature names (see dominosim.strategies.features.FEATURE_NAMES) to finite numbers, but 'pipz' is not a feature name.
    """
    if isinstance(weights, pd.Series):
        weights = weights.to_dict()
    if not isinstance(weights, Mapping):
        raise ValueError("The value for `weights` must be a mapping or a pandas Series from "
                         f"feature name to number, but {type(weights).__name__} was passed.")
    vector = np.zeros(N_FEATURES, dtype=np.float64)
    for name, value in weights.items():
        if name not in FEATURE_NAMES:
            raise ValueError("The value for `weights` must map feature names (see dominosim."
                             f"strategies.features.FEATURE_NAMES) to finite numbers, but {name!r} "
                             "is not a feature name.")
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
                or not math.isfinite(float(value)):
            raise ValueError("The value for `weights` must map feature names to finite numbers, "
                             f"but {name!r} maps to {value!r}.")
        vector[FEATURE_NAMES.index(name)] = float(value)
    return vector


def _heaviest(move: Move) -> tuple[int, bool, int, int]:
    return pips(move.tile), is_double(move.tile), tile_id(move.tile), move.suit


def move_score(vector: np.ndarray, view: SeatView, move: Move) -> float:
    """The weighted sum of the move's features, summed in feature order as the compiled player
    sums; with a player's row (:meth:`Weighted.row_for`) of an :class:`MLP`, plus its hidden
    units' part (:func:`hidden_sum`).
    """
    features = move_features(view, move)
    score = 0.0
    for j in range(N_FEATURES):
        score += float(vector[j]) * float(features[j])
    hidden = int(vector[HIDDEN]) if len(vector) > HIDDEN else 0
    if hidden > 0:
        score += hidden_sum(vector, hidden, features)
    return score


def hidden_sum(row: np.ndarray, hidden: int, features: np.ndarray) -> float:
    """The hidden layer's part of a move's score: over the ``hidden`` units of the player's row
    (unit ``h`` in the columns from ``UNITS + h * UNIT``: its weights in feature order, its bias,
    its output weight), the output weight times ``max(0, bias + sum_j w[j] * f[j])``, the bias
    first and then the features in order, as the compiled
    :func:`dominosim.fast.players.weighted.hidden_sum` sums.

    >>> row = np.zeros(UNITS + UNIT)
    >>> row[HIDDEN], row[UNITS + 0], row[UNITS + N_FEATURES], row[UNITS + N_FEATURES + 1] = 1, 2, -1, 3
    >>> f = np.zeros(N_FEATURES)
    >>> hidden_sum(row, 1, f), hidden_sum(row, 1, f + 1 * (np.arange(N_FEATURES) == 0))
    (0.0, 3.0)
    """
    total = 0.0
    for h in range(hidden):
        at = UNITS + h * UNIT
        a = float(row[at + N_FEATURES])
        for j in range(N_FEATURES):
            a += float(row[at + j]) * float(features[j])
        if a > 0.0:
            total += float(row[at + N_FEATURES + 1]) * a
    return total


def best_move(vector: np.ndarray, view: SeatView, moves: Sequence[Move],
              temperature: float = 0.0, rng: Stream | None = None) -> Move:
    """The move with the largest weighted sum of features (the first on ties); the heaviest lead
    under ``opening='any'``.

    With ``temperature > 0`` the move is drawn instead (a softmax policy): move ``i`` with
    probability ``exp((s_i - max s) / temperature) / sum_k exp((s_k - max s) / temperature)``,
    from one :meth:`~dominosim.rng.Stream.uniform` of ``rng`` (the seat's stream), walking the
    moves in canonical order: the first whose running sum passes the uniform times the total. The
    compiled player (:func:`dominosim.fast.players.weighted.weighted_move`) makes the same sums in
    the same order, so both engines draw the same move.
    """
    if moves[0].suit < 0:
        return max(moves, key=_heaviest)
    scores = [move_score(vector, view, move) for move in moves]
    top = max(scores)
    if temperature <= 0.0:
        return moves[scores.index(top)]
    if rng is None:
        raise refuse("rng", f"the seat's random stream at temperature {temperature}", rng)
    target = rng.uniform() * _softmax_total(scores, top, temperature)
    running = 0.0
    for move, score in zip(moves, scores, strict=True):
        running += math.exp((score - top) / temperature)
        if target < running:
            return move
    return moves[-1]


def move_probability(vector: np.ndarray, view: SeatView, moves: Sequence[Move], k: int,
                     temperature: float = 0.0) -> float:
    """The probability that the player with weights ``vector`` plays ``moves[k]``: at
    temperature 0, 1 when it is the best move (:func:`best_move`) and 0 otherwise; above 0, its
    share of the softmax of the scores (summed in canonical order, as the compiled
    :func:`dominosim.fast.players.weighted.move_likelihood` sums). The lead under
    ``opening='any'`` is the heaviest tile at any temperature.

    >>> from dominosim.reference.game import GameState
    >>> from dominosim.strategies.view import view_of
    >>> rules = Rules.preset("block", players=2)
    >>> state = GameState.from_deal(rules, [[(6, 6), (1, 3)], [(3, 6), (6, 5), (1, 2)]], [])
    >>> _ = state.open_with_highest_double()
    >>> moves, vector = state.legal_moves(1), check_weights({"pips": 1.0})
    >>> [move.tile for move in moves]
    [(3, 6), (5, 6)]
    >>> [move_probability(vector, view_of(state, 1), moves, k) for k in range(2)]
    [0.0, 1.0]
    >>> [round(move_probability(vector, view_of(state, 1), moves, k, 2.0), 4) for k in range(2)]
    [0.2689, 0.7311]
    """
    if moves[0].suit < 0 or temperature <= 0.0:
        return 1.0 if best_move(vector, view, moves) == moves[k] else 0.0
    scores = [move_score(vector, view, move) for move in moves]
    top = max(scores)
    return math.exp((scores[k] - top) / temperature) / _softmax_total(scores, top, temperature)


def _softmax_total(scores: Sequence[float], top: float, temperature: float) -> float:
    """The sum of ``exp((score - top) / temperature)`` over ``scores`` in canonical order (as
    :func:`dominosim.fast.players.weighted.softmax_total` sums).
    """
    total = 0.0
    for score in scores:
        total += math.exp((score - top) / temperature)
    return total


def check_temperature(temperature: Any) -> float:
    """``temperature`` as a float: 0 (the best move) or a positive finite number (softmax).

    >>> check_temperature(0.5)
    0.5
    >>> check_temperature(-1)
    Traceback (most recent call last):
    ...
    ValueError: The value for `temperature` must be 0 (play the best move) or a positive finite number (draw moves by a softmax of their scores), but -1 was passed.
    """
    if isinstance(temperature, bool) or not isinstance(temperature, (int, float, np.integer,
                                                                     np.floating)) \
            or not math.isfinite(float(temperature)) or temperature < 0:
        raise refuse("temperature", "0 (play the best move) or a positive finite number (draw "
                     "moves by a softmax of their scores)", temperature)
    return float(temperature)


class Weighted:
    """A player that scores each legal move as a weighted sum of its decision features.

    Parameters
    ----------
    rules : Rules
        The rules it plays (and was fitted for); it refuses any other.
    weights : mapping or pandas.Series
        Feature name (:data:`~dominosim.strategies.features.FEATURE_NAMES`) to number; features
        not named weigh 0.
    name : str
        Its name in records and comparisons.
    metadata : dict, optional
        How it was fitted (written by :meth:`save`).
    temperature : float, default 0
        0: play the best move. Above 0: draw each move with probability proportional to
        ``exp(score / temperature)`` from the seat's random stream (a softmax policy; the higher,
        the nearer uniform), in both engines the same (:func:`best_move`).

    Examples
    --------
    >>> import dominosim as ds
    >>> rules = ds.Rules.preset("block", players=2)
    >>> p = ds.Weighted(rules, {"pips": 1.0, "keep_suit": 2.0}, name="mine")
    >>> hands = ds.simulate(rules, [p, "bully"], n_hands=100, seed=1)
    >>> hands.equals(ds.simulate(rules, [p, "bully"], n_hands=100, seed=1, engine="reference"))
    True
    >>> soft = p.with_temperature(0.5)
    >>> soft.temperature, soft.weights.equals(p.weights)
    (0.5, True)
    """

    kind = "player"

    def __init__(self, rules: Rules, weights: Any, *, name: str = "weighted",
                 metadata: Mapping[str, Any] | None = None, temperature: float = 0.0) -> None:
        check_rules(rules)
        if not isinstance(name, str) or not name:
            raise ValueError(f"The value for `name` must be a non-empty string, but {name!r} was "
                             "passed.")
        if metadata is not None and not isinstance(metadata, Mapping):
            raise ValueError(f"The value for `metadata` must be a mapping or None, but "
                             f"{type(metadata).__name__} was passed.")
        self.rules = rules
        self.vector = check_weights(weights)
        self.vector.flags.writeable = False
        self.name = name
        self.metadata = dict(metadata or {})
        self.temperature = check_temperature(temperature)

    def with_temperature(self, temperature: float) -> Weighted:
        """The same player (rules, weights, name, metadata) drawing its moves at
        ``temperature`` (0: the best move).
        """
        return Weighted(self.rules, self.weights, name=self.name, metadata=self.metadata,
                        temperature=temperature)

    @property
    def weights(self) -> pd.Series:
        """The weights, a Series by feature name."""
        return pd.Series(self.vector, index=list(FEATURE_NAMES), name=self.name)

    def weights_for(self, rules: Rules) -> np.ndarray:
        """The weight vector to play ``rules`` with; raises ``ValueError`` (one line) for rules
        other than those it was fitted for.
        """
        if rules != self.rules:
            raise ValueError(f"The player {self.name!r} was fitted for {self.rules!r}, so it "
                             f"cannot play {rules!r} (fit one for these rules with ds.tune).")
        return self.vector

    def choose(self, view: SeatView, moves: Sequence[Move], rng: Stream) -> Move:
        """The best move by the weighted sum of its features (drawn by a softmax of the sums
        when ``temperature > 0``).
        """
        return best_move(self.row_for(view.rules), view, moves, self.temperature, rng)

    def row_for(self, rules: Rules) -> np.ndarray:
        """The player's row as the compiled kernel reads it (``Lineup.weights``, and inference's
        model of a seat): the weights for ``rules`` (:meth:`weights_for`), then the temperature
        (an :class:`MLP` adds its hidden units).
        """
        return np.append(self.weights_for(rules), self.temperature)

    def __repr__(self) -> str:
        """The rules, the number of weights, the name and a temperature other than 0."""
        warm = f", temperature={self.temperature!r}" if self.temperature else ""
        return f"Weighted({self.rules!r}, {len(self.vector)} weights, name={self.name!r}{warm})"

    # ------------------------------------------------------------------------- as a file
    def _document(self) -> dict[str, Any]:
        meta = {"format": "dominosim player", "kind": "weighted", "name": self.name,
                "rules": self.rules.to_dict(), "features": list(FEATURE_NAMES),
                "features_version": FEATURES_VERSION, "teacher": None, "positions": None,
                "seed": None, "dominosim_version": _version(), "temperature": self.temperature}
        meta.update({k: v for k, v in self.metadata.items() if k not in (
            "digest", "features", "features_version", "temperature", "kind", "hidden_units")})
        return meta

    def _parameters(self) -> np.ndarray:
        """Every number of the model in one vector (what the digest reads): the weights."""
        return self.vector

    def _arrays(self) -> dict[str, np.ndarray]:
        """The arrays of the file besides the features' names and the metadata."""
        return {"weights": self.vector}

    @property
    def digest(self) -> str:
        """sha256 of the weights and the metadata (the file's contents apart from the digest)."""
        return _digest(self._parameters(), self._document())

    def save(self, path: str | Path) -> Path:
        """Write the player to ``path`` (``.npz``: the weights, the features' names and the
        metadata as a JSON document, with its digest); returns the path.

        >>> import tempfile, dominosim as ds
        >>> p = ds.Weighted(ds.Rules.preset("block", players=2), {"pips": 1})
        >>> with tempfile.TemporaryDirectory() as d:
        ...     q = ds.load_player(p.save(f"{d}/p.npz"))
        >>> q.weights.equals(p.weights), q.rules == p.rules
        (True, True)
        """
        path = Path(path)
        if path.suffix != ".npz":
            raise ValueError(f"The value for `path` must end in '.npz', but {str(path)!r} was "
                             "passed.")
        meta = self._document()
        meta["digest"] = _digest(self._parameters(), meta)
        buffer = io.BytesIO()
        arrays: dict[str, Any] = {**self._arrays(), "features": np.array(FEATURE_NAMES),
                                  "metadata": np.array(json.dumps(meta, sort_keys=True, indent=1))}
        np.savez(buffer, **arrays)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(buffer.getvalue())
        return path


def _digest(vector: np.ndarray, meta: Mapping[str, Any]) -> str:
    body = json.dumps({k: v for k, v in meta.items() if k != "digest"}, sort_keys=True)
    return hashlib.sha256(np.ascontiguousarray(vector, dtype="<f8").tobytes()
                          + body.encode()).hexdigest()


def stacked_rows(rows: Sequence[np.ndarray]) -> np.ndarray:
    """Players' rows (:meth:`Weighted.row_for`, empty for a seat without one) as one array, a
    row per seat, each padded with zeros to the longest (``Lineup.weights`` and inference's model
    rows: a linear player's row ends at its temperature, an MLP's runs on).

    >>> stacked_rows([np.ones(2), np.zeros(0), np.full(3, 2.0)])
    array([[1., 1., 0.],
           [0., 0., 0.],
           [2., 2., 2.]])
    """
    out = np.zeros((len(rows), max((len(row) for row in rows), default=0)))
    for seat, row in enumerate(rows):
        out[seat, :len(row)] = row
    return out


def check_hidden(hidden: Any, bias: Any, output: Any) -> tuple[np.ndarray, np.ndarray,
                                                               np.ndarray]:
    """The hidden layer as ``float64`` arrays: ``hidden`` (units x features, each unit's weights in
    feature order), ``bias`` and ``output`` (one per unit), 1 to :data:`MAX_HIDDEN` units, every
    number finite.

    >>> [a.shape for a in check_hidden(np.ones((2, N_FEATURES)), [0, 1], [1, -1])]
    [(2, 22), (2,), (2,)]
    >>> check_hidden(np.ones((2, 3)), [0, 1], [1, -1])
    Traceback (most recent call last):
    ...
    ValueError: The value for `hidden` must be an array of finite numbers of shape (units, 22) with 1 to 64 units, but an array of shape (2, 3) was passed.
    """
    arrays = []
    for name, value, ndim in (("hidden", hidden, 2), ("bias", bias, 1), ("output", output, 1)):
        try:
            array = np.array(value, dtype=np.float64)
        except (TypeError, ValueError):
            raise refuse(name, "an array of finite numbers", value, limit=80) from None
        arrays.append(array)
        units = arrays[0].shape[0] if arrays[0].ndim == 2 else -1
        shape = (units, N_FEATURES) if ndim == 2 else (units,)
        if array.shape != shape or not 1 <= units <= MAX_HIDDEN \
                or not np.isfinite(array).all():
            allowed = (f"an array of finite numbers of shape (units, {N_FEATURES}) with 1 to "
                       f"{MAX_HIDDEN} units" if ndim == 2 else
                       "an array of finite numbers, one per hidden unit")
            raise refuse(name, allowed, value,
                         shown=f"an array of shape {array.shape}" if array.ndim else None)
        array.flags.writeable = False
    return arrays[0], arrays[1], arrays[2]


class MLP(Weighted):
    """A player whose move scores are a small neural network of the decision features: the
    weighted sum of a :class:`Weighted` plus one hidden layer of ReLU units,
    ``score = sum_j w[j] f[j] + sum_h output[h] * max(0, bias[h] + sum_j hidden[h, j] f[j])``
    (the features :data:`~dominosim.strategies.features.FEATURES` of the move, raw: a fit on
    standardised features folds the scaling into ``hidden`` and ``bias``). It plays as a weighted
    player does, in both engines hand for hand the same (the compiled kernel reads the hidden
    layer from the line-up's row, :meth:`row_for`): the best score, the first move in canonical
    order on ties, or a softmax of the scores at a temperature above 0. Saved as a file of kind
    ``"mlp"`` (a dominosim that knows only ``"weighted"`` refuses it in one line).

    Parameters
    ----------
    rules : Rules
        The rules it plays (and was fitted for).
    hidden : array of shape (units, features)
        Each hidden unit's weights, in feature order (1 to :data:`MAX_HIDDEN` units).
    bias, output : arrays of shape (units,)
        Each unit's bias and its weight in the score.
    weights : mapping or pandas.Series, optional
        The linear part (feature name to number; none by default).
    name, metadata, temperature
        As for :class:`Weighted`.

    Examples
    --------
    >>> import dominosim as ds
    >>> rules = ds.Rules.preset("block", players=2)
    >>> hidden = np.zeros((2, 22)); hidden[0, 0], hidden[1, 1] = 1.0, -1.0
    >>> p = ds.MLP(rules, hidden, [0.0, 0.5], [1.0, 2.0], name="net")
    >>> p
    MLP(Rules.preset('block', players=2), 2 hidden units, name='net')
    >>> hands = ds.simulate(rules, [p, "bully"], n_hands=100, seed=1)
    >>> hands.equals(ds.simulate(rules, [p, "bully"], n_hands=100, seed=1, engine="reference"))
    True
    """

    def __init__(self, rules: Rules, hidden: Any, bias: Any, output: Any, *,
                 weights: Any = None, name: str = "mlp",
                 metadata: Mapping[str, Any] | None = None, temperature: float = 0.0) -> None:
        super().__init__(rules, {} if weights is None else weights, name=name,
                         metadata=metadata, temperature=temperature)
        self.hidden, self.bias, self.output = check_hidden(hidden, bias, output)

    def with_temperature(self, temperature: float) -> MLP:
        """The same player drawing its moves at ``temperature`` (0: the best move)."""
        return MLP(self.rules, self.hidden, self.bias, self.output, weights=self.weights,
                   name=self.name, metadata=self.metadata, temperature=temperature)

    def row_for(self, rules: Rules) -> np.ndarray:
        """The row of :meth:`Weighted.row_for`, then the number of hidden units and each unit's
        weights, bias and output weight (:mod:`dominosim.fast.players.weighted`'s layout).

        >>> p = MLP(Rules.preset("block", players=2), np.ones((3, N_FEATURES)), [0] * 3, [1] * 3)
        >>> row = p.row_for(p.rules)
        >>> len(row) == UNITS + 3 * UNIT, int(row[HIDDEN])
        (True, 3)
        """
        units = len(self.bias)
        row = np.zeros(UNITS + units * UNIT)
        row[:HIDDEN] = super().row_for(rules)
        row[HIDDEN] = units
        for h in range(units):
            at = UNITS + h * UNIT
            row[at:at + N_FEATURES] = self.hidden[h]
            row[at + N_FEATURES], row[at + N_FEATURES + 1] = self.bias[h], self.output[h]
        return row

    def __repr__(self) -> str:
        """The rules, the number of hidden units, the name and a temperature other than 0."""
        warm = f", temperature={self.temperature!r}" if self.temperature else ""
        return (f"MLP({self.rules!r}, {len(self.bias)} hidden units, name={self.name!r}"
                f"{warm})")

    def _document(self) -> dict[str, Any]:
        meta = super()._document()
        meta.update({"kind": "mlp", "hidden_units": len(self.bias)})
        return meta

    def _parameters(self) -> np.ndarray:
        return np.concatenate([self.vector, self.hidden.ravel(), self.bias, self.output])

    def _arrays(self) -> dict[str, np.ndarray]:
        return {"weights": self.vector, "hidden": self.hidden, "bias": self.bias,
                "output": self.output}


KINDS = ("weighted", "mlp")
"""The kinds of player file :func:`load_player` reads (:class:`Weighted`, :class:`MLP`)."""


def load_player(path: str | Path) -> Weighted:
    """Read a player written by :meth:`Weighted.save`.

    Refuses, in one line, a file that is not a player, one of another feature version
    (:data:`~dominosim.strategies.features.FEATURES_VERSION`) and one whose digest does not match
    its contents.

    Examples
    --------
    >>> import dominosim as ds
    >>> ds.load_player("no/such/player.npz")
    Traceback (most recent call last):
    ...
    ValueError: The value for `path` must be a player file written by Weighted.save, but 'no/such/player.npz' does not exist.
    """
    if not isinstance(path, (str, Path)):
        raise ValueError(f"The value for `path` must be a path (str or pathlib.Path), but "
                         f"{type(path).__name__} was passed.")
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"The value for `path` must be a player file written by Weighted.save, "
                         f"but {str(path)!r} does not exist.")
    try:
        with np.load(path, allow_pickle=False) as data:
            vector = np.asarray(data["weights"], dtype=np.float64)
            names = [str(n) for n in data["features"]]
            meta = json.loads(str(data["metadata"]))
            layer = [np.asarray(data[k], dtype=np.float64) for k in ("hidden", "bias", "output")
                     if meta.get("kind") == "mlp"]
    except (OSError, KeyError, ValueError) as error:
        raise ValueError(f"The value for `path` must be a player file written by Weighted.save, "
                         f"but {str(path)!r} cannot be read as one ({error}).") from None
    if meta.get("kind") not in KINDS:
        raise ValueError(f"The player file {str(path)!r} holds a player of kind "
                         f"{meta.get('kind')!r}, but this dominosim plays only the kinds "
                         f"{', '.join(map(repr, KINDS))}.")
    version = meta.get("features_version")
    if version != FEATURES_VERSION or names != list(FEATURE_NAMES):
        raise ValueError(f"The player file {str(path)!r} has features of version {version!r}, "
                         f"but this dominosim computes version {FEATURES_VERSION}: fit it again.")
    numbers = np.concatenate([vector, *(a.ravel() for a in layer)])
    if meta.get("digest") != _digest(numbers, meta):
        raise ValueError(f"The player file {str(path)!r} does not match its digest: it was "
                         "changed after it was saved.")
    try:
        temperature = check_temperature(meta.get("temperature", 0.0))
    except ValueError:
        raise ValueError(f"The player file {str(path)!r} holds the temperature "
                         f"{meta.get('temperature')!r}, but a player's temperature is 0 or a "
                         "positive finite number.") from None
    weights = dict(zip(names, vector.tolist(), strict=True))
    name = meta.get("name", path.stem)
    if layer:
        return MLP(Rules(**meta["rules"]), *layer, weights=weights, name=name, metadata=meta,
                   temperature=temperature)
    return Weighted(Rules(**meta["rules"]), weights, name=name, metadata=meta,
                    temperature=temperature)


def nearest_tuned(rules: Rules) -> str:
    """Which shipped ``tuned`` player plays ``rules``: ``"draw"`` for a game that draws,
    ``"block"`` otherwise.

    >>> nearest_tuned(Rules.preset("draw", players=4)), nearest_tuned(Rules.preset("block"))
    ('draw', 'block')
    """
    return "draw" if rules.can_draw else "block"


def shipped_file(name: str, which: str, folder: Path = FITTED) -> Path:
    """The file of the shipped player ``name`` (``"tuned"`` or ``"learned"``) for the game
    ``which`` (``"block"`` or ``"draw"``, :data:`TUNED_RULES`), in ``folder``.

    >>> shipped_file("learned", "draw").name
    'learned_draw.npz'
    """
    return Path(folder) / f"{name}_{which}.npz"


@cache
def shipped(which: str, name: str = "tuned") -> Weighted:
    """The shipped player ``name`` (``"tuned"`` or ``"learned"``) for the game ``which``
    (``"block"`` or ``"draw"``).
    """
    return load_player(shipped_file(name, which))


def tuned_player(rules: Rules, name: str = "tuned") -> Weighted:
    """The shipped weighted player that the built-in ``name`` (``"tuned"`` or ``"learned"``)
    plays ``rules`` with (fitted for the nearer of its two games, :func:`nearest_tuned`).

    >>> import dominosim as ds
    >>> p = ds.tuned_player(ds.Rules.preset("draw", players=3))
    >>> p.rules == TUNED_RULES["draw"], list(p.weights.index[:2])
    (True, ['pips', 'double'])
    >>> ds.tuned_player(ds.Rules.preset("block"), "learned").metadata["teacher"]
    'solve'
    """
    check_rules(rules)
    check_choice("name", name, SHIPPED)
    return shipped(nearest_tuned(rules), name)


LEARNED_TEMPERATURE = {"block": 1.3483, "draw": 1.0816}
"""The softmax temperature of each shipped learned player (by game, :func:`nearest_tuned`) that
best predicts its teacher's choices: ``python -m dominosim.players.fit temperature`` (5,000
decisions of its own play labelled by the solver, seed 2026) prints these. Refit them with the
players."""


def default_model(rules: Rules) -> Tuned:
    """How inference models a seat whose strategy it cannot replay (a search, a plug-in, a Python
    strategy): the shipped learned player for ``rules`` (:func:`tuned_player`) as a softmax policy
    at :data:`LEARNED_TEMPERATURE`. It reads only the weights and the temperature
    (``weights_for`` gives the shipped weights under any rules).

    >>> p = default_model(Rules.preset("draw", players=3))
    >>> p.temperature, p.name
    (1.0816, 'learned')
    """
    which = nearest_tuned(rules)
    return Learned().with_temperature(LEARNED_TEMPERATURE[which])


class Tuned:
    """The built-in ``"tuned"``: plays any rules with the shipped weighted player fitted for the
    nearer of its two games (:func:`nearest_tuned`).
    """

    name = "tuned"
    kind = "player"
    temperature = 0.0

    def weights_for(self, rules: Rules) -> np.ndarray:
        """The weights of the shipped player for ``rules``."""
        return shipped(nearest_tuned(rules), self.name).vector

    def row_for(self, rules: Rules) -> np.ndarray:
        """The shipped player's row for ``rules`` (:meth:`Weighted.row_for`), at this built-in's
        temperature.
        """
        player = shipped(nearest_tuned(rules), self.name)
        row = player.row_for(player.rules)
        row[TEMPERATURE] = self.temperature
        return row

    def choose(self, view: SeatView, moves: Sequence[Move], rng: Stream) -> Move:
        """The best move by the shipped player for the view's rules (drawn by a softmax when
        ``temperature > 0``).
        """
        return best_move(self.row_for(view.rules), view, moves, self.temperature, rng)

    def with_temperature(self, temperature: float) -> Tuned:
        """The same built-in at ``temperature`` (0: the best move)."""
        copy = type(self)()
        copy.temperature = check_temperature(temperature)
        return copy


class Learned(Tuned):
    """The built-in ``"learned"``: as :class:`Tuned`, with the shipped learned players."""

    name = "learned"


BUILTIN_PLAYERS = {"tuned": Tuned, "learned": Learned}
"""The built-in fitted players' classes by name."""


def player_of(entry: Any) -> Weighted | Tuned | None:
    """The weighted player a line-up entry names (``"tuned"``, ``"learned"``,
    ``"file:path.npz"``, a :class:`Weighted`, :class:`Tuned` or :class:`Learned`), or None for any
    other entry.
    """
    if isinstance(entry, (Weighted, Tuned)):
        return entry
    if isinstance(entry, str) and entry in BUILTIN_PLAYERS:
        return BUILTIN_PLAYERS[entry]()
    if isinstance(entry, str) and entry.startswith(FILE_PREFIX):
        return load_named(entry)
    return None


def load_named(entry: str) -> Weighted:
    """The player a line-up entry ``"file:path.npz"`` names, named as the entry is written."""
    player = load_player(entry[len(FILE_PREFIX):])
    player.name = entry
    return player
