"""``search.KR_STOCK_KNOCK`` (issue #17, Gin and Knock Rummy fifteenth pass, brought back
from commit 6a0b04a for the sixteenth, and from commit 4e65c77 for the seventeenth, which
runs it at 15 with the rival's condition): in heads-up Knock Rummy playouts both seats, the
searching one and its rival, knock at 6 or less as today or at that count or less once
the stock holds fewer than ``search.KR_STOCK_BELOW`` cards; with
``search.KR_STOCK_RIVAL_BELOW`` (the sixteenth pass) the rival knocks at the late count
only when its discard leaves it below the seat's count. Off (``None`` or 0, the play)
and on at 6: today's search sample for sample; on: what the playouts do, a seed
repeating, nothing hidden read, Gin untouched."""

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
from deadwood_knock.games.knock_rummy.core import DISCARD, DRAW, OVER, KnockRummyOptions, KrTable
from deadwood_knock.games.knock_rummy.melds import best_discard_mask, count_mask, hand_mask

HAND = "7h 8h 9h 4s 4d Js Qs Kd 2c 3d 9s"
LOW = "7h 8h 9h 4s 4d 4c 2c 3d As Ah Kd"  # two melds; a discard leaves 7 at best
FAR = "Ks Qd Jc Th 9s 8d 7c 6h Kd Qc 5s"


def _position(
    game_name: str, hand: str, top: str, shift: int = 0, short: int = 0
) -> tuple[Any, Any]:
    """A heads-up deal, seat 0 to discard with ``hand`` (11 cards); ``shift`` rotates
    the hidden cards (another rival hand and stock, the same view for seat 0); ``short``
    more cards lie under the top of the discard pile (the stock that much shorter)."""
    game = get_game(game_name)
    state = game.new_game(game.options_from_json({"players": 2}), 1)
    mine, pile = list(parse_cards(hand)), list(parse_cards(top))
    rest = [c for c in CARDS[:52] if c not in mine and c not in pile]
    if short:
        pile, rest = rest[-short:] + pile, rest[:-short]
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
    assert search.KR_STOCK_RIVAL_BELOW == 0
    monkeypatch.setattr(search, "KR_STOCK_KNOCK", 0)
    assert type(_built(game, obs)) is KrSimSearch
    monkeypatch.setattr(search, "KR_STOCK_RIVAL_BELOW", 1)  # alone it does nothing
    assert type(_built(game, obs)) is KrSimSearch
    monkeypatch.setattr(search, "KR_STOCK_KNOCK", None)
    assert type(_built(game, obs)) is KrSimSearch
    monkeypatch.setattr(search, "KR_STOCK_RIVAL_BELOW", 0)
    off = {}
    for game_name in ("knock-rummy", "gin"):
        for hand in (HAND, FAR):
            game, state = _position(game_name, hand, "5h")
            off[game_name, hand] = _values(game, game.observe(state, 0), game.legal_actions(state))
    monkeypatch.setattr(search, "KR_STOCK_KNOCK", 6)
    for rival_below in (0, 1):
        monkeypatch.setattr(search, "KR_STOCK_RIVAL_BELOW", rival_below)
        game, state = _position("knock-rummy", HAND, "5h")
        found = _built(game, game.observe(state, 0))
        assert isinstance(found, search.StockKnockKrSearch) and found.late == 6
        assert found.rival_below is bool(rival_below)
        for game_name in ("knock-rummy", "gin"):
            for hand in (HAND, FAR):
                game, state = _position(game_name, hand, "5h")
                values = _values(game, game.observe(state, 0), game.legal_actions(state))
                assert values == off[game_name, hand]
    monkeypatch.setattr(search, "KR_STOCK_RIVAL_BELOW", 1)
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


@pytest.mark.parametrize("rival_below", [0, 1])
def test_on_reads_nothing_hidden(monkeypatch: Any, rival_below: int) -> None:
    """Doctored states: other hidden cards (the rival's hand, the stock) behind the same
    observation give the same values, sample for sample (with the rival's condition too:
    it reads the sampled hands, never the real ones)."""
    monkeypatch.setattr(search, "KR_STOCK_KNOCK", 20)
    monkeypatch.setattr(search, "KR_STOCK_RIVAL_BELOW", rival_below)
    runs, rivals = [], []
    for shift in (0, 7, 19):
        game, state = _position("knock-rummy", HAND, "5h", shift=shift)
        runs.append(_values(game, game.observe(state, 0), game.legal_actions(state)))
        rivals.append(state.hands[1])
    assert len(set(rivals)) == 3
    assert runs[0] == runs[1] == runs[2]


@pytest.mark.parametrize(("seat", "rival_below"), [(0, 0), (1, 0), (0, 1), (1, 1)])
def test_on_a_seeded_match_repeats(monkeypatch: Any, seat: int, rival_below: int) -> None:
    """A whole seeded Knock Rummy match, strong (switch on, 20 below 26, the rival's
    condition off and on) against strong-v1, twice: the same moves; the switch's search
    is the one used."""
    monkeypatch.setattr(search, "KR_STOCK_KNOCK", 20)
    monkeypatch.setattr(search, "KR_STOCK_RIVAL_BELOW", rival_below)
    built = []
    real = search.StockKnockKrSearch.__init__

    def spy(self: Any, view: Any, late: int, below: int, rival: bool = False) -> None:
        built.append((view.seat, late, below, rival))
        real(self, view, late, below, rival)

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
    assert built and all(b == (seat, 20, 26, bool(rival_below)) for b in built)


# The sixteenth pass: the rival knocks at the late count only when below the seat.

RIVAL = "Ah 2h 3h 4s 5s 6s 7d 8d 9d Kc Qc"  # three runs, Kc Qc: a discard leaves 10
SEAT_LOW = "Jh Qh Kh 9c Tc Jc 2d 3d 4d As"  # count 1
SEAT_LEVEL = "Jh Qh Kh 9c Tc Jc 2d 3d 4d Td"  # count 10, the rival's own
SEAT_HIGH = "Kh Qd Js Th 9c 8h 7s 6c 5d 3d"  # no meld, count 78


def _rival_to_discard(seat_hand: str, stock: int, rival_hand: str = RIVAL) -> KrTable:
    """A heads-up table, seat 1 (the rival of a search for seat 0) to discard with
    ``rival_hand``, seat 0 holding ``seat_hand``, ``stock`` cards in the stock."""
    t = KrTable.new(KnockRummyOptions(players=2), 3, single_hand=True)
    rival, mine = list(parse_cards(rival_hand)), list(parse_cards(seat_hand))
    rest = [c for c in CARDS[:52] if c not in rival and c not in mine]
    t.hands = [hand_mask(mine), hand_mask(rival)]
    t.pile, t.stock = rest[:1], rest[1 : 1 + stock]
    t.phase, t.to_act, t.taken = DISCARD, 1, None
    return t


@pytest.mark.parametrize("rival_below", [False, True])
def test_the_rival_knocks_late_only_when_below_the_seat(rival_below: bool) -> None:
    """The rival's discard leaves 10. Late (stock 20, below 26, late count 20): without the
    condition it knocks whatever the seat holds (the fifteenth pass); with it, only when
    the seat's count is above 10 (78), not against a seat at 1 nor at 10 (level), where
    it keeps the knock at 6 and plays on. Early (stock 27) it never knocks at 10."""
    game, state = _position("knock-rummy", HAND, "5h")
    found = search.StockKnockKrSearch(
        view_of(game.observe(state, 0), game.name), 20, 26, rival_below
    )
    assert count_mask(hand_mask(list(parse_cards(SEAT_LOW))), False) == 1
    assert count_mask(hand_mask(list(parse_cards(SEAT_LEVEL))), False) == 10
    assert count_mask(hand_mask(list(parse_cards(SEAT_HIGH))), False) == 78
    assert best_discard_mask(hand_mask(list(parse_cards(RIVAL))), False)[0] == 10
    for seat_hand, stock, knocks in (
        (SEAT_HIGH, 20, True),
        (SEAT_LEVEL, 20, not rival_below),
        (SEAT_LOW, 20, not rival_below),
        (SEAT_HIGH, 27, False),
        (SEAT_LOW, 27, False),
    ):
        t = _rival_to_discard(seat_hand, stock)
        found.move(t, KR_PLAYOUT_KNOCK)
        assert (t.phase == OVER) is knocks, (seat_hand, stock)
        if not knocks:
            assert t.phase == DRAW and t.to_act == 0


def test_the_seat_knocks_late_whatever_the_rival_holds() -> None:
    """The condition is the rival's alone: the searching seat (here seat 1, its rival seat
    0 holding 1) knocks at 10 late, and not early."""
    game, state = _position("knock-rummy", HAND, "5h")
    obs = game.observe(dataclasses.replace(state, to_act=1), 1)
    found = search.StockKnockKrSearch(view_of(obs, game.name), 20, 26, True)
    assert found.view.seat == 1
    for stock, knocks in ((20, True), (27, False)):
        t = _rival_to_discard(SEAT_LOW, stock)
        found.move(t, KR_PLAYOUT_KNOCK)
        assert (t.phase == OVER) is knocks


def test_on_the_rival_stays_out_of_the_seats_low_hands(monkeypatch: Any) -> None:
    """Late count 20 below a stock of 26, the rival's condition on, the search's own
    playouts: the seat knocks as in the fifteenth pass (at 6 or less early, 20 or less
    late, both above 6 sometimes); the rival knocks above 6 only late and only when its
    count after the knock is below the seat's, plays on late with 20 or less only when
    not below it, and does both."""
    monkeypatch.setattr(search, "KR_STOCK_KNOCK", 20)
    monkeypatch.setattr(search, "KR_STOCK_RIVAL_BELOW", 1)
    played: list[tuple[int, str, int, int, int, int]] = []  # seat, kind, after, before,
    real_play, real_playout = KrTable.play, kr_playout.playout  # stock, other's count
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
            other = count_mask(self.hands[1 - seat], False)
        real_play(self, action, events)
        if before is not None and seat is not None:
            after = count_mask(self.hands[seat], False)
            played.append((seat, action.kind, after, before, stock, other))

    monkeypatch.setattr(KrTable, "play", spy)
    monkeypatch.setattr(kr_playout, "playout", spy_playout)
    for hand, short in ((HAND, 0), (FAR, 0), (LOW, 8)):  # LOW: a stock of 22, late
        game, state = _position("knock-rummy", hand, "5h", short=short)
        assert len(state.stock) == 30 - short
        _values(game, game.observe(state, 0), game.legal_actions(state))
    seat_high = rival_high = rival_held = 0
    for seat, kind, after, before, stock, other in played:
        late = stock < 26
        if seat == 0:  # the searching seat
            limit = 20 if late else 6
            if kind == "knock":
                assert after <= limit
                seat_high += after > 6
            elif kind == "discard":
                assert before > limit
            continue
        if kind == "knock":
            assert after <= 6 or (late and after <= 20 and after < other)
            rival_high += after > 6
        elif kind == "discard":
            assert before > 6
            if late and before <= 20:
                assert before >= other  # not below the seat: it kept the knock at 6
                rival_held += 1
    # Held: rare (late, the seat knocks at 20 or less, so the rival meets a seat's count
    # of 20 or less mostly just after a play-on candidate), but there (6 at this budget).
    assert seat_high > 10 and rival_high > 10 and rival_held > 3


def test_on_the_rivals_condition_changes_the_values(monkeypatch: Any) -> None:
    """At 20 below 26, the rival's condition gives other values than the fifteenth pass's
    rival (knocking at 20 late whatever the seat holds) for a low hand late."""
    game, state = _position("knock-rummy", LOW, "5h", short=8)
    obs, legal = game.observe(state, 0), game.legal_actions(state)
    monkeypatch.setattr(search, "KR_STOCK_KNOCK", 20)
    fifteenth = _values(game, obs, legal)
    monkeypatch.setattr(search, "KR_STOCK_RIVAL_BELOW", 1)
    assert _values(game, obs, legal) != fifteenth


# The seventeenth pass: the same at a late count of 15.

RIVAL_17 = "Ah 2h 3h 4h 4s 5s 6s 7s Kc Qc 7c"  # two runs, Kc Qc 7c: a discard leaves 17


def test_at_15_the_rival_knocks_late_at_15_or_less_only(monkeypatch: Any) -> None:
    """``KR_STOCK_KNOCK = 15`` with the rival's condition (the seventeenth pass's run):
    the switch builds the search at 15; late, against a seat at 78, the rival whose
    discard leaves 10 knocks and the one left at 17 plays on (at 20 it would knock);
    against a seat at 1 neither knocks; early neither knocks."""
    game, state = _position("knock-rummy", HAND, "5h")
    obs = game.observe(state, 0)
    monkeypatch.setattr(search, "KR_STOCK_KNOCK", 15)
    monkeypatch.setattr(search, "KR_STOCK_RIVAL_BELOW", 1)
    found = _built(game, obs)
    assert isinstance(found, search.StockKnockKrSearch)
    assert (found.late, found.below, found.rival_below) == (15, 26, True)
    at_20 = search.StockKnockKrSearch(view_of(obs, game.name), 20, 26, True)
    assert best_discard_mask(hand_mask(list(parse_cards(RIVAL_17))), False)[0] == 17
    for rival, seat_hand, stock, knocks, knocks_at_20 in (
        (RIVAL, SEAT_HIGH, 20, True, True),
        (RIVAL_17, SEAT_HIGH, 20, False, True),
        (RIVAL, SEAT_LOW, 20, False, False),
        (RIVAL_17, SEAT_LOW, 20, False, False),
        (RIVAL, SEAT_HIGH, 27, False, False),
    ):
        for search_at, expected in ((found, knocks), (at_20, knocks_at_20)):
            t = _rival_to_discard(seat_hand, stock, rival)
            search_at.move(t, KR_PLAYOUT_KNOCK)
            assert (t.phase == OVER) is expected, (rival, seat_hand, stock, search_at.late)
