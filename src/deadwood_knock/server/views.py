"""What a client is shown: a seat's view of a match, the socket messages after a change,
a player's profile. Built from the seat's observation only: never another seat's hidden
cards, the stock order or the seed."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import NamedTuple

import orjson

from deadwood_knock.games.base import Event, JSONDict
from deadwood_knock.persistence import Player
from deadwood_knock.server.answers import MatchView, Profile
from deadwood_knock.server.hub import SeatMessages
from deadwood_knock.server.live import ACTIVE, LiveMatch


def encode(message: object) -> str:
    """JSON text as sent (compact, UTF-8 as is). orjson writes the same text as
    ``json.dumps(message, separators=(",", ":"), ensure_ascii=False)`` for the plain
    values a view holds, several times faster (a view is about 8 KB and three are made per
    player action); anything it refuses (keys that are not strings, integers past 64 bits,
    lone surrogates) falls back to ``json``."""
    try:
        return orjson.dumps(message).decode()
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


class Shown(NamedTuple):
    """A seat's view and its JSON text, built and encoded once per version: the action's
    answer, the socket's message and a page load share them. Never mutate ``view``."""

    view: MatchView
    text: str


def shown(live: LiveMatch, seat: int) -> Shown:
    """The seat's view at the match's current version and status, from the match's cache."""
    key = (live.version, live.status, seat)
    found = live.views.get(key)
    if found is None:
        if live.views and next(iter(live.views))[:2] != key[:2]:
            live.views.clear()
        view = _build_view(live, seat)
        found = live.views[key] = Shown(view, encode(view))
    return found


def seat_view(live: LiveMatch, seat: int) -> MatchView:
    """Everything ``seat`` may see: its observation, never another seat's hidden cards.
    Shared with the match's cache: read it, never change it."""
    return shown(live, seat).view


def _event_json(live: LiveMatch, version: int, event: Event) -> tuple[JSONDict, JSONDict]:
    """An event's JSON, and with its version (as in ``recent_events``), made once per event:
    every view lists the last ``recent_events`` of them."""
    cache = live.event_json
    # By version too: an engine may hand out one event object more than once. The cache
    # holds the event itself, so its id cannot be reused while it is cached.
    key = (version, id(event))
    found = cache.get(key)
    if found is None or found[0] is not event:
        plain = live.json_of(event)
        found = cache[key] = (event, plain, {"version": version, **plain})
        if len(cache) > 2 * len(live.recent) + 64:
            keep = {(v, id(e)) for v, e in live.recent}
            for stale in [stale for stale in cache if stale not in keep]:
                del cache[stale]
    return found[1], found[2]


def _build_view(live: LiveMatch, seat: int) -> MatchView:
    game, state = live.game, live.state
    obs = live.observation(seat)
    to_act = game.to_act(state) if live.status == ACTIVE else None
    legal = (
        [a.to_json() for a in game.legal_actions(state)]
        if live.status == ACTIVE and to_act == seat
        else []
    )
    round_no, rounds = obs.get("round"), obs.get("rounds")
    unit = game.facts.unit  # what one deal is called: "round 4 of 10", "hand 3"
    if round_no is None:
        label = None
    elif rounds:
        label = f"{unit} {round_no} of {rounds}"
    else:
        label = f"{unit} {round_no}"
    return {
        "match_id": live.id,
        "game": live.game_name,
        "status": live.status,
        "version": live.version,
        "seat": seat,
        "players": [s.to_json() for s in live.seats],
        "to_act": to_act,
        "your_turn": bool(legal),
        "legal_actions": legal,
        "scores": list(game.scores(state)),
        "round": round_no,
        "rounds": rounds,
        "round_label": label,
        "final_turn": bool(obs.get("final_turn", False)),
        "observation": obs,
        "recent_events": [_event_json(live, v, e)[1] for v, e in live.recent if e.visible_to(seat)],
        "result": live.result,
        "table_id": live.table_id,
    }


def seat_messages(
    live: LiveMatch, events: list[tuple[int, Event]], seats: Iterable[int]
) -> SeatMessages:
    """For each seat: one ``event`` message per event it may see, then its new ``view``,
    each as the JSON text sent (every watcher of a seat gets the same text)."""
    per_seat: SeatMessages = {}
    encoded: list[tuple[Event, str]] = [
        (
            event,
            encode(
                {"type": "event", "version": version, "event": _event_json(live, version, event)[0]}
            ),
        )
        for version, event in events
    ]
    for seat in seats:
        messages = [text for event, text in encoded if event.visible_to(seat)]
        messages.append('{"type":"view","view":' + shown(live, seat).text + "}")
        per_seat[seat] = messages
    return per_seat


def profile(player: Player) -> Profile:
    return {
        "player_id": player.id,
        "name": player.name,
        "likeness": player.likeness,
        "card_back": player.card_back,
        "large_print": player.large_print,
        "sleight_of_hand": player.sleight_of_hand,
        "email": player.email,
        "stats": player.stats or {},
        "progress": player.progress or {},
    }
