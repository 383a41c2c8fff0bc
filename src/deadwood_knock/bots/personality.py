"""Greedy and personality bots: heuristic players with parameters a person can feel.

A personality is a :class:`PersonalityParams` (the content schema's figure fields:
``knock_threshold``, ``call_rate``, ``fold_discipline``, ``chase``, ``palm_rate``,
``discard_reading``, plus the figure's ladder ``difficulty``). The difficulty sets skill
that a person does not tune directly: how often the player blunders, how many unseen
cards it weighs before drawing, how far it looks past the next card.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from deadwood_knock.bots.base import A, Budget, O
from deadwood_knock.bots.dk import (
    CATEGORY_STRENGTH,
    DrawChoice,
    call_strength,
    draw_values,
    hand_value,
    knock_outlook,
    pot_outlook,
    potential,
    safe_value,
    sample_cards,
)
from deadwood_knock.bots.kr import (
    best_after_draw,
    count,
    discard_card,
    options_of,
    source_of,
)
from deadwood_knock.bots.kr import knock_outlook as kr_knock_outlook
from deadwood_knock.bots.view import TableView, first_lap, view_of, without
from deadwood_knock.cards import Card
from deadwood_knock.games import facts
from deadwood_knock.games.base import Action, Game, GameError
from deadwood_knock.games.deadwood_knock.hand import KNOCK_LIMIT
from deadwood_knock.games.points import card_value

__all__ = [
    "CHASES",
    "LADDER",
    "PERSONALITIES",
    "GreedyBot",
    "PersonalityBot",
    "PersonalityParams",
    "personality_bot",
]

CHASES = ("pairs", "sets", "flush", "straight", "low_deadwood", "balanced")
LADDER = ("tenderfoot", "greenhorn", "regular", "sharp", "high_roller", "legend")
#: A knock threshold this low or lower means full patience (see PersonalityParams).
PATIENT_THRESHOLD = 5
#: How far patience shades the knock: an eager player (patience 0) knocks while waiting
#: still looks this many points better; a patient one (1) waits until knocking is this
#: many points ahead. It fades over the last few turns of the stock.
KNOCK_SHADE = 10.0
#: Knock Rummy and Gin: the hand's knock timing is set mostly by the knock threshold (the
#: count it waits for); patience only shades knocks the outlook finds close.
RUMMY_KNOCK_SHADE = 3.0
#: Deadwood Knock, while another player has yet to take a turn this round: a knock must
#: look this many points ahead whatever the patience, priced on at least this many deals.
#: An eager character otherwise knocked on the outlook's noise, and at a new player's
#: first table three rounds in ten ended before the player had moved (bench/first_turn.py).
FIRST_LAP_MARGIN = 5.0
FIRST_LAP_SAMPLES = 24
#: Nerve sets the hand points it expects a rival to call with: 15 (a pair) for a timid
#: player, up to 40 (three of a kind) for a bold one, who knocks into more pots.
TIMID_CALL_POINTS, BOLD_CALL_POINTS = 15, 40
#: Deals of the unseen cards a pot-pricing player (high roller, legend) weighs.
POT_SAMPLES = 24
#: A hand this strong (a full house or better) is called by every player, however timid:
#: folding one to a knock is no style, only a blunder a player at the table would notice
#: (a greenhorn folded a straight flush once another seat had called).
SURE_CALL = CATEGORY_STRENGTH["full_house"]


@dataclass(frozen=True, slots=True)
class Skill:
    blunder: float  # chance of a careless draw or discard
    sample: int  # unseen cards weighed when valuing a stock draw
    foresight: float  # weight of the hand's promise (draws) against its score now
    odds: bool = False  # prices a pot by dealing out the rivals' hands, or goes by feel
    # Knock Rummy and Gin have their own careless-play rate: an early knock is worth so
    # much there that the eager low rungs would otherwise play level with the legend
    # (docs/bots.md, "The ladder").
    rummy_blunder: float = 0.0


SKILLS: dict[str, Skill] = {
    "tenderfoot": Skill(0.30, 4, 0.2, rummy_blunder=0.52),
    "greenhorn": Skill(0.15, 6, 0.4, rummy_blunder=0.42),
    "regular": Skill(0.07, 10, 0.6, rummy_blunder=0.31),
    "sharp": Skill(0.03, 14, 0.8, rummy_blunder=0.195),
    "high_roller": Skill(0.01, 18, 0.9, odds=True, rummy_blunder=0.07),
    "legend": Skill(0.0, 24, 1.0, odds=True),
}


@dataclass(frozen=True, slots=True)
class PersonalityParams:
    """A figure's playing style; ranges match the content schema."""

    knock_threshold: int = 8
    call_rate: float = 0.5
    fold_discipline: float = 0.5
    chase: str = "balanced"
    palm_rate: float = 0.2
    discard_reading: float = 0.5
    difficulty: str = "regular"
    #: How long it waits for a better hand before knocking (0 eager .. 1 patient) and how
    #: boldly it knocks into a pot (0 timid .. 1 bold). Left out, they follow the figure's
    #: other fields: patience from ``knock_threshold`` (11 → 0, 5 or less → 1), nerve from
    #: ``call_rate``; so a figure written as an early knocker plays as one.
    patience: float | None = None
    nerve: float | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.knock_threshold <= KNOCK_LIMIT:
            raise GameError(f"knock_threshold must be 0..{KNOCK_LIMIT}, got {self.knock_threshold}")
        if self.patience is None:
            eager = (self.knock_threshold - PATIENT_THRESHOLD) / (KNOCK_LIMIT - PATIENT_THRESHOLD)
            object.__setattr__(self, "patience", round(min(1.0, max(0.0, 1.0 - eager)), 3))
        if self.nerve is None:
            object.__setattr__(self, "nerve", self.call_rate)
        for name in ("call_rate", "fold_discipline", "palm_rate", "discard_reading"):
            v = getattr(self, name)
            if not 0.0 <= v <= 1.0:
                raise GameError(f"{name} must be between 0 and 1, got {v}")
        for name in ("patience", "nerve"):
            v = getattr(self, name)
            if not isinstance(v, (int, float)) or not 0.0 <= v <= 1.0:
                raise GameError(f"{name} must be between 0 and 1, got {v}")
        if self.chase not in CHASES:
            raise GameError(f"chase must be one of {', '.join(CHASES)}, got {self.chase!r}")
        if self.difficulty not in SKILLS:
            raise GameError(f"difficulty must be one of {', '.join(LADDER)}")

    @classmethod
    def from_any(cls, obj: object, difficulty: str | None = None) -> PersonalityParams:
        """From a mapping or any object with the fields (e.g. the content schema's model).

        Enum values (``chase``, ``difficulty``) are read through their ``value``.
        """
        values: dict[str, Any] = {}
        for f in fields(cls):
            raw = obj.get(f.name) if isinstance(obj, Mapping) else getattr(obj, f.name, None)
            if raw is not None:
                values[f.name] = getattr(raw, "value", raw)
        if difficulty is not None:
            values["difficulty"] = difficulty
        try:
            return cls(**values)
        except TypeError as exc:
            raise GameError(f"bad personality: {exc}") from exc

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def _kind(action: Action) -> str:
    return action.kind


class PersonalityBot:
    """A heuristic player shaped by :class:`PersonalityParams`."""

    def __init__(self, params: PersonalityParams, name: str = "personality") -> None:
        self.params = params
        self.skill = SKILLS[params.difficulty]
        self.name = name

    def act(
        self,
        game: Game[Any, A, O],
        observation: O,
        legal: Sequence[A],
        rng: random.Random,
        budget: Budget | None = None,
    ) -> A:
        if len(legal) == 1:
            return legal[0]
        view = view_of(observation, game.name)
        if game.facts.poker_split:
            return self._dk(view, legal, rng)
        return self._kr(view, legal, rng)

    # --- Deadwood Knock ------------------------------------------------------------------

    def _dk(self, view: TableView, legal: Sequence[A], rng: random.Random) -> A:
        p = self.params
        kinds = {_kind(a) for a in legal}
        if "reveal" in kinds:
            return legal[0]  # the scoring split comes first
        if "call" in kinds or "fold" in kinds:
            return self._call_or_fold(view, legal, rng)
        now = hand_value(view.hand)
        final = "stand" in kinds
        draws = [a for a in legal if _kind(a) == "draw"]
        may_knock = "knock" in kinds and now.knock_count <= p.knock_threshold
        if draws and rng.random() < self.skill.blunder:
            plain = [a for a in draws if getattr(a, "source", None) != "palm"] or draws
            careless = rng.choice(plain)
            if not may_knock:
                return careless
        else:
            careless = None
        weight = 0.0 if final else self.skill.foresight * 0.8

        def value(cards: Sequence[Card]) -> float:
            base = safe_value(cards)
            return base + weight * potential(cards, p.chase) if weight else base

        unseen = view.unseen(p.discard_reading)
        sample = sample_cards(unseen, self.skill.sample, rng)
        choices = draw_values(view.hand, draws, view.top, view.buried, sample, value)
        palm_ok = rng.random() < p.palm_rate
        best: DrawChoice[A] | None = None
        best_v = float("-inf")
        feed = _dk_feed_risk(view)
        for ch in choices:
            v = ch.value - p.discard_reading * feed(ch.select)
            if ch.source == "palm":
                if not palm_ok:
                    continue
                # A bold palmer shrugs off the Suspicion risk and enjoys the move itself.
                v += 6.0 * p.palm_rate - 3.0
            if v > best_v:
                best, best_v = ch, v
        if final and (best is None or best_v <= now.score):
            return next(a for a in legal if _kind(a) == "stand")
        if best is None:
            return careless or rng.choice(list(legal))
        if may_knock and self.knock_edge(view, best, rng) >= self.knock_margin(view):
            return next(a for a in legal if _kind(a) == "knock")
        return careless or best.action

    def knock_edge(self, view: TableView, draw: DrawChoice[A], rng: random.Random) -> float:
        """Knocking now against playing ``draw`` and knocking next turn, in points."""
        p = self.params
        assert p.nerve is not None
        line = TIMID_CALL_POINTS + (BOLD_CALL_POINTS - TIMID_CALL_POINTS) * p.nerve
        kept = without(view.hand, draw.select)
        samples = max(6, self.skill.sample // 2)
        if first_lap(view.turns, view.seat):
            samples = max(samples, FIRST_LAP_SAMPLES)
        return knock_outlook(view, rng, samples, (kept, draw.taken), round(line)).edge

    def knock_margin(self, view: TableView) -> float:
        """How far ahead knocking must look: patience shades it, fading near the stock's end."""
        assert self.params.patience is not None
        turns_left = view.stock_size / max(1, view.players)
        poker = facts(view.game).poker_split
        shade = KNOCK_SHADE if poker else RUMMY_KNOCK_SHADE
        margin = shade * (2.0 * self.params.patience - 1.0) * min(1.0, turns_left / 3.0)
        if poker and first_lap(view.turns, view.seat):
            return max(margin, FIRST_LAP_MARGIN)
        return margin

    def _call_or_fold(self, view: TableView, legal: Sequence[A], rng: random.Random) -> A:
        p = self.params
        q = call_strength(hand_value(view.hand))
        if self.skill.odds:
            # A skilled player prices the pot: the chance its poker hand beats the hands
            # already in, dealt from the cards it has not seen; call_rate shades the line.
            win = pot_outlook(view, rng, POT_SAMPLES).chance
            ins = 1 + sum(1 for a in view.raw.get("calls") or () if a == "call")
            fair = 1.0 / (ins + 1)
            line = fair * (1.4 - 0.8 * p.call_rate) * (0.8 + 0.4 * p.fold_discipline)
            want = "call" if win >= line else "fold"
            return next((a for a in legal if _kind(a) == want), legal[0])
        if q >= SURE_CALL:
            return next((a for a in legal if _kind(a) == "call"), legal[0])
        callers = sum(1 for e in view.raw.get("events") or () if e.get("type") == "call")
        if q >= 0.6:
            chance = max(p.call_rate, 0.9)
        elif q >= 0.4:
            chance = p.call_rate
        else:
            chance = p.call_rate * (1.0 - p.fold_discipline)
        chance *= (1.0 - 0.3 * p.fold_discipline) ** callers  # more callers, tougher pot
        want = "call" if rng.random() < chance else "fold"
        return next((a for a in legal if _kind(a) == want), legal[0])

    # --- Knock Rummy and Gin -------------------------------------------------------------

    def _kr(self, view: TableView, legal: Sequence[A], rng: random.Random) -> A:
        p = self.params
        high_aces, _limit, _gin = options_of(view.raw)
        kinds = {_kind(a) for a in legal}
        if "rummy" in kinds:
            return next(a for a in legal if _kind(a) == "rummy")
        if "draw" in kinds:
            return self._kr_draw(view, legal, rng, high_aces)
        throws = [a for a in legal if _kind(a) in ("discard", "knock")]
        if not throws:
            return legal[0]
        if rng.random() < self.skill.rummy_blunder:
            plain = [a for a in throws if _kind(a) == "discard"] or throws
            return rng.choice(plain)
        feed = _kr_feed_risk(view)
        scored: dict[Card, float] = {}
        counts: dict[Card, int] = {}
        for a in throws:
            c = discard_card(a)
            if c is None or c in scored:
                continue
            rest = [x for x in view.hand if x != c]
            counts[c] = count(rest, high_aces)
            scored[c] = (
                -counts[c]
                + self.skill.foresight * _kr_potential(rest, p.chase)
                - p.discard_reading * feed(c)
                + 0.05 * card_value(c)
            )
        best_card = max(scored, key=lambda c: scored[c])
        knockable = [a for a in throws if _kind(a) == "knock"]
        if knockable:
            best_knock = min(knockable, key=lambda a: _count_of(counts, discard_card(a)))
            c = discard_card(best_knock)
            if (
                c is not None
                and _count_of(counts, c) <= p.knock_threshold
                and self.kr_knock_edge(view, c, best_card, rng) >= self.knock_margin(view)
            ):
                return best_knock
        return next(a for a in throws if _kind(a) == "discard" and discard_card(a) == best_card)

    def kr_knock_edge(
        self, view: TableView, knock_card: Card, wait_card: Card, rng: random.Random
    ) -> float:
        """Knocking with ``knock_card`` against throwing ``wait_card`` and playing on."""
        assert self.params.nerve is not None
        # A timid player expects the rivals to hold better hands (more of them the longer
        # they have played); a bold one takes them as dealt.
        played = max(view.turns) if view.turns else 0
        tries = 1 + round(2 * (1.0 - self.params.nerve)) + min(2, played // 3)
        knock_hand = [x for x in view.hand if x != knock_card]
        wait_hand = [x for x in view.hand if x != wait_card]
        samples = max(6, self.skill.sample // 2)
        return kr_knock_outlook(view, rng, samples, knock_hand, wait_hand, tries).edge

    def _kr_draw(
        self, view: TableView, legal: Sequence[A], rng: random.Random, high_aces: bool
    ) -> A:
        by_source = {source_of(a): a for a in legal if _kind(a) == "draw"}
        stock, discard = by_source.get("stock"), by_source.get("discard")
        if stock is None or discard is None or view.top is None:
            return stock or discard or legal[0]
        if rng.random() < self.skill.rummy_blunder:
            return rng.choice([stock, discard])
        with_top = best_after_draw(view.hand, view.top, high_aces, keep=True)
        sample = sample_cards(view.unseen(self.params.discard_reading), self.skill.sample, rng)
        if not sample:
            return discard
        from_stock = sum(best_after_draw(view.hand, x, high_aces, keep=False) for x in sample)
        # Taking the top discard shows the table what you collect; a reader weighs that.
        shown = 0.5 * self.params.discard_reading
        return discard if with_top + shown < from_stock / len(sample) else stock


def _count_of(counts: Mapping[Card, int], c: Card | None) -> int:
    return 99 if c is None else counts.get(c, 99)


def _dk_feed_risk(view: TableView) -> Callable[[Card], float]:
    """How much placing a card helps the next player, judged by what they took."""
    taken = view.picked[view.next_seat()] if view.picked else ()
    suits = [c // 13 for c in taken if c < 52]
    ranks = [c % 13 for c in taken if c < 52]

    def risk(c: Card) -> float:
        if c >= 52:
            return 0.0
        return 2.0 * suits.count(c // 13) + 3.0 * ranks.count(c % 13)

    return risk


def _kr_feed_risk(view: TableView) -> Callable[[Card], float]:
    """Cards that fit what the next player took from the pile are dangerous to throw."""
    taken = [c for c in (view.picked[view.next_seat()] if view.picked else ()) if c < 52]

    def risk(c: Card) -> float:
        r = 0.0
        for t in taken:
            if t % 13 == c % 13:
                r += 3.0
            elif t // 13 == c // 13 and abs(t % 13 - c % 13) <= 2:
                r += 2.0
        return r

    return risk


def _kr_potential(cards: Sequence[Card], chase: str) -> float:
    """Pairs and suited neighbours that a draw could turn into melds."""
    ranks = [0] * 13
    for c in cards:
        ranks[c % 13] += 1
    pairs = sum(1 for r in ranks if r == 2)
    suited = set(cards)
    near = sum(1 for c in cards if c % 13 < 12 and c + 1 in suited)
    gaps = sum(1 for c in cards if c % 13 < 11 and c + 2 in suited)
    if chase in ("pairs", "sets"):
        return 1.5 * pairs + 0.5 * (near + 0.5 * gaps)
    if chase in ("straight", "flush"):
        return 0.5 * pairs + 1.5 * (near + 0.5 * gaps)
    if chase == "low_deadwood":
        return 0.3 * (pairs + near)
    return pairs + near + 0.5 * gaps


class GreedyBot:
    """Takes the best immediate improvement of its own hand; knocks as soon as it may.

    Deadwood Knock: the draw with the best expected score now (a stock draw averaged over
    every unseen card), a knock whenever legal, a call with two pair or better.
    Knock Rummy and Gin: the discard top when it lowers the count at once, the discard
    that leaves the lowest count, a knock at 10 or less (where allowed), rummy at once.
    """

    name = "greedy"

    def act(
        self,
        game: Game[Any, A, O],
        observation: O,
        legal: Sequence[A],
        rng: random.Random,
        budget: Budget | None = None,
    ) -> A:
        if len(legal) == 1:
            return legal[0]
        view = view_of(observation, game.name)
        kinds = {_kind(a) for a in legal}
        if game.facts.poker_split:
            if "reveal" in kinds:
                return legal[0]
            if "call" in kinds:
                strong = hand_value(view.hand).hand_points >= 30
                want = "call" if strong else "fold"
                return next(a for a in legal if _kind(a) == want)
            if "knock" in kinds:
                return next(a for a in legal if _kind(a) == "knock")
            draws = [a for a in legal if _kind(a) == "draw"]
            choices = draw_values(
                view.hand, draws, view.top, view.buried, view.unseen(), safe_value
            )
            if "stand" in kinds and (
                not choices or choices[0].value <= hand_value(view.hand).score
            ):
                return next(a for a in legal if _kind(a) == "stand")
            return choices[0].action if choices else legal[0]
        high_aces, _limit, _gin = options_of(view.raw)
        if "rummy" in kinds:
            return next(a for a in legal if _kind(a) == "rummy")
        if "draw" in kinds:
            by_source = {source_of(a): a for a in legal if _kind(a) == "draw"}
            if "discard" in by_source and view.top is not None and "stock" in by_source:
                better = best_after_draw(view.hand, view.top, high_aces, keep=True)
                if better < count(view.hand, high_aces):
                    return by_source["discard"]
            return by_source.get("stock") or next(iter(by_source.values()))
        best: tuple[int, int] | None = None
        choice = legal[0]
        for a in legal:
            c = discard_card(a)
            if c is None:
                continue
            left = count([x for x in view.hand if x != c], high_aces)
            knock = _kind(a) == "knock"
            if knock and left > 10:
                continue
            key = (left, -card_value(c) - (100 if knock else 0))
            if best is None or key < best:
                best, choice = key, a
        return choice


def personality_bot(params: object, name: str | None = None) -> PersonalityBot:
    """A bot for any figure: ``params`` is a :class:`PersonalityParams`, a mapping or a model."""
    p = params if isinstance(params, PersonalityParams) else PersonalityParams.from_any(params)
    return PersonalityBot(p, name or f"personality:{p.difficulty}:{p.chase}")


#: Built-in personalities: the ladder from tenderfoot to legend, then a few styles.
#: Up the ladder the knock comes later (in Deadwood Knock a late knocker is the stronger,
#: which puts the high roller above the sharp); the legend stays as it is, the top.
PERSONALITIES: dict[str, PersonalityParams] = {
    "tenderfoot": PersonalityParams(11, 0.8, 0.1, "pairs", 0.5, 0.0, "tenderfoot"),
    "greenhorn": PersonalityParams(10, 0.65, 0.3, "flush", 0.35, 0.2, "greenhorn"),
    "regular": PersonalityParams(9, 0.6, 0.4, "balanced", 0.2, 0.5, "regular"),
    "sharp": PersonalityParams(8, 0.45, 0.7, "balanced", 0.15, 0.75, "sharp"),
    "high_roller": PersonalityParams(6, 0.75, 0.55, "balanced", 0.35, 0.8, "high_roller"),
    "legend": PersonalityParams(6, 0.5, 0.85, "balanced", 0.1, 1.0, "legend"),
    "flush-chaser": PersonalityParams(9, 0.6, 0.4, "flush", 0.2, 0.5, "regular"),
    "set-collector": PersonalityParams(8, 0.55, 0.5, "sets", 0.2, 0.5, "regular"),
    "straight-shooter": PersonalityParams(8, 0.5, 0.5, "straight", 0.1, 0.5, "regular"),
    "bean-counter": PersonalityParams(5, 0.4, 0.6, "low_deadwood", 0.1, 0.6, "regular"),
    "cautious": PersonalityParams(4, 0.25, 0.9, "low_deadwood", 0.0, 0.7, "sharp"),
    "gambler": PersonalityParams(11, 0.95, 0.05, "flush", 0.8, 0.3, "regular"),
}
