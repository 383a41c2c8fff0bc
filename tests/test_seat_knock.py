"""``search.KR_SEAT_KNOCK`` (issue #17, Gin and Knock Rummy thirteenth pass): in heads-up
Knock Rummy playouts the searching seat knocks at that count or less instead of at 6; the
rival keeps 6. Off (``None``, the play) and on at 6: today's search sample for sample; on:
what the playouts do, a seed repeating, nothing hidden read, Gin untouched."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from deadwood_knock.bots import Budget, get_bot, kr_playout, search
from deadwood_knock.bots.strong import KrSimSearch
from deadwood_knock.bots.view import view_of
from deadwood_knock.cards import CARDS, parse_cards
from deadwood_knock.games import get_game
from deadwood_knock.games.knock_rummy.core import DISCARDS, OVER, KnockRummyOptions, KrTable
from deadwood_knock.games.knock_rummy.melds import count_mask

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


def test_off_in_play_and_at_6_is_today(monkeypatch: Any) -> None:
    """Off: Knock Rummy's search is strong-v1's ``KrSimSearch``; on at 6 (the playouts'
    own threshold) the values are today's sample for sample (Knock Rummy); Gin is
    untouched by the switch at any value."""
    assert search.KR_SEAT_KNOCK is None
    game, state = _position("knock-rummy", HAND, "5h")
    obs = game.observe(state, 0)
    assert type(search.SearchBot()._search(game, obs, view_of(obs, game.name))) is KrSimSearch
    off = {}
    for game_name in ("knock-rummy", "gin"):
        for hand in (HAND, FAR):
            game, state = _position(game_name, hand, "5h")
            off[game_name, hand] = _values(game, game.observe(state, 0), game.legal_actions(state))
    monkeypatch.setattr(search, "KR_SEAT_KNOCK", 6)
    game, state = _position("knock-rummy", HAND, "5h")
    obs = game.observe(state, 0)
    found = search.SearchBot()._search(game, obs, view_of(obs, game.name))
    assert isinstance(found, search.SeatKnockKrSearch)
    for game_name in ("knock-rummy", "gin"):
        for hand in (HAND, FAR):
            game, state = _position(game_name, hand, "5h")
            values = _values(game, game.observe(state, 0), game.legal_actions(state))
            assert values == off[game_name, hand]
    monkeypatch.setattr(search, "KR_SEAT_KNOCK", 25)
    for hand in (HAND, FAR):  # Gin: the same values with the switch at 25
        game, state = _position("gin", hand, "5h")
        obs = game.observe(state, 0)
        assert not isinstance(
            search.SearchBot()._search(game, obs, view_of(obs, game.name)),
            search.SeatKnockKrSearch,
        )
        values = _values(game, obs, game.legal_actions(state))
        assert values == off["gin", hand]


def test_the_move_at_the_playouts_threshold_is_the_plain_policy() -> None:
    """``seat_knock_move(seat, 6)`` plays ``policy_move(.., 6)`` move for move (Knock
    Rummy, fresh deals and sampled positions); at Gin any threshold is the plain policy."""
    for seed in range(24):
        gin = seed % 4 == 0
        opts = KnockRummyOptions(players=2, target=100_000, gin=gin)
        a = KrTable.new(opts, seed, single_hand=True)
        b = a.copy()
        same = kr_playout.seat_knock_move(seed % 2, 25 if gin else 6)
        steps = 0
        while a.phase != OVER and steps < 300:
            kr_playout.policy_move(a, 10 if gin else 6)
            same(b, 10 if gin else 6)
            assert (a.hands, a.pile, a.phase) == (b.hands, b.pile, b.phase)
            steps += 1
        assert a.hand_scores == b.hand_scores
    game, state = _position("knock-rummy", HAND, "5h")
    view = view_of(game.observe(state, 0), game.name)
    for seed in range(16):
        table = kr_playout.sample_position(view, random.Random(seed))
        assert table is not None
        kr_playout.apply_action(table, 0, DISCARDS[parse_cards("9s")[0]])
        a, b = table.copy(), table.copy()
        plain = kr_playout.playout(a, 6)
        other = kr_playout.playout(b, 6, move=kr_playout.seat_knock_move(0, 6))
        assert plain == other and a.hands == b.hands and a.pile == b.pile


def test_on_the_seat_knocks_at_its_threshold_the_rival_at_6(monkeypatch: Any) -> None:
    """Threshold 25: every knock above 6 is the seat's, at 25 or less; the rival knocks
    only at 6 or less; the seat knocks at the first discard whose best count is 25 or
    less (some of its knocks are high)."""
    played: list[Any] = []
    real_play = KrTable.play

    def spy(self: KrTable, action: Any, events: Any = None) -> None:
        played.append(action)
        real_play(self, action, events)

    monkeypatch.setattr(KrTable, "play", spy)
    high = 0
    for seed in range(60):
        me = seed % 2
        t = KrTable.new(KnockRummyOptions(players=2, target=100_000), seed, single_hand=True)
        move = kr_playout.seat_knock_move(me, 25)
        while t.phase != OVER:
            seat = t.to_act
            move(t, 6)
            kind = played[-1].kind
            if seat == me and kind == "discard":
                # it played on: no discard left it at 25 or less
                assert count_mask(t.hands[seat], False) > 25
            if kind != "knock":
                continue
            mine = count_mask(t.hands[seat], False)
            if mine > 6:
                assert seat == me and mine <= 25
                high += 1
    assert high > 10


def test_on_the_values_change(monkeypatch: Any) -> None:
    game, state = _position("knock-rummy", FAR, "5h")
    obs, legal = game.observe(state, 0), game.legal_actions(state)
    off = _values(game, obs, legal)
    monkeypatch.setattr(search, "KR_SEAT_KNOCK", 25)
    assert _values(game, obs, legal) != off


def test_on_reads_nothing_hidden(monkeypatch: Any) -> None:
    """Doctored states: other hidden cards (the rival's hand, the stock) behind the same
    observation give the same values, sample for sample."""
    monkeypatch.setattr(search, "KR_SEAT_KNOCK", 25)
    runs, rivals = [], []
    for shift in (0, 7, 19):
        game, state = _position("knock-rummy", HAND, "5h", shift=shift)
        runs.append(_values(game, game.observe(state, 0), game.legal_actions(state)))
        rivals.append(state.hands[1])
    assert len(set(rivals)) == 3
    assert runs[0] == runs[1] == runs[2]


@pytest.mark.parametrize("seat", [0, 1])
def test_on_a_seeded_match_repeats(monkeypatch: Any, seat: int) -> None:
    """A whole seeded Knock Rummy match, strong (switch on, 25) against strong-v1, twice:
    the same moves; the switch's search is the one used."""
    monkeypatch.setattr(search, "KR_SEAT_KNOCK", 25)
    built = []
    real = search.SeatKnockKrSearch.__init__

    def spy(self: Any, view: Any, knock: int) -> None:
        built.append((view.seat, knock))
        real(self, view, knock)

    monkeypatch.setattr(search.SeatKnockKrSearch, "__init__", spy)

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
    assert built and all(b == (seat, 25) for b in built)
