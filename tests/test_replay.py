"""The one replay (games.base.replay): recorded random games replay to identical states
and events, from a new game or from a given start, and every listed action is legal by
the one legality source (why_illegal) while every other candidate gets a reason."""

from __future__ import annotations

import random
from typing import Any

import pytest

from deadwood_knock.games import get_game
from deadwood_knock.games.base import Event, GameRecord, IllegalActionError, replay

# (game, options, games): a few dozen seeded games each (every state checks every
# listed action) keeps this file to seconds.
CASES = (
    ("deadwood-knock", {"players": 4, "rounds": 2, "sleight_of_hand": True}, 25),
    ("deadwood-knock", {"players": 2, "rounds": 1, "manual_split": True}, 25),
    ("knock-rummy", {"players": 3, "knock_limit": 10}, 80),
    ("knock-rummy", {"players": 2, "high_aces": True}, 80),
    ("gin", {"target": 30}, 6),
)


def _play(game_name: str, options: dict[str, Any], seed: int) -> tuple[Any, GameRecord, list]:
    game = get_game(game_name)
    rng = random.Random(seed)
    state = game.new_game(game.options_from_json(options), seed)
    actions: list[dict[str, Any]] = []
    events: list[tuple[Event, ...]] = []
    while not game.is_over(state) and len(actions) < 3000:
        legal = game.legal_actions(state)
        for action in legal:
            assert game.reason(state, action) is None
        action = rng.choice(legal)
        state, step = game.apply(state, action)
        actions.append(action.to_json())
        events.append(step)
    return state, GameRecord(game_name, options, seed, tuple(actions)), events


@pytest.mark.parametrize(("game_name", "options", "games"), CASES)
def test_records_replay_to_identical_states_and_events(
    game_name: str, options: dict[str, Any], games: int
) -> None:
    game = get_game(game_name)
    for seed in range(games):
        state, record, events = _play(game_name, options, seed)
        seen: list[tuple[Event, ...]] = []
        again = replay(game, record, lambda _n, _a, step, seen=seen: seen.append(step))
        assert again == state
        assert game.position_to_json(again) == game.position_to_json(state)
        assert seen == events


def test_replay_from_a_start_continues_the_record() -> None:
    game = get_game("knock-rummy")
    state, record, _ = _play("knock-rummy", {"players": 2}, 7)
    half = len(record.actions) // 2
    first = GameRecord(record.game, record.options, record.seed, record.actions[:half])
    rest = GameRecord(record.game, record.options, record.seed, record.actions[half:])
    middle = replay(game, first)
    assert replay(game, rest, start=middle) == state


def test_replay_names_the_illegal_action_and_the_reason() -> None:
    game = get_game("gin")
    record = GameRecord("gin", {}, 3, ({"type": "discard", "card": "Ac"},))
    with pytest.raises(IllegalActionError, match=r"record action 1 .*must draw first"):
        replay(game, record)
