"""The counter-based random generator: the only source of randomness in dominosim.

Every random number of hand ``i`` of a run with seed ``seed`` comes from a *stream* identified by
``(seed, i, stream)``, where ``stream`` names what the numbers are for:

* ``deal_stream(k)`` for deal number ``k`` of the hand (0 for the first deal, 1 for the first redeal,
  ...): one Fisher-Yates shuffle of the whole set; the boneyard is drawn in the order it leaves;
* ``seat_stream(s)`` for every random choice of the strategy sitting at seat ``s``.

A stream is a 64-bit key; its ``j``-th output is ``mix64(key + (j + 1) * GAMMA)``, where ``mix64`` is the
splitmix64 finaliser (Steele, Lea and Flood 2014). Keys are derived by mixing, so hand ``i`` can be
replayed alone and runs do not depend on chunking, threads or processes. Hand ``k`` of match ``j`` uses
:func:`match_hand_key` instead of :func:`hand_key`.

Every domain key, the constant that keeps one family of streams apart from the others, is defined
here: the hands (:data:`DOMAIN_HAND`), match hands (:data:`DOMAIN_MATCH`), the bootstrap of
duplicate tournaments (:data:`DOMAIN_DUPLICATE_BOOTSTRAP`), the bootstrap of match curves
(:data:`DOMAIN_MATCH_BOOTSTRAP`) and the replays of one deal with fresh play
(:data:`DOMAIN_REPLAY`). The compiled engine (``dominosim/fast/``) reads the hand and match keys
from here; its search playouts derive their streams from a decision's seed with :data:`GAMMA`.

A number below ``n`` is ``((x >> 32) * n) >> 32`` for an output ``x`` (Lemire's multiply-shift on the
upper 32 bits; its bias, below ``n / 2**32``, is far beneath any statistical resolution here). The
compiled engine implements the same arithmetic on ``uint64`` and is tested equal to this module.

Examples
--------
>>> s = Stream(stream_key(hand_key(7, 0), seat_stream(2)))
>>> [s.below(6) for _ in range(5)]
[5, 5, 3, 1, 1]
"""

from __future__ import annotations

import numpy as np

MASK64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
UNIT = 2.0 ** -53
"""What :meth:`Stream.uniform` multiplies its 53 bits by."""
MIX_M1 = 0xBF58476D1CE4E5B9
MIX_M2 = 0x94D049BB133111EB
DOMAIN_HAND = 0x6A09E667F3BCC909
"""Hand ``i`` of a run: :func:`hand_key`."""
DOMAIN_MATCH = 0xBB67AE8584CAA73B
"""Hand ``k`` of match ``j`` of a run: :func:`match_hand_key`."""
DOMAIN_DUPLICATE_BOOTSTRAP = 0x3C6EF372FE94F82B
"""The bootstrap over deals of :func:`dominosim.simulation.duplicate.tournament`'s ratings."""
DOMAIN_MATCH_BOOTSTRAP = 0x510E527FADE682D1
"""The bootstrap of :mod:`dominosim.analysis.match`'s match-win curves."""
DOMAIN_REPLAY = 0x3C6EF372FE94F82C
"""Replays of one deal with fresh play (:func:`dominosim.analysis.deal_replays`): replay ``p``
of hand key ``key`` is keyed ``mix64(key ^ (DOMAIN_REPLAY + p))``."""
DOMAINS = {"hand": DOMAIN_HAND, "match": DOMAIN_MATCH,
           "duplicate_bootstrap": DOMAIN_DUPLICATE_BOOTSTRAP,
           "match_bootstrap": DOMAIN_MATCH_BOOTSTRAP, "replay": DOMAIN_REPLAY}
"""Every domain key by name (each distinct, so no two families of streams coincide)."""
SEAT_STREAM_BASE = 1 << 32


def mix64(z: int) -> int:
    """The splitmix64 finaliser: a bijection of 64-bit integers that scrambles every bit."""
    z &= MASK64
    z = ((z ^ (z >> 30)) * MIX_M1) & MASK64
    z = ((z ^ (z >> 27)) * MIX_M2) & MASK64
    return z ^ (z >> 31)


def check_seed(seed: int) -> int:
    """``seed`` if it is an integer from 0 to 2**63 - 1, else the error."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < (1 << 63):
        raise ValueError(
            f"The value for `seed` must be an integer from 0 to 2**63 - 1, but {seed!r} was passed."
        )
    return seed


def hand_key(seed: int, hand: int) -> int:
    """The key of hand ``hand`` of a run seeded ``seed``."""
    return mix64(mix64(seed ^ DOMAIN_HAND) + hand)


def match_hand_key(seed: int, match: int, k: int) -> int:
    """The key of hand ``k`` of match ``match`` of a run seeded ``seed``."""
    return mix64(mix64(mix64(seed ^ DOMAIN_MATCH) + match) + k)


def replay_key(key: int, replay: int) -> int:
    """The key of replay ``replay`` (1, 2, ...) of the hand keyed ``key``: the same deal, fresh
    draws and choices.
    """
    return mix64(key ^ (DOMAIN_REPLAY + replay))


def below_many(key: int, count: int, n: int) -> np.ndarray:
    """The first ``count`` numbers below ``n`` of the stream keyed ``key``, at once:
    ``[Stream(key).below(n) for _ in range(count)]`` on numpy arrays.

    >>> s = Stream(99)
    >>> below_many(99, 5, 7).tolist() == [s.below(7) for _ in range(5)]
    True
    """
    j = np.arange(1, count + 1, dtype=np.uint64)
    z = np.uint64(key) + j * np.uint64(GAMMA)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(MIX_M1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(MIX_M2)
    z = z ^ (z >> np.uint64(31))
    return (((z >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32)).astype(np.int64)


def deal_stream(deal: int) -> int:
    """Stream id of deal number ``deal`` (0 the first deal, then one per redeal)."""
    return deal


def seat_stream(seat: int) -> int:
    """Stream id of the strategy sitting at ``seat``."""
    return SEAT_STREAM_BASE + seat


def stream_key(base: int, stream: int) -> int:
    """The key of stream ``stream`` of the hand whose key is ``base``."""
    return mix64((base + stream) & MASK64)


class Stream:
    """A stream of 64-bit random numbers, the ``j``-th being ``mix64(key + (j + 1) * GAMMA)``.

    Parameters
    ----------
    key : int
        The stream key, from :func:`stream_key`.

    Examples
    --------
    >>> s = Stream(12345)
    >>> s.below(10) in range(10)
    True
    """

    __slots__ = ("_state",)

    def __init__(self, key: int) -> None:
        self._state = key & MASK64

    def next64(self) -> int:
        """The next 64-bit output."""
        self._state = (self._state + GAMMA) & MASK64
        return mix64(self._state)

    def below(self, n: int) -> int:
        """A number in ``0 .. n - 1``, each (up to a bias under ``n / 2**32``) equally likely."""
        if n < 1:
            raise ValueError(f"The value for `n` must be at least 1, but {n!r} was passed.")
        return ((self.next64() >> 32) * n) >> 32

    def uniform(self) -> float:
        """A float in [0, 1) from the top 53 bits of the next output (the softmax player's draw).

        >>> 0.0 <= Stream(12345).uniform() < 1.0
        True
        """
        return (self.next64() >> 11) * UNIT

    def shuffle(self, items: list) -> None:
        """Shuffle ``items`` in place (Fisher-Yates, from the last position down)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
