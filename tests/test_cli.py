"""The ``dominosim`` console command and the package's metadata (licence, version, dependencies)."""

from __future__ import annotations

import ast
import importlib.metadata
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

import dominosim as ds
from dominosim import cli
from dominosim.batch.output import versions

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
EXAMPLE = ROOT / "examples" / "block_vs_draw_small.toml"


def _script() -> str:
    """The installed ``dominosim`` script: beside this Python, else on the PATH."""
    beside = Path(sys.executable).parent / "dominosim"
    found = str(beside) if beside.exists() else shutil.which("dominosim")
    assert found is not None, "the `dominosim` script is not installed: run pip install -e ."
    return found


def _run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=600)


def test_console_help_lists_subcommands_and_exits_0():
    done = _run(_script(), "--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: dominosim [COMMAND]")
    commands = [line.split()[0] for line in done.stdout.splitlines() if line.startswith("  ")
                and not line.strip().startswith("-")]
    assert commands == ["batch", "report", "play", "cache", "warm"]


def test_python_m_dominosim_help_is_the_console_help():
    by_module = _run(sys.executable, "-m", "dominosim", "--help")
    assert by_module.returncode == 0, by_module.stderr
    assert by_module.stdout == _run(_script(), "--help").stdout


def test_console_version_is_the_package_version():
    done = _run(_script(), "--version")
    assert (done.returncode, done.stdout) == (0, f"dominosim {ds.__version__}\n")


def test_console_subcommand_help_names_the_subcommand():
    for command in ("batch", "report"):
        done = _run(_script(), command, "--help")
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith(f"usage: dominosim {command} ")


@pytest.mark.slow  # plays a sample of every cell (the first time: compiles the engine)
def test_console_batch_dry_run_on_example_prints_plan_and_writes_nothing(tmp_path):
    out = tmp_path / "out"
    done = _run(_script(), "batch", str(EXAMPLE), "--dry-run", "--hands", "200", "--jobs", "1",
                "--out", str(out))
    assert done.returncode == 0, done.stderr
    first = done.stdout.splitlines()[0]
    assert first.startswith("Sweep 'block_vs_draw_small': 4 cells x 200 hands = 800 hands, seed 7")
    assert "Estimated time:" in done.stdout
    assert not out.exists()


def test_console_batch_bad_option_exits_2_in_one_line():
    done = _run(_script(), "batch", str(EXAMPLE), "--hands", "0")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "dominosim batch: error: The value for `--hands` must be an integer of 1 or more, but 0 "
        "was passed."]


def test_unknown_command_refused_in_one_sentence(capsys):
    assert cli.main(["plya"]) == 2
    err = capsys.readouterr().err
    assert err == ("dominosim: error: The value for the command must be one of 'batch', "
                   "'report', 'play', 'cache', 'warm', or a sweep file (.toml), but 'plya' was passed.\n")


def test_no_argument_announces_then_runs_the_built_in_sweep(monkeypatch, capsys):
    calls = []
    monkeypatch.setattr(cli, "_batch", lambda argv, prog: calls.append((argv, prog)) or 0)
    assert cli.main([]) == 0
    assert calls == [([], "dominosim")]
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1
    assert err[0].startswith("dominosim: running the built-in sweep 'block_vs_draw'")
    assert "15,000,000 hands into results/block_vs_draw/" in err[0]


def test_sweep_file_or_batch_option_first_goes_to_batch(monkeypatch):
    calls = []
    monkeypatch.setattr(cli, "_batch", lambda argv, prog: calls.append(argv) or 0)
    assert cli.main([str(EXAMPLE), "--dry-run"]) == 0
    assert cli.main(["--print-default"]) == 0
    assert calls == [[str(EXAMPLE), "--dry-run"], ["--print-default"]]


def test_announce_time_scales_with_cores():
    one, four = cli.announce(cores=1), cli.announce(cores=4)
    assert "on 1 cores, about 30 s," in one
    assert "on 4 cores, about 10 s," in four
    assert "plus about 50 s the first time on a machine to compile the engine's 4 kernels" in one
    assert "plus about 15 s the first time" in four  # 4 kernels compiled at once


def test_version_has_one_source():
    assert "version" not in PYPROJECT["project"]
    assert PYPROJECT["project"]["dynamic"] == ["version"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {
        "attr": "dominosim.__version__"}
    assert importlib.metadata.version("dominosim") == ds.__version__
    assert versions()["dominosim"] == ds.__version__


def test_license_file_is_mit_and_declared():
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License\n\nCopyright (c) 2026 the dominosim authors\n")
    assert PYPROJECT["project"]["license"] == "MIT"
    assert PYPROJECT["project"]["license-files"] == ["LICENSE"]


def test_py_typed_marker_ships_with_the_package():
    assert (ROOT / "dominosim" / "py.typed").exists()
    assert "py.typed" in PYPROJECT["tool"]["setuptools"]["package-data"]["dominosim"]


def _third_party_imports() -> set[str]:
    names = set()
    for path in (ROOT / "dominosim").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return {n for n in names if n not in sys.stdlib_module_names and n != "dominosim"}


def test_every_imported_library_is_declared():
    declared = {Requirement(r).name.lower() for r in PYPROJECT["project"]["dependencies"]}
    for extra in PYPROJECT["project"]["optional-dependencies"].values():
        declared |= {Requirement(r).name.lower() for r in extra}
    distributions = importlib.metadata.packages_distributions()
    missing = {name for name in _third_party_imports()
               if not {d.lower() for d in distributions.get(name, [name])} & declared}
    assert missing == set()


def test_numba_and_llvmlite_pinned_with_upper_bounds_around_installed():
    pins = {Requirement(r).name: Requirement(r) for r in PYPROJECT["project"]["dependencies"]}
    for name in ("numba", "llvmlite"):
        spec = pins[name].specifier
        assert any(s.operator == "<" for s in spec), f"{name} has no upper bound"
        assert spec.contains(importlib.metadata.version(name))
