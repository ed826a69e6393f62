"""Deprecated alias of :mod:`dominosim.reference.game` (``dominosim.game`` until 0.1); removed in the next release."""

import warnings
from importlib import import_module

warnings.warn("dominosim.game is deprecated; import from dominosim.reference.game instead.",
              DeprecationWarning, stacklevel=2)
globals().update({k: v for k, v in vars(import_module("dominosim.reference.game")).items() if not k.startswith("__")})
