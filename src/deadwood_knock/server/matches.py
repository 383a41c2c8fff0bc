"""Authoritative matches: create, view, act, forfeit, with bots taking their turns.

The work is split by concern: :mod:`.store` keeps live matches over the database log,
:mod:`.views` builds what a seat sees, :mod:`.driver` drives the bots, :mod:`.hints`
searches Hand Focus hints. This service checks a person's request against the live
state and ties them together: an action is logged, then answered, then published to the
match's watchers, then the bots carry on.
"""

from __future__ import annotations

import logging
import re
import secrets
from collections import deque
from collections.abc import Mapping
from typing import Any

from deadwood_knock.bots import resolve_bot_name
from deadwood_knock.content.loader import load_content
from deadwood_knock.games import get_game
from deadwood_knock.games.base import Event, Game, GameError
from deadwood_knock.persistence import Database, Player
from deadwood_knock.server.answers import HintAnswer, MatchSummary
from deadwood_knock.server.driver import BotDriver
from deadwood_knock.server.errors import ApiError, conflict, invalid, not_found
from deadwood_knock.server.hints import HintService
from deadwood_knock.server.hub import Hub
from deadwood_knock.server.live import ACTIVE, LiveMatch, SeatInfo
from deadwood_knock.server.ratelimit import MemoryRateLimiter, RateLimiter, check_quota
from deadwood_knock.server.settings import Settings
from deadwood_knock.server.store import FinishHook, MatchStore
from deadwood_knock.server.views import Shown, seat_messages, shown
from deadwood_knock.server.workers import FairScheduler
from deadwood_knock.trail.progress import bot_seat_name

log = logging.getLogger("deadwood_knock.server.matches")

#: What a match id can look like (ours are 32 hex digits).
_MATCH_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


class MatchService:
    def __init__(
        self,
        db: Database,
        settings: Settings,
        scheduler: FairScheduler,
        hub: Hub,
        limiter: RateLimiter | None = None,
    ) -> None:
        self.limiter = limiter or MemoryRateLimiter()
        self.settings = settings
        self.hub = hub
        self.store = MatchStore(db, settings, pinned=lambda match_id: hub.watching(match_id) > 0)
        self.bots = BotDriver(self.store, settings, scheduler, self._published)
        self.hints = HintService(settings, scheduler, self.limiter)

    @property
    def live(self) -> dict[str, LiveMatch]:
        return self.store.live

    @property
    def finish_hooks(self) -> list[FinishHook]:
        return self.store.finish_hooks

    # ----- creating and loading -------------------------------------------------------

    def game(self, name: str) -> Game[Any, Any]:
        try:
            return get_game(name)
        except GameError as exc:
            raise invalid("unknown_game", str(exc)) from None

    async def create(
        self,
        player: Player,
        game_name: str,
        opponents: list[str],
        options: Mapping[str, Any],
        table_id: str | None = None,
    ) -> LiveMatch:
        game = self.game(game_name)
        active = await self.store.active_count(player.id)
        if active >= self.settings.max_active_matches:
            raise ApiError(
                429,
                "too_many_matches",
                f"you have {active} matches in play (at most "
                f"{self.settings.max_active_matches}); finish or forfeit one first",
            )
        await check_quota(
            self.limiter, f"create:{player.id}", self.settings.match_create_limit, "new matches"
        )
        try:
            # Names are case-insensitive and a character may drop "figure:": store the
            # registered spelling, which is what the clients read.
            opponents = [resolve_bot_name(bot_name) for bot_name in opponents]
        except GameError as exc:
            raise invalid("unknown_bot", str(exc)) from None
        players = 1 + len(opponents)
        if not game.min_players <= players <= game.max_players:
            raise invalid(
                "bad_player_count",
                f"{game_name} takes {game.min_players}-{game.max_players} players "
                f"(you and {game.min_players - 1}-{game.max_players - 1} opponents); got {players}",
            )
        merged = dict(options)
        merged.setdefault("players", players)
        if merged["players"] != players:
            raise invalid(
                "bad_options", f"options.players is {merged['players']} but {players} are seated"
            )
        try:
            parsed = game.options_from_json(merged)
            if "sleight_of_hand" not in options and hasattr(parsed, "sleight_of_hand"):
                # A game with the Sleight of Hand table option takes it from the
                # profile unless the request sets it.
                merged["sleight_of_hand"] = player.sleight_of_hand
                parsed = game.options_from_json(merged)
            canonical = dict(parsed.to_json()) if hasattr(parsed, "to_json") else merged
            seed = secrets.randbits(63)
            state = game.new_game(parsed, seed)
        except (GameError, TypeError, ValueError, KeyError) as exc:
            raise invalid("bad_options", f"invalid options: {exc}") from None
        seats = (
            SeatInfo(0, player.id, None, player.name or "Player"),
            *(
                SeatInfo(i, None, bot, bot_seat_name(load_content(), table_id, bot))
                for i, bot in enumerate(opponents, 1)
            ),
        )
        live = LiveMatch(
            id=secrets.token_hex(16),
            game_name=game_name,
            game=game,
            options=canonical,
            seed=seed,
            seats=seats,
            state=state,
            version=0,
            status=ACTIVE,
            result=None,
            table_id=table_id,
            actions=[],
            recent=deque(maxlen=self.settings.recent_events),
        )
        await self.store.insert(live)
        self.bots.kick(live)
        return live

    async def get(self, match_id: str) -> LiveMatch | None:
        live, loaded = await self.store.get(match_id)
        if live is not None and loaded:
            self.bots.kick(live)  # a match loaded from its log carries on
        return live

    async def get_for(self, player: Player, match_id: str) -> tuple[LiveMatch, int]:
        """The match and the player's seat; a match without the player is "not found"."""
        return await self.get_for_id(player.id, match_id)

    async def get_for_id(self, player_id: str, match_id: str) -> tuple[LiveMatch, int]:
        """:meth:`get_for` by the player's id."""
        if not _MATCH_ID.fullmatch(match_id):
            raise not_found()  # never a query with a NUL or worse (PostgreSQL refuses NUL)
        live = await self.get(match_id)
        seat = None if live is None else live.seat_of(player_id)
        if live is None or seat is None:
            raise not_found()
        await self.store.fresh(live)
        self.bots.kick(live)  # resumes bots paused by the streak cap (a no-op when they run)
        return live, seat

    async def resume_all(self) -> int:
        """After a start: load every active match and let bots whose turn it is carry on."""
        match_ids = await self.store.active_ids()
        for match_id in match_ids:
            try:
                await self.get(match_id)
            except Exception:
                log.exception("could not resume match %s", match_id)
        return len(match_ids)

    async def list_for(self, player: Player) -> list[MatchSummary]:
        return await self.store.list_for(player)

    async def hint(self, live: LiveMatch, seat: int) -> HintAnswer:
        return await self.hints.hint(live, seat)

    # ----- acting --------------------------------------------------------------------

    async def act(
        self,
        live: LiveMatch,
        seat: int,
        action_json: object,
        client_action_id: str | None = None,
        expected_version: int | None = None,
    ) -> Shown:
        """Apply one of the seat's legal actions; the answer is the seat's new view."""
        async with live.lock:
            if self.store.multi and (
                live.behind > live.version
                or (expected_version is not None and expected_version > live.version)
            ):
                await self.store.catch_up(live)
            if client_action_id is not None and client_action_id in live.client_ids:
                return shown(live, seat)  # the same post again: applied once already
            if live.status != ACTIVE:
                raise conflict("match_finished", "the match is over")
            if expected_version is not None and expected_version != live.version:
                raise conflict(
                    "version_conflict",
                    f"the match is at version {live.version}, not {expected_version}; reload",
                    version=live.version,
                )
            if live.game.to_act(live.state) != seat:
                raise conflict("not_your_turn", "it is not your turn")
            if not isinstance(action_json, Mapping):
                raise invalid("bad_action", "action must be a JSON object")
            try:
                action = live.game.action_from_json(action_json)
            except (GameError, TypeError, ValueError, KeyError) as exc:
                raise invalid("bad_action", f"not an action: {exc}") from None
            # The engine's own reason (it names only the player's own cards and the phase).
            reason = live.game.reason(live.state, action)
            if reason is not None:
                raise invalid("illegal_action", f"{reason}; choose one of legal_actions")
            new_events = await self.store.append(live, seat, action, client_action_id)
        self._published(live, new_events)
        self.bots.kick(live)
        return shown(live, seat)

    async def forfeit(self, live: LiveMatch, seat: int) -> Shown:
        """The seat gives up: the match ends and counts as that player's loss."""
        async with live.lock:
            if live.status != ACTIVE:
                raise conflict("match_finished", "the match is over")
            event = await self.store.forfeit(live, seat)
        self._published(live, [event])
        return shown(live, seat)

    def _published(self, live: LiveMatch, events: list[tuple[int, Event]]) -> None:
        """Each watcher gets the events its seat may see, then its seat's new view. With
        other processes, every person's seat is sent (a watcher may be on any of them)."""
        if self.hub.bridge is not None:
            seats = {info.seat for info in live.seats if info.player_id is not None}
        else:
            seats = self.hub.watched_seats(live.id)
        per_seat = seat_messages(live, events, seats)
        if per_seat:
            self.hub.publish(live.id, per_seat, live.version)

    # ----- several processes and the lifecycle --------------------------------------------

    def remote_update(self, match_id: str, version: int) -> None:
        """Another process moved this match on: our copy catches up before its next use."""
        self.store.remote_update(match_id, version)

    def start(self) -> None:
        self.bots.start()

    async def close(self) -> None:
        await self.bots.close()
