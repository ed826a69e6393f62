"""The notebooks in notebooks/ run top to bottom on a fresh kernel, each within its time budget."""

from __future__ import annotations

import time
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))
BUDGET_SECONDS = 120  # the promise: every notebook in under two minutes


def test_notebooks_are_there():
    assert [p.name for p in NOTEBOOKS] == ["01_quick_start.ipynb", "02_block_vs_draw.ipynb",
                                           "03_strategies.ipynb", "04_variants.ipynb"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_top_to_bottom(path, tmp_path):
    book = nbformat.read(path, as_version=4)
    assert all(not cell.get("outputs") for cell in book.cells if cell.cell_type == "code"), \
        "commit notebooks without outputs"
    client = NotebookClient(book, timeout=BUDGET_SECONDS, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}})
    t0 = time.perf_counter()
    client.execute()
    seconds = time.perf_counter() - t0
    errors = [out for cell in book.cells if cell.cell_type == "code"
              for out in cell.outputs if out.output_type == "error"]
    assert not errors
    images = sum("image/png" in out.get("data", {}) for cell in book.cells
                 if cell.cell_type == "code" for out in cell.outputs)
    assert images >= 1
    assert seconds < BUDGET_SECONDS
