"""The compiled engine: numba kernels that play hands identical to the reference engine's.

Layout (``docs/engine.md`` says more): :mod:`.shape` (the compile-time facts that pick a kernel),
:mod:`.params` (the rules and the line-up as the kernels read them), :mod:`.board` (the state as
named structures, hands as bit masks, legal moves), :mod:`.turn` (the one compiled turn and one
function per rule), :mod:`.styles` (the deterministic strategies), :mod:`.kernel` (one hand),
:mod:`.driver` (the compiled entry points), :mod:`.engine` (the Python side), :mod:`.search` and
:mod:`.consistent` (the search strategies), :mod:`.plugin` (users' compiled strategies),
:mod:`.gates`, :mod:`.rng`, :mod:`.bits`, :mod:`.jit`.
"""
