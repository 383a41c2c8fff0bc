"""The search's random draws, the same as :class:`random.Random`'s, in fewer calls.

``Random.shuffle`` and ``Random.sample`` are written in Python and call
``Random._randbelow`` (another Python method) once a card; the search shuffles and
deals dozens of times a sample, so those calls were a tenth of a Knock Rummy search
(issue 17, branch ``fast18``). :func:`shuffle` is the deal's own shuffle
(:func:`deadwood_knock.cards.shuffle_in_place`), and :func:`sample` makes the library's
draws the same way, without its per-card method calls: the same ``getrandbits`` calls in
the same order (rejection sampling of each index from its bit length), so the same
result and the same stream after it, draw for draw. ``tests/test_search_fast.py``
checks them against ``random.Random`` on every list length the search meets and more,
so an interpreter whose library draws another way fails the tests rather than changing
a game.

Only a plain ``random.Random`` takes the fast path: a subclass may draw its integers
another way (``Random.__init_subclass__`` picks ``_randbelow`` by what it overrides), so
it gets the library's own methods.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Final, TypeVar

from deadwood_knock.cards import shuffle_in_place

__all__ = ["sample", "shuffle"]

T = TypeVar("T")

#: ``n.bit_length()`` for the list lengths the search meets (a deck is 52 or 54 cards):
#: the k of ``getrandbits(k)`` that ``_randbelow(n)`` asks for.
_BITS: Final = tuple(n.bit_length() for n in range(128))


def shuffle(rng: random.Random, x: list[T]) -> None:
    """``rng.shuffle(x)``: the same order, the same draws (the deal's own shuffle,
    :func:`deadwood_knock.cards.shuffle_in_place`)."""
    shuffle_in_place(x, rng)


def _setsize(k: int) -> int:
    """``Random.sample``'s threshold: up to this population size it draws from a pool."""
    return 21 + (4 ** math.ceil(math.log(k * 3, 4)) if k > 5 else 0)


#: ``_setsize(k)`` for the sample sizes the search meets.
_SETSIZE: Final = tuple(_setsize(k) for k in range(64))


def sample(rng: random.Random, population: Sequence[T], k: int) -> list[T]:
    """``rng.sample(population, k)``: the same cards in the same order, the same draws."""
    n = len(population)
    if (
        type(rng) is not random.Random
        or not 0 <= k <= n
        or k >= len(_SETSIZE)
        or n > _SETSIZE[k]
        or n >= len(_BITS)
    ):
        # The library's set-based branch (large populations), its errors, subclasses.
        return rng.sample(population, k)
    getrandbits, bits = rng.getrandbits, _BITS
    pool = list(population)
    result: list[T] = []
    append = result.append
    for i in range(k):
        m = n - i  # _randbelow(m), inline as in shuffle
        b = bits[m]
        j = getrandbits(b)
        while j >= m:
            j = getrandbits(b)
        append(pool[j])
        pool[j] = pool[m - 1]
    return result
