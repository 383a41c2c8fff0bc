"""What a client is shown: a seat's view of a match, the socket messages after a change,
a player's profile. Built from the seat's observation only: never another seat's hidden
cards, the stock order or the seed."""

from __future__ import annotations

from collections.abc import Iterable

from deadwood_knock.games.base import Event, JSONDict
from deadwood_knock.persistence import Player
from deadwood_knock.server.answers import MatchView, Profile
from deadwood_knock.server.hub import SeatMessages
from deadwood_knock.server.live import ACTIVE, LiveMatch


def seat_view(live: LiveMatch, seat: int) -> MatchView:
    """Everything ``seat`` may see: its observation, never another seat's hidden cards."""
    game, state = live.game, live.state
    obs = live.observation(seat)
    to_act = game.to_act(state) if live.status == ACTIVE else None
    legal = (
        [a.to_json() for a in game.legal_actions(state)]
        if live.status == ACTIVE and to_act == seat
        else []
    )
    round_no, rounds = obs.get("round"), obs.get("rounds")
    if round_no is None:
        label = None
    elif rounds:
        label = f"round {round_no} of {rounds}"
    else:
        label = f"round {round_no}"
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
        "recent_events": [
            {"version": v, **e.to_json()} for v, e in live.recent if e.visible_to(seat)
        ],
        "result": live.result,
        "table_id": live.table_id,
    }


def seat_messages(
    live: LiveMatch, events: list[tuple[int, Event]], seats: Iterable[int]
) -> SeatMessages:
    """For each seat: one ``event`` message per event it may see, then its new ``view``."""
    per_seat: SeatMessages = {}
    for seat in seats:
        messages: list[JSONDict] = [
            {"type": "event", "version": version, "event": event.to_json()}
            for version, event in events
            if event.visible_to(seat)
        ]
        messages.append({"type": "view", "view": seat_view(live, seat)})
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
