"""The Deadwood Knock evaluator (DK3) against a plain brute-force reference."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deadwood_knock.cards import CARDS, Card, parse_cards
from deadwood_knock.games.deadwood_knock.hand import (
    HandEvaluation,
    IllegalSplitError,
    best_five,
    best_five_strength,
    evaluate,
    evaluate_batch,
    is_legal_poker_hand,
    legal_splits,
    long_hand,
    reading_order,
    split_result,
    strength_from_code,
    warm_tables,
)

# --- brute-force reference: deliberately naive, shares no code with the evaluator ------

POINTS = {
    "high_card": 0,
    "pair": 15,
    "two_pair": 30,
    "three_of_a_kind": 40,
    "straight": 50,
    "flush": 60,
    "full_house": 70,
    "four_of_a_kind": 85,
    "straight_flush": 100,
    "royal_flush": 120,
}
ORDER = list(POINTS)


def ref_value(c: int) -> int:
    if c >= 52:
        return -2
    return min(c % 13 + 1, 10)


def ref_five(cards: Sequence[int]) -> tuple[int, ...]:
    """Strength of exactly 5 cards: (category index, tie-break ranks...)."""
    ranks = sorted((14 if c % 13 == 0 else c % 13 + 1 for c in cards), reverse=True)
    flush = len({c // 13 for c in cards}) == 1
    distinct = sorted(set(ranks), reverse=True)
    top = 0
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            top = distinct[0]
        elif distinct == [14, 5, 4, 3, 2]:
            top = 5
    if top and flush:
        return (9 if top == 14 else 8, top)
    counts = Counter(ranks)
    shape = sorted(counts.values(), reverse=True)
    by_count = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    if shape[0] == 4:
        return (7, *by_count)
    if shape == [3, 2]:
        return (6, *by_count)
    if flush:
        return (5, *ranks)
    if top:
        return (4, top)
    if shape[0] == 3:
        return (3, *by_count)
    if shape == [2, 2, 1]:
        return (2, *by_count)
    if shape[0] == 2:
        return (1, *by_count)
    return (0, *ranks)


def ref_legal(poker: Sequence[int]) -> bool:
    if any(c >= 52 for c in poker):
        return False
    if len(poker) == 5:
        return True
    if not 6 <= len(poker) <= 8:
        return False
    if len({c // 13 for c in poker}) == 1:
        return True
    ranks = {c % 13 + 1 for c in poker}
    if len(ranks) != len(poker):
        return False
    for lo in range(1, 15 - len(poker) + 1):
        run = {1 if r == 14 else r for r in range(lo, lo + len(poker))}
        if run == ranks:
            return True
    return False


def ref_evaluate(hand: Sequence[int]) -> dict[str, object]:
    total = sum(ref_value(c) for c in hand)
    rows = []
    for size in range(5, 9):
        for poker in itertools.combinations(sorted(hand), size):
            if not ref_legal(poker):
                continue
            strength = max(ref_five(five) for five in itertools.combinations(poker, 5))
            points = list(POINTS.values())[strength[0]]
            deadwood = total - sum(ref_value(c) for c in poker)
            rows.append((points - deadwood, strength, poker, points, deadwood))
    if not rows:
        return {"score": -total, "knock_count": total, "poker_hand": (), "strength": ()}
    score, strength, poker, points, deadwood = min(
        rows, key=lambda r: (-r[0], tuple(-x for x in r[1]), r[2])
    )
    # Strength tuples of different lengths compare fine once categories differ; the
    # negation trick above is exact because equal categories have equal lengths.
    return {
        "score": score,
        "knock_count": min(r[4] for r in rows),
        "poker_hand": poker,
        "strength": strength,
        "category": ORDER[strength[0]],
        "hand_points": points,
        "deadwood_points": deadwood,
    }


def check_against_reference(hand: Sequence[Card]) -> HandEvaluation:
    got = evaluate(hand)
    want = ref_evaluate(hand)
    assert got.score == want["score"], (hand, got, want)
    assert got.knock_count == want["knock_count"], (hand, got, want)
    assert tuple(got.poker_hand) == want["poker_hand"], (hand, got, want)
    assert got.strength == want["strength"], (hand, got, want)
    if want["poker_hand"]:
        assert got.category == want["category"]
        assert got.hand_points == want["hand_points"]
        assert got.deadwood_points == want["deadwood_points"]
    assert sorted(got.poker_hand + got.deadwood) == sorted(hand)
    assert got.can_knock == (got.knock_count <= 11)
    # The batch API must agree with the full result.
    (row,) = evaluate_batch([hand])
    assert row[:4] == (got.score, got.knock_count, got.hand_points, got.deadwood_points)
    assert strength_from_code(row[4]) == got.strength
    return got


hands = st.integers(5, 9).flatmap(
    lambda n: st.lists(st.sampled_from(CARDS), min_size=n, max_size=n, unique=True)
)


@settings(max_examples=3000, deadline=None)
@given(hands)
def test_dk3_hypothesis_matches_brute_force(hand: list[Card]) -> None:
    check_against_reference(hand)


# Hands that concentrate on one suit or a narrow rank band, where flushes, long straights
# and the flush-inside-a-straight cases live.
suited_hands = st.lists(
    st.sampled_from([c for c in CARDS if c.suit in "hs" or c.is_joker]),
    min_size=8,
    max_size=8,
    unique=True,
)
banded_hands = st.lists(
    st.sampled_from([c for c in CARDS if c.is_joker or c.rank in (1, 2, 3, 4, 5, 6, 7, 8, 13)]),
    min_size=8,
    max_size=8,
    unique=True,
)


@settings(max_examples=1500, deadline=None)
@given(st.one_of(suited_hands, banded_hands))
def test_dk3_hypothesis_flush_and_straight_heavy_hands(hand: list[Card]) -> None:
    check_against_reference(hand)


@given(st.one_of(hands, suited_hands, banded_hands))
def test_reading_order_shows_a_run_as_a_run_and_groups_first(hand: list[Card]) -> None:
    """What the showdown and Hand Focus print: the same cards, a straight low to high,
    any other hand its biggest group first (the engine's index order hid both)."""
    ev = evaluate(hand)
    read = reading_order(ev.poker_hand)
    assert sorted(read) == sorted(ev.poker_hand)
    assert ev.to_json()["poker_hand"] == [str(c) for c in read]
    ranks = [c.rank for c in read]
    steps = [b - a for a, b in itertools.pairwise(ranks)]
    # Each step up one rank, the high ace reading as 14 (K to A is -12 on 1..13).
    run = all(d == 1 or (d == -12 and b == 1) for d, b in zip(steps, ranks[1:], strict=True))
    if ev.category in ("straight", "straight_flush", "royal_flush") or len(read) > 5:
        # A straight always reads as its run; a long flush does when it is one run.
        one_run = len(set(ranks)) == len(ranks) and (
            max(ranks) - min(ranks) == len(ranks) - 1
            or max(14 if r == 1 else r for r in ranks) - min(14 if r == 1 else r for r in ranks)
            == len(ranks) - 1
        )
        assert run or (ev.category != "straight" and not one_run), read
    elif ranks:
        counts = Counter(ranks)
        sizes = [counts[r] for r in ranks]
        assert sizes == sorted(sizes, reverse=True), read


@settings(max_examples=1500, deadline=None)
@given(st.one_of(hands, suited_hands, banded_hands))
def test_best_five_scores_the_hand_and_long_hand_says_why_it_is_legal(hand: list[Card]) -> None:
    """What the showdown marks in a 6-8 card poker hand: five of its cards that score the
    whole hand's strength (DK3), and why the hand may be that long (all one suit, one
    straight, or both); nothing for a five-card hand."""
    for poker in legal_splits(hand):
        five = best_five(poker)
        assert len(five) == min(5, len(poker)) and set(five) <= set(poker)
        if len(poker) >= 5:
            assert best_five_strength(five) == best_five_strength(poker), (poker, five)
        kind = long_hand(poker)
        if len(poker) <= 5:
            assert kind is None
            continue
        suits = {c.suit for c in poker}
        assert kind in ("flush", "straight", "straight flush"), poker
        assert (len(suits) == 1) == kind.endswith("flush"), (poker, kind)
        if kind == "straight flush" or kind == "straight":
            ranks = sorted(c.rank for c in poker)
            high = sorted(14 if r == 1 else r for r in ranks)
            assert any(rs == list(range(rs[0], rs[0] + len(rs))) for rs in (ranks, high)), poker


def test_dk3_seeded_random_hands_match_brute_force() -> None:
    rng = random.Random(20261129)
    for _ in range(20_000):
        check_against_reference(rng.sample(CARDS, 8))


def h(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


@pytest.mark.parametrize(
    ("text", "category", "points"),
    [
        ("As Kd 9h 7c 4s 2d 3c 8s", "high_card", 0),
        ("9s 9d Kh 7c 4s 2d 3c 8s", "pair", 15),
        ("9s 9d Kh Kc 4s 2d 3c 8s", "two_pair", 30),
        ("9s 9d 9h Kc 4s 2d 3c 8s", "three_of_a_kind", 40),
        ("9s Td Jh Qc Ks 2d 3c 8s", "straight", 50),
        ("2h 5h 9h Jh Kh 3c 4d 7s", "flush", 60),
        ("9s 9d 9h Kc Ks 2d 3c 8s", "full_house", 70),
        ("9s 9d 9h 9c Ks 2d 3c 8s", "four_of_a_kind", 85),
        ("5h 6h 7h 8h 9h 2d 3c Ks", "straight_flush", 100),
        ("Ts Js Qs Ks As 2d 3c 4h", "royal_flush", 120),
    ],
)
def test_dk3_every_category(text: str, category: str, points: int) -> None:
    got = check_against_reference(h(text))
    assert got.category == category
    assert got.hand_points == points


def test_dk3_joker_is_minus_two_deadwood_and_never_in_poker_hand() -> None:
    got = check_against_reference(h("9s 9d 9h 9c Ks Qd JK JK"))
    assert got.category == "four_of_a_kind"
    assert set(got.deadwood) == set(h("Qd JK JK"))
    assert got.deadwood_points == 10 - 4
    assert got.score == 85 - 6
    assert all(not c.is_joker for c in got.poker_hand)


def test_dk3_six_card_straight_has_no_deadwood_but_jokers() -> None:
    got = check_against_reference(h("As 2d 3c 4h 5s 6d JK JK"))
    assert got.category == "straight"
    assert len(got.poker_hand) == 6
    assert got.deadwood_points == -4
    assert got.score == 54
    assert got.strength == (4, 6)


def test_dk3_eight_card_low_ace_straight() -> None:
    got = check_against_reference(h("As 2d 3c 4h 5s 6d 7h 8c"))
    assert got.category == "straight"
    assert got.deadwood_points == 0
    assert got.score == 50
    assert got.knock_count == 0


def test_dk3_ace_high_long_straight() -> None:
    got = check_against_reference(h("9s Td Jh Qc Ks Ad 2c 3h"))
    assert got.category == "straight"
    assert len(got.poker_hand) == 6
    assert got.strength == (4, 14)


def test_dk3_seven_card_flush_holding_a_straight_flush_scores_100() -> None:
    got = check_against_reference(h("3h 4h 5h 6h 7h Jh Kh 2c"))
    assert got.category == "straight_flush"
    assert got.hand_points == 100
    assert got.deadwood_points == 2
    assert got.score == 98


def test_dk3_flush_inside_a_long_straight() -> None:
    # 2..9 is an 8-card straight holding five hearts: its best 5 is a flush (60), so the
    # whole hand scores 60 with no deadwood, beating "all the hearts" (60 - 16).
    got = check_against_reference(h("2s 3h 4h 6h 5c 7h 8h 9d"))
    assert got.category == "flush"
    assert len(got.poker_hand) == 8
    assert got.score == 60
    assert got.strength == (5, 8, 7, 6, 4, 3)


def test_dk3_wheel_is_five_high() -> None:
    got = check_against_reference(h("As 2d 3c 4h 5s Kd Kc 9h"))
    assert got.category == "straight"
    assert got.strength == (4, 5)
    assert got.score == 50 - 29
    assert best_five_strength(h("As 2d 3c 4h 5s")) == (4, 5)
    assert best_five_strength(h("2d 3c 4h 5s 6s")) > best_five_strength(h("As 2d 3c 4h 5s"))


def test_dk3_k_a_2_is_not_a_straight() -> None:
    assert not is_legal_poker_hand(h("Qs Kd Ah 2c 3s 4d"))
    assert best_five_strength(h("Qs Kd Ah 2c 3s"))[0] == 0
    got = check_against_reference(h("Js Qd Kh Ac 2s 3d 4c 5h"))
    assert got.strength == (4, 5)  # only the wheel; Q-K-A-2-3 is no straight
    assert set(got.deadwood) == set(h("Js Qd Kh"))
    assert got.knock_count == 6


def test_dk3_suits_never_break_ties() -> None:
    assert best_five_strength(h("As Ks Qs Js 9d")) == best_five_strength(h("Ah Kh Qh Jh 9c"))


def test_dk3_knock_count_is_lowest_deadwood_over_all_splits() -> None:
    # Scoring split keeps the trips, but the knock count throws all high cards in.
    got = check_against_reference(h("2s 2d 2h Kc Qs Jd Th 9c"))
    assert got.knock_count == 2 + 2 + 2
    assert got.can_knock
    got = check_against_reference(h("Ks Kd Qh Qc Js Jd Th Tc"))
    assert got.knock_count == 30
    assert not got.can_knock


def test_dk3_fewer_than_five_plain_cards_is_all_deadwood() -> None:
    got = evaluate(h("As 2d 3c JK JK"))
    assert got.poker_hand == ()
    assert got.score == -(1 + 2 + 3 - 4)
    assert legal_splits(h("As 2d 3c JK JK")) == ((),)


def test_dk3_warm_tables_agree_with_lazy_fills() -> None:
    lazy = [evaluate(hand).score for hand in (h("9s 9d Kh 7c 4s 2d"), h("As 2d 3c JK 5s 6d"))]
    assert warm_tables(6) > 0
    warm = [evaluate(hand).score for hand in (h("9s 9d Kh 7c 4s 2d"), h("As 2d 3c JK 5s 6d"))]
    assert lazy == warm == [15 - 2, 0 + 2]  # pair of nines; high card with a joker


def test_dk3_legal_splits_scoring_split_first_and_all_legal() -> None:
    rng = random.Random(7)
    for _ in range(300):
        hand = rng.sample(CARDS, 8)
        splits = legal_splits(hand)
        assert splits[0] == evaluate(hand).poker_hand
        assert len(set(splits)) == len(splits)
        plain = [c for c in hand if not c.is_joker]
        expected = sum(
            1
            for size in range(5, 9)
            for combo in itertools.combinations(sorted(plain), size)
            if ref_legal(combo)
        )
        assert len(splits) == expected
        scores = [split_result(hand, s).score for s in splits]
        assert scores == sorted(scores, reverse=True)


def test_dk3_split_result_for_a_chosen_split_and_illegal_ones() -> None:
    hand = h("9s 9d 9h Kc Ks 2d 3c 8s")
    chosen = split_result(hand, h("9s 9d Kc Ks 8s"))
    assert chosen.category == "two_pair"
    assert chosen.score == 30 - (9 + 2 + 3)
    assert chosen.knock_count == evaluate(hand).knock_count
    with pytest.raises(IllegalSplitError):
        split_result(hand, h("9s 9d 9h Kc Ks 8s"))  # six cards, neither flush nor straight
    with pytest.raises(IllegalSplitError):
        split_result(hand, h("9s 9d 9h Kc Ah"))  # Ah not in hand
    with pytest.raises(IllegalSplitError):
        split_result(hand, h("9s 9d 9h Kc"))
