"""The hand calculator: ``deadwood-knock hand deadwood-knock|knock-rummy CARD…``."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from deadwood_knock.cli import main


def run(argv: list[str], stdin: str | None = None) -> tuple[int, str, str]:
    proc = subprocess.run(
        [sys.executable, "-m", "deadwood_knock.cli", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )
    return proc.returncode, proc.stdout, proc.stderr


def call(argv: list[str]) -> str:
    out = io.StringIO()
    assert main(argv, out=out) == 0
    return out.getvalue()


def test_dk_json_fields_for_the_rulings_example_hand() -> None:
    obj = json.loads(call(["hand", "deadwood-knock", "--json", *"As Kd Th 7c 7d 2s JK 9h".split()]))
    assert set(obj) == {
        "category",
        "hand_points",
        "poker_hand",
        "deadwood",
        "deadwood_points",
        "score",
        "knock_count",
        "can_knock",
    }
    assert obj["category"] == "pair"
    assert obj["hand_points"] == 15
    assert sorted(obj["poker_hand"]) == sorted(["7c", "7d", "Kd", "Th", "9h"])
    assert sorted(obj["deadwood"]) == sorted(["As", "2s", "JK"])
    assert obj["deadwood_points"] == 1  # 1 + 2 - 2 for the joker
    assert obj["score"] == 14
    assert obj["knock_count"] == 1
    assert obj["can_knock"] is True


def test_dk_words_show_the_arithmetic() -> None:
    text = call(["hand", "deadwood-knock", *"As Kd Th 7c 7d 2s JK 9h".split()])
    assert "a pair, 15 points" in text
    assert "15 − 1 = 14" in text
    assert "Knock count: 1" in text


def test_dk_seven_card_flush_holding_a_straight_flush_scores_100() -> None:
    obj = json.loads(call(["hand", "deadwood-knock", "--json", *"2h 3h 4h 5h 6h 9h Qh Kc".split()]))
    assert obj["category"] == "straight_flush"
    assert obj["hand_points"] == 100
    assert sorted(obj["poker_hand"]) == sorted("2h 3h 4h 5h 6h 9h Qh".split())
    assert obj["deadwood"] == ["Kc"]
    assert obj["score"] == 90


def test_kr_json_fields() -> None:
    obj = json.loads(call(["hand", "knock-rummy", "--json", *"As 2s 3s 7c 7d 7h Kd".split()]))
    assert set(obj) == {"deadwood_points", "melds", "deadwood", "rummy"}
    assert obj["deadwood_points"] == 10
    assert sorted(sorted(m) for m in obj["melds"]) == [["2s", "3s", "As"], ["7c", "7d", "7h"]]
    assert obj["deadwood"] == ["Kd"]
    assert obj["rummy"] is False


def test_kr_high_aces_option() -> None:
    hand = "Qh Kh Ah 5c 5d 5s 9c".split()
    low = json.loads(call(["hand", "knock-rummy", "--json", *hand]))
    high = json.loads(call(["hand", "knock-rummy", "--high-aces", "--json", *hand]))
    assert low["deadwood_points"] == 30
    assert high["deadwood_points"] == 9


def test_kr_rummy_flag_and_words() -> None:
    text = call(["hand", "knock-rummy", *"As 2s 3s 7c 7d 7h 9d 9s 9h 9c".split()])
    assert "rummy" in text.lower()
    assert "count 0" in text


@pytest.mark.parametrize(
    ("argv", "token"),
    [
        (["hand", "deadwood-knock", "As", "Kd", "Zz", "7c", "7d", "2s", "JK", "9h"], "'Zz'"),
        (["hand", "knock-rummy", "As", "1s", "3s"], "'1s'"),
        (["hand", "knock-rummy", "As", "JK", "3s"], "'JK'"),
        (["hand", "deadwood-knock", "As", "As", "3s", "4d", "5c", "6c", "7c", "8c"], "'As'"),
    ],
)
def test_bad_input_exits_2_with_one_line_naming_the_token(argv: list[str], token: str) -> None:
    code, out, err = run(argv)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and token in lines[0]


def test_wrong_hand_size_is_a_clear_error() -> None:
    code, _, err = run(["hand", "deadwood-knock", "As", "Kd", "Qh"])
    assert code == 2 and "8 cards" in err


def test_stdin_json_mode_answers_every_line_and_reports_bad_ones() -> None:
    stdin = "As Kd Th 7c 7d 2s JK 9h\nAs Kd Xx 7c 7d 2s JK 9h\n2h 3h 4h 5h 6h 9h Qh Kc\n"
    code, out, _ = run(["hand", "deadwood-knock", "--json", "-"], stdin=stdin)
    assert code == 1  # a bad line: every other line is still answered
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 3
    assert rows[0]["score"] == 14
    assert "Xx" in rows[1]["error"] and rows[1]["line"] == 2 and set(rows[1]) == {"error", "line"}
    assert rows[2]["hand_points"] == 100


def test_stdin_json_mode_knock_rummy() -> None:
    stdin = "As 2s 3s 7c 7d 7h Kd\nKd KK\n"
    code, out, _ = run(["hand", "knock-rummy", "--json", "-"], stdin=stdin)
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and rows[0]["deadwood_points"] == 10 and "error" in rows[1]
