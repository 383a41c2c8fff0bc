"""A seat's view is built and encoded once per version and shared; what it shows must be
exactly what building it afresh shows."""

from __future__ import annotations

import json
from collections import deque

from dkserver_toy_game import GAME

from deadwood_knock.games.base import Event
from deadwood_knock.server.live import ACTIVE, LiveMatch, SeatInfo
from deadwood_knock.server.views import seat_messages, seat_view, shown


def _match() -> LiveMatch:
    options = GAME.options_from_json({"turns": 6})
    return LiveMatch(
        id="m" * 32,
        game_name=GAME.name,
        game=GAME,
        options={"players": 2, "turns": 6},
        seed=3,
        seats=(SeatInfo(0, "p" * 32, None, "Ann"), SeatInfo(1, None, "random", "random")),
        state=GAME.new_game(options, 3),
        version=0,
        status=ACTIVE,
        result=None,
        table_id=None,
        actions=[],
        recent=deque(maxlen=30),
    )


def test_an_event_object_seen_at_two_versions_is_listed_with_each_version() -> None:
    live = _match()
    same = Event("pass", 1)  # an engine may hand out one event object more than once
    live.recent.extend([(1, same)])
    live.version = 1
    assert [e["version"] for e in seat_view(live, 0)["recent_events"]] == [1]
    live.recent.extend([(2, Event("draw", 0, private_to=0)), (3, same)])
    live.version = 3
    assert [e["version"] for e in seat_view(live, 0)["recent_events"]] == [1, 2, 3]
    # Another seat never sees the private event.
    assert [e["version"] for e in seat_view(live, 1)["recent_events"]] == [1, 3]


def test_the_shared_text_is_the_view_and_a_new_version_or_status_builds_it_again() -> None:
    live = _match()
    first = shown(live, 0)
    assert json.loads(first.text) == first.view
    assert shown(live, 0) is first  # the same version: shared, not built again
    live.status = "finished"  # a forfeit changes the status, not the version
    assert shown(live, 0).view["status"] == "finished"
    live.version = 1
    assert shown(live, 0).view["version"] == 1
    # The socket's view message carries the same text.
    messages = seat_messages(live, [], [0])[0]
    assert messages == ['{"type":"view","view":' + shown(live, 0).text + "}"]


def test_an_observation_with_cached_event_json_is_the_same_as_made_afresh() -> None:
    import random

    from deadwood_knock.games import get_game

    for name, players in (("deadwood-knock", 3), ("knock-rummy", 2), ("gin", 2)):
        game = get_game(name)
        rng = random.Random(5)
        state = game.new_game(game.options_from_json({"players": players}), 11)
        seats = tuple(
            SeatInfo(i, "p" * 32 if i == 0 else None, None if i == 0 else "random", "x")
            for i in range(players)
        )
        live = LiveMatch(
            id="m" * 32,
            game_name=name,
            game=game,
            options={},
            seed=11,
            seats=seats,
            state=state,
            version=0,
            status=ACTIVE,
            result=None,
            table_id=None,
            actions=[],
            recent=deque(maxlen=30),
        )
        for _ in range(300):
            if game.is_over(live.state):
                break
            live.state, events = game.apply(live.state, rng.choice(game.legal_actions(live.state)))
            live.version += 1
            live.recent.extend((live.version, e) for e in events)
            for seat in range(players):
                fresh = game.observe(live.state, seat).to_json()
                assert live.observation(seat) == fresh
                # The text sent is what json writes for the view.
                view = shown(live, seat)
                assert view.text == json.dumps(view.view, separators=(",", ":"), ensure_ascii=False)
