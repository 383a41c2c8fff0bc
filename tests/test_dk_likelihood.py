"""The rivals' policy as a likelihood (bots/dk_likelihood.py) and the dealer that uses it
(``HiddenDealer(view, policy=M)``): hands that fit the observed throws and takes are
more likely, the same seed deals the same hands, and only the observation is read."""

from __future__ import annotations

import math
import random
from typing import Any

from bot_positions import played, swapped
from deadwood_knock.bots.dk_likelihood import Turn, log_likelihood, turns_of
from deadwood_knock.bots.inference import HiddenDealer
from deadwood_knock.bots.view import view_of
from deadwood_knock.cards import parse_card, parse_cards


def _ll(hand: str, turn: Turn) -> float:
    return log_likelihood(list(parse_cards(hand)), [turn], random.Random(1), depth=1)


def test_a_throw_that_would_have_fit_the_hand_is_unlikely() -> None:
    """Throwing the 7c is likely from a hand it does not fit, unlikely from one where it
    made three sevens."""
    turn = Turn(top=None, source="stock", taken=None, threw=parse_card("7c"))
    fits = _ll("7h 7d Kh Qh Jh 9s 2s 4c", turn)
    lone = _ll("5h 5d Kh Qh Jh 9s 2s 4c", turn)
    assert lone > fits + 1.0


def test_a_take_is_likely_when_the_card_fits_and_a_pass_when_it_does_not() -> None:
    """Taking the Ks (and throwing the 3d) fits a hand holding two kings; letting the Ks go
    fits a hand with no king far better than one holding two."""
    take = Turn(
        top=parse_card("Ks"), source="discard", taken=parse_card("Ks"), threw=parse_card("3d")
    )
    kings = _ll("Ks Kc Kd 9h 8h 2s 4c 6d", take)
    no_kings = _ll("Ks 5c Qd 9h 8h 2s 4c 6d", take)
    assert kings > no_kings
    passed = Turn(top=parse_card("Ks"), source="stock", taken=None, threw=parse_card("3d"))
    # Two hands alike but for a pair of kings (which the Ks would make three of) or aces.
    assert _ll("Ac Ad 9h 8h Js Tc 7c Qh", passed) > _ll("Kc Kd 9h 8h Js Tc 7c Qh", passed)


def test_a_hand_without_the_card_taken_cannot_be_held() -> None:
    take = Turn(
        top=parse_card("Ks"), source="discard", taken=parse_card("Ks"), threw=parse_card("3d")
    )
    assert _ll("Kc Kd 9h 8h 2s 4c 6d 7d", take) == -math.inf


def _mid_round(seed: int, steps: int) -> tuple[Any, Any]:
    return played(
        "deadwood-knock",
        {"players": 4, "rounds": 1},
        seed,
        steps,
        bots=("legend", "sharp", "regular", "greedy"),
        until=lambda game, state: (
            game.to_act(state) is None or game.is_over(state) or state.phase != "play"
        ),
    )


def test_turns_are_read_from_the_events() -> None:
    """Every draw-and-discard turn a seat played this round is read, in order, with the
    card it threw and the card it took from the pile."""
    game, state = _mid_round(3, 12)
    seat = game.to_act(state)
    view = view_of(game.observe(state, seat), "deadwood-knock")
    turns = turns_of(view)
    for s in range(4):
        assert len(turns[s]) == view.turns[s]
        assert [t.threw for t in turns[s]] == list(view.thrown[s])
        assert [t.taken for t in turns[s] if t.taken is not None] == list(view.picked[s])


def test_the_real_hands_are_more_likely_than_the_models_deals() -> None:
    """Over seeded personality rounds, a rival's real hand has a higher likelihood than
    the card model's deals on average (the likelihood says something)."""
    gaps: list[float] = []
    for seed in range(6):
        game, state = _mid_round(100 + seed, 13)
        seat = game.to_act(state)
        if seat is None:
            continue
        view = view_of(game.observe(state, seat), "deadwood-knock")
        turns = turns_of(view)
        dealer = HiddenDealer(view)
        rng = random.Random(seed)
        for s in range(4):
            if s == seat or not turns[s]:
                continue
            fixed = list(view.known_cards[s])
            real = log_likelihood(list(state.hands[s]), turns[s], random.Random(0), fixed=fixed)
            dealt = [
                log_likelihood(dealer.deal(rng)[0][s], turns[s], random.Random(0), fixed=fixed)
                for _ in range(30)
            ]
            gaps.append(real - sum(dealt) / len(dealt))
    assert len(gaps) >= 10
    assert sum(gaps) / len(gaps) > 0.2


def test_the_policy_dealer_repeats_for_a_seed_and_reads_only_the_observation() -> None:
    """Two dealers on one observation with one seed deal the same hands; swapping a
    rival's hidden card with the stock's top (the observation unchanged) changes no deal."""
    game, state = _mid_round(7, 12)
    seat = game.to_act(state)
    assert seat is not None
    doctored = swapped(state, (seat + 1) % 4)
    real, fake = game.observe(state, seat), game.observe(doctored, seat)
    assert real.to_json() == fake.to_json()
    deals = []
    for obs in (real, real, fake):
        dealer = HiddenDealer(view_of(obs, "deadwood-knock"), policy=4)
        rng = random.Random(11)
        deals.append([dealer.deal(rng) for _ in range(20)])
    assert deals[0] == deals[1] == deals[2]
    # And the policy changes the deals (it is not a no-op).
    plain = HiddenDealer(view_of(real, "deadwood-knock"))
    rng = random.Random(11)
    assert [plain.deal(rng) for _ in range(20)] != deals[0]
