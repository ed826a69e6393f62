"""Run every notebook here top to bottom on a fresh kernel and store its outputs in the file.

    python notebooks/execute.py              # all six
    python notebooks/execute.py 01 05        # those whose names start so

The notebooks are committed with their outputs, so that a reader on a code host sees the tables
and figures and the API reference (``docs/``) renders them without running anything. Each runs in
a temporary folder (as ``tests/test_notebooks.py`` runs them), so nothing is written here but the
notebooks themselves; cell timings are not recorded, so that running it again changes only what
the code's results change.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent
TIMEOUT_SECONDS = 600


def clear(book: nbformat.NotebookNode) -> None:
    """Remove the outputs and execution counts of every code cell."""
    for cell in book.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
            cell.metadata.pop("execution", None)


def execute(path: Path) -> float:
    """Run the notebook at ``path`` from a clean state and write it back; returns its seconds."""
    book = nbformat.read(path, as_version=4)
    clear(book)
    with tempfile.TemporaryDirectory() as folder:
        client = NotebookClient(book, timeout=TIMEOUT_SECONDS, kernel_name="python3",
                                record_timing=False, resources={"metadata": {"path": folder}})
        start = time.perf_counter()
        client.execute()
        seconds = time.perf_counter() - start
    nbformat.write(book, path)
    return seconds


def main(prefixes: list[str]) -> None:
    """Execute the notebooks whose names start with one of ``prefixes`` (all without)."""
    for path in sorted(HERE.glob("*.ipynb")):
        if not prefixes or any(path.name.startswith(p) for p in prefixes):
            print(f"{path.name}: {execute(path):.0f} s", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
