"""The shipped Deadwood Knock hand table and the batch evaluator's fast paths."""

from __future__ import annotations

import random

from deadwood_knock.cards import CARDS, Card
from deadwood_knock.games.deadwood_knock import hand, tablegen


def test_shipped_table_equals_a_fresh_build() -> None:
    shipped = hand.decode_table(tablegen.table_path().read_bytes())
    fresh = tablegen.build_table()
    assert len(shipped) == len(fresh) == 190_033
    assert shipped == fresh


def test_table_encoding_round_trips() -> None:
    table = {k: hand.compute_row(k) for k in hand.table_keys(6)[:500]}
    assert hand.decode_table(hand.encode_table(table)) == table


def test_shipped_table_is_loaded_at_import() -> None:
    some = hand.table_keys(8)[::997]
    assert all(k in hand._TABLE for k in some)


def _as_row(r: hand.HandEvaluation) -> tuple[int, int, int, int, tuple[int, ...]]:
    return (r.score, r.knock_count, r.hand_points, r.deadwood_points, r.strength)


def _batch_as_rows(hands: list[list[Card]]) -> list[tuple[int, int, int, int, tuple[int, ...]]]:
    return [(*row[:4], hand.strength_from_code(row[4])) for row in hand.evaluate_batch(hands)]


def test_batch_of_mixed_hands_matches_evaluate_in_order() -> None:
    # Sizes 5..9, jokers, and many hands of two suits or a narrow band of ranks, so the
    # batch mixes table hits, lazy fills, flushes and flushes inside long straights.
    rng = random.Random(31)
    pools = [
        list(CARDS),
        [c for c in CARDS if c.is_joker or c.suit in "hs"],
        [c for c in CARDS if c.is_joker or c.rank in (1, 2, 3, 4, 5, 6, 7, 8, 9, 13)],
        [c for c in CARDS if c.is_joker or (c.suit == "h") or c.rank in (5, 6, 7, 8, 9, 10)],
    ]
    hands = [rng.sample(rng.choice(pools), rng.choice((5, 6, 7, 8, 8, 8, 9))) for _ in range(6000)]
    assert _batch_as_rows(hands) == [_as_row(hand.evaluate(h)) for h in hands]


def test_batch_accepts_any_iterable() -> None:
    rng = random.Random(5)
    hands = [rng.sample(CARDS, 8) for _ in range(50)]
    assert hand.evaluate_batch(iter(hands)) == hand.evaluate_batch(hands)
    assert hand.evaluate_batch(tuple(hands)) == hand.evaluate_batch(hands)
    assert hand.evaluate_batch([]) == []


def test_batch_falls_back_when_a_late_hand_is_not_eight_cards() -> None:
    rng = random.Random(8)
    hands = [rng.sample(CARDS, 8) for _ in range(500)] + [rng.sample(CARDS, 9)]
    assert _batch_as_rows(hands) == [_as_row(hand.evaluate(h)) for h in hands]
