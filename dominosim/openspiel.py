"""dominosim as an OpenSpiel game, for any rule set (the optional extra ``dominosim[openspiel]``).

Importing this module registers the game ``"dominosim"`` with ``pyspiel``, its rules given as game
parameters: ``preset`` and ``players``, and any :class:`~dominosim.rules.Rules` field as an
override (``-1`` or ``""``: the preset's value; the three yes-or-no fields are ``0`` or ``1``).
:func:`game` builds the game of a :class:`~dominosim.rules.Rules`.

The game is the reference engine's hand step by step (:mod:`dominosim.reference.table` has the
details): chance nodes deal the tiles one at a time and give each drawn tile; a seat's legal
actions are its distinct legal moves in the canonical order (tile id, then suit), or the knock
alone; the hand's returns are zero-sum under the rules' scoring (the winning side's seats get the
points, taken in equal shares from the other seats). Observations and information states, as
strings and as tensors, hold only what the seat sees.

Two bridges join OpenSpiel's players and dominosim's:

* :class:`StrategyBot` puts a dominosim strategy (``"bully"``, ``"ismcts:200"``, a function...)
  in an OpenSpiel game as a ``pyspiel.Bot``;
* :class:`BotStrategy` seats an OpenSpiel bot (MCTS, a trained policy) at a dominosim table, in the
  reference engine (``ds.simulate(..., engine="reference")``, ``ds.compare(..., engine="reference")``):
  at every decision it draws a world consistent with what its seat sees and lets the bot act on it.

Examples
--------
>>> import pyspiel
>>> import dominosim as ds
>>> from dominosim import openspiel
>>> g = pyspiel.load_game("dominosim", {"preset": "draw", "players": 2})
>>> g.num_players(), g.num_distinct_actions()
(2, 85)
>>> state = g.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 28)
>>> openspiel.game(ds.Rules.preset("ivory", players=3)).get_parameters()["preset"]
'ivory'
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from .reference.table import (
    CHANCE,
    TERMINAL,
    Encoding,
    Table,
    action_name,
    decode,
    encode,
    information_state,
    information_state_text,
    knock_action,
    max_actions,
    max_points,
    n_actions,
    observation,
    observation_text,
    table_from_view,
)
from .rng import Stream, hand_key, seat_stream, stream_key
from .rules import Rules
from .strategies.lineup import resolve
from .strategies.sampler import sample_hidden
from .strategies.view import view_of
from .tiles import label, tile_of

NAME = "dominosim"
"""The name the game is registered under."""

_BOOLS = ("partnerships", "fill_opening_first", "doubles_branch")
_INTS = ("max_pip", "hand_size", "leader", "boneyard_keep", "opening_arms", "target")
_STRS = ("opening", "draw", "end", "scoring")
PARAMETERS: dict[str, Any] = {"preset": "draw", "players": 2,
                              **{f: -1 for f in _INTS + _BOOLS}, **{f: "" for f in _STRS}}
"""The game parameters and their defaults: ``-1`` and ``""`` stand for the preset's value."""

_GAME_TYPE = pyspiel.GameType(
    short_name=NAME,
    long_name="dominosim: dominoes under any rule set of the dominosim rule book",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=10,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS,
)


def rules_of(params: dict[str, Any]) -> Rules:
    """The :class:`~dominosim.rules.Rules` of a game's parameters (see :data:`PARAMETERS`).

    Examples
    --------
    >>> rules_of({"preset": "block", "players": 4, "partnerships": 0}).partnerships
    False
    >>> rules_of({"preset": "block", "players": 2, "partnerships": 2})
    Traceback (most recent call last):
    ...
    ValueError: The value for `partnerships` must be -1 (the preset's), 0 or 1, but 2 was passed.
    """
    given = {**PARAMETERS, **params}
    overrides: dict[str, Any] = {}
    for field in _BOOLS:
        value = given[field]
        if value not in (-1, 0, 1) or isinstance(value, bool):
            raise ValueError(f"The value for `{field}` must be -1 (the preset's), 0 or 1, but "
                             f"{value!r} was passed.")
        if value >= 0:
            overrides[field] = bool(value)
    overrides.update({f: given[f] for f in _INTS if given[f] != -1})
    overrides.update({f: given[f] for f in _STRS if given[f] != ""})
    return Rules.preset(given["preset"], players=given["players"], **overrides)


def parameters(rules: Rules) -> dict[str, Any]:
    """The game parameters of ``rules``: its nearest preset and the fields that differ.

    >>> parameters(Rules.preset("block", players=4, partnerships=False, hand_size=7))
    {'preset': 'block', 'players': 4, 'hand_size': 7, 'partnerships': 0}
    """
    name, diff = rules.nearest_preset()
    params: dict[str, Any] = {"preset": name, "players": rules.players}
    for field, value in diff.items():
        params[field] = -1 if value is None else int(value) if field in _BOOLS else value
    return params


@functools.lru_cache(maxsize=64)
def game(rules: Rules) -> pyspiel.Game:
    """The OpenSpiel game of ``rules``.

    Parameters
    ----------
    rules : Rules

    Returns
    -------
    pyspiel.Game
        ``pyspiel.load_game("dominosim", parameters(rules))``.

    Examples
    --------
    >>> import dominosim as ds
    >>> g = game(ds.Rules.preset("cross", players=4))
    >>> g.num_players(), g.max_chance_outcomes(), g.get_type().short_name
    (4, 28, 'dominosim')
    """
    if not isinstance(rules, Rules):
        raise ValueError(f"The value for `rules` must be a dominosim Rules, but "
                         f"{type(rules).__name__} was passed.")
    return pyspiel.load_game(NAME, parameters(rules))


class DominosimGame(pyspiel.Game):
    """The OpenSpiel game of one rule set (build it with :func:`game` or ``pyspiel.load_game``).

    Parameters
    ----------
    params : dict, optional
        Game parameters (see :data:`PARAMETERS`).

    Attributes
    ----------
    rules : Rules
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        rules = rules_of(params or {})
        bound = float(max_points(rules))
        info = pyspiel.GameInfo(
            num_distinct_actions=n_actions(rules),
            max_chance_outcomes=rules.n_tiles,
            num_players=rules.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=max_actions(rules),
        )
        super().__init__(_GAME_TYPE, info, params or {})
        self.rules = rules

    def new_initial_state(self) -> DominosimState:
        """The state before the deal."""
        return DominosimState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        """The observer of what a seat sees (observation, or information state with perfect
        recall).
        """
        if params:
            raise ValueError(f"The value for `params` of the observer must be empty, but "
                             f"{params!r} was passed.")
        return _Observer(self.rules,
                         iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class DominosimState(pyspiel.State):
    """A hand in progress: a :class:`~dominosim.reference.table.Table` behind OpenSpiel's state
    interface.

    Parameters
    ----------
    game : DominosimGame
    table : Table, optional
        The hand to start from (default: before the deal).
    """

    def __init__(self, game: DominosimGame, table: Table | None = None) -> None:
        super().__init__(game)
        self.table = table if table is not None else Table(game.rules)

    def current_player(self) -> int:
        """The seat to act, or OpenSpiel's chance or terminal player id."""
        seat = self.table.to_move
        if seat == CHANCE:
            return pyspiel.PlayerId.CHANCE
        if seat == TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        return self.table.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The tile ids the next chance node may give, with their probabilities."""
        return self.table.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.table.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"{'deal' if self.table.state is None else 'draw'} {label(tile_of(action))}"
        return action_name(self.table.rules, action)

    def is_terminal(self) -> bool:
        """Whether the hand is over."""
        return self.table.is_over()

    def returns(self) -> list[float]:
        """Each seat's zero-sum points (0 before the end)."""
        return self.table.returns()

    def __str__(self) -> str:
        """The whole state, every hand face up (for debugging, as OpenSpiel's games do)."""
        table = self.table
        if table.state is None:
            return f"dealing: {' '.join(label(tile_of(t)) for t in table.dealt)}"
        state = table.state
        hands = " | ".join(" ".join(label(t) for t in h) or "-" for h in state.hands)
        sleeping = " ".join(label(t) for t in state.boneyard) or "-"
        return (f"hands {hands}; boneyard {sleeping}; ends "
                f"{' '.join(str(s) for s in state.ends_suits()) or '-'}; to move {table.to_move}")


class _Observer:
    """OpenSpiel's observer interface (``tensor``, ``dict``, ``set_from``, ``string_from``) over
    :func:`~dominosim.reference.table.observation` and
    :func:`~dominosim.reference.table.information_state`.
    """

    def __init__(self, rules: Rules, iig_obs_type: Any) -> None:
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("The value for `iig_obs_type.private_info` must be SINGLE_PLAYER or "
                             "NONE (a seat sees only its own tiles), but ALL_PLAYERS was passed.")
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public = bool(iig_obs_type.public_info)
        self.recall = bool(iig_obs_type.perfect_recall)
        enc = Encoding(rules)
        pieces = enc.information_pieces if self.recall else enc.observation_pieces
        self.tensor = np.zeros(sum(n for _, n in pieces), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, size in pieces:
            self.dict[name] = self.tensor[at:at + size]
            at += size
        if self.recall:
            self.dict["history"] = self.dict["history"].reshape(enc.max_events, enc.event_size)

    def set_from(self, state: DominosimState, player: int) -> None:
        """Write what ``player`` sees in ``state`` into :attr:`tensor`."""
        if self.recall:
            information_state(state.table, player, self.tensor, private=self.private)
        else:
            observation(state.table, player, self.tensor, private=self.private,
                        public=self.public)

    def string_from(self, state: DominosimState, player: int) -> str:
        """What ``player`` sees in ``state``, as text."""
        if self.recall:
            return information_state_text(state.table, player, private=self.private)
        return observation_text(state.table, player, private=self.private, public=self.public)


pyspiel.register_game(_GAME_TYPE, DominosimGame)


# ------------------------------------------------------------------------------ the bridges
class StrategyBot(pyspiel.Bot):
    """A dominosim strategy as an OpenSpiel bot for the ``"dominosim"`` game.

    It acts as the strategy would in the reference engine: a single legal move (and the knock) is
    played without asking it; otherwise it chooses from the seat's view (its own hand and the
    public history) with its own random stream, keyed like the reference engine's seat ``seat`` in
    hand ``hand`` of the run seeded ``seed``, so a hand dealt as the reference engine deals it is
    played move for move as the reference engine plays it.

    Parameters
    ----------
    strategy : str or strategy
        A built-in name or a strategy object or function.
    seat : int
        The seat it plays.
    seed, hand : int
        Key its random stream (see :meth:`new_hand`).

    Examples
    --------
    >>> import numpy as np
    >>> import pyspiel
    >>> from open_spiel.python.algorithms import evaluate_bots
    >>> g = pyspiel.load_game("dominosim", {"preset": "block", "players": 2})
    >>> bots = [StrategyBot("bully", 0), StrategyBot("random", 1)]
    >>> returns = evaluate_bots.evaluate_bots(g.new_initial_state(), bots, np.random.RandomState(1))
    >>> sum(returns)
    0.0
    """

    def __init__(self, strategy: Any, seat: int, seed: int = 0, hand: int = 0) -> None:
        super().__init__()
        self.strategy = resolve(strategy)
        self.seat = seat
        self.new_hand(seed, hand)

    def new_hand(self, seed: int, hand: int) -> None:
        """Key the random stream for hand ``hand`` of the run seeded ``seed``."""
        self.rng = Stream(stream_key(hand_key(seed, hand), seat_stream(self.seat)))

    def step(self, state: DominosimState) -> int:
        """The action the strategy chooses in ``state``."""
        table = state.table
        moves = table.game.legal_moves(self.seat)
        if not moves:
            return knock_action(table.rules)
        if len(moves) == 1:
            return encode(moves[0])
        view = view_of(table.game, self.seat)
        return encode(self.strategy.choose(view, moves, self.rng))

    def restart_at(self, state: DominosimState) -> None:
        """Nothing to forget: the strategy reads the state it is given."""

    def inform_action(self, state: DominosimState, player_id: int, action: int) -> None:
        """Nothing to learn from other seats' actions: they are in the next state."""


class BotStrategy:
    """An OpenSpiel bot as a dominosim strategy (reference engine).

    At each decision it draws, from its seat's random stream, a world consistent with everything
    the seat has seen (:func:`dominosim.strategies.sampler.sample_hidden`: the other hands and the
    boneyard), makes a fresh bot for it with ``make_bot(game, seed)`` (``seed`` from the same
    stream) and plays the bot's action in that world. It never sees the real hidden tiles: with
    a perfect-information search such as MCTS this is determinized search, one world per move.

    Parameters
    ----------
    make_bot : callable
        ``make_bot(game, seed) -> pyspiel.Bot`` for the ``"dominosim"`` game ``game``.
    name : str
        The label in tables.

    Examples
    --------
    >>> import numpy as np
    >>> import dominosim as ds
    >>> from open_spiel.python.algorithms import mcts
    >>> def make(game, seed):
    ...     rng = np.random.RandomState(seed)
    ...     return mcts.MCTSBot(game, 2.0, 20, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    >>> rules = ds.Rules.preset("block", players=2, max_pip=3, hand_size=3)
    >>> hands = ds.simulate(rules, [BotStrategy(make), "random"], n_hands=5, engine="reference")
    >>> len(hands)
    5
    """

    def __init__(self, make_bot: Callable[[pyspiel.Game, int], Any], name: str = "openspiel"
                 ) -> None:
        if not callable(make_bot):
            raise ValueError(f"The value for `make_bot` must be a function (game, seed) -> "
                             f"pyspiel.Bot, but {make_bot!r} was passed.")
        self.make_bot = make_bot
        self.name = name

    def choose(self, view: Any, moves: Any, rng: Stream) -> Any:
        """The move the bot makes in a world drawn from what ``view`` shows."""
        hands, boneyard = sample_hidden(view, rng)
        g = game(view.rules)
        state = DominosimState(g, table_from_view(view, hands, boneyard))
        bot = self.make_bot(g, rng.below(2**31))
        return decode(bot.step(state))


__all__ = ["NAME", "PARAMETERS", "BotStrategy", "DominosimGame", "DominosimState", "StrategyBot", "game",
           "parameters", "rules_of"]
