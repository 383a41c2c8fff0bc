"""Deadwood Knock rules (rulings DK1-DK10) behind the engine API of ``games.base``.

Phases of a round: ``play`` (normal turns; a knock is allowed at the start of a turn),
``final`` (after a knock, each other seat in turn order takes one final turn: a draw or
stand), ``call`` (each non-knocker from the knocker's left calls or folds), ``reveal``
(only with ``manual_split``: each seat, from the dealer's left, picks its poker hand),
then the round is scored and the next one is dealt within the same ``apply``. After the
last round the phase is ``over``. A state's ``log`` (and so an observation's events)
covers the current round from its deal; the previous round's showdown and scores are in
``results`` / ``last_result``.

DK7, the team's reading: taking from the stock is legal while it has cards, or when it
is empty, this round's one reshuffle is unused and the discard pile has at least 2 cards;
then every discard but the top is shuffled (``derive_rng(seed, round, 1)``) into a new
stock and the player draws from it. At the end of any draw or stand turn (normal or
final), if the stock is empty and cannot be rebuilt (reshuffle used, or nothing under
the top discard), the round ends at once in a showdown with no knocker and no pot, even
when a knock was pending.
"""

from __future__ import annotations

import dataclasses
import operator
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from deadwood_knock.cards import (
    CARDS,
    DECK_54,
    Card,
    parse_cards,
    shuffled,
    sort_key,
)
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
    to_jsonable,
)
from deadwood_knock.games.deadwood_knock.hand import (
    CATEGORIES,
    CATEGORY_WORDS,
    HAND_POINTS,
    KNOCK_LIMIT,
    HandResult,
    evaluate,
    knock_count,
    legal_splits,
    split_result,
)
from deadwood_knock.games.points import CARD_POINTS

__all__ = [
    "GAME",
    "HAND_SIZE",
    "PHASES",
    "Call",
    "DeadwoodKnockAction",
    "DeadwoodKnockObservation",
    "DeadwoodKnockOptions",
    "DeadwoodKnockState",
    "Draw",
    "Fold",
    "Knock",
    "Reveal",
    "RoundResult",
    "Stand",
    "action_from_json",
    "apply",
    "determinize",
    "is_legal",
    "is_over",
    "legal_actions",
    "new_game",
    "observe",
    "options_from_json",
    "position_from_json",
    "position_to_json",
    "pot_result",
    "scores",
    "settle_pot",
    "suspicions",
    "to_act",
    "why_illegal",
]

NAME: Final = "deadwood-knock"
HAND_SIZE: Final = 8
POT_ANTE: Final = 10
SUSPICION: Final = -5
PALM_MIN_DISCARDS: Final = 3
#: A match long enough for anyone, short enough to finish (the tables play 10).
MAX_ROUNDS: Final = 100
PHASES: Final = ("play", "final", "call", "reveal", "over")
SOURCES: Final = ("stock", "discard", "palm")


# --- options ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DeadwoodKnockOptions:
    """Table options: 2..6 players, rounds (10 by default), Sleight of Hand (DK9) and
    whether people choose their own split at the showdown (else the scoring split)."""

    players: int = 2
    rounds: int = 10
    sleight_of_hand: bool = False
    manual_split: bool = False

    def __post_init__(self) -> None:
        if type(self.players) is not int or not 2 <= self.players <= 6:
            raise GameError(f"players must be a whole number from 2 to 6, not {self.players!r}")
        if type(self.rounds) is not int or not 1 <= self.rounds <= MAX_ROUNDS:
            raise GameError(
                f"rounds must be a whole number from 1 to {MAX_ROUNDS}, not {self.rounds!r}"
            )
        for name in ("sleight_of_hand", "manual_split"):
            if type(getattr(self, name)) is not bool:
                raise GameError(f"{name} must be true or false, not {getattr(self, name)!r}")

    def to_json(self) -> JSONDict:
        return {
            "players": self.players,
            "rounds": self.rounds,
            "sleight_of_hand": self.sleight_of_hand,
            "manual_split": self.manual_split,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> DeadwoodKnockOptions:
        data = {} if data is None else data
        if not isinstance(data, Mapping):
            raise GameError("options must be a JSON object")
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise GameError(
                f"unknown Deadwood Knock option(s): {', '.join(map(str, unknown))}; "
                f"valid options: {', '.join(sorted(known))}"
            )
        return cls(**{str(k): v for k, v in data.items()})


def options_from_json(data: Mapping[str, Any]) -> DeadwoodKnockOptions:
    return DeadwoodKnockOptions.from_json(data)


# --- actions ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Knock:
    """DK4: end the round at the start of a turn (knock count 11 or less)."""

    @property
    def kind(self) -> str:
        return "knock"

    def to_json(self) -> JSONDict:
        return {"type": "knock"}


@dataclass(frozen=True, slots=True)
class Draw:
    """DK2: a whole normal turn. ``select`` is chosen before the take, so it can never
    depend on the stock card; ``source`` is ``stock``, ``discard`` or ``palm`` (DK9)."""

    select: Card
    source: str

    def __post_init__(self) -> None:
        # The two jokers are interchangeable and both written "JK": a joker select always
        # means "a joker from my hand", stored as the first joker so JSON round-trips.
        if self.select >= 52:
            object.__setattr__(self, "select", CARDS[52])

    @property
    def kind(self) -> str:
        return "draw"

    def to_json(self) -> JSONDict:
        return {"type": "draw", "select": str(self.select), "source": self.source}


@dataclass(frozen=True, slots=True)
class Stand:
    """DK4: a final turn that keeps the hand as it is."""

    @property
    def kind(self) -> str:
        return "stand"

    def to_json(self) -> JSONDict:
        return {"type": "stand"}


@dataclass(frozen=True, slots=True)
class Call:
    """DK5: join the knocker's pot."""

    @property
    def kind(self) -> str:
        return "call"

    def to_json(self) -> JSONDict:
        return {"type": "call"}


@dataclass(frozen=True, slots=True)
class Fold:
    """DK5: stay out of the pot."""

    @property
    def kind(self) -> str:
        return "fold"

    def to_json(self) -> JSONDict:
        return {"type": "fold"}


@dataclass(frozen=True, slots=True)
class Reveal:
    """DK3 with ``manual_split``: the poker hand this seat shows (cards sorted by index)."""

    poker_hand: tuple[Card, ...]

    @property
    def kind(self) -> str:
        return "reveal"

    def to_json(self) -> JSONDict:
        return {"type": "reveal", "poker_hand": [str(c) for c in self.poker_hand]}


DeadwoodKnockAction = Knock | Draw | Stand | Call | Fold | Reveal

# Interned actions: legal_actions hands out these shared immutable values.
_KNOCK: Final = Knock()
_CALL_FOLD: Final[tuple[DeadwoodKnockAction, ...]] = (Call(), Fold())
_DRAWS: Final = {src: tuple(Draw(c, src) for c in CARDS) for src in SOURCES}

_SIMPLE: Final[dict[str, DeadwoodKnockAction]] = {
    "knock": Knock(),
    "stand": Stand(),
    "call": Call(),
    "fold": Fold(),
}


def action_from_json(data: Mapping[str, Any]) -> DeadwoodKnockAction:
    """Parse an action's JSON; anything malformed raises :class:`GameError`."""
    if not isinstance(data, Mapping):
        raise GameError("an action must be a JSON object with a 'type'")
    kind = data.get("type")
    allowed = {"draw": {"select", "source"}, "reveal": {"poker_hand"}} | {k: set() for k in _SIMPLE}
    if kind not in allowed:
        raise GameError(
            f"unknown action type {kind!r}; use knock, draw, stand, call, fold or reveal"
        )
    extra = set(data) - allowed[str(kind)] - {"type"}
    if extra:
        raise GameError(f"unexpected key(s) for {kind}: {', '.join(sorted(map(str, extra)))}")
    if kind in _SIMPLE:
        return _SIMPLE[str(kind)]
    if kind == "draw":
        if "select" not in data or "source" not in data:
            raise GameError("a draw needs 'select' (a card) and 'source'")
        source = data["source"]
        if source not in SOURCES:
            raise GameError(f"source must be stock, discard or palm, not {source!r}")
        return Draw(card_from_json(data["select"], "select"), str(source))
    cards = data.get("poker_hand")
    if not isinstance(cards, list):
        raise GameError("a reveal needs 'poker_hand', a list of card strings")
    parsed = [card_from_json(c, "poker_hand") for c in cards]
    if len(set(parsed)) != len(parsed):
        raise GameError("poker_hand repeats a card")
    return Reveal(tuple(sorted(parsed)))


# --- state -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One round's scoring (DK6, DK8). ``round_scores`` is hand points - deadwood + pot;
    ``suspicion`` (0 or -5) comes on top; ``totals`` are the match totals after both.
    ``pot_in`` are the seats in the poker pot (the knocker and its callers; nobody in a
    dry round), ``pot_winners`` who took it (the knocker alone when nobody called) and
    ``pot_total`` the points put in (0 when nobody called: the knocker's +10 is paid by
    nobody)."""

    round: int
    knocker: int | None
    dry: bool
    poker_hands: tuple[tuple[Card, ...], ...]
    deadwood: tuple[tuple[Card, ...], ...]
    categories: tuple[str, ...]
    hand_points: tuple[int, ...]
    deadwood_points: tuple[int, ...]
    calls: tuple[str | None, ...]
    pot: tuple[int, ...]
    round_scores: tuple[int, ...]
    suspicion: tuple[int, ...]
    totals: tuple[int, ...]
    pot_in: tuple[int, ...] = ()
    pot_winners: tuple[int, ...] = ()
    pot_total: int = 0

    def to_json(self) -> JSONDict:
        return {
            "round": self.round,
            "knocker": self.knocker,
            "dry": self.dry,
            "poker_hands": to_jsonable(self.poker_hands),
            "deadwood": to_jsonable(self.deadwood),
            "categories": list(self.categories),
            "hand_points": list(self.hand_points),
            "deadwood_points": list(self.deadwood_points),
            "calls": list(self.calls),
            "pot": list(self.pot),
            "round_scores": list(self.round_scores),
            "suspicion": list(self.suspicion),
            "totals": list(self.totals),
            "pot_in": list(self.pot_in),
            "pot_winners": list(self.pot_winners),
            "pot_total": self.pot_total,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RoundResult:
        def cards(rows: Any) -> tuple[tuple[Card, ...], ...]:
            return tuple(tuple(sorted(parse_cards(list(row)))) for row in rows)

        try:
            return cls(
                round=int(data["round"]),
                knocker=None if data["knocker"] is None else int(data["knocker"]),
                dry=bool(data["dry"]),
                poker_hands=cards(data["poker_hands"]),
                deadwood=cards(data["deadwood"]),
                categories=tuple(str(c) for c in data["categories"]),
                hand_points=tuple(int(x) for x in data["hand_points"]),
                deadwood_points=tuple(int(x) for x in data["deadwood_points"]),
                calls=tuple(None if c is None else str(c) for c in data["calls"]),
                pot=tuple(int(x) for x in data["pot"]),
                round_scores=tuple(int(x) for x in data["round_scores"]),
                suspicion=tuple(int(x) for x in data["suspicion"]),
                totals=tuple(int(x) for x in data["totals"]),
                pot_in=tuple(int(x) for x in data.get("pot_in", ())),
                pot_winners=tuple(int(x) for x in data.get("pot_winners", ())),
                pot_total=int(data.get("pot_total", 0)),
            )
        except (KeyError, TypeError, ValueError) as exc:  # CardError is a ValueError
            raise PositionError(f"bad round result: {exc}") from exc


@dataclass(frozen=True, slots=True)
class DeadwoodKnockState:
    """A full position. Hands are sorted tuples; stock and discard pile have their top
    LAST. ``covers`` are palmed-over cards set aside for the round (DK9). ``known`` holds,
    per seat, the cards the table saw enter that hand and not leave it. ``log`` is this
    round's events (private ones carry ``private_to``)."""

    seed: int
    options: DeadwoodKnockOptions
    round: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    discard: tuple[Card, ...]
    covers: tuple[Card, ...] = ()
    phase: str = "play"
    to_act: int | None = None
    knocker: int | None = None
    calls: tuple[str | None, ...] = ()
    palmed: tuple[bool, ...] = ()
    reshuffled: bool = False
    reveals: tuple[tuple[Card, ...] | None, ...] = ()
    known: tuple[frozenset[Card], ...] = ()
    totals: tuple[int, ...] = ()
    results: tuple[RoundResult, ...] = ()
    log: tuple[Event, ...] = field(default=(), compare=False)

    @property
    def players(self) -> int:
        return self.options.players


_STATE_FIELDS: Final = tuple(f.name for f in dataclasses.fields(DeadwoodKnockState))
_STATE_VALUES: Final = operator.attrgetter(*_STATE_FIELDS)
_STATE_INDEX: Final = {name: i for i, name in enumerate(_STATE_FIELDS)}


def _replace(state: DeadwoodKnockState, **changes: Any) -> DeadwoodKnockState:
    """``dataclasses.replace`` without its per-call field introspection (hot path);
    positional arguments, as a keyword call costs more."""
    values = list(_STATE_VALUES(state))
    for name, value in changes.items():
        values[_STATE_INDEX[name]] = value
    return DeadwoodKnockState(*values)


def _deal(
    seed: int,
    options: DeadwoodKnockOptions,
    rnd: int,
    totals: tuple[int, ...],
    results: tuple[RoundResult, ...],
) -> tuple[DeadwoodKnockState, tuple[Event, ...]]:
    """DK1: shuffle 54 cards, deal 8 each one at a time from the dealer's left, flip one."""
    n = options.players
    dealer = rnd % n
    deck = shuffled(DECK_54, derive_rng(seed, rnd, 0))
    hands: list[list[Card]] = [[] for _ in range(n)]
    for i in range(HAND_SIZE * n):
        hands[(dealer + 1 + i) % n].append(deck.pop())
    flipped = deck.pop()
    state = DeadwoodKnockState(
        seed=seed,
        options=options,
        round=rnd,
        dealer=dealer,
        hands=tuple(tuple(sorted(h)) for h in hands),
        stock=tuple(deck),
        discard=(flipped,),
        phase="play",
        to_act=(dealer + 1) % n,
        calls=(None,) * n,
        palmed=(False,) * n,
        reveals=(None,) * n,
        known=(frozenset(),) * n,
        totals=totals,
        results=results,
    )
    events = (
        Event(
            "deal",
            dealer,
            {
                "round": rnd + 1,
                "dealer": dealer,
                "hand_sizes": [HAND_SIZE] * n,
                "stock_size": len(deck),
                "flipped": flipped,
            },
        ),
        *(Event("hand", s, {"cards": state.hands[s]}, private_to=s) for s in range(n)),
    )
    return _replace(state, log=events), events


def new_game(options: DeadwoodKnockOptions, seed: int) -> DeadwoodKnockState:
    """A new match: round 1 dealt by seat 0."""
    if not isinstance(options, DeadwoodKnockOptions):
        raise GameError("options must be DeadwoodKnockOptions")
    state, _ = _deal(int(seed), options, 0, (0,) * options.players, ())
    return state


def to_act(state: DeadwoodKnockState) -> int | None:
    return state.to_act


def is_over(state: DeadwoodKnockState) -> bool:
    return state.phase == "over"


def scores(state: DeadwoodKnockState) -> tuple[int, ...]:
    """Match totals so far (DK10: the highest total after the last round wins)."""
    return state.totals


# --- legality --------------------------------------------------------------------------


def _stock_takeable(state: DeadwoodKnockState) -> bool:
    return bool(state.stock) or (not state.reshuffled and len(state.discard) >= 2)


def _sources(state: DeadwoodKnockState, seat: int) -> list[str]:
    out = []
    if _stock_takeable(state):
        out.append("stock")
    if state.discard:
        out.append("discard")
    if (
        state.options.sleight_of_hand
        and not state.palmed[seat]
        and len(state.discard) >= PALM_MIN_DISCARDS
    ):
        out.append("palm")
    return out


def legal_actions(state: DeadwoodKnockState) -> tuple[DeadwoodKnockAction, ...]:
    """Every legal action of the seat to act (empty when the match is over). In the
    reveal phase the scoring split comes first, so bots and timeouts can take [0].

    It lists what :func:`why_illegal`'s predicates allow (``_may_knock``, ``_sources``,
    ``_actual``): legality is written once."""
    seat = state.to_act
    if seat is None or state.phase == "over":
        return ()
    if state.phase == "call":
        return _CALL_FOLD
    hand = state.hands[seat]
    if state.phase == "reveal":
        return tuple(Reveal(s) for s in legal_splits(hand))
    out: list[DeadwoodKnockAction] = []
    if _may_knock(state, hand):
        out.append(_KNOCK)
    sources = _sources(state, seat)
    # Both jokers are one select (a joker): list it once.
    selects = hand if hand[-1] != CARDS[53] or hand[-2] != CARDS[52] else hand[:-1]
    by_source = [_DRAWS[src] for src in sources]
    out.extend([draws[c] for c in selects for draws in by_source])
    if state.phase == "final":
        out.append(_SIMPLE["stand"])
    return tuple(out)


def _may_knock(state: DeadwoodKnockState, hand: Sequence[Card]) -> bool:
    """DK4: a knock opens a normal turn, once a round, with a knock count of 11 or less."""
    return state.phase == "play" and knock_count(hand) <= KNOCK_LIMIT


def is_legal(state: DeadwoodKnockState, action: object) -> bool:
    """The same answer as ``action in legal_actions(state)``."""
    return why_illegal(state, action) is None


def why_illegal(state: DeadwoodKnockState, action: object) -> str | None:
    """``None`` if the seat to act may play ``action`` now, else the reason it may not
    (the text the player is shown)."""
    phase = state.phase
    seat = state.to_act
    if phase == "over" or seat is None:
        return "the match is over"
    if isinstance(action, Knock):
        if phase != "play":
            return "only one knock per round, at the start of a normal turn"
        if not _may_knock(state, state.hands[seat]):
            return f"knocking needs a knock count of {KNOCK_LIMIT} or less"
        return None
    if isinstance(action, Stand):
        return None if phase == "final" else "standing is only for a final turn after a knock"
    if isinstance(action, (Call, Fold)):
        if phase != "call":
            return "call or fold comes only after the final turns of a knocked round"
        return None
    if isinstance(action, Reveal):
        if phase != "reveal":
            return "poker hands are revealed only at the showdown (with manual split)"
        if action.poker_hand not in legal_splits(state.hands[seat]):
            return "that poker hand is not a legal split of your hand"
        return None
    if isinstance(action, Draw):
        if phase not in ("play", "final"):
            return f"no draws in the {phase} phase"
        if _actual(state.hands[seat], action.select) is None:
            return f"{action.select} is not in your hand"
        if action.source in _sources(state, seat):
            return None
        if action.source == "palm":
            if not state.options.sleight_of_hand:
                return "palming needs the Sleight of Hand option"
            if state.palmed[seat]:
                return "you already palmed this round"
            return "palming needs at least 3 cards in the discard pile"
        return f"cannot take from the {action.source} now"
    return f"not an action: {action!r}"


# --- apply -----------------------------------------------------------------------------


def _actual(hand: Sequence[Card], select: Card) -> Card | None:
    """The card of ``hand`` a select means (either joker for a joker), or None."""
    if select in hand:
        return select
    if select >= 52:
        return next((c for c in hand if c >= 52), None)
    return None


def _next(seat: int, n: int) -> int:
    return (seat + 1) % n


def apply(
    state: DeadwoodKnockState, action: DeadwoodKnockAction
) -> tuple[DeadwoodKnockState, tuple[Event, ...]]:
    """Play one action; raises :class:`IllegalActionError` (state untouched) if illegal."""
    reason = why_illegal(state, action)
    if reason is not None:
        raise IllegalActionError(reason)
    seat = state.to_act
    assert seat is not None
    if isinstance(action, Knock):
        ev = Event("knock", seat)
        return _finish_step(
            state, (ev,), phase="final", knocker=seat, to_act=_next(seat, state.players)
        )
    if isinstance(action, Draw):
        return _draw(state, seat, action)
    if isinstance(action, Stand):
        return _end_turn(state, seat, (Event("stand", seat),))
    if isinstance(action, (Call, Fold)):
        calls = list(state.calls)
        calls[seat] = action.kind
        ev = Event(action.kind, seat)
        nxt = _next(seat, state.players)
        moved = _replace(state, calls=tuple(calls), to_act=nxt)
        if nxt == state.knocker:
            return _showdown(moved, (ev,))
        return _finish_step(moved, (ev,))
    assert isinstance(action, Reveal)
    reveals = list(state.reveals)
    reveals[seat] = action.poker_hand
    hand = state.hands[seat]
    known = list(state.known)
    known[seat] = frozenset(hand)  # the whole hand is on the table now
    deadwood = tuple(c for c in hand if c not in action.poker_hand)
    ev = Event("reveal", seat, {"poker_hand": action.poker_hand, "deadwood": deadwood})
    nxt = _next(seat, state.players)
    moved = _replace(state, reveals=tuple(reveals), known=tuple(known), to_act=nxt)
    if nxt == _next(state.dealer, state.players):
        return _score_round(moved, (ev,))
    return _finish_step(moved, (ev,))


def _finish_step(
    state: DeadwoodKnockState, events: tuple[Event, ...], **changes: Any
) -> tuple[DeadwoodKnockState, tuple[Event, ...]]:
    """Log the events; ``changes`` go into the same copy of the state (one copy, not two)."""
    return _replace(state, log=state.log + events, **changes), events


def _draw(
    state: DeadwoodKnockState, seat: int, action: Draw
) -> tuple[DeadwoodKnockState, tuple[Event, ...]]:
    stock, discard, covers = state.stock, state.discard, state.covers
    known = list(state.known)
    reshuffled = state.reshuffled
    palmed = state.palmed
    events: list[Event] = []
    if action.source == "stock":
        if not stock:
            # DK7: everything under the top discard becomes the new stock, once per round.
            pile = list(discard[:-1])
            stock = tuple(shuffled(pile, derive_rng(state.seed, state.round, 1)))
            discard = discard[-1:]
            reshuffled = True
            events.append(Event("reshuffle", seat, {"stock_size": len(stock)}))
        taken = stock[-1]
        stock = stock[:-1]
        events.append(Event("draw", seat, {"source": "stock"}))
        events.append(Event("stock_card", seat, {"card": taken}, private_to=seat))
    elif action.source == "discard":
        taken = discard[-1]
        discard = discard[:-1]
        known[seat] = known[seat] | {taken}
        events.append(Event("draw", seat, {"source": "discard", "card": taken}))
    else:
        # DK9: the top discard is set aside as cover; the card under it is taken.
        cover, taken = discard[-1], discard[-2]
        discard = discard[:-2]
        covers = (*covers, cover)
        known[seat] = known[seat] | {taken}
        flags = list(palmed)
        flags[seat] = True
        palmed = tuple(flags)
        events.append(Event("draw", seat, {"source": "palm", "card": taken, "cover": cover}))
    placed = _actual(state.hands[seat], action.select)
    assert placed is not None
    hand = list(state.hands[seat])
    hand.remove(placed)
    hand.append(taken)
    hands = list(state.hands)
    hands[seat] = tuple(sorted(hand))
    discard = (*discard, placed)
    known[seat] = known[seat] - {placed}
    events.append(Event("discard", seat, {"card": placed}))
    changes = {
        "stock": stock,
        "discard": discard,
        "covers": covers,
        "hands": tuple(hands),
        "known": tuple(known),
        "reshuffled": reshuffled,
        "palmed": palmed,
    }
    step = tuple(events)
    passed = _pass_turn(state.players, seat, state.phase, state.knocker, stock, discard, reshuffled)
    if passed is None:
        return _end_turn(_replace(state, **changes), seat, step)
    # The usual turn: one copy of the state with the turn passed and the events logged.
    return _replace(state, log=state.log + step, **changes, **passed), step


def _pass_turn(
    n: int,
    seat: int,
    phase: str,
    knocker: int | None,
    stock: Sequence[Card],
    discard: Sequence[Card],
    reshuffled: bool,
) -> dict[str, Any] | None:
    """DK4/DK7 after a draw or stand: ``None`` if the stock is dry (the round ends),
    else the next seat to act, and the call phase once the final turns come round."""
    if not stock and (reshuffled or len(discard) < 2):
        return None
    nxt = _next(seat, n)
    if phase == "final" and nxt == knocker:
        return {"phase": "call", "to_act": _next(nxt, n)}
    return {"to_act": nxt}


def _end_turn(
    state: DeadwoodKnockState, seat: int, events: tuple[Event, ...]
) -> tuple[DeadwoodKnockState, tuple[Event, ...]]:
    """After a draw or stand: a dry stock ends the round (DK7); otherwise pass the turn."""
    n = state.players
    passed = _pass_turn(
        n, seat, state.phase, state.knocker, state.stock, state.discard, state.reshuffled
    )
    if passed is None:
        dry = Event("stock_out", None, {"discard_size": len(state.discard)})
        # No knocker and no pot, whatever was pending (DK7).
        moved = _replace(state, knocker=None, calls=(None,) * n)
        return _showdown(moved, (*events, dry), dry=True)
    return _finish_step(state, events, **passed)


def _showdown(
    state: DeadwoodKnockState, events: tuple[Event, ...], dry: bool = False
) -> tuple[DeadwoodKnockState, tuple[Event, ...]]:
    if state.options.manual_split:
        first = _next(state.dealer, state.players)
        return _finish_step(state, events, phase="reveal", to_act=first)
    # The scoring splits' results are the round's results: score them as evaluated
    # (split_result of a scoring split is the same result, at twice the cost).
    evaluated = [evaluate(h) for h in state.hands]
    splits = tuple(r.poker_hand for r in evaluated)
    return _score_round(_replace(state, reveals=splits), events, evaluated)


@dataclass(frozen=True, slots=True)
class _Pot:
    """DK6's side bet settled: each seat's result, who was in, who took it, its size."""

    result: tuple[int, ...]
    ins: tuple[int, ...]
    winners: tuple[int, ...]
    total: int


def _pot(knocker: int | None, calls: Sequence[str | None], results: Sequence[HandResult]) -> _Pot:
    return _settle_pot(knocker, calls, [r.strength for r in results])


def pot_result(
    knocker: int | None, calls: Sequence[str | None], strengths: Sequence[Sequence[int]]
) -> list[int]:
    """Each seat's pot result (DK6) from the seats' best-five strengths
    (``HandResult.strength``); bots price pots with it."""
    return list(_settle_pot(knocker, calls, strengths).result)


def _settle_pot(
    knocker: int | None, calls: Sequence[str | None], strengths: Sequence[Sequence[int]]
) -> _Pot:
    """DK6 with the seats' best-five strengths as tuples (``HandResult.strength``)."""
    return settle_pot(knocker, calls, [tuple(x) for x in strengths])


def settle_pot(knocker: int | None, calls: Sequence[str | None], strengths: Sequence[Any]) -> _Pot:
    """DK6: +10 to an uncalled knocker; else the best poker hand among the in players
    takes 10 per in player, ties split rounded down (the remainder is lost).

    ``strengths`` are any values ordered as the poker hands (strength tuples, or the
    evaluator's strength codes, as the bots' playouts use)."""
    n = len(strengths)
    pot = [0] * n
    if knocker is None:
        return _Pot(tuple(pot), (), (), 0)
    ins = [knocker] + [s for s in range(n) if calls[s] == "call"]
    if len(ins) == 1:
        pot[knocker] = POT_ANTE
        return _Pot(tuple(pot), (knocker,), (knocker,), 0)
    best = max(strengths[s] for s in ins)
    winners = [s for s in ins if strengths[s] == best]
    total = POT_ANTE * len(ins)
    share = total // len(winners)
    for s in ins:
        pot[s] = (share if s in winners else 0) - POT_ANTE
    return _Pot(tuple(pot), tuple(sorted(ins)), tuple(winners), total)


def suspicions(palmed: Sequence[bool], round_scores: Sequence[int]) -> list[int]:
    """DK9: a seat that palmed and scored below the round's best loses 5."""
    top = max(round_scores)
    return [SUSPICION if palmed[s] and round_scores[s] < top else 0 for s in range(len(palmed))]


def _score_round(
    state: DeadwoodKnockState,
    events: tuple[Event, ...],
    evaluated: list[HandResult] | None = None,
) -> tuple[DeadwoodKnockState, tuple[Event, ...]]:
    n = state.players
    dry = state.knocker is None
    results = []
    for s in range(n):
        chosen = state.reveals[s]
        if evaluated is not None:
            results.append(evaluated[s])
        elif chosen is not None:
            results.append(split_result(state.hands[s], chosen))
        else:
            results.append(evaluate(state.hands[s]))
    settled = _pot(state.knocker, state.calls, results)
    pot = settled.result
    round_scores = [results[s].hand_points - results[s].deadwood_points + pot[s] for s in range(n)]
    suspicion = suspicions(state.palmed, round_scores)
    totals = tuple(state.totals[s] + round_scores[s] + suspicion[s] for s in range(n))
    result = RoundResult(
        round=state.round + 1,
        knocker=state.knocker,
        dry=dry,
        poker_hands=tuple(r.poker_hand for r in results),
        deadwood=tuple(r.deadwood for r in results),
        categories=tuple(r.category for r in results),
        hand_points=tuple(r.hand_points for r in results),
        deadwood_points=tuple(r.deadwood_points for r in results),
        calls=state.calls,
        pot=tuple(pot),
        round_scores=tuple(round_scores),
        suspicion=tuple(suspicion),
        totals=totals,
        pot_in=settled.ins,
        pot_winners=settled.winners,
        pot_total=settled.total,
    )
    showdown = Event(
        "showdown",
        None,
        {
            "hands": [
                {
                    "seat": s,
                    "poker_hand": results[s].poker_hand,
                    "deadwood": results[s].deadwood,
                    "category": results[s].category,
                }
                for s in range(n)
            ]
        },
    )
    scored = Event("round_result", None, result.to_json())
    events = (*events, showdown, scored)
    all_results = (*state.results, result)
    if state.round + 1 < state.options.rounds:
        dealt, deal_events = _deal(state.seed, state.options, state.round + 1, totals, all_results)
        return dealt, (*events, *deal_events)
    best = max(totals)
    over = Event(
        "match_over",
        None,
        {"totals": list(totals), "winners": [s for s in range(n) if totals[s] == best]},
    )
    events = (*events, over)
    known = tuple(frozenset(h) for h in state.hands)
    final = _replace(
        state,
        phase="over",
        to_act=None,
        totals=totals,
        results=all_results,
        known=known,
        reveals=tuple(r.poker_hand for r in results),
        log=state.log + events,
    )
    return final, events


def winners(state: DeadwoodKnockState) -> tuple[int, ...]:
    """DK10: the seats with the highest total (several on equal totals share the win)."""
    best = max(state.totals)
    return tuple(s for s in range(state.players) if state.totals[s] == best)


# --- observation -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DeadwoodKnockObservation:
    """Everything one seat may see: never another seat's hidden cards, the stock order
    or the seed."""

    seat: int
    options: DeadwoodKnockOptions
    round: int  # 1-based
    dealer: int
    to_act: int | None
    phase: str
    hand: tuple[Card, ...]
    evaluation: HandResult
    discard_pile: tuple[Card, ...]
    stock_size: int
    covers: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    known_cards: tuple[tuple[Card, ...], ...]
    knocker: int | None
    calls: tuple[str | None, ...]
    palmed: tuple[bool, ...]
    reshuffled: bool
    reveals: tuple[tuple[Card, ...] | None, ...]
    totals: tuple[int, ...]
    results: tuple[RoundResult, ...]
    events: tuple[Event, ...]
    legal_actions: tuple[DeadwoodKnockAction, ...]

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def final_turn(self) -> bool:
        return self.phase == "final" and self.to_act == self.seat

    @property
    def last_result(self) -> RoundResult | None:
        return self.results[-1] if self.results else None

    def to_json(self) -> JSONDict:
        last = self.last_result
        return {
            "game": NAME,
            "seat": self.seat,
            "players": self.players,
            "options": self.options.to_json(),
            "to_act": self.to_act,
            "phase": self.phase,
            "over": self.over,
            "hand": [str(c) for c in sorted(self.hand, key=sort_key)],
            "evaluation": self.evaluation.to_json(),
            "discard_pile": [str(c) for c in self.discard_pile],
            "stock_size": self.stock_size,
            "covers": [str(c) for c in self.covers],
            "hand_sizes": list(self.hand_sizes),
            "known_cards": [[str(c) for c in k] for k in self.known_cards],
            "totals": list(self.totals),
            "round": self.round,
            "rounds": self.options.rounds,
            "dealer": self.dealer,
            "final_turn": self.final_turn,
            "knocker": self.knocker,
            "calls": list(self.calls),
            "palmed": list(self.palmed),
            "reshuffled": self.reshuffled,
            "reveals": [None if r is None else [str(c) for c in r] for r in self.reveals],
            "events": [e.to_json() for e in self.events],
            "legal_actions": [a.to_json() for a in self.legal_actions],
            "last_result": None if last is None else last.to_json(),
            "results": [r.to_json() for r in self.results],
        }


def observe(state: DeadwoodKnockState, seat: int) -> DeadwoodKnockObservation:
    if not 0 <= seat < state.players:
        raise GameError(f"seat must be 0..{state.players - 1}, not {seat}")
    hand = state.hands[seat]
    over = state.phase == "over"
    return DeadwoodKnockObservation(
        seat=seat,
        options=state.options,
        round=state.round + 1,
        dealer=state.dealer,
        to_act=state.to_act,
        phase=state.phase,
        hand=hand,
        evaluation=evaluate(hand),
        discard_pile=state.discard,
        stock_size=len(state.stock),
        covers=state.covers,
        hand_sizes=tuple(len(h) for h in state.hands),
        known_cards=tuple(tuple(sorted(k)) for k in state.known),
        knocker=state.knocker,
        calls=state.calls,
        palmed=state.palmed,
        reshuffled=state.reshuffled,
        reveals=state.reveals if state.phase in ("reveal", "over") else (None,) * state.players,
        totals=state.totals,
        results=state.results,
        events=tuple(e for e in state.log if e.visible_to(seat)),
        legal_actions=legal_actions(state) if state.to_act == seat and not over else (),
    )


def determinize(observation: DeadwoodKnockObservation, rng: random.Random) -> DeadwoodKnockState:
    """A full state consistent with what the seat saw: its own hand, the public piles,
    and every card known to be in another hand; the other cards are dealt at random into
    the other hands and the stock. The seed is random too (the true one is hidden)."""
    obs = observation
    n = obs.players
    hands: list[list[Card]] = [list(k) for k in obs.known_cards]
    hands[obs.seat] = list(obs.hand)
    seen = {*obs.hand, *obs.discard_pile, *obs.covers}
    for s in range(n):
        if s != obs.seat:
            seen.update(hands[s])
    unknown = [c for c in CARDS if c not in seen]
    rng.shuffle(unknown)
    for s in range(n):
        while len(hands[s]) < obs.hand_sizes[s]:
            hands[s].append(unknown.pop())
    if len(unknown) != obs.stock_size:
        raise GameError("observation is inconsistent: card counts do not add up")
    return DeadwoodKnockState(
        seed=rng.getrandbits(63),
        options=obs.options,
        round=obs.round - 1,
        dealer=obs.dealer,
        hands=tuple(tuple(sorted(h)) for h in hands),
        stock=tuple(unknown),
        discard=obs.discard_pile,
        covers=obs.covers,
        phase=obs.phase,
        to_act=obs.to_act,
        knocker=obs.knocker,
        calls=obs.calls,
        palmed=obs.palmed,
        reshuffled=obs.reshuffled,
        reveals=obs.reveals,
        known=tuple(frozenset(k) for k in obs.known_cards),
        totals=obs.totals,
        results=obs.results,
        log=obs.events,
    )


# --- positions -------------------------------------------------------------------------


def position_to_json(state: DeadwoodKnockState) -> JSONDict:
    """Explicit card locations (stock and discard top LAST), for tests and puzzles."""

    def cards(cs: Iterable[Card]) -> list[str]:
        return [str(c) for c in cs]

    return {
        "game": NAME,
        "options": state.options.to_json(),
        "seed": state.seed,
        "round": state.round,
        "dealer": state.dealer,
        "to_act": state.to_act,
        "phase": state.phase,
        "hands": [cards(h) for h in state.hands],
        "stock": cards(state.stock),
        "discard": cards(state.discard),
        "covers": cards(state.covers),
        "knocker": state.knocker,
        "calls": list(state.calls),
        "palmed": list(state.palmed),
        "reshuffled": state.reshuffled,
        "reveals": [None if r is None else cards(r) for r in state.reveals],
        "known": [cards(sorted(k)) for k in state.known],
        "totals": list(state.totals),
        "results": [r.to_json() for r in state.results],
    }


def _jokers(groups: list[tuple[Card, ...]]) -> list[tuple[Card, ...]]:
    """'JK' always parses as the first joker; give the second occurrence the other one."""
    seen = False
    out = []
    for group in groups:
        fixed = []
        for c in group:
            if c.is_joker:
                fixed.append(CARDS[53] if seen else CARDS[52])
                seen = True
            else:
                fixed.append(c)
        out.append(tuple(fixed))
    return out


def _own_jokers(cards: Sequence[Card], hand: Sequence[Card]) -> list[Card]:
    """A known "JK" is the joker that hand holds (either index; JSON writes both as JK)."""
    jokers = iter([c for c in hand if c.is_joker])
    return [next(jokers, c) if c.is_joker else c for c in cards]


def _seat_list(data: Mapping[str, Any], key: str, n: int, default: Any) -> list[Any]:
    raw = data.get(key)
    if raw is None:
        return [default] * n
    if not isinstance(raw, list) or len(raw) != n:
        raise PositionError(f"{key!r} must be a list with one entry per seat ({n})")
    return raw


def position_from_json(data: Mapping[str, Any]) -> DeadwoodKnockState:
    """Build a state from explicit card locations; impossible positions raise
    :class:`PositionError`. Optional keys default to a fresh round: phase ``play``, the
    dealer's left to act, nobody knocked/called/palmed, totals 0."""
    if not isinstance(data, Mapping):
        raise PositionError("a position must be a JSON object")
    if data.get("game", NAME) != NAME:
        raise PositionError(f"not a {NAME} position: {data.get('game')!r}")
    try:
        options = DeadwoodKnockOptions.from_json(data.get("options", {}))
    except GameError as exc:
        raise PositionError(str(exc)) from exc
    n = options.players

    def whole(key: str, default: int) -> int:
        value = data.get(key, default)
        if type(value) is not int:
            raise PositionError(f"{key!r} must be a whole number, not {value!r}")
        return value

    seed = whole("seed", 0)
    rnd = whole("round", 0)
    if not 0 <= rnd < options.rounds:
        raise PositionError(f"round must be 0..{options.rounds - 1} (0-based), not {rnd}")
    dealer = whole("dealer", rnd % n)
    if dealer != rnd % n:
        raise PositionError(f"round {rnd} is dealt by seat {rnd % n}, not {dealer}")
    raw_hands = data.get("hands")
    if not isinstance(raw_hands, list) or len(raw_hands) != n:
        raise PositionError(f"'hands' must list {n} hands, one per seat")
    hand_groups = [cards_from_json(h, "hands") for h in raw_hands]
    groups = _jokers(
        [
            *hand_groups,
            cards_from_json(data.get("stock", []), "stock"),
            cards_from_json(data.get("discard", []), "discard"),
            cards_from_json(data.get("covers", []), "covers"),
        ]
    )
    hands, stock, discard, covers = groups[:n], groups[n], groups[n + 1], groups[n + 2]
    for s, h in enumerate(hands):
        if len(h) != HAND_SIZE:
            raise PositionError(f"seat {s} holds {len(h)} cards; every hand has {HAND_SIZE}")
    everywhere = [c for g in groups for c in g]
    counts: dict[Card, int] = {}
    for c in everywhere:
        counts[c] = counts.get(c, 0) + 1
    twice = sorted(c for c, k in counts.items() if k > 1)
    if twice:
        raise PositionError(f"card(s) in two places: {' '.join(map(str, twice))}")
    missing = [c for c in CARDS if c not in counts]
    if missing:
        raise PositionError(f"card(s) missing: {' '.join(map(str, missing))}")
    if not discard:
        raise PositionError("the discard pile is never empty")
    if len(covers) > n:
        raise PositionError("at most one cover per seat is set aside in a round")

    phase = data.get("phase", "play")
    if phase not in PHASES:
        raise PositionError(f"phase must be one of {', '.join(PHASES)}, not {phase!r}")
    seat_raw = data.get("to_act", (dealer + 1) % n if phase != "over" else None)
    knocker = data.get("knocker")
    for key, value in (("to_act", seat_raw), ("knocker", knocker)):
        if value is not None and (type(value) is not int or not 0 <= value < n):
            raise PositionError(f"{key!r} must be a seat 0..{n - 1} or null, not {value!r}")
    if phase == "over":
        if seat_raw is not None:
            raise PositionError("nobody acts once the match is over")
    elif seat_raw is None:
        raise PositionError(f"the {phase} phase needs a seat to act")
    if phase in ("final", "call") and knocker is None:
        raise PositionError(f"the {phase} phase needs a knocker")
    if phase == "play" and knocker is not None:
        raise PositionError("after a knock the phase is final, call, reveal or over")
    if phase in ("final", "call") and seat_raw == knocker:
        raise PositionError("the knocker takes no final turn and does not call")

    calls = _seat_list(data, "calls", n, None)
    if any(c not in (None, "call", "fold") for c in calls):
        raise PositionError("calls must be 'call', 'fold' or null")
    palmed = _seat_list(data, "palmed", n, False)
    if any(type(p) is not bool for p in palmed):
        raise PositionError("palmed must be true/false per seat")
    if len(covers) != sum(palmed):
        raise PositionError("each palm sets aside exactly one cover card")
    if palmed.count(True) and not options.sleight_of_hand:
        raise PositionError("palming needs the sleight_of_hand option")
    reshuffled = data.get("reshuffled", False)
    if type(reshuffled) is not bool:
        raise PositionError("reshuffled must be true or false")
    reveals_raw = _seat_list(data, "reveals", n, None)
    reveals = tuple(
        None if r is None else tuple(sorted(cards_from_json(r, "reveals"))) for r in reveals_raw
    )
    known_raw = _seat_list(data, "known", n, [])
    known = tuple(
        frozenset(_own_jokers(cards_from_json(k, "known"), hands[s]))
        for s, k in enumerate(known_raw)
    )
    for s in range(n):
        if not known[s] <= set(hands[s]):
            raise PositionError(f"seat {s}'s known cards must be in its hand")
        if reveals[s] is not None and reveals[s] not in legal_splits(hands[s]):
            raise PositionError(f"seat {s}'s revealed poker hand is not a legal split")
    totals = _seat_list(data, "totals", n, 0)
    if any(type(t) is not int for t in totals):
        raise PositionError("totals must be whole numbers")
    results = tuple(RoundResult.from_json(r) for r in data.get("results", []) or [])
    return DeadwoodKnockState(
        seed=seed,
        options=options,
        round=rnd,
        dealer=dealer,
        hands=tuple(tuple(sorted(h)) for h in hands),
        stock=stock,
        discard=discard,
        covers=covers,
        phase=str(phase),
        to_act=seat_raw,
        knocker=knocker,
        calls=tuple(calls),
        palmed=tuple(palmed),
        reshuffled=reshuffled,
        reveals=reveals,
        known=known,
        totals=tuple(totals),
        results=results,
    )


GAME: Final[Game[DeadwoodKnockState, DeadwoodKnockAction]] = Game(
    name=NAME,
    title="Deadwood Knock",
    min_players=2,
    max_players=6,
    options_from_json=options_from_json,
    new_game=new_game,
    legal_actions=legal_actions,
    apply=apply,
    observe=observe,
    to_act=to_act,
    is_over=is_over,
    scores=scores,
    action_from_json=action_from_json,
    position_from_json=position_from_json,
    position_to_json=position_to_json,
    why_illegal=why_illegal,
    determinize=determinize,
    facts=RuleFacts(
        title="Deadwood Knock",
        poker_split=True,
        rummy=False,
        hand_size=HAND_SIZE,
        knock_limit=KNOCK_LIMIT,
        card_points=CARD_POINTS,
        category_words=CATEGORY_WORDS,
        hand_points=dict(zip(CATEGORIES, HAND_POINTS, strict=True)),
        unit="round",
        jokers=True,
        figures={"pot_ante": POT_ANTE, "suspicion": SUSPICION},
    ),
)
