#!/usr/bin/env bash
# The wheel installs alone: build the sdist and the wheel, install the wheel (not editable) into a
# fresh virtual environment, and use it from a folder outside the repository. Everything the
# commands read must ship in the package (the default sweep, the presets, the rule book).
#
# The environment sees the already-installed dependencies (--system-site-packages: no download),
# but dominosim itself comes from the wheel: checked below, so an editable install elsewhere
# cannot stand in for it.
set -euo pipefail
# each step's CPU and wall seconds, on stderr (the 90 s budget of issue 25)
step() { local name="$1"; shift; TIMEFORMAT="wheel smoke: $name %U+%S s CPU, %R s wall"; time "$@"; }
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python -m venv --without-pip --system-site-packages "$work/venv"
py="$work/venv/bin/python"
# The build backend pyproject.toml asks for, into the environment (not the system's Python), so
# that the build needs no isolated environment of its own.
python -m pip --python "$py" install --quiet "setuptools>=77"
# The sdist first, then the wheel built from the unpacked sdist (python -m build's default): a
# file missing from the sdist fails here.
build() {
    "$py" -m build --no-isolation --outdir "$work/dist" "$repo" >"$work/build.log" 2>&1 \
        || { cat "$work/build.log"; return 1; }
    python -m pip --python "$py" install --quiet "$work"/dist/dominosim-*.whl
}
step "build and install" build

mkdir "$work/outside"
cd "$work/outside"
"$py" - <<'EOF'
import pathlib
import sys

import dominosim

where = pathlib.Path(dominosim.__file__).resolve()
assert where.is_relative_to(pathlib.Path(sys.prefix).resolve()), f"dominosim came from {where}"
assert (where.parent / "rules.md").read_text().startswith("# The rule book"), "no rule book"
print(f"dominosim {dominosim.__version__} from {where.parent}")
EOF
bin="$work/venv/bin"

# The default sweep at a small size, its dry run, and a report of its results.
step "default sweep" "$bin/dominosim" batch --hands 200 --out sweep --quiet
test -s sweep/summary.csv && test -s sweep/report.md
step "dry run" "$bin/dominosim" batch --dry-run --out dry >dry.txt
grep -q "^Sweep 'block_vs_draw': 30 cells" dry.txt
step report "$py" -m dominosim.report --sweep sweep --out reports --quick --only sweep >/dev/null
test -s reports/opener_advantage.md

# A hand at the terminal, answers piped in; the hand saved and read back.
printf "1\n%.0s" {1..300} | "$bin/dominosim" play --game draw --players 2 --no-review --save hand.json >play.log
grep -q "The hand is over" play.log

step simulate "$py" - <<'EOF'
import dominosim as ds

rules = ds.Rules.preset("block", players=4)
hands = ds.simulate(rules, "random", n_hands=2_000, seed=1, progress=False)
same = ds.simulate(rules, "random", n_hands=50, seed=1, engine="reference")
assert hands.head(50)["points"].tolist() == same["points"].tolist()
log = ds.HandLog.from_json(open("hand.json").read())
print(f"simulate: {len(hands)} hands, equal to the reference engine; play: {log.outcome()}")
EOF
echo "wheel smoke: passed"
