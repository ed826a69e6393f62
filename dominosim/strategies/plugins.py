"""The user-facing plug-in API: a compiled function that plays a seat at compiled speed.

The Python side (:class:`CompiledStrategy`, :func:`compiled_strategy`) and the compiled call
machinery share the layout of the view array and the fault codes, so both live in
:mod:`dominosim.fast.hand.plugin`; this module is the public home of the two names.

>>> from dominosim.strategies.plugins import compiled_strategy
>>> callable(compiled_strategy)
True
"""

from ..fast.hand.plugin import CompiledStrategy, compiled_strategy

__all__ = ["CompiledStrategy", "compiled_strategy"]
