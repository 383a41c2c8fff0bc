"""The Deadwood Knock engine's speed paths change nothing: the legal-action memo and the
state copy helper."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from deadwood_knock.games.base import IllegalActionError
from deadwood_knock.games.deadwood_knock import rules
from deadwood_knock.games.deadwood_knock.rules import (
    apply,
    legal_actions,
    new_game,
    options_from_json,
)


def test_legal_action_memo_answers_for_the_state_asked_about() -> None:
    rng = random.Random(9)
    options = options_from_json({"players": 4, "rounds": 2, "sleight_of_hand": True})
    state = new_game(options, 123)
    seen = [state]
    for _ in range(120):
        actions = legal_actions(state)
        if not actions:
            break
        assert actions == rules._legal_actions(state)
        # Asking about an older state in between must not leak its answer.
        old = rng.choice(seen)
        assert legal_actions(old) == rules._legal_actions(old)
        assert legal_actions(state) == actions
        state, _ = apply(state, rng.choice(actions))
        seen.append(state)


def test_apply_still_rejects_an_action_legal_only_in_another_state() -> None:
    options = options_from_json({"players": 2, "rounds": 1})
    state = new_game(options, 5)
    legal_here = set(legal_actions(state))
    after, _ = apply(state, legal_actions(state)[-1])
    foreign = next(a for a in legal_here if a not in set(legal_actions(after)))
    legal_actions(state)  # the memo now holds the first state
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
