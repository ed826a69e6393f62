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
  ``dominosim.fast.core.rng.below(rng, 0, n)``, nothing else, so hands replay exactly.

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

import inspect
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from ..core.jit import CACHE

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

_ARRAY_I64 = types.Array(types.int64, 1, "C")
_EXPECTED_ARGS = (_ARRAY_I64, _ARRAY_I64, types.int64, _ARRAY_I64, types.Array(types.uint64, 1, "C"))

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


# What the C wrapper returns instead of a move index when the plug-in broke its contract: numbers
# far below any index, so the kernel's range check (``0 <= k < n``) stops the hand with ERR_PLUGIN.
FAULT_RAISED = -(1 << 62) - 1
"""The plug-in raised an exception (numba would otherwise print and swallow it)."""
FAULT_WROTE = -(1 << 62) - 2
"""The plug-in wrote into ``moves_tile``, ``moves_suit`` (first ``n_moves`` entries) or ``view``."""

# The fault record each wrapper fills on its first fault: a header, then copies of the arrays the
# failing call received (to raise the plug-in's own exception again in Python).
F_CODE, F_SEAT, F_N, F_RNG, F_CAPACITY, F_VIEW_LEN = range(6)
F_HEADER = 8
F_ROOM = 512
"""Entries kept of each array; larger than any move list (2 * 136) or view (178)."""
F_LENGTH = F_HEADER + 3 * F_ROOM


@intrinsic
def _int64_pointer(typingctx, address):
    """The integer ``address`` as an ``int64*`` (the wrapper's fault record)."""
    sig = types.CPointer(types.int64)(address)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], context.get_value_type(signature.return_type))

    return sig, codegen


@numba.njit(cache=CACHE)
def _changed(tiles, moves_tile, suits, moves_suit, seen, view):
    """Whether the plug-in wrote into its copies (every entry compared: no two writes cancel)."""
    for i in range(moves_tile.shape[0]):
        if tiles[i] != moves_tile[i] or suits[i] != moves_suit[i]:
            return True
    for i in range(view.shape[0]):
        if seen[i] != view[i]:
            return True
    return False


@numba.njit(cache=CACHE)
def _record_fault(record, code, seat, moves_tile, moves_suit, n, view, rng_before):
    """Fill the fault record once (the first fault wins; later ones leave it alone)."""
    if record[F_CODE] != 0:
        return
    cap, vlen = min(moves_tile.shape[0], F_ROOM), min(view.shape[0], F_ROOM)
    record[F_SEAT], record[F_N], record[F_RNG] = seat, n, rng_before
    record[F_CAPACITY], record[F_VIEW_LEN] = cap, vlen
    for i in range(cap):
        record[F_HEADER + i] = moves_tile[i]
        record[F_HEADER + F_ROOM + i] = moves_suit[i]
    for i in range(vlen):
        record[F_HEADER + 2 * F_ROOM + i] = view[i]
    record[F_CODE] = code


def plugin_fault_message(code: int, strategy_name: str, seat: int, n_moves: int | None = None
                         ) -> str:
    """The one-line error for a plug-in that returned ``code`` at ``seat`` (not a move index).

    ``code`` is what the plug-in's wrapper returned: :data:`FAULT_RAISED`, :data:`FAULT_WROTE`,
    or the plug-in's own out-of-range index.

    Examples
    --------
    >>> plugin_fault_message(7, "greedy", 1, n_moves=3)
    "Strategy 'greedy' at seat 1 returned move index 7, but it had 3 legal moves (indices 0 to 2)."
    >>> plugin_fault_message(FAULT_WROTE, "greedy", 0)
    "Strategy 'greedy' at seat 0 wrote into its moves_tile, moves_suit or view arrays; a strategy must only read them (copy an array to change it)."
    """
    who = f"Strategy {strategy_name!r} at seat {seat}"
    if code == FAULT_RAISED:
        return f"{who} raised an exception inside the compiled engine."
    if code == FAULT_WROTE:
        return (f"{who} wrote into its moves_tile, moves_suit or view arrays; a strategy must "
                "only read them (copy an array to change it).")
    if n_moves is None:
        return f"{who} returned move index {code}, outside its legal moves (0 to n_moves - 1)."
    return (f"{who} returned move index {code}, but it had {n_moves} legal moves "
            f"(indices 0 to {n_moves - 1}).")


_BY_ADDRESS: weakref.WeakValueDictionary[int, CompiledStrategy] = weakref.WeakValueDictionary()


def raise_plugin_fault(addresses: Sequence[int]) -> None:
    """Raise the error of the first recorded fault among the plug-ins at ``addresses``.

    Called when the compiled engine stopped with its plug-in status. A plug-in that raised has its
    call played again in Python on the arrays it received, so its own exception (type and message)
    stops the run. Returns without raising when no plug-in recorded a fault.
    """
    for address in dict.fromkeys(a for a in addresses if a):
        strategy = _BY_ADDRESS.get(address)
        if strategy is not None:
            strategy._raise_fault()


def _expect_integer_result(func: Callable, name: str) -> None:
    """Compile ``func`` for the plug-in's argument types and check that it returns an integer."""
    try:
        params = inspect.signature(func.py_func).parameters
        arity = len(params)
    except (TypeError, ValueError):
        arity = 5
    if arity != 5:
        raise ValueError(f"The compiled strategy {name!r} must take 5 arguments (moves_tile, "
                         f"moves_suit, n_moves, view, rng), but it takes {arity}.")
    try:
        func.compile(_EXPECTED_ARGS)
        result = func.overloads[_EXPECTED_ARGS].signature.return_type
    except Exception as error:  # numba's typing errors run to many lines: keep the first
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise ValueError(f"The compiled strategy {name!r} does not compile for (moves_tile, "
                         f"moves_suit, n_moves, view, rng): {first}") from None
    if not isinstance(result, types.Integer):
        raise ValueError(f"The compiled strategy {name!r} must return an integer move index, but "
                         f"it returns {result}.")


class CompiledStrategy:
    """A user's compiled ``choose(moves_tile, moves_suit, n_moves, view, rng)`` as a strategy.

    Use :func:`compiled_strategy` to make one. ``choose(view, moves, rng)`` (the Python strategy
    protocol) runs it in the reference engine; :attr:`address` is what the compiled engine calls.
    Both engines hold it to its contract: an integer index among the moves, arrays left as they
    were given, and an exception stops the run with that exception.
    """

    def __init__(self, func: Callable, name: str | None = None) -> None:
        if not isinstance(func, numba.core.registry.CPUDispatcher):
            raise ValueError(
                "The value for `func` must be a numba @njit function choose(moves_tile, "
                f"moves_suit, n_moves, view, rng) -> int, but {func!r} was passed.")
        self.func = func
        self.name = name or func.__name__
        # the function both engines call: the user's, compiled again with bounds checks, so an
        # index out of its arrays raises IndexError (a finding) instead of reading any memory
        self._checked = numba.njit(boundscheck=True)(func.py_func)
        _expect_integer_result(self._checked, self.name)
        self._cfunc = None
        self._record = np.zeros(F_LENGTH, dtype=np.int64)

    @property
    def address(self) -> int:
        """Address of the C-callable wrapper the compiled engine calls (compiled on first use).

        Reading it clears the fault record, so each run starts with none.
        """
        if self._cfunc is None:
            self._cfunc = self._wrapper()
            _BY_ADDRESS[self._cfunc.address] = self
        self._record[:] = 0
        return self._cfunc.address

    def _wrapper(self) -> Any:
        user, record_at = self._checked, self._record.ctypes.data

        @numba.cfunc(_SIG, nopython=True)
        def wrapper(mt, ms, n, vw, st, capacity, vlen):
            moves_tile, moves_suit = numba.carray(mt, capacity), numba.carray(ms, capacity)
            view, rng = numba.carray(vw, vlen), numba.carray(st, 1)
            # the plug-in gets copies: nothing it does changes what the engine plays
            tiles, suits, seen = moves_tile.copy(), moves_suit.copy(), view.copy()
            rng_before = np.int64(rng[0])
            seat = view[V_SEAT]
            try:
                index = np.int64(user(tiles, suits, n, seen, rng))
                code = 0
            except Exception:  # numba cannot name it: Python raises it again from the record
                index, code = np.int64(-1), FAULT_RAISED
            if _changed(tiles, moves_tile, suits, moves_suit, seen, view):
                code = FAULT_WROTE  # the arrays it saw are gone: the write is what is reported
            elif code == 0:
                if 0 <= index < n:
                    return index
                code = index
            rng[0] = np.uint64(rng_before)
            _record_fault(numba.carray(_int64_pointer(record_at), F_LENGTH), code, seat,
                          moves_tile, moves_suit, n, view, rng_before)
            return code

        return wrapper

    def _raise_fault(self) -> None:
        record = self._record.copy()
        self._record[:] = 0
        code = int(record[F_CODE])
        if code == 0:
            return
        seat, n = int(record[F_SEAT]), int(record[F_N])
        if code == FAULT_RAISED:
            cap, vlen = int(record[F_CAPACITY]), int(record[F_VIEW_LEN])
            tiles = record[F_HEADER:F_HEADER + cap].copy()
            suits = record[F_HEADER + F_ROOM:F_HEADER + F_ROOM + cap].copy()
            view = record[F_HEADER + 2 * F_ROOM:F_HEADER + 2 * F_ROOM + vlen].copy()
            state = record[F_RNG:F_RNG + 1].view(np.uint64).copy()
            self._call(tiles, suits, n, view, state, seat)
            raise RuntimeError(plugin_fault_message(code, self.name, seat)
                               + " Played again in Python it did not raise.")
        if code == FAULT_WROTE:
            raise RuntimeError(plugin_fault_message(code, self.name, seat))
        from ...reference.game import IllegalMoveError

        raise IllegalMoveError(plugin_fault_message(code, self.name, seat, n))

    def _call(self, tiles: np.ndarray, suits: np.ndarray, n: int, view: np.ndarray,
              state: np.ndarray, seat: int) -> Any:
        """The user's function through its dispatcher; its exception names the strategy."""
        try:
            return self._checked(tiles, suits, n, view, state)
        except Exception as error:
            error.add_note(f"(raised by compiled strategy {self.name!r} at seat {seat})")
            raise

    def choose(self, view: Any, moves: Sequence, rng: Any) -> Any:
        """The move the compiled function chooses, when the strategy plays in the reference
        engine."""
        from ...tiles import tile_id

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
        given = (tiles.copy(), suits.copy(), arr.copy())
        index = self._call(tiles, suits, n, arr, state, view.seat)
        if not all(np.array_equal(a, b) for a, b in zip(given, (tiles, suits, arr), strict=True)):
            raise RuntimeError(plugin_fault_message(FAULT_WROTE, self.name, view.seat))
        if isinstance(index, (bool, np.bool_)) or not isinstance(index, (int, np.integer)):
            raise ValueError(f"The compiled strategy {self.name!r} must return an integer move "
                             f"index, but it returned {index!r}.")
        index = int(index)
        rng._state = int(state[0])
        if not 0 <= index < n:
            from ...reference.game import IllegalMoveError

            raise IllegalMoveError(plugin_fault_message(index, self.name, view.seat, n))
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
