"""Cards, decks and the card notation shared by every game, CLI, API and test.

A card is a small immutable value: an ``int`` subclass whose value is its index
``0..53``. Index ``suit * 13 + (rank - 1)`` for the 52 suited cards (so a hand's
cards of one suit are a contiguous 13-bit field of a bitmask, ace in bit 0) and
52, 53 for the two jokers. Being an ``int`` keeps hot paths table-driven: a card
indexes lists directly and hashes for free.

>>> c = parse_card("Th")
>>> c, c.rank, c.suit, c.pretty()
(Th, 10, 'h', '10♥')
>>> parse_cards("As Kd 10h 7♣ JK JK")
(As, Kd, Th, 7c, JK, JK)
>>> [int(c) for c in parse_cards("JK JK")]
[52, 53]
>>> format_cards(parse_cards("as KD"))
'As Kd'
"""

from __future__ import annotations

import random
from _random import Random as _BareRandom
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final

__all__ = [
    "DECK_52",
    "DECK_54",
    "JOKERS",
    "RANKS",
    "SUITS",
    "Card",
    "CardError",
    "card",
    "format_cards",
    "parse_card",
    "parse_cards",
    "shuffle_in_place",
    "shuffled",
    "shuffled_by_key",
]

RANKS: Final = "A23456789TJQK"
SUITS: Final = "shdc"
_SUIT_SYMBOLS: Final = "♠♥♦♣"
_SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")
_RANK_NAMES: Final = (
    "ace",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
)
JOKER_TOKEN: Final = "JK"


class CardError(ValueError):
    """A card token that is not in the notation, or a hand that repeats a card."""

    def __init__(self, token: str, reason: str) -> None:
        super().__init__(f"bad card {token!r}: {reason}")
        self.token = token
        self.reason = reason


class Card(int):
    """One card; compare and hash as its index. Build with :func:`card` or parse."""

    __slots__ = ()

    @property
    def is_joker(self) -> bool:
        return self >= 52

    @property
    def rank(self) -> int:
        """1 (ace) .. 13 (king); 0 for a joker."""
        return 0 if self >= 52 else self % 13 + 1

    @property
    def suit(self) -> str:
        """``s h d c``; empty for a joker."""
        return "" if self >= 52 else SUITS[self // 13]

    @property
    def suit_index(self) -> int:
        """0..3 for ``s h d c``; -1 for a joker."""
        return -1 if self >= 52 else self // 13

    def __str__(self) -> str:
        return _TEXT[self]

    def __repr__(self) -> str:
        return _TEXT[self]

    def pretty(self) -> str:
        """Human text with a suit symbol, e.g. ``10♥``; suits never rely on colour."""
        return _PRETTY[self]

    def name(self) -> str:
        """Words for screen readers and hints, e.g. ``queen of hearts``."""
        if self >= 52:
            return "joker"
        return f"{_RANK_NAMES[self % 13]} of {_SUIT_NAMES[self // 13]}"


def _text(i: int) -> str:
    return JOKER_TOKEN if i >= 52 else RANKS[i % 13] + SUITS[i // 13]


def _pretty(i: int) -> str:
    if i >= 52:
        return "Joker"
    rank = "10" if i % 13 == 9 else RANKS[i % 13]
    return rank + _SUIT_SYMBOLS[i // 13]


_TEXT: Final = tuple(_text(i) for i in range(54))
_PRETTY: Final = tuple(_pretty(i) for i in range(54))

#: Every card value, interned: ``CARDS[i]`` is the card with index ``i``.
CARDS: Final[tuple[Card, ...]] = tuple(Card(i) for i in range(54))
JOKERS: Final = (CARDS[52], CARDS[53])
DECK_52: Final = CARDS[:52]
DECK_54: Final = CARDS


def card(index: int) -> Card:
    """The interned card with this index (0..53)."""
    if not 0 <= index < 54:
        raise CardError(str(index), "card index must be 0..53")
    return CARDS[index]


_RANK_OF: Final = {r: i for i, r in enumerate(RANKS)} | {"10": 9}
_SUIT_OF: Final = (
    {s: i for i, s in enumerate(SUITS)}
    | {sym: i for i, sym in enumerate(_SUIT_SYMBOLS)}
    | {"♤": 0, "♡": 1, "♢": 2, "♧": 3}
)


def parse_card(token: str) -> Card:
    """Parse one token: rank ``A 2-9 T J Q K`` (or ``10``) then suit ``s h d c`` (any
    case, or a suit symbol); ``JK`` is a joker (the first one; see :func:`parse_cards`).
    """
    t = token.strip()
    if not t:
        raise CardError(token, "empty token")
    if t.upper() == JOKER_TOKEN:
        return JOKERS[0]
    rank_text, suit_text = t[:-1].upper(), t[-1]
    suit = _SUIT_OF.get(suit_text.lower(), _SUIT_OF.get(suit_text))
    if suit is None:
        raise CardError(token, f"unknown suit {suit_text!r} (use s h d c or ♠♥♦♣)")
    rank = _RANK_OF.get(rank_text)
    if rank is None:
        if not rank_text:
            raise CardError(token, "missing rank")
        raise CardError(token, f"unknown rank {rank_text!r} (use A 2-9 T J Q K or 10)")
    return CARDS[suit * 13 + rank]


def parse_cards(text: str | Iterable[str], *, allow_repeats: bool = False) -> tuple[Card, ...]:
    """Parse a whitespace- or comma-separated list of cards.

    ``JK`` may appear twice (the deck's two jokers); any other repeat is an error
    unless ``allow_repeats``.
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    out: list[Card] = []
    seen: set[int] = set()
    for token in tokens:
        c = parse_card(token)
        if c.is_joker and c in seen:
            if CARDS[53] in seen and not allow_repeats:
                raise CardError(token, "the deck has only two jokers")
            c = CARDS[53] if not allow_repeats else c
        elif c in seen and not allow_repeats:
            raise CardError(token, "card appears twice")
        seen.add(c)
        out.append(c)
    return tuple(out)


def format_cards(cards: Iterable[int]) -> str:
    """Cards as notation separated by spaces, in the given order."""
    return " ".join(_TEXT[c] for c in cards)


def sort_key(c: int) -> tuple[int, int]:
    """Display order: by suit, then rank; jokers last."""
    return (4, c) if c >= 52 else (c // 13, c % 13)


def shuffled(deck: Sequence[Card], rng: random.Random) -> list[Card]:
    """A new list with the deck shuffled by the RNG passed in (never a global one).

    For a plain ``random.Random`` this is ``rng.shuffle`` written out (the same draws of
    ``getrandbits`` in the same order, so the same order of cards): its per-card call of
    ``_randbelow`` made the shuffle most of the cost of a deal.
    """
    cards = list(deck)
    shuffle_in_place(cards, rng)
    return cards


def shuffle_in_place(items: list[Any], rng: random.Random) -> None:
    """``rng.shuffle(items)``: the same draws and the same order (see :func:`shuffled`),
    for the deal and for the bots' samplers alike.

    >>> a, b = list(range(30)), list(range(30))
    >>> shuffle_in_place(a, random.Random(7)); random.Random(7).shuffle(b); a == b
    True
    """
    if type(rng) is not random.Random:  # a subclass may draw differently: ask it
        rng.shuffle(items)
        return
    _shuffler(len(items))(items, rng.getrandbits)


def shuffled_by_key(deck: Sequence[Card], key: int) -> list[Card]:
    """``shuffled(deck, random.Random(key))`` for a generator that shuffles nothing else (a
    deal's): the same cards. The base C generator (``_random.Random``) seeds from ``key``
    exactly as ``random.Random(key)`` does, without its Python-level ``__init__`` and
    ``seed`` (two calls and their checks per deal).

    The generator is one of :data:`_IDLE`'s, seeded again: ``seed`` sets the whole state
    (all 624 words and the position), so it draws as a new one would, without allocating,
    zeroing and freeing its 2.5 kB per deal. ``list.pop`` and ``append`` are atomic, so two
    threads dealing at once never share one."""
    cards = list(deck)
    try:
        rng = _IDLE.pop()
    except IndexError:  # the first deal, or every idle one is dealing in another thread
        rng = _BareRandom(0)
    rng.seed(key)
    _shuffler(len(cards))(cards, rng.getrandbits)
    _IDLE.append(rng)
    return cards


# The deals' generators between deals (see ``shuffled_by_key``): as many as deals ran at once.
_IDLE: Final[list[_BareRandom]] = []


def _shuffle_steps(n: int) -> tuple[tuple[int, int], ...]:
    """``Random.shuffle``'s steps for ``n`` cards: each position ``i`` from the top down
    and the bits ``_randbelow(i + 1)`` draws for it."""
    return tuple((i, (i + 1).bit_length()) for i in range(n - 1, 0, -1))


def _shuffler(n: int) -> Callable[[list[Card], Callable[[int], int]], None]:
    """The shuffle of ``n`` cards (:func:`_written_out`), made once per length."""
    found = _SHUFFLERS.get(n)
    if found is None:
        found = _SHUFFLERS[n] = _written_out(n)
    return found


# Per deck length (a few: 52, 54, a determinized rest), its shuffle written out.
_SHUFFLERS: Final[dict[int, Callable[[list[Card], Callable[[int], int]], None]]] = {}


def _written_out(n: int) -> Callable[[list[Card], Callable[[int], int]], None]:
    """``Random.shuffle``'s loop over :func:`_shuffle_steps` for ``n`` cards, each step
    written out with its position and bit count as constants: the same draws of
    ``getrandbits`` and swaps, without the loop's iteration, unpacking and stores (about an
    eighth of a deal's shuffle). Made from those constants alone. Each step draws
    ``_randbelow(i + 1)``: k bits, drawn again while over i."""
    lines = ["def shuffle(cards, getrandbits):"]
    for i, k in _shuffle_steps(n):
        lines += [
            f"    j = getrandbits({k})",
            f"    while j > {i}:",
            f"        j = getrandbits({k})",
            f"    cards[{i}], cards[j] = cards[j], cards[{i}]",
        ]
    lines.append("    return None")  # a body even for 0 or 1 card
    space: dict[str, Any] = {}
    exec("\n".join(lines), space)
    shuffle: Callable[[list[Card], Callable[[int], int]], None] = space["shuffle"]
    return shuffle
