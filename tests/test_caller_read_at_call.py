"""Issue #17, Deadwood Knock sixteenth pass: ``search.CALLER_READ_AT_CALL`` (off in play),
the playout rivals still to answer a knock calling by the line their answers earlier in
the match show, at ``strong``'s own call decision only."""

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


def _call_with_a_read(game: Any, state: Any) -> bool:
    """The seat to act answers a knock, and some rival's earlier answers read a call line
    other than ``DK_STYLE``'s."""
    seat = game.to_act(state)
    if seat is None or state.phase != "call":
        return False
    if not any(a.kind == "call" for a in game.legal_actions(state)):
        return False
    return any(
        line is not None and line != search.DK_STYLE.call_points
        for line in _read_lines(state, seat)
    )


def _knock_with_a_read(game: Any, state: Any) -> bool:
    seat = game.to_act(state)
    if seat is None or state.phase != "play":
        return False
    if not any(a.kind == "knock" for a in game.legal_actions(state)):
        return False
    return any(
        line is not None and line != search.DK_STYLE.call_points
        for line in _read_lines(state, seat)
    )


def _decision(seed: int, until: Any = _call_with_a_read) -> tuple[Any, Any]:
    game, state = played(
        "deadwood-knock", {"players": 4, "rounds": 10}, seed, steps=8000, until=until
    )
    assert until(game, state)
    return game, state


def _values(game: Any, obs: Any, legal: Any, seed: int) -> list[tuple[str, float, int]]:
    evs = search.SearchBot().evaluate(game, obs, legal, random.Random(seed), Budget(iterations=60))
    return [(repr(av.action), av.value, av.samples) for av in evs]


def _styles(game: Any, obs: Any) -> Any:
    return search.SearchBot()._search(game, obs, view_of(obs, game.name)).styles  # type: ignore[attr-defined]


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
    assert read([(70, True), (30, False)]) == 50  # 40, 50, 60, 70 read both: lower middle
    assert read([(60, False), (30, False), (15, False)]) == 85  # 70 .. never
    assert read([(15, True), (40, True), (70, True)]) == 15
    assert read([(70, True), (70, True), (60, False), (40, True)]) == 30
    monkeypatch.setattr(search, "CALLER_READ_MIN", 1)
    assert read([(70, True)]) in search.CALL_LINES


@pytest.mark.parametrize("seed", [3, 4])
def test_switch_off_is_today_play_and_on_reads_at_the_call(seed: int, monkeypatch: Any) -> None:
    game, state = _decision(seed)
    seat = game.to_act(state)
    obs = game.observe(state, seat)
    legal = game.legal_actions(state)
    monkeypatch.setattr(search, "CALLER_READ_AT_CALL", False)
    assert _styles(game, obs) is None  # off: as in play
    off = _values(game, obs, legal, 1)
    # The switch on with no line read (every rival DK_STYLE's 30) is today's play.
    monkeypatch.setattr(search, "read_call_line", lambda answers: None)
    monkeypatch.setattr(search, "CALLER_READ_AT_CALL", True)
    assert _values(game, obs, legal, 1) == off
    monkeypatch.undo()
    monkeypatch.setattr(search, "CALLER_READ_AT_CALL", True)
    styles = _styles(game, obs)
    lines = _read_lines(state, seat)
    assert styles is not None and styles[seat] == search.DK_STYLE
    for s in range(4):
        if s != seat:
            want = search.DK_STYLE.call_points if lines[s] is None else lines[s]
            assert styles[s].call_points == want
            assert styles[s].knock_count == search.DK_STYLE.knock_count
            assert styles[s].knock_score == search.DK_STYLE.knock_score
    on = _values(game, obs, legal, 1)
    assert on == _values(game, obs, legal, 1)  # repeats from a seed


def test_switch_on_changes_a_call_value_somewhere(monkeypatch: Any) -> None:
    """Over a few call decisions, the read lines move some value (a rival still to answer
    who would have called a 30 now folds it, or the other way)."""
    changed = False
    for seed in (3, 4, 5, 6):
        game, state = _decision(seed)
        obs = game.observe(state, game.to_act(state))
        legal = game.legal_actions(state)
        monkeypatch.setattr(search, "CALLER_READ_AT_CALL", False)
        off = _values(game, obs, legal, 1)
        monkeypatch.setattr(search, "CALLER_READ_AT_CALL", True)
        changed = changed or _values(game, obs, legal, 1) != off
    assert changed


@pytest.mark.parametrize("seed", [3, 4])
def test_switch_on_leaves_the_knock_decision_alone(seed: int, monkeypatch: Any) -> None:
    game, state = _decision(seed, _knock_with_a_read)
    obs = game.observe(state, game.to_act(state))
    legal = game.legal_actions(state)
    monkeypatch.setattr(search, "CALLER_READ_AT_CALL", True)
    assert _styles(game, obs) is None
    on = _values(game, obs, legal, 2)
    monkeypatch.setattr(search, "CALLER_READ_AT_CALL", False)
    assert _values(game, obs, legal, 2) == on


def test_switch_on_reads_no_hidden_card(monkeypatch: Any) -> None:
    monkeypatch.setattr(search, "CALLER_READ_AT_CALL", True)
    rng = random.Random(7)
    for seed in (3, 4, 5):
        game, state = _decision(seed)
        seat = game.to_act(state)
        real_obs = game.observe(state, seat)
        legal = game.legal_actions(state)
        assert _styles(game, real_obs) is not None
        bot = get_bot("strong")
        for other in [s for s in range(4) if s != seat][:2]:
            doctored = swapped(state, other, rng.choice)
            fake_obs = game.observe(doctored, seat)
            assert real_obs.to_json() == fake_obs.to_json()
            a = bot.act(game, real_obs, legal, random.Random(seed), Budget(iterations=8))
            b = bot.act(game, fake_obs, legal, random.Random(seed), Budget(iterations=8))
            assert a == b
            assert _values(game, real_obs, legal, seed) == _values(game, fake_obs, legal, seed)
