"""Bot decisions, run in worker processes so they never block the event loop.

The worker gets only the record (which it replays to the current position), the
seat and the bot's name, and hands the bot nothing but that seat's observation and
legal actions. Each worker keeps the last state of recent matches so a decision
replays only the actions since its previous one.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from typing import Any

from deadwood_knock.bots import Budget, get_bot
from deadwood_knock.games import get_game, register_game
from deadwood_knock.games.base import Game, GameRecord, IllegalActionError, JSONDict, replay
from deadwood_knock.trail.figure_bots import register_figure_bots

# The trail seats historic figures as bots named "figure:<id>"; workers must know them too.
register_figure_bots()

_CACHE_SIZE = 2048  # a worker serves many matches in turn: replays stay incremental
# match id -> (game, options, seed, actions replayed, state)
_states: OrderedDict[str, tuple[str, JSONDict, int, tuple[JSONDict, ...], Any]] = OrderedDict()


def register_games(games: tuple[Game[Any, Any], ...]) -> None:
    """The server's run-time games (a test's toy game), known in this worker too."""
    for game in games:
        register_game(game)


def _state_for(match_id: str, record: GameRecord) -> Any:
    game = get_game(record.game)
    cached = _states.get(match_id)
    rest, start = record, None
    if cached is not None:
        name, options, seed, done, cached_state = cached
        same_start = (name, options, seed) == (record.game, record.options, record.seed)
        if same_start and record.actions[: len(done)] == done:
            # Only the actions since the cached state are replayed.
            rest = GameRecord(record.game, record.options, record.seed, record.actions[len(done) :])
            start = cached_state
    state = replay(game, rest, start=start)
    _states[match_id] = (record.game, record.options, record.seed, record.actions, state)
    _states.move_to_end(match_id)
    while len(_states) > _CACHE_SIZE:
        _states.popitem(last=False)
    return state


def decide(
    match_id: str,
    record_json: JSONDict,
    seat: int,
    bot_name: str,
    rng_seed: int,
    budget_seconds: float | None,
) -> JSONDict:
    """The JSON of the action ``bot_name`` takes for ``seat``, thinking ``budget_seconds``
    (``None``: the bot's own default budget). Top level: picklable."""
    record = GameRecord.from_json(record_json)
    game = get_game(record.game)
    state = _state_for(match_id, record)
    if game.to_act(state) != seat:
        raise IllegalActionError(f"seat {seat} is not to act")
    observation = game.observe(state, seat)
    legal = game.legal_actions(state)
    bot = get_bot(bot_name)
    # No seconds: no budget, so the bot thinks for its own default (an empty Budget would
    # leave a search without any limit).
    budget = None if budget_seconds is None else Budget(budget_seconds)
    action = bot.act(game, observation, legal, random.Random(rng_seed), budget)
    if action not in legal:
        raise IllegalActionError(f"bot {bot_name!r} chose an illegal action")
    result: JSONDict = action.to_json()
    return result


def hint(
    game_name: str,
    observation_json: JSONDict,
    budget_seconds: float,
    rng_seed: int,
) -> JSONDict:
    """Hand Focus for one seat, from that seat's observation JSON only (no record, no seed)."""
    from deadwood_knock.bots.hints import DEFAULT_HINT_BUDGET, hand_focus

    game = get_game(game_name)
    budget = Budget(seconds=budget_seconds, iterations=DEFAULT_HINT_BUDGET.iterations)
    found = hand_focus(game, observation_json, budget, seed=rng_seed)
    result: JSONDict = found.to_json()
    return result


class CacheMiss(Exception):
    """This worker does not hold the match at the position a tail continues from."""


def decide_tail(
    match_id: str,
    start: tuple[str, JSONDict, int],
    base: int,
    tail: list[JSONDict],
    seat: int,
    bot_name: str,
    rng_seed: int,
    budget_seconds: float | None,
) -> JSONDict:
    """:func:`decide` given only the actions since this worker's last decision for the
    match (``base`` of them before ``tail``), so a move's hand-off does not carry the whole
    log. :class:`CacheMiss` if the worker no longer holds that position: send it all."""
    cached = _states.get(match_id)
    if cached is None or (cached[0], cached[1], cached[2]) != start or len(cached[3]) != base:
        raise CacheMiss(match_id)
    game, options, seed = start
    record = GameRecord(game, options, seed, (*cached[3], *tail))
    return decide(match_id, record.to_json(), seat, bot_name, rng_seed, budget_seconds)


def warm_up() -> bool:
    """Imports done, process started: submitted once at start so the first move is quick."""
    return True
