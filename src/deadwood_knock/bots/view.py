"""What a seat knows, read from its observation only: the bots' memory of the table.

A bot never gets the state. Everything here comes from ``observation.to_json()`` (the
keys every game shares) and the round's events visible to the seat, which is how an
attentive player remembers the table: which cards went into the discard pile and who
threw them, which cards each player took from it (and so still holds), what was palmed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from deadwood_knock.cards import CARDS, JOKERS, Card, parse_card
from deadwood_knock.games import facts
from deadwood_knock.games.base import Observation

__all__ = [
    "PileTurn",
    "TableView",
    "cards_of",
    "event_card",
    "first_lap",
    "pile_turns",
    "repeated_position",
    "view_of",
]


def cards_of(items: Iterable[object]) -> tuple[Card, ...]:
    """Cards from notation strings (or cards); a second ``JK`` is the second joker."""
    out: list[Card] = []
    for item in items:
        c = item if isinstance(item, Card) else parse_card(str(item))
        if c.is_joker and c in out:
            c = JOKERS[1]
        out.append(c)
    return tuple(out)


def event_card(value: object) -> Card | None:
    """The card an event field names, or None (absent, a list, or not a card): events
    carry cards as strings, and some fields hold lists or nothing."""
    if value is None or isinstance(value, (list, tuple, dict)):
        return None
    try:
        return cards_of([value])[0]
    except ValueError:
        return None


@dataclass(frozen=True, slots=True)
class TableView:
    """One seat's knowledge of the table, derived from its observation."""

    game: str
    seat: int
    players: int
    phase: str
    hand: tuple[Card, ...]
    discard_pile: tuple[Card, ...]
    stock_size: int
    hand_sizes: tuple[int, ...]
    known_cards: tuple[tuple[Card, ...], ...]
    out_of_play: tuple[Card, ...]
    picked: tuple[tuple[Card, ...], ...]
    thrown: tuple[tuple[Card, ...], ...]
    final_turn: bool
    round: int
    turn: int
    turns: tuple[int, ...]  # turns each seat has taken this round (draws and stands)
    raw: Mapping[str, Any]
    #: The round's knock came while another player had yet to take a turn (characters
    #: knock that early only with a strong hand: bots/personality.py FIRST_LAP_MARGIN).
    first_lap_knock: bool = False

    @property
    def top(self) -> Card | None:
        return self.discard_pile[-1] if self.discard_pile else None

    @property
    def buried(self) -> Card | None:
        """The card under the top discard (the one a palm would take)."""
        return self.discard_pile[-2] if len(self.discard_pile) >= 2 else None

    def unseen(self, reading: float = 1.0) -> tuple[Card, ...]:
        """Cards this seat has not seen: in other hands or in the stock.

        ``reading`` below 1 models a player who does not track the pile: it forgets the
        older discards (keeps only the most recent share of them) and what others took.
        """
        dk = facts(self.game).poker_split
        seen: list[Card] = [*self.hand, *self.out_of_play]
        pile = self.discard_pile
        if reading >= 1.0:
            seen.extend(pile)
            for s, known in enumerate(self.known_cards):
                if s != self.seat:
                    seen.extend(known)
            public = self.raw.get("public_stock")
            if public:
                seen.extend(cards_of(public))
        else:
            remembered = round(len(pile) * max(reading, 0.0))
            seen.extend(pile[len(pile) - remembered :] if remembered else ())
            if pile and not remembered:
                seen.append(pile[-1])  # the top card is in plain sight
        seen_set = set(seen)
        out = [c for c in CARDS[:52] if c not in seen_set]
        if dk:
            # Jokers are interchangeable and may be written alike: count them, not names.
            jokers = 2 - sum(1 for c in seen if c >= 52)
            free = [j for j in JOKERS if j not in seen_set] + list(JOKERS)
            out.extend(free[: max(0, jokers)])
        return tuple(out)

    def next_seat(self, offset: int = 1) -> int:
        return (self.seat + offset) % self.players


_ATTRS = (
    "game",
    "seat",
    "players",
    "to_act",
    "phase",
    "hand",
    "discard_pile",
    "stock_size",
    "hand_sizes",
    "known_cards",
    "covers",
    "knocker",
    "calls",
    "palmed",
    "reshuffled",
    "taken_discard",
    "turnovers",
    "public_stock",
    "final_turn",
    "round",
    "hand_number",
)


def _as_data(observation: Observation | Mapping[str, Any], game: str | None) -> dict[str, Any]:
    """The observation's fields as a dict; cards stay cards (so jokers keep their names)."""
    if isinstance(observation, Mapping):
        data = dict(observation)
    else:
        data = {k: getattr(observation, k) for k in _ATTRS if hasattr(observation, k)}
        if "round" not in data and "hand_number" in data:
            data["round"] = data["hand_number"]
        opts: Any = getattr(observation, "options", None)
        data["options"] = opts.to_json() if opts is not None and hasattr(opts, "to_json") else {}
        data["events"] = [e.to_json() for e in getattr(observation, "events", ())]
        data["legal_actions"] = [a.to_json() for a in getattr(observation, "legal_actions", ())]
    if game and not data.get("game"):
        data["game"] = game
    return data


def first_lap(turns: Sequence[int], seat: int) -> bool:
    """Another seat than ``seat`` has yet to take a turn this round (``turns`` counts each
    seat's draws and stands): a knock now ends the round before that player has moved."""
    return any(t == 0 for s, t in enumerate(turns) if s != seat)


def view_of(observation: Observation | Mapping[str, Any], game: str | None = None) -> TableView:
    """Read the seat's view from an observation object (or its JSON dict)."""
    data = _as_data(observation, game)
    players = int(data.get("players") or len(data.get("hand_sizes") or ()) or 2)
    seat = int(data.get("seat", 0))
    known_raw = data.get("known_cards") or [[] for _ in range(players)]
    known = tuple(cards_of(k) for k in known_raw)
    picked: list[list[Card]] = [[] for _ in range(players)]
    thrown: list[list[Card]] = [[] for _ in range(players)]
    out: list[Card] = []
    turn = 0
    turns = [0] * players
    first_lap_knock = False
    for event in data.get("events") or ():
        _read_event(event, seat, picked, thrown, out)
        if event.get("seat") == seat and event.get("type") in ("draw", "stand", "knock"):
            turn += 1
        who = event.get("seat")
        if event.get("type") == "knock" and isinstance(who, int):
            first_lap_knock = first_lap(turns, who)
        if isinstance(who, int) and 0 <= who < players and event.get("type") in ("draw", "stand"):
            turns[who] += 1
    for key in ("covers", "set_aside", "out_of_play"):
        if data.get(key):
            out.extend(cards_of(data[key]))
    return TableView(
        game=str(data.get("game", "")),
        seat=seat,
        players=players,
        phase=str(data.get("phase", "")),
        hand=cards_of(data.get("hand") or ()),
        discard_pile=cards_of(data.get("discard_pile") or ()),
        stock_size=int(data.get("stock_size") or 0),
        hand_sizes=tuple(int(x) for x in data.get("hand_sizes") or ()),
        known_cards=known,
        out_of_play=tuple(dict.fromkeys(out)),
        picked=tuple(tuple(p) for p in picked),
        thrown=tuple(tuple(t) for t in thrown),
        final_turn=bool(data.get("final_turn", False)),
        round=int(data.get("round") or 1),
        turn=turn,
        turns=tuple(turns),
        raw=data,
        first_lap_knock=first_lap_knock,
    )


def _read_event(
    event: Mapping[str, Any],
    me: int,
    picked: list[list[Card]],
    thrown: list[list[Card]],
    out: list[Card],
) -> None:
    """Remember who took and who threw which card, from the engines' events as they log
    them: ``draw`` from the ``discard`` pile or ``palm`` (``card``; a palm's ``cover`` is
    out of play), and the throws (``THROWS``: ``card``, or ``discard`` for Knock Rummy's
    knock and rummy)."""
    seat = event.get("seat")
    if not isinstance(seat, int) or not 0 <= seat < len(picked):
        return
    kind = event.get("type")
    if kind == "draw":
        if event.get("source") in ("discard", "palm"):
            c = event_card(event.get("card"))
            if c is not None:
                picked[seat].append(c)
        cover = event_card(event.get("cover"))
        if cover is not None:
            out.append(cover)
    elif kind in THROWS:
        c = event_card(event.get("card") or event.get("discard"))
        if c is not None:
            thrown[seat].append(c)


#: Events after which the discard pile is not followed, as the engines log them (their
#: ``Event`` kinds): Knock Rummy's turnover (KR7, ``turn_over``: the pile becomes the
#: stock). The pile is followed again from the next throw.
PILE_LOST: Final = frozenset({"turn_over"})
#: Deadwood Knock's rebuilt stock (DK7, ``reshuffle``): the cards under the top discard
#: become the stock, the top card stays the pile.
PILE_RESHUFFLED: Final = frozenset({"reshuffle"})
#: Events that put a card on the pile: a discard (``card``), and Knock Rummy's knock and
#: rummy (``discard``; Deadwood Knock's knock carries no card).
THROWS: Final = frozenset({"discard", "knock", "rummy"})


@dataclass(frozen=True, slots=True)
class PileTurn:
    """One turn of a seat as every seat saw it, the pile followed through it."""

    #: "stock", "discard" or "palm" (a draw), "stand", or "" (a throw with no draw seen).
    source: str
    #: The pile top as it drew or stood (None: the pile is not followed there).
    top: Card | None
    #: The card taken from the pile (a pile or palm draw), else None.
    taken: Card | None
    #: The card it threw after the draw (None: not yet, or none).
    threw: Card | None


def pile_turns(view: TableView) -> list[list[PileTurn]]:
    """Every seat's turns this round, oldest first: the one walk of the seat's events
    that follows the discard pile (the deal's upcard or flipped card starts it; see
    ``PILE_LOST`` and ``PILE_RESHUFFLED``). ``inference.evidence_of`` reads it."""
    n = view.players
    turns: list[list[PileTurn]] = [[] for _ in range(n)]
    pile: list[Card] = []
    for event in view.raw.get("events") or ():
        kind = str(event.get("type", ""))
        seat = event.get("seat")
        if kind == "deal":
            turns = [[] for _ in range(n)]
            starts = (event_card(event.get(key)) for key in ("flipped", "upcard"))
            pile = [c for c in starts if c is not None]
            continue
        if kind in PILE_LOST:
            pile = []
            continue
        if kind in PILE_RESHUFFLED:
            pile = pile[-1:]
            continue
        if not isinstance(seat, int) or not 0 <= seat < n:
            continue
        if kind in ("draw", "stand"):
            top = pile[-1] if pile else None
            source = str(event.get("source", "")) if kind == "draw" else "stand"
            taken = None
            if source in ("discard", "palm"):
                taken = event_card(event.get("card"))
                del pile[-2 if source == "palm" else -1 :]  # a palm sets the top aside too
            turns[seat].append(PileTurn(source, top, taken, None))
        elif kind in THROWS:
            c = event_card(event.get("card") or event.get("discard"))
            if c is None:
                continue
            pile.append(c)
            mine = turns[seat]
            if mine and mine[-1].threw is None and mine[-1].source != "stand":
                mine[-1] = replace(mine[-1], threw=c)
            else:
                mine.append(PileTurn("", None, None, c))
    return turns


#: Events that a position before them cannot repeat across, walking back from now: the
#: stock was rebuilt, the round was dealt, or a knock changed the phase (and a ``stand``
#: only follows a knock). A ``draw`` from the stock ends the walk too (the stock is
#: smaller now): ``repeated_position`` reads it with the other draws.
_NO_WAY_BACK: Final = frozenset({"deal", "reshuffle", "knock", "stand", "stock_out"})


def _one_joker(cards: Iterable[Card]) -> list[int]:
    """Cards in order, both jokers read alike (they are interchangeable, and an
    observation's JSON writes both as ``JK``)."""
    return [min(int(c), 52) for c in cards]


def repeated_position(view: TableView) -> bool:
    """Deadwood Knock: the seat is about to play a normal turn in a position it already
    played this round: the same hand and the same discard pile, card for card, with no
    card taken from the stock in between (so the stock, and the cards the others hold
    between them, are the same too). Nothing but the pile moved since: the round made no
    progress, and if everybody plays as before it never ends (DK7 ends it only on a dry
    stock). Read from the seat's own events, walking back from now and undoing each pile
    move; a stock draw, a reshuffle, a knock or the deal ends the walk."""
    if view.phase != "play" or view.raw.get("knocker") is not None:
        return False
    me = view.seat
    now_hand = sorted(_one_joker(view.hand))
    now_pile = _one_joker(view.discard_pile)
    hand = list(now_hand)
    pile = list(now_pile)
    for event in reversed(view.raw.get("events") or ()):
        kind = str(event.get("type", ""))
        seat = event.get("seat")
        if kind in _NO_WAY_BACK:
            return False
        if kind == "discard":
            c = event_card(event.get("card"))
            if c is None or not pile or pile[-1] != min(int(c), 52):
                return False  # not the pile as followed: read nothing into it
            pile.pop()
            if seat == me:
                hand.append(min(int(c), 52))
        elif kind == "draw":
            source = event.get("source")
            c = event_card(event.get("card"))
            if source not in ("discard", "palm") or c is None:
                return False  # a stock draw (or a draw not followed)
            taken = min(int(c), 52)
            pile.append(taken)
            if source == "palm":
                cover = event_card(event.get("cover"))
                if cover is None:
                    return False
                pile.append(min(int(cover), 52))
            if seat == me:
                if taken not in hand:
                    return False
                hand.remove(taken)
                # The start of one of this seat's earlier turns.
                if sorted(hand) == now_hand and pile == now_pile:
                    return True
    return False


def without(hand: Sequence[Card], select: Card) -> list[Card]:
    """The hand less one card; a joker select takes whichever joker the hand holds."""
    rest = list(hand)
    if select in rest:
        rest.remove(select)
    elif select >= 52:
        for j in JOKERS:
            if j in rest:
                rest.remove(j)
                break
    return rest


def with_card(cards: Sequence[Card], card: Card) -> list[Card]:
    """The cards plus one; a joker joins under whichever joker name is free (an
    observation's JSON writes both jokers alike)."""
    if card >= 52 and card in cards:
        card = next((j for j in JOKERS if j not in cards), card)
    return [*cards, card]


def suit_counts(cards: Sequence[Card]) -> list[int]:
    counts = [0, 0, 0, 0]
    for c in cards:
        if c < 52:
            counts[c // 13] += 1
    return counts
