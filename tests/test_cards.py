"""Card notation (RULINGS: card notation) and decks."""

from __future__ import annotations

import random
import sys
import threading

import pytest

from deadwood_knock.cards import (
    CARDS,
    DECK_52,
    DECK_54,
    JOKERS,
    CardError,
    card,
    format_cards,
    parse_card,
    parse_cards,
    shuffled,
    shuffled_by_key,
)


def test_every_card_round_trips_through_its_notation() -> None:
    for c in DECK_54:
        assert parse_card(str(c)) == c or c == JOKERS[1]
    assert [str(c) for c in DECK_52[:13]] == [r + "s" for r in "A23456789TJQK"]


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("As", "As"),
        ("as", "As"),
        ("AS", "As"),
        ("10h", "Th"),
        ("TH", "Th"),
        ("7♣", "7c"),
        ("Q♥", "Qh"),
        ("k♦", "Kd"),
        ("2♠", "2s"),
        ("jk", "JK"),
        ("JK", "JK"),
    ],
)
def test_accepted_spellings(token: str, expected: str) -> None:
    assert str(parse_card(token)) == expected


@pytest.mark.parametrize(
    ("token", "why"),
    [
        ("1s", "unknown rank"),
        ("Ax", "unknown suit"),
        ("s", "missing rank"),
        ("11h", "unknown rank"),
        ("", "empty"),
        ("Kk", "unknown suit"),
    ],
)
def test_bad_tokens_name_the_token_and_why(token: str, why: str) -> None:
    with pytest.raises(CardError) as info:
        parse_card(token)
    assert why in str(info.value)
    assert repr(token) in str(info.value)


def test_two_jokers_are_distinct_cards_and_a_third_is_refused() -> None:
    a, b = parse_cards("JK JK")
    assert a != b and a.is_joker and b.is_joker
    with pytest.raises(CardError, match="only two jokers"):
        parse_cards("JK JK JK")


def test_repeated_card_is_refused() -> None:
    with pytest.raises(CardError, match="appears twice"):
        parse_cards("As 7c as")


def test_example_hand_from_the_rulings() -> None:
    hand = parse_cards("As Kd Th 7c 7d 2s JK 9h")
    assert format_cards(hand) == "As Kd Th 7c 7d 2s JK 9h"
    assert [c.rank for c in hand] == [1, 13, 10, 7, 7, 2, 0, 9]
    assert [c.suit for c in hand] == ["s", "d", "h", "c", "d", "s", "", "h"]


def test_decks() -> None:
    assert len(DECK_52) == 52 and len(set(DECK_52)) == 52
    assert not any(c.is_joker for c in DECK_52)
    assert len(DECK_54) == 54 and sum(c.is_joker for c in DECK_54) == 2
    assert card(0) is CARDS[0]
    with pytest.raises(CardError):
        card(54)


def test_pretty_uses_symbols_and_names() -> None:
    assert parse_card("Th").pretty() == "10♥"
    assert parse_card("7c").pretty() == "7♣"
    assert parse_card("Qh").name() == "queen of hearts"
    assert JOKERS[0].pretty() == "Joker"


def test_shuffle_uses_the_rng_passed_in() -> None:
    a = shuffled(DECK_54, random.Random(7))
    b = shuffled(DECK_54, random.Random(7))
    c = shuffled(DECK_54, random.Random(8))
    assert a == b and a != c and sorted(a) == list(DECK_54)


def test_shuffled_by_key_deals_as_a_seeded_random() -> None:
    """A deal shuffles with ``shuffled_by_key``: the same cards as ``random.Random(key)``
    would give, for any deck size and seeds up to 64 bits."""
    for size in (0, 1, 2, 3, 32, 52, 54):
        deck = list(CARDS[:size])
        for key in [*range(200), 2**32 - 1, 2**32, 2**63 + 12345, 2**64 - 1]:
            expected = list(deck)
            random.Random(key).shuffle(expected)
            assert shuffled_by_key(deck, key) == expected


def test_deals_in_threads_at_once_deal_as_seeded_randoms() -> None:
    """``shuffled_by_key`` reuses its generators between deals: threads dealing at once
    (switching every microsecond) still each get the cards of their own key."""
    keys = range(1000, 1240)
    expected = {}
    for key in keys:
        deck = list(DECK_52)
        random.Random(key).shuffle(deck)
        expected[key] = deck
    got: dict[int, list[object]] = {}

    def deal(part: range) -> None:
        for key in part:
            got[key] = list(shuffled_by_key(DECK_52, key))

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=deal, args=(keys[i::8],)) for i in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert got == expected


def test_shuffled_is_random_shuffle() -> None:
    """``shuffled`` writes ``Random.shuffle`` out for speed: the same order of cards and
    the same generator state after it, for any deck size; a subclass is asked itself."""
    for size in (0, 1, 2, 3, 32, 52, 54):
        deck = list(CARDS[:size])
        for seed in range(300):
            ours, theirs = random.Random(seed), random.Random(seed)
            expected = list(deck)
            theirs.shuffle(expected)
            assert shuffled(deck, ours) == expected
            assert ours.getstate() == theirs.getstate()

    class Fixed(random.Random):
        def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
            x.reverse()

    assert shuffled(list(CARDS[:5]), Fixed(1)) == list(CARDS[:5])[::-1]
