"""``search.RIVAL_KNOCKS`` (issue #17, Gin and Knock Rummy tenth pass): the playout rivals
knock as each rival ended earlier hands of the match. Off (0, the play): today's search
sample for sample; on: the memory of ``last_result``, the thresholds, the playouts, a
seed repeating."""

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
from deadwood_knock.games.knock_rummy.core import DISCARDS, HandResult, KrTable
from deadwood_knock.games.knock_rummy.melds import hand_mask


def _position(game_name: str, hand: str, top: str, hand_number: int = 1) -> tuple[Any, Any]:
    """A fresh heads-up deal, seat 0 to discard with ``hand`` (11 cards)."""
    game = get_game(game_name)
    state = game.new_game(game.options_from_json({"players": 2}), 1)
    mine, pile = list(parse_cards(hand)), list(parse_cards(top))
    rest = [c for c in CARDS[:52] if c not in mine and c not in pile]
    state = dataclasses.replace(
        state,
        hands=(tuple(sorted(mine)), tuple(sorted(rest[:10]))),
        stock=tuple(rest[10:]),
        discard_pile=tuple(pile),
        phase="discard",
        to_act=0,
        taken_discard=None,
        hand_number=hand_number,
    )
    return game, state


def _result(hand: int, outcome: str, ender: int | None, counts: tuple[int, int]) -> HandResult:
    return HandResult(
        hand_number=hand,
        outcome=outcome,
        ender=ender,
        winners=(0,),
        counts=counts,
        scores=(0, 0),
        totals=(0, 0),
        hands=((), ()),
        arrangements=(),
    )


def _feed(bot: Any, game: Any, state: Any, results: list[HandResult]) -> None:
    """Show ``bot`` (seat 0) each result as the next hand's observation's last result."""
    for r in results:
        s = dataclasses.replace(state, hand_number=r.hand_number + 1, last_result=r)
        obs = game.observe(s, 0)
        bot.remember(obs, view_of(obs, game.name))


def test_off_in_play() -> None:
    assert search.RIVAL_KNOCKS == 0
    bot = search.SearchBot()
    game, state = _position("knock-rummy", "7h 8h 9h 4s 4d Js Qs Kd 2c 3d 9s", "5h", 5)
    _feed(bot, game, state, [_result(h, "knock", 1, (20, 30)) for h in (1, 2, 3)])
    obs = game.observe(state, 0)
    assert bot.rival_knocks(view_of(obs, game.name)) is None
    assert type(bot._search(game, obs, view_of(obs, game.name))) is KrSimSearch
    # Off, a bot shown the rival's knocks plays as a fresh one, sample for sample.
    for game_name in ("knock-rummy", "gin"):
        game, state = _position(game_name, "7h 8h 9h 4s 4d Js Qs Kd 2c 3d 9s", "5h", 5)
        fed = search.SearchBot()
        _feed(fed, game, state, [_result(h, "knock", 1, (20, 3)) for h in (1, 2, 3)])
        obs, legal = game.observe(state, 0), game.legal_actions(state)
        runs = [
            [
                (str(av.action), av.draws)
                for av in b.evaluate(game, obs, legal, random.Random(5), Budget(iterations=24))
            ]
            for b in (fed, search.SearchBot())
        ]
        assert runs[0] == runs[1]


def test_a_playout_with_every_threshold_alike_is_the_plain_playout() -> None:
    """The per-seat path with both seats at the plain threshold plays the plain playout,
    move for move (both policies, both games)."""
    for game_name, knock_at in (("knock-rummy", 6), ("gin", 10)):
        game, state = _position(game_name, "7h 8h 9h 4s 4d Js Qs Kd 2c 3d 9s", "5h")
        view = view_of(game.observe(state, 0), game_name)
        for seed in range(12):
            table = kr_playout.sample_position(view, random.Random(seed))
            assert table is not None
            for move in (None, kr_playout.meld_move):
                a, b = table.copy(), table.copy()
                kr_playout.apply_action(a, 0, DISCARDS[parse_cards("9s")[0]])
                kr_playout.apply_action(b, 0, DISCARDS[parse_cards("9s")[0]])
                plain = kr_playout.playout(a, knock_at, move=move)
                per_seat = kr_playout.playout(b, knock_at, move=move, knocks=[knock_at] * 2)
                assert plain == per_seat and a.pile == b.pile and a.hands == b.hands


def _rival_at_its_discard(rival: str) -> KrTable:
    """Knock Rummy, seat 1 to discard with ``rival`` (11 cards), seat 0 far from a knock."""
    game, state = _position("knock-rummy", "Ks Qd Jc Th 9s 8d 7c 6h Kd Qc 5s", "5h")
    view = view_of(game.observe(state, 0), "knock-rummy")
    table = kr_playout.sample_position(view, random.Random(0))
    assert table is not None
    kr_playout.apply_action(table, 0, DISCARDS[parse_cards("Ks")[0]])
    table.hands[1] = hand_mask(list(parse_cards(rival)))
    table.phase, table.to_act, table.taken = "discard", 1, None
    table.stock = [c for c in table.stock if not hand_mask([c]) & table.hands[1]]
    return table


def test_on_the_rival_knocks_at_its_own_threshold() -> None:
    # Seat 1 holds 7h 8h 9h, 4s 4d 4c and 2c 3d Js Qs Kd: a count of 25 after the Kd.
    rival = "7h 8h 9h 4s 4d 4c 2c 3d Js Qs Kd"
    for knocks, knocked in (([6, 40], True), ([6, 25], True), ([6, 24], False), (None, False)):
        table = _rival_at_its_discard(rival)
        kr_playout.playout(table, 6, cap=1, knocks=knocks)
        assert (table.hand_scores is not None) == knocked, knocks
    # The seat's own threshold stays: seat 0 (count 80 and more) does not knock at 40.
    table = _rival_at_its_discard(rival)
    kr_playout.playout(table, 6, cap=1, knocks=[40, 6])
    assert table.hand_scores is None


def test_on_the_memory_and_the_thresholds(monkeypatch: Any) -> None:
    monkeypatch.setattr(search, "RIVAL_KNOCKS", 2)
    bot = search.SearchBot()
    game, state = _position("knock-rummy", "7h 8h 9h 4s 4d Js Qs Kd 2c 3d 9s", "5h", 6)
    view = view_of(game.observe(state, 0), game.name)
    _feed(bot, game, state, [_result(1, "knock", 1, (40, 31))])
    assert bot.ends == {1: (1, 31)}
    assert bot.rival_knocks(view) is None  # one hand: not yet
    # The seat's own knocks, void hands and a result shown twice count once, or not at all.
    _feed(bot, game, state, [_result(2, "knock", 0, (5, 50)), _result(3, "void", None, (0, 0))])
    obs = game.observe(
        dataclasses.replace(state, hand_number=4, last_result=_result(2, "knock", 0, (5, 50))), 0
    )
    bot.remember(obs, view_of(obs, game.name))
    assert bot.ends == {1: (1, 31), 2: (0, 5)}
    assert bot.rival_knocks(view) is None
    _feed(bot, game, state, [_result(4, "rummy", 1, (30, 0)), _result(5, "knock", 1, (45, 36))])
    # The rival ended hands at 31, 0 and 36: mean 22.3, so 22; the seat keeps 6.
    assert bot.rival_knocks(view) == [6, 22]
    obs = game.observe(state, 0)
    found = bot._search(game, obs, view)
    assert isinstance(found, search.RivalKnockKrSearch) and found.knocks == [6, 22]
    # Another match (the hand number goes back) or another seat: forgotten.
    _feed(bot, game, state, [_result(1, "knock", 1, (40, 31))])
    assert bot.ends == {1: (1, 31)}
    # Gin: the search's playouts get the thresholds; the rules' limit stays the seat's.
    gin, gstate = _position("gin", "7h 8h 9h 4s 4d Js Qs Kd 2c 3d 9s", "5h", 4)
    gbot = search.SearchBot()
    _feed(gbot, gin, gstate, [_result(1, "knock", 1, (20, 5)), _result(2, "gin", 1, (30, 0))])
    _feed(gbot, gin, gstate, [_result(3, "undercut", 1, (4, 8))])
    gobs = gin.observe(gstate, 0)
    gview = view_of(gobs, "gin")
    assert gbot.rival_knocks(gview) == [10, 4]  # (5 + 0 + 8) / 3 = 4.3
    gsearch = gbot._search(gin, gobs, gview)
    assert isinstance(gsearch, search.InferredKrSearch) and gsearch.knocks == [10, 4]


def test_on_with_nothing_remembered_is_today_sample_for_sample(monkeypatch: Any) -> None:
    """Switch on, no rival has ended two hands (a fresh bot, as Hand Focus and the
    server's worker make): the same values, sample for sample, as with it off."""
    for game_name in ("knock-rummy", "gin"):
        game, state = _position(game_name, "7h 8h 9h 4s 4d Js Qs Kd 2c 3d 9s", "5h", 3)
        state = dataclasses.replace(state, last_result=_result(2, "knock", 1, (30, 5)))
        obs, legal = game.observe(state, 0), game.legal_actions(state)

        def values(on: int, game: Any = game, obs: Any = obs, legal: Any = legal) -> Any:
            monkeypatch.setattr(search, "RIVAL_KNOCKS", on)
            ranked = search.SearchBot().evaluate(
                game, obs, legal, random.Random(11), Budget(iterations=24)
            )
            return [(str(av.action), av.draws) for av in ranked]

        assert values(2) == values(0)


def test_on_the_rival_threshold_changes_the_values(monkeypatch: Any) -> None:
    """With the rival's threshold read as 30 (it ended two hands at 30) the Knock Rummy
    search plays other playouts than with it off, on the same samples."""
    game, state = _position("knock-rummy", "Ks Qd Jc Th 9s 8d 7c 6h Kd Qc 5s", "5h", 3)
    obs, legal = game.observe(state, 0), game.legal_actions(state)

    def values(on: int) -> Any:
        monkeypatch.setattr(search, "RIVAL_KNOCKS", on)
        bot = search.SearchBot()
        _feed(
            bot, game, state, [_result(1, "knock", 1, (60, 30)), _result(2, "knock", 1, (50, 30))]
        )
        ranked = bot.evaluate(game, obs, legal, random.Random(11), Budget(iterations=24))
        return {str(av.action): av.draws for av in ranked}

    off, on = values(0), values(2)
    assert off != on
    # The rival knocks sooner: its playouts end sooner, the seat's far hand loses more.
    mean = {k: sum(v) / len(v) for k, v in on.items() if v}
    mean_off = {k: sum(v) / len(v) for k, v in off.items() if v and k in mean}
    assert sum(mean.values()) < sum(mean_off.values())


@pytest.mark.parametrize("game_name", ["knock-rummy", "gin"])
def test_on_a_seeded_match_repeats(monkeypatch: Any, game_name: str) -> None:
    """A whole seeded match, strong (switch on) against strong-v1, twice: the same moves;
    the memory fills and the rival's threshold is read from it."""
    monkeypatch.setattr(search, "RIVAL_KNOCKS", 2)

    def play() -> tuple[list[str], dict[int, tuple[int, int]], list[Any]]:
        game = get_game(game_name)
        state = game.new_game(game.options_from_json({"players": 2}), 4)
        bots = [get_bot("strong"), get_bot("strong-v1")]
        rngs = [random.Random(1), random.Random(2)]
        moves: list[str] = []
        seen: list[Any] = []
        while not game.is_over(state) and len(moves) < 3000:
            seat = game.to_act(state)
            obs, legal = game.observe(state, seat), game.legal_actions(state)
            action = bots[seat].act(game, obs, legal, rngs[seat], Budget(iterations=6))
            if seat == 0:
                seen.append(bots[0].rival_knocks(view_of(obs, game_name)))
            moves.append(str(action))
            state, _ = game.apply(state, action)
        return moves, dict(bots[0].ends), seen

    first, again = play(), play()
    assert first == again
    assert any(k is not None for k in first[2])
