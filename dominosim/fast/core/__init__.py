"""What every compiled kernel builds on: compilation helpers, the state, and the one compiled turn.

Holds :mod:`.jit` (the decorators and the on-disk cache's stamps), :mod:`.diskcache` (numba's
disk cache shared by processes: one writer of an index at a time, whether a kernel is on disk),
:mod:`.inlining` (numba's inliner copying a callee's IR once per inlining, not once per block),
:mod:`.libraries` (code libraries for compiled callers: linked, optimised and emitted only by the
library Python calls),
:mod:`.gates` (calls compiled only where a shape needs them), :mod:`.bits` (bit intrinsics), :mod:`.rng` (the generator on
``uint64``), :mod:`.status` (the one status vocabulary of kernels and searches), :mod:`.shape` (the
compile-time facts that pick a kernel), :mod:`.params` (the rules and the line-up as named tuples
of integers), :mod:`.board` (the state as named structures, hands as bit masks, the legal moves)
and :mod:`.turn` (the rules on a ``Board``: one decider per rule and the one compiled turn that
the hand kernel, the playouts and the solver share), and :mod:`.styles` (the deterministic
built-in strategies: the hand kernel plays them, the search's inference replays them).

May import: numba, numpy, llvmlite and the package's rule layer (``dominosim.rules``,
``dominosim.tiles``, ``dominosim.rng``, ``dominosim.strategies.registry``); nothing from
:mod:`dominosim.fast.search`, :mod:`dominosim.fast.hand` or :mod:`dominosim.fast.engine`.
"""
