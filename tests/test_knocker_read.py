"""Issue #17, Deadwood Knock fourteenth pass: ``search.KNOCKER_READ`` (off in play), the
knocker's hand at a call dealt by what that rival knocked with earlier in the match."""

from __future__ import annotations

import json
import random
import statistics
from typing import Any

import pytest

from bot_positions import played, swapped
from deadwood_knock.bots import Budget, get_bot, search
from deadwood_knock.bots.dk import knock_allowed
from deadwood_knock.bots.dk_playout import quick
from deadwood_knock.bots.inference import HiddenDealer
from deadwood_knock.bots.view import view_of


def _knocked_before(game: Any, state: Any) -> bool:
    """A seat other than the knocker is to answer a knock, and the knocker has knocked
    in an earlier round of the match."""
    seat = game.to_act(state)
    k = state.knocker
    if seat is None or k is None or seat == k:
        return False
    return any(r.knocker == k for r in state.results)


def _call(seed: int) -> tuple[Any, Any]:
    """A 4-player match played by greedy to a call whose knocker knocked before."""
    game, state = played(
        "deadwood-knock",
        {"players": 4, "rounds": 10},
        seed,
        steps=5000,
        until=_knocked_before,
    )
    assert _knocked_before(game, state)
    return game, state


def test_shown_knocks_reads_the_knockers_shown_hands_alike_from_json() -> None:
    game, state = _call(3)
    seat = game.to_act(state)
    obs = game.observe(state, seat)
    k = state.knocker
    want = [quick((*r.poker_hands[k], *r.deadwood[k]))[0] for r in state.results if r.knocker == k]
    assert want and search.shown_knocks(obs, k) == want
    assert search.shown_knocks(json.loads(json.dumps(obs.to_json())), k) == want
    for s in range(4):
        assert len(search.shown_knocks(obs, s)) == sum(r.knocker == s for r in state.results)
    assert search.shown_knocks({"results": []}, k) == []


def test_read_applies_only_at_a_rivals_call_after_enough_knocks(monkeypatch: Any) -> None:
    game, state = _call(3)
    seat = game.to_act(state)
    obs = game.observe(state, seat)
    view = view_of(obs, game.name)
    dealer = search.knocker_read_dealer(obs, view)
    assert isinstance(dealer, search.KnockerReadDealer)
    shown = search.shown_knocks(obs, state.knocker)
    assert dealer.line == min(shown) - search.KNOCKER_READ_MARGIN
    assert (dealer.bank_size, dealer.few) == (search.KNOCKER_READ_BANK, search.KNOCKER_READ_FEW)
    monkeypatch.setattr(search, "KNOCKER_READ_MIN", len(shown) + 1)
    assert search.knocker_read_dealer(obs, view) is None
    # A decision with no knock this round: no read.
    g2, s2 = played("deadwood-knock", {"players": 4}, 3, steps=6)
    o2 = g2.observe(s2, g2.to_act(s2))
    assert search.knocker_read_dealer(o2, view_of(o2, g2.name)) is None


def test_read_dealer_deals_the_knocker_above_its_line() -> None:
    game, state = _call(3)
    seat = game.to_act(state)
    view = view_of(game.observe(state, seat), game.name)
    k = state.knocker
    today = HiddenDealer(view)
    rng = random.Random(5)
    base = [quick(today.deal(rng)[0][k])[0] for _ in range(40)]
    low = search.KnockerReadDealer(view, -1000, 512, 8)
    high = search.KnockerReadDealer(view, 0, 512, 8)
    lows = [low.deal(rng)[0][k] for _ in range(40)]
    high.deal(rng)  # builds the bank
    assert high.bank is not None
    high.line = high.bank[-20][0]  # a line 20 or so bank hands reach
    highs = [high.deal(rng)[0][k] for _ in range(40)]
    assert all(knock_allowed(h) for h in lows + highs)
    assert low.bank is not None and high.bank is not None and len(high.bank) > 100
    # No line: any bank hand, weaker than today's best of 12; a line: above it.
    assert statistics.mean(quick(h)[0] for h in lows) < statistics.mean(base) - 5
    assert all(quick(h)[0] >= high.line for h in highs)
    assert statistics.mean(quick(h)[0] for h in highs) > statistics.mean(base)
    # A line no bank hand reaches: one of the 8 best.
    top = search.KnockerReadDealer(view, 10_000, 512, 8)
    hand = top.deal(rng)[0][k]
    assert top.bank is not None and quick(hand)[0] >= top.bank[-8][0]
    # The cards once each, the seat's own hand as it is.
    hands, rest = search.KnockerReadDealer(view, 50, 512, 8).deal(random.Random(1))
    dealt = [c for h in hands for c in h] + rest
    assert (
        len(dealt)
        == len(set(dealt))
        == len(view.unseen())
        + len(view.hand)
        + sum(len(view.known_cards[s]) for s in range(4) if s != seat)
    )
    assert hands[seat] == list(view.hand)


def _values(game: Any, obs: Any, legal: Any, seed: int) -> list[tuple[str, float, int]]:
    evs = search.SearchBot().evaluate(game, obs, legal, random.Random(seed), Budget(iterations=40))
    return [(repr(av.action), av.value, av.samples) for av in evs]


@pytest.mark.parametrize("seed", [3, 4])
def test_switch_off_is_today_play_and_on_repeats_from_a_seed(seed: int, monkeypatch: Any) -> None:
    game, state = _call(seed)
    seat = game.to_act(state)
    obs = game.observe(state, seat)
    legal = game.legal_actions(state)
    view = view_of(obs, game.name)
    monkeypatch.setattr(search, "KNOCKER_READ", False)
    off = _values(game, obs, legal, 1)
    deal = search.SearchBot()._search(game, obs, view).deal
    assert getattr(deal, "__self__", None).__class__ is HiddenDealer  # off: as in play
    # Today's play: the search with the read switched on but no read to apply.
    monkeypatch.setattr(search, "knocker_read_dealer", lambda o, v: None)
    monkeypatch.setattr(search, "KNOCKER_READ", True)
    assert _values(game, obs, legal, 1) == off
    monkeypatch.undo()
    monkeypatch.setattr(search, "KNOCKER_READ", True)
    deal = search.SearchBot()._search(game, obs, view).deal
    assert isinstance(getattr(deal, "__self__", None), search.KnockerReadDealer)
    on = _values(game, obs, legal, 1)
    assert on == _values(game, obs, legal, 1)
    assert on != off  # the knocker dealt by its earlier knocks changes the values


def test_switch_on_reads_no_hidden_card(monkeypatch: Any) -> None:
    monkeypatch.setattr(search, "KNOCKER_READ", True)
    rng = random.Random(7)
    for seed in (3, 4, 5):
        game, state = _call(seed)
        seat = game.to_act(state)
        real_obs = game.observe(state, seat)
        assert search.knocker_read_dealer(real_obs, view_of(real_obs, game.name)) is not None
        legal = game.legal_actions(state)
        bot = get_bot("strong")
        for other in (state.knocker, next(s for s in range(4) if s not in (seat, state.knocker))):
            doctored = swapped(state, other, rng.choice)
            fake_obs = game.observe(doctored, seat)
            assert real_obs.to_json() == fake_obs.to_json()
            a = bot.act(game, real_obs, legal, random.Random(seed), Budget(iterations=8))
            b = bot.act(game, fake_obs, legal, random.Random(seed), Budget(iterations=8))
            assert a == b
            va = search.SearchBot().evaluate(
                game, real_obs, legal, random.Random(seed), Budget(iterations=8)
            )
            vb = search.SearchBot().evaluate(
                game, fake_obs, legal, random.Random(seed), Budget(iterations=8)
            )
            assert [(av.value, av.samples) for av in va] == [(av.value, av.samples) for av in vb]
