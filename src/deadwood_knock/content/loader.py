"""Loads, validates and cross-references the trail's content.

``load_content()`` reads every data file once (cached), validates each against
its schema model, then checks what one file alone cannot: ids are unique, every
reference resolves, every art path points at a shipped SVG, every town lies where its
state does, and every table seats only people who were alive and nearby during its
era (or says it is a legends table).
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
    Region,
    Source,
    SourcesFile,
    Town,
    TownsFile,
    Venue,
    VenuesFile,
    WantedFile,
    WantedPoster,
    year_span,
)

__all__ = [
    "CONTENT_DIR",
    "STATE_BOUNDS",
    "Content",
    "ContentError",
    "Misfit",
    "load_content",
    "read_content",
]

# Rough bounding boxes (south, north, west, east; degrees) of the modern states and
# territories the trail visits: a town's coordinates must fall inside its own.
STATE_BOUNDS: dict[str, tuple[float, float, float, float]] = {
    "Texas": (25.8, 36.5, -106.7, -93.5),
    "Kansas": (37.0, 40.0, -102.1, -94.6),
    "Oklahoma": (33.6, 37.0, -103.0, -94.4),
    "Nebraska": (40.0, 43.0, -104.1, -95.3),
    "Wyoming": (41.0, 45.0, -111.1, -104.0),
    "Colorado": (37.0, 41.0, -109.1, -102.0),
    "New Mexico": (31.3, 37.0, -109.1, -103.0),
    "Arizona": (31.3, 37.0, -114.9, -109.0),
    "California": (32.5, 42.0, -124.5, -114.1),
    "Nevada": (35.0, 42.0, -120.0, -114.0),
    "Montana": (44.3, 49.0, -116.1, -104.0),
    "South Dakota": (42.4, 46.0, -104.1, -96.4),
    "Alaska": (51.2, 71.5, -179.2, -129.9),
    "Yukon (Canada)": (60.0, 69.7, -141.1, -123.8),
}

# A figure counts as a plausible opponent from this age until death.
ADULT_AGE = 16
# A figure known only from the years it was seen is granted this many years either side.
SEEN_SLACK = 10


@dataclass(frozen=True, slots=True)
class Misfit:
    """Why a figure could not have sat at a table: ``dead``, ``unborn`` or ``elsewhere``."""

    figure: str
    reason: str


CONTENT_DIR = Path(__file__).parent


class ContentError(ValueError):
    """The content files disagree with each other (a dangling id, a missing file...)."""


@dataclass(frozen=True, slots=True)
class Content:
    """Every content record, in file order, with lookups by id."""

    sources: tuple[Source, ...]
    towns: tuple[Town, ...]
    venues: tuple[Venue, ...]
    figures: tuple[Figure, ...]
    wanted: tuple[WantedPoster, ...]
    card_backs: tuple[CardBack, ...]
    likenesses: tuple[Likeness, ...]
    gazette_empty: str
    gazette: tuple[GazetteTemplate, ...]
    source_by_id: Mapping[str, Source]
    town_by_id: Mapping[str, Town]
    venue_by_id: Mapping[str, Venue]
    figure_by_id: Mapping[str, Figure]
    wanted_by_id: Mapping[str, WantedPoster]
    card_back_by_id: Mapping[str, CardBack]
    likeness_by_id: Mapping[str, Likeness]
    # A venue's former ids -> its id, so saved progress naming an old id still counts.
    venue_alias: Mapping[str, str]
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

    def table_era(self, venue: Venue) -> tuple[int, int]:
        """The years a table is set in: the venue's own years if given, else its town's boom."""
        return year_span(venue.years) if venue.years else self.town_by_id[venue.town].boom

    def figure_regions(self, figure: Figure) -> frozenset[Region]:
        """Where a figure lived or worked: the regions of its towns and any it names."""
        return frozenset({self.town_by_id[t].region for t in figure.towns} | set(figure.regions))

    def misfits(self, venue: Venue) -> tuple[Misfit, ...]:
        """The opponents who could not have sat at this table in its era.

        Dead before the era began, not yet grown by its end, or never in the town's
        region. A figure with neither birth nor death on record is held to the years
        it was seen, give or take ``SEEN_SLACK``.
        """
        start, end = self.table_era(venue)
        region = self.town_by_id[venue.town].region
        out = []
        for figure_id in venue.table.opponents:
            f = self.figure_by_id[figure_id]
            died, born = f.died, f.born
            if died is None and born is None and f.seen is not None:
                first, last = year_span(f.seen)
                born, died = first - SEEN_SLACK - ADULT_AGE, last + SEEN_SLACK
            if died is not None and died < start:
                out.append(Misfit(f.id, "dead"))
            elif born is not None and born + ADULT_AGE > end:
                out.append(Misfit(f.id, "unborn"))
            elif region not in self.figure_regions(f):
                out.append(Misfit(f.id, "elsewhere"))
        return tuple(out)

    def cited(self, ids: Iterable[str]) -> tuple[Source, ...]:
        return tuple(self.source_by_id[s] for s in ids)

    def gazette_for(self, event: GazetteEvent | str) -> tuple[GazetteTemplate, ...]:
        kind = GazetteEvent(event)
        return tuple(t for t in self.gazette if t.event is kind)

    def art_path(self, relative: str) -> Path:
        """Absolute path of an art file named in the data."""
        return self.root / relative


_R = TypeVar("_R", Source, Town, Venue, Figure, WantedPoster, CardBack, Likeness)


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

    sources = SourcesFile.model_validate_json(read("sources")).sources
    towns = TownsFile.model_validate_json(read("towns")).towns
    venues = VenuesFile.model_validate_json(read("venues")).venues
    figures = FiguresFile.model_validate_json(read("figures")).figures
    wanted = WantedFile.model_validate_json(read("wanted")).posters
    backs = CardBacksFile.model_validate_json(read("card_backs")).card_backs
    likenesses = LikenessesFile.model_validate_json(read("likenesses")).likenesses
    gazette = GazetteFile.model_validate_json(read("gazette"))

    content = Content(
        sources=tuple(sources),
        towns=tuple(towns),
        venues=tuple(venues),
        figures=tuple(figures),
        wanted=tuple(wanted),
        card_backs=tuple(backs),
        likenesses=tuple(likenesses),
        gazette_empty=gazette.empty,
        gazette=tuple(gazette.templates),
        source_by_id=_index("source", sources),
        town_by_id=_index("town", towns),
        venue_by_id=_index("venue", venues),
        figure_by_id=_index("figure", figures),
        wanted_by_id=_index("wanted poster", wanted),
        card_back_by_id=_index("card back", backs),
        likeness_by_id=_index("likeness", likenesses),
        venue_alias=_aliases(venues),
        root=root,
    )
    _cross_check(content)
    return content


def _aliases(venues: Iterable[Venue]) -> Mapping[str, str]:
    venues = list(venues)
    current = {v.id for v in venues}
    out: dict[str, str] = {}
    for v in venues:
        for old in v.former_ids:
            _need(old not in current, f"venue {v.id}: former id {old!r} is a current venue id")
            _need(old not in out, f"former venue id {old!r} claimed twice")
            out[old] = v.id
    return MappingProxyType(out)


def _check_citations(c: Content, what: str, ids: Iterable[str]) -> None:
    for s in ids:
        _need(s in c.source_by_id, f"{what}: unknown source {s!r}")


def _check_towns(c: Content) -> None:
    orders = [t.order for t in c.towns]
    _need(len(set(orders)) == len(orders), "two towns share an order index")
    places = [(t.name, t.state_or_territory) for t in c.towns]
    _need(len(set(places)) == len(places), "a town is listed twice under different ids")
    _need(c.trail[-1].id == "deadwood", "the trail must end in Deadwood")
    for i, t in enumerate(c.trail):
        _check_citations(c, f"town {t.id}", t.sources)
        for note in t.notes:
            _check_citations(c, f"town {t.id} note", note.sources)
        bounds = STATE_BOUNDS.get(t.modern_state)
        _need(bounds is not None, f"town {t.id}: no bounds known for {t.modern_state!r}")
        assert bounds is not None
        south, north, west, east = bounds
        _need(
            south <= t.latitude <= north and west <= t.longitude <= east,
            f"town {t.id}: ({t.latitude}, {t.longitude}) is not in {t.modern_state}",
        )
        # The journey is told as a route: every leg after the first says how it is made.
        _need((t.arrival is None) == (i == 0), f"town {t.id}: arrival text only after the first")


def _cross_check(c: Content) -> None:
    _check_towns(c)

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
        _check_citations(c, f"venue {v.id}", v.sources)

    names = [f.name for f in c.figures]
    _need(len(set(names)) == len(names), "a figure is listed twice")
    for f in c.figures:
        for t in f.towns:
            _need(t in c.town_by_id, f"figure {f.id}: unknown town {t!r}")
        _need(c.art_path(f.portrait).is_file(), f"figure {f.id}: no portrait {f.portrait}")
        _check_citations(c, f"figure {f.id}", f.sources)

    # Living opponents: only a table marked as a legends table may seat the dead, the
    # unborn or the far away, and a table so marked must actually seat one.
    for v in c.venues:
        misfits = c.misfits(v)
        if v.table.legends:
            _need(bool(misfits), f"venue {v.id}: a legends table that seats no legend")
        else:
            _need(
                not misfits,
                f"venue {v.id}: "
                + ", ".join(f"{m.figure} ({m.reason})" for m in misfits)
                + " could not have sat here; seat others or mark a legends table",
            )

    for w in c.wanted:
        _need(w.town in c.town_by_id, f"poster {w.id}: unknown town {w.town!r}")
        _check_citations(c, f"poster {w.id}", w.sources)
        start, end = c.town_by_id[w.town].boom
        _need(start <= w.offered <= end, f"poster {w.id}: offered outside {w.town}'s boom")
        if w.figure is not None:
            _need(w.figure in c.figure_by_id, f"poster {w.id}: unknown figure {w.figure!r}")
            died = c.figure_by_id[w.figure].died
            _need(died is None or died >= w.offered, f"poster {w.id}: offered after a death")

    defaults = [b for b in c.card_backs if b.unlock is None]
    _need(len(defaults) == 1, "exactly one card back is the default (no unlock)")
    for art in [b.svg for b in c.card_backs] + [lk.svg for lk in c.likenesses]:
        _need(c.art_path(art).is_file(), f"missing art file {art}")


@cache
def load_content() -> Content:
    """The shipped content, validated once per process."""
    return read_content(CONTENT_DIR)
