"""The rule model of the rule book (docs/rules.md): one frozen, validated dataclass and the seeds' presets.

Examples
--------
>>> r = Rules.preset("block", players=4)
>>> r.max_pip, r.hand_size, r.partnerships, r.draw, r.scoring
(6, 6, True, 'none', 'spots')
>>> Rules.preset("block", players=2, max_pip=3, hand_size=3).boneyard_size
4
"""

from __future__ import annotations

import dataclasses
import inspect
from dataclasses import dataclass
from typing import Any, Literal, overload

import numpy as np

from . import sides
from .checks import refuse
from .tiles import n_tiles

OPENINGS = ("highest_double", "any")
DRAWS = ("none", "until_playable", "one")
ENDS = ("out", "team_out")
SCORINGS = ("game", "spots", "balance")
PRESETS = ("block", "draw", "cross", "double_nine_cross", "ivory")

# (preset, max_pip) -> {players: hand_size}, exactly the presets table of docs/rules.md.
_HAND_SIZES: dict[tuple[str, int], dict[int, int]] = {
    ("block", 6): {2: 8, 3: 6, 4: 6, 5: 5},
    ("block", 9): {4: 9},
    ("block", 12): {4: 12},
    ("draw", 6): {2: 7, 3: 5, 4: 4, 5: 3},
    ("cross", 6): {2: 7, 3: 5, 4: 4, 5: 3},
    ("double_nine_cross", 9): {2: 7, 3: 7, **{p: 5 for p in range(4, 11)}},
    # "The same game starting with the same number of tiles per person should be possible with
    # Double Twelve sets, too."
    ("double_nine_cross", 12): {2: 7, 3: 7, **{p: 5 for p in range(4, 11)}},
    ("ivory", 6): {2: 5, 3: 5, 4: 5, 5: 5},
}

_PRESET_FIELDS: dict[str, dict[str, Any]] = {
    "block": dict(max_pip=6, draw="none", opening_arms=2, fill_opening_first=False,
                  doubles_branch=False, scoring="spots", target=100),
    "draw": dict(max_pip=6, draw="until_playable", opening_arms=2, fill_opening_first=False,
                 doubles_branch=False, scoring="spots", target=100),
    "cross": dict(max_pip=6, draw="until_playable", opening_arms=4, fill_opening_first=True,
                  doubles_branch=False, scoring="spots", target=100),
    "double_nine_cross": dict(max_pip=9, draw="until_playable", opening_arms=4,
                              fill_opening_first=True, doubles_branch=True, scoring="spots",
                              target=100),
    "ivory": dict(max_pip=6, draw="until_playable", opening_arms=2, fill_opening_first=False,
                  doubles_branch=True, scoring="balance", target=100),
}


def _check_int(field: str, value: Any, low: int, high: int | None, allowed: str) -> int:
    """``value`` as a plain ``int``: Python and NumPy integers only (not bools, not floats)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise refuse(field, allowed, value)
    value = int(value)
    if value < low or (high is not None and value > high):
        raise refuse(field, allowed, value)
    return value


def _check_choice(field: str, value: Any, choices: tuple[str, ...]) -> str:
    # Compared as a plain str: an array or other object must not reach ``in`` (its truth value
    # may be ambiguous or its equality lenient).
    if not isinstance(value, str) or value not in choices:
        raise refuse(field, "one of " + ", ".join(repr(c) for c in choices), value)
    return str(value)


def _check_bool(field: str, value: Any) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise refuse(field, "True or False", value)
    return bool(value)


def _refuse_unknown(where: str, given: set[str], besides: set[str]) -> None:
    """Refuse the names of ``given`` that are not fields of :class:`Rules` (``besides``: fields
    taken apart, not listed), naming every field.
    """
    names = [f.name for f in dataclasses.fields(Rules) if f.name not in besides]
    unknown = given - set(names) - besides
    if unknown:
        raise ValueError(f"{where} got unknown field(s) {sorted(unknown)}; the fields are "
                         f"{', '.join(names)}.")


@dataclass(frozen=True)
class Rules:
    """Every parameter of one rule set of docs/rules.md, validated on construction.

    Build one from a preset with :meth:`Rules.preset`, or directly with every field you need.
    Invalid values and combinations raise ``ValueError`` naming the field, the allowed values and
    the value given.

    Parameters
    ----------
    max_pip : int
        The set: double-``max_pip``, 1 to 15.
    players : int
        Seats at the table, 2 to 10.
    hand_size : int
        Tiles dealt to each seat; ``hand_size * players`` at most the set size.
    partnerships : bool
        Teams of two, seat ``s`` with seat ``s + players / 2`` (4, 6, 8 or 10 players).
    opening : {'highest_double', 'any'}
        Who leads and with what. ``'any'``: seat ``leader`` leads any tile, no redeal.
    leader : int or None
        The leading seat with ``opening='any'`` (default 0); must be left out otherwise.
    draw : {'none', 'until_playable', 'one'}
        What a seat that cannot play does: knock, draw until it can play, or draw one.
    boneyard_keep : int
        Tiles that may never be drawn (draw games only).
    opening_arms : {2, 4}
        Open ends of the opening double: a line or a cross.
    fill_opening_first : bool
        Every arm of the opening double must be played on before any other end.
    doubles_branch : bool
        Every double after the opening one opens two new chains (three ends show its suit).
    end : {'out', 'team_out'}
        A hand ends when one seat is out, or (partnerships) when both partners of a side are.
    scoring : {'game', 'spots', 'balance'}
        Points for the winning side: 1, the losers' pips (less the winners' after a block), or the
        pairwise balance of seed 003 (individual play only).
    target : int
        Points that win a match.

    Examples
    --------
    >>> Rules(max_pip=3, players=2, hand_size=3).boneyard_size
    4
    >>> Rules(max_pip=6, players=2, hand_size=7, scoring="sptos")
    Traceback (most recent call last):
    ...
    ValueError: The value for `scoring` must be one of 'game', 'spots', 'balance', but 'sptos' was passed.
    """

    max_pip: int
    players: int
    hand_size: int
    partnerships: bool = False
    opening: str = "highest_double"
    leader: int | None = None
    draw: str = "none"
    boneyard_keep: int = 0
    opening_arms: int = 2
    fill_opening_first: bool = False
    doubles_branch: bool = False
    end: str = "out"
    scoring: str = "spots"
    target: int = 100

    def __new__(cls, *args: Any, **fields: Any) -> Rules:
        """Refuse a field the rules do not have, in one line naming every field (a misspelt
        ``scorring=`` is otherwise Python's bare ``TypeError``); the fields are checked in
        :meth:`__post_init__`.
        """
        _refuse_unknown("Rules", set(fields), set())
        return super().__new__(cls)

    def __post_init__(self) -> None:
        """Validate every field (the one-sentence error of the first bad one)."""
        self._store("max_pip", _check_int("max_pip", self.max_pip, 1, 15, "an integer from 1 to 15"))
        self._store("players", _check_int("players", self.players, 2, 10, "an integer from 2 to 10"))
        size = n_tiles(self.max_pip)
        most = size // self.players
        self._store("hand_size", _check_int("hand_size", self.hand_size, 1, most,
                   f"an integer from 1 to {most} (a double-{self.max_pip} set of {size} tiles "
                   f"dealt to {self.players} players)"))
        self._store("partnerships", _check_bool("partnerships", self.partnerships))
        if self.partnerships and self.players not in (4, 6, 8, 10):
            raise refuse("partnerships", "False, or True only with 4, 6, 8 or 10 players "
                          f"(there are {self.players})", self.partnerships)
        self._store("opening", _check_choice("opening", self.opening, OPENINGS))
        if self.opening == "highest_double":
            if self.leader is not None:
                raise refuse("leader", "None with opening='highest_double' (the holder of the "
                              "highest double leads)", self.leader)
        else:
            if self.leader is None:
                object.__setattr__(self, "leader", 0)
            self._store("leader", _check_int("leader", self.leader, 0, self.players - 1,
                                             f"a seat from 0 to {self.players - 1} with "
                                             "opening='any'"))
        self._store("draw", _check_choice("draw", self.draw, DRAWS))
        keep_most = 0 if self.draw == "none" else self.boneyard_size
        self._store("boneyard_keep", _check_int(
            "boneyard_keep", self.boneyard_keep, 0, keep_most,
            "0 with draw='none'" if self.draw == "none"
            else f"an integer from 0 to the boneyard size, {self.boneyard_size}"))
        self._store("opening_arms", _check_int("opening_arms", self.opening_arms, 2, 4, "2 or 4"))
        if self.opening_arms == 3:
            raise refuse("opening_arms", "2 or 4", self.opening_arms)
        self._store("fill_opening_first", _check_bool("fill_opening_first", self.fill_opening_first))
        if self.opening == "any" and (self.opening_arms == 4 or self.fill_opening_first):
            field = "opening_arms" if self.opening_arms == 4 else "fill_opening_first"
            raise refuse(field, "2 arms without fill first when opening='any' (a cross needs a "
                          "double at its centre)", getattr(self, field))
        self._store("doubles_branch", _check_bool("doubles_branch", self.doubles_branch))
        self._store("end", _check_choice("end", self.end, ENDS))
        if self.end == "team_out" and not self.partnerships:
            raise refuse("end", "'out' without partnerships ('team_out' needs partnerships)",
                          self.end)
        self._store("scoring", _check_choice("scoring", self.scoring, SCORINGS))
        if self.scoring == "balance" and self.partnerships:
            raise refuse("scoring", "'game' or 'spots' with partnerships ('balance' is for "
                          "individual play)", self.scoring)
        self._store("target", _check_int("target", self.target, 1, None, "an integer of 1 or more"))

    def _store(self, field: str, value: Any) -> None:
        # Validated values are kept as plain Python objects, so ``to_dict()`` serialises to JSON.
        object.__setattr__(self, field, value)

    # ------------------------------------------------------------------ derived facts
    @property
    def n_tiles(self) -> int:
        """Tiles in the set."""
        return n_tiles(self.max_pip)

    @property
    def boneyard_size(self) -> int:
        """Tiles left sleeping after the deal."""
        return n_tiles(self.max_pip) - self.hand_size * self.players

    @property
    def n_sides(self) -> int:
        """Sides: teams of two with partnerships, single seats otherwise (see
        :mod:`dominosim.sides`).
        """
        return sides.n_sides(self.players, self.partnerships)

    def side_of(self, seat: Any) -> Any:
        """The side of ``seat`` (or of a numpy array of seats): ``seat mod players/2`` with
        partnerships, the seat otherwise.
        """
        return sides.side_of(self.players, self.partnerships, seat)

    def seats_of(self, side: int) -> tuple[int, ...]:
        """The seats on ``side``."""
        return sides.seats_of(self.players, self.partnerships, side)

    def partner_of(self, seat: int) -> int | None:
        """The partner of ``seat`` with partnerships, None in individual play.

        >>> Rules.preset("block", players=4).partner_of(1), Rules.preset("draw").partner_of(1)
        (3, None)
        """
        return sides.partner_of(self.players, self.partnerships, seat)

    def opponents_of(self, seat: int) -> tuple[int, ...]:
        """The seats not on ``seat``'s side, in seat order.

        >>> Rules.preset("block", players=4).opponents_of(2)
        (1, 3)
        """
        mine = self.side_of(seat)
        return tuple(s for s in range(self.players) if self.side_of(s) != mine)

    @property
    def can_draw(self) -> bool:
        """Whether a seat that cannot play takes tiles from the boneyard (the turn's rule is
        :func:`dominosim.reference.game.may_draw`).
        """
        if self.draw == "none":
            return False
        if self.draw in ("until_playable", "one"):
            return True
        raise refuse("draw", "one of " + ", ".join(map(repr, DRAWS)), self.draw)

    def replace(self, **changes: Any) -> Rules:
        """A copy with some fields changed, validated again.

        >>> Rules.preset("draw", players=2).replace(draw="one").draw
        'one'
        """
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """The fields as a plain dict (for metadata and sweeps)."""
        return dataclasses.asdict(self)

    # ------------------------------------------------------------------ display
    def nearest_preset(self) -> tuple[str, dict[str, Any]]:
        """The preset these rules differ least from, and the fields that differ (what
        :meth:`preset` needs besides ``players`` to build them).

        >>> Rules.preset("block", players=2, max_pip=3, hand_size=3).nearest_preset()
        ('block', {'max_pip': 3, 'hand_size': 3})
        >>> Rules.preset("ivory", players=3).nearest_preset()
        ('ivory', {})
        """
        best: tuple[str, dict[str, Any]] | None = None
        for name in PRESETS:
            base = {f.name: f.default for f in dataclasses.fields(self)}
            base.update(_PRESET_FIELDS[name], partnerships=name == "block" and self.players == 4)
            base["hand_size"] = _HAND_SIZES.get((name, self.max_pip), {}).get(self.players)
            diff = {k: v for k, v in self.to_dict().items() if k != "players" and v != base[k]}
            if best is None or len(diff) < len(best[1]):
                best = (name, diff)
        assert best is not None  # PRESETS is not empty
        return best

    def __repr__(self) -> str:
        """The call that builds these rules from their nearest preset.

        >>> Rules.preset("draw", players=3, scoring="game")
        Rules.preset('draw', players=3, scoring='game')
        """
        name, diff = self.nearest_preset()
        extra = "".join(f", {k}={v!r}" for k, v in diff.items())
        return f"Rules.preset({name!r}, players={self.players}{extra})"

    def _repr_html_(self) -> str:
        from .display import card, fields

        name, diff = self.nearest_preset()
        changed = (", with " + ", ".join(f"{k}={v!r}" for k, v in diff.items())) if diff else ""
        line = (f"preset {name!r}, {self.players} players{changed}: double-{self.max_pip} set "
                f"of {self.n_tiles} tiles, {self.hand_size} each, {self.boneyard_size} "
                f"sleeping, {self.n_sides} sides")
        rows: list[tuple[str, Any, str]] = [(k, v, "changed" if k in diff else "")
                                            for k, v in self.to_dict().items()]
        return card("Rules", line, fields(rows, ("field", "value", f"vs {name!r}")))

    # ------------------------------------------------------------------ presets
    @classmethod
    def preset(cls, name: str, players: int = 2, **overrides: Any) -> Rules:
        """The rules of a seed game, overridable field by field.

        Parameters
        ----------
        name : {'block', 'draw', 'cross', 'double_nine_cross', 'ivory'}
            The game, as in the presets table of docs/rules.md.
        players : int
            Seats at the table (default 2).
        **overrides
            Any :class:`Rules` field. ``max_pip`` picks the set (default: the preset's);
            ``hand_size`` is taken from the table for the set and player count, and must be given
            where the table has none.

        Examples
        --------
        >>> Rules.preset("double_nine_cross", players=6).hand_size
        5
        >>> Rules.preset("block", players=4, partnerships=False).partnerships
        False
        >>> Rules.preset("block", players=3, max_pip=9)
        Traceback (most recent call last):
        ...
        ValueError: The value for `hand_size` must be given for preset 'block' with a double-9 set and 3 players: the seeds give hand sizes only for players 4; pass hand_size=...
        """
        _check_choice("name", name, PRESETS)
        players = _check_int("players", players, 2, 10, "an integer from 2 to 10")
        _refuse_unknown("Rules.preset", set(overrides), {"players"})
        fields = dict(_PRESET_FIELDS[name])
        fields["partnerships"] = name == "block" and players == 4
        fields.update(overrides)
        # The set is checked before the hand-size table is consulted, so a wrong ``max_pip`` is
        # blamed on itself and not on ``hand_size``.
        max_pip = fields["max_pip"] = _check_int("max_pip", fields["max_pip"], 1, 15,
                                                 "an integer from 1 to 15")
        if fields.get("hand_size") is None:
            table = _HAND_SIZES.get((name, max_pip))
            if table is None or players not in table:
                given = ("only for sets " + ", ".join(
                    f"double-{m}" for (p, m) in _HAND_SIZES if p == name)
                    if table is None else "only for players " + ", ".join(map(str, table)))
                raise ValueError(
                    f"The value for `hand_size` must be given for preset {name!r} with a "
                    f"double-{max_pip} set and {players} players: the seeds give hand sizes "
                    f"{given}; pass hand_size=...")
            fields["hand_size"] = table[players]
        return cls(players=players, **fields)


_init = inspect.signature(Rules.__init__)
Rules.__signature__ = _init.replace(parameters=list(_init.parameters.values())[1:])  # type: ignore[attr-defined]
"""What ``inspect.signature(Rules)`` and the API reference show: the fields, not ``__new__``'s
``(*args, **fields)``."""


@overload
def check_rules(value: Any, name: str = ..., *, optional: Literal[False] = ...) -> Rules: ...


@overload
def check_rules(value: Any, name: str = ..., *, optional: bool) -> Rules | None: ...


def check_rules(value: Any, name: str = "rules", *, optional: bool = False) -> Rules | None:
    """``value`` if it is a :class:`Rules` (or None when ``optional``): the one rule of the API
    wherever a ``Rules`` is taken. A preset's name is refused, everywhere in the same sentence,
    which says how to make the rules of that preset (``ds.play``'s ``game`` is the one parameter
    that takes a name: it is not a ``Rules`` parameter).

    >>> check_rules("draw")
    Traceback (most recent call last):
    ...
    ValueError: The value for `rules` must be a dominosim.Rules (for example Rules.preset('draw', players=2)), but 'draw' was passed.
    """
    if isinstance(value, Rules) or (optional and value is None):
        return value
    example = value if isinstance(value, str) and value in PRESETS else "block"
    players = 4 if example == "block" else 2
    shown = " ".join(repr(value).split())
    shown = shown if len(shown) <= 200 else shown[:200] + "..."
    raise ValueError(f"The value for `{name}` must be a dominosim.Rules{' or None' * optional} "
                     f"(for example Rules.preset({example!r}, players={players})), but {shown} "
                     "was passed.")
