"""``search.KR_STOCK_KNOCK`` (issue #17, Gin and Knock Rummy fifteenth pass): in heads-up
Knock Rummy playouts both seats, the searching one and its rival, knock at 6 or less as
today or at that count or less once the stock holds fewer than ``search.KR_STOCK_BELOW``
cards. Off (``None`` or 0, the play) and on at 6: today's search sample for sample; on:
what the playouts do, a seed repeating, nothing hidden read, Gin untouched."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from deadwood_knock.bots import Budget, get_bot, kr_playout, search
from deadwood_knock.bots.strong import KR_PLAYOUT_KNOCK, KrSimSearch
from deadwood_knock.bots.view import view_of
from deadwood_knock.cards import CARDS, parse_cards
from deadwood_knock.games import get_game
from deadwood_knock.games.knock_rummy.core import DRAW, KrTable
from deadwood_knock.games.knock_rummy.melds import best_discard_mask, count_mask

HAND = "7h 8h 9h 4s 4d Js Qs Kd 2c 3d 9s"
FAR = "Ks Qd Jc Th 9s 8d 7c 6h Kd Qc 5s"


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


def test_off_in_play_and_at_6_is_today(monkeypatch: Any) -> None:
    """Off (``None``, and 0): Knock Rummy's search is strong-v1's ``KrSimSearch``; on at 6
    (the playouts' own threshold) the values are today's sample for sample (Knock Rummy);
    Gin is untouched by the switch at any value."""
    assert search.KR_STOCK_KNOCK is None
    assert KR_PLAYOUT_KNOCK == 6
    game, state = _position("knock-rummy", HAND, "5h")
    obs = game.observe(state, 0)
    assert type(_built(game, obs)) is KrSimSearch
    monkeypatch.setattr(search, "KR_STOCK_KNOCK", 0)
    assert type(_built(game, obs)) is KrSimSearch
    monkeypatch.setattr(search, "KR_STOCK_KNOCK", None)
    off = {}
    for game_name in ("knock-rummy", "gin"):
        for hand in (HAND, FAR):
            game, state = _position(game_name, hand, "5h")
            off[game_name, hand] = _values(game, game.observe(state, 0), game.legal_actions(state))
    monkeypatch.setattr(search, "KR_STOCK_KNOCK", 6)
    game, state = _position("knock-rummy", HAND, "5h")
    found = _built(game, game.observe(state, 0))
    assert isinstance(found, search.StockKnockKrSearch) and found.late == 6
    for game_name in ("knock-rummy", "gin"):
        for hand in (HAND, FAR):
            game, state = _position(game_name, hand, "5h")
            values = _values(game, game.observe(state, 0), game.legal_actions(state))
            assert values == off[game_name, hand]
    monkeypatch.setattr(search, "KR_STOCK_KNOCK", 20)
    for hand in (HAND, FAR):  # Gin: the same values with the switch at 20
        game, state = _position("gin", hand, "5h")
        obs = game.observe(state, 0)
        assert not isinstance(_built(game, obs), search.StockKnockKrSearch)
        assert _values(game, obs, game.legal_actions(state)) == off["gin", hand]


def test_on_both_seats_knock_by_the_stock(monkeypatch: Any) -> None:
    """Late threshold 20 below a stock of 26, the search's own playouts (its samples, every
    candidate): each seat knocks at the first discard that leaves it at 6 or less, or at 20
    or less once the stock holds fewer than 26 cards, never above, and plays on only when
    none does; both the searching seat and its rival make knocks above 6, all late."""
    monkeypatch.setattr(search, "KR_STOCK_KNOCK", 20)
    assert search.KR_STOCK_BELOW == 26
    played: list[tuple[int, str, int, int, int]] = []  # seat, kind, after, before, stock
    real_play, real_playout = KrTable.play, kr_playout.playout
    inside = [False]  # the candidate itself is played before the playout: not counted
    knock_ats: list[int] = []

    def spy_playout(t: KrTable, knock_at: int, *args: Any, **kwargs: Any) -> list[float]:
        knock_ats.append(knock_at)
        inside[0] = True
        try:
            return real_playout(t, knock_at, *args, **kwargs)
        finally:
            inside[0] = False

    def spy(self: KrTable, action: Any, events: Any = None) -> None:
        seat, before, stock = self.to_act, None, len(self.stock)
        if inside[0] and self.phase != DRAW and seat is not None:
            before = best_discard_mask(self.hands[seat], False)[0]
        real_play(self, action, events)
        if before is not None and seat is not None:
            after = count_mask(self.hands[seat], False)
            played.append((seat, action.kind, after, before, stock))

    monkeypatch.setattr(KrTable, "play", spy)
    monkeypatch.setattr(kr_playout, "playout", spy_playout)
    for hand in (HAND, FAR):
        game, state = _position("knock-rummy", hand, "5h")
        _values(game, game.observe(state, 0), game.legal_actions(state))
    assert knock_ats and set(knock_ats) == {KR_PLAYOUT_KNOCK}
    high = {0: 0, 1: 0}
    early = 0
    for seat, kind, after, before, stock in played:
        limit = 20 if stock < 26 else 6
        if kind == "knock":
            assert after <= limit
            if after > 6:
                high[seat] += 1
        elif kind == "discard":
            assert before > limit  # it played on: no discard left it at the limit or less
            early += stock >= 26
    assert high[0] > 10 and high[1] > 10
    assert early > 10  # the early discards were judged at 6


def test_on_the_values_change(monkeypatch: Any) -> None:
    game, state = _position("knock-rummy", FAR, "5h")
    obs, legal = game.observe(state, 0), game.legal_actions(state)
    off = _values(game, obs, legal)
    monkeypatch.setattr(search, "KR_STOCK_KNOCK", 20)
    assert _values(game, obs, legal) != off


def test_on_reads_nothing_hidden(monkeypatch: Any) -> None:
    """Doctored states: other hidden cards (the rival's hand, the stock) behind the same
    observation give the same values, sample for sample."""
    monkeypatch.setattr(search, "KR_STOCK_KNOCK", 20)
    runs, rivals = [], []
    for shift in (0, 7, 19):
        game, state = _position("knock-rummy", HAND, "5h", shift=shift)
        runs.append(_values(game, game.observe(state, 0), game.legal_actions(state)))
        rivals.append(state.hands[1])
    assert len(set(rivals)) == 3
    assert runs[0] == runs[1] == runs[2]


@pytest.mark.parametrize("seat", [0, 1])
def test_on_a_seeded_match_repeats(monkeypatch: Any, seat: int) -> None:
    """A whole seeded Knock Rummy match, strong (switch on, 20 below 26) against strong-v1, twice:
    the same moves; the switch's search is the one used."""
    monkeypatch.setattr(search, "KR_STOCK_KNOCK", 20)
    built = []
    real = search.StockKnockKrSearch.__init__

    def spy(self: Any, view: Any, late: int, below: int) -> None:
        built.append((view.seat, late, below))
        real(self, view, late, below)

    monkeypatch.setattr(search.StockKnockKrSearch, "__init__", spy)

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
    assert built and all(b == (seat, 20, 26) for b in built)
