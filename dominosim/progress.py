"""Progress bars for long calls: a widget in Jupyter, text on a terminal, nothing elsewhere.

Every call that can run longer than a few seconds (``simulate``, ``compare``, ``tournament``,
``deal_replays``, ``block_draw_uncertainty``...) takes ``progress=``: ``True`` shows a bar,
``False`` none, and ``None`` (the default) shows one for a long run in an interactive session (a
Jupyter kernel, or a terminal on standard error), never in a script's log or under pytest.

In a Jupyter kernel the bar is a widget when ipywidgets is installed (the ``notebook`` extra) and
a line of text otherwise; nothing warns at import.

Examples
--------
>>> want_progress(None, work=10**9, long=1_000)   # not interactive: pytest captures stderr
False
>>> want_progress(True, work=1, long=1_000), want_progress(False, work=10**9, long=1)
(True, False)
>>> with bar(total=3, desc="demo", show=False) as b:
...     b.update(3)
"""

from __future__ import annotations

import sys
import warnings
from typing import Any

from tqdm.std import tqdm as text_tqdm


def in_notebook() -> bool:
    """Whether this process is a Jupyter kernel (IPython's kernel app is running)."""
    shell = sys.modules.get("IPython")
    if shell is None:
        return False
    try:
        ip = shell.get_ipython()
    except AttributeError:
        return False
    return ip is not None and "IPKernelApp" in getattr(ip, "config", {})


def interactive() -> bool:
    """Whether someone is watching: a Jupyter kernel, or standard error on a terminal."""
    return in_notebook() or sys.stderr.isatty()


def want_progress(progress: bool | None, *, work: float, long: float) -> bool:
    """Whether to show a bar: ``progress`` if given, otherwise for ``work`` of at least ``long``
    (in the same unit: hands, deals...) in an interactive session.
    """
    if progress is None:
        return work >= long and interactive()
    if not isinstance(progress, bool):
        raise ValueError(f"The value for `progress` must be True, False or None (on for long "
                         f"runs in Jupyter or on a terminal), but {progress!r} was passed.")
    return progress


def _widget_class() -> Any:
    """Tqdm's notebook bar when ipywidgets can draw it, else None."""
    try:
        import ipywidgets  # noqa: F401

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from tqdm.notebook import tqdm as notebook_tqdm
    except ImportError:
        return None
    return notebook_tqdm


def bar(*, total: int, desc: str = "dominosim", unit: str = "hand", show: bool,
        unit_scale: bool = True, file: Any = None, **options: Any) -> Any:
    """A progress bar over ``total`` units: a widget in Jupyter (ipywidgets installed) unless
    ``file`` is given, text on ``file`` (default standard error) otherwise; a bar that draws
    nothing when not ``show``. ``options`` go to tqdm (``initial``, ``smoothing``...).
    """
    kind = _widget_class() if show and file is None and in_notebook() else None
    if kind is None:
        return text_tqdm(total=total, desc=desc, unit=unit, unit_scale=unit_scale,
                         disable=not show, file=file if file is not None else sys.stderr,
                         dynamic_ncols=True, **options)
    return kind(total=total, desc=desc, unit=unit, unit_scale=unit_scale, **options)
