"""What the plot functions share: a lazy pyplot, argument checks, the label columns of a table."""

from __future__ import annotations

from typing import Any

import pandas as pd

from ..checks import refuse

# Okabe-Ito: distinguishable with every common colour-vision deficiency
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442",
           "#000000")


def axes(ax: Any, size: tuple[float, float] = (6.4, 4.0)) -> Any:
    """``ax``, or the axes of a new figure of ``size`` inches."""
    if ax is not None:
        from matplotlib.axes import Axes

        if not isinstance(ax, Axes):
            raise refuse("ax", "a matplotlib Axes or None", type(ax).__name__)
        return ax
    import matplotlib.pyplot as plt

    _, new = plt.subplots(figsize=size, layout="constrained")
    return new


def need_frame(data: Any, columns: list[str], made_by: str) -> pd.DataFrame:
    """``data`` if it is a DataFrame holding ``columns``, else the error naming its maker."""
    if not isinstance(data, pd.DataFrame):
        raise refuse("data", f"a DataFrame from {made_by}", type(data).__name__)
    missing = [c for c in columns if c not in data.columns]
    if missing:
        raise refuse("data", f"a DataFrame from {made_by} (with a `{missing[0]}` column)",
                     f"a frame with columns {list(data.columns)}")
    return data


def check_column(name: str, value: Any, data: pd.DataFrame, allow_none: bool = True) -> Any:
    """A column name of ``data`` (or None)."""
    if value is None and allow_none:
        return None
    if not isinstance(value, str) or value not in data.columns:
        raise refuse(name, "one of the table's columns " + ", ".join(map(repr, data.columns)),
                     value)
    return value


def dodge(n: int, width: float = 0.8) -> list[float]:
    """Offsets of ``n`` bars or points side by side within one slot of ``width``."""
    step = width / n
    return [-width / 2 + step * (i + 0.5) for i in range(n)]
