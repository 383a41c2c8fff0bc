"""Loads, validates and cross-references the trail's content.

``load_content()`` reads every data file once (cached), validates each against
its schema model, then checks what one file alone cannot: ids are unique, every
reference resolves, and every art path points at a shipped SVG.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import TypeVar

from deadwood_knock.content.schema import (
    CardBack,
    CardBacksFile,
    Figure,
    FiguresFile,
    GazetteEvent,
    GazetteFile,
    GazetteTemplate,
    Likeness,
    LikenessesFile,
    Town,
    TownsFile,
    Venue,
    VenuesFile,
    WantedFile,
    WantedPoster,
)

__all__ = ["CONTENT_DIR", "Content", "ContentError", "load_content", "read_content"]

CONTENT_DIR = Path(__file__).parent


class ContentError(ValueError):
    """The content files disagree with each other (a dangling id, a missing file...)."""


@dataclass(frozen=True, slots=True)
class Content:
    """Every content record, in file order, with lookups by id."""

    towns: tuple[Town, ...]
    venues: tuple[Venue, ...]
    figures: tuple[Figure, ...]
    wanted: tuple[WantedPoster, ...]
    card_backs: tuple[CardBack, ...]
    likenesses: tuple[Likeness, ...]
    gazette_empty: str
    gazette: tuple[GazetteTemplate, ...]
    town_by_id: Mapping[str, Town]
    venue_by_id: Mapping[str, Venue]
    figure_by_id: Mapping[str, Figure]
    wanted_by_id: Mapping[str, WantedPoster]
    card_back_by_id: Mapping[str, CardBack]
    likeness_by_id: Mapping[str, Likeness]
    root: Path

    @property
    def trail(self) -> tuple[Town, ...]:
        """Towns in journey order (Deadwood last)."""
        return tuple(sorted(self.towns, key=lambda t: t.order))

    def venues_in(self, town_id: str) -> tuple[Venue, ...]:
        """The tables of one town, in the order they are played."""
        return tuple(sorted((v for v in self.venues if v.town == town_id), key=lambda v: v.order))

    def trail_venues(self) -> tuple[Venue, ...]:
        """Every table along the whole trail, in play order."""
        return tuple(v for town in self.trail for v in self.venues_in(town.id))

    def table_difficulty(self, venue: Venue) -> int:
        """A table is as hard as its hardest opponent (ladder rank 0-5)."""
        return max(self.figure_by_id[f].difficulty.rank for f in venue.table.opponents)

    def gazette_for(self, event: GazetteEvent | str) -> tuple[GazetteTemplate, ...]:
        kind = GazetteEvent(event)
        return tuple(t for t in self.gazette if t.event is kind)

    def art_path(self, relative: str) -> Path:
        """Absolute path of an art file named in the data."""
        return self.root / relative


_R = TypeVar("_R", Town, Venue, Figure, WantedPoster, CardBack, Likeness)


def _index(kind: str, records: Iterable[_R]) -> Mapping[str, _R]:
    out: dict[str, _R] = {}
    for record in records:
        if record.id in out:
            raise ContentError(f"duplicate {kind} id {record.id!r}")
        out[record.id] = record
    return MappingProxyType(out)


def _need(ok: bool, message: str) -> None:
    if not ok:
        raise ContentError(message)


def read_content(root: Path = CONTENT_DIR) -> Content:
    """Read and check the content under ``root`` (uncached; tests point it elsewhere)."""
    data = root / "data"

    def read(stem: str) -> str:
        return (data / f"{stem}.json").read_text(encoding="utf-8")

    towns = TownsFile.model_validate_json(read("towns")).towns
    venues = VenuesFile.model_validate_json(read("venues")).venues
    figures = FiguresFile.model_validate_json(read("figures")).figures
    wanted = WantedFile.model_validate_json(read("wanted")).posters
    backs = CardBacksFile.model_validate_json(read("card_backs")).card_backs
    likenesses = LikenessesFile.model_validate_json(read("likenesses")).likenesses
    gazette = GazetteFile.model_validate_json(read("gazette"))

    content = Content(
        towns=tuple(towns),
        venues=tuple(venues),
        figures=tuple(figures),
        wanted=tuple(wanted),
        card_backs=tuple(backs),
        likenesses=tuple(likenesses),
        gazette_empty=gazette.empty,
        gazette=tuple(gazette.templates),
        town_by_id=_index("town", towns),
        venue_by_id=_index("venue", venues),
        figure_by_id=_index("figure", figures),
        wanted_by_id=_index("wanted poster", wanted),
        card_back_by_id=_index("card back", backs),
        likeness_by_id=_index("likeness", likenesses),
        root=root,
    )
    _cross_check(content)
    return content


def _cross_check(c: Content) -> None:
    orders = [t.order for t in c.towns]
    _need(len(set(orders)) == len(orders), "two towns share an order index")
    places = [(t.name, t.state_or_territory) for t in c.towns]
    _need(len(set(places)) == len(places), "a town is listed twice under different ids")
    _need(c.trail[-1].id == "deadwood", "the trail must end in Deadwood")

    seen_venues: set[tuple[str, str]] = set()
    seen_slots: set[tuple[str, int]] = set()
    for v in c.venues:
        _need(v.town in c.town_by_id, f"venue {v.id}: unknown town {v.town!r}")
        for opponent in v.table.opponents:
            _need(opponent in c.figure_by_id, f"venue {v.id}: unknown opponent {opponent!r}")
        key = (v.name.casefold(), v.town)
        _need(key not in seen_venues, f"venue {v.name!r} listed twice in {v.town}")
        seen_venues.add(key)
        _need((v.town, v.order) not in seen_slots, f"venue {v.id}: order taken in {v.town}")
        seen_slots.add((v.town, v.order))

    names = [f.name for f in c.figures]
    _need(len(set(names)) == len(names), "a figure is listed twice")
    for f in c.figures:
        for t in f.towns:
            _need(t in c.town_by_id, f"figure {f.id}: unknown town {t!r}")
        _need(c.art_path(f.portrait).is_file(), f"figure {f.id}: no portrait {f.portrait}")

    for w in c.wanted:
        _need(w.town in c.town_by_id, f"poster {w.id}: unknown town {w.town!r}")
        if w.figure is not None:
            _need(w.figure in c.figure_by_id, f"poster {w.id}: unknown figure {w.figure!r}")

    defaults = [b for b in c.card_backs if b.unlock is None]
    _need(len(defaults) == 1, "exactly one card back is the default (no unlock)")
    for art in [b.svg for b in c.card_backs] + [lk.svg for lk in c.likenesses]:
        _need(c.art_path(art).is_file(), f"missing art file {art}")


@cache
def load_content() -> Content:
    """The shipped content, validated once per process."""
    return read_content(CONTENT_DIR)
