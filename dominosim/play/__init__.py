"""Play a hand yourself against any strategies, then see the review of your decisions.

:func:`play` is the notebook form (choices from a function or a scripted list);
``python -m dominosim.play`` and ``dominosim play`` (:func:`main`) are the terminal form. The hand
is played by the reference engine: the deal and the other seats' choices come from ``(seed,
hand)`` as in :func:`dominosim.replay`, your seat's choices from you. At each choice you see the
table as your seat sees it (the text board of :class:`dominosim.Position`, the others' tiles
face down as ``?``), what happened since your last turn, and your legal moves numbered; at the
end the whole hand and :func:`dominosim.review` of your decisions.

Examples
--------
>>> import dominosim as ds
>>> log = ds.play("block", players=2, opponents="bully", seed=3, choices=[1] * 7,
...               review=False, output=lambda line: None)
>>> log.record["plays"] > 0
True

``ds.play`` is the function :func:`play`, even after ``import dominosim.play``:
``dominosim/__init__.py`` imports this package first and then binds the name ``play`` to the
function, and a later import finds the package loaded and binds nothing. The command's own
functions are imported by name: ``from dominosim.play import main, parser``.
"""

from __future__ import annotations

import argparse
import builtins
import copy
import os
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from ..checks import check_choice, check_limit, refuse
from ..reference.game import GameState, Move
from ..reference.hand import HandLog, deal, play_out, record_of
from ..reference.transcript import event_line, move_text
from ..rng import Stream, check_seed, hand_key, seat_stream, stream_key
from ..rules import PRESETS, Rules
from ..solver.analyze import MAX_WORLDS, METHODS
from ..solver.position import Position
from ..strategies.lineup import resolve_lineup
from ..tiles import HIDDEN, label

REVIEW_COLUMNS = ["decision", "made", "best", "made_win", "best_win", "win_lost", "solved_best",
                  "solved_lost"]
"""The columns of the review printed at the end (``ds.review`` has more)."""


class Quit(Exception):
    """The player typed ``q``."""


def seat_board(state: GameState, seat: int) -> str:
    """The table as ``seat`` sees it: the text board of :class:`dominosim.Position` with every
    other hand and the boneyard face down (``?``).
    """
    masked = copy.deepcopy(state)
    masked.hands = [h if s == seat else [HIDDEN] * len(h) for s, h in enumerate(masked.hands)]
    masked.boneyard = [HIDDEN] * len(masked.boneyard)
    return str(Position(masked))


class Human:
    """The strategy of the seat you play: it shows the table and asks ``ask`` for a choice."""

    name = "you"

    def __init__(self, state: GameState, seat: int, ask: Callable[[str], str],
                 say: Callable[[str], None]) -> None:
        self.state, self.seat, self.ask, self.say = state, seat, ask, say
        self.shown = 0

    def news(self) -> None:
        """Say every event since the last time, as this seat saw it."""
        events = self.state.events
        for k in range(self.shown, len(events)):
            e = events[k]
            if e.kind != "end":
                first = not any(x.kind == "play" for x in events[:k])
                self.say(event_line(self.state.rules, e, first=first,
                                    show_draw=e.seat == self.seat))
        self.shown = len(events)

    def choose(self, view: Any, moves: Sequence[Move], rng: Any) -> Move:
        """Show the table and the legal moves, and return the move asked for."""
        self.news()
        self.say("")
        self.say(seat_board(self.state, self.seat))
        self.say(f"Your hand (seat {self.seat}): " + " ".join(label(t) for t in view.hand))
        self.say("Your legal moves:")
        for number, move in enumerate(moves, start=1):
            self.say(f"  {number}) {move_text(move)}")
        prompt = f"Your move (1-{len(moves)}, q to quit): "
        while True:
            answer = str(self.ask(prompt)).strip()
            if answer.lower() in ("q", "quit"):
                raise Quit
            pick = _pick(answer, moves)
            if pick is not None:
                return pick
            self.say(f"Please type a number from 1 to {len(moves)}, a move as listed, or q.")


def _pick(answer: str, moves: Sequence[Move]) -> Move | None:
    # ASCII digits only, and few: '²' is a digit to str.isdigit, and int() of 100,000 digits
    # raises; any other answer is asked again
    if re.fullmatch(r"[0-9]{1,6}", answer) and 1 <= int(answer) <= len(moves):
        return moves[int(answer) - 1]
    named = [m for m in moves if move_text(m) == answer]
    return named[0] if named else None


def _asker(choices: Iterable[Any] | None, input: Callable[[str], str] | None,
           say: Callable[[str], None]) -> Callable[[str], str]:
    if choices is None:
        return input if input is not None else builtins.input
    left = iter(choices)

    def scripted(prompt: str) -> str:
        answer = next(left, None)
        if answer is None:
            raise ValueError("The value for `choices` must hold an answer for every choice of "
                             "the hand, but it ran out.")
        say(f"{prompt}{answer}")
        return str(answer)

    return scripted


def _rules(game: Any, players: int) -> Rules:
    if isinstance(game, Rules):
        return game
    if game not in PRESETS:
        raise refuse("game", "a Rules or one of " + ", ".join(map(repr, PRESETS)), game)
    return Rules.preset(game, players=players)


def _lineup(rules: Rules, seat: int, opponents: Any) -> list[Any]:
    others = rules.players - 1
    if isinstance(opponents, str) or not isinstance(opponents, (list, tuple)):
        opponents = [opponents] * others
    if len(opponents) != others:
        raise refuse("opponents", f"one strategy for all the others, or one per other seat "
                     f"({others}, in seat order)", list(opponents))
    lineup = list(opponents)
    lineup.insert(seat, None)
    return lineup


def play(game: Any = "block", players: int = 4, *, opponents: Any = "random", seat: int = 0,
         seed: int = 0, hand: int = 0, choices: Iterable[Any] | None = None,
         input: Callable[[str], str] | None = None, output: Callable[[str], None] | None = None,
         review: bool = True, budget: int = 200, method: str = "pimc",
         save: str | os.PathLike | None = None) -> HandLog | None:
    """Play one hand at ``seat`` against ``opponents``, then review your decisions.

    Parameters
    ----------
    game : str or Rules
        A preset name (``'block'``, ``'draw'``, ...) or the rules.
    players : int
        Seats at the table with a preset name.
    opponents : str, strategy, or a list of one per other seat (in seat order)
        Any strategy :func:`dominosim.simulate` takes in the reference engine: ``'bully'``,
        ``'mc:200'``, a function...
    seat : int
        Your seat.
    seed, hand : int
        The deal and the others' choices: hand ``hand`` of the run seeded ``seed``.
    choices : iterable, optional
        Scripted answers, one per choice (a number from the list, or a move as listed such as
        ``'6-4 on 6'``); a bad answer is refused and the next one read, as at the terminal.
    input : callable, optional
        Asks for an answer (default: :func:`input`); not used with ``choices``.
    output : callable, optional
        Shows one line (default: :func:`print`).
    review : bool
        Show :func:`dominosim.review` of your decisions at the end.
    budget, method
        Of the review (:func:`dominosim.review`).
    save : path, optional
        Write the hand as JSON to this file as soon as it ends, before the review (a review
        stopped by Ctrl-C keeps it). Checked before the deal, as every other argument.

    Returns
    -------
    HandLog or None
        The hand (``log.to_json()`` saves it; ``ds.review(log, seat)`` gives the review as a
        DataFrame), or None if you typed ``q``.
    """
    say = output if output is not None else builtins.print
    rules = _rules(game, players)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < rules.players:
        raise refuse("seat", f"a seat from 0 to {rules.players - 1}", seat)
    check_seed(seed)
    check_limit("hand", hand, 0, MAX_HAND)
    if choices is not None and (isinstance(choices, (str, bytes)) or
                                not isinstance(choices, Iterable)):
        raise refuse("choices", "None or a list of answers, one per choice", choices)
    for name, given in (("input", input), ("output", output)):
        if given is not None and not callable(given):
            raise refuse(name, "None or a function", given)
    if not isinstance(review, bool):
        raise refuse("review", "True or False", review)
    check_choice("method", method, METHODS)
    check_limit("budget", budget, 1, MAX_WORLDS)
    target = check_save(save)
    lineup = _lineup(rules, seat, opponents)
    key = hand_key(seed, hand)
    deals = deal(rules, key)
    hands, boneyard = deals[-1]
    state = GameState.from_deal(rules, [list(h) for h in hands], list(boneyard))
    human = Human(state, seat, _asker(choices, input, say), say)
    lineup[seat] = human
    strategies = resolve_lineup(rules, lineup)
    rngs = [Stream(stream_key(key, seat_stream(s))) for s in range(rules.players)]
    say(f"{rules!r}: you are seat {seat}" + (f", partner of seat {rules.partner_of(seat)}"
                                             if rules.partnerships else "") + ".")
    try:
        play_out(state, strategies, rngs)
    except Quit:
        say("You quit the hand.")
        return None
    human.news()
    log = HandLog(rules, seed, hand, deals, state.events)
    log.record = record_of(state, len(deals) - 1, hand)
    say("")
    say(f"The hand is over: {log.outcome()}.")
    say(log.transcript())
    if target is not None:
        _save(log, target, say)
    if review:
        from ..solver.review import review as review_of

        try:
            table = review_of(log, seat, method=method, budget=budget, seed=seed)
        except KeyboardInterrupt:
            say("The review was interrupted" + (f"; the hand is saved in {target}." if target
                                                else "; the hand is returned."))
            return log
        say("")
        say(f"Review of your decisions (seat {seat}): the win value of a move is the share of "
            "hands your side wins after it, from what you could see ('solved': every tile known)")
        say(table[REVIEW_COLUMNS].to_string(index=False, float_format=lambda x: f"{x:.3f}")
            if len(table) else "(you had no choice to make)")
    return log


MAX_HAND = (1 << 63) - 1
"""The largest hand index (hand ids are int64)."""


def check_save(save: Any) -> Path | None:
    """``save`` as the file a hand is written to, checked before the deal: a name (not empty)
    of a file that is not a folder, in a folder that exists and may be written.
    """
    if save is None:
        return None
    if not isinstance(save, (str, os.PathLike)) or not str(save).strip():
        raise refuse("save", "the name of a file to write the hand to", save)
    path = Path(save).expanduser()
    if path.is_dir():
        raise refuse("save", "a file, not a folder", str(save))
    folder = path.absolute().parent
    if not folder.is_dir():
        raise refuse("save", "a file in an existing folder", str(save))
    if (path.exists() and not os.access(path, os.W_OK)) or \
            (not path.exists() and not os.access(folder, os.W_OK)):
        raise refuse("save", "a file this process may write", str(save))
    return path


def _save(log: HandLog, target: Path, say: Callable[[str], None]) -> None:
    """Write the hand to ``target``; when that fails (a full disk), say why in one line and show
    the JSON so that the hand is not lost.
    """
    text = log.to_json()
    try:
        with open(target, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
    except OSError as error:
        say(f"Cannot write {str(target)!r}: {error.strerror or error}; the hand follows as JSON "
            "(copy it to a file to keep it).")
        say(text)
        return
    say(f"Saved the hand to {target}.")


def parser(prog: str = "python -m dominosim.play") -> argparse.ArgumentParser:
    """The options of the terminal form."""
    cli = argparse.ArgumentParser(prog=prog, description="Play a hand of dominoes at the "
                                  "terminal against any strategies, then see the review of your "
                                  "decisions.")
    cli.add_argument("--game", default="block", choices=PRESETS, help="the preset (default block)")
    cli.add_argument("--players", type=int, default=4, help="seats at the table (default 4)")
    cli.add_argument("--opponents", default="random",
                     help="a strategy for every other seat (bully, mc:200...) or a comma-separated "
                     "list, one per other seat in seat order (default random)")
    cli.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    cli.add_argument("--seed", type=int, default=0, help="the deal and the others' choices")
    cli.add_argument("--hand", type=int, default=0, help="the hand of that seed (default 0)")
    cli.add_argument("--budget", type=int, default=200,
                     help="samples per decision in the review (default 200)")
    cli.add_argument("--no-review", action="store_true", help="skip the review at the end")
    cli.add_argument("--save", metavar="FILE", help="write the hand as JSON to FILE")
    return cli


def main(argv: list[str] | None = None, prog: str = "python -m dominosim.play") -> int:
    """Run the terminal form; returns the exit status (0 done or quit, 2 bad options)."""
    args = parser(prog).parse_args(argv)
    opponents = args.opponents.split(",") if "," in args.opponents else args.opponents

    def ask(prompt: str) -> str:
        try:
            answer = builtins.input(prompt)
        except EOFError:
            answer = "q"
        if not sys.stdin.isatty():  # show a piped answer where a typed one would be
            print(answer)
        return answer

    try:
        play(args.game, args.players, opponents=opponents, seat=args.seat, seed=args.seed,
             hand=args.hand, input=ask, review=not args.no_review, budget=args.budget,
             save=args.save)
    except ValueError as error:  # an option, refused before the deal
        message = str(error).replace("The value for `", "The value for `--", 1) \
            if str(error).startswith(tuple(f"The value for `{o}`" for o in _OPTIONS)) else error
        print(f"{prog}: error: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"\n{prog}: interrupted; the hand was not finished (nothing saved).",
              file=sys.stderr)
        return 130
    return 0


_OPTIONS = ("seat", "seed", "hand", "budget", "save", "players", "opponents", "game")


__all__ = ["Human", "Quit", "main", "parser", "play", "seat_board"]
