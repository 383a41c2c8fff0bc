"""Trail progression, unlocks, gunfights, gazette and restart, without a server."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from deadwood_knock.content import load_content
from deadwood_knock.content.loader import Content
from deadwood_knock.content.schema import GazetteEvent
from deadwood_knock.games import get_game
from deadwood_knock.games.base import Event
from deadwood_knock.trail import (
    BIG_HAND_POINTS,
    Entry,
    Lifetime,
    MatchFacts,
    RoundFacts,
    TrailProgress,
    TrailUpdate,
    apply_match,
    clear_announcements,
    current_table,
    entry_of,
    facts_from_events,
    gunfight_aim,
    gunfight_won,
    poster_status,
    restart,
    table_id_of,
    table_status,
    town_status,
)
from deadwood_knock.trail.views import (
    card_backs_view,
    gazette_view,
    records_view,
    trail_view,
)

WIN = MatchFacts(seat=0, completed=True, totals=(60, 20), winners=(0,))
LOSS = MatchFacts(seat=0, completed=True, totals=(20, 60), winners=(1,))
FORFEIT = MatchFacts(seat=0, completed=False, totals=(5, 9), winners=())


@pytest.fixture(scope="module")
def content() -> Content:
    return load_content()


def play(
    content: Content,
    progress: TrailProgress,
    lifetime: Lifetime,
    entry: Entry,
    facts: MatchFacts,
    match_id: str = "m",
) -> TrailUpdate:
    return apply_match(
        content, progress, lifetime, entry, facts, player="Kit Lane", match_id=match_id
    )


def win_tables(
    content: Content, progress: TrailProgress, lifetime: Lifetime, count: int
) -> tuple[TrailProgress, Lifetime, list[TrailUpdate]]:
    updates = []
    for n in range(count):
        table = current_table(content, progress)
        assert table is not None
        update = play(content, progress, lifetime, Entry("table", table.id), WIN, f"w{n}")
        progress, lifetime = update.progress, update.lifetime
        updates.append(update)
    return progress, lifetime, updates


# ----- content integrity the trail relies on ------------------------------------------------


def test_no_duplicate_towns_venues_or_figures_and_every_venue_town_exists(
    content: Content,
) -> None:
    for records in (content.towns, content.venues, content.figures, content.wanted):
        ids = [r.id for r in records]
        assert len(ids) == len(set(ids))
    places = {(t.name, t.state_or_territory) for t in content.towns}
    assert len(places) == len(content.towns)
    assert len({f.name for f in content.figures}) == len(content.figures)
    assert len({(v.town, v.name) for v in content.venues}) == len(content.venues)
    assert all(v.town in content.town_by_id for v in content.venues)
    assert all(content.venues_in(t.id) for t in content.trail), "a town without tables"
    assert content.trail[-1].id == "deadwood"


# ----- progression --------------------------------------------------------------------------


def test_a_new_player_has_exactly_the_first_table_open(content: Content) -> None:
    progress = TrailProgress()
    first_town, second_town = content.trail[0], content.trail[1]
    first_table = content.venues_in(first_town.id)[0]
    assert current_table(content, progress) == first_table
    assert town_status(content, progress, first_town.id) == "open"
    assert town_status(content, progress, second_town.id) == "locked"
    statuses = [table_status(content, progress, v.id) for v in content.trail_venues()]
    assert statuses.count("open") == 1 and statuses[0] == "open"
    assert set(statuses[1:]) == {"locked"}


def test_tables_open_in_order_and_a_loss_or_forfeit_leaves_the_table_open(
    content: Content,
) -> None:
    progress, lifetime = TrailProgress(), Lifetime()
    first, second = content.venues_in(content.trail[0].id)[:2]

    lost = play(content, progress, lifetime, Entry("table", first.id), LOSS)
    assert table_status(content, lost.progress, first.id) == "open"
    assert lost.summary.outcome == "lost" and not lost.summary.table_won
    forfeit = play(content, lost.progress, lost.lifetime, Entry("table", first.id), FORFEIT)
    assert table_status(content, forfeit.progress, first.id) == "open"
    assert forfeit.summary.outcome == "forfeit"
    assert forfeit.progress.matches == 2
    # A forfeit's partial score is not a best match score.
    assert forfeit.progress.best_score == 20

    won = play(content, forfeit.progress, forfeit.lifetime, Entry("table", first.id), WIN)
    assert won.summary.table_won and won.summary.outcome == "won"
    assert table_status(content, won.progress, first.id) == "won"
    assert table_status(content, won.progress, second.id) == "open"
    assert won.progress.best_score == 60 and won.lifetime.tables_won == 1


def test_winning_a_locked_table_changes_no_progress(content: Content) -> None:
    later = content.venues_in(content.trail[0].id)[2]
    update = play(content, TrailProgress(), Lifetime(), Entry("table", later.id), WIN)
    assert update.progress.tables_won == ()
    assert table_status(content, update.progress, later.id) == "locked"
    assert update.progress.matches == 1
    assert not update.summary.table_won


def test_a_shared_win_wins_the_table(content: Content) -> None:
    shared = MatchFacts(seat=0, completed=True, totals=(40, 40), winners=(0, 1))
    first = content.venues_in(content.trail[0].id)[0]
    update = play(content, TrailProgress(), Lifetime(), Entry("table", first.id), shared)
    assert update.summary.outcome == "shared" and update.summary.table_won


def test_completing_a_town_opens_the_next_with_news_and_unlocks(content: Content) -> None:
    first, second = content.trail[0], content.trail[1]
    n = len(content.venues_in(first.id))
    progress, lifetime, updates = win_tables(content, TrailProgress(), Lifetime(), n)
    last = updates[-1].summary
    assert last.town_completed == first.id and last.town_opened == second.id
    assert town_status(content, progress, first.id) == "completed"
    assert town_status(content, progress, second.id) == "open"
    assert current_table(content, progress) == content.venues_in(second.id)[0]
    events = [i.event for i in updates[-1].items]
    assert {"table_won", "town_completed", "new_town"} <= set(events)
    assert any(
        second.name in i.item or second.name.upper() in i.headline for i in updates[-1].items
    )
    # First table won -> Drover's Red; first town completed -> Faro Tiger.
    assert updates[0].unlocked == ("drovers-red",)
    assert "faro-tiger" in updates[-1].unlocked
    assert lifetime.card_backs == ("drovers-red", "faro-tiger")
    assert lifetime.towns_completed == 1


def test_the_whole_trail_ends_with_deadwood(content: Content) -> None:
    total = len(content.venues)
    progress, lifetime, updates = win_tables(content, TrailProgress(), Lifetime(), total)
    assert current_table(content, progress) is None
    assert all(town_status(content, progress, t.id) == "completed" for t in content.trail)
    assert updates[-1].summary.trail_completed
    assert content.venue_by_id[updates[-1].summary.target].town == "deadwood"
    reached = [u for u in updates if u.summary.town_opened == "deadwood"]
    assert len(reached) == 1 and "black-hills-pine" in reached[0].unlocked
    assert "aces-and-eights" in updates[-1].unlocked
    unlocked_when = {b: i for i, u in enumerate(updates) for b in u.unlocked}
    assert unlocked_when["riverboat-gilt"] == 24  # the 25th table won
    town_index = [i for i, u in enumerate(updates) if u.summary.town_completed]
    assert unlocked_when["railroad-scroll"] == town_index[4]
    assert unlocked_when["silver-lode"] == town_index[14]
    # Each deck is announced once, in unlock order; reading clears the list.
    assert len(set(lifetime.announce)) == len(lifetime.announce)
    announce, after = clear_announcements(lifetime)
    assert announce == lifetime.card_backs and after.announce == ()
    assert lifetime.tables_won == total and lifetime.towns_completed == len(content.towns)


def test_replaying_a_won_table_counts_only_as_a_match(content: Content) -> None:
    first = content.venues_in(content.trail[0].id)[0]
    progress, lifetime, _ = win_tables(content, TrailProgress(), Lifetime(), 1)
    again = play(content, progress, lifetime, Entry("table", first.id), WIN, "again")
    assert again.progress.tables_won == progress.tables_won
    assert again.lifetime.tables_won == lifetime.tables_won
    assert again.progress.matches == progress.matches + 1


# ----- gunfights ----------------------------------------------------------------------------


def _poster_town_reached(content: Content, poster_id: str) -> TrailProgress:
    poster = content.wanted_by_id[poster_id]
    tables = []
    for town in content.trail:
        if town.id == poster.town:
            break
        tables.extend(v.id for v in content.venues_in(town.id))
    return TrailProgress(tables_won=tuple(tables))


def test_gunfight_terms_need_both_beating_the_outlaw_and_the_score() -> None:
    poster = load_content().wanted[0]
    target = poster.gunfight.score_to_beat

    def facts(me: int, outlaw: int) -> MatchFacts:
        winners = (0,) if me > outlaw else (1,) if outlaw > me else (0, 1)
        return MatchFacts(0, True, (me, outlaw), winners)

    assert gunfight_won(poster, facts(target, target - 1))
    assert not gunfight_won(poster, facts(target - 1, -50))  # beat him, missed the score
    assert not gunfight_won(poster, facts(target + 5, target + 5))  # a tie beats nobody
    assert not gunfight_won(poster, facts(target + 5, target + 9))
    forfeit = MatchFacts(0, False, (target + 50, 0), ())
    assert not gunfight_won(poster, forfeit)


def test_posters_go_up_with_their_town(content: Content) -> None:
    poster = content.wanted[0]
    assert poster_status(content, TrailProgress(), poster.id) == "locked"
    assert poster_status(content, _poster_town_reached(content, poster.id), poster.id) == "open"


def test_winning_a_gunfight_collects_the_reward_once(content: Content) -> None:
    poster = content.wanted[0]
    progress = _poster_town_reached(content, poster.id)
    beat = poster.gunfight.score_to_beat + 10
    win = MatchFacts(0, True, (beat, 0), (0,))
    entry = Entry("gunfight", poster.id)

    lost = play(content, progress, Lifetime(), entry, MatchFacts(0, True, (0, beat), (1,)))
    assert lost.lifetime.gunfighter.losses == 1 and lost.summary.reward == 0
    assert [i.event for i in lost.items] == ["gunfight_lost"]
    assert poster_status(content, lost.progress, poster.id) == "open"

    won = play(content, lost.progress, lost.lifetime, entry, win)
    record = won.lifetime.gunfighter
    assert (record.wins, record.losses, record.rewards) == (1, 1, poster.reward)
    assert won.summary.reward == poster.reward and won.summary.outcome == "won"
    assert poster_status(content, won.progress, poster.id) == "collected"
    assert "wanted-sheet" in won.unlocked
    news = [i for i in won.items if i.event == "gunfight_won"]
    assert len(news) == 1 and f"${poster.reward:,}" in news[0].item + news[0].headline

    twice = play(content, won.progress, won.lifetime, entry, win)
    assert twice.lifetime.gunfighter.rewards == poster.reward
    assert twice.summary.reward == 0
    # A gunfight does not touch the tables.
    assert won.progress.tables_won == progress.tables_won


def test_a_gunfight_won_after_a_restart_locked_its_town_pays_nothing(content: Content) -> None:
    poster = content.wanted[0]
    win = MatchFacts(0, True, (poster.gunfight.score_to_beat + 10, 0), (0,))
    update = play(content, TrailProgress(), Lifetime(), Entry("gunfight", poster.id), win)
    assert update.summary.reward == 0 and update.progress.posters_collected == ()
    assert update.lifetime.gunfighter.rewards == 0


def test_a_gunfights_aim_says_the_terms_it_is_judged_by(content: Content) -> None:
    """The heading's "outscore <outlaw> and reach <score>" holds for every poster: a total
    at the score that outscores the outlaw wins; a point short of the score, or level with
    the outlaw (however high), loses (the heading said only "reach 40")."""
    for poster in content.wanted:
        to_beat = poster.gunfight.score_to_beat
        assert gunfight_aim(poster) == f"outscore {poster.outlaw} and reach {to_beat}"

        def won(mine: int, outlaw: int, poster: Any = poster) -> bool:
            return gunfight_won(poster, MatchFacts(0, True, (mine, outlaw), (0,)))

        assert won(to_beat, to_beat - 1)  # reached, and outscored
        assert not won(to_beat - 1, -50)  # outscored, not reached
        assert not won(to_beat + 50, to_beat + 50)  # reached, level: not outscored
        assert not won(to_beat + 5, to_beat + 6)


def test_match_won_but_score_missed_is_a_lost_gunfight(content: Content) -> None:
    poster = content.wanted[0]
    low = MatchFacts(0, True, (poster.gunfight.score_to_beat - 1, -40), (0,))
    update = play(content, TrailProgress(), Lifetime(), Entry("gunfight", poster.id), low)
    assert update.summary.outcome == "lost"
    assert update.lifetime.gunfighter.losses == 1


# ----- gazette from real events -------------------------------------------------------------


def _round_event(points: int, category: str, suspicion: int) -> Event:
    return Event(
        "round_result",
        None,
        {
            "hand_points": [points, 15],
            "categories": [category, "pair"],
            "suspicion": [suspicion, 0],
            "totals": [points, 15],
        },
    )


def test_facts_read_big_hands_and_palms_from_engine_style_events() -> None:
    events = [
        Event("draw", 0, {"source": "palm", "card": "Ks", "cover": "2d"}),
        _round_event(70, "full_house", -5),
        Event("draw", 0, {"source": "palm", "card": "Qs", "cover": "3d"}),
        _round_event(15, "pair", 0),
        _round_event(100, "straight_flush", 0),
    ]
    facts = facts_from_events(
        events, 0, {"reason": "completed", "scores": [180, 40], "winners": [0]}
    )
    assert [r.palmed for r in facts.rounds] == [frozenset({0}), frozenset({0}), frozenset()]
    assert facts.won and facts.score == 180

    content = load_content()
    first = content.venues_in(content.trail[0].id)[0]
    update = play(content, TrailProgress(), Lifetime(), Entry("table", first.id), facts)
    kinds = [i.event for i in update.items]
    assert "big_hand" in kinds and "palm_caught" in kinds
    big = next(i for i in update.items if i.event == "big_hand")
    assert "a straight flush" in big.item or "A STRAIGHT FLUSH" in big.headline
    assert update.summary.big_hand == "a straight flush" and update.summary.palm_caught
    assert update.lifetime.big_hands == 2
    assert update.lifetime.palms_caught == 1 and update.lifetime.palms_unseen == 1


def test_no_gazette_news_for_a_quiet_round() -> None:
    facts = MatchFacts(
        0,
        True,
        (30, 40),
        (1,),
        (RoundFacts((BIG_HAND_POINTS - 10, 0), ("flush", "high_card"), (0, 0)),),
    )
    content = load_content()
    first = content.venues_in(content.trail[0].id)[0]
    update = play(content, TrailProgress(), Lifetime(), Entry("table", first.id), facts)
    assert [i.event for i in update.items] == ["match_lost"]


def test_facts_from_a_real_engine_match() -> None:
    """Random play through the real engine: the facts agree with its own round results."""
    game = get_game("deadwood-knock")
    options = game.options_from_json({"players": 3, "rounds": 3, "sleight_of_hand": True})
    state = game.new_game(options, 2024)
    rng = random.Random(7)
    events: list[Event] = []
    while not game.is_over(state):
        legal = game.legal_actions(state)
        state, new = game.apply(state, legal[rng.randrange(len(legal))])
        events.extend(new)
    scores = list(game.scores(state))
    best = max(scores)
    result = {
        "reason": "completed",
        "scores": scores,
        "winners": [s for s, x in enumerate(scores) if x == best],
    }
    facts = facts_from_events(events, 1, result)
    results = [e for e in events if e.kind == "round_result"]
    assert len(facts.rounds) == 3 == len(results)
    for rf, ev in zip(facts.rounds, results, strict=True):
        assert list(rf.hand_points) == list(ev.data["hand_points"])
        assert list(rf.suspicion) == list(ev.data["suspicion"])
        # Suspicion only ever falls on a player who palmed that round (DK8).
        assert all(s in rf.palmed for s, pen in enumerate(rf.suspicion) if pen)
    palm_draws = sum(1 for e in events if e.kind == "draw" and e.data.get("source") == "palm")
    assert sum(len(r.palmed) for r in facts.rounds) == palm_draws
    assert facts.score == scores[1] and facts.won == (scores[1] == best)


def test_gazette_is_newest_first_with_an_empty_message(content: Content) -> None:
    empty = gazette_view(content, Lifetime())
    assert empty == {"items": [], "message": "No news from the trail just yet."}
    first = content.venues_in(content.trail[0].id)[0]
    lost = play(content, TrailProgress(), Lifetime(), Entry("table", first.id), LOSS, "a")
    won = play(content, lost.progress, lost.lifetime, Entry("table", first.id), WIN, "b")
    view = gazette_view(content, won.lifetime)
    assert view["message"] is None
    seqs = [i["seq"] for i in view["items"]]
    assert seqs == sorted(seqs, reverse=True) and len(set(seqs)) == len(seqs)
    assert view["items"][-1]["event"] == "match_lost" and view["items"][-1]["match_id"] == "a"
    for item in view["items"]:
        assert "{" not in item["item"] + item["headline"]
        assert "Kit Lane" in item["item"] or "KIT LANE" in item["headline"]
    assert any(first.name in i["item"] for i in view["items"])


def test_a_new_players_gazette_prints_their_arrival_and_the_towns_news(content: Content) -> None:
    town = content.trail[0]
    view = gazette_view(content, Lifetime(), TrailProgress(), "Kit Lane")
    assert view["message"] is None
    # Every town has sourced local news: the arrival, then the town's first note (newest first).
    assert town.notes
    news, arrival = view["items"]
    assert arrival["event"] == "new_town" and arrival["match_id"] is None
    assert town.name in arrival["item"] and "Kit Lane" in arrival["item"]
    assert news["event"] == "town_news" and news["match_id"] is None
    assert news["item"].endswith(town.notes[0].text) and town.name.upper() in news["headline"]
    # No name yet: the paper's word for a newcomer.
    assert "a stranger" in gazette_view(content, Lifetime(), TrailProgress())["items"][-1]["item"]
    # A player who stands further down the trail (every table before it won) gets its news.
    noted = content.trail[1]
    venues = content.trail_venues()
    before = [v.id for v in venues[: next(i for i, v in enumerate(venues) if v.town == noted.id)]]
    there = gazette_view(content, Lifetime(), TrailProgress(tables_won=tuple(before)), "Kit")
    assert [i["event"] for i in there["items"]] == ["town_news", "new_town"]  # newest first
    news = there["items"][0]
    assert noted.notes[0].text in news["item"] and noted.name.upper() in news["headline"]
    for item in (*view["items"], *there["items"]):
        assert "{" not in item["item"] + item["headline"]
    # The first real news replaces the first edition.
    first = content.venues_in(town.id)[0]
    lost = play(content, TrailProgress(), Lifetime(), Entry("table", first.id), LOSS, "a")
    after = gazette_view(content, lost.lifetime, lost.progress, "Kit Lane")
    assert [i["event"] for i in after["items"]] == ["match_lost"]


def test_templates_cover_every_event_the_trail_writes(content: Content) -> None:
    for event in GazetteEvent:
        assert content.gazette_for(event)


# ----- restart and records ------------------------------------------------------------------


def test_restart_clears_the_trail_but_keeps_backs_and_lifetime(content: Content) -> None:
    n = len(content.venues_in(content.trail[0].id))
    _, lifetime, _ = win_tables(content, TrailProgress(), Lifetime(), n)
    new_progress, kept = restart(lifetime)
    assert new_progress == TrailProgress()
    assert kept == lifetime
    assert current_table(content, new_progress) == content.venues_in(content.trail[0].id)[0]
    view = card_backs_view(content, kept, "faro-tiger", ())
    unlocked = {b["id"] for b in view["card_backs"] if b["unlocked"]}
    assert unlocked == {"plain-ledger", "drovers-red", "faro-tiger"}
    assert [b["id"] for b in view["card_backs"] if b["selected"]] == ["faro-tiger"]
    records = records_view(content, new_progress, kept)
    assert records["trail"]["tables_won"] == 0 and records["lifetime"]["tables_won"] == n
    # Winning the first table again is progress again, but no deck is unlocked twice.
    again = play(content, new_progress, kept, Entry("table", content.trail_venues()[0].id), WIN)
    assert again.summary.table_won and again.unlocked == ()


def test_records_round_trip_through_json(content: Content) -> None:
    poster = content.wanted[0]
    progress = _poster_town_reached(content, poster.id)
    win = MatchFacts(0, True, (poster.gunfight.score_to_beat, 0), (0,))
    update = play(content, progress, Lifetime(), Entry("gunfight", poster.id), win)
    assert TrailProgress.from_json(update.progress.to_json()) == update.progress
    assert Lifetime.from_json(update.lifetime.to_json()) == update.lifetime
    assert TrailProgress.from_json({}) == TrailProgress()
    assert Lifetime.from_json(None) == Lifetime()
    assert replace(update.lifetime, gazette=()).gazette == ()


def test_table_ids_name_tables_and_posters(content: Content) -> None:
    venue, poster = content.venues[0], content.wanted[0]
    for entry in (Entry("table", venue.id), Entry("gunfight", poster.id)):
        assert entry_of(content, table_id_of(entry)) == entry
    assert entry_of(content, None) is None
    assert entry_of(content, "no-such-table") is None
    assert entry_of(content, "wanted:nobody") is None


def test_trail_view_lists_towns_in_order_with_progress(content: Content) -> None:
    progress, _, _ = win_tables(content, TrailProgress(), Lifetime(), 2)
    view = trail_view(content, progress)
    assert [t["id"] for t in view["towns"]] == [t.id for t in content.trail]
    first = view["towns"][0]
    assert [t["status"] for t in first["tables"]][:3] == ["won", "won", "open"]
    assert view["towns"][1]["status"] == "locked"
    assert view["progress"]["tables_won"] == 2
    opponent = first["tables"][0]["opponents"][0]
    assert opponent["portrait_url"].startswith("/art/portraits/")
    # Each table says how a sentence names it ("Take a seat at the Vaudeville Theater").
    for table in (t for town in view["towns"] for t in town["tables"]):
        name = table["name"]
        assert table["place"] in (f"at {name}", f"at the {name}"), table["place"]
        assert "the The " not in table["place"]
    posters = [p for t in view["towns"] for p in t["wanted"]]
    assert len(posters) == len(content.wanted)
    # Part-way along, with one reward collected: the view agrees with the pure statuses.
    poster = content.wanted[1]
    reached = replace(_poster_town_reached(content, poster.id), posters_collected=(poster.id,))
    view = trail_view(content, reached)
    for town in view["towns"]:
        assert town["status"] == town_status(content, reached, town["id"])
        for shown in town["wanted"]:
            assert shown["status"] == poster_status(content, reached, shown["id"])
    statuses = {p["id"]: p["status"] for t in view["towns"] for p in t["wanted"]}
    order = {t.id: t.order for t in content.trail}
    mine = order[poster.town]
    assert statuses[poster.id] == "collected"
    assert all(statuses[w.id] == "open" for w in content.wanted if order[w.town] < mine)
    assert all(statuses[w.id] == "locked" for w in content.wanted if order[w.town] > mine)
    assert "locked" in statuses.values()


# ----- content changes under saved progress (issue 18) ------------------------------------------


def _v1_towns() -> dict[str, list[str]]:
    import json
    from pathlib import Path

    import deadwood_knock.trail as trail_pkg

    path = Path(trail_pkg.__file__).with_name("trail_v1.json")
    towns: dict[str, list[str]] = json.loads(path.read_text(encoding="utf-8"))["towns"]
    return towns


def test_progress_saved_on_trail_v1_keeps_completed_towns(content: Content) -> None:
    from deadwood_knock.trail import TRAIL_VERSION, reconcile

    v1 = _v1_towns()
    # A version-1 player who had won every v1 table of San Antonio and Fort Worth, one of
    # Fort Griffin's, and a table that no longer exists.
    won = v1["san-antonio"] + v1["fort-worth"] + v1["fort-griffin"][:1]
    saved = {"tables_won": won, "posters_collected": ["curly-bill"], "matches": 9}
    progress = TrailProgress.from_json(saved)
    assert progress.version == 1
    now = reconcile(content, progress)
    assert now.version == TRAIL_VERSION and now.matches == 9
    # Completed towns stay completed, whatever tables they hold now.
    for town in ("san-antonio", "fort-worth"):
        assert town_status(content, now, town) == "completed"
    # Retired ids and posters are dropped rather than kept as phantom wins.
    assert set(now.tables_won) <= set(content.venue_by_id)
    assert now.posters_collected == ()
    # A table carried by id counts; the player goes on from the first table not won.
    current = current_table(content, now)
    assert current is not None and current.town == "fort-griffin"
    # Reconciling again changes nothing.
    assert reconcile(content, now) == now


def test_progress_saved_on_trail_v2_keeps_towns_whose_tables_were_restored(
    content: Content,
) -> None:
    import json
    from pathlib import Path

    import deadwood_knock.trail as trail_pkg
    from deadwood_knock.trail import TRAIL_VERSION, reconcile

    path = Path(trail_pkg.__file__).with_name("trail_v2.json")
    v2: dict[str, list[str]] = json.loads(path.read_text(encoding="utf-8"))["towns"]
    # Issue 18's audit restored tables to towns a version-2 player may already have finished
    # (the Denver Exchange at Creede among them); such a town must not reopen.
    grown = [t for t in content.trail if set(v.id for v in content.venues_in(t.id)) - set(v2[t.id])]
    assert any(t.id == "creede" for t in grown)
    upto = [t.id for t in content.trail][: [t.id for t in content.trail].index("creede") + 1]
    won = [v for town in upto for v in v2[town]]
    progress = TrailProgress.from_json({"tables_won": won, "version": 2, "matches": 40})
    now = reconcile(content, progress)
    assert now.version == TRAIL_VERSION == 3 and now.matches == 40
    for town in upto:
        assert town_status(content, now, town) == "completed", town
    current = current_table(content, now)
    assert current is not None and current.town == "elizabethtown"
    assert reconcile(content, now) == now
    # A version-2 player part-way through a town that grew goes on there, not further.
    partial = reconcile(content, TrailProgress.from_json({"tables_won": won[:-1], "version": 2}))
    still = current_table(content, partial)
    assert still is not None and still.town == "creede"


def test_a_renamed_table_counts_under_its_former_id(content: Content) -> None:
    from deadwood_knock.trail import reconcile

    renamed = [v for v in content.venues if v.former_ids]
    assert renamed, "the Moreland House correction keeps its old id as an alias"
    venue = renamed[0]
    old = venue.former_ids[0]
    progress = TrailProgress(tables_won=(old,))
    assert reconcile(content, progress).tables_won == (venue.id,)
    # A match started at the old id before the change still records for the venue.
    assert entry_of(content, old) == Entry("table", venue.id)


def test_a_fresh_record_is_current_and_untouched(content: Content) -> None:
    from deadwood_knock.trail import TRAIL_VERSION, reconcile

    assert TrailProgress.from_json({}).version == TRAIL_VERSION
    first = content.trail_venues()[0]
    progress = TrailProgress(tables_won=(first.id,))
    assert reconcile(content, progress) == progress


def test_opening_a_town_with_notes_prints_local_news(content: Content) -> None:
    town = next(t for t in content.trail[1:] if t.notes)
    before = []
    for t in content.trail:
        if t.id == town.id:
            break
        before.extend(v.id for v in content.venues_in(t.id))
    progress = TrailProgress(tables_won=tuple(before[:-1]))
    update = play(content, progress, Lifetime(), Entry("table", before[-1]), WIN)
    assert update.summary.town_opened == town.id
    news = [i for i in update.items if i.event == "town_news"]
    assert len(news) == 1
    assert any(n.text in news[0].item for n in town.notes)
    assert town.name.upper() in news[0].headline


def test_trail_view_carries_the_map_the_markers_and_the_terms(content: Content) -> None:
    view = trail_view(content, TrailProgress())
    for town in view["towns"]:
        assert isinstance(town["latitude"], float) and isinstance(town["longitude"], float)
        assert town["sources"] and all(s["title"] for s in town["sources"])
        assert town["region"]
        for table in town["tables"]:
            assert table["sources"] and isinstance(table["legends"], bool)
            assert table["era"]["start"] <= table["era"]["end"]
            if table["legends"]:
                assert table["legends_note"].startswith("A legends table: ")
            else:
                assert table["legends_note"] is None
        for poster in town["wanted"]:
            terms = poster["terms"]
            assert terms["reward"] == poster["reward"]
            assert terms["score_to_beat"] == poster["gunfight"]["score_to_beat"]
            assert terms["rounds"] == poster["gunfight"]["rounds"]
            assert poster["offered_by"] and poster["offered"] and poster["sources"]
    assert view["towns"][0]["arrival"] is None
    assert all(t["arrival"] for t in view["towns"][1:])
    legends = [t for town in view["towns"] for t in town["tables"] if t["legends"]]
    assert legends and "died in" in " ".join(t["legends_note"] for t in legends)


def test_the_gazette_names_only_the_players_who_finished_above_or_below(
    content: Content,
) -> None:
    """At a three-seat table lost to one opponent, the paper does not say the other, who
    finished under the player, "had the better" of them; at a shared win, the co-winner is
    not "among the losers" (both read wrong in play before)."""
    first = content.venues_in(content.trail[0].id)[0]
    ahead, behind = (content.figure_by_id[f].name for f in first.table.opponents[:2])
    entry = Entry("table", first.id)
    lost = MatchFacts(seat=0, completed=True, totals=(372, 437, 308), winners=(1,))
    shared = MatchFacts(seat=0, completed=True, totals=(60, 60, 20), winners=(0, 1))
    said: dict[str, list[str]] = {"match_lost": [], "table_won": []}
    for seq in range(4):  # every template of each event, each taking its turn by seq
        life = Lifetime(next_seq=seq)
        for facts in (lost, shared):
            update = play(content, TrailProgress(), life, entry, facts)
            for item in gazette_view(content, update.lifetime)["items"]:
                if item["event"] in said:
                    said[item["event"]].append(item["item"])
    assert said["match_lost"] and said["table_won"]
    assert all(behind not in text for text in said["match_lost"])
    assert any(ahead in text for text in said["match_lost"])
    assert all(ahead not in text for text in said["table_won"])
    assert any(behind in text for text in said["table_won"])
