"""Knock Rummy and Gin know-how shared by the greedy, personality, search and hint code.

A turn is a draw (stock or discard top) and then a discard, a knock with a discard, or
going rummy. Values are deadwood counts (lower is better), turned into "higher is better"
figures by the callers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from deadwood_knock.cards import Card
from deadwood_knock.games.knock_rummy.rules import GIN_LIMIT

__all__ = ["count", "discard_card", "live_outs", "source_of"]


def count(cards: Sequence[Card], high_aces: bool = False) -> int:
    """The hand's count: lowest deadwood over every arrangement."""
    from deadwood_knock.games.knock_rummy.melds import count as kr_count

    return int(kr_count(cards, high_aces=high_aces))


def source_of(action: Any) -> str:
    source = getattr(action, "source", "")
    return str(getattr(source, "value", source))


def discard_card(action: Any) -> Card | None:
    """The card an action throws (``Discard``, ``Knock``, ``Rummy`` with a discard)."""
    c = getattr(action, "card", None)
    if c is None:
        c = getattr(action, "discard", None)
    return c if isinstance(c, Card) else None


def points(c: Card) -> int:
    return min(c % 13 + 1, 10)


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


def options_of(raw: Any) -> tuple[bool, int | None, bool]:
    """(high_aces, knock_limit, gin) from an observation's JSON."""
    opts = raw.get("options") or {} if hasattr(raw, "get") else {}
    gin = bool(opts.get("gin")) or raw.get("game") == "gin"
    limit = opts.get("knock_limit")
    if gin:
        limit = GIN_LIMIT
    return bool(opts.get("high_aces")), (int(limit) if limit is not None else None), gin
