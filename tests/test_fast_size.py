"""The compiled engine keeps its functions small: none in ``dominosim/fast/`` is over 60 lines or
takes more than 8 parameters (state travels as named tuples). Read with :mod:`ast`."""

from __future__ import annotations

import ast
from pathlib import Path

FAST = Path(__file__).resolve().parent.parent / "dominosim" / "fast"
MAX_LINES = 60
MAX_PARAMETERS = 8


def _too_big(path: Path) -> list[tuple[str, str, int, int]]:
    """``(file, function, lines, parameters)`` of every function in ``path`` over a limit."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            a = node.args
            params = len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs) + bool(a.vararg) + \
                bool(a.kwarg)
            lines = node.end_lineno - node.lineno + 1
            if lines > MAX_LINES or params > MAX_PARAMETERS:
                found.append((path.name, getattr(node, "name", "<lambda>"), lines, params))
    return found


def test_no_function_of_the_compiled_engine_is_over_60_lines_or_8_parameters():
    files = sorted(FAST.rglob("*.py"))
    assert len(files) > 15
    assert [big for path in files for big in _too_big(path)] == []


def test_the_size_check_sees_a_long_function_and_a_wide_one(tmp_path):
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_LINES))
    source = tmp_path / "big.py"
    source.write_text(f"def long():\n{body}\n\n\ndef wide(a, b, c, d, e, f, g, h, *rest):\n"
                      "    return a\n\n\ndef fine(a, b, c, d, e, f, g, h):\n    return a\n")
    assert _too_big(source) == [("big.py", "long", MAX_LINES + 1, 0), ("big.py", "wide", 2, 9)]
