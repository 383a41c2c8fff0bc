"""The server's bots think for their own default budget unless ``bot_seconds`` is set: a
``strong`` seat at an API table costs the worker pool what it costs in the arena (0.15 s
a move in Deadwood Knock, 0.18 s in Knock Rummy and Gin, at most 600 iterations), not the
1 s the server used to hand every bot."""

from __future__ import annotations

import asyncio
import random
from types import SimpleNamespace
from typing import Any

import pytest

from deadwood_knock.bots import Budget
from deadwood_knock.games import get_game
from deadwood_knock.games.base import GameRecord
from deadwood_knock.server import botpool
from deadwood_knock.server.driver import BotDriver
from deadwood_knock.server.settings import Settings


def test_bot_seconds_defaults_to_the_bots_own_budget_and_is_still_settable() -> None:
    assert Settings().bot_seconds is None
    assert Settings.from_env({}).bot_seconds is None
    assert Settings.from_env({"DEADWOOD_BOT_SECONDS": "0.4"}).bot_seconds == 0.4
    assert Settings(bot_seconds=1.0).bot_seconds == 1.0
    with pytest.raises(ValueError):
        Settings(bot_seconds=0)


class _Scheduler:
    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    async def run(self, owner: Any, function: str, *args: Any) -> Any:
        self.calls.append((function, *args))
        return {"type": "stand"}


@pytest.mark.parametrize(("configured", "sent"), [(None, None), (0.4, 0.4)])
def test_the_driver_sends_the_configured_seconds_or_none(
    configured: float | None, sent: float | None
) -> None:
    scheduler = _Scheduler()
    driver = BotDriver(
        None,  # type: ignore[arg-type]  # _decide never reads the store
        Settings(bot_seconds=configured),
        scheduler,  # type: ignore[arg-type]
        lambda *_: None,
    )
    live = SimpleNamespace(owner="p", id="m1", record_json=lambda: {"record": 1})
    info = SimpleNamespace(seat=1, bot="strong")
    asyncio.run(driver._decide(live, info))  # type: ignore[arg-type]
    ((function, *args),) = scheduler.calls
    assert function == "decide"
    assert args[-1] == sent


def _dk_record() -> tuple[GameRecord, int]:
    """A new two-player Deadwood Knock match and the seat to act."""
    game = get_game("deadwood-knock")
    state = game.new_game(game.options_from_json({"players": 2}), 11)
    seat = game.to_act(state)
    assert seat is not None
    return GameRecord("deadwood-knock", {"players": 2}, 11, ()), seat


@pytest.mark.parametrize(("seconds", "budget"), [(None, None), (0.3, Budget(0.3))])
def test_the_worker_hands_the_bot_no_budget_unless_seconds_are_given(
    monkeypatch: pytest.MonkeyPatch, seconds: float | None, budget: Budget | None
) -> None:
    """No seconds: the bot gets ``None`` and picks its own default (a ``Budget()`` with
    neither limit would let a search run for ever)."""
    seen: list[Budget | None] = []

    class Spy:
        name = "spy"

        def act(
            self,
            game: Any,
            observation: Any,
            legal: Any,
            rng: random.Random,
            budget: Budget | None = None,
        ) -> Any:
            seen.append(budget)
            return legal[0]

    monkeypatch.setattr(botpool, "get_bot", lambda name: Spy())
    record, seat = _dk_record()
    botpool.decide(f"budget-{seconds}", record.to_json(), seat, "spy", 1, seconds)
    assert seen == [budget]
