"""The strategy registry: every built-in strategy's name, kind, compiled code and what it needs.

This is the one table of built-in names. The compiled engine (:mod:`dominosim.fast.core.params`) takes
its codes from here, the batch runner checks a sweep's line-ups against it, and
:mod:`dominosim.strategies.lineup` builds the Python strategies in its order. The codes are part of
the compiled kernels' dispatch: never renumber them.

Examples
--------
>>> STRATEGY_CODES["ismcts"].kind, STRATEGY_CODES["ismcts"].code
('search', 8)
>>> SEARCHES
('mc', 'ismcts', 'mc_omniscient', 'ismcts_omniscient', 'pimc', 'epimc')
>>> kind_of("bully")
'style'
>>> [METHODS[STRATEGY_CODES[n].method] for n in ("mc_omniscient", "ismcts", "pimc", "epimc")]
['mc', 'ismcts', 'pimc', 'epimc']
>>> ALIASES["best"]
'pimc:50+infer'
"""

from __future__ import annotations

from typing import Any, NamedTuple

KINDS = ("random", "style", "search", "player")
"""What a built-in is: uniform random, a deterministic style, a search with a budget, or a fitted
player (a weighted sum of the decision features, :mod:`dominosim.strategies.weighted`)."""


METHODS = ("mc", "ismcts", "pimc", "epimc")
"""The search methods, numbered by their place here (the compiled search dispatches on it)."""


class StrategyCode(NamedTuple):
    """A built-in strategy as the engines know it."""

    code: int
    kind: str
    searches: bool = False
    tree: bool = False  # the search keeps a tree (ismcts)
    omniscient: bool = False
    solves: bool = False  # the search solves sampled worlds (pimc, epimc)
    postpones: bool = False  # the solve is postponed past the seat's next decision (epimc)

    @property
    def method(self) -> int:
        """The search's number in :data:`METHODS` (-1 for a strategy that does not search)."""
        if not self.searches:
            return -1
        return METHODS.index("ismcts" if self.tree else "epimc" if self.postpones else
                             "pimc" if self.solves else "mc")


STRATEGY_CODES = {
    "random": StrategyCode(0, "random"),
    "bully": StrategyCode(1, "style"),
    "doubles": StrategyCode(2, "style"),
    "accompanied": StrategyCode(3, "style"),
    "stitcher": StrategyCode(4, "style"),
    "counter": StrategyCode(5, "style"),
    "partner": StrategyCode(6, "style"),
    "mc": StrategyCode(7, "search", searches=True),
    "ismcts": StrategyCode(8, "search", searches=True, tree=True),
    "mc_omniscient": StrategyCode(9, "search", searches=True, omniscient=True),
    "ismcts_omniscient": StrategyCode(10, "search", searches=True, tree=True, omniscient=True),
    "pimc": StrategyCode(11, "search", searches=True, solves=True),
    # every weighted player (these built-ins, a ds.Weighted, a "file:" player) plays code 12, its
    # weights travelling in the line-up
    "tuned": StrategyCode(12, "player"),
    "learned": StrategyCode(12, "player"),
    "epimc": StrategyCode(13, "search", searches=True, solves=True, postpones=True),
}
"""Every built-in strategy by name, in the order of its compiled code (the kernels dispatch on it)."""

ALIASES = {"best": "pimc:50+infer"}
"""Plain names for a search with its budget: ``"best"`` is the strongest player measured
(``benchmarks/README.md``, issue 23), the default of :func:`dominosim.review`."""


def unalias(name: Any) -> Any:
    """The search a plain name of :data:`ALIASES` stands for, else ``name`` as it is: the one place
    an alias is expanded.

    >>> unalias("best"), unalias("mc:200"), unalias(None)
    ('pimc:50+infer', 'mc:200', None)
    """
    return ALIASES.get(name, name) if isinstance(name, str) else name

NAMES = tuple(STRATEGY_CODES)
"""Every built-in name, in code order."""
SEARCHES = tuple(name for name, c in STRATEGY_CODES.items() if c.searches)
"""The built-in search strategies (:mod:`dominosim.strategies.search`); they take a budget: ``"mc:200"``,
``"pimc:50"``."""
STYLES = tuple(name for name, c in STRATEGY_CODES.items() if c.kind in ("random", "style"))
"""The built-in rules of thumb (and ``random``): a rule each, thousands of times cheaper than a
search."""
PLAYERS = tuple(name for name, c in STRATEGY_CODES.items() if c.kind == "player")
"""The built-in fitted players (``tuned``, ``learned``): weights over the decision features, shipped
as data."""


def kind_of(name: str) -> str:
    """The kind of built-in ``name``: one of :data:`KINDS`.

    >>> kind_of("mc")
    'search'
    >>> kind_of("bulli")
    Traceback (most recent call last):
    ...
    ValueError: The value for `name` must be a built-in strategy name (one of 'random', 'bully', 'doubles', 'accompanied', 'stitcher', 'counter', 'partner', 'mc', 'ismcts', 'mc_omniscient', 'ismcts_omniscient', 'pimc', 'tuned', 'learned', 'epimc'), but 'bulli' was passed.
    """
    if name not in STRATEGY_CODES:
        names = ", ".join(map(repr, NAMES))
        raise ValueError(f"The value for `name` must be a built-in strategy name (one of {names}), "
                         f"but {name!r} was passed.")
    return STRATEGY_CODES[name].kind
