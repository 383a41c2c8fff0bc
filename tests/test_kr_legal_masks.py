"""``core.legal_masks`` (the one enumeration of the legal actions, with its shortcuts)
allows exactly the actions ``core.reason`` (the per-action rule, whose text the player
is shown) allows, on random positions of every variant, low-count hands included so that
knocks and rummies are legal often; ``core.legal_list`` (the public API's
``legal_actions``) lists the same actions in its stable order; and along random games
played through the public API the masks match ``legal_actions``."""

from __future__ import annotations

import random

import pytest

from deadwood_knock.cards import Card
from deadwood_knock.games.knock_rummy import rules
from deadwood_knock.games.knock_rummy.core import (
    DISCARD,
    DRAW,
    OVER,
    Discard,
    Draw,
    Knock,
    KnockRummyOptions,
    Rummy,
    legal_list,
    legal_masks,
    reason,
)
from deadwood_knock.games.knock_rummy.melds import count_mask

# Every action a seat might try: both draws, and each card's discard, knock and rummy.
_CANDIDATES = (
    Draw("stock"),
    Draw("discard"),
    *(Discard(Card(c)) for c in range(52)),
    *(Knock(Card(c)) for c in range(52)),
    *(Rummy(Card(c)) for c in range(52)),
    Rummy(None),
)


def _as_masks(actions: tuple[object, ...]) -> tuple[int, int, int, int]:
    draws = discards = knocks = rummies = 0
    for action in actions:
        if isinstance(action, Draw):
            draws |= 1 if action.source == "stock" else 2
        elif isinstance(action, Discard):
            discards |= 1 << action.card
        elif isinstance(action, Knock):
            knocks |= 1 << action.discard
        else:
            assert isinstance(action, Rummy)
            rummies |= 1 if action.discard is None else 1 << (action.discard + 1)
    return draws, discards, knocks, rummies


def _options(rng: random.Random) -> KnockRummyOptions:
    high = rng.random() < 0.3
    if rng.random() < 0.3:
        return KnockRummyOptions(players=2, gin=True, high_aces=high)
    return KnockRummyOptions(
        players=rng.randint(2, 5),
        knock_limit=rng.choice((None, None, 0, 5, 10, 25)),
        high_aces=high,
    )


def test_legal_masks_allow_what_reason_allows_on_random_positions() -> None:
    rng = random.Random(19)
    knocks = rummies = 0
    for _ in range(30_000):
        opts = _options(rng)
        # Cards from a few ranks make melds, so low counts (knocks, rummies) are common.
        ranks = rng.sample(range(13), rng.randint(3, 13))
        deck = [r + 13 * s for r in ranks for s in range(4)]
        size = rng.randint(1, min(11, len(deck)))
        hand = rng.sample(deck, size)
        mask = sum(1 << c for c in hand)
        phase = rng.choice((DRAW, DISCARD, DISCARD, OVER))
        taken = rng.choice(hand) if rng.random() < 0.4 else None
        stock, pile, turnovers = rng.randint(0, 3), rng.randint(0, 2), rng.randint(0, 2)
        args = (opts, phase, mask, taken, stock, pile, turnovers)
        got = legal_masks(*args)
        rest = (taken, stock, pile, turnovers)
        allowed = tuple(a for a in _CANDIDATES if reason(opts, phase, 0, mask, *rest, a) is None)
        assert got == _as_masks(allowed), args
        # legal_list: the same actions, draws; or discards, knocks, rummies (no discard last).
        assert legal_list(*args) == allowed, args
        knocks += got[2] != 0
        rummies += got[3] != 0
    assert knocks > 1_000 and rummies > 300  # the interesting cases were reached


@pytest.mark.parametrize("gin", [False, True], ids=["knock-rummy", "gin"])
def test_legal_masks_equal_legal_actions_along_random_games(gin: bool) -> None:
    rng = random.Random(7)
    for seed in range(300):
        opts = _options(rng) if not gin else KnockRummyOptions(players=2, gin=True)
        state = rules.new_game(opts, seed)
        for _ in range(150):
            if state.phase == OVER:
                break
            legal = rules.legal_actions(state)
            seat = state.to_act
            assert seat is not None
            got = legal_masks(
                opts,
                state.phase,
                sum(1 << c for c in state.hands[seat]),
                state.taken_discard,
                len(state.stock),
                len(state.discard_pile),
                state.turnovers,
            )
            assert got == _as_masks(legal)
            state, _ = rules.apply(state, rng.choice(legal))


def test_legal_masks_given_the_count_equal_legal_masks_counting() -> None:
    """``whole`` (the hand's count, handed in by a caller that has it) changes nothing."""
    rng = random.Random(23)
    for _ in range(20_000):
        opts = _options(rng)
        ranks = rng.sample(range(13), rng.randint(3, 13))
        deck = [r + 13 * s for r in ranks for s in range(4)]
        hand = rng.sample(deck, rng.randint(1, min(11, len(deck))))
        mask = sum(1 << c for c in hand)
        phase = rng.choice((DRAW, DISCARD, DISCARD, OVER))
        taken = rng.choice(hand) if rng.random() < 0.4 else None
        args = (opts, phase, mask, taken, rng.randint(0, 3), rng.randint(0, 2), rng.randint(0, 2))
        whole = count_mask(mask, opts.high_aces)
        assert legal_masks(*args, whole) == legal_masks(*args), args
