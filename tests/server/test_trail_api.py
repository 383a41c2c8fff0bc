"""The trail over HTTP: characters and art, the trail, trail matches and gunfights
recorded on the player's records, the gazette, card backs and restart."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from dkserver_helpers import new_player, play_http
from sqlalchemy import select
from starlette.testclient import TestClient

from deadwood_knock.content import load_content
from deadwood_knock.persistence import Player
from deadwood_knock.server import Settings
from deadwood_knock.trail import TrailProgress

Client = Callable[[Settings], TestClient]


def _set_progress(client: TestClient, headers: dict[str, str], progress: TrailProgress) -> None:
    """Put the player part-way along the trail (as if those tables had been won)."""
    player_id = client.get("/api/players/me", headers=headers).json()["player_id"]
    db = client.app.state.services.db  # type: ignore[attr-defined]

    async def write() -> None:
        async with db.sessions() as session, session.begin():
            player = await session.scalar(select(Player).where(Player.id == player_id))
            player.progress = progress.to_json()

    client.portal.call(write)  # type: ignore[union-attr]


def _reach_town_of(poster_id: str) -> TrailProgress:
    content = load_content()
    town = content.wanted_by_id[poster_id].town
    won: list[str] = []
    for t in content.trail:
        if t.id == town:
            break
        won.extend(v.id for v in content.venues_in(t.id))
    return TrailProgress(tables_won=tuple(won))


def test_characters_and_their_portraits(make_client: Client, settings: Settings) -> None:
    client = make_client(settings)
    content = load_content()
    listed = client.get("/api/characters").json()["characters"]
    assert [c["id"] for c in listed] == [f.id for f in content.figures]
    assert all(c["bio"] and c["portrait_url"].startswith("/art/portraits/") for c in listed)
    art = client.get(listed[0]["portrait_url"])
    assert art.status_code == 200 and "svg" in art.headers["content-type"]
    assert art.content == content.art_path(content.figures[0].portrait).read_bytes()
    one = client.get(f"/api/characters/{listed[0]['id']}").json()
    assert one["name"] == listed[0]["name"] and one["table_talk"]
    assert one["bot"] == f"figure:{listed[0]['id']}"
    assert client.get("/api/characters/nobody-at-all").status_code == 404
    assert client.get("/art/../data/figures.json").status_code == 404


def test_trail_needs_a_player_and_starts_at_the_first_table(
    make_client: Client, settings: Settings
) -> None:
    client = make_client(settings)
    assert client.get("/api/trail").status_code == 401
    headers = new_player(client, "Kit")
    trail = client.get("/api/trail", headers=headers).json()
    content = load_content()
    assert [t["id"] for t in trail["towns"]] == [t.id for t in content.trail]
    first = content.trail_venues()[0]
    assert trail["current_table"] == first.id
    assert trail["towns"][0]["tables"][0]["status"] == "open"
    assert trail["towns"][1]["status"] == "locked"
    gazette = client.get("/api/gazette", headers=headers).json()
    # The first edition: the player's arrival in the first town (and its news, if any).
    assert gazette["message"] is None
    assert [i["event"] for i in gazette["items"]][-1] == "new_town"
    assert "Kit" in gazette["items"][-1]["item"]
    assert content.trail[0].name in gazette["items"][-1]["item"]


def test_trail_match_seats_the_tables_figures_and_a_forfeit_keeps_it_open(
    make_client: Client, settings: Settings
) -> None:
    client = make_client(settings)
    headers = new_player(client, "Kit")
    content = load_content()
    first, second = content.trail_venues()[:2]

    locked = client.post("/api/matches", json={"table_id": second.id}, headers=headers)
    assert locked.status_code == 409 and locked.json()["code"] == "table_locked"
    unknown = client.post("/api/matches", json={"table_id": "no-such-place"}, headers=headers)
    assert unknown.status_code == 404
    mixed = client.post("/api/matches", json={"table_id": first.id, "game": "gin"}, headers=headers)
    assert mixed.status_code == 422
    poster = content.wanted[0]
    far = client.post("/api/matches", json={"wanted_id": poster.id}, headers=headers)
    assert far.status_code == 409 and far.json()["code"] == "poster_locked"

    started = client.post("/api/matches", json={"table_id": first.id}, headers=headers)
    assert started.status_code == 201, started.text
    view = started.json()["view"]
    assert view["table_id"] == first.id and view["game"] == first.table.game.value
    bots = [p["bot"] for p in view["players"] if p["kind"] == "bot"]
    assert bots == [f"figure:{f}" for f in first.table.opponents]
    match_id = started.json()["match_id"]
    assert client.post(f"/api/matches/{match_id}/forfeit", headers=headers).status_code == 200

    records = client.get("/api/records", headers=headers).json()
    assert records["trail"]["matches"] == 1 and records["trail"]["tables_won"] == 0
    assert records["last_match"]["outcome"] == "forfeit"
    summary = client.get(f"/api/trail/summaries/{match_id}", headers=headers).json()
    assert summary["target"] == first.id and not summary["table_won"]
    trail = client.get("/api/trail", headers=headers).json()
    assert trail["current_table"] == first.id
    news = client.get("/api/gazette", headers=headers).json()["items"]
    assert [n["event"] for n in news] == ["match_lost"] and "Kit" in news[0]["item"]


def test_a_gunfight_played_out_goes_on_the_gunfighter_record(
    make_client: Client, settings: Settings
) -> None:
    client = make_client(settings)
    headers = new_player(client, "Kit")
    content = load_content()
    poster = content.wanted[0]
    _set_progress(client, headers, _reach_town_of(poster.id))

    started = client.post("/api/matches", json={"wanted_id": poster.id}, headers=headers)
    assert started.status_code == 201, started.text
    match_id = started.json()["match_id"]
    assert started.json()["view"]["rounds"] == poster.gunfight.rounds
    final, _ = play_http(client, headers, match_id, random.Random(3))
    mine, outlaw = final["scores"]
    won = mine >= poster.gunfight.score_to_beat and mine > outlaw

    records = client.get("/api/records", headers=headers).json()
    gunfighter = records["gunfighter"]
    assert gunfighter == {
        "wins": int(won),
        "losses": int(not won),
        "rewards": poster.reward if won else 0,
    }
    summary = records["last_match"]
    assert summary["match_id"] == match_id and summary["totals"] == [mine, outlaw]
    news: list[dict[str, Any]] = client.get("/api/gazette", headers=headers).json()["items"]
    assert ("gunfight_won" if won else "gunfight_lost") in {n["event"] for n in news}
    backs = client.get("/api/card-backs", headers=headers).json()
    assert ("wanted-sheet" in backs["announce"]) == won
    sheet = next(b for b in backs["card_backs"] if b["id"] == "wanted-sheet")
    assert sheet["unlocked"] == won
    # The announcement is made once.
    assert client.get("/api/card-backs", headers=headers).json()["announce"] == []
    again = client.post("/api/matches", json={"wanted_id": poster.id}, headers=headers)
    assert again.status_code == (409 if won else 201)


def test_restart_needs_confirming_and_keeps_lifetime_records(
    make_client: Client, settings: Settings
) -> None:
    client = make_client(settings)
    headers = new_player(client, "Kit")
    content = load_content()
    first = content.trail_venues()[0]
    match_id = client.post("/api/matches", json={"table_id": first.id}, headers=headers).json()[
        "match_id"
    ]
    client.post(f"/api/matches/{match_id}/forfeit", headers=headers)
    _set_progress(client, headers, TrailProgress(tables_won=(first.id,), matches=1))
    assert client.get("/api/trail", headers=headers).json()["current_table"] != first.id

    refused = client.post("/api/progress/restart", json={}, headers=headers)
    assert refused.status_code == 400 and refused.json()["code"] == "confirm_required"
    done = client.post("/api/progress/restart", json={"confirm": True}, headers=headers)
    assert done.status_code == 200
    body = done.json()
    assert body["trail"]["tables_won"] == 0 and body["trail"]["matches"] == 0
    assert body["lifetime"]["matches"] == 1
    assert client.get("/api/trail", headers=headers).json()["current_table"] == first.id
    me = client.get("/api/players/me", headers=headers).json()
    assert me["name"] == "Kit" and me["stats"]["matches"] == 1
    assert len(client.get("/api/gazette", headers=headers).json()["items"]) == 1


def test_trail_api_serves_coordinates_sources_legends_and_poster_terms(
    make_client: Client, settings: Settings
) -> None:
    client = make_client(settings)
    headers = new_player(client, "Kit")
    content = load_content()
    trail = client.get("/api/trail", headers=headers).json()
    towns = {t["id"]: t for t in trail["towns"]}
    deadwood = towns["deadwood"]
    assert (deadwood["latitude"], deadwood["longitude"]) == (
        content.town_by_id["deadwood"].latitude,
        content.town_by_id["deadwood"].longitude,
    )
    assert deadwood["arrival"] and deadwood["sources"][0]["title"]
    tables = [t for town in trail["towns"] for t in town["tables"]]
    legends = [t for t in tables if t["legends"]]
    assert legends and all(t["legends_note"] for t in legends)
    assert all(t["sources"] and "url" in t["sources"][0] for t in tables)
    posters = [p for town in trail["towns"] for p in town["wanted"]]
    assert {p["id"] for p in posters} == {w.id for w in content.wanted}
    for p in posters:
        poster = content.wanted_by_id[p["id"]]
        assert p["terms"] == {
            "reward": poster.reward,
            "score_to_beat": poster.gunfight.score_to_beat,
            "rounds": poster.gunfight.rounds,
            "stakes": poster.gunfight.stakes,
            "game": poster.gunfight.game.value,
        }
        assert p["offered"] == poster.offered and p["offered_by"] == poster.offered_by
    one = client.get("/api/characters/wong-fee-lee").json()
    assert one["sources"] and one["sources"][0]["title"] and "black_hills" in one["regions"]


def test_progress_saved_before_the_content_change_carries_over(
    make_client: Client, settings: Settings
) -> None:
    import json
    from pathlib import Path

    import deadwood_knock.trail as trail_pkg

    client = make_client(settings)
    headers = new_player(client, "Kit")
    v1 = json.loads(Path(trail_pkg.__file__).with_name("trail_v1.json").read_text())["towns"]
    player_id = client.get("/api/players/me", headers=headers).json()["player_id"]
    db = client.app.state.services.db  # type: ignore[attr-defined]
    # As saved by the old trail: no version, old table ids, a retired poster.
    saved = {"tables_won": v1["san-antonio"], "posters_collected": ["soapy-smith"], "matches": 6}

    async def write() -> None:
        async with db.sessions() as session, session.begin():
            player = await session.scalar(select(Player).where(Player.id == player_id))
            player.progress = saved

    client.portal.call(write)  # type: ignore[union-attr]
    content = load_content()
    trail = client.get("/api/trail", headers=headers).json()
    assert trail["towns"][0]["status"] == "completed"
    assert trail["current_table"] == content.venues_in(content.trail[1].id)[0].id
    records = client.get("/api/records", headers=headers).json()["trail"]
    assert records["tables_won"] == len(content.venues_in("san-antonio"))
    assert records["posters_collected"] == 0 and records["matches"] == 6


def test_an_outlaw_without_a_character_is_named_at_the_table(
    make_client: Client, settings: Settings
) -> None:
    """Six of the seven posters' outlaws have no character: each plays as the town's
    hardest ladder bot, and its seat used to be called by that bot ("Legend") under a
    heading that says "outscore Sam Bass". The seat is the outlaw's, in the match's view,
    in /where, and when the match is loaded again from the database (a second server on
    the same database)."""
    content = load_content()
    poster = content.wanted_by_id["sam-bass"]
    assert poster.figure is None
    client = make_client(settings)
    headers = new_player(client, "Kit")
    _set_progress(client, headers, _reach_town_of(poster.id))
    started = client.post("/api/matches", json={"wanted_id": poster.id}, headers=headers)
    assert started.status_code == 201, started.text
    match_id = started.json()["match_id"]
    seat = started.json()["view"]["players"][1]
    assert seat["name"] == "Sam Bass" and seat["kind"] == "bot"
    assert seat["bot"] != "Sam Bass"  # the ladder bot still plays it
    where = client.get(f"/api/matches/{match_id}/where", headers=headers)
    assert where.status_code == 200, where.text
    assert "Sam Bass" in where.json()["against"], where.json()
    again = make_client(settings)
    reloaded = again.get(f"/api/matches/{match_id}", headers=headers)
    assert reloaded.status_code == 200, reloaded.text
    assert reloaded.json()["players"][1]["name"] == "Sam Bass"
