"""Randomized full Deadwood Knock matches for every player count, with and without
Sleight of Hand (DK9) and manual split: invariants after every action, and replays."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from deadwood_knock.cards import DECK_54
from deadwood_knock.games.base import GameRecord, IllegalActionError, replay
from deadwood_knock.games.deadwood_knock import (
    GAME,
    Draw,
    Knock,
    Reveal,
    evaluate,
    observe,
)
from deadwood_knock.games.deadwood_knock.rules import DeadwoodKnockState

GAMES_PER_CONFIG = 150
MAX_ACTIONS = 5_000

PROBES: list[Any] = [
    Knock(),
    *(Draw(c, src) for c in DECK_54[::7] for src in ("stock", "discard", "palm")),
    Reveal(tuple(DECK_54[:5])),
]


def check_cards(state: DeadwoodKnockState) -> None:
    # DK1: each of the 54 cards in exactly one place; every hand holds 8.
    every = [c for h in state.hands for c in h]
    assert all(len(h) == 8 for h in state.hands)
    every += [*state.stock, *state.discard, *state.covers]
    assert sorted(every) == list(DECK_54)
    assert state.discard


def check_result(data: dict[str, Any], players: int) -> None:
    pot = data["pot"]
    if data["knocker"] is None:
        assert data["dry"] and pot == [0] * players
    else:
        called = [s for s in range(players) if data["calls"][s] == "call"]
        if not called:
            assert pot[data["knocker"]] == 10 and sum(pot) == 10
        else:
            ins = [data["knocker"], *called]
            winners = sum(1 for s in ins if pot[s] > -10)
            # Ties split 10*ins rounded down; the remainder is lost (DK6).
            assert sum(pot) == -((10 * len(ins)) % winners)
            folded = [s for s in range(players) if data["calls"][s] == "fold"]
            assert all(pot[s] == 0 for s in folded)
    for s in range(players):
        assert data["round_scores"][s] == (
            data["hand_points"][s] - data["deadwood_points"][s] + pot[s]
        )
        assert data["suspicion"][s] in (0, -5)
    # The round's winner: the one top round score of a round with a knock, never a seat
    # that folded; with Suspicion added it is still the one top seat.
    scores = data["round_scores"]
    top = [s for s in range(players) if scores[s] == max(scores)]
    if data["dry"] or len(top) > 1 or data["calls"][top[0]] == "fold":
        assert data["winner"] is None
    else:
        assert data["winner"] == top[0]
        marked = [scores[s] + data["suspicion"][s] for s in range(players)]
        assert [s for s in range(players) if marked[s] == max(marked)] == top


def check_observation(state: DeadwoodKnockState, seat: int) -> None:
    obs = observe(state, seat)
    data = obs.to_json()
    text = json.dumps(data)
    assert '"seed"' not in text
    for event in obs.events:
        assert event.private_to in (None, seat)
    # Hidden cards: other seats' cards not publicly known, and the whole stock.
    visible = {str(c) for c in (*obs.hand, *obs.discard_pile, *obs.covers)}
    visible |= {str(c) for k in obs.known_cards for c in k}
    hidden = {str(c) for c in state.stock}
    for other in range(state.players):
        if other != seat:
            hidden |= {str(c) for c in state.hands[other] if c not in state.known[other]}
    hidden -= visible
    for key in ("events", "results", "last_result"):
        data.pop(key)  # history may name cards that have since moved
    static = json.dumps(data)
    for card in hidden:
        assert f'"{card}"' not in static


def play_match(players: int, sleight: bool, seed: int, counts: dict[str, int]) -> None:
    rng = random.Random(seed)
    options = {
        "players": players,
        "rounds": rng.choice((1, 1, 2, 3)),
        "sleight_of_hand": sleight,
        "manual_split": seed % 5 == 0,
    }
    state = GAME.new_game(GAME.options_from_json(options), seed)
    actions = []
    totals = [0] * players
    for step in range(MAX_ACTIONS):
        if GAME.is_over(state):
            break
        check_cards(state)
        legal = GAME.legal_actions(state)
        assert legal and len(set(legal)) == len(legal)
        if step % 9 == 0:
            bad = next(a for a in rng.sample(PROBES, len(PROBES)) if a not in legal)
            before = GAME.position_to_json(state)
            with pytest.raises(IllegalActionError):
                GAME.apply(state, bad)
            assert GAME.position_to_json(state) == before
        if step % 11 == 0:
            check_observation(state, rng.randrange(players))
        action = rng.choice(legal)
        seat = state.to_act
        assert seat is not None
        if isinstance(action, Knock):
            assert evaluate(state.hands[seat]).knock_count <= 11
        actions.append(action.to_json())
        state, events = GAME.apply(state, action)
        counts["actions"] += 1
        for event in events:
            if event.kind == "stock_card":
                assert event.private_to == seat
            if event.kind == "round_result":
                data = event.to_json()
                check_result(data, players)
                totals = [
                    totals[s] + data["round_scores"][s] + data["suspicion"][s]
                    for s in range(players)
                ]
                assert data["totals"] == totals
                counts["hands"] += 1
                counts["dry"] += data["dry"]
                counts["called"] += any(c == "call" for c in data["calls"])
            if event.kind == "reshuffle":
                counts["reshuffles"] += 1
            if event.kind == "draw" and event.data["source"] == "palm":
                counts["palms"] += 1
    else:
        raise AssertionError("match did not end")
    assert GAME.is_over(state)
    assert list(GAME.scores(state)) == totals
    assert len(state.results) == options["rounds"]
    check_observation(state, 0)
    record = GameRecord.from_json(
        json.loads(json.dumps(GameRecord(GAME.name, options, seed, tuple(actions)).to_json()))
    )
    assert replay(GAME, record) == state
    counts["games"] += 1


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("sleight", [False, True], ids=["plain", "dk9_sleight"])
def test_dk1_to_dk10_random_matches_keep_every_invariant(players: int, sleight: bool) -> None:
    counts = {
        "games": 0,
        "hands": 0,
        "actions": 0,
        "dry": 0,
        "called": 0,
        "palms": 0,
        "reshuffles": 0,
    }
    for game in range(GAMES_PER_CONFIG):
        play_match(players, sleight, 1000 * players + 2 * game + sleight, counts)
    assert counts["games"] == GAMES_PER_CONFIG
    assert counts["hands"] >= GAMES_PER_CONFIG
    # The random walk must actually reach the interesting rules.
    assert counts["called"] > 0
    assert (counts["palms"] > 0) == sleight
    print(f"players={players} sleight={sleight} {counts}")
