"""A fuzz of sweep files: random keys, types and values around a valid sweep.

Every file either runs (exit 0) with the results ``ds.simulate`` gives for its cells, or is
refused with exit 2 in one line that names a key of the file, and nothing is written.
"""

from __future__ import annotations

import json
import math
import re
import tempfile
from pathlib import Path

import pandas as pd
import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dominosim as ds
from dominosim.batch.__main__ import main
from dominosim.batch.sweep import GRID_KEYS, RULES_KEYS, TOP_KEYS

BASE = {"seed": 3, "hands": 12, "chunk_size": 5, "rules": {"preset": "draw"},
        "grid": {"players": [2, 3]}}
WORDS = ["draw", "block", "cross", "ivory", "random", "bully", "doubles", "rows", "summary",
         "spots", "game", "balance", "any", "out", "team_out", "none", "one", "until_playable",
         "..", "x/y", ""]
SCALARS = st.one_of(
    st.integers(-2, 12), st.integers(2**50, 2**64), st.floats(allow_nan=True), st.booleans(),
    st.sampled_from(WORDS), st.text(max_size=6))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(["a", "preset"]), inner,
                                                 max_size=2)), max_leaves=5)
SECTIONS = {"": TOP_KEYS, "rules": RULES_KEYS, "grid": GRID_KEYS}
JUNK_KEYS = st.text("abcxyz_", min_size=1, max_size=5)


def _mutation_of(section: str) -> st.SearchStrategy:
    key = st.one_of(st.sampled_from(SECTIONS[section]), JUNK_KEYS) if section else \
        st.sampled_from(TOP_KEYS)
    value = st.lists(SCALARS, max_size=3) if section == "grid" else VALUES
    return st.tuples(st.just(section), key, st.one_of(st.none(), value, value))


MUTATION = st.sampled_from(sorted(SECTIONS)).flatmap(_mutation_of)  # value None: delete the key


def _sweep(mutations: list[tuple[str, str, object]]) -> dict:
    data = json.loads(json.dumps(BASE))
    for section, key, value in mutations:
        table = data if not section else data.setdefault(section, {})
        if not isinstance(table, dict):
            continue
        if value is None:
            table.pop(key, None)
        else:
            table[key] = value
    return data


def _keys(data: dict, prefix: str = "") -> set[str]:
    names = set()
    for key, value in data.items():
        names |= {key, f"{prefix}{key}"}
        if isinstance(value, dict):
            names |= _keys(value, f"{prefix}{key}.")
    return names


def _check_results(data: dict, out: Path) -> None:
    grid = data.get("grid", {})
    table = pd.read_parquet(out / "summary.parquet")
    assert len(table) == math.prod(len(v) for v in grid.values())
    assert (table["hands"] == data["hands"]).all()
    cell = json.loads((out / "metadata.json").read_text())["cells"][0]
    rules = ds.Rules(**cell["rules"])
    for key, value in data.get("rules", {}).items():
        if key != "preset":
            assert getattr(rules, key) == value
    hands = ds.simulate(rules, cell["lineup"], data["hands"], data.get("seed", 0))
    assert table["points"][0] == pytest.approx(hands["points"].mean(), rel=1e-12)
    assert table["plays"][0] == pytest.approx(hands["plays"].mean(), rel=1e-12)


@settings(max_examples=80, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(mutations=st.lists(MUTATION, max_size=3))
def test_sweep_file_fuzz_runs_correctly_or_is_refused_in_one_line_naming_a_key(capsys,
                                                                              mutations):
    data = _sweep(mutations)
    capsys.readouterr()
    with tempfile.TemporaryDirectory() as tmp:
        path, out = Path(tmp) / "fuzz.toml", Path(tmp) / "out"
        path.write_text(tomli_w.dumps(data))
        try:
            status = main([str(path), "--out", str(out), "--quiet"])
        except SystemExit as e:
            status = e.code
        err = capsys.readouterr().err
        if status == 0:
            _check_results(data, out)
            return
        assert status == 2, err
        assert err.count("\n") == 1 and "Traceback" not in err, err
        assert not out.exists() and sorted(p.name for p in Path(tmp).iterdir()) == ["fuzz.toml"]
    named = set(re.findall(r"`([^`]+)`", err))
    assert named & (_keys(data) | {"hands", "grid", "rules.preset"}), (err, data)


@pytest.mark.parametrize(("lines", "message"), [
    ("[rules]\npreset = \"block\"\nmax_pip = [6]\n", "line 4: The value for `max_pip` must be an "
     "integer from 1 to 15, but [6] was passed."),
    ("[rules]\npreset = \"block\"\nmax_pip = { a = 6 }\n", "The value for `max_pip` must be"),
    ("[rules]\npreset = [\"block\"]\n", "line 3: The value for `rules.preset` must be one of"),
    ("keep = [\"rows\"]\n[rules]\npreset = \"draw\"\n", "line 2: The value for `keep` must be"),
    ("[rules]\npreset = \"draw\"\nopening_arms = 2.0\n", "The value for `opening_arms` must be 2"),
    ("[rules]\npreset = \"draw\"\nplayers = true\n", "The value for `players` must be an integer"),
    ("[rules]\npreset = \"block\"\nplayers = 4\nmax_pip = 16\n", "The value for `max_pip` must "
     "be an integer from 1 to 15, but 16 was passed."),
])
def test_sweep_value_of_the_wrong_kind_is_refused_in_one_line(tmp_path, capsys, lines, message):
    path = tmp_path / "s.toml"
    path.write_text("hands = 10\n" + lines)
    with pytest.raises(SystemExit) as caught:
        main([str(path), "--out", str(tmp_path / "out"), "--quiet"])
    err = capsys.readouterr().err
    assert caught.value.code == 2 and err.count("\n") == 1 and message in err, err
    assert not (tmp_path / "out").exists()
