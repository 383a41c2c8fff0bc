"""The player's own matches over HTTP: continue the unfinished, replay and export the
finished, import a record; never a replay of a match still being played."""

from __future__ import annotations

import random
from collections.abc import Callable

from dkserver_helpers import new_player, play_http
from starlette.testclient import TestClient

from deadwood_knock.content import load_content
from deadwood_knock.server import Settings
from deadwood_knock.trail import gunfight_aim

Client = Callable[[Settings], TestClient]


def _quick_gin(client: TestClient, headers: dict[str, str]) -> str:
    body = {"game": "gin", "opponents": ["greedy"], "options": {"target": 10}}
    made = client.post("/api/matches", json=body, headers=headers)
    assert made.status_code == 201, made.text
    match_id: str = made.json()["match_id"]
    return match_id


def test_continue_lists_unfinished_matches_in_words(
    make_client: Client, settings: Settings
) -> None:
    client = make_client(settings)
    headers = new_player(client, "Kit")
    content = load_content()
    first = content.trail_venues()[0]
    table = client.post("/api/matches", json={"table_id": first.id}, headers=headers).json()
    quick = _quick_gin(client, headers)
    listed = client.get("/api/continue", headers=headers).json()["matches"]
    by_id = {m["match_id"]: m for m in listed}
    assert set(by_id) == {table["match_id"], quick}
    town = content.town_by_id[first.town].name
    at_table = by_id[table["match_id"]]
    assert at_table["town"] == town and at_table["table_id"] == first.id
    assert at_table["text"].startswith("Continue at ")
    assert first.name in at_table["text"] and "round 1 of" in at_table["text"]
    assert "figure:" not in str(listed) and "-" not in at_table["against"]
    # Each game names its deal in its own word (the engine's unit): Gin plays hands.
    assert by_id[quick]["round_label"] == "hand 1" and by_id[quick]["text"].endswith(", hand 1")
    # The scores so far in seat order, yours as "You" (it opens its line): two matches
    # against the same characters read apart.
    assert by_id[quick]["standing"] == "You 0 · Greedy 0"
    assert at_table["standing"].startswith("You 0 · ") and at_table["standing"].count(" · ") == 2
    # A replay of an unfinished match would give its deal away.
    early = client.get(f"/api/replays/{quick}", headers=headers)
    assert early.status_code == 409 and early.json()["code"] == "match_unfinished"
    assert client.get(f"/api/replays/{quick}/record", headers=headers).status_code == 409
    # Another player sees none of it.
    other = new_player(client, "Ned")
    assert client.get("/api/continue", headers=other).json()["matches"] == []
    assert client.get(f"/api/replays/{quick}", headers=other).status_code == 404


def test_a_match_says_where_it_is_played_and_for_what(
    make_client: Client, settings: Settings
) -> None:
    client = make_client(settings)
    headers = new_player(client, "Kit")
    content = load_content()
    venue = content.trail_venues()[0]
    table = client.post("/api/matches", json={"table_id": venue.id}, headers=headers).json()
    at = client.get(f"/api/matches/{table['match_id']}/where", headers=headers).json()
    assert at["kind"] == "table" and at["title"] == venue.name
    assert at["town"] == content.town_by_id[venue.town].name
    assert at["score_to_beat"] is None
    poster = next(w for w in content.wanted if w.town == venue.town)
    made = client.post("/api/matches", json={"wanted_id": poster.id}, headers=headers)
    assert made.status_code == 201, made.text
    fight = client.get(f"/api/matches/{made.json()['match_id']}/where", headers=headers).json()
    assert fight["kind"] == "gunfight" and fight["title"] == poster.outlaw
    assert fight["score_to_beat"] == poster.gunfight.score_to_beat
    assert fight["aim"] == gunfight_aim(poster)
    assert poster.outlaw in fight["aim"] and str(poster.gunfight.score_to_beat) in fight["aim"]
    assert at["aim"] is None
    quick = client.get(f"/api/matches/{_quick_gin(client, headers)}/where", headers=headers)
    assert quick.json()["kind"] == "quick" and quick.json()["place"] == "against Greedy"
    assert quick.json()["aim"] is None
    # Nobody else's match, and no match that is not there.
    other = new_player(client, "Ned")
    assert client.get(f"/api/matches/{table['match_id']}/where", headers=other).status_code == 404
    missing = client.get("/api/matches/nope/where", headers=headers)
    assert missing.status_code == 404 and missing.json()["code"]


def test_a_finished_match_replays_exports_and_imports(
    make_client: Client, settings: Settings
) -> None:
    client = make_client(settings)
    headers = new_player(client, "Kit")
    match_id = _quick_gin(client, headers)
    final, _views = play_http(client, headers, match_id, random.Random(3))
    assert final["status"] == "finished"
    assert client.get("/api/continue", headers=headers).json()["matches"] == []
    listed = client.get("/api/replays", headers=headers).json()["replays"]
    assert [r["match_id"] for r in listed] == [match_id]
    # A quick table says its game once: "Gin against Bat Masterson".
    assert listed[0]["text"] == f"Gin {listed[0]['place']}" and listed[0]["text"].count("Gin") == 1
    assert listed[0]["place"].startswith("against ")
    replay = client.get(f"/api/replays/{match_id}", headers=headers).json()
    steps = replay["steps"]
    assert replay["finished"] and replay["names"][0] == "You"
    assert len(steps) == listed[0]["actions"] + 1
    assert steps[-1]["totals"] == final["scores"]
    # Every step shows the player's own hand as the player held it.
    assert all(s["hand"] == s["hands"][0] for s in steps)
    assert any(s["lines"] for s in steps[1:])
    record = client.get(f"/api/replays/{match_id}/record", headers=headers).json()
    assert set(record) == {"game", "options", "seed", "actions"}
    imported = client.post("/api/replays/import", json=record, headers=headers)
    assert imported.status_code == 200, imported.text
    assert [s["hands"] for s in imported.json()["steps"]] == [s["hands"] for s in steps]
    bad = dict(record, actions=[*record["actions"][:3], {"type": "knock"}])
    refused = client.post("/api/replays/import", json=bad, headers=headers)
    assert refused.status_code == 422 and refused.json()["code"] == "bad_record"


def test_offline_lists_every_piece_of_art(make_client: Client, settings: Settings) -> None:
    client = make_client(settings)
    art = client.get("/api/offline").json()["art"]
    content = load_content()
    assert "/" + content.figures[0].portrait in art
    assert all(client.get(a).status_code == 200 for a in art[:5])


def test_a_bot_seat_reads_as_the_web_names_it() -> None:
    """A gunfight outlaw with no character plays as a ladder bot: "high_roller" read
    "High_Roller" in the replay's and the continue list's names (the web: "High Roller")."""
    from deadwood_knock.server.routes.records import seat_name

    content = load_content()
    # A bot seat's name is its bot's (``SeatInfo``), or the table's own name for it.
    assert seat_name(content, "high_roller", "high_roller") == "High Roller"
    assert seat_name(content, "luke-short", "luke-short") == "Luke Short"
    assert seat_name(content, "figure:luke-short", "figure:luke-short") == "Luke Short"
    # A gunfight's outlaw without a character (``trail.bot_seat_name``) keeps that name.
    assert seat_name(content, "Sam Bass", "regular") == "Sam Bass"
    assert seat_name(content, "Kit", None) == "Kit"
