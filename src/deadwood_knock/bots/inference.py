"""Reading the opponents' hidden cards from what they did: weighted determinizations.

A player's moves say something about the cards they hold. Someone who throws the 7♥ is
less likely to hold the other sevens or the 6♥ and 8♥ (they would have kept it to make a
set, a pair or a run); someone who drew blind rather than take the 9♣ from the pile
probably has nothing that goes with it; someone who took the J♦ probably holds cards that
go with it. This module turns a seat's public record (the observation's events) into a
weight for every (opponent, unseen card) pair, a log-linear model of the opponents'
policy:

    weight(s, c) = exp(sum_i COEF[game][i] * feature_i(s, c))

with features that count the seat's throws, passes and takes related to ``c`` (same rank,
same suit nearby, same suit). The coefficients are fitted by maximum likelihood on games
between the personalities and greedy (``bench/fit_inference.py``, which prints them), so
the model is "the personalities' policy", read backwards. Hidden hands are then dealt by
weighted sampling without replacement (:func:`deal_hidden`), one opponent at a time.

In Deadwood Knock the pot answers also carry information: a knocker's hand allowed the
knock, and a caller usually holds a pair or better; :func:`deal_hidden` rejects deals that
contradict them (up to a few tries, then keeps the most plausible one).

Everything here reads only the seat's :class:`~deadwood_knock.bots.view.TableView`.
``tests/test_inference.py`` checks that the sampled hands are calibrated.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Final, Protocol

from deadwood_knock.bots import draws
from deadwood_knock.bots.dk import hand_value, knock_allowed
from deadwood_knock.bots.kr import count, options_of
from deadwood_knock.bots.view import TableView, pile_turns
from deadwood_knock.cards import Card
from deadwood_knock.games import facts
from deadwood_knock.games.deadwood_knock.hand import HAND_POINTS, KNOCK_LIMIT, evaluate_batch
from deadwood_knock.games.points import card_value

__all__ = [
    "COEFFICIENTS",
    "FEATURES",
    "Dealer",
    "Evidence",
    "deal_hidden",
    "evidence_of",
    "features",
    "marginals",
]

#: Feature names, in the order of the coefficients.
FEATURES: Final = (
    "threw_rank",  # the seat threw a card of c's rank
    "threw_near",  # ... of c's suit, one or two ranks away
    "threw_suit",  # ... of c's suit, further away
    "passed_rank",  # the seat drew blind past a top card of c's rank
    "passed_near",
    "passed_suit",
    "took_rank",  # the seat took a pile card of c's rank
    "took_near",
    "took_suit",
    "joker_turns",  # c is a joker, times the seat's turns (a joker is never thrown)
    "low_turns",  # c's point value is low (Knock Rummy: deadwood cost), times turns
)

#: Fitted by ``bench/fit_inference.py`` (maximum likelihood on personality games).
COEFFICIENTS: Final[Mapping[str, tuple[float, ...]]] = {
    "deadwood-knock": (-0.81, -0.41, -0.28, -0.35, -0.34, -0.20, 0.81, 0.44, 0.44, -0.08, 0.00),
    "knock-rummy": (-0.36, -0.22, -0.01, -0.34, -0.24, -0.02, 0.34, 0.26, 0.07, 0.00, 0.05),
    "gin": (-0.38, -0.27, 0.02, -0.29, -0.25, -0.00, 0.36, 0.33, 0.06, 0.00, -0.04),
}

#: Deadwood Knock hand points of a pair (``hand.HAND_POINTS``): a caller
#: usually holds at least this much.
CALL_POINTS: Final = HAND_POINTS[1]
REJECT_TRIES: Final = 8
#: A knocker's hand is the best of this many deals (it chose to knock with it). The
#: search's: a pessimistic knocker pays against strong-v1 (docs/bots.md). Dealing it
#: instead above the line its earlier knocks in the match show (closer to strong-v1's
#: real knocks) made strong call less and was no better (docs/bots-experiments.md,
#: Deadwood Knock, fourteenth pass, ``KNOCKER_READ``: commit 14632b4 has it).
KNOCKER_TRIES: Final = 12
#: Hand Focus's call-or-fold chance deals the knocker the best of this many, or of the
#: second figure for a knock made before everyone had moved (the characters knock that
#: early only with a strong hand): the calibrated choice against the trail's characters
#: (docs/bots.md, "Hints": predicted share of the pot 0.445 against 0.432 taken, where
#: the uniform deal said 0.742; bench/pot_calibration.py).
POT_KNOCKER_TRIES: Final = 5
POT_FIRST_LAP_KNOCKER_TRIES: Final = 12
#: A hidden hand is the best (by hand quality) of 1 + min(turns played, KEEP_BEST)
#: weighted deals; with that, the card weights are scaled by SHRINK, so as not to count
#: the same evidence twice (both chosen by the calibration test, tests/test_inference.py).
KEEP_BEST: Final = 3
SHRINK: Final = 0.6


@dataclass(frozen=True, slots=True)
class Evidence:
    """What one opponent did this round, in cards."""

    threw: tuple[Card, ...]
    passed: tuple[Card, ...]
    took: tuple[Card, ...]
    turns: int


#: The turns that let the pile's top go by: a blind draw, a stand.
_PASSES: Final = frozenset({"stock", "stand"})


def evidence_of(view: TableView) -> list[Evidence]:
    """Every seat's throws, passes (blind draws or stands past a known top card) and
    takes this round, read from the one walk of the events (``view.pile_turns``): no
    pass is read where the pile is not followed (after a turnover or a reshuffle)."""
    return [
        Evidence(
            threw=tuple(t.threw for t in turns if t.threw is not None),
            passed=tuple(t.top for t in turns if t.source in _PASSES and t.top is not None),
            took=tuple(t.taken for t in turns if t.taken is not None),
            turns=sum(1 for t in turns if t.source),
        )
        for turns in pile_turns(view)
    ]


def _relations(c: Card, others: Sequence[Card]) -> tuple[int, int, int]:
    """How many of ``others`` share c's rank, sit one or two ranks away in c's suit, or
    share only c's suit."""
    if c >= 52:
        return 0, 0, 0
    rank, suit = c % 13, c // 13
    same = near = suit_only = 0
    for t in others:
        if t >= 52:
            continue
        if t % 13 == rank:
            same += 1
        elif t // 13 == suit:
            gap = abs(t % 13 - rank)
            gap = min(gap, 13 - gap) if gap > 2 else gap  # A-K wraps for runs at high aces
            if gap <= 2:
                near += 1
            else:
                suit_only += 1
    return same, near, suit_only


def features(c: Card, ev: Evidence, game: str) -> tuple[float, ...]:
    """The model's features of card ``c`` for an opponent with evidence ``ev``."""
    t = _relations(c, ev.threw)
    p = _relations(c, ev.passed)
    k = _relations(c, ev.took)
    joker = float(ev.turns) if c >= 52 else 0.0
    value = 0.0 if c >= 52 else float(card_value(c))
    low = 0.0 if facts(game).poker_split else (10.0 - value) * min(ev.turns, 8) / 8.0
    return (*map(float, t), *map(float, p), *map(float, k), joker, low)


def _weight(c: Card, ev: Evidence, game: str, coef: Sequence[float]) -> float:
    z = sum(a * f for a, f in zip(coef, features(c, ev, game), strict=True))
    return math.exp(max(-20.0, min(20.0, z)))


def _weighted_pick(
    pool: Sequence[Card], weights: Sequence[float], k: int, rng: random.Random
) -> list[Card]:
    """``k`` cards without replacement, each draw in proportion to weight
    (Efraimidis-Spirakis keys)."""
    if k <= 0:
        return []
    n = len(pool)
    if k >= n:
        return list(pool)
    # The search's hottest sampling line (issue 17): the keys in one comprehension with
    # the calls bound, then the indices sorted by key, highest first. The indices go in
    # from the last, so that (the sort being stable) equal keys still put the higher
    # index first, as sorting (key, index) pairs did: the same cards, the same stream.
    rand, log = rng.random, math.log
    keys = [log(rand() or 1e-300) / w for w in weights]
    order = sorted(range(n - 1, -1, -1), key=keys.__getitem__, reverse=True)
    return [pool[i] for i in order[:k]]


class HiddenDealer:
    """Deals the unseen cards to the other hands by the model; built once per decision."""

    def __init__(
        self,
        view: TableView,
        uniform: bool = False,
        keep_best: int = KEEP_BEST,
        shrink: float = SHRINK,
        knocker_tries: int = KNOCKER_TRIES,
    ) -> None:
        self.view = view
        self.knocker_tries = knocker_tries
        self.uniform = uniform
        self.keep_best = 0 if uniform else keep_best
        self.dk = facts(view.game).poker_split
        self.high_aces = False if self.dk else options_of(view.raw)[0]
        self.unseen = list(view.unseen())
        coef = [a * shrink for a in COEFFICIENTS.get(view.game, COEFFICIENTS["knock-rummy"])]
        evidence = evidence_of(view)
        self.weights: dict[int, dict[Card, float]] = {}
        for s in range(view.players):
            if s == view.seat:
                continue
            ev = evidence[s]
            self.weights[s] = {
                c: 1.0 if uniform else _weight(c, ev, view.game, coef) for c in self.unseen
            }
        raw = view.raw
        knocker = raw.get("knocker")
        self.knocker = knocker if isinstance(knocker, int) else None
        calls = raw.get("calls")
        self.calls: list[object] = list(calls) if isinstance(calls, list) else []

    def need(self, s: int) -> int:
        v = self.view
        known = v.known_cards[s] if s < len(v.known_cards) else ()
        size = v.hand_sizes[s] if s < len(v.hand_sizes) else (8 if self.dk else 10)
        return max(0, size - len(known))

    def tries(self, s: int) -> int:
        """How many weighted deals a hidden hand is the best of: players keep their better
        cards, so a hand played for a few turns is better than a deal by the card weights
        alone (the weights see single cards, not how the hand fits together)."""
        if not self.keep_best:
            return 1
        if self.dk and s == self.knocker:
            return self.knocker_tries
        t = self.view.turns[s] if s < len(self.view.turns) else 0
        return 1 + min(t, self.keep_best)

    def qualities(self, hands: Sequence[Sequence[Card]], s: int) -> list[float]:
        """How good each of seat s's candidate hands is (higher is better), scored in one
        batch: Deadwood Knock's score, Knock Rummy's and Gin's count (negated)."""
        if not self.dk:
            return [-float(count(hand, self.high_aces)) for hand in hands]
        if any(len(hand) < 5 for hand in hands):
            return [0.0] * len(hands)
        # A knocker's hand allowed the knock.
        knocker = s == self.knocker
        return [
            float(score) - (1000.0 if knocker and knock > KNOCK_LIMIT else 0.0)
            for score, knock, *_ in evaluate_batch(hands)
        ]

    def deal_once(self, rng: random.Random) -> tuple[list[list[Card]], list[Card]]:
        v = self.view
        left = list(self.unseen)
        hands: list[list[Card]] = []
        for s in range(v.players):
            if s == v.seat:
                hands.append(list(v.hand))
                continue
            known = list(v.known_cards[s]) if s < len(v.known_cards) else []
            weights = list(map(self.weights[s].__getitem__, left))  # a loop in C
            need = self.need(s)
            pick = self._pick(s, known, partial(_weighted_pick, left, weights, need, rng))
            taken = set(pick)
            left = [c for c in left if c not in taken]
            hands.append(known + pick)
        draws.shuffle(rng, left)  # rng.shuffle, in fewer calls (the same draws)
        return hands, left

    def _pick(self, s: int, known: list[Card], draw: Callable[[], list[Card]]) -> list[Card]:
        """The best by quality of ``tries(s)`` deals of seat s's hidden cards by ``draw``
        (the first of equals)."""
        picks = [draw() for _ in range(self.tries(s))]
        if len(picks) == 1:
            return picks[0]
        quality = self.qualities([known + p for p in picks], s)
        return picks[max(range(len(picks)), key=quality.__getitem__)]

    def plausible(self, hands: Sequence[Sequence[Card]]) -> int:
        """How many of the Deadwood Knock pot facts this deal contradicts (0: none)."""
        if not self.dk:
            return 0
        bad = 0
        for s, hand in enumerate(hands):
            if s == self.view.seat or len(hand) < 5:
                continue
            if s == self.knocker and not knock_allowed(hand):
                bad += 1
            answer = self.calls[s] if s < len(self.calls) else None
            if answer in (True, "call") and hand_value(hand).hand_points < CALL_POINTS:
                bad += 1
        return bad

    def deal(self, rng: random.Random) -> tuple[list[list[Card]], list[Card]]:
        """One deal of the unseen cards: the hidden hands and the rest (stock order)."""
        best: tuple[list[list[Card]], list[Card]] | None = None
        best_bad = 10**9
        tries = REJECT_TRIES if self.dk and (self.knocker is not None) else 1
        for _ in range(tries):
            hands, rest = self.deal_once(rng)
            bad = self.plausible(hands) if tries > 1 else 0
            if bad < best_bad:
                best, best_bad = (hands, rest), bad
            if bad == 0:
                break
        assert best is not None
        return best


def deal_hidden(
    view: TableView, rng: random.Random, uniform: bool = False
) -> tuple[list[list[Card]], list[Card]]:
    """One weighted deal of the seat's unseen cards (see :class:`HiddenDealer`)."""
    return HiddenDealer(view, uniform).deal(rng)


class Dealer(Protocol):
    """Anything that deals the unseen cards (:class:`HiddenDealer`)."""

    def deal(self, rng: random.Random) -> tuple[list[list[Card]], list[Card]]: ...


def marginals(
    view: TableView, dealer: Dealer, rng: random.Random, samples: int
) -> dict[int, dict[Card, float]]:
    """The sampled probability that each other seat holds each unseen card: the share of
    ``samples`` deals by ``dealer`` in which it holds it."""
    unseen = view.unseen()
    counts: dict[int, dict[Card, float]] = {
        s: dict.fromkeys(unseen, 0.0) for s in range(view.players) if s != view.seat
    }
    for _ in range(samples):
        hands, _rest = dealer.deal(rng)
        for s, table in counts.items():
            for c in hands[s]:
                if c in table:
                    table[c] += 1.0 / samples
    return counts
