"""Hand Focus hints: the strong bot's ranked actions for a person's seat, searched in the
bot pool from that seat's observation alone (never the record or the seed), once per
position, and scheduled fairly across players."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import OrderedDict

from deadwood_knock.games.base import JSONDict
from deadwood_knock.server.answers import HintAnswer
from deadwood_knock.server.errors import ApiError, conflict
from deadwood_knock.server.live import ACTIVE, LiveMatch
from deadwood_knock.server.ratelimit import RateLimiter, check_quota
from deadwood_knock.server.settings import Settings
from deadwood_knock.server.workers import FairScheduler

log = logging.getLogger("deadwood_knock.server.hints")

#: Hints remembered per (match, seat, version), so a repeated request costs no search.
HINT_CACHE = 256


class HintService:
    def __init__(self, settings: Settings, scheduler: FairScheduler, limiter: RateLimiter) -> None:
        self.settings = settings
        self.scheduler = scheduler
        self.limiter = limiter
        self._hints: OrderedDict[tuple[str, int, int], asyncio.Future[JSONDict]] = OrderedDict()

    async def hint(self, live: LiveMatch, seat: int) -> HintAnswer:
        """The strong bot's ranked actions for ``seat``. Off the seat's turn the hint is
        ``None`` (an answer, not an error: a client's request can race the bots' moves); a
        finished match is a 409."""
        if live.status != ACTIVE:
            raise conflict("match_finished", "the match is over")
        key = (live.id, seat, live.version)
        if live.game.to_act(live.state) != seat:
            return {
                "match_id": live.id,
                "seat": seat,
                "version": key[2],
                "your_turn": False,
                "hint": None,
            }
        pending = self._hints.get(key)
        if pending is None:
            owner = live.seat_owner(seat)
            await check_quota(self.limiter, f"hint:{owner}", self.settings.hint_limit, "hints")
            # One search per position: concurrent and repeated requests share it.
            observation = live.observation(seat)
            pending = asyncio.ensure_future(self._search(owner, live.game_name, observation))
            self._hints[key] = pending
            while len(self._hints) > HINT_CACHE:
                self._hints.popitem(last=False)
        try:
            found = await asyncio.shield(pending)
        except ApiError:
            self._hints.pop(key, None)
            raise
        return {
            "match_id": live.id,
            "seat": seat,
            "version": key[2],
            "your_turn": True,
            "hint": found,
        }

    async def _search(self, owner: str, game_name: str, observation: JSONDict) -> JSONDict:
        try:
            found: JSONDict = await self.scheduler.run(
                owner,
                "hint",
                game_name,
                observation,
                self.settings.hint_seconds,
                secrets.randbits(64),
            )
            return found
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            # The message could name cards; the type is enough to investigate.
            log.error("hint failed for %s: %s", game_name, type(exc).__name__)
            raise ApiError(503, "hint_unavailable", "no hint for this position") from None
