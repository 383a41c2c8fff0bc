"""What a client is shown: a player's profile, and a seat's view of a match."""

from __future__ import annotations

from typing import Any

from deadwood_knock.persistence import Player


def profile(player: Player) -> dict[str, Any]:
    return {
        "player_id": player.id,
        "name": player.name,
        "likeness": player.likeness,
        "card_back": player.card_back,
        "large_print": player.large_print,
        "sleight_of_hand": player.sleight_of_hand,
        "email": player.email,
        "stats": player.stats or {},
        "progress": player.progress or {},
    }
