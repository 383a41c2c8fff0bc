"""The trail's content: counts, uniqueness, references, art, difficulty rule, schemas."""

from __future__ import annotations

import itertools
import json
import re
import shutil
import string
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from deadwood_knock.content import Content, ContentError, load_content, read_content
from deadwood_knock.content.loader import CONTENT_DIR
from deadwood_knock.content.schema import (
    DIFFICULTY_LADDER,
    FILE_MODELS,
    SCHEMA_DIR,
    Difficulty,
    GazetteEvent,
    TableGame,
    TalkSituation,
    Town,
    json_schemas,
    render_schema,
)

DATA = CONTENT_DIR / "data"
ART = CONTENT_DIR / "art"
SVG_NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def content() -> Content:
    return load_content()


# --- counts -----------------------------------------------------------------


def test_minimum_counts(content: Content) -> None:
    # Issue 18 cut every town, venue and poster no source could be found for.
    assert len(content.towns) >= 40
    assert len(content.venues) >= 90
    assert len(content.figures) >= 50
    assert len(content.wanted) >= 7
    assert len(content.sources) >= 100
    assert len(content.card_backs) >= 8
    assert len(content.likenesses) >= 12


def test_load_content_is_cached(content: Content) -> None:
    assert load_content() is content


# --- uniqueness ---------------------------------------------------------------


def test_towns_unique_by_id_and_by_place(content: Content) -> None:
    ids = [t.id for t in content.towns]
    places = [(t.name.casefold(), t.state_or_territory) for t in content.towns]
    assert len(set(ids)) == len(ids)
    assert len(set(places)) == len(places)


def test_venues_unique_by_id_and_by_name_in_town(content: Content) -> None:
    ids = [v.id for v in content.venues]
    keys = [(v.name.casefold(), v.town) for v in content.venues]
    assert len(set(ids)) == len(ids)
    assert len(set(keys)) == len(keys)


def test_figures_unique(content: Content) -> None:
    ids = [f.id for f in content.figures]
    names = [f.name.casefold() for f in content.figures]
    assert len(set(ids)) == len(ids)
    assert len(set(names)) == len(names)


def test_other_ids_unique(content: Content) -> None:
    for records in (content.wanted, content.card_backs, content.likenesses):
        ids = [r.id for r in records]
        assert len(set(ids)) == len(ids)


# --- the trail ----------------------------------------------------------------


def test_trail_order_is_contiguous_and_ends_in_deadwood(content: Content) -> None:
    assert [t.order for t in content.trail] == list(range(len(content.towns)))
    last = content.trail[-1]
    assert last.id == "deadwood"
    assert last.name == "Deadwood"
    assert last.state_or_territory == "Dakota Territory"
    assert last.modern_state == "South Dakota"


def test_trail_starts_in_cowtowns(content: Content) -> None:
    # The journey opens among the cattle towns before the mining camps.
    first_six = [t.kind.value for t in content.trail[:6]]
    assert first_six.count("cowtown") >= 3
    assert "mining_camp" not in first_six


def test_every_town_has_ordered_tables(content: Content) -> None:
    for town in content.towns:
        tables = content.venues_in(town.id)
        assert tables, f"{town.id} has no tables"
        assert [v.order for v in tables] == list(range(len(tables)))


# --- references -----------------------------------------------------------------


def test_every_reference_resolves(content: Content) -> None:
    towns, figures = content.town_by_id, content.figure_by_id
    for v in content.venues:
        assert v.town in towns
        assert all(o in figures for o in v.table.opponents)
    for f in content.figures:
        assert (f.towns or f.regions) and all(t in towns for t in f.towns)
        assert content.art_path(f.portrait).is_file()
    for w in content.wanted:
        assert w.town in towns
        assert w.figure is None or w.figure in figures
    for art in [b.svg for b in content.card_backs] + [lk.svg for lk in content.likenesses]:
        assert content.art_path(art).is_file()


def test_every_figure_sits_at_some_table(content: Content) -> None:
    seated = {o for v in content.venues for o in v.table.opponents}
    assert seated == set(content.figure_by_id)


def test_table_seats_fit_the_game(content: Content) -> None:
    for v in content.venues:
        n = len(v.table.opponents)
        if v.table.game is TableGame.GIN:
            assert n == 1
        elif v.table.game is TableGame.KNOCK_RUMMY:
            assert 1 <= n <= 4
        else:
            assert 1 <= n <= 5
    games = {v.table.game for v in content.venues}
    assert games == set(TableGame)
    mostly = sum(v.table.game is TableGame.DEADWOOD_KNOCK for v in content.venues)
    assert mostly > len(content.venues) // 2


# --- difficulty rule ---------------------------------------------------------------
# A table is as hard as its hardest opponent. Along the trail (town order, then table
# order) that difficulty never drops, stakes never drop, the trail opens with a
# tenderfoot table, climbs every rung of the ladder, and closes with a legend.


def test_table_difficulty_never_drops_along_the_trail(content: Content) -> None:
    levels = [content.table_difficulty(v) for v in content.trail_venues()]
    assert levels == sorted(levels)
    assert levels[0] == Difficulty.TENDERFOOT.rank
    assert levels[-1] == Difficulty.LEGEND.rank
    assert set(levels) == set(range(len(DIFFICULTY_LADDER)))


def test_stakes_never_drop_along_the_trail(content: Content) -> None:
    stakes = [v.table.stakes for v in content.trail_venues()]
    assert stakes == sorted(stakes)
    assert stakes[-1] > stakes[0]


def test_deadwood_final_table_is_hickoks(content: Content) -> None:
    final = content.trail_venues()[-1]
    assert final.town == "deadwood"
    assert "wild-bill-hickok" in final.table.opponents


def test_skill_parameters_rise_with_difficulty(content: Content) -> None:
    def mean_reading(level: Difficulty) -> float:
        values = [f.discard_reading for f in content.figures if f.difficulty is level]
        return sum(values) / len(values)

    means = [mean_reading(level) for level in DIFFICULTY_LADDER]
    assert means == sorted(means)


def test_lawmen_never_palm(content: Content) -> None:
    for f in content.figures:
        if f.role == "lawman" and f.id != "henry-plummer":
            assert f.palm_rate == 0.0, f.id


# --- text -----------------------------------------------------------------------------


def test_web_addresses_only_in_the_sources_file() -> None:
    # Prose names its sources through citations; only sources.json holds addresses.
    pattern = re.compile(r"https?:|www\.|\.(com|org|net|edu|gov)\b", re.IGNORECASE)
    for path in DATA.glob("*.json"):
        if path.stem != "sources":
            assert not pattern.search(path.read_text(encoding="utf-8")), path.name


def test_table_talk_covers_the_basics(content: Content) -> None:
    for f in content.figures:
        said = [t.situation for t in f.table_talk]
        assert 4 <= len(said) <= 24
        assert {TalkSituation.GREETING, TalkSituation.WIN, TalkSituation.LOSE} <= set(said)
        assert f.portrait_note


# The least a character says for a moment heard often: every knock is voiced and every round
# has a winner, so one line apiece was heard six times in a ten-round match.
TALK_VARIETY = {
    TalkSituation.KNOCK: 3,
    TalkSituation.WIN: 3,
    TalkSituation.LOSE: 2,
    TalkSituation.CALL: 2,
    TalkSituation.FOLD: 2,
}


def test_table_talk_has_several_lines_for_the_frequent_moments(content: Content) -> None:
    for f in content.figures:
        for situation, least in TALK_VARIETY.items():
            lines = [t.line for t in f.table_talk if t.situation is situation]
            assert len(lines) >= least, (f.id, situation.value, lines)
        lines = [t.line for t in f.table_talk]
        assert len(set(lines)) == len(lines), (f.id, lines)


# Known by a nickname, but seated under their own name: a nickname that mocks a woman's
# looks or a race, a title (Roy Bean's "Judge"), or one the player would not know them by.
GIVEN_NAME_KEPT = {
    "big-nose-kate",
    "eleanor-dumont",
    "china-mary",
    "roy-bean",
    "tom-smith",
    "jim-courtright",
}


def test_famous_figures_sit_down_under_the_names_players_know(content: Content) -> None:
    """Wild Bill Hickok, not "James Butler Hickok": the table, the trail and the terminal
    show ``name``, so a figure known by a nickname carries it there, unless kept above."""
    for figure in content.figures:
        if figure.nickname and figure.id not in GIVEN_NAME_KEPT:
            assert figure.nickname in figure.name, (figure.id, figure.name, figure.nickname)


def test_lines_said_to_the_player_assume_no_sex(content: Content) -> None:
    """A palm called out, a round lost to you or won off you may be said to the player, who
    may be anyone: no "mister", "son" or "gentlemen" in those lines."""
    gendered = re.compile(r"\b(mister|sir|son|ma'am|madam|gentlemen|ladies|fellas)\b", re.I)
    for figure in content.figures:
        for talk in figure.table_talk:
            if talk.situation.value in ("palm_caught", "lose", "win"):
                assert not gendered.search(talk.line), (figure.id, talk.line)


def test_no_line_opens_with_its_speakers_full_name(content: Content) -> None:
    """The table prints a line after its speaker's name ("Bat Masterson: “…”"), so a line
    that opens with that name reads twice over (it did: "Bat Masterson: “Bat Masterson.
    I'll be writing about this game later.”"). A possessive is the character's swagger
    ("King Fisher's road ends here."), not a name said twice."""
    for figure in content.figures:
        own = re.compile(re.escape(figure.name) + r"\b(?!')", re.I)
        for talk in figure.table_talk:
            assert not own.match(talk.line), (figure.id, talk.line)


def test_every_figure_has_its_own_call_and_fold_lines(content: Content) -> None:
    # Deadwood Knock's poker pot voices a call or a fold from these; without them a call
    # falls back to the one bluff line (the same every round) and a fold to a generic line.
    pot = (TalkSituation.CALL, TalkSituation.FOLD)
    seen: dict[str, str] = {}
    for f in content.figures:
        for situation in pot:
            own = [t.line for t in f.table_talk if t.situation is situation]
            others = [t.line for t in f.table_talk if t.situation is not situation]
            assert own, (f.id, situation.value)
            for line in own:
                assert line not in others, (f.id, line)
                assert line not in seen, (f.id, line, seen.get(line))
                seen[line] = f.id
    assert len(seen) >= 2 * len(content.figures)


def test_figure_dates_are_plausible(content: Content) -> None:
    for f in content.figures:
        if f.born is not None and f.died is not None:
            assert 10 <= f.died - f.born <= 100, f.id


def test_gazette_has_every_event_and_fills_cleanly(content: Content) -> None:
    assert content.gazette_empty == "No news from the trail just yet."
    values = {
        "player": "Sam",
        "venue": "Long Branch",
        "town": "Dodge City",
        "opponent": "Luke Short",
        "hand": "a full house",
        "reward": "500",
        "deck": "Faro Tiger",
        "news": "the Long Branch has a new piano.",
    }
    for event in GazetteEvent:
        templates = content.gazette_for(event)
        assert templates, event
        for t in templates:
            for text in (t.headline, t.item):
                filled = text.format(**values)
                assert "{" not in filled and "}" not in filled
                fields = {f for _, f, _, _ in string.Formatter().parse(text) if f}
                assert fields <= set(values)


def test_card_back_unlocks(content: Content) -> None:
    defaults = [b for b in content.card_backs if b.unlock is None]
    assert [b.id for b in defaults] == ["plain-ledger"]
    kinds = {b.unlock.milestone.value for b in content.card_backs if b.unlock}
    assert {"tables_won", "towns_completed", "gunfights_won", "deadwood_reached"} <= kinds


def test_wanted_posters_have_gunfight_terms(content: Content) -> None:
    assert any(w.figure is not None for w in content.wanted)
    for w in content.wanted:
        assert w.gunfight.rounds >= 1
        assert w.gunfight.score_to_beat > 0
        assert w.reward > 0


def test_posters_were_offered_in_their_town_while_the_outlaw_lived(content: Content) -> None:
    # A reward notice hangs in a town during its boom, offered by someone named, in a year
    # the wanted man was still alive (no notices for men killed before a reward existed).
    for w in content.wanted:
        start, end = content.town_by_id[w.town].boom
        assert start <= w.offered <= end, w.id
        assert len(w.offered_by) >= 4 and w.sources
        if w.figure is not None:
            died = content.figure_by_id[w.figure].died
            assert died is None or died >= w.offered, w.id


# --- art ------------------------------------------------------------------------------


def _svg_files() -> list[Path]:
    return sorted(ART.rglob("*.svg"))


def test_every_svg_is_small_valid_xml_with_a_title() -> None:
    files = _svg_files()
    assert files
    for path in files:
        assert path.stat().st_size < 6 * 1024, path.name
        root = ET.parse(path).getroot()
        assert root.tag == f"{SVG_NS}svg", path.name
        title = root.find(f"{SVG_NS}title")
        assert title is not None and (title.text or "").strip(), path.name


def test_no_orphan_art(content: Content) -> None:
    named = {f.portrait for f in content.figures}
    named |= {b.svg for b in content.card_backs} | {lk.svg for lk in content.likenesses}
    on_disk = {p.relative_to(CONTENT_DIR).as_posix() for p in _svg_files()}
    assert on_disk == named


def test_portraits_are_distinct_drawings(content: Content) -> None:
    # Hats, whiskers, collars and palettes vary by id, so nearly every drawing differs.
    drawings = {
        content.art_path(f.portrait).read_text().split("</title>", 1)[1] for f in content.figures
    }
    assert len(drawings) >= 0.8 * len(content.figures)


# --- schemas --------------------------------------------------------------------------


@pytest.mark.parametrize("stem", sorted(FILE_MODELS))
def test_schema_round_trip(stem: str) -> None:
    text = (DATA / f"{stem}.json").read_text(encoding="utf-8")
    model = FILE_MODELS[stem].model_validate_json(text)
    again = FILE_MODELS[stem].model_validate_json(model.model_dump_json())
    assert again == model
    assert json.loads(model.model_dump_json(exclude_unset=True)) == json.loads(text)


@pytest.mark.parametrize("stem", sorted(FILE_MODELS))
def test_exported_json_schema_matches(stem: str) -> None:
    committed = (SCHEMA_DIR / f"{stem}.schema.json").read_text(encoding="utf-8")
    assert committed == render_schema(json_schemas()[stem]), (
        "run: python -m deadwood_knock.content.schema"
    )


def test_schema_rejects_bad_records() -> None:
    good = {
        "id": "test-town",
        "name": "Test",
        "state_or_territory": "Kansas",
        "modern_state": "Kansas",
        "kind": "cowtown",
        "region": "plains",
        "boom_years": "1870-1880",
        "latitude": 38.0,
        "longitude": -98.0,
        "description": "A plain description of a plain town.",
        "order": 0,
        "sources": ["usgs-gnis"],
    }
    Town.model_validate_json(json.dumps(good))
    for field, value in [
        ("id", "Not A Slug"),
        ("kind", "space_port"),
        ("boom_years", "1880-1870"),
        ("description", "Read more at www.example.com today."),
        ("order", -1),
        ("sources", []),
        ("latitude", 123.0),
        ("region", "atlantis"),
    ]:
        with pytest.raises(ValidationError):
            Town.model_validate_json(json.dumps({**good, field: value}))
    with pytest.raises(ValidationError):
        Town.model_validate_json(json.dumps({**good, "extra": 1}))


# --- cross-checks on broken copies -----------------------------------------------------


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "content"
    shutil.copytree(CONTENT_DIR / "data", root / "data")
    shutil.copytree(CONTENT_DIR / "art", root / "art")
    return root


def _edit(root: Path, stem: str, edit: object) -> None:
    path = root / "data" / f"{stem}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    edit(data)  # type: ignore[operator]
    path.write_text(json.dumps(data), encoding="utf-8")


def test_copy_of_content_loads(tmp_path: Path) -> None:
    assert len(read_content(_copy(tmp_path)).venues) == len(load_content().venues)


def test_unknown_venue_town_is_refused(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _edit(root, "venues", lambda d: d["venues"][0].update(town="atlantis"))
    with pytest.raises(ContentError, match="unknown town"):
        read_content(root)


def test_unknown_opponent_is_refused(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _edit(root, "venues", lambda d: d["venues"][0]["table"].update(opponents=["nobody-at-all"]))
    with pytest.raises(ContentError, match="unknown opponent"):
        read_content(root)


def test_duplicate_figure_id_is_refused(tmp_path: Path) -> None:
    root = _copy(tmp_path)

    def dup(d: dict[str, list[dict[str, object]]]) -> None:
        d["figures"].append({**d["figures"][0], "name": "Someone Else"})

    _edit(root, "figures", dup)
    with pytest.raises(ContentError, match="duplicate figure id"):
        read_content(root)


def test_missing_portrait_is_refused(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    (root / "art" / "portraits" / "doc-holliday.svg").unlink()
    with pytest.raises(ContentError, match="no portrait"):
        read_content(root)


def test_trail_not_ending_in_deadwood_is_refused(tmp_path: Path) -> None:
    root = _copy(tmp_path)

    def swap(d: dict[str, list[dict[str, object]]]) -> None:
        towns = d["towns"]
        towns[-1]["order"], towns[0]["order"] = towns[0]["order"], towns[-1]["order"]

    _edit(root, "towns", swap)
    with pytest.raises(ContentError, match="Deadwood"):
        read_content(root)


def test_art_generator_reproduces_the_shipped_svgs(tmp_path: Path) -> None:
    from deadwood_knock.content.tools.art import generate

    root = _copy(tmp_path)
    shutil.rmtree(root / "art")
    written = generate(root)
    assert written == len(_svg_files())
    for path in _svg_files():
        rel = path.relative_to(CONTENT_DIR)
        assert (root / rel).read_bytes() == path.read_bytes(), rel


# --- sources, coordinates, the route and living opponents (issue 18) -------------------------

# Boxes (south, north, west, east) for the western United States, Alaska and the Yukon.
WESTERN_US = (25.8, 49.0, -125.0, -93.5)
ALASKA = (51.2, 71.5, -179.2, -129.9)
YUKON = (60.0, 69.7, -141.1, -123.8)
AGE = 16  # grown enough to sit at a card table


def _inside(box: tuple[float, float, float, float], lat: float, lon: float) -> bool:
    south, north, west, east = box
    return south <= lat <= north and west <= lon <= east


def _km(a: Town, b: Town) -> float:
    import math

    p1, p2 = math.radians(a.latitude), math.radians(b.latitude)
    dp, dl = p2 - p1, math.radians(b.longitude - a.longitude)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371 * math.asin(math.sqrt(h))


def test_every_item_cites_a_source_that_exists(content: Content) -> None:
    cited: set[str] = set()
    for town in content.towns:
        cited |= set(town.sources)
        assert town.sources, town.id
        for note in town.notes:
            assert note.sources, town.id
            cited |= set(note.sources)
    for records in (content.venues, content.figures, content.wanted):
        for r in records:
            assert r.sources, r.id
            cited |= set(r.sources)
    assert cited <= set(content.source_by_id)
    # No orphans: every source in the file backs something.
    assert cited == set(content.source_by_id)
    for s in content.sources:
        assert s.url or (s.author and s.year), s.id
        assert s.url is None or s.url.startswith(("https://", "http://")), s.id


@pytest.mark.parametrize("model", ["venues", "figures", "wanted"])
def test_schema_rejects_an_item_without_sources(model: str) -> None:
    data = json.loads((DATA / f"{model}.json").read_text(encoding="utf-8"))
    key = {"venues": "venues", "figures": "figures", "wanted": "posters"}[model]
    data[key][0]["sources"] = []
    with pytest.raises(ValidationError):
        FILE_MODELS[model].model_validate_json(json.dumps(data))
    del data[key][0]["sources"]
    with pytest.raises(ValidationError):
        FILE_MODELS[model].model_validate_json(json.dumps(data))


def test_every_town_lies_in_the_west_alaska_or_the_yukon(content: Content) -> None:
    for t in content.towns:
        boxes = [WESTERN_US, ALASKA, YUKON]
        assert any(_inside(b, t.latitude, t.longitude) for b in boxes), t.id
        if t.modern_state == "Alaska":
            assert _inside(ALASKA, t.latitude, t.longitude), t.id
        elif t.modern_state.startswith("Yukon"):
            assert _inside(YUKON, t.latitude, t.longitude), t.id
        else:
            assert _inside(WESTERN_US, t.latitude, t.longitude), t.id
    # Coordinates are distinct places, not a copied default.
    assert len({(t.latitude, t.longitude) for t in content.towns}) == len(content.towns)


def test_the_journey_reads_as_a_route(content: Content) -> None:
    trail = content.trail
    assert trail[0].arrival is None
    for before, town in itertools.pairwise(trail):
        assert town.arrival, town.id
        km = _km(before, town)
        # A long leg must say how it is made: by water or by rail, not a jump on the map.
        if km > 1200:
            words = ("steamer", "railway", "railroad", "Pacific", "Great Northern", "Yukon River")
            assert any(w in (town.arrival or "") for w in words), (before.id, town.id, round(km))
    ids = [t.id for t in trail]
    assert ids[-1] == "deadwood"
    # No jump from the Bering Sea straight into the Montana gold camps.
    if "nome" in ids and "bannack" in ids:
        assert ids[ids.index("nome") + 1] != "bannack"


def _regions(content: Content, figure_id: str) -> set[str]:
    f = content.figure_by_id[figure_id]
    return {content.town_by_id[t].region.value for t in f.towns} | {r.value for r in f.regions}


def _could_sit(content: Content, figure_id: str, town: Town, start: int, end: int) -> bool:
    f = content.figure_by_id[figure_id]
    born, died = f.born, f.died
    if born is None and died is None and f.seen:
        first, *rest = (int(y) for y in f.seen.split("-"))
        born, died = first - 10 - AGE, (rest[-1] if rest else first) + 10
    alive = (died is None or died >= start) and (born is None or born + AGE <= end)
    return alive and town.region.value in _regions(content, figure_id)


def test_opponents_were_alive_and_nearby_unless_a_legends_table(content: Content) -> None:
    legends = 0
    for v in content.venues:
        town = content.town_by_id[v.town]
        start, end = town.boom
        if v.years:
            parts = [int(y) for y in v.years.split("-")]
            start, end = parts[0], parts[-1]
        fits = [_could_sit(content, o, town, start, end) for o in v.table.opponents]
        if v.table.legends:
            legends += 1
            assert not all(fits), f"{v.id} is marked a legends table but seats only the living"
        else:
            misfits = [o for o, ok in zip(v.table.opponents, fits, strict=True) if not ok]
            assert not misfits, (v.id, misfits)
    # The marker is used, and sparingly.
    assert 1 <= legends <= len(content.venues) // 10


def test_breadth_chinese_residents_and_women_in_business(content: Content) -> None:
    figs = content.figure_by_id
    chinese = [f for f in content.figures if "Chinese" in f.bio]
    assert len(chinese) >= 2
    assert any(n for t in content.towns for n in t.notes if "Chinese" in n.text)
    notes = {t.id for t in content.towns if t.notes}
    assert {"deadwood", "tombstone"} <= notes
    assert "nellie-cashman" in figs and figs["nellie-cashman"].role == "saloon_keeper"
    gem = content.venue_by_id["deadwood-gem-theater"].description
    assert "forced" in gem and "prostitution" in gem


# --- the towns' local news ------------------------------------------------------------------

_WORD = re.compile(r"[a-z0-9']+")
_SMALL = frozenset(
    "a an and at by for from had has he her his in into is it its of on or she that the their"
    " there they this to was were when where which who with".split()
)


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _SMALL}


def _sentences(text: str) -> list[str]:
    # A full stop after a word, not after an initial ("William F. Mosby", "J. M. Moreland").
    parts = re.split(r"(?<=[a-z0-9][.!?])\s+(?=[A-Z])", text)
    return [s.strip() for s in parts if len(_words(s)) >= 4]


def _clauses(text: str) -> list[str]:
    # A sentence's parts between punctuation; only those that say something (four words).
    return [c for c in re.split(r"[.;:,!?]\s*", text) if len(_words(c)) >= 4]


def test_every_town_on_the_trail_has_sourced_local_news(content: Content) -> None:
    for town in content.trail:
        assert 1 <= len(town.notes) <= 4, town.id
        for note in town.notes:
            assert note.sources, (town.id, note.text)
            unknown = [s for s in note.sources if s not in content.source_by_id]
            assert not unknown, (town.id, unknown)
    # A second item wherever the sources allow one: most towns have it.
    assert sum(len(t.notes) >= 2 for t in content.trail) >= len(content.trail) * 2 // 3


def test_local_news_is_not_the_town_description_again(content: Content) -> None:
    for town in content.trail:
        told = [town.description, *([town.arrival] if town.arrival else [])]
        for note in town.notes:
            said = note.text.lower()
            for sentence in (s for text in told for s in _sentences(text)):
                assert sentence.rstrip(".").lower() not in said, (town.id, sentence)
            # Nor one of its clauses in other words: most of a clause's words again.
            for clause in (c for text in told for c in _clauses(text)):
                words = _words(clause)
                assert len(words & _words(note.text)) / len(words) < 0.7, (town.id, clause)


def test_local_news_is_not_a_venue_or_figure_blurb_again(content: Content) -> None:
    for town in content.trail:
        blurbs = [v.description for v in content.venues_in(town.id)]
        blurbs += [f.bio for f in content.figures if town.id in f.towns]
        for note in town.notes:
            for sentence in (s for b in blurbs for s in _sentences(b)):
                assert sentence.rstrip(".").lower() not in note.text.lower(), (town.id, sentence)


def test_local_news_reads_after_the_gazette_template(content: Content) -> None:
    # The paper prints "Word from {town}: {news}", so a note is one or more whole sentences
    # that do not open by naming the town again.
    for town in content.trail:
        for note in town.notes:
            assert note.text[0].isupper() and note.text.endswith("."), (town.id, note.text)
            assert not note.text.lower().startswith(town.name.lower()), (town.id, note.text)
            for template in content.gazette_for(GazetteEvent.TOWN_NEWS):
                item = template.item.format(town=town.name, news=note.text)
                assert "{" not in item and item.endswith(note.text), item


# --- the checks refuse broken copies ---------------------------------------------------------


def test_a_dead_opponent_needs_a_legends_table(tmp_path: Path) -> None:
    root = _copy(tmp_path)

    def seat_hickok_in_nome(d: dict[str, list[dict[str, object]]]) -> None:
        for v in d["venues"]:
            if v["id"] == "nome-dexter-saloon":
                v["table"]["opponents"] = ["wyatt-earp", "wild-bill-hickok"]  # type: ignore[index]

    _edit(root, "venues", seat_hickok_in_nome)
    with pytest.raises(ContentError, match="wild-bill-hickok \\(dead\\)"):
        read_content(root)


def test_a_legends_table_must_seat_a_legend(tmp_path: Path) -> None:
    root = _copy(tmp_path)

    def mark(d: dict[str, list[dict[str, object]]]) -> None:
        for v in d["venues"]:
            if v["id"] == "nome-dexter-saloon":
                v["table"]["legends"] = True  # type: ignore[index]

    _edit(root, "venues", mark)
    with pytest.raises(ContentError, match="seats no legend"):
        read_content(root)


@pytest.mark.parametrize(
    ("stem", "edit", "message"),
    [
        # A town's coordinates must lie in its modern state.
        ("towns", lambda d: d["towns"][0].update(latitude=45.0), "is not in Texas"),
        ("venues", lambda d: d["venues"][0].update(sources=["no-such-book"]), "unknown source"),
        # A reward is offered in the town during its boom, while the outlaw lives.
        ("wanted", lambda d: d["posters"][0].update(offered=1950), "offered outside"),
    ],
    ids=["town-outside-state", "unknown-source", "poster-outside-boom"],
)
def test_broken_citations_places_and_posters_are_refused(
    tmp_path: Path, stem: str, edit: Callable[[Any], None], message: str
) -> None:
    root = _copy(tmp_path)
    _edit(root, stem, edit)
    with pytest.raises(ContentError, match=message):
        read_content(root)
