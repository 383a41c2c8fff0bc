"""A fast Knock Rummy / Gin hand simulator for the search bot's playouts.

Plain mutable lists instead of the immutable engine, the same rules (KR3–KR8): draw from
the stock or the discard top, knock (with the limit) or go rummy, the discard-pile card
that may not be thrown back the same turn, the pile turned over twice and the void hand,
settling with ties, shares and bonuses. Gin lay-offs are estimated (each of the
defender's deadwood cards that extends one of the knocker's melds is laid off), which
is close enough for a playout. Only ever run on positions sampled from the seat's own
view, never on the real hidden cards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from deadwood_knock.bots.kr import options_of
from deadwood_knock.bots.view import TableView, cards_of
from deadwood_knock.cards import Card
from deadwood_knock.games.knock_rummy.rules import (
    gin_layoffs_allowed,
    gin_outcome,
    gin_points,
    knock_rummy_scores,
)
from deadwood_knock.games.points import card_value

__all__ = ["KrSim", "apply_action", "playout", "sample_position"]

DRAW: Final = "draw"
DISCARD: Final = "discard"
OVER: Final = "over"
SAMPLE_TRIES: Final = 30
BANK_SIZE: Final = 96
PLAYOUT_CAP: Final = 32  # moves (a draw or a discard each): eight turns each in Gin


def _count(cards: Sequence[Card], high_aces: bool) -> int:
    from deadwood_knock.games.knock_rummy.melds import count

    return int(count(cards, high_aces=high_aces))


def _best_discard(cards: Sequence[Card], high_aces: bool, banned: Card | None) -> tuple[int, Card]:
    from deadwood_knock.games.knock_rummy.melds import best_discard_count

    n, c = best_discard_count(cards, high_aces=high_aces)
    if banned is None or c != banned:
        return int(n), c
    best: tuple[int, int, Card] | None = None
    for x in cards:
        if x == banned:
            continue
        k = (_count([y for y in cards if y != x], high_aces), -card_value(x), x)
        if best is None or k < best:
            best = k
    assert best is not None
    return best[0], best[2]


@dataclass(slots=True)
class KrSim:
    """A mutable hand in progress (a sample, never the real deal)."""

    hands: list[list[Card]]
    stock: list[Card]  # top is last
    pile: list[Card]  # top is last
    to_act: int
    phase: str
    high_aces: bool
    limit: int | None
    gin: bool
    turnovers: int = 0
    taken: Card | None = None
    result: list[int] | None = None

    def copy(self) -> KrSim:
        return KrSim(
            [h[:] for h in self.hands],
            self.stock[:],
            self.pile[:],
            self.to_act,
            self.phase,
            self.high_aces,
            self.limit,
            self.gin,
            self.turnovers,
            self.taken,
        )

    @classmethod
    def dealt(cls, state: Any) -> KrSim:
        """A simulator holding an engine hand's whole deal and table options.

        For the tests and the bench, which compare or time the simulator on real deals;
        the bots never get a state and build theirs with :func:`sample_position`.
        """
        options = state.options
        return cls(
            hands=[list(h) for h in state.hands],
            stock=list(state.stock),
            pile=list(state.discard_pile),
            to_act=state.to_act,
            phase=DRAW,
            high_aces=options.high_aces,
            limit=options.knock_limit,
            gin=options.gin,
        )


def sample_position(
    view: TableView, rng: random.Random, bank: dict[int, list[tuple[int, list[Card]]]] | None = None
) -> KrSim | None:
    """A full position consistent with the seat's view; ``None`` if it cannot be read.

    ``bank`` (kept by the caller across the samples of one decision) caches random
    candidate hands for the first hidden hand, so drawing the best of many is cheap.
    """
    raw = view.raw
    to_act = raw.get("to_act")
    phase = {"draw": DRAW, "discard": DISCARD}.get(str(raw.get("phase", "")))
    if to_act is None or phase is None:
        return None
    high_aces, limit, gin = options_of(raw)
    unseen = list(view.unseen())
    rng.shuffle(unseen)
    hands: list[list[Card]] = []
    for s in range(view.players):
        if s == view.seat:
            hands.append(list(view.hand))
            continue
        known = list(view.known_cards[s]) if s < len(view.known_cards) else []
        size = view.hand_sizes[s] if s < len(view.hand_sizes) else 10
        need = max(0, size - len(known))
        # A hand that has been played for some turns holds melds a fresh deal would
        # not: take the lowest count of a few random deals, more the longer it played.
        t = view.turns[s] if s < len(view.turns) else 0
        # Calibrated against greedy play: ten-card hands improve fast, short ones slowly.
        tries = 1 + (min(t * (t + 1) // 2, SAMPLE_TRIES) if size >= 10 else min(t // 2, 4))
        best: list[Card] | None = None
        best_count = 10**9
        first_hidden = s == (1 if view.seat == 0 else 0)  # dealt from the full pool
        if bank is not None and first_hidden and need <= len(unseen):
            if s not in bank:
                bank[s] = []
                for _ in range(BANK_SIZE):
                    pick = rng.sample(unseen, need)
                    bank[s].append((_count(known + pick, high_aces), known + pick))
            entries = bank[s]
            for _ in range(tries):
                c, hand = entries[rng.randrange(len(entries))]
                if c < best_count:
                    best, best_count = hand, c
        else:
            for _ in range(tries):
                pick = rng.sample(unseen, need) if need <= len(unseen) else list(unseen)
                c = _count(known + pick, high_aces)
                if best is None or c < best_count:
                    best, best_count = known + pick, c
        assert best is not None
        best = list(best)
        hands.append(best)
        dealt = set(best[len(known) :])
        unseen = [c for c in unseen if c not in dealt]
        rng.shuffle(unseen)
    taken_raw = raw.get("taken_discard")
    taken = None if taken_raw is None else cards_of([taken_raw])[0]
    public = raw.get("public_stock")
    stock = list(cards_of(public)) if public else unseen[: view.stock_size]
    return KrSim(
        hands=hands,
        stock=stock,
        pile=list(view.discard_pile),
        to_act=int(to_act),
        phase=phase,
        high_aces=high_aces,
        limit=limit,
        gin=gin,
        turnovers=int(raw.get("turnovers") or 0),
        taken=taken,
    )


# --- moves -----------------------------------------------------------------------------------


def do_draw(sim: KrSim, seat: int, source: str) -> None:
    hand = sim.hands[seat]
    if source == "discard" and sim.pile:
        c = sim.pile.pop()
        hand.append(c)
        sim.taken = c
    else:
        if not sim.stock:
            if sim.turnovers >= 2 or not sim.pile:
                sim.result = [0] * len(sim.hands)  # void hand
                sim.phase = OVER
                return
            sim.stock = sim.pile[::-1]  # face down, unshuffled: old bottom on top
            sim.pile = []
            sim.turnovers += 1
        hand.append(sim.stock.pop())
        sim.taken = None
    sim.phase = DISCARD


def do_discard(sim: KrSim, seat: int, card: Card, knock: bool) -> None:
    sim.hands[seat].remove(card)
    sim.pile.append(card)
    if knock:
        settle(sim, seat, rummy=False)
        return
    if sim.gin and len(sim.stock) <= 2:
        sim.result = [0] * len(sim.hands)
        sim.phase = OVER
        return
    if not sim.stock and sim.turnovers >= 2:
        sim.result = [0] * len(sim.hands)
        sim.phase = OVER
        return
    sim.to_act = (seat + 1) % len(sim.hands)
    sim.phase = DRAW
    sim.taken = None


def do_rummy(sim: KrSim, seat: int, card: Card | None) -> None:
    if card is not None:
        sim.hands[seat].remove(card)
        sim.pile.append(card)
    settle(sim, seat, rummy=True)


def _layoff_estimate(knocker: Sequence[Card], defender: Sequence[Card], high_aces: bool) -> int:
    """Deadwood the defender sheds on the knocker's melds: a card that, added to the
    knocker's hand, keeps its count unchanged extends a meld."""
    base = _count(knocker, high_aces)
    own = _count(defender, high_aces)
    shed = 0
    held = list(knocker)
    for c in sorted(defender, key=card_value, reverse=True):
        if _count([*held, c], high_aces) == base:
            rest = [x for x in defender if x != c]
            if _count(rest, high_aces) == own - card_value(c):
                shed += card_value(c)
                held.append(c)
    return shed


def settle(sim: KrSim, knocker: int, rummy: bool) -> None:
    """The engine's settlement (KR6, KR8) on the sample's counts; only Gin's lay-offs
    are estimated (:func:`_layoff_estimate`)."""
    n = len(sim.hands)
    counts = [_count(h, sim.high_aces) for h in sim.hands]
    result = [0] * n
    if sim.gin:
        other = 1 - knocker
        k, d = counts[knocker], counts[other]
        if gin_layoffs_allowed(k):
            d = max(0, d - _layoff_estimate(sim.hands[knocker], sim.hands[other], sim.high_aces))
        knocker_wins, points = gin_points(gin_outcome(k, d), k, d)
        winner, loser = (knocker, other) if knocker_wins else (other, knocker)
        result[winner], result[loser] = points, -points
    else:
        _, scores = knock_rummy_scores(
            counts, None if rummy else knocker, knocker if rummy else None
        )
        result = list(scores)
    sim.result = result
    sim.phase = OVER


# --- policy ----------------------------------------------------------------------------------


def policy_move(sim: KrSim, knock_at: int) -> None:
    seat = sim.to_act
    hand = sim.hands[seat]
    ha = sim.high_aces
    if sim.phase == DRAW:
        top = sim.pile[-1] if sim.pile else None
        # Take the top discard when keeping it lowers the count (one table lookup: if the
        # best card to throw were the top itself, the count could not go down).
        if top is not None:
            now = _count(hand, ha)
            # Gin players take the top only to meld it (otherwise it tells the opponent).
            melds = not sim.gin or _count([*hand, top], ha) < now + card_value(top)
            if melds and _best_discard([*hand, top], ha, None)[0] < now:
                do_draw(sim, seat, "discard")
                return
        do_draw(sim, seat, "stock")
        return
    if not sim.gin and _count(hand, ha) == 0:
        do_rummy(sim, seat, None)
        return
    left, card = _best_discard(hand, ha, sim.taken)
    if left == 0 and not sim.gin:
        do_rummy(sim, seat, card)
        return
    limit = knock_at if sim.limit is None else min(knock_at, sim.limit)
    do_discard(sim, seat, card, knock=left <= limit)


def apply_action(sim: KrSim, seat: int, action: Any) -> bool:
    """Play one public engine action in the sample; False if it does not fit."""
    if sim.phase == OVER or sim.to_act != seat:
        return False
    kind = getattr(action, "kind", "")
    if kind == "draw":
        if sim.phase != DRAW:
            return False
        source = getattr(action, "source", "stock")
        do_draw(sim, seat, str(getattr(source, "value", source)))
        return True
    card = getattr(action, "card", None) if kind == "discard" else getattr(action, "discard", None)
    if card is not None and card not in sim.hands[seat]:
        return False
    if kind == "rummy":
        do_rummy(sim, seat, card)
    elif kind in ("discard", "knock") and card is not None:
        do_discard(sim, seat, card, knock=kind == "knock")
    else:
        return False
    return True


def playout(sim: KrSim, knock_at: int, cap: int = PLAYOUT_CAP) -> list[float]:
    """Finish the hand (or stop after ``cap`` moves); every seat's score for it.

    A hand cut off by the cap is scored by its counts: each seat gains half the
    difference between the table's mean count and its own (zero-sum, like a settle).
    """
    steps = 0
    while sim.phase != OVER and steps < cap:
        policy_move(sim, knock_at)
        steps += 1
    if sim.result is not None:
        return [float(x) for x in sim.result]
    counts = [_count(h[:10], sim.high_aces) for h in sim.hands]
    mean = sum(counts) / len(counts)
    return [0.5 * (mean - c) for c in counts]
