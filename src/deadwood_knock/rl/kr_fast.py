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

import struct
from itertools import product
from typing import Any, Final

import numpy as np

from deadwood_knock.cards import Card
from deadwood_knock.games.knock_rummy.core import (
    DISCARDS,
    DRAW,
    DRAW_PILE,
    DRAW_STOCK,
    KNOCKS,
    PHASES,
    RUMMIES,
    RUMMY_NO_DISCARD,
    cards_of_mask,
    discard_masks,
    draw_masks,
    legal_list,
    legal_masks,
)
from deadwood_knock.games.knock_rummy.melds import arrange
from deadwood_knock.rl.actions import ActionCodec, IllegalIndexError, Mask, index_of
from deadwood_knock.rl.observations import TOTAL_CLIP, ObservationEncoder, Vector

__all__ = ["KrTensors", "PrefixMasks", "SeatView", "melded_count"]

_SUIT: Final = 0x1FFF
# The C function behind numpy's dispatcher (a quarter of a microsecond less per call).
_unpack: Final = getattr(np.unpackbits, "_implementation", np.unpackbits)
_frombuffer: Final = np.frombuffer
_U8: Final = np.uint8
_F32: Final = np.float32
_I8: Final = np.int8
_bit_count: Final = int.bit_count
_BIT: Final = tuple(1 << c for c in range(52))
# Where the codec's Knock Rummy / Gin indices of each kind of action start (rl/actions.py):
# 0 and 1 the draws, then a discard, a knock and (after the no-discard rummy) a rummy per card.
# _TOP[at][c]: the bit of card c in a block starting at slot ``at`` (built as needed).
_TOP: Final[dict[int, tuple[int, ...]]] = {}
# A hand's size as its slot holds it (cards held / 11); the stock's (/ 52), the turn-overs'
# (/ 2) and the count's (/ 100, 1 from 100 on).
_SIZE: Final = tuple(k / 11.0 for k in range(53))
_STOCK: Final = tuple(k / 52.0 for k in range(53))
_TURNOVERS: Final = tuple(k / 2.0 for k in range(3))
_COUNT: Final = tuple(min(k / 100.0, 1.0) for k in range(256))  # a count is at most 110
_AT_DISCARD: Final = 2
_AT_KNOCK: Final = 54
_AT_RUMMY: Final = 106

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


# Per High Aces, every suit field's layout, filled whole for the tensors' hot path:
# (deadwood points, then per suit the field's melded bits placed at the "melded" block).
_FULL: Final[dict[bool, tuple[list[int], list[int], list[int], list[int], list[int]]]] = {}


def _full_tables(high: bool) -> tuple[list[int], list[int], list[int], list[int], list[int]]:
    found = _FULL.get(high)
    if found is None:
        fields = [_FIELDS[high][f] or _field(f, high) for f in range(1 << 13)]
        points = [p for p, _ in fields]
        melded = [[m << (52 + 13 * s) for _, m in fields] for s in range(4)]
        found = _FULL[high] = (points, melded[0], melded[1], melded[2], melded[3])
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
    the piles (the stock only once it is public) and its own events. Taken every step,
    so it is one tuple of the table's fields (copies of its lists), read only when built."""

    __slots__ = ("at",)

    def __init__(self, core: Any, seat: int, totals: tuple[int, ...] | None = None) -> None:
        # ``totals``: the table's totals as a tuple, if the caller has made it already.
        # (The AEC step builds the same tuple inline, without this call: keep the two in
        # step.)
        # The seat's event list only grows until the next deal replaces it, so its
        # length now marks this moment's events.
        self.at = moment_of(core, seat, totals)

    def observation(self) -> Any:
        """The engine observation (equal to ``observe_table`` at that moment)."""
        return observation_at(self.at)


def moment_of(core: Any, seat: int, totals: tuple[int, ...] | None = None) -> tuple[Any, ...]:
    """:class:`SeatView`'s tuple: the table's fields that ``seat`` may see, lists copied,
    every hand's size and every seat's known cards last (flat: no inner tuples). The AEC
    step builds the same tuple inline for two seats: keep the two alike."""
    # The seat's event list only grows until the next deal replaces it, so its length
    # now marks this moment's events.
    seen = core.seen[seat]
    stock = core.stock
    return (
        core.opts,
        seat,
        core.hand_number,
        core.dealer,
        core.to_act,
        core.phase,
        core.hands[seat],
        tuple(core.pile),
        tuple(stock) if core.public else len(stock),
        core.taken,
        core.turnovers,
        tuple(core.totals) if totals is None else totals,
        core.last_result,
        core.winners,
        seen,
        len(seen),
        *map(_bit_count, core.hands),
        *core.known,
    )


def observation_at(at: tuple[Any, ...]) -> Any:
    """The engine observation of a :class:`SeatView`'s tuple (``SeatView.at``)."""
    from deadwood_knock.games.knock_rummy.rules import KnockRummyObservation

    (
        opts,
        seat,
        hand_number,
        dealer,
        to_act,
        phase,
        mask,
        pile,
        stock,
        taken,
        turnovers,
        totals,
        last_result,
        winners,
        seen,
        seen_len,
    ) = at[:16]
    n = opts.players
    hand_sizes = at[16 : 16 + n]
    known = at[16 + n :]
    hand = cards_of_mask(mask)
    if isinstance(stock, tuple):
        public_stock: tuple[Card, ...] | None = stock
        stock_size = len(stock)
    else:
        public_stock, stock_size = None, stock
    legal = (
        legal_list(opts, phase, mask, taken, stock_size, len(pile), turnovers)
        if to_act == seat
        else ()
    )
    return KnockRummyObservation(
        game=opts.game_name,
        options=opts,
        seat=seat,
        hand_number=hand_number,
        dealer=dealer,
        to_act=to_act,
        phase=phase,
        hand=hand,
        arrangement=arrange(hand, opts.high_aces),
        discard_pile=pile,
        stock_size=stock_size,
        public_stock=public_stock,
        hand_sizes=hand_sizes,
        known_cards=tuple(cards_of_mask(k) for k in known),
        taken_discard=taken,
        turnovers=turnovers,
        totals=totals,
        last_result=last_result,
        events=tuple(seen[:seen_len]),
        legal_actions=legal,
        winners=winners,
    )


class PrefixMasks:
    """The card mask of a list of cards, remembered for the list last seen and each of
    its prefixes. A pile or a stock changes only at its top from one step to the next, so
    the mask of the next list is usually one prefix of the last (a card taken) or it
    plus a card or two (a card put down), instead of a card-by-card sum of the whole list.
    The answer depends only on the list's content: any other list is summed afresh."""

    __slots__ = ("masks", "seen")

    def __init__(self) -> None:
        self.seen: list[int] = []
        self.masks: list[int] = [0]  # masks[k]: the mask of seen[:k]

    def __call__(self, cards: list[int]) -> int:
        n = len(cards)
        seen = self.seen
        k = len(seen)
        if n <= k:
            if seen[:n] == cards:
                # A card taken: forget the rest, so that the next card put down extends.
                del seen[n:], self.masks[n + 1 :]
                return self.masks[n]
        elif seen == cards[:k]:
            masks = self.masks
            m = masks[k]
            for c in cards[k:]:
                m |= _BIT[c]
                masks.append(m)
            seen.extend(cards[k:])
            return m
        # Anything else (a new deal, a card taken then another put down): keep the longest
        # common prefix and add the rest.
        common = 0
        top = min(n, k)
        while common < top and seen[common] == cards[common]:
            common += 1
        del seen[common:], self.masks[common + 1 :]
        return self(cards)


class KrTensors:
    """Writes one seat's vector and mask from a core table (the layout of
    ``encoder``, the indices of ``codec``), reading only what that seat may see."""

    def __init__(self, encoder: ObservationEncoder, codec: ActionCodec, opts: Any) -> None:
        at = {b.name: b.offset for b in encoder.layout}
        self.size = encoder.size
        self.players = n = encoder.players
        self.two = n == 2
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
        self.phase_bit = {p: 1 << (at["phase"] + i) for i, p in enumerate(PHASES)}
        # Per viewer, the phase's, the dealer's and the seat to act's bits together (by
        # phase, dealer, seat to act or None): one lookup and one OR in observe.
        self.per_seat = [
            (
                self.known_shift[s],
                {
                    p: [
                        {
                            t: bit
                            | self.dealer_bit[s][d]
                            | (0 if t is None else self.to_act_bit[s][t])
                            for t in (None, *range(n))
                        }
                        for d in range(n)
                    ]
                    for p, bit in self.phase_bit.items()
                },
            )
            for s in range(n)
        ]
        # The scalars' parts that repeat, as packed by tensors (see _tail_parts).
        self.tail_parts: dict[tuple[int, ...], tuple[tuple[float, ...], tuple[float, ...]]] = {}
        for name in ("discard_top", "public_stock_top", "taken_discard"):
            _TOP.setdefault(at[name], tuple(1 << (at[name] + c) for c in range(52)))
        self.pile_at = at["discard_pile"]
        self.top_at = at["discard_top"]
        self.stock_at = at["public_stock"]
        self.stock_top_at = at["public_stock_top"]
        self.taken_at = at["taken_discard"]
        self.high = bool(opts.high_aces)
        self.fields = _full_tables(self.high)
        self.target = float(opts.target)
        limit = opts.knock_limit
        self.options_tail = [
            float(opts.high_aces),
            0.0 if limit is None else 1.0,
            0.0 if limit is None else min(limit / 100.0, 1.0),
        ]
        # legal_bits shifts the core's legal card masks to these indices.
        index = codec._index
        assert (index[DRAW_STOCK], index[DRAW_PILE], index[RUMMY_NO_DISCARD]) == (0, 1, _AT_RUMMY)
        for c in range(52):
            assert index[DISCARDS[c]] == _AT_DISCARD + c and index[KNOCKS[c]] == _AT_KNOCK + c
            assert index[RUMMIES[c]] == _AT_RUMMY + 1 + c
        # The scalars' slots: the vector's tail, written by one struct call into its buffer
        # (float32, the machine's order, as numpy's float32 array holds it).
        self.tail_at = 4 * self.bits_len
        tail = self.size - self.bits_len
        assert tail == 2 * n + 3 + len(self.options_tail)
        self._pack_tail = struct.Struct(f"={tail}f").pack_into
        self.codec = codec
        self.fixed = codec.fixed
        self.mask_size = codec.size
        self.mask_bytes = (codec.size + 7) // 8
        # The mask's bits go after the whole vector's slots, at a byte boundary.
        self.mask_at = 8 * ((self.size + 7) // 8)
        self.all_bytes = self.mask_at // 8 + self.mask_bytes
        self._pile = PrefixMasks()
        self._stock = PrefixMasks()
        # The bit string's bytes are copied here, then unpacked (cheaper than frombuffer).
        self._bytes = np.zeros(self.all_bytes, dtype=np.uint8)
        self._bytes_view = memoryview(self._bytes)  # type: ignore[arg-type]

    def vector(self, core: Any, seat: int) -> Vector:
        return self.tensors(core, seat, 0)[0]

    def tensors(self, core: Any, seat: int, legal: int) -> tuple[Vector, Mask]:
        """The seat's vector and the mask of the ``legal`` bits (:meth:`legal_bits`),
        unpacked together from one bit string (one numpy call instead of two)."""
        vec, mask, _ = self.observe(core, seat, legal)
        return vec, mask

    def observe(self, core: Any, seat: int, legal: int | None) -> tuple[Vector, Mask, int]:
        """:meth:`tensors`, and the legal bits; with ``legal`` ``None`` they are worked
        out here (:meth:`legal_bits`, handing the core's ``legal_masks`` the hand's count,
        which the vector needs too)."""
        hands = core.hands
        hand = hands[seat]
        a, b, c, d = hand & _SUIT, (hand >> 13) & _SUIT, (hand >> 26) & _SUIT, hand >> 39
        points, m0, m1, m2, m3 = self.fields
        # Each suit alone (as melded_count), from the whole tables: the layout when no
        # rank is held three or four times, and melded_count's first choice (no set)
        # when one is.
        count = points[a] + points[b] + points[c] + points[d]
        melded = m0[a] | m1[b] | m2[c] | m3[d]
        trip = (a & b & (c | d)) | (c & d & (a | b))
        if not trip:
            pass  # the hot case
        elif trip & (trip - 1):  # two ranks held 3+ times: rare
            count, melded = melded_count(hand, self.high)
            melded <<= 52
        else:
            # One rank held 3+ times: melded_count's other choices in its order (the set
            # of all its cards, then each set of three of a four); the first lowest
            # count wins, so a later choice must be strictly lower.
            full = (a & trip) | (b & trip) << 13 | (c & trip) << 26 | (d & trip) << 39
            if a & b & c & d & trip:
                choices: tuple[int, ...] = (
                    full,
                    full ^ trip,
                    full ^ trip << 13,
                    full ^ trip << 26,
                    full ^ trip << 39,
                )
            else:
                choices = (full,)
            for used in choices:
                r = hand ^ used
                fa, fb, fc, fd = r & _SUIT, (r >> 13) & _SUIT, (r >> 26) & _SUIT, r >> 39
                got = points[fa] + points[fb] + points[fc] + points[fd]
                if got < count:
                    count = got
                    melded = used << 52 | m0[fa] | m1[fb] | m2[fc] | m3[fd]
        if legal is None:  # legal_bits, inline, with the count
            if core.to_act == seat:  # legal_masks by phase: its halves, called directly
                if core.phase == DRAW:
                    draws, discards, knocks, rummies = draw_masks(
                        len(core.stock), len(core.pile), core.turnovers
                    )
                else:  # the seat to act is drawing or discarding
                    draws, discards, knocks, rummies = discard_masks(
                        core.opts, hand, core.taken, count
                    )
                legal = draws | discards << _AT_DISCARD | knocks << _AT_KNOCK | rummies << _AT_RUMMY
            else:
                legal = 0
        known_shift, state_bits = self.per_seat[seat]
        bits = (
            hand | melded | legal << self.mask_at | state_bits[core.phase][core.dealer][core.to_act]
        )
        known = core.known
        for other, shift in known_shift:
            bits |= known[other] << shift
        pile = core.pile
        if pile:
            # The pile's mask: PrefixMasks, its usual cases written out here (from one
            # step to the next: one card put down on the pile last seen, the same pile
            # after a draw from the stock, its top taken).
            prefix = self._pile
            seen = prefix.seen
            k = len(seen)
            n = len(pile)
            top = pile[-1]
            if n == k:
                m = prefix.masks[k] if pile == seen else prefix(pile)
            elif n == k + 1 and pile[:k] == seen:
                m = prefix.masks[k] | _BIT[top]
                seen.append(top)
                prefix.masks.append(m)
            elif n == k - 1 and pile == seen[:n]:
                seen.pop()
                masks = prefix.masks
                masks.pop()
                m = masks[n]
            else:
                m = prefix(pile)
            bits |= m << self.pile_at | _TOP[self.top_at][top]
        stock = core.stock
        if core.public and stock:
            bits |= self._stock(stock) << self.stock_at | _TOP[self.stock_top_at][stock[-1]]
        taken = core.taken
        if taken is not None:
            bits |= _TOP[self.taken_at][taken]
        # One numpy call unpacks the vector's bits and the mask's (positional arguments:
        # numpy parses keywords slowly), from bytes written into a kept buffer.
        self._bytes_view[:] = bits.to_bytes(self.all_bytes, "little")
        unpacked = _unpack(self._bytes, None, None, "little")
        vec = unpacked[: self.size].astype(_F32)
        # The scalars after the 0/1 blocks, packed straight into the vector's tail by one
        # struct call: the hand sizes and the totals with the options repeat (kept per
        # hand sizes, viewer and totals: a few per hand); the stock size, the turn-overs
        # and the count come from tables. (A kept float32 row per whole combination
        # missed about half the time, as the count and the stock size vary, and numpy
        # made each missing row slowly.)
        if self.two:  # (map over two hands costs about three times as much)
            totals = core.totals
            key = (_bit_count(hands[0]), _bit_count(hands[1]), seat, totals[0], totals[1])
        else:
            key = (*map(_bit_count, hands), seat, *core.totals)
        parts = self.tail_parts.get(key)
        if parts is None:
            parts = self._tail_parts(key)
        head, rest = parts
        self._pack_tail(
            vec,  # type: ignore[arg-type]  # numpy's arrays are writable buffers
            self.tail_at,
            *head,
            _STOCK[len(stock)],
            _TURNOVERS[core.turnovers],
            _COUNT[count],
            *rest,
        )
        mask_at = self.mask_at
        return vec, unpacked[mask_at : mask_at + self.mask_size].view(_I8), legal

    def _tail_parts(self, key: tuple[int, ...]) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """For ``key`` (every hand's size in seat order, the viewer, every total): the
        hand sizes' slots, and the totals' slots (divided by the target, clipped) with
        the options', each in table order from the viewer."""
        n = self.players
        order = self.order[key[n]]
        clip = TOTAL_CLIP
        totals = key[n + 1 :]
        head = tuple(_SIZE[key[s]] for s in order)
        rest = (
            *(
                -clip if t < -clip else clip if t > clip else t
                for t in [totals[s] / self.target for s in order]
            ),
            *self.options_tail,
        )
        if len(self.tail_parts) >= 100_000:  # a bound on the memory, rarely reached
            self.tail_parts.clear()
        self.tail_parts[key] = head, rest
        return head, rest

    def legal_bits(self, core: Any, seat: int) -> int:
        """The legal action indices of ``seat`` as bits of an int (0 off its turn), from
        the core's :func:`legal_masks` (its card masks shifted to the codec's indices)."""
        if core.to_act != seat:
            return 0
        draws, discards, knocks, rummies = legal_masks(
            core.opts,
            core.phase,
            core.hands[seat],
            core.taken,
            len(core.stock),
            len(core.pile),
            core.turnovers,
        )
        return draws | discards << _AT_DISCARD | knocks << _AT_KNOCK | rummies << _AT_RUMMY

    def mask(self, bits: int) -> Mask:
        return np.unpackbits(
            np.frombuffer(bits.to_bytes(self.mask_bytes, "little"), dtype=np.uint8),
            count=self.mask_size,
            bitorder="little",
        ).view(np.int8)

    def decode(self, index: Any, bits: int) -> Any:
        """The engine action of a legal index (``bits``: :meth:`legal_bits`); anything
        else raises :class:`IllegalIndexError` saying why."""
        if type(index) is int and 0 <= index < self.mask_size and bits >> index & 1:
            return self.fixed[index]  # the usual case: a legal int
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
