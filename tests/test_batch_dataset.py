"""A sweep's Parquet results as one dataset: read whole by pandas, pyarrow, DuckDB and polars
whatever the player counts of its cells, rows grouped by rules without a join, metadata in every
file, and only the chunks the manifest lists counted."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import polars as pl
import pyarrow.dataset as pds
import pyarrow.parquet as pq
import pytest

import dominosim as ds
from dominosim import batch
from dominosim.batch import load_sweep, parse_sweep, read_hands, run_sweep
from dominosim.batch.output import read_sums

SWEEP = """\
seed = 11
hands = 500
chunk_size = 200
keep = "rows"
[rules]
preset = "block"
[grid]
players = [2, 3, 4]
strategies = ["random", ["bully", "random"]]
"""
CELLS = 6
SEATS = [f"{p}_{s}" for p in ("pips", "tiles_left", "stitch_ups") for s in range(4)]
SIDES = [f"{g}_{k}" for g in ("side_wins", "rel_points", "rel_points_sq") for k in range(4)]


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("sweep")
    run_sweep(parse_sweep(SWEEP), folder, quiet=True)
    return folder


def _expected_hands(cell) -> pd.DataFrame:
    return ds.simulate(cell.rules, list(cell.lineup), 500, seed=11)


def test_dataset_hands_read_whole_by_pandas_with_every_seat_column(out):
    df = pd.read_parquet(out / "hands")
    assert len(df) == CELLS * 500 and set(SEATS) <= set(df.columns)
    assert df.groupby("players")["hand"].count().to_dict() == {2: 1000, 3: 1000, 4: 1000}
    two = df[df["players"] == 2]
    assert two["pips_2"].isna().all() and two["stitch_ups_3"].isna().all()
    four = df[df["players"] == 4]
    assert four["pips_3"].notna().all()
    sweep = parse_sweep(SWEEP)
    cell = sweep.cells[5]
    mine = df[df["cell"] == 5].sort_values("hand").reset_index(drop=True)
    expected = _expected_hands(cell)
    np.testing.assert_array_equal(mine["pips_3"].to_numpy(), expected["pips_3"].to_numpy())
    assert mine["label"].unique().tolist() == ["block 4p bully/random"]
    assert mine["lineup"].unique().tolist() == ["bully,random,bully,random"]


def test_dataset_hands_and_sums_read_whole_by_pyarrow_with_hive_cells(out):
    hands = pds.dataset(out / "hands", format="parquet", partitioning="hive").to_table()
    assert hands.num_rows == CELLS * 500 and set(SEATS) <= set(hands.column_names)
    assert sorted(set(hands["cell"].to_pylist())) == list(range(CELLS))
    sums = pds.dataset(out / "sums", format="parquet", partitioning="hive").to_table()
    assert sums.num_rows == CELLS * 3 and set(SIDES) <= set(sums.column_names)
    assert sum(sums["hands"].to_pylist()) == CELLS * 500


def test_dataset_read_whole_by_duckdb_grouped_by_rules(out):
    rows = duckdb.sql(
        f"SELECT players, strategies, count(*) AS n, count(pips_3) AS seat3, "
        f"count(DISTINCT cell) AS cells FROM read_parquet('{out}/hands/**', "
        "hive_partitioning = true) GROUP BY ALL ORDER BY ALL").fetchall()
    assert rows == [(2, "bully/random", 500, 0, 1), (2, "random", 500, 0, 1),
                    (3, "bully/random", 500, 0, 1), (3, "random", 500, 0, 1),
                    (4, "bully/random", 500, 500, 1), (4, "random", 500, 500, 1)]
    sums = duckdb.sql(f"SELECT sum(hands), count(rel_points_3) FROM read_parquet("
                      f"'{out}/sums/**', hive_partitioning = true)").fetchall()[0]
    assert sums == (CELLS * 500, 6)


def test_dataset_read_whole_by_polars(out):
    hands = pl.read_parquet(out / "hands", hive_partitioning=True)
    assert hands.height == CELLS * 500 and set(SEATS) <= set(hands.columns)
    assert hands.filter(pl.col("players") == 2)["pips_2"].null_count() == 1000
    sums = pl.scan_parquet(out / "sums" / "**" / "*.parquet", hive_partitioning=True).collect()
    assert sums.height == CELLS * 3 and set(SIDES) <= set(sums.columns)
    assert sums.group_by("players").agg(pl.col("hands").sum()).sort("players")["hands"].to_list() \
        == [1000.0, 1000.0, 1000.0]


def test_dataset_summary_parquet_read_by_every_reader(out):
    frame = pd.read_parquet(out / "summary.parquet")
    assert len(frame) == CELLS and "side2_wins" in frame and frame["side2_wins"].isna().sum() == 4
    assert duckdb.sql(f"SELECT count(*) FROM read_parquet('{out}/summary.parquet')").fetchall()[0] \
        == (CELLS,)
    assert pl.read_parquet(out / "summary.parquet").height == CELLS
    meta = json.loads(pq.read_schema(out / "summary.parquet").metadata[b"dominosim"])
    assert meta["seed"] == 11 and len(meta["cells"]) == CELLS
    assert meta["cells"][4]["rules"]["players"] == 4 and "pyarrow" in meta["versions"]


def test_dataset_every_file_metadata_holds_cell_rules_lineup_seed_versions(out):
    sweep = parse_sweep(SWEEP)
    files = sorted(out.glob("*/cell=*/chunk-*.parquet"))
    assert len(files) == 2 * CELLS * 3
    for path in files:
        cell = sweep.cells[int(path.parent.name.split("=")[1])]
        schema = pq.read_schema(path)
        meta = json.loads(schema.metadata[b"dominosim"])
        assert meta["cell"]["rules"] == cell.rules.to_dict()
        assert meta["cell"]["lineup"] == list(cell.lineup)
        assert meta["seed"] == 11 and meta["sweep"]["hands"] == 500
        assert meta["chunk"]["index"] == int(path.stem.split("-")[1])
        assert set(meta["versions"]) >= {"dominosim", "pyarrow"} and "sources_sha256" in meta["engine"]


def test_dataset_swept_rule_option_is_a_column_named_apart_from_records(tmp_path):
    sweep = parse_sweep('hands = 50\nkeep = "rows"\n[rules]\npreset = "block"\nplayers = 4\n'
                        'partnerships = true\n[grid]\nend = ["out", "team_out"]\n'
                        'scoring = ["game", "spots"]\n')
    run_sweep(sweep, tmp_path, quiet=True)
    df = pd.read_parquet(tmp_path / "hands")
    assert df.groupby(["rule_end", "scoring"])["hand"].count().to_dict() == {
        ("out", "game"): 50, ("out", "spots"): 50, ("team_out", "game"): 50,
        ("team_out", "spots"): 50}
    assert set(df["end"].astype(str)) <= {"out", "blocked"}


def test_read_hands_selected_cells_keep_their_dtypes(out):
    sweep = parse_sweep(SWEEP)
    got = read_hands(out, cells=[0, 1])
    assert "pips_2" not in got and set(got["players"]) == {2}
    expected = _expected_hands(sweep.cells[0])
    pd.testing.assert_frame_equal(
        got[got["cell"] == 0][list(expected.columns)].reset_index(drop=True), expected)


def test_read_sums_takes_the_cells_rules_from_its_files(out):
    sweep = parse_sweep(SWEEP)
    for cell in sweep.cells:
        got = batch.read_sums(out, cell.index)
        assert got.rules == cell.rules
        np.testing.assert_array_equal(got.sums, read_sums(out, cell.index, cell.rules).sums)
    with pytest.raises(ValueError, match=r"^The value for `cell` must be a cell with finished "
                                         r"chunks in .* \(or pass `rules`\), but 9 was passed.$"):
        batch.read_sums(out, 9)


def _copy_with_stray(out: Path, tmp_path: Path) -> tuple[Path, Path]:
    folder = tmp_path / "copy"
    shutil.copytree(out, folder)
    stray = folder / "hands" / "cell=1" / "chunk-000000 (copy).parquet"
    shutil.copy(folder / "hands" / "cell=1" / "chunk-000000.parquet", stray)
    shutil.copy(folder / "sums" / "cell=1" / "chunk-000000.parquet",
                folder / "sums" / "cell=1" / "chunk-000000 (copy).parquet")
    return folder, stray


def test_read_hands_and_sums_warn_of_a_stray_copy_and_leave_it_out(out, tmp_path):
    folder, stray = _copy_with_stray(out, tmp_path)
    with pytest.warns(UserWarning, match=re.escape(repr(str(stray)))):
        df = read_hands(folder, cells=1)
    assert len(df) == 500 and df["hand"].is_unique
    cell = parse_sweep(SWEEP).cells[1]
    with pytest.warns(UserWarning, match=r"chunk-000000 \(copy\)\.parquet.*is not a chunk"):
        total = read_sums(folder, 1, cell.rules)
    assert total.n_hands == 500


def test_run_again_beside_a_stray_copy_counts_it_nowhere(out, tmp_path):
    folder, _ = _copy_with_stray(out, tmp_path)
    with pytest.warns(UserWarning, match="is not a chunk the sweep's manifest lists"):
        result = run_sweep(parse_sweep(SWEEP), folder, quiet=True)
    assert result.chunks_played == 0 and result.summary["hands"].tolist() == [500] * CELLS


EXAMPLES = sorted((Path(__file__).parent.parent / "examples").glob("*.toml"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_dataset_examples_read_whole_by_every_reader(path, tmp_path):
    sweep = load_sweep(path).with_hands(120)
    run_sweep(sweep, tmp_path, quiet=True)
    kinds = ["sums"] + (["hands"] if sweep.keep == "rows" else [])
    for kind in kinds:
        files = sorted((tmp_path / kind).rglob("*.parquet"))
        names = set().union(*(pq.read_schema(f).names for f in files)) | {"cell"}
        rows = len(sweep.cells) * (120 if kind == "hands" else 1)
        readers = {
            "pandas": pd.read_parquet(tmp_path / kind),
            "pyarrow": pds.dataset(tmp_path / kind, partitioning="hive").to_table().to_pandas(),
            "duckdb": duckdb.sql(f"SELECT * FROM read_parquet('{tmp_path / kind}/**', "
                                 "hive_partitioning = true)").df(),
            "polars": pl.read_parquet(tmp_path / kind, hive_partitioning=True).to_pandas(),
        }
        for reader, frame in readers.items():
            assert set(frame.columns) == names, (kind, reader)
            assert len(frame) == rows, (kind, reader)
            assert frame["cell"].astype(int).nunique() == len(sweep.cells), (kind, reader)


def test_readme_duckdb_query_runs_over_a_sweep(tmp_path):
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- duckdb-query -->\s*```python\n(.*?)```", readme, re.S)
    assert block, "the README's DuckDB example is marked <!-- duckdb-query -->"
    out = tmp_path / "house_rules"
    run_sweep(load_sweep(Path(__file__).parent.parent / "examples" / "house_rules.toml")
              .with_hands(300), out, quiet=True)
    code = block.group(1).replace("results/house_rules", out.as_posix())
    scope: dict = {}
    exec(code, scope)
    table = scope["by_rules"]
    assert list(table.columns[:2]) == ["draw", "scoring"]
    assert len(table) == 6 and table["hands"].tolist() == [300] * 6
    df = pd.read_parquet(out / "hands")
    df = df.astype({"draw": str, "scoring": str})   # categorical in pandas; sorted as text here
    blocked = (df["end"] == "blocked").groupby([df["draw"], df["scoring"]]).mean()
    np.testing.assert_allclose(table["blocked"], blocked.to_numpy())
    points = df.groupby(["draw", "scoring"])["points"].mean()
    np.testing.assert_allclose(table["points"], points.to_numpy())
