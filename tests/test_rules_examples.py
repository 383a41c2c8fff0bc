"""The rules pages' example hands are the engine's own answers, entry by entry."""

from __future__ import annotations

import json
from pathlib import Path

from deadwood_knock.cards import parse_cards
from deadwood_knock.cli import _dk_hand
from deadwood_knock.games.deadwood_knock.hand import CATEGORIES

EXAMPLES = (
    Path(__file__).resolve().parents[1] / "src" / "deadwood_knock" / "web" / "app" / "examples.js"
)


def _examples() -> list[dict[str, object]]:
    text = EXAMPLES.read_text()
    body = text[text.index("[") : text.rindex("]") + 1]
    # The module is one JSON array (a trailing comma aside).
    loaded: list[dict[str, object]] = json.loads(body.replace(",\n]", "\n]"))
    return loaded


def test_every_example_is_what_the_evaluator_says() -> None:
    examples = _examples()
    categories = [e["category"] for e in examples]
    for example in examples:
        cards = " ".join(str(c) for c in example["cards"])  # type: ignore[attr-defined]
        want = _dk_hand(parse_cards(cards))
        assert {k: example[k] for k in want} == want, cards
    # One example of each hand, lowest to highest, so the page's points table is complete.
    assert categories[:10] == list(CATEGORIES)
