"""The package layout holds: each module imports only from its own layer or below, no import circles,
no private names imported across modules, analysis reads records only.

The imports are read from the source with :mod:`ast`, every one of them: at the top of a module,
inside functions, under ``TYPE_CHECKING``, and ``import_module("...")`` calls with a literal name.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "dominosim"

# The layers of docs/design.md, lowest first. A module is placed by the longest prefix listed.
LAYERS = {
    # 1. tiles, randomness and the shared helpers that know no game
    "dominosim.tiles": 1, "dominosim.rng": 1, "dominosim.sides": 1, "dominosim.checks": 1,
    "dominosim.display": 1, "dominosim.progress": 1,
    "dominosim.strategies.registry": 1,
    "dominosim.fast.core.jit": 1, "dominosim.fast.core.bits": 1, "dominosim.fast.core.gates": 1,
    "dominosim.fast.core.rng": 1, "dominosim.fast.core.status": 1,
    "dominosim.fast.core.diskcache": 1, "dominosim.fast.core.inlining": 1,
    "dominosim.fast.core.libraries": 1,
    # 2. rules and what the records of a hand are
    "dominosim.rules": 2, "dominosim.records": 2, "dominosim.stats": 2, "dominosim.summary": 2,
    "dominosim.fast.core.params": 2, "dominosim.fast.core.shape": 2, "dominosim.fast.core.board": 2,
    # 3. the game state, one per engine (and the transcript, which reads a hand log)
    "dominosim.reference.game": 3, "dominosim.reference.transcript": 3,
    "dominosim.reference.handfile": 3,
    "dominosim.fast.core": 3, "dominosim.fast.core.turn": 3,
    # 4. strategies: a seat's view, the styles, the searches, plug-ins
    "dominosim.strategies": 4, "dominosim.fast.hand.plugin": 4,
    # the decision features and the weighted player, compiled (read by the hand kernel, and by
    # the searches' inference as a model of a seat's play)
    "dominosim.fast.players": 4,
    # the compiled searches (the solver is one: the ``pimc`` strategy solves sampled worlds with it)
    "dominosim.fast.search": 4,
    # 5. what plays hands: the hand loops of both engines and the simulation driver
    "dominosim.reference": 5, "dominosim.fast": 5, "dominosim.simulation": 5,
    # positions, the exact solver and move analysis (issue 14), and its compiled search
    "dominosim.solver": 5,
    # 6. what reads records or runs everything: analysis, plots, batch, reports, the command line;
    #    the experiments play hands and read them with the analysis
    "dominosim.simulation.experiments": 6, "dominosim.analysis": 6, "dominosim.plots": 6,
    "dominosim.batch": 6, "dominosim.report": 6, "dominosim.cli": 6, "dominosim.__main__": 6,
    # a hand played at the terminal or in a notebook, reviewed at the end
    "dominosim.play": 6,
    # the game-AI frameworks' adapters (optional extras): they play hands and draw positions
    "dominosim.openspiel": 6, "dominosim.pettingzoo": 6,
    # fitted players: the decisions met in play, tuning (plays duplicate deals), the fit command
    "dominosim.players": 6,
    # 7. the public face: the package itself
    "dominosim": 7,
}
# Imports upward, each for a stated reason; nothing else may import upward.
UPWARD = {
    # a hand log's notebook display (_repr_html_) draws the table with the layout picture
    ("dominosim.reference.hand", "dominosim.plots.tabletop"),
    # HandLog.position(k), the documented way to a ds.Position, builds one on first use
    ("dominosim.reference.hand", "dominosim.solver.position"),
    # the version is written once, in dominosim/__init__.py, where the packaging metadata reads it
    ("dominosim.cli", "dominosim"),
    ("dominosim.batch.output", "dominosim"),
}
# Analysis reads records: it imports no engine, no strategy and nothing that plays hands...
NOT_FOR_ANALYSIS = ("dominosim.reference", "dominosim.fast", "dominosim.strategies",
                    "dominosim.simulation")
# ...except that the package keeps the documented names ds.analysis.hand_uncertainty and the rest
# of the played experiments, forwarded on first use.
ANALYSIS_FORWARDS = {("dominosim.analysis", "dominosim.simulation.experiments")}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _exists(name: str) -> bool:
    path = PACKAGE.parent / name.replace(".", "/")
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def _resolve(package: str, level: int, module: str | None) -> str:
    base = package.split(".")[: len(package.split(".")) - level + 1]
    return ".".join(base + ([module] if module else []))


def _imports(path: Path, name: str | None = None) -> list[tuple[str, str]]:
    """``(module, name)`` pairs imported by the file at ``path`` (the module ``name``): the name
    is empty for a plain module import or a submodule (then ``module`` is the submodule)."""
    name = name or _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            module = _resolve(package, node.level, node.module) if node.level else node.module
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                found.append((sub, "") if _exists(sub) else (module, alias.name))
        elif isinstance(node, ast.Import):
            found += [(alias.name, "") for alias in node.names]
        elif (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "import_module"
              and node.args and isinstance(node.args[0], ast.Constant)):
            target = node.args[0].value
            if target.startswith("."):
                dots = len(target) - len(target.lstrip("."))
                target = _resolve(package, dots, target[dots:] or None)
            found.append((target, ""))
    return [(m, n) for m, n in found if m == "dominosim" or m.startswith("dominosim.")]


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
EDGES = {name: _imports(path) for name, path in MODULES.items()}


def _layer(module: str) -> int:
    best = max((key for key in LAYERS if module == key or module.startswith(key + ".")),
               key=len, default=None)
    assert best is not None, f"{module} has no layer: place it in LAYERS (tests/test_layers.py)"
    return LAYERS[best]


def test_every_module_has_a_layer():
    assert len(MODULES) > 60
    unplaced = [m for m in MODULES
                if not any(m == k or m.startswith(k + ".") for k in LAYERS)]
    assert unplaced == []


def test_no_two_modules_share_a_name_but_the_compiled_twins():
    """A module's name tells which file to open: only the compiled engine's twin of a Python
    module (``fast/core/rng.py``, ``fast/search/search.py``, ``fast/search/solve.py``,
    ``fast/core/styles.py``, ``fast/players/features.py``, ``fast/players/weighted.py``,
    ``fast/exact/lazy.py``) shares its name."""
    by_name: dict[str, list[str]] = {}
    for name, path in MODULES.items():
        if path.stem not in ("__init__", "__main__"):
            by_name.setdefault(path.stem, []).append(name)
    shared = {stem: names for stem, names in by_name.items() if len(names) > 1}
    assert {stem: sorted(names) for stem, names in shared.items()} == {
        stem: sorted([f"dominosim.fast.{sub}.{stem}", twin]) for sub, stem, twin in (
            ("core", "rng", "dominosim.rng"), ("search", "search", "dominosim.strategies.search"),
            ("search", "solve", "dominosim.solver.solve"),
            ("core", "styles", "dominosim.strategies.styles"),
            ("players", "features", "dominosim.strategies.features"),
            ("players", "weighted", "dominosim.strategies.weighted"),
            ("exact", "lazy", "dominosim.solver.lazy"))}


def test_each_module_imports_only_from_its_layer_or_below():
    upward = sorted((source, target, _layer(source), _layer(target))
                    for source, edges in EDGES.items() for target, _ in edges
                    if _layer(target) > _layer(source) and (source, target) not in UPWARD)
    assert upward == []


def test_the_stated_upward_imports_are_still_needed():
    for source, target in UPWARD:
        assert target in {t for t, _ in EDGES[source]}, (source, target)


def _circles(edges: dict[str, list[tuple[str, str]]]) -> list[list[str]]:
    """Every module that some chain of imports leads back to, with one such chain: every import
    counts, the stated upward ones and those inside functions included."""
    graph = {m: {t for t, _ in found if t in edges and t != m} for m, found in edges.items()}
    circles = []
    for start in graph:
        stack, seen = [(start, [start])], set()
        while stack:
            node, path = stack.pop()
            for nxt in graph[node]:
                if nxt == start:
                    circles.append(path)
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, path + [nxt]))
    return circles


def test_no_import_circles():
    """No circle anywhere in the package: a module never needs, through any chain of imports,
    a module that needs it (a stated upward import may not close a circle either)."""
    assert _circles(EDGES) == []


def test_the_circle_check_sees_a_circle_through_a_stated_upward_import():
    """A table picture that imported the hand log it draws would close a circle with the log's
    display hook (its stated upward import), as ``plots/tabletop.py`` once did."""
    edges = {source: list(found) for source, found in EDGES.items()}
    edges["dominosim.plots.tabletop"] = [*edges["dominosim.plots.tabletop"],
                                         ("dominosim.reference.hand", "HandLog")]
    assert ["dominosim.plots.tabletop", "dominosim.reference.hand"] in _circles(edges)


def test_no_private_names_imported_across_modules():
    private = sorted((source, target, name) for source, edges in EDGES.items()
                     for target, name in edges
                     if name.startswith("_") and name != "__version__"
                     or any(part.startswith("_") and part not in ("__main__", "__init__")
                            for part in target.split(".")))
    assert private == []


def test_analysis_reads_records_only():
    crossing = sorted((source, target) for source, edges in EDGES.items() for target, _ in edges
                      if source.startswith("dominosim.analysis")
                      and target.startswith(NOT_FOR_ANALYSIS)
                      and (source, target) not in ANALYSIS_FORWARDS)
    assert crossing == []


def test_the_checks_see_a_bad_module(tmp_path):
    """A rules module that imports the simulation and a private name would fail the checks."""
    bad = tmp_path / "rules.py"
    bad.write_text("from .simulation.play import simulate\n"
                   "def f():\n    from .rng import _hidden\n    return _hidden\n")
    edges = _imports(bad, "dominosim.rules")
    assert edges == [("dominosim.simulation.play", "simulate"), ("dominosim.rng", "_hidden")]
    assert _layer("dominosim.simulation.play") > _layer("dominosim.rules")
    assert _layer("dominosim") > _layer("dominosim.analysis.tables")


def test_old_package_paths_still_work():
    import dominosim.reference as reference
    import dominosim.report as report
    import dominosim.strategies as strategies
    from dominosim.reference.hand import HandLog, play_hand
    from dominosim.report.build import main
    from dominosim.strategies.lineup import resolve

    assert reference.HandLog is HandLog and reference.play_hand is play_hand
    assert report.main is main and strategies.resolve is resolve
    with pytest.raises(AttributeError):
        reference.not_a_name  # noqa: B018


def _eager_imports(init: Path, name: str) -> list[str]:
    """The modules of the package that ``init`` (the ``__init__.py`` of package ``name``) imports
    when it is imported: its module-level imports, not those inside its functions."""
    found = []
    for node in ast.parse(init.read_text()).body:
        if isinstance(node, ast.ImportFrom):
            module = _resolve(name, node.level, node.module) if node.level else node.module
            found.append(module or "")
        elif isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
    return [m for m in found if m.startswith("dominosim.")]


def test_the_reference_package_loads_none_of_its_modules_when_imported(tmp_path):
    """``reference/`` holds layer 3 (the rules, the transcript, the hand file) and layer 5 (the
    hand loop, which asks the strategies): importing its rules runs its ``__init__.py`` first, so
    that file loads none of its modules (the loop's names are forwarded on first use)."""
    assert _layer("dominosim.reference.game") < _layer("dominosim.strategies.view") \
        < _layer("dominosim.reference.hand")
    assert _eager_imports(PACKAGE / "reference" / "__init__.py", "dominosim.reference") == []
    eager = tmp_path / "__init__.py"
    eager.write_text("from .hand import HandLog\n\ndef f():\n    from .game import Move\n")
    assert _eager_imports(eager, "dominosim.reference") == ["dominosim.reference.hand"]


# The compiled engine's sub-packages, lowest first (docs/engine.md): each imports only from the
# ones before it, and ``fast/engine.py`` (the Python side) sits above them all.
FAST = "dominosim.fast"
FAST_PACKAGES = ("core", "players", "search", "hand", "exact")


def _fast_rank(module: str) -> int | None:
    """The place of a compiled-engine module in :data:`FAST_PACKAGES` (the Python side and the
    package itself come after them); None outside ``dominosim.fast``."""
    if module != FAST and not module.startswith(FAST + "."):
        return None
    part = module.split(".")[2] if module.count(".") >= 2 else ""
    return FAST_PACKAGES.index(part) if part in FAST_PACKAGES else len(FAST_PACKAGES)


def test_fast_sub_packages_import_only_from_the_ones_below():
    """``fast/core`` imports no player, search or hand; ``fast/players`` no search and no hand;
    ``fast/search`` no hand: the hand kernel calls the searches and the players, the searches'
    inference models a seat by a player, and all build on the core."""
    upward = sorted((source, target) for source, edges in EDGES.items() for target, _ in edges
                    if _fast_rank(source) is not None and _fast_rank(target) is not None
                    and _fast_rank(target) > _fast_rank(source))
    assert upward == []


def test_the_fast_rank_sees_an_upward_import():
    assert _fast_rank("dominosim.fast.core.turn") < _fast_rank("dominosim.fast.search.search")
    assert _fast_rank("dominosim.fast.search.pimc") < _fast_rank("dominosim.fast.hand.kernel")
    assert _fast_rank("dominosim.fast.hand.driver") < _fast_rank("dominosim.fast.engine")
    assert _fast_rank("dominosim.fastx") is None and _fast_rank("dominosim.rules") is None


@pytest.mark.parametrize("sub", FAST_PACKAGES)
def test_each_fast_sub_package_says_what_it_holds_and_may_import(sub):
    """The docstring of ``fast/<sub>/__init__.py`` names every module the sub-package holds and
    says what it may import; the sub-package holds nothing else (no re-exports)."""
    folder = PACKAGE / "fast" / sub
    tree = ast.parse((folder / "__init__.py").read_text())
    doc = ast.get_docstring(tree) or ""
    held = sorted(p.stem for p in folder.glob("*.py") if p.stem != "__init__")
    assert held and [m for m in held if f":mod:`.{m}`" not in doc] == []
    assert "May import:" in doc
    assert all(isinstance(node, ast.Expr) for node in tree.body)


def test_fast_holds_at_most_eight_modules_directly():
    direct = sorted(p.name for p in (PACKAGE / "fast").glob("*.py"))
    assert len(direct) <= 8, direct
