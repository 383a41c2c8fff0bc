"""The trail: pure progression over the content, a player's records and match results.

Nothing here does I/O except reading the packaged content. The server keeps the two
records as JSON on the player row (see :mod:`deadwood_knock.trail.progress`) and calls
:func:`apply_match` when a trail match or gunfight finishes.
"""

from __future__ import annotations

from deadwood_knock.trail.facts import MatchFacts, RoundFacts, facts_from_events
from deadwood_knock.trail.gazette import GazetteItem
from deadwood_knock.trail.progress import (
    BIG_HAND_POINTS,
    TRAIL_VERSION,
    WANTED_PREFIX,
    Entry,
    GunfighterRecord,
    Lifetime,
    MatchSummary,
    TrailProgress,
    TrailUpdate,
    apply_match,
    clear_announcements,
    current_table,
    entry_of,
    gunfight_aim,
    gunfight_won,
    milestone_count,
    poster_status,
    reconcile,
    restart,
    table_id_of,
    table_status,
    town_status,
)

__all__ = [
    "BIG_HAND_POINTS",
    "TRAIL_VERSION",
    "WANTED_PREFIX",
    "Entry",
    "GazetteItem",
    "GunfighterRecord",
    "Lifetime",
    "MatchFacts",
    "MatchSummary",
    "RoundFacts",
    "TrailProgress",
    "TrailUpdate",
    "apply_match",
    "clear_announcements",
    "current_table",
    "entry_of",
    "facts_from_events",
    "gunfight_aim",
    "gunfight_won",
    "milestone_count",
    "poster_status",
    "reconcile",
    "restart",
    "table_id_of",
    "table_status",
    "town_status",
]
