"""How dominosim's objects show themselves in Jupyter: small HTML pieces for ``_repr_html_``.

Each public result (``Rules``, ``Summary``, ``HandLog``, ``Comparison``, ``Tournament``,
``SweepResult``) has a short text ``repr`` (one line, or a few) and an HTML display built from
these pieces: a heading, tables, a folded ``<details>`` block and an inline PNG picture.

Examples
--------
>>> import pandas as pd
>>> html = card("Demo", "two rows", frame(pd.DataFrame({"x": [0.123456, 2.0]})))
>>> "<strong>Demo</strong>" in html and "0.1235" in html
True
>>> folded("Text", "<b>bold</b>")
'<details><summary>Text</summary><pre>&lt;b&gt;bold&lt;/b&gt;</pre></details>'
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Sequence
from typing import Any

import pandas as pd


def escape(text: Any) -> str:
    """``text`` as HTML text."""
    return html.escape(str(text))


def _number(value: Any) -> str:
    if isinstance(value, float):
        return "" if pd.isna(value) else f"{value:.4g}" if abs(value) >= 1e4 else f"{value:.4f}"
    return str(value)


def frame(df: pd.DataFrame, *, index: bool = False) -> str:
    """A DataFrame as an HTML table, numbers to four decimals (empty where missing)."""
    return df.to_html(index=index, border=0, float_format=_number, na_rep="",
                      classes="dominosim", escape=True)


def fields(rows: Sequence[tuple[Any, ...]], header: tuple[str, ...] = ("field", "value")) -> str:
    """A table of name/value rows (more values per row give more columns)."""
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{escape(_number(v))}</td>" for v in row) + "</tr>"
                   for row in rows)
    return f'<table class="dominosim"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def folded(summary: str, text: str) -> str:
    """``text`` (preformatted) folded under ``summary``: shown on a click."""
    return f"<details><summary>{escape(summary)}</summary><pre>{escape(text)}</pre></details>"


def png(figure: Any, *, alt: str = "") -> str:
    """A matplotlib figure as an inline PNG ``<img>``."""
    sink = io.BytesIO()
    figure.savefig(sink, format="png", dpi=72, bbox_inches="tight")
    data = base64.b64encode(sink.getvalue()).decode()
    return f'<img src="data:image/png;base64,{data}" alt="{escape(alt)}"/>'


def card(title: str, line: str, *parts: str) -> str:
    """A heading (``title`` in bold, then ``line``) above HTML ``parts``."""
    return (f'<div class="dominosim"><p><strong>{escape(title)}</strong> {escape(line)}</p>'
            + "".join(parts) + "</div>")
