"""Knock Rummy's fast paths: the discard search's tie-break and the set-free shortcuts."""

from __future__ import annotations

import random

from deadwood_knock.cards import CARDS
from deadwood_knock.games.knock_rummy.melds import (
    best_discard_count,
    card_value,
    count,
    count_mask,
    hand_mask,
)

DECK_52 = list(CARDS[:52])
DENSE = [c for c in DECK_52 if c.rank <= 5]


def test_best_discard_tie_break_is_costliest_then_highest_card() -> None:
    # Checked by counting every discard: the lowest count, ties to the discard worth
    # most, then to the highest card index (what the docstring promises).
    rng = random.Random(77)
    for i in range(3000):
        pool = DENSE if i % 3 == 0 else DECK_52
        cards = rng.sample(pool, rng.choice((4, 7, 8, 11)))
        high = i % 2 == 0
        after = {c: count([x for x in cards if x != c], high) for c in cards}
        low = min(after.values())
        want = max((c for c in cards if after[c] == low), key=lambda c: (card_value(c), int(c)))
        assert best_discard_count(cards, high) == (low, want), cards


def test_best_discard_of_one_card_and_of_a_fully_melded_hand() -> None:
    assert best_discard_count([CARDS[12]]) == (0, CARDS[12])
    # Four sevens: discarding any one leaves a set; the costliest-then-highest is 7c.
    sevens = [CARDS[6 + 13 * s] for s in range(4)]
    assert best_discard_count(sevens) == (0, CARDS[6 + 39])


def test_count_agrees_with_count_mask() -> None:
    rng = random.Random(3)
    for i in range(4000):
        cards = rng.sample(DENSE if i % 2 else DECK_52, rng.choice((6, 7, 10, 11)))
        for high in (False, True):
            # Lists and tuples take different mask-building code for ten cards.
            want = count_mask(hand_mask(cards), high)
            assert count(cards, high) == count(tuple(cards), high) == want
            assert count(iter(cards), high) == want


def test_kr_state_copy_helper_matches_dataclasses_replace() -> None:
    import dataclasses
    from typing import Any

    from deadwood_knock.games.knock_rummy import rules

    state = rules.new_game(rules.KnockRummyOptions(), 11)
    changes: dict[str, Any] = {"phase": "discard", "to_act": 1, "log": ()}
    fast, slow = rules._replace(state, **changes), dataclasses.replace(state, **changes)
    for name in rules._STATE_FIELDS:
        assert getattr(fast, name) == getattr(slow, name), name
    assert rules._replace(state) == state


def test_kr_states_stay_immutable_when_played_on_twice_and_pickled() -> None:
    """A state made by ``apply`` fills its fields from the core form when read and hands
    its table to the first ``apply`` from it: reading it only after its successors were
    played, playing it again, pickling and ``dataclasses.replace`` all see the state
    that a run reading every state at once saw."""
    import dataclasses
    import pickle

    from deadwood_knock.games.knock_rummy import rules

    for gin, seed in ((True, 3), (False, 4)):
        opts = rules.KnockRummyOptions(players=2 if gin else 3, gin=gin, knock_limit=10)
        rng = random.Random(seed)
        state = quiet = rules.new_game(opts, seed)
        seen = []  # every state's fields, read at once
        played = []  # (state, action, what apply gave), nothing read until the end
        for _ in range(150):
            action = rng.choice(rules.legal_actions(state))
            seen.append((rules.position_to_json(state), state.log, state.last_result))
            state, _ = rules.apply(state, action)
            later, events = rules.apply(quiet, action)
            played.append((quiet, action, later, events))
            quiet = later
        for (position, log, result), (old, action, later, events) in zip(seen, played, strict=True):
            assert (rules.position_to_json(old), old.log, old.last_result) == (
                position,
                log,
                result,
            )
            again, events_again = rules.apply(old, action)
            assert again == later and events_again == events
            assert pickle.loads(pickle.dumps(later)) == later
            assert dataclasses.replace(later) == later
            assert rules.legal_actions(dataclasses.replace(later)) == rules.legal_actions(later)


def test_kr_states_refuse_assignment_however_they_were_made() -> None:
    """States are immutable whether dealt, made by ``apply`` (a blank state filled
    lazily), rebuilt by ``replace`` or unpickled: assigning or deleting a field raises
    as a frozen dataclass does, before and after the fields were read, and nothing
    changes. The constructor keeps the dataclass's parameters and errors."""
    import dataclasses
    import pickle

    import pytest

    from deadwood_knock.games.knock_rummy import rules

    dealt = rules.new_game(rules.KnockRummyOptions(gin=True), 8)
    played, _ = rules.apply(dealt, rules.legal_actions(dealt)[0])
    unread, _ = rules.apply(played, rules.legal_actions(played)[0])
    states = [
        dealt,
        played,
        unread,
        dataclasses.replace(played),
        pickle.loads(pickle.dumps(played)),
    ]
    for i, state in enumerate(states):
        if i != 2:  # ``unread`` is tried before any of its fields is filled
            before = rules.position_to_json(state)
        with pytest.raises(dataclasses.FrozenInstanceError):
            state.phase = "draw"  # type: ignore[misc]
        with pytest.raises(dataclasses.FrozenInstanceError):
            del state.hands  # type: ignore[misc]
        # A frozen slotted dataclass raised TypeError here (CPython's super() quirk).
        with pytest.raises((AttributeError, TypeError)):
            state.colour = "red"  # type: ignore[attr-defined]
        if i != 2:
            assert rules.position_to_json(state) == before
    assert rules.legal_actions(unread) == rules.legal_actions(dataclasses.replace(unread))
    assert rules.KnockRummyState(*(getattr(played, n) for n in rules._STATE_FIELDS)) == played
    with pytest.raises(TypeError, match="phase"):
        rules.KnockRummyState(played.options, 1, 1, 0, (), (), ())  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="colour"):
        dataclasses.replace(played, colour="red")


def test_the_draws_only_discards_are_the_legal_actions_when_they_are_discards_alone() -> None:
    # The draw logged for the public API works out, with the count's floor, whether
    # only discards are legal next (KrTable.only_discards); the floor must never be over
    # the count (dense hands: many ranks held three or four times).
    from deadwood_knock.games.knock_rummy.core import (
        TABLE_LOG,
        KnockRummyOptions,
        KrTable,
        actions_of,
        discard_masks,
    )

    rng = random.Random(5)
    fired = 0
    for i in range(6000):
        opts = (
            KnockRummyOptions(gin=True, high_aces=i % 2 == 1)
            if i % 4 == 0
            else KnockRummyOptions(knock_limit=(0, 10, 25)[i % 3], high_aces=i % 5 == 0)
        )
        t = KrTable.new(opts, i)
        seat = t.to_act
        assert seat is not None
        cards = rng.sample(DENSE if i % 3 == 0 else DECK_52, 11)
        t.hands[seat] = hand_mask(cards[:10])
        source = rng.choice(("stock", "discard"))
        (t.pile if source == "discard" else t.stock).append(cards[10])
        t._draw(seat, source, TABLE_LOG)
        masks = discard_masks(opts, t.hands[seat], t.taken)
        found = t.only_discards
        if found is not None:
            fired += 1
            assert masks == (0, t.only_discards_mask, 0, 0), (cards, source)
            assert found == actions_of(masks)
        copied = t.copy()
        assert (copied.only_discards, copied.only_discards_mask) == (
            found,
            t.only_discards_mask,
        )
    assert 1000 < fired < 6000
