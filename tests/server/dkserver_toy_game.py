"""A tiny test-only game on the engine API (a fixture, not a real game).

Each seat holds three hidden cards; a turn discards one and draws the stock's top
card (privately). After ``turns`` turns each, the highest rank sum
wins. Enough hidden information to test that the server never leaks it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from deadwood_knock.cards import DECK_52, Card, parse_card, shuffled
from deadwood_knock.games.base import Event, Game, GameError, IllegalActionError, derive_rng


@dataclass(frozen=True, slots=True)
class ToyOptions:
    players: int = 2
    turns: int = 4

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players, "turns": self.turns}


@dataclass(frozen=True, slots=True)
class Discard:
    card: Card

    @property
    def kind(self) -> str:
        return "discard"

    def to_json(self) -> dict[str, Any]:
        return {"type": "discard", "card": str(self.card)}


@dataclass(frozen=True, slots=True)
class ToyState:
    options: ToyOptions
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    discards: tuple[Card, ...]
    turn: int


@dataclass(frozen=True, slots=True)
class ToyObservation:
    data: Mapping[str, Any]

    def to_json(self) -> dict[str, Any]:
        return dict(self.data)


def options_from_json(data: Mapping[str, Any]) -> ToyOptions:
    unknown = set(data) - {"players", "turns"}
    if unknown:
        raise GameError(f"unknown options: {sorted(unknown)}")
    players, turns = int(data.get("players", 2)), int(data.get("turns", 4))
    if not 2 <= players <= 4 or not 1 <= turns <= 20:
        raise GameError("players 2-4, turns 1-20")
    return ToyOptions(players, turns)


def new_game(options: ToyOptions, seed: int) -> ToyState:
    deck = shuffled(DECK_52, derive_rng(seed, 0))
    n = options.players
    hands = tuple(tuple(deck[i * 3 : i * 3 + 3]) for i in range(n))
    return ToyState(options, hands, tuple(deck[n * 3 + 1 :]), (deck[n * 3],), 0)


def is_over(state: ToyState) -> bool:
    return state.turn >= state.options.players * state.options.turns


def to_act(state: ToyState) -> int | None:
    return None if is_over(state) else state.turn % state.options.players


def legal_actions(state: ToyState) -> tuple[Discard, ...]:
    seat = to_act(state)
    return () if seat is None else tuple(Discard(c) for c in state.hands[seat])


def apply(state: ToyState, action: Discard) -> tuple[ToyState, tuple[Event, ...]]:
    if action not in legal_actions(state):
        raise IllegalActionError("not legal")
    seat = state.turn % state.options.players
    drawn = state.stock[0]
    hand = (*(c for c in state.hands[seat] if c != action.card), drawn)
    hands = tuple(hand if i == seat else h for i, h in enumerate(state.hands))
    events = (
        Event("discard", seat, {"card": action.card}),
        Event("draw", seat, {"card": drawn}, private_to=seat),
    )
    new = ToyState(
        state.options, hands, state.stock[1:], (*state.discards, action.card), state.turn + 1
    )
    return new, events


def scores(state: ToyState) -> tuple[int, ...]:
    return tuple(sum(c.rank for c in hand) for hand in state.hands)


def observe(state: ToyState, seat: int) -> ToyObservation:
    n = state.options.players
    return ToyObservation(
        {
            "game": "toy",
            "seat": seat,
            "players": n,
            "to_act": to_act(state),
            "phase": "over" if is_over(state) else "play",
            "over": is_over(state),
            "hand": [str(c) for c in state.hands[seat]],
            "discard_pile": [str(c) for c in state.discards],
            "stock_size": len(state.stock),
            "hand_sizes": [len(h) for h in state.hands],
            "round": min(state.turn // n + 1, state.options.turns),
            "rounds": state.options.turns,
            "final_turn": state.turn // n + 1 == state.options.turns,
        }
    )


def action_from_json(data: Mapping[str, Any]) -> Discard:
    if data.get("type") != "discard" or not isinstance(data.get("card"), str):
        raise GameError('expected {"type": "discard", "card": ...}')
    return Discard(parse_card(data["card"]))


def position_from_json(data: Mapping[str, Any]) -> ToyState:
    raise GameError("positions are not supported by the toy game")


def position_to_json(state: ToyState) -> dict[str, Any]:
    return {"turn": state.turn}


GAME: Game[ToyState, Discard, ToyObservation, ToyOptions] = Game(
    name="toy",
    title="Toy",
    min_players=2,
    max_players=4,
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
)
