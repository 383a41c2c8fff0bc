"""The one engine API that every game implements and every consumer drives.

A game is a :class:`Game`: a bundle of pure functions over an immutable state.
The server, web client (through the server), terminal client, bots and tests all
go through it; nothing else re-implements a rule.

* ``new_game(options, seed)`` deals the first round. Every shuffle of the game
  (deals, reshuffles) comes from RNGs derived from that one seed, so a
  :class:`GameRecord` (game, options, seed, actions) replays to the identical state.
* ``legal_actions(state)`` lists the actions of the seat to act (``to_act``).
* ``apply(state, action)`` returns ``(new_state, events)``; an illegal action
  raises :class:`IllegalActionError` and changes nothing.
* ``observe(state, seat)`` is everything that seat may see and nothing more.

Actions, events, observations and options serialise to JSON-ready dicts; cards
are written in the notation of :mod:`deadwood_knock.cards`.

Why ``Game`` is a typed frozen dataclass of functions, generic over four types, and not
an abstract class or a Protocol of methods: every rule is a plain module function over
an immutable state (the functions the cores, bots and tests also call directly), and
Knock Rummy and its Gin preset share all but three of them; a dataclass bundles the
same functions twice without a class tree, and a test game is a dozen keyword
arguments (tests register toy games through :func:`deadwood_knock.games.register_game`).
What a Protocol would add, typed members, the type parameters give: ``Game[S, A, O, P]``
is over the game's state ``S``, action ``A``, observation ``O`` and options ``P``, so
``observe`` returns the game's own observation class
(:class:`~deadwood_knock.games.deadwood_knock.DeadwoodKnockObservation`,
:class:`~deadwood_knock.games.knock_rummy.KnockRummyObservation`) and ``determinize``
takes it, and mypy checks each game's functions against one another where the game is
built. ``O`` and ``P`` default to ``Any``: code that holds a game of any kind (the
registry, the server's match cache) writes ``Game[Any, Any]``, and every observation
at least satisfies :class:`Observation` (what the server sends is its ``to_json()``).
Code that knows its game gets the precise type from
:func:`deadwood_knock.games.get_game`'s overloads (``get_game("deadwood-knock")`` is a
:data:`~deadwood_knock.games.deadwood_knock.rules.DeadwoodKnockGame`) or by narrowing an
observation with ``isinstance``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol

from typing_extensions import TypeVar

from deadwood_knock.cards import Card, CardError, format_cards, parse_card

__all__ = [
    "Action",
    "Event",
    "Game",
    "GameError",
    "GameRecord",
    "IllegalActionError",
    "JSONDict",
    "Observation",
    "PositionError",
    "RuleFacts",
    "card_from_json",
    "cards_from_json",
    "derive_key",
    "derive_rng",
    "replay",
]

JSONDict = dict[str, Any]


class GameError(ValueError):
    """Base of every rule error; its message says what was wrong."""


class IllegalActionError(GameError):
    """The action is not among ``legal_actions(state)``."""


class PositionError(GameError):
    """A position (or options) that cannot occur: a card twice or missing, wrong sizes..."""


class Action(Protocol):
    """An action is a small frozen dataclass with a ``kind`` and JSON form."""

    @property
    def kind(self) -> str: ...

    def to_json(self) -> JSONDict: ...


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, as the table saw it.

    ``private_to`` is ``None`` for a public event; otherwise only that seat may see
    it (for example the card it drew from the stock). ``data`` values are plain JSON
    values or cards / tuples of cards, which :meth:`to_json` writes in notation.
    """

    kind: str
    seat: int | None = None
    data: Mapping[str, Any] = field(default_factory=dict)
    private_to: int | None = None

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (``None``: a spectator) may see this event."""
        return self.private_to is None or self.private_to == seat

    def to_json(self) -> JSONDict:
        out: JSONDict = {"type": self.kind}
        if self.seat is not None:
            out["seat"] = self.seat
        for key, value in self.data.items():
            out[key] = value if type(value) in _PLAIN else to_jsonable(value)
        return out


#: Values that are their own JSON (exact types: a subclass such as ``Card`` is converted).
_PLAIN = frozenset({str, int, bool, float, type(None)})


def to_jsonable(value: Any) -> Any:
    """Cards become notation strings; tuples become lists; mappings recurse."""
    kind = type(value)
    # The common cases first, by exact type (a server view converts every event of the
    # round, each time): the same results as the general checks below.
    if kind in _PLAIN:
        return value
    if kind is Card:
        return str(value)
    if kind is tuple or kind is list:
        return [v if type(v) in _PLAIN else to_jsonable(v) for v in value]
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (tuple, list, frozenset, set)):
        items = sorted(value) if isinstance(value, (frozenset, set)) else value
        return [to_jsonable(v) for v in items]
    if hasattr(value, "to_json"):
        return value.to_json()
    return value


def cards_json(cards: Sequence[Card]) -> str:
    return format_cards(cards)


def card_from_json(value: Any, what: str, *, jokers: bool = True) -> Card:
    """One card of an action's or position's JSON; anything else is a :class:`GameError`
    that names the field (``what``)."""
    if not isinstance(value, str):
        raise GameError(f"{what} must be a card string such as '7c', not {value!r}")
    try:
        c = parse_card(value)
    except CardError as exc:
        raise GameError(f"{what}: {exc}") from exc
    if c.is_joker and not jokers:
        raise GameError(f"{what}: this game is played without jokers")
    return c


def cards_from_json(value: Any, what: str, *, jokers: bool = True) -> tuple[Card, ...]:
    """A position's list of cards (or one space-separated string); errors are
    :class:`PositionError`. Jokers keep the index ``parse_card`` gives them."""
    if value is None:
        raise PositionError(f"position needs {what!r}")
    if isinstance(value, str):
        value = value.split()
    if not isinstance(value, (list, tuple)):
        raise PositionError(f"{what!r} must be a list of cards")
    try:
        return tuple(card_from_json(v, what, jokers=jokers) for v in value)
    except PositionError:
        raise
    except GameError as exc:
        raise PositionError(str(exc)) from exc


class Observation(Protocol):
    """What every game's ``observe`` returns, at the least: the seat's view, written as
    JSON by ``to_json()`` (all that the server sends). Each game's own observation class
    has the typed fields its bots and fronts read."""

    def to_json(self) -> JSONDict: ...


S = TypeVar("S")
A = TypeVar("A")
#: The game's observation type (what ``observe`` returns and ``determinize`` takes).
O = TypeVar("O", bound=Observation, default=Any)  # noqa: E741
#: The game's parsed options (what ``options_from_json`` returns and ``new_game`` takes).
P = TypeVar("P", default=Any)


@dataclass(frozen=True, slots=True)
class RuleFacts:
    """What the fronts (terminal, web, bots, arena) show or branch on about a game's
    rules, read from the engine so that none copies a rule or asks for a game by name.

    ``poker_split``: a hand splits into a poker hand and deadwood, a knock opens a pot
    that the others call or fold (Deadwood Knock); otherwise hands are arranged into
    melds (Knock Rummy, Gin). ``rummy``: the rummy action exists (Knock Rummy).
    ``knock_limit``: the fixed limit of every table (``None``: a table option or none).
    ``card_points``: each card index's deadwood points. ``category_words``: the poker
    categories in words (empty without ``poker_split``). ``unit``: what one deal is
    called (``round`` or ``hand``). ``layoffs``: the defender lays cards off on the
    knocker's melds, and a knock can be undercut (Gin). ``figures``: the other rule figures
    a front writes in words (Deadwood Knock: ``pot_ante``, ``suspicion``; Knock Rummy:
    ``knock_penalty``, ``rummy_bonus`` and, for its gin option, ``gin_bonus``, ``void_stock``;
    Gin: ``gin_bonus``, ``void_stock``), by name.
    """

    title: str
    poker_split: bool
    rummy: bool
    hand_size: int | None
    knock_limit: int | None
    card_points: tuple[int, ...]
    category_words: Mapping[str, str] = field(default_factory=dict)
    hand_points: Mapping[str, int] = field(default_factory=dict)
    unit: str = "hand"
    jokers: bool = False
    layoffs: bool = False
    figures: Mapping[str, int] = field(default_factory=dict)

    def to_json(self) -> JSONDict:
        return {
            "title": self.title,
            "poker_split": self.poker_split,
            "rummy": self.rummy,
            "hand_size": self.hand_size,
            "knock_limit": self.knock_limit,
            "card_points": list(self.card_points),
            "category_words": dict(self.category_words),
            "hand_points": dict(self.hand_points),
            "unit": self.unit,
            "jokers": self.jokers,
            "layoffs": self.layoffs,
            "figures": dict(self.figures),
        }


def _no_facts() -> RuleFacts:
    return RuleFacts(
        title="", poker_split=False, rummy=False, hand_size=None, knock_limit=None, card_points=()
    )


@dataclass(frozen=True, slots=True)
class Game(Generic[S, A, O, P]):
    """A game's rules as typed functions over its immutable state ``S``, action type
    ``A``, observation type ``O`` and options type ``P`` (see the module's notes for why
    a dataclass). Registered under its public name (:func:`deadwood_knock.games.get_game`).

    ``why_illegal(state, action)`` is the one source of legality: ``None`` or the
    reason, which :meth:`is_legal`, ``apply`` (its :class:`IllegalActionError`) and
    ``legal_actions`` all follow. ``determinize(observation, rng)`` deals a full state
    consistent with one seat's observation (for the bots' search). ``facts`` are the
    rule tables and words the fronts show. A test game may leave the last three out:
    legality then falls back to ``legal_actions``.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    options_from_json: Callable[[Mapping[str, Any]], P]
    new_game: Callable[[P, int], S]
    legal_actions: Callable[[S], tuple[A, ...]]
    apply: Callable[[S, A], tuple[S, tuple[Event, ...]]]
    observe: Callable[[S, int], O]
    to_act: Callable[[S], int | None]
    is_over: Callable[[S], bool]
    scores: Callable[[S], tuple[int, ...]]
    action_from_json: Callable[[Mapping[str, Any]], A]
    position_from_json: Callable[[Mapping[str, Any]], S]
    position_to_json: Callable[[S], JSONDict]
    why_illegal: Callable[[S, Any], str | None] | None = None
    determinize: Callable[[O, random.Random], S] | None = None
    facts: RuleFacts = field(default_factory=_no_facts)

    def reason(self, state: S, action: Any) -> str | None:
        """``None`` if ``action`` is legal in ``state``, else why not (player's words)."""
        if self.why_illegal is not None:
            return self.why_illegal(state, action)
        if action in self.legal_actions(state):
            return None
        return "that action is not legal now"

    def is_legal(self, state: S, action: Any) -> bool:
        return self.reason(state, action) is None

    def sample_state(self, observation: O, rng: random.Random) -> S:
        """A full state consistent with ``observation`` (see ``determinize``)."""
        if self.determinize is None:
            raise GameError(f"{self.name} cannot deal a state from an observation")
        return self.determinize(observation, rng)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """Everything needed to replay a game exactly."""

    game: str
    options: JSONDict
    seed: int
    actions: tuple[JSONDict, ...] = ()

    def to_json(self) -> JSONDict:
        return {
            "game": self.game,
            "options": dict(self.options),
            "seed": self.seed,
            "actions": [dict(a) for a in self.actions],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameRecord:
        try:
            return cls(
                game=str(data["game"]),
                options=dict(data.get("options", {})),
                seed=int(data["seed"]),
                actions=tuple(dict(a) for a in data.get("actions", ())),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise GameError(f"bad game record: {exc}") from exc


def replay(
    game: Game[S, A, Any, Any],
    record: GameRecord,
    on_events: Callable[[int, A, tuple[Event, ...]], None] | None = None,
    *,
    start: S | None = None,
) -> S:
    """The one replay: rebuild the final state of a record, checking every action.

    The state starts from ``new_game(record.options, record.seed)`` or, with ``start``,
    from that state (a position set up by hand, or a cached state the record's actions
    continue from). Each action is parsed and checked with ``game.reason`` (an illegal
    one raises :class:`IllegalActionError` naming its number and the reason), then
    applied; ``on_events(number, action, events)`` (if given) sees each step's events,
    for example to rebuild a log or a view. Returns the final state.
    """
    if start is None:
        state = game.new_game(game.options_from_json(record.options), record.seed)
    else:
        state = start
    for number, action_json in enumerate(record.actions, 1):
        action = game.action_from_json(action_json)
        why = game.reason(state, action)
        if why is not None:
            raise IllegalActionError(f"record action {number} is not legal: {action_json} ({why})")
        state, events = game.apply(state, action)
        if on_events is not None:
            on_events(number, action, events)
    return state


def derive_rng(seed: int, *path: int) -> random.Random:
    """An RNG for one shuffle of a game, derived from the game's seed.

    Each shuffle (round ``r``'s deal, its reshuffle...) gets its own stream, so a
    state needs to carry only the seed, not a mutable RNG, and stays immutable.
    """
    return random.Random(derive_key(seed, *path))


def derive_key(seed: int, *path: int) -> int:
    """The seed of :func:`derive_rng`'s generator (``cards.shuffled_by_key`` shuffles with
    it directly)."""
    key = seed & 0xFFFFFFFFFFFFFFFF
    for part in path:
        key = (key * 0x9E3779B97F4A7C15 + part + 1) & 0xFFFFFFFFFFFFFFFF
    return key
