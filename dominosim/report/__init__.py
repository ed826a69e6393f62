"""The committed reports: ``python -m dominosim.report`` plays (or only renders) them.

The work is in :mod:`dominosim.report.build`; this package re-exports its entry points.

>>> from dominosim.report import PARTS
>>> PARTS
('sweep', 'block_vs_draw', 'ceiling', 'strategies')
"""

from .build import (
    PARTS,
    SEED,
    SIZES,
    cli,
    compute_block_vs_draw,
    compute_strategies,
    compute_sweep,
    main,
    render_block_vs_draw,
    render_strategies,
    render_sweep,
)

__all__ = ["PARTS", "SEED", "SIZES", "cli", "compute_block_vs_draw", "compute_strategies",
           "compute_sweep", "main", "render_block_vs_draw", "render_strategies", "render_sweep"]
