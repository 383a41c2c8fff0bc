"""Issue #17, Deadwood Knock fifteenth pass: ``search.CALLER_READ`` (off in play), the
playout rivals calling a knock by the line their answers earlier in the match show, at a
decision that offers ``strong`` the knock."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot_positions import played, swapped
from deadwood_knock.bots import Budget, get_bot, search
from deadwood_knock.bots.view import view_of


def _read_lines(state: Any, seat: int) -> list[int | None]:
    obs = {"results": [r.to_json() for r in state.results]}
    return [
        None if s == seat else search.read_call_line(search.shown_answers(obs, s))
        for s in range(len(state.hands))
    ]


def _may_knock_with_a_read(game: Any, state: Any) -> bool:
    """The seat to act may knock, and a rival's answers earlier in the match read a call
    line other than ``DK_STYLE``'s."""
    seat = game.to_act(state)
    if seat is None or state.phase != "play":
        return False
    if not any(a.kind == "knock" for a in game.legal_actions(state)):
        return False
    return any(
        line is not None and line != search.DK_STYLE.call_points
        for line in _read_lines(state, seat)
    )


def _decision(seed: int) -> tuple[Any, Any]:
    """A 4-player match played by greedy to a decision offering the knock, with a read."""
    game, state = played(
        "deadwood-knock",
        {"players": 4, "rounds": 10},
        seed,
        steps=5000,
        until=_may_knock_with_a_read,
    )
    assert _may_knock_with_a_read(game, state)
    return game, state


def test_shown_answers_reads_the_rounds_alike_from_json() -> None:
    game, state = _decision(3)
    seat = game.to_act(state)
    obs = game.observe(state, seat)
    for s in range(4):
        want = [
            (r.hand_points[s], r.calls[s] == "call")
            for r in state.results
            if r.knocker is not None and r.knocker != s and r.calls[s] in ("call", "fold")
        ]
        assert search.shown_answers(obs, s) == want
        assert search.shown_answers(json.loads(json.dumps(obs.to_json())), s) == want
    assert any(search.shown_answers(obs, s) for s in range(4))
    assert search.shown_answers({"results": []}, 0) == []
    assert search.shown_answers({}, 0) == []


def test_read_call_line_on_made_up_answers(monkeypatch: Any) -> None:
    read = search.read_call_line
    assert read([]) is None
    assert read([(70, True)]) is None  # fewer than CALLER_READ_MIN
    # Called a full house, folded two pair: 40, 50, 60 and 70 read both; the lower middle.
    assert read([(70, True), (30, False)]) == 50
    # Folded everything up to a flush: only the lines above 60 read them all (70 .. never).
    assert read([(60, False), (30, False), (15, False)]) == 85
    # Called everything from a pair up: 15 alone reads them all.
    assert read([(15, True), (40, True), (70, True)]) == 15
    # One answer out of line (folded a flush, called trips): 15, 30 and 40 misread only the
    # flush, every higher line the trips and the flush; the middle of the three.
    assert read([(70, True), (70, True), (60, False), (40, True)]) == 30
    monkeypatch.setattr(search, "CALLER_READ_MIN", 1)
    assert read([(70, True)]) in search.CALL_LINES


def test_styles_keep_the_seat_and_change_only_the_rivals_call_line() -> None:
    game, state = _decision(3)
    seat = game.to_act(state)
    obs = game.observe(state, seat)
    view = view_of(obs, game.name)
    styles = search.caller_read_styles(obs, view, search.DK_STYLE)
    lines = _read_lines(state, seat)
    assert styles[seat] == search.DK_STYLE
    for s in range(4):
        if s == seat:
            continue
        want = search.DK_STYLE.call_points if lines[s] is None else lines[s]
        assert styles[s].call_points == want
        assert styles[s].knock_count == search.DK_STYLE.knock_count
        assert styles[s].knock_score == search.DK_STYLE.knock_score
    held = search.caller_read_styles(obs, view, search.HOLDING_STYLE)
    assert held[seat] == search.DK_STYLE
    assert all(
        held[s].knock_score == search.HOLDING_STYLE.knock_score for s in range(4) if s != seat
    )


def _values(game: Any, obs: Any, legal: Any, seed: int) -> list[tuple[str, float, int]]:
    evs = search.SearchBot().evaluate(game, obs, legal, random.Random(seed), Budget(iterations=40))
    return [(repr(av.action), av.value, av.samples) for av in evs]


def _styles(game: Any, obs: Any, legal: Any) -> Any:
    bot = search.SearchBot()
    bot.evaluate(game, obs, legal, random.Random(0), Budget(iterations=1))
    return bot._search(game, obs, view_of(obs, game.name)).styles  # type: ignore[attr-defined]


@pytest.mark.parametrize("seed", [3, 4])
def test_switch_off_is_today_play_and_on_repeats_from_a_seed(seed: int, monkeypatch: Any) -> None:
    game, state = _decision(seed)
    seat = game.to_act(state)
    obs = game.observe(state, seat)
    legal = game.legal_actions(state)
    monkeypatch.setattr(search, "CALLER_READ", False)
    off = _values(game, obs, legal, 1)
    assert _styles(game, obs, legal) is None  # off: as in play
    # Today's play: the switch on with no line read (every rival DK_STYLE's 30).
    monkeypatch.setattr(search, "read_call_line", lambda answers: None)
    monkeypatch.setattr(search, "CALLER_READ", True)
    assert _values(game, obs, legal, 1) == off
    monkeypatch.undo()
    monkeypatch.setattr(search, "CALLER_READ", True)
    styles = _styles(game, obs, legal)
    assert styles is not None and styles[seat] == search.DK_STYLE
    assert any(st.call_points != search.DK_STYLE.call_points for st in styles)
    on = _values(game, obs, legal, 1)
    assert on == _values(game, obs, legal, 1)
    assert on != off  # the rivals calling by their read lines change the values


def test_switch_on_leaves_decisions_without_the_knock_alone(monkeypatch: Any) -> None:
    monkeypatch.setattr(search, "CALLER_READ", True)
    game, state = _decision(3)
    # Play on from the decision to the next one that does not offer the knock.
    rng = random.Random(3)
    greedy = get_bot("greedy")
    for _ in range(400):
        seat = game.to_act(state)
        assert seat is not None
        legal = game.legal_actions(state)
        if len(legal) > 1 and not any(a.kind == "knock" for a in legal) and state.results:
            break
        state, _ = game.apply(state, greedy.act(game, game.observe(state, seat), legal, rng))
    else:
        pytest.fail("no decision without the knock")
    obs = game.observe(state, game.to_act(state))
    legal = game.legal_actions(state)
    assert _styles(game, obs, legal) is None
    on = _values(game, obs, legal, 2)
    monkeypatch.setattr(search, "CALLER_READ", False)
    assert _values(game, obs, legal, 2) == on


def test_switch_on_reads_no_hidden_card(monkeypatch: Any) -> None:
    monkeypatch.setattr(search, "CALLER_READ", True)
    rng = random.Random(7)
    for seed in (3, 4, 5):
        game, state = _decision(seed)
        seat = game.to_act(state)
        real_obs = game.observe(state, seat)
        legal = game.legal_actions(state)
        assert _styles(game, real_obs, legal) is not None
        bot = get_bot("strong")
        for other in [s for s in range(4) if s != seat][:2]:
            doctored = swapped(state, other, rng.choice)
            fake_obs = game.observe(doctored, seat)
            assert real_obs.to_json() == fake_obs.to_json()
            a = bot.act(game, real_obs, legal, random.Random(seed), Budget(iterations=8))
            b = bot.act(game, fake_obs, legal, random.Random(seed), Budget(iterations=8))
            assert a == b
            assert _values(game, real_obs, legal, seed) == _values(game, fake_obs, legal, seed)
