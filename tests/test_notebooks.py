"""The notebooks in notebooks/ run top to bottom on a fresh kernel, each within its time budget, and
are committed with the outputs of such a run (``python notebooks/execute.py``)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

sys.path.insert(0, str(Path(__file__).parent.parent / "notebooks"))
from execute import clear  # noqa: E402 (notebooks/execute.py, the command that stores outputs)

NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))
BUDGET_SECONDS = 120  # the promise: every notebook in under two minutes


def test_notebooks_are_there():
    assert [p.name for p in NOTEBOOKS] == ["01_quick_start.ipynb", "02_block_vs_draw.ipynb",
                                           "03_strategies.ipynb", "04_variants.ipynb",
                                           "05_review.ipynb", "06_positions.ipynb",
                                           "07_players.ipynb"]


_EXECUTED: dict[Path, tuple[nbformat.NotebookNode, float]] = {}


def _execute(path: Path, folder: Path) -> tuple[nbformat.NotebookNode, float]:
    """The notebook run top to bottom on a fresh kernel, and its seconds (run once per session:
    several tests read the same outputs)."""
    if path not in _EXECUTED:
        book = nbformat.read(path, as_version=4)
        clear(book)  # run from scratch: the stored outputs play no part
        client = NotebookClient(book, timeout=BUDGET_SECONDS, kernel_name="python3",
                                resources={"metadata": {"path": str(folder)}})
        t0 = time.perf_counter()
        client.execute()
        _EXECUTED[path] = book, time.perf_counter() - t0
    return _EXECUTED[path]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_top_to_bottom(path, tmp_path):
    book, seconds = _execute(path, tmp_path)
    errors = [out for cell in book.cells if cell.cell_type == "code"
              for out in cell.outputs if out.output_type == "error"]
    assert not errors
    images = sum("image/png" in out.get("data", {}) for cell in book.cells
                 if cell.cell_type == "code" for out in cell.outputs)
    assert images >= 1
    assert seconds < BUDGET_SECONDS


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_committed_executed_top_to_bottom(path):
    # a reader on a code host, and the API reference, see these stored outputs
    book = nbformat.read(path, as_version=4)
    code = [cell for cell in book.cells if cell.cell_type == "code"]
    assert [cell.execution_count for cell in code] == list(range(1, len(code) + 1))
    outputs = [out for cell in code for out in cell.outputs]
    assert not [out for out in outputs if out.output_type == "error"]
    assert any("image/png" in out.get("data", {}) for out in outputs)


def _outputs(book: nbformat.NotebookNode) -> list[dict]:
    return [out for cell in book.cells if cell.cell_type == "code" for out in cell.outputs]


def test_notebook_shows_progress_and_objects_as_html(tmp_path):
    book, _ = _execute(NOTEBOOKS[0], tmp_path)
    outputs = _outputs(book)
    widgets = [o for o in outputs if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    text_bars = [o for o in outputs if o.output_type == "stream" and o.name == "stderr"
                 and "100%|" in o.text]
    assert widgets or text_bars, "simulate(..., progress=True) shows a bar"
    html = [o["data"]["text/html"] for o in outputs if "text/html" in o.get("data", {})]
    shown = "\n".join(html)
    assert "<strong>Rules</strong> preset &#x27;block&#x27;, 4 players" in shown
    assert "<strong>Hand 3</strong> of seed 7" in shown and "data:image/png;base64," in shown
    assert "<strong>Summary</strong> of 2,000,000 hands" in shown


def test_positions_notebook_shows_the_analysis_and_the_solver(tmp_path):
    path = next(p for p in NOTEBOOKS if p.name == "06_positions.ipynb")
    book, _ = _execute(path, tmp_path)
    text = "\n".join(o["data"]["text/plain"] if "data" in o else o.get("text", "")
                     for o in _outputs(book) if "data" in o or o.output_type == "stream")
    assert "<- to move" in text  # the printed position
    assert "win_low" in text and "points_high" in text  # the analysis table with its intervals
    assert "Solution(value=" in text and "solver points" in text
