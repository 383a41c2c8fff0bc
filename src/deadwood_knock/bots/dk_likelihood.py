"""Deadwood Knock: how likely a rival's recent draws and discards are, given a hand.

The inference model (``bots/inference.py``) weighs single cards by what a rival threw,
took and let go. This module asks the question the other way round, for a whole
candidate hand: *would this rival, holding this hand, have played as it did?* It walks
back from the candidate hand through the rival's most recent turns this round (its last
``TURNS`` draws and discards), rebuilding the hand it held at each (a card taken from the
pile is known; a blind draw is one of the hand's cards, chosen at random), and prices
each observed choice under a soft version of the search's playout policy
(``dk_playout.policy_move``: throw the card whose loss hurts the hand least, take the
pile top when it improves the hand):

- the throw: a softmax over the cards the rival could have thrown, by the score
  (hand points less deadwood) of the 8 cards it keeps, temperature ``1 / beta``;
- the take or the pass: a logistic choice on the pile top's gain to the hand
  (score with the top against without), slope ``gamma`` and threshold ``bias``.

The three numbers are fitted by maximum likelihood on logged 4-player games (strong-v1
tables and personality tables: ``bench/fit_dk_likelihood.py``, which prints them).
``HiddenDealer(view, policy=M)`` resamples each rival's hand from M deals by this
likelihood; ``strong`` has it off (``search.POLICY_DEALS = 0``): it measured behind
(docs/bots.md, Deadwood Knock, eighth pass).

Everything here reads only the seat's :class:`~deadwood_knock.bots.view.TableView`
(the public events); the candidate hand comes from the caller's sampler.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from deadwood_knock.bots.view import TableView, pile_turns
from deadwood_knock.cards import Card
from deadwood_knock.games.deadwood_knock.hand import evaluate_batch

__all__ = [
    "PARAMS",
    "TURNS",
    "PolicyParams",
    "Turn",
    "log_likelihood",
    "take_gain",
    "throw_scores",
    "turns_of",
]


@dataclass(frozen=True, slots=True)
class PolicyParams:
    """The soft policy: throw temperature and the pile take's logistic."""

    beta: float  # per point of score kept, in the throw's softmax
    gamma: float  # per point of gain, in the take's logistic
    bias: float  # the gain (points) at which a take is as likely as a pass


#: Fitted by ``bench/fit_dk_likelihood.py --strong-rounds 16 --personality-rounds 100
#: --seed 31 --iterations 100`` on both tables together (1,125 turns; strong-v1 alone:
#: beta 0.19, gamma 0.16, bias 7.5; the personalities alone: 0.29, 0.15, 10.0). Per
#: turn the throw's log-likelihood is -1.48 against -2.15 for a card thrown at random.
PARAMS: Final = PolicyParams(beta=0.24, gamma=0.15, bias=9.0)
#: How many of a rival's most recent turns are priced.
TURNS: Final = 2


@dataclass(frozen=True, slots=True)
class Turn:
    """One draw-and-discard turn of a seat, as every seat saw it."""

    top: Card | None  # the pile top when the turn began (None: not followed)
    source: str  # "stock", "discard" or "palm"
    taken: Card | None  # the card taken (a pile or palm draw), None for the stock
    threw: Card


def turns_of(view: TableView) -> list[list[Turn]]:
    """Every seat's draw-and-discard turns this round, oldest first, from the one walk
    of the events (``view.pile_turns``; a top not followed, after a reshuffle, is None)."""
    return [
        [
            Turn(t.top, t.source, t.taken, t.threw)
            for t in turns
            if t.threw is not None and t.source not in ("", "stand")
        ]
        for turns in pile_turns(view)
    ]


def _log_sigmoid(x: float) -> float:
    return -math.log1p(math.exp(-x)) if x > -30 else x


def _log_softmax_at(scores: Sequence[float], index: int, beta: float) -> float:
    top = max(scores)
    total = sum(math.exp(beta * (s - top)) for s in scores)
    return beta * (scores[index] - top) - math.log(total)


def _turn_hands(
    after: Sequence[Card], turn: Turn, before: Sequence[Card]
) -> tuple[list[list[Card]], int, str]:
    """The 8-card hands a turn's likelihood needs, the thrown card's index among the
    first ones, and how the rest price the take ("take", "pass" or "" for none).

    The throw: the rival held ``after`` plus the card thrown and kept 8 of them; a card
    taken from the pile cannot be the throw (the select comes before the take), a blind
    draw's card is not known and stays among the options (an approximation). The take:
    the hand after against the hand before. The pass: the hand after with the top in
    place of each card against the hand after (standing in for the hand before, whose
    blind draw is not known)."""
    held = [*after, turn.threw]
    hands: list[list[Card]] = []
    index = 0
    for i, c in enumerate(held):
        if c == turn.taken:
            continue
        if c == turn.threw:
            index = len(hands)
        hands.append(held[:i] + held[i + 1 :])
    if turn.taken is not None:
        if turn.source != "discard":
            return hands, index, ""  # a palm: no take-or-pass choice on the top
        hands += [list(after), list(before)]
        return hands, index, "take"
    top = turn.top
    if top is None:
        return hands, index, ""
    hands.append(list(after))
    hands += [[*after[:i], *after[i + 1 :], top] for i in range(len(after))]
    return hands, index, "pass"


def _priced(
    hands: list[list[Card]], index: int, how: str, scores: Sequence[int]
) -> tuple[list[float], float | None]:
    """The throw's options' scores and the top's gain (None: no take-or-pass choice)."""
    k = len(hands) - (2 if how == "take" else 9 if how == "pass" else 0)
    throw = [float(x) for x in scores[:k]]
    if how == "take":
        return throw, float(scores[k] - scores[k + 1])
    if how == "pass":
        return throw, float(max(scores[k + 1 :]) - scores[k])
    return throw, None


def _scores(hands: list[list[Card]]) -> list[int]:
    return [row[0] for row in evaluate_batch(hands)] if hands else []


def throw_scores(after: Sequence[Card], turn: Turn) -> tuple[list[float], int]:
    """The scores of the 8 cards kept for every card the rival could have thrown, and
    the index of the card it threw (see ``_turn_hands``)."""
    hands, index, _how = _turn_hands(after, turn, after)
    hands = hands[: len(after) + (0 if turn.taken is not None else 1)]
    return [float(x) for x in _scores(hands)], index


def take_gain(after: Sequence[Card], before: Sequence[Card], turn: Turn) -> float | None:
    """The pile top's gain to the hand, or None when there was no take-or-pass choice
    on a known top (see ``_turn_hands``)."""
    hands, index, how = _turn_hands(after, turn, before)
    return _priced(hands, index, how, _scores(hands))[1]


def log_likelihood(
    hand: Sequence[Card],
    turns: Sequence[Turn],
    rng: random.Random,
    params: PolicyParams = PARAMS,
    depth: int = TURNS,
    fixed: Sequence[Card] = (),
) -> float:
    """Log-likelihood of a rival's last ``depth`` turns if it now holds ``hand``.

    Walks back from the newest turn: before a turn the rival held the hand less the card
    it drew plus the card it threw. A pile draw names the card; a blind draw is one of the
    hand's cards not in ``fixed`` (cards known to have been held since), picked with
    ``rng``. A hand that cannot have been held (the card taken is not in it, or it holds
    the card thrown or the top let go) gets -inf.
    All the hands are scored in one batch.
    """
    after = list(hand)
    parts: list[tuple[int, int, int, str]] = []
    flat: list[list[Card]] = []
    for turn in reversed(turns[-depth:] if depth > 0 else ()):
        if turn.threw in after or (turn.taken is None and turn.top in after):
            # The hand after a turn cannot hold the card thrown, nor a top let go (it lay
            # under the throw); a deal can, when the pile went back into the stock. A
            # joker's two copies read alike, so one gives no verdict.
            if turn.threw >= 52 or (turn.top is not None and turn.top >= 52):
                break
            return -math.inf
        if turn.taken is not None:
            if turn.taken not in after:
                return -math.inf
            drawn = turn.taken
        else:
            free = [c for c in after if c not in fixed]
            if not free:
                break
            drawn = free[rng.randrange(len(free))]
        before = list(after)
        before.remove(drawn)
        before.append(turn.threw)
        hands, index, how = _turn_hands(after, turn, before)
        parts.append((len(flat), len(hands), index, how))
        flat += hands
        after = before
    scores = _scores(flat)
    total = 0.0
    for start, size, index, how in parts:
        throw, gain = _priced(flat[start : start + size], index, how, scores[start : start + size])
        total += _log_softmax_at(throw, index, params.beta)
        if gain is not None:
            x = params.gamma * (gain - params.bias)
            total += _log_sigmoid(x) if how == "take" else _log_sigmoid(-x)
    return total
