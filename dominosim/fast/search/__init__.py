"""The compiled searches: what a seat that searches decides with, on sampled worlds.

Holds :mod:`.worlds` (the search's scratch, the decision's root, a sampled world laid out as a
``Board``), :mod:`.consistent` (the exact consistent-deal sampler), :mod:`.infer` (the worlds
weighted by how likely the other seats' plays were, ``+infer``), :mod:`.search` (``mc``,
``ismcts`` and ``decide``, the entry point of every search), :mod:`.solve` (the
perfect-information solver: alpha-beta on a stack of ``Board``s), :mod:`.maxn` (the same solver for
three or more sides each playing for itself: max-n on that stack) and :mod:`.pimc` (which solves
sampled worlds with it: a strategy, and the worlds of ``ds.analyze``) and :mod:`.epimc` (the
seat's next decision once per information set before the solved leaves).

May import: :mod:`dominosim.fast.core`, :mod:`dominosim.fast.players` (inference models a seat
by a weighted player) and the package's rule layer (``dominosim.rng``,
``dominosim.strategies.registry``, the feature table ``dominosim.strategies.features``); nothing
from :mod:`dominosim.fast.hand` or :mod:`dominosim.fast.engine` (the hand kernel calls the
searches, never the other way).
"""
