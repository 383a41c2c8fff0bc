"""Every rule is written once, in ``games/``: a scan of the sources.

Card points, the poker categories' words and points, legality and the knock limit each
have one definition; nothing outside ``games/`` asks a game for its name (fronts read
``Game.facts``). The allow-list below is empty and may only stay so.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from deadwood_knock.games import GAME_NAMES, get_game
from deadwood_knock.games.points import CARD_POINTS, RANK_VALUE, card_value

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "deadwood_knock"
GAMES = PACKAGE / "games"

# Nothing is allow-listed any more: the server reads Game.facts (the deal's word, the
# table options a game has) and the web client reads the rule tables from /api/games
# (tests/test_clients_copy_no_rules.py).
ALLOWED_ELSEWHERE: tuple[Path, ...] = ()

NAME_TEST = re.compile(
    r"""(==|!=|===|!==)\s*["'](deadwood-knock|knock-rummy|gin)["']"""
    r"""|["'](deadwood-knock|knock-rummy|gin)["']\s*(==|!=|===|!==)"""
    r"""|\bin\s*\(\s*["'](deadwood-knock|knock-rummy|gin)["']"""
)


def _sources(suffixes: tuple[str, ...] = (".py",)) -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*") if p.suffix in suffixes and p.is_file())


def _outside(path: Path, *roots: Path) -> bool:
    return not any(path.is_relative_to(root) for root in roots)


def _hits(pattern: re.Pattern[str], paths: list[Path]) -> list[str]:
    found = []
    for path in paths:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                found.append(f"{path.relative_to(PACKAGE)}:{number}: {line.strip()}")
    return found


def test_no_game_is_asked_for_by_name_outside_games() -> None:
    paths = [p for p in _sources((".py", ".js")) if _outside(p, GAMES, *ALLOWED_ELSEWHERE)]
    assert _hits(NAME_TEST, paths) == []


def test_the_scan_finds_a_name_test_when_there_is_one() -> None:
    # The pattern must catch the forms it forbids (else the test above proves nothing).
    for line in (
        'if game.name == "deadwood-knock":',
        "if name != 'gin':",
        'if ("gin" == game_name)',
        'if game in ("knock-rummy", "gin"):',
        'const dk = game === "deadwood-knock";',
    ):
        assert NAME_TEST.search(line), line
    assert not NAME_TEST.search('get_game("deadwood-knock")')


@pytest.mark.parametrize(
    ("pattern", "homes"),
    [
        (r"def card_value\b", ["games/points.py"]),
        (r"\(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10\)", ["games/points.py"]),
        (r"^JOKER_DEADWOOD\b.*=", ["games/points.py"]),
        # The copies that used to sit in bots/ (kr.points, hints) are gone for good.
        (r"def points\(", []),
        (r"min\(\w+ % 13 \+ 1, 10\)", []),
    ],
)
def test_card_points_are_defined_once(pattern: str, homes: list[str]) -> None:
    regex = re.compile(pattern, re.M)
    hits = [p for p in _sources() if regex.search(p.read_text(encoding="utf-8"))]
    assert [p.relative_to(PACKAGE).as_posix() for p in hits] == homes


@pytest.mark.parametrize(
    ("pattern", "home"),
    [
        (r"^HAND_POINTS\b.*=", "games/deadwood_knock/hand.py"),
        (r"^CATEGORY_WORDS\b.*=", "games/deadwood_knock/hand.py"),
        (r"^KNOCK_LIMIT\b.*=", "games/deadwood_knock/hand.py"),
        (r"^GIN_LIMIT\b.*=", "games/knock_rummy/core.py"),
        (r"^(RUMMY_BONUS|GIN_BONUS|KNOCK_PENALTY)\b.*=", "games/knock_rummy/core.py"),
        (r"^POT_ANTE\b.*=", "games/deadwood_knock/core.py"),
        (r"^SUSPICION\b.*=", "games/deadwood_knock/core.py"),
        (r"^PALM_MIN_DISCARDS\b.*=", "games/deadwood_knock/core.py"),
        (r"^HAND_SIZE\b.*=", "games/deadwood_knock/core.py"),
    ],
)
def test_rule_tables_are_defined_once(pattern: str, home: str) -> None:
    regex = re.compile(pattern, re.M)
    paths = [p for p in _sources() if _outside(p, *ALLOWED_ELSEWHERE)]
    hits = [p.relative_to(PACKAGE).as_posix() for p in paths if regex.search(p.read_text())]
    assert hits == [home]


@pytest.mark.parametrize(
    "pattern",
    [
        # The search bot's old Knock Rummy simulator, a second rule book, is gone: its
        # playouts drive the engine's core (games/knock_rummy/core.py).
        r"def (settle|do_rummy|_layoff_estimate)\(",
        r"class KrSim\b",
        # KR7's turn-overs and KR8's void stock are the core's to decide.
        r"turnovers\s*(<|>=)\s*(2|MAX_TURNOVERS)",
        r"len\([\w.]*stock\)\s*<=\s*(2|GIN_VOID_STOCK)",
        # KR6 settlement is the core's: nothing else splits shares among winners.
        r"(owed|points)\s*//\s*k\b",
    ],
)
def test_no_knock_rummy_rule_outside_games(pattern: str) -> None:
    regex = re.compile(pattern)
    paths = [p for p in _sources() if _outside(p, GAMES, *ALLOWED_ELSEWHERE)]
    assert _hits(regex, paths) == []
    assert not (PACKAGE / "bots" / "kr_sim.py").exists()


def test_knock_rummy_rules_live_in_its_core() -> None:
    core = (GAMES / "knock_rummy" / "core.py").read_text(encoding="utf-8")
    for name in ("legal_list", "reason", "_settle_knock_rummy", "gin_settlement"):
        assert len(re.findall(rf"^def {name}\(", core, re.M)) == 1, name
    assert len(re.findall(r"^    def (_deal|_draw|_discard|_void|_finish)\(", core, re.M)) == 5
    rules = (GAMES / "knock_rummy" / "rules.py").read_text(encoding="utf-8")
    for gone in ("def _settle", "def _draw(", "def _discard(", "def _deal(", "def _can_draw("):
        assert gone not in rules, gone


def test_legality_has_one_source_per_game() -> None:
    # One why_illegal per engine; the old second and third copies are gone. Deadwood
    # Knock's lives in its core, which the public API re-exports.
    for rules in (GAMES / "deadwood_knock" / "core.py", GAMES / "knock_rummy" / "rules.py"):
        text = rules.read_text(encoding="utf-8")
        assert len(re.findall(r"^def why_illegal\(", text, re.M)) == 1
        for gone in ("def _is_legal", "def _why_illegal", "_legal_memo"):
            assert gone not in text
    for name in GAME_NAMES:
        assert get_game(name).why_illegal is not None


def test_the_points_table_is_what_every_game_publishes() -> None:
    assert [card_value(c) for c in range(54)] == list(CARD_POINTS)
    assert CARD_POINTS[:13] == RANK_VALUE and CARD_POINTS[52:] == (-2, -2)
    for name in GAME_NAMES:
        facts = get_game(name).facts
        assert facts.card_points == CARD_POINTS[: len(facts.card_points)]
        assert facts.title


@pytest.mark.parametrize(
    "pattern",
    [
        # Deadwood Knock's round rules: the deal, turns, knock, calls, showdown, pot and
        # Suspicion are written in games/deadwood_knock/core.py only. These are the
        # definitions the bots' old simulator (bots/dk_sim.py) carried.
        r"^\s*def (settle_pot|suspicions|pot_result|showdown|_showdown|_score_round|do_answer)\(",
        r"^\s*(POT_ANTE|SUSPICION|PALM_MIN_DISCARDS|POT)\s*(:[^=]*)?=",
        r"derive_rng\(.*, 1\)",  # the DK7 reshuffle's stream
    ],
)
def test_deadwood_knock_rules_are_written_only_in_games(pattern: str) -> None:
    regex = re.compile(pattern, re.M)
    outside = [p for p in _sources() if _outside(p, GAMES)]
    assert [p.relative_to(PACKAGE).as_posix() for p in outside if regex.search(p.read_text())] == []
    inside = [p.relative_to(GAMES).as_posix() for p in _sources() if regex.search(p.read_text())]
    assert inside and all(p.startswith("deadwood_knock/") or "knock_rummy" in p for p in inside)


def test_the_bots_play_deadwood_knock_on_the_engines_core() -> None:
    # The second rule book is gone; the playouts step the engine's Core.
    assert not (PACKAGE / "bots" / "dk_sim.py").exists()
    playout = (PACKAGE / "bots" / "dk_playout.py").read_text(encoding="utf-8")
    assert "from deadwood_knock.games.deadwood_knock.core import" in playout
    assert ".step(" in playout


# The floor of a hand's count that proves no knock and no rummy is legal (each suit's
# runs-only deadwood less the points of the ranks held three or four times: one term a
# suit), worked out once, in the Knock Rummy core's draw; the public API reads its answer.
FLOOR_TERM = re.compile(r"\w+\[\s*\w+\s*&\s*trip\s*\]")


def test_the_counts_floor_is_written_once() -> None:
    terms = {
        p.relative_to(PACKAGE).as_posix(): len(FLOOR_TERM.findall(p.read_text(encoding="utf-8")))
        for p in _sources()
    }
    assert {path: n for path, n in terms.items() if n} == {"games/knock_rummy/core.py": 4}
    # Melds' count tables are read by melds and the core only (the public API asks the core).
    tables = re.compile(r"\b(_T_HIGH|_T_LOW|_FIELD_POINTS)\b")
    homes = (GAMES / "knock_rummy" / "melds.py", GAMES / "knock_rummy" / "core.py")
    paths = [p for p in _sources() if p not in homes]
    assert _hits(tables, paths) == []


def test_the_scan_finds_a_copy_of_the_floor() -> None:
    # The inline copy the public API's legal_actions carried before (issue 16).
    line = "floor -= points[fa & trip] + points[fb & trip] + points[fc & trip] + points[fd & trip]"
    assert len(FLOOR_TERM.findall(line)) == 4
    assert not FLOOR_TERM.search("xa = table[a ^ trip] if a & trip else ta")
