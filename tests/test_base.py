"""The engine API's shared JSON helpers for cards."""

from __future__ import annotations

import pytest

from deadwood_knock.cards import parse_cards
from deadwood_knock.games.base import GameError, PositionError, card_from_json, cards_from_json


def test_card_from_json_names_the_field() -> None:
    assert str(card_from_json("10h", "select")) == "Th"
    with pytest.raises(GameError, match="select must be a card string"):
        card_from_json(7, "select")
    with pytest.raises(GameError, match=r"^discard: bad card 'Zz'"):
        card_from_json("Zz", "discard")
    with pytest.raises(GameError, match="without jokers"):
        card_from_json("JK", "card", jokers=False)


def test_cards_from_json_errors_are_position_errors() -> None:
    assert cards_from_json("As Kd", "stock") == parse_cards("As Kd")
    assert cards_from_json(["As", "Kd"], "stock") == parse_cards("As Kd")
    with pytest.raises(PositionError, match="position needs 'hands'"):
        cards_from_json(None, "hands")
    with pytest.raises(PositionError, match="must be a list of cards"):
        cards_from_json({"As": 1}, "stock")
    with pytest.raises(PositionError, match="stock: bad card 'Xx'"):
        cards_from_json(["As", "Xx"], "stock")
    with pytest.raises(PositionError, match="without jokers"):
        cards_from_json(["JK"], "known", jokers=False)
