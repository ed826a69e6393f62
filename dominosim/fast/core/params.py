"""What the kernels are told about a run: the rules as a named tuple of integers, and the line-up.

:data:`RULE_FIELDS` is the one table that turns a :class:`~dominosim.rules.Rules` into the kernels'
:class:`Params` (``rp.players``, ``rp.draw`` and so on, a tuple of ``int64`` that numba passes by
value): a new rule field is one line here. :data:`STRATEGY_CODES` (the built-in
strategies' codes, with what each needs) comes from the strategy registry,
:mod:`dominosim.strategies.registry`. A :class:`Lineup` holds,
by seat, the strategy's code, its search budget and a plug-in's address.

Examples
--------
>>> from dominosim.rules import Rules
>>> rp = rule_params(Rules.preset("draw", players=3))
>>> int(rp.players), int(rp.hand_size), bool(rp.draw == DRAW_UNTIL), int(rp.tiles)
(3, 5, True, 28)
>>> STRATEGY_CODES["ismcts"]
StrategyCode(code=8, kind='search', searches=True, tree=True, omniscient=False, solves=False, postpones=False)
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ...rules import Rules
from ...strategies.registry import STRATEGY_CODES, StrategyCode  # noqa: F401 (StrategyCode re-exported)

OPEN_DOUBLE, OPEN_ANY = 0, 1
OPENING_CODES = {"highest_double": OPEN_DOUBLE, "any": OPEN_ANY}
DRAW_NONE, DRAW_UNTIL, DRAW_ONE = 0, 1, 2
DRAW_CODES = {"none": DRAW_NONE, "until_playable": DRAW_UNTIL, "one": DRAW_ONE}
END_OUT, END_TEAM_OUT = 0, 1
END_CODES = {"out": END_OUT, "team_out": END_TEAM_OUT}
SCORE_GAME, SCORE_SPOTS, SCORE_BALANCE = 0, 1, 2
SCORING_CODES = {"game": SCORE_GAME, "spots": SCORE_SPOTS, "balance": SCORE_BALANCE}
CODES = {"opening": OPENING_CODES, "draw": DRAW_CODES, "end": END_CODES, "scoring": SCORING_CODES}
"""The code of every value of each enumerated :class:`~dominosim.rules.Rules` field, by field. Each
code is matched by name in its one decider (:mod:`dominosim.fast.core.turn`), which answers
``UNDECIDED`` for a code it has no rule for."""

RULE_FIELDS = (
    ("max_pip", lambda r: r.max_pip),
    ("players", lambda r: r.players),
    ("hand_size", lambda r: r.hand_size),
    ("partnerships", lambda r: r.partnerships),
    ("opening", lambda r: OPENING_CODES[r.opening]),
    ("leader", lambda r: -1 if r.leader is None else r.leader),
    ("draw", lambda r: DRAW_CODES[r.draw]),
    ("keep", lambda r: r.boneyard_keep),
    ("arms", lambda r: r.opening_arms),
    ("fill", lambda r: r.fill_opening_first),  # Rules allows it only with the highest double
    ("branch", lambda r: r.doubles_branch),
    ("end", lambda r: END_CODES[r.end]),
    ("scoring", lambda r: SCORING_CODES[r.scoring]),
    ("tiles", lambda r: r.n_tiles),
    ("sides", lambda r: r.players // 2 if r.partnerships else r.players),
)
"""``(name, value from Rules)`` for every field of :class:`Params`."""

Params = namedtuple("Params", [name for name, _ in RULE_FIELDS])
"""The rules as the kernels read them, by name (see :data:`RULE_FIELDS`)."""


def rule_params(rules: Rules) -> Params:
    """The kernels' :class:`Params` of ``rules``."""
    return Params(*(np.int64(value(rules)) for _, value in RULE_FIELDS))


PLUGIN = 99
"""The code of a seat that plays a user's compiled strategy."""
S_RANDOM, S_BULLY, S_DOUBLES, S_ACCOMPANIED, S_STITCHER, S_COUNTER, S_PARTNER = range(7)
_BY_CODE = {c.code: c for c in STRATEGY_CODES.values()}
SEARCH_METHOD = np.array([_BY_CODE[i].method if i in _BY_CODE else -1
                          for i in range(max(_BY_CODE) + 1)], dtype=np.int64)
"""By strategy code: its search method (:data:`~dominosim.strategies.registry.METHODS`), -1 if
it does not search; read from the registry, so the kernel decides nothing about a code itself."""
OMNISCIENT = np.array([i in _BY_CODE and _BY_CODE[i].omniscient
                       for i in range(max(_BY_CODE) + 1)], dtype=np.bool_)
"""By strategy code: whether the search sees the hidden hands."""

S_WEIGHTED = STRATEGY_CODES["tuned"].code
"""The code of every weighted player (``tuned``, a ``ds.Weighted``, a ``"file:"`` player); its
weights travel in ``Lineup.weights``."""

Lineup = namedtuple("Lineup", ["codes", "budgets", "plugins", "weights", "infer", "models",
                               "model_rows"])
"""By seat (``int64`` arrays): the strategy's code, its search budget (0 when it does not search)
and the address of the plug-in it plays (0 for none); ``weights``: by seat, a weighted player's
weights over the decision features, then its temperature (``float64``, seats x (features +
1)), or None when no seat plays
one (the weighted player is then not compiled into the kernel); ``infer``: by seat, its search's
inference candidates (0: none, see :mod:`dominosim.fast.search.infer`); ``models`` and
``model_rows``: by seat, the model inference keeps of the seat's play and a weighted model's
weights and temperature (:func:`dominosim.strategies.search.model_of`; -1 and no columns when no
seat infers)."""


def lineup_arrays(codes, budgets=None, plugins=None, weights=None, infer=None, models=None,
                  model_rows=None) -> Lineup:
    """A :class:`Lineup` from per-seat sequences (budgets, plug-ins and inference default to
    zeros, weights to None, the models to none)."""
    codes = np.asarray(codes, dtype=np.int64)
    zeros = np.zeros(len(codes), dtype=np.int64)
    return Lineup(codes, zeros.copy() if budgets is None else np.asarray(budgets, dtype=np.int64),
                  zeros.copy() if plugins is None else np.asarray(plugins, dtype=np.int64),
                  None if weights is None else np.ascontiguousarray(weights, dtype=np.float64),
                  zeros.copy() if infer is None else np.asarray(infer, dtype=np.int64),
                  zeros - 1 if models is None else np.asarray(models, dtype=np.int64),
                  np.zeros((len(codes), 0)) if model_rows is None
                  else np.ascontiguousarray(model_rows, dtype=np.float64))
