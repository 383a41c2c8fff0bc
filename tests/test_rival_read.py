"""``search.RIVAL_READ`` (issue #17, Gin and Knock Rummy eleventh pass): the playout
rival's knock read from the previous hand's result, conditioned on the position. Off (0,
the play): today's search sample for sample; on: the read, the playouts, a seed
repeating, nothing hidden read."""

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
from deadwood_knock.games.knock_rummy.melds import count_mask, hand_mask

HAND = "7h 8h 9h 4s 4d Js Qs Kd 2c 3d 9s"
FAR = "Ks Qd Jc Th 9s 8d 7c 6h Kd Qc 5s"


def _position(
    game_name: str, hand: str, top: str, hand_number: int = 1, shift: int = 0
) -> tuple[Any, Any]:
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
        hand_number=hand_number,
    )
    return game, state


def _result(hand: int, outcome: str, ender: int | None, counts: tuple[int, ...]) -> HandResult:
    return HandResult(
        hand_number=hand,
        outcome=outcome,
        ender=ender,
        winners=(0,),
        counts=counts,
        scores=(0,) * len(counts),
        totals=(0,) * len(counts),
        hands=((),) * len(counts),
        arrangements=(),
    )


def _values(game: Any, obs: Any, legal: Any, seed: int = 11) -> list[tuple[str, list[float]]]:
    ranked = search.SearchBot().evaluate(
        game, obs, legal, random.Random(seed), Budget(iterations=24)
    )
    return [(str(av.action), av.draws) for av in ranked]


def test_off_in_play() -> None:
    assert search.RIVAL_READ == 0
    for game_name in ("knock-rummy", "gin"):
        game, state = _position(game_name, HAND, "5h", 3)
        read = dataclasses.replace(state, last_result=_result(2, "knock", 1, (40, 5)))
        obs = game.observe(read, 0)
        view = view_of(obs, game_name)
        assert search.rival_read(obs, view) is None
        if game_name == "knock-rummy":
            assert type(search.SearchBot()._search(game, obs, view)) is KrSimSearch
        # Off, a rival's knock in the last result changes nothing, sample for sample.
        legal = game.legal_actions(state)
        assert _values(game, obs, legal) == _values(game, game.observe(state, 0), legal)


def _sampled_tables(game_name: str) -> list[KrTable]:
    game, state = _position(game_name, HAND, "5h")
    view = view_of(game.observe(state, 0), game_name)
    out = []
    for seed in range(16):
        table = kr_playout.sample_position(view, random.Random(seed))
        assert table is not None
        kr_playout.apply_action(table, 0, DISCARDS[parse_cards("9s")[0]])
        out.append(table)
    return out


def test_a_read_at_the_plain_threshold_with_no_margin_is_the_plain_playout() -> None:
    """``read_move`` with the rival's count at ``knock_at`` and a margin every hand meets
    plays the base policy move for move (both policies, both games)."""
    for game_name, knock_at in (("knock-rummy", 6), ("gin", 10)):
        for table in _sampled_tables(game_name):
            for base in (kr_playout.policy_move, kr_playout.meld_move):
                a, b = table.copy(), table.copy()
                plain = kr_playout.playout(a, knock_at, move=base)
                read = kr_playout.playout(
                    b, knock_at, move=kr_playout.read_move(base, 1, knock_at, -1000)
                )
                assert plain == read and a.pile == b.pile and a.hands == b.hands


def test_a_read_changes_some_playouts() -> None:
    """A rival reading 30 with no margin knocks sooner in some Knock Rummy playouts; a
    margin of 100 keeps it from knocking at all (it goes rummy or plays on)."""
    changed = 0
    for table in _sampled_tables("knock-rummy"):
        a, b = table.copy(), table.copy()
        plain = kr_playout.playout(a, 6)
        read = kr_playout.playout(b, 6, move=kr_playout.read_move(kr_playout.policy_move, 1, 30, 0))
        changed += plain != read
    assert changed > 0


def _rival_at_its_discard(game_name: str, rival: str) -> KrTable:
    """Seat 1 to discard with ``rival`` (11 cards), seat 0 far from a knock."""
    game, state = _position(game_name, FAR, "5h")
    view = view_of(game.observe(state, 0), game_name)
    table = kr_playout.sample_position(view, random.Random(0))
    assert table is not None
    kr_playout.apply_action(table, 0, DISCARDS[parse_cards("Ks")[0]])
    table.hands[1] = hand_mask(list(parse_cards(rival)))
    table.phase, table.to_act, table.taken = "discard", 1, None
    table.stock = [c for c in table.stock if not hand_mask([c]) & table.hands[1]]
    return table


def test_on_the_rival_knocks_by_its_count_and_margin() -> None:
    # Seat 1 holds 7h 8h 9h, 4s 4d 4c and 2c 3d Js Qs Kh: a count of 25 after the Kh.
    rival = "7h 8h 9h 4s 4d 4c 2c 3d Js Qs Kh"
    seat = count_mask(_rival_at_its_discard("knock-rummy", rival).hands[0], False)
    assert seat >= 60
    for k, margin, knocked in (
        (25, 0, True),
        (40, seat - 25, True),
        (40, seat - 24, False),
        (24, 0, False),
    ):
        table = _rival_at_its_discard("knock-rummy", rival)
        move = kr_playout.read_move(kr_playout.policy_move, 1, k, margin)
        kr_playout.playout(table, 6, cap=1, move=move)
        assert (table.hand_scores is not None) == knocked, (k, margin)
    # The plain knock (at 6) is replaced: a rival at 1, short of the margin, plays on.
    low = "7h 8h 9h 4s 4d 4c Jh Qh Kh 2c Ad"  # 1 after the 2c
    table = _rival_at_its_discard("knock-rummy", low)
    kr_playout.playout(
        table, 6, cap=1, move=kr_playout.read_move(kr_playout.policy_move, 1, 30, 99)
    )
    assert table.hand_scores is None
    # The seat's own knock stays: seat 0, at 25, plays on (a read of 99 is seat 1's).
    table = _rival_at_its_discard("knock-rummy", rival)
    table.to_act = 0
    table.hands[0], table.hands[1] = table.hands[1], table.hands[0]
    kr_playout.playout(table, 6, cap=1, move=kr_playout.read_move(kr_playout.policy_move, 1, 99, 0))
    assert table.hand_scores is None
    # Gin: the rival goes gin at 0 whatever the margin.
    gin = "7h 8h 9h 4s 4d 4c 4h Jh Qh Kh 2c"  # gin after the 2c
    table = _rival_at_its_discard("gin", gin)
    kr_playout.playout(table, 10, cap=1, move=kr_playout.read_move(kr_playout.meld_move, 1, 5, 99))
    assert table.hand_scores is not None


def test_on_the_read(monkeypatch: Any) -> None:
    monkeypatch.setattr(search, "RIVAL_READ", 1)
    game, state = _position("knock-rummy", HAND, "5h", 6)

    def read(result: HandResult | None, as_json: bool = False) -> Any:
        obs = game.observe(dataclasses.replace(state, last_result=result), 0)
        view = view_of(obs, game.name)
        return search.rival_read(obs.to_json() if as_json else obs, view)

    assert read(_result(5, "knock", 1, (50, 31))) == (1, 31, 19)
    assert read(_result(5, "knock", 1, (50, 31)), as_json=True) == (1, 31, 19)
    assert read(_result(5, "knock", 1, (20, 31))) == (1, 31, 0)  # behind: margin 0
    assert read(_result(5, "knock", 0, (5, 50))) is None  # the seat's own knock
    assert read(_result(5, "rummy", 1, (30, 0))) is None
    assert read(_result(5, "void", None, (0, 0))) is None
    assert read(None) is None
    assert read(_result(6, "knock", 1, (50, 31))) is None  # not an earlier hand
    gin, gstate = _position("gin", HAND, "5h", 4)
    gobs = gin.observe(
        dataclasses.replace(gstate, last_result=_result(3, "undercut", 1, (4, 8))), 0
    )
    assert search.rival_read(gobs, view_of(gobs, "gin")) == (1, 8, 0)
    gobs = gin.observe(dataclasses.replace(gstate, last_result=_result(3, "gin", 1, (20, 0))), 0)
    assert search.rival_read(gobs, view_of(gobs, "gin")) is None
    # Three players: no read.
    three = get_game("knock-rummy")
    tstate = three.new_game(three.options_from_json({"players": 3}), 1)
    tstate = dataclasses.replace(
        tstate, hand_number=2, last_result=_result(1, "knock", 1, (40, 20, 30))
    )
    tobs = three.observe(tstate, 0)
    assert search.rival_read(tobs, view_of(tobs, "knock-rummy")) is None
    # The searches built with it.
    obs = game.observe(dataclasses.replace(state, last_result=_result(5, "knock", 1, (50, 31))), 0)
    found = search.SearchBot()._search(game, obs, view_of(obs, game.name))
    assert isinstance(found, search.ReadKrSearch)
    found_gin = search.SearchBot()._search(gin, gobs, view_of(gobs, "gin"))
    assert isinstance(found_gin, search.InferredKrSearch)
    assert found_gin.move is kr_playout.meld_move  # a gin is no read
    gobs = gin.observe(dataclasses.replace(gstate, last_result=_result(3, "knock", 1, (20, 6))), 0)
    found_gin = search.SearchBot()._search(gin, gobs, view_of(gobs, "gin"))
    assert isinstance(found_gin, search.InferredKrSearch)
    assert found_gin.move not in (None, kr_playout.meld_move)


def test_on_with_no_read_is_today_sample_for_sample(monkeypatch: Any) -> None:
    """Switch on, the previous hand not ended by the rival's knock: the same values,
    sample for sample, as with it off."""
    for game_name in ("knock-rummy", "gin"):
        game, state = _position(game_name, HAND, "5h", 3)
        state = dataclasses.replace(state, last_result=_result(2, "knock", 0, (5, 30)))
        obs, legal = game.observe(state, 0), game.legal_actions(state)
        monkeypatch.setattr(search, "RIVAL_READ", 0)
        off = _values(game, obs, legal)
        monkeypatch.setattr(search, "RIVAL_READ", 1)
        assert _values(game, obs, legal) == off


@pytest.mark.parametrize("game_name", ["knock-rummy", "gin"])
def test_on_a_read_changes_the_values(monkeypatch: Any, game_name: str) -> None:
    top = "5h"
    game, state = _position(game_name, FAR if game_name == "knock-rummy" else HAND, top, 3)
    counts = (60, 30) if game_name == "knock-rummy" else (20, 3)
    state = dataclasses.replace(state, last_result=_result(2, "knock", 1, counts))
    obs, legal = game.observe(state, 0), game.legal_actions(state)
    monkeypatch.setattr(search, "RIVAL_READ", 0)
    off = _values(game, obs, legal)
    monkeypatch.setattr(search, "RIVAL_READ", 1)
    assert _values(game, obs, legal) != off


@pytest.mark.parametrize("game_name", ["knock-rummy", "gin"])
def test_on_reads_nothing_hidden(monkeypatch: Any, game_name: str) -> None:
    """Doctored states: other hidden cards (the rival's hand, the stock) behind the same
    observation give the same values, sample for sample, with a read; the observation
    as JSON (the server's and Hand Focus's form) gives them too."""
    monkeypatch.setattr(search, "RIVAL_READ", 1)
    runs, rivals = [], []
    for shift in (0, 7, 19):
        game, state = _position(game_name, HAND, "5h", 3, shift=shift)
        state = dataclasses.replace(state, last_result=_result(2, "knock", 1, (30, 5)))
        obs, legal = game.observe(state, 0), game.legal_actions(state)
        runs.append(_values(game, obs, legal))
        rivals.append(state.hands[1])
    assert len(set(rivals)) == 3
    assert runs[0] == runs[1] == runs[2]
    view = view_of(obs, game_name)
    assert search.rival_read(obs.to_json(), view) == search.rival_read(obs, view) == (1, 5, 25)


@pytest.mark.parametrize("game_name", ["knock-rummy", "gin"])
def test_on_a_seeded_match_repeats(monkeypatch: Any, game_name: str) -> None:
    """A whole seeded match, strong (switch on) against strong-v1, twice: the same moves;
    the read is taken during it."""
    monkeypatch.setattr(search, "RIVAL_READ", 1)

    def play() -> tuple[list[str], list[Any]]:
        game = get_game(game_name)
        state = game.new_game(game.options_from_json({"players": 2}), 4)
        bots = [get_bot("strong"), get_bot("strong-v1")]
        rngs = [random.Random(1), random.Random(2)]
        moves: list[str] = []
        reads: list[Any] = []
        while not game.is_over(state) and len(moves) < 3000:
            seat = game.to_act(state)
            obs, legal = game.observe(state, seat), game.legal_actions(state)
            action = bots[seat].act(game, obs, legal, rngs[seat], Budget(iterations=6))
            if seat == 0:
                reads.append(search.rival_read(obs, view_of(obs, game_name)))
            moves.append(str(action))
            state, _ = game.apply(state, action)
        return moves, reads

    first, again = play(), play()
    assert first == again
    assert any(r is not None for r in first[1])
