"""Replays of finished matches: every action as a step, in words, from one seat's view.

A replay is built from a :class:`GameRecord` (game, options, seed, actions) by
running the engine again, so it is exactly the match that was played. Each step
carries what ``viewer`` saw at that moment (its own hand, the pile, the totals and
the events it could see) and, separately, every seat's hand. A replay of a
finished match may hold every hand: the web client shows them only once the
replay has reached the end. The server builds replays of finished matches only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from deadwood_knock.games import GAME_NAMES, get_game
from deadwood_knock.games.base import Game, GameError, GameRecord, IllegalActionError, JSONDict
from deadwood_knock.games.points import figure_text
from deadwood_knock.tui.words import cards_text, describe_event, melds_text, whose_melds

__all__ = ["MAX_ACTIONS", "replay_steps", "replay_text"]

#: A record longer than this is refused (a real match has a few hundred actions).
MAX_ACTIONS = 20000


def _json(value: Any) -> Any:
    return value.to_json() if hasattr(value, "to_json") else value


def _snapshot(obs: Mapping[str, Any]) -> JSONDict:
    pile = list(obs.get("discard_pile") or [])
    return {
        "hand": list(obs.get("hand") or []),
        "discard_top": pile[-1] if pile else None,
        "stock_size": obs.get("stock_size"),
        "hand_sizes": list(obs.get("hand_sizes") or []),
        "totals": list(obs.get("totals") or []),
        "round": obs.get("round"),
        "rounds": obs.get("rounds"),
    }


def replay_steps(
    record: GameRecord,
    names: Sequence[str],
    viewer: int = 0,
    game: Game[Any, Any] | None = None,
) -> JSONDict:
    """The whole match, step by step, as ``viewer`` saw it, plus every hand per step.

    ``names[viewer]`` should be "You" (the lines are written to the viewer). A record
    with an action that is not legal where it stands is a :class:`GameError`.
    """
    if len(record.actions) > MAX_ACTIONS:
        raise GameError(f"a record has at most {MAX_ACTIONS} actions")
    if game is None:
        if record.game not in GAME_NAMES:
            raise GameError(f"unknown game {record.game!r}; choose one of: {', '.join(GAME_NAMES)}")
        game = get_game(record.game)
    try:
        options = game.options_from_json(record.options)
        state = game.new_game(options, record.seed)
    except (TypeError, ValueError, KeyError) as exc:
        raise GameError(f"bad options: {exc}") from exc
    players = len(game.scores(state))
    if not 0 <= viewer < players:
        raise GameError(f"viewer must be a seat from 0 to {players - 1}")
    names = [*names, *(f"Seat {i + 1}" for i in range(len(names), players))][:players]

    def step(number: int, actor: int | None, action: JSONDict | None, lines: list[str]) -> JSONDict:
        seen = _json(game.observe(state, viewer))
        return {
            "n": number,
            "actor": actor,
            "action": action,
            "lines": lines,
            **_snapshot(seen),
            "hands": [
                list(_json(game.observe(state, s)).get("hand") or []) for s in range(players)
            ],
        }

    # The first deal's own words ("— Round 1: you deal; …", "Your hand: …"), as every later
    # deal has them: the opening hand was missing from the replay.
    opening = [
        line
        for e in getattr(game.observe(state, viewer), "events", ())
        if e.visible_to(viewer) and (line := describe_event(e, names, viewer)) is not None
    ]
    steps = [step(0, None, None, ["The cards are dealt.", *opening])]
    for number, action_json in enumerate(record.actions, 1):
        try:
            action = game.action_from_json(action_json)
        except (TypeError, ValueError, KeyError) as exc:
            raise GameError(f"action {number} is not an action: {exc}") from exc
        if action not in game.legal_actions(state):
            raise IllegalActionError(f"action {number} is not legal where it stands")
        actor = game.to_act(state)
        state, events = game.apply(state, action)
        lines = [
            line
            for e in events
            if e.visible_to(viewer) and (line := describe_event(e, names, viewer)) is not None
        ]
        steps.append(step(number, actor, dict(action_json), lines))
    over = game.is_over(state)
    return {
        "game": record.game,
        "names": list(names),
        "seat": viewer,
        "finished": over,
        "scores": list(game.scores(state)),
        "steps": steps,
        # The last round or hand as the engine settled it (a Gin defender's lay-offs), once
        # the match is over: the hands at the end are read with it.
        "last_result": _json(game.observe(state, viewer)).get("last_result") if over else None,
    }


def replay_text(replay: Mapping[str, Any]) -> list[str]:
    """The replay as terminal lines: each step's words, then every hand at the end."""
    out: list[str] = []
    names = replay["names"]
    for s in replay["steps"]:
        for line in s["lines"]:
            out.append(f"{s['n']:4d}  {line}")
    last = replay["steps"][-1]
    out.append("")
    out.append("Hands at the end:")
    settled = replay.get("last_result") or {}
    layouts = settled.get("arrangements") or []
    for seat, hand in enumerate(last["hands"]):
        if seat >= len(layouts):
            out.append(f"  {names[seat]}: {cards_text(hand)}")
            continue
        # Knock Rummy / Gin: the hand as settled, the cards laid off on the knocker's melds
        # apart (they read as still held, 2♠ among a count they no longer made).
        laid = [c for c in settled.get("layoffs") or [] if c in hand]
        line = (
            f"  {names[seat]}: melds {melds_text(layouts[seat]['melds'])}; deadwood "
            f"{cards_text(layouts[seat]['deadwood'])}, count {settled['counts'][seat]}"
        )
        ender = settled.get("ender")
        if laid and ender is not None:
            onto = whose_melds(ender, replay["seat"], names)
            line += f"; laid off {cards_text(laid)} on {onto} melds"
        out.append(line)
    out.append(
        "Final scores: "
        + ", ".join(f"{n} {figure_text(s)}" for n, s in zip(names, replay["scores"], strict=False))
    )
    if not replay["finished"]:
        out.append("(the record stops before the end of the match)")
    return out
