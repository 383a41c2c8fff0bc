"""Knock Rummy and Gin tensors straight from the engine's core table, and the engine
observation built only when it is read.

The environments step the core table (``games/knock_rummy/core.py``) in place. Building
the engine observation every step (the hand re-arranged into melds, tuples of every
field) and then encoding it cost most of a step, although a training loop reads only the
tensors. Here the same vector and mask are written from the table's bitmasks, reading only
what the seat may see (its own hand, every hand's size, the public piles, the cards known
to be in each hand, the stock once it is public); ``tests/test_rl_fast.py`` checks they equal
the reference encoding of ``observe_table`` at every step, and that the lazy observation
equals it when read.

The melded cards of the observation's arrangement come from per-suit tables (one entry per
13-bit suit field, filled from :func:`melds.arrange` on first use) and, when a rank is held
three or four times, the same set choices in the same order as ``arrange`` tries them, so
the "melded" block is that of ``arrange``'s first lowest-deadwood layout.
"""

from __future__ import annotations

from itertools import product
from typing import Any, Final

import numpy as np

from deadwood_knock.games.knock_rummy.core import (
    DISCARDS,
    DRAW_PILE,
    DRAW_STOCK,
    KNOCKS,
    PHASES,
    RUMMIES,
    RUMMY_NO_DISCARD,
    cards_of_mask,
    legal_list,
)
from deadwood_knock.games.knock_rummy.melds import arrange
from deadwood_knock.rl.actions import ActionCodec, IllegalIndexError, Mask, index_of
from deadwood_knock.rl.observations import TOTAL_CLIP, ObservationEncoder, Vector

__all__ = ["KrTensors", "SeatView", "melded_count"]

_SUIT: Final = 0x1FFF
_unpack: Final = np.unpackbits
_frombuffer: Final = np.frombuffer
_U8: Final = np.uint8
_F32: Final = np.float32
_BIT: Final = tuple(1 << c for c in range(52))

# Per suit field (13 bits), per High Aces: (deadwood points, the field's melded bits) of
# the first lowest-deadwood layout of that suit alone. Filled on first use (8,192 fields).
_FIELDS: Final[tuple[list[tuple[int, int] | None], list[tuple[int, int] | None]]] = (
    [None] * (1 << 13),
    [None] * (1 << 13),
)


def _field(f: int, high: bool) -> tuple[int, int]:
    table = _FIELDS[high]
    found = table[f]
    if found is None:
        arrangement = arrange(cards_of_mask(f), high)
        melded = 0
        for meld in arrangement.melds:
            for c in meld:
                melded |= _BIT[c]
        found = table[f] = (arrangement.deadwood_points, melded)
    return found


def _set_options(m: int, trip: int) -> list[list[int]]:
    """Per rank held 3+ times (low rank first): the set masks ``arrange`` tries, in its
    order (no set, all of them, then each set of three of a four)."""
    options: list[list[int]] = []
    while trip:
        low = trip & -trip
        trip ^= low
        rank = low.bit_length() - 1
        full = 0
        holders = []
        for s in range(4):
            if m >> (rank + 13 * s) & 1:
                holders.append(rank + 13 * s)
                full |= 1 << (rank + 13 * s)
        opts = [0, full]
        if len(holders) == 4:
            opts.extend(full ^ (1 << c) for c in holders)
        options.append(opts)
    return options


def melded_count(m: int, high: bool) -> tuple[int, int]:
    """The deadwood points and the melded cards (a mask) of :func:`melds.arrange`'s
    layout of the hand with mask ``m``."""
    table = _FIELDS[high]
    a, b, c, d = m & _SUIT, (m >> 13) & _SUIT, (m >> 26) & _SUIT, m >> 39
    trip = (a & b & (c | d)) | (c & d & (a | b))
    if not trip:
        pa, ma = table[a] or _field(a, high)
        pb, mb = table[b] or _field(b, high)
        pc, mc = table[c] or _field(c, high)
        pd, md = table[d] or _field(d, high)
        return pa + pb + pc + pd, ma | mb << 13 | mc << 26 | md << 39
    # arrange takes the first set choice (in product order) that reaches the lowest
    # count; a strictly lower count replaces the best, a tie keeps the earlier choice.
    best = 1 << 30
    best_melded = 0
    if trip & (trip - 1):
        choices = []
        for combo in product(*_set_options(m, trip)):
            used = 0
            for u in combo:
                used |= u
            choices.append(used)
    else:
        # One rank held 3+ times (the usual case): no set, the set of all its cards,
        # then (four of a kind) each set of three, as _set_options lists them.
        full = (a & trip) | (b & trip) << 13 | (c & trip) << 26 | (d & trip) << 39
        choices = [0, full]
        if a & b & c & d & trip:
            choices += [full ^ trip, full ^ trip << 13, full ^ trip << 26, full ^ trip << 39]
    for used in choices:
        r = m ^ used
        fa, fb, fc, fd = r & _SUIT, (r >> 13) & _SUIT, (r >> 26) & _SUIT, r >> 39
        pa, ma = table[fa] or _field(fa, high)
        pb, mb = table[fb] or _field(fb, high)
        pc, mc = table[fc] or _field(fc, high)
        pd, md = table[fd] or _field(fd, high)
        points = pa + pb + pc + pd
        if points < best:
            best = points
            best_melded = used | ma | mb << 13 | mc << 26 | md << 39
    return best, best_melded


class SeatView:
    """What one seat saw of a core table at one moment, kept so that the engine
    observation can be built later (:meth:`observation`), after the table moved on. It
    holds only what the seat may see: its own hand, the hand sizes, the known cards,
    the piles (the stock only once it is public) and its own events."""

    __slots__ = (
        "dealer",
        "events",
        "events_len",
        "hand",
        "hand_number",
        "hand_sizes",
        "known",
        "last_result",
        "opts",
        "phase",
        "pile",
        "public_stock",
        "seat",
        "stock_size",
        "taken",
        "to_act",
        "totals",
        "turnovers",
        "winners",
    )

    def __init__(self, core: Any, seat: int) -> None:
        self.opts = core.opts
        self.seat = seat
        self.hand_number = core.hand_number
        self.dealer = core.dealer
        self.to_act = core.to_act
        self.phase = core.phase
        self.hand = core.hands[seat]
        self.hand_sizes = tuple([h.bit_count() for h in core.hands])
        self.pile = tuple(core.pile)
        self.stock_size = len(core.stock)
        self.public_stock = tuple(core.stock) if core.public else None
        self.known = tuple(core.known)
        self.taken = core.taken
        self.turnovers = core.turnovers
        self.totals = tuple(core.totals)
        self.last_result = core.last_result
        self.winners = core.winners
        # The seat's event list only grows until the next deal replaces it, so its
        # length now marks this moment's events.
        seen = core.seen[seat]
        self.events = seen
        self.events_len = len(seen)

    def observation(self) -> Any:
        """The engine observation (equal to ``observe_table`` at that moment)."""
        from deadwood_knock.games.knock_rummy.rules import KnockRummyObservation

        opts = self.opts
        hand = cards_of_mask(self.hand)
        legal = (
            legal_list(
                opts,
                self.phase,
                self.hand,
                self.taken,
                self.stock_size,
                len(self.pile),
                self.turnovers,
            )
            if self.to_act == self.seat
            else ()
        )
        return KnockRummyObservation(
            game=opts.game_name,
            options=opts,
            seat=self.seat,
            hand_number=self.hand_number,
            dealer=self.dealer,
            to_act=self.to_act,
            phase=self.phase,
            hand=hand,
            arrangement=arrange(hand, opts.high_aces),
            discard_pile=self.pile,
            stock_size=self.stock_size,
            public_stock=self.public_stock,
            hand_sizes=self.hand_sizes,
            known_cards=tuple(cards_of_mask(k) for k in self.known),
            taken_discard=self.taken,
            turnovers=self.turnovers,
            totals=self.totals,
            last_result=self.last_result,
            events=tuple(self.events[: self.events_len]),
            legal_actions=legal,
            winners=self.winners,
        )


class KrTensors:
    """Writes one seat's vector and mask from a core table (the layout of
    ``encoder``, the indices of ``codec``), reading only what that seat may see."""

    def __init__(self, encoder: ObservationEncoder, codec: ActionCodec, opts: Any) -> None:
        at = {b.name: b.offset for b in encoder.layout}
        self.size = encoder.size
        self.players = n = encoder.players
        # Every block before the hand sizes holds 0 or 1: written as one bit string; the
        # scalars follow in this order (tensors writes them so).
        self.bits_len = at["hand_sizes"]
        scalars = [b.name for b in encoder.layout if b.offset >= self.bits_len]
        assert scalars == ["hand_sizes", "stock_size", "turnovers", "count", "totals", "options"]
        for block in encoder.layout:
            if block.offset < self.bits_len:
                assert (block.low, block.high) == (0.0, 1.0), block
        assert at["hand"] == 0 and at["melded"] == 52
        # Seats in table order from each viewer, and where each other seat's known
        # cards, the seat to act and the dealer go for that viewer.
        self.order = [[(seat + k) % n for k in range(n)] for seat in range(n)]
        self.known_shift = [
            [((seat + k) % n, at["known"] + 52 * (k - 1)) for k in range(1, n)] for seat in range(n)
        ]
        self.to_act_bit = [
            [1 << (at["to_act"] + (s - seat) % n) for s in range(n)] for seat in range(n)
        ]
        self.dealer_bit = [
            [1 << (at["dealer"] + (s - seat) % n) for s in range(n)] for seat in range(n)
        ]
        # Per seat: (the totals, the vector's tail from them on); see tensors.
        self.totals_tail: list[tuple[list[int] | None, Vector]] = [
            (None, np.zeros(0, dtype=np.float32)) for _ in range(n)
        ]
        self.pile_at = at["discard_pile"]
        self.top_at = at["discard_top"]
        self.stock_at = at["public_stock"]
        self.stock_top_at = at["public_stock_top"]
        self.taken_at = at["taken_discard"]
        self.phase_bit = {p: 1 << (at["phase"] + i) for i, p in enumerate(PHASES)}
        self.high = bool(opts.high_aces)
        self.target = float(opts.target)
        limit = opts.knock_limit
        self.options_tail = [
            float(opts.high_aces),
            0.0 if limit is None else 1.0,
            0.0 if limit is None else min(limit / 100.0, 1.0),
        ]
        # The action indices of the core's shared action values, by identity (hashing
        # a dataclass costs more); any other value falls back to the codec.
        index = codec._index
        by_id: dict[int, int] = {}
        # Kept, so that no id is reused while the map lives.
        self._keep = (DRAW_STOCK, DRAW_PILE, DISCARDS, KNOCKS, RUMMIES, RUMMY_NO_DISCARD)
        for action in (DRAW_STOCK, DRAW_PILE, *DISCARDS, *KNOCKS, *RUMMIES, RUMMY_NO_DISCARD):
            by_id[id(action)] = 1 << index[action]
        self.by_id = by_id
        self.codec = codec
        self.mask_size = codec.size
        self.mask_bytes = (codec.size + 7) // 8
        # The mask's bits go after the whole vector's slots, at a byte boundary.
        self.mask_at = 8 * ((self.size + 7) // 8)
        self.all_bytes = self.mask_at // 8 + self.mask_bytes

    def vector(self, core: Any, seat: int) -> Vector:
        return self.tensors(core, seat, 0)[0]

    def tensors(self, core: Any, seat: int, legal: int) -> tuple[Vector, Mask]:
        """The seat's vector and the mask of the ``legal`` bits (:meth:`legal_bits`),
        unpacked together from one bit string (one numpy call instead of two)."""
        order = self.order[seat]
        hands = core.hands
        hand = hands[seat]
        count, melded = melded_count(hand, self.high)
        bits = hand | melded << 52 | legal << self.mask_at | self.phase_bit[core.phase]
        known = core.known
        for other, shift in self.known_shift[seat]:
            bits |= known[other] << shift
        pile = core.pile
        if pile:
            m = 0
            for c in pile:
                m |= _BIT[c]
            bits |= m << self.pile_at | 1 << (self.top_at + pile[-1])
        if core.public:
            stock = core.stock
            if stock:
                m = 0
                for c in stock:
                    m |= _BIT[c]
                bits |= m << self.stock_at | 1 << (self.stock_top_at + stock[-1])
        taken = core.taken
        if taken is not None:
            bits |= 1 << (self.taken_at + taken)
        to_act = core.to_act
        if to_act is not None:
            bits |= self.to_act_bit[seat][to_act]
        bits |= self.dealer_bit[seat][core.dealer]
        # One numpy call unpacks the vector's bits and the mask's (positional arguments:
        # numpy parses keywords slowly); the scalars then overwrite the vector's tail.
        unpacked = _unpack(
            _frombuffer(bits.to_bytes(self.all_bytes, "little"), _U8), None, None, "little"
        )
        bits_len = self.bits_len
        vec = unpacked[: self.size].astype(_F32)
        # The scalars: hand sizes, stock size, turn-overs and count change every step;
        # the totals and the options after them only when a hand ends (kept per seat).
        tail = [hands[s].bit_count() / 11.0 for s in order]
        tail += (
            len(core.stock) / 52.0,
            core.turnovers / 2.0,
            count / 100.0 if count < 100 else 1.0,
        )
        end = bits_len + len(tail)
        vec[bits_len:end] = tail
        totals = core.totals
        kept = self.totals_tail[seat]
        if kept[0] != totals:
            kept = self.totals_tail[seat] = (totals[:], self._totals_tail(totals, order))
        vec[end:] = kept[1]
        mask_at = self.mask_at
        return vec, unpacked[mask_at : mask_at + self.mask_size].view(np.int8)

    def _totals_tail(self, totals: list[int], order: list[int]) -> Vector:
        target = self.target
        clip = TOTAL_CLIP
        tail = [
            -clip if t < -clip else clip if t > clip else t
            for t in [totals[s] / target for s in order]
        ]
        return np.array(tail + self.options_tail, dtype=np.float32)

    def legal_bits(self, core: Any, seat: int) -> int:
        """The legal action indices of ``seat`` as bits of an int (0 off its turn)."""
        if core.to_act != seat:
            return 0
        legal = core.legal()
        try:  # each action's bit is distinct, so their sum is their union
            return sum(map(self.by_id.__getitem__, map(id, legal)))
        except KeyError:  # an action value the core did not share
            index = self.codec._index
            return sum(1 << index[action] for action in legal)

    def mask(self, bits: int) -> Mask:
        return np.unpackbits(
            np.frombuffer(bits.to_bytes(self.mask_bytes, "little"), dtype=np.uint8),
            count=self.mask_size,
            bitorder="little",
        ).view(np.int8)

    def decode(self, index: Any, bits: int) -> Any:
        """The engine action of a legal index (``bits``: :meth:`legal_bits`); anything
        else raises :class:`IllegalIndexError` saying why."""
        i = index_of(index)
        codec = self.codec
        if not 0 <= i < self.mask_size:
            codec.decode(i, None)  # raises the codec's out-of-range error
        if not bits >> i & 1:
            legal = [k for k in range(self.mask_size) if bits >> k & 1]
            raise IllegalIndexError(
                f"action {i} ({codec.label(i)}) is not legal now; legal: {legal}"
            )
        return codec.fixed[i]
