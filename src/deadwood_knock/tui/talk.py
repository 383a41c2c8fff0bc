"""Table talk for the terminal: the characters' own lines, at the moments the web table
voices them (``web/app/talk.js``).

A character seat says one line at each knock, and at one call, fold, palm or stand in two
(``EVERY``, as ``talk.js`` gates them, so a character's one line for a moment is not heard
at every such move), and one character greets the table at the first deal. When a round
(Deadwood Knock) or hand (Knock Rummy, Gin) is scored, its winner says a "win" line if it
is a character; if the person won, one character who lost says a "lose" line. A round in
which the table caught a palm (a seat got Suspicion) draws a "palm_caught" line from
another character instead. Lines come only from the content (``figures.json``
``table_talk``): a bot that is not a character says nothing.

Talk hears only public events, so it never tells what a seat holds. Who speaks is picked
from the seed, the round and the seats, and a seat's lines for a moment are said in turn
(from a start picked by the seed) at its turns to say it, so the same match always says
the same and no line comes twice before the seat's others. Who won is
read off the result the engine wrote; nothing here decides a rule.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from deadwood_knock.content import load_content
from deadwood_knock.content.schema import Figure
from deadwood_knock.games.base import Event
from deadwood_knock.trail.figure_bots import figure_id

__all__ = ["EVERY", "SITUATIONS", "Remark", "TableTalk"]

#: Each moment, and the content's situations that can voice it (the first with lines wins),
#: as ``talk.js`` maps them: a call or a palm may say a bluff line.
SITUATIONS: Mapping[str, tuple[str, ...]] = {
    "greet": ("greeting",),
    "knock": ("knock",),
    "call": ("call", "bluff"),
    "fold": ("fold",),
    "palm": ("palm", "bluff"),
    "stand": ("stand",),
    "win": ("win",),
    "lose": ("lose",),
    "caught": ("palm_caught",),
}

#: How often a seat voices a moment (one in N; a moment not named: every time), as
#: ``talk.js``'s ``EVERY`` (the web's take from the pile, 4, says nothing here).
EVERY: Mapping[str, int] = {"call": 2, "fold": 2, "stand": 2, "palm": 2}

#: Event kinds a seat's remark answers (a palm is a ``draw`` from the ``palm`` source).
_SEAT_MOMENTS: Mapping[str, str] = {
    "knock": "knock",
    "call": "call",
    "fold": "fold",
    "stand": "stand",
}


@dataclass(frozen=True, slots=True)
class Remark:
    """One line a character says: ``situation`` is the content's situation it came from."""

    seat: int
    moment: str
    situation: str
    text: str

    def line(self, names: Sequence[str]) -> str:
        """The log line: ``  King Fisher: “Even a king pays tax sometimes.”``."""
        return f"  {names[self.seat]}: “{self.text}”"


def _pick(count: int, *keys: object) -> int:
    """A steady index below ``count`` from the keys (the same keys, the same index)."""
    return zlib.crc32("/".join(map(str, keys)).encode()) % count


class TableTalk:
    """Listens to a table's events and hands back the remark each one draws, if any.

    ``characters`` holds each seat's character (``None``: the person, or a bot that is not
    a character); ``person`` is the person's seat.
    """

    def __init__(self, characters: Sequence[Figure | None], seed: int, person: int) -> None:
        self.characters = tuple(characters)
        self.seed = seed
        self.person = person
        self.round = 0  # the round or hand being played, from the deal events
        # How often each (seat, moment) has spoken: its lines are said in turn by its own
        # turns to speak, not by the round (two losers taking turns at your wins each said
        # one line at every turn of theirs when the round stepped the line).
        self._spoken: dict[tuple[int, str], int] = {}

    @classmethod
    def for_bots(cls, bots: Sequence[str | None], seed: int, person: int) -> TableTalk:
        """Talk for seats named by their registered bot names (``figure:<id>`` is a
        character; ``None`` or any other bot has no lines)."""
        figures = load_content().figure_by_id
        ids = [figure_id(name) if name is not None else None for name in bots]
        return cls([figures.get(i) if i is not None else None for i in ids], seed, person)

    def lines(self, seat: int, moment: str) -> tuple[str, list[str]] | None:
        """The seat's own lines for a moment, with the situation they come from."""
        figure = self.characters[seat] if 0 <= seat < len(self.characters) else None
        if figure is None or seat == self.person:
            return None
        for situation in SITUATIONS[moment]:
            said = [t.line for t in figure.table_talk if t.situation.value == situation]
            if said:
                return situation, said
        return None

    def _say(self, seat: int, moment: str) -> Remark | None:
        found = self.lines(seat, moment)
        if found is None:
            return None
        situation, said = found
        # A steady start for the seed, seat and moment, stepped on at each of the seat's
        # turns to say it: its lines for a moment come round in turn, none again before the
        # others. (A hash of the round gave King Fisher one win line of his three at 5 of
        # his 7 wins, seed 11.)
        spoken = self._spoken.get((seat, moment), 0)
        self._spoken[seat, moment] = spoken + 1
        text = said[(_pick(len(said), self.seed, seat, moment) + spoken) % len(said)]
        return Remark(seat, moment, situation, text)

    def hear(self, event: Event) -> Remark | None:
        """The remark an event draws. Only public events are heard."""
        if event.private_to is not None:
            return None
        data = event.data
        if event.kind == "deal":
            self.round = int(data.get("round", data.get("hand", self.round + 1)))
            return self._greeting() if self.round == 1 else None
        if event.kind in ("round_result", "hand_result"):
            return self._round_remark(data)
        if event.seat is None:
            return None
        moment = _SEAT_MOMENTS.get(event.kind)
        if event.kind == "draw" and data.get("source") == "palm":
            moment = "palm"
        if moment is None:
            return None
        every = EVERY.get(moment, 1)
        if every > 1 and _pick(every, self.seed, self.round, event.seat, moment, "voice"):
            return None
        return self._say(event.seat, moment)

    def _caught(self, result: Mapping[str, Any], winner: int | None) -> Remark | None:
        """A palm the table caught (Suspicion on a seat) is the round's talk: the winner, or
        else the next character with a line for it, calls it out (as ``talk.js``)."""
        marks = list(result.get("suspicion") or ())
        if not any(v < 0 for v in marks):
            return None
        order = sorted(range(len(self.characters)), key=lambda s: s != winner)
        for seat in order:
            if seat < len(marks) and marks[seat] < 0:
                continue
            if self.lines(seat, "caught"):
                return self._say(seat, "caught")
        return None

    def _greeting(self) -> Remark | None:
        """One character greets the table at the first deal."""
        seats = [s for s in range(len(self.characters)) if self.lines(s, "greet")]
        if not seats:
            return None
        return self._say(seats[_pick(len(seats), self.seed, "greet")], "greet")

    def _round_remark(self, result: Mapping[str, Any]) -> Remark | None:
        # Who won is the engine's fact (``RoundResult.winner``, ``HandResult.winner``).
        raw = result.get("winner")
        winner = None if raw is None else int(raw)
        number = int(result.get("round", result.get("hand", self.round)))
        caught = self._caught(result, winner)
        if caught is not None:
            return caught
        if winner is None:
            return None
        if winner != self.person:
            return self._say(winner, "win")
        seats = len(self.characters)
        losers = [
            s for s in ((self.person + i) % seats for i in range(1, seats)) if self.lines(s, "lose")
        ]
        potless = [s for s in losers if s not in (result.get("pot_winners") or ())]
        pool = potless or losers
        if not pool:
            return None
        return self._say(pool[_pick(len(pool), self.seed, number, "lose")], "lose")
