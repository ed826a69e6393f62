"""The output folder: resolved before every check, refused in one line, and environment failures
(a full disk, a damaged metadata.json) reported with their own exit status, nothing half-written."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from dominosim.batch import parse_sweep, run_sweep
from dominosim.batch.__main__ import EXIT_ENVIRONMENT, main
from dominosim.batch.store import Store

SWEEP = 'seed = {seed}\nhands = 200\nchunk_size = 100\n[rules]\npreset = "draw"\n'


def _cli(capsys, argv: list[str]) -> tuple[int, str]:
    try:
        status = main([str(a) for a in argv])
    except SystemExit as e:
        status = e.code
    return status, capsys.readouterr().err


def _sweep_file(folder: Path, seed: int = 1, extra: str = "") -> Path:
    path = folder / f"sweep{seed}.toml"
    path.write_text(extra + SWEEP.format(seed=seed))
    return path


def _listing(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


@pytest.mark.parametrize("name", ["..", ".", ".hidden", "a/b", "../up", ""])
def test_sweep_name_that_is_not_a_plain_name_is_refused(tmp_path, capsys, name):
    status, err = _cli(capsys, [_sweep_file(tmp_path, extra=f'name = "{name}"\n'), "--quiet"])
    assert status == 2 and err.count("\n") == 1 and "The value for `name` must be" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sweep1.toml"]


def test_out_climbing_with_dotdot_into_another_sweep_is_refused_as_that_sweep(tmp_path, capsys):
    first = tmp_path / "results" / "first"
    assert _cli(capsys, [_sweep_file(tmp_path, 1), "--out", first, "--quiet"])[0] == 0
    before = _listing(first)
    sneaky = tmp_path / "results" / "not-yet" / ".." / "first"
    status, err = _cli(capsys, [_sweep_file(tmp_path, 2), "--out", sneaky, "--quiet"])
    assert status == 2 and err.count("\n") == 1
    assert f"{str(first)!r} holds a different sweep (seed: 1 there, 2 in this sweep)" in err
    assert _listing(first) == before and not (tmp_path / "results" / "not-yet").exists()


def test_out_dotdot_into_a_folder_of_other_files_is_refused(tmp_path, capsys, monkeypatch):
    (tmp_path / "notes.md").write_text("mine")
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    status, err = _cli(capsys, [_sweep_file(tmp_path), "--out", "..", "--quiet"])
    assert status == 2 and f"{str(tmp_path)!r} holds other files" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.md", "sweep1.toml", "work"]


def test_symlink_to_a_locked_folder_meets_the_lock_of_the_real_folder(tmp_path):
    real = tmp_path / "real"
    holder = Store(real)
    holder.prepare(fresh=False)
    (tmp_path / "link").symlink_to(real)
    try:
        with pytest.raises(ValueError, match=f"{str(real)!r} is in use by another sweep"):
            run_sweep(parse_sweep(SWEEP.format(seed=1)), tmp_path / "link", quiet=True)
    finally:
        holder.release()
    assert Store(tmp_path / "link").root == real


def test_out_under_a_file_is_bad_input_in_one_line(tmp_path, capsys):
    (tmp_path / "plain").write_text("a file")
    status, err = _cli(capsys, [_sweep_file(tmp_path), "--out", tmp_path / "plain" / "out"])
    assert status == 2 and err.count("\n") == 1
    assert f"lies under the file {str(tmp_path / 'plain')!r}" in err


def test_full_disk_exits_74_in_one_line_leaving_no_tmp_and_the_rerun_resumes(
        tmp_path, capsys, monkeypatch):
    from dominosim.batch import store as store_module

    real_replace = os.replace

    def no_space_for_the_summary(src, dst):
        if str(dst).endswith("summary.csv"):
            raise OSError(errno.ENOSPC, "No space left on device", str(dst))
        return real_replace(src, dst)

    monkeypatch.setattr(store_module.os, "replace", no_space_for_the_summary)
    out = tmp_path / "out"
    status, err = _cli(capsys, [_sweep_file(tmp_path), "--out", out, "--quiet"])
    assert status == EXIT_ENVIRONMENT == 74
    assert err.count("\n") == 1 and "No space left on device; free some space" in err
    assert f"Cannot write {str(out / 'summary.csv')!r}" in err and "Traceback" not in err
    assert not [p for p in out.rglob("*") if ".tmp" in p.name]
    assert not (out / "summary.csv").exists()
    monkeypatch.setattr(store_module.os, "replace", real_replace)
    result = run_sweep(parse_sweep(SWEEP.format(seed=1)), out, quiet=True)
    assert (result.chunks_played, result.chunks_skipped) == (0, 2)
    assert result.summary["hands"].tolist() == [200]


@pytest.mark.parametrize("damage", [b'{"plan": {"seed"', b"[]", b'{"plan": 3, "runs": []}'])
def test_damaged_metadata_exits_74_naming_the_file_and_fresh_recovers(tmp_path, capsys, damage):
    out = tmp_path / "out"
    sweep = _sweep_file(tmp_path)
    assert _cli(capsys, [sweep, "--out", out, "--quiet"])[0] == 0
    (out / "metadata.json").write_bytes(damage)
    status, err = _cli(capsys, [sweep, "--out", out, "--quiet"])
    assert status == 74 and err.count("\n") == 1
    assert f"The file {str(out / 'metadata.json')!r} is damaged" in err and "--fresh" in err
    assert _cli(capsys, [sweep, "--out", out, "--quiet", "--fresh"])[0] == 0


@pytest.mark.parametrize(("settings", "message"), [
    (f"hands = {2**63 - 1}\n", "The value for `hands` must be at most"),
    ("hands = 10_000_000\nchunk_size = 1\n", "at most 100,000 chunks a sweep"),
    ('hands = 10\nkeep = "rows"\nchunk_size = 200_000_000\n', "`chunk_size` must be at most"),
])
def test_sweep_beyond_its_limits_is_refused_before_any_chunk_is_listed(tmp_path, capsys,
                                                                       settings, message):
    (tmp_path / "big.toml").write_text(settings + '[rules]\npreset = "draw"\n')
    status, err = _cli(capsys, [tmp_path / "big.toml", "--dry-run"])
    assert status == 2 and err.count("\n") == 1 and message in err


def test_dry_run_counts_chunks_without_listing_them(tmp_path, capsys, monkeypatch):
    from dominosim.batch.sweep import Sweep

    def listed(self):
        raise AssertionError("the dry run listed the sweep's chunks")

    out, sweep = tmp_path / "out", tmp_path / "s.toml"
    sweep.write_text('seed = 4\nhands = 250\nchunk_size = 100\n[rules]\npreset = "draw"\n')
    assert main([str(sweep), "--out", str(out), "--quiet"]) == 0
    manifest = out / "manifest.jsonl"
    manifest.write_text(manifest.read_text().splitlines()[0] + "\n")  # chunk 0 finished only
    monkeypatch.setattr(Sweep, "chunks", listed)
    assert main([str(sweep), "--dry-run", "--out", str(out)]) == 0
    assert "3 chunks, 1 finished, 2 to play (150 hands)" in capsys.readouterr().out


def test_cell_the_search_cannot_count_stops_in_one_line_with_exit_2(tmp_path, capsys):
    sweep = tmp_path / "big.toml"
    # double-nine and keep = "rows": the searching kernel other tests compile (no kernel of its own)
    sweep.write_text('hands = 3\nkeep = "rows"\nstrategies = "mc"\n[rules]\npreset = "draw"\n'
                     "players = 10\nmax_pip = 9\nhand_size = 5\n")
    status, err = _cli(capsys, [sweep, "--out", tmp_path / "out", "--quiet"])
    assert status == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert "table of consistent deals would need more than" in err


def test_read_only_disk_exits_74_in_one_line_writing_nothing(tmp_path, capsys, monkeypatch):
    real_mkdir = Path.mkdir

    def read_only(self, *args, **kwargs):
        if self.is_relative_to(tmp_path / "out"):
            raise OSError(errno.EROFS, "Read-only file system", str(self))
        return real_mkdir(self, *args, **kwargs)

    monkeypatch.setattr(Path, "mkdir", read_only)
    status, err = _cli(capsys, [_sweep_file(tmp_path), "--out", tmp_path / "out", "--quiet"])
    assert status == 74 and err.count("\n") == 1
    assert "Read-only file system; choose a folder you may write with --out" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sweep1.toml"]
