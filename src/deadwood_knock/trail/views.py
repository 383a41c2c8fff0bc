"""JSON views of the trail for the API: pure functions of content and records.

Art paths in the content (``art/portraits/x.svg``) are served by the server at
``/art/...``, so a URL is the path with a leading slash.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from deadwood_knock.content.loader import Content, Misfit
from deadwood_knock.content.schema import Figure, GazetteEvent, Source, Venue, WantedPoster
from deadwood_knock.trail.figure_bots import figure_bot_name
from deadwood_knock.trail.gazette import GazetteItem, Story, write_stories
from deadwood_knock.trail.progress import (
    Lifetime,
    MatchSummary,
    TrailProgress,
    current_table,
    milestone_count,
    town_statuses,
)

__all__ = [
    "art_url",
    "card_backs_view",
    "character_detail",
    "character_sources",
    "character_summary",
    "first_edition",
    "gazette_view",
    "legends_note",
    "place_at",
    "records_view",
    "source_view",
    "summary_view",
    "trail_view",
]


def art_url(relative: str) -> str:
    return "/" + relative.lstrip("/")


def source_view(source: Source) -> dict[str, Any]:
    """A citation as the client shows it: title, who published it, and where to find it."""
    return {
        "id": source.id,
        "title": source.title,
        "publisher": source.publisher,
        "author": source.author,
        "year": source.year,
        "url": source.url,
        "pages": source.pages,
    }


def _sources(content: Content, ids: Iterable[str]) -> list[dict[str, Any]]:
    return [source_view(s) for s in content.cited(ids)]


_WHY = {"dead": "died in {year}", "unborn": "was born in {year}", "elsewhere": "was never here"}


def legends_note(content: Content, misfits: Iterable[Misfit]) -> str:
    """Why a legends table is one, in plain words: who sits here out of time or place."""
    parts = []
    for m in misfits:
        f = content.figure_by_id[m.figure]
        year = f.died if m.reason == "dead" else f.born
        why = _WHY[m.reason].format(year=year) if year is not None else "was never here"
        parts.append(f"{f.name} {why}")
    return "A legends table: " + "; ".join(parts) + "."


def character_summary(figure: Figure) -> dict[str, Any]:
    return {
        "id": figure.id,
        "name": figure.name,
        "nickname": figure.nickname,
        "role": figure.role,
        "born": figure.born,
        "died": figure.died,
        "bio": figure.bio,
        "towns": list(figure.towns),
        "portrait_url": art_url(figure.portrait),
        "portrait_note": figure.portrait_note,
        "difficulty": figure.difficulty.value,
        "bot": figure_bot_name(figure.id),
    }


def character_detail(figure: Figure) -> dict[str, Any]:
    return {
        **character_summary(figure),
        "personality": {
            "knock_threshold": figure.knock_threshold,
            "call_rate": figure.call_rate,
            "fold_discipline": figure.fold_discipline,
            "chase": figure.chase.value,
            "palm_rate": figure.palm_rate,
            "discard_reading": figure.discard_reading,
        },
        "table_talk": [{"situation": t.situation.value, "line": t.line} for t in figure.table_talk],
    }


def character_sources(content: Content, figure: Figure) -> dict[str, Any]:
    """The detail view plus the figure's citations and where it is placed in time and space."""
    return {
        **character_detail(figure),
        "regions": sorted(r.value for r in content.figure_regions(figure)),
        "seen": figure.seen,
        "sources": _sources(content, figure.sources),
    }


def _opponent(content: Content, figure_id: str) -> dict[str, Any]:
    figure = content.figure_by_id[figure_id]
    return {"id": figure.id, "name": figure.name, "portrait_url": art_url(figure.portrait)}


def _table(content: Content, venue: Venue, status: str) -> dict[str, Any]:
    difficulty = content.table_difficulty(venue)
    misfits = content.misfits(venue)
    start, end = content.table_era(venue)
    return {
        "id": venue.id,
        "name": venue.name,
        "place": place_at(venue.name),
        "kind": venue.kind.value,
        "description": venue.description,
        "order": venue.order,
        "game": venue.table.game.value,
        "rounds": venue.table.rounds,
        "stakes": venue.table.stakes,
        "difficulty": difficulty,
        "opponents": [_opponent(content, f) for f in venue.table.opponents],
        "status": status,
        "era": {"start": start, "end": end},
        "legends": venue.table.legends,
        "legends_note": legends_note(content, misfits) if venue.table.legends else None,
        "sources": _sources(content, venue.sources),
    }


def _poster(content: Content, poster: WantedPoster, status: str) -> dict[str, Any]:
    figure = content.figure_by_id.get(poster.figure) if poster.figure else None
    return {
        "id": poster.id,
        "outlaw": poster.outlaw,
        "crime": poster.crime,
        "reward": poster.reward,
        "town": poster.town,
        "figure": poster.figure,
        "portrait_url": art_url(figure.portrait) if figure else None,
        "offered_by": poster.offered_by,
        "offered": poster.offered,
        "gunfight": {
            "game": poster.gunfight.game.value,
            "rounds": poster.gunfight.rounds,
            "score_to_beat": poster.gunfight.score_to_beat,
            "stakes": poster.gunfight.stakes,
        },
        # The terms the screen prints on the poster, in one place.
        "terms": {
            "reward": poster.reward,
            "score_to_beat": poster.gunfight.score_to_beat,
            "rounds": poster.gunfight.rounds,
            "stakes": poster.gunfight.stakes,
            "game": poster.gunfight.game.value,
        },
        "status": status,
        "sources": _sources(content, poster.sources),
    }


def trail_view(content: Content, progress: TrailProgress) -> dict[str, Any]:
    """Every town in journey order with its tables, posters and the player's standing."""
    won = set(progress.tables_won)
    current = current_table(content, progress)
    statuses = town_statuses(content, progress)
    collected = set(progress.posters_collected)
    towns = []
    for town in content.trail:
        status = statuses[town.id]
        tables = []
        for venue in content.venues_in(town.id):
            if venue.id in won:
                table_status = "won"
            elif current is not None and venue.id == current.id:
                table_status = "open"
            else:
                table_status = "locked"
            tables.append(_table(content, venue, table_status))
        # A poster goes up with its town and comes down once collected (poster_status).
        poster_state = "locked" if status == "locked" else "open"
        posters = [
            _poster(content, w, "collected" if w.id in collected else poster_state)
            for w in content.wanted
            if w.town == town.id
        ]
        towns.append(
            {
                "id": town.id,
                "name": town.name,
                "state_or_territory": town.state_or_territory,
                "modern_state": town.modern_state,
                "kind": town.kind.value,
                "region": town.region.value,
                "boom_years": town.boom_years,
                "latitude": town.latitude,
                "longitude": town.longitude,
                "description": town.description,
                "arrival": town.arrival,
                "order": town.order,
                "sources": _sources(content, town.sources),
                "status": status,
                "tables_won": sum(1 for t in tables if t["status"] == "won"),
                "tables": tables,
                "wanted": posters,
            }
        )
    return {
        "towns": towns,
        "current_table": current.id if current else None,
        "current_town": current.town if current else None,
        "completed": current is None,
        "progress": progress_view(content, progress),
    }


def progress_view(content: Content, progress: TrailProgress) -> dict[str, Any]:
    """The trail record of this run: towns and tables won, matches, best match score."""
    towns_done = sum(1 for s in town_statuses(content, progress).values() if s == "completed")
    return {
        "towns_completed": towns_done,
        "towns_total": len(content.towns),
        "tables_won": len(progress.tables_won),
        "tables_total": len(content.venues),
        "posters_collected": len(progress.posters_collected),
        "matches": progress.matches,
        "best_score": progress.best_score,
    }


def records_view(content: Content, progress: TrailProgress, lifetime: Lifetime) -> dict[str, Any]:
    return {
        "trail": progress_view(content, progress),
        "lifetime": {
            "tables_won": lifetime.tables_won,
            "towns_completed": lifetime.towns_completed,
            "matches": lifetime.matches,
            "best_score": lifetime.best_score,
            "deadwood_reached": lifetime.deadwood_reached,
            "deadwood_won": lifetime.deadwood_won,
            "big_hands": lifetime.big_hands,
            "palms_caught": lifetime.palms_caught,
            "palms_unseen": lifetime.palms_unseen,
        },
        "gunfighter": lifetime.gunfighter.to_json(),
        "last_match": lifetime.summaries[0].to_json() if lifetime.summaries else None,
    }


def gazette_view(
    content: Content,
    lifetime: Lifetime,
    progress: TrailProgress | None = None,
    player: str | None = None,
) -> dict[str, Any]:
    """Newest first. Before the player's first news the paper prints its first edition:
    their arrival in the town they are in (``progress``) and that town's first sourced
    note; with neither, the content's "no news" line."""
    items = [g.to_json() for g in lifetime.gazette]
    if not items and progress is not None:
        items = [g.to_json() for g in reversed(first_edition(content, progress, player))]
    return {"items": items, "message": None if items else content.gazette_empty}


def first_edition(
    content: Content, progress: TrailProgress, player: str | None
) -> tuple[GazetteItem, ...]:
    """The arrival story and the local news of the town the player is in, oldest first;
    none when the trail is done. Written by the same templates as the stories a new town
    brings (``NEW_TOWN``, ``TOWN_NEWS``), so the paper reads the same at every town."""
    table = current_table(content, progress)
    if table is None:
        return ()
    town = content.town_by_id[table.town]
    words = {"town": town.name, **({"player": player} if player else {})}
    stories = [Story(GazetteEvent.NEW_TOWN, words)]
    if town.notes:
        stories.append(Story(GazetteEvent.TOWN_NEWS, {**words, "news": town.notes[0].text}))
    return write_stories(content, stories, 0, None)


def card_backs_view(
    content: Content, lifetime: Lifetime, selected: str, announce: tuple[str, ...]
) -> dict[str, Any]:
    unlocked = set(lifetime.card_backs)
    backs = []
    for back in content.card_backs:
        is_unlocked = back.unlock is None or back.id in unlocked
        unlock = None
        if back.unlock is not None:
            unlock = {
                "milestone": back.unlock.milestone.value,
                "threshold": back.unlock.threshold,
                "count": min(
                    milestone_count(lifetime, back.unlock.milestone), back.unlock.threshold
                ),
            }
        backs.append(
            {
                "id": back.id,
                "name": back.name,
                "description": back.description,
                "svg_url": art_url(back.svg),
                "unlocked": is_unlocked,
                "unlock": unlock,
                "selected": back.id == selected or (not selected and back.unlock is None),
            }
        )
    return {"card_backs": backs, "announce": list(announce)}


def _town_name(content: Content, town_id: str | None) -> str | None:
    if town_id is None:
        return None
    town = content.town_by_id.get(town_id)
    return town.name if town else None


def place_at(venue_name: str) -> str:
    """How a sentence names a table's place: "at the Vaudeville Theater", "at Rowdy Joe's"."""
    return f"at {the(venue_name)}"


def the(venue_name: str) -> str:
    """'the Vaudeville Theater', but 'Rowdy Joe's' and 'The Long Branch' as they are."""
    first = venue_name.split(" ", 1)[0]
    if first.lower() == "the" or re.search(r"['\u2019]s\b", venue_name):
        return venue_name
    return "the " + venue_name


def summary_view(content: Content, summary: MatchSummary) -> dict[str, Any]:
    """A match summary as the player reads it: names instead of ids, and one wording per
    kind of result (a table, a gunfight, a town cleared), each line from the summary's facts."""
    out = summary.to_json()
    town = _town_name(content, summary.town) or summary.town
    backs = {b.id: b.name for b in content.card_backs}
    unlocked = [{"id": b, "name": backs.get(b, b)} for b in summary.unlocked]
    out["town_name"] = town
    out["town_completed_name"] = _town_name(content, summary.town_completed)
    out["town_opened_name"] = _town_name(content, summary.town_opened)
    out["unlocked_backs"] = unlocked
    lines: list[str] = []
    if summary.kind == "gunfight":
        poster = content.wanted_by_id.get(summary.target)
        to_beat = poster.gunfight.score_to_beat if poster else None
        if summary.outcome == "won" and summary.reward:
            verdict = f"You outdrew {summary.title} in {town}."
            lines.append(f"Reward collected: ${summary.reward:,}.")
        elif summary.outcome == "won":
            verdict = f"You outdrew {summary.title} again; that reward was paid already."
        elif summary.outcome == "forfeit":
            verdict = f"You walked away from {summary.title}: a forfeit counts as a loss."
        elif to_beat is not None and summary.score < to_beat:
            verdict = (
                f"{summary.title} got away: you scored {summary.score}, "
                f"short of the {to_beat} the poster asks."
            )
        elif summary.totals and max(summary.totals) == summary.score:
            verdict = (
                f"{summary.title} got away: you tied at {summary.score}, and the poster pays "
                "only for an outright win."
            )
        elif summary.totals:
            verdict = (
                f"{summary.title} got away, outscoring you {max(summary.totals)} "
                f"to {summary.score}."
            )
        else:
            verdict = f"{summary.title} got away this time."
    else:
        if summary.outcome == "won":
            verdict = f"You took the table {place_at(summary.title)}, {town}."
        elif summary.outcome == "shared":
            verdict = f"You shared the honours {place_at(summary.title)}, {town}."
        elif summary.outcome == "forfeit":
            verdict = f"You left {the(summary.title)}: a forfeit counts as a loss."
        elif summary.totals and max(summary.totals) > summary.score:
            # The venue was not "too strong": another player outscored you, by this much.
            verdict = (
                f"The table {place_at(summary.title)}, {town}, went to another player, "
                f"{max(summary.totals)} to your {summary.score}."
            )
        else:
            verdict = f"The table {place_at(summary.title)}, {town}, got away this time."
        if summary.table_won and not summary.town_completed:
            lines.append("The next table in town is open.")
    if summary.town_completed:
        lines.append(f"Town cleared: every table in {out['town_completed_name']} is yours.")
    if summary.town_opened:
        lines.append(f"The trail leads on to {out['town_opened_name']}.")
    if summary.trail_completed:
        lines.append("You have cleared the whole trail, all the way to Deadwood.")
    if summary.big_hand:
        lines.append(f"Big hand: {summary.big_hand}.")
    for back in unlocked:
        lines.append(f"New card back unlocked: {back['name']}. Choose it in your profile.")
    out["verdict"] = verdict
    out["lines"] = lines
    return out
