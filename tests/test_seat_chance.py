"""``search.KR_SEAT_CHANCE`` (issue #17, Gin and Knock Rummy twenty-second pass): in the
heads-up Knock Rummy playouts of ``ChanceKnockKrSearch`` the searching seat too knocks
above 6 by a chance (``KR_SEAT_BASE``, ``KR_SEAT_COUNT``, ``KR_SEAT_STOCK``) fitted to
strong's own knocks after its first turn, drawn from the playout's own stream apart from
the rival's draws. Off in play (0): the eighteenth pass's search, sample for sample."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from bot_positions import discard_position
from deadwood_knock.bots import Budget, get_bot, kr_playout, search
from deadwood_knock.bots.strong import KR_PLAYOUT_KNOCK
from deadwood_knock.bots.view import view_of
from deadwood_knock.cards import CARDS, parse_cards
from deadwood_knock.games import get_game
from deadwood_knock.games.knock_rummy.core import DISCARD, DRAW, OVER, KnockRummyOptions, KrTable
from deadwood_knock.games.knock_rummy.melds import best_discard_mask, count_mask, hand_mask

HAND = "7h 8h 9h 4s 4d Js Qs Kd 2c 3d 9s"
FAR = "Ks Qd Jc Th 9s 8d 7c 6h Kd Qc 5s"
LOW = "Ah 2h 3h 4s 5s 6s 7d 8d 9d Kc Qc"  # three runs, Kc Qc: a discard leaves 10
HIGH = "Kh Qd Js Th 9c 8h 7s 6c 5d 3d"  # no meld, count 78
FIT = (0.0, 0.2, 0.1)  # a seat chance for the tests: even at a count of 10 with a stock of 20


def _values(game: Any, obs: Any, legal: Any, seed: int = 11) -> list[tuple[str, Any]]:
    ranked = search.SearchBot().evaluate(
        game, obs, legal, random.Random(seed), Budget(iterations=24)
    )
    return [(str(av.action), av.draws) for av in ranked]


def _built(game: Any, obs: Any) -> Any:
    return search.SearchBot()._search(game, obs, view_of(obs, game.name))


def _on(monkeypatch: Any, fit: tuple[float, float, float] = FIT) -> None:
    monkeypatch.setattr(search, "KR_SEAT_CHANCE", 1)
    monkeypatch.setattr(search, "KR_SEAT_BASE", fit[0])
    monkeypatch.setattr(search, "KR_SEAT_COUNT", fit[1])
    monkeypatch.setattr(search, "KR_SEAT_STOCK", fit[2])


def _searcher(fit: tuple[float, float, float] = FIT) -> search.SeatChanceKrSearch:
    game, state = discard_position("knock-rummy", HAND, "5h")
    return search.SeatChanceKrSearch(
        view_of(game.observe(state, 0), game.name),
        search.KR_CHANCE_BASE,
        search.KR_CHANCE_COUNT,
        search.KR_CHANCE_STOCK,
        *fit,
    )


def test_off_in_play_and_never_firing_are_todays(monkeypatch: Any) -> None:
    """Off in play: heads-up Knock Rummy's search is ``ChanceKnockKrSearch`` itself. On
    with a seat chance that never fires, the switch's search is built and the values are
    the switch-off ones sample for sample (Knock Rummy and Gin); Gin never builds it."""
    assert search.KR_SEAT_CHANCE == 0
    game, state = discard_position("knock-rummy", HAND, "5h")
    assert type(_built(game, game.observe(state, 0))) is search.ChanceKnockKrSearch
    off = {}
    for game_name in ("knock-rummy", "gin"):
        for hand in (HAND, FAR):
            game, state = discard_position(game_name, hand, "5h")
            off[game_name, hand] = _values(game, game.observe(state, 0), game.legal_actions(state))
    _on(monkeypatch, (-1e9, 0.2, 0.1))
    game, state = discard_position("knock-rummy", HAND, "5h")
    assert isinstance(_built(game, game.observe(state, 0)), search.SeatChanceKrSearch)
    for game_name in ("knock-rummy", "gin"):
        for hand in (HAND, FAR):
            game, state = discard_position(game_name, hand, "5h")
            obs = game.observe(state, 0)
            assert _values(game, obs, game.legal_actions(state)) == off[game_name, hand]
            if game_name == "gin":
                assert not isinstance(_built(game, obs), search.SeatChanceKrSearch)


def _to_discard(seat: int, stock: int) -> KrTable:
    """A heads-up table, ``seat`` to discard with ``LOW`` (a discard leaves 10), the other
    seat holding ``HIGH``, ``stock`` cards left."""
    t = KrTable.new(KnockRummyOptions(players=2), 3, single_hand=True)
    low, high = list(parse_cards(LOW)), list(parse_cards(HIGH))
    rest = [c for c in CARDS[:52] if c not in low and c not in high]
    t.hands = [hand_mask(high), hand_mask(high)]
    t.hands[seat] = hand_mask(low)
    t.pile, t.stock = rest[:1], rest[1 : 1 + stock]
    t.phase, t.to_act, t.taken = DISCARD, seat, None
    return t


def test_the_seat_knocks_by_its_draw() -> None:
    """The searching seat's discard leaves 10. At an even draw it knocks when 10 is at or
    below its fitted midpoint for the stock (10 at 20), not at 19 cards (9.5); a low draw
    makes it knock at 10 cards too. Its draws are its own: the rival's are untouched, and
    the rival's discard reads the rival's draw, not the seat's."""
    assert best_discard_mask(hand_mask(list(parse_cards(LOW))), False)[0] == 10
    found = _searcher()
    assert found.seat_limit(30, 99) == -math.inf
    for noise, stock, knocks in ((0.0, 20, True), (0.0, 19, False), (-50.0, 10, True)):
        found._seat_noise, found._j, found._noise, found._k = (noise,), 0, (100.0,), 0
        t = _to_discard(0, stock)
        found.move(t, KR_PLAYOUT_KNOCK)
        assert (t.phase == OVER) is knocks, (noise, stock)
        if not knocks:
            assert t.phase == DRAW and t.to_act == 1
        assert (found._j, found._k) == (1, 0)
    # The rival (seat 1): a seat draw that would knock is not read; a rival draw that
    # never fires plays on.
    found._seat_noise, found._j, found._noise, found._k = (-100.0,), 0, (100.0,), 0
    t = _to_discard(1, 20)
    found.move(t, KR_PLAYOUT_KNOCK)
    assert t.phase == DRAW and (found._j, found._k) == (0, 1)


def test_the_draws_give_the_fitted_chance() -> None:
    """Over 4,000 streams the share of seat draws reaching a count is the fitted chance
    (within 0.03); a stream's draws repeat."""
    found = _searcher()
    streams = [found.seat_noise(random.Random(s)) for s in range(4000)]
    assert found.seat_noise(random.Random(7)) == streams[7]
    b, c, s_ = FIT
    for count, stock in ((10, 20), (20, 25), (5, 10), (15, 30)):
        p = 1.0 / (1.0 + math.exp(-(b + s_ * stock - c * count)))
        share = sum(count <= found.seat_mid + found.seat_per * stock - z[2] for z in streams)
        assert abs(share / 4000 - p) < 0.03, (count, stock, share, p)


def test_on_the_seat_knocks_above_6_in_its_playouts(monkeypatch: Any) -> None:
    """The search's own playouts: with the switch on the searching seat knocks above 6
    (with the fitted-for-the-test chance), and also plays on with counts it could have
    knocked at; off, it knocks only at 6 or less."""
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

    def seat_moves() -> tuple[int, int]:
        played.clear()
        for hand in (HAND, FAR):
            game, state = discard_position("knock-rummy", hand, "5h")
            _values(game, game.observe(state, 0), game.legal_actions(state))
        high = sum(1 for s, k, a, _ in played if s == 0 and k == "knock" and a > 6)
        on = sum(1 for s, k, _, b in played if s == 0 and k == "discard" and 6 < b <= 20)
        return high, on

    assert seat_moves()[0] == 0
    _on(monkeypatch)
    high, on = seat_moves()
    assert high > 5 and on > 0


def test_on_the_values_change(monkeypatch: Any) -> None:
    game, state = discard_position("knock-rummy", FAR, "5h")
    obs, legal = game.observe(state, 0), game.legal_actions(state)
    off = _values(game, obs, legal)
    _on(monkeypatch)
    assert _values(game, obs, legal) != off


def test_on_reads_nothing_hidden(monkeypatch: Any) -> None:
    """Doctored states: other hidden cards (the rival's hand, the stock) behind the same
    observation give the same values, sample for sample."""
    _on(monkeypatch)
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
    same moves; the switch's search, with the set chance, is the one used."""
    _on(monkeypatch)
    built = []
    real = search.SeatChanceKrSearch.__init__

    def spy(self: Any, view: Any, *fits: float) -> None:
        built.append((view.seat, *fits))
        real(self, view, *fits)

    monkeypatch.setattr(search.SeatChanceKrSearch, "__init__", spy)

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
    rival = (search.KR_CHANCE_BASE, search.KR_CHANCE_COUNT, search.KR_CHANCE_STOCK)
    assert built and all(b == (seat, *rival, *FIT) for b in built)
