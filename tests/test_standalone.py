"""The repository stands alone: a clone with nothing beside it collects and runs its tests.

The exact values the statistical tests rest on live in ``tests/data/validation``; no tracked file
may point at a folder beside the checkout, since a user who clones the repository has none.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from exact_values import exact_table, find_validation

ROOT = Path(__file__).resolve().parents[1]
# Written in two parts so that this file does not cite them itself.
OUTSIDE = ("../" + "shared", "/" + "work/")
_UNTRACKED = {".git", "results", "__pycache__", ".pytest_cache", ".hypothesis", ".ruff_cache",
              ".mypy_cache", ".ipynb_checkpoints", "build", "dist"}


def _tracked_files() -> list[Path]:
    """The files a clone holds: ``git ls-files``, or the tree less build and cache folders."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             check=True).stdout
        names = [name for name in out.decode().split("\0") if name]
    except (OSError, subprocess.CalledProcessError):  # an unpacked archive, not a checkout
        names = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*")
                 if p.is_file() and not _UNTRACKED.intersection(p.relative_to(ROOT).parts)
                 and not any(part.endswith(".egg-info") for part in p.relative_to(ROOT).parts)]
    return [ROOT / name for name in names if (ROOT / name).is_file()]


def test_validation_tables_inside_repository_are_read():
    folder = find_validation()
    assert folder == ROOT / "tests" / "data" / "validation"
    table = exact_table()
    assert {"config_id", "quantity", "exact_fraction", "exact_float"} <= set(table.columns)
    first = table[(table.config_id == "1") & (table.quantity == "P_opener_side_wins")]
    assert first["exact_fraction"].tolist() == ["5/6"]  # double-2 Block, 2 players, 2 tiles each
    redeal = pd.read_csv(folder / "redeal.csv")
    assert set(redeal["preset"]) >= {"block", "draw", "ivory"}


def test_tracked_files_cite_no_folder_outside_repository():
    offenders = []
    for path in _tracked_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:  # images and other binary files
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if any(needle in line for needle in OUTSIDE):
                offenders.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert offenders == []


@pytest.mark.slow
def test_bare_clone_collects_every_test(tmp_path):
    clone = tmp_path / "dominosim"
    for path in _tracked_files():
        target = clone / path.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dominosim"]  # nothing beside it
    # `python -m` puts the clone first on sys.path, so its own package and data are the ones read.
    # Collecting imports every test module; rewriting their asserts (a fifth of its CPU) is not
    # what is checked here.
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                           "-p", "no:cacheprovider", "--assert=plain"], cwd=clone,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    collected = done.stdout.splitlines()
    n_configs = exact_table()["config_id"].nunique()
    reference = [line for line in collected
                 if line.startswith("tests/test_exact_values.py::"
                                    "test_reference_engine_matches_exact_values[")]
    assert len(reference) == n_configs
    assert any(line.startswith("tests/test_standalone.py::") for line in collected)
    assert any(line.startswith("dominosim/rules.py::") for line in collected)  # the doctests


def test_tracked_files_cite_the_docs_not_the_old_rule_book_names():
    # The validation files keep their original text (tests/data/README.md says so).
    allowed = {"tests/data/validation/README.md", "tests/data/README.md"}
    names = ("RULES" + ".md", "DESIGN" + ".md")
    offenders = [str(path.relative_to(ROOT)) for path in _tracked_files()
                 if path.suffix in (".py", ".md", ".toml", ".ipynb", ".txt", ".cfg")
                 and str(path.relative_to(ROOT)) not in allowed
                 and any(name in path.read_text(encoding="utf-8") for name in names)]
    assert offenders == []


def test_markdown_links_inside_repository_resolve():
    link = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
    broken = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
                 ROOT / "tests" / "data" / "README.md"]:
        for target in link.findall(path.read_text(encoding="utf-8")):
            if "://" not in target and not (path.parent / target).exists():
                broken.append(f"{path.relative_to(ROOT)} -> {target}")
    assert broken == []


def test_rule_book_has_every_rules_field_and_preset():
    import dataclasses

    import dominosim as ds

    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    missing = [f"`{f.name}`" for f in dataclasses.fields(ds.Rules) if f"`{f.name}`" not in text]
    missing += [f"`{p}`" for p in ds.PRESETS if f"`{p}`" not in text]
    assert missing == []


def test_records_page_names_every_column_of_records_sums_and_summary():
    import dominosim as ds
    from dominosim.batch.output import summary_row
    from dominosim.records import BASE_COLUMNS, SEAT_COLUMNS
    from dominosim.summary import summary_fields

    text = (ROOT / "docs" / "records.md").read_text(encoding="utf-8")
    names = list(BASE_COLUMNS) + [f"{prefix}_<s>" for prefix in SEAT_COLUMNS]
    names += sorted({re.sub(r"_0$", "_<k>" if f.startswith(("side", "rel")) else "_<s>", f)
                     for f in summary_fields(1)})
    rules = ds.Rules.preset("draw", players=3)
    sums = ds.Summary.from_frame(rules, ds.simulate(rules, "random", n_hands=30, seed=1,
                                                    engine="reference"))
    names += sorted({re.sub(r"^side\d+", "side<k>", re.sub(r"_(low|high)$", "", key))
                     for key in summary_row(sums)})
    assert [name for name in names if f"`{name}`" not in text] == []
