"""The played hand is never lost (issue 20): every argument checked before the deal, the hand
saved before the review, the game kept going on a bad answer, one line for Ctrl-C."""

from __future__ import annotations

import builtins
import os
import sys

import pytest

import dominosim as ds
import dominosim.solver.review as review_module
from dominosim.play import main

QUIET = {"output": lambda line: None}


def _never_deal(monkeypatch):
    """Fail the test if a hand is dealt (the checks must come first)."""
    play_package = sys.modules["dominosim.play"]

    def refuse_to_deal(*args, **kwargs):
        raise AssertionError("a hand was dealt before the arguments were checked")

    monkeypatch.setattr(play_package, "deal", refuse_to_deal)


@pytest.mark.parametrize("kwargs, name", [
    ({"budget": 0}, "budget"), ({"budget": 2.5}, "budget"), ({"method": "mcts"}, "method"),
    ({"seed": -1}, "seed"), ({"seed": 2**64}, "seed"), ({"hand": 2**64}, "hand"),
    ({"hand": -1}, "hand"), ({"save": ""}, "save"), ({"save": "."}, "save"),
    ({"save": "no/such/folder/hand.json"}, "save"), ({"save": 3}, "save"),
])
def test_play_checks_every_argument_before_the_deal(monkeypatch, kwargs, name):
    _never_deal(monkeypatch)
    with pytest.raises(ValueError, match=rf"^The value for `{name}` must be "):
        ds.play("block", 2, choices=[], **QUIET, **kwargs)


def test_play_keeps_asking_after_an_answer_that_is_no_number():
    lines: list[str] = []
    log = ds.play("block", 2, opponents="bully", seed=3, choices=["²", "9" * 100_000, "٣"]
                  + [1] * 7, review=False, output=lines.append)
    assert log is not None
    assert sum("Please type a number" in line for line in lines) == 3


def test_play_saves_the_hand_before_the_review_and_keeps_it_on_ctrl_c(tmp_path, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(review_module, "review", interrupted)
    target, lines = tmp_path / "hand.json", []
    log = ds.play("block", 2, opponents="bully", seed=3, choices=[1] * 7, save=target,
                  output=lines.append)
    assert ds.HandLog.from_json(target.read_text()).events == log.events
    assert lines[-1] == f"The review was interrupted; the hand is saved in {target}."


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="a Linux device")
def test_play_on_a_full_disk_says_so_in_one_line_and_shows_the_hand():
    lines: list[str] = []
    log = ds.play("block", 2, opponents="bully", seed=3, choices=[1] * 7, save="/dev/full",
                  review=False, output=lines.append)
    at = next(i for i, line in enumerate(lines) if line.startswith("Cannot write '/dev/full'"))
    assert "No space left on device" in lines[at]
    assert ds.HandLog.from_json(lines[at + 1]).events == log.events


def test_play_command_ctrl_c_at_the_prompt_is_one_line(monkeypatch, capsys):
    def interrupted(prompt):
        raise KeyboardInterrupt

    monkeypatch.setattr(builtins, "input", interrupted)
    assert main(["--game", "block", "--players", "2"]) == 130
    err = capsys.readouterr().err.strip()
    assert err.splitlines() == ["python -m dominosim.play: interrupted; the hand was not "
                                "finished (nothing saved)."]


@pytest.mark.parametrize("argv, message", [
    (["--hand", str(2**64)], "The value for `--hand` must be an integer from 0 to "),
    (["--seed", "-1"], "The value for `--seed` must be an integer from 0 to 2**63 - 1"),
    (["--budget", "0"], "The value for `--budget` must be an integer from 1 to "),
    (["--save", ""], "The value for `--save` must be the name of a file"),
    (["--save", "/"], "The value for `--save` must be a file, not a folder"),
])
def test_play_command_refuses_bad_options_before_the_deal(monkeypatch, capsys, argv, message):
    _never_deal(monkeypatch)
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.strip().splitlines()) == 1
    assert message in captured.err
