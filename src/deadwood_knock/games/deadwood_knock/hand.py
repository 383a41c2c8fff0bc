"""The Deadwood Knock hand evaluator (ruling DK3): poker hand, deadwood, score, knock count.

A hand (normally 8 cards, any 5..9 with up to two jokers) is split into a *poker hand*
and *deadwood*. A legal poker hand is any 5 non-joker cards, or 6..8 non-joker cards
that are all one suit or form one straight of distinct consecutive ranks (ace high or
low, never K-A-2). Hand points come from the best 5-card poker hand inside it; every
card outside it is deadwood (A 1, 2..10 face value, J/Q/K 10, joker -2).

* The **scoring split** maximises ``hand points - deadwood``; ties go to the stronger
  5-card poker hand, then (only so the choice is deterministic) to the poker hand whose
  card indices, sorted, come first.
* The **knock count** is the lowest deadwood over all legal splits; knocking needs 11 or less.

Speed: this is the bots' hot path. Everything that does not depend on suits is looked up
by one integer key summed from per-card codes (base-5 rank counts, plus a joker count).
The table for 8-card hands ships generated (``dk_table.bin``, see ``tablegen``) and loads
at import; any other key is filled on first use from a 5-card table by a memoised "drop
one card" recursion (the best 5-card pick of a multiset is the best pick of one of its
one-card-smaller sub-multisets). Only a hand holding 5+ cards of one suit takes a slower
exact branch, where "all cards of that suit" dominates every subset of it.

>>> from deadwood_knock.cards import parse_cards
>>> r = evaluate(parse_cards("As Ah 7c 7d Kd 2s JK 9h"))
>>> r.category, r.hand_points, r.deadwood_points, r.score, r.knock_count
('two_pair', 30, 9, 21, 0)
"""

from __future__ import annotations

import functools
import itertools
import operator
import struct
import sys
import zlib
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Final

from deadwood_knock.cards import CARDS, Card
from deadwood_knock.games.base import GameError, JSONDict
from deadwood_knock.games.points import CARD_POINTS, JOKER_DEADWOOD, RANK_VALUE, card_value

__all__ = [
    "CATEGORIES",
    "HAND_POINTS",
    "KNOCK_LIMIT",
    "HandEvaluation",
    "IllegalSplitError",
    "best_five",
    "best_five_strength",
    "card_value",
    "evaluate",
    "evaluate_batch",
    "hand_row",
    "is_legal_poker_hand",
    "knock_count",
    "legal_splits",
    "long_hand",
    "reading_order",
    "scoring_split",
    "showdown_split",
    "shown",
    "split_result",
    "strength_from_code",
    "warm_tables",
]

CATEGORIES: Final = (
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "royal_flush",
)
HAND_POINTS: Final = (0, 15, 30, 40, 50, 60, 70, 85, 100, 120)
#: Each category in words, for hints, the CLI and the terminal client ("a full house").
CATEGORY_WORDS: Final = dict(
    zip(
        CATEGORIES,
        (
            "high card",
            "a pair",
            "two pair",
            "three of a kind",
            "a straight",
            "a flush",
            "a full house",
            "four of a kind",
            "a straight flush",
            "a royal flush",
        ),
        strict=True,
    )
)
KNOCK_LIMIT: Final = 11


class IllegalSplitError(GameError):
    """A chosen poker hand that DK3 does not allow for this hand."""


_VALUE: Final = CARD_POINTS
_POKER: Final = tuple(0 if i >= 52 else (14 if i % 13 == 0 else i % 13 + 1) for i in range(54))
_RANK_VALUE: Final = RANK_VALUE  # by rank digit (A = 0)
_POW5: Final = tuple(5**d for d in range(14))
_JOKER_UNIT: Final = _POW5[13]  # joker count sits above the 13 base-5 rank digits
_KEY_MASK: Final = (1 << 32) - 1
# Batch path: summing the codes from _SUIT_BIAS puts 3 + count in each suit field, so a
# field's bit 3 is set iff that suit holds 5+ cards; keeping those bits in the lookup key
# makes every such hand miss the table, so the loop needs no separate flush test.
_SUIT_BIAS: Final = 0x3333 << 32
_FLUSH_BITS: Final = 0x8888 << 32
_BATCH_MASK: Final = _KEY_MASK | _FLUSH_BITS

# One code per card; a hand's codes summed give: low 32 bits = rank-count key + jokers *
# 5**13 (the table key), bits 32..47 = four 4-bit per-suit counts.
_BIT: Final = tuple(0 if i >= 52 else 1 << i for i in range(54))
_CODE: Final = tuple(
    _JOKER_UNIT if i >= 52 else _POW5[i % 13] + (1 << (32 + 4 * (i // 13))) for i in range(54)
)

# The flush path's second code: the card's bit, plus its deadwood value + 2 from bit 56
# (so jokers add nothing); summed, they give the card mask and the total deadwood.
_CARD_BITS: Final = (1 << 52) - 1
_FLUSH_CODE: Final = tuple(_BIT[i] | (_VALUE[i] + 2) << 56 for i in range(54))
# Both codes in one int (the flush code from bit 64), so the slow path sums once.
_SLOW_CODE: Final = tuple(_CODE[i] | _FLUSH_CODE[i] << 64 for i in range(54))


# --- strength codes -------------------------------------------------------------------
# A 5-card strength packs into one int: category << 20 then up to five 4-bit poker ranks
# (2..14), most significant first. Int comparison == poker comparison.


def _pack(cat: int, ranks: Sequence[int]) -> int:
    code = cat
    for i in range(5):
        code = (code << 4) | (ranks[i] if i < len(ranks) else 0)
    return code


def strength_from_code(code: int) -> tuple[int, ...]:
    """The comparable strength tuple (category, ranks...) of a packed strength code;
    ``()`` for code 0 (no poker hand at all)."""
    if not code:
        return ()
    ranks = [(code >> (16 - 4 * i)) & 15 for i in range(5)]
    return (code >> 20, *(r for r in ranks if r))


def _straight_top(mask: int) -> int:
    """Top poker rank of the best 5-long run in a poker-rank bitmask (bit 1 = low ace)."""
    for top in range(14, 4, -1):
        if (mask >> (top - 4)) & 31 == 31:
            return top
    return 0


def _code_from(counts: Sequence[int], flush_masks: Iterable[int]) -> int:
    """Best 5-card strength code inside cards given by poker-rank counts (index 2..14)
    and the poker-rank bitmasks of suits holding 5+ cards (flush candidates)."""
    best = 0
    for fm in flush_masks:
        top = _straight_top(fm | ((fm >> 14) & 1) << 1)
        if top:
            best = max(best, _pack(9 if top == 14 else 8, (top,)))
        else:
            best = max(best, _pack(5, [p for p in range(14, 1, -1) if fm >> p & 1][:5]))
    if best >> 20 >= 8:
        return best
    desc = [p for p in range(14, 1, -1) if counts[p]]
    groups = sorted(desc, key=lambda p: counts[p], reverse=True)  # stable: rank desc inside
    top = groups[0]
    if counts[top] >= 4:
        return _pack(7, (top, next(p for p in desc if p != top)))
    if counts[top] == 3:
        pair = next((p for p in desc if p != top and counts[p] >= 2), 0)
        if pair:
            return _pack(6, (top, pair))
    if best:
        return best  # a flush beats everything below a full house
    mask = 0
    for p in desc:
        mask |= 1 << p
    if counts[14]:
        mask |= 2
    st = _straight_top(mask)
    if st:
        return _pack(4, (st,))
    if counts[top] == 3:
        return _pack(3, (top, *[p for p in desc if p != top][:2]))
    pairs = [p for p in desc if counts[p] == 2]
    if len(pairs) >= 2:
        hi, lo = pairs[0], pairs[1]
        return _pack(2, (hi, lo, next(p for p in desc if p not in (hi, lo))))
    if pairs:
        return _pack(1, (pairs[0], *[p for p in desc if p != pairs[0]][:3]))
    return _pack(0, desc[:5])


def _eval_cards(cards: Sequence[int]) -> int:
    """Best 5-card strength code inside 5..9 non-joker cards (suits included)."""
    counts = [0] * 15
    suit_masks = [0, 0, 0, 0]
    suit_n = [0, 0, 0, 0]
    for c in cards:
        p = _POKER[c]
        counts[p] += 1
        s = c // 13
        suit_masks[s] |= 1 << p
        suit_n[s] += 1
    return _code_from(counts, [suit_masks[s] for s in range(4) if suit_n[s] >= 5])


def best_five_strength(poker_hand: Sequence[Card]) -> tuple[int, ...]:
    """Strength (category, ranks with kickers...) of the best 5 cards inside a poker hand;
    ace high, the wheel is 5-high, suits never break ties. Used for the pot (DK6)."""
    if len(poker_hand) < 5 or any(c >= 52 for c in poker_hand):
        raise IllegalSplitError("a poker hand has at least 5 cards and no joker")
    return strength_from_code(_eval_cards(poker_hand))


# --- suit-blind tables -----------------------------------------------------------------


def _digits(key: int) -> list[int]:
    out = []
    for _ in range(13):
        key, d = divmod(key, 5)
        out.append(d)
    return out


def _build_five() -> dict[int, tuple[int, int]]:
    """Every 5-card rank multiset -> (objective, pick key); objective = (hand points + the
    pick's deadwood value) << 24 | strength code, so a larger int is a better pick."""
    table: dict[int, tuple[int, int]] = {}
    for combo in itertools.combinations_with_replacement(range(13), 5):
        counts = [0] * 15
        key = 0
        value = 0
        for d in combo:
            counts[14 if d == 0 else d + 1] += 1
            key += _POW5[d]
            value += _RANK_VALUE[d]
        if max(counts) > 4:
            continue
        code = _code_from(counts, ())
        table[key] = ((HAND_POINTS[code >> 20] + value) << 24 | code, key)
    return table


# Long (6..8) suit-blind straights: (digit key, value, objective-without-value).
def _build_windows() -> tuple[tuple[int, int, int, int], ...]:
    out = []
    for length in (6, 7, 8):
        for lo in range(1, 14 - length + 2):
            poker = range(lo, lo + length)
            digits = [0 if p in (1, 14) else p - 1 for p in poker]
            key = sum(_POW5[d] for d in digits)
            value = sum(_RANK_VALUE[d] for d in digits)
            code = _pack(4, (lo + length - 1,))
            mask = sum(1 << d for d in digits)
            out.append((mask, key, value, (HAND_POINTS[4] + value) << 24 | code))
    return tuple(out)


def _build_window_digits() -> tuple[tuple[int, tuple[int, ...]], ...]:
    out = []
    for length in (6, 7, 8):
        for lo in range(1, 14 - length + 2):
            digits = tuple(0 if p in (1, 14) else p - 1 for p in range(lo, lo + length))
            out.append((sum(1 << d for d in digits), digits))
    return tuple(out)


_WINDOW_DIGITS: Final = _build_window_digits()


def _build_long() -> list[tuple[int, tuple[int, int], int]]:
    """For each 13-bit set of present ranks: (any long straight?, its best (objective,
    pick key), its highest value), so a table fill needs one lookup, not a window scan."""
    out = []
    for present in range(1 << 13):
        best, top_value, found = (-1, 0), 0, 0
        for mask, wkey, wvalue, wobj in _WINDOWS:
            if present & mask == mask:
                found = 1
                best = max(best, (wobj, wkey))
                top_value = max(top_value, wvalue)
        out.append((found, best, top_value))
    return out


_BY_VALUE: Final = (9, 10, 11, 12, 8, 7, 6, 5, 4, 3, 2, 1, 0)  # rank digits, value desc
_WINDOWS: Final = _build_windows()
_LONG: Final = _build_long()
# Memo: rank key -> best 5-card pick. Seeded with every 5-card multiset on first use, not
# at import: the shipped table answers 8-card hands without it.
_BEST: dict[int, tuple[int, int]] = {}
# Table key -> (score, knock_count, hand_points, deadwood_points, strength code); the batch
# API hands these rows out as they are.
_Row = tuple[int, int, int, int, int]
_TABLE: dict[int, _Row] = {}
# Rank key -> the rank-count key of the scoring split's poker hand (its "pick").
_PICK: dict[int, int] = {}
# Strength code -> the pick of every row with that code, for all but straights (whose
# pick also depends on the straight's length): a few thousand codes against the tens of
# thousands of rank keys _PICK fills, so the showdown finds a new hand's pick here.
_PICK_OF_CODE: dict[int, int] = {}
# Pick key -> its 13 rank counts (realising a pick needs them per hand).
_PICK_DIGITS: dict[int, tuple[int, ...]] = {}
# Poker-rank-free memo for one suit's cards: 13-bit rank mask -> (strength code, deadwood
# value, hand points).
_SUITED: dict[int, tuple[int, int, int]] = {}
# The shipped table's file: 8-card hands (6..8 non-joker cards plus jokers).
TABLE_FILE: Final = "dk_table.bin"
TABLE_CARDS: Final = 8
_MAGIC: Final = b"DKT1"


def _seed_best() -> None:
    if not _BEST:
        _BEST.update(_build_five())


def _best_pick(key: int, digits: list[int]) -> tuple[int, int]:
    """Best 5-card pick of a rank multiset (``digits`` are its counts, left unchanged)."""
    got = _BEST.get(key)
    if got is not None:
        return got
    best = (-1, 0)
    for d in range(13):
        if digits[d]:
            digits[d] -= 1
            sub = _best_pick(key - _POW5[d], digits)
            digits[d] += 1
            if sub > best:
                best = sub
    _BEST[key] = best
    return best


def compute_row(tkey: int) -> _Row:
    """The table row of one table key, computed from scratch (no table lookup)."""
    _seed_best()
    jokers, key = divmod(tkey, _JOKER_UNIT)
    digits = _digits(key)
    n = sum(digits)
    total = sum(c * _RANK_VALUE[d] for d, c in enumerate(digits)) + JOKER_DEADWOOD * jokers
    if n < 5:  # no legal poker hand: everything is deadwood
        return (-total, total, 0, total, 0)
    obj, pick = _best_pick(key, digits)
    maxval = 0
    need = 5
    for d in _BY_VALUE:  # the 5 highest deadwood values: any 5 cards are legal
        take = min(digits[d], need)
        maxval += take * _RANK_VALUE[d]
        need -= take
        if not need:
            break
    present = 0
    for d in range(13):
        if digits[d]:
            present |= 1 << d
    windows, wbest, wvalue = _LONG[present]
    if windows:
        maxval = max(maxval, wvalue)
        if wbest > (obj, pick):
            obj = wbest[0]
    code = obj & 0xFFFFFF
    hp = HAND_POINTS[code >> 20]
    deadwood = total - ((obj >> 24) - hp)
    return (hp - deadwood, total - maxval, hp, deadwood, code)


def _fill(tkey: int) -> _Row:
    row = _TABLE[tkey] = compute_row(tkey)
    return row


# Each 5-card category's rank multiplicities, in the order its strength code lists ranks.
_MULTIPLES: Final = {
    0: (1, 1, 1, 1, 1),
    1: (2, 1, 1, 1),
    2: (2, 2, 1),
    3: (3, 1, 1),
    6: (3, 2),
    7: (4, 1),
}
_DIGIT_OF_POKER: Final = tuple(0 if p in (1, 14) else p - 1 for p in range(15))


def _pick_key(tkey: int) -> int:
    """The rank-count key of the scoring split's suit-blind poker hand (0: none).

    Read off the key's table row, with no search: a suit-blind strength code names its
    5-card rank multiset (category and ranks), and a straight's length (5 to 8) is the
    one whose ranks are worth what the row's deadwood leaves of the hand's total. No
    other pick has the same objective: equal codes and values mean equal multisets."""
    key = tkey % _JOKER_UNIT
    got = _PICK.get(key)
    if got is None:
        row = _TABLE.get(tkey) or _fill(tkey)
        code = row[4]
        ranks = [(code >> (16 - 4 * i)) & 15 for i in range(5)]
        cat = code >> 20
        if not code:
            got = 0
        elif cat != 4:
            got = sum(
                m * _POW5[_DIGIT_OF_POKER[p]] for m, p in zip(_MULTIPLES[cat], ranks, strict=False)
            )
            _PICK_OF_CODE[code] = got
        else:
            jokers = tkey // _JOKER_UNIT
            total = sum(c * _RANK_VALUE[d] for d, c in enumerate(_digits(key)))
            want = total + JOKER_DEADWOOD * jokers - row[3]
            top = ranks[0]
            for length in range(5, 9):
                digits = [_DIGIT_OF_POKER[p] for p in range(max(top - length + 1, 1), top + 1)]
                if len(digits) == length and sum(_RANK_VALUE[d] for d in digits) == want:
                    got = sum(_POW5[d] for d in digits)
                    break
            else:
                raise AssertionError(f"no straight of value {want} in table key {tkey}")
        _PICK[key] = got
    return got


def table_keys(max_cards: int = TABLE_CARDS) -> list[int]:
    """Every table key of a ``max_cards``-card hand with 0..2 jokers, ascending."""
    keys = []
    for size in range(max_cards - 2, max_cards + 1):
        for combo in itertools.combinations_with_replacement(range(13), size):
            key = sum(_POW5[d] for d in combo)
            if max(_digits(key)) <= 4:
                keys.append(key + (max_cards - size) * _JOKER_UNIT)
    return sorted(keys)


def warm_tables(max_cards: int = 8) -> int:
    """Fill the suit-blind table for every hand of ``max_cards`` cards with 0..2 jokers
    (optional: entries are otherwise filled on first use). Returns the table size."""
    for tkey in table_keys(max_cards):
        if tkey not in _TABLE:
            _fill(tkey)
    return len(_TABLE)


# --- the shipped table -------------------------------------------------------------------
# Layout: magic, then (key count, distinct row count) as two little-endian uint32, then
# zlib of three little-endian int32 arrays: key deltas (keys ascending), each key's row
# number, and the distinct rows flattened five ints each. Sharing equal rows halves the
# objects built at load.


def _le(values: array) -> bytes:  # type: ignore[type-arg]
    if sys.byteorder == "big":
        values = array(values.typecode, values)
        values.byteswap()
    return values.tobytes()


def encode_table(table: dict[int, _Row]) -> bytes:
    """The shipped file's bytes for a table (see ``tablegen``)."""
    keys = sorted(table)
    number: dict[_Row, int] = {}
    for k in keys:
        number.setdefault(table[k], len(number))
    deltas = array("i", [b - a for a, b in zip([0, *keys], keys, strict=False)])
    index = array("i", [number[table[k]] for k in keys])
    rows = array("i", [v for row in number for v in row])
    body = zlib.compress(_le(deltas) + _le(index) + _le(rows), 9)
    return _MAGIC + struct.pack("<II", len(keys), len(number)) + body


def decode_table(data: bytes) -> dict[int, _Row]:
    """The table a shipped file holds."""
    if data[:4] != _MAGIC:
        raise ValueError("not a Deadwood Knock table file")
    n_keys, n_rows = struct.unpack_from("<II", data, 4)
    raw = memoryview(zlib.decompress(data[12:]))
    parts = []
    for start, size in ((0, n_keys), (4 * n_keys, n_keys), (8 * n_keys, 5 * n_rows)):
        part = array("i")
        part.frombytes(raw[start : start + 4 * size])
        if sys.byteorder == "big":
            part.byteswap()
        parts.append(part)
    deltas, index, flat = parts
    it = iter(flat)
    rows = list(zip(it, it, it, it, it, strict=False))
    return dict(zip(itertools.accumulate(deltas), map(rows.__getitem__, index), strict=True))


def _load_shipped() -> None:
    """Load the shipped table; without it (say, a stripped install) rows fill lazily."""
    try:
        data = resources.files(__name__.rpartition(".")[0]).joinpath(TABLE_FILE).read_bytes()
    except (OSError, TypeError):
        return
    _TABLE.update(decode_table(data))


_load_shipped()


# --- results ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandEvaluation:
    """One split of a hand and what it scores. ``knock_count`` / ``can_knock`` are over
    all legal splits, whatever split this result describes."""

    category: str
    hand_points: int
    poker_hand: tuple[Card, ...]
    deadwood: tuple[Card, ...]
    deadwood_points: int
    score: int
    knock_count: int
    can_knock: bool
    strength: tuple[int, ...]

    def to_json(self) -> JSONDict:
        return {
            "category": self.category,
            "hand_points": self.hand_points,
            "poker_hand": [str(c) for c in reading_order(self.poker_hand)],
            "deadwood": [str(c) for c in self.deadwood],
            "deadwood_points": self.deadwood_points,
            "score": self.score,
            "knock_count": self.knock_count,
            "can_knock": self.can_knock,
            "strength": list(self.strength),
        }


def _check(cards: Sequence[int]) -> None:
    if not 5 <= len(cards) <= 9:
        raise IllegalSplitError(f"a hand has 5 to 9 cards, not {len(cards)}")
    if len(set(cards)) != len(cards):
        raise IllegalSplitError("a hand holds each card at most once")
    if any(not 0 <= c < 54 for c in cards):
        raise IllegalSplitError("card index out of range")


def _flush_branch(
    cards: Sequence[int], entry: _Row, pick_key: int
) -> tuple[int, int, int, int, int, tuple[int, ...]]:
    """Exact evaluation for a hand with 5+ cards of one suit. Returns (score, knock,
    hand points, deadwood, code, poker hand as sorted indices)."""
    total = sum(_VALUE[c] for c in cards)
    plain = sorted(c for c in cards if c < 52)
    suit = next(s for s in range(4) if sum(1 for c in plain if c // 13 == s) >= 5)
    suited = [c for c in plain if c // 13 == suit]
    # Candidates: the suit-blind best (its table value), the whole suit (or, with 9 suited
    # cards, every 8 of them) and every card choice of every long straight.
    cands: list[tuple[int, int, tuple[int, ...]]] = []
    pick = _realize(plain, pick_key)
    cands.append((entry[0], entry[4], pick))
    flush_sets = [suited] if len(suited) <= 8 else list(itertools.combinations(suited, 8))
    maxval = total - entry[1]
    for fs in flush_sets:
        value = sum(_VALUE[c] for c in fs)
        maxval = max(maxval, value)
        code = _eval_cards(fs)
        cands.append((HAND_POINTS[code >> 20] - (total - value), code, tuple(fs)))
    # Only a long straight holding 5+ suited cards can beat its suit-blind value.
    by_rank: dict[int, list[int]] = {}
    present = suited_present = 0
    for c in plain:
        by_rank.setdefault(c % 13, []).append(c)
        present |= 1 << (c % 13)
        if c // 13 == suit:
            suited_present |= 1 << (c % 13)
    for mask, digits in _WINDOW_DIGITS:
        if present & mask == mask and (suited_present & mask).bit_count() >= 5:
            for choice in itertools.product(*(by_rank[d] for d in digits)):
                value = sum(_VALUE[c] for c in choice)
                code = _eval_cards(choice)
                hp = HAND_POINTS[code >> 20]
                cands.append((hp - (total - value), code, tuple(sorted(choice))))
    score, code, best = min(cands, key=lambda t: (-t[0], -t[1], t[2]))
    hp = HAND_POINTS[code >> 20]
    return score, total - maxval, hp, hp - score, code, best


def _slow_row(cards: Sequence[int], code: tuple[int, ...] = _SLOW_CODE) -> _Row:
    """The batch API's row for a hand the table lookup missed: a rank key not filled yet,
    or a hand holding 5+ cards of one suit.

    The flush case without the poker hand's cards: the common case (at most 8 suited
    cards, no long straight with 5+ ranks in the suit) needs only the memoised value of
    "all cards of that suit"; anything else takes the exact branch."""
    if len(cards) == 8:
        c0, c1, c2, c3, c4, c5, c6, c7 = cards
        z = (
            code[c0] + code[c1] + code[c2] + code[c3]
            + code[c4] + code[c5] + code[c6] + code[c7]
        )  # fmt: skip
    else:
        z = 0
        for c in cards:
            z += code[c]
    tkey = z & _KEY_MASK
    row = _TABLE.get(tkey) or _fill(tkey)
    suits = (z >> 32) & 0xFFFF
    flags = (suits + 0x3333) & 0x8888  # a suit count's bit 3 is set iff it is >= 5
    if not flags:
        return row
    suit = (flags.bit_length() - 4) >> 2
    bits = (z >> 64) & _CARD_BITS
    total = (z >> 120) - 2 * len(cards)
    mask = (bits >> (13 * suit)) & 0x1FFF
    present = (bits | bits >> 13 | bits >> 26 | bits >> 39) & 0x1FFF
    # A long straight matters only if 5+ of its ranks are in the suit: otherwise its
    # suit-blind value (already in the row) is all it can score.
    if (suits >> (4 * suit)) & 15 > 8 or (
        _LONG[present][0]
        and any(present & w == w and (mask & w).bit_count() >= 5 for w, _ in _WINDOW_DIGITS)
    ):
        score, knock, hp, dw, scode, _ = _flush_branch(cards, row, _pick_key(tkey))
        return score, knock, hp, dw, scode
    got = _SUITED.get(mask)
    if got is None:
        spades = [d for d in range(13) if mask >> d & 1]
        scode = _eval_cards(spades)
        got = _SUITED[mask] = (scode, sum(_VALUE[d] for d in spades), HAND_POINTS[scode >> 20])
    scode, value, hp = got
    score = hp + value - total
    knock = row[1] if row[1] < total - value else total - value
    if score > row[0] or (score == row[0] and scode > row[4]):
        return score, knock, hp, hp - score, scode
    return row[0], knock, row[2], row[3], row[4]


def _realize(plain: Sequence[int], pick_key: int) -> tuple[int, ...]:
    """The lowest-index cards of ``plain`` (sorted) matching a rank-count pick key."""
    got = _PICK_DIGITS.get(pick_key)
    if got is None:
        got = _PICK_DIGITS[pick_key] = tuple(_digits(pick_key))
    need = list(got)
    out = []
    for c in plain:
        d = c % 13
        if need[d]:
            need[d] -= 1
            out.append(c)
    return tuple(out)


def reading_order(poker_hand: Iterable[int]) -> tuple[Card, ...]:
    """A poker hand in the order a player reads it: the same cards, only reordered.

    A straight (or straight flush) reads as its run, low to high, the ace low or high as it
    plays; any other hand by how many of each rank it holds, then by rank, aces high.
    Suits break ties, spades first. The engine keeps hands in index order (suit by suit),
    where ``10♠ J♠ 8♥ 9♥ 6♦ 7♣`` hides a straight.

    >>> from deadwood_knock.cards import parse_cards
    >>> " ".join(str(c) for c in reading_order(parse_cards("Ts Js 8h 9h 6d 7c")))
    '6d 7c 8h 9h Ts Js'
    >>> " ".join(str(c) for c in reading_order(parse_cards("4s 3h 2d As 5c")))
    'As 2d 3h 4s 5c'
    >>> " ".join(str(c) for c in reading_order(parse_cards("Ks 9h Td Jc Kc")))
    'Ks Kc Jc Td 9h'
    >>> " ".join(str(c) for c in reading_order(parse_cards("3s Qs Qh Qd 3c")))
    'Qs Qh Qd 3s 3c'
    """
    cards = [CARDS[c] for c in poker_hand]
    high = [14 if c.rank == 1 else c.rank for c in cards]
    for ranks in (high, [c.rank for c in cards]):
        ordered = sorted(ranks)
        run = len(cards) >= 5 and all(b == a + 1 for a, b in itertools.pairwise(ordered))
        if run:
            return tuple(c for _, c in sorted(zip(ranks, cards, strict=True)))
    count = {r: high.count(r) for r in high}
    pairs = sorted(zip(high, cards, strict=True), key=lambda p: (-count[p[0]], -p[0], p[1]))
    return tuple(c for _, c in pairs)


def best_five(poker_hand: Sequence[int]) -> tuple[Card, ...]:
    """The five cards that score inside a poker hand (DK3: hand points come from the best
    5-card hand inside it), in reading order. A 6-8 card hand keeps the rest out of its
    deadwood without scoring them, and a player should see which five count; of equal
    fives, the first in index order.

    >>> from deadwood_knock.cards import parse_cards
    >>> " ".join(str(c) for c in best_five(parse_cards("7h 8h 9h Th Js Qh Ks")))
    'Qh Th 9h 8h 7h'
    >>> " ".join(str(c) for c in best_five(parse_cards("Ks 9h Td Jc Kc")))
    'Ks Kc Jc Td 9h'
    """
    if len(poker_hand) <= 5:
        return reading_order(poker_hand)
    return _best_five(tuple(sorted(poker_hand)))


@functools.lru_cache(maxsize=4096)
def _best_five(poker_hand: tuple[int, ...]) -> tuple[Card, ...]:
    # Up to 56 fives evaluated (about a millisecond), and every view of the round's result
    # shows it again until the next round: remembered by the sorted hand.
    best: tuple[int, ...] = max(itertools.combinations(poker_hand, 5), key=_eval_cards)
    return reading_order(best)


def long_hand(poker_hand: Sequence[int]) -> str | None:
    """What lets a poker hand of 6-8 cards be that long (DK3): ``"straight flush"``,
    ``"flush"`` (all one suit) or ``"straight"``; ``None`` for five cards or fewer.

    >>> from deadwood_knock.cards import parse_cards
    >>> long_hand(parse_cards("7h 8h 9h Th Js Qh Ks")), long_hand(parse_cards("2c 5c 9c Jc Qc Kc"))
    ('straight', 'flush')
    >>> long_hand(parse_cards("9s Ts Js Qs Ks As")), long_hand(parse_cards("Ks 9h Td Jc Kc"))
    ('straight flush', None)
    """
    if len(poker_hand) <= 5:
        return None
    one_suit = len({c // 13 for c in poker_hand}) == 1
    run = _one_straight(poker_hand)  # the legality rule's own test (is_legal_poker_hand)
    if one_suit:
        return "straight flush" if run else "flush"
    return "straight" if run else None


def shown(cards: Sequence[int], poker: Sequence[int], code: int) -> tuple[tuple[Card, ...], str]:
    """A split's deadwood (the cards outside ``poker``, sorted by index) and category."""
    in_hand = set(poker)
    deadwood = tuple(CARDS[c] for c in sorted(cards) if c not in in_hand)
    return deadwood, CATEGORIES[code >> 20] if poker else CATEGORIES[0]


def _result(
    cards: Sequence[int],
    poker: tuple[int, ...],
    score: int,
    knock: int,
    hp: int,
    deadwood_points: int,
    code: int,
) -> HandEvaluation:
    deadwood, category = shown(cards, poker, code)
    return HandEvaluation(
        category=category,
        hand_points=hp,
        poker_hand=tuple(CARDS[c] for c in poker),
        deadwood=deadwood,
        deadwood_points=deadwood_points,
        score=score,
        knock_count=knock,
        can_knock=knock <= KNOCK_LIMIT,
        strength=strength_from_code(code) if poker else (),
    )


def scoring_split(cards: Sequence[Card]) -> tuple[_Row, tuple[Card, ...]]:
    """The scoring split without validation or a :class:`HandEvaluation`: its
    ``evaluate_batch`` row and its poker hand (sorted by index). The showdown's path."""
    s = sum(map(_CODE.__getitem__, cards))
    tkey = s & _KEY_MASK
    row = _TABLE.get(tkey) or _fill(tkey)
    pick_key = _pick_key(tkey)
    if ((s >> 32) + 0x3333) & 0x8888:  # some suit holds 5+ cards
        score, knock, hp, dw, code, poker = _flush_branch(cards, row, pick_key)
        return (score, knock, hp, dw, code), tuple(CARDS[c] for c in poker)
    return row, tuple(CARDS[c] for c in _realize(sorted(c for c in cards if c < 52), pick_key))


def showdown_split(hand: Sequence[Card]) -> tuple[_Row, tuple[Card, ...], tuple[Card, ...], str]:
    """:func:`scoring_split` and :func:`shown` at once for a hand the rules hold: sorted
    by index, of interned cards (no validation). Returns the row, the poker hand, the
    deadwood and the category, equal to what those two give.

    The showdown scores every hand with it: being sorted, the hand is its own sorted
    list of plain cards (jokers are last), and its own cards are the ones returned."""
    s = 0
    for c in hand:  # a plain loop beats sum(map(...)) for a few items
        s += _CODE[c]
    tkey = s & _KEY_MASK
    row = _TABLE.get(tkey) or _fill(tkey)
    if ((s >> 32) + 0x3333) & 0x8888:  # some suit holds 5+ cards
        score, knock, hp, dw, code, picked = _flush_branch(hand, row, _pick_key(tkey))
        row = (score, knock, hp, dw, code)
        poker = tuple(CARDS[c] for c in picked)
    elif row[4]:
        plain = hand if hand[-1] < 52 else hand[: -1 - (hand[-2] >= 52)]
        pick = _PICK_OF_CODE.get(row[4])
        if pick is None:
            pick = _pick_key(tkey)
        poker = _realize(plain, pick)  # type: ignore[assignment]  # its own cards
    else:
        # Fewer than 5 plain cards: no poker hand, every card is deadwood.
        return row, (), tuple(hand), CATEGORIES[0]
    in_hand = set(poker)
    return row, poker, tuple(c for c in hand if c not in in_hand), CATEGORIES[row[4] >> 20]


def evaluate(cards: Sequence[Card]) -> HandEvaluation:
    """The scoring split of a hand of 5..9 cards (jokers allowed) and its knock count.

    With fewer than 5 non-joker cards there is no legal poker hand: the poker hand is
    empty and every card is deadwood.
    """
    _check(cards)
    row, poker = scoring_split(cards)
    return _result(cards, poker, *row)


def knock_count(cards: Sequence[Card]) -> int:
    """Just the knock count (lowest deadwood over all legal splits), without validation."""
    return hand_row(cards)[1]


def hand_row(cards: Sequence[Card]) -> tuple[int, int, int, int, int]:
    """One hand's ``evaluate_batch`` row (no validation), without a batch around it:
    the rules' knock test asks this once per turn."""
    if len(cards) == 8:
        a, b, c, d, e, f, g, h = cards
        code = _CODE
        key = (
            code[a] + code[b] + code[c] + code[d]
            + code[e] + code[f] + code[g] + code[h] + _SUIT_BIAS
        ) & _BATCH_MASK  # fmt: skip
    else:
        key = _batch_key(cards)
    row = _TABLE.get(key)
    return row if row is not None else _slow_row(cards)


_NONES: Final = itertools.repeat(None)


def _batch_key(cards: Sequence[int]) -> int:
    s = _SUIT_BIAS
    for c in cards:  # a plain loop beats sum(map(...)) for a few items
        s += _CODE[c]
    return s & _BATCH_MASK


def evaluate_batch(hands: Iterable[Sequence[Card]]) -> list[tuple[int, int, int, int, int]]:
    """Fast evaluation of many hands (no validation): for each, ``(score, knock_count,
    hand_points, deadwood_points, strength_code)`` of the scoring split. Decode the
    strength with :func:`strength_from_code`; ``CATEGORIES[code >> 20]`` is the category.
    """
    hands = hands if isinstance(hands, list | tuple) else list(hands)
    # One lookup per hand; flush hands and unfilled keys come back None (see _SUIT_BIAS)
    # and are patched after, so the common case runs with no branch in Python.
    code, bias, mask = _CODE, _SUIT_BIAS, _BATCH_MASK
    keys: list[int]
    try:
        # The game's 8-card hands, unpacked by the loop itself: no call per hand.
        keys = [
            (code[a] + code[b] + code[c] + code[d] + code[e] + code[f] + code[g]
             + code[h] + bias) & mask
            for a, b, c, d, e, f, g, h in hands
        ]  # fmt: skip
    except ValueError:  # some hand is not 8 cards long
        keys = list(map(_batch_key, hands))
    # The lookups run apart from the keys' sums, back to back in C: the table is tens of
    # MB, so most lookups miss the caches, and only a tight loop lets the CPU overlap
    # those misses (one lookup inside the loop above runs about 1.4x slower, and more
    # so the more other work shares the caches; see docs/bench.md, branch eval16).
    out: list[_Row | None] = list(map(_TABLE.get, keys))
    if None in out:
        # The misses' positions, found without a Python-level loop over every hand.
        for i in itertools.compress(itertools.count(), map(operator.is_, out, _NONES)):
            out[i] = _slow_row(hands[i])
    return out  # type: ignore[return-value]  # every None was replaced


# --- splits ------------------------------------------------------------------------------


def is_legal_poker_hand(poker_hand: Sequence[int]) -> bool:
    """DK3: any 5 non-joker cards, or 6..8 all one suit or one straight of distinct
    consecutive ranks (ace high or low, never K-A-2)."""
    n = len(poker_hand)
    if n < 5 or n > 8 or len(set(poker_hand)) != n or any(c >= 52 for c in poker_hand):
        return False
    return n == 5 or len({c // 13 for c in poker_hand}) == 1 or _one_straight(poker_hand)


def _one_straight(cards: Sequence[int]) -> bool:
    """DK3's long straight: distinct consecutive ranks, the ace low or high (never K-A-2)."""
    n = len(cards)
    ranks = {c % 13 + 1 for c in cards}
    if len(ranks) != n:
        return False
    low, high = min(ranks), max(ranks)
    if high - low == n - 1:
        return True
    # Ace high: the ace (1) acts as 14, the rest must run up to the king.
    return 1 in ranks and min(ranks - {1}) == 14 - n + 1 and high == 13


def _split_entry(cards: Sequence[int], poker: Sequence[int]) -> tuple[int, int, tuple[int, ...]]:
    total = sum(_VALUE[c] for c in cards)
    value = sum(_VALUE[c] for c in poker)
    code = _eval_cards(poker)
    return HAND_POINTS[code >> 20] - (total - value), code, tuple(sorted(poker))


def legal_splits(cards: Sequence[Card]) -> tuple[tuple[Card, ...], ...]:
    """Every legal poker hand of this hand (cards sorted by index), best first: by score,
    then strength, then sorted indices; the first is the scoring split. A hand with fewer
    than 5 non-joker cards has one split, the empty poker hand."""
    _check(cards)
    plain = sorted(c for c in cards if c < 52)
    found = [
        _split_entry(cards, combo)
        for size in range(5, min(len(plain), 8) + 1)
        for combo in itertools.combinations(plain, size)
        if size == 5 or is_legal_poker_hand(combo)
    ]
    found.sort(key=lambda t: (-t[0], -t[1], t[2]))
    if not found:
        return ((),)
    return tuple(tuple(CARDS[c] for c in poker) for _, _, poker in found)


def split_result(cards: Sequence[Card], poker_hand: Sequence[Card]) -> HandEvaluation:
    """The result of a player-chosen split; raises :class:`IllegalSplitError` if the
    poker hand is not legal for this hand (DK3)."""
    _check(cards)
    poker = tuple(sorted(poker_hand))
    knock = evaluate(cards).knock_count
    if not poker and sum(1 for c in cards if c < 52) < 5:
        total = sum(_VALUE[c] for c in cards)
        return _result(cards, (), -total, knock, 0, total, 0)
    if not set(poker) <= set(cards):
        raise IllegalSplitError("the poker hand uses a card that is not in the hand")
    if not is_legal_poker_hand(poker):
        raise IllegalSplitError(
            "a poker hand is 5 non-joker cards, or 6 to 8 of one suit or in one straight"
        )
    score, code, _ = _split_entry(cards, poker)
    hp = HAND_POINTS[code >> 20]
    return _result(cards, poker, score, knock, hp, hp - score, code)
