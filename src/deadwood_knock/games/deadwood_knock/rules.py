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

import operator
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from deadwood_knock.cards import CARDS, Card, sort_key
from deadwood_knock.games.base import (
    Event,
    Game,
    GameError,
    JSONDict,
    PositionError,
    RuleFacts,
    card_from_json,
    cards_from_json,
)
from deadwood_knock.games.deadwood_knock import core
from deadwood_knock.games.deadwood_knock.core import (
    HAND_SIZE,
    MAX_ROUNDS,
    PALM_MIN_DISCARDS,
    PHASES,
    POT_ANTE,
    SOURCES,
    SUSPICION,
    Call,
    Core,
    DeadwoodKnockAction,
    DeadwoodKnockOptions,
    DeadwoodKnockState,
    Draw,
    Fold,
    Knock,
    Reveal,
    RoundResult,
    Stand,
    advance,
    legal_actions,
    pot_result,
    settle_pot,
    suspicions,
    why_illegal,
    winners,
)
from deadwood_knock.games.deadwood_knock.hand import (
    CATEGORIES,
    CATEGORY_WORDS,
    HAND_POINTS,
    KNOCK_LIMIT,
    HandEvaluation,
    evaluate,
    legal_splits,
)
from deadwood_knock.games.points import CARD_POINTS

__all__ = [
    "GAME",
    "HAND_SIZE",
    "MAX_ROUNDS",
    "PALM_MIN_DISCARDS",
    "PHASES",
    "POT_ANTE",
    "SOURCES",
    "SUSPICION",
    "Call",
    "DeadwoodKnockAction",
    "DeadwoodKnockGame",
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
    "winners",
]

NAME: Final = "deadwood-knock"


# --- options ---------------------------------------------------------------------------


def options_from_json(data: Mapping[str, Any]) -> DeadwoodKnockOptions:
    return DeadwoodKnockOptions.from_json(data)


# --- actions ---------------------------------------------------------------------------


_SIMPLE: Final[dict[str, DeadwoodKnockAction]] = {
    "knock": core.KNOCK,
    "stand": core.STAND,
    "call": core.CALL,
    "fold": core.FOLD,
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

_STATE_FIELDS: Final = core.STATE_FIELDS
_STATE_VALUES: Final = operator.attrgetter(*_STATE_FIELDS)
_STATE_INDEX: Final = {name: i for i, name in enumerate(_STATE_FIELDS)}


def _replace(state: DeadwoodKnockState, **changes: Any) -> DeadwoodKnockState:
    """``dataclasses.replace`` without its per-call field introspection; positional
    arguments, as a keyword call costs more."""
    values = list(_STATE_VALUES(state))
    for name, value in changes.items():
        values[_STATE_INDEX[name]] = value
    return DeadwoodKnockState(*values)


def new_game(options: DeadwoodKnockOptions, seed: int) -> DeadwoodKnockState:
    """A new match: round 1 dealt by seat 0."""
    if not isinstance(options, DeadwoodKnockOptions):
        raise GameError("options must be DeadwoodKnockOptions")
    return Core.new(options, int(seed)).hand_over()


def to_act(state: DeadwoodKnockState) -> int | None:
    return state.to_act


def is_over(state: DeadwoodKnockState) -> bool:
    return state.phase == "over"


def scores(state: DeadwoodKnockState) -> tuple[int, ...]:
    """Match totals so far (DK10: the highest total after the last round wins)."""
    return state.totals


def is_legal(state: DeadwoodKnockState, action: object) -> bool:
    """The same answer as ``action in legal_actions(state)``."""
    return why_illegal(state, action) is None


#: Play one action; raises :class:`IllegalActionError` (state untouched) if illegal. The
#: core steps a copy of the state's fields (see ``core.advance``); the state never changes.
apply: Final = advance


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
    evaluation: HandEvaluation
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
        return self.to_json_with(None)

    def to_json_with(self, json_of: Callable[[Any], JSONDict] | None) -> JSONDict:
        """:meth:`to_json`, with each event's and round result's JSON from ``json_of``
        (their own ``to_json()`` when None). A server keeps them (immutable) cached: each
        view it sends lists every event of the round and every result again."""
        last = self.last_result
        if json_of is None:
            events = [e.to_json() for e in self.events]
            results = [r.to_json() for r in self.results]
            last_json = None if last is None else last.to_json()
        else:
            events = [json_of(e) for e in self.events]
            results = [json_of(r) for r in self.results]
            last_json = None if last is None else json_of(last)
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
            "events": events,
            "legal_actions": [a.to_json() for a in self.legal_actions],
            "last_result": last_json,
            "results": results,
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


#: The type of :data:`GAME`: what ``get_game("deadwood-knock")`` is typed as.
DeadwoodKnockGame = Game[
    DeadwoodKnockState, DeadwoodKnockAction, DeadwoodKnockObservation, DeadwoodKnockOptions
]

GAME: Final[DeadwoodKnockGame] = Game(
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
