"""The Deadwood Knock core: every rule of a match (DK1, DK2, DK4-DK10) written once;
the hand evaluator (DK3) is :mod:`.hand`.

One mutable :class:`Core` plays a match in place; the public API of :mod:`.rules` and
the bots' playouts both run it:

* the public API keeps immutable :class:`DeadwoodKnockState` snapshots; ``apply`` copies
  the snapshot's fields into a ``Core`` (one dict copy: every container in it is an
  immutable tuple or frozenset, so nothing is copied deeply), steps it and hands that
  dict to the new snapshot (:func:`advance`, which *is* ``rules.apply``);
* a bot's playout makes one ``Core`` (``record=False``: no events, no log, no known
  cards, no round records, just the rules and the scores) and steps it to the end of
  the round; ``copy()`` is as cheap, so a sampled position is copied per candidate move.

A step never mutates a container in place; it rebinds the field to a new tuple. That is
what makes ``copy()`` O(fields) and lets a frozen snapshot share every container with
the core it came from.

Legality (:func:`legal_actions`, :func:`why_illegal`) reads a position's fields only, so
it takes a snapshot or a core alike. Events are interned where they are per seat and
card (a draw, a discard, a stock card), so a step builds no event objects; their
``data`` dicts are shared and must not be changed by their readers.
"""

from __future__ import annotations

import dataclasses
import operator
import random
from bisect import insort
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from deadwood_knock.cards import CARDS, DECK_54, Card, parse_cards, shuffled
from deadwood_knock.games.base import (
    Event,
    GameError,
    IllegalActionError,
    JSONDict,
    PositionError,
    derive_rng,
)
from deadwood_knock.games.deadwood_knock.hand import (
    KNOCK_LIMIT,
    best_five,
    evaluate,
    evaluate_batch,
    hand_row,
    legal_splits,
    long_hand,
    reading_order,
    showdown_split,
    split_result,
)

__all__ = [
    "HAND_SIZE",
    "MAX_ROUNDS",
    "PALM_MIN_DISCARDS",
    "PHASES",
    "POT_ANTE",
    "SOURCES",
    "SUSPICION",
    "Call",
    "Core",
    "DeadwoodKnockAction",
    "DeadwoodKnockOptions",
    "DeadwoodKnockState",
    "Draw",
    "Fold",
    "Knock",
    "Pot",
    "Reveal",
    "RoundResult",
    "Stand",
    "advance",
    "deal",
    "legal_actions",
    "may_knock",
    "pot_result",
    "settle_pot",
    "sources",
    "suspicions",
    "why_illegal",
    "winners",
]

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
KNOCK: Final = Knock()
STAND: Final = Stand()
CALL: Final = Call()
FOLD: Final = Fold()
CALL_FOLD: Final[tuple[DeadwoodKnockAction, ...]] = (CALL, FOLD)
DRAWS: Final = {src: tuple(Draw(c, src) for c in CARDS) for src in SOURCES}


# --- round records ---------------------------------------------------------------------

#: Each card's notation by index (what ``str(card)`` gives), for JSON built per round.
_NOTATION: Final = tuple(str(c) for c in CARDS)


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

    @property
    def winner(self) -> int | None:
        """The seat that won the round outright, or ``None``: the one seat with the
        highest round score in a round with a knock. A dry round (no knock, no pot), a tie
        at the top, or a top seat that folded (it sat the pot out, so its "win" would read
        as the pot's) has no winner. Suspicion is left out: it only ever lowers a seat
        below the highest, so it never changes who that is. What the table's talk and
        summaries call the round's winner; the scores themselves are DK6 and DK8.

        >>> r = RoundResult(1, 0, False, ((), ()), ((), ()), ("", ""), (0, 0), (0, 0),
        ...                 (None, "call"), (0, 0), (30, 12), (0, 0), (30, 12))
        >>> r.winner
        0
        >>> dataclasses.replace(r, round_scores=(12, 12)).winner is None
        True
        """
        if self.dry or self.knocker is None:
            return None
        best = max(self.round_scores)
        top = [seat for seat, score in enumerate(self.round_scores) if score == best]
        if len(top) != 1 or (top[0] < len(self.calls) and self.calls[top[0]] == "fold"):
            return None
        return top[0]

    def to_json(self) -> JSONDict:
        return {
            "round": self.round,
            "knocker": self.knocker,
            "dry": self.dry,
            "winner": self.winner,
            "poker_hands": [
                list(map(_NOTATION.__getitem__, reading_order(row))) for row in self.poker_hands
            ],
            # Derived, for the showdown: the five that score, and why a longer hand is legal.
            "best_fives": [
                list(map(_NOTATION.__getitem__, best_five(row))) for row in self.poker_hands
            ],
            "long_hands": [long_hand(row) for row in self.poker_hands],
            "deadwood": [list(map(_NOTATION.__getitem__, row)) for row in self.deadwood],
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


class ResultJSON(Mapping[str, Any]):
    """The ``round_result`` event's data: its round's ``RoundResult.to_json()``, built
    when first read (most steps of a bot or a benchmark never read it). It is equal to
    that dict, reads as it, and pickles and copies as it; it is read-only, as every
    event's data. Two threads reading it first at once build equal dicts, one kept."""

    __slots__ = ("_json", "_result")

    def __init__(self, result: RoundResult) -> None:
        self._result = result
        self._json: JSONDict | None = None

    def _data(self) -> JSONDict:
        data = self._json
        if data is None:
            data = self._json = self._result.to_json()
        return data

    def __getitem__(self, key: str) -> Any:
        return self._data()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data())

    def __len__(self) -> int:
        return len(self._data())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ResultJSON):
            return self._data() == other._data()
        return self._data() == other

    __hash__ = None  # type: ignore[assignment]  # as a dict's

    def __repr__(self) -> str:
        return repr(self._data())

    def __reduce__(self) -> tuple[type[dict[str, Any]], tuple[JSONDict]]:
        return dict, (self._data(),)


@dataclass(frozen=True)
class DeadwoodKnockState:
    """A full position. Hands are sorted tuples; stock and discard pile have their top
    LAST. ``covers`` are palmed-over cards set aside for the round (DK9). ``known`` holds,
    per seat, the cards the table saw enter that hand and not leave it. ``log`` is this
    round's events (private ones carry ``private_to``).

    Its fields live in the instance ``__dict__`` (no slots) on purpose: a :class:`Core`
    and a snapshot trade all their fields with one dict copy (``Core.of``, ``freeze``),
    far cheaper than setting each field of a frozen instance."""

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

    def __post_init__(self) -> None:
        # A plain dict for the fields (see the note at STATE_FIELDS), as the snapshots
        # made by ``apply`` and ``new_game`` have.
        _set(self, "__dict__", dict(self.__dict__))

    @property
    def players(self) -> int:
        return self.options.players


STATE_FIELDS: Final = tuple(f.name for f in dataclasses.fields(DeadwoodKnockState))

# Plain dicts: the field dict that snapshots and cores trade (and copy with ``dict.copy``,
# which keeps a dict's layout) must be an ordinary dict. An instance's own dict, made
# when a dataclass __init__ or a first attribute store fills it, shares its keys with
# the class (a "split" dict), and CPython 3.11 does not specialise attribute access on
# split dicts assigned this way: every ``state.phase`` or ``core.hands`` then took about
# 40 ns instead of 12 (measured; some 45 such accesses make a step). So a state built by
# its constructor swaps its dict for a plain copy (``__post_init__``), and ``Core.new``
# starts from a plain empty dict; every copy after that stays plain.
_new_state: Final = object.__new__
_set: Final = object.__setattr__

# --- interned events -------------------------------------------------------------------
# A draw, a discard and a stock card are one event per (seat, card): built once here.

_SEATS: Final = range(6)
_EV_KNOCK: Final = tuple(Event("knock", s) for s in _SEATS)
_EV_STAND: Final = tuple(Event("stand", s) for s in _SEATS)
_EV_ANSWER: Final = {k: tuple(Event(k, s) for s in _SEATS) for k in ("call", "fold")}
_EV_DRAW_STOCK: Final = tuple(Event("draw", s, {"source": "stock"}) for s in _SEATS)
_EV_STOCK_CARD: Final = tuple(
    tuple(Event("stock_card", s, {"card": c}, private_to=s) for c in CARDS) for s in _SEATS
)
_EV_DRAW_DISCARD: Final = tuple(
    tuple(Event("draw", s, {"source": "discard", "card": c}) for c in CARDS) for s in _SEATS
)
_EV_DISCARD: Final = tuple(tuple(Event("discard", s, {"card": c}) for c in CARDS) for s in _SEATS)


# --- the mutable core ------------------------------------------------------------------


class Core:
    """A match in progress, stepped in place (see the module docstring).

    The fields are those of :class:`DeadwoodKnockState`, each an immutable value that a
    step rebinds. ``record`` (default on) keeps the events, the log, the known cards and
    the round records; a playout turns it off. ``events`` are the last step's events
    (recording only); ``round_scores`` each seat's score (round score + Suspicion) of
    the last round scored."""

    # The state's fields go in __dict__ (traded whole with a snapshot), the rest in slots.
    __slots__ = ("__dict__", "events", "record", "round_scores")

    seed: int
    options: DeadwoodKnockOptions
    round: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    discard: tuple[Card, ...]
    covers: tuple[Card, ...]
    phase: str
    to_act: int | None
    knocker: int | None
    calls: tuple[str | None, ...]
    palmed: tuple[bool, ...]
    reshuffled: bool
    reveals: tuple[tuple[Card, ...] | None, ...]
    known: tuple[frozenset[Card], ...]
    totals: tuple[int, ...]
    results: tuple[RoundResult, ...]
    log: tuple[Event, ...]
    record: bool
    events: list[Event]
    round_scores: tuple[int, ...]

    @classmethod
    def of(cls, state: DeadwoodKnockState | Core, record: bool = True) -> Core:
        """A core at ``state`` (a snapshot or another core; shares its immutable
        containers)."""
        core = cls.__new__(cls)
        core.__dict__ = state.__dict__.copy()
        core.record = record
        core.events = []
        core.round_scores = ()
        return core

    @classmethod
    def new(cls, options: DeadwoodKnockOptions, seed: int, record: bool = True) -> Core:
        """A new match: round 1 dealt by seat 0 (DK1)."""
        core = cls.__new__(cls)
        core.__dict__ = {}  # a plain dict: see the note at STATE_FIELDS
        core.seed, core.options, core.record = seed, options, record
        core.events = []
        core.round_scores = ()
        core.log = ()
        deal(core, 0, (0,) * options.players, ())
        return core

    def copy(self) -> Core:
        """An independent core at the same position (O(fields): nothing is shared
        mutably)."""
        other = Core.of(self, self.record)
        other.round_scores = self.round_scores
        return other

    def hand_over(self) -> DeadwoodKnockState:
        """The snapshot of this position, made of this core's own field dict: the core
        must not be used again (``advance`` and ``new_game`` throw theirs away)."""
        state = _new_state(DeadwoodKnockState)
        _set(state, "__dict__", self.__dict__)
        return state

    def freeze(self) -> DeadwoodKnockState:
        """The immutable snapshot of this position (its fields are this core's
        ``__dict__``: see :class:`DeadwoodKnockState`)."""
        state = _new_state(DeadwoodKnockState)
        _set(state, "__dict__", self.__dict__.copy())
        return state

    @property
    def players(self) -> int:
        return self.options.players

    def legal_actions(self) -> tuple[DeadwoodKnockAction, ...]:
        return legal_actions(self)

    def why_illegal(self, action: object) -> str | None:
        return why_illegal(self, action)

    def step(self, action: DeadwoodKnockAction) -> tuple[Event, ...]:
        """Play one action, which must be legal (ask :meth:`why_illegal` first); returns
        its events (none when not recording)."""
        events: list[Event] = []
        self.events = events
        rnd = self.round
        seat = self.to_act
        assert seat is not None
        if type(action) is Draw:  # the common step first, told apart by type (cheapest)
            _draw(self, seat, action)
            if self.record and self.round == rnd:
                done = tuple(events)
                self.log += done
                return done
            return tuple(events)
        kind = action.kind
        if kind == "knock":
            # DK4: the others each take one final turn, from the knocker's left.
            self.phase, self.knocker, self.to_act = "final", seat, (seat + 1) % self.players
            if self.record:
                events.append(_EV_KNOCK[seat])
        elif kind == "stand":
            if self.record:
                events.append(_EV_STAND[seat])
            _end_turn(self, seat)
        elif kind in ("call", "fold"):
            # DK5: each non-knocker from the knocker's left calls or folds.
            calls = list(self.calls)
            calls[seat] = kind
            self.calls = tuple(calls)
            if self.record:
                events.append(_EV_ANSWER[kind][seat])
            nxt = (seat + 1) % self.players
            self.to_act = nxt
            if nxt == self.knocker:
                _showdown(self)
        else:
            assert isinstance(action, Reveal)
            _reveal(self, seat, action)
        done = tuple(events)
        if self.record and self.round == rnd:
            # (A step that dealt a new round left the log at that deal: ``deal``.)
            self.log += done
        return done


#: What legality reads: a frozen snapshot or a core (the same fields).
Position = DeadwoodKnockState | Core

_new_core: Final = Core.__new__


def advance(
    state: DeadwoodKnockState, action: DeadwoodKnockAction
) -> tuple[DeadwoodKnockState, tuple[Event, ...]]:
    """The public API's ``apply``: plays one action; raises :class:`IllegalActionError`
    (state untouched) if it is illegal. A recording core at a copy of ``state``'s fields
    plays it, then hands its fields to the new snapshot: one dict copy a step, not two
    (``Core.of`` then ``freeze``), as the core is thrown away and nothing else ever sees
    the dict it gives up. The state itself never changes."""
    reason = why_illegal(state, action)
    if reason is not None:
        raise IllegalActionError(reason)
    core = _new_core(Core)
    core.__dict__ = state.__dict__.copy()
    core.record = True
    core.round_scores = ()
    events = core.step(action)
    moved = _new_state(DeadwoodKnockState)  # core.hand_over(), without the call
    _set(moved, "__dict__", core.__dict__)
    return moved, events


# --- the deal (DK1) --------------------------------------------------------------------


def _shuffled_deck(rng: random.Random) -> list[Card]:
    """DK1's 54-card shuffle: ``cards.shuffled``, which writes ``random.shuffle`` out (the
    same cards, the rng left where ``random.shuffle`` leaves it)."""
    return shuffled(DECK_54, rng)


def deal(core: Core, rnd: int, totals: tuple[int, ...], results: tuple[RoundResult, ...]) -> None:
    """DK1: shuffle 54 cards, deal 8 each one at a time from the dealer's left, flip one.
    Resets the round's fields and (recording) the log to the deal's events."""
    options = core.options
    n = options.players
    dealer = rnd % n
    deck = _shuffled_deck(derive_rng(core.seed, rnd, 0))
    # One card at a time from the top (the end) of the deck, from the dealer's left.
    dealt = n * HAND_SIZE
    top = deck[: -dealt - 1 : -1]
    hands: list[tuple[Card, ...]] = [()] * n
    for k in range(n):
        hands[(dealer + 1 + k) % n] = tuple(sorted(top[k::n]))
    flipped = deck[-dealt - 1]
    core.round, core.dealer = rnd, dealer
    core.hands = tuple(hands)
    core.stock = tuple(deck[: -dealt - 1])
    core.discard = (flipped,)
    core.covers = ()
    core.phase, core.to_act, core.knocker = "play", (dealer + 1) % n, None
    core.calls = (None,) * n
    core.palmed = (False,) * n
    core.reshuffled = False
    core.reveals = (None,) * n
    core.known = (frozenset(),) * n
    core.totals, core.results = totals, results
    if core.record:
        events = [
            Event(
                "deal",
                dealer,
                {
                    "round": rnd + 1,
                    "dealer": dealer,
                    "hand_sizes": [HAND_SIZE] * n,
                    "stock_size": len(core.stock),
                    "flipped": flipped,
                },
            ),
            *(Event("hand", s, {"cards": core.hands[s]}, private_to=s) for s in range(n)),
        ]
        core.events.extend(events)
        core.log = tuple(events)


# --- legality (one source: legal_actions lists what why_illegal allows) -----------------


# The sources a seat may take from, as a 3-bit mask (stock 1, discard 2, palm 4): the
# names, and every card's draws from them in listing order, are looked up by it.
_SOURCE_SETS: Final = tuple(
    tuple(src for bit, src in enumerate(SOURCES) if mask >> bit & 1) for mask in range(8)
)
_DRAWS_BY_CARD: Final = tuple(
    tuple(tuple(DRAWS[src][c] for src in names) for c in range(54)) for names in _SOURCE_SETS
)


def _source_mask(pos: Position, seat: int) -> int:
    discard = pos.discard
    # DK7: the stock has cards, or can be rebuilt once a round from 2+ discards.
    mask = 1 if pos.stock or (not pos.reshuffled and len(discard) >= 2) else 0
    if discard:
        mask |= 2
    # DK9: one palm a round, from a pile of 3 or more, with the Sleight of Hand option.
    if pos.options.sleight_of_hand and not pos.palmed[seat] and len(discard) >= PALM_MIN_DISCARDS:
        mask |= 4
    return mask


#: Each source's bit in a source mask.
_SOURCE_BIT: Final = {src: 1 << bit for bit, src in enumerate(SOURCES)}


def sources(pos: Position, seat: int) -> tuple[str, ...]:
    """Where ``seat`` may take a card from now (DK2, DK7, DK9)."""
    return _SOURCE_SETS[_source_mask(pos, seat)]


def may_knock(pos: Position, hand: Sequence[Card]) -> bool:
    """DK4: a knock opens a normal turn, once a round, with a knock count of 11 or less."""
    return pos.phase == "play" and hand_row(hand)[1] <= KNOCK_LIMIT


def actual(hand: Sequence[Card], select: Card) -> Card | None:
    """The card of ``hand`` a select means (either joker for a joker), or None."""
    if select in hand:
        return select
    if select >= 52:
        return next((c for c in hand if c >= 52), None)
    return None


def legal_actions(pos: Position) -> tuple[DeadwoodKnockAction, ...]:
    """Every legal action of the seat to act (empty when the match is over). In the
    reveal phase the scoring split comes first, so bots and timeouts can take [0].

    It lists what :func:`why_illegal`'s predicates allow (``may_knock``, ``sources``,
    ``actual``): legality is written once."""
    seat = pos.to_act
    phase = pos.phase
    if seat is None or phase == "over":
        return ()
    if phase == "call":
        return CALL_FOLD
    hand = pos.hands[seat]
    if phase == "reveal":
        return tuple(Reveal(s) for s in legal_splits(hand))
    by_card = _DRAWS_BY_CARD[_source_mask(pos, seat)]
    # Both jokers are one select (a joker): list it once.
    selects = hand if hand[-1] != 53 or hand[-2] != 52 else hand[:-1]
    draws = [d for c in selects for d in by_card[c]]
    if phase == "final":
        return (*draws, STAND)
    # may_knock's test (the phase is play here), without its call: one a step.
    if hand_row(hand)[1] <= KNOCK_LIMIT:
        return (KNOCK, *draws)
    return tuple(draws)


def why_illegal(pos: Position, action: object) -> str | None:
    """``None`` if the seat to act may play ``action`` now, else the reason it may not
    (the text the player is shown)."""
    phase = pos.phase
    seat = pos.to_act
    if phase == "over" or seat is None:
        return "the match is over"
    if isinstance(action, Draw):
        if phase != "play" and phase != "final":
            return f"no draws in the {phase} phase"
        hand = pos.hands[seat]
        if action.select not in hand and actual(hand, action.select) is None:
            return f"{action.select} is not in your hand"
        source = action.source
        if type(source) is str and _SOURCE_BIT.get(source, 0) & _source_mask(pos, seat):
            return None
        if action.source == "palm":
            if not pos.options.sleight_of_hand:
                return "palming needs the Sleight of Hand option"
            if pos.palmed[seat]:
                return "you already palmed this round"
            return "palming needs at least 3 cards in the discard pile"
        return f"cannot take from the {action.source} now"
    if isinstance(action, Knock):
        if phase != "play":
            return "only one knock per round, at the start of a normal turn"
        if not may_knock(pos, pos.hands[seat]):
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
        if action.poker_hand not in legal_splits(pos.hands[seat]):
            return "that poker hand is not a legal split of your hand"
        return None
    return f"not an action: {action!r}"


# --- steps -----------------------------------------------------------------------------


def _draw(core: Core, seat: int, action: Draw) -> None:
    """DK2: the select goes to the discard pile after the take (DK7 reshuffle, DK9 palm)."""
    record = core.record
    events = core.events
    hands = core.hands
    hand = hands[seat]
    select = action.select
    placed = select if select in hand else actual(hand, select)  # (a joker: either)
    assert placed is not None
    source = action.source
    known = core.known[seat] if record else None
    if source == "stock":
        stock = core.stock
        if not stock:
            # DK7: everything under the top discard becomes the new stock, once per round.
            pile = core.discard[:-1]
            stock = tuple(shuffled(pile, derive_rng(core.seed, core.round, 1)))
            core.discard = core.discard[-1:]
            core.reshuffled = True
            if record:
                events.append(Event("reshuffle", seat, {"stock_size": len(stock)}))
        taken = stock[-1]
        core.stock = stock[:-1]
        if record:
            events.append(_EV_DRAW_STOCK[seat])
            events.append(_EV_STOCK_CARD[seat][taken])
    elif source == "discard":
        discard = core.discard
        taken = discard[-1]
        core.discard = discard[:-1]
        if known is not None:
            known = known | {taken}
            events.append(_EV_DRAW_DISCARD[seat][taken])
    else:
        # DK9: the top discard is set aside as cover; the card under it is taken.
        discard = core.discard
        cover, taken = discard[-1], discard[-2]
        core.discard = discard[:-2]
        core.covers = (*core.covers, cover)
        flags = list(core.palmed)
        flags[seat] = True
        core.palmed = tuple(flags)
        if known is not None:
            known = known | {taken}
            events.append(Event("draw", seat, {"source": "palm", "card": taken, "cover": cover}))
    rest = list(hand)
    rest.remove(placed)
    insort(rest, taken)
    new_hands = list(hands)
    new_hands[seat] = tuple(rest)
    core.hands = tuple(new_hands)
    core.discard = (*core.discard, placed)
    if known is not None:
        if placed in known:
            known = known - {placed}
        if known is not core.known[seat]:
            all_known = list(core.known)
            all_known[seat] = known
            core.known = tuple(all_known)
        events.append(_EV_DISCARD[seat][placed])
    _end_turn(core, seat)


def _end_turn(core: Core, seat: int) -> None:
    """DK4/DK7 after a draw or stand: a stock that is dry (empty and not rebuildable)
    ends the round at once, with no knocker and no pot whatever was pending; otherwise
    the turn passes, and the call phase comes once the final turns come round."""
    if not core.stock and (core.reshuffled or len(core.discard) < 2):
        if core.record:
            core.events.append(Event("stock_out", None, {"discard_size": len(core.discard)}))
        core.knocker = None
        core.calls = (None,) * core.options.players
        _showdown(core)
        return
    n = core.options.players
    nxt = (seat + 1) % n
    if core.phase == "final" and nxt == core.knocker:
        core.phase, core.to_act = "call", (nxt + 1) % n
    else:
        core.to_act = nxt


def _showdown(core: Core) -> None:
    """DK8: with manual splits each seat reveals from the dealer's left; otherwise every
    hand shows its scoring split."""
    if core.options.manual_split:
        core.phase, core.to_act = "reveal", (core.dealer + 1) % core.options.players
        return
    _score_round(core, None)


def _reveal(core: Core, seat: int, action: Reveal) -> None:
    reveals = list(core.reveals)
    reveals[seat] = action.poker_hand
    core.reveals = tuple(reveals)
    hand = core.hands[seat]
    if core.record:
        known = list(core.known)
        known[seat] = frozenset(hand)  # the whole hand is on the table now
        core.known = tuple(known)
        deadwood = tuple(c for c in hand if c not in action.poker_hand)
        core.events.append(
            Event(
                "reveal",
                seat,
                {"poker_hand": reading_order(action.poker_hand), "deadwood": deadwood},
            )
        )
    nxt = (seat + 1) % core.options.players
    core.to_act = nxt
    if nxt == (core.dealer + 1) % core.options.players:
        _score_round(core, core.reveals)


# --- scoring (DK6, DK8, DK9, DK10) ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Pot:
    """DK6's side bet settled: each seat's result, who was in, who took it, its size."""

    result: tuple[int, ...]
    ins: tuple[int, ...]
    winners: tuple[int, ...]
    total: int


def settle_pot(knocker: int | None, calls: Sequence[str | None], strengths: Sequence[Any]) -> Pot:
    """DK6: +10 to an uncalled knocker; else the best poker hand among the in players
    takes 10 per in player, ties split rounded down (the remainder is lost).

    ``strengths`` are any values ordered as the poker hands (strength tuples, or the
    evaluator's strength codes, as the bots' playouts use)."""
    n = len(strengths)
    pot = [0] * n
    if knocker is None:
        return Pot(tuple(pot), (), (), 0)
    ins = [knocker] + [s for s in range(n) if calls[s] == "call"]
    if len(ins) == 1:
        pot[knocker] = POT_ANTE
        return Pot(tuple(pot), (knocker,), (knocker,), 0)
    best = max(strengths[s] for s in ins)
    winners = [s for s in ins if strengths[s] == best]
    total = POT_ANTE * len(ins)
    share = total // len(winners)
    for s in ins:
        pot[s] = (share if s in winners else 0) - POT_ANTE
    return Pot(tuple(pot), tuple(sorted(ins)), tuple(winners), total)


def pot_result(
    knocker: int | None, calls: Sequence[str | None], strengths: Sequence[Sequence[int]]
) -> list[int]:
    """Each seat's pot result (DK6) from the seats' best-five strengths
    (``HandEvaluation.strength``); bots price pots with it."""
    return list(settle_pot(knocker, calls, [tuple(x) for x in strengths]).result)


def suspicions(palmed: Sequence[bool], round_scores: Sequence[int]) -> list[int]:
    """DK9: a seat that palmed and scored below the round's best loses 5."""
    top = max(round_scores)
    return [SUSPICION if palmed[s] and round_scores[s] < top else 0 for s in range(len(palmed))]


def winners(state: Position) -> tuple[int, ...]:
    """DK10: the seats with the highest total (several on equal totals share the win)."""
    best = max(state.totals)
    return tuple(s for s in range(state.options.players) if state.totals[s] == best)


def _score_round(core: Core, chosen: Sequence[tuple[Card, ...] | None] | None) -> None:
    """DK8: hand points - deadwood + pot, then Suspicion; the next round is dealt, or
    the match is over after the last. ``chosen``: the revealed poker hands (manual
    split), else every hand scores its scoring split."""
    n = core.options.players
    hands = core.hands
    record = core.record
    # Per seat: the evaluator's row (score, knock, hand points, deadwood, strength code)
    # and, when recording, the shown split (poker hand, deadwood, category).
    shown_splits: list[tuple[tuple[Card, ...], tuple[Card, ...], str]] = []
    rows: list[tuple[int, int, int, int, int]] = []
    strengths: list[Any] = []
    if chosen is not None:
        for s, c in enumerate(chosen):
            r = evaluate(hands[s]) if c is None else split_result(hands[s], c)
            rows.append((r.score, r.knock_count, r.hand_points, r.deadwood_points, 0))
            shown_splits.append((r.poker_hand, r.deadwood, r.category))
            # A chosen split has no strength code: its strength tuple orders alike.
            strengths.append(r.strength)
    elif record:
        for h in hands:
            row, poker, deadwood, category = showdown_split(h)
            rows.append(row)
            shown_splits.append((poker, deadwood, category))
        strengths = [r[4] for r in rows]
    else:
        # A playout: the points and the strength codes (which order as the strengths).
        rows = evaluate_batch(hands)
        strengths = [r[4] for r in rows]
    settled = settle_pot(core.knocker, core.calls, strengths)
    pot = settled.result
    round_scores = [r[2] - r[3] + p for r, p in zip(rows, pot, strict=True)]
    # DK9's Suspicion can only fall on a seat that palmed.
    suspicion = suspicions(core.palmed, round_scores) if True in core.palmed else [0] * n
    scored = tuple(map(operator.add, round_scores, suspicion))
    totals = tuple(map(operator.add, core.totals, scored))
    core.round_scores = scored
    all_results = core.results
    if record:
        pokers, deadwoods, categories = zip(*shown_splits, strict=True)
        result = RoundResult(
            core.round + 1,
            core.knocker,
            core.knocker is None,
            pokers,
            deadwoods,
            categories,
            tuple([r[2] for r in rows]),
            tuple([r[3] for r in rows]),
            core.calls,
            pot,
            tuple(round_scores),
            tuple(suspicion),
            totals,
            settled.ins,
            settled.winners,
            settled.total,
        )
        all_results = (*all_results, result)
        core.events.append(
            Event(
                "showdown",
                None,
                {
                    "hands": [
                        {"seat": s, "poker_hand": p, "deadwood": d, "category": c}
                        for s, (p, d, c) in enumerate(shown_splits)
                    ]
                },
            )
        )
        core.events.append(Event("round_result", None, ResultJSON(result)))
    if core.round + 1 < core.options.rounds:
        deal(core, core.round + 1, totals, all_results)
        return
    core.phase, core.to_act = "over", None
    core.totals, core.results = totals, all_results
    if shown_splits:
        core.reveals = tuple(p for p, _, _ in shown_splits)
    if record:
        core.known = tuple(frozenset(h) for h in hands)
        best = max(totals)
        core.events.append(
            Event(
                "match_over",
                None,
                {"totals": list(totals), "winners": [s for s in range(n) if totals[s] == best]},
            )
        )
