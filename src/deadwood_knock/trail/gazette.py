"""The Gazette: news items written from the player's real events.

Each story picks one of the content's templates for its event. The pick is the
item's sequence number modulo the number of templates, so the paper varies its
wording without any randomness and a replayed history reads the same.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from deadwood_knock.content.loader import Content
from deadwood_knock.content.schema import GazetteEvent

__all__ = ["GazetteItem", "Story", "fill", "write_stories"]

_PLACEHOLDER = re.compile(r"\{([a-z_]*)\}")


@dataclass(frozen=True, slots=True)
class Story:
    """Something newsworthy, with the words to put in the template's placeholders."""

    event: GazetteEvent
    words: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class GazetteItem:
    seq: int
    event: str
    headline: str
    item: str
    match_id: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "event": self.event,
            "headline": self.headline,
            "item": self.item,
            "match_id": self.match_id,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GazetteItem:
        match_id = data.get("match_id")
        return cls(
            seq=int(data.get("seq", 0)),
            event=str(data.get("event", "")),
            headline=str(data.get("headline", "")),
            item=str(data.get("item", "")),
            match_id=None if match_id is None else str(match_id),
        )


def fill(template: str, words: Mapping[str, str]) -> str:
    """Put the words in; a placeholder with no word reads as a neutral phrase."""
    fallback = {"venue": "the card room", "opponent": "the locals", "player": "a stranger"}
    return _PLACEHOLDER.sub(lambda m: words.get(m[1], fallback.get(m[1], "")), template)


def write_stories(
    content: Content, stories: list[Story], first_seq: int, match_id: str | None
) -> tuple[GazetteItem, ...]:
    """Items for the stories, oldest first, numbered from ``first_seq``."""
    items = []
    for offset, story in enumerate(stories):
        seq = first_seq + offset
        templates = content.gazette_for(story.event)
        template = templates[seq % len(templates)]
        items.append(
            GazetteItem(
                seq=seq,
                event=story.event.value,
                # Period headlines are set in capitals, names included.
                headline=fill(template.headline, story.words).upper(),
                item=fill(template.item, story.words),
                match_id=match_id,
            )
        )
    return tuple(items)
