"""A sweep killed with SIGKILL at any point and run again gives the results of a clean run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dominosim.batch import load_sweep, run_sweep

SWEEP = """\
seed = 21
hands = 40_000
chunk_size = 2_000
keep = "rows"
[rules]
preset = "block"
[grid]
players = [2, 4]
"""


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name not in ("metadata.json", "manifest.jsonl")}


def _finished(out: Path) -> int:
    try:
        return (out / "manifest.jsonl").read_text().count("\n")
    except FileNotFoundError:
        return 0


def _start(path: Path, out: Path, env: dict[str, str] | None = None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "dominosim.batch", str(path), "--out", str(out),
                             "--quiet"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)


def _kill_when(proc: subprocess.Popen, ready) -> None:
    deadline = time.monotonic() + 60
    while not ready():
        assert proc.poll() is None, proc.stderr.read().decode()
        assert time.monotonic() < deadline
        time.sleep(0.001)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    proc.stderr.close()


@pytest.mark.slow
def test_batch_sigkill_mid_run_then_resume_equals_clean_run(tmp_path):
    path = tmp_path / "sweep.toml"
    path.write_text(SWEEP)
    sweep = load_sweep(path)
    total = len(sweep.chunks())
    clean = _files(run_sweep(sweep, tmp_path / "clean", quiet=True).out)
    out = tmp_path / "killed"
    seen = []
    # killed as soon as the folder exists (before or while the first chunk plays), then at an
    # instant unrelated to chunk boundaries once a few chunks are finished
    for ready in (lambda: (out / "metadata.json").exists(),
                  lambda: _finished(out) >= seen[-1] + 3 and (time.sleep(0.037) or True)):
        _kill_when(_start(path, out), ready)
        seen.append(_finished(out))
        assert not (out / "summary.csv").exists()
    assert seen[0] < seen[1] < total, seen
    resumed = _start(path, out)
    assert resumed.wait(timeout=120) == 0, resumed.stderr.read().decode()
    resumed.stderr.close()
    assert _files(out) == clean
    keys = [line.split('"files"')[0] for line in (out / "manifest.jsonl").read_text().splitlines()]
    assert len(keys) == len(set(keys)) == total


SEARCHES = """\
seed = 8
hands = 200
chunk_size = 8
keep = "rows"
strategies = ["mc:2", "plugins_for_sweeps:lightest"]
[rules]
preset = "block"
"""


@pytest.mark.slow
def test_batch_sigkill_of_a_sweep_of_searches_and_plugins_then_resume_equals_clean_run(tmp_path):
    path = tmp_path / "sweep.toml"
    path.write_text(SEARCHES)
    sweep = load_sweep(path)
    total = len(sweep.chunks())
    clean = _files(run_sweep(sweep, tmp_path / "clean", quiet=True).out)
    # the command imports the plug-in by its path: its folder on the child's Python path
    here = str(Path(__file__).parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (here, os.environ.get("PYTHONPATH")) if p)}
    out = tmp_path / "killed"
    _kill_when(_start(path, out, env), lambda: _finished(out) >= 3 and (time.sleep(0.02) or True))
    killed_at = _finished(out)
    assert 3 <= killed_at < total and not (out / "summary.csv").exists()
    resumed = _start(path, out, env)
    assert resumed.wait(timeout=120) == 0, resumed.stderr.read().decode()
    resumed.stderr.close()
    assert _files(out) == clean
    runs = json.loads((out / "metadata.json").read_text())["runs"]
    assert [r["chunks_skipped"] for r in runs] == [0, killed_at], runs
    assert runs[-1]["chunks_played"] == total - killed_at
    keys = [line.split('"files"')[0] for line in (out / "manifest.jsonl").read_text().splitlines()]
    assert len(keys) == len(set(keys)) == total
