"""The public functions of ``ds.__all__`` with small valid arguments, and the bad values the API
fuzz puts in place of each parameter (tests/test_api_fuzz.py)."""

from __future__ import annotations

import functools
import inspect
import math

import numba

import dominosim as ds

SMALL = ds.Rules.preset("block", players=2, max_pip=3, hand_size=3)
TINY = ds.Rules(max_pip=2, players=2, hand_size=2)


@numba.njit
def first_move(moves_tile, moves_suit, n_moves, view, rng):
    return 0


def _log() -> ds.HandLog:
    return ds.replay(SMALL, "random", seed=1, hand=0)


def _position() -> ds.Position:
    """A hand in progress, quick to solve and to analyse."""
    return ds.replay(ds.Rules.preset("block", players=2), "random", seed=11, hand=0).position(4)


def _player_file() -> str:
    """A saved weighted player (for ``ds.load_player``), in a temporary folder removed when the
    process ends."""
    import atexit
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(prefix="dominosim-fuzz-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return str(ds.Weighted(SMALL, {"pips": 1.0}).save(f"{folder}/p.npz"))


@functools.cache
def cases() -> dict[str, tuple]:
    """``name: (callable, positional args, keyword args)``: a call that works and is fast (built
    at the first test that asks, once per process: never while pytest collects, where its
    compiling would hold up every worker and the bare clone's collection, tests/test_standalone.py)."""
    log, position = _log(), _position()
    ds.simulate(SMALL, "random", 2)  # warm's kernel, in this process: warming it compiles nothing
    return {
        "analyze": (ds.analyze, (position,), {"budget": 20, "n_jobs": 1}),
        "ISMCTS": (ds.ISMCTS, (), {"iterations": 10}),
        "MonteCarlo": (ds.MonteCarlo, (), {"playouts": 10}),
        "PIMC": (ds.PIMC, (), {"samples": 5}),
        "SearchStrategy": (ds.SearchStrategy, ("mc",), {"budget": 10}),
        "check_strategy": (ds.check_strategy, ("bully",), {"rules": SMALL, "n_hands": 3}),
        "CompiledStrategy": (ds.CompiledStrategy, (first_move,), {"name": "first"}),
        "compiled_strategy": (ds.compiled_strategy, (first_move,), {"name": "first"}),
        "bradley_terry": (ds.bradley_terry, ([[0, 3], [1, 0]],), {}),
        "compare": (ds.compare, (SMALL, "bully", "random", 4), {"engine": "reference"}),
        "exact": (ds.exact, (TINY,), {}),
        "tournament": (ds.tournament, (SMALL, ["bully", "random"], 2),
                       {"engine": "reference", "n_boot": 10}),
        "HandLog.from_json": (ds.HandLog.from_json, (log.to_json(),), {}),
        "Position.from_deal": (ds.Position.from_deal, (TINY, [[(0, 0), (1, 2)],
                                                              [(2, 2), (0, 1)]]), {}),
        "solve": (ds.solve, (position,), {"table_bits": 16}),
        "Rules": (ds.Rules, (), {"max_pip": 3, "players": 2, "hand_size": 3}),
        "Rules.preset": (ds.Rules.preset, ("draw",), {"players": 2}),
        "Summary.empty": (ds.Summary.empty, (SMALL,), {}),
        "play": (ds.play, ("block", 2), {"choices": [1] * 10, "review": False,
                                         "input": lambda prompt: "q",
                                         "output": lambda line: None}),
        "play_hand": (ds.play_hand, (SMALL, "random"), {}),
        "play_match": (ds.play_match, (SMALL.with_target(20) if hasattr(SMALL, "with_target")
                                       else ds.Rules.preset("block", players=2, max_pip=3,
                                                            hand_size=3, target=20),
                                       "random"), {}),
        "replay": (ds.replay, (SMALL, "random", 1, 0), {}),
        "review": (ds.review, (log, 0), {"budget": 10}),
        "simulate": (ds.simulate, (SMALL, "random", 4), {"engine": "reference"}),
        "simulate_matches": (ds.simulate_matches, (ds.Rules.preset("block", players=2,
                                                                   max_pip=3, hand_size=3,
                                                                   target=20), "random", 2), {}),
        "transcript": (ds.transcript, (log,), {}),
        "Weighted": (ds.Weighted, (SMALL, {"pips": 1.0}), {"name": "w"}),
        "MLP": (ds.MLP, (SMALL, [[1.0] * len(ds.FEATURE_NAMES)] * 2, [0.0, 1.0], [1.0, -1.0]),
                {"name": "n"}),
        "load_player": (ds.load_player, (_player_file(),), {}),
        "tuned_player": (ds.tuned_player, (SMALL,), {}),
        "decisions": (ds.decisions, (SMALL, "bully", 2), {"engine": "reference"}),
        "tune": (ds.tune, (TINY, ["random"]), {"budget": 1000, "deals": 20, "progress": False}),
        "learn": (ds.learn, (SMALL,), {"positions": 10, "rounds": 1, "eval_deals": 10,
                                       "n_jobs": 1, "progress": False}),
        "best_response": (ds.best_response, (TINY, "random"), {}),
        "game_value": (ds.game_value, (TINY,), {}),
        "warm": (ds.warm, (SMALL, "random"), {"keep": "rows", "n_jobs": 1, "progress": False}),
    }


class Opaque:
    """An object of no type the API knows."""

    def __repr__(self) -> str:
        return "Opaque()"


BAD_VALUES = (None, "x", "", 1.5, math.nan, math.inf, -1, 0, 2**64, -(2**64), 10**100, True,
              [], {}, Opaque(), b"x", (1,), [None])
"""Wrong types, out-of-range values, NaN, huge integers (and a few that may be valid)."""


def parameters(func) -> list[str]:
    """The parameters a caller may pass (not ``*args``/``**kwargs``)."""
    sig = inspect.signature(func)
    return [p.name for p in sig.parameters.values()
            if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


def call_with(name: str, parameter: str, value, table: dict):
    """Call case ``name`` with ``parameter`` replaced by ``value``."""
    func, args, kwargs = table[name]
    names = parameters(func)
    args, kwargs = list(args), dict(kwargs)
    index = names.index(parameter)
    if index < len(args):
        args[index] = value
    else:
        kwargs[parameter] = value
    return func(*args, **kwargs)
