"""The reference engine: the rule book (``docs/rules.md``) as plain, readable Python.

==============  ==========================================================================
``game``        the game state, one function per rule (legal moves, knocks, draws, the end)
``hand``        the hand and match loop with strategies, and the hand log
``transcript``  a hand log as readable text
==============  ==========================================================================

The hand loop sits above the strategies it asks for moves, while the game state sits below them,
so this package imports neither on its own: import from its modules. The hand loop's names
(``HandLog``, ``play_hand``...) are also reachable here, loaded on first use.

>>> from dominosim.reference import play_hand
>>> from dominosim.rules import Rules
>>> play_hand(Rules.preset("block", players=2), "bully", seed=1).record["plays"] >= 1
True
"""

from importlib import import_module
from typing import Any

_HAND_NAMES = ("HandLog", "MatchLog", "MAX_REDEALS", "MAX_MATCH_HANDS", "deal", "take_turn",
               "play_out", "record_of", "play_keyed", "play_hand", "play_match")


def __getattr__(name: str) -> Any:
    if name in _HAND_NAMES:
        return getattr(import_module(".hand", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
