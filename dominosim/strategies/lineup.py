"""Line-ups: a strategy object from a built-in name, an object or a function, one per seat.

Examples
--------
>>> from dominosim.rules import Rules
>>> [s.name for s in resolve_lineup(Rules.preset("block", players=2), "bully")]
['bully', 'bully']
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..rules import Rules
from .registry import NAMES, PLAYERS, SEARCHES, STYLES, unalias
from .search import SearchStrategy
from .styles import (
    AccompaniedStrategy,
    BullyStrategy,
    CounterStrategy,
    DoublesStrategy,
    FunctionStrategy,
    PartnerStrategy,
    RandomStrategy,
    StitcherStrategy,
    Strategy,
)
from .weighted import BUILTIN_PLAYERS, FILE_PREFIX, load_named

__all__ = ["BUILTINS", "SEARCHES", "STYLES", "per_seat", "resolve", "resolve_lineup"]


_STYLE_CLASSES = {
    "random": RandomStrategy,
    "bully": BullyStrategy,
    "doubles": DoublesStrategy,
    "accompanied": AccompaniedStrategy,
    "stitcher": StitcherStrategy,
    "counter": CounterStrategy,
    "partner": PartnerStrategy,
}


def _search(name: str) -> Callable[[], Any]:
    def make() -> Any:
        return SearchStrategy.from_name(name)

    make.__name__ = name
    return make


BUILTINS: dict[str, Callable[[], Any]] = {
    name: _STYLE_CLASSES[name] if name in STYLES else BUILTIN_PLAYERS[name] if name in PLAYERS
    else _search(name)
    for name in NAMES}
"""Built-in strategies by name, in the registry's order (:mod:`dominosim.strategies.registry`, which
also holds each one's compiled code). The search strategies (:mod:`dominosim.strategies.search`) also
take a budget: ``"mc:200"``."""


def resolve(strategy: Any) -> Strategy:
    """A strategy object from a built-in name, an object with ``choose``, or a function.

    >>> resolve("random").name
    'random'
    >>> resolve("rnadom")
    Traceback (most recent call last):
    ...
    ValueError: The value for `strategies` must be a built-in name (one of 'random', 'bully', 'doubles', 'accompanied', 'stitcher', 'counter', 'partner', 'mc', 'ismcts', 'mc_omniscient', 'ismcts_omniscient', 'pimc', 'tuned', 'learned', 'epimc'; a search with a budget as 'mc:200'; a saved player as 'file:player.npz'), an object with a choose(view, moves, rng) method, or a function, but 'rnadom' was passed.
    """
    strategy = unalias(strategy)  # "best": a search with its budget
    if isinstance(strategy, str) and strategy in BUILTINS:
        return BUILTINS[strategy]()
    if isinstance(strategy, str) and strategy.startswith(FILE_PREFIX):
        return load_named(strategy)
    if isinstance(strategy, str) and (":" in strategy or "+" in strategy):
        return SearchStrategy.from_name(strategy)
    if hasattr(strategy, "choose") and callable(strategy.choose):
        return strategy
    if callable(strategy) and not isinstance(strategy, str):
        return FunctionStrategy(strategy)
    names = ", ".join(repr(n) for n in BUILTINS)
    raise ValueError(
        f"The value for `strategies` must be a built-in name (one of {names}; a search with a "
        f"budget as 'mc:200'; a saved player as 'file:player.npz'), an object with a choose(view, moves, rng) method, or a function, "
        f"but {strategy!r} was passed.")


def per_seat(rules: Rules, strategies: Any) -> list[Any]:
    """The line-up as one entry per seat: a single strategy (name or object) sits at every seat."""
    if isinstance(strategies, str) or not isinstance(strategies, (list, tuple)):
        strategies = [strategies] * rules.players
    if len(strategies) != rules.players:
        raise ValueError(
            f"The value for `strategies` must name one strategy per seat ({rules.players}) or a "
            f"single strategy for all, but {len(strategies)} were passed.")
    return list(strategies)


def resolve_lineup(rules: Rules, strategies: Any) -> list[Strategy]:
    """One strategy object per seat (see :func:`per_seat`); a weighted player fitted for other
    rules is refused; a search with inference (``+infer``) knows the line-up (it is public in a
    simulation) and models the seats it can.
    """
    lineup = [resolve(s) for s in per_seat(rules, strategies)]
    for strategy in lineup:
        if hasattr(strategy, "weights_for"):
            strategy.weights_for(rules)
    return [s.bound(lineup) if isinstance(s, SearchStrategy) else s for s in lineup]
