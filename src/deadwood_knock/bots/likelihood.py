"""The opponents' policy as a likelihood: sampling-importance-resampling of hidden hands.

:class:`~deadwood_knock.bots.inference.HiddenDealer` weighs single cards by what an
opponent threw, took and let go past, and keeps the best of a few deals by count. It never
asks whether an opponent holding a dealt hand would have made the moves it made. This
module does (Knock Rummy and Gin): for a candidate hand ``H`` of an opponent it rebuilds
the opponent's hand at its latest decisions and scores them under a soft version of a
heuristic policy,

- its last discard ``d``: it held ``H + d`` (11 cards in Gin) and threw ``d``; the
  probability is a softmax over every card it could have thrown (not one just taken from
  the pile) of ``-(count left + link_w * links) / discard_t``, links being the kept cards
  one card from a meld with it (pairs and suited neighbours 2, suited one rank between 1);
- its last draw: it took the pile top ``c`` (its hand before was ``H + d - c``) or let it
  go by (its hand before held an unknown stock card; ``H`` stands in for it); the
  probability of taking is a logistic in how much ``c`` lowers that hand's count,
  ``sigmoid(take_a * gain + take_b)``;
- its ``old_turns`` turns before that, with ``H`` standing in for the hand then: each
  discard by the softmax at ``old_t``, each pass (or take of a card still held) by the
  logistic ``sigmoid(old_a * gain + old_b)``.

The parameters (:data:`POLICY`) are maximum-likelihood fits of those choices on logged
Gin games (the real hands of ``strong-v1`` against itself and of the personalities and
greedy: ``bench/fit_likelihood.py``, which prints them); Knock Rummy has no fit of its
own yet. :class:`LikelihoodDealer` deals a bank
of ``BANK`` candidate positions by the card model once per decision, weighs each by its
likelihood (to the power ``POWER``) and then deals every sample by drawing one from the
bank in proportion to weight, its stock shuffled again: the card model is the proposal,
the policy the importance weight. ``strong`` uses it where ``search.LIKELIHOOD_RUMMY``
says: nowhere in play today (docs/bots.md, Gin, tenth and eleventh passes: ahead at a
power that fails the calibration test, level with the card model alone at one that
passes).

Everything here reads only the seat's :class:`~deadwood_knock.bots.view.TableView`.
"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from deadwood_knock.bots.inference import HiddenDealer
from deadwood_knock.bots.kr import options_of
from deadwood_knock.bots.kr_playout import LINKS
from deadwood_knock.bots.view import TableView, pile_turns
from deadwood_knock.cards import Card
from deadwood_knock.games.knock_rummy.melds import count_mask

__all__ = [
    "BANK",
    "LikelihoodDealer",
    "Policy",
    "Turn",
    "discard_log_probs",
    "log_likelihood",
    "turns_of",
]

#: Candidate positions dealt by the card model per decision (the importance sample).
BANK: int = 200
#: The likelihood's exponent (1: the fitted policy as it is). The proposal (the card
#: model, best of a few deals) already leans on the same moves, so the full likelihood
#: counts them twice: on held-out Gin positions it dealt the rival too strong a hand
#: (PIT 0.68) and scored worse than the model alone; 0.35 was calibrated on the rival's
#: count (PIT 0.51), scored best card by card there and measured best against
#: strong-v1, but its 0.5-0.6 bin is overconfident against the personalities, where 0.2
#: passes tests/test_inference.py (``bench/fit_likelihood.py --evaluate``; docs/bots.md,
#: Gin, tenth pass); at 0.2 the arena measured it level with the card model alone
#: (eleventh pass).
POWER: float = 0.35


@dataclass(frozen=True, slots=True)
class Policy:
    """The soft policy's parameters (``bench/fit_likelihood.py`` fits them)."""

    discard_t: float = 2.0  # temperature of the last discard's softmax, in points of count
    link_w: float = 0.5  # points of count per link (pair, suited neighbour: 2; gap: 1)
    take_a: float = 0.4  # logistic slope of a take in the count it saves
    take_b: float = -2.0  # logistic intercept
    old_t: float = 4.0  # temperature of earlier discards (H standing in for the hand)
    old_a: float = 0.2
    old_b: float = -2.0
    old_turns: int = 2  # how many turns before the last one are read


#: The fitted policy (``bench/fit_likelihood.py --seed 1 --games 12``: 975 last turns,
#: strong-v1 against itself and personality games, Gin).
POLICY: Policy = Policy(
    discard_t=2.4, link_w=1.0, take_a=0.2, take_b=-2.15, old_t=2.4, old_a=0.2, old_b=-2.35
)

_BIT: Final = tuple(1 << i for i in range(52))


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn of a seat: the pile top it faced as it drew (None if not known), whether
    it took it, and what it threw (None: the turn is not over, or it ended the hand)."""

    top: Card | None
    took: bool
    threw: Card | None


def turns_of(view: TableView) -> list[list[Turn]]:
    """Every seat's draws of this hand, from the one walk of the events
    (``view.pile_turns``: the pile followed from the deal; after a turnover the next top
    is known again from the next throw). A take's top is the card taken."""
    return [
        [
            Turn(t.top if t.taken is None else t.taken, t.source == "discard", t.threw)
            for t in turns
            if t.source not in ("", "stand")
        ]
        for turns in pile_turns(view)
    ]


def _sigmoid_log(z: float, yes: bool) -> float:
    """log sigmoid(z) if ``yes`` else log(1 - sigmoid(z)), stably."""
    z = z if yes else -z
    return -math.log1p(math.exp(-z)) if z > -30 else z


def discard_scores(
    mask: int, banned: Card | None, high_aces: bool, link_w: float
) -> dict[int, float]:
    """For a hand (mask) one card too many: each card it may throw and minus (the count
    left plus ``link_w`` times the links the card has with the rest)."""
    near, far = LINKS[high_aces]
    out: dict[int, float] = {}
    m = mask
    while m:
        low = m & -m
        x = low.bit_length() - 1
        m ^= low
        if x == banned:
            continue
        rest = mask ^ low
        key = float(count_mask(rest, high_aces))
        if link_w:
            key += link_w * (2 * (rest & near[x]).bit_count() + (rest & far[x]).bit_count())
        out[x] = -key
    return out


def discard_log_probs(
    mask: int, banned: Card | None, high_aces: bool, link_w: float, temperature: float
) -> dict[int, float]:
    """The soft policy's log-probability of throwing each card of the hand (``mask``)."""
    scores = discard_scores(mask, banned, high_aces, link_w)
    top = max(scores.values())
    z = sum(math.exp((s - top) / temperature) for s in scores.values())
    log_z = top / temperature + math.log(z)
    return {x: s / temperature - log_z for x, s in scores.items()}


def _discard_lp(
    mask: int, thrown: Card, banned: Card | None, ha: bool, link_w: float, t: float
) -> float:
    lp = discard_log_probs(mask, banned, ha, link_w, t)
    return lp.get(thrown, -30.0)


def take_gain(mask: int, top: Card, high_aces: bool) -> int:
    """How much taking ``top`` lowers the count of the hand ``mask`` (one card short),
    keeping it: the count now less the best count after taking it and throwing another
    card (0 if none is lower)."""
    now = count_mask(mask, high_aces)
    with_top = mask | _BIT[top]
    best = now
    m = mask
    while m:
        low = m & -m
        m ^= low
        n = count_mask(with_top ^ low, high_aces)
        if n < best:
            best = n
    return now - best


def log_likelihood(
    hand: Sequence[Card],
    turns: Sequence[Turn],
    high_aces: bool,
    policy: Policy | None = None,
) -> float:
    """log P(the seat's recent moves | it now holds ``hand``) under the soft policy."""
    p = POLICY if policy is None else policy
    h = 0
    for c in hand:
        h |= _BIT[c]
    done = [t for t in turns if t.threw is not None]
    if not done:
        return 0.0
    last = done[-1]
    d = last.threw
    assert d is not None
    ll = 0.0
    if not h & _BIT[d]:
        hand11 = h | _BIT[d]
        banned = last.top if last.took else None
        ll += _discard_lp(hand11, d, banned, high_aces, p.link_w, p.discard_t)
        if last.top is not None and last.top != d:
            if last.took:
                if hand11 & _BIT[last.top]:
                    gain = take_gain(hand11 ^ _BIT[last.top], last.top, high_aces)
                    ll += _sigmoid_log(p.take_a * gain + p.take_b, True)
            elif not h & _BIT[last.top]:
                gain = take_gain(h, last.top, high_aces)
                ll += _sigmoid_log(p.take_a * gain + p.take_b, False)
    for t in done[-1 - p.old_turns : -1]:
        d = t.threw
        assert d is not None
        if not h & _BIT[d]:
            ll += _discard_lp(h | _BIT[d], d, None, high_aces, p.link_w, p.old_t)
        top = t.top
        if top is None:
            continue
        if t.took and h & _BIT[top]:
            gain = take_gain(h ^ _BIT[top], top, high_aces)
            ll += _sigmoid_log(p.old_a * gain + p.old_b, True)
        elif not t.took and not h & _BIT[top]:
            gain = take_gain(h, top, high_aces)
            ll += _sigmoid_log(p.old_a * gain + p.old_b, False)
    return ll


class LikelihoodDealer:
    """Deals the unseen cards by the card model, reweighted by the opponents' policy.

    A bank of ``bank`` model deals is drawn at the first call (with that call's
    generator); each is weighted by ``exp(power * sum of the other seats' log
    likelihoods)``; every call then draws one from the bank in proportion to weight and
    deals it with the rest of the unseen cards shuffled again (the stock order).
    """

    def __init__(
        self,
        view: TableView,
        bank: int | None = None,
        power: float | None = None,
        policy: Policy | None = None,
        dealer: HiddenDealer | None = None,
    ) -> None:
        self.view = view
        self.size = BANK if bank is None else bank
        self.power = POWER if power is None else power
        self.policy = POLICY if policy is None else policy
        self.dealer = HiddenDealer(view) if dealer is None else dealer
        self.high_aces = options_of(view.raw)[0]
        self.turns = turns_of(view)
        self.bank: list[tuple[list[list[Card]], list[Card]]] = []
        self.cumulative: list[float] = []

    def log_weight(self, hands: Sequence[Sequence[Card]]) -> float:
        v = self.view
        return sum(
            log_likelihood(hands[s], self.turns[s], self.high_aces, self.policy)
            for s in range(v.players)
            if s != v.seat and s < len(self.turns)
        )

    def _fill(self, rng: random.Random) -> None:
        logs: list[float] = []
        for _ in range(self.size):
            hands, rest = self.dealer.deal(rng)
            self.bank.append((hands, rest))
            logs.append(self.power * self.log_weight(hands))
        top = max(logs)
        total = 0.0
        for lw in logs:
            total += math.exp(lw - top)
            self.cumulative.append(total)

    def weights(self) -> list[float]:
        """The bank's normalized weights (after the first deal)."""
        prev = 0.0
        out: list[float] = []
        for c in self.cumulative:
            out.append(c - prev)
            prev = c
        total = self.cumulative[-1]
        return [w / total for w in out]

    def deal(self, rng: random.Random) -> tuple[list[list[Card]], list[Card]]:
        """One deal: the hidden hands and the rest of the unseen cards (stock order)."""
        if not self.bank:
            self._fill(rng)
        i = bisect.bisect_right(self.cumulative, rng.random() * self.cumulative[-1])
        hands, rest = self.bank[min(i, len(self.bank) - 1)]
        rest = list(rest)
        rng.shuffle(rest)
        return [list(h) for h in hands], rest
