"""The Knock Rummy core (``games/knock_rummy/core.py``) and the public API agree.

The public API copies each state into a core table and back; the bots' playouts and the
learning environments step one table in place, the playouts without events. These tests
play 10,000 random games of Knock Rummy (2-5 players, with and without a knock limit and
High Aces) and 10,000 of Gin both ways at once and compare, at every step: the legal
actions, the reason of a random (mostly illegal) action, the events, the whole position
and totals, an event-free table's cards and scores, and (every few steps) every seat's
observation. See docs/engine.md for its run time.
"""

from __future__ import annotations

import random

import pytest

from deadwood_knock.cards import DECK_52
from deadwood_knock.games.knock_rummy import rules
from deadwood_knock.games.knock_rummy.core import (
    DISCARDS,
    DRAW_PILE,
    DRAW_STOCK,
    KNOCKS,
    OVER,
    RUMMIES,
    RUMMY_NO_DISCARD,
    TABLE_LOG,
    KnockRummyOptions,
    KrTable,
)
from deadwood_knock.games.knock_rummy.rules import (
    observe,
    observe_table,
    position_to_json,
    state_of,
    table_of,
)

GAMES = 10_000
# Random Gin rarely gets under the knock limit, so most of its hands are void and a game
# could run for ever: a game is cut after this many actions (about one Gin hand).
MAX_ACTIONS = 120
EVERY_ACTION = (DRAW_STOCK, DRAW_PILE, *DISCARDS, *KNOCKS, RUMMY_NO_DISCARD, *RUMMIES)


def _options(rng: random.Random, gin: bool) -> KnockRummyOptions:
    target = rng.choice((1, 1, 10))
    high = rng.random() < 0.3
    if gin:
        return KnockRummyOptions(players=2, gin=True, target=target, high_aces=high)
    limit = rng.choice((None, None, 0, 5, 10, 25))
    return KnockRummyOptions(
        players=rng.randint(2, 5), knock_limit=limit, high_aces=high, target=target
    )


def _same_cards(table: KrTable, quiet: KrTable) -> None:
    assert quiet.hands == table.hands and quiet.known == table.known
    assert quiet.stock == table.stock and quiet.pile == table.pile
    assert (quiet.phase, quiet.to_act, quiet.taken, quiet.turnovers, quiet.public) == (
        table.phase,
        table.to_act,
        table.taken,
        table.turnovers,
        table.public,
    )


def _play(seed: int, gin: bool) -> int:
    rng = random.Random(seed)
    opts = _options(rng, gin)
    state = rules.new_game(opts, seed)
    table = KrTable.new(opts, seed, [])
    table.track_seen()
    quiet = KrTable.new(opts, seed, single_hand=True)  # the playouts' way: no events
    watch = seed % 32 == 0
    steps = 0
    hand = 0
    while True:
        last = state.phase == OVER or steps == MAX_ACTIONS
        if watch or last or state.hand_number != hand:
            # The whole position, log and observations: at each deal, at the end and at
            # every step of one game in 32 (each step of every game would take minutes).
            assert position_to_json(state_of(table)) == position_to_json(state)
            assert state_of(table).log == state.log and table.last_result == state.last_result
            for seat in range(opts.players):
                assert observe_table(table, seat) == observe(state, seat)
        if quiet.phase != OVER:
            _same_cards(table, quiet)
        if last:
            assert table.phase == state.phase and table.winners == state.winners
            return steps
        legal = rules.legal_actions(state)
        assert table.legal() == legal and legal
        probe = rng.choice(EVERY_ACTION)
        assert table.reason(probe) == rules.why_illegal(state, probe)
        assert (table.reason(probe) is None) == (probe in legal)
        action = rng.choice(legal)
        hand = state.hand_number
        state, events = rules.apply(state, action)
        mine: list = []
        table.play(action, mine)
        assert tuple(mine) == events
        if quiet.phase != OVER:
            quiet.play(action)
            if state.hand_number != hand or state.phase == OVER:
                # The hand ended: the quiet table stopped there with the same scores.
                assert quiet.phase == OVER and state.last_result is not None
                assert quiet.hand_scores == list(state.last_result.scores)
        steps += 1


@pytest.mark.parametrize("gin", [False, True], ids=["knock-rummy", "gin"])
def test_core_table_and_public_api_agree_on_random_games(gin: bool) -> None:
    steps = sum(_play(seed, gin) for seed in range(GAMES))
    assert steps > GAMES * (20 if gin else 3)
    # The public API's apply hands the hot moves the shared TABLE_LOG sentinel, so a
    # move that appended to it (a turn-over, a void) would leak events across games.
    assert TABLE_LOG == []


def test_a_copied_table_is_independent() -> None:
    state = rules.new_game(KnockRummyOptions(players=3, knock_limit=10), 5)
    table = table_of(state)
    before = position_to_json(state_of(table))
    rng = random.Random(1)
    copy = table.copy()
    while copy.phase != OVER and copy.hand_number == table.hand_number:
        copy.play(rng.choice(copy.legal()), [])
    assert position_to_json(state_of(table)) == before
    assert table_of(state_of(table)).hands == table.hands


def test_every_card_is_somewhere_once() -> None:
    rng = random.Random(2)
    for seed in range(200):
        table = KrTable.new(_options(rng, seed % 2 == 0), seed, single_hand=True)
        while table.phase != OVER:
            held = [c for c in DECK_52 if any(h >> c & 1 for h in table.hands)]
            assert sorted(held + table.stock + table.pile) == list(DECK_52)
            table.play(rng.choice(table.legal()))


def test_events_and_hand_results_built_by_the_core_are_the_classes_own() -> None:
    """The core builds its runtime events and hand results without the frozen dataclasses'
    ``__init__`` (``core._event``, ``core._hand_result``): the objects are of the classes
    themselves, equal to the constructors' and alike in every field, ``repr`` and pickle."""
    import pickle
    from dataclasses import fields

    from deadwood_knock.cards import parse_cards
    from deadwood_knock.games.base import Event
    from deadwood_knock.games.knock_rummy import core

    cards = parse_cards("AS 2S 3S")
    made = core._event("dealt", 1, {"cards": cards}, 1)
    built = Event("dealt", 1, {"cards": cards}, private_to=1)
    assert type(made) is Event
    assert made == built and repr(made) == repr(built)
    assert pickle.loads(pickle.dumps(made)) == built
    values = {
        "hand_number": 3,
        "outcome": "gin",
        "ender": 0,
        "winners": (0,),
        "counts": (0, 12),
        "scores": (37, 0),
        "totals": (37, 0),
        "hands": (cards, ()),
        "arrangements": (),
        "layoffs": cards[:1],
        "difference": (12, 0),
        "penalty": (0, 0),
        "bonus": (25, 0),
    }
    result = core._hand_result(*values.values())
    assert type(result) is core.HandResult
    assert result == core.HandResult(**values)
    assert {f.name: getattr(result, f.name) for f in fields(result)} == values
    assert pickle.loads(pickle.dumps(result)) == result
    assert core._hand_result(*list(values.values())[:9]) == core.HandResult(
        **dict(list(values.items())[:9])
    )


@pytest.mark.parametrize(
    ("gin", "opts"),
    [
        (True, KnockRummyOptions(gin=True, knock_limit=10)),
        (True, KnockRummyOptions(gin=True, knock_limit=10, high_aces=True, target=30)),
        (False, KnockRummyOptions()),
        (False, KnockRummyOptions(players=3, knock_limit=10)),
        (False, KnockRummyOptions(players=4, knock_limit=0, high_aces=True, target=50)),
    ],
)
def test_legal_actions_kept_by_apply_hold_after_the_table_moves_on(
    gin: bool, opts: KnockRummyOptions
) -> None:
    """``apply`` keeps a new state's legal actions when it knows them (its shortcut of
    ``draw_masks``' and ``discard_masks``' usual answers); they are the state's own: the
    same before and after the state is played (its table taken) and as listed from its
    fields alone, in Gin and in Knock Rummy with and without a knock limit."""
    game = rules.GIN_GAME if gin else rules.GAME
    state = game.new_game(opts, 11)
    rng = random.Random(11)
    for _ in range(300):
        if game.is_over(state):
            break
        legal = rules.legal_actions(state)
        again = rules.position_from_json(position_to_json(state))
        assert rules.legal_actions(again) == legal
        before = state
        state, _ = game.apply(before, legal[rng.randrange(len(legal))])
        assert rules.legal_actions(before) == legal  # its table now moved on with ``state``
