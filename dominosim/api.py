"""Deprecated alias of :mod:`dominosim.simulation.play` (``dominosim.api`` until 0.1); removed in the next release."""

import warnings
from importlib import import_module

warnings.warn("dominosim.api is deprecated; import from dominosim.simulation.play instead.",
              DeprecationWarning, stacklevel=2)
globals().update({k: v for k, v in vars(import_module("dominosim.simulation.play")).items() if not k.startswith("__")})
