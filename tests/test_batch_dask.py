"""Sweeps on a real dask.distributed cluster (worker processes on this machine)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
from distributed import Client

from dominosim.batch import parse_sweep, run_sweep
from dominosim.batch.cluster import local_cluster
from dominosim.batch.run import Task, play, play_and_encode

SWEEP = """\
seed = 33
hands = 12_000
chunk_size = 3_000
keep = "rows"
[grid]
preset = ["block", "ivory"]
players = [3, 4]
"""


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name not in ("metadata.json", "manifest.jsonl")}


@pytest.fixture(scope="module")
def client():
    # no HTTP server: LocalCluster's would take port 8787 (and fail beside another cluster)
    with local_cluster(2) as cluster, Client(cluster) as c:
        c.wait_for_workers(2)
        yield c


@pytest.fixture(scope="module")
def local_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("local")
    run_sweep(parse_sweep(SWEEP), out, quiet=True)
    return _files(out)


@pytest.mark.slow
def test_dask_run_writes_the_bytes_of_a_local_run(tmp_path, client, local_run):
    result = run_sweep(parse_sweep(SWEEP), tmp_path, client=client, quiet=True)
    assert result.chunks_played == 16
    assert _files(tmp_path) == local_run
    pids = set(client.run(os.getpid).values())
    assert len(pids) == 2 and os.getpid() not in pids


@pytest.mark.slow
def test_dask_worker_killed_mid_chunk_costs_a_retry_of_that_chunk(tmp_path, client, local_run):
    marker = tmp_path / "killed-once"

    def dies_once_in_chunk_2_of_cell_1(task: Task) -> dict[str, bytes]:
        if (task.cell, task.index) == (1, 2) and not marker.exists():
            marker.write_text(str(os.getpid()))
            play(Task(task.cell, task.index, task.start, task.n // 2, task.rules, task.lineup,
                      task.seed, task.keep), n_jobs=1)  # half the chunk played, then
            os.kill(os.getpid(), signal.SIGKILL)  # the worker process dies
        return play_and_encode(task)

    before = set(client.run(os.getpid).values())
    result = run_sweep(parse_sweep(SWEEP), tmp_path / "out", client=client, quiet=True,
                       play_fn=dies_once_in_chunk_2_of_cell_1)
    assert int(marker.read_text()) in before
    assert result.chunks_played == 16
    assert _files(tmp_path / "out") == local_run
    lines = (tmp_path / "out" / "manifest.jsonl").read_text().splitlines()
    assert len(lines) == 16


def test_dask_jobs_with_cluster_is_refused_before_writing(tmp_path, client):
    with pytest.raises(ValueError, match="The value for `--jobs` must be left out with a Dask "
                       "cluster"):
        run_sweep(parse_sweep(SWEEP), tmp_path / "out", client=client, jobs=1)
    assert not (tmp_path / "out").exists()
