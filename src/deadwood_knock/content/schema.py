"""Pydantic models for the trail's content files, and their JSON Schema export.

Each data file under ``content/data/`` is one model below (a list wrapped in a
file model so the JSON Schema has one root per file). Models are frozen and
strict: the data is hand-written, so a typo should fail loudly at load time
rather than turn into a quiet default.

Run ``python -m deadwood_knock.content.schema`` to rewrite the exported JSON
Schemas in ``content/schema/``; a test checks the committed files match.
"""

from __future__ import annotations

import json
import re
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

__all__ = [
    "DIFFICULTY_LADDER",
    "FILE_MODELS",
    "SCHEMA_DIR",
    "CardBack",
    "CardBacksFile",
    "Chase",
    "Difficulty",
    "Figure",
    "FiguresFile",
    "GazetteEvent",
    "GazetteFile",
    "GazetteTemplate",
    "Gunfight",
    "Likeness",
    "LikenessesFile",
    "Milestone",
    "Region",
    "Source",
    "SourcesFile",
    "Table",
    "TableGame",
    "TalkLine",
    "TalkSituation",
    "Town",
    "TownKind",
    "TownNote",
    "TownsFile",
    "Unlock",
    "Venue",
    "VenueKind",
    "VenuesFile",
    "WantedFile",
    "WantedPoster",
    "export_schemas",
    "year_span",
]

SCHEMA_DIR = Path(__file__).with_name("schema")

# A lower-case slug: used as the id of every record and as a file stem for art.
Slug = Annotated[str, Field(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$", min_length=2, max_length=48)]
# Art lives next to the data; a path is relative to the content package and must stay inside it.
ArtPath = Annotated[str, Field(pattern=r"^art/[a-z0-9_/-]+\.svg$")]
Year = Annotated[int, Field(ge=1700, le=1960)]
Unit = Annotated[float, Field(ge=0.0, le=1.0)]
Prose = Annotated[str, Field(min_length=12, max_length=480)]

# A source's address: a plain web page (no credentials, no spaces).
WebAddress = Annotated[
    str, Field(pattern=r"^https?://[A-Za-z0-9.-]+\.[a-z]{2,}(/[^\s]*)?$", max_length=300)
]
# Items cite sources by the id of an entry in ``sources.json``; at least one each.
Citations = Annotated[list[Slug], Field(min_length=1, max_length=6)]

_URLISH = re.compile(r"https?://|www\.|\.(com|org|net|edu|gov)\b", re.IGNORECASE)


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


def _no_links(text: str | None) -> str | None:
    # Prose names its sources by citation; a link in the prose is always a mistake.
    if text is not None and _URLISH.search(text):
        raise ValueError("no web addresses in content text")
    return text


class Difficulty(StrEnum):
    TENDERFOOT = "tenderfoot"
    GREENHORN = "greenhorn"
    REGULAR = "regular"
    SHARP = "sharp"
    HIGH_ROLLER = "high_roller"
    LEGEND = "legend"

    @property
    def rank(self) -> int:
        """Position on the ladder, 0 (tenderfoot) to 5 (legend)."""
        return DIFFICULTY_LADDER.index(self)


DIFFICULTY_LADDER: tuple[Difficulty, ...] = tuple(Difficulty)


class TownKind(StrEnum):
    COWTOWN = "cowtown"
    MINING_CAMP = "mining_camp"
    BORDER_TOWN = "border_town"
    RAILROAD_TOWN = "railroad_town"
    OUTLAW_HIDEOUT = "outlaw_hideout"
    FORT_TOWN = "fort_town"
    TRAIL_TOWN = "trail_town"
    PORT_TOWN = "port_town"
    CAPITAL = "capital"


class Region(StrEnum):
    """Where on the map a town lies, coarse enough that a figure who worked one town of a
    region is plausibly met in another (the living-opponents rule reads it)."""

    TEXAS = "texas"
    PLAINS = "plains"  # Kansas, Nebraska and the Indian and Oklahoma Territories
    WYOMING = "wyoming"
    COLORADO = "colorado"
    NEW_MEXICO = "new_mexico"
    ARIZONA = "arizona"
    CALIFORNIA = "california"
    NEVADA = "nevada"
    MONTANA = "montana"
    BLACK_HILLS = "black_hills"
    NORTH = "north"  # Alaska and the Yukon


class VenueKind(StrEnum):
    SALOON = "saloon"
    GAMBLING_HALL = "gambling_hall"
    VARIETY_THEATRE = "variety_theatre"
    DANCE_HALL = "dance_hall"
    HOTEL = "hotel"
    CLUB = "club"
    OPERA_HOUSE = "opera_house"


class TableGame(StrEnum):
    DEADWOOD_KNOCK = "deadwood-knock"
    KNOCK_RUMMY = "knock-rummy"
    GIN = "gin"

    @property
    def max_opponents(self) -> int:
        # Seats are the player plus opponents: DK takes 2-6, Knock Rummy 2-5, Gin exactly 2.
        return {"deadwood-knock": 5, "knock-rummy": 4, "gin": 1}[self.value]


class Chase(StrEnum):
    PAIRS = "pairs"
    SETS = "sets"
    FLUSH = "flush"
    STRAIGHT = "straight"
    LOW_DEADWOOD = "low_deadwood"
    BALANCED = "balanced"


class TalkSituation(StrEnum):
    GREETING = "greeting"
    KNOCK = "knock"
    WIN = "win"
    LOSE = "lose"
    PALM_CAUGHT = "palm_caught"
    BLUFF = "bluff"
    # Deadwood Knock's poker pot: a seat that calls (puts 10 in) or folds (stays out).
    CALL = "call"
    FOLD = "fold"


class Milestone(StrEnum):
    TABLES_WON = "tables_won"
    TOWNS_COMPLETED = "towns_completed"
    GUNFIGHTS_WON = "gunfights_won"
    DEADWOOD_REACHED = "deadwood_reached"
    DEADWOOD_WON = "deadwood_won"
    PALMS_UNSEEN = "palms_unseen"


class GazetteEvent(StrEnum):
    TABLE_WON = "table_won"
    TOWN_COMPLETED = "town_completed"
    BIG_HAND = "big_hand"
    PALM_CAUGHT = "palm_caught"
    GUNFIGHT_WON = "gunfight_won"
    GUNFIGHT_LOST = "gunfight_lost"
    DECK_UNLOCKED = "deck_unlocked"
    NEW_TOWN = "new_town"
    MATCH_LOST = "match_lost"
    TOWN_NEWS = "town_news"


# Placeholders a gazette template may use; the game fills them with plain text.
GAZETTE_PLACEHOLDERS = frozenset(
    {"player", "venue", "town", "opponent", "hand", "reward", "deck", "news"}
)
_PLACEHOLDER = re.compile(r"\{([a-z_]*)\}")


class Source(_Model):
    """Where a fact comes from: a stable web page, or a book named well enough to find.

    A web page has its address; a book has its author and year (and ``pages`` only when
    the page is actually known). Items cite a source by its id.
    """

    id: Slug
    title: Annotated[str, Field(min_length=3, max_length=200)]
    publisher: Annotated[str, Field(min_length=2, max_length=120)]
    author: Annotated[str, Field(min_length=3, max_length=120)] | None = None
    year: Annotated[int, Field(ge=1850, le=2100)] | None = None
    url: WebAddress | None = None
    pages: Annotated[str, Field(min_length=1, max_length=40)] | None = None

    @model_validator(mode="after")
    def _findable(self) -> Source:
        if self.url is None and (self.author is None or self.year is None):
            raise ValueError("a source needs a web address, or an author and a year")
        return self


Years = Annotated[str, Field(pattern=r"^1[78]\d\d(-1[89]\d\d)?$|^19\d\d(-19\d\d)?$")]


def year_span(value: str) -> tuple[int, int]:
    """``"1876-1879"`` -> (1876, 1879); a single year is a span of one."""
    parts = [int(p) for p in value.split("-")]
    return parts[0], parts[-1]


def _years_forward(value: str | None) -> str | None:
    if value is not None:
        start, end = year_span(value)
        if end < start:
            raise ValueError("years must run forward")
    return value


class TownNote(_Model):
    """A sourced item of local news the gazette prints when the player reaches the town."""

    text: Annotated[str, Field(min_length=30, max_length=240)]
    sources: Citations

    _links = field_validator("text")(_no_links)


class Town(_Model):
    id: Slug
    name: Annotated[str, Field(min_length=2, max_length=60)]
    state_or_territory: Annotated[str, Field(min_length=4, max_length=90)]
    modern_state: Annotated[str, Field(min_length=4, max_length=60)]
    kind: TownKind
    region: Region
    boom_years: Years
    # WGS84 degrees of the town site, for the trail map.
    latitude: Annotated[float, Field(ge=-90.0, le=90.0)]
    longitude: Annotated[float, Field(ge=-180.0, le=180.0)]
    description: Prose
    # How the traveller gets here from the town before (every town but the first).
    arrival: Prose | None = None
    order: Annotated[int, Field(ge=0)]
    sources: Citations
    notes: Annotated[list[TownNote], Field(max_length=4)] = Field(default_factory=list)

    _links = field_validator("description", "arrival")(_no_links)
    _years = field_validator("boom_years")(_years_forward)

    @property
    def boom(self) -> tuple[int, int]:
        return year_span(self.boom_years)


class Table(_Model):
    """The game played at a venue: the player sits down with these opponents."""

    opponents: Annotated[list[Slug], Field(min_length=1, max_length=5)]
    stakes: Annotated[int, Field(ge=1, le=1000)]
    game: TableGame = TableGame.DEADWOOD_KNOCK
    rounds: Annotated[int, Field(ge=1, le=30)] = 10
    # A legends table seats someone who could not have been there (dead, unborn or far
    # away); the game says so. Every other table seats only the living and nearby.
    legends: bool = False

    @model_validator(mode="after")
    def _seats_fit_game(self) -> Table:
        if len(self.opponents) > self.game.max_opponents:
            raise ValueError(f"{self.game.value} seats at most {self.game.max_opponents} opponents")
        if len(set(self.opponents)) != len(self.opponents):
            raise ValueError("an opponent is seated twice")
        return self


class Venue(_Model):
    id: Slug
    name: Annotated[str, Field(min_length=2, max_length=80)]
    town: Slug
    kind: VenueKind
    description: Prose
    order: Annotated[int, Field(ge=0)]
    table: Table
    sources: Citations
    # When the house ran, where known and not the town's boom (the table's era if given).
    years: Years | None = None
    # Ids this venue was saved under before (renamed or corrected); saved progress that
    # names one of them counts for this venue.
    former_ids: Annotated[list[Slug], Field(max_length=4)] = Field(default_factory=list)

    _links = field_validator("description")(_no_links)
    _years = field_validator("years")(_years_forward)


class TalkLine(_Model):
    situation: TalkSituation
    line: Annotated[str, Field(min_length=3, max_length=120)]


class Figure(_Model):
    id: Slug
    name: Annotated[str, Field(min_length=3, max_length=60)]
    nickname: Annotated[str, Field(min_length=2, max_length=40)] | None = None
    role: Literal["gambler", "outlaw", "lawman", "saloon_keeper", "frontier_legend"]
    born: Year | None = None
    died: Year | None = None
    bio: Annotated[str, Field(min_length=40, max_length=600)]
    # Trail towns the figure is documented in (may be empty when only ``regions`` apply).
    towns: list[Slug]
    portrait: ArtPath
    portrait_note: Annotated[str, Field(min_length=10, max_length=160)]
    difficulty: Difficulty
    knock_threshold: Annotated[int, Field(ge=0, le=11)]
    call_rate: Unit
    fold_discipline: Unit
    chase: Chase
    palm_rate: Unit
    discard_reading: Unit
    # Several lines a situation, so a ten-round match does not hear one knock line at every
    # knock (the clients pick among them).
    table_talk: Annotated[list[TalkLine], Field(min_length=4, max_length=24)]
    sources: Citations
    # Regions the figure lived or worked in beyond those of the trail towns in ``towns``.
    regions: Annotated[list[Region], Field(max_length=6)] = Field(default_factory=list)
    # Years the record places the figure, for someone whose birth and death are unknown.
    seen: Years | None = None

    _links = field_validator("bio")(_no_links)

    @model_validator(mode="after")
    def _check(self) -> Figure:
        if self.born is not None and self.died is not None and self.died < self.born:
            raise ValueError("died before born")
        said = {t.situation for t in self.table_talk}
        # Every opponent must at least say hello and react to the result.
        missing = {TalkSituation.GREETING, TalkSituation.WIN, TalkSituation.LOSE} - said
        if missing:
            raise ValueError(f"table_talk lacks {sorted(m.value for m in missing)}")
        if self.born is None and self.died is None and self.seen is None:
            raise ValueError("a figure needs born, died or the years it was seen")
        if not self.towns and not self.regions:
            raise ValueError("a figure needs a town or a region")
        if self.seen is not None:
            _years_forward(self.seen)
        return self


class Gunfight(_Model):
    """A short duel match against the outlaw: beat the score within the rounds."""

    rounds: Annotated[int, Field(ge=1, le=10)]
    score_to_beat: Annotated[int, Field(ge=1, le=2000)]
    stakes: Annotated[int, Field(ge=1, le=1000)]
    game: TableGame = TableGame.DEADWOOD_KNOCK


class WantedPoster(_Model):
    """A reward notice as it was offered: the crime, the sum, who offered it and when.

    ``town`` is the trail town where the notice hangs; ``offered`` (a year) falls in
    that town's boom, and the gunfight's terms are the game's own.
    """

    id: Slug
    outlaw: Annotated[str, Field(min_length=3, max_length=60)]
    figure: Slug | None = None
    crime: Annotated[str, Field(min_length=12, max_length=240)]
    reward: Annotated[int, Field(ge=1, le=100000)]
    offered_by: Annotated[str, Field(min_length=4, max_length=120)]
    offered: Year
    town: Slug
    gunfight: Gunfight
    sources: Citations

    _links = field_validator("crime", "offered_by")(_no_links)


class Unlock(_Model):
    milestone: Milestone
    threshold: Annotated[int, Field(ge=1, le=1000)]


class CardBack(_Model):
    id: Slug
    name: Annotated[str, Field(min_length=3, max_length=40)]
    description: Prose
    unlock: Unlock | None
    svg: ArtPath


class Likeness(_Model):
    id: Slug
    name: Annotated[str, Field(min_length=3, max_length=40)]
    description: Prose
    svg: ArtPath


class GazetteTemplate(_Model):
    event: GazetteEvent
    headline: Annotated[str, Field(min_length=4, max_length=90)]
    item: Annotated[str, Field(min_length=12, max_length=240)]

    @model_validator(mode="after")
    def _known_placeholders(self) -> GazetteTemplate:
        for text in (self.headline, self.item):
            unknown = set(_PLACEHOLDER.findall(text)) - GAZETTE_PLACEHOLDERS
            if unknown:
                raise ValueError(f"unknown placeholders {sorted(unknown)} in {text!r}")
        return self


class SourcesFile(_Model):
    sources: Annotated[list[Source], Field(min_length=1)]


class TownsFile(_Model):
    towns: Annotated[list[Town], Field(min_length=1)]


class VenuesFile(_Model):
    venues: Annotated[list[Venue], Field(min_length=1)]


class FiguresFile(_Model):
    figures: Annotated[list[Figure], Field(min_length=1)]


class WantedFile(_Model):
    posters: Annotated[list[WantedPoster], Field(min_length=1)]


class CardBacksFile(_Model):
    card_backs: Annotated[list[CardBack], Field(min_length=1)]


class LikenessesFile(_Model):
    likenesses: Annotated[list[Likeness], Field(min_length=1)]


class GazetteFile(_Model):
    empty: Annotated[str, Field(min_length=3)]
    templates: Annotated[list[GazetteTemplate], Field(min_length=1)]

    @model_validator(mode="after")
    def _every_event(self) -> GazetteFile:
        missing = set(GazetteEvent) - {t.event for t in self.templates}
        if missing:
            raise ValueError(f"no template for {sorted(m.value for m in missing)}")
        return self


# File stem -> model of that file; the loader and the schema export both walk this.
FILE_MODELS: dict[str, type[_Model]] = {
    "sources": SourcesFile,
    "towns": TownsFile,
    "venues": VenuesFile,
    "figures": FiguresFile,
    "wanted": WantedFile,
    "card_backs": CardBacksFile,
    "likenesses": LikenessesFile,
    "gazette": GazetteFile,
}


def json_schemas() -> dict[str, dict[str, Any]]:
    """The JSON Schema of every data file, by file stem (validation mode, as loaded)."""
    return {stem: model.model_json_schema(mode="validation") for stem, model in FILE_MODELS.items()}


def render_schema(schema: dict[str, Any]) -> str:
    """The committed text form of a schema: stable key order, trailing newline."""
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def export_schemas(directory: Path = SCHEMA_DIR) -> list[Path]:
    """Write ``<stem>.schema.json`` for every data file; returns the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for stem, schema in json_schemas().items():
        path = directory / f"{stem}.schema.json"
        path.write_text(render_schema(schema), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":  # pragma: no cover - a developer command
    for written_path in export_schemas():
        sys.stdout.write(f"{written_path}\n")
