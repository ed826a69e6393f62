"""Deprecated alias of :mod:`dominosim.reference.transcript` (``dominosim.transcript`` until 0.1); removed in the next release."""

import warnings
from importlib import import_module

warnings.warn("dominosim.transcript is deprecated; import from dominosim.reference.transcript instead.",
              DeprecationWarning, stacklevel=2)
globals().update({k: v for k, v in vars(import_module("dominosim.reference.transcript")).items() if not k.startswith("__")})
