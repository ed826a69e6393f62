"""Strategies written by users as compiled functions, played by both engines.

A plug-in is a numba ``@njit`` function with this signature::

    choose(moves_tile, moves_suit, n_moves, view, rng) -> int

* ``moves_tile``, ``moves_suit`` (int64 arrays): the distinct legal moves in canonical order
  (tile id, then suit), the first ``n_moves`` entries valid (``n_moves >= 2``). For the lead under
  ``opening='any'`` the suits are -1. Tile tables: ``dominosim.tiles.LOW``, ``HIGH``, ``PIPS``.
* ``view`` (int64 array): what the seat sees, at the offsets ``V_*`` below: its seat, the number of
  players, the boneyard size, the number of open ends, the opener, its partner (-1), the number of
  open ends showing each suit (16 slots), every seat's tile count, the suits each seat is known to
  lack (bit masks), then its own tiles (ids, ``view[V_HAND + i]`` for ``i < tile count``).
* ``rng`` (uint64 array of one element): the seat's random stream; draw with
  ``dominosim.fast.rng.below(rng, 0, n)``, nothing else, so hands replay exactly.

It returns the index of its move. :func:`compiled_strategy` wraps it: the compiled engine calls it
through a C function pointer (so the engine's cached kernels are reused: only the plug-in itself is
compiled in a new process), the reference engine calls it with the same arrays built from the
:class:`~dominosim.strategies.SeatView`, so one function behaves identically in both.

Examples
--------
>>> import numba
>>> import dominosim as ds
>>> from dominosim.tiles import PIPS
>>> @numba.njit
... def lightest(moves_tile, moves_suit, n_moves, view, rng):
...     best = 0
...     for i in range(1, n_moves):
...         if PIPS[moves_tile[i]] < PIPS[moves_tile[best]]:
...             best = i
...     return best
>>> light = ds.compiled_strategy(lightest)
>>> rules = ds.Rules.preset("draw", players=2)
>>> fast = ds.simulate(rules, [light, "random"], n_hands=300, seed=4)
>>> ref = ds.simulate(rules, [light, "random"], n_hands=300, seed=4, engine="reference")
>>> fast.equals(ref)
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

V_SEAT, V_PLAYERS, V_BONEYARD, V_N_ENDS, V_OPENER, V_PARTNER = range(6)
V_SUIT_COUNT = 6
"""``view[V_SUIT_COUNT + v]``: open ends showing suit ``v``."""
V_TILE_COUNTS = V_SUIT_COUNT + 16
"""``view[V_TILE_COUNTS + s]``: tiles in seat ``s``'s hand; then ``view[V_TILE_COUNTS + players +
s]``: bit mask of the suits seat ``s`` is known to lack."""
V_HAND_OFFSET = 2
"""The seat's own tile ids start at ``view[V_TILE_COUNTS + V_HAND_OFFSET * players]``."""


def view_length(players: int, n_tiles: int) -> int:
    """Length of the view array: the fixed fields, two per seat, and room for a whole set."""
    return V_TILE_COUNTS + V_HAND_OFFSET * players + n_tiles


_SIG = types.int64(types.CPointer(types.int64), types.CPointer(types.int64), types.int64,
                   types.CPointer(types.int64), types.CPointer(types.uint64), types.int64,
                   types.int64)


@intrinsic
def call_plugin(typingctx, address, moves_tile, moves_suit, n, view, rng, view_len):
    """Call the plug-in at ``address`` (from :class:`CompiledStrategy`) on the given arrays."""
    sig = types.int64(address, moves_tile, moves_suit, n, view, rng, view_len)

    def codegen(context, builder, signature, args):
        addr, mt, ms, n_moves, vw, st, vlen = args
        i64 = ir.IntType(64)
        fnty = ir.FunctionType(i64, [i64.as_pointer(), i64.as_pointer(), i64, i64.as_pointer(),
                                     i64.as_pointer(), i64, i64])
        fn = builder.inttoptr(addr, fnty.as_pointer())

        def data(value, ty):
            arr = context.make_array(ty)(context, builder, value)
            return builder.bitcast(arr.data, i64.as_pointer())

        capacity = builder.extract_value(
            context.make_array(signature.args[1])(context, builder, mt).shape, 0)
        return builder.call(fn, [data(mt, signature.args[1]), data(ms, signature.args[2]),
                                 n_moves, data(vw, signature.args[4]),
                                 data(st, signature.args[5]), capacity, vlen])

    return sig, codegen


class CompiledStrategy:
    """A user's compiled ``choose(moves_tile, moves_suit, n_moves, view, rng)`` as a strategy.

    Use :func:`compiled_strategy` to make one. ``choose(view, moves, rng)`` (the Python strategy
    protocol) runs it in the reference engine; :attr:`address` is what the compiled engine calls.
    """

    def __init__(self, func: Callable, name: str | None = None) -> None:
        if not isinstance(func, numba.core.registry.CPUDispatcher):
            raise ValueError(
                "The value for `func` must be a numba @njit function choose(moves_tile, "
                f"moves_suit, n_moves, view, rng) -> int, but {func!r} was passed.")
        self.func = func
        self.name = name or func.__name__
        self._cfunc = None

    @property
    def address(self) -> int:
        """Address of the C-callable wrapper the compiled engine calls (compiled on first use)."""
        if self._cfunc is None:
            user = self.func

            @numba.cfunc(_SIG, nopython=True)
            def wrapper(mt, ms, n, vw, st, capacity, vlen):
                return user(numba.carray(mt, capacity), numba.carray(ms, capacity), n,
                            numba.carray(vw, vlen), numba.carray(st, 1))

            self._cfunc = wrapper
        return self._cfunc.address

    def choose(self, view: Any, moves: Sequence, rng: Any) -> Any:
        from ..tiles import tile_id

        rules = view.rules
        n = len(moves)
        tiles = np.array([tile_id(m.tile) for m in moves], dtype=np.int64)
        suits = np.array([m.suit for m in moves], dtype=np.int64)
        arr = np.zeros(view_length(rules.players, rules.n_tiles), dtype=np.int64)
        arr[V_SEAT], arr[V_PLAYERS], arr[V_BONEYARD] = view.seat, rules.players, view.boneyard_size
        arr[V_N_ENDS], arr[V_OPENER] = len(view.ends), view.opener
        arr[V_PARTNER] = -1 if view.partner is None else view.partner
        for v in view.ends:
            arr[V_SUIT_COUNT + v] += 1
        p = rules.players
        arr[V_TILE_COUNTS:V_TILE_COUNTS + p] = view.tile_counts
        arr[V_TILE_COUNTS + p:V_TILE_COUNTS + 2 * p] = [sum(1 << v for v in lacks)
                                                        for lacks in view.known_lacks]
        hand = sorted(tile_id(t) for t in view.hand)
        first = V_TILE_COUNTS + V_HAND_OFFSET * p
        arr[first:first + len(hand)] = hand
        state = np.array([rng._state], dtype=np.uint64)
        index = int(self.func(tiles, suits, n, arr, state))
        rng._state = int(state[0])
        if not 0 <= index < n:
            from ..game import IllegalMoveError

            raise IllegalMoveError(f"Strategy {self.name!r} returned move index {index}, but "
                                   f"it had {n} legal moves (indices 0 to {n - 1}).")
        return moves[index]

    def __repr__(self) -> str:
        return f"compiled_strategy({self.name!r})"


def compiled_strategy(func: Callable, name: str | None = None) -> CompiledStrategy:
    """Wrap a numba function ``choose(moves_tile, moves_suit, n_moves, view, rng) -> int`` as a
    strategy both engines play (see the module documentation for the arrays it receives).

    Parameters
    ----------
    func : numba.njit function
    name : str, optional
        A label (default: the function's name).
    """
    return CompiledStrategy(func, name)
