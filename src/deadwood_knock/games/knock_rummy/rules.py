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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from itertools import chain
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Final

from deadwood_knock.cards import DECK_52, Card
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
)
from deadwood_knock.games.knock_rummy.core import (
    GIN_BONUS,
    GIN_LIMIT,
    GIN_NAME,
    GIN_OUTCOME,
    GIN_VOID_STOCK,
    KNOCK_PENALTY,
    KR_NAME,
    MAX_TURNOVERS,
    PHASES,
    RUMMY_BONUS,
    Discard,
    Draw,
    HandResult,
    Knock,
    KnockRummyAction,
    KnockRummyOptions,
    KrTable,
    Rummy,
    best_layoff,
    cards_of_mask,
    deal_size,
    gin_layoffs_allowed,
    gin_outcome,
    gin_points,
    gin_settlement,
    knock_rummy_scores,
    legal_list,
    reason,
)
from deadwood_knock.games.knock_rummy.melds import Arrangement, arrange
from deadwood_knock.games.points import CARD_POINTS

__all__ = [
    "GAME",
    "GIN_GAME",
    "Discard",
    "Draw",
    "HandResult",
    "Knock",
    "KnockRummyAction",
    "KnockRummyGame",
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
    "observe_table",
    "position_from_json",
    "position_to_json",
    "state_of",
    "table_of",
    "why_illegal",
]

# The rule constants live in the core; they stay importable from here.
__all__ += [
    "GIN_BONUS",
    "GIN_LIMIT",
    "GIN_OUTCOME",
    "GIN_VOID_STOCK",
    "KNOCK_PENALTY",
    "MAX_TURNOVERS",
    "PHASES",
    "RUMMY_BONUS",
]


def gin_options_from_json(data: Mapping[str, Any]) -> KnockRummyOptions:
    """Options for the Gin preset: ``gin`` is implied (and may not be false)."""
    if not isinstance(data, Mapping):
        raise GameError("options must be an object")
    if data.get("gin", True) is not True:
        raise GameError("the gin game always has gin: true")
    return KnockRummyOptions.from_json({**data, "gin": True})


# --------------------------------------------------------------------------- actions


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


# --------------------------------------------------------------------------- state


@dataclass(frozen=True, slots=True)
class KnockRummyState:
    """The whole table. Hands are kept sorted; stock and discard pile have their top last.

    ``known`` holds, per seat, the cards everyone has seen enter that hand (taken from
    the discard pile, or drawn from a stock that was the face-up pile turned over) and
    not discarded since. ``stock_public`` is true once the pile has been turned over
    this hand: everyone saw that pile, so the stock's order is common knowledge.

    A state made by :func:`apply` holds the core's form of the table (``_core``: hands as
    bit masks, the log as a chain of the actions' events) and fills each field the first
    time it is read, since most states of a playout are only asked for their legal
    actions and played on. The fields read the same either way; a state built from its
    fields (the constructor, ``dataclasses.replace``) makes its core when first played.

    The core's last item hands on the table that made the state: the first ``apply``
    from this state takes it (``list.pop`` is atomic, so only one caller can) and plays
    on it instead of loading a new one; the core's fields never change, so neither does
    the state.
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
    _core: _Core | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def __getstate__(self) -> list[Any]:
        """Pickled as its fields (as before the core form): the core and the handed-on
        table are caches."""
        return [getattr(self, name) for name in _STATE_FIELDS]

    def __setstate__(self, values: list[Any]) -> None:
        for name, value in zip(_STATE_FIELDS, values, strict=True):
            object.__setattr__(self, name, value)
        object.__setattr__(self, "_core", None)

    if not TYPE_CHECKING:  # mypy keeps checking attribute names; this only fills fields

        def __getattr__(self, name: str) -> Any:
            """A field of a state made by :func:`apply`, read for the first time: made
            from the core and kept (only reached while the field's slot is empty)."""
            i = _STATE_INDEX.get(name)
            core = None if i is None else self._core
            if core is None:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            value = core[i]
            if i in (_HANDS, _KNOWN):
                value = tuple(map(_cards, value))
            elif i == _LOG:
                value = _log_tuple(value)
            object.__setattr__(self, name, value)
            return value


# The core's form of a state: the fields in their order, except that ``hands`` and
# ``known`` are 52-bit masks per seat and ``log`` may be a ``_Log`` chain; then
# the handed-on table (a list of at most one :class:`KrTable`, or ``None``).
_Core = tuple[Any, ...]

_STATE_FIELDS: Final = tuple(f.name for f in fields(KnockRummyState) if f.init)
_STATE_VALUES: Final = attrgetter(*_STATE_FIELDS)
_STATE_INDEX: Final = {name: i for i, name in enumerate(_STATE_FIELDS)}
_HANDS: Final = _STATE_INDEX["hands"]
_KNOWN: Final = _STATE_INDEX["known"]
_LOG: Final = _STATE_INDEX["log"]
_HANDED: Final = len(_STATE_FIELDS)


# A hand's event log as a chain: ``[prev, new, full]``, the log before one action
# (``prev``: a chain node or a tuple) and that action's events (``new``). Appending is
# O(1); the tuple is built when first read (``full`` keeps it), so a playout does not copy
# the whole log on every action. A plain list, as building an instance of a class cost a
# tenth of an ``apply``; the chain stays inside the core (a state pickles its fields).
_Log = list[Any]
_PREV, _NEW, _FULL = 0, 1, 2


def _log_tuple(log: _Log | tuple[Event, ...]) -> tuple[Event, ...]:
    """The log as a tuple (iterative: a chain is as long as a hand)."""
    if type(log) is tuple:
        return log
    assert type(log) is list
    parts: list[tuple[Event, ...]] = []
    node: _Log | tuple[Event, ...] = log
    while type(node) is list:
        full = node[_FULL]
        if full is not None:
            parts.append(full)
            break
        parts.append(node[_NEW])
        node = node[_PREV]
    else:
        assert type(node) is tuple
        parts.append(node)
    parts.reverse()
    whole = tuple(chain.from_iterable(parts))
    log[_FULL] = whole
    return whole


def _replace(state: KnockRummyState, **changes: Any) -> KnockRummyState:
    """``dataclasses.replace`` without its per-call field introspection (positional
    arguments, as a keyword call costs more); the state it makes is built from fields."""
    values = list(_STATE_VALUES(state))
    for name, value in changes.items():
        values[_STATE_INDEX[name]] = value
    return KnockRummyState(*values)


def _sorted(cards: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards))


def new_game(options: KnockRummyOptions, seed: int) -> KnockRummyState:
    """Deal the first hand; seat 0 deals first."""
    if not isinstance(options, KnockRummyOptions):
        raise GameError("new_game needs KnockRummyOptions")
    events: list[Event] = []
    return state_of(KrTable.new(options, int(seed), events))


def _new_gin_game(options: KnockRummyOptions, seed: int) -> KnockRummyState:
    if not isinstance(options, KnockRummyOptions) or not options.gin:
        raise GameError("the gin game needs gin options (gin: true)")
    return new_game(options, seed)


# --------------------------------------------------------------------------- the core
#
# Every rule is the core's (``core.py``): the public API loads a state's core form into a
# ``KrTable``, lets it play, and keeps the table's fields as the next state's core.


class _Cards(tuple[Card, ...]):
    """A sorted hand (or known cards) that carries its 52-bit mask, so that the core gets
    the mask of an unchanged hand without counting its cards again on every action; it
    is equal to, and prints as, the plain tuple."""

    mask: int


def _cards(m: int) -> tuple[Card, ...]:
    cards = _Cards(cards_of_mask(m))
    cards.mask = m
    return cards


_BIT: Final = tuple(1 << i for i in range(52))


def _mask(cards: Sequence[int]) -> int:
    if type(cards) is _Cards:
        return cards.mask
    m = 0
    for c in cards:  # a plain loop beats sum(map(...)) for ~10 items
        m |= _BIT[c]
    return m


def _core_of(state: KnockRummyState) -> _Core:
    """The core form of a state (made once for a state built from its fields)."""
    core = state._core
    if core is None:
        core = (
            state.options,
            state.seed,
            state.hand_number,
            state.dealer,
            tuple(_mask(h) for h in state.hands),
            tuple(state.stock),
            tuple(state.discard_pile),
            state.phase,
            state.to_act,
            state.taken_discard,
            state.turnovers,
            state.stock_public,
            tuple(_mask(k) for k in state.known),
            tuple(state.totals),
            tuple(state.log),
            state.last_result,
            state.winners,
            None,
        )
        object.__setattr__(state, "_core", core)
    return core


_new_state: Final = object.__new__
# The ``_core`` slot's own setter: a third of the cost of ``object.__setattr__`` (hot path).
_set_core: Final[Callable[[KnockRummyState, _Core], None]] = vars(KnockRummyState)["_core"].__set__


def _from_core(core: _Core) -> KnockRummyState:
    """A state whose fields are filled from ``core`` when read."""
    state: KnockRummyState = _new_state(KnockRummyState)
    _set_core(state, core)
    return state


def _load(core: _Core) -> KrTable:
    """A table playing from ``core``; its log starts empty (``log_base`` is left for the
    caller: :func:`apply` chains the new events onto the core's log itself)."""
    (
        opts,
        seed,
        hand_number,
        dealer,
        hands,
        stock,
        pile,
        phase,
        to_act,
        taken,
        turnovers,
        public,
        known,
        totals,
        _log,
        last_result,
        winners,
        _handed,
    ) = core
    t: KrTable = _new_state(KrTable)
    t.opts = opts
    t.seed = seed
    t.hand_number = hand_number
    t.dealer = dealer
    t.hands = list(hands)
    t.stock = list(stock)
    t.pile = list(pile)
    t.phase = phase
    t.to_act = to_act
    t.taken = taken
    t.turnovers = turnovers
    t.public = public
    t.known = list(known)
    t.totals = list(totals)
    t.last_result = last_result
    t.winners = winners
    t.single_hand = False
    t.hand_scores = None
    t.log_base = ()
    t.log_new = []
    t.seen = None
    return t


def _table(state: KnockRummyState) -> KrTable:
    core = _core_of(state)
    t = _load(core)
    t.log_base = _log_tuple(core[_LOG])
    return t


def table_of(state: KnockRummyState, *, single_hand: bool = False) -> KrTable:
    """The core's mutable table of a state (for the bots' playouts, the learning
    environments and the tests); ``single_hand`` stops it at the end of the hand."""
    t = _table(state)
    t.single_hand = single_hand
    return t


def state_of(table: KrTable) -> KnockRummyState:
    """The immutable state of a core table (the inverse of :func:`table_of`)."""
    t = table
    new = t.log_new
    return _from_core(
        (
            t.opts,
            t.seed,
            t.hand_number,
            t.dealer,
            tuple(t.hands),
            tuple(t.stock),
            tuple(t.pile),
            t.phase,
            t.to_act,
            t.taken,
            t.turnovers,
            t.public,
            tuple(t.known),
            tuple(t.totals),
            t.log_base + tuple(new) if new else t.log_base,
            t.last_result,
            t.winners,
            None,
        )
    )


# --------------------------------------------------------------------------- legality
#
# Legality is written once, in the core (``legal_masks``, ``reason``): ``legal_actions``
# lists what it allows, ``is_legal`` and ``apply`` ask it, and the reason reaches the player.


def legal_actions(state: KnockRummyState) -> tuple[KnockRummyAction, ...]:
    """Every action the seat to act may take, in a stable order."""
    core = state._core
    if core is None:
        core = _core_of(state)
    seat = core[8]
    if seat is None:
        return ()
    return legal_list(
        core[0], core[7], core[4][seat], core[9], len(core[5]), len(core[6]), core[10]
    )


def is_legal(state: KnockRummyState, action: object) -> bool:
    """The same answer as ``action in legal_actions(state)``."""
    return why_illegal(state, action) is None


def why_illegal(state: KnockRummyState, action: object) -> str | None:
    """``None`` if the seat to act may play ``action`` now, else the reason it may not
    (the text the player is shown). Cheaper than listing every legal action."""
    return _why(_core_of(state), action)


def _why(core: _Core, action: object) -> str | None:
    seat = core[8]
    return reason(
        core[0],
        core[7],
        seat,
        0 if seat is None else core[4][seat],
        core[9],
        len(core[5]),
        len(core[6]),
        core[10],
        action,
    )


# --------------------------------------------------------------------------- apply


def _next_log(log: _Log | tuple[Event, ...], new: tuple[Event, ...]) -> _Log | tuple[Event, ...]:
    """The hand's log after an action's events (the same hand)."""
    return [log, new, None] if new else log


def apply(
    state: KnockRummyState, action: KnockRummyAction
) -> tuple[KnockRummyState, tuple[Event, ...]]:
    """Play one action; an illegal one raises IllegalActionError (with the reason) and
    changes nothing."""
    core = state._core
    if core is None:
        core = _core_of(state)
    (
        opts,
        seed,
        hand_number,
        dealer,
        hands,
        stock,
        pile,
        phase,
        seat,
        taken,
        turnovers,
        public,
        _known,
        totals,
        log,
        last_result,
        winners,
        handed,
    ) = core
    why = reason(
        opts,
        phase,
        seat,
        0 if seat is None else hands[seat],
        taken,
        len(stock),
        len(pile),
        turnovers,
        action,
    )  # what ``why_illegal`` asks, spelled out on this hot path
    if why is not None:
        raise IllegalActionError(why)
    try:
        t = handed.pop() if handed else _load(core)
    except IndexError:  # another thread took the table in between
        t = _load(core)
    # A handed-on table is at this state (nothing played on it since), its log aside:
    # the core keeps the log, the table only collects this action's events (``log_base``
    # stays empty: :func:`_load` empties it and a deal starts it empty).
    t.log_new = []
    events: list[Event] = []
    # KrTable.play's dispatch, with its two hot moves called directly (one call less).
    kind = type(action)
    if kind is Discard:
        t._discard(seat, action.card, events)  # type: ignore[union-attr]
    elif kind is Draw:
        t._draw(seat, action.source, events)  # type: ignore[union-attr]
    else:
        t.play(action, events)
    new = tuple(events)
    # The next state's core. Whatever the action left alone keeps this core's values:
    # within a hand (the same hand number, someone to act) the options, seed, dealer,
    # totals, last result and winners stay; one action changes the stock or the pile by
    # one card or turns the pile over, so a pile or stock of the same size in the same
    # turn-over is the same (and so is ``public``). A deal starts the log afresh.
    if t.hand_number == hand_number and t.to_act is not None:
        if t.turnovers == turnovers:
            if len(t.pile) != len(pile):
                pile = tuple(t.pile)  # a discard or a draw from the pile
            elif len(t.stock) != len(stock):
                stock = tuple(t.stock)  # a draw from the stock
        else:
            stock, pile, turnovers, public = tuple(t.stock), tuple(t.pile), t.turnovers, t.public
        after_core: _Core = (
            opts,
            seed,
            hand_number,
            dealer,
            tuple(t.hands),
            stock,
            pile,
            t.phase,
            t.to_act,
            t.taken,
            turnovers,
            public,
            tuple(t.known),
            totals,
            [log, new, None] if new else log,  # _next_log, inline
            last_result,
            winners,
            [t],
        )
    else:
        after_core = (
            opts,
            seed,
            t.hand_number,
            t.dealer,
            tuple(t.hands),
            tuple(t.stock),
            tuple(t.pile),
            t.phase,
            t.to_act,
            t.taken,
            t.turnovers,
            t.public,
            tuple(t.known),
            tuple(t.totals),
            _next_log(log, new) if t.hand_number == hand_number else t.log_base + tuple(t.log_new),
            t.last_result,
            t.winners,
            [t],
        )
    after: KnockRummyState = _new_state(KnockRummyState)
    _set_core(after, after_core)
    return after, new


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
        return self.to_json_with(None)

    def to_json_with(self, json_of: Callable[[Any], JSONDict] | None) -> JSONDict:
        """:meth:`to_json`, with each event's and the last result's JSON from ``json_of``
        (their own ``to_json()`` when None). A server keeps them (immutable) cached: each
        view it sends lists every event of the hand again."""
        last = self.last_result
        if json_of is None:
            events = [e.to_json() for e in self.events]
            last_json = None if last is None else last.to_json()
        else:
            events = [json_of(e) for e in self.events]
            last_json = None if last is None else json_of(last)
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
            "events": events,
            "legal_actions": [a.to_json() for a in self.legal_actions],
            "last_result": last_json,
            "winners": list(self.winners),
            "target": self.options.target,
        }


def observe(state: KnockRummyState, seat: int) -> KnockRummyObservation:
    """What ``seat`` sees; never another hand's unknown cards nor a face-down stock.
    Built by :func:`observe_table` on the state's table, so the observation is written
    once."""
    return observe_table(_table(state), seat)


def observe_table(table: KrTable, seat: int) -> KnockRummyObservation:
    """What ``seat`` sees of a core table: the same observation as
    ``observe(state_of(table), seat)`` (checked by ``tests/test_kr_core.py``), without
    building the state; the events come from ``table.seen`` when it is tracked."""
    t = table
    n = t.opts.players
    if not 0 <= seat < n:
        raise GameError(f"seat must be 0..{n - 1}, not {seat}")
    hand = cards_of_mask(t.hands[seat])
    if t.seen is not None:
        events = tuple(t.seen[seat])
    else:
        events = tuple(
            e for e in (*t.log_base, *t.log_new) if e.private_to is None or e.private_to == seat
        )
    return KnockRummyObservation(
        game=t.opts.game_name,
        options=t.opts,
        seat=seat,
        hand_number=t.hand_number,
        dealer=t.dealer,
        to_act=t.to_act,
        phase=t.phase,
        hand=hand,
        arrangement=arrange(hand, t.opts.high_aces),
        discard_pile=tuple(t.pile),
        stock_size=len(t.stock),
        public_stock=tuple(t.stock) if t.public else None,
        hand_sizes=tuple(h.bit_count() for h in t.hands),
        known_cards=tuple(cards_of_mask(k) for k in t.known),
        taken_discard=t.taken,
        turnovers=t.turnovers,
        totals=tuple(t.totals),
        last_result=t.last_result,
        events=events,
        legal_actions=t.legal() if t.to_act == seat else (),
        winners=t.winners,
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


#: The type of :data:`GAME` and :data:`GIN_GAME`: what ``get_game("knock-rummy")`` and
#: ``get_game("gin")`` are typed as.
KnockRummyGame = Game[KnockRummyState, KnockRummyAction, KnockRummyObservation, KnockRummyOptions]

GAME: Final[KnockRummyGame] = Game(
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

GIN_GAME: Final[KnockRummyGame] = Game(
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
