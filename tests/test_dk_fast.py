"""The Deadwood Knock engine's speed paths change nothing: legality asked directly (no
listing) and the state copy helper."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from deadwood_knock.cards import CARDS
from deadwood_knock.games.base import IllegalActionError
from deadwood_knock.games.deadwood_knock import rules
from deadwood_knock.games.deadwood_knock.rules import (
    apply,
    legal_actions,
    new_game,
    options_from_json,
)


def _candidates() -> list[Any]:
    """Every action value of the game but reveals: each draw of each card from each
    source, knock, stand, call and fold."""
    draws = [rules.Draw(c, src) for c in CARDS for src in rules.SOURCES]
    return [*draws, rules.Knock(), rules.Stand(), rules.Call(), rules.Fold()]


def test_legal_actions_are_exactly_what_why_illegal_allows() -> None:
    # Legality is written once (why_illegal's predicates); the listing must agree with it
    # on every candidate in every state of seeded random rounds (the memo this file once
    # tested is gone: apply asks why_illegal directly).
    rng = random.Random(9)
    options = options_from_json({"players": 4, "rounds": 2, "sleight_of_hand": True})
    candidates = _candidates()
    for seed in (123, 124):
        state = new_game(options, seed)
        for _ in range(120):
            actions = legal_actions(state)
            if not actions:
                break
            if state.phase != "reveal":
                allowed = {a for a in candidates if rules.why_illegal(state, a) is None}
                assert allowed == set(actions)
            for a in actions:
                assert rules.is_legal(state, a)
            state, _ = apply(state, rng.choice(actions))


def test_apply_still_rejects_an_action_legal_only_in_another_state() -> None:
    options = options_from_json({"players": 2, "rounds": 1})
    state = new_game(options, 5)
    legal_here = set(legal_actions(state))
    after, _ = apply(state, legal_actions(state)[-1])
    foreign = next(a for a in legal_here if a not in set(legal_actions(after)))
    legal_actions(state)  # asking about another state first changes nothing
    with pytest.raises(IllegalActionError):
        apply(after, foreign)


def test_state_copy_helper_matches_dataclasses_replace() -> None:
    state = new_game(options_from_json({"players": 3}), 77)
    changes: dict[str, Any] = {"phase": "final", "knocker": 1, "to_act": 2, "log": ()}
    fast, slow = rules._replace(state, **changes), dataclasses.replace(state, **changes)
    assert fast == slow
    # State equality skips the log, so compare every field by name.
    for name in rules._STATE_FIELDS:
        assert getattr(fast, name) == getattr(slow, name), name
    assert rules._replace(state) == state
    assert rules._replace(state).log == state.log
