"""The compiled engine: numba kernels that play hands identical to the reference engine's.

Layout (``docs/engine.md`` says more), lowest first; each sub-package imports only from the ones
before it (``tests/test_layers.py`` checks it):

- :mod:`.core`: the compilation helpers (``jit``, ``gates``, ``bits``, ``rng``), the statuses
  (``status``), the compile-time facts that pick a kernel (``shape``), the rules and line-up as the
  kernels read them (``params``), the state as named structures (``board``) and the one compiled
  turn with one decider per rule (``turn``).
- :mod:`.search`: the searches: the sampled worlds (``worlds``), the consistent-deal sampler
  (``consistent``), ``mc``/``ismcts`` and the entry point of every search (``search``), the
  perfect-information solver (``solve``) and ``pimc`` (``pimc``).
- :mod:`.players`: fitted players: the decision features of a legal move (``features``) and the
  weighted player (``weighted``).
- :mod:`.hand`: one hand: the deterministic strategies (``styles``), users' compiled strategies
  (``plugin``), the hand kernel (``kernel``), the compiled entry points (``driver``) and the
  decisions met in a hand with their features (``recorded``).
- :mod:`.exact`: the lazy exact enumeration of ``ds.exact`` for line-ups of ``random``: the
  layouts (``layouts``), the completions counted (``count``), the enumeration (``lazy``) and its
  Python side (``totals``).
- :mod:`.engine`: the Python side, which prepares runs and reads their results.
"""
