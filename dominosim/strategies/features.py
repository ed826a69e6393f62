"""The decision features: one table of what a seat sees of one legal move, and its readable twin.

Every tuned or learned player reads a legal move through the same numbers, listed once
in :data:`FEATURES` (name and meaning, in order). The compiled engine computes them in
:mod:`dominosim.fast.players.features`; :func:`move_features` here computes them from a
:class:`~dominosim.strategies.view.SeatView`, in plain Python, for the reference engine and for
anyone reading what a feature means. A differential test holds the two equal over many decisions
of random rule sets, and another checks that changing a tile the seat cannot see never changes a
feature: every feature reads only the seat's hand, the table, the public history, the tile counts
and the suits each seat is known to lack.

Terms used below: *kept* tiles are the seat's tiles after the move; the *ends after* are the suits
showing on the open ends after the move (a branching double opens two more); *unseen* tiles are
those the seat has not seen (neither in its hand nor played: the other hands and the boneyard);
a seat is *known to lack* a suit after it knocked (or drew) while the suit was playable and has
drawn nothing since (:attr:`SeatView.known_lacks`). The features mean the same in every game
family (line, cross, branching doubles, drawing, partnerships, 2 to 10 seats): a feature about the
partner is 0 without partnerships, and ``opponents_shut`` is a share, not a count.

The last three features (:data:`CONTEXT`) are the same for every legal move of one decision: a
weighted sum (:class:`~dominosim.strategies.weighted.Weighted`) cannot use them, so its tuning
keeps their weights at 0; they are there for learned players, whose model may combine them with
the rest. :data:`FEATURES_VERSION` changes whenever a feature's meaning or the order changes; a
saved player of another version is refused.

Examples
--------
>>> FEATURE_NAMES[:4]
('pips', 'double', 'keep_suit', 'keep_playable')
>>> len(FEATURES), FEATURES_VERSION
(22, 1)
>>> from dominosim.reference.game import GameState, Move
>>> from dominosim.rules import Rules
>>> from dominosim.strategies.view import view_of
>>> rules = Rules.preset("block", players=2, max_pip=3, hand_size=3)
>>> state = GameState.from_deal(rules, [[(3, 3), (0, 1)], [(1, 3), (2, 3), (0, 0)]], [])
>>> _ = state.open_with_highest_double()
>>> f = dict(zip(FEATURE_NAMES, move_features(view_of(state, 1), Move((1, 3), 3))))
>>> [float(f[k]) for k in ("pips", "keep_suit", "unseen_left", "stitch_up")]
[4.0, 0.0, 3.0, 0.0]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..reference.game import Move, is_stitch_up
from ..sides import left_of
from ..tiles import full_set, is_double, other_suit, pips
from .view import SeatView

FEATURES_VERSION = 1
"""The version of :data:`FEATURES`: a saved player records it, and one of another version is
refused."""

FEATURES: tuple[tuple[str, str], ...] = (
    ("pips", "the tile's pips"),
    ("double", "1 if the tile is a double"),
    ("keep_suit", "kept tiles holding the suit the move leaves showing"),
    ("keep_playable", "kept tiles holding a suit showing on the ends after"),
    ("keep_suits", "distinct suits among the kept tiles"),
    ("ends_suits", "distinct suits showing on the ends after"),
    ("self_lacks", "suits showing on the ends after that no kept tile holds"),
    ("partner_lacks", "suits showing on the ends after that the partner is known to lack"),
    ("partner_shut", "1 if the partner is known to lack every suit showing on the ends after"),
    ("next_lacks", "suits showing on the ends after that the next seat (to the left) is known "
                   "to lack"),
    ("opponents_shut", "share of the opponents known to lack every suit showing on the ends "
                       "after"),
    ("unseen_left", "unseen tiles holding the suit the move leaves showing"),
    ("unseen_ends", "unseen tiles holding a suit showing on the ends after"),
    ("stitch_up", "1 if the move stitches up the ends (two or more ends, one suit)"),
    ("stitch_mine", "1 if the move stitches up on a suit the seat keeps a tile of"),
    ("blocks", "1 if the move surely blocks the hand: no kept and no unseen tile holds a suit "
               "showing on the ends after, and the seat keeps a tile"),
    ("block_win", "if the move blocks: +1 if the seat's side would win on pips (the other seats "
                  "holding the average unseen tile, the boneyard left undrawn), -1 if another "
                  "side would, 0 for a tie; 0 if the move does not block"),
    ("partner_fed", "tiles the partner has played holding a suit showing on the ends after "
                    "(a tile counts once per such suit)"),
    ("pips_if_short", "the tile's pips if some opponent holds two tiles or fewer, else 0"),
    ("my_tiles", "tiles the seat keeps (the same for every move)"),
    ("fewest_opponent", "fewest tiles an opponent holds (the same for every move)"),
    ("boneyard", "tiles in the boneyard (the same for every move)"),
)
"""``(name, meaning)`` of every decision feature, in the order of the feature vector."""

FEATURE_NAMES: tuple[str, ...] = tuple(name for name, _ in FEATURES)
"""The features' names, in order."""
N_FEATURES = len(FEATURES)
"""How many features a move has."""
CONTEXT: tuple[str, ...] = ("my_tiles", "fewest_opponent", "boneyard")
"""The features that are the same for every legal move of a decision (a weighted sum cannot use
them)."""
MOVE_FEATURES: tuple[str, ...] = tuple(n for n in FEATURE_NAMES if n not in CONTEXT)
"""The features that tell the legal moves of one decision apart (the ones a weighted sum tunes)."""


def _unseen(view: SeatView) -> list[tuple[int, int]]:
    """The tiles the seat has not seen: neither in its hand nor played (the other hands and the
    boneyard, as far as the seat can tell).
    """
    seen = set(view.hand) | {e.tile for e in view.history if e.kind == "play" and e.tile}
    return [t for t in full_set(view.rules.max_pip) if t not in seen]


def _block_win(view: SeatView, kept: Sequence[tuple[int, int]],
               unseen: Sequence[tuple[int, int]]) -> int:
    """+1, -1 or 0: the side that would win the blocked hand on pips, the seat's own kept pips
    against the average unseen tile for every other tile held (all scaled by the number of
    unseen tiles, so the arithmetic stays in integers).
    """
    rules, n_unseen = view.rules, len(unseen)
    unseen_pips = sum(pips(t) for t in unseen)
    totals = [0] * rules.n_sides
    for s in range(rules.players):
        held = sum(pips(t) for t in kept) * n_unseen if s == view.seat \
            else view.tile_counts[s] * unseen_pips
        totals[rules.side_of(s)] += held
    mine = totals[rules.side_of(view.seat)]
    others = [t for k, t in enumerate(totals) if k != rules.side_of(view.seat)]
    if mine < min(others):
        return 1
    return -1 if min(others) < mine else 0


def move_features(view: SeatView, move: Move) -> np.ndarray:
    """The decision features (:data:`FEATURES`, in order) of ``move`` for the seat of ``view``.

    Parameters
    ----------
    view : SeatView
        What the seat to move sees.
    move : Move
        One of its legal moves (not the lead under ``opening='any'``, which has no end yet).

    Returns
    -------
    numpy.ndarray
        ``float64``, one value per feature.

    Examples
    --------
    >>> from dominosim.reference.game import GameState, Move
    >>> from dominosim.rules import Rules
    >>> from dominosim.strategies.view import view_of
    >>> rules = Rules.preset("block", players=2, max_pip=2, hand_size=2)
    >>> state = GameState.from_deal(rules, [[(2, 2), (0, 1)], [(1, 2), (0, 2)]], [])
    >>> _ = state.open_with_highest_double()
    >>> f = dict(zip(FEATURE_NAMES, move_features(view_of(state, 1), Move((0, 2), 2))))
    >>> [float(f[k]) for k in ("keep_suits", "ends_suits", "self_lacks", "blocks")]
    [2.0, 2.0, 1.0, 0.0]
    """
    rules, seat = view.rules, view.seat
    kept = [t for t in view.hand if t != move.tile]
    left = other_suit(move.tile, move.suit)
    ends = view.ends_after(move)
    showing = set(ends)
    unseen = _unseen(view)
    lacks = view.known_lacks
    partner = view.partner
    opponents = rules.opponents_of(seat)
    stitched = is_stitch_up(ends)
    blocks = bool(kept) and not any(v in t for v in showing for t in list(kept) + unseen)
    partner_played = [e.tile for e in view.history
                      if e.kind == "play" and e.seat == partner and e.tile is not None]
    short = min(view.tile_counts[o] for o in opponents) <= 2
    values = {
        "pips": pips(move.tile),
        "double": is_double(move.tile),
        "keep_suit": sum(left in t for t in kept),
        "keep_playable": sum(any(v in t for v in showing) for t in kept),
        "keep_suits": len({v for t in kept for v in t}),
        "ends_suits": len(showing),
        "self_lacks": sum(not any(v in t for t in kept) for v in showing),
        "partner_lacks": 0 if partner is None else len(showing & lacks[partner]),
        "partner_shut": partner is not None and showing <= lacks[partner],
        "next_lacks": len(showing & lacks[left_of(rules.players, seat)]),
        "opponents_shut": sum(showing <= lacks[o] for o in opponents) / len(opponents),
        "unseen_left": sum(left in t for t in unseen),
        "unseen_ends": sum(any(v in t for v in showing) for t in unseen),
        "stitch_up": stitched,
        "stitch_mine": stitched and any(ends[0] in t for t in kept),
        "blocks": blocks,
        "block_win": _block_win(view, kept, unseen) if blocks else 0,
        "partner_fed": sum(v in t for v in showing for t in partner_played),
        "pips_if_short": pips(move.tile) if short else 0,
        "my_tiles": len(kept),
        "fewest_opponent": min(view.tile_counts[o] for o in opponents),
        "boneyard": view.boneyard_size,
    }
    return np.array([float(values[name]) for name in FEATURE_NAMES])


def features_of(view: SeatView, moves: Sequence[Move]) -> np.ndarray:
    """The features of every move in ``moves``: one row each (shape ``(len(moves), N_FEATURES)``)."""
    return np.array([move_features(view, m) for m in moves]).reshape(len(moves), N_FEATURES)
