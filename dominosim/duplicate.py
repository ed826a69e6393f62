"""Deprecated alias of :mod:`dominosim.simulation.duplicate` (``dominosim.duplicate`` until 0.1); removed in the next release."""

import warnings
from importlib import import_module

warnings.warn("dominosim.duplicate is deprecated; import from dominosim.simulation.duplicate instead.",
              DeprecationWarning, stacklevel=2)
globals().update({k: v for k, v in vars(import_module("dominosim.simulation.duplicate")).items() if not k.startswith("__")})
