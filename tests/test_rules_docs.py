"""The rules pages under docs/rules must state every ruling and agree with the engine.

Worked examples live in fenced blocks (info string ``example-dk`` / ``example-kr``) of
``key: value`` lines. Each block is checked twice: for internal arithmetic (no engine
needed) and against the game's own evaluators, comparing card sets, not order.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

import pytest

from deadwood_knock.cards import Card, parse_cards

RULES = Path(__file__).resolve().parent.parent / "docs" / "rules"
DK_PAGE = RULES / "deadwood-knock.md"
KR_PAGE = RULES / "knock-rummy.md"
SCORING_PAGE = RULES / "hand-scoring.md"

HAND_POINTS = {
    "high_card": 0,
    "pair": 15,
    "two_pair": 30,
    "three_of_a_kind": 40,
    "straight": 50,
    "flush": 60,
    "full_house": 70,
    "four_of_a_kind": 85,
    "straight_flush": 100,
    "royal_flush": 120,
}
# Row labels used in the pages' tables, mapped to the engine's category names.
TABLE_LABELS = {
    "High card": "high_card",
    "Pair": "pair",
    "Two pair": "two_pair",
    "Three of a kind": "three_of_a_kind",
    "Straight": "straight",
    "Flush": "flush",
    "Full house": "full_house",
    "Four of a kind": "four_of_a_kind",
    "Straight flush": "straight_flush",
    "Royal flush": "royal_flush",
}

DK_REQUIRED = {
    "hand",
    "poker_hand",
    "deadwood",
    "hand_points",
    "deadwood_points",
    "score",
    "knock_count",
}
DK_OPTIONAL = {"category", "can_knock"}
KR_REQUIRED = {"hand", "high_aces", "deadwood_points", "melds", "deadwood", "rummy"}


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _blocks(path: Path, info: str) -> list[dict[str, str]]:
    """Every fenced block with this info string, as a dict of its ``key: value`` lines."""
    pattern = re.compile(rf"^```{re.escape(info)}[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)
    out = []
    for body in pattern.findall(_read(path)):
        fields: dict[str, str] = {}
        for line in body.splitlines():
            if not line.strip():
                continue
            key, sep, value = line.partition(":")
            assert sep, f"{path.name}: line without 'key:' in {info} block: {line!r}"
            assert key.strip() not in fields, f"{path.name}: key {key!r} twice in a block"
            fields[key.strip()] = value.strip()
        out.append(fields)
    return out


def _bool(text: str) -> bool:
    assert text in ("true", "false"), f"expected true/false, got {text!r}"
    return text == "true"


def _cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text) if text else ()


def _same(a: Iterable[int], b: Iterable[int]) -> bool:
    """Order-free comparison that still notices a repeated card."""
    return Counter(int(c) for c in a) == Counter(int(c) for c in b)


def _value(c: Card) -> int:
    """Deadwood value, written out independently of the engine (jokers -2)."""
    if c.is_joker:
        return -2
    return min(c.rank, 10)


def _is_straight(ranks: list[int]) -> bool:
    """Distinct consecutive ranks with the ace low or high, never wrapping."""
    if len(set(ranks)) != len(ranks):
        return False
    for ace in (1, 14):
        rr = [ace if r == 1 else r for r in ranks]
        if max(rr) - min(rr) == len(rr) - 1:
            return True
    return False


DK_EXAMPLES = _blocks(DK_PAGE, "example-dk")
KR_EXAMPLES = _blocks(KR_PAGE, "example-kr")


def _dk_id(ex: dict[str, str]) -> str:
    return ex.get("hand", "?")


def _kr_id(ex: dict[str, str]) -> str:
    return f"{ex.get('hand', '?')} high_aces={ex.get('high_aces', '?')}"


# -- rulings ------------------------------------------------------------------


@pytest.mark.parametrize("ruling", [f"DK{i}" for i in range(1, 11)])
def test_deadwood_knock_page_states_ruling(ruling: str) -> None:
    # \b keeps DK1 from being satisfied by DK10.
    assert re.search(rf"\b{ruling}\b", _read(DK_PAGE)), f"{ruling} missing from {DK_PAGE.name}"


@pytest.mark.parametrize("ruling", [f"KR{i}" for i in range(1, 9)])
def test_knock_rummy_page_states_ruling(ruling: str) -> None:
    assert re.search(rf"\b{ruling}\b", _read(KR_PAGE)), f"{ruling} missing from {KR_PAGE.name}"


def test_pages_state_the_team_readings() -> None:
    dk = _read(DK_PAGE)
    kr = _read(KR_PAGE)
    # DK7: one rebuild, needs two cards in the pile; a dry round has no knocker and no pot.
    assert "at least two cards" in dk and "no knocker and no pot" in dk
    # DK2: the discard is chosen before the take.
    assert "before you take" in dk
    # KR6: shares rounded down, scores add up to zero; KR7: unshuffled turn-over order.
    assert "rounded down" in kr and "add up to zero" in kr
    assert "not shuffled" in kr and "oldest discard" in kr


# -- tables --------------------------------------------------------------------


def _table_points(path: Path) -> dict[str, int]:
    """Rows ``| <poker hand label> | ... | <points> |`` of a page's hand-points table."""
    found: dict[str, int] = {}
    for line in _read(path).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 2 and cells[0] in TABLE_LABELS and re.fullmatch(r"\d+", cells[-1]):
            found[TABLE_LABELS[cells[0]]] = int(cells[-1])
    # The royal flush row carries a note in the rules page, e.g. "Royal flush (A-K-Q-J-T ...)".
    for line in _read(path).splitlines():
        m = re.match(r"\|\s*Royal flush[^|]*\|.*?(\d+)\s*\|\s*$", line)
        if m:
            found["royal_flush"] = int(m.group(1))
    return found


@pytest.mark.parametrize("page", [DK_PAGE, SCORING_PAGE], ids=lambda p: p.name)
def test_hand_points_tables_are_complete_and_right(page: Path) -> None:
    assert _table_points(page) == HAND_POINTS


def test_hand_scoring_page_lists_deadwood_values() -> None:
    text = _read(SCORING_PAGE)
    rows = {
        cells[0]: cells[-1]
        for line in text.splitlines()
        if line.startswith("|")
        for cells in [[c.strip() for c in line.strip().strip("|").split("|")]]
    }
    assert rows["Ace"] == "1"
    assert rows["2 to 10"] == "face value"
    assert rows["Jack, Queen, King"] == "10 each"
    assert rows["Joker"] == "−2"


# -- Deadwood Knock examples ---------------------------------------------------


def test_enough_examples_of_each_kind() -> None:
    assert len(DK_EXAMPLES) >= 8
    assert len(KR_EXAMPLES) >= 8
    categories = {ex.get("category") for ex in DK_EXAMPLES}
    assert {"straight", "flush", "straight_flush", "royal_flush"} <= categories
    assert any(_bool(ex["high_aces"]) for ex in KR_EXAMPLES)
    assert any(_bool(ex["rummy"]) for ex in KR_EXAMPLES)


@pytest.mark.parametrize("ex", DK_EXAMPLES, ids=_dk_id)
def test_dk_example_is_self_consistent(ex: dict[str, str]) -> None:
    assert DK_REQUIRED <= ex.keys() <= DK_REQUIRED | DK_OPTIONAL
    hand = _cards(ex["hand"])
    poker = _cards(ex["poker_hand"])
    dead = _cards(ex["deadwood"])
    assert len(hand) == 8
    assert _same(poker + dead, hand)
    assert not any(c.is_joker for c in poker)
    assert len(poker) == 5 or (
        6 <= len(poker) <= 8
        and (len({c.suit for c in poker}) == 1 or _is_straight([c.rank for c in poker]))
    )
    assert int(ex["deadwood_points"]) == sum(_value(c) for c in dead)
    assert int(ex["score"]) == int(ex["hand_points"]) - int(ex["deadwood_points"])
    assert int(ex["knock_count"]) <= int(ex["deadwood_points"])
    if "category" in ex:
        assert HAND_POINTS[ex["category"]] == int(ex["hand_points"])
    if "can_knock" in ex:
        assert _bool(ex["can_knock"]) == (int(ex["knock_count"]) <= 11)


@pytest.mark.parametrize("ex", DK_EXAMPLES, ids=_dk_id)
def test_dk_example_matches_engine(ex: dict[str, str]) -> None:
    from deadwood_knock.games.deadwood_knock.hand import evaluate

    result = evaluate(_cards(ex["hand"]))
    assert _same(result.poker_hand, _cards(ex["poker_hand"]))
    assert _same(result.deadwood, _cards(ex["deadwood"]))
    assert result.hand_points == int(ex["hand_points"])
    assert result.deadwood_points == int(ex["deadwood_points"])
    assert result.score == int(ex["score"])
    assert result.knock_count == int(ex["knock_count"])
    assert result.can_knock == (int(ex["knock_count"]) <= 11)
    if "category" in ex:
        assert result.category == ex["category"]


# -- Knock Rummy examples ------------------------------------------------------


def _melds(text: str) -> list[tuple[Card, ...]]:
    return [parse_cards(group) for group in text.split("|") if group.strip()]


def _is_meld(meld: tuple[Card, ...], high_aces: bool) -> bool:
    if len(meld) < 3:
        return False
    if len({c.rank for c in meld}) == 1:
        return len(meld) <= 4
    if len({c.suit for c in meld}) != 1:
        return False
    ranks = [c.rank for c in meld]
    if high_aces:
        return _is_straight(ranks)
    return len(set(ranks)) == len(ranks) and max(ranks) - min(ranks) == len(ranks) - 1


@pytest.mark.parametrize("ex", KR_EXAMPLES, ids=_kr_id)
def test_kr_example_is_self_consistent(ex: dict[str, str]) -> None:
    assert ex.keys() == KR_REQUIRED
    hand = _cards(ex["hand"])
    melds = _melds(ex["melds"])
    dead = _cards(ex["deadwood"])
    high_aces = _bool(ex["high_aces"])
    assert 6 <= len(hand) <= 11
    assert _same([c for m in melds for c in m] + list(dead), hand)
    assert all(_is_meld(m, high_aces) for m in melds)
    assert int(ex["deadwood_points"]) == sum(_value(c) for c in dead)
    assert _bool(ex["rummy"]) == (not dead)


@pytest.mark.parametrize("ex", KR_EXAMPLES, ids=_kr_id)
def test_kr_example_matches_engine(ex: dict[str, str]) -> None:
    from deadwood_knock.games.knock_rummy.melds import arrange

    result = arrange(_cards(ex["hand"]), high_aces=_bool(ex["high_aces"]))
    assert result.deadwood_points == int(ex["deadwood_points"])
    assert _same(result.deadwood, _cards(ex["deadwood"]))
    # Each documented example has exactly one best arrangement, so the melds must match too.
    want = Counter(frozenset(int(c) for c in m) for m in _melds(ex["melds"]))
    got = Counter(frozenset(int(c) for c in m) for m in result.melds)
    assert got == want
    assert result.rummy == _bool(ex["rummy"])
