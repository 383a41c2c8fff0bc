"""Issue #17, Deadwood Knock thirteenth pass: ``search.RIVAL_KNOCK_READ`` (off in play),
playout rivals that knock the way each real rival has knocked earlier in the match."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

from bot_positions import played, swapped
from deadwood_knock.bots import Budget, dk_playout, get_bot, search
from deadwood_knock.bots.view import view_of
from deadwood_knock.cards import parse_cards


def _late(seed: int) -> tuple[Any, Any]:
    """A 4-player match played by greedy to its fourth round's first decision."""
    return played(
        "deadwood-knock",
        {"players": 4, "rounds": 6},
        seed,
        steps=2000,
        until=lambda g, s: s.round >= 3 and g.to_act(s) is not None,
    )


def test_read_knock_style_reads_line_count_and_passes() -> None:
    nothing = parse_cards("2c 3d 5h 7s 9c Jd Kh 4s".split())
    good = parse_cards("Ah Kh Qh Jh Th 2c 3d 4s".split())  # a royal flush: a knock
    score, knock = dk_playout.quick(good)[:2]
    assert knock <= search.KNOCK_LIMIT and score >= 25
    hands = [list(nothing)] * 4
    # No knock by seat 1 yet: DK_STYLE, whatever the others did.
    assert search.read_knock_style([(0, [good, *hands[1:]])], 1) == search.DK_STYLE
    # Seat 1 knocked once with the royal flush and held one at a round's end: line at its
    # score, never by count, chance (1 + 1) / (1 + 1 + 1).
    with_good = [nothing, good, nothing, nothing]
    rounds = [(1, with_good), (2, with_good), (None, hands)]
    st = search.read_knock_style(rounds, 1)
    assert st.knock_score == score and st.knock_count == search.NEVER_COUNT
    assert st.knock_chance == pytest.approx(2 / 3)
    assert st.call_points == search.DK_STYLE.call_points
    # A knock scoring under DK_STYLE's 25 is read as a knock by its count.
    low_score, low_knock = dk_playout.quick(nothing)[:2]  # -9, a knock count of 9
    assert low_score < 25 and low_knock <= search.KNOCK_LIMIT
    st = search.read_knock_style([(1, [good, nothing, good, good])], 1)
    assert st.knock_count == low_knock and st.knock_score == search.NEVER_SCORE
    assert st.knock_chance == 1.0


def test_knock_chance_one_draws_no_random_number_and_zero_never_knocks() -> None:
    _game, state = _late(3)
    core = dk_playout.dealt(state)
    a, b = random.Random(9), random.Random(9)
    same = dataclasses.replace(search.DK_STYLE, knock_chance=1.0)
    assert same == search.DK_STYLE
    x = dk_playout.playout(core.copy(), a, search.DK_STYLE)
    y = dk_playout.playout(core.copy(), b, styles=[same] * 4)
    assert x == y and a.random() == b.random()
    never = dataclasses.replace(search.DK_STYLE, knock_chance=0.0)
    eager = dataclasses.replace(search.DK_STYLE, knock_count=11, knock_score=0)
    for seed in range(6):
        c = core.copy()
        dk_playout.playout(c, random.Random(seed), styles=[never, never, eager, never])
        assert c.knocker in (None, 2)


def test_switch_gives_rivals_their_read_styles_and_off_none(monkeypatch: Any) -> None:
    game, state = _late(3)
    seat = game.to_act(state)
    obs = game.observe(state, seat)
    view = view_of(obs, game.name)
    styles = search.read_knock_styles(obs, view)
    assert styles is not None  # greedy has knocked by now
    assert styles[seat] == search.DK_STYLE
    # The JSON copy reads alike.
    assert search.read_knock_styles(json.loads(json.dumps(obs.to_json())), view) == styles
    bot = search.SearchBot()
    monkeypatch.setattr(search, "RIVAL_KNOCK_READ", False)
    assert bot._search(game, obs, view).styles is None  # off: as in play
    monkeypatch.setattr(search, "RIVAL_KNOCK_READ", True)
    assert bot._search(game, obs, view).styles == styles


def _values(game: Any, obs: Any, legal: Any, seed: int) -> list[tuple[str, float, int]]:
    evs = search.SearchBot().evaluate(game, obs, legal, random.Random(seed), Budget(iterations=40))
    return [(repr(av.action), av.value, av.samples) for av in evs]


def test_switch_off_is_today_play_and_on_repeats_from_a_seed(monkeypatch: Any) -> None:
    game, state = _late(4)
    seat = game.to_act(state)
    obs = game.observe(state, seat)
    legal = game.legal_actions(state)
    monkeypatch.setattr(search, "RIVAL_KNOCK_READ", False)
    off = _values(game, obs, legal, 1)
    # Today's play: the same search with no per-seat styles at all.
    monkeypatch.setattr(search, "read_knock_styles", lambda o, v: None)
    monkeypatch.setattr(search, "RIVAL_KNOCK_READ", True)
    assert _values(game, obs, legal, 1) == off
    monkeypatch.undo()
    monkeypatch.setattr(search, "RIVAL_KNOCK_READ", True)
    on = _values(game, obs, legal, 1)
    assert on == _values(game, obs, legal, 1)
    assert on != off  # the rivals' read styles change the playouts' values


def test_switch_on_reads_no_hidden_card(monkeypatch: Any) -> None:
    monkeypatch.setattr(search, "RIVAL_KNOCK_READ", True)
    rng = random.Random(7)
    checked = 0
    for seed in range(3, 7):
        game, state = _late(seed)
        seat = game.to_act(state)
        if seat is None or game.is_over(state) or not state.stock:
            continue
        other = next(s for s in range(len(state.hands)) if s != seat)
        doctored = swapped(state, other, rng.choice)
        real_obs, fake_obs = game.observe(state, seat), game.observe(doctored, seat)
        assert real_obs.to_json() == fake_obs.to_json()
        legal = game.legal_actions(state)
        bot = get_bot("strong")
        a = bot.act(game, real_obs, legal, random.Random(seed), Budget(iterations=4))
        b = bot.act(game, fake_obs, legal, random.Random(seed), Budget(iterations=4))
        assert a == b
        checked += 1
    assert checked >= 3
