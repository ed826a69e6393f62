"""Deprecated alias of :mod:`dominosim.strategies.sampler` (``dominosim.sampler`` until 0.1); removed in the next release."""

import warnings
from importlib import import_module

warnings.warn("dominosim.sampler is deprecated; import from dominosim.strategies.sampler instead.",
              DeprecationWarning, stacklevel=2)
globals().update({k: v for k, v in vars(import_module("dominosim.strategies.sampler")).items() if not k.startswith("__")})
