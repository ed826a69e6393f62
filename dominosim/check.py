"""Deprecated alias of :mod:`dominosim.simulation.check` (``dominosim.check`` until 0.1); removed in the next release."""

import warnings
from importlib import import_module

warnings.warn("dominosim.check is deprecated; import from dominosim.simulation.check instead.",
              DeprecationWarning, stacklevel=2)
globals().update({k: v for k, v in vars(import_module("dominosim.simulation.check")).items() if not k.startswith("__")})
