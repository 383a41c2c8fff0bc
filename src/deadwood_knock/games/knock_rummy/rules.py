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

import inspect
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import FrozenInstanceError, dataclass, field, fields
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
    BOTH_DRAWS_MASKS,
    DISCARD,
    DISCARD_TABLES,
    DRAW,
    DRAW_LISTS,
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
    TABLE_LOG,
    Discard,
    Draw,
    HandResult,
    Knock,
    KnockRummyAction,
    KnockRummyOptions,
    KrTable,
    Rummy,
    actions_of,
    best_layoff,
    cards_of_mask,
    deal_size,
    discard_masks,
    draw_masks,
    gin_layoffs_allowed,
    gin_outcome,
    gin_points,
    gin_settlement,
    knock_rummy_scores,
    legal_list,
    reason,
)
from deadwood_knock.games.knock_rummy.melds import (
    Arrangement,
    arrange,
    count,
)
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
    return _cached_options(_parse_gin_options, data)


def _cached_options(
    parse: Callable[[Mapping[str, Any]], KnockRummyOptions], data: Mapping[str, Any]
) -> KnockRummyOptions:
    """``parse(data)``, kept per parser and JSON object: parsing and checking the options
    cost about a hundredth of a random Gin hand, and a bench or a server parses the same
    few objects again and again. The key holds each value's type with it, so ``True`` and
    ``1`` (equal, and equally hashed) are told apart; an object with an unhashable value,
    or not a plain dict, is parsed every time; errors are never kept. The options are
    immutable, so equal JSON may share them."""
    if type(data) is not dict:
        return parse(data)
    try:
        key = (parse, tuple(data.items()), tuple(map(type, data.values())))
        return _OPTIONS[key]
    except KeyError:
        pass
    except TypeError:  # an unhashable value: no key
        return parse(data)
    options = parse(data)
    if len(_OPTIONS) >= _OPTIONS_KEPT:
        _OPTIONS.clear()
    _OPTIONS[key] = options
    return options


_OPTIONS: Final[dict[tuple[Any, ...], KnockRummyOptions]] = {}
_OPTIONS_KEPT: Final = 256


def _parse_gin_options(data: Mapping[str, Any]) -> KnockRummyOptions:
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


if TYPE_CHECKING:
    _StateType = type
else:

    class _StateType(type):
        """The metaclass of :class:`KnockRummyState`: building a state from its fields (the
        constructor, ``dataclasses.replace``) goes through its ``__call__``, so that calling
        ``type.__call__`` on the class itself makes a blank state at C speed (no Python
        ``__init__``): the hot path of :func:`apply` (see :data:`_blank`)."""

        def __call__(cls, *args: Any, **kwargs: Any) -> Any:
            state = type.__call__(cls)
            _init(state, *args, **kwargs)
            return state


@dataclass(frozen=True, slots=True)
class KnockRummyState(metaclass=_StateType):
    """The whole table. Hands are kept sorted; stock and discard pile have their top last.

    ``known`` holds, per seat, the cards everyone has seen enter that hand (taken from
    the discard pile, or drawn from a stock that was the face-up pile turned over) and
    not discarded since. ``stock_public`` is true once the pile has been turned over
    this hand: everyone saw that pile, so the stock's order is common knowledge.

    A state made by :func:`apply` within a hand keeps no copy of the table: it holds a
    node ``[parent, action, masks, listed, table]`` (``_core``), where ``table`` is the
    core table that the action left at this state, ``masks`` the core's legal masks and
    ``listed`` the legal actions, when known. The first ``apply`` from the state takes that
    table (``list.pop(4)`` is atomic, so only one caller can) and plays on it in place, so a
    random playout copies nothing per action. Each field is filled the first time it is
    read: from the table while the state still holds it, else by replaying the actions
    from the nearest filled ancestor on a fresh table (the core is deterministic, so the
    replay makes the same table). A state that starts a hand (``new_game``, a deal)
    keeps what deals that table again (:func:`_handing_on`), so a replay never goes back
    further than its hand. Reads never
    change the fields, so the state is immutable; a state built from its fields (the
    constructor, ``dataclasses.replace``, unpickling) loads a table when first played.
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
    _core: _Node | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def __getstate__(self) -> list[Any]:
        """Pickled as its fields: the node and its table are the engine's working form."""
        return [getattr(self, name) for name in _STATE_FIELDS]

    def __setstate__(self, values: list[Any]) -> None:
        _set_fields(self, values)
        _set_core(self, None)


class _Lazy:
    """A field of :class:`KnockRummyState` that a state made by :func:`apply` fills when
    first read (every field at once: :func:`_fill`). It wraps the field's slot rather than
    the class defining ``__getattr__``, which would make every attribute read of a state
    take CPython's slow generic path (``state._core`` is read on every action). It also
    keeps the state immutable: assigning or deleting a field raises, as the frozen
    dataclass's ``__setattr__`` did (the class has no ``__setattr__``, so that
    :func:`apply` sets a new state's ``_core`` slot by plain, specialised assignment)."""

    __slots__ = ("name", "slot")

    def __init__(self, slot: Any, name: str) -> None:
        self.slot = slot
        self.name = name

    def __get__(self, state: KnockRummyState | None, owner: type | None = None) -> Any:
        if state is None:
            return self
        try:
            return self.slot.__get__(state, owner)
        except AttributeError:
            if not _fill(state):
                raise
            return self.slot.__get__(state, owner)

    def __set__(self, state: KnockRummyState, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {self.name!r}")

    def __delete__(self, state: KnockRummyState) -> None:
        raise FrozenInstanceError(f"cannot delete field {self.name!r}")


# A state's node: ``[parent, action, masks, listed, table]`` for a state made by ``apply``
# (``[parent, action, masks, listed]`` once an ``apply`` took the table); at the start of a
# hand (and of the game) ``[None, kept, masks, None, table]``, ``kept`` what makes the table
# there again (:func:`_handing_on`). ``masks`` is ``None`` until :func:`legal_actions` puts
# the core's legal masks (``legal_masks``) of the state there, or ``apply`` did when it
# made the state, so that ``apply`` checks the action the player picked from them without
# asking ``reason`` (which still words an illegal one's reason). In the commonest case
# (discards with no knock or rummy legal) ``masks`` is the discard mask alone, an int,
# standing for ``(0, mask, 0, 0)``: no tuple a discard. ``listed`` is the state's legal
# actions when ``apply`` knew them as it made the state (both draws after a plain discard
# that leaves cards in the stock; the discards alone after a draw that found no knock or
# rummy: ``KrTable.only_discards``), else ``None``; :func:`legal_actions` returns them
# as they are, since they are the state's whether or not its table has moved on.
_Node = list[Any]

_STATE_FIELDS: Final = tuple(f.name for f in fields(KnockRummyState) if f.init)
_STATE_VALUES: Final = attrgetter(*_STATE_FIELDS)
_STATE_INDEX: Final = {name: i for i, name in enumerate(_STATE_FIELDS)}
# The slots' own setters (the fields refuse plain assignment) and the last field's
# getter: ``winners`` is set last when a state is filled, so a state is filled when it
# has ``winners`` (the getter raises AttributeError on an empty slot, without
# ``__getattr__``).
_SETTERS: Final = tuple(vars(KnockRummyState)[name].__set__ for name in _STATE_FIELDS)
_FILLED: Final = vars(KnockRummyState)["winners"].__get__
assert _STATE_FIELDS[-1] == "winners"
for _name in _STATE_FIELDS:
    setattr(KnockRummyState, _name, _Lazy(vars(KnockRummyState)[_name], _name))
# The ``_core`` slot's own setter, for where the type checker sees the frozen class.
_set_core: Final[Callable[[KnockRummyState, _Node | None], None]] = vars(KnockRummyState)[
    "_core"
].__set__


def _init(state: KnockRummyState, *args: Any, **kwargs: Any) -> None:
    """The dataclass's ``__init__``: its parameters (bound by its own signature, so a
    field added to the class needs nothing here) set through the slots' setters."""
    bound = _INIT_SIGNATURE.bind(*args, **kwargs)
    bound.apply_defaults()
    _set_fields(state, tuple(bound.arguments.values()))
    _set_core(state, None)


_init.__qualname__ = "KnockRummyState.__init__"  # so its TypeErrors read as the class's
# The class keeps the dataclass's fields, ``__eq__``, ``__hash__``, ``__repr__`` and
# ``__match_args__`` (so ``dataclasses.fields`` and ``replace`` work as before), and its
# signature; its ``__init__`` is the metaclass's ``__call__`` (:func:`_init`), and its
# immutability the fields' (:class:`_Lazy`): without ``__init__`` and ``__setattr__`` a
# call of ``type.__call__`` makes a blank state in C, and ``state._core = node`` is a
# specialised slot store. Together 1,030 instructions against 1,900 for
# ``object.__new__`` and the slot's setter (about 9% of a random Gin action).
_signature = inspect.signature(KnockRummyState.__init__)
# The dataclass's signature, less ``self`` (else ``inspect`` shows the metaclass's).
_INIT_SIGNATURE: Final = _signature.replace(parameters=list(_signature.parameters.values())[1:])
KnockRummyState.__signature__ = _INIT_SIGNATURE  # type: ignore[attr-defined]
for _name in ("__init__", "__setattr__", "__delattr__"):
    delattr(KnockRummyState, _name)
#: A blank state (no field, no node) of :class:`KnockRummyState`, made in C.
_blank: Final[Callable[[], Any]] = vars(type)["__call__"].__get__(
    KnockRummyState, type(KnockRummyState)
)


def _replace(state: KnockRummyState, **changes: Any) -> KnockRummyState:
    """``dataclasses.replace`` without its per-call field introspection (positional
    arguments, as a keyword call costs more); the state it makes is built from fields."""
    values = list(_STATE_VALUES(state))
    for name, value in changes.items():
        values[_STATE_INDEX[name]] = value
    made: KnockRummyState = _blank()
    _set_fields(made, values)
    _set_core(made, None)
    return made


def _sorted(cards: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards))


def new_game(options: KnockRummyOptions, seed: int) -> KnockRummyState:
    """Deal the first hand; seat 0 deals first."""
    if not isinstance(options, KnockRummyOptions):
        raise GameError("new_game needs KnockRummyOptions")
    events: list[Event] = []
    return _handing_on(KrTable.new(options, int(seed), events))


def _new_gin_game(options: KnockRummyOptions, seed: int) -> KnockRummyState:
    if not isinstance(options, KnockRummyOptions) or not options.gin:
        raise GameError("the gin game needs gin options (gin: true)")
    return new_game(options, seed)


# --------------------------------------------------------------------------- the core
#
# Every rule is the core's (``core.py``): the public API plays on a ``KrTable`` and reads
# a state's fields off the table it left (or a replay of it).


class _Cards(tuple[Card, ...]):
    """A sorted hand (or known cards) that carries its 52-bit mask, so that the core gets
    the mask of an unchanged hand without counting its cards again when a table is
    loaded from a state; it is equal to, and prints as, the plain tuple."""

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


def _values(t: KrTable) -> tuple[Any, ...]:
    """A table's fields as a state's, in :data:`_STATE_FIELDS` order."""
    return (
        t.opts,
        t.seed,
        t.hand_number,
        t.dealer,
        tuple(map(_cards, t.hands)),
        tuple(t.stock),
        tuple(t.pile),
        t.phase,
        t.to_act,
        t.taken,
        t.turnovers,
        t.public,
        tuple(map(_cards, t.known)),
        tuple(t.totals),
        t.log_base + tuple(t.log_new),
        t.last_result,
        t.winners,
    )


def _set_fields(state: KnockRummyState, values: Sequence[Any]) -> None:
    for put, value in zip(_SETTERS, values, strict=True):  # ``winners`` last: filled
        put(state, value)


def _handing_on(t: KrTable) -> KnockRummyState:
    """A state at table ``t`` (the start of a hand, or the end of the game) that hands
    ``t`` on to its first ``apply`` and keeps what makes the same table again, from which
    its fields, and those of the hand's later states, are replayed when the table has
    moved on: at a deal, the deal's inputs (the deal is the seed's: dealt again, it gives
    the same cards and equal events), at the end of the game a copy. Keeping the inputs
    costs a fraction of a copy, which costs a tenth of filling the fields; most states
    are never read."""
    state = _blank()
    if t.to_act is None:  # the game is over: keep a copy
        state._core = [None, t.copy(), None, None, t]
    else:  # a hand just dealt: keep the deal's inputs, dealt again on a replay
        keep = (t.opts, t.seed, t.hand_number, t.dealer, tuple(t.totals), t.last_result, t.winners)
        state._core = [None, keep, None, None, t]
    result: KnockRummyState = state
    return result


def _start_table(keep: Any) -> KrTable:
    """A new table at a hand's start from what :func:`_handing_on` kept there."""
    if type(keep) is KrTable:
        return keep.copy()
    opts, seed, hand_number, dealer, totals, last_result, winners = keep
    t = KrTable.blank(opts, seed, list(totals))
    t.last_result = last_result
    t.winners = winners
    t._deal(hand_number, dealer, [])  # the same cards and deal events, from the seed
    return t


def _fill(state: KnockRummyState) -> bool:
    """Fill an unfilled state made by :func:`apply` (see :class:`KnockRummyState`); false
    for a state that has nothing to fill from."""
    node = state._core
    if node is None:
        return False
    if len(node) == 5:
        values = _values(node[4])
        if len(node) == 5:  # no ``apply`` took the table while it was read
            _set_fields(state, values)
            return True
    # Replay: the actions back to the nearest filled ancestor, on a table loaded there,
    # or to the start of the hand, on the table dealt again (or copied) from what it kept.
    actions = []
    at = state
    while True:
        try:
            _FILLED(at)
            t = _load(at)
            break
        except AttributeError:
            node = at._core
            assert node is not None
            if node[0] is None:  # a hand's start: node[1] is what it kept
                t = _start_table(node[1])
                break
            actions.append(node[1])
            at = node[0]
    for action in reversed(actions):
        t.play(action, [])  # with events, so the table keeps the hand's log
    _set_fields(state, _values(t))
    return True


def _load(state: KnockRummyState) -> KrTable:
    """A new table at a state's fields (which this fills); its log starts as the state's."""
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
        log,
        last_result,
        winners,
    ) = _STATE_VALUES(state)
    t = KrTable.blank(opts, seed, list(totals))
    t.hand_number = hand_number
    t.dealer = dealer
    t.hands = [_mask(h) for h in hands]
    t.stock = list(stock)
    t.pile = list(pile)
    t.phase = phase
    t.to_act = to_act
    t.taken = taken
    t.turnovers = turnovers
    t.public = public
    t.known = [_mask(k) for k in known]
    t.last_result = last_result
    t.winners = winners
    t.log_base = tuple(log)
    return t


def _live(state: KnockRummyState) -> KrTable | None:
    """The table the state holds (at this state), or ``None`` if it holds none; a caller
    that reads it must check :func:`_still` afterwards (another thread may take it)."""
    node = state._core
    if node is None or len(node) != 5:
        return None
    t: KrTable = node[4]
    return t


def _still(state: KnockRummyState) -> bool:
    """Whether the state still holds its table (nothing played on it since it was read)."""
    node = state._core
    return node is not None and len(node) == 5


def table_of(state: KnockRummyState, *, single_hand: bool = False) -> KrTable:
    """The core's mutable table of a state (for the bots' playouts, the learning
    environments and the tests); ``single_hand`` stops it at the end of the hand."""
    t = _live(state)
    if t is not None:
        t = t.copy()
        if not _still(state):
            t = None
    if t is None:
        t = _load(state)
    t.single_hand = single_hand
    return t


def state_of(table: KrTable) -> KnockRummyState:
    """The immutable state of a core table (the inverse of :func:`table_of`); the table
    stays the caller's."""
    state: KnockRummyState = _blank()
    _set_fields(state, _values(table))
    _set_core(state, None)
    return state


# --------------------------------------------------------------------------- legality
#
# Legality is written once, in the core (``legal_masks``, ``reason``): ``legal_actions``
# lists what it allows, ``is_legal`` and ``apply`` ask it, and the reason reaches the player.


def legal_actions(state: KnockRummyState) -> tuple[KnockRummyAction, ...]:
    """Every action the seat to act may take, in a stable order."""
    node: Any = state._core  # None (TypeError below) or a node
    try:
        listed = node[3]  # what ``apply`` worked out (hot path: nearly every state of a playout)
    except TypeError:  # no node
        return _legal_of_fields(state)
    if listed is not None:  # the state's own answer: it holds whether or not the table moved on
        return listed  # type: ignore[no-any-return]
    try:
        t = node[4]  # the table at this state
    except IndexError:  # the table moved on
        return _legal_of_fields(state)
    # legal_masks by phase (its halves called directly: fewer arguments), and
    # actions_of(masks) with its two usual cases inline (a call costs as much as each):
    # the draws, and discards when no knock or rummy is legal.
    phase = t.phase
    if phase == DRAW:
        # Stock and pile both hold cards (nearly every draw): both draws, ``draw_masks``'
        # first answer without its call.
        if t.stock and t.pile:
            if len(node) != 5:  # another thread played on the table while it was read
                return _legal_of_fields(state)
            node[2] = BOTH_DRAWS_MASKS
            return _BOTH_DRAWS
        masks = draw_masks(len(t.stock), len(t.pile), t.turnovers)
        if len(node) != 5:  # another thread played on the table while it was read
            return _legal_of_fields(state)
        node[2] = masks  # for ``apply`` (the masks of this state, whatever happens next)
        return DRAW_LISTS[masks[0]]
    if phase != DISCARD:
        return ()
    # The draw that began this discard worked out the legal actions when they are the
    # discards alone (no knock, no rummy: nearly every discard of a random Gin hand).
    found: tuple[KnockRummyAction, ...] | None = t.only_discards
    if found is not None:
        mask = t.only_discards_mask
        if len(node) != 5:  # another thread played on the table while it was read
            return _legal_of_fields(state)
        # The legal discards' mask alone (no knock, no rummy): ``apply`` reads an int
        # there as the discard mask of ``(0, mask, 0, 0)``, without that tuple.
        node[2] = mask
        return found
    seat = t.to_act  # a table's seat is None only once the game is over
    if seat is None:
        return ()
    masks = discard_masks(t.opts, t.hands[seat], t.taken)
    if len(node) != 5:
        return _legal_of_fields(state)
    node[2] = masks
    if masks[2] or masks[3]:
        return actions_of(masks)
    m = masks[1]
    lo = m & 0x3FFFFFF  # the 26-bit halves: one-digit ints take CPython's fast paths
    hi = m >> 26
    return _D0[lo & 0x1FFF] + _D1[lo >> 13] + _D2[hi & 0x1FFF] + _D3[hi >> 13]


# The core's discard tables, as globals here (read on every ``legal_actions`` while discarding).
_D0, _D1, _D2, _D3 = DISCARD_TABLES
_BOTH_DRAWS: Final = DRAW_LISTS[BOTH_DRAWS_MASKS[0]]


def _legal_of_fields(state: KnockRummyState) -> tuple[KnockRummyAction, ...]:
    """:func:`legal_actions` from the state's fields (a state that holds no table)."""
    seat = state.to_act
    if seat is None:
        return ()
    return legal_list(
        state.options,
        state.phase,
        _mask(state.hands[seat]),
        state.taken_discard,
        len(state.stock),
        len(state.discard_pile),
        state.turnovers,
    )


def is_legal(state: KnockRummyState, action: object) -> bool:
    """The same answer as ``action in legal_actions(state)``."""
    return why_illegal(state, action) is None


def why_illegal(state: KnockRummyState, action: object) -> str | None:
    """``None`` if the seat to act may play ``action`` now, else the reason it may not
    (the text the player is shown). Cheaper than listing every legal action."""
    t = _live(state)
    if t is not None:
        why = t.reason(action)
        if _still(state):
            return why
    seat = state.to_act
    return reason(
        state.options,
        state.phase,
        seat,
        0 if seat is None else _mask(state.hands[seat]),
        state.taken_discard,
        len(state.stock),
        len(state.discard_pile),
        state.turnovers,
        action,
    )


# --------------------------------------------------------------------------- apply


def apply(
    state: KnockRummyState, action: KnockRummyAction
) -> tuple[KnockRummyState, tuple[Event, ...]]:
    """Play one action; an illegal one raises IllegalActionError (with the reason) and
    changes nothing."""
    node = state._core
    if node is None:
        return _apply_loaded(state, action)
    try:
        t = node.pop(4)  # take the table: it moves on with the new state
    except IndexError:  # taken already (the state is played a second time)
        return _apply_loaded(state, action)
    # An action picked from this state's legal actions is legal by their masks (the core's
    # ``legal_masks``: a discard's or a draw's bit); anything else asks ``reason``
    # (:func:`_check`). The two hot moves are called directly (``KrTable.play``'s dispatch).
    masks = node[2]
    kind = type(action)
    if kind is Draw:
        source = action.source  # type: ignore[union-attr]
        if masks is BOTH_DRAWS_MASKS:  # both draws legal (nearly every draw): a named one
            if source != "stock" and source != "discard":
                _check(node, t, action)
        elif type(masks) is not tuple or not masks[0] & (  # None, or a discard's int
            1 if source == "stock" else 2 if source == "discard" else 0
        ):
            _check(node, t, action)
        # TABLE_LOG: the core logs the move and returns its events as a (shared) tuple.
        logged = t._draw(t.to_act, source, TABLE_LOG)
        after = _blank()  # typed Any: the type checker sees a frozen ``_core``
        # A draw never ends a hand. When it found the legal actions to be the discards
        # alone (``only_discards``, nearly every discard of a random Gin hand), the new
        # state's node holds them and their mask (for its ``legal_actions`` and ``apply``);
        # else ``None`` and ``None`` (``legal_actions`` asks the core).
        after._core = [state, action, t.only_discards_mask, t.only_discards, t]
        return after, logged
    if kind is Discard:
        card = action.card  # type: ignore[union-attr]
        if type(masks) is int:  # legal_actions' no-knock discards: their mask alone
            if type(card) is not Card or not masks >> card & 1:
                _check(node, t, action)
        elif masks is None or type(card) is not Card or not masks[1] >> card & 1:
            _check(node, t, action)
        done = t._discard(t.to_act, card, TABLE_LOG)
        if type(done) is not tuple:  # voided: a new hand, or the game's end
            return _handing_on(t), tuple(done)
        after = _blank()
        if t.stock:  # and the pile holds the discard: both draws (``draw_masks``' first case)
            after._core = [state, action, BOTH_DRAWS_MASKS, _BOTH_DRAWS, t]
        else:
            after._core = [state, action, None, None, t]
        return after, done
    events: list[Event] = []
    hand_number = t.hand_number
    _check(node, t, action)
    t.play(action, events)
    if t.hand_number == hand_number and t.to_act is not None:
        after = _blank()
        after._core = [state, action, None, None, t]
    else:  # a new hand (or the end of the game): filled, so no replay goes back past it
        after = _handing_on(t)
    return after, tuple(events)


def _check(node: _Node, t: KrTable, action: object) -> None:
    """Raise IllegalActionError if ``action`` is illegal at table ``t`` (taken from
    ``node``, to which it is handed back then: nothing was played on it)."""
    why = t.reason(action)
    if why is not None:
        node.append(t)
        raise IllegalActionError(why)


def _apply_loaded(
    state: KnockRummyState, action: KnockRummyAction
) -> tuple[KnockRummyState, tuple[Event, ...]]:
    """:func:`apply` from a state that holds no table: on a new table loaded from its
    fields (a state played a second time, or built from its fields)."""
    why = why_illegal(state, action)
    if why is not None:
        raise IllegalActionError(why)
    t = _load(state)
    hand_number = t.hand_number
    events: list[Event] = []
    t.play(action, events)
    if t.hand_number == hand_number and t.to_act is not None:
        after = _blank()
        after._core = [state, action, None, None, t]
    else:
        after = _handing_on(t)
    return after, tuple(events)


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

    @property
    def discard_counts(self) -> tuple[tuple[Card, int], ...]:
        """While this seat has a card to throw (a discard, a knock or a rummy with a
        discard is legal): each card of the hand with the count the other cards would
        leave, in hand order, so a player sees what a knock lays down (KR4: at or under
        the limit after the discard) before choosing; empty at any other time.

        >>> from deadwood_knock.games.knock_rummy import GAME
        >>> s = GAME.new_game(GAME.options_from_json({"players": 2}), 1)
        >>> observe(s, s.to_act).discard_counts
        ()
        >>> s, _ = GAME.apply(s, GAME.legal_actions(s)[0])
        >>> counts = dict(observe(s, s.to_act).discard_counts)
        >>> sorted(counts) == sorted(observe(s, s.to_act).hand)
        True
        """
        # A knock and a rummy with a discard name the card they throw as ``discard``.
        if not any(
            a.kind == "discard" or getattr(a, "discard", None) is not None
            for a in self.legal_actions
        ):
            return ()
        high = self.options.high_aces
        return tuple((c, count([x for x in self.hand if x != c], high)) for c in self.hand)

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
            "discard_counts": {str(c): n for c, n in self.discard_counts},
        }


def observe(state: KnockRummyState, seat: int) -> KnockRummyObservation:
    """What ``seat`` sees; never another hand's unknown cards nor a face-down stock.
    Built by :func:`observe_table` on the state's table, so the observation is written
    once."""
    t = _live(state)
    if t is not None:
        seen = observe_table(t, seat)  # reads the table, changes nothing
        if _still(state):
            return seen
    return observe_table(_load(state), seat)


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
    return _cached_options(_parse_kr_options, data)


def _parse_kr_options(data: Mapping[str, Any]) -> KnockRummyOptions:
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
