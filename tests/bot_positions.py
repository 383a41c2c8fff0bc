"""Seeded positions the bot tests share: a game played some steps by named bots, and the
same position with one of a seat's hidden cards swapped for the stock's top card (which
leaves every other seat's observation as it was: the tests that bots read no hidden
information use it)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from typing import Any

from deadwood_knock.bots import get_bot
from deadwood_knock.games import get_game
from deadwood_knock.games.base import Event


def played(
    game_name: str,
    options: dict[str, Any],
    seed: int,
    steps: int,
    bots: Sequence[str] = ("greedy",),
    until: Callable[[Any, Any], bool] | None = None,
    events: list[Event] | None = None,
) -> tuple[Any, Any]:
    """The game and its state after ``steps`` actions from the deal of ``seed``, seat s
    played by ``bots[s % len(bots)]`` with one generator seeded by ``seed``; earlier if
    ``until(game, state)`` holds (otherwise a seat must be to act). ``events``, if given,
    collects every event the actions made, in order."""
    game = get_game(game_name)
    state = game.new_game(game.options_from_json(options), seed)
    rng = random.Random(seed)
    players = [get_bot(name) for name in bots]
    for _ in range(steps):
        if until is not None and until(game, state):
            break
        seat = game.to_act(state)
        assert seat is not None
        bot = players[seat % len(players)]
        legal = game.legal_actions(state)
        state, made = game.apply(state, bot.act(game, game.observe(state, seat), legal, rng))
        if events is not None:
            events.extend(made)
    return game, state


def swapped(state: Any, other: int, pick: Callable[[list[Any]], Any] | None = None) -> Any:
    """The same position with one of seat ``other``'s cards the table does not know (the
    first, or ``pick``'s choice) swapped with the stock's top card."""
    known = set(state.known[other])
    hidden = [c for c in state.hands[other] if c not in known]
    card = hidden[0] if pick is None else pick(hidden)
    hands = list(state.hands)
    hands[other] = tuple(sorted((*[c for c in hands[other] if c != card], state.stock[-1])))
    return dataclasses.replace(state, hands=tuple(hands), stock=(*state.stock[:-1], card))


def discard_position(game_name: str, hand: str, top: str, shift: int = 0) -> tuple[Any, Any]:
    """A fresh heads-up Knock Rummy or Gin deal, seat 0 to discard with ``hand`` (11 cards)
    over the pile ``top``; ``shift`` rotates the hidden cards (another rival hand and stock,
    the same view for seat 0)."""
    from deadwood_knock.cards import CARDS, parse_cards

    game = get_game(game_name)
    state = game.new_game(game.options_from_json({"players": 2}), 1)
    mine, pile = list(parse_cards(hand)), list(parse_cards(top))
    rest = [c for c in CARDS[:52] if c not in mine and c not in pile]
    rest = rest[shift:] + rest[:shift]
    state = dataclasses.replace(
        state,
        hands=(tuple(sorted(mine)), tuple(sorted(rest[:10]))),
        stock=tuple(rest[10:]),
        discard_pile=tuple(pile),
        phase="discard",
        to_act=0,
        taken_discard=None,
    )
    return game, state
