"""Exact Knock Rummy meld evaluation (ruling KR2), table-driven for the bots' hot path.

A hand is a 52-bit mask (bit = card index), i.e. four 13-bit suit fields with the
ace in bit 0. Within one suit, once the sets are fixed, the best runs are simple:
every maximal block of 3+ consecutive ranks melds whole (leaving any card out only
adds points), shorter blocks are deadwood. So one 8192-entry table per ace rule
gives a suit's deadwood, and the only search left is which cards go into sets:
for each rank held 3 or 4 times, "no set", "all four" or one of the 3-card sets.
With High Aces the ace sits either below the 2 or above the king, never both, so
the high table is the better of the two placements.

>>> from deadwood_knock.cards import parse_cards
>>> count(parse_cards("As 2s 3s Qs Ks 7h 7d 7c 9c 9d"))
38
>>> count(parse_cards("As 2s 3s Qs Ks 7h 7d 7c 9c 9d"), high_aces=True)
23
>>> best_discard_count(parse_cards("As 2s 3s 4h 4d 4c 8c 8d 8h Kd 5c"))
(5, Kd)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import product
from typing import Final

from deadwood_knock.cards import CARDS, Card
from deadwood_knock.games.points import RANK_VALUE, card_value

__all__ = [
    "Arrangement",
    "arrange",
    "best_discard_count",
    "best_discard_mask",
    "card_value",
    "count",
    "count_mask",
    "hand_mask",
    "min_arrangements",
    "min_layout_masks",
    "run_positions",
]

SUIT_BITS: Final = 0x1FFF
_BIG: Final = 1 << 30
_BIT: Final = tuple(1 << i for i in range(52))


def _block_deadwood(mask: int, values: Sequence[int]) -> int:
    """Deadwood of one suit line: cards in maximal blocks shorter than 3."""
    total = run = run_sum = 0
    for pos, value in enumerate(values):
        if mask >> pos & 1:
            run += 1
            run_sum += value
        else:
            if run < 3:
                total += run_sum
            run = run_sum = 0
    return total + (run_sum if run < 3 else 0)


# Line with the ace moved above the king: positions 0..11 are 2..K, 12 is the ace.
_HIGH_LINE_VALUES: Final = (*RANK_VALUE[1:], 1)


def _to_high_line(mask: int) -> int:
    return (mask >> 1) | ((mask & 1) << 12)


def _build_tables() -> tuple[tuple[int, ...], tuple[int, ...]]:
    low = tuple(_block_deadwood(m, RANK_VALUE) for m in range(1 << 13))
    high = tuple(
        min(low[m], _block_deadwood(_to_high_line(m), _HIGH_LINE_VALUES)) if m & 1 else low[m]
        for m in range(1 << 13)
    )
    return low, high


_T_LOW, _T_HIGH = _build_tables()


def _build_drop(table: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per suit mask: the lowest deadwood after removing one card, and which bit.

    Ties go to the card worth most, then the higher rank, so discards are stable.
    """
    best: list[int] = [_BIG] * (1 << 13)
    which: list[int] = [-1] * (1 << 13)
    for m in range(1, 1 << 13):
        b_val, b_bit = _BIG, -1
        rest = m
        while rest:
            low_bit = rest & -rest
            rest ^= low_bit
            pos = low_bit.bit_length() - 1
            value = table[m ^ low_bit]
            # Later (higher) positions win ties: their value is never lower.
            if value <= b_val:
                b_val, b_bit = value, pos
        best[m], which[m] = b_val, b_bit
    return tuple(best), tuple(which)


_DROP_LOW, _DROPBIT_LOW = _build_drop(_T_LOW)
_DROP_HIGH, _DROPBIT_HIGH = _build_drop(_T_HIGH)

# best_discard_count ranks every (set choice, discard) by one small int, smaller is
# better: (count after the discard) * 64 - (the discard's tie rank + 1), where the tie
# rank orders the 52 cards by deadwood value, then index. So the lowest count wins and
# ties keep the costlier, then the higher, card. Per ace rule: the suit table times 64
# plus _T_OFFSET, and per suit s the best discard's share of that key (change in the
# suit's deadwood * 64 - tie rank - 1), huge for no card. A key always sums four suit
# table entries, so it carries 4 * _T_OFFSET, which keeps it >= 0: it indexes
# _DISCARD_RESULT, the answer prebuilt (building the tuple per call cost a fifth).
_NO_CARD: Final = 1 << 40
_T_OFFSET: Final = 16
_TIE_ORDER: Final = tuple(sorted(range(52), key=lambda c: (RANK_VALUE[c % 13], c)))
_TIE_RANK: Final = tuple(_TIE_ORDER.index(c) for c in range(52))
_Table = tuple[int, ...]
_DiscardTables = tuple[_Table, _Table, _Table, _Table, _Table]


def _build_discard(table: Sequence[int], drop: Sequence[int], bit: Sequence[int]) -> _DiscardTables:
    def per_suit(s: int) -> _Table:
        return tuple(
            ((drop[f] - table[f]) << 6) - _TIE_RANK[13 * s + bit[f]] - 1 if f else _NO_CARD
            for f in range(1 << 13)
        )

    base = tuple((t << 6) + _T_OFFSET for t in table)
    return base, per_suit(0), per_suit(1), per_suit(2), per_suit(3)


_DISCARD_LOW: Final = _build_discard(_T_LOW, _DROP_LOW, _DROPBIT_LOW)
_DISCARD_HIGH: Final = _build_discard(_T_HIGH, _DROP_HIGH, _DROPBIT_HIGH)


def _build_discard_result() -> tuple[tuple[int, Card] | None, ...]:
    """Key -> (count, discard); a count never exceeds the whole deck's 340 points."""
    out: list[tuple[int, Card] | None] = [None] * (341 * 64 + 4 * _T_OFFSET)
    for n in range(341):
        for c in range(52):
            out[n * 64 - _TIE_RANK[c] - 1 + 4 * _T_OFFSET] = (n, CARDS[c])
    return tuple(out)


_DISCARD_RESULT: Final = _build_discard_result()


def hand_mask(cards: Iterable[int]) -> int:
    """The 52-bit mask of a hand (jokers are not part of this game)."""
    m = 0
    for c in cards:
        m |= _BIT[c]
    return m


def _set_options(m: int, trip: int) -> list[list[int]]:
    """For each rank held 3+ times: the card masks it may contribute as a set (0 = none)."""
    options: list[list[int]] = []
    while trip:
        low_bit = trip & -trip
        trip ^= low_bit
        rank = low_bit.bit_length() - 1
        holders = [rank + 13 * s for s in range(4) if m >> (rank + 13 * s) & 1]
        opts = [0]
        full = 0
        for c in holders:
            full |= 1 << c
        opts.append(full)
        if len(holders) == 4:
            opts.extend(full ^ (1 << c) for c in holders)
        options.append(opts)
    return options


def _trips(m: int) -> int:
    a, b, c, d = m & SUIT_BITS, (m >> 13) & SUIT_BITS, (m >> 26) & SUIT_BITS, m >> 39
    return (a & b & (c | d)) | (c & d & (a | b))


_memo_low: dict[int, int] = {}
_memo_high: dict[int, int] = {}
#: best_discard_mask's answers for hands with two or more ranks held 3+ times.
_discard_memo_low: dict[int, tuple[int, Card]] = {}
_discard_memo_high: dict[int, tuple[int, Card]] = {}
_MEMO_CAP: Final = 1 << 20


def _field_combos(m: int, trip: int) -> list[tuple[int, int, int, int]]:
    """The four suit fields left over after every choice of sets (order: no set first)."""
    a, b, c, d = m & SUIT_BITS, (m >> 13) & SUIT_BITS, (m >> 26) & SUIT_BITS, m >> 39
    combos = [(a, b, c, d)]
    while trip:
        bit = trip & -trip
        trip ^= bit
        held = (a & bit, b & bit, c & bit, d & bit)
        opts = [held]
        if a & b & c & d & bit:
            opts += [(0, bit, bit, bit), (bit, 0, bit, bit), (bit, bit, 0, bit), (bit, bit, bit, 0)]
        combos += [
            (fa ^ oa, fb ^ ob, fc ^ oc, fd ^ od)
            for fa, fb, fc, fd in combos
            for oa, ob, oc, od in opts
        ]
    return combos


def _count_with_sets(m: int, trip: int, table: Sequence[int]) -> int:
    a, b, c, d = m & SUIT_BITS, (m >> 13) & SUIT_BITS, (m >> 26) & SUIT_BITS, m >> 39
    if trip.bit_count() == 2 and not a & b & c & d & trip:
        # Two ranks held three times each (the usual case here): _field_combos' four set
        # choices (neither, either, both) as masks kept, without building the combos; the
        # count is their minimum, whatever the order (issue 17, branch fast18).
        low = trip & -trip
        best = table[a] + table[b] + table[c] + table[d]
        for keep in (SUIT_BITS ^ low, SUIT_BITS ^ trip ^ low, SUIT_BITS ^ trip):
            v = table[a & keep] + table[b & keep] + table[c & keep] + table[d & keep]
            if v < best:
                best = v
        return best
    return min(table[a] + table[b] + table[c] + table[d] for a, b, c, d in _field_combos(m, trip))


def count_mask(m: int, high_aces: bool = False) -> int:
    """The count (lowest deadwood) of the hand with this 52-bit mask."""
    table = _T_HIGH if high_aces else _T_LOW
    a, b, c, d = m & SUIT_BITS, (m >> 13) & SUIT_BITS, (m >> 26) & SUIT_BITS, m >> 39
    trip = (a & b & (c | d)) | (c & d & (a | b))
    if not trip:
        return table[a] + table[b] + table[c] + table[d]
    if not trip & (trip - 1):
        # One rank held 3+ times (the usual case): try its few set choices inline.
        ta, tb, tc, td = table[a], table[b], table[c], table[d]
        xa = table[a ^ trip] if a & trip else ta
        xb = table[b ^ trip] if b & trip else tb
        xc = table[c ^ trip] if c & trip else tc
        xd = table[d ^ trip] if d & trip else td
        best = ta + tb + tc + td
        every = xa + xb + xc + xd
        if every < best:
            best = every
        if a & b & c & d & trip:
            # Four of a kind: also every set of three, the fourth left to its suit.
            for kept in (every - xa + ta, every - xb + tb, every - xc + tc, every - xd + td):
                if kept < best:
                    best = kept
        return best
    memo = _memo_high if high_aces else _memo_low
    found = memo.get(m)
    if found is None:
        if len(memo) >= _MEMO_CAP:
            memo.clear()
        found = memo[m] = _count_with_sets(m, trip, table)
    return found


# Per suit field: the points of its cards (for the count's floor in ``core.KrTable._draw``).
_FIELD_POINTS: Final = tuple(
    sum(RANK_VALUE[r] for r in range(13) if f >> r & 1) for f in range(1 << 13)
)


def count(cards: Iterable[int], high_aces: bool = False) -> int:
    """The count of a hand (distinct cards, as any hand is): its lowest deadwood over all
    ways to arrange it."""
    if type(cards) is tuple and len(cards) == 10:
        # The two-player hand, spelled out: a fifth faster than the loop (hot path).
        c0, c1, c2, c3, c4, c5, c6, c7, c8, c9 = cards
        bit = _BIT
        m = (
            bit[c0] + bit[c1] + bit[c2] + bit[c3] + bit[c4]
            + bit[c5] + bit[c6] + bit[c7] + bit[c8] + bit[c9]
        )  # fmt: skip
    else:
        m = 0
        bit = _BIT
        for card in cards:  # a plain loop beats sum(map(...)) for ~10 items here
            m |= bit[card]
    # The no-set case is inlined: it is most hands, and a call costs as much as it.
    a, b, c, d = m & 0x1FFF, (m >> 13) & 0x1FFF, (m >> 26) & 0x1FFF, m >> 39
    trip = (a & b & (c | d)) | (c & d & (a | b))
    table = _T_HIGH if high_aces else _T_LOW
    if not trip:
        return table[a] + table[b] + table[c] + table[d]
    if trip & (trip - 1) or a & b & c & d & trip:
        return count_mask(m, high_aces)
    # Exactly three cards of one rank: that set or no set (count_mask's case, inlined).
    keep = 0x1FFF ^ trip  # not ~trip: a negative int makes every & slower
    plain = table[a] + table[b] + table[c] + table[d]
    melded = table[a & keep] + table[b & keep] + table[c & keep] + table[d & keep]
    return melded if melded < plain else plain


def best_discard_count(cards: Sequence[Card], high_aces: bool = False) -> tuple[int, Card]:
    """For a hand holding one card too many: the lowest count after one discard, and
    that discard (ties: the discard worth most, then the highest card index).

    Exact: a discard out of a set is the same as not taking that set (or taking the
    other three of four) and discarding from what is left, so it is enough to search
    set choices x one removal from the left-over suit fields, which the drop tables
    answer per suit.
    """
    bit = _BIT
    if len(cards) == 11:
        # The two-player hand after a draw, spelled out (hot path; cards are distinct).
        c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10 = cards
        m = (
            bit[c0] + bit[c1] + bit[c2] + bit[c3] + bit[c4] + bit[c5]
            + bit[c6] + bit[c7] + bit[c8] + bit[c9] + bit[c10]
        )  # fmt: skip
    elif not cards:
        raise ValueError("best_discard_count needs at least one card")
    else:
        m = 0
        for card in cards:  # a plain loop beats sum(map(...)) for ~10 items here
            m |= bit[card]
    return best_discard_mask(m, high_aces)


def best_discard_mask(m: int, high_aces: bool = False) -> tuple[int, Card]:
    """:func:`best_discard_count` of the hand with this (non-empty) 52-bit mask: the
    playouts hold their hands as masks, so they ask without making a card list."""
    t, g0, g1, g2, g3 = _DISCARD_HIGH if high_aces else _DISCARD_LOW
    a, b, c, d = m & 0x1FFF, (m >> 13) & 0x1FFF, (m >> 26) & 0x1FFF, m >> 39
    trip = (a & b & (c | d)) | (c & d & (a | b))
    if not trip:
        # min() spelled out: cheaper than a builtin call for four values (hot path).
        key = g0[a]
        if g1[b] < key:
            key = g1[b]
        if g2[c] < key:
            key = g2[c]
        if g3[d] < key:
            key = g3[d]
        key += t[a] + t[b] + t[c] + t[d]
    elif trip & (trip - 1):  # two or more ranks held 3+ times: every set choice
        # Memoised as count_mask's same case is: the playouts keep their sets, so the
        # same two-set hand is asked again and again, and its 4 to 36 set choices cost
        # about 7% of a Knock Rummy search (issue 17, branch fast18).
        memo = _discard_memo_high if high_aces else _discard_memo_low
        found = memo.get(m)
        if found is not None:
            return found
        key = _NO_CARD
        # Two ranks held three times each: the four set choices as masks kept (as in
        # _count_with_sets); the minimum key is the same whatever the order.
        if trip.bit_count() == 2 and not a & b & c & d & trip:
            low = trip & -trip
            choices = [
                (a & k, b & k, c & k, d & k)
                for k in (SUIT_BITS, SUIT_BITS ^ low, SUIT_BITS ^ trip ^ low, SUIT_BITS ^ trip)
            ]
        else:
            choices = _field_combos(m, trip)
        for fa, fb, fc, fd in choices:
            k = g0[fa]  # minimums spelled out, as above
            if g1[fb] < k:
                k = g1[fb]
            if g2[fc] < k:
                k = g2[fc]
            if g3[fd] < k:
                k = g3[fd]
            k += t[fa] + t[fb] + t[fc] + t[fd]
            if k < key:
                key = k
        if len(memo) >= _MEMO_CAP:
            memo.clear()
        got = _DISCARD_RESULT[key]
        assert got is not None  # every reachable key is set
        memo[m] = got
        return got
    else:
        # One rank held 3+ times (the usual case): its set choices inline, as in count_mask.
        keep = 0x1FFF ^ trip  # not ~trip: a negative int makes every & slower
        xa, xb, xc, xd = a & keep, b & keep, c & keep, d & keep
        every = t[xa] + t[xb] + t[xc] + t[xd]
        key = g0[a]  # no set (minimums spelled out, as above)
        if g1[b] < key:
            key = g1[b]
        if g2[c] < key:
            key = g2[c]
        if g3[d] < key:
            key = g3[d]
        key += t[a] + t[b] + t[c] + t[d]
        k = g0[xa]  # the set of all held
        if g1[xb] < k:
            k = g1[xb]
        if g2[xc] < k:
            k = g2[xc]
        if g3[xd] < k:
            k = g3[xd]
        if every + k < key:
            key = every + k
        if a & b & c & d & trip:
            # Four of a kind: also each set of three, the fourth card left in its suit.
            key = min(
                key,
                every - t[xa] + t[a] + min(g0[a], g1[xb], g2[xc], g3[xd]),
                every - t[xb] + t[b] + min(g0[xa], g1[b], g2[xc], g3[xd]),
                every - t[xc] + t[c] + min(g0[xa], g1[xb], g2[c], g3[xd]),
                every - t[xd] + t[d] + min(g0[xa], g1[xb], g2[xc], g3[d]),
            )
    return _DISCARD_RESULT[key]  # type: ignore[return-value]  # every reachable key is set


@dataclass(frozen=True, slots=True)
class Arrangement:
    """One way to lay a hand out: melds (sets and runs) and the deadwood left over."""

    deadwood_points: int
    melds: tuple[tuple[Card, ...], ...]
    deadwood: tuple[Card, ...]

    @property
    def rummy(self) -> bool:
        """Every card is matched."""
        return not self.deadwood

    def to_json(self) -> dict[str, object]:
        return {
            "count": self.deadwood_points,
            "melds": [[str(c) for c in meld] for meld in self.melds],
            "deadwood": [str(c) for c in self.deadwood],
            "rummy": self.rummy,
        }


def _blocks(mask: int, high_line: bool) -> list[list[int]]:
    """Maximal blocks of consecutive positions in a suit line, as rank indices."""
    out: list[list[int]] = []
    current: list[int] = []
    for pos in range(13):
        if mask >> pos & 1:
            current.append((pos + 1) % 13 if high_line else pos)
        else:
            if current:
                out.append(current)
            current = []
    if current:
        out.append(current)
    return out


_Layout = tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]


@cache
def _suit_layouts(field: int, high_aces: bool) -> tuple[_Layout, ...]:
    """Every min-deadwood layout of one suit field: (runs, deadwood) as rank indices.
    At most two (the ace low or high); cached, there are only 2 x 8192 fields."""
    target = (_T_HIGH if high_aces else _T_LOW)[field]
    lines = [(field, False)]
    if high_aces and field & 1:
        lines.append((_to_high_line(field), True))
    out: list[_Layout] = []
    for line, is_high in lines:
        runs: list[tuple[int, ...]] = []
        dead: list[int] = []
        for block in _blocks(line, is_high):
            if len(block) >= 3:
                runs.append(tuple(block))
            else:
                dead.extend(block)
        if sum(RANK_VALUE[r] for r in dead) == target:
            out.append((tuple(runs), tuple(sorted(dead))))
    return tuple(out)


def _meld_key(meld: tuple[Card, ...]) -> tuple[bool, tuple[int, ...]]:
    """Sets first, then runs; each group in card order."""
    return (meld[0] % 13 != meld[1] % 13, tuple(meld))


def _layouts(cards: Iterable[int], high_aces: bool, first_only: bool) -> list[Arrangement]:
    m = hand_mask(cards)
    table = _T_HIGH if high_aces else _T_LOW
    trip = _trips(m)
    best = count_mask(m, high_aces)
    results: list[Arrangement] = []
    combos = product(*_set_options(m, trip)) if trip else ((),)
    for combo in combos:
        r = m
        for used in combo:
            r ^= used
        fields = [(r >> (13 * s)) & SUIT_BITS for s in range(4)]
        if table[fields[0]] + table[fields[1]] + table[fields[2]] + table[fields[3]] != best:
            continue
        set_melds = [tuple(CARDS[i] for i in range(52) if used >> i & 1) for used in combo if used]
        per_suit = [_suit_layouts(f, high_aces) for f in fields]
        for choice in product(*per_suit):
            melds = list(set_melds)
            dead: list[Card] = []
            for s, (runs, dead_ranks) in enumerate(choice):
                base = 13 * s
                melds.extend(tuple(CARDS[base + rk] for rk in run) for run in runs)
                dead.extend(CARDS[base + rk] for rk in dead_ranks)
            melds.sort(key=_meld_key)
            results.append(Arrangement(best, tuple(melds), tuple(dead)))
            if first_only:
                return results
    return results


#: A lowest-deadwood layout as :func:`min_layout_masks` gives it: the masks of its sets,
#: and its runs as (suit, ranks along the suit line).
LayoutMasks = tuple[tuple[int, ...], tuple[tuple[int, tuple[int, ...]], ...]]


def min_layout_masks(m: int, high_aces: bool = False) -> tuple[LayoutMasks, ...]:
    """The melds of every layout :func:`min_arrangements` gives for the hand with mask
    ``m``, in its order, without building the cards: per layout the sets' masks and the
    runs as (suit, ranks). Gin's settlement in the playouts asks only where the defender
    could lay off, and building :class:`Arrangement` objects was most of its cost there
    (issue 17, branch fast18); ``tests/test_search_fast.py`` checks the two agree."""
    memo = _layout_memo_high if high_aces else _layout_memo_low
    found = memo.get(m)
    if found is not None:
        return found
    table = _T_HIGH if high_aces else _T_LOW
    trip = _trips(m)
    best = count_mask(m, high_aces)
    out: list[LayoutMasks] = []
    combos = product(*_set_options(m, trip)) if trip else ((),)
    for combo in combos:
        r = m
        for used in combo:
            r ^= used
        f0, f1, f2, f3 = r & SUIT_BITS, (r >> 13) & SUIT_BITS, (r >> 26) & SUIT_BITS, r >> 39
        if table[f0] + table[f1] + table[f2] + table[f3] != best:
            continue
        sets = tuple(used for used in combo if used)
        per_suit = [_suit_layouts(f, high_aces) for f in (f0, f1, f2, f3)]
        for choice in product(*per_suit):
            runs = tuple((s, run) for s, (runs_s, _) in enumerate(choice) for run in runs_s)
            out.append((sets, runs))
    # Memoised (a knocking hand is often settled again: the seat's own knock, on every
    # sample); the answer is a tuple, so no caller can change what the memo holds.
    if len(memo) >= _LAYOUT_CAP:
        memo.clear()
    found = memo[m] = tuple(out)
    return found


_layout_memo_low: dict[int, tuple[LayoutMasks, ...]] = {}
_layout_memo_high: dict[int, tuple[LayoutMasks, ...]] = {}
_LAYOUT_CAP: Final = 1 << 16


def min_arrangements(cards: Iterable[int], high_aces: bool = False) -> list[Arrangement]:
    """Every lowest-deadwood arrangement, up to splitting long runs (which never
    changes the deadwood or where cards can be added). Runs are maximal blocks."""
    return _layouts(cards, high_aces, first_only=False)


def arrange(cards: Sequence[Card], high_aces: bool = False) -> Arrangement:
    """The hand laid out with the lowest possible deadwood (KR2).

    When several layouts tie, the first found wins (set choices are tried from "no
    set" upward; with High Aces the ace is tried low first). Sets come before runs
    in ``melds``; runs are in rank order.
    """
    # The answer depends only on the hand's mask; observations ask again for the same
    # hand turn after turn, so recent answers are kept (they are immutable).
    key = hand_mask(cards) << 1 | high_aces
    found = _arranged.get(key)
    if found is None:
        if len(_arranged) >= _ARRANGED_CAP:
            _arranged.clear()
        found = _arranged[key] = _layouts(cards, high_aces, first_only=True)[0]
    return found


_arranged: dict[int, Arrangement] = {}
_ARRANGED_CAP: Final = 1 << 16


def run_positions(meld: Sequence[Card]) -> tuple[int, int] | None:
    """For a run, its (low, high) positions on the suit line where 13 is a high ace;
    ``None`` for a set."""
    if len(meld) < 3 or meld[0] % 13 == meld[1] % 13:
        return None
    positions = [c % 13 for c in meld]
    if positions[-1] == 0 and positions[0] != 0:
        positions[-1] = 13
    return positions[0], positions[-1]
