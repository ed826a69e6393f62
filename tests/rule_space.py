"""A hypothesis strategy over every valid combination of Rules fields (for differential tests)."""

from __future__ import annotations

from hypothesis import strategies as st

import dominosim as ds
from dominosim.tiles import n_tiles


@st.composite
def valid_rules(draw, max_pip_range=(1, 9), players_range=(2, 6)) -> ds.Rules:
    max_pip = draw(st.integers(*max_pip_range))
    players = draw(st.integers(players_range[0], min(players_range[1], n_tiles(max_pip))))
    hand_size = draw(st.integers(1, n_tiles(max_pip) // players))
    partnerships = players in (4, 6, 8, 10) and draw(st.booleans())
    opening = draw(st.sampled_from(["highest_double", "any"]))
    leader = draw(st.integers(0, players - 1)) if opening == "any" else None
    drawing = draw(st.sampled_from(["none", "until_playable", "one"]))
    boneyard = n_tiles(max_pip) - players * hand_size
    keep = 0 if drawing == "none" else draw(st.integers(0, boneyard))
    if opening == "any":
        arms, fill = 2, False
    else:
        arms, fill = draw(st.sampled_from([2, 4])), draw(st.booleans())
    end = "team_out" if partnerships and draw(st.booleans()) else "out"
    scoring = draw(st.sampled_from(["game", "spots"] if partnerships
                                   else ["game", "spots", "balance"]))
    return ds.Rules(max_pip=max_pip, players=players, hand_size=hand_size,
                    partnerships=partnerships, opening=opening, leader=leader, draw=drawing,
                    boneyard_keep=keep, opening_arms=arms, fill_opening_first=fill,
                    doubles_branch=draw(st.booleans()), end=end, scoring=scoring)


LINEUPS = ("random", "bully", "doubles", "mixed", "styles")
_CYCLES = {
    "mixed": ("random", "bully", "doubles"),
    "styles": ("accompanied", "stitcher", "counter", "partner", "random"),
}


def lineup(rules: ds.Rules, name: str) -> list[str]:
    """One strategy per seat: a single built-in everywhere, or several taking turns round the
    table (``mixed``: the first three built-ins; ``styles``: the four player styles and random)."""
    if name in _CYCLES:
        cycle = _CYCLES[name]
        return [cycle[s % len(cycle)] for s in range(rules.players)]
    return [name] * rules.players
