"""Deprecated alias of :mod:`dominosim.strategies.search` (``dominosim.search`` until 0.1); removed in the next release."""

import warnings
from importlib import import_module

warnings.warn("dominosim.search is deprecated; import from dominosim.strategies.search instead.",
              DeprecationWarning, stacklevel=2)
globals().update({k: v for k, v in vars(import_module("dominosim.strategies.search")).items() if not k.startswith("__")})
