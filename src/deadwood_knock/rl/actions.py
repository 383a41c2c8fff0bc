"""The fixed ``Discrete`` action encoding of each game, and its decoding to engine actions.

Every action a game can ever offer has one index, whatever the position, so a policy
network has a fixed output layer; the legal ones are flagged in ``action_mask``. The
tables are enumerated from the game's own action grammar (each action's JSON form, parsed
by the engine's ``action_from_json``): every card times every kind of action, never a
copy of a legality rule. Which of them is legal now is always the engine's answer
(the observation's ``legal_actions``).

Knock Rummy and Gin (159 actions):

======== =================================== ==========================
index    action                              JSON
======== =================================== ==========================
0, 1     draw from the stock, the pile       ``{"type": "draw", "source": ...}``
2..53    discard card ``i - 2``              ``{"type": "discard", "card": ...}``
54..105  knock, discarding card ``i - 54``   ``{"type": "knock", "discard": ...}``
106      rummy with no discard               ``{"type": "rummy", "discard": null}``
107..158 rummy, discarding card ``i - 107``  ``{"type": "rummy", "discard": ...}``
======== =================================== ==========================

Deadwood Knock (419 actions):

======== ============================================= =========================
index    action                                        JSON
======== ============================================= =========================
0..3     knock, stand, call, fold                      ``{"type": "knock"}`` ...
4..162   draw: discard ``select``, take from a source  ``{"type": "draw", ...}``
         (index ``4 + 3 * select + source``; sources
         stock, discard, palm; select 52 is "a joker")
163..418 reveal the poker hand made of the hand's
         cards at the set bits of ``i - 163`` (bit k
         is the k-th card of the observation's sorted
         hand; only with the ``manual_split`` option)
======== ============================================= =========================

A card index is :mod:`deadwood_knock.cards`' (``suit * 13 + rank - 1``, suits
``s h d c``). A reveal is the one action whose meaning depends on the hand, so
:meth:`ActionCodec.decode` and :meth:`ActionCodec.encode` take the seat's observation.

>>> codec = action_codec("gin")
>>> codec.size, codec.label(0), codec.label(2), codec.label(54 + 13)
(159, 'draw stock', 'discard As', 'knock Ah')
>>> action_codec("deadwood-knock").label(4 + 3 * 52 + 2)
'draw palm, discard JK'
"""

from __future__ import annotations

import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from deadwood_knock.cards import CARDS, DECK_52
from deadwood_knock.games import GAME_NAMES, facts, get_game
from deadwood_knock.games.base import GameError, JSONDict

__all__ = ["ActionCodec", "IllegalIndexError", "action_codec", "index_of"]

Mask = npt.NDArray[np.int8]


class IllegalIndexError(GameError):
    """An action index that is out of range or not legal for the observation."""


def index_of(index: Any) -> int:
    """An action as a whole number (an int, a numpy integer, a whole float), or
    :class:`IllegalIndexError` saying what it was instead."""
    try:
        i = int(index)
    except (TypeError, ValueError):
        raise IllegalIndexError(f"an action is an index, not {index!r}") from None
    if i != index:
        raise IllegalIndexError(f"an action is a whole number, not {index!r}")
    return i


def _kr_forms() -> list[JSONDict]:
    from deadwood_knock.games.knock_rummy.rules import Draw

    # The draw sources are the engine's own type (a Literal of the source names).
    sources = typing.get_args(typing.get_type_hints(Draw)["source"])
    cards = [str(c) for c in DECK_52]
    return [
        *({"type": "draw", "source": s} for s in sources),
        *({"type": "discard", "card": c} for c in cards),
        *({"type": "knock", "discard": c} for c in cards),
        {"type": "rummy", "discard": None},
        *({"type": "rummy", "discard": c} for c in cards),
    ]


def _dk_forms() -> list[JSONDict]:
    from deadwood_knock.games.deadwood_knock.rules import SOURCES

    # The two jokers are one select ("a joker from my hand"): 53 selects, not 54.
    selects = [str(c) for c in CARDS[:53]]
    return [
        *({"type": kind} for kind in ("knock", "stand", "call", "fold")),
        *({"type": "draw", "select": c, "source": s} for c in selects for s in SOURCES),
    ]


@dataclass(frozen=True, slots=True)
class ActionCodec:
    """One game's action encoding: ``size`` indices, the first ``len(fixed)`` of them
    fixed engine actions, then (Deadwood Knock) ``2 ** hand_size`` reveal slots."""

    game: str
    fixed: tuple[Any, ...]
    reveal_slots: int = 0
    _index: Mapping[Any, int] = field(default_factory=dict, repr=False, compare=False)
    # The index by identity of every action value the engine shares (hashing a
    # dataclass costs far more than an id); ``_shared`` keeps them, so no id is reused.
    _by_id: Mapping[int, int] = field(default_factory=dict, repr=False, compare=False)
    _shared: tuple[Any, ...] = field(default=(), repr=False, compare=False)

    @property
    def size(self) -> int:
        return len(self.fixed) + self.reveal_slots

    def encode(self, action: Any, observation: Any) -> int:
        """The index of an engine action (``observation``: the acting seat's)."""
        index = self._index.get(action)
        if index is not None:
            return index
        if self.reveal_slots and getattr(action, "kind", None) == "reveal":
            hand = list(observation.hand)
            bits = 0
            for card in action.poker_hand:
                bits |= 1 << hand.index(card)
            return len(self.fixed) + bits
        raise IllegalIndexError(f"{self.game}: no index for action {action!r}")

    def decode(self, index: int, observation: Any) -> Any:
        """The engine action of an index, for the seat of ``observation``; an index out
        of range raises :class:`IllegalIndexError` (legality is the engine's question)."""
        i = int(index)
        if 0 <= i < len(self.fixed):
            return self.fixed[i]
        bits = i - len(self.fixed)
        if 0 <= bits < self.reveal_slots:
            from deadwood_knock.games.deadwood_knock.rules import Reveal

            hand = observation.hand
            return Reveal(tuple(sorted(hand[k] for k in range(len(hand)) if bits >> k & 1)))
        raise IllegalIndexError(f"{self.game}: action index {i} is not in 0..{self.size - 1}")

    def mask(self, observation: Any) -> Mask:
        """1 at the index of each of the observation's legal actions, else 0."""
        out = np.zeros(self.size, dtype=np.int8)
        legal = observation.legal_actions
        if legal:
            out[self.legal_indices(observation)] = 1
        return out

    def legal_indices(self, observation: Any) -> list[int]:
        """The indices of the observation's legal actions, in the engine's order."""
        legal = observation.legal_actions
        try:
            return list(map(self._by_id.__getitem__, map(id, legal)))
        except KeyError:  # a value the engine does not share (a reveal, say)
            pass
        get = self._index.get
        out = []
        for action in legal:
            index = get(action)
            out.append(self.encode(action, observation) if index is None else index)
        return out

    def label(self, index: int) -> str:
        """A short text for an index (a reveal: its hand positions)."""
        i = int(index)
        if 0 <= i < len(self.fixed):
            data = self.fixed[i].to_json()
            kind = data.pop("type")
            if kind == "draw" and "select" in data:
                return f"draw {data['source']}, discard {data['select']}"
            parts = [str(v) for v in data.values() if v is not None]
            return " ".join([kind, *parts])
        bits = i - len(self.fixed)
        if 0 <= bits < self.reveal_slots:
            return "reveal positions " + ",".join(
                str(k) for k in range(bits.bit_length()) if bits >> k & 1
            )
        raise IllegalIndexError(f"{self.game}: action index {i} is not in 0..{self.size - 1}")

    def labels(self) -> Sequence[str]:
        return [self.label(i) for i in range(self.size)]


@cache
def action_codec(game_name: str) -> ActionCodec:
    """The encoding of ``deadwood-knock``, ``knock-rummy`` or ``gin`` (shared, immutable)."""
    if game_name not in GAME_NAMES:
        raise GameError(f"unknown game {game_name!r}; choose one of: {', '.join(GAME_NAMES)}")
    game = get_game(game_name)
    forms = _dk_forms() if facts(game_name).poker_split else _kr_forms()
    fixed = tuple(game.action_from_json(form) for form in forms)
    index = {action: i for i, action in enumerate(fixed)}
    if len(index) != len(fixed):
        raise GameError(f"{game_name}: two action forms parse to the same engine action")
    reveal_slots = 0
    if facts(game_name).poker_split:
        from deadwood_knock.games.deadwood_knock.rules import HAND_SIZE

        reveal_slots = 2**HAND_SIZE  # every subset of the hand's positions
    shared = (*fixed, *_shared_actions(game_name))
    by_id = {id(action): index[action] for action in shared if action in index}
    return ActionCodec(game_name, fixed, reveal_slots, index, by_id, shared)


def _shared_actions(game_name: str) -> list[Any]:
    """The action values the game's core hands out in every legal list (interned)."""
    if facts(game_name).poker_split:
        from deadwood_knock.games.deadwood_knock import core as dk

        return [
            *(
                getattr(dk, name)
                for name in ("KNOCK", "STAND", "CALL", "FOLD")
                if hasattr(dk, name)
            ),
            *(a for draws in getattr(dk, "DRAWS", {}).values() for a in draws),
        ]
    from deadwood_knock.games.knock_rummy import core as kr

    return [
        *(getattr(kr, name) for name in ("DRAW_STOCK", "DRAW_PILE", "RUMMY_NO_DISCARD")),
        *(a for name in ("DISCARDS", "KNOCKS", "RUMMIES") for a in getattr(kr, name)),
    ]
