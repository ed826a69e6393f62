"""``python -m dominosim.play``: play a hand at the terminal against any strategies, then see the
review of your decisions (``--help`` for the options). The code, and :func:`dominosim.play` for
notebooks, is in :mod:`dominosim.interactive`; this package is only the command's entry point."""
