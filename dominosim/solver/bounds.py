"""What bounds a solve or an analysis: its memory, checked before it starts, and Ctrl-C, which
stops the compiled search within a fraction of a second.

The compiled searches release the GIL and count their nodes against a limit they read at every
node (``ctl[C_LIMIT]`` of a solver's stack). :func:`stoppable` runs one in a worker thread while
the caller's thread waits in short steps: Ctrl-C (``KeyboardInterrupt``) reaches the caller, which
lowers the limit of every stack the search uses, waits for the search to return (the next node
ends it) and raises ``KeyboardInterrupt``. Nothing is written by a search, so nothing is left
half-written.

>>> stoppable(lambda: 6 * 7, [])
42
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

POLL_SECONDS = 0.05
"""How often the waiting thread looks up (for Ctrl-C)."""


def stop_searches(stacks: Sequence[Any]) -> None:
    """Make every search on ``stacks`` (solver stacks) stop at its next node."""
    from ..fast.search.solve import C_LIMIT

    for stack in stacks:
        stack.ctl[C_LIMIT] = -1


def stoppable(call: Callable[[], Any], stacks: Sequence[Any]) -> Any:
    """``call()`` (a compiled search on ``stacks``) in a worker thread, stopped on Ctrl-C.

    Called from another thread than the main one (where Ctrl-C never arrives), ``call`` runs in
    the caller's thread. On ``KeyboardInterrupt`` the searches are stopped (their limits lowered
    until the worker returns, so a search that starts its next world stops too) and the
    interruption is raised again, within a fraction of a second.
    """
    if threading.current_thread() is not threading.main_thread():
        return call()
    result: dict[str, Any] = {}

    def work() -> None:
        try:
            result["value"] = call()
        except BaseException as error:  # handed to the caller's thread below
            result["error"] = error

    worker = threading.Thread(target=work, name="dominosim-search", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(POLL_SECONDS)
    except KeyboardInterrupt:
        while worker.is_alive():
            stop_searches(stacks)
            worker.join(POLL_SECONDS)
        raise
    if "error" in result:
        raise result["error"]
    return result["value"]


def stack_bytes(stack: Any) -> int:
    """The bytes of a solver's stack (or any named tuple of arrays)."""
    return sum(getattr(a, "nbytes", 0) for a in stack if a is not None)


def table_bytes(tiles: int, table_bits: int) -> int:
    """The bytes of a solver's stack with a table of ``2**table_bits`` positions (the table's
    16 bytes a position, and about a kilobyte a tile for the levels).
    """
    return 16 * (1 << table_bits) + 1024 * (tiles + 3) * 4


def scratch_bytes(rules: Any, table_bits: int) -> int:
    """The bytes of one thread's search scratch with a solver's table of ``2**table_bits``
    positions (a move analysis: :func:`~dominosim.fast.search.worlds.make_search_scratch` with one
    node), counted exactly without allocating them by
    :func:`~dominosim.fast.search.worlds.scratch_bytes`, the count the search strategies check too.
    """
    from ..fast.search.worlds import scratch_bytes as search_bytes
    from ..records import max_events
    from ..strategies.search import table_states

    return search_bytes(rules.n_tiles, rules.players, max_events(rules), 1, table_states(rules),
                        table_bits)
