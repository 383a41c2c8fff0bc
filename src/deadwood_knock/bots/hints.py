"""Hand Focus: the strong bot's view of a person's seat, in plain words.

``hand_focus(game, observation, budget)`` ranks the seat's legal actions by the strong
bot's search, explains the best one ("Discard K♣: it cuts 10 deadwood and keeps you one
heart from a flush") and says whether knocking now is wise. The result is a frozen value
with ``to_json()``; it reads only the seat's observation, like every bot.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from deadwood_knock.bots.base import Budget
from deadwood_knock.bots.dk import deadwood_cards, hand_value, source_of
from deadwood_knock.bots.kr import count, discard_card, options_of
from deadwood_knock.bots.strong import ActionValue, StrongBot
from deadwood_knock.bots.view import TableView, view_of, without
from deadwood_knock.cards import Card
from deadwood_knock.games.base import Game
from deadwood_knock.games.deadwood_knock.hand import CATEGORY_WORDS, KNOCK_LIMIT

__all__ = ["Hint", "RankedAction", "hand_focus"]

DEFAULT_HINT_BUDGET = Budget(seconds=0.25, iterations=300)
_SUITS = ("spade", "heart", "diamond", "club")


@dataclass(frozen=True, slots=True)
class RankedAction:
    """One legal action, its search value (``None`` if not searched) and sample count."""

    action: dict[str, Any]
    value: float | None
    samples: int

    def to_json(self) -> dict[str, Any]:
        v = None if self.value is None or math.isinf(self.value) else round(self.value, 2)
        return {"action": self.action, "value": v, "samples": self.samples}


@dataclass(frozen=True, slots=True)
class Hint:
    """Ranked actions, the best explained, and knock advice."""

    game: str
    actions: tuple[RankedAction, ...]
    best: dict[str, Any] | None
    explanation: str
    knock_legal: bool
    knock_wise: bool | None
    knock_advice: str

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "best": self.best,
            "explanation": self.explanation,
            "knock": {
                "legal": self.knock_legal,
                "wise": self.knock_wise,
                "advice": self.knock_advice,
            },
            "actions": [a.to_json() for a in self.actions],
        }


def _kind(action: Any) -> str:
    return str(getattr(action, "kind", ""))


def hand_focus(
    game: Game[Any, Any],
    observation: Any,
    budget: Budget | None = None,
    seed: int = 0,
) -> Hint:
    """Rank the seat's legal actions and explain the best; see the module docstring."""
    view = view_of(observation, game.name)
    legal = [game.action_from_json(a) for a in view.raw.get("legal_actions") or ()]
    if not legal:
        return Hint(
            game.name,
            (),
            None,
            "Not your turn: watch the pile.",
            False,
            None,
            _idle_knock_advice(game.name, view),
        )
    rng = random.Random(seed)
    values = StrongBot().evaluate(game, observation, legal, rng, budget or DEFAULT_HINT_BUDGET)
    searched = {id(av.action) for av in values}
    ranked = [RankedAction(av.action.to_json(), av.value, av.samples) for av in values]
    ranked += [RankedAction(a.to_json(), None, 0) for a in legal if id(a) not in searched]
    best = values[0].action
    explanation = explain(game.name, view, best)
    knock_legal, wise, advice = _knock_advice(game.name, view, values)
    return Hint(game.name, tuple(ranked), best.to_json(), explanation, knock_legal, wise, advice)


# --- words -----------------------------------------------------------------------------------


def _draw_notes(cards: Sequence[Card], made: str = "high_card") -> list[str]:
    """What a hand is one card away from (draws it has already made are not news)."""
    notes: list[str] = []
    order = list(CATEGORY_WORDS)
    rank = order.index(made) if made in order else 0
    suited = [0, 0, 0, 0]
    ranks = set()
    for c in cards:
        if c < 52:
            suited[c // 13] += 1
            ranks.add(c % 13 + 1)
    for s, n in enumerate(suited):
        if n == 4 and rank < order.index("flush"):
            notes.append(f"keeps you one {_SUITS[s]} from a flush")
    if rank >= order.index("straight"):
        return notes
    present = [r in ranks for r in range(1, 14)] + [1 in ranks]
    for start in range(0, 11):
        window = present[start : start + 5]
        if sum(window) == 4:
            notes.append("keeps you one card from a straight")
            break
    return notes


def explain(game_name: str, view: TableView, action: Any) -> str:
    """The best action in plain words: what it changes in the hand and why."""
    if game_name == "deadwood-knock":
        return _explain_dk(view, action)
    return _explain_kr(view, action)


def _explain_dk(view: TableView, action: Any) -> str:
    kind = _kind(action)
    now = hand_value(view.hand)
    cat = CATEGORY_WORDS.get(now.category, now.category)
    if kind == "knock":
        return (
            f"Knock: your knock count is {now.knock_count} and {cat} scores {now.score}; "
            "ending the round now beats what another draw is likely to add."
        )
    if kind == "stand":
        return f"Stand: no card on offer improves {cat} (score {now.score})."
    if kind == "call":
        return f"Call: {cat} is likely to take the pot against the hands still in."
    if kind == "fold":
        return f"Fold: {cat} rarely wins this pot, and folding costs nothing."
    if kind == "reveal":
        return "Show the scoring split: it gives the most points."
    if kind != "draw":
        return "Best move by the search."
    select: Card = action.select
    src = source_of(action)
    rest = without(view.hand, select)
    parts = []
    if select in deadwood_cards(view.hand):
        parts.append(f"it cuts {min(select % 13 + 1, 10) if select < 52 else -2} deadwood")
    parts += _draw_notes(rest, now.category)
    if src in ("discard", "palm"):
        taken = view.top if src == "discard" else view.buried
        if taken is not None:
            after = hand_value([*rest, taken])
            verb = "Palm" if src == "palm" else "Take"
            what = CATEGORY_WORDS.get(after.category, after.category)
            head = f"{verb} {taken.pretty()} and discard {select.pretty()}"
            reason = f"your hand becomes {what}, score {now.score} → {after.score}"
            # What the hand is one card from is judged after the take, not before it.
            notes = _draw_notes([*rest, taken], after.category)
            return f"{head}: {reason}" + (f"; it {notes[0]}" if notes else "") + "."
    head = f"Discard {select.pretty()} and draw from the stock"
    if not parts:
        parts.append("it is the card your hand needs least")
    return f"{head}: " + " and ".join(parts[:2]) + "."


def _explain_kr(view: TableView, action: Any) -> str:
    high_aces, _limit, _gin = options_of(view.raw)
    kind = _kind(action)
    if kind == "rummy":
        return "Go rummy: every card is matched, so the hand ends and you collect the bonus."
    if kind == "draw":
        now = count(view.hand, high_aces)
        if source_of(action) == "discard" and view.top is not None:
            best = min(
                count([x for x in [*view.hand, view.top] if x != c], high_aces) for c in view.hand
            )
            return (
                f"Take {view.top.pretty()} from the discard pile: it fits your melds and can "
                f"bring your count from {now} to {best}."
            )
        top = view.top.pretty() if view.top else "the top discard"
        return f"Draw from the stock: {top} does not lower your count of {now}."
    c = discard_card(action)
    if c is None:
        return "Best move by the search."
    left = count([x for x in view.hand if x != c], high_aces)
    worth = min(c % 13 + 1, 10)
    if kind == "knock":
        return (
            f"Knock and discard {c.pretty()}: your count will be {left}, "
            "likely the lowest at the table."
        )
    return f"Discard {c.pretty()}: it is worth {worth} and your count goes to {left}."


def _knock_advice(
    game_name: str, view: TableView, values: Sequence[ActionValue]
) -> tuple[bool, bool | None, str]:
    knocks = [av for av in values if _kind(av.action) == "knock"]
    if not knocks:
        return False, None, _idle_knock_advice(game_name, view)
    best_knock = max(knocks, key=lambda av: av.value)
    others = [av for av in values if _kind(av.action) != "knock" and av.samples]
    if not others or not best_knock.samples:
        wise = _kind(values[0].action) == "knock"
    else:
        wise = best_knock.value >= max(av.value for av in others)
    if wise:
        return True, True, "Knocking now is wise: the search rates it above playing on."
    return True, False, "You may knock, but playing on is rated better."


def _idle_knock_advice(game_name: str, view: TableView) -> str:
    if game_name == "deadwood-knock":
        if not view.hand:
            return ""
        v = hand_value(view.hand)
        if v.knock_count <= KNOCK_LIMIT:
            return f"Your knock count is {v.knock_count}: you may knock at the start of a turn."
        return f"Your knock count is {v.knock_count}; knocking needs {KNOCK_LIMIT} or less."
    high_aces, limit, _gin = options_of(view.raw)
    n = count(view.hand, high_aces) if view.hand else 0
    if limit is not None:
        return f"Your count is {n}; a knock needs {limit} or less after the discard."
    return f"Your count is {n}; you may knock after drawing."
