"""What shapes the hot loop, as compile-time facts: a :class:`Shape` is typed by numba as a
:class:`ShapeType` whose attributes are constants, so each game family runs a kernel specialised
for it (compiled on first use, cached on disk per shape).

``words``
    64-bit words of a tile mask: 1 up to double-nine (55 tiles), 2 up to double-fourteen, 3 for
    double-fifteen (136 tiles). Loops over words unroll.
``line``
    The layout is a two-ended line: two arms, no branching doubles, no fill-first phase.
``draws``
    Seats that cannot play may draw from the boneyard (the rules' ``draw`` then decides at run
    time; a kernel with ``draws`` false has no drawing code).
``styles``
    Some seat plays a deterministic built-in or a plug-in, which read the known-to-lack suits and
    the tiles each seat played: the kernel keeps those tables only then.
``plugins``
    Some seat plays a user's compiled strategy.
``events``
    The hand's event log is written (replays).
``searches``
    Some seat plays a search strategy, which reads the public log.

Inside compiled code ``if shape.draws:`` is a constant: LLVM drops the branch that cannot run, and
``for w in range(shape.words)`` has a constant trip count. :attr:`Shape.core` is the shape of a
search's playouts (the same game, none of the extras).

Examples
--------
>>> from dominosim.rules import Rules
>>> Shape.of(Rules.preset("block", players=4))
Shape(words=1, line=True, draws=False, styles=False, plugins=False, events=False, searches=False)
>>> Shape.of(Rules.preset("double_nine_cross", players=4), styles=True).core
Shape(words=1, line=False, draws=True, styles=False, plugins=False, events=False, searches=False)
"""

from __future__ import annotations

from dataclasses import astuple, dataclass, fields

from numba import types
from numba.core.imputils import lower_cast, lower_constant
from numba.extending import (
    NativeValue,
    models,
    overload_attribute,
    register_model,
    typeof_impl,
    unbox,
)

from ...rules import Rules
from .board import words_of
from .jit import CoreDispatcher


@dataclass(frozen=True)
class Shape:
    """The compile-time facts of a run (see the module documentation)."""

    words: int
    line: bool
    draws: bool
    styles: bool = False
    plugins: bool = False
    events: bool = False
    searches: bool = False

    @classmethod
    def of(cls, rules: Rules, *, styles: bool = False, plugins: bool = False, events: bool = False,
           searches: bool = False) -> Shape:
        """The shape of a run of ``rules`` with the given extras.

        Replays (``events``), runs where a seat searches and runs where a seat plays a style or
        a plug-in (``styles``) get the *general* kernel of their word count (any layout, drawing
        decided by the rules at run time, the style tables kept): their time goes into single
        hands, searching or the styles' choices, not into the turn loop (measured: a line of
        ``bully`` players is as fast on the general kernel, issue 21 in ``benchmarks/README.md``),
        so one compiled kernel serves every game of a set size instead of one per family. Runs of
        ``random`` players only keep a kernel per family: there the specialised turn loop is
        worth 10-20%."""
        if events or searches or styles:
            return cls(words_of(rules.n_tiles), False, True, True, plugins, events, searches)
        line = rules.opening_arms == 2 and not rules.doubles_branch and not rules.fill_opening_first
        return cls(words_of(rules.n_tiles), line, rules.can_draw, styles, plugins, events, searches)

    @classmethod
    def searching(cls, rules: Rules) -> Shape:
        """The shape of a search's playouts under ``rules`` (the core of any searching run)."""
        return cls.of(rules, searches=True).core

    @property
    def core(self) -> Shape:
        """The same game without the extras: the shape of a search's playouts."""
        return Shape(self.words, self.line, self.draws)


class ShapeType(types.Type):
    """numba's type of a :class:`Shape`: one type per shape, so one compilation per shape."""

    def __init__(self, shape: Shape) -> None:
        self.shape = shape
        body = ", ".join(f"{f.name}={v}" for f, v in zip(fields(Shape), astuple(shape), strict=True))
        super().__init__(name=f"Shape({body})")


@typeof_impl.register(Shape)
def _typeof_shape(value, context):
    return ShapeType(value)


register_model(ShapeType)(models.OpaqueModel)


@unbox(ShapeType)
def _unbox_shape(typ, obj, c):
    return NativeValue(c.context.get_dummy_value())


@lower_constant(ShapeType)
def _constant_shape(context, builder, typ, value):
    return context.get_dummy_value()


CoreDispatcher.cores[ShapeType] = lambda typ: ShapeType(typ.shape.core)


@lower_cast(ShapeType, ShapeType)
def _cast_shape(context, builder, fromty, toty, val):
    """A shape passed where its core is expected (:class:`~.jit.CoreDispatcher`): no value."""
    return context.get_dummy_value()


def _constant_attribute(name: str) -> None:
    @overload_attribute(ShapeType, name, jit_options={"cache": True})
    def _attribute(shape):
        value = getattr(shape.shape, name)
        return lambda shape: value


for _field in fields(Shape):
    _constant_attribute(_field.name)


@overload_attribute(ShapeType, "core", jit_options={"cache": True})
def _core(shape):
    core = shape.shape.core
    return lambda shape: core

