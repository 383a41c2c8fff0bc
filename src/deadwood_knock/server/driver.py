"""Bot driving: one task per match asks the worker pool for each bot move (the event loop
stays free) and stops as soon as a person is to act. With several processes one process
at a time drives a match's bots, holding a lease that another takes over when it dies."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Callable

from deadwood_knock.games.base import Event, JSONDict
from deadwood_knock.server.errors import ApiError
from deadwood_knock.server.live import ACTIVE, LiveMatch, SeatInfo
from deadwood_knock.server.settings import Settings
from deadwood_knock.server.store import LEASE_SECONDS, MatchStore
from deadwood_knock.server.workers import FairScheduler

log = logging.getLogger("deadwood_knock.server.bots")

#: Hands a match's change (its new events) to the match's watchers.
Publish = Callable[[LiveMatch, list[tuple[int, Event]]], None]


class BotDriver:
    def __init__(
        self, store: MatchStore, settings: Settings, scheduler: FairScheduler, publish: Publish
    ) -> None:
        self.store = store
        self.settings = settings
        self.scheduler = scheduler
        self.publish = publish
        self.closing = False
        self._keeper: asyncio.Task[None] | None = None

    def bot_to_act(self, live: LiveMatch) -> SeatInfo | None:
        if live.status != ACTIVE or self.closing:
            return None
        seat = live.game.to_act(live.state)
        if seat is None or seat >= len(live.seats):
            return None
        info = live.seats[seat]
        return info if info.bot else None

    def kick(self, live: LiveMatch) -> None:
        """Start the bots of this match if one of them is to act and none is running."""
        if live.bot_task is not None and not live.bot_task.done():
            return
        if self.bot_to_act(live) is None:
            return
        live.bot_task = asyncio.get_running_loop().create_task(self._drive(live))

    async def _drive(self, live: LiveMatch) -> None:
        store = self.store
        streak = 0  # bot actions since this drive began, i.e. since a person last acted
        try:
            if store.multi:
                # One process drives a match's bots at a time. The holder may be finishing
                # its last move; a moment later the lease is free (or it is still driving).
                for _ in range(20):
                    async with live.lock:
                        await store.catch_up(live)
                    if self.bot_to_act(live) is None:
                        return
                    if await store.acquire(live.id):
                        break
                    await asyncio.sleep(0.1)
                else:
                    return
                async with live.lock:
                    await store.catch_up(live)
            while store.live.get(live.id) is live:
                info = self.bot_to_act(live)
                if info is None or info.bot is None:
                    return
                if streak >= self.settings.max_bot_streak:
                    # Safety net: bots alone must not churn a match (and a worker) forever.
                    # The match stays active; the next person's request or a restart resumes it.
                    log.warning("bots paused in match %s after %d moves in a row", live.id, streak)
                    return
                version = live.version
                started = time.monotonic()
                action_json = await self._decide(live, info)
                pace = self.settings.bot_pacing
                if pace > 0:
                    # Pacing only, not security: a person-like pause before the move shows.
                    wait = pace * random.uniform(0.6, 1.4) - (time.monotonic() - started)
                    if wait > 0:
                        await asyncio.sleep(wait)
                async with live.lock:
                    if live.version != version or self.bot_to_act(live) != info:
                        continue  # the match moved on (a forfeit, another writer): decide again
                    action = live.game.action_from_json(action_json)
                    events = await store.append(live, info.seat, action, None)
                streak += 1
                if store.multi and self.bot_to_act(live) is None:
                    # Free before anyone sees the move: the person's answer may reach
                    # another process, whose bots must then be free to drive.
                    await store.release(live.id)
                self.publish(live, events)
        except asyncio.CancelledError:
            raise
        except ApiError as exc:
            log.warning("bot stopped in match %s: %s", live.id, exc.code)
        except Exception as exc:
            # The message could name cards; the type is enough to investigate.
            log.error("bot failed in match %s: %s", live.id, type(exc).__name__)
        finally:
            if live.id in store.leases and not self.closing:
                with contextlib.suppress(Exception):
                    await store.release(live.id)

    async def _decide(self, live: LiveMatch, info: SeatInfo) -> JSONDict:
        """The bot's choice from the worker pool; a random legal action if that fails, so a
        broken bot or pool never stalls a match."""
        try:
            chosen: JSONDict = await self.scheduler.run(
                live.owner,
                "decide",
                live.id,
                live.record_json(),
                info.seat,
                info.bot or "random",
                secrets.randbits(64),
                self.settings.bot_seconds,
            )
            return chosen
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            # The message could name cards; the type is enough to investigate.
            log.error("bot %s failed in match %s: %s", info.bot, live.id, type(exc).__name__)
            legal = live.game.legal_actions(live.state)
            fallback: JSONDict = legal[secrets.randbelow(len(legal))].to_json()
            return fallback

    async def _lease_keeper(self) -> None:
        """Renew our leases; take over the matches whose holder stopped renewing (died)."""
        while not self.closing:
            await asyncio.sleep(LEASE_SECONDS / 3)
            try:
                for match_id in await self.store.renew_leases():
                    live, _loaded = await self.store.get(match_id)
                    if live is not None:
                        live.behind = max(live.behind, live.version + 1)  # check the log
                        self.kick(live)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.error("bot leases: %s", type(exc).__name__)

    def start(self) -> None:
        if self.store.multi:
            self._keeper = asyncio.get_running_loop().create_task(self._lease_keeper())

    async def close(self) -> None:
        self.closing = True
        if self._keeper is not None:
            self._keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._keeper
        live = self.store.live.values()
        tasks = [m.bot_task for m in live if m.bot_task is not None and not m.bot_task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
