"""One compiled hand: the strategies a seat plays with and the kernel that plays a hand out.

Holds :mod:`.plugin` (users' compiled strategies, called through a C function pointer),
:mod:`.kernel` (one hand: deal, open, turn until over, record; the status codes), :mod:`.driver` (the compiled entry points: a block of
hands as record rows, as sums, or one hand with its event log) and :mod:`.recorded` (one hand
with every decision's legal moves and their features, for ``ds.decisions``).

May import: :mod:`dominosim.fast.core`, :mod:`dominosim.fast.search`,
:mod:`dominosim.fast.players` and the package's rule layer;
nothing from :mod:`dominosim.fast.engine`, which is the Python side above it.
"""
