"""`deadwood-knock replay FILE`: a finished match played back in the terminal."""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path

import pytest

from deadwood_knock.cli import main
from deadwood_knock.games import get_game
from deadwood_knock.games.base import GameRecord
from deadwood_knock.replays import replay_steps


def _finished_record(rounds: int = 1) -> GameRecord:
    game = get_game("deadwood-knock")
    options = {"players": 2, "rounds": rounds}
    state = game.new_game(game.options_from_json(options), 11)
    rng = random.Random(4)
    actions = []
    while not game.is_over(state):
        legal = game.legal_actions(state)
        keen = [a for a in legal if "knock" in json.dumps(a.to_json())]
        action = rng.choice(keen or legal)
        actions.append(action.to_json())
        state, _ = game.apply(state, action)
    return GameRecord("deadwood-knock", options, 11, tuple(actions))


def test_replay_steps_follow_one_seat_and_keep_every_hand() -> None:
    record = _finished_record()
    replay = replay_steps(record, ["You", "Doc"], 0)
    assert replay["finished"] and len(replay["steps"]) == len(record.actions) + 1
    for step in replay["steps"]:
        assert step["hand"] == step["hands"][0]
        # Nothing of the other seat's hand is in the words the player read.
        words = " ".join(step["lines"])
        assert "Doc draws from the stock" in words or "Doc draw " not in words


def test_replay_command_prints_the_match_and_the_hands_at_the_end(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(_finished_record().to_json()))
    out = io.StringIO()
    assert main(["replay", str(path)], out) == 0
    text = out.getvalue()
    assert "Hands at the end:" in text and "Final scores: You " in text
    # Each round's own scores, not only the totals; scores below zero take a true minus.
    assert "Round 1 scored: " in text and ". Totals: " in text
    assert not re.search(r"-\d", text.split("Final scores:")[1]), text[-200:]
    assert "knock" in text.lower()


def test_replay_command_refuses_bad_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(tmp_path / "none.json")], io.StringIO()) == 2
    assert "cannot read" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"game": "deadwood-knock", "seed": 1, "actions": [{"type": "x"}]}))
    assert main(["replay", str(bad)], io.StringIO()) == 2
    assert "action 1" in capsys.readouterr().err


def test_replay_shows_the_first_deal_as_it_shows_every_later_one(tmp_path: Path) -> None:
    """Round 2 opened with "— Round 2: …" and "Your hand: …"; round 1 had only "The cards are
    dealt.", so the replay never showed the viewer's opening hand."""
    path = tmp_path / "match.json"
    path.write_text(json.dumps(_finished_record(rounds=2).to_json()))
    out = io.StringIO()
    assert main(["replay", str(path)], out) == 0
    head = [line[6:] for line in out.getvalue().splitlines() if line.startswith("   0  ")]
    assert head[0] == "The cards are dealt."
    assert any(line.startswith("— Round 1:") for line in head), head
    assert any(line.startswith("Your hand: ") for line in head), head
