"""dominosim as a PettingZoo AEC environment, for any rule set (the optional extra
``dominosim[pettingzoo]``).

:func:`env` builds it. The agents are the seats, ``"seat_0"`` to ``"seat_{P-1}"``; the seat to move
acts with an integer from the same action numbering as the OpenSpiel game
(:mod:`dominosim.reference.table`: one action per move, in the canonical order, and the knock),
under an action mask. Chance is not an agent: the deal and every draw are the reference engine's
own for the seed given to ``reset`` (hand ``i`` after ``i`` further resets without a seed), so an
episode is the hand ``ds.replay`` would deal, and played with the same choices it is the same hand.
The forced opening double is played for its holder, as in the reference engine.

Observations show only the seat's view (``"observation"``: the position now, or
``"information_state"``: everything the seat has seen), as flat ``float32`` vectors with an
``"action_mask"``. Rewards are zero-sum, given at the end of the hand: the winning side's seats get
the points of the rules' scoring, taken in equal shares from the other seats. With ``target`` an
episode is a match: hands are dealt until a side reaches the target, the points of each hand are
in ``infos`` as ``"hand_points"``, and the reward, at the end of the match, is 1 to each seat of the
winning side, taken in equal shares from the others.

Examples
--------
>>> import dominosim as ds
>>> from dominosim import pettingzoo
>>> table = pettingzoo.env(ds.Rules.preset("draw", players=3))
>>> table.reset(seed=7)
>>> for agent in table.agent_iter():
...     observation, reward, termination, truncation, info = table.last()
...     mask = observation["action_mask"]
...     table.step(None if termination else int(mask.nonzero()[0][0]))
>>> sum(table.unwrapped.totals.values())
0.0
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .reference.game import opens_with_double
from .reference.hand import deal
from .reference.table import (
    Encoding,
    Table,
    action_name,
    information_state,
    n_actions,
    observation,
)
from .rng import hand_key, match_hand_key
from .rules import Rules
from .tiles import tile_id

OBSERVATIONS = ("observation", "information_state")
RENDER_MODES = ("ansi", "rgb_array")


def env(rules: Rules, *, target: int | None = None, observation: str = "observation",
        render_mode: str | None = None) -> AECEnv:
    """A PettingZoo AEC environment playing hands of ``rules``.

    Parameters
    ----------
    rules : Rules
    target : int, optional
        Play a match to this many points per episode (the reward comes at its end); by default
        an episode is one hand.
    observation : {'observation', 'information_state'}
        What the seat's vector holds: the position now, or everything it has seen.
    render_mode : {'ansi', 'rgb_array'}, optional
        ``'ansi'``: the table as text (every hand face up); ``'rgb_array'``: the position picture
        (:func:`dominosim.plots.position`) as an ``(height, width, 3)`` array.

    Returns
    -------
    pettingzoo.AECEnv
        The environment inside PettingZoo's order-enforcing wrapper (``.unwrapped`` is
        :class:`DominoEnv`).

    Examples
    --------
    >>> import dominosim as ds
    >>> e = env(ds.Rules.preset("block", players=4), render_mode="ansi")
    >>> e.reset(seed=1)
    >>> e.agent_selection, int(e.action_space("seat_0").n)
    ('seat_2', 85)
    >>> print(e.render().splitlines()[1])
    table: 6 6 showing, 1 tiles down
    """
    return wrappers.OrderEnforcingWrapper(DominoEnv(rules, target=target,
                                                    observation=observation,
                                                    render_mode=render_mode))


class DominoEnv(AECEnv, EzPickle):
    """The AEC environment of :func:`env` (see the module's docstring).

    Parameters
    ----------
    rules : Rules
    target : int, optional
    observation : {'observation', 'information_state'}
    render_mode : {'ansi', 'rgb_array'}, optional

    Attributes
    ----------
    rules : Rules
    table : Table
        The hand in play.
    totals : dict
        Each agent's rewards summed over the episode so far.
    scores : list of int
        With ``target``: the match score by side.
    """

    metadata = {"name": "dominosim_v0", "render_modes": list(RENDER_MODES),
                "is_parallelizable": False, "render_fps": 1}

    def __init__(self, rules: Rules, *, target: int | None = None,
                 observation: str = "observation", render_mode: str | None = None) -> None:
        EzPickle.__init__(self, rules, target=target, observation=observation,
                          render_mode=render_mode)
        super().__init__()
        if not isinstance(rules, Rules):
            raise ValueError(f"The value for `rules` must be a dominosim Rules, but "
                             f"{type(rules).__name__} was passed.")
        if opens_with_double(rules) and rules.hand_size == 1:
            raise ValueError("The value for `hand_size` must be 2 or more with "
                             "opening='highest_double' (with one tile each, every hand ends "
                             "with the forced opening double and no seat ever acts), but 1 was "
                             "passed.")
        if target is not None and (isinstance(target, bool) or not isinstance(target, int)
                                   or target < 1):
            raise ValueError(f"The value for `target` must be None or a positive integer, but "
                             f"{target!r} was passed.")
        if observation not in OBSERVATIONS:
            raise ValueError(f"The value for `observation` must be one of 'observation', "
                             f"'information_state', but {observation!r} was passed.")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"The value for `render_mode` must be None, 'ansi' or 'rgb_array', "
                             f"but {render_mode!r} was passed.")
        self.rules, self.target, self.render_mode = rules, target, render_mode
        self._recall = observation == "information_state"
        enc = Encoding(rules)
        size = self._size = enc.information_size if self._recall else enc.observation_size
        self.possible_agents = [f"seat_{s}" for s in range(rules.players)]
        self.agents = list(self.possible_agents)
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, float(2 * rules.n_tiles), (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (n_actions(rules),), np.int8)})
        self._act_space = spaces.Discrete(n_actions(rules))
        self._seed, self._episode = 0, -1
        self.table = Table(rules)
        self.totals: dict[str, float] = {}
        self.scores: list[int] = []

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space:
        """The seat's observation: a vector and the action mask."""
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space:
        """One integer per move, and the knock."""
        return self._act_space

    # ------------------------------------------------------------------ episodes
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start an episode: hand (or match) 0 of ``seed``, or the next one of the last seed."""
        if seed is not None:
            self._seed, self._episode = int(seed), 0
        else:
            self._episode += 1
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.totals = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.scores = [0] * self.rules.n_sides
        self._hand = 0
        self.agent_selection = self.possible_agents[0]
        self._deal_hand()
        self._settle()

    def _deal_hand(self) -> None:
        key = (hand_key(self._seed, self._episode) if self.target is None
               else match_hand_key(self._seed, self._episode, self._hand))
        hands, boneyard = deal(self.rules, key)[-1]
        self.table = Table(self.rules)
        for hand in hands:
            for tile in hand:
                self.table.apply(tile_id(tile))
        self.table.game.boneyard = list(boneyard)  # the same tiles, in the order they are drawn
        self._draws = [tile_id(t) for t in boneyard]
        self._advance()

    def _advance(self) -> None:
        """Give the drawn tiles (the reference engine's boneyard order) until a seat is to act."""
        table = self.table
        while table.is_chance():
            table.apply(self._draws.pop(0))
        if not table.is_over():
            self.agent_selection = self.possible_agents[table.to_move]

    # ------------------------------------------------------------------ steps
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What ``agent``'s seat sees, and its action mask (all zero when not its turn)."""
        seat = self.possible_agents.index(agent)
        vector = np.zeros(self._size, np.float32)
        if self._recall:
            information_state(self.table, seat, vector)
        else:
            observation(self.table, seat, vector)
        mask = np.zeros(self._act_space.n, np.int8)
        if self.table.to_move == seat:
            mask[self.table.legal_actions()] = 1
        return {"observation": vector, "action_mask": mask}

    def step(self, action: Any) -> None:
        """The selected seat plays ``action`` (one its mask allows)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        legal = self.table.legal_actions()
        if action is None or int(action) not in legal:
            names = ", ".join(f"{a} ({action_name(self.rules, a)})" for a in legal)
            raise ValueError(f"The value for `action` must be one of the legal actions of "
                             f"{agent}: {names}, but {action!r} was passed.")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.table.apply(int(action))
        self._advance()
        self._settle()

    def _settle(self) -> None:
        """End the hands that are over (a hand may end before any seat acts: a lone opening
        double), deal the next ones of a match, and hand out the rewards.
        """
        while self.table.is_over() and not any(self.terminations.values()):
            self._hand_over()
        self._accumulate_rewards()
        for a, r in self.rewards.items():
            self.totals[a] += r

    def _hand_over(self) -> None:
        returns = self.table.returns()
        state = self.table.game
        won, points = int(state.winning_side or 0), int(state.points or 0)  # known: all dealt
        info = {"hand_points": returns, "winning_side": won, "end": state.how}
        if self.target is None:
            self.rewards = dict(zip(self.agents, returns, strict=True))
            self._finish(info)
            return
        if won >= 0:
            self.scores[won] += points
        if max(self.scores) >= self.target:
            won = self.scores.index(max(self.scores))
            share = 1.0 / (self.rules.n_sides - 1)
            self.rewards = {a: 1.0 if self.rules.side_of(s) == won else -share
                            for s, a in enumerate(self.agents)}
            self._finish({**info, "match_scores": list(self.scores), "match_winner": won})
            return
        self.infos = {a: dict(info) for a in self.agents}
        self._hand += 1
        self._deal_hand()  # the loop in _settle ends this hand too if it is over at once

    def _finish(self, info: dict) -> None:
        self.terminations = dict.fromkeys(self.agents, True)
        self.infos = {a: dict(info) for a in self.agents}

    # ------------------------------------------------------------------ display
    def render(self) -> Any:
        """The table as text (``'ansi'``) or as a picture (``'rgb_array'``)."""
        from .solver.position import Position

        if self.render_mode is None:
            return None
        position = Position(self.table.game)
        if self.render_mode == "ansi":
            return str(position)
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        from .plots.positions import position as draw

        figure = Figure(figsize=(7.5, 6.0), dpi=80)
        canvas = FigureCanvasAgg(figure)
        draw(position, ax=figure.subplots())
        canvas.draw()
        return np.asarray(canvas.buffer_rgba())[:, :, :3].copy()

    def close(self) -> None:
        """Nothing to release."""


__all__ = ["OBSERVATIONS", "RENDER_MODES", "DominoEnv", "env"]
