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


def test_a_gin_replay_ends_with_the_hands_as_settled(tmp_path: Path) -> None:
    """A Gin match lost to a knock: the hands at the end are read as the engine settled
    them, the card the defender laid off on the knocker's melds apart from its deadwood
    (the replay printed "You: 2♠ 5♠ K♠ …", 2♠ as if still held and counted)."""
    from deadwood_knock.bots import get_bot
    from deadwood_knock.cards import parse_card
    from deadwood_knock.tui.words import cards_text

    game = get_game("gin")
    options = {"players": 2, "target": 20}
    state = game.new_game(game.options_from_json(options), 6008)
    bots, rng = [get_bot("greedy"), get_bot("greedy")], random.Random(6008)
    actions = []
    while not game.is_over(state):
        seat = game.to_act(state)
        action = bots[seat].act(game, game.observe(state, seat), game.legal_actions(state), rng)
        actions.append(action.to_json())
        state, _ = game.apply(state, action)
    result = game.observe(state, 0).last_result
    assert result.layoffs and result.ender == 1  # the premise: seat 0 laid off on seat 1
    path = tmp_path / "gin.json"
    path.write_text(json.dumps(GameRecord("gin", options, 6008, tuple(actions)).to_json()))
    for seat, mine, theirs in ((0, "You", "Seat 2's"), (1, "Seat 1", "your")):
        out = io.StringIO()
        assert main(["replay", "--seat", str(seat), str(path)], out) == 0
        end = out.getvalue().split("Hands at the end:\n")[1].splitlines()
        laid = cards_text(result.layoffs)
        arr = result.arrangements[0]
        melds = " | ".join(cards_text(m) for m in arr.melds)
        assert end[0] == (
            f"  {mine}: melds {melds}; deadwood {cards_text(arr.deadwood)}, "
            f"count {result.counts[0]}; laid off {laid} on {theirs} melds"
        )
        assert not set(result.layoffs) & set(arr.deadwood)
        assert all(parse_card(str(c)) in result.hands[0] for c in result.layoffs)
