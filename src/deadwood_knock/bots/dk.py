"""Deadwood Knock know-how shared by the greedy, personality, search and hint code.

A Deadwood Knock turn is one action ``Draw(select, source)``: the discard is chosen
before the take, so a stock draw is valued as an expectation over the cards this seat
has not seen. Everything here works on plain card tuples; the callers decide where the
cards come from (an observation for real decisions, a sampled state inside a search).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Generic

from deadwood_knock.bots.base import A, Deadline, KnockOutlook
from deadwood_knock.bots.view import TableView, without
from deadwood_knock.cards import CARDS, Card
from deadwood_knock.games.base import Action
from deadwood_knock.games.deadwood_knock.core import Draw
from deadwood_knock.games.deadwood_knock.hand import KNOCK_LIMIT

__all__ = [
    "CATEGORY_STRENGTH",
    "DrawChoice",
    "HandValue",
    "draw_values",
    "hand_value",
    "knock_allowed",
    "knock_outlook",
    "potential",
    "safe_values",
    "source_of",
]

#: How good a poker hand is at a showdown for the pot, as a rough 0..1 call strength.
CATEGORY_STRENGTH: dict[str, float] = {
    "high_card": 0.05,
    "pair": 0.25,
    "two_pair": 0.5,
    "three_of_a_kind": 0.62,
    "straight": 0.74,
    "flush": 0.8,
    "full_house": 0.9,
    "four_of_a_kind": 0.96,
    "straight_flush": 0.99,
    "royal_flush": 1.0,
}


@dataclass(frozen=True, slots=True)
class HandValue:
    """The few evaluator figures the bots use, cached per set of cards."""

    score: int
    knock_count: int
    hand_points: int
    deadwood_points: int
    category: str
    strength: tuple[int, ...]


# The memos below are keyed by the sorted cards' bytes: a tuple of Cards (an int
# subclass) stays tracked by the garbage collector, and a few hundred thousand of them
# made each full collection a pause of about 100 ms in the middle of a decision.
@lru_cache(maxsize=1 << 18)
def _hand_value_sorted(key: bytes) -> HandValue:
    from deadwood_knock.games.deadwood_knock.hand import (
        CATEGORIES,
        evaluate_batch,
        strength_from_code,
    )

    score, knock, hp, dw, code = evaluate_batch([[CARDS[c] for c in key]])[0]
    return HandValue(
        score=score,
        knock_count=knock,
        hand_points=hp,
        deadwood_points=dw,
        category=str(CATEGORIES[code >> 20]),
        strength=tuple(strength_from_code(code)),
    )


def hand_value(cards: Sequence[Card]) -> HandValue:
    """Scoring split figures of a hand (5..9 cards with at least 5 non-jokers)."""
    return _hand_value_sorted(bytes(sorted(cards)))


def deadwood_cards(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The deadwood of the scoring split (the slower full evaluation)."""
    from deadwood_knock.games.deadwood_knock.hand import evaluate

    return tuple(evaluate(cards).deadwood)


def source_of(action: Action) -> str:
    source = getattr(action, "source", "")
    return str(getattr(source, "value", source))


def call_strength(value: HandValue) -> float:
    """0..1: how likely this poker hand is to hold up in a pot; kickers nudge it."""
    base = CATEGORY_STRENGTH.get(value.category, 0.0)
    top = value.strength[1] if len(value.strength) > 1 else 0
    return min(1.0, base + 0.01 * max(0, top - 7))


def potential(cards: Sequence[Card], chase: str) -> float:
    """How close the hand is to what this player chases, in rough points (0..~20).

    Not part of the score: it is what makes a player keep four hearts or a lone pair
    while the evaluator alone would throw them.
    """
    suited = [0, 0, 0, 0]
    ranks = [0] * 14
    for c in cards:
        if c < 52:
            suited[c // 13] += 1
            ranks[c % 13 + 1] += 1
    ranks[0] = 0
    best_suit = max(suited)
    flush = 12.0 if best_suit == 4 else (4.0 if best_suit == 3 else 0.0)
    present = [ranks[r] > 0 for r in range(1, 14)] + [ranks[1] > 0]  # ace high too
    run = best_run = 0
    for p in present:
        run = run + 1 if p else 0
        best_run = max(best_run, run)
    straight = 10.0 if best_run == 4 else (3.0 if best_run == 3 else 0.0)
    pairs = sum(1 for r in ranks if r == 2)
    trips = sum(1 for r in ranks if r >= 3)
    sets = 4.0 * pairs + 8.0 * trips
    deadwood = -hand_value(cards).knock_count * 0.5 if len(cards) >= 5 else 0.0
    if chase == "flush":
        return 1.6 * flush + 0.3 * straight + 0.2 * sets
    if chase == "straight":
        return 1.6 * straight + 0.3 * flush + 0.2 * sets
    if chase in ("pairs", "sets"):
        return (1.6 if chase == "sets" else 1.3) * sets + 0.2 * (flush + straight)
    if chase == "low_deadwood":
        return deadwood * 1.5 + 0.2 * (flush + straight + sets)
    return 0.6 * (flush + straight + sets) + 0.5 * deadwood


@dataclass(frozen=True, slots=True)
class DrawChoice(Generic[A]):
    action: A
    value: float
    select: Card
    source: str
    taken: Card | None


def draw_values(
    hand: Sequence[Card],
    legal: Sequence[A],
    top: Card | None,
    buried: Card | None,
    stock_sample: Sequence[Card],
    value: Callable[[Sequence[Card]], float],
) -> list[DrawChoice[A]]:
    """The value of every legal ``Draw``: known cards exactly, the stock as a mean."""
    hand = tuple(hand)
    stock_cache: dict[Card, float] = {}
    out: list[DrawChoice[A]] = []
    for action in legal:
        if not isinstance(action, Draw):  # Deadwood Knock's draw: a select and a source
            continue
        select = action.select
        src = source_of(action)
        rest = without(hand, select)
        if src == "discard" and top is not None:
            out.append(DrawChoice(action, value([*rest, top]), select, src, top))
        elif src == "palm" and buried is not None:
            out.append(DrawChoice(action, value([*rest, buried]), select, src, buried))
        elif src == "stock":
            if select not in stock_cache:
                sample = [x for x in stock_sample if x != select] or list(stock_sample)
                if value is safe_value:  # the plain score: one batch for the whole sample
                    values = safe_values([[*rest, x] for x in sample])
                else:
                    values = [value([*rest, x]) for x in sample]
                stock_cache[select] = sum(values) / len(sample) if sample else 0.0
            out.append(DrawChoice(action, stock_cache[select], select, src, None))
    out.sort(key=lambda d: -d.value)
    return out


def sample_cards(cards: Sequence[Card], k: int, rng: random.Random) -> list[Card]:
    if len(cards) <= k:
        return list(cards)
    return rng.sample(list(cards), k)


def safe_value(cards: Sequence[Card]) -> float:
    """Plain score, tolerant of hands the evaluator refuses (too few non-jokers)."""
    if sum(1 for c in cards if c < 52) < 5:
        return -20.0
    return float(hand_value(cards).score)


def safe_values(hands: Sequence[Sequence[Card]]) -> list[float]:
    """:func:`safe_value` of each hand, equal to it hand by hand, in one batch
    evaluation: a greedy stock draw weighs every unseen card, a few hundred hands, and
    one memoised evaluation per hand cost ten times as much."""
    from deadwood_knock.games.deadwood_knock.hand import evaluate_batch

    # Non-jokers counted as the hand less its jokers (cards 52 and 53): two C-level scans.
    ok = [len(h) - (52 in h) - (53 in h) >= 5 for h in hands]
    scores = iter(evaluate_batch([h for h, good in zip(hands, ok, strict=True) if good]))
    return [float(next(scores)[0]) if good else -20.0 for good in ok]


# --- knocking: expected value against waiting ------------------------------------------------

#: The outlook's rivals: one knocks at the start of its turn when its hand may knock and
#: scores at least RIVAL_KNOCK_SCORE (a sensible player keeps drawing to a weak hand), and
#: calls a knock with at least RIVAL_CALL_POINTS hand points (two pair).
RIVAL_KNOCK_SCORE = 30
RIVAL_CALL_POINTS = 30


@lru_cache(maxsize=1 << 16)
def _keep_seven_bytes(key: bytes) -> bytes:
    return bytes(_keep_seven(tuple(CARDS[c] for c in key)))


def _keep_seven(key: tuple[Card, ...]) -> tuple[Card, ...]:
    """The 7 cards whose score is best: the discard a player picks before a stock draw.
    (Every 7 of 8 cards holds 5 non-jokers, so the batch evaluator takes them all.)"""
    from deadwood_knock.games.deadwood_knock.hand import evaluate_batch

    subsets = [key[:i] + key[i + 1 :] for i in range(len(key))]
    if sum(1 for c in key if c < 52) < 6:
        return max(subsets, key=safe_value)
    scores = evaluate_batch(subsets)
    return subsets[max(range(len(subsets)), key=lambda i: scores[i][0])]


def _turn(hand: Sequence[Card], card: Card | None) -> tuple[Card, ...]:
    """One draw of ``card`` from the stock by a plain player: keep the best seven, add it.
    ``None``: the stock ran dry in the sample (the round would end), the hand stands."""
    if card is None:
        return tuple(hand)
    kept = _keep_seven_bytes(bytes(sorted(hand)))
    return tuple(sorted((*(CARDS[c] for c in kept), card)))


def knock_outlook(
    view: TableView,
    rng: random.Random,
    samples: int,
    my_draw: tuple[Sequence[Card], Card | None],
    call_points: int = RIVAL_CALL_POINTS,
) -> KnockOutlook:
    """Price knocking now against playing on, over ``samples`` deals of the unseen cards.

    Each sample deals the other hands from what this seat has not seen (cards known to be
    in a hand stay there). Knock now: every rival takes one final turn (keeps its best
    seven, draws one), calls with ``call_points`` or more hand points, and the pot is
    settled by the engine's rule. Play on: this seat takes ``my_draw`` (the cards it keeps
    and the card it takes, ``None`` for a stock card), each rival in turn either knocks
    (``RIVAL_KNOCK_SCORE``) or draws, and the seat knocks at its next
    turn. Both branches share the sample's cards, so their difference is not card luck.
    """
    from deadwood_knock.games.deadwood_knock.rules import pot_result

    n = view.players
    me = view.seat
    order = [(me + k) % n for k in range(1, n)]
    unseen = list(view.unseen())
    known = {s: list(view.known_cards[s]) if s < len(view.known_cards) else [] for s in order}
    mine_now = tuple(view.hand)
    kept, taken = my_draw
    refill = list(view.discard_pile[:-1])
    rng.shuffle(refill)
    knock_sum = wait_sum = 0.0
    for _ in range(samples):
        pool = unseen[:]
        rng.shuffle(pool)
        hands: dict[int, tuple[Card, ...]] = {}
        for s in order:
            need = max(0, (view.hand_sizes[s] if s < len(view.hand_sizes) else 8) - len(known[s]))
            hands[s], pool = tuple(known[s] + pool[:need]), pool[need:]
        # Past the stock comes the reshuffled pile (DK7): the cards under the top discard.
        pool += refill
        deck = iter(pool)
        knock_sum += _settle(
            me,
            me,
            mine_now,
            {s: _turn(h, next(deck, None)) for s, h in hands.items()},
            call_points,
            pot_result,
        )
        deck = iter(pool)
        drawn = taken if taken is not None else next(deck, None)
        mine = mine_now if drawn is None else (*kept, drawn)
        wait_sum += _play_on(me, order, mine, dict(hands), deck, call_points, pot_result)
    k = max(1, samples)
    return KnockOutlook(knock_sum / k, wait_sum / k, samples)


def _play_on(
    me: int,
    order: Sequence[int],
    mine: tuple[Card, ...],
    hands: dict[int, tuple[Card, ...]],
    deck: Iterator[Card],
    call_points: int,
    pot_result: Callable[..., list[int]],
) -> float:
    for s in order:
        v = _value_of(hands[s])
        if v.knock_count <= KNOCK_LIMIT and v.score >= RIVAL_KNOCK_SCORE:
            finals = {t: (_turn(h, next(deck, None)) if t != s else h) for t, h in hands.items()}
            return _settle(
                me, s, _turn(mine, next(deck, None)), finals, RIVAL_CALL_POINTS, pot_result
            )
        hands[s] = _turn(hands[s], next(deck, None))
    finals = {t: _turn(h, next(deck, None)) for t, h in hands.items()}
    return _settle(me, me, mine, finals, call_points, pot_result)


def _settle(
    me: int,
    knocker: int,
    mine: Sequence[Card],
    others: dict[int, tuple[Card, ...]],
    call_points: int,
    pot_result: Callable[..., list[int]],
) -> float:
    """The seat's round result minus the others' mean, after the calls and the pot."""
    seats = [me, *others]
    n = max(seats) + 1
    values = {me: _value_of(mine)}
    values.update({s: _value_of(h) for s, h in others.items()})
    calls: list[str | None] = [None] * n
    for s in seats:
        if s != knocker:
            calls[s] = "call" if values[s].hand_points >= call_points else "fold"
    strengths = [values[s].strength if s in values else () for s in range(n)]
    pot = pot_result(knocker, calls, strengths)
    mine_total = values[me].score + pot[me]
    rest = [values[s].score + pot[s] for s in others]
    return mine_total - sum(rest) / len(rest)


def _value_of(cards: Sequence[Card]) -> HandValue:
    if sum(1 for c in cards if c < 52) < 5:
        return HandValue(-20, 99, 0, 20, "high_card", ())
    return hand_value(cards)


# --- the pot: call or fold -------------------------------------------------------------------

#: With a time limit, ``pot_outlook`` deals at least this many times, and looks at the
#: clock every POT_CHUNK deals.
MIN_POT_DEALS = 100
POT_CHUNK = 25


#: A deal of the hidden hands and the rest of the unseen cards (``HiddenDealer.deal``).
Deal = Callable[[random.Random], tuple[list[list[Card]], list[Card]]]


@dataclass(frozen=True, slots=True)
class PotOutlook:
    """A call-or-fold decision over ``deals`` deals of the unseen cards.

    ``chance``: the share of the pot this hand takes if it calls, averaged (a split pot
    counts as the share it pays); ``call`` / ``fold``: the expected pot result against
    the table's mean (this seat's pot minus the others' mean), assuming the players still
    to answer fold; ``in_pot``: the players in the pot if it calls."""

    chance: float
    call: float
    fold: float
    deals: int
    in_pot: int
    rivals: tuple[int, ...]
    #: Players who have not answered yet (the values assume they fold).
    pending: int = 0


def pot_outlook(
    view: TableView,
    rng: random.Random,
    deals: int,
    deal: Deal | None = None,
    seconds: float | None = None,
    stop: Deadline | None = None,
) -> PotOutlook:
    """Price calling the knocker's pot from what this seat has seen.

    Each deal gives the knocker and the players who already called the cards known to be
    in their hands plus cards dealt from the ones this seat has not seen; the knocker's
    hand must have allowed the knock (knock count 11 or less: the knocker has not drawn
    since). The pot is settled by the engine's rule (``pot_result``). ``deal`` (the
    hidden hands, as ``inference.HiddenDealer.deal`` gives them) replaces the uniform
    deal: the strong bot and Hand Focus price the pot on the hands the players' moves
    point to; the personalities keep the uniform deal.

    With ``seconds`` (or ``stop``, which replaces it: Hand Focus's deadline, which keeps
    time for what follows) the dealing stops early, never before ``MIN_POT_DEALS``: when
    the time is up, or with ``stop`` when the next ``POT_CHUNK`` deals would not fit.
    """
    from deadwood_knock.games.deadwood_knock.rules import POT_ANTE, pot_result

    n, me = view.players, view.seat
    knocker = view.raw.get("knocker")
    said = list(view.raw.get("calls") or [None] * n)
    if not isinstance(knocker, int):
        raise ValueError("no knock to call: the pot needs a knocker")
    rivals = tuple([knocker] + [s for s in range(n) if s != me and said[s] == "call"])
    unseen = list(view.unseen())
    mine = _value_of(view.hand).strength
    if_call = [said[s] if s != me and said[s] is not None else "fold" for s in range(n)]
    if_call[me] = "call"
    if_fold = list(if_call)
    if_fold[me] = "fold"
    share = call_sum = fold_sum = 0.0
    deadline = None if seconds is None or stop is not None else time.perf_counter() + seconds
    if stop is not None:
        stop.start()
    done = 0
    for done in range(1, deals + 1):
        strengths: list[tuple[int, ...]] = [()] * n
        strengths[me] = mine
        # The uniform deal starts from a fresh pool each time.
        hands = _dealt(rng, deal or _uniform_deal(view, unseen, rivals), knocker)
        for s in rivals:
            strengths[s] = _value_of(hands[s]).strength
        called = pot_result(knocker, if_call, strengths)
        folded = pot_result(knocker, if_fold, strengths)
        share += (called[me] + POT_ANTE) / (POT_ANTE * (len(rivals) + 1))
        call_sum += _against_table(called, me)
        fold_sum += _against_table(folded, me)
        if done < MIN_POT_DEALS or done % POT_CHUNK or done == deals:
            continue
        if stop is not None:
            if not stop.fits(done, POT_CHUNK):
                break
        elif deadline is not None and time.perf_counter() >= deadline:
            break
    k = max(1, done)
    pending = sum(1 for s in range(n) if s not in (me, knocker) and said[s] is None)
    return PotOutlook(share / k, call_sum / k, fold_sum / k, done, len(rivals) + 1, rivals, pending)


def knock_allowed(cards: Sequence[Card]) -> bool:
    """Whether a hand allows a knock: its knock count is within the engine's limit
    (``hand.KNOCK_LIMIT``); fewer than five cards never do."""
    return _value_of(cards).knock_count <= KNOCK_LIMIT


def _uniform_deal(view: TableView, unseen: Sequence[Card], rivals: Sequence[int]) -> Deal:
    """The rivals' hands dealt uniformly from the unseen cards (the other seats' empty):
    known cards plus a draw, the knocker's first. Each call shuffles the pool again."""
    pool = list(unseen)

    def deal(rng: random.Random) -> tuple[list[list[Card]], list[Card]]:
        rng.shuffle(pool)
        hands: list[list[Card]] = [[] for _ in range(view.players)]
        rest = pool
        for s in rivals:
            known = list(view.known_cards[s]) if s < len(view.known_cards) else []
            need = max(0, (view.hand_sizes[s] if s < len(view.hand_sizes) else 8) - len(known))
            hand = known + rest[:need]
            rest = [c for c in rest if c not in hand]
            hands[s] = hand
        return hands, rest

    return deal


def _dealt(rng: random.Random, deal: Deal, knocker: int) -> list[list[Card]]:
    """One deal of the hidden hands whose knocker could have knocked: dealt again (up to
    30 times) while it could not. The one place ``pot_outlook`` applies the knock rule,
    to the uniform deal and to the model's (which favours such hands already)."""
    hands, _rest = deal(rng)
    for _try in range(30):
        if knock_allowed(hands[knocker]):
            break
        hands, _rest = deal(rng)
    return hands


def _against_table(pot: Sequence[int], me: int) -> float:
    others = [p for s, p in enumerate(pot) if s != me]
    return pot[me] - (sum(others) / len(others) if others else 0.0)
