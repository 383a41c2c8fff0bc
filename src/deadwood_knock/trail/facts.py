"""What the trail needs to know about a finished match, read from the engine's events.

The trail never looks inside a game's state: it reads the public ``round_result``
events (hand points, categories, Suspicion per seat) and the public ``draw`` events
whose source is ``palm``, plus the server's final result (totals, winners, forfeit).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from deadwood_knock.games.base import Event

__all__ = ["MatchFacts", "RoundFacts", "facts_from_events"]


@dataclass(frozen=True, slots=True)
class RoundFacts:
    """One scored round, per seat."""

    hand_points: tuple[int, ...]
    categories: tuple[str, ...]
    suspicion: tuple[int, ...]
    palmed: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class MatchFacts:
    """A finished match from one seat's point of view.

    ``completed`` is False for a forfeit; then ``totals`` are the scores when it stopped.
    """

    seat: int
    completed: bool
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    rounds: tuple[RoundFacts, ...] = ()

    @property
    def score(self) -> int:
        return self.totals[self.seat] if self.seat < len(self.totals) else 0

    @property
    def won(self) -> bool:
        # DK10: equal totals share the win, and a shared win still wins the table.
        return self.completed and self.seat in self.winners


def _ints(value: Any) -> tuple[int, ...]:
    return tuple(int(v) for v in value) if isinstance(value, (list, tuple)) else ()


def facts_from_events(events: Iterable[Event], seat: int, result: Mapping[str, Any]) -> MatchFacts:
    """Facts for ``seat`` from every event of the match and the server's result JSON."""
    rounds: list[RoundFacts] = []
    palmed: set[int] = set()
    for event in events:
        if event.kind == "draw" and event.data.get("source") == "palm" and event.seat is not None:
            palmed.add(event.seat)
        elif event.kind == "round_result":
            data = event.data
            rounds.append(
                RoundFacts(
                    hand_points=_ints(data.get("hand_points", ())),
                    categories=tuple(str(c) for c in data.get("categories", ())),
                    suspicion=_ints(data.get("suspicion", ())),
                    palmed=frozenset(palmed),
                )
            )
            palmed = set()  # Sleight of Hand is once per player per round (DK9)
    return MatchFacts(
        seat=seat,
        completed=result.get("reason", "completed") == "completed",
        totals=_ints(result.get("scores", ())),
        winners=_ints(result.get("winners", ())),
        rounds=tuple(rounds),
    )
