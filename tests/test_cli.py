"""The command line as a whole: hand sizes, stdin mode, help, flags, numbers, bench progress.

Each test names the item of the command-line contract it pins (README, "The
``deadwood-knock`` command"): bad input exits 2 with one line naming what was wrong.
"""

from __future__ import annotations

import argparse
import io
import json

import pytest

from deadwood_knock import arena, bench
from deadwood_knock.bots import Budget, UnknownBotError, get_bot, resolve_bot_name
from deadwood_knock.cli import build_parser, dk_hand_sizes, kr_hand_sizes, main
from deadwood_knock.games.knock_rummy.rules import deal_size
from test_cli_hand import run  # the command run as a user runs it

DK_HAND = "As Kd Th 7c 7d 2s JK 9h"
DECK = "As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs".split()


# --- hand: the card counts a hand really has ------------------------------------------------


def test_hand_sizes_come_from_the_rules() -> None:
    assert dk_hand_sizes() == (8,)
    dealt = {deal_size(p) for p in range(2, 6)}
    assert set(kr_hand_sizes()) == dealt | {n + 1 for n in dealt} == {6, 7, 8, 10, 11}


@pytest.mark.parametrize("n", [5, 7, 9])
def test_deadwood_knock_hand_of_another_size_names_the_rule(n: int) -> None:
    cards = "As Kd Th 7c 7d 2s 9h 3c 4c".split()[:n]
    code, out, err = run(["hand", "deadwood-knock", *cards])
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert "8 cards" in err and "DK1" in err and f"got {n}" in err


@pytest.mark.parametrize("n", [3, 5, 9, 12])
def test_knock_rummy_hand_of_another_size_names_the_rule(n: int) -> None:
    code, _, err = run(["hand", "knock-rummy", *DECK[:n]])
    assert code == 2
    assert "KR1" in err and "10 cards with two players" in err and f"got {n}" in err


@pytest.mark.parametrize("n", [6, 7, 8, 10, 11])
def test_knock_rummy_hand_sizes_that_occur_are_scored(n: int) -> None:
    out = io.StringIO()
    assert main(["hand", "knock-rummy", "--json", *DECK[:n]], out=out) == 0
    assert json.loads(out.getvalue())["deadwood_points"] >= 0


# --- hand: stdin mode -----------------------------------------------------------------------


def test_stdin_writes_words_skips_blank_and_comment_lines_and_exits_1_on_a_bad_line() -> None:
    stdin = (
        "# my hands, one per line\n"
        f"{DK_HAND}   # the rulings' example\n"
        "\n"
        "   # an indented comment\n"
        "As Kd Xx 7c 7d 2s JK 9h\n"
        "2h 3h 4h 5h 6h 9h Qh Kc\n"
    )
    code, out, err = run(["hand", "deadwood-knock", "-"], stdin=stdin)
    assert code == 1
    assert not out.lstrip().startswith("{")  # words, not JSON
    assert out.count("Poker hand:") == 2 and out.count("Hand: ") == 2
    assert f"Hand: {DK_HAND}\n" in out and "Score:      15 − 1 = 14" in out
    assert "straight flush, 100 points" in out
    # The comment and blank lines were skipped, not read as cards; line numbers count them.
    assert err.strip().splitlines() == [
        "deadwood-knock: line 5: bad card 'Xx': unknown suit 'x' (use s h d c or ♠♥♦♣)"
    ]


def test_stdin_with_only_good_lines_exits_0() -> None:
    code, out, err = run(["hand", "deadwood-knock", "-"], stdin=f"{DK_HAND}\n# done\n")
    assert code == 0 and err == "" and out.count("Poker hand:") == 1


def test_stdin_wrong_size_line_is_bad_in_json_too() -> None:
    code, out, _ = run(["hand", "knock-rummy", "--json", "-"], stdin="As 2s 3s\n")
    assert code == 1
    row = json.loads(out)
    assert row["line"] == 1 and "KR1" in row["error"]


# --- help: defaults and a description for every option --------------------------------------


def _parsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    out = [parser]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                out += _parsers(sub)
    return out


def test_every_option_has_help_and_shows_its_default() -> None:
    parsers = _parsers(build_parser())
    assert {p.prog for p in parsers} >= {
        "deadwood-knock hand deadwood-knock",
        "deadwood-knock hand knock-rummy",
        "deadwood-knock play",
        "deadwood-knock arena",
        "deadwood-knock bench",
        "deadwood-knock serve",
    }
    for parser in parsers:
        text = parser.format_help()
        assert parser.description, parser.prog
        for action in parser._actions:
            if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
                continue
            if isinstance(action, argparse._VersionAction):
                continue
            assert action.help, f"{parser.prog} {action.option_strings or action.dest}"
            worth_showing = action.default not in (None, False) and action.option_strings
            if worth_showing:
                shown = parser._get_formatter()._get_help_string(action) % {
                    "default": action.default
                }
                assert "default" in shown, f"{parser.prog} {action.option_strings}"
                assert str(action.default) in text or "default" in (action.help or "")


def test_help_tells_how_the_arena_repeats_and_what_play_defaults_to() -> None:
    arena_help = run(["arena", "--help"])[1]
    assert "--iterations" in arena_help and "reproducible" in arena_help
    assert "--budget-ms" in arena_help and "do not repeat exactly" in arena_help
    play_help = " ".join(run(["play", "--help"])[1].split())
    assert "default: lottie-deno, luke-short at Deadwood Knock" in play_help
    assert "greedy" not in play_help


# --- flags named alike, old spellings accepted -----------------------------------------------


@pytest.mark.parametrize(
    ("argv", "bots"),
    [
        (["arena", "--bots", "strong,legend"], "strong,legend"),
        (["arena", "--players", "strong,legend"], "strong,legend"),
        (["play", "--bots", "strong"], "strong"),
        (["play", "--opponents", "strong"], "strong"),
    ],
)
def test_bots_flag_and_its_old_spellings(argv: list[str], bots: str) -> None:
    assert build_parser().parse_args(argv).bots == bots


@pytest.mark.parametrize("command", [["arena", "--bots", "greedy,random"], ["play"]])
@pytest.mark.parametrize("flag", ["--sleight-of-hand", "--sleight"])
def test_sleight_of_hand_flag_is_the_same_in_play_and_arena(command: list[str], flag: str) -> None:
    parsed = build_parser().parse_args([*command, flag])
    assert parsed.sleight_of_hand is True
    assert build_parser().parse_args(command).sleight_of_hand is False


# --- bot names in any case ------------------------------------------------------------------


def test_bot_names_are_case_insensitive_everywhere() -> None:
    assert resolve_bot_name(" Legend ") == "legend"
    assert get_bot("GREEDY").name == "greedy"
    from deadwood_knock.trail.figure_bots import register_figure_bots

    register_figure_bots()
    assert resolve_bot_name("Luke-Short") == "figure:luke-short"
    assert resolve_bot_name("FIGURE:Luke-Short") == "figure:luke-short"
    with pytest.raises(UnknownBotError, match=r"valid bots: .*greedy.*characters: .*figure:"):
        resolve_bot_name("nobody")
    out, err = io.StringIO(), io.StringIO()
    argv = ["--game", "gin", "--bots", "GREEDY,Random", "--matches", "2", "--json"]
    assert arena.main([*argv, "--no-progress"], out=out, err=err) == 0
    assert set(json.loads(out.getvalue())["bots"]) == {"greedy", "random"}


# --- impossible numbers are refused ----------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["play", "--pause", "-1"], "--pause"),
        (["play", "--rounds", "0"], "--rounds"),
        (["play", "--target", "-5"], "--target"),
        (["play", "--seed", "-3"], "--seed"),
        (["arena", "--bots", "greedy,random", "--budget-ms", "-5"], "--budget-ms"),
        (["arena", "--bots", "greedy,random", "--budget-ms", "nan"], "--budget-ms"),
        (["arena", "--bots", "greedy,random", "--jobs", "0"], "--jobs"),
        (["arena", "--bots", "greedy,random", "--matches", "0"], "--matches"),
        (["arena", "--bots", "greedy,random", "--iterations", "0"], "--iterations"),
        (["arena", "--bots", "greedy,random", "--rounds", "2.5"], "--rounds"),
        (["serve", "--port", "70000"], "--port"),
    ],
)
def test_impossible_numbers_exit_2_naming_the_option(argv: list[str], option: str) -> None:
    code, out, err = run(argv)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and option in lines[0], err


# --- the arena repeats from its seed ---------------------------------------------------------


def test_arena_budget_is_an_iteration_count_unless_a_time_is_asked_for() -> None:
    parse = build_parser().parse_args
    assert arena.budget_of(parse(["arena", "--bots", "strong,greedy"])) == Budget(iterations=400)
    assert arena.budget_of(parse(["arena", "--bots", "a,b", "--iterations", "9"])) == Budget(
        iterations=9
    )
    timed = arena.budget_of(parse(["arena", "--bots", "a,b", "--budget-ms", "50"]))
    assert timed == Budget(seconds=0.05, iterations=None)


def test_arena_with_a_search_bot_repeats_exactly_from_its_seed() -> None:
    argv = ["--game", "gin", "--bots", "strong,greedy", "--matches", "2", "--seed", "5"]
    argv += ["--iterations", "6", "--target", "25", "--json", "--no-progress"]

    def figures() -> dict[str, object]:
        out = io.StringIO()
        assert arena.main(argv, out=out, err=io.StringIO()) == 0
        data = json.loads(out.getvalue())
        for fig in data["bots"].values():  # timings vary; everything else must not
            del fig["decision_ms_p50"], fig["decision_ms_p95"]
        del data["seconds"]
        return dict(data)

    assert figures() == figures()


# --- bench progress ------------------------------------------------------------------------


def test_quick_bench_tells_its_progress_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    tiny = ["--hands", "20", "--games", "1", "--min-time", "0", "--repeats", "1"]
    assert bench.main(["--quick", "--json", *tiny]) == 0
    captured = capsys.readouterr()
    json.loads(captured.out)  # stdout stays one JSON object
    lines = captured.err.strip().splitlines()
    total = len(lines)
    assert total >= 10
    for done, line in enumerate(lines, 1):
        assert f" {done}/{total} " in line and line.startswith("[")
    assert bench.main(["--quick", "--json", "--no-progress", *tiny]) == 0
    assert capsys.readouterr().err == ""


def test_the_bench_command_passes_on_the_harness_options(
    capsys: pytest.CaptureFixture[str],
) -> None:
    tiny = ["--hands", "20", "--games", "1", "--min-time", "0", "--repeats", "1"]
    out = io.StringIO()
    argv = ["bench", "--quick", "--json", "--no-progress", "--clock", "cpu", "--seed", "7", *tiny]
    assert main(argv, out=out) == 0
    settings = json.loads(capsys.readouterr().out)["settings"]
    assert settings["seed"] == 7 and settings["repeats"] == 1 and settings["clock"] == "cpu"
    with pytest.raises(SystemExit) as refused:  # argparse's error: the message, status 2
        main(["bench", "--quick", "--repeats", "0"], out=out)
    assert refused.value.code == 2
    assert "--repeats must be positive" in capsys.readouterr().err
