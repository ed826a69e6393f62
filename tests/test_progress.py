"""Progress bars: shown when asked or for long interactive runs, a text bar without ipywidgets,
nothing by default in scripts and tests, and no warning at import."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

import dominosim as ds
from dominosim import progress
from dominosim.analysis import block_draw_uncertainty, deal_replays

BLOCK2 = ds.Rules.preset("block", players=2)


def test_progress_default_off_when_not_interactive_even_for_long_runs():
    assert not progress.interactive()
    assert progress.want_progress(None, work=10**9, long=1) is False


def test_progress_default_on_for_long_runs_in_a_notebook(monkeypatch):
    monkeypatch.setattr(progress, "in_notebook", lambda: True)
    assert progress.want_progress(None, work=5_000, long=5_000) is True
    assert progress.want_progress(None, work=4_999, long=5_000) is False


def test_search_line_ups_are_long_from_a_hundred_hands():
    from dominosim.simulation.play import LONG_HANDS, long_hands

    assert long_hands("fast", ["mc:5", "random"]) == LONG_HANDS["search"] == 100
    assert long_hands("fast", "random") == LONG_HANDS["fast"]
    assert long_hands("reference", "bully") == LONG_HANDS["reference"]


def test_progress_not_a_bool_is_refused():
    with pytest.raises(ValueError, match=r"^The value for `progress` must be True, False or None "
                                         r"\(on for long runs in Jupyter or on a terminal\), but "
                                         r"'yes' was passed.$"):
        ds.simulate(BLOCK2, "random", 10, progress="yes")


def test_progress_bar_in_notebook_without_ipywidgets_falls_back_to_text(monkeypatch, capsys):
    monkeypatch.setattr(progress, "in_notebook", lambda: True)
    monkeypatch.setattr(progress, "_widget_class", lambda: None)
    with progress.bar(total=10, desc="demo", show=True) as b:
        b.update(10)
    err = capsys.readouterr().err
    assert "demo: 100%" in err and "10.0/10.0" in err


def test_progress_bar_on_a_given_stream_is_text():
    stream = io.StringIO()
    with progress.bar(total=4, desc="demo", unit="deal", show=True, file=stream) as b:
        b.update(4)
    assert "demo: 100%" in stream.getvalue() and "deal/s" in stream.getvalue()


@pytest.mark.parametrize("call", [
    lambda p: ds.simulate(BLOCK2, "random", 300, seed=1, progress=p),
    lambda p: ds.simulate(BLOCK2, "random", 30, seed=1, engine="reference", progress=p),
    lambda p: ds.simulate(BLOCK2, "mc:4", 8, seed=1, progress=p),
    lambda p: ds.compare(BLOCK2, "bully", "random", n_deals=100, progress=p),
    lambda p: ds.tournament(BLOCK2, ["bully", "random", "doubles"], n_deals=50, n_boot=0,
                            progress=p),
    lambda p: deal_replays(BLOCK2, ["random"], n_deals=5, plays=2, progress=p),
    lambda p: block_draw_uncertainty(players=[2], n_hands=4, plays=2, entropy=False,
                                     overrides={"max_pip": 3, "hand_size": 3}, progress=p),
], ids=["simulate", "simulate_reference", "simulate_search", "compare", "tournament", "deal_replays",
        "block_draw_uncertainty"])
def test_long_calls_show_a_bar_when_asked_and_print_nothing_by_default(call, capsys):
    call(None)
    assert capsys.readouterr() == ("", "")
    call(True)
    err = capsys.readouterr().err
    assert "100%" in err and "/s]" in err


def test_import_warns_nothing_and_loads_no_notebook_bar_without_ipywidgets():
    code = ("import sys; sys.modules['ipywidgets'] = None\n"
            "import dominosim, dominosim.batch, dominosim.analysis\n"
            "assert 'tqdm.autonotebook' not in sys.modules and 'tqdm.notebook' not in sys.modules")
    done = subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""


class _Widget:
    """Stands for tqdm's notebook bar: records how it is made and moved."""

    made: list = []

    def __init__(self, **options):
        self.made.append(options)
        self.n = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def update(self, n):
        self.n += n

    def set_postfix_str(self, *args, **kwargs):
        pass

    def close(self):
        self.made.append(("closed", self.n))


@pytest.fixture
def notebook(monkeypatch):
    from dominosim.batch import run

    _Widget.made = []
    monkeypatch.setattr(progress, "in_notebook", lambda: True)
    monkeypatch.setattr(run, "in_notebook", lambda: True)
    monkeypatch.setattr(progress, "_widget_class", lambda: _Widget)
    return _Widget.made


def test_simulate_in_a_notebook_shows_a_widget_by_default_for_long_runs(notebook, capsys):
    ds.simulate(BLOCK2, "mc:4", 120, seed=1)   # a search line-up: long from 100 hands
    assert notebook[0]["total"] == 120 and notebook[-1] == ("closed", 120)
    assert capsys.readouterr() == ("", "")


def test_sweep_in_a_notebook_shows_a_widget(notebook, tmp_path):
    from dominosim.batch import parse_sweep, run_sweep

    sweep = parse_sweep('hands = 300\nchunk_size = 100\n[rules]\npreset = "draw"\n')
    run_sweep(sweep, tmp_path)
    assert notebook[0]["total"] == 300 and notebook[0]["desc"] == "sweep"
    assert notebook[-1] == ("closed", 300)
