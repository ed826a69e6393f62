"""The engine version of a sweep is computed from every module of the package (and the numba and
numpy versions): a resume by a package edited anywhere is refused in one line naming the folder
and the module, and ``--fresh`` plays the sweep again."""

from __future__ import annotations

import contextlib
import shutil
import sys
from pathlib import Path

import numba
import numpy as np
import pytest

import dominosim
from dominosim.batch import api, lineups, output, parse_sweep, run_sweep
from dominosim.batch.__main__ import EXIT_INTERRUPTED, main

SWEEP = 'hands = 20\n[rules]\npreset = "block"\n'


@pytest.fixture
def copy(tmp_path, monkeypatch):
    """A copy of the package whose modules the sweep's engine version is computed from."""
    folder = tmp_path / "dominosim"
    shutil.copytree(Path(dominosim.__file__).parent, folder,
                    ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(api, "engine_version", lambda: output.engine_version(folder))
    monkeypatch.setattr(api, "engine_modules", lambda: output.engine_modules(folder))
    yield folder
    output._module_digests.cache_clear()


def _edit(path: Path, text: bytes) -> None:
    path.write_bytes(text)
    output._module_digests.cache_clear()  # as a new process reads it


def test_engine_version_covers_every_module_and_the_compiler_versions():
    modules = output.engine_modules()
    package = Path(dominosim.__file__).parent
    assert set(modules) == {p.relative_to(package).as_posix() for p in package.rglob("*.py")
                            if "__pycache__" not in p.parts}
    for name in ("strategies/styles.py", "reference/game.py", "simulation/play.py",
                 "batch/output.py", "fast/plugin.py", "solver/solve.py"):
        assert name in modules, name
    version = output.engine_version()
    assert version["numba"] == numba.__version__ and version["numpy"] == np.__version__


def test_engine_version_every_module_edited_refuses_a_resume_naming_it(copy, tmp_path):
    out = tmp_path / "out"
    assert run_sweep(parse_sweep(SWEEP), out, quiet=True).chunks_played == 1
    modules = output.engine_modules(copy)
    assert len(modules) > 50
    for name in modules:
        path = copy / name
        original = path.read_bytes()
        _edit(path, original + b"\n# edited\n")
        with pytest.raises(ValueError) as refused:
            api.check_run(parse_sweep(SWEEP), out)
        assert str(refused.value) == (
            f"The output folder {str(out)!r} holds chunks played by another build of the engine "
            f"(dominosim/{name} edited): pass --fresh to replace its results, or choose another "
            "--out."), name
        _edit(path, original)
    assert api.check_run(parse_sweep(SWEEP), out)[1] is False  # all restored: resumable again


def test_engine_version_added_module_and_numba_version_refuse(copy, tmp_path, monkeypatch):
    out = tmp_path / "out"
    run_sweep(parse_sweep(SWEEP), out, quiet=True)
    _edit(copy / "strategies" / "extra.py", b"X = 1\n")
    with pytest.raises(ValueError, match=r"\(dominosim/strategies/extra.py added\)"):
        api.check_run(parse_sweep(SWEEP), out)
    (copy / "strategies" / "extra.py").unlink()
    output._module_digests.cache_clear()
    monkeypatch.setattr(numba, "__version__", "0.0.1")
    with pytest.raises(ValueError, match=r"\(numba '[^']+' there, '0.0.1' in this sweep\)"):
        api.check_run(parse_sweep(SWEEP), out)


def test_engine_version_cli_resume_of_edited_strategy_exits_2_in_one_line_until_fresh(
        copy, tmp_path, capsys):
    path, out = tmp_path / "s.toml", tmp_path / "out"
    path.write_text(SWEEP)
    assert main([str(path), "--out", str(out), "--quiet"]) == 0
    styles = copy / "strategies" / "styles.py"
    _edit(styles, styles.read_bytes() + b"\n# played otherwise\n")
    capsys.readouterr()
    with pytest.raises(SystemExit) as caught:
        main([str(path), "--out", str(out), "--quiet"])
    assert caught.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert str(out) in err and "(dominosim/strategies/styles.py edited)" in err
    assert main([str(path), "--out", str(out), "--quiet", "--fresh"]) == 0
    metadata = api.Store(out).read_metadata()
    assert len(metadata["runs"]) == 1 and metadata["runs"][0]["chunks_skipped"] == 0
    assert metadata["engine_modules"] == output.engine_modules(copy)


PLUGIN = '''import numba
from {helper} import first


@numba.njit
def choose(moves_tile, moves_suit, n_moves, view, rng):
    return first(n_moves)
'''


def test_plugin_digest_covers_the_modules_it_imports_and_its_reexporting_package(
        tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    package = tmp_path / "reexporting_plugin"
    package.mkdir()
    (package / "__init__.py").write_text("from .impl import choose\n")
    (package / "impl.py").write_text(PLUGIN.format(helper="plugin_helper_module"))
    helper = tmp_path / "plugin_helper_module.py"
    helper.write_text("import numba\n\n\n@numba.njit\ndef first(n):\n    return 0\n")
    path = "reexporting_plugin:choose"
    names = ("reexporting_plugin", "reexporting_plugin.impl", "plugin_helper_module")

    def digest() -> str:
        for name in names:  # as a new process imports them
            sys.modules.pop(name, None)
        lineups._LOADED.pop(path, None)
        return lineups.plugin_source_digest(path)

    try:
        before = digest()
        assert digest() == before
        for edited in (package / "__init__.py", package / "impl.py", helper):
            text = edited.read_text()
            edited.write_text(text + "\n# edited\n")
            assert digest() != before, edited.name
            edited.write_text(text)
            assert digest() == before
    finally:
        for name in names:
            sys.modules.pop(name, None)
        lineups._LOADED.pop(path, None)
        lineups._DIGESTS.pop(path, None)


@pytest.mark.parametrize("body, code, message", [
    ("import sys\nsys.exit(0)\n", 2,
     "cannot be imported (it called sys.exit(0) while importing)"),
    ("raise KeyboardInterrupt\n", EXIT_INTERRUPTED, "interrupted; the finished chunks are kept"),
])
def test_plugin_module_exiting_or_interrupted_at_import_is_one_line(
        tmp_path, monkeypatch, capsys, body, code, message):
    monkeypatch.syspath_prepend(str(tmp_path))
    name = f"plugin_at_import_{code}"
    (tmp_path / f"{name}.py").write_text(body)
    sweep, out = tmp_path / "s.toml", tmp_path / "out"
    sweep.write_text(f'hands = 20\nstrategies = ["{name}:choose", "random"]\n'
                     '[rules]\npreset = "block"\n')
    try:
        with pytest.raises(SystemExit) if code == 2 else contextlib.nullcontext() as caught:
            status = main([str(sweep), "--out", str(out), "--quiet"])
    finally:
        sys.modules.pop(name, None)
    assert (caught.value.code if code == 2 else status) == code
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err
    assert not out.exists()
