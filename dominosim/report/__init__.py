"""The committed reports: ``python -m dominosim.report`` plays (or only renders) them.

The work is in :mod:`dominosim.report.build`; this package re-exports its entry points.

>>> from dominosim.report import PARTS
>>> PARTS
('sweep', 'block_vs_draw', 'strategies')
"""

from .build import PARTS, SEED, SIZES, cli, main

__all__ = ["PARTS", "SEED", "SIZES", "cli", "main"]
