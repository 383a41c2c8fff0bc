"""Progression along the trail: pure functions over content, records and match facts.

Two records per player, both plain JSON on the player row:

* :class:`TrailProgress` (the ``progress`` column) is this run of the trail: tables
  won, posters collected, matches and the best match score. "Restart progress"
  replaces it with an empty one.
* :class:`Lifetime` (``stats["trail"]``) outlives restarts: lifetime counts that
  drive the card-back milestones, unlocked backs and the unread announcements,
  the gunfighter record, the gazette and recent match summaries.

Rules (issue 6): the towns are played in journey order and the tables of a town in
their order, so exactly one table is open at a time until Deadwood's last table is
won. Winning (or sharing the win of) a completed match at the open table wins it;
winning the last table of a town completes the town and opens the next. A loss or a
forfeit leaves the table open. A won table may be played again; that counts as a
match but changes nothing else.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any, Literal

from deadwood_knock.content.loader import Content
from deadwood_knock.content.schema import (
    CardBack,
    GazetteEvent,
    Milestone,
    Venue,
    WantedPoster,
)
from deadwood_knock.games.deadwood_knock.hand import CATEGORIES, HAND_POINTS
from deadwood_knock.trail.facts import MatchFacts
from deadwood_knock.trail.gazette import GazetteItem, Story, write_stories

__all__ = [
    "BIG_HAND_POINTS",
    "GAZETTE_KEEP",
    "SUMMARIES_KEEP",
    "WANTED_PREFIX",
    "Entry",
    "GunfighterRecord",
    "Lifetime",
    "MatchSummary",
    "TrailProgress",
    "TrailUpdate",
    "apply_match",
    "bot_seat_name",
    "clear_announcements",
    "current_table",
    "entry_of",
    "gunfight_aim",
    "gunfight_won",
    "milestone_count",
    "poster_status",
    "reconcile",
    "restart",
    "table_id_of",
    "table_status",
    "town_status",
    "town_statuses",
]

#: A round's hand points at or above a full house's make news (and the records' "Full
#: house or better"); read from the engine's table, not restated.
BIG_HAND_POINTS = HAND_POINTS[CATEGORIES.index("full_house")]
GAZETTE_KEEP = 100
SUMMARIES_KEEP = 20
#: ``matches.table_id`` holds a venue id for a table match, this prefix + poster id for a gunfight.
WANTED_PREFIX = "wanted:"
#: The trail's content revision that saved progress refers to. Version 1 is the trail before
#: the sourced-content rework (issue 18), version 2 the first sourced trail, version 3 the
#: audited one with restored tables; ``trail_v<n>.json`` keeps each earlier version's towns and
#: tables so progress saved against it can be carried over (see :func:`reconcile`).
TRAIL_VERSION = 3

TableStatus = Literal["locked", "open", "won"]
TownStatus = Literal["locked", "open", "completed"]
PosterStatus = Literal["locked", "open", "collected"]


def _str_tuple(value: Any) -> tuple[str, ...]:
    return tuple(str(v) for v in value) if isinstance(value, (list, tuple)) else ()


def _int(value: Any, default: int = 0) -> int:
    return (
        int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else default
    )


def _opt_int(value: Any) -> int | None:
    return None if value is None else _int(value)


# ----- records -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TrailProgress:
    """This run of the trail. ``{}`` (a new or restarted player) reads as the start."""

    tables_won: tuple[str, ...] = ()
    posters_collected: tuple[str, ...] = ()
    matches: int = 0
    best_score: int | None = None
    version: int = TRAIL_VERSION

    def to_json(self) -> dict[str, Any]:
        return {
            "tables_won": list(self.tables_won),
            "posters_collected": list(self.posters_collected),
            "matches": self.matches,
            "best_score": self.best_score,
            "version": self.version,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> TrailProgress:
        data = data or {}
        # A record with no version was saved before versions existed: trail version 1.
        default = TRAIL_VERSION if not data else 1
        return cls(
            tables_won=_str_tuple(data.get("tables_won")),
            posters_collected=_str_tuple(data.get("posters_collected")),
            matches=_int(data.get("matches")),
            best_score=_opt_int(data.get("best_score")),
            version=_int(data.get("version"), default),
        )


@dataclass(frozen=True, slots=True)
class GunfighterRecord:
    wins: int = 0
    losses: int = 0
    rewards: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"wins": self.wins, "losses": self.losses, "rewards": self.rewards}

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> GunfighterRecord:
        data = data or {}
        return cls(_int(data.get("wins")), _int(data.get("losses")), _int(data.get("rewards")))


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """The match-complete summary shown after a trail match or gunfight."""

    match_id: str
    kind: Literal["table", "gunfight"]
    target: str
    title: str
    town: str
    outcome: Literal["won", "shared", "lost", "forfeit"]
    score: int
    totals: tuple[int, ...]
    table_won: bool = False
    town_completed: str | None = None
    town_opened: str | None = None
    trail_completed: bool = False
    reward: int = 0
    unlocked: tuple[str, ...] = ()
    headlines: tuple[str, ...] = ()
    big_hand: str | None = None
    palm_caught: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "match_id": self.match_id,
            "kind": self.kind,
            "target": self.target,
            "title": self.title,
            "town": self.town,
            "outcome": self.outcome,
            "score": self.score,
            "totals": list(self.totals),
            "table_won": self.table_won,
            "town_completed": self.town_completed,
            "town_opened": self.town_opened,
            "trail_completed": self.trail_completed,
            "reward": self.reward,
            "unlocked": list(self.unlocked),
            "headlines": list(self.headlines),
            "big_hand": self.big_hand,
            "palm_caught": self.palm_caught,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MatchSummary:
        kind: Literal["table", "gunfight"] = (
            "gunfight" if data.get("kind") == "gunfight" else "table"
        )
        outcome = str(data.get("outcome", "lost"))
        if outcome not in ("won", "shared", "lost", "forfeit"):
            outcome = "lost"
        return cls(
            match_id=str(data.get("match_id", "")),
            kind=kind,
            target=str(data.get("target", "")),
            title=str(data.get("title", "")),
            town=str(data.get("town", "")),
            outcome=outcome,  # type: ignore[arg-type]
            score=_int(data.get("score")),
            totals=tuple(_int(t) for t in data.get("totals", ()) or ()),
            table_won=bool(data.get("table_won", False)),
            town_completed=data.get("town_completed"),
            town_opened=data.get("town_opened"),
            trail_completed=bool(data.get("trail_completed", False)),
            reward=_int(data.get("reward")),
            unlocked=_str_tuple(data.get("unlocked")),
            headlines=_str_tuple(data.get("headlines")),
            big_hand=data.get("big_hand"),
            palm_caught=bool(data.get("palm_caught", False)),
        )


@dataclass(frozen=True, slots=True)
class Lifetime:
    """Everything that survives "restart progress" (lifetime counts drive unlocks)."""

    tables_won: int = 0
    towns_completed: int = 0
    matches: int = 0
    best_score: int | None = None
    deadwood_reached: int = 0
    deadwood_won: int = 0
    palms_unseen: int = 0
    palms_caught: int = 0
    big_hands: int = 0
    gunfighter: GunfighterRecord = field(default_factory=GunfighterRecord)
    card_backs: tuple[str, ...] = ()  # unlocked, in unlock order (the default is implied)
    announce: tuple[str, ...] = ()  # unlocked but not yet announced to the player
    gazette: tuple[GazetteItem, ...] = ()  # newest first
    next_seq: int = 0
    summaries: tuple[MatchSummary, ...] = ()  # newest first

    def to_json(self) -> dict[str, Any]:
        return {
            "tables_won": self.tables_won,
            "towns_completed": self.towns_completed,
            "matches": self.matches,
            "best_score": self.best_score,
            "deadwood_reached": self.deadwood_reached,
            "deadwood_won": self.deadwood_won,
            "palms_unseen": self.palms_unseen,
            "palms_caught": self.palms_caught,
            "big_hands": self.big_hands,
            "gunfighter": self.gunfighter.to_json(),
            "card_backs": list(self.card_backs),
            "announce": list(self.announce),
            "gazette": [g.to_json() for g in self.gazette],
            "next_seq": self.next_seq,
            "summaries": [s.to_json() for s in self.summaries],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> Lifetime:
        data = data or {}
        return cls(
            tables_won=_int(data.get("tables_won")),
            towns_completed=_int(data.get("towns_completed")),
            matches=_int(data.get("matches")),
            best_score=_opt_int(data.get("best_score")),
            deadwood_reached=_int(data.get("deadwood_reached")),
            deadwood_won=_int(data.get("deadwood_won")),
            palms_unseen=_int(data.get("palms_unseen")),
            palms_caught=_int(data.get("palms_caught")),
            big_hands=_int(data.get("big_hands")),
            gunfighter=GunfighterRecord.from_json(data.get("gunfighter")),
            card_backs=_str_tuple(data.get("card_backs")),
            announce=_str_tuple(data.get("announce")),
            gazette=tuple(GazetteItem.from_json(g) for g in data.get("gazette", ()) or ()),
            next_seq=_int(data.get("next_seq")),
            summaries=tuple(MatchSummary.from_json(s) for s in data.get("summaries", ()) or ()),
        )


# ----- saved progress against changed content -------------------------------------------


@cache
def _trail_as_saved(version: int) -> Mapping[str, tuple[str, ...]]:
    """An earlier trail version: each town's tables in play order, as they were."""
    path = Path(__file__).with_name(f"trail_v{version}.json")
    raw = json.loads(path.read_text(encoding="utf-8"))
    return {str(t): tuple(str(v) for v in vs) for t, vs in raw["towns"].items()}


def reconcile(content: Content, progress: TrailProgress) -> TrailProgress:
    """Progress read back against the current content, so a content change costs nothing won.

    * A town completed on an earlier trail version stays completed: every table it has now
      counts as won, so a player is never sent back to a town for tables added (or restored)
      since.
    * A table saved under a former id (``Venue.former_ids``) counts for the venue now.
    * Tables and posters that are gone are dropped; they no longer open or count.
    """
    won = list(progress.tables_won)
    if progress.version < TRAIL_VERSION:
        before = set(won)
        for town_id, old_tables in _trail_as_saved(max(progress.version, 1)).items():
            if old_tables and town_id in content.town_by_id and before.issuperset(old_tables):
                won.extend(v.id for v in content.venues_in(town_id))
    tables: list[str] = []
    for table_id in won:
        current = content.venue_alias.get(table_id, table_id)
        if current in content.venue_by_id and current not in tables:
            tables.append(current)
    posters = [p for p in dict.fromkeys(progress.posters_collected) if p in content.wanted_by_id]
    return replace(
        progress,
        tables_won=tuple(tables),
        posters_collected=tuple(posters),
        version=TRAIL_VERSION,
    )


# ----- where the player stands ---------------------------------------------------------


def town_statuses(content: Content, progress: TrailProgress) -> dict[str, TownStatus]:
    """Every town's status in one pass along the trail."""
    won = set(progress.tables_won)
    out: dict[str, TownStatus] = {}
    reached = True  # every town before this one is completed
    for town in content.trail:
        complete = all(v.id in won for v in content.venues_in(town.id))
        out[town.id] = ("completed" if complete else "open") if reached else "locked"
        reached = reached and complete
    return out


def town_status(content: Content, progress: TrailProgress, town_id: str) -> TownStatus:
    return town_statuses(content, progress)[town_id]


def current_table(content: Content, progress: TrailProgress) -> Venue | None:
    """The one open table, or ``None`` once Deadwood's last table is won."""
    won = set(progress.tables_won)
    for venue in content.trail_venues():
        if venue.id not in won:
            return venue
    return None


def table_status(content: Content, progress: TrailProgress, venue_id: str) -> TableStatus:
    if venue_id not in content.venue_by_id:
        raise KeyError(venue_id)
    if venue_id in progress.tables_won:
        return "won"
    current = current_table(content, progress)
    return "open" if current is not None and current.id == venue_id else "locked"


def poster_status(content: Content, progress: TrailProgress, poster_id: str) -> PosterStatus:
    """A poster goes up when its town opens and comes down once its reward is collected."""
    poster = content.wanted_by_id[poster_id]
    if poster_id in progress.posters_collected:
        return "collected"
    return "locked" if town_status(content, progress, poster.town) == "locked" else "open"


def gunfight_aim(poster: WantedPoster) -> str:
    """The gunfight's terms (:func:`gunfight_won`) as the table's heading says them, from the
    poster: "outscore Sam Bass and reach 40" (a final total above the outlaw's, and at least
    the score to beat; the heading said only "reach 40", which wins nothing on its own)."""
    return f"outscore {poster.outlaw} and reach {poster.gunfight.score_to_beat}"


def gunfight_won(poster: WantedPoster, facts: MatchFacts) -> bool:
    """The gunfight's terms: a completed match whose final total strictly beats every
    opponent's (the outlaw's) total and is at least the poster's ``score_to_beat``."""
    if not facts.completed:
        return False
    others = [t for s, t in enumerate(facts.totals) if s != facts.seat]
    return facts.score >= poster.gunfight.score_to_beat and all(facts.score > t for t in others)


# ----- entries (what a match was played for) -------------------------------------------


@dataclass(frozen=True, slots=True)
class Entry:
    kind: Literal["table", "gunfight"]
    id: str


def entry_of(content: Content, table_id: str | None) -> Entry | None:
    """Read ``matches.table_id``; ``None`` for a match that is not on the trail."""
    if not table_id:
        return None
    if table_id.startswith(WANTED_PREFIX):
        poster = table_id[len(WANTED_PREFIX) :]
        return Entry("gunfight", poster) if poster in content.wanted_by_id else None
    # A match started at a table that has since been renamed still counts for it.
    table_id = content.venue_alias.get(table_id, table_id)
    return Entry("table", table_id) if table_id in content.venue_by_id else None


def table_id_of(entry: Entry) -> str:
    return entry.id if entry.kind == "table" else WANTED_PREFIX + entry.id


def bot_seat_name(content: Content, table_id: str | None, bot: str) -> str:
    """What a bot's seat is called at its table: at a gunfight whose outlaw has no
    character of its own (the outlaw plays as the town's hardest ladder bot), the poster's
    outlaw, so the player faces "Sam Bass" and not "Legend"; otherwise the bot's name.
    Read from ``matches.table_id``, so a match loaded from the database names it the same.

    >>> from deadwood_knock.content.loader import load_content
    >>> c = load_content()
    >>> bot_seat_name(c, "wanted:sam-bass", "legend"), bot_seat_name(c, None, "legend")
    ('Sam Bass', 'legend')
    """
    entry = entry_of(content, table_id)
    if entry is not None and entry.kind == "gunfight":
        poster = content.wanted_by_id[entry.id]
        if poster.figure is None:
            return poster.outlaw
    return bot


# ----- milestones ----------------------------------------------------------------------


def milestone_count(lifetime: Lifetime, milestone: Milestone) -> int:
    return {
        Milestone.TABLES_WON: lifetime.tables_won,
        Milestone.TOWNS_COMPLETED: lifetime.towns_completed,
        Milestone.GUNFIGHTS_WON: lifetime.gunfighter.wins,
        Milestone.DEADWOOD_REACHED: lifetime.deadwood_reached,
        Milestone.DEADWOOD_WON: lifetime.deadwood_won,
        Milestone.PALMS_UNSEEN: lifetime.palms_unseen,
    }[milestone]


def _newly_unlocked(content: Content, lifetime: Lifetime) -> tuple[CardBack, ...]:
    have = set(lifetime.card_backs)
    return tuple(
        back
        for back in content.card_backs
        if back.unlock is not None
        and back.id not in have
        and milestone_count(lifetime, back.unlock.milestone) >= back.unlock.threshold
    )


# ----- recording a finished match ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TrailUpdate:
    progress: TrailProgress
    lifetime: Lifetime
    summary: MatchSummary
    items: tuple[GazetteItem, ...]  # the new gazette items, newest first
    unlocked: tuple[str, ...]


_ARTICLE = {
    "full_house": "a full house",
    "four_of_a_kind": "four of a kind",
    "straight_flush": "a straight flush",
    "royal_flush": "a royal flush",
    "flush": "a flush",
    "straight": "a straight",
}


def hand_words(category: str) -> str:
    return _ARTICLE.get(category, category.replace("_", " "))


def _names(content: Content, figure_ids: Iterable[str]) -> str:
    names = [content.figure_by_id[f].name for f in figure_ids if f in content.figure_by_id]
    if len(names) <= 1:
        return names[0] if names else "the house"
    return ", ".join(names[:-1]) + " and " + names[-1]


def _outscoring(opponents: Sequence[str], facts: MatchFacts, above: bool) -> list[str]:
    """The table's opponents who finished above the player (``above``) or, for a win,
    those below: a player who shared a win was not among the losers, and one who finished
    under the player did not have the better of them. Seats are the player's, then the
    table's opponents in order (``server/trail.py`` seats them so); without a total for
    every seat, every opponent."""
    others = [s for s in range(len(facts.totals)) if s != facts.seat]
    if len(others) != len(opponents):
        return list(opponents)
    score = facts.score
    picked = [
        f
        for s, f in zip(others, opponents, strict=True)
        if (facts.totals[s] > score if above else facts.totals[s] < score)
    ]
    return picked or list(opponents)


def _best(a: int | None, b: int) -> int:
    return b if a is None else max(a, b)


def apply_match(
    content: Content,
    progress: TrailProgress,
    lifetime: Lifetime,
    entry: Entry,
    facts: MatchFacts,
    *,
    player: str,
    match_id: str,
) -> TrailUpdate:
    """Fold one finished trail match (or gunfight) into the player's records."""
    stories: list[Story] = []
    big = [
        (points, r.categories[facts.seat])
        for r in facts.rounds
        if facts.seat < len(r.hand_points)
        and (points := r.hand_points[facts.seat]) >= BIG_HAND_POINTS
    ]
    caught = sum(
        1 for r in facts.rounds if facts.seat < len(r.suspicion) and r.suspicion[facts.seat] < 0
    )
    unseen = sum(
        1
        for r in facts.rounds
        if facts.seat in r.palmed and facts.seat < len(r.suspicion) and r.suspicion[facts.seat] == 0
    )
    big_hand = hand_words(max(big)[1]) if big else None

    if entry.kind == "table":
        venue = content.venue_by_id[entry.id]
        town = content.town_by_id[venue.town]
        title, opponents = venue.name, list(venue.table.opponents)
        opponent_names = _names(content, opponents)
    else:
        wanted = content.wanted_by_id[entry.id]
        town = content.town_by_id[wanted.town]
        title, opponents = wanted.outlaw, [wanted.figure] if wanted.figure else []
        opponent_names = wanted.outlaw
    where = {"player": player, "town": town.name, "opponent": opponent_names}
    if entry.kind == "table":
        where["venue"] = title

    # The news of the match itself comes first in time, so it is written first.
    if big_hand is not None:
        stories.append(Story(GazetteEvent.BIG_HAND, {**where, "venue": title, "hand": big_hand}))
    if caught:
        first = _names(content, opponents[:1]) if opponents else opponent_names
        stories.append(
            Story(GazetteEvent.PALM_CAUGHT, {**where, "venue": title, "opponent": first})
        )

    outcome: Literal["won", "shared", "lost", "forfeit"]
    if not facts.completed:
        outcome = "forfeit"
    elif facts.won:
        outcome = "won" if len(facts.winners) == 1 else "shared"
    else:
        outcome = "lost"

    tables_won, posters = progress.tables_won, progress.posters_collected
    gunfighter = lifetime.gunfighter
    table_won = trail_completed = False
    town_completed: str | None = None
    town_opened: str | None = None
    reward = 0
    deadwood_reached = deadwood_won = towns_done = 0

    if entry.kind == "table":
        # Only the open table advances the trail; a won table replayed counts as a match.
        if facts.won and table_status(content, progress, entry.id) == "open":
            table_won = True
            tables_won = (*tables_won, entry.id)
            beaten = _names(content, _outscoring(opponents, facts, above=False))
            stories.append(Story(GazetteEvent.TABLE_WON, {**where, "opponent": beaten}))
            after = replace(progress, tables_won=tables_won)
            if town_status(content, after, town.id) == "completed":
                town_completed, towns_done = town.id, 1
                stories.append(Story(GazetteEvent.TOWN_COMPLETED, where))
                nxt = current_table(content, after)
                if nxt is None:
                    trail_completed = True
                    deadwood_won = 1
                else:
                    town_opened = nxt.town
                    new_town = content.town_by_id[nxt.town]
                    stories.append(Story(GazetteEvent.NEW_TOWN, {**where, "town": new_town.name}))
                    if new_town.notes:
                        # Local news from the content's sourced notes, varied by sequence.
                        pick = (lifetime.next_seq + len(stories)) % len(new_town.notes)
                        note = new_town.notes[pick]
                        words = {**where, "town": new_town.name, "news": note.text}
                        stories.append(Story(GazetteEvent.TOWN_NEWS, words))
                    if new_town.id == content.trail[-1].id:
                        deadwood_reached = 1
        elif not facts.won:
            better = _names(content, _outscoring(opponents, facts, above=True))
            stories.append(Story(GazetteEvent.MATCH_LOST, {**where, "opponent": better}))
    else:
        poster = content.wanted_by_id[entry.id]
        reward_words = f"${poster.reward:,}"
        # Only a poster that is up pays: not one already collected, nor one whose town
        # a restart has locked again while the gunfight was being played.
        if gunfight_won(poster, facts) and poster_status(content, progress, poster.id) == "open":
            reward = poster.reward
            posters = (*posters, entry.id)
            gunfighter = replace(
                gunfighter, wins=gunfighter.wins + 1, rewards=gunfighter.rewards + reward
            )
            stories.append(Story(GazetteEvent.GUNFIGHT_WON, {**where, "reward": reward_words}))
            outcome = "won"
        elif gunfight_won(poster, facts):
            outcome = "won"  # already collected this trail: no second reward
        else:
            gunfighter = replace(gunfighter, losses=gunfighter.losses + 1)
            stories.append(Story(GazetteEvent.GUNFIGHT_LOST, {**where, "reward": reward_words}))
            if outcome in ("won", "shared"):
                outcome = "lost"  # won the match but missed the score to beat

    score = facts.score
    counted = facts.completed  # a forfeit's partial score is no "best match score"
    new_progress = TrailProgress(
        tables_won=tables_won,
        posters_collected=posters,
        matches=progress.matches + 1,
        best_score=_best(progress.best_score, score) if counted else progress.best_score,
    )
    life = replace(
        lifetime,
        tables_won=lifetime.tables_won + int(table_won),
        towns_completed=lifetime.towns_completed + towns_done,
        matches=lifetime.matches + 1,
        best_score=_best(lifetime.best_score, score) if counted else lifetime.best_score,
        deadwood_reached=lifetime.deadwood_reached + deadwood_reached,
        deadwood_won=lifetime.deadwood_won + deadwood_won,
        palms_unseen=lifetime.palms_unseen + unseen,
        palms_caught=lifetime.palms_caught + caught,
        big_hands=lifetime.big_hands + len(big),
        gunfighter=gunfighter,
    )
    unlocked = _newly_unlocked(content, life)
    for back in unlocked:
        stories.append(Story(GazetteEvent.DECK_UNLOCKED, {**where, "deck": back.name}))
    unlocked_ids = tuple(b.id for b in unlocked)
    items = write_stories(content, stories, life.next_seq, match_id)
    summary = MatchSummary(
        match_id=match_id,
        kind=entry.kind,
        target=entry.id,
        title=title,
        town=town.id,
        outcome=outcome,
        score=score,
        totals=facts.totals,
        table_won=table_won,
        town_completed=town_completed,
        town_opened=town_opened,
        trail_completed=trail_completed,
        reward=reward,
        unlocked=unlocked_ids,
        headlines=tuple(i.headline for i in items),
        big_hand=big_hand,
        palm_caught=caught > 0,
    )
    life = replace(
        life,
        card_backs=(*life.card_backs, *unlocked_ids),
        announce=(*life.announce, *unlocked_ids),
        gazette=(*reversed(items), *life.gazette)[:GAZETTE_KEEP],
        next_seq=life.next_seq + len(items),
        summaries=(summary, *(s for s in life.summaries if s.match_id != match_id))[
            :SUMMARIES_KEEP
        ],
    )
    return TrailUpdate(new_progress, life, summary, tuple(reversed(items)), unlocked_ids)


def restart(lifetime: Lifetime) -> tuple[TrailProgress, Lifetime]:
    """Start the trail over: towns, tables and collected posters go; the lifetime
    record (card backs, gunfighter record, gazette, lifetime scores) stays."""
    return TrailProgress(), lifetime


def clear_announcements(lifetime: Lifetime) -> tuple[tuple[str, ...], Lifetime]:
    """The unlocks not yet announced, and the record with them marked as announced."""
    return lifetime.announce, replace(lifetime, announce=())
