"""Golden transcripts: a few hands written out in full and diffed move by move."""

from __future__ import annotations

import difflib

import pytest
from golden_hands import CASES, GOLDEN, render


@pytest.mark.parametrize("name", sorted(CASES))
def test_transcript_matches_golden_file(name):
    expected = (GOLDEN / f"{name}.txt").read_text()
    actual = render(name)
    diff = "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                        "golden", "now"))
    assert actual == expected, diff
