r"""Batch sweeps: grids of rule sets and line-ups played in resumable chunks, locally or on Dask.

``python -m dominosim.batch SWEEP.toml`` runs a sweep file (schema in the README, section "Batch
sweeps"); the same is available from Python:

>>> import tempfile
>>> from dominosim.batch import parse_sweep, run_sweep
>>> sweep = parse_sweep('hands = 200\n[rules]\npreset = "block"\n[grid]\nplayers = [2, 3]\n')
>>> result = run_sweep(sweep, tempfile.mkdtemp(), quiet=True)
>>> result.summary[["label", "hands"]].values.tolist()
[['block 2p random', 200], ['block 3p random', 200]]
"""

from .api import SweepResult, dry_run, run_sweep
from .output import read_hands, read_sums
from .sweep import Cell, Chunk, Sweep, default_sweep, load_sweep, parse_sweep

__all__ = ["Cell", "Chunk", "Sweep", "SweepResult", "default_sweep", "dry_run", "load_sweep",
           "parse_sweep", "read_hands", "read_sums", "run_sweep"]
