"""The lazy exact enumeration of ``ds.exact``, compiled, for line-ups where every seat plays
``random``.

Holds :mod:`.layouts` (every layout a rule set can reach, numbered, with each tile's moves on it,
read from the reference engine's rules), :mod:`.count` (the completions of a state and the pips
they leave, counted), :mod:`.lazy` (the enumeration: the states, their memo and values modulo a few
primes) and :mod:`.totals` (the Python side: the openings, and the totals recovered as fractions,
for :func:`dominosim.solver.exact.exact`).

May import: :mod:`dominosim.fast.core` (the turn and the score), the reference engine's rule
functions (``dominosim.reference.game``), and from the Python enumeration it ports the openings
and the layouts' key (``dominosim.solver.lazy``) and the quantities of a hand
(``dominosim.solver.vectors``); nothing from the searches or the hand kernel.
"""
