"""Knock Rummy rules (KR1-KR7) and the Gin Rummy preset (KR8) behind the engine API.

The state is immutable; ``apply`` returns a new state and the events it caused.
A hand ends inside the ``apply`` that knocks, goes rummy or voids it; the next hand
is dealt in the same call (the finished hand lives on in ``last_result``), so a
live state is always either waiting for a seat to act or the game is over.

Readings the rulings leave open, settled here:

* Shared wins (KR6): with ``k`` winners each payment is split into ``k`` equal shares
  rounded down and the payer pays only the shares handed out, so every Knock Rummy
  hand sums to exactly zero.
* Gin (KR8) scores the standard way: only the hand's winner adds points (difference,
  undercut or gin), and the game ends when a total reaches the target.
* After the pile is turned over (KR7) its order is common knowledge, so draws from
  that stock are public and observations show the stock (``public_stock``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from itertools import product
from operator import attrgetter
from typing import Any, Final, Literal

from deadwood_knock.cards import DECK_52, Card, shuffled
from deadwood_knock.games.base import (
    Event,
    Game,
    GameError,
    IllegalActionError,
    JSONDict,
    PositionError,
    RuleFacts,
    card_from_json,
    cards_from_json,
    derive_rng,
)
from deadwood_knock.games.knock_rummy.melds import (
    Arrangement,
    arrange,
    count_mask,
    hand_mask,
    min_arrangements,
    run_positions,
)
from deadwood_knock.games.points import CARD_POINTS

_VALUE: Final = CARD_POINTS

__all__ = [
    "GAME",
    "GIN_GAME",
    "Discard",
    "Draw",
    "HandResult",
    "Knock",
    "KnockRummyAction",
    "KnockRummyObservation",
    "KnockRummyOptions",
    "KnockRummyState",
    "Rummy",
    "action_from_json",
    "apply",
    "best_layoff",
    "deal_size",
    "determinize",
    "gin_layoffs_allowed",
    "gin_options_from_json",
    "gin_outcome",
    "gin_points",
    "gin_settlement",
    "is_legal",
    "knock_rummy_scores",
    "legal_actions",
    "new_game",
    "observe",
    "position_from_json",
    "position_to_json",
    "why_illegal",
]

KR_NAME: Final = "knock-rummy"
GIN_NAME: Final = "gin"
KNOCK_PENALTY: Final = 10  # KR6: a knocker who does not win pays the winner this too
RUMMY_BONUS: Final = 25  # KR6: going rummy, from each other player
GIN_BONUS: Final = 25  # KR8: gin, and an undercut
GIN_LIMIT: Final = 10  # KR8: the fixed knock limit of the Gin preset
GIN_VOID_STOCK: Final = 2  # KR8: the hand is void when only this many stock cards remain
MAX_TURNOVERS: Final = 2  # KR7
PHASES: Final = ("draw", "discard", "over")
_OPTION_KEYS: Final = frozenset({"players", "knock_limit", "high_aces", "target", "gin"})


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


def gin_options_from_json(data: Mapping[str, Any]) -> KnockRummyOptions:
    """Options for the Gin preset: ``gin`` is implied (and may not be false)."""
    if not isinstance(data, Mapping):
        raise GameError("options must be an object")
    if data.get("gin", True) is not True:
        raise GameError("the gin game always has gin: true")
    return KnockRummyOptions.from_json({**data, "gin": True})


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


def action_from_json(data: Mapping[str, Any]) -> KnockRummyAction:
    """Parse ``{"type": ...}`` action JSON; anything malformed is a GameError."""
    if not isinstance(data, Mapping):
        raise GameError("an action must be an object with a 'type'")
    kind = data.get("type")
    allowed = {"draw": {"source"}, "discard": {"card"}, "knock": {"discard"}, "rummy": {"discard"}}
    if kind not in allowed:
        raise GameError(f"unknown action type {kind!r}; use draw, discard, knock or rummy")
    extra = set(data) - allowed[str(kind)] - {"type"}
    if extra:
        raise GameError(f"unexpected key(s) for {kind}: {', '.join(sorted(extra))}")
    if kind == "draw":
        source = data.get("source")
        if source == "stock":
            return Draw("stock")
        if source == "discard":
            return Draw("discard")
        raise GameError("draw source must be 'stock' or 'discard'")
    if kind == "discard":
        return Discard(card_from_json(data.get("card"), "card", jokers=False))
    if kind == "knock":
        return Knock(card_from_json(data.get("discard"), "discard", jokers=False))
    value = data.get("discard")
    return Rummy(None if value is None else card_from_json(value, "discard", jokers=False))


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

    def to_json(self) -> JSONDict:
        return {
            "hand": self.hand_number,
            "outcome": self.outcome,
            "ender": self.ender,
            "knocker": self.ender if self.outcome in ("knock", "undercut", "gin") else None,
            "winners": list(self.winners),
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


# --------------------------------------------------------------------------- state


@dataclass(frozen=True, slots=True)
class KnockRummyState:
    """The whole table. Hands are kept sorted; stock and discard pile have their top last.

    ``known`` holds, per seat, the cards everyone has seen enter that hand (taken from
    the discard pile, or drawn from a stock that was the face-up pile turned over) and
    not discarded since. ``stock_public`` is true once the pile has been turned over
    this hand: everyone saw that pile, so the stock's order is common knowledge.
    """

    options: KnockRummyOptions
    seed: int = field(repr=False)
    hand_number: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    discard_pile: tuple[Card, ...]
    phase: str
    to_act: int | None
    taken_discard: Card | None
    turnovers: int
    stock_public: bool
    known: tuple[tuple[Card, ...], ...]
    totals: tuple[int, ...]
    log: tuple[Event, ...] = ()
    last_result: HandResult | None = None
    winners: tuple[int, ...] = ()

    @property
    def over(self) -> bool:
        return self.phase == "over"


_STATE_FIELDS: Final = tuple(f.name for f in fields(KnockRummyState))
_STATE_VALUES: Final = attrgetter(*_STATE_FIELDS)
_STATE_INDEX: Final = {name: i for i, name in enumerate(_STATE_FIELDS)}


def _replace(state: KnockRummyState, **changes: Any) -> KnockRummyState:
    """``dataclasses.replace`` without its per-call field introspection (hot path);
    positional arguments, as a keyword call costs more."""
    values = list(_STATE_VALUES(state))
    for name, value in changes.items():
        values[_STATE_INDEX[name]] = value
    return KnockRummyState(*values)


def _sorted(cards: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards))


def _deal(
    options: KnockRummyOptions,
    seed: int,
    hand_number: int,
    dealer: int,
    totals: tuple[int, ...],
    last_result: HandResult | None,
) -> tuple[KnockRummyState, tuple[Event, ...]]:
    """KR1: shuffle (from the seed and hand number), deal one card at a time from the
    dealer's left, flip one card to start the discard pile."""
    n = options.players
    deck = shuffled(DECK_52, derive_rng(seed, hand_number))
    hands: list[list[Card]] = [[] for _ in range(n)]
    for _ in range(deal_size(n)):
        for k in range(1, n + 1):
            hands[(dealer + k) % n].append(deck.pop())
    upcard = deck.pop()
    first = (dealer + 1) % n
    events: list[Event] = [
        Event(
            "deal",
            None,
            {
                "hand": hand_number,
                "dealer": dealer,
                "sizes": [len(h) for h in hands],
                "upcard": upcard,
                "stock_size": len(deck),
            },
        )
    ]
    events.extend(
        Event("dealt", seat, {"cards": _sorted(h)}, private_to=seat) for seat, h in enumerate(hands)
    )
    state = KnockRummyState(
        options=options,
        seed=seed,
        hand_number=hand_number,
        dealer=dealer,
        hands=tuple(_sorted(h) for h in hands),
        stock=tuple(deck),
        discard_pile=(upcard,),
        phase="draw",
        to_act=first,
        taken_discard=None,
        turnovers=0,
        stock_public=False,
        known=tuple(() for _ in range(n)),
        totals=totals,
        log=tuple(events),
        last_result=last_result,
    )
    return state, tuple(events)


def new_game(options: KnockRummyOptions, seed: int) -> KnockRummyState:
    """Deal the first hand; seat 0 deals first."""
    if not isinstance(options, KnockRummyOptions):
        raise GameError("new_game needs KnockRummyOptions")
    state, _ = _deal(options, int(seed), 1, 0, (0,) * options.players, None)
    return state


def _new_gin_game(options: KnockRummyOptions, seed: int) -> KnockRummyState:
    if not isinstance(options, KnockRummyOptions) or not options.gin:
        raise GameError("the gin game needs gin options (gin: true)")
    return new_game(options, seed)


# --------------------------------------------------------------------------- legality
#
# Legality is written once, in ``why_illegal``'s predicates: ``legal_actions`` lists
# what they allow, ``is_legal`` and ``apply`` ask them, and the reason reaches the player.


def _can_draw(state: KnockRummyState, source: str) -> bool:
    """KR3/KR7: the stock (or the pile to turn over), or the top of the discard pile."""
    if source == "stock":
        return bool(state.stock) or state.turnovers < MAX_TURNOVERS
    return source == "discard" and bool(state.discard_pile)


def _may_knock(opts: KnockRummyOptions, left: int) -> bool:
    """KR4: a knock needs the count after the discard within the limit (if any)."""
    return opts.knock_limit is None or left <= opts.knock_limit


def _may_rummy(opts: KnockRummyOptions, left: int) -> bool:
    """KR5: rummy is the whole hand matched; Gin (KR8) has no rummy action."""
    return left == 0 and not opts.gin


# Interned actions: legal_actions hands out these shared immutable values.
_DRAWS: Final = {"stock": Draw("stock"), "discard": Draw("discard")}
_DISCARDS: Final = tuple(Discard(c) for c in DECK_52)
_KNOCKS: Final = tuple(Knock(c) for c in DECK_52)
_RUMMIES: Final = tuple(Rummy(c) for c in DECK_52)
_RUMMY_NO_DISCARD: Final = Rummy(None)


def legal_actions(state: KnockRummyState) -> tuple[KnockRummyAction, ...]:
    """Every action the seat to act may take, in a stable order."""
    seat = state.to_act
    if seat is None or state.phase == "over":
        return ()
    if state.phase == "draw":
        return tuple(_DRAWS[src] for src in ("stock", "discard") if _can_draw(state, src))
    opts = state.options
    hand = state.hands[seat]
    m = hand_mask(hand)
    taken = state.taken_discard
    allowed = [c for c in hand if c != taken]
    out: list[KnockRummyAction] = [_DISCARDS[c] for c in allowed]
    rummies: list[KnockRummyAction] = []
    whole = count_mask(m, opts.high_aces)
    limit = opts.knock_limit
    rummy_possible = _may_rummy(opts, 0)
    for c in allowed:
        # Throwing c leaves a count of at least ``whole - value(c)`` (c put back as
        # deadwood is an arrangement of the whole hand), so most cards need no count.
        low = whole - _VALUE[c]
        check_knock = limit is not None and low <= limit
        if check_knock or (rummy_possible and low <= 0):
            left = count_mask(m ^ (1 << c), opts.high_aces)
            if _may_knock(opts, left):
                out.append(_KNOCKS[c])
            if _may_rummy(opts, left):
                rummies.append(_RUMMIES[c])
        elif limit is None:
            out.append(_KNOCKS[c])  # no limit: any discard may knock
    if _may_rummy(opts, whole):
        rummies.append(_RUMMY_NO_DISCARD)
    return (*out, *rummies)


def is_legal(state: KnockRummyState, action: object) -> bool:
    """The same answer as ``action in legal_actions(state)``."""
    return why_illegal(state, action) is None


def why_illegal(state: KnockRummyState, action: object) -> str | None:
    """``None`` if the seat to act may play ``action`` now, else the reason it may not
    (the text the player is shown). Cheaper than listing every legal action."""
    seat = state.to_act
    if seat is None or state.phase == "over":
        return "the game is over"
    kind = type(action)
    if kind is Draw:
        assert isinstance(action, Draw)
        if state.phase != "draw":
            return f"{action.to_json()}: seat {seat} has drawn and must discard"
        if _can_draw(state, action.source):
            return None
        if action.source == "stock":
            return f"{action.to_json()}: the stock is empty and the pile was turned over twice"
        return f"{action.to_json()}: the discard pile is empty"
    if kind is Discard:
        assert isinstance(action, Discard)
        card: Card | None = action.card
    elif kind is Knock or kind is Rummy:
        assert isinstance(action, (Knock, Rummy))
        card = action.discard
    else:
        return f"not a knock rummy action: {action!r}"
    if state.phase != "discard":
        return f"{action.to_json()}: seat {seat} must draw first"
    hand = state.hands[seat]
    if card is not None:
        if not isinstance(card, Card) or card not in hand:
            return f"{action.to_json()}: {card} is not in the hand"
        if card == state.taken_discard:
            return (
                f"{action.to_json()}: a card taken from the discard pile may not be "
                "discarded this turn"
            )
    if kind is Discard:
        return None
    opts = state.options
    m = hand_mask(hand)
    left = count_mask(m if card is None else m ^ (1 << card), opts.high_aces)
    if kind is Knock:
        if _may_knock(opts, left):
            return None
        return f"{action.to_json()}: the count after the discard is {left}, over the knock limit"
    if _may_rummy(opts, left):
        return None
    return f"{action.to_json()}: the hand is not all matched" + (
        " (gin has no rummy action)" if opts.gin else ""
    )


def _next_seat(state: KnockRummyState, seat: int) -> int:
    return (seat + 1) % state.options.players


# --------------------------------------------------------------------------- apply


def apply(
    state: KnockRummyState, action: KnockRummyAction
) -> tuple[KnockRummyState, tuple[Event, ...]]:
    """Play one action; an illegal one raises IllegalActionError (with the reason) and
    changes nothing."""
    reason = why_illegal(state, action)
    if reason is not None:
        raise IllegalActionError(reason)
    seat = state.to_act
    assert seat is not None
    if isinstance(action, Draw):
        return _draw(state, seat, action.source)
    if isinstance(action, Discard):
        return _discard(state, seat, action.card)
    if isinstance(action, Knock):
        knock = Event("knock", seat, {"discard": action.discard})
        knocked = _replace(state, log=(*state.log, knock))
        after, events = _move_to_pile(knocked, seat, action.discard)
        return _end_hand_by_knock(after, seat, (knock, *events))
    after, events = (
        (state, ()) if action.discard is None else _move_to_pile(state, seat, action.discard)
    )
    rummy = Event("rummy", seat, {"discard": action.discard})
    after = _replace(after, log=(*after.log, rummy))
    return _end_hand_by_rummy(after, seat, (*events, rummy))


def _add_known(
    known: tuple[tuple[Card, ...], ...], seat: int, c: Card, add: bool
) -> tuple[tuple[Card, ...], ...]:
    mine = known[seat]
    new = _sorted((*mine, c)) if add else tuple(x for x in mine if x != c)
    if new == mine:
        return known
    return (*known[:seat], new, *known[seat + 1 :])


def _set_hand(
    hands: tuple[tuple[Card, ...], ...], seat: int, hand: tuple[Card, ...]
) -> tuple[tuple[Card, ...], ...]:
    return (*hands[:seat], hand, *hands[seat + 1 :])


def _draw(
    state: KnockRummyState, seat: int, source: str
) -> tuple[KnockRummyState, tuple[Event, ...]]:
    events: list[Event] = []
    if source == "discard":
        c = state.discard_pile[-1]
        new = _replace(
            state,
            hands=_set_hand(state.hands, seat, _sorted((*state.hands[seat], c))),
            discard_pile=state.discard_pile[:-1],
            phase="discard",
            taken_discard=c,
            known=_add_known(state.known, seat, c, True),
        )
        events.append(Event("draw", seat, {"source": "discard", "card": c}))
        return _replace(new, log=state.log + tuple(events)), tuple(events)
    stock, pile, turnovers, public = (
        state.stock,
        state.discard_pile,
        state.turnovers,
        state.stock_public,
    )
    if not stock:
        # KR7: turn the face-up pile face down as it lies: its bottom card becomes
        # the top of the stock. Everyone saw the pile, so the order is public.
        stock, pile, turnovers, public = tuple(reversed(pile)), (), turnovers + 1, True
        events.append(Event("turn_over", seat, {"turnover": turnovers, "stock_size": len(stock)}))
    c = stock[-1]
    public_draw: dict[str, Any] = {"source": "stock"}
    if public:
        public_draw["card"] = c
    events.append(Event("draw", seat, public_draw))
    if not public:
        events.append(Event("draw_card", seat, {"card": c}, private_to=seat))
    new = _replace(
        state,
        hands=_set_hand(state.hands, seat, _sorted((*state.hands[seat], c))),
        stock=stock[:-1],
        discard_pile=pile,
        phase="discard",
        taken_discard=None,
        turnovers=turnovers,
        stock_public=public,
        known=_add_known(state.known, seat, c, True) if public else state.known,
        log=state.log + tuple(events),
    )
    return new, tuple(events)


def _move_to_pile(
    state: KnockRummyState, seat: int, c: Card, **changes: Any
) -> tuple[KnockRummyState, tuple[Event, ...]]:
    """The card leaves the hand for the pile; ``changes`` go into the same copy."""
    event = Event("discard", seat, {"card": c})
    new = _replace(
        state,
        hands=_set_hand(state.hands, seat, tuple(x for x in state.hands[seat] if x != c)),
        discard_pile=(*state.discard_pile, c),
        known=_add_known(state.known, seat, c, False),
        taken_discard=None,
        log=(*state.log, event),
        **changes,
    )
    return new, (event,)


def _void_reason(state: KnockRummyState) -> str | None:
    """KR7/KR8 after a plain discard: why the hand is void now, or ``None``."""
    if state.options.gin and len(state.stock) <= GIN_VOID_STOCK:
        return "only two cards are left in the stock"
    if not state.stock and state.turnovers >= MAX_TURNOVERS:
        return "the stock ran out a third time"
    return None


def _discard(
    state: KnockRummyState, seat: int, c: Card
) -> tuple[KnockRummyState, tuple[Event, ...]]:
    # The stock and turn-overs do not change with a discard: decide on the state before.
    reason = _void_reason(state)
    if reason is not None:
        after, events = _move_to_pile(state, seat, c)
        return _void_hand(after, events, reason)
    return _move_to_pile(state, seat, c, phase="draw", to_act=_next_seat(state, seat))


# --------------------------------------------------------------------------- settling


def _void_hand(
    state: KnockRummyState, events: tuple[Event, ...], reason: str
) -> tuple[KnockRummyState, tuple[Event, ...]]:
    """KR7/KR8: no score; the same dealer deals again.

    A dead hand is thrown in unseen, so the result's ``hands`` hold only what the table
    saw of each hand (its ``known`` cards), never the rest."""
    n = state.options.players
    void = Event("void", None, {"reason": reason})
    result = HandResult(
        hand_number=state.hand_number,
        outcome="void",
        ender=None,
        winners=(),
        counts=(0,) * n,
        scores=(0,) * n,
        totals=state.totals,
        hands=state.known,
        arrangements=(),
    )
    hr = Event("hand_result", None, _result_summary(result))
    return _after_hand(
        _replace(state, log=(*state.log, void, hr)), result, state.dealer, (*events, void, hr)
    )


def _result_summary(result: HandResult) -> JSONDict:
    return {
        "hand": result.hand_number,
        "outcome": result.outcome,
        "winners": list(result.winners),
        "counts": list(result.counts),
        "scores": list(result.scores),
        "totals": list(result.totals),
        **_score_parts(result),
    }


def _showdown_event(result: HandResult) -> Event:
    return Event(
        "showdown",
        result.ender,
        {
            "outcome": result.outcome,
            "hands": result.hands,
            "arrangements": result.arrangements,
            "counts": list(result.counts),
            "layoffs": result.layoffs,
        },
    )


def knock_rummy_scores(
    counts: Sequence[int], knocker: int | None, rummy: int | None = None
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """KR6 settling: (winners, per-seat scores summing to zero).

    With ``k`` winners sharing, each payment is split into ``k`` equal shares rounded
    down and the payer pays only the ``k`` shares, so a hand always nets to zero.
    """
    settled = _settle_knock_rummy(counts, knocker, rummy)
    return settled.winners, settled.scores


@dataclass(frozen=True, slots=True)
class _Settled:
    """A hand's winners and scores, each score split as ``difference + penalty + bonus``."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    difference: tuple[int, ...]
    penalty: tuple[int, ...]
    bonus: tuple[int, ...]


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


def _end_hand_by_knock(
    state: KnockRummyState, knocker: int, events: tuple[Event, ...]
) -> tuple[KnockRummyState, tuple[Event, ...]]:
    if state.options.gin:
        return _settle_gin(state, knocker, events)
    high = state.options.high_aces
    arrangements = tuple(arrange(h, high) for h in state.hands)
    counts = tuple(a.deadwood_points for a in arrangements)
    settled = _settle_knock_rummy(counts, knocker, None)
    return _finish(state, "knock", knocker, settled, counts, arrangements, (), events)


def _end_hand_by_rummy(
    state: KnockRummyState, seat: int, events: tuple[Event, ...]
) -> tuple[KnockRummyState, tuple[Event, ...]]:
    high = state.options.high_aces
    arrangements = tuple(arrange(h, high) for h in state.hands)
    counts = tuple(a.deadwood_points for a in arrangements)
    settled = _settle_knock_rummy(counts, None, seat)
    return _finish(state, "rummy", seat, settled, counts, arrangements, (), events)


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
        base = 13 * (meld[0] // 13)
        downs, acc, pos = [0], 0, lo - 1
        while pos >= 0 and defender >> (base + pos) & 1:
            acc |= 1 << (base + pos)
            downs.append(acc)
            pos -= 1
        ups, acc, pos = [0], 0, hi + 1
        top = 13 if high else 12
        while pos <= top and defender >> (base + pos % 13) & 1:
            acc |= 1 << (base + pos % 13)
            ups.append(acc)
            pos += 1
        out.append([d | u for d in downs for u in ups])
    return out


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


def gin_layoffs_allowed(knocker_count: int) -> bool:
    """KR8: the defender lays off on the knocker's melds, except against gin."""
    return gin_outcome(knocker_count, 0) != GIN_OUTCOME


GIN_OUTCOME: Final = "gin"  # the outcome name of a hand won by going gin


def gin_outcome(knocker_count: int, defender_count: int) -> str:
    """KR8: ``gin`` (the knocker's count is 0), ``undercut`` (the defender's count after
    lay-offs is at or under the knocker's) or ``knock``."""
    if knocker_count == 0:
        return GIN_OUTCOME
    return "undercut" if defender_count <= knocker_count else "knock"


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


def _settle_gin(
    state: KnockRummyState, knocker: int, events: tuple[Event, ...]
) -> tuple[KnockRummyState, tuple[Event, ...]]:
    """KR8 scoring: only the hand's winner scores (the standard gin way)."""
    defender = 1 - knocker
    high = state.options.high_aces
    outcome, k_count, d_count, k_layout, d_layout, laid = gin_settlement(
        state.hands[knocker], state.hands[defender], high
    )
    diff, bonus = [0, 0], [0, 0]
    knocker_wins, difference, extra = _gin_parts(outcome, k_count, d_count)
    winner = knocker if knocker_wins else defender
    diff[winner], bonus[winner] = difference, extra
    scores = (diff[0] + bonus[0], diff[1] + bonus[1])
    settled = _Settled((winner,), scores, tuple(diff), (0, 0), tuple(bonus))
    counts = [0, 0]
    counts[knocker], counts[defender] = k_count, d_count
    layouts = [k_layout, d_layout] if knocker == 0 else [d_layout, k_layout]
    return _finish(state, outcome, knocker, settled, tuple(counts), tuple(layouts), laid, events)


def _finish(
    state: KnockRummyState,
    outcome: str,
    ender: int,
    settled: _Settled,
    counts: tuple[int, ...],
    arrangements: tuple[Arrangement, ...],
    layoffs: tuple[Card, ...],
    events: tuple[Event, ...],
) -> tuple[KnockRummyState, tuple[Event, ...]]:
    winners = settled.winners
    totals = tuple(t + s for t, s in zip(state.totals, settled.scores, strict=True))
    result = HandResult(
        hand_number=state.hand_number,
        outcome=outcome,
        ender=ender,
        winners=winners,
        counts=counts,
        scores=settled.scores,
        totals=totals,
        hands=state.hands,
        arrangements=arrangements,
        layoffs=layoffs,
        difference=settled.difference,
        penalty=settled.penalty,
        bonus=settled.bonus,
    )
    show = _showdown_event(result)
    hr = Event("hand_result", None, _result_summary(result))
    n = state.options.players
    # KR1: with two players the hand's winner deals next; with more the deal passes left.
    dealer = winners[0] if n == 2 else (state.dealer + 1) % n
    ended = _replace(state, totals=totals, log=(*state.log, show, hr))
    return _after_hand(ended, result, dealer, (*events, show, hr))


def _after_hand(
    state: KnockRummyState, result: HandResult, dealer: int, events: tuple[Event, ...]
) -> tuple[KnockRummyState, tuple[Event, ...]]:
    totals = state.totals
    if max(totals) >= state.options.target:
        best = max(totals)
        winners = tuple(p for p, t in enumerate(totals) if t == best)
        over = Event("game_over", None, {"winners": list(winners), "totals": list(totals)})
        final = _replace(
            state,
            phase="over",
            to_act=None,
            taken_discard=None,
            last_result=result,
            winners=winners,
            log=(*state.log, over),
        )
        return final, (*events, over)
    nxt, deal_events = _deal(
        state.options, state.seed, state.hand_number + 1, dealer, totals, result
    )
    return nxt, events + deal_events


# --------------------------------------------------------------------------- observation


@dataclass(frozen=True, slots=True)
class KnockRummyObservation:
    """Everything one seat may see: its own hand, public piles and counts, history."""

    game: str
    options: KnockRummyOptions
    seat: int
    hand_number: int
    dealer: int
    to_act: int | None
    phase: str
    hand: tuple[Card, ...]
    arrangement: Arrangement
    discard_pile: tuple[Card, ...]
    stock_size: int
    public_stock: tuple[Card, ...] | None
    hand_sizes: tuple[int, ...]
    known_cards: tuple[tuple[Card, ...], ...]
    taken_discard: Card | None
    turnovers: int
    totals: tuple[int, ...]
    last_result: HandResult | None
    events: tuple[Event, ...]
    legal_actions: tuple[KnockRummyAction, ...]
    winners: tuple[int, ...]

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def to_json(self) -> JSONDict:
        return {
            "game": self.game,
            "options": self.options.to_json(),
            "seat": self.seat,
            "players": self.options.players,
            "to_act": self.to_act,
            "phase": self.phase,
            "over": self.over,
            "hand": [str(c) for c in self.hand],
            "arrangement": self.arrangement.to_json(),
            "discard_pile": [str(c) for c in self.discard_pile],
            "stock_size": self.stock_size,
            "public_stock": (
                None if self.public_stock is None else [str(c) for c in self.public_stock]
            ),
            "hand_sizes": list(self.hand_sizes),
            "known_cards": [[str(c) for c in k] for k in self.known_cards],
            "taken_discard": None if self.taken_discard is None else str(self.taken_discard),
            "turnovers": self.turnovers,
            "totals": list(self.totals),
            "round": self.hand_number,
            "rounds": None,
            "dealer": self.dealer,
            "final_turn": False,
            "knocker": None,
            "events": [e.to_json() for e in self.events],
            "legal_actions": [a.to_json() for a in self.legal_actions],
            "last_result": None if self.last_result is None else self.last_result.to_json(),
            "winners": list(self.winners),
            "target": self.options.target,
        }


def observe(state: KnockRummyState, seat: int) -> KnockRummyObservation:
    """What ``seat`` sees; never another hand's unknown cards nor a face-down stock."""
    n = state.options.players
    if not 0 <= seat < n:
        raise GameError(f"seat must be 0..{n - 1}, not {seat}")
    hand = state.hands[seat]
    return KnockRummyObservation(
        game=state.options.game_name,
        options=state.options,
        seat=seat,
        hand_number=state.hand_number,
        dealer=state.dealer,
        to_act=state.to_act,
        phase=state.phase,
        hand=hand,
        arrangement=arrange(hand, state.options.high_aces),
        discard_pile=state.discard_pile,
        stock_size=len(state.stock),
        public_stock=state.stock if state.stock_public else None,
        hand_sizes=tuple(len(h) for h in state.hands),
        known_cards=state.known,
        taken_discard=state.taken_discard,
        turnovers=state.turnovers,
        totals=state.totals,
        last_result=state.last_result,
        events=tuple(e for e in state.log if e.visible_to(seat)),
        legal_actions=legal_actions(state) if state.to_act == seat else (),
        winners=state.winners,
    )


def determinize(observation: KnockRummyObservation, rng: random.Random) -> KnockRummyState:
    """A full state consistent with everything the seat saw: its own hand, the piles,
    the public stock order after a turn-over and every card known to be in a hand;
    the remaining unseen cards are dealt at random to the other hands and the stock.
    The seed for later deals is drawn from ``rng`` (future shuffles are unknowable)."""
    obs = observation
    n = obs.options.players
    fixed: set[int] = set(obs.hand) | set(obs.discard_pile)
    if obs.public_stock is not None:
        fixed |= set(obs.public_stock)
    for p, cards in enumerate(obs.known_cards):
        if p != obs.seat:
            fixed |= set(cards)
    unseen = [c for c in DECK_52 if c not in fixed]
    rng.shuffle(unseen)
    hands: list[tuple[Card, ...]] = []
    for p in range(n):
        if p == obs.seat:
            hands.append(obs.hand)
            continue
        need = obs.hand_sizes[p] - len(obs.known_cards[p])
        drawn, unseen = unseen[:need], unseen[need:]
        hands.append(_sorted((*obs.known_cards[p], *drawn)))
    stock = obs.public_stock if obs.public_stock is not None else tuple(unseen)
    if len(stock) != obs.stock_size or (obs.public_stock is not None and unseen):
        raise PositionError("observation is inconsistent: card counts do not add up to 52")
    return KnockRummyState(
        options=obs.options,
        seed=rng.getrandbits(63),
        hand_number=obs.hand_number,
        dealer=obs.dealer,
        hands=tuple(hands),
        stock=stock,
        discard_pile=obs.discard_pile,
        phase=obs.phase,
        to_act=obs.to_act,
        taken_discard=obs.taken_discard,
        turnovers=obs.turnovers,
        stock_public=obs.public_stock is not None,
        known=obs.known_cards,
        totals=obs.totals,
        log=obs.events,
        last_result=obs.last_result,
        winners=obs.winners,
    )


# --------------------------------------------------------------------------- positions


def position_to_json(state: KnockRummyState) -> JSONDict:
    """Every card's place and the table's counters (not the event log or last result)."""

    def cards(cs: Sequence[Card]) -> list[str]:
        return [str(c) for c in cs]

    return {
        "game": state.options.game_name,
        "options": state.options.to_json(),
        "seed": state.seed,
        "hand_number": state.hand_number,
        "dealer": state.dealer,
        "phase": state.phase,
        "to_act": state.to_act,
        "hands": [cards(h) for h in state.hands],
        "stock": cards(state.stock),
        "discard_pile": cards(state.discard_pile),
        "taken_discard": None if state.taken_discard is None else str(state.taken_discard),
        "turnovers": state.turnovers,
        "stock_public": state.stock_public,
        "known": [cards(k) for k in state.known],
        "totals": list(state.totals),
        "winners": list(state.winners),
    }


def _int_field(data: Mapping[str, Any], key: str, default: int | None = None) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise PositionError(f"{key} must be a whole number")
    return value


def position_from_json(data: Mapping[str, Any]) -> KnockRummyState:
    """Build a state from explicit card locations; impossible positions raise PositionError.

    Keys: options, seed, hand_number, dealer, phase, to_act, hands (list per seat),
    stock and discard_pile (top last), taken_discard, turnovers, stock_public, known,
    totals, winners. Only ``options``, ``hands``, ``stock`` and ``discard_pile`` are
    required; the rest default to the start of a turn in hand 1 with seat 0 dealing.
    """
    if not isinstance(data, Mapping):
        raise PositionError("a position must be an object")
    try:
        options = KnockRummyOptions.from_json(data.get("options", {}))
    except GameError as exc:
        raise PositionError(f"options: {exc}") from exc
    n = options.players
    raw_hands = data.get("hands")
    if not isinstance(raw_hands, (list, tuple)) or len(raw_hands) != n:
        raise PositionError(f"hands must be a list of {n} card lists")
    hands = tuple(cards_from_json(h, "hands", jokers=False) for h in raw_hands)
    stock = cards_from_json(data.get("stock", []), "stock", jokers=False)
    pile = cards_from_json(data.get("discard_pile", []), "discard_pile", jokers=False)
    every = [c for h in hands for c in h] + list(stock) + list(pile)
    if len(every) != len(set(every)):
        dup = sorted({c for c in every if every.count(c) > 1})
        raise PositionError(f"card(s) in two places: {' '.join(map(str, dup))}")
    if len(every) != 52:
        missing = sorted(set(DECK_52) - set(every))
        raise PositionError(f"every card must be somewhere; missing: {' '.join(map(str, missing))}")
    phase = data.get("phase", "draw")
    if phase not in PHASES:
        raise PositionError(f"phase must be one of {', '.join(PHASES)}")
    dealer = _int_field(data, "dealer", 0)
    hand_number = _int_field(data, "hand_number", 1)
    turnovers = _int_field(data, "turnovers", 0)
    seed = _int_field(data, "seed", 0)
    if not 0 <= dealer < n or hand_number < 1 or not 0 <= turnovers <= MAX_TURNOVERS:
        raise PositionError("dealer, hand_number or turnovers out of range")
    raw_to_act = data.get("to_act", (dealer + 1) % n if phase != "over" else None)
    if phase == "over":
        if raw_to_act is not None:
            raise PositionError("nobody acts once the game is over")
        to_act = None
    else:
        to_act = _int_field({"to_act": raw_to_act}, "to_act")
        if not 0 <= to_act < n:
            raise PositionError(f"to_act must be 0..{n - 1}")
    size = deal_size(n)
    for p, h in enumerate(hands):
        expected = {size + 1} if phase == "discard" and p == to_act else {size}
        if phase == "over":
            expected = {size, size + 1}
        if len(h) not in expected:
            raise PositionError(f"seat {p} holds {len(h)} cards; expected {sorted(expected)}")
    taken_raw = data.get("taken_discard")
    taken = None
    if taken_raw is not None:
        (taken,) = cards_from_json([taken_raw], "taken_discard", jokers=False)
    if taken is not None and (phase != "discard" or to_act is None or taken not in hands[to_act]):
        raise PositionError("taken_discard must be in the hand of the seat about to discard")
    stock_public = data.get("stock_public", turnovers > 0)
    if not isinstance(stock_public, bool):
        raise PositionError("stock_public must be true or false")
    if phase == "draw" and not stock and turnovers >= MAX_TURNOVERS:
        raise PositionError("the stock ran out a third time: that hand is void")
    if phase == "draw" and not stock and not pile:
        raise PositionError("nothing to draw: stock and discard pile are both empty")
    if options.gin and phase != "over" and len(stock) < GIN_VOID_STOCK + (phase == "draw"):
        raise PositionError("in gin the hand is void once only two stock cards remain")
    raw_known = data.get("known", [[] for _ in range(n)])
    if not isinstance(raw_known, (list, tuple)) or len(raw_known) != n:
        raise PositionError(f"known must be a list of {n} card lists")
    known = tuple(_sorted(cards_from_json(k, "known", jokers=False)) for k in raw_known)
    for p, k in enumerate(known):
        if not set(k) <= set(hands[p]):
            raise PositionError(f"known cards of seat {p} must be in that hand")
    raw_totals = data.get("totals", [0] * n)
    if not isinstance(raw_totals, (list, tuple)) or len(raw_totals) != n:
        raise PositionError(f"totals must be a list of {n} numbers")
    totals = tuple(_int_field({"t": t}, "t") for t in raw_totals)
    raw_winners = data.get("winners", [])
    if not isinstance(raw_winners, (list, tuple)):
        raise PositionError("winners must be a list of seats")
    winners = tuple(_int_field({"w": w}, "w") for w in raw_winners)
    if phase != "over" and winners:
        raise PositionError("winners only once the game is over")
    return KnockRummyState(
        options=options,
        seed=seed,
        hand_number=hand_number,
        dealer=dealer,
        hands=tuple(_sorted(h) for h in hands),
        stock=stock,
        discard_pile=pile,
        phase=str(phase),
        to_act=to_act,
        taken_discard=taken,
        turnovers=turnovers,
        stock_public=stock_public,
        known=known,
        totals=totals,
    )


def _gin_position_from_json(data: Mapping[str, Any]) -> KnockRummyState:
    state = position_from_json(data)
    if not state.options.gin:
        raise PositionError("a gin position needs gin options (gin: true)")
    return state


def _kr_position_from_json(data: Mapping[str, Any]) -> KnockRummyState:
    state = position_from_json(data)
    if state.options.gin:
        raise PositionError("a gin position belongs to the gin game")
    return state


def _kr_options_from_json(data: Mapping[str, Any]) -> KnockRummyOptions:
    options = KnockRummyOptions.from_json(data)
    if options.gin:
        raise GameError("use the gin game for gin options")
    return options


def _to_act(state: KnockRummyState) -> int | None:
    return state.to_act


def _is_over(state: KnockRummyState) -> bool:
    return state.phase == "over"


def _scores(state: KnockRummyState) -> tuple[int, ...]:
    return state.totals


GAME: Final[Game[KnockRummyState, KnockRummyAction]] = Game(
    name=KR_NAME,
    title="Knock Rummy",
    min_players=2,
    max_players=5,
    options_from_json=_kr_options_from_json,
    new_game=new_game,
    legal_actions=legal_actions,
    apply=apply,
    observe=observe,
    to_act=_to_act,
    is_over=_is_over,
    scores=_scores,
    action_from_json=action_from_json,
    position_from_json=_kr_position_from_json,
    position_to_json=position_to_json,
    why_illegal=why_illegal,
    determinize=determinize,
    facts=RuleFacts(
        title="Knock Rummy",
        poker_split=False,
        rummy=True,
        hand_size=None,  # KR1: by the number of players (deal_size)
        knock_limit=None,  # a table option
        card_points=CARD_POINTS[:52],
        # A Knock Rummy table may be played with the gin option: its figures too.
        figures={
            "knock_penalty": KNOCK_PENALTY,
            "rummy_bonus": RUMMY_BONUS,
            "gin_bonus": GIN_BONUS,
            "void_stock": GIN_VOID_STOCK,
        },
    ),
)

GIN_GAME: Final[Game[KnockRummyState, KnockRummyAction]] = Game(
    name=GIN_NAME,
    title="Gin",
    min_players=2,
    max_players=2,
    options_from_json=gin_options_from_json,
    new_game=_new_gin_game,
    legal_actions=legal_actions,
    apply=apply,
    observe=observe,
    to_act=_to_act,
    is_over=_is_over,
    scores=_scores,
    action_from_json=action_from_json,
    position_from_json=_gin_position_from_json,
    position_to_json=position_to_json,
    why_illegal=why_illegal,
    determinize=determinize,
    facts=RuleFacts(
        title="Gin",
        poker_split=False,
        rummy=False,
        hand_size=deal_size(2),
        knock_limit=GIN_LIMIT,
        card_points=CARD_POINTS[:52],
        layoffs=True,
        figures={"gin_bonus": GIN_BONUS, "void_stock": GIN_VOID_STOCK},
    ),
)
