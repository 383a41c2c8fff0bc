"""``search.KR_RIVAL_CHANCE`` (issue #17, Gin and Knock Rummy eighteenth pass): in
heads-up Knock Rummy playouts the rival knocks at 6 or less as today and, above that, by
a chance fitted to strong-v1's knocks (``KR_CHANCE_BASE``, ``KR_CHANCE_COUNT``,
``KR_CHANCE_STOCK``), drawn from the playout's own stream; the searching seat keeps the
knock at 6. Kept by the pass (on in play: 1). Off (0) and on with a chance that never
fires: strong-v1's Knock Rummy search sample for sample; on: what the playouts do, a seed
repeating, nothing hidden read, Gin untouched."""

from __future__ import annotations

import dataclasses
import math
import random
from typing import Any

import pytest

from bot_positions import discard_position
from deadwood_knock.bots import Budget, get_bot, kr_playout, search
from deadwood_knock.bots.strong import KR_PLAYOUT_KNOCK, KrSimSearch
from deadwood_knock.bots.view import view_of
from deadwood_knock.cards import CARDS, parse_cards
from deadwood_knock.games import get_game
from deadwood_knock.games.knock_rummy.core import DISCARD, DRAW, OVER, KnockRummyOptions, KrTable
from deadwood_knock.games.knock_rummy.melds import best_discard_mask, count_mask, hand_mask

HAND = "7h 8h 9h 4s 4d Js Qs Kd 2c 3d 9s"
FAR = "Ks Qd Jc Th 9s 8d 7c 6h Kd Qc 5s"
RIVAL = "Ah 2h 3h 4s 5s 6s 7d 8d 9d Kc Qc"  # three runs, Kc Qc: a discard leaves 10
SEAT = "Kh Qd Js Th 9c 8h 7s 6c 5d 3d"  # no meld, count 78


def _values(game: Any, obs: Any, legal: Any, seed: int = 11) -> list[tuple[str, Any]]:
    ranked = search.SearchBot().evaluate(
        game, obs, legal, random.Random(seed), Budget(iterations=24)
    )
    return [(str(av.action), av.draws) for av in ranked]


def _built(game: Any, obs: Any) -> Any:
    return search.SearchBot()._search(game, obs, view_of(obs, game.name))


def _chance(count: int, stock: int) -> float:
    x = search.KR_CHANCE_BASE + search.KR_CHANCE_STOCK * stock - search.KR_CHANCE_COUNT * count
    return 1.0 / (1.0 + math.exp(-x))


def test_on_in_play_off_and_never_firing_are_strong_v1s(monkeypatch: Any) -> None:
    """On in play (1, the fitted values): heads-up Knock Rummy's search is the switch's.
    Off (0): it is strong-v1's ``KrSimSearch``; on with a chance that never fires, the
    switch's search is built and the values are the switch-off ones sample for sample
    (Knock Rummy and Gin); Gin's search is not the switch's, and its values are the same
    with the switch on as fitted."""
    assert search.KR_RIVAL_CHANCE == 1
    assert (search.KR_CHANCE_BASE, search.KR_CHANCE_COUNT, search.KR_CHANCE_STOCK) == (
        -7.18,
        0.18,
        0.48,
    )
    assert KR_PLAYOUT_KNOCK == 6
    game, state = discard_position("knock-rummy", HAND, "5h")
    assert isinstance(_built(game, game.observe(state, 0)), search.ChanceKnockKrSearch)
    monkeypatch.setattr(search, "KR_RIVAL_CHANCE", 0)
    assert type(_built(game, game.observe(state, 0))) is KrSimSearch
    off = {}
    for game_name in ("knock-rummy", "gin"):
        for hand in (HAND, FAR):
            game, state = discard_position(game_name, hand, "5h")
            off[game_name, hand] = _values(game, game.observe(state, 0), game.legal_actions(state))
    monkeypatch.setattr(search, "KR_RIVAL_CHANCE", 1)
    monkeypatch.setattr(search, "KR_CHANCE_BASE", -1e9)
    game, state = discard_position("knock-rummy", HAND, "5h")
    assert isinstance(_built(game, game.observe(state, 0)), search.ChanceKnockKrSearch)
    for game_name in ("knock-rummy", "gin"):
        for hand in (HAND, FAR):
            game, state = discard_position(game_name, hand, "5h")
            values = _values(game, game.observe(state, 0), game.legal_actions(state))
            assert values == off[game_name, hand]
    monkeypatch.setattr(search, "KR_CHANCE_BASE", -7.18)
    for hand in (HAND, FAR):
        game, state = discard_position("gin", hand, "5h")
        obs = game.observe(state, 0)
        assert not isinstance(_built(game, obs), search.ChanceKnockKrSearch)
        assert _values(game, obs, game.legal_actions(state)) == off["gin", hand]


def _rival_to_discard(stock: int) -> KrTable:
    """A heads-up table, seat 1 (the rival of a search for seat 0) to discard with
    ``RIVAL`` (a discard leaves 10), seat 0 holding ``SEAT``, ``stock`` cards left."""
    t = KrTable.new(KnockRummyOptions(players=2), 3, single_hand=True)
    rival, mine = list(parse_cards(RIVAL)), list(parse_cards(SEAT))
    rest = [c for c in CARDS[:52] if c not in rival and c not in mine]
    t.hands = [hand_mask(mine), hand_mask(rival)]
    t.pile, t.stock = rest[:1], rest[1 : 1 + stock]
    t.phase, t.to_act, t.taken = DISCARD, 1, None
    return t


def test_the_rival_knocks_by_its_draw_the_seat_at_6() -> None:
    """The rival's discard leaves 10. At an even draw (noise 0) it knocks when 10 is at or
    below the fitted midpoint for the stock (13.4 at 20), not above it (2.8 at 16); a low
    draw makes it knock at 16 too. The searching seat (seat 1 here) with the same hand
    never knocks at 10, whatever the draw."""
    assert best_discard_mask(hand_mask(list(parse_cards(RIVAL))), False)[0] == 10
    game, state = discard_position("knock-rummy", HAND, "5h")
    found = search.ChanceKnockKrSearch(
        view_of(game.observe(state, 0), game.name),
        search.KR_CHANCE_BASE,
        search.KR_CHANCE_COUNT,
        search.KR_CHANCE_STOCK,
    )
    assert found.limit(30, 99) == -math.inf  # past the draws: the knock at 6 only
    for noise, stock, knocks in ((0.0, 20, True), (0.0, 16, False), (-10.0, 16, True)):
        found._noise, found._k = (noise,), 0
        t = _rival_to_discard(stock)
        found.move(t, KR_PLAYOUT_KNOCK)
        assert (t.phase == OVER) is knocks, (noise, stock)
        if not knocks:
            assert t.phase == DRAW and t.to_act == 0
        assert found._k == 1
    obs = game.observe(dataclasses.replace(state, to_act=1), 1)
    mine = search.ChanceKnockKrSearch(view_of(obs, game.name), -7.18, 0.18, 0.48)
    assert mine.view.seat == 1 and mine.rival == 0
    mine._noise, mine._k = (-100.0,), 0
    t = _rival_to_discard(20)
    mine.move(t, KR_PLAYOUT_KNOCK)
    assert t.phase == DRAW and mine._k == 0


def test_the_draws_give_the_fitted_chance() -> None:
    """Over 4,000 streams, the share of draws whose threshold reaches a count is the
    fitted chance of a knock at that count (within 0.03), and a stream's draws repeat."""
    game, state = discard_position("knock-rummy", HAND, "5h")
    found = search.ChanceKnockKrSearch(
        view_of(game.observe(state, 0), game.name), -7.18, 0.18, 0.48
    )
    streams = [found.noise(random.Random(s)) for s in range(4000)]
    assert found.noise(random.Random(7)) == streams[7]
    assert all(len(z) == 16 for z in streams)
    for count, stock in ((40, 30), (50, 30), (25, 25), (35, 28), (10, 18)):
        p = _chance(count, stock)
        share = sum(count <= found.mid + found.per * stock - z[3] for z in streams) / 4000
        assert abs(share - p) < 0.03, (count, stock, share, p)
    assert abs(_chance(40, 30) - 0.5) < 0.03


def test_on_the_rival_knocks_high_the_seat_at_6(monkeypatch: Any) -> None:
    """The search's own playouts (its samples, every candidate): the searching seat knocks
    only at 6 or less and plays on above; the rival knocks above 6 (more than 10 times,
    most with a long stock) and also plays on with counts a knock could have taken."""
    monkeypatch.setattr(search, "KR_RIVAL_CHANCE", 1)
    played: list[tuple[int, str, int, int, int]] = []  # seat, kind, after, before, stock
    real_play, real_playout = KrTable.play, kr_playout.playout
    inside = [False]

    def spy_playout(t: KrTable, knock_at: int, *args: Any, **kwargs: Any) -> list[float]:
        inside[0] = True
        try:
            return real_playout(t, knock_at, *args, **kwargs)
        finally:
            inside[0] = False

    def spy(self: KrTable, action: Any, events: Any = None) -> None:
        seat, before, stock = self.to_act, None, len(self.stock)
        if inside[0] and self.phase != DRAW and seat is not None:
            before = kr_playout._best_discard(self.hands[seat], False, self.taken)[0]
        real_play(self, action, events)
        if before is not None and seat is not None:
            after = count_mask(self.hands[seat], False)
            played.append((seat, action.kind, after, before, stock))

    monkeypatch.setattr(KrTable, "play", spy)
    monkeypatch.setattr(kr_playout, "playout", spy_playout)
    for hand in (HAND, FAR):
        game, state = discard_position("knock-rummy", hand, "5h")
        _values(game, game.observe(state, 0), game.legal_actions(state))
    rival_high = rival_early = rival_on = 0
    for seat, kind, after, before, stock in played:
        if seat == 0:
            if kind == "knock":
                assert after <= 6
            elif kind == "discard":
                assert before > 6
            continue
        if kind == "knock" and after > 6:
            rival_high += 1
            rival_early += stock >= 25
        elif kind == "discard":
            assert before > 6
            rival_on += before < 40
    assert rival_high > 10 and rival_early > rival_high // 2 and rival_on > 10


def test_on_the_values_change(monkeypatch: Any) -> None:
    game, state = discard_position("knock-rummy", FAR, "5h")
    obs, legal = game.observe(state, 0), game.legal_actions(state)
    monkeypatch.setattr(search, "KR_RIVAL_CHANCE", 0)
    off = _values(game, obs, legal)
    monkeypatch.setattr(search, "KR_RIVAL_CHANCE", 1)
    assert _values(game, obs, legal) != off


def test_on_reads_nothing_hidden(monkeypatch: Any) -> None:
    """Doctored states: other hidden cards (the rival's hand, the stock) behind the same
    observation give the same values, sample for sample."""
    monkeypatch.setattr(search, "KR_RIVAL_CHANCE", 1)
    runs, rivals = [], []
    for shift in (0, 7, 19):
        game, state = discard_position("knock-rummy", HAND, "5h", shift=shift)
        runs.append(_values(game, game.observe(state, 0), game.legal_actions(state)))
        rivals.append(state.hands[1])
    assert len(set(rivals)) == 3
    assert runs[0] == runs[1] == runs[2]


@pytest.mark.parametrize("seat", [0, 1])
def test_on_a_seeded_match_repeats(monkeypatch: Any, seat: int) -> None:
    """A whole seeded Knock Rummy match, strong (switch on) against strong-v1, twice: the
    same moves; the switch's search, with the fitted chance, is the one used."""
    monkeypatch.setattr(search, "KR_RIVAL_CHANCE", 1)
    built = []
    real = search.ChanceKnockKrSearch.__init__

    def spy(self: Any, view: Any, base: float, per_count: float, per_stock: float) -> None:
        built.append((view.seat, base, per_count, per_stock))
        real(self, view, base, per_count, per_stock)

    monkeypatch.setattr(search.ChanceKnockKrSearch, "__init__", spy)

    def play() -> list[str]:
        game = get_game("knock-rummy")
        state = game.new_game(game.options_from_json({"players": 2}), 4)
        bots = [get_bot("strong-v1"), get_bot("strong-v1")]
        bots[seat] = get_bot("strong")
        rngs = [random.Random(1), random.Random(2)]
        moves: list[str] = []
        while not game.is_over(state) and len(moves) < 3000:
            who = game.to_act(state)
            obs, legal = game.observe(state, who), game.legal_actions(state)
            action = bots[who].act(game, obs, legal, rngs[who], Budget(iterations=6))
            moves.append(str(action))
            state, _ = game.apply(state, action)
        return moves

    assert play() == play()
    assert built and all(b == (seat, -7.18, 0.18, 0.48) for b in built)
