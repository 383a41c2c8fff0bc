"""Knock Rummy and Gin know-how shared by the greedy, personality, search and hint code.

A turn is a draw (stock or discard top) and then a discard, a knock with a discard, or
going rummy. Values are deadwood counts (lower is better), turned into "higher is better"
figures by the callers.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from deadwood_knock.bots.base import KnockOutlook
from deadwood_knock.bots.view import TableView
from deadwood_knock.cards import Card
from deadwood_knock.games import GAME_NAMES, facts
from deadwood_knock.games.base import Action
from deadwood_knock.games.knock_rummy.rules import GIN_LIMIT

__all__ = ["count", "discard_card", "knock_outlook", "live_outs", "source_of"]


def count(cards: Sequence[Card], high_aces: bool = False) -> int:
    """The hand's count: lowest deadwood over every arrangement."""
    from deadwood_knock.games.knock_rummy.melds import count as kr_count

    return int(kr_count(cards, high_aces=high_aces))


def source_of(action: Action) -> str:
    source = getattr(action, "source", "")
    return str(getattr(source, "value", source))


def discard_card(action: Action) -> Card | None:
    """The card an action throws (``Discard``, ``Knock``, ``Rummy`` with a discard)."""
    c = getattr(action, "card", None)
    if c is None:
        c = getattr(action, "discard", None)
    return c if isinstance(c, Card) else None


def best_after_draw(hand: Sequence[Card], drawn: Card, high_aces: bool, keep: bool) -> int:
    """Lowest count after taking ``drawn`` and throwing one card (not ``drawn`` if ``keep``)."""
    if not keep:
        from deadwood_knock.games.knock_rummy.melds import best_discard_count

        return int(best_discard_count([*hand, drawn], high_aces=high_aces)[0])
    best = 10_000
    for c in hand:
        best = min(best, count([x for x in hand if x != c] + [drawn], high_aces))
    return best


def live_outs(hand: Sequence[Card], unseen: Sequence[Card], high_aces: bool) -> float:
    """How many unseen cards would lower this hand's count if drawn next (a draw's promise)."""
    base = count(hand, high_aces)
    if base == 0:
        return 0.0
    better = 0
    for x in unseen:
        if best_after_draw(hand, x, high_aces, keep=False) < base:
            better += 1
    return float(better)


def options_of(raw: Mapping[str, Any]) -> tuple[bool, int | None, bool]:
    """(high_aces, knock_limit, gin) from an observation's JSON."""
    opts = raw.get("options") or {} if hasattr(raw, "get") else {}
    gin = bool(opts.get("gin")) or (raw.get("game") in GAME_NAMES and facts(raw["game"]).layoffs)
    limit = opts.get("knock_limit")
    if gin:
        limit = GIN_LIMIT
    return bool(opts.get("high_aces")), (int(limit) if limit is not None else None), gin


# --- knocking: expected value against waiting ------------------------------------------------

#: The outlook's rivals knock at this count or less (Gin: at GIN_RIVAL_KNOCK, inside the
#: limit), and take the discard top when it lowers their count by 2 or more.
RIVAL_KNOCK_COUNT = 6
GIN_RIVAL_KNOCK = 8


def knock_outlook(
    view: TableView,
    rng: random.Random,
    samples: int,
    knock_hand: Sequence[Card],
    wait_hand: Sequence[Card],
    rival_tries: int = 1,
) -> KnockOutlook:
    """Price a knock leaving ``knock_hand`` against throwing to ``wait_hand`` and playing on.

    Each sample deals the other hands from the cards this seat has not seen (cards known
    to be in a hand stay there); a rival who has played a while keeps better cards, so
    its unknown cards are the best (lowest count) of ``rival_tries`` deals. Knock now: the
    engine settles the hand (KR6, or Gin's KR8 with lay-offs). Play on: each rival draws
    (the thrown card if it helps, else a stock card), knocks at ``RIVAL_KNOCK_COUNT`` or
    goes rummy; then this seat draws and knocks (or goes rummy). Both branches share the
    sample's cards.
    """
    high_aces, limit, gin = options_of(view.raw)
    me, n = view.seat, view.players
    order = [(me + k) % n for k in range(1, n)]
    unseen = list(view.unseen())
    known = {s: list(view.known_cards[s]) if s < len(view.known_cards) else [] for s in order}
    thrown_card = next((c for c in view.hand if c not in wait_hand), None)
    rival_knock = GIN_RIVAL_KNOCK if gin else RIVAL_KNOCK_COUNT
    if limit is not None:
        rival_knock = min(rival_knock, limit)
    settle = _gin_result if gin else _kr_result
    knock_sum = wait_sum = 0.0
    for _ in range(samples):
        pool = unseen[:]
        rng.shuffle(pool)
        hands: dict[int, tuple[Card, ...]] = {}
        for s in order:
            size = view.hand_sizes[s] if s < len(view.hand_sizes) else len(wait_hand)
            need = max(0, size - len(known[s]))
            best: tuple[Card, ...] | None = None
            best_n = 10_000
            for t in range(max(1, rival_tries)):
                fill = pool[t * need : (t + 1) * need]
                if len(fill) < need:
                    break
                cand = tuple(known[s] + fill)
                c = count(cand, high_aces)
                if c < best_n:
                    best, best_n = cand, c
            assert best is not None
            hands[s] = best
            taken = set(best)
            pool = [c for c in pool if c not in taken]
        knock_sum += settle(me, me, tuple(knock_hand), hands, high_aces, None)
        wait_sum += _kr_play_on(
            me, order, tuple(wait_hand), thrown_card, dict(hands), iter(pool),
            high_aces, limit, gin, rival_knock, settle,
        )  # fmt: skip
    k = max(1, samples)
    return KnockOutlook(knock_sum / k, wait_sum / k, samples)


def _kr_play_on(
    me: int,
    order: Sequence[int],
    mine: tuple[Card, ...],
    thrown: Card | None,
    hands: dict[int, tuple[Card, ...]],
    deck: Iterator[Card],
    high_aces: bool,
    limit: int | None,
    gin: bool,
    rival_knock: int,
    settle: Callable[..., float],
) -> float:
    from deadwood_knock.games.knock_rummy.melds import best_discard_count

    top = thrown
    for s in order:
        hand = hands[s]
        card = top if top is not None and _helps(hand, top, high_aces) else next(deck, None)
        if card is None:
            return 0.0  # the stock ran dry in the sample: no score either way
        left, throw = best_discard_count([*hand, card], high_aces=high_aces)
        hands[s] = tuple(c for c in (*hand, card) if c != throw)
        top = throw
        if left == 0 and not gin:
            return settle(me, s, mine, hands, high_aces, s)
        if left <= rival_knock:
            return settle(me, s, mine, hands, high_aces, None)
    card = next(deck, None)
    if card is None:
        return 0.0
    left, throw = best_discard_count([*mine, card], high_aces=high_aces)
    after = tuple(c for c in (*mine, card) if c != throw)
    if left == 0 and not gin:
        return settle(me, me, after, hands, high_aces, me)
    if limit is not None and left > limit:
        return 0.0  # not yet allowed to knock: the hand goes on, call it even
    return settle(me, me, after, hands, high_aces, None)


def _helps(hand: Sequence[Card], top: Card, high_aces: bool) -> bool:
    return best_after_draw(hand, top, high_aces, keep=True) < count(hand, high_aces) - 1


def _kr_result(
    me: int,
    knocker: int,
    mine: tuple[Card, ...],
    hands: dict[int, tuple[Card, ...]],
    high_aces: bool,
    rummy: int | None,
) -> float:
    """This seat's score for the hand (KR6, by the engine's settling)."""
    from deadwood_knock.games.knock_rummy.rules import knock_rummy_scores

    n = max(me, *hands) + 1
    counts = [0] * n
    counts[me] = count(mine, high_aces)
    for s, h in hands.items():
        counts[s] = count(h, high_aces)
    _winners, scores = knock_rummy_scores(counts, None if rummy is not None else knocker, rummy)
    return float(scores[me])


def _gin_result(
    me: int,
    knocker: int,
    mine: tuple[Card, ...],
    hands: dict[int, tuple[Card, ...]],
    high_aces: bool,
    rummy: int | None,
) -> float:
    """This seat's points won minus lost for a Gin knock (KR8, by the engine's settling)."""
    from deadwood_knock.games.knock_rummy.rules import gin_points, gin_settlement

    other = next(iter(hands.values()))
    k_hand, d_hand = (mine, other) if knocker == me else (other, mine)
    outcome, k_count, d_count, *_ = gin_settlement(k_hand, d_hand, high_aces)
    knocker_wins, pts = gin_points(outcome, k_count, d_count)
    return float(pts if knocker_wins == (knocker == me) else -pts)
