"""``python -m dominosim.play``: play a hand at the terminal against any strategies, then see the
review of your decisions (``--help`` for the options). The code, and :func:`dominosim.play` for
notebooks, is in :mod:`dominosim.interactive`; this package is only the command's entry point.

Importing this package makes Python set the attribute ``dominosim.play`` to it, over the function
of the same name: the package is therefore callable, and calling it calls the function, so
``ds.play(...)`` works whether or not the package was imported.
"""

import sys
import types

from ..interactive import play as play_hand_at_table


class _CallableModule(types.ModuleType):
    """This package, callable as :func:`dominosim.interactive.play`."""

    def __call__(self, *args, **kwargs):
        return play_hand_at_table(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
