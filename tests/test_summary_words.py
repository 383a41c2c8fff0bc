"""Match summaries read with names, never ids, and in words for each kind of result."""

from __future__ import annotations

from deadwood_knock.content import load_content
from deadwood_knock.trail.progress import MatchSummary
from deadwood_knock.trail.views import summary_view, the


def _summary(**kw: object) -> MatchSummary:
    content = load_content()
    venue = content.venues[0]
    base: dict[str, object] = dict(
        match_id="m1",
        kind="table",
        target=venue.id,
        title=venue.name,
        town=venue.town,
        outcome="won",
        score=120,
        totals=(120, 80),
    )
    base.update(kw)
    return MatchSummary(**base)  # type: ignore[arg-type]


def test_a_won_table_names_the_venue_and_town() -> None:
    content = load_content()
    venue = content.venues[0]
    town = content.town_by_id[venue.town]
    nxt = content.trail[1]
    view = summary_view(
        content,
        _summary(table_won=True, town_completed=town.id, town_opened=nxt.id, unlocked=("x",)),
    )
    assert view["verdict"] == f"You took the table at {the(venue.name)}, {town.name}."
    words = " ".join(view["lines"])
    assert f"Town cleared: every table in {town.name} is yours." in words
    assert f"The trail leads on to {nxt.name}." in words
    assert town.id not in words.replace(town.name, "") or town.id == town.name


def test_gunfight_and_forfeit_have_their_own_words() -> None:
    content = load_content()
    poster = content.wanted[0]
    won = summary_view(
        content,
        _summary(
            kind="gunfight",
            target=poster.id,
            title=poster.outlaw,
            town=poster.town,
            reward=poster.reward,
        ),
    )
    assert won["verdict"].startswith(f"You outdrew {poster.outlaw}")
    assert f"Reward collected: ${poster.reward:,}." in won["lines"]
    lost = summary_view(
        content,
        _summary(kind="gunfight", target=poster.id, title=poster.outlaw, outcome="lost", score=1),
    )
    assert "got away" in lost["verdict"]
    assert str(poster.gunfight.score_to_beat) in lost["verdict"]
    # Past the score to beat but outscored, or level: the verdict says which, with figures.
    to_beat = poster.gunfight.score_to_beat

    def lost_with(score: int, outlaw: int) -> str:
        shown = summary_view(
            content,
            _summary(
                kind="gunfight",
                target=poster.id,
                title=poster.outlaw,
                outcome="lost",
                score=score,
                totals=(score, outlaw),
            ),
        )
        return str(shown["verdict"])

    assert lost_with(to_beat + 4, to_beat + 95) == (
        f"{poster.outlaw} got away, outscoring you {to_beat + 95} to {to_beat + 4}."
    )
    assert lost_with(to_beat, to_beat) == (
        f"{poster.outlaw} got away: you tied at {to_beat}, and the poster pays only for an "
        "outright win."
    )
    gone = summary_view(content, _summary(outcome="forfeit"))
    assert "forfeit counts as a loss" in gone["verdict"]


def test_the_article() -> None:
    assert the("Vaudeville Theater") == "the Vaudeville Theater"
    assert the("Rowdy Joe's") == "Rowdy Joe's"
    assert the("The Long Branch") == "The Long Branch"


def test_a_lost_table_says_it_went_to_another_player_by_the_scores() -> None:
    content = load_content()
    venue = content.venues[0]
    town = content.town_by_id[venue.town]
    lost = summary_view(content, _summary(outcome="lost", score=372, totals=(437, 372, 308)))
    assert lost["verdict"] == (
        f"The table at {the(venue.name)}, {town.name}, went to another player, 437 to your 372."
    )
