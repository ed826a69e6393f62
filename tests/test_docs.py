"""The API reference (docs/api.rst) lists every public name of dominosim, and the adapters."""

from __future__ import annotations

import re
from pathlib import Path

import dominosim as ds

API = Path(__file__).resolve().parent.parent / "docs" / "api.rst"


def _listed() -> list[str]:
    """The names in the autosummary tables of the API page."""
    names, inside = [], False
    for line in API.read_text().splitlines():
        if line.startswith(".. autosummary::"):
            inside = True
        elif inside and re.match(r"^   [A-Za-z_][\w.]*$", line):
            names.append(line.strip())
        elif inside and line and not line.startswith("   "):
            inside = False
    return names


def test_api_reference_lists_every_public_name_once():
    listed = _listed()
    assert len(listed) == len(set(listed))
    assert set(ds.__all__) <= set(listed), sorted(set(ds.__all__) - set(listed))
    assert {"openspiel", "pettingzoo"} <= set(listed)


def test_api_reference_lists_only_real_names():
    import dominosim.openspiel  # noqa: F401 (extras: listed in the reference)
    import dominosim.pettingzoo  # noqa: F401

    assert all(hasattr(ds, name) for name in _listed())
