"""The package version, written here only (``dominosim.__version__``, the packaging metadata)."""

__version__ = "0.1.0"
