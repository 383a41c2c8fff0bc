"""The search bot's playouts agree with the public engine on the same deals: Deadwood
Knock's run on the engine's core (``bots/dk_playout``), Knock Rummy's and Gin's on the
Knock Rummy core (``bots/kr_playout``)."""

from __future__ import annotations

import random
from typing import Any

from deadwood_knock.bots import dk_playout, get_bot, kr_playout
from deadwood_knock.games import get_game
from deadwood_knock.games.knock_rummy.core import OVER
from deadwood_knock.games.knock_rummy.rules import table_of

PLAYERS = ["greedy", "tenderfoot", "gambler", "random", "legend", "cautious"]


def _play_round(game_name: str, options: dict[str, Any], seed: int) -> tuple[Any, list[Any], Any]:
    """Play one round/hand in the engine: (first state, [(seat, action)...], last events)."""
    game = get_game(game_name)
    state = game.new_game(game.options_from_json(options), seed)
    first = state
    rng = random.Random(seed)
    moves = []
    n = options["players"]
    bots = [get_bot(PLAYERS[(seed + s) % len(PLAYERS)]) for s in range(n)]
    while True:
        seat = game.to_act(state)
        assert seat is not None
        legal = game.legal_actions(state)
        action = bots[seat].act(game, game.observe(state, seat), legal, rng)
        moves.append((seat, action))
        state, events = game.apply(state, action)
        if any(e.kind in ("round_result", "hand_result") for e in events):
            return first, moves, events


def test_dk_playouts_score_rounds_like_the_engine() -> None:
    # A playout core (no events, scores from the evaluator's rows) replays the engine's
    # round and scores it alike; the same seed reshuffles alike, so no round is skipped.
    compared = 0
    for seed in range(120):
        n = 2 + seed % 5
        options = {"players": n, "rounds": 1, "sleight_of_hand": seed % 2 == 0}
        first, moves, events = _play_round("deadwood-knock", options, seed)
        position = dk_playout.dealt(first)
        assert position.phase == "play"
        for seat, action in moves:
            assert dk_playout.apply_action(position, seat, action), (seed, action)
        assert position.phase == "over"
        result = next(e for e in events if e.kind == "round_result").data
        expected = [a + b for a, b in zip(result["round_scores"], result["suspicion"], strict=True)]
        assert list(position.round_scores) == expected, seed
        compared += 1
    assert compared >= 80


def test_kr_playout_table_settles_hands_like_the_engine() -> None:
    compared = 0
    for seed in range(80):
        n = 2 + seed % 4
        options = {"players": n, "target": 1}
        first, moves, events = _play_round("knock-rummy", options, seed)
        position = table_of(first, single_hand=True)
        for seat, action in moves:
            assert kr_playout.apply_action(position, seat, action), (seed, action)
        result = next(e for e in events if e.kind == "hand_result").data
        assert position.phase == OVER
        assert position.hand_scores == list(result["scores"]), seed
        compared += 1
    assert compared == 80
