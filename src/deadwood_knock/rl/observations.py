"""Observation tensors, built only from one seat's engine observation.

The tensor is a flat ``float32`` vector in blocks (the layout is
:attr:`ObservationEncoder.layout`: name, offset, size). Card blocks are one slot per card
(Deadwood Knock: 52 suited cards and two joker slots that hold a *count* of jokers, as
the two jokers are the same card); seat blocks are one slot per seat in table order
*starting with the viewer* (slot 0 is always "me", slot 1 the next seat to my left...).
Scalars are scaled into small ranges and clipped, so the space is bounded.

Nothing comes from the state: the encoder reads the fields of ``observe(state, seat)``
(hand, known cards, piles, counts, totals, phase, the observation's own evaluation of
the hand), so a tensor can show no more than the engine lets that seat see.

>>> from deadwood_knock.games import get_game
>>> game = get_game("gin")
>>> state = game.new_game(game.options_from_json({}), 7)
>>> enc = observation_encoder("gin", game.options_from_json({}))
>>> vec = enc.encode(game.observe(state, 1))
>>> vec.shape, vec.dtype, int(vec[enc.block("hand")].sum())
((433,), dtype('float32'), 10)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from deadwood_knock.games import facts

__all__ = ["Block", "ObservationEncoder", "observation_encoder"]

Vector = npt.NDArray[np.float32]

#: Match totals are divided by this (Knock Rummy and Gin: by the target) and clipped.
DK_SCORE_SCALE: Final = 100.0
TOTAL_CLIP: Final = 5.0


@dataclass(frozen=True, slots=True)
class Block:
    """A named run of the vector: ``size`` slots from ``offset``, each in [low, high]."""

    name: str
    offset: int
    size: int
    low: float = 0.0
    high: float = 1.0
    doc: str = ""


class ObservationEncoder:
    """Turns one seat's engine observation into the vector (see the module's doc)."""

    game: str
    players: int
    layout: tuple[Block, ...]
    size: int

    def __init__(self, game: str, players: int, blocks: Sequence[tuple[Any, ...]]) -> None:
        self.game = game
        self.players = players
        out: list[Block] = []
        offset = 0
        for spec in blocks:
            name, size, *rest = spec
            out.append(Block(name, offset, size, *rest))
            offset += size
        self.layout = tuple(out)
        self.size = offset
        self._at = {b.name: b.offset for b in out}

    def block(self, name: str) -> slice:
        """The slice of a named block (``KeyError`` for an unknown name)."""
        for b in self.layout:
            if b.name == name:
                return slice(b.offset, b.offset + b.size)
        raise KeyError(name)

    def bounds(self) -> tuple[Vector, Vector]:
        low = np.zeros(self.size, dtype=np.float32)
        high = np.ones(self.size, dtype=np.float32)
        for b in self.layout:
            low[b.offset : b.offset + b.size] = b.low
            high[b.offset : b.offset + b.size] = b.high
        return low, high

    def encode(self, observation: Any) -> Vector:
        raise NotImplementedError


def _clip(value: float, low: float, high: float) -> float:
    return low if value < low else high if value > high else value


def _card_blocks(width: int, *specs: tuple[str, int, str]) -> list[tuple[Any, ...]]:
    """Binary card blocks: (name, how many card planes, what they hold)."""
    return [(name, width * planes, 0.0, 1.0, doc) for name, planes, doc in specs]


def _table_blocks(phases: Sequence[str], players: int) -> list[tuple[Any, ...]]:
    """The one-hot phase and the seat to act and the dealer, by seat from the viewer."""
    return [
        ("phase", len(phases), 0.0, 1.0, ", ".join(phases)),
        ("to_act", players, 0.0, 1.0, "who acts, by seat from me"),
        ("dealer", players, 0.0, 1.0, "the dealer, by seat from me"),
    ]


class _KnockRummyEncoder(ObservationEncoder):
    def __init__(self, game: str, players: int) -> None:
        from deadwood_knock.games.knock_rummy.rules import PHASES

        self._phases = {p: i for i, p in enumerate(PHASES)}
        n = players
        super().__init__(
            game,
            players,
            [
                *_card_blocks(
                    52,
                    ("hand", 1, "my cards"),
                    ("melded", 1, "my cards in melds of the observation's arrangement"),
                    ("known", n - 1, "cards known to be in each other hand"),
                    ("discard_pile", 1, "every card in the discard pile"),
                    ("discard_top", 1, "the top of the discard pile"),
                    ("public_stock", 1, "the stock, once the pile was turned over"),
                    ("public_stock_top", 1, "its top card"),
                    ("taken_discard", 1, "the card I took from the pile this turn"),
                ),
                *_table_blocks(PHASES, n),
                ("hand_sizes", n, 0.0, 1.0, "cards held / 11, by seat from me"),
                ("stock_size", 1, 0.0, 1.0, "stock cards / 52"),
                ("turnovers", 1, 0.0, 1.0, "pile turn-overs this hand / 2"),
                ("count", 1, 0.0, 1.0, "my deadwood count / 100"),
                ("totals", n, -TOTAL_CLIP, TOTAL_CLIP, "game totals / target, from me"),
                ("options", 3, 0.0, 1.0, "high aces, a knock limit is set, the limit / 100"),
            ],
        )

    def encode(self, obs: Any) -> Vector:
        at = self._at
        n = self.players
        seat = obs.seat
        ones: list[int] = []
        o = at["hand"]
        ones.extend(o + c for c in obs.hand)
        o = at["melded"]
        for meld in obs.arrangement.melds:
            ones.extend(o + c for c in meld)
        o = at["known"]
        for s, cards in enumerate(obs.known_cards):
            if s != seat:
                base = o + 52 * ((s - seat) % n - 1)
                ones.extend(base + c for c in cards)
        pile = obs.discard_pile
        o = at["discard_pile"]
        ones.extend(o + c for c in pile)
        if pile:
            ones.append(at["discard_top"] + pile[-1])
        stock = obs.public_stock
        if stock:
            o = at["public_stock"]
            ones.extend(o + c for c in stock)
            ones.append(at["public_stock_top"] + stock[-1])
        if obs.taken_discard is not None:
            ones.append(at["taken_discard"] + obs.taken_discard)
        ones.append(at["phase"] + self._phases[obs.phase])
        if obs.to_act is not None:
            ones.append(at["to_act"] + (obs.to_act - seat) % n)
        ones.append(at["dealer"] + (obs.dealer - seat) % n)
        vec = np.zeros(self.size, dtype=np.float32)
        vec[ones] = 1.0
        for s, size in enumerate(obs.hand_sizes):
            vec[at["hand_sizes"] + (s - seat) % n] = size / 11.0
        vec[at["stock_size"]] = obs.stock_size / 52.0
        vec[at["turnovers"]] = obs.turnovers / 2.0
        vec[at["count"]] = min(obs.arrangement.deadwood_points / 100.0, 1.0)
        options = obs.options
        target = float(options.target)
        for s, total in enumerate(obs.totals):
            vec[at["totals"] + (s - seat) % n] = _clip(total / target, -TOTAL_CLIP, TOTAL_CLIP)
        o = at["options"]
        vec[o] = float(options.high_aces)
        if options.knock_limit is not None:
            vec[o + 1] = 1.0
            vec[o + 2] = min(options.knock_limit / 100.0, 1.0)
        return vec


class _DeadwoodKnockEncoder(ObservationEncoder):
    def __init__(self, game: str, players: int) -> None:
        from deadwood_knock.games.deadwood_knock.rules import PHASES

        self._phases = {p: i for i, p in enumerate(PHASES)}
        n = players
        super().__init__(
            game,
            players,
            [
                *_card_blocks(
                    54,
                    ("hand", 1, "my cards (slots 52, 53: one joker, two jokers)"),
                    ("poker_hand", 1, "the poker hand of my scoring split"),
                    ("known", n - 1, "cards known to be in each other hand"),
                    ("discard_pile", 1, "every card in the discard pile"),
                    ("discard_top", 1, "the top of the pile"),
                    ("discard_under", 1, "the card under the top (a palm takes it)"),
                    ("covers", 1, "palm covers set aside this round"),
                    ("reveals", n, "revealed poker hands, by seat from me"),
                ),
                *_table_blocks(PHASES, n),
                ("knocker", n, 0.0, 1.0, "the knocker, by seat from me"),
                ("called", n, 0.0, 1.0, "seats that called the pot"),
                ("folded", n, 0.0, 1.0, "seats that folded"),
                ("palmed", n, 0.0, 1.0, "seats that palmed this round"),
                ("flags", 3, 0.0, 1.0, "reshuffled, Sleight of Hand on, manual split on"),
                ("stock_size", 1, 0.0, 1.0, "stock cards / 54"),
                ("round", 1, 0.0, 1.0, "this round / rounds in the match"),
                ("evaluation", 3, -1.0, 2.0, "my knock count / 100, score / 100, can knock"),
                ("totals", n, -TOTAL_CLIP, TOTAL_CLIP, "match totals / 100, from me"),
            ],
        )

    @staticmethod
    def _slots(base: int, cards: Sequence[int], out: list[int]) -> None:
        jokers = 0
        for c in cards:
            if c < 52:
                out.append(base + c)
            else:
                jokers += 1
        if jokers:
            out.append(base + 52)
            if jokers > 1:
                out.append(base + 53)

    def encode(self, obs: Any) -> Vector:
        at = self._at
        n = self.players
        seat = obs.seat
        slots = self._slots
        ones: list[int] = []
        slots(at["hand"], obs.hand, ones)
        ev = obs.evaluation
        slots(at["poker_hand"], ev.poker_hand, ones)
        o = at["known"]
        for s, cards in enumerate(obs.known_cards):
            if s != seat:
                slots(o + 54 * ((s - seat) % n - 1), cards, ones)
        pile = obs.discard_pile
        slots(at["discard_pile"], pile, ones)
        if pile:
            slots(at["discard_top"], pile[-1:], ones)
        if len(pile) > 1:
            slots(at["discard_under"], pile[-2:-1], ones)
        slots(at["covers"], obs.covers, ones)
        o = at["reveals"]
        for s, cards in enumerate(obs.reveals):
            if cards:
                slots(o + 54 * ((s - seat) % n), cards, ones)
        ones.append(at["phase"] + self._phases[obs.phase])
        if obs.to_act is not None:
            ones.append(at["to_act"] + (obs.to_act - seat) % n)
        ones.append(at["dealer"] + (obs.dealer - seat) % n)
        if obs.knocker is not None:
            ones.append(at["knocker"] + (obs.knocker - seat) % n)
        for s, call in enumerate(obs.calls):
            if call == "call":
                ones.append(at["called"] + (s - seat) % n)
            elif call == "fold":
                ones.append(at["folded"] + (s - seat) % n)
        for s, palmed in enumerate(obs.palmed):
            if palmed:
                ones.append(at["palmed"] + (s - seat) % n)
        options = obs.options
        o = at["flags"]
        for k, flag in enumerate((obs.reshuffled, options.sleight_of_hand, options.manual_split)):
            if flag:
                ones.append(o + k)
        if ev.can_knock:
            ones.append(at["evaluation"] + 2)
        vec = np.zeros(self.size, dtype=np.float32)
        vec[ones] = 1.0
        vec[at["stock_size"]] = obs.stock_size / 54.0
        vec[at["round"]] = obs.round / options.rounds
        o = at["evaluation"]
        vec[o] = _clip(ev.knock_count / 100.0, -1.0, 2.0)
        vec[o + 1] = _clip(ev.score / 100.0, -1.0, 2.0)
        o = at["totals"]
        for s, total in enumerate(obs.totals):
            vec[o + (s - seat) % n] = _clip(total / DK_SCORE_SCALE, -TOTAL_CLIP, TOTAL_CLIP)
        return vec


def observation_encoder(game: str, options: Any) -> ObservationEncoder:
    """The encoder of a game with these (parsed) options; the size depends on players."""
    players = int(options.players)
    if facts(game).poker_split:  # an unknown name is a GameError here
        return _DeadwoodKnockEncoder(game, players)
    return _KnockRummyEncoder(game, players)
