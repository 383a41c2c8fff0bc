"""``search.KR_SAFE_DISCARD`` / ``search.GIN_SAFE_DISCARD`` (issue #17, Gin and Knock
Rummy twenty-third pass): at a discard decision the plain discard that feeds the next
seat least (``search.feed``, from the inference model's weights and the cards it is known
to hold) among those within ``SAFE_SLACK`` of the best count is added to the search's
kept candidates. Off (0, in play): today's values sample for sample; on: the safe
discard is weighed, nothing hidden read, a seeded match repeats."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from bot_positions import discard_position
from deadwood_knock.bots import Budget, get_bot, search
from deadwood_knock.bots.kr import discard_card
from deadwood_knock.bots.view import view_of
from deadwood_knock.cards import parse_cards
from deadwood_knock.games import get_game

HAND = "7h 8h 9h 4s 4d Js Qs Kd 2c 3d 9s"
FAR = "Ks Qd Jc Th 9s 8d 7c 6h Kd Qc 5s"
GAMES = ("knock-rummy", "gin")


def _values(game: Any, obs: Any, legal: Any, seed: int = 11) -> list[tuple[str, Any]]:
    ranked = search.SearchBot().evaluate(
        game, obs, legal, random.Random(seed), Budget(iterations=24)
    )
    return [(str(av.action), av.draws) for av in ranked]


def _switch(monkeypatch: Any, value: int) -> None:
    monkeypatch.setattr(search, "KR_SAFE_DISCARD", value)
    monkeypatch.setattr(search, "GIN_SAFE_DISCARD", value)


def test_off_in_play_and_off_is_today() -> None:
    assert search.KR_SAFE_DISCARD == 0
    assert search.GIN_SAFE_DISCARD == 0
    assert search._SAFE.get() is None


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("hand", [HAND, FAR])
def test_on_the_safe_discard_is_weighed(monkeypatch: Any, game_name: str, hand: str) -> None:
    """On: the safe discard is among the actions valued; the values of the actions today
    weighs are unchanged only when it was already among them."""
    game, state = discard_position(game_name, hand, "5h")
    obs, legal = game.observe(state, 0), game.legal_actions(state)
    _switch(monkeypatch, 0)
    off = _values(game, obs, legal)
    _switch(monkeypatch, 1)
    view = view_of(obs, game_name)
    weighed = search.gin_weighed(view, legal) if game_name == "gin" else legal
    safe = search.safe_discard(view, weighed)
    assert safe is not None
    on = _values(game, obs, legal)
    assert str(safe) in {a for a, _ in on}
    if str(safe) in {a for a, _ in off}:
        assert on == off
    else:
        assert len(on) == len(off) + 1
    assert search._SAFE.get() is None  # reset after the decision


def test_the_switches_are_per_game(monkeypatch: Any) -> None:
    for game_name in GAMES:
        game, state = discard_position(game_name, FAR, "5h")
        obs, legal = game.observe(state, 0), game.legal_actions(state)
        _switch(monkeypatch, 0)
        off = _values(game, obs, legal)
        other = "GIN_SAFE_DISCARD" if game_name == "knock-rummy" else "KR_SAFE_DISCARD"
        monkeypatch.setattr(search, other, 1)
        assert _values(game, obs, legal) == off


def test_feed_counts_what_the_next_seat_holds_or_may_hold() -> None:
    """A card of the rank the next seat is known to hold (it took it) feeds it more, by
    that card's 1 less the share it had as an unseen card; a card unrelated to it, about
    the same (the other unseen cards' shares move a little)."""
    game, state = discard_position("gin", HAND, "5h")
    view = view_of(game.observe(state, 0), "gin")
    ks = parse_cards("Kc")[0]
    doctored = dataclasses.replace(
        view, known_cards=tuple((ks,) if s == 1 else k for s, k in enumerate(view.known_cards))
    )
    kd, js, c2 = parse_cards("Kd Js 2c")
    before, after = search.feed(view, [kd, js, c2]), search.feed(doctored, [kd, js, c2])
    assert after[kd] > before[kd] + 0.5
    assert after[js] == pytest.approx(before[js], abs=0.1)  # Kc does not meld with Js


def test_safe_discard_is_the_least_fed_within_the_slack(monkeypatch: Any) -> None:
    game, state = discard_position("knock-rummy", HAND, "5h")
    obs, legal = game.observe(state, 0), game.legal_actions(state)
    view = view_of(obs, "knock-rummy")
    safe = search.safe_discard(view, legal)
    assert safe is not None and safe.kind == "discard"
    cards = [discard_card(a) for a in legal if a.kind == "discard"]
    fed = search.feed(view, [c for c in cards if c is not None])
    assert fed[discard_card(safe)] == min(fed.values()) or search.SAFE_SLACK < 100
    monkeypatch.setattr(search, "SAFE_SLACK", 1000)
    wide = search.safe_discard(view, legal)
    assert wide is not None and fed[discard_card(wide)] == min(fed.values())


@pytest.mark.parametrize("game_name", GAMES)
def test_on_reads_nothing_hidden(monkeypatch: Any, game_name: str) -> None:
    """Doctored states: other hidden cards behind the same observation give the same
    values, sample for sample."""
    _switch(monkeypatch, 1)
    runs, rivals = [], []
    for shift in (0, 7, 19):
        game, state = discard_position(game_name, FAR, "5h", shift=shift)
        runs.append(_values(game, game.observe(state, 0), game.legal_actions(state)))
        rivals.append(state.hands[1])
    assert len(set(rivals)) == 3
    assert runs[0] == runs[1] == runs[2]


@pytest.mark.parametrize("game_name", GAMES)
def test_on_a_seeded_match_repeats(monkeypatch: Any, game_name: str) -> None:
    """A seeded match, strong (switch on) against strong-v1, twice: the same moves; the
    safe discard is computed at strong's discards."""
    _switch(monkeypatch, 1)
    calls = []
    real = search.safe_discard

    def spy(view: Any, legal: Any) -> Any:
        out = real(view, legal)
        calls.append(str(out))
        return out

    monkeypatch.setattr(search, "safe_discard", spy)

    def play() -> list[str]:
        game = get_game(game_name)
        state = game.new_game(game.options_from_json({"players": 2}), 4)
        bots = [get_bot("strong"), get_bot("strong-v1")]
        rngs = [random.Random(1), random.Random(2)]
        moves: list[str] = []
        while not game.is_over(state) and len(moves) < 400:
            who = game.to_act(state)
            obs, legal = game.observe(state, who), game.legal_actions(state)
            action = bots[who].act(game, obs, legal, rngs[who], Budget(iterations=6))
            moves.append(str(action))
            state, _ = game.apply(state, action)
        return moves

    assert play() == play()
    assert calls
