"""The opponents' policy as a likelihood (bots/likelihood.py): it reads the turns the seat
saw, scores a hand by how likely its moves were, deals repeatably and never reads hidden
cards."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot_positions import played, swapped
from deadwood_knock.bots import Budget, get_bot, search
from deadwood_knock.bots.likelihood import (
    LikelihoodDealer,
    Turn,
    discard_log_probs,
    log_likelihood,
    take_gain,
    turns_of,
)
from deadwood_knock.bots.view import cards_of, view_of


def _hand(*names: str) -> list[int]:
    return list(cards_of(names))


def _mask(cards: list[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _position(seed: int, steps: int) -> tuple[Any, Any]:
    return played("gin", {"players": 2}, seed, steps, bots=("legend",))


def test_turns_match_what_the_seat_saw() -> None:
    game, state = _position(3, 22)
    seat = game.to_act(state)
    assert seat is not None
    view = view_of(game.observe(state, seat), "gin")
    other = 1 - seat
    turns = turns_of(view)[other]
    assert [t.threw for t in turns if t.threw is not None] == list(view.thrown[other])
    assert [t.top for t in turns if t.took] == list(view.picked[other])
    assert len(turns) == view.turns[other]


def test_a_discard_that_breaks_a_set_is_unlikely() -> None:
    """Throwing K♠ from a hand that also holds K♥ K♦ (a set) is far less likely than
    throwing it as the lone high card, and the likelihood of the seat's last turn says so."""
    melded = _hand("Ah", "2h", "3h", "4d", "5d", "6d", "7c", "8c", "9c")
    lone = [*melded, *_hand("2s")]  # the rest melds; K♠ was the one high card
    kings = [*_hand("Ah", "2h", "3h", "4d", "5d", "6d", "Kh", "Kd"), *_hand("9c", "2s")]
    d = _hand("Ks")[0]
    lp_lone = discard_log_probs(_mask([*lone, d]), None, False, 1.0, 2.4)[d]
    lp_kings = discard_log_probs(_mask([*kings, d]), None, False, 1.0, 2.4)[d]
    assert lp_lone > -0.5 > -3.0 > lp_kings
    turns = [Turn(top=_hand("Qc")[0], took=False, threw=d)]
    assert log_likelihood(lone, turns, False) > log_likelihood(kings, turns, False) + 2.0


def test_passing_a_card_that_melds_is_unlikely() -> None:
    """Letting the 8♣ go by is less likely with 7♣ 9♣ in hand than without."""
    fits = _hand("7c", "9c", "Ah", "2h", "3h", "4d", "5d", "6d", "Js", "Qd")
    apart = _hand("7s", "9d", "Ah", "2h", "3h", "4d", "5d", "6d", "Js", "Qd")
    top = _hand("8c")[0]
    assert take_gain(_mask(fits), top, False) > take_gain(_mask(apart), top, False) + 10
    d = _hand("Kh")[0]
    turns = [Turn(top=top, took=False, threw=d)]
    assert log_likelihood(fits, turns, False) < log_likelihood(apart, turns, False)


def test_dealer_repeats_for_a_seed_and_deals_each_card_once() -> None:
    game, state = _position(5, 16)
    seat = game.to_act(state)
    assert seat is not None
    view = view_of(game.observe(state, seat), "gin")
    runs = []
    for _ in range(2):
        dealer = LikelihoodDealer(view, bank=24)
        rng = random.Random(11)
        runs.append([dealer.deal(rng) for _ in range(10)])
    assert runs[0] == runs[1]
    for hands, rest in runs[0]:
        dealt = [*hands[1 - seat], *rest]
        assert len(dealt) == len(set(dealt))
        assert set(dealt) | set(view.known_cards[1 - seat]) >= set(view.unseen())
        assert len(hands[1 - seat]) == view.hand_sizes[1 - seat]
    weights = LikelihoodDealer(view, bank=24)
    weights.deal(random.Random(1))
    assert abs(sum(weights.weights()) - 1.0) < 1e-9


def test_dealer_never_reads_the_hidden_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    """A doctored position (an unseen card of the opponent swapped with the stock's top)
    gives the seat the same observation, the dealer the same deals and ``strong`` with
    the dealer switched on the same decision."""
    monkeypatch.setattr(search, "LIKELIHOOD_RUMMY", frozenset({"gin"}))
    checked = 0
    for seed in range(4):
        game, state = _position(seed, 10 + seed)
        seat = game.to_act(state)
        if seat is None or game.is_over(state) or not state.stock:
            continue
        doctored = swapped(state, 1 - seat)
        real, fake = game.observe(state, seat), game.observe(doctored, seat)
        assert real.to_json() == fake.to_json()
        deals = []
        for obs in (real, fake):
            dealer = LikelihoodDealer(view_of(obs, "gin"), bank=16)
            rng = random.Random(seed)
            deals.append([dealer.deal(rng) for _ in range(5)])
        assert deals[0] == deals[1]
        legal = game.legal_actions(state)
        bot = get_bot("strong")
        a = bot.act(game, real, legal, random.Random(seed), Budget(iterations=6))
        b = bot.act(game, fake, legal, random.Random(seed), Budget(iterations=6))
        assert a == b
        checked += 1
    assert checked >= 3
