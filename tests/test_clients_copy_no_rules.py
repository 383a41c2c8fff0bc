"""The clients copy no rule table: a scan of the web client and the terminal client.

The web client reads titles, the poker categories' words and points, card points and the
knock limit from ``GET /api/games``; the terminal client reads the same ``Game.facts``
in-process. This scan fails if one of those tables (or the knock limit in prose) is
written back into ``web/`` or ``tui/`` as literals. Comments may quote them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from deadwood_knock.games import GAME_NAMES, get_game

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "deadwood_knock"
CLIENTS = (PACKAGE / "web", PACKAGE / "tui")

#: (file, text on the line) that may carry a match, each with why.
ALLOWED = {
    # The product's own name (the app, the manifest), not the game's title.
    ("tui/app.py", 'TITLE = "Deadwood Knock"'),
    ("web/manifest.webmanifest", '"name": "Deadwood Knock"'),
    # "Gin" here is the outcome badge of a seat that went gin, not the game's title.
    ("web/app/showdown.js", 'gin: "Gin"'),
    # A docstring's example of what points_words() writes from the engine's table.
    ("tui/words.py", "generated from the engine's table, never copied"),
}
#: The example hands of the rules pages: the evaluator's own answers, each checked against
#: it by tests/test_rules_examples.py (hands, not a table of the rules).
EXEMPT_FILES = {"web/app/examples.js"}


def _facts() -> list:  # type: ignore[type-arg]
    return [get_game(name) for name in GAME_NAMES]


def _patterns() -> list[tuple[str, re.Pattern[str]]]:
    games = _facts()
    out: list[tuple[str, re.Pattern[str]]] = []
    titles = {g.title for g in games} | {g.facts.title for g in games} | {"Gin Rummy"}
    for title in sorted(titles):
        out.append((f"title {title!r}", re.compile(rf"""["'`]{re.escape(title)}["'`]""")))
    for g in games:
        for words in g.facts.category_words.values():
            bare = re.sub(r"^an? ", "", words)
            forms = {words, bare.capitalize()}
            if " " in bare:
                forms.add(bare)  # "two pair"; a one-word "pair" is also the category's key
            for form in sorted(forms):
                out.append(
                    (f"category words {form!r}", re.compile(rf"""["'`]{re.escape(form)}["'`]"""))
                )
        for category, points in g.facts.hand_points.items():
            out.append(
                (
                    f"hand points of {category}",
                    re.compile(rf"""\b{category}["']?\s*[:=,]\s*{points}\b"""),
                )
            )
        if g.facts.hand_points:
            run = r"\D{1,12}".join(str(p) for p in sorted(g.facts.hand_points.values()))
            out.append(("the hand points table", re.compile(run)))
        if g.facts.card_points:
            run = r"\D{1,6}".join(str(p) for p in g.facts.card_points[:13])
            out.append(("the card points table", re.compile(run)))
    # A knock limit (or any rule figure) written in prose as a literal: "11 or less".
    out.append(("a limit in prose", re.compile(r"\b\d+ or (less|under)\b")))
    out.append(("the joker's points in prose", re.compile(r"(?i)joker\W{1,4}[−-]\s?2\b")))
    return out


def _code_lines(path: Path) -> list[tuple[int, str]]:
    lines = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith(("//", "*", "/*", "#")):
            continue
        lines.append((number, re.sub(r"\s//\s.*$|\s#\s.*$", "", line)))
    return lines


def _scan() -> list[str]:
    patterns = _patterns()
    found = []
    for root in CLIENTS:
        for path in sorted(root.rglob("*")):
            if path.suffix not in (".py", ".js", ".html", ".webmanifest") or not path.is_file():
                continue
            rel = path.relative_to(PACKAGE).as_posix()
            if rel in EXEMPT_FILES:
                continue
            for number, line in _code_lines(path):
                for what, pattern in patterns:
                    if not pattern.search(line):
                        continue
                    if any(rel == f and text in line for f, text in ALLOWED):
                        continue
                    found.append(f"{rel}:{number}: {what}: {line.strip()[:120]}")
    return found


def test_no_rule_table_is_copied_into_the_clients() -> None:
    assert _scan() == []


@pytest.mark.parametrize(
    "copied",
    [
        'const GAME_TITLES = { gin: "Gin Rummy" };',
        '  "knock-rummy": "Knock Rummy",',
        'const CATEGORY_WORDS = { full_house: "Full house" };',
        '  two_pair: "two pair",',
        "  royal_flush: 120,",
        "HAND_POINTS = (0, 15, 30, 40, 50, 60, 70, 85, 100, 120)",
        "const POINTS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10];",
        "<li>Knock when your deadwood is 11 or less.</li>",
        "<figcaption>Joker: −2</figcaption>",
        "f\"{CATEGORY_WORDS.get(c)} ... 'a full house'\"",
    ],
)
def test_the_scan_finds_a_copied_table(copied: str) -> None:
    # The patterns must catch the copies they forbid (else the scan above proves nothing).
    assert any(p.search(copied) for _, p in _patterns()), copied


def test_the_scan_leaves_reading_the_facts_alone() -> None:
    for fine in (
        "const title = gameTitle(obs.game);",
        "`knocking needs ${limit} or less`",
        'f"knocking needs {rule_facts.knock_limit} or less"',
        '{"category": "pair", "hand_points": 15}',
    ):
        assert not any(p.search(fine) for _, p in _patterns()), fine
