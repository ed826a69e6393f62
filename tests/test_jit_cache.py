"""The compiled engine's on-disk cache: a cache built from other sources is detected and not used,
with a one-line message; nothing is deleted at import; ``dominosim cache --clear`` clears it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numba

from dominosim.fast.core import jit

ROOT = Path(__file__).resolve().parent.parent


def _fake_cache(folder: Path, stamp: str | None) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    files = [folder / "kernel.play_hand-1.py311.nbi", folder / "kernel.play_hand-1.py311.1.nbc"]
    for f in files:
        f.write_bytes(b"compiled")
    if stamp is not None:
        (folder / jit.STAMP).write_text(stamp)
    return files


def test_cache_built_from_other_sources_is_stale_and_kept_until_cleared(tmp_path):
    folder = tmp_path / "__pycache__"
    files = _fake_cache(folder, "old")
    assert jit.stale_folders([folder], digest="new") == [folder]
    assert all(f.exists() for f in files)  # detected, not deleted
    assert jit.clear_cache([folder], digest="new") == 2
    assert not any(f.exists() for f in files)
    assert (folder / jit.STAMP).read_text() == "new"
    assert jit.stale_folders([folder], digest="new") == []


def test_cache_without_a_stamp_is_stale_and_an_empty_or_new_folder_takes_the_stamp(tmp_path):
    unstamped, empty = tmp_path / "a", tmp_path / "b"
    _fake_cache(unstamped, None)
    empty.mkdir()
    assert jit.stale_folders([unstamped, empty, tmp_path / "new"], digest="d") == [unstamped]
    assert (empty / jit.STAMP).read_text() == (tmp_path / "new" / jit.STAMP).read_text() == "d"
    assert not (unstamped / jit.STAMP).exists()


def test_sources_digest_changes_with_any_file_below(tmp_path):
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "turn.py").write_text("x = 1\n")
    (tmp_path / "kernel.py").write_text("y = 2\n")
    before = jit.sources_digest(tmp_path)
    (tmp_path / "core" / "turn.py").write_text("x = 3\n")
    assert jit.sources_digest(tmp_path) != before


def test_cache_folders_cover_every_package_of_the_compiled_engine():
    folders = jit.cache_folders()
    packages = {p.parent for p in jit.FAST.rglob("*.py")}
    assert len(folders) == len(packages) >= 4


def _run(code: list[str], cache_dir: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache_dir), "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, *code], env=env, capture_output=True, text=True,
                          cwd=ROOT, check=True, timeout=120)


def test_stale_cache_is_refused_at_import_with_one_line_and_cleared_by_the_command(
        tmp_path, monkeypatch):
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path))  # as NUMBA_CACHE_DIR sets it
    files = _fake_cache(jit.cache_folders()[0], "built from other sources")
    imported = _run(["-c", "from dominosim.fast.core import jit; print(jit.CACHE)"], tmp_path)
    assert imported.stdout.strip() == "False"
    message = [line for line in imported.stderr.splitlines() if line.strip()]
    assert len(message) == 1 and "dominosim cache --clear" in message[0]
    assert all(f.exists() for f in files)
    assert "stale" in _run(["-m", "dominosim", "cache"], tmp_path).stdout
    cleared = _run(["-m", "dominosim", "cache", "--clear"], tmp_path)
    assert "deleted 2 cached files" in cleared.stdout
    again = _run(["-c", "from dominosim.fast.core import jit; print(jit.CACHE)"], tmp_path)
    assert again.stdout.strip() == "True" and again.stderr.strip() == ""
    assert "up to date" in _run(["-m", "dominosim", "cache"], tmp_path).stdout


def test_a_cache_built_in_an_empty_folder_is_used_by_the_next_process(tmp_path):
    """A fresh cache location (as ``bench_startup.py`` makes): the first process stamps it and
    caches a kernel there, the next reads it."""
    compile_one = ("from dominosim.fast.core import jit, board; board.make_board(28, 2); "
                   "print(jit.CACHE)")
    assert _run(["-c", compile_one], tmp_path).stdout.strip() == "True"
    assert any(tmp_path.rglob("*.nbi")) and any(tmp_path.rglob(jit.STAMP))
    again = _run(["-c", compile_one], tmp_path)
    assert again.stdout.strip() == "True" and again.stderr.strip() == ""
