"""Sweeps on a real dask.distributed cluster (worker processes on this machine)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
from distributed import Client

import dominosim as ds
from dominosim.batch import parse_sweep, read_hands, run_sweep
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


# a search with a budget and a user's plug-in named by import path (tests/plugins_for_sweeps.py,
# on the Python path of the tests, which the spawned workers inherit); the two line-ups are of
# kernel shapes the plug-in tests compile already
SEARCHES = """\
seed = 5
hands = 60
chunk_size = 20
keep = "rows"
[rules]
preset = "block"
[grid]
strategies = [["mc:2", "plugins_for_sweeps:lightest"], ["plugins_for_sweeps:lightest", "random"]]
"""


@pytest.mark.slow
def test_dask_searches_and_plugins_by_path_write_the_rows_of_a_local_run(tmp_path, client):
    sweep = parse_sweep(SEARCHES)
    local = run_sweep(sweep, tmp_path / "local", quiet=True)
    dask = run_sweep(sweep, tmp_path / "dask", client=client, quiet=True)
    assert local.chunks_played == dask.chunks_played == 6
    rows = read_hands(tmp_path / "local")
    assert rows.equals(read_hands(tmp_path / "dask"))
    assert _files(tmp_path / "dask") == _files(tmp_path / "local")
    # the strategies are named as the sweep file writes them, and really played
    assert rows.groupby("cell", observed=True)["lineup"].first().tolist() == [
        "mc:2,plugins_for_sweeps:lightest", "plugins_for_sweeps:lightest,random"]
    assert local.summary["strategies"].tolist() == [
        "mc:2/plugins_for_sweeps:lightest", "plugins_for_sweeps:lightest/random"]
    import plugins_for_sweeps

    light = ds.compiled_strategy(plugins_for_sweeps.lightest)
    direct = ds.simulate(sweep.cells[1].rules, [light, "random"], 60, seed=5)
    played = rows[rows["cell"] == 1].reset_index(drop=True)[list(direct.columns)]
    assert played.astype(direct.dtypes.to_dict()).equals(direct)
    assert not direct.equals(ds.simulate(sweep.cells[1].rules, "random", 60, seed=5))


def test_dask_worker_that_cannot_import_the_plugin_stops_the_run_naming_it(tmp_path, client,
                                                                           monkeypatch):
    # the workers started before this folder joined the Python path: they cannot import it
    (tmp_path / "plugin_only_here.py").write_text(
        "import numba\n\n\n@numba.njit\ndef first(moves_tile, moves_suit, n_moves, view, rng):\n"
        "    return 0\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    # its first cell needs no plug-in: the workers are asked to import every plug-in up front
    sweep = parse_sweep('hands = 10\n[rules]\npreset = "block"\n[grid]\nstrategies = '
                        '["random", ["plugin_only_here:first", "random"]]\n')
    with pytest.raises(RuntimeError, match=r"^'plugin_only_here:first' is not a strategy "
                       r"dominosim can play: the module 'plugin_only_here' cannot be imported "
                       r"\(ModuleNotFoundError: .*\), in the process \d+ on '.*' that plays the "
                       r"hands \(every machine .*PYTHONPATH\)\.$"):
        run_sweep(sweep, tmp_path / "out", client=client, quiet=True)
    assert not (tmp_path / "out" / "summary.csv").exists()
    assert not (tmp_path / "out" / "manifest.jsonl").read_text()  # not even the first cell
