"""One local table: the person in seat 0 against bots, driven through the engine API.

The session holds the full state but hands out only seat observations: the screen is
drawn from ``observation()`` (the person's seat) and each bot is given its own seat's
observation. Controls come from ``legal()``; nothing here decides a rule.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from deadwood_knock.bots import Budget, get_bot, resolve_bot_name
from deadwood_knock.bots.base import Bot
from deadwood_knock.games import facts, get_game
from deadwood_knock.games.base import Event, GameError, derive_rng
from deadwood_knock.trail.figure_bots import figure_display_name, register_figure_bots
from deadwood_knock.tui.talk import TableTalk
from deadwood_knock.tui.words import describe_event

__all__ = ["DEFAULT_OPPONENTS", "HUMAN_SEAT", "Session", "seat_names"]

HUMAN_SEAT = 0
_BOT_STREAM = 0xB07  # keeps bot RNGs apart from the engine's deal streams

#: Who sits down with you when you name nobody: characters a new player can learn from
#: (patient enough that a round rarely ends before your first turn), the same as the web
#: client's quick tables (``web/app/screens.js``).
DEFAULT_OPPONENTS: dict[str, tuple[str, ...]] = {
    "deadwood-knock": ("lottie-deno", "luke-short"),
    "knock-rummy": ("luke-short",),
    "gin": ("bat-masterson",),
}


class Session:
    """A game in progress; not thread-safe for writes (the app applies on its own thread)."""

    def __init__(
        self,
        game_name: str = "deadwood-knock",
        opponents: Sequence[str] | None = None,
        seed: int = 1,
        *,
        sleight_of_hand: bool = False,
        rounds: int | None = None,
        target: int | None = None,
        budget: Budget | None = None,
    ) -> None:
        register_figure_bots()
        self.game = get_game(game_name)
        if opponents is None:
            opponents = DEFAULT_OPPONENTS.get(self.game.name, ("luke-short",))
        if not opponents:
            raise GameError("name at least one opponent")
        opponents = [resolve_bot_name(name) for name in opponents]
        self.bots: list[Bot | None] = [None, *(get_bot(name) for name in opponents)]
        players = len(self.bots)
        options: dict[str, Any] = {"players": players}
        if facts(game_name).poker_split:
            options["sleight_of_hand"] = sleight_of_hand
            if rounds is not None:
                options["rounds"] = rounds
        elif target is not None:
            options["target"] = target
        self.seed = seed
        self.state = self.game.new_game(self.game.options_from_json(options), seed)
        self.names = ["You", *seat_names(opponents)]
        # The characters' table talk: a line after the events they answer (see tui/talk.py).
        self.talk = TableTalk.for_bots([None, *opponents], seed, HUMAN_SEAT)
        self.budget = budget or Budget(seconds=0.2)
        self._rngs = [derive_rng(seed, _BOT_STREAM, s) for s in range(players)]
        self.log: list[str] = []
        self.log_dropped = 0  # lines trimmed off the front: line i of all time is log[i - this]
        self._record(self.observation().events)

    @property
    def name(self) -> str:
        return str(self.game.name)

    def observation(self) -> Any:
        return self.game.observe(self.state, HUMAN_SEAT)

    def legal(self) -> tuple[Any, ...]:
        """The person's legal actions (empty when it is not their turn)."""
        if self.game.to_act(self.state) != HUMAN_SEAT:
            return ()
        return tuple(self.game.legal_actions(self.state))

    def over(self) -> bool:
        return bool(self.game.is_over(self.state))

    def bot_to_act(self) -> int | None:
        seat = self.game.to_act(self.state)
        if seat is None or seat == HUMAN_SEAT or self.over():
            return None
        return int(seat)

    def choose_bot_action(self, seat: int) -> Any:
        """The bot's choice from its own seat's observation only (safe off the UI thread:
        it reads the current immutable state and changes nothing)."""
        bot = self.bots[seat]
        assert bot is not None
        obs = self.game.observe(self.state, seat)
        legal = self.game.legal_actions(self.state)
        return bot.act(self.game, obs, legal, self._rngs[seat], self.budget)

    def apply(self, action: Any) -> tuple[Event, ...]:
        self.state, events = self.game.apply(self.state, action)
        self._record(events)
        return tuple(events)

    def _record(self, events: Sequence[Event]) -> None:
        for event in events:
            line = describe_event(event, self.names, HUMAN_SEAT)
            if line:
                self.log.append(line)
            remark = self.talk.hear(event)
            if remark is not None:
                self.log.append(remark.line(self.names))
        extra = len(self.log) - 200  # keep the log short; the screen keeps its own copy
        if extra > 0:
            del self.log[:extra]
            self.log_dropped += extra


def seat_names(bots: Sequence[str]) -> list[str]:
    """What the screen calls each bot seat: a character by its name ("Luke Short"), another
    bot by its name and seat ("Greedy (2)", "High Roller (3)" as the web writes
    ``high_roller``); a name twice at the table gets its seat too."""
    plain = [
        figure_display_name(name) or f"{name.replace('_', ' ').replace('-', ' ').title()} ({i})"
        for i, name in enumerate(bots, 2)
    ]
    return [
        f"{name} ({i})" if plain.count(name) > 1 and not name.endswith(f"({i})") else name
        for i, name in enumerate(plain, 2)
    ]


def opponent_list(text: str | None) -> list[str] | None:
    """Bot names from ``--bots`` (``None``: the game's default characters)."""
    if text is None:
        return None
    return [name.strip() for name in text.split(",") if name.strip()]


def seeded(seed: int | None) -> int:
    return seed if seed is not None else random.SystemRandom().randrange(1 << 31)
