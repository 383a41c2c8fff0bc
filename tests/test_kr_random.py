"""Randomized full games of Knock Rummy (2-5 players, with and without options) and Gin.

After every action: all 52 cards are in exactly one place and the seat to act holds
the right number. Every hand's Knock Rummy scores sum to zero (in Gin only the
hand's winner scores). Games end, and replaying the record gives the identical state.
Some games also check every observation for leaks and every determinization for
consistency with what the seat saw.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from deadwood_knock.cards import DECK_52
from deadwood_knock.games.base import GameRecord, replay
from deadwood_knock.games.knock_rummy import (
    GAME,
    GIN_GAME,
    Discard,
    Draw,
    Knock,
    KnockRummyAction,
    KnockRummyGame,
    KnockRummyState,
    Rummy,
    count,
    deal_size,
    determinize,
    legal_actions,
    observe,
)
from deadwood_knock.games.knock_rummy.rules import is_legal as _is_legal

MAX_ACTIONS = 50_000


def check_cards(state: KnockRummyState) -> None:
    every = [c for h in state.hands for c in h] + list(state.stock) + list(state.discard_pile)
    assert sorted(every) == list(range(52))
    size = deal_size(state.options.players)
    for seat, hand in enumerate(state.hands):
        holding = size + 1 if state.phase == "discard" and seat == state.to_act else size
        if state.phase != "over":
            assert len(hand) == holding
        assert set(state.known[seat]) <= set(hand)
        assert list(hand) == sorted(hand)


def check_observations(state: KnockRummyState, rng: random.Random) -> None:
    for seat in range(state.options.players):
        obs = observe(state, seat)
        if state.phase == "over":
            continue  # the last hand was laid down for everyone
        data = obs.to_json()
        data.pop("last_result")  # the finished hand was laid down for all to see
        text = json.dumps(data)
        hidden = [
            c
            for p, hand in enumerate(state.hands)
            if p != seat
            for c in hand
            if c not in state.known[p]
        ]
        if not state.stock_public:
            hidden += list(state.stock)
        for c in hidden:
            assert f'"{c}"' not in text, (seat, str(c))
        guess = determinize(obs, rng)
        check_cards(guess)
        assert guess.hands[seat] == state.hands[seat]
        assert guess.discard_pile == state.discard_pile
        assert [len(h) for h in guess.hands] == [len(h) for h in state.hands]
        assert guess.known == state.known and len(guess.stock) == len(state.stock)
        if state.stock_public:
            assert guess.stock == state.stock
        if state.to_act == seat:
            assert legal_actions(guess) == legal_actions(state)


def choose(
    state: KnockRummyState, legal: tuple[KnockRummyAction, ...], rng: random.Random, greedy: bool
) -> KnockRummyAction:
    """Uniformly random, or (``greedy``) a random player that knocks when it may and
    usually throws its worst card, so gin hands end before the stock runs low."""
    if not greedy or isinstance(legal[0], Draw):
        return legal[rng.randrange(len(legal))]
    ends = [a for a in legal if isinstance(a, (Knock, Rummy))]
    if ends and rng.random() < 0.8:
        return rng.choice(ends)
    discards = [a for a in legal if isinstance(a, Discard)]
    if rng.random() < 0.3:
        return rng.choice(discards)
    seat = state.to_act
    assert seat is not None
    hand = state.hands[seat]
    high = state.options.high_aces
    return min(discards, key=lambda a: count([c for c in hand if c != a.card], high))


def play(
    game: KnockRummyGame,
    options: dict[str, Any],
    seed: int,
    greedy: bool,
    watch: bool,
) -> tuple[int, int]:
    rng = random.Random(seed)
    state = game.new_game(game.options_from_json(options), seed)
    check_cards(state)
    record: list[dict[str, Any]] = []
    hands = 0
    for _ in range(MAX_ACTIONS):
        if game.is_over(state):
            break
        legal = game.legal_actions(state)
        assert legal and game.to_act(state) == state.to_act
        action = choose(state, legal, rng, greedy)
        record.append(action.to_json())
        state, events = game.apply(state, action)
        check_cards(state)
        if watch:
            check_observations(state, rng)
        for event in events:
            if event.kind in ("dealt", "draw_card"):
                assert event.private_to == event.seat
            if event.kind == "hand_result":
                hands += 1
                scores = event.data["scores"]
                if game is GIN_GAME:
                    assert sum(s > 0 for s in scores) <= 1 and min(scores) == 0
                else:
                    assert sum(scores) == 0
                assert event.data["totals"] == list(state.totals) or state.phase != "over"
                # The hand's one winner (a void or shared hand has none) is the top score.
                won = event.data["winners"]
                if event.data["outcome"] == "void" or len(won) != 1:
                    assert event.data["winner"] is None
                else:
                    assert event.data["winner"] == won[0]
                    assert scores[won[0]] == max(scores) > 0
    else:
        pytest.fail(f"game {options} seed {seed} did not end in {MAX_ACTIONS} actions")
    assert max(state.totals) >= state.options.target
    assert state.winners == tuple(p for p, t in enumerate(state.totals) if t == max(state.totals))
    again = replay(game, GameRecord(game.name, options, seed, tuple(record)))
    assert again == state
    return hands, len(record)


CONFIGS: list[tuple[str, dict[str, Any], int, bool]] = [
    ("knock-rummy", {"players": 2}, 100, False),
    ("knock-rummy", {"players": 2, "high_aces": True, "knock_limit": 10, "target": 40}, 150, True),
    ("knock-rummy", {"players": 3, "target": 40}, 400, False),
    ("knock-rummy", {"players": 4, "high_aces": True, "target": 40}, 400, False),
    ("knock-rummy", {"players": 5, "knock_limit": 12, "target": 40}, 200, True),
    ("knock-rummy", {"players": 5, "target": 40}, 400, False),
    ("gin", {"target": 40}, 200, True),
    ("gin", {"high_aces": True, "target": 40}, 50, True),
    ("gin", {}, 30, True),
]


@pytest.mark.parametrize(("name", "options", "games", "greedy"), CONFIGS)
def test_kr_random_full_games(name: str, options: dict[str, Any], games: int, greedy: bool) -> None:
    game = GIN_GAME if name == "gin" else GAME
    total_hands = 0
    for seed in range(games):
        hands, _ = play(game, options, seed * 7919 + 1, greedy, watch=seed < 3)
        total_hands += hands
    assert total_hands >= games


def test_kr_apply_agrees_with_legal_actions() -> None:
    # Every candidate action is accepted by apply exactly when legal_actions lists it.
    rng = random.Random(4)
    for options in ({"players": 2}, {"players": 3, "knock_limit": 9, "high_aces": True}):
        state = GAME.new_game(GAME.options_from_json(options), 17)
        for _ in range(300):
            if state.phase == "over":
                break
            legal = legal_actions(state)
            candidates: list[KnockRummyAction] = [Draw("stock"), Draw("discard"), Rummy(None)]
            for c in DECK_52:
                candidates += [Discard(c), Knock(c), Rummy(c)]
            for action in candidates:
                assert _is_legal(state, action) == (action in legal), action
            state, _ = GAME.apply(state, rng.choice(legal))
