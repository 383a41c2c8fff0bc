"""Fan-out of match updates to the WebSockets watching a match (one process, in memory)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from deadwood_knock.games.base import Event

QUEUE_LIMIT = 1000


@dataclass(eq=False)
class Subscriber:
    seat: int
    queue: asyncio.Queue[dict[str, Any]] = field(
        default_factory=lambda: asyncio.Queue(maxsize=QUEUE_LIMIT)
    )
    overflowed: bool = False


class Hub:
    def __init__(self) -> None:
        self._subs: dict[str, set[Subscriber]] = {}

    def subscribe(self, match_id: str, seat: int) -> Subscriber:
        sub = Subscriber(seat)
        self._subs.setdefault(match_id, set()).add(sub)
        return sub

    def unsubscribe(self, match_id: str, sub: Subscriber) -> None:
        subs = self._subs.get(match_id)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self._subs[match_id]

    def watching(self, match_id: str) -> int:
        return len(self._subs.get(match_id, ()))

    def publish(
        self,
        match_id: str,
        events: list[tuple[int, Event]],
        view_for: Callable[[int], dict[str, Any]],
    ) -> None:
        """Each watcher gets the events its seat may see, then its seat's new view."""
        for sub in list(self._subs.get(match_id, ())):
            messages: list[dict[str, Any]] = [
                {"type": "event", "version": version, "event": event.to_json()}
                for version, event in events
                if event.visible_to(sub.seat)
            ]
            messages.append({"type": "view", "view": view_for(sub.seat)})
            for message in messages:
                try:
                    sub.queue.put_nowait(message)
                except asyncio.QueueFull:
                    # A reader this far behind is dropped; it reconnects and gets a fresh view.
                    sub.overflowed = True
                    break
