"""The one implementation of Knock Rummy's rules (KR1-KR8) and the Gin preset: a mutable table.

:class:`KrTable` holds a hand in play on plain lists and 52-bit hand masks; :meth:`KrTable.play`
changes it in place. Every rule lives here once: the deal, legality with its reason
(:func:`legal_list`, :func:`reason`), draws, discards, knocks and rummies, the pile turned
over, the void hand, lay-offs, scoring and settlement, the next deal and the end of the game.

Three callers run this same code:

* the immutable public API (:mod:`.rules`): ``apply`` plays the action in place on the
  table the state holds (or one loaded from the state) and hands the table on to the next
  state, whose fields are read off it or replayed when asked for (:func:`.rules.apply`);
  ``legal_actions`` and ``why_illegal`` ask :func:`legal_masks` and :func:`reason`;
* the bots' playouts (``bots/kr_playout.py``), which copy a sampled table and play on it
  without events (``events=None``), stopping at the end of the hand (``single_hand``);
* the learning environments (``deadwood_knock.rl``), which step one table in place.

With ``events`` given, :meth:`KrTable.play` appends exactly the events the public API
returns; without, it builds none (nor the hand's :class:`HandResult`), which is what makes a
playout cheap. ``tests/test_kr_core.py`` checks that both agree on 20,000 random games.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from itertools import product
from typing import Any, Final, Literal

from deadwood_knock.cards import CARDS, DECK_52, Card, shuffled_by_key
from deadwood_knock.games.base import Event, GameError, JSONDict, derive_key
from deadwood_knock.games.knock_rummy.melds import (
    _FIELD_POINTS,
    _T_HIGH,
    _T_LOW,
    Arrangement,
    arrange,
    count_mask,
    hand_mask,
    min_arrangements,
    min_layout_masks,
    run_positions,
)
from deadwood_knock.games.points import CARD_POINTS

__all__ = [
    "DISCARD",
    "DRAW",
    "GIN_BONUS",
    "GIN_LIMIT",
    "KNOCK_PENALTY",
    "OVER",
    "RUMMY_BONUS",
    "TABLE_LOG",
    "Discard",
    "Draw",
    "HandResult",
    "Knock",
    "KnockRummyAction",
    "KnockRummyOptions",
    "KrTable",
    "Rummy",
    "actions_of",
    "best_layoff",
    "cards_of_mask",
    "deal_size",
    "discard_masks",
    "draw_masks",
    "gin_layoffs_allowed",
    "gin_outcome",
    "gin_points",
    "gin_settlement",
    "knock_rummy_scores",
    "legal_list",
    "legal_masks",
    "reason",
]

KR_NAME: Final = "knock-rummy"
GIN_NAME: Final = "gin"
KNOCK_PENALTY: Final = 10  # KR6: a knocker who does not win pays the winner this too
RUMMY_BONUS: Final = 25  # KR6: going rummy, from each other player
GIN_BONUS: Final = 25  # KR8: gin, and an undercut
GIN_LIMIT: Final = 10  # KR8: the fixed knock limit of the Gin preset
GIN_VOID_STOCK: Final = 2  # KR8: the hand is void when only this many stock cards remain
MAX_TURNOVERS: Final = 2  # KR7
DRAW: Final = "draw"
DISCARD: Final = "discard"
OVER: Final = "over"
PHASES: Final = (DRAW, DISCARD, OVER)
_OPTION_KEYS: Final = frozenset({"players", "knock_limit", "high_aces", "target", "gin"})
_VALUE: Final = CARD_POINTS
_BIT: Final = tuple(1 << i for i in range(52))
# Every card's bit cleared (positive: ``mask & ~bit`` makes and uses a negative big int).
_NOT_BIT: Final = tuple(((1 << 52) - 1) ^ (1 << i) for i in range(52))


def deal_size(players: int) -> int:
    """KR1: 10 cards each for two players, 7 for three or four, 6 for five."""
    return 10 if players == 2 else 7 if players <= 4 else 6


# --------------------------------------------------------------------------- options


@dataclass(frozen=True, slots=True)
class KnockRummyOptions:
    """Table options. ``gin=True`` is the Gin preset: two players, knock limit 10."""

    players: int = 2
    knock_limit: int | None = None
    high_aces: bool = False
    target: int = 100
    gin: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or not isinstance(self.players, int):
            raise GameError("players must be a whole number")
        if not 2 <= self.players <= 5:
            raise GameError(f"knock rummy takes 2 to 5 players, not {self.players}")
        limit = self.knock_limit
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)):
            raise GameError("knock_limit must be a whole number or null")
        if limit is not None and not 0 <= limit <= 200:
            raise GameError(f"knock_limit must be 0..200, not {limit}")
        if not isinstance(self.high_aces, bool) or not isinstance(self.gin, bool):
            raise GameError("high_aces and gin must be true or false")
        if isinstance(self.target, bool) or not isinstance(self.target, int):
            raise GameError("target must be a whole number")
        if not 1 <= self.target <= 100_000:
            raise GameError(f"target must be 1..100000, not {self.target}")
        if self.gin:
            if self.players != 2:
                raise GameError("gin is for exactly 2 players")
            if limit is None:
                # The preset's limit is fixed; fill it in so every reader sees 10.
                object.__setattr__(self, "knock_limit", GIN_LIMIT)
            elif limit != GIN_LIMIT:
                raise GameError(f"gin's knock limit is fixed at {GIN_LIMIT}")

    @property
    def game_name(self) -> str:
        return GIN_NAME if self.gin else KR_NAME

    def to_json(self) -> JSONDict:
        return {
            "players": self.players,
            "knock_limit": self.knock_limit,
            "high_aces": self.high_aces,
            "target": self.target,
            "gin": self.gin,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> KnockRummyOptions:
        if not isinstance(data, Mapping):
            raise GameError("options must be an object")
        unknown = set(data) - _OPTION_KEYS
        if unknown:
            raise GameError(
                f"unknown option(s) {', '.join(sorted(unknown))}; "
                f"known: {', '.join(sorted(_OPTION_KEYS))}"
            )
        return cls(**dict(data))


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class Draw:
    """KR3/KR7: take the top of the stock (turning the pile over if it is empty) or
    the top of the discard pile."""

    source: Literal["stock", "discard"]

    @property
    def kind(self) -> str:
        return "draw"

    def to_json(self) -> JSONDict:
        return {"type": "draw", "source": self.source}


@dataclass(frozen=True, slots=True)
class Discard:
    """Put one card face up on the discard pile; ends the turn."""

    card: Card

    @property
    def kind(self) -> str:
        return "discard"

    def to_json(self) -> JSONDict:
        return {"type": "discard", "card": str(self.card)}


@dataclass(frozen=True, slots=True)
class Knock:
    """KR4: knock, then discard this card; the hand ends after the discard."""

    discard: Card

    @property
    def kind(self) -> str:
        return "knock"

    def to_json(self) -> JSONDict:
        return {"type": "knock", "discard": str(self.discard)}


@dataclass(frozen=True, slots=True)
class Rummy:
    """KR5: the whole hand is matched, with no discard (``None``) or after this one."""

    discard: Card | None

    @property
    def kind(self) -> str:
        return "rummy"

    def to_json(self) -> JSONDict:
        return {"type": "rummy", "discard": None if self.discard is None else str(self.discard)}


KnockRummyAction = Draw | Discard | Knock | Rummy

# Interned actions: every listing hands out these shared immutable values.
DRAW_STOCK: Final = Draw("stock")
DRAW_PILE: Final = Draw("discard")
DISCARDS: Final = tuple(Discard(c) for c in DECK_52)
KNOCKS: Final = tuple(Knock(c) for c in DECK_52)
RUMMIES: Final = tuple(Rummy(c) for c in DECK_52)
RUMMY_NO_DISCARD: Final = Rummy(None)
_DRAWS_BOTH: Final = (DRAW_STOCK, DRAW_PILE)
_DRAW_STOCK_ONLY: Final = (DRAW_STOCK,)
_DRAW_PILE_ONLY: Final = (DRAW_PILE,)
# legal_list's draws by legal_masks' draw bits (1 stock, 2 pile).
DRAW_LISTS: Final = ((), _DRAW_STOCK_ONLY, _DRAW_PILE_ONLY, _DRAWS_BOTH)
_MAX_VALUE: Final = max(_VALUE[:52])
# legal_masks' answers while drawing (or once over), made once: no tuple per call.
#: Both draws legal: :func:`draw_masks` whenever stock and pile both hold cards.
BOTH_DRAWS_MASKS: Final = (3, 0, 0, 0)
_STOCK_MASKS: Final = (1, 0, 0, 0)
_PILE_MASKS: Final = (2, 0, 0, 0)
_NO_MASKS: Final = (0, 0, 0, 0)


# --------------------------------------------------------------------------- masks


def _build_suit_tables(items: Sequence[Any]) -> tuple[tuple[tuple[Any, ...], ...], ...]:
    """Per suit, per 13-bit field: ``items[card]`` of each of its cards, in card order (a
    hand mask to its sorted cards, or to their discards). Each field is its lowest card's
    item before the field without it (fast to build at import: about 80 ms a table)."""
    out = []
    for s in range(4):
        fields: list[tuple[Any, ...]] = [()]
        for f in range(1, 1 << 13):
            low = f & -f
            fields.append((items[13 * s + low.bit_length() - 1], *fields[f ^ low]))
        out.append(tuple(fields))
    return tuple(out)


_S0, _S1, _S2, _S3 = _build_suit_tables(CARDS)
# The legal discards of a hand are four lookups and three concatenations (hot: every
# ``legal_actions`` while discarding); 7- and 6-bit tables took eight and seven.
DISCARD_TABLES: Final = _build_suit_tables(DISCARDS)
_D0, _D1, _D2, _D3 = DISCARD_TABLES


def cards_of_mask(m: int) -> tuple[Card, ...]:
    """The cards of a 52-bit mask, in card order (a sorted hand)."""
    return _S0[m & 0x1FFF] + _S1[(m >> 13) & 0x1FFF] + _S2[(m >> 26) & 0x1FFF] + _S3[m >> 39]


# --------------------------------------------------------------------------- legality
#
# Legality is written once: ``legal_masks`` enumerates what the predicates below allow
# (``legal_list`` makes action values of its masks) and ``reason`` answers for one
# action; both read plain fields, so the public state and a table are asked the same way.


def _may_knock(limit: int | None, left: int) -> bool:
    """KR4: a knock needs the count after the discard within the limit (if any)."""
    return limit is None or left <= limit


def _may_rummy(gin: bool, left: int) -> bool:
    """KR5: rummy is the whole hand matched; Gin (KR8) has no rummy action."""
    return left == 0 and not gin


def legal_list(
    opts: KnockRummyOptions,
    phase: str,
    mask: int,
    taken: int | None,
    stock: int,
    pile: int,
    turnovers: int,
) -> tuple[KnockRummyAction, ...]:
    """Every action of the seat to act (its hand ``mask``; stock and pile sizes), in a
    stable order: draws; or discards, knocks, then rummies (rummy with no discard last).
    The actions :func:`legal_masks` allows, as action values (:func:`actions_of`)."""
    return actions_of(legal_masks(opts, phase, mask, taken, stock, pile, turnovers))


def actions_of(masks: tuple[int, int, int, int]) -> tuple[KnockRummyAction, ...]:
    """The action values of :func:`legal_masks`' masks, in :func:`legal_list`'s order."""
    draws, discards, knocks, rummies = masks
    if draws:
        return DRAW_LISTS[draws]
    # _discards_of_mask, inline (the hot case: every discard of a random Gin hand)
    m = discards
    found = _D0[m & 0x1FFF] + _D1[m >> 13 & 0x1FFF] + _D2[m >> 26 & 0x1FFF] + _D3[m >> 39]
    if not (knocks or rummies):
        return found
    out: list[KnockRummyAction] = [KNOCKS[c] for c in cards_of_mask(knocks)]
    out += [RUMMIES[c] for c in cards_of_mask(rummies >> 1)]
    if rummies & 1:
        out.append(RUMMY_NO_DISCARD)
    return (*found, *out)


def reason(
    opts: KnockRummyOptions,
    phase: str,
    seat: int | None,
    mask: int,
    taken: int | None,
    stock: int,
    pile: int,
    turnovers: int,
    action: object,
) -> str | None:
    """``None`` if the seat to act may play ``action`` now, else the reason it may not
    (the text the player is shown). Cheaper than listing every legal action."""
    if seat is None or phase == OVER:
        return "the game is over"
    # Hot path (every ``apply``): ``type(...) is`` stands in for ``isinstance`` narrowing,
    # as an ``assert isinstance`` costs about as much as the check it guards.
    act: KnockRummyAction = action  # type: ignore[assignment]
    kind = type(act)
    if kind is Discard:
        card: Card | None = act.card  # type: ignore[union-attr]
    elif kind is Draw:
        source = act.source  # type: ignore[union-attr]
        if phase != DRAW:
            return f"{act.to_json()}: seat {seat} has drawn and must discard"
        # KR3/KR7: the stock (or the pile to turn over), or the top of the discard pile.
        if source == "stock":
            if stock > 0 or turnovers < MAX_TURNOVERS:
                return None
        elif source == "discard" and pile > 0:
            return None
        if source == "stock":
            return f"{act.to_json()}: the stock is empty and the pile was turned over twice"
        return f"{act.to_json()}: the discard pile is empty"
    elif kind is Knock or kind is Rummy:
        card = act.discard  # type: ignore[union-attr]
    else:
        return f"not a knock rummy action: {action!r}"
    if phase != DISCARD:
        return f"{act.to_json()}: seat {seat} must draw first"
    if card is not None:
        if not isinstance(card, Card) or not 0 <= card < 52 or not mask >> card & 1:
            return f"{act.to_json()}: {card} is not in the hand"
        if card == taken:
            return (
                f"{act.to_json()}: a card taken from the discard pile may not be "
                "discarded this turn"
            )
    if kind is Discard:
        return None
    left = count_mask(mask if card is None else mask ^ _BIT[card], opts.high_aces)
    if kind is Knock:
        if _may_knock(opts.knock_limit, left):
            return None
        return f"{act.to_json()}: the count after the discard is {left}, over the knock limit"
    if _may_rummy(opts.gin, left):
        return None
    return f"{act.to_json()}: the hand is not all matched" + (
        " (gin has no rummy action)" if opts.gin else ""
    )


def legal_masks(
    opts: KnockRummyOptions,
    phase: str,
    mask: int,
    taken: int | None,
    stock: int,
    pile: int,
    turnovers: int,
    whole: int | None = None,
) -> tuple[int, int, int, int]:
    """The actions :func:`legal_list` lists, as bit masks, for callers that index actions
    by card (the learning environments' action mask): ``(draws, discards, knocks,
    rummies)``; ``draws`` has bit 0 for the stock and bit 1 for the discard pile,
    ``discards`` and ``knocks`` the cards that may be discarded (knocking), ``rummies``
    bit 0 for a rummy with no discard and bit ``c + 1`` for one discarding card ``c``.
    The one enumeration of the legal actions: :func:`legal_list` builds its action values
    from these masks; building none makes this several times cheaper. ``whole``: the
    hand's count (``count_mask(mask, opts.high_aces)``), if the caller has it already (the
    learning environments' tensors count the hand too); else it is counted here. The
    public API (``rules.legal_actions``) and the learning environments call its two
    halves, :func:`draw_masks` and :func:`discard_masks`, directly by phase."""
    if phase == DRAW:
        return draw_masks(stock, pile, turnovers)
    if phase != DISCARD:
        return _NO_MASKS
    return discard_masks(opts, mask, taken, whole)


def draw_masks(stock: int, pile: int, turnovers: int) -> tuple[int, int, int, int]:
    """:func:`legal_masks` while drawing (KR3/KR7): the stock (or the pile to turn over),
    the pile."""
    if stock or turnovers < MAX_TURNOVERS:
        return BOTH_DRAWS_MASKS if pile else _STOCK_MASKS
    return _PILE_MASKS if pile else _NO_MASKS


def discard_masks(
    opts: KnockRummyOptions, mask: int, taken: int | None, whole: int | None = None
) -> tuple[int, int, int, int]:
    """:func:`legal_masks` while discarding (its arguments of that phase)."""
    high = opts.high_aces
    free = mask if taken is None else mask & _NOT_BIT[taken]
    limit = opts.knock_limit
    if limit is None:
        if whole is None:
            whole = count_mask(mask, high)
    else:
        if whole is None:
            whole = count_mask(mask, high)
        if whole - _MAX_VALUE > limit:
            # Throwing c leaves a count of at least ``count - value(c)`` (see below),
            # over the limit (and over 0, as the limit is not negative) for every card:
            # no knock and no rummy (the hot case of a random Gin hand). Else ``whole``
            # is the count.
            return 0, free, 0, 0
    knocks = rummies = 0
    rummy_possible = not opts.gin
    rest = free
    while rest:
        bit = rest & -rest
        rest ^= bit
        # Throwing c leaves a count of at least ``whole - value(c)`` (c put back as
        # deadwood is an arrangement of the whole hand), so most cards need no count.
        low = whole - _VALUE[bit.bit_length() - 1]
        if (limit is not None and low <= limit) or (rummy_possible and low <= 0):
            left = count_mask(mask ^ bit, high)
            if _may_knock(limit, left):
                knocks |= bit
            if _may_rummy(opts.gin, left):
                rummies |= bit << 1
        elif limit is None:
            knocks |= bit
    if _may_rummy(opts.gin, whole):
        rummies |= 1
    return 0, free, knocks, rummies


# --------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class HandResult:
    """How one hand ended and what it scored.

    ``outcome``: ``knock`` / ``rummy`` (Knock Rummy), ``knock`` / ``undercut`` / ``gin``
    (Gin), or ``void``. ``ender`` is the knocker or the player who went rummy.
    ``arrangements`` are the hands as laid down (for the Gin defender: after lay-offs).
    Each seat's score is ``difference + penalty + bonus``, kept apart so a showdown can
    show them as their own lines: the count difference paid or won, the knocker's
    penalty (KR6) and the rummy, gin or undercut bonus (KR6, KR8).
    ``hands`` of a void hand hold only the cards the table saw (a dead hand is not shown).
    """

    hand_number: int
    outcome: str
    ender: int | None
    winners: tuple[int, ...]
    counts: tuple[int, ...]
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]
    arrangements: tuple[Arrangement, ...]
    layoffs: tuple[Card, ...] = ()
    difference: tuple[int, ...] = ()
    penalty: tuple[int, ...] = ()
    bonus: tuple[int, ...] = ()

    @property
    def winner(self) -> int | None:
        """The hand's one winner, or ``None`` for a hand shared by tied seats (KR6) or a
        void hand: who the table's talk and summaries say won it."""
        return self.winners[0] if len(self.winners) == 1 else None

    def to_json(self) -> JSONDict:
        return {
            "hand": self.hand_number,
            "outcome": self.outcome,
            "ender": self.ender,
            "knocker": self.ender if self.outcome in ("knock", "undercut", "gin") else None,
            "winners": list(self.winners),
            "winner": self.winner,
            "counts": list(self.counts),
            "scores": list(self.scores),
            "totals": list(self.totals),
            "hands": [[str(c) for c in h] for h in self.hands],
            "arrangements": [a.to_json() for a in self.arrangements],
            "layoffs": [str(c) for c in self.layoffs],
            **_score_parts(self),
        }


def _score_parts(result: HandResult) -> JSONDict:
    """The score split into its lines; a void hand (no scores) has none."""
    zeros = [0] * len(result.scores)
    return {
        "difference": list(result.difference) or zeros,
        "penalty": list(result.penalty) or zeros,
        "bonus": list(result.bonus) or zeros,
    }


def _result_summary(result: HandResult) -> JSONDict:
    return {
        "hand": result.hand_number,
        "outcome": result.outcome,
        "winners": list(result.winners),
        "winner": result.winner,
        "counts": list(result.counts),
        "scores": list(result.scores),
        "totals": list(result.totals),
        **_score_parts(result),
    }


# --------------------------------------------------------------------------- settling


@dataclass(frozen=True, slots=True)
class _Settled:
    """A hand's winners and scores, each score split as ``difference + penalty + bonus``."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    difference: tuple[int, ...]
    penalty: tuple[int, ...]
    bonus: tuple[int, ...]


def knock_rummy_scores(
    counts: Sequence[int], knocker: int | None, rummy: int | None = None
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """KR6 settling: (winners, per-seat scores summing to zero).

    With ``k`` winners sharing, each payment is split into ``k`` equal shares rounded
    down and the payer pays only the ``k`` shares, so a hand always nets to zero.
    """
    settled = _settle_knock_rummy(counts, knocker, rummy)
    return settled.winners, settled.scores


def _settle_knock_rummy(counts: Sequence[int], knocker: int | None, rummy: int | None) -> _Settled:
    n = len(counts)
    diff, penalty, bonus = [0] * n, [0] * n, [0] * n
    if rummy is not None:
        for p in range(n):
            if p != rummy:
                d = counts[p] - counts[rummy]
                diff[p] -= d
                diff[rummy] += d
                bonus[p] -= RUMMY_BONUS
                bonus[rummy] += RUMMY_BONUS
        scores = tuple(diff[p] + bonus[p] for p in range(n))
        return _Settled((rummy,), scores, tuple(diff), tuple(penalty), tuple(bonus))
    low = min(counts)
    tied = [p for p in range(n) if counts[p] == low]
    winners = [p for p in tied if p != knocker] if len(tied) > 1 else tied
    k = len(winners)
    for p in range(n):
        if p in winners:
            continue
        owed = counts[p] - low
        # Shares are rounded down per winner; the penalty's part of a share is what it
        # adds over the share of the difference alone.
        base = owed // k
        share = (owed + (KNOCK_PENALTY if p == knocker else 0)) // k
        diff[p] -= base * k
        penalty[p] -= (share - base) * k
        for w in winners:
            diff[w] += base
            penalty[w] += share - base
    scores = tuple(diff[p] + penalty[p] for p in range(n))
    return _Settled(tuple(winners), scores, tuple(diff), tuple(penalty), tuple(bonus))


def _layoff_choices(defender: int, melds: Sequence[Sequence[Card]], high: bool) -> list[list[int]]:
    """Per knocker meld, every card mask the defender could lay off on it: the fourth
    card of a 3-card set, or a chain extending a run downward and/or upward."""
    out: list[list[int]] = []
    for meld in melds:
        span = run_positions(meld)
        if span is None:
            if len(meld) != 3:
                out.append([0])
                continue
            rank = meld[0] % 13
            missing = [rank + 13 * s for s in range(4) if rank + 13 * s not in meld]
            out.append([0] + [1 << c for c in missing if defender >> c & 1])
            continue
        lo, hi = span
        downs, ups = _run_chains(defender, 13 * (meld[0] // 13), lo, hi, 13 if high else 12)
        out.append([d | u for d in downs for u in ups])
    return out


def _run_chains(
    defender: int, base: int, lo: int, hi: int, top: int
) -> tuple[list[int], list[int]]:
    """The chains the defender could lay off on a run of one suit (cards ``base + lo`` to
    ``base + hi``): downward from ``lo - 1`` and upward from ``hi + 1`` (to ``top``, 13 being
    the high ace), each as the growing masks, the empty chain first."""
    downs, acc, pos = [0], 0, lo - 1
    while pos >= 0 and defender >> (base + pos) & 1:
        acc |= 1 << (base + pos)
        downs.append(acc)
        pos -= 1
    ups, acc, pos = [0], 0, hi + 1
    while pos <= top and defender >> (base + pos % 13) & 1:
        acc |= 1 << (base + pos % 13)
        ups.append(acc)
        pos += 1
    return downs, ups


def best_layoff(
    defender_hand: Sequence[Card], knocker_melds: Sequence[Sequence[Card]], high_aces: bool
) -> tuple[int, int]:
    """The defender's lowest count using own melds plus lay-offs on the knocker's melds
    (exact: every lay-off choice is tried), and the mask of the cards laid off."""
    dm = hand_mask(defender_hand)
    best, best_laid = count_mask(dm, high_aces), 0
    for combo in product(*_layoff_choices(dm, knocker_melds, high_aces)):
        laid = 0
        clash = False
        for part in combo:
            if laid & part:
                clash = True  # two runs' chains reached for the same card
                break
            laid |= part
        if clash or not laid:
            continue
        left = count_mask(dm ^ laid, high_aces)
        if left < best or (left == best and laid.bit_count() < best_laid.bit_count()):
            best, best_laid = left, laid
    return best, best_laid


GIN_OUTCOME: Final = "gin"  # the outcome name of a hand won by going gin


def gin_outcome(knocker_count: int, defender_count: int) -> str:
    """KR8: ``gin`` (the knocker's count is 0), ``undercut`` (the defender's count after
    lay-offs is at or under the knocker's) or ``knock``."""
    if knocker_count == 0:
        return GIN_OUTCOME
    return "undercut" if defender_count <= knocker_count else "knock"


def gin_layoffs_allowed(knocker_count: int) -> bool:
    """KR8: the defender lays off on the knocker's melds, except against gin."""
    return gin_outcome(knocker_count, 0) != GIN_OUTCOME


def gin_settlement(
    knocker_hand: Sequence[Card], defender_hand: Sequence[Card], high_aces: bool = False
) -> tuple[str, int, int, Arrangement, Arrangement, tuple[Card, ...]]:
    """KR8 showdown for a knock at 10 or less: (outcome, knocker count, defender
    count, knocker layout, defender layout after lay-offs, cards laid off).

    The knocker lays out a lowest-deadwood arrangement; among ties, the one that lets
    the defender lay off least (leaves the defender's count highest).
    """
    layouts = min_arrangements(knocker_hand, high_aces)
    k_count = layouts[0].deadwood_points
    if not gin_layoffs_allowed(k_count):
        d_layout = arrange(tuple(defender_hand), high_aces)
        return "gin", 0, d_layout.deadwood_points, layouts[0], d_layout, ()
    chosen, d_count, laid_mask = layouts[0], -1, 0
    for layout in layouts:
        got, laid = best_layoff(defender_hand, layout.melds, high_aces)
        if got > d_count:
            chosen, d_count, laid_mask = layout, got, laid
    laid_cards = tuple(c for c in sorted(defender_hand) if laid_mask >> c & 1)
    rest = tuple(c for c in sorted(defender_hand) if not laid_mask >> c & 1)
    d_layout = arrange(rest, high_aces)
    return gin_outcome(k_count, d_count), k_count, d_count, chosen, d_layout, laid_cards


def _gin_counts(knocker: int, defender: int, high: bool) -> tuple[int, int]:
    """The knocker's count and the defender's after lay-offs, as :func:`gin_settlement`
    finds them (the same search), without building the laid-out hands."""
    k_count = count_mask(knocker, high)
    if not gin_layoffs_allowed(k_count):
        return k_count, count_mask(defender, high)
    # The same search as best_layoff over min_arrangements, on masks: the layouts' melds
    # come as masks (no Arrangement, no card tuples) and only the count is kept, which
    # does not depend on the order the choices are tried in. A fifth of a Gin search went
    # into the old form (issue 17, branch fast18; tests/test_search_fast.py compares them).
    plain = count_mask(defender, high)
    top = 13 if high else 12
    d_count = -1
    for sets, runs in min_layout_masks(knocker, high):
        choices: list[list[int]] = []
        for used in sets:
            if used.bit_count() == 3:  # the fourth card of the rank, if the defender has it
                rank = (used & -used).bit_length() - 1
                spare = (_RANK_CARDS[rank % 13] ^ used) & defender
                if spare:
                    choices.append([0, spare])
        for suit, ranks in runs:
            # The chains the defender could add below and above the run (_layoff_choices).
            lo, hi = ranks[0], ranks[-1]
            if hi == 0 and lo != 0:
                hi = 13  # an ace-high run (run_positions)
            downs, ups = _run_chains(defender, 13 * suit, lo, hi, top)
            if len(downs) > 1 or len(ups) > 1:
                choices.append([d | u for d in downs for u in ups])
        best = plain
        for combo in product(*choices) if choices else ():
            laid = 0
            for part in combo:
                if laid & part:
                    break  # two melds reached for the same card
                laid |= part
            else:
                if laid:
                    left = count_mask(defender ^ laid, high)
                    if left < best:
                        best = left
        if best > d_count:
            d_count = best
    return k_count, d_count


#: Per rank, the mask of its four cards.
_RANK_CARDS: Final = tuple(sum(1 << (rank + 13 * s) for s in range(4)) for rank in range(13))


def gin_points(outcome: str, knocker_count: int, defender_count: int) -> tuple[bool, int]:
    """KR8: whether the knocker wins the hand, and the points the winner scores, for a
    :func:`gin_settlement` outcome (gin: the defender's count + 25; undercut: the
    difference + 25 to the defender; knock: the difference)."""
    knocker_wins, difference, bonus = _gin_parts(outcome, knocker_count, defender_count)
    return knocker_wins, difference + bonus


def _gin_parts(outcome: str, knocker_count: int, defender_count: int) -> tuple[bool, int, int]:
    """KR8's parts: whether the knocker wins, the count difference the winner scores and
    the gin or undercut bonus on top."""
    if outcome == "gin":
        return True, defender_count, GIN_BONUS
    if outcome == "undercut":
        return False, knocker_count - defender_count, GIN_BONUS
    return True, defender_count - knocker_count, 0


# --------------------------------------------------------------------------- events
#
# The events of a turn's moves, built once per seat and card: the public API logs one or
# two per action, and building each (a frozen dataclass and its dict) cost about as much
# as the move. Events are immutable by contract (nothing changes an event's ``data``), so
# every game shares these; they are equal to, and serialise as, freshly built ones.

_SEATS: Final = range(5)
assert Event.__slots__ == ("kind", "seat", "data", "private_to")


def _blank_of(cls: type) -> type:
    """A plain class with ``cls``'s slots in the same order, to build a frozen ``cls``
    without its ``__init__``: the fields are set by plain (specialised) slot stores, then
    the object becomes a ``cls`` by ``__class__`` assignment, which CPython allows between
    heap types of the same layout. No instance of it outlives its builder."""
    slots: tuple[str, ...] = vars(cls)["__slots__"]
    return type(f"_{cls.__name__}Blank", (), {"__slots__": slots})


_EventBlank: Final = _blank_of(Event)
_HandResultBlank: Final = _blank_of(HandResult)


def _event(kind: str, seat: int | None, data: Mapping[str, Any], private_to: int | None) -> Event:
    """``Event(kind, seat, data, private_to=private_to)``, built on a blank
    (:func:`_blank_of`), not by the frozen dataclass's ``__init__`` (its four
    ``object.__setattr__`` calls) or the slots' setters (four method-wrapper calls, each
    packing its arguments in a tuple): the events of each deal and hand end. The same
    object as ``Event(...)`` makes: an ``Event``, equal to it, with the same fields."""
    event: Any = _EventBlank()
    event.kind = kind
    event.seat = seat
    event.data = data
    event.private_to = private_to
    event.__class__ = Event
    return event  # type: ignore[no-any-return]


def _hand_result(
    hand_number: int,
    outcome: str,
    ender: int | None,
    winners: tuple[int, ...],
    counts: tuple[int, ...],
    scores: tuple[int, ...],
    totals: tuple[int, ...],
    hands: tuple[tuple[Card, ...], ...],
    arrangements: tuple[Arrangement, ...],
    layoffs: tuple[Card, ...] = (),
    difference: tuple[int, ...] = (),
    penalty: tuple[int, ...] = (),
    bonus: tuple[int, ...] = (),
) -> HandResult:
    """``HandResult(...)`` (the fields in its order), built on a blank (:func:`_blank_of`)
    as :func:`_event` builds an event: without the frozen dataclass's thirteen
    ``object.__setattr__`` calls."""
    result: Any = _HandResultBlank()
    result.hand_number = hand_number
    result.outcome = outcome
    result.ender = ender
    result.winners = winners
    result.counts = counts
    result.scores = scores
    result.totals = totals
    result.hands = hands
    result.arrangements = arrangements
    result.layoffs = layoffs
    result.difference = difference
    result.penalty = penalty
    result.bonus = bonus
    result.__class__ = HandResult
    return result  # type: ignore[no-any-return]


# Every field of ``HandResult`` is a parameter of ``_hand_result``, in order (a field added
# to the class must be set there too).
assert _hand_result.__code__.co_varnames[: _hand_result.__code__.co_argcount] == tuple(
    f.name for f in dataclass_fields(HandResult)
)


def _per_card(
    kind: str, seat: int, data: Mapping[str, Any], private: bool = False
) -> tuple[Event, ...]:
    return tuple(
        Event(kind, seat, {**data, "card": c}, private_to=seat if private else None)
        for c in DECK_52
    )


_EV_DRAW_PILE: Final = tuple(_per_card("draw", p, {"source": "discard"}) for p in _SEATS)
_EV_DRAW_STOCK_SEEN: Final = tuple(_per_card("draw", p, {"source": "stock"}) for p in _SEATS)
_EV_DRAW_STOCK: Final = tuple(Event("draw", p, {"source": "stock"}) for p in _SEATS)
_EV_DRAW_CARD: Final = tuple(_per_card("draw_card", p, {}, private=True) for p in _SEATS)
_EV_DISCARD: Final = tuple(_per_card("discard", p, {}) for p in _SEATS)
# The same events as the tuples the hot moves return (each move's events as the public
# API's ``apply`` returns them): a lookup, where building a tuple per action cost more.
_EVS_DRAW_PILE: Final = tuple(tuple((e,) for e in seat) for seat in _EV_DRAW_PILE)
_EVS_DRAW_STOCK_SEEN: Final = tuple(tuple((e,) for e in seat) for seat in _EV_DRAW_STOCK_SEEN)
_EVS_DRAW_STOCK: Final = tuple(
    tuple((_EV_DRAW_STOCK[p], e) for e in _EV_DRAW_CARD[p]) for p in _SEATS
)
_EVS_DISCARD: Final = tuple(tuple((e,) for e in seat) for seat in _EV_DISCARD)
# Per seat and card, the card's bit with the move's events (with a pile draw, the card's
# bit in its 13-bit suit field too): one lookup by card where there were two, as a ``Card``
# index (an ``int`` subclass) misses CPython 3.11's specialised tuple index and costs about
# twice an exact int's. The moves with events read these; without (the playouts), ``_BIT``.
_DISCARD_LOGGED: Final = tuple(tuple(zip(_BIT, seat, strict=True)) for seat in _EVS_DISCARD)
_DRAW_PILE_LOGGED: Final = tuple(
    tuple((_BIT[c], logged, 1 << (c % 13)) for c, logged in enumerate(seat))
    for seat in _EVS_DRAW_PILE
)
_NO_EVENTS: Final[tuple[Event, ...]] = ()
_DRAW_STOCK_LOGGED: Final = tuple(tuple(zip(_BIT, seat, strict=True)) for seat in _EVS_DRAW_STOCK)

#: Passed as a hot move's ``events`` (:meth:`KrTable._draw`, :meth:`KrTable._discard`):
#: log the move in the hand's log and return its events, appending them to no list (the
#: public API's ``apply``, which returns them as a tuple). Nothing is ever appended to it.
TABLE_LOG: Final[list[Event]] = []


# --------------------------------------------------------------------------- the table


class KrTable:
    """A Knock Rummy or Gin table in play, changed in place by :meth:`play`.

    ``hands`` and ``known`` are 52-bit masks per seat; ``stock`` and ``pile`` are lists
    with the top last. ``known`` holds, per seat, the cards everyone has seen enter that
    hand (taken from the discard pile, or drawn from a stock that was the face-up pile
    turned over) and not discarded since; ``public`` is true once the pile has been
    turned over this hand. With ``single_hand`` the table stops when the hand ends
    (``phase`` ``over``, ``hand_scores`` set) instead of dealing the next one.
    ``log_base`` and ``log_new`` are the hand's event log (the public state's ``log``).
    ``only_discards``: after a draw logged for the public API (:data:`TABLE_LOG`), when no
    knock and no rummy is legal (nearly every discard of a random Gin hand), the legal
    actions (the discards alone, as :func:`legal_list` lists them) and their card mask
    ``only_discards_mask``; else ``None`` (ask :func:`discard_masks`), and after such a
    draw the mask ``None`` too (the public API's ``apply`` keeps both in the new state's
    node, where ``None`` means "not worked out").
    """

    __slots__ = (
        "dealer",
        "hand_number",
        "hand_scores",
        "hands",
        "known",
        "last_result",
        "log_base",
        "log_new",
        "only_discards",
        "only_discards_mask",
        "opts",
        "phase",
        "pile",
        "public",
        "seed",
        "seen",
        "single_hand",
        "stock",
        "taken",
        "to_act",
        "totals",
        "turnovers",
        "winners",
    )

    opts: KnockRummyOptions
    seed: int
    hand_number: int
    dealer: int
    hands: list[int]
    stock: list[Card]
    pile: list[Card]
    phase: str
    to_act: int | None
    taken: Card | None
    turnovers: int
    public: bool
    known: list[int]
    totals: list[int]
    last_result: HandResult | None
    winners: tuple[int, ...]
    single_hand: bool
    hand_scores: list[int] | None
    log_base: tuple[Event, ...]
    log_new: list[Event]
    seen: list[list[Event]] | None
    only_discards: tuple[Discard, ...] | None
    only_discards_mask: int | None

    def copy(self) -> KrTable:
        """An independent table (lists copied; events and results are immutable)."""
        t = KrTable.__new__(KrTable)
        t.opts = self.opts
        t.seed = self.seed
        t.hand_number = self.hand_number
        t.dealer = self.dealer
        t.hands = self.hands[:]
        t.stock = self.stock[:]
        t.pile = self.pile[:]
        t.phase = self.phase
        t.to_act = self.to_act
        t.taken = self.taken
        t.turnovers = self.turnovers
        t.public = self.public
        t.known = self.known[:]
        t.totals = self.totals[:]
        t.last_result = self.last_result
        t.winners = self.winners
        t.single_hand = self.single_hand
        t.hand_scores = None if self.hand_scores is None else self.hand_scores[:]
        t.log_base = self.log_base
        t.log_new = self.log_new[:]
        t.seen = None if self.seen is None else [v[:] for v in self.seen]
        t.only_discards = self.only_discards
        t.only_discards_mask = self.only_discards_mask
        return t

    def track_seen(self) -> None:
        """From now on keep, per seat, the hand's log as that seat sees it (``seen``), so
        that an observation need not filter the whole log (the learning environments)."""
        log = (*self.log_base, *self.log_new)
        self.seen = [
            [e for e in log if e.private_to is None or e.private_to == p]
            for p in range(self.opts.players)
        ]

    # -- the deal ----------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        opts: KnockRummyOptions,
        seed: int,
        events: list[Event] | None = None,
        *,
        single_hand: bool = False,
    ) -> KrTable:
        """The first hand of a game; seat 0 deals first."""
        t = KrTable.blank(opts, seed, [0] * opts.players)
        t.single_hand = single_hand
        t._deal(1, 0, events)
        return t

    @classmethod
    def blank(cls, opts: KnockRummyOptions, seed: int, totals: list[int]) -> KrTable:
        """A table with no hand on it yet: the options, the seed and the totals, and every
        field a position does not give at its start (no last result or winners, no log, no
        tracked logs, no hand scores, no legal actions worked out, playing on past the
        hand's end). Every maker of a table starts from this (the deal, ``rules._load``,
        ``bots/kr_playout``), then sets the position's fields, so that a field added to
        the table (such as ``only_discards``) gets its start value in one place."""
        t = cls.__new__(cls)
        t.opts = opts
        t.seed = seed
        t.totals = totals
        t.last_result = None
        t.winners = ()
        t.single_hand = False
        t.hand_scores = None
        t.log_base = ()
        t.log_new = []
        t.seen = None
        t.only_discards = None
        t.only_discards_mask = 0
        return t

    def _deal(self, hand_number: int, dealer: int, events: list[Event] | None) -> None:
        """KR1: shuffle (from the seed and hand number), deal one card at a time from the
        dealer's left, flip one card to start the discard pile."""
        n = self.opts.players
        # ``shuffled(DECK_52, derive_rng(self.seed, hand_number))``, cheaper.
        deck = shuffled_by_key(DECK_52, derive_key(self.seed, hand_number))
        # One card at a time from the dealer's left, from the top (the deck's end): the
        # k-th seat from the dealer gets the k-th, (k + n)-th, ... cards from the top.
        # Taken as slices, each hand's mask summed in C (its bits are distinct).
        total = deal_size(n) * n
        top = deck[-total:]
        del deck[-total:]
        hands = [0] * n
        for k in range(1, n + 1):
            hands[(dealer + k) % n] = sum(map(_BIT.__getitem__, top[total - k :: -n]))
        upcard = deck.pop()
        self.hand_number = hand_number
        self.dealer = dealer
        self.hands = hands
        self.stock = deck
        self.pile = [upcard]
        self.phase = DRAW
        self.to_act = (dealer + 1) % n
        self.taken = None
        self.turnovers = 0
        self.public = False
        self.known = [0] * n
        self.hand_scores = None
        self.log_base = ()
        self.only_discards = None
        self.only_discards_mask = 0
        if self.seen is not None:
            self.seen = [[] for _ in range(n)]
        if events is None:
            self.log_new = []
            return
        size = deal_size(n)
        dealt = [
            _event(
                "deal",
                None,
                {
                    "hand": hand_number,
                    "dealer": dealer,
                    "sizes": [size] * n,
                    "upcard": upcard,
                    "stock_size": len(deck),
                },
                None,
            )
        ]
        for seat, h in enumerate(hands):  # a loop, not ``extend`` of a generator: no C recursion
            dealt.append(_event("dealt", seat, {"cards": cards_of_mask(h)}, seat))
        self.log_new = dealt
        events.extend(dealt)
        if self.seen is not None:
            for p, seen in enumerate(self.seen):
                seen.extend(e for e in dealt if e.private_to is None or e.private_to == p)

    # -- legality ----------------------------------------------------------------------

    def legal(self) -> tuple[KnockRummyAction, ...]:
        """Every action of the seat to act (:func:`legal_list`)."""
        seat = self.to_act
        if seat is None:
            return ()
        return legal_list(
            self.opts,
            self.phase,
            self.hands[seat],
            self.taken,
            len(self.stock),
            len(self.pile),
            self.turnovers,
        )

    def reason(self, action: object) -> str | None:
        """Why ``action`` is illegal now, or ``None`` (:func:`reason`)."""
        seat = self.to_act
        return reason(
            self.opts,
            self.phase,
            seat,
            0 if seat is None else self.hands[seat],
            self.taken,
            len(self.stock),
            len(self.pile),
            self.turnovers,
            action,
        )

    # -- moves -------------------------------------------------------------------------

    def play(self, action: KnockRummyAction, events: list[Event] | None = None) -> None:
        """Play one action of the seat to act, which the caller has checked is legal
        (:meth:`reason`); ``events`` (if given) receives what happened, as the table
        saw it, and the hand's log keeps them."""
        seat = self.to_act
        assert seat is not None
        kind = type(action)
        if kind is Discard:
            self._discard(seat, action.card, events)  # type: ignore[union-attr]
        elif kind is Draw:
            self._draw(seat, action.source, events)  # type: ignore[union-attr]
        elif kind is Knock:
            c = action.discard  # type: ignore[union-attr]
            assert c is not None
            if events is not None:
                self._log(events, _event("knock", seat, {"discard": c}, None))
            self._to_pile(seat, c, events)
            self._end_by_knock(seat, events)
        else:
            c = action.discard  # type: ignore[union-attr]
            if c is not None:
                self._to_pile(seat, c, events)
            if events is not None:
                self._log(events, _event("rummy", seat, {"discard": c}, None))
            self._end_hand("rummy", seat, events)

    # The draw and the plain discard (all but the last action of a hand) are written out
    # in one method each rather than through helpers: a call costs as much as the move
    # itself, and the public API, the playouts and the learning environments all run them.

    def _discard(
        self, seat: int, c: Card, events: list[Event] | None
    ) -> tuple[Event, ...] | list[Event]:
        """The plain discard. While the hand goes on, returns its events as a tuple (``()``
        without ``events``); once it voided the hand (the next hand is dealt, or the game
        is over), the list of the events (``events`` itself, a new list for
        :data:`TABLE_LOG`), so that the public API's ``apply`` needs no other check."""
        logged: tuple[Event, ...]
        if events is TABLE_LOG:
            bit, logged = _DISCARD_LOGGED[seat][c]
        else:
            bit = _BIT[c]
            logged = _NO_EVENTS
        self.hands[seat] ^= bit
        known = self.known
        if known[seat] & bit:  # seldom: most discards were never seen entering the hand
            known[seat] ^= bit
        self.pile.append(c)
        self.taken = None
        if events is not None:
            if events is TABLE_LOG:
                event = logged[0]
            else:
                event = _EV_DISCARD[seat][c]
                events.append(event)
            self.log_new.append(event)
            seen = self.seen
            if seen is not None:  # _see, inline: a discard is public
                for log in seen:
                    log.append(event)
        # Both ways a hand goes void leave at most GIN_VOID_STOCK stock cards, so the
        # rule (``void_reason``) is asked only then.
        if len(self.stock) <= GIN_VOID_STOCK:
            why = self.void_reason()
            if why is not None:
                out = [*logged] if events is TABLE_LOG else [] if events is None else events
                self._void(why, None if events is None else out)
                return out
        self.phase = DRAW
        self.to_act = (seat + 1) % self.opts.players
        return logged

    def _draw(self, seat: int, source: str, events: list[Event] | None) -> tuple[Event, ...]:
        """A draw; returns its events as a tuple (``()`` without ``events``). Logged for
        the public API (:data:`TABLE_LOG`), it also sets ``only_discards`` (below)."""
        if source == "discard":
            c = self.pile.pop()
            logged: tuple[Event, ...]
            if events is None:
                bit = _BIT[c]
            else:
                bit, logged, field_bit = _DRAW_PILE_LOGGED[seat][c]
            mask = self.hands[seat] | bit
            self.hands[seat] = mask
            self.known[seat] |= bit
            self.taken = c
            self.phase = DISCARD
            if events is None:
                self.only_discards = None
                return ()
            event = logged[0]
            self.log_new.append(event)
            seen = self.seen
            if seen is not None:  # _see, inline: a draw from the pile is public
                for log in seen:
                    log.append(event)
            if events is not TABLE_LOG:
                events.append(event)
                self.only_discards = None
                return ()
        else:
            turned: tuple[Event, ...] = ()
            if not self.stock:
                if events is TABLE_LOG:
                    out: list[Event] = []
                    self._turn_over(seat, out)
                    turned = tuple(out)
                else:
                    self._turn_over(seat, events)
            c = self.stock.pop()
            if events is None:
                bit = _BIT[c]
            else:
                bit, pair = _DRAW_STOCK_LOGGED[seat][c]
            mask = self.hands[seat] | bit
            self.hands[seat] = mask
            self.taken = None
            self.phase = DISCARD
            if events is None:
                if self.public:
                    self.known[seat] |= bit
                self.only_discards = None
                return ()
            if self.public:
                self.known[seat] |= bit
                logged = _EVS_DRAW_STOCK_SEEN[seat][c]
                self._log(events, logged[0])
                logged = turned + logged
            else:
                event, card_event = pair
                log = self.log_new
                log.append(event)
                log.append(card_event)
                seen = self.seen
                if seen is not None:  # _see, inline: the draw is public, its card private
                    for log in seen:
                        log.append(event)
                    seen[seat].append(card_event)
                logged = turned + pair if turned else pair
            if events is not TABLE_LOG:
                if not self.public:
                    events.append(event)
                    events.append(card_event)
                self.only_discards = None
                return logged
        # The public API lists the seat's legal actions next: when the count's floor
        # (below) proves that no discard leaves a count within the knock limit, there is
        # no knock and no rummy, and the legal actions are the discards of every card but
        # one just taken from the pile (``discard_masks``' answer, without its call: the
        # hot case, nearly every discard of a random Gin hand). The floor: the runs-only
        # deadwood (each suit alone) less the points of every card of a rank held three
        # or four times, since sets take only such cards out of their suits, and taking
        # cards out of a suit lowers its deadwood by at most their points; a discard
        # lowers it by at most the highest card value. (``tests/test_kr_legal_masks.py``
        # checks the answer against ``legal_masks``.)
        opts = self.opts
        limit = opts.knock_limit
        if limit is None:
            self.only_discards = None
            self.only_discards_mask = None
            return logged
        # One field a statement, cut from the mask's 26-bit halves: shifts and ands of
        # one-digit ints take CPython's fast paths.
        lo = mask & 0x3FFFFFF
        hi = mask >> 26
        fa = lo & 0x1FFF
        fb = lo >> 13
        fc = hi & 0x1FFF
        fd = hi >> 13
        table = _T_HIGH if opts.high_aces else _T_LOW
        floor = table[fa] + table[fb] + table[fc] + table[fd]
        trip = (fa & fb & (fc | fd)) | (fc & fd & (fa | fb))
        if trip:
            points = _FIELD_POINTS
            floor -= points[fa & trip] + points[fb & trip] + points[fc & trip] + points[fd & trip]
        if floor - _MAX_VALUE <= limit:
            self.only_discards = None
            self.only_discards_mask = None
            return logged
        if source == "discard":  # the card taken may not be discarded: clear its field's bit
            mask ^= bit
            if c < 26:
                if c < 13:
                    fa ^= field_bit
                else:
                    fb ^= field_bit
            elif c < 39:
                fc ^= field_bit
            else:
                fd ^= field_bit
        self.only_discards_mask = mask
        self.only_discards = _D0[fa] + _D1[fb] + _D2[fc] + _D3[fd]
        return logged

    def _log(self, events: list[Event], event: Event) -> None:
        if events is not TABLE_LOG:
            events.append(event)
        self.log_new.append(event)
        if self.seen is not None:
            self._see(event)

    def _see(self, event: Event) -> None:
        """Add an event to each ``seen`` log that may see it (tracked tables only)."""
        seen = self.seen
        assert seen is not None
        private = event.private_to
        if private is None:
            for log in seen:
                log.append(event)
        else:
            seen[private].append(event)

    def _turn_over(self, seat: int, events: list[Event] | None) -> None:
        """KR7: turn the face-up pile face down as it lies: its bottom card becomes the
        top of the stock. Everyone saw the pile, so the order is public."""
        self.pile.reverse()
        self.stock, self.pile = self.pile, []
        self.turnovers += 1
        self.public = True
        if events is not None:
            self._log(
                events,
                _event(
                    "turn_over",
                    seat,
                    {"turnover": self.turnovers, "stock_size": len(self.stock)},
                    None,
                ),
            )

    def _to_pile(self, seat: int, c: Card, events: list[Event] | None) -> None:
        """The card leaves the hand (and the seat's known cards) for the pile (a knock's
        or rummy's discard; :meth:`play` writes the plain discard's out)."""
        bit = _BIT[c]
        self.hands[seat] ^= bit
        self.known[seat] &= ~bit
        self.pile.append(c)
        self.taken = None
        if events is not None:
            self._log(events, _EV_DISCARD[seat][c])

    def void_reason(self) -> str | None:
        """KR7/KR8 after a plain discard: why the hand is void now, or ``None``."""
        if self.opts.gin and len(self.stock) <= GIN_VOID_STOCK:
            return "only two cards are left in the stock"
        if not self.stock and self.turnovers >= MAX_TURNOVERS:
            return "the stock ran out a third time"
        return None

    # -- the end of a hand ------------------------------------------------------------

    def _void(self, why: str, events: list[Event] | None) -> None:
        """KR7/KR8: no score; the same dealer deals again.

        A dead hand is thrown in unseen, so the result's ``hands`` hold only what the
        table saw of each hand (its ``known`` cards), never the rest."""
        n = self.opts.players
        result = None
        if events is not None:
            self._log(events, _event("void", None, {"reason": why}, None))
            result = _hand_result(
                self.hand_number,
                "void",
                None,
                (),
                (0,) * n,
                (0,) * n,
                tuple(self.totals),
                tuple(map(cards_of_mask, self.known)),
                (),
            )
            self._log(events, _event("hand_result", None, _result_summary(result), None))
        self._after_hand(result, [0] * n, self.dealer, events)

    def _end_by_knock(self, knocker: int, events: list[Event] | None) -> None:
        if not self.opts.gin:
            self._end_hand("knock", knocker, events)
            return
        # KR8 scoring: only the hand's winner scores (the standard gin way).
        defender = 1 - knocker
        high = self.opts.high_aces
        k_mask, d_mask = self.hands[knocker], self.hands[defender]
        if events is None:
            k_count, d_count = _gin_counts(k_mask, d_mask, high)
            outcome = gin_outcome(k_count, d_count)
            layouts: tuple[Arrangement, ...] = ()
            laid: tuple[Card, ...] = ()
        else:
            outcome, k_count, d_count, k_layout, d_layout, laid = gin_settlement(
                cards_of_mask(k_mask), cards_of_mask(d_mask), high
            )
            layouts = (k_layout, d_layout) if knocker == 0 else (d_layout, k_layout)
        diff, bonus = [0, 0], [0, 0]
        knocker_wins, difference, extra = _gin_parts(outcome, k_count, d_count)
        winner = knocker if knocker_wins else defender
        diff[winner], bonus[winner] = difference, extra
        scores = (diff[0] + bonus[0], diff[1] + bonus[1])
        settled = _Settled((winner,), scores, tuple(diff), (0, 0), tuple(bonus))
        counts = [0, 0]
        counts[knocker], counts[defender] = k_count, d_count
        self._finish(outcome, knocker, settled, tuple(counts), layouts, laid, events)

    def _end_hand(self, outcome: str, ender: int, events: list[Event] | None) -> None:
        """KR6: a knock or rummy in Knock Rummy, settled on every hand's count."""
        high = self.opts.high_aces
        if events is None:
            counts = tuple(count_mask(h, high) for h in self.hands)
            arrangements: tuple[Arrangement, ...] = ()
        else:
            arrangements = tuple(arrange(cards_of_mask(h), high) for h in self.hands)
            counts = tuple(a.deadwood_points for a in arrangements)
        if outcome == "rummy":
            settled = _settle_knock_rummy(counts, None, ender)
        else:
            settled = _settle_knock_rummy(counts, ender, None)
        self._finish(outcome, ender, settled, counts, arrangements, (), events)

    def _finish(
        self,
        outcome: str,
        ender: int,
        settled: _Settled,
        counts: tuple[int, ...],
        arrangements: tuple[Arrangement, ...],
        layoffs: tuple[Card, ...],
        events: list[Event] | None,
    ) -> None:
        winners = settled.winners
        totals = self.totals
        for p, s in enumerate(settled.scores):
            totals[p] += s
        result = None
        if events is not None:
            result = _hand_result(
                self.hand_number,
                outcome,
                ender,
                winners,
                counts,
                settled.scores,
                tuple(totals),
                tuple(map(cards_of_mask, self.hands)),
                arrangements,
                layoffs,
                settled.difference,
                settled.penalty,
                settled.bonus,
            )
            self._log(
                events,
                _event(
                    "showdown",
                    ender,
                    {
                        "outcome": outcome,
                        "hands": result.hands,
                        "arrangements": arrangements,
                        "counts": list(counts),
                        "layoffs": layoffs,
                    },
                    None,
                ),
            )
            self._log(events, _event("hand_result", None, _result_summary(result), None))
        n = self.opts.players
        # KR1: with two players the hand's winner deals next; with more the deal passes left.
        dealer = winners[0] if n == 2 else (self.dealer + 1) % n
        self._after_hand(result, list(settled.scores), dealer, events)

    def _after_hand(
        self,
        result: HandResult | None,
        scores: list[int],
        dealer: int,
        events: list[Event] | None,
    ) -> None:
        totals = self.totals
        if self.single_hand:
            self.hand_scores = scores
            self.phase = OVER
            self.to_act = None
            self.taken = None
            return
        if max(totals) >= self.opts.target:
            best = max(totals)
            winners = tuple(p for p, t in enumerate(totals) if t == best)
            self.phase = OVER
            self.to_act = None
            self.taken = None
            self.last_result = result
            self.winners = winners
            if events is not None:
                self._log(
                    events,
                    _event(
                        "game_over", None, {"winners": list(winners), "totals": list(totals)}, None
                    ),
                )
            return
        self.last_result = result
        self._deal(self.hand_number + 1, dealer, events)
