"""Playing a hand yourself: ds.play with scripted choices, and the terminal command driven by
scripted standard input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import dominosim as ds

# Block 4p, seed 1, hand 0, bully opponents: seat 0 has three choices (see the command's test)
ARGS = ["--game", "block", "--players", "4", "--opponents", "bully", "--seed", "1"]


def run(argv: list[str], stdin: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *argv], input=stdin, capture_output=True,
                          text=True, timeout=300)


def test_play_command_shows_hand_moves_result_and_review(tmp_path):
    saved = tmp_path / "hand.json"
    done = run(["dominosim.play", *ARGS, "--budget", "30", "--save", str(saved)],
               "1\nseven\n2\n1\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Your hand (seat 0): 2-2 3-0 5-2 5-5 6-2 6-5" in out
    assert "  1) 6-2 on 6\n  2) 6-5 on 6\n" in out
    assert "seat 1 (side 1, 5 tiles, ? pips): ? ? ? ? ?" in out  # the others face down
    assert out.count("Please type a number from 1 to 2, a move as listed, or q.") == 1
    assert "The hand is over: out, side 1 wins 5 points, 20 plays." in out
    review = out[out.index("Review of your decisions"):].splitlines()
    assert review[1].split() == ["decision", "made", "best", "made_win", "best_win", "win_lost",
                                 "solved_best", "solved_lost"]
    assert [line.split()[1:3] for line in review[2:5]] == [["6-2", "on"], ["5-2", "on"],
                                                            ["5-5", "on"]]
    log = ds.HandLog.from_json(saved.read_text())
    assert log.record["points"] == 5 and log.record["winning_side"] == 1


def test_play_subcommand_quits_cleanly_on_q():
    done = run(["dominosim", "play", *ARGS], "q\n")
    assert done.returncode == 0, done.stderr
    assert "Your legal moves:" in done.stdout
    assert done.stdout.rstrip().endswith("You quit the hand.")
    assert "Review" not in done.stdout


def test_play_command_refuses_an_unknown_opponent_in_one_line():
    done = run(["dominosim.play", "--opponents", "bulli"], "")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert "The value for `strategies` must be a built-in name" in done.stderr
    assert "'bulli' was passed" in done.stderr
    nowhere = run(["dominosim.play", "--save", "no/such/folder/hand.json"], "")
    assert nowhere.returncode == 2 and nowhere.stdout == ""
    assert "`--save` must be a file in an existing folder" in nowhere.stderr


def test_play_function_takes_scripted_choices_and_returns_the_hand():
    lines: list[str] = []
    log = ds.play("block", 4, opponents="bully", seed=1, choices=["6-2 on 6", 2, "1"],
                  review=False, output=lines.append)
    mine = [e for e in log.events if e.kind == "play" and e.seat == 0]
    # the 2-2 between the second and third choice was forced
    assert [(e.tile, e.suit) for e in mine[:4]] == [((2, 6), 6), ((2, 5), 2), ((2, 2), 2),
                                                    ((5, 5), 5)]
    assert log.deals == ds.replay(ds.Rules.preset("block", players=4), "bully", 1, 0).deals
    assert "Your move (1-2, q to quit): 6-2 on 6" in lines
    table = ds.review(log, 0, budget=20)
    assert list(table["made"]) == ["6-2 on 6", "5-2 on 2", "5-5 on 5"]


def test_play_function_refuses_when_the_script_runs_out_and_bad_arguments():
    with pytest.raises(ValueError, match=r"`choices` must hold an answer for every choice"):
        ds.play("block", 4, opponents="bully", seed=1, choices=[1], output=lambda line: None)
    with pytest.raises(ValueError, match=r"`opponents` must be one strategy for all the others, "
                                         r"or one per other seat \(3, in seat order\)"):
        ds.play("block", 4, opponents=["bully", "random"], choices=[])
    with pytest.raises(ValueError, match=r"`game` must be a Rules or one of 'block'"):
        ds.play("dominos", 4, choices=[])


def test_play_function_quits_on_q_and_saves_nothing():
    assert ds.play("draw", 2, opponents="random", seed=4, choices=["q"],
                   output=lambda line: None) is None


def test_saved_play_reloads_with_the_same_events(tmp_path):
    log = ds.play("draw", 2, opponents="bully", seed=5, choices=[1] * 30, review=False,
                  output=lambda line: None)
    again = ds.HandLog.from_json(log.to_json())
    assert again.events == log.events and again.record == log.record
    assert json.loads(log.to_json())["rules"] == {"preset": "draw", "players": 2}


def test_play_still_callable_after_the_command_package_is_imported():
    # importing dominosim.play binds the package on dominosim, over the function: it must call it
    import importlib

    importlib.import_module("dominosim.play")
    lines: list[str] = []
    log = ds.play("block", 4, opponents="bully", seed=1, choices=["6-2 on 6", 2, "1"],
                  review=False, output=lines.append)
    assert isinstance(log, ds.HandLog)
    assert "Your move (1-2, q to quit): 6-2 on 6" in lines
