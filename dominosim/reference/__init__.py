"""The reference engine: the rule book (``docs/rules.md``) as plain, readable Python.

==============  ==========================================================================
``game``        the game state, one function per rule (legal moves, knocks, draws, the end)
``transcript``  a hand log as readable text
``handfile``    a hand log as JSON (``dominosim.hand/1``), and a typed-in hand replayed by the
                rules of ``game``
``hand``        the hand and match loop with strategies, and the hand log
==============  ==========================================================================

The package holds two layers of ``docs/design.md``, as the compiled engine does: ``game``,
``transcript`` and ``handfile`` are layer 3 (they import the rules and the tiles, nothing that
chooses a move), ``hand`` is layer 5 (it asks the strategies of layer 4, which read the game state
of layer 3). So this package imports none of them on its own, and importing the rules never loads
the loop: import from its modules. The hand loop's names (``HandLog``, ``play_hand``...) are also
reachable here, loaded on first use.

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
