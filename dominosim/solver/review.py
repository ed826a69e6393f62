"""The review of a played hand: each decision of one seat against the best move found by analysis.

For every play of ``seat`` with more than one legal move, :func:`review` takes the position just
before it (``log.position(k)``), values every legal move from what the seat could see there
(:func:`dominosim.analyze`), and sets the move made against the best one; beside it, the
perfect-information view of the same position (:func:`dominosim.solve`: every tile known, every
seat playing perfectly).
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

from ..checks import check_choice, check_limit, refuse
from ..progress import bar, want_progress
from ..reference.game import Move
from ..reference.hand import HandLog
from ..reference.handfile import has_hidden
from ..reference.transcript import move_text
from ..rng import check_seed
from ..tiles import HIDDEN
from .analyze import DEFAULT_MAX_MEMORY, DEFAULT_MAX_NODES, MAX_WORLDS, METHODS
from .solve import SolverLimit

COLUMNS = ("decision", "event", "position", "tiles_down", "legal_moves", "made", "best", "made_win",
           "best_win", "win_lost", "made_points", "best_points", "points_lost", "samples",
           "solved_best", "solved_value", "solved_made", "solved_lost")


def decisions(log: HandLog, seat: int) -> list[int]:
    """The indices in ``log.events`` of the plays of ``seat`` that were choices (more than one
    legal move), the lead of ``opening='any'`` left out (a position before the opening is not
    analysed).

    Examples
    --------
    >>> import dominosim as ds
    >>> log = ds.replay(ds.Rules.preset("block", players=4), "bully", seed=1, hand=0)
    >>> decisions(log, 0)
    [3, 7]
    """
    found = []
    opened = False
    for k, event in enumerate(log.events):
        if event.kind != "play":
            continue
        if opened and event.seat == seat:
            position = log.position(k)
            if HIDDEN in position.hands[seat]:
                raise refuse("log", f"a hand whose seat {seat} knew its own tiles at each of "
                             "its plays", f"a log hiding some of them before event {k}")
            if len(position.legal_moves()) > 1:
                found.append(k)
        opened = True
    return found


def review(log: HandLog, seat: int, *, method: str = "best", budget: int = 500, seed: int = 0,
           progress: bool | None = None, max_nodes: int = DEFAULT_MAX_NODES,
           max_memory: int | None = DEFAULT_MAX_MEMORY, inference: Any = None) -> pd.DataFrame:
    """Each decision of ``seat`` in a played hand, with the best move by analysis and the value
    lost.

    A decision is a play of ``seat`` with more than one legal move (forced plays, draws and
    knocks are not choices; nor is the lead of ``opening='any'``, made before any analysis can
    start). At each one the position before the play is analysed from ``seat``'s view only
    (:func:`dominosim.analyze`: the hidden tiles sampled from the deals consistent with what the
    seat had seen), and solved with every tile known (:func:`dominosim.solve`, objective
    ``'win'``).

    Parameters
    ----------
    log : HandLog
        A played or loaded hand (``ds.replay``, ``ds.play``, ``ds.HandLog.from_json``). The
        seat's own tiles must be known at each decision; other hands may be hidden (a typed-in
        game), and then the perfect-information columns are NaN.
    seat : int
        The seat reviewed.
    method : {'best', 'pimc', 'playout', 'epimc'}
        The analysis (:func:`dominosim.analyze`); ``'best'``, the default, is the method of the
        strongest player measured (the ``"best"`` strategy), with its inference.
    budget : int
        The most samples of the hidden tiles per decision; the analysis stops earlier when the
        best move's interval separates from the others'.
    seed : int
        Seeds the analysis; the review is the same for the same seed.
    progress : bool, optional
        A progress bar over the decisions (default: in an interactive session).
    max_nodes : int
        The most solver nodes of one sampled world in the analysis, and of the solve of each
        decision's position: a world past it stops the review with an error; a position past it
        is left unsolved (its perfect-information columns NaN, said in ``attrs["note"]``). The
        work of a review is at most ``decisions * (budget * 2 + 1) * max_nodes`` nodes.
    max_memory : int or None
        Of the analysis and of the solver (:func:`dominosim.analyze`, :func:`dominosim.solve`),
        checked before each starts.
    inference : str or list, optional
        The strategies the other seats played, when known (:func:`dominosim.analyze`): the
        analysis then weights its worlds by how likely their plays were. None: under
        ``method='best'`` every seat is modelled as the ``"best"`` player models a seat it cannot
        replay (the shipped learned player's softmax policy); under another method, no seat.

    Returns
    -------
    pandas.DataFrame
        One row per decision, in play order:

        ``decision`` (1, 2, ...), ``event`` (its index ``k`` in ``log.events``), ``position``
        (the :class:`~dominosim.Position` before it, ``log.position(k)``), ``tiles_down`` (tiles on the table before it), ``legal_moves``
        (their number), ``made`` and ``best`` (the move made, and the move of best analysed
        value, as ``'6-4 on 6'``), ``made_win`` and ``best_win`` (their analysed win values: the
        share of hands the seat's side wins, ties as half), ``win_lost`` (``best_win -
        made_win``, at least 0), ``made_points``, ``best_points`` and ``points_lost`` (the same in
        points the side scores, negative when it loses; the best move is chosen by win value,
        so ``points_lost`` may be negative), ``samples`` (deals sampled), ``solved_best`` (the
        best moves with every tile known, joined by ``' / '``), ``solved_value`` (the position's
        solved win value: 1, 1/2 or 0), ``solved_made`` (the made move's) and ``solved_lost``
        (``solved_value - solved_made``). ``attrs["note"]`` says why perfect-information
        columns are NaN, when they are.

    Examples
    --------
    >>> import dominosim as ds
    >>> log = ds.replay(ds.Rules.preset("block", players=4), "bully", seed=1, hand=0)
    >>> table = ds.review(log, 0, budget=100)
    >>> list(table["made"]), bool((table["win_lost"] >= 0).all())
    (['6-5 on 6', '5-5 on 5'], True)
    """
    from . import analyze, solve

    if not isinstance(log, HandLog):
        raise refuse("log", "a HandLog (from ds.replay, ds.play or ds.HandLog.from_json)",
                     type(log).__name__)
    players = log.rules.players
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise refuse("seat", f"a seat from 0 to {players - 1}", seat)
    check_choice("method", method, METHODS)
    budget = check_limit("budget", budget, 1, MAX_WORLDS)
    check_seed(seed)
    max_nodes = check_limit("max_nodes", max_nodes)
    if max_memory is not None:
        check_limit("max_memory", max_memory)
    found = decisions(log, seat)
    hidden = has_hidden(log.deals[-1])
    rows = []
    limits = {"max_nodes": max_nodes, "max_memory": max_memory}
    show = want_progress(progress, work=len(found), long=1)
    with bar(total=len(found), desc=f"review of seat {seat}", unit="decision", show=show,
             unit_scale=False) as progress_bar:
        for number, k in enumerate(found, start=1):
            options = dict(method=method, budget=budget, seed=(seed + k) % (1 << 63), **limits,
                           inference=inference)
            rows.append(_decision(log, seat, number, k, hidden, analyze, solve, options))
            progress_bar.update(1)
    table = pd.DataFrame(rows, columns=list(COLUMNS))
    if hidden:
        table.attrs["note"] = ("hidden tiles in the deal: the perfect-information columns are "
                               "NaN (solving needs every tile)")
    elif table["solved_best"].isna().any():
        table.attrs["note"] = (f"positions past {max_nodes:,} solver nodes (the value for "
                               "`max_nodes`) are left unsolved: their perfect-information "
                               "columns are NaN")
    return table


def _decision(log: HandLog, seat: int, number: int, k: int, hidden: bool, analyze: Any,
              solve: Any, options: dict[str, Any]) -> dict[str, Any]:
    position = log.position(k)
    event = log.events[k]
    made = event.move
    table = analyze(position, seat, **options)
    moves = [Move(t, s) for t, s in zip(table["tile"], table["suit"], strict=True)]
    at, best = moves.index(made), int(table["best"].to_numpy().argmax())
    win, points = table["win"].to_numpy(), table["points"].to_numpy()
    row = {"decision": number, "event": k, "position": position,
           "tiles_down": sum(e.kind == "play" for e in log.events[:k]),
           "legal_moves": len(moves), "made": move_text(made), "best": move_text(moves[best]),
           "made_win": win[at], "best_win": win[best], "win_lost": max(0.0, win[best] - win[at]),
           "made_points": points[at], "best_points": points[best],
           "points_lost": points[best] - points[at], "samples": table.attrs["samples"],
           "solved_best": None, "solved_value": math.nan, "solved_made": math.nan,
           "solved_lost": math.nan}
    solution = None
    if not hidden:
        try:
            solution = solve(position, max_nodes=options["max_nodes"],
                             max_memory=options["max_memory"])
        except SolverLimit:  # too large to solve: the analysis stands alone
            solution = None
    if solution is not None:
        by_move = {Move(t, s): v for t, s, v in zip(solution.moves["tile"],
                                                    solution.moves["suit"],
                                                    solution.moves["value"], strict=True)}
        row.update(solved_best=" / ".join(move_text(m) for m in solution.best),
                   solved_value=float(solution.value), solved_made=float(by_move[made]),
                   solved_lost=float(solution.value) - float(by_move[made]))
    return row


__all__ = ["COLUMNS", "decisions", "review"]
