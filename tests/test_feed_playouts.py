"""``search.KR_FEED_PLAYOUTS`` (issue #17, Gin and Knock Rummy twenty-fourth pass): in the
heads-up Knock Rummy playouts (``ChanceKnockKrSearch``) both seats throw with
``kr_playout.feed_move``: the lowest-count discard, unless it melds with two cards of the
other seat's sampled hand; then the lowest-count card that does not, if it leaves at
most ``KR_FEED_SLACK`` more. Off in play (0): today's playouts. Off, and on with a slack
no card fits: today's values sample for sample; on: what the move does on a constructed
table, the values change, a seed repeats, nothing hidden read, Gin untouched."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot_positions import discard_position, played, swapped
from deadwood_knock.bots import Budget, get_bot, kr_playout, search
from deadwood_knock.bots.view import view_of
from deadwood_knock.cards import CARDS, parse_cards
from deadwood_knock.games import get_game
from deadwood_knock.games.knock_rummy.core import (
    DISCARD,
    DRAW,
    OVER,
    KnockRummyOptions,
    KrTable,
)
from deadwood_knock.games.knock_rummy.melds import best_discard_mask, count_mask, hand_mask

HAND = "7h 8h 9h 4s 4d Js Qs Kd 2c 3d 9s"
FAR = "Ks Qd Jc Th 9s 8d 7c 6h Kd Qc 5s"
# The lowest-count discard is Kd (36 left; Qs too); 9d or 9s leave 37, 8c 38.
SEAT = "2c 3c 4c 5h 6h 7h 9d 9s Kd 8c Qs"
# Two kings and two queens (Kd and Qs meld here), two eights (8c melds), no 9.
RIVAL = "Kc Ks Qh Qc 8d 8h Ah 2d 5s 6d"


def _values(game: Any, obs: Any, legal: Any, seed: int = 11) -> list[tuple[str, Any]]:
    ranked = search.SearchBot().evaluate(
        game, obs, legal, random.Random(seed), Budget(iterations=24)
    )
    return [(str(av.action), av.draws) for av in ranked]


def _table(seat: str = SEAT, rival: str = RIVAL, stock: int = 20) -> KrTable:
    """Heads-up, seat 0 to discard with ``seat``, seat 1 holding ``rival``."""
    t = KrTable.new(KnockRummyOptions(players=2), 3, single_hand=True)
    mine, theirs = list(parse_cards(seat)), list(parse_cards(rival))
    rest = [c for c in CARDS[:52] if c not in mine and c not in theirs]
    t.hands = [hand_mask(mine), hand_mask(theirs)]
    t.pile, t.stock = rest[:1], rest[1 : 1 + stock]
    t.phase, t.to_act, t.taken = DISCARD, 0, None
    return t


def _thrown(t: KrTable) -> str:
    return str(t.pile[-1])


def test_off_in_play() -> None:
    assert search.KR_FEED_PLAYOUTS == 0
    assert search.KR_FEED_SLACK == 5
    game, state = discard_position("knock-rummy", HAND, "5h")
    built = search.SearchBot()._search(
        game, game.observe(state, 0), view_of(game.observe(state, 0), game.name)
    )
    assert isinstance(built, search.ChanceKnockKrSearch)
    assert built.feed_slack is None


def test_the_feed_table_and_mask() -> None:
    """``FEEDS``: two of the rank, or two suited cards running with it (the high ace after
    the king only with High Aces, no run round the corner); ``fed_mask`` is the same set
    by bit operations, over random hands."""

    def fed(hand: str, card: str, high: bool) -> bool:
        m = hand_mask(list(parse_cards(hand)))
        c = parse_cards(card)[0]
        by_table = any(m & p == p for p in kr_playout.FEEDS[high][c])
        assert by_table == bool(kr_playout.fed_mask(m, high) >> c & 1)
        return by_table

    assert fed("Kc Ks", "Kd", False) and not fed("Kc 2s", "Kd", False)
    assert fed("7h 8h", "9h", False) and fed("7h 8h", "6h", False) and fed("7h 9h", "8h", False)
    assert not fed("7h 8h", "Th", False) and not fed("7h 8d", "9h", False)
    assert fed("Qh Kh", "Jh", False) and not fed("Qh Kh", "Ah", False)
    assert fed("Qh Kh", "Ah", True) and fed("Kh Ah", "Qh", True) and fed("Qh Ah", "Kh", True)
    assert not fed("Kh Ah", "2h", True) and not fed("Ah 2h", "Kh", True)
    assert fed("2h 3h", "Ah", False) and fed("2h 3h", "Ah", True)
    rng = random.Random(5)
    for high in (False, True):
        for _ in range(3000):
            m = hand_mask(rng.sample(CARDS[:52], rng.randrange(0, 12)))
            want = 0
            for c in range(52):
                if not m >> c & 1 and any(m & p == p for p in kr_playout.FEEDS[high][c]):
                    want |= 1 << c
            assert kr_playout.fed_mask(m, high) == want


def test_the_move_throws_away_from_the_other_hand() -> None:
    """Kd (the lowest count, 36) melds with the rival's kings; so does Qs (queens), and 8c
    (eights): with a slack of 1 or more the seat throws 9s (37; of the two 9s the first in
    card order), with 0 it throws Kd as ``policy_move`` does; a rival that melds none of
    them gets Kd either way."""
    assert best_discard_mask(_table().hands[0], False) == (36, parse_cards("Kd")[0])
    t = _table()
    kr_playout.policy_move(t, 6)
    assert _thrown(t) == "Kd" and t.phase == DRAW and t.to_act == 1
    for slack, thrown in ((0, "Kd"), (1, "9s"), (5, "9s")):
        t = _table()
        kr_playout.feed_move(t, 6, slack)
        assert _thrown(t) == thrown, slack
        assert t.phase == DRAW and t.to_act == 1
        if thrown == "9s":
            assert count_mask(t.hands[0], False) == 37
    t = _table(rival="Ac 2d 3s 4h 5d 6s 7d Tc Jd 3h")
    kr_playout.feed_move(t, 6, 5)
    assert _thrown(t) == "Kd"


def test_the_move_keeps_the_taken_card_and_the_knock() -> None:
    """The card taken from the pile is never thrown (9s taken: 9d goes instead); a discard
    that knocks knocks, whoever it feeds."""
    t = _table()
    t.taken = parse_cards("9s")[0]
    kr_playout.feed_move(t, 6, 5)
    assert _thrown(t) == "9d"
    t = _table()
    kr_playout.feed_move(t, 40, 5)
    assert t.phase == OVER


def _on_values(monkeypatch: Any, game_name: str, hand: str, value: int, slack: int) -> Any:
    monkeypatch.setattr(search, "KR_FEED_PLAYOUTS", value)
    monkeypatch.setattr(search, "KR_FEED_SLACK", slack)
    game, state = discard_position(game_name, hand, "5h")
    return _values(game, game.observe(state, 0), game.legal_actions(state))


def test_on_without_room_is_off_and_on_changes_the_values(monkeypatch: Any) -> None:
    """On with a slack no card fits (-1): today's values sample for sample; on at 5, other
    values (Knock Rummy); Gin's values are the same switch on or off."""
    for hand in (HAND, FAR):
        off = _on_values(monkeypatch, "knock-rummy", hand, 0, 5)
        assert _on_values(monkeypatch, "knock-rummy", hand, 1, -1) == off
        assert _on_values(monkeypatch, "knock-rummy", hand, 1, 5) != off
        gin_off = _on_values(monkeypatch, "gin", hand, 0, 5)
        assert _on_values(monkeypatch, "gin", hand, 1, 5) == gin_off


def test_on_the_playouts_throw_away_from_the_rival(monkeypatch: Any) -> None:
    """Inside the search's playouts (switch on), no plain discard by either seat melds
    with two cards of the other's hand while a card within the slack would not; with the
    switch off, some do."""
    real = kr_playout.playout

    def count(value: int) -> tuple[int, int]:
        fed = plain = 0

        def spy(t: KrTable, knock_at: int, *args: Any, **kwargs: Any) -> list[float]:
            nonlocal fed, plain
            move = kwargs["move"]

            def step(tt: KrTable, k: int) -> None:
                nonlocal fed, plain
                seat = tt.to_act
                if tt.phase == DRAW or seat is None:
                    move(tt, k)
                    return
                hand, other = tt.hands[seat], tt.hands[1 - seat]
                left = kr_playout._best_discard(hand, False, tt.taken)[0]
                safe = [
                    x
                    for x in range(52)
                    if hand >> x & 1
                    and x != tt.taken
                    and not kr_playout.fed_mask(other, False) >> x & 1
                    and count_mask(hand ^ (1 << x), False) <= left + 5
                ]
                size = len(tt.pile)
                move(tt, k)
                if tt.phase == DRAW and len(tt.pile) == size + 1:
                    plain += 1
                    if kr_playout.fed_mask(other, False) >> tt.pile[-1] & 1 and safe:
                        fed += 1

            kwargs["move"] = step
            return real(t, knock_at, *args, **kwargs)

        monkeypatch.setattr(kr_playout, "playout", spy)
        _on_values(monkeypatch, "knock-rummy", FAR, value, 5)
        monkeypatch.setattr(kr_playout, "playout", real)
        return fed, plain

    fed_on, plain_on = count(1)
    fed_off, _ = count(0)
    assert plain_on > 100 and fed_on == 0
    assert fed_off > 10


def test_on_reads_nothing_hidden(monkeypatch: Any) -> None:
    """Doctored states: other hidden cards (the rival's hand, the stock) behind the same
    observation give the same values, sample for sample; and the whole bot's decision at
    played heads-up positions is the same with one hidden card of the rival's swapped."""
    monkeypatch.setattr(search, "KR_FEED_PLAYOUTS", 1)
    runs, rivals = [], []
    for shift in (0, 7, 19):
        game, state = discard_position("knock-rummy", HAND, "5h", shift=shift)
        runs.append(_values(game, game.observe(state, 0), game.legal_actions(state)))
        rivals.append(state.hands[1])
    assert len(set(rivals)) == 3
    assert runs[0] == runs[1] == runs[2]
    rng = random.Random(7)
    checked = 0
    for seed in range(6):
        game, state = played("knock-rummy", {"players": 2}, seed, steps=rng.randrange(0, 3))
        seat = game.to_act(state)
        if seat is None or game.is_over(state) or not state.stock:
            continue
        doctored = swapped(state, 1 - seat, rng.choice)
        assert doctored.hands != state.hands
        real_obs, fake_obs = game.observe(state, seat), game.observe(doctored, seat)
        assert real_obs.to_json() == fake_obs.to_json()
        legal = game.legal_actions(state)
        bot = get_bot("strong")
        a = bot.act(game, real_obs, legal, random.Random(seed), Budget(iterations=8))
        b = bot.act(game, fake_obs, legal, random.Random(seed), Budget(iterations=8))
        assert a == b
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("seat", [0, 1])
def test_on_a_seeded_match_repeats(monkeypatch: Any, seat: int) -> None:
    """A whole seeded Knock Rummy match, strong (switch on) against strong-v1, twice: the
    same moves, the feed-aware move used."""
    monkeypatch.setattr(search, "KR_FEED_PLAYOUTS", 1)
    used = [0]
    real = kr_playout.feed_move

    def spy(t: KrTable, knock_at: int, slack: int) -> None:
        used[0] += 1
        assert slack == 5
        real(t, knock_at, slack)

    monkeypatch.setattr(kr_playout, "feed_move", spy)

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
    assert used[0] > 0
