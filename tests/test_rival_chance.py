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


def _position(game_name: str, hand: str, top: str, shift: int = 0) -> tuple[Any, Any]:
    """A heads-up deal, seat 0 to discard with ``hand`` (11 cards); ``shift`` rotates
    the hidden cards (another rival hand and stock, the same view for seat 0)."""
    game = get_game(game_name)
    state = game.new_game(game.options_from_json({"players": 2}), 1)
    mine, pile = list(parse_cards(hand)), list(parse_cards(top))
    rest = [c for c in CARDS[:52] if c not in mine and c not in pile]
    rest = rest[shift:] + rest[:shift]
    state = dataclasses.replace(
        state,
        hands=(tuple(sorted(mine)), tuple(sorted(rest[:10]))),
        stock=tuple(rest[10:]),
        discard_pile=tuple(pile),
        phase="discard",
        to_act=0,
        taken_discard=None,
    )
    return game, state


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
    game, state = _position("knock-rummy", HAND, "5h")
    assert isinstance(_built(game, game.observe(state, 0)), search.ChanceKnockKrSearch)
    monkeypatch.setattr(search, "KR_RIVAL_CHANCE", 0)
    assert type(_built(game, game.observe(state, 0))) is KrSimSearch
    off = {}
    for game_name in ("knock-rummy", "gin"):
        for hand in (HAND, FAR):
            game, state = _position(game_name, hand, "5h")
            off[game_name, hand] = _values(game, game.observe(state, 0), game.legal_actions(state))
    monkeypatch.setattr(search, "KR_RIVAL_CHANCE", 1)
    monkeypatch.setattr(search, "KR_CHANCE_BASE", -1e9)
    game, state = _position("knock-rummy", HAND, "5h")
    assert isinstance(_built(game, game.observe(state, 0)), search.ChanceKnockKrSearch)
    for game_name in ("knock-rummy", "gin"):
        for hand in (HAND, FAR):
            game, state = _position(game_name, hand, "5h")
            values = _values(game, game.observe(state, 0), game.legal_actions(state))
            assert values == off[game_name, hand]
    monkeypatch.setattr(search, "KR_CHANCE_BASE", -7.18)
    for hand in (HAND, FAR):
        game, state = _position("gin", hand, "5h")
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
    game, state = _position("knock-rummy", HAND, "5h")
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
    game, state = _position("knock-rummy", HAND, "5h")
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
        game, state = _position("knock-rummy", hand, "5h")
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
    game, state = _position("knock-rummy", FAR, "5h")
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
        game, state = _position("knock-rummy", HAND, "5h", shift=shift)
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


# Gin (``search.GIN_RIVAL_CHANCE``, Gin and Knock Rummy nineteenth pass): the same rule
# (``search.RivalChance``) for the Gin playout rival, capped at the limit (10), gin always.

GIN_AT = {  # a rival's Gin hand and the count its best discard leaves
    "Ah 2h 3h 4s 5s 6s 7d 8d 9d Td Kc": 0,
    "Ah 2h 3h 4s 5s 6s 7d 8d 9d 5c Kc": 5,
    RIVAL: 10,
    "Ah 2h 3h 4s 5s 6s 7d 8d 9c Kc Qs": 34,
}


def _gin_search(seat: int, base: float, per_count: float, per_stock: float) -> Any:
    game, state = _position("gin", HAND, "5h")
    obs = game.observe(dataclasses.replace(state, to_act=seat), seat)
    view = view_of(obs, game.name)
    table = kr_playout.sample_position(view, random.Random(0))
    return search.ChanceKnockGinSearch(view, game.name, table, base, per_count, per_stock)


def _gin_rival_to_discard(rival: str, stock: int) -> KrTable:
    """A Gin table, seat 1 to discard with ``rival``, seat 0 holding ``SEAT``."""
    t = KrTable.new(KnockRummyOptions(players=2, gin=True), 3, single_hand=True)
    hand, mine = list(parse_cards(rival)), list(parse_cards(SEAT))
    rest = [c for c in CARDS[:52] if c not in hand and c not in mine]
    t.hands = [hand_mask(mine), hand_mask(hand)]
    t.pile, t.stock = rest[:1], rest[1 : 1 + stock]
    t.phase, t.to_act, t.taken = DISCARD, 1, None
    return t


def test_gin_off_in_play_and_always_firing_are_todays(monkeypatch: Any) -> None:
    """Off in play (0): Gin's search is today's ``InferredKrSearch``. On with a chance that
    always fires (the rival knocks as soon as the limit allows, today's rule): the switch's
    search is built and the values are today's sample for sample; Knock Rummy's values do
    not move with the Gin switch on."""
    assert search.GIN_RIVAL_CHANCE == 0
    off = {}
    for game_name in ("gin", "knock-rummy"):
        for hand in (HAND, FAR):
            game, state = _position(game_name, hand, "5h")
            obs = game.observe(state, 0)
            if game_name == "gin":
                assert type(_built(game, obs)) is search.InferredKrSearch
            off[game_name, hand] = _values(game, obs, game.legal_actions(state))
    monkeypatch.setattr(search, "GIN_RIVAL_CHANCE", 1)
    monkeypatch.setattr(search, "GIN_CHANCE_BASE", 1e9)
    for game_name in ("gin", "knock-rummy"):
        for hand in (HAND, FAR):
            game, state = _position(game_name, hand, "5h")
            obs = game.observe(state, 0)
            built = _built(game, obs)
            assert isinstance(built, search.ChanceKnockGinSearch) is (game_name == "gin")
            assert _values(game, obs, game.legal_actions(state)) == off[game_name, hand]


def test_gin_the_rival_knocks_by_its_draw_gin_always_the_seat_at_10() -> None:
    """With p = 1 / (1 + exp(c)) (base 0, per count 1, per stock 0) a draw's noise ``z``
    makes the rival knock at ``-z`` or less, never above the limit, and at gin whatever
    the draw; past its draws it knocks at gin only. The searching seat with the same hands
    knocks at 10 or less whatever the draw."""
    for rival, left in GIN_AT.items():
        assert best_discard_mask(hand_mask(list(parse_cards(rival))), False)[0] == left
    found = _gin_search(0, 0.0, 1.0, 0.0)
    assert found.rival == 1 and found.knock_at == 10 and found.step is kr_playout.meld_move
    cases = [
        (10, -5.0, False),
        (5, -5.0, True),
        (10, -100.0, True),
        (34, -100.0, False),
        (0, 100.0, True),
        (5, 100.0, False),
    ]
    for left, noise, knocks in cases:
        rival = next(h for h, c in GIN_AT.items() if c == left)
        found._noise, found._k = (noise,), 0
        t = _gin_rival_to_discard(rival, 20)
        found.move(t, found.knock_at)
        assert (t.phase == OVER) is knocks, (left, noise)
        if not knocks:
            assert t.phase == DRAW and t.to_act == 0
        assert found._k == 1
    found._noise, found._k = (), 0  # past the draws: the playouts' rule
    assert found.rival_knocks(10, 30) and found.rival_knocks(1, 30)
    rises = _gin_search(0, 0.0, -1.0, 0.0)  # p = 1 / (1 + exp(-c)): knocks at -z or more
    for left, noise, knocks in ((10, -5.0, True), (5, -5.0, True), (4, -5.0, False)):
        rises._noise, rises._k = (noise,), 0
        assert rises.rival_knocks(left, 20) is knocks, (left, noise)
    mine = _gin_search(1, 0.0, 1.0, 0.0)
    assert mine.view.seat == 1 and mine.rival == 0
    for left in (10, 5, 0):
        rival = next(h for h, c in GIN_AT.items() if c == left)
        mine._noise, mine._k = (100.0,), 0
        t = _gin_rival_to_discard(rival, 20)
        mine.move(t, mine.knock_at)
        assert t.phase == OVER and mine._k == 0


def test_gin_the_draws_give_the_fitted_chance() -> None:
    """Over 4,000 streams the rival knocks at a count of 1-10 at the fitted chance
    (within 0.03), and a stream's draws repeat."""
    base, per_count, per_stock = (
        search.GIN_CHANCE_BASE,
        search.GIN_CHANCE_COUNT,
        search.GIN_CHANCE_STOCK,
    )
    found = _gin_search(0, base, per_count, per_stock)
    for count, stock in ((1, 25), (4, 20), (7, 15), (10, 10), (10, 25)):
        x = base + per_stock * stock - per_count * count
        p = 1.0 / (1.0 + math.exp(-x))
        hits = 0
        for s in range(4000):
            found._stream = None
            found.stream_noise(s)
            found._k = 2
            hits += found.rival_knocks(count, stock)
        assert abs(hits / 4000 - p) < 0.03, (count, stock, hits / 4000, p)
    found.stream_noise(7)
    first = found._noise
    found._stream = None
    found.stream_noise(7)
    assert found._noise == first and found._k == 0


def _gin_on(monkeypatch: Any) -> None:
    monkeypatch.setattr(search, "GIN_RIVAL_CHANCE", 1)


def test_gin_on_the_rival_plays_on_under_the_limit_the_seat_does_not(monkeypatch: Any) -> None:
    """The search's own Gin playouts: the searching seat never plays on with a discard
    that leaves 10 or less; the rival does (more than 10 times), and also knocks."""
    _gin_on(monkeypatch)
    played: list[tuple[int, str, int, int]] = []  # seat, kind, after, before
    real_play, real_playout = KrTable.play, kr_playout.playout
    inside = [False]

    def spy_playout(t: KrTable, knock_at: int, *args: Any, **kwargs: Any) -> list[float]:
        inside[0] = True
        try:
            return real_playout(t, knock_at, *args, **kwargs)
        finally:
            inside[0] = False

    def spy(self: KrTable, action: Any, events: Any = None) -> None:
        seat, before = self.to_act, None
        if inside[0] and self.phase != DRAW and seat is not None:
            before = kr_playout._best_discard(self.hands[seat], False, self.taken)[0]
        real_play(self, action, events)
        if before is not None and seat is not None:
            played.append((seat, action.kind, count_mask(self.hands[seat], False), before))

    monkeypatch.setattr(KrTable, "play", spy)
    monkeypatch.setattr(kr_playout, "playout", spy_playout)
    for hand in (HAND, FAR):
        game, state = _position("gin", hand, "5h")
        obs = game.observe(state, 0)
        assert isinstance(_built(game, obs), search.ChanceKnockGinSearch)
        _values(game, obs, game.legal_actions(state))
    rival_knocks = rival_on = 0
    for seat, kind, after, before in played:
        if kind == "knock":
            assert after <= 10
            rival_knocks += seat == 1
        elif kind == "discard":
            assert seat == 1 or before > 10
            rival_on += seat == 1 and before <= 10
    assert rival_on > 10 and rival_knocks > 0


def test_gin_on_the_values_change(monkeypatch: Any) -> None:
    game, state = _position("gin", FAR, "5h")
    obs, legal = game.observe(state, 0), game.legal_actions(state)
    off = _values(game, obs, legal)
    _gin_on(monkeypatch)
    assert _values(game, obs, legal) != off


def test_gin_on_reads_nothing_hidden(monkeypatch: Any) -> None:
    """Doctored states: other hidden cards behind the same Gin observation give the same
    values, sample for sample."""
    _gin_on(monkeypatch)
    runs, rivals = [], []
    for shift in (0, 7, 19):
        game, state = _position("gin", HAND, "5h", shift=shift)
        runs.append(_values(game, game.observe(state, 0), game.legal_actions(state)))
        rivals.append(state.hands[1])
    assert len(set(rivals)) == 3
    assert runs[0] == runs[1] == runs[2]


@pytest.mark.parametrize("seat", [0, 1])
def test_gin_on_a_seeded_match_repeats(monkeypatch: Any, seat: int) -> None:
    """A whole seeded Gin match, strong (switch on) against strong-v1, twice: the same
    moves; the switch's search, with the fitted chance, is the one used."""
    _gin_on(monkeypatch)
    built = []
    real = search.ChanceKnockGinSearch.__init__

    def spy(self: Any, view: Any, game: str, table: Any, *fit: float) -> None:
        built.append((view.seat, *fit))
        real(self, view, game, table, *fit)

    monkeypatch.setattr(search.ChanceKnockGinSearch, "__init__", spy)

    def play() -> list[str]:
        game = get_game("gin")
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
    fit = (search.GIN_CHANCE_BASE, search.GIN_CHANCE_COUNT, search.GIN_CHANCE_STOCK)
    assert built and all(b == (seat, *fit) for b in built)
