"""``check_strategy``: a conformance check for a strategy of your own.

Examples
--------
>>> import dominosim as ds
>>> def lightest(view, moves, rng):
...     return min(moves, key=lambda m: sum(m.tile))
>>> report = ds.check_strategy(lightest, n_hands=50)
>>> report.ok, report.engines
(True, ('reference',))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numba
import pandas as pd

from ..reference.game import IllegalMoveError
from ..rng import check_seed
from ..rules import Rules, check_rules
from ..strategies.lineup import resolve
from ..strategies.plugins import CompiledStrategy
from .play import simulate

DEFAULT_RULES = (
    Rules.preset("block", players=4),
    Rules.preset("draw", players=2),
    Rules.preset("cross", players=3),
    Rules.preset("double_nine_cross", players=4),
    Rules.preset("draw", players=3, opening="any", leader=1, draw="one"),
)


@dataclass
class CheckReport:
    """What :func:`check_strategy` found: ``ok`` and, when not, the problems in sentences."""

    ok: bool
    engines: tuple[str, ...]
    hands: int
    problems: list[str] = field(default_factory=list)


def check_strategy(strategy: Any, rules: Rules | list[Rules] | None = None, n_hands: int = 200,
                   seed: int = 0) -> CheckReport:
    """Play ``n_hands`` hands per rule set with ``strategy`` at every other seat (``random`` at the
    rest) and check that it conforms.

    Checked: every move it makes is legal (the engines refuse anything else); it raises no
    exception, returns a move (an integer index in range, for a compiled strategy) and leaves the
    arrays it is given unchanged; a replay of the same
    hands gives the same records (it draws randomness only from its stream); and, for a compiled
    strategy (:func:`dominosim.compiled_strategy`), the compiled and the reference engines give
    identical records hand for hand. A strategy cannot read hidden tiles: both interfaces hand it
    only the seat's view (its own tiles, the table, the public history).

    Parameters
    ----------
    strategy : function, object with ``choose``, CompiledStrategy, or numba @njit function
        A numba function is checked as :func:`dominosim.compiled_strategy` would wrap it; one
        that does not fit the plug-in signature is a finding, not an error.
    rules : Rules or list of Rules, optional
        Default: Block 4p, Draw 2p, Cross 3p, Double Nine Cross 4p, and a 3-player draw-one game
        with ``opening='any'``.
    n_hands, seed : int

    Returns
    -------
    CheckReport
    """
    rule_sets = _check_arguments(rules, n_hands, seed)
    if isinstance(strategy, numba.core.registry.CPUDispatcher):
        try:
            strategy = CompiledStrategy(strategy)
        except ValueError as error:  # wrong arity, a float or a tuple returned: a finding
            return CheckReport(False, ("reference", "fast"), 0, [str(error)])
    resolve(strategy)
    compiled = isinstance(strategy, CompiledStrategy)
    engines = ("reference", "fast") if compiled else ("reference",)
    problems = []
    for r in rule_sets:
        lineup = [strategy if s % 2 == 0 else "random" for s in range(r.players)]
        try:
            first = simulate(r, lineup, n_hands, seed, engine="reference")
            again = simulate(r, lineup, n_hands, seed, engine="reference")
            assert isinstance(first, pd.DataFrame)  # keep="rows"
            if not first.equals(again):
                problems.append(f"Replaying the same hands of {r} gave different records: the "
                                "strategy uses randomness other than its stream.")
            if compiled:
                fast = simulate(r, lineup, n_hands, seed, engine="fast")
                assert isinstance(fast, pd.DataFrame)
                if not fast.equals(first):
                    problems.append(f"The compiled and reference engines disagree on {r}.")
        except IllegalMoveError as error:
            problems.append(f"An illegal move under {r}: {error}")
        except Exception as error:  # noqa: BLE001 - every fault of the strategy is a finding
            problems.append(f"The strategy failed under {r}: {type(error).__name__}: "
                            f"{_one_line(error)}")
    return CheckReport(not problems, engines, n_hands * len(rule_sets), problems)


MAX_CHECK_HANDS = 100_000
"""The most hands per rule set :func:`check_strategy` plays (the reference engine plays them)."""


def _check_arguments(rules: Any, n_hands: Any, seed: Any) -> list[Rules]:
    """The rule sets to check; a bad ``rules``, ``n_hands`` or ``seed`` is the caller's error,
    not a finding about the strategy (and a check of no hands would prove nothing).
    """
    if rules is None:
        rule_sets = list(DEFAULT_RULES)
    elif isinstance(rules, (list, tuple)):
        if not rules:
            raise ValueError("The value for `rules` must be a dominosim.Rules, a non-empty list "
                             "of them or None (the default rule sets), but [] was passed.")
        rule_sets = [check_rules(r, f"rules[{i}]") for i, r in enumerate(rules)]
    else:
        rule_sets = [check_rules(rules)]
    if isinstance(n_hands, bool) or not isinstance(n_hands, int) or \
            not 1 <= n_hands <= MAX_CHECK_HANDS:
        raise ValueError(f"The value for `n_hands` must be an integer from 1 to "
                         f"{MAX_CHECK_HANDS:,}, but {n_hands!r} was passed.")
    check_seed(seed)
    return rule_sets


def _one_line(error: BaseException) -> str:
    notes = " ".join(getattr(error, "__notes__", ()))
    return " ".join(f"{error} {notes}".split())
