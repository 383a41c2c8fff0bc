"""The bot hand-off: a match's next move goes to the worker that made its last one, with only
the actions since then; a worker that no longer holds the position gets the whole record."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from deadwood_knock.games import get_game
from deadwood_knock.games.base import GameRecord
from deadwood_knock.server.workers import PipeWorkers


def _record_after(moves: int, seed: int = 5) -> GameRecord:
    game = get_game("toy")
    state = game.new_game(game.options_from_json({"turns": 6}), seed)
    actions = []
    rng = random.Random(seed)
    for _ in range(moves):
        action = rng.choice(game.legal_actions(state))
        actions.append(action.to_json())
        state, _ = game.apply(state, action)
    return GameRecord("toy", {"players": 2, "turns": 6}, seed, tuple(actions))


def test_a_move_sends_only_the_actions_since_the_workers_last_one() -> None:
    async def run() -> list[tuple[str, Any]]:
        workers = PipeWorkers(2)
        workers.start()
        await workers.ready()
        sent: list[tuple[str, Any]] = []
        for worker in workers._workers:
            original = worker.conn.send

            def spy(message: Any, original: Any = original) -> None:
                _job, function, args = message
                sent.append((function, args))
                original(message)

            worker.conn.send = spy  # type: ignore[method-assign]
        game = get_game("toy")
        try:
            for moves in (1, 3, 5):  # seat 1 (the bot) is to act after an odd number
                record = _record_after(moves)
                state = game.new_game(game.options_from_json(record.options), record.seed)
                for action in record.actions:
                    state, _ = game.apply(state, game.action_from_json(action))
                chosen = await workers.run(
                    "decide", ("m1", record.to_json(), 1, "random", moves, 0.1)
                )
                assert game.action_from_json(chosen) in game.legal_actions(state)
            # The worker forgot the match (a restart, its cache full): the whole record again.
            holder = next(w for w in workers._workers if "m1" in w.known)
            holder.known["m1"] = 2
            record = _record_after(7)
            await workers.run("decide", ("m1", record.to_json(), 1, "random", 7, 0.1))
        finally:
            await workers.close()
        return sent

    sent = asyncio.run(run())
    decisions = [(f, a) for f, a in sent if f != "warm_up"]
    assert [f for f, _ in decisions] == [
        "decide",
        "decide_tail",
        "decide_tail",
        "decide_tail",
        "decide",
    ]
    # The tails hold the two actions since the previous move, never the whole log.
    assert [len(a[3]) for f, a in decisions if f == "decide_tail"] == [2, 2, 5]
    assert len(decisions[-1][1][1]["actions"]) == 7
