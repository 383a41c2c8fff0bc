"""The search bot's Knock Rummy / Gin playouts: a playout policy driving the engine's core.

The rules are the engine's own (:class:`~deadwood_knock.games.knock_rummy.core.KrTable`,
the code the public API runs); this module holds only what a bot decides: how to sample a
position from the seat's view (:func:`sample_position`), the quick policy every seat
follows in a playout (:func:`policy_move`) and when to stop (``PLAYOUT_CAP``). Playouts
run only on positions sampled from the seat's own view, never on the real hidden cards.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from deadwood_knock.bots import draws
from deadwood_knock.bots.kr import options_of
from deadwood_knock.bots.view import TableView, cards_of
from deadwood_knock.cards import Card
from deadwood_knock.games.knock_rummy.core import (
    DISCARDS,
    DRAW,
    DRAW_PILE,
    DRAW_STOCK,
    KNOCKS,
    OVER,
    RUMMIES,
    RUMMY_NO_DISCARD,
    KnockRummyAction,
    KnockRummyOptions,
    KrTable,
    cards_of_mask,
    deal_size,
)
from deadwood_knock.games.knock_rummy.melds import best_discard_mask, count_mask, hand_mask
from deadwood_knock.games.points import CARD_POINTS

__all__ = [
    "PLAYOUT_CAP",
    "apply_action",
    "meld_move",
    "playout",
    "policy_move",
    "sample_position",
]

SAMPLE_TRIES: Final = 30
BANK_SIZE: Final = 96
PLAYOUT_CAP: Final = 32  # moves (a draw or a discard each): eight turns each in Gin
# A sampled hand ends the playout; its later deals are never reached, nor its target.
_NO_TARGET: Final = 100_000
_BIT: Final = tuple(1 << i for i in range(52))


def _best_discard(mask: int, high_aces: bool, banned: Card | None) -> tuple[int, Card]:
    """The lowest count after one discard, and that discard (never ``banned``)."""
    n, c = best_discard_mask(mask, high_aces)
    if banned is None or c != banned:
        return n, c
    best: tuple[int, int, Card] | None = None
    for x in cards_of_mask(mask ^ _BIT[banned]):
        k = (count_mask(mask ^ _BIT[x], high_aces), -CARD_POINTS[x], x)
        if best is None or k < best:
            best = k
    assert best is not None
    return best[0], best[2]


def sample_position(
    view: TableView, rng: random.Random, bank: dict[int, list[tuple[int, list[Card]]]] | None = None
) -> KrTable | None:
    """A full table consistent with the seat's view (its hand ends the playout); ``None``
    if the view cannot be read.

    ``bank`` (kept by the caller across the samples of one decision) caches random
    candidate hands for the first hidden hand, so drawing the best of many is cheap.
    """
    raw = view.raw
    to_act = raw.get("to_act")
    phase = {"draw": DRAW, "discard": "discard"}.get(str(raw.get("phase", "")))
    if to_act is None or phase is None:
        return None
    high_aces, limit, gin = options_of(raw)
    unseen = list(view.unseen())
    draws.shuffle(rng, unseen)  # rng.shuffle, in fewer calls (the same draws)
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
                    pick = draws.sample(rng, unseen, need)
                    bank[s].append((count_mask(hand_mask(known + pick), high_aces), known + pick))
            entries = bank[s]
            for _ in range(tries):
                c, hand = entries[rng.randrange(len(entries))]
                if c < best_count:
                    best, best_count = hand, c
        else:
            for _ in range(tries):
                pick = draws.sample(rng, unseen, need) if need <= len(unseen) else list(unseen)
                c = count_mask(hand_mask(known + pick), high_aces)
                if best is None or c < best_count:
                    best, best_count = known + pick, c
        assert best is not None
        best = list(best)
        hands.append(best)
        dealt = set(best[len(known) :])
        unseen = [c for c in unseen if c not in dealt]
        draws.shuffle(rng, unseen)
    taken_raw = raw.get("taken_discard")
    taken = None if taken_raw is None else cards_of([taken_raw])[0]
    public = raw.get("public_stock")
    stock = list(cards_of(public)) if public else unseen[: view.stock_size]
    n = view.players
    try:
        opts = KnockRummyOptions(
            players=n,
            knock_limit=None if gin else limit,
            high_aces=high_aces,
            target=_NO_TARGET,
            gin=gin,
        )
    except ValueError:
        return None
    table = KrTable.blank(opts, 0, [0] * n)
    table.hand_number = 1
    table.dealer = (int(to_act) - 1) % n
    table.hands = [hand_mask(h) for h in hands]
    table.stock = stock
    table.pile = list(view.discard_pile)
    table.phase = phase
    table.to_act = int(to_act)
    table.taken = taken
    table.turnovers = int(raw.get("turnovers") or 0)
    table.public = bool(public)
    table.known = [
        hand_mask(view.known_cards[s]) if s < len(view.known_cards) else 0 for s in range(n)
    ]
    table.single_hand = True
    return table


def policy_move(t: KrTable, knock_at: int) -> None:
    """One move of the playout policy for the seat to act (always a legal one)."""
    seat = t.to_act
    assert seat is not None
    hand = t.hands[seat]
    ha = t.opts.high_aces
    gin = t.opts.gin
    if t.phase == DRAW:
        pile = t.pile
        # Take the top discard when keeping it lowers the count (one table lookup: if the
        # best card to throw were the top itself, the count could not go down).
        if pile:
            top = pile[-1]
            now = count_mask(hand, ha)
            with_top = hand | _BIT[top]
            # Gin players take the top only to meld it (otherwise it tells the opponent).
            melds = not gin or count_mask(with_top, ha) < now + CARD_POINTS[top]
            if melds and best_discard_mask(with_top, ha)[0] < now:
                t.play(DRAW_PILE)
                return
        # The stock, unless the rules say it is spent (then the pile's top).
        t.play(DRAW_STOCK if t.reason(DRAW_STOCK) is None else DRAW_PILE)
        return
    best = _end_or_knock(t, hand, ha, gin, knock_at)
    if best is not None:
        t.play(DISCARDS[best[1]])


def _end_or_knock(
    t: KrTable, hand: int, ha: bool, gin: bool, knock_at: int
) -> tuple[int, int] | None:
    """The discard step's moves that end the hand (rummy, a knock at ``knock_at`` or the
    table's limit), played; else ``(count left, card)`` of the lowest-count discard, for
    the caller's policy to throw (that card or another)."""
    if not gin and count_mask(hand, ha) == 0:
        t.play(RUMMY_NO_DISCARD)
        return None
    left, card = _best_discard(hand, ha, t.taken)
    if left == 0 and not gin:
        t.play(RUMMIES[card])
        return None
    limit = t.opts.knock_limit
    if limit is None or knock_at < limit:
        limit = knock_at
    if left <= limit:
        t.play(KNOCKS[card])
        return None
    return left, card


def _links(high_aces: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per card: the cards that would make a meld with it and one more card (same rank,
    same suit one rank away: ``near``) and the same suit two ranks away (``far``). With
    High Aces the ace is next to the king as well as the 2."""
    near: list[int] = []
    far: list[int] = []
    for c in range(52):
        suit, rank = divmod(c, 13)
        n = sum(1 << (s * 13 + rank) for s in range(4) if s != suit)
        f = 0
        spots = (rank, 13) if high_aces and rank == 0 else (rank,)
        for spot in spots:
            for d in (-2, -1, 1, 2):
                p = spot + d
                if p == 13 and high_aces:
                    p = 0
                if 0 <= p < 13 and p != rank:
                    bit = 1 << (suit * 13 + p)
                    if abs(d) == 1:
                        n |= bit
                    else:
                        f |= bit
        near.append(n)
        far.append(f & ~n)
    return tuple(near), tuple(far)


#: Per card, the cards one card from a meld with it (near) and one rank between (far),
#: low aces and high aces: the meld-aware discard reads it.
LINKS: Final = (_links(False), _links(True))
#: The meld-aware discard: how many points of count a card's partner in hand is worth
#: keeping it for (near: pair or suited neighbour; far: suited, one rank between), at
#: a full stock; the weight falls with the stock (late in a hand, points matter).
LINK_NEAR: float = 2.0
LINK_FAR: float = 1.0
LINK_STOCK: int = 20


def meld_move(t: KrTable, knock_at: int) -> None:
    """One move of the meld-aware playout policy (the ``strong`` bot's): as
    :func:`policy_move`, but a discard that does not end the hand keeps the cards that
    are one card from a meld (pairs, suited neighbours) unless their points outweigh
    it."""
    if t.phase == DRAW:
        policy_move(t, knock_at)
        return
    seat = t.to_act
    assert seat is not None
    hand = t.hands[seat]
    ha = t.opts.high_aces
    gin = t.opts.gin
    best = _end_or_knock(t, hand, ha, gin, knock_at)
    if best is None:
        return
    left, card = best
    banned = t.taken
    near, far = LINKS[ha]
    stock = len(t.stock)
    scale = 1.0 if stock >= LINK_STOCK else stock / LINK_STOCK
    wn, wf = LINK_NEAR * scale, LINK_FAR * scale
    rest = hand ^ _BIT[card]
    links = wn * (rest & near[card]).bit_count() + wf * (rest & far[card]).bit_count()
    if links:
        # Another card beats the lowest-count one only with fewer links (its count is
        # at least as high), so only those are counted.
        # A card's links never count the card itself (``LINKS`` leaves it out), so they
        # are read off the whole hand: the same counts as off the hand without it, one
        # operation fewer a card (issue 17, branch fast18). The lowest-count card is
        # skipped throughout (before, only until another card took its place; its key
        # then, ``left + links`` again, could not beat the lower one found).
        best_key = left + links
        chosen, skip = card, (card, banned)
        for x in cards_of_mask(hand):
            if x in skip:
                continue
            lx = wn * (hand & near[x]).bit_count() + wf * (hand & far[x]).bit_count()
            if left + lx >= best_key:
                continue
            key = count_mask(hand ^ _BIT[x], ha) + lx
            if key < best_key:
                best_key, chosen = key, x
        card = chosen
    t.play(DISCARDS[card])


def apply_action(t: KrTable, seat: int, action: object) -> bool:
    """Play one public engine action on the table; False if it does not fit there."""
    if not isinstance(action, KnockRummyAction):
        return False
    if t.phase == OVER or t.to_act != seat or t.reason(action) is not None:
        return False
    t.play(action)
    return True


def playout(
    t: KrTable,
    knock_at: int,
    cap: int = PLAYOUT_CAP,
    move: Callable[[KrTable, int], None] | None = None,
) -> list[float]:
    """Finish the hand (or stop after ``cap`` moves); every seat's score for it.
    ``move`` is the playout policy (:func:`policy_move` unless given).

    A hand cut off by the cap is scored by its counts: each seat gains half the
    difference between the table's mean count and its own (zero-sum, like a settle).
    """
    steps = 0
    step = policy_move if move is None else move
    while t.phase != OVER and steps < cap:
        step(t, knock_at)
        steps += 1
    if t.hand_scores is not None:
        return [float(x) for x in t.hand_scores]
    ha = t.opts.high_aces
    size = deal_size(t.opts.players)
    counts = [
        count_mask(h, ha) if h.bit_count() <= size else best_discard_mask(h, ha)[0] for h in t.hands
    ]
    mean = sum(counts) / len(counts)
    return [0.5 * (mean - c) for c in counts]
