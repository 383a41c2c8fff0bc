"""Deadwood Knock observations at each knock situation a hand summary names: a knock legal
now, another seat to act, after another seat's knock, after the seat's own knock, a count
over the limit, and a round over. Shared by the terminal's and the web client's tests, so
both say the same thing of the same observation."""

from __future__ import annotations

import dataclasses
from typing import Any

from deadwood_knock.cards import DECK_54
from deadwood_knock.games import get_game

#: Seat 0 holds A-2-3-4-5-6-7, a straight, with 5♦ over: knock count 1, under the limit.
LOW = "Ac Ad 4s 6c 7d 2s 3s 5d".split()
#: Seat 0 over the limit (knock count 18).
HIGH = "Kc Qd Js 9c 8d 7s 6h 5c".split()
OTHER = "2h 5h 8h Jh Kh 3c 4d 9s".split()


def _position(mine: list[str], **extra: Any) -> dict[str, Any]:
    used = {*mine, *OTHER, "Qs"}
    stock = [str(c) for c in DECK_54[:52] if str(c) not in used] + ["JK", "JK"]
    return {
        "options": {"players": 2},
        "hands": [mine, OTHER],
        "discard": ["Qs"],
        "stock": stock,
        **extra,
    }


def knock_observations() -> dict[str, Any]:
    """Seat 0's observation in each situation, by name."""
    game = get_game("deadwood-knock")
    cases = {
        "now": _position(LOW, to_act=0),
        "their_turn": _position(LOW, to_act=1),
        "they_knocked": _position(LOW, phase="final", to_act=0, knocker=1),
        "i_knocked": _position(LOW, phase="final", to_act=1, knocker=0),
        "over_limit": _position(HIGH, to_act=0),
    }
    out = {name: game.observe(game.position_from_json(p), 0) for name, p in cases.items()}
    # A round over with no knock (DK7's dry round): its showdown, the reveal phase.
    state = game.position_from_json(_position(LOW, to_act=0))
    out["over"] = game.observe(dataclasses.replace(state, phase="reveal"), 0)
    return out
