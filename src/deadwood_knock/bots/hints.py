"""Hand Focus: a seat's moves ranked by value, the best one explained in checked facts.

``hand_focus(game, observation, budget, seed)`` reads only the seat's observation and
returns a frozen :class:`Hint` (``to_json()`` for the web client; the terminal client
shows the same text):

* **Values in points.** The strong bot's playouts value each candidate move on the same
  sampled positions (no early culling, so every value rests on the same deals): in
  Deadwood Knock the seat's round score minus the other players' mean, in Knock Rummy
  and Gin the hand's score. Moves are ranked by value; each gets a confidence in plain
  words from the paired differences with the best (``confidence_words``).
* **Call or fold** comes from the chance of winning the pot: the knocker's and callers'
  hands are dealt from the cards the seat has not seen by the strong bot's inference
  model (what each player threw, let go past and took; the knocker's hand allowed its
  knock and is the best of ``POT_KNOCKER_TRIES`` such deals, of
  ``POT_FIRST_LAP_KNOCKER_TRIES`` for a knock made before everyone had moved: the
  calibrated choice; a caller holds a pair), and the engine settles each pot
  (``bots.dk.pot_outlook``).
* **Checked claims.** Every sentence is a :class:`Claim`: figures computed from the
  engine (the evaluator, the meld counter, the legal actions, the rules' constants),
  checked again (``Claim.holds``) before it is said; a claim that does not hold is left
  out. ``Hint.claims`` lists them with their figures so a test can check each one.
* **Knock advice only when a knock is legal**; otherwise no sentence mentions knocking.
* **Within its time.** A budget's seconds are the whole hint's: the search (or the pot's
  dealing) stops before a sample that would not fit with a reserve for the sentences
  after it (``AFTER_*_CPU``, ``bots.base.Deadline``); its iterations cap it as before.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from deadwood_knock.bots import search as search_module
from deadwood_knock.bots.base import A, Budget, Deadline, O
from deadwood_knock.bots.dk import PotOutlook, pot_outlook, source_of
from deadwood_knock.bots.inference import (
    POT_FIRST_LAP_KNOCKER_TRIES,
    POT_KNOCKER_TRIES,
    HiddenDealer,
)
from deadwood_knock.bots.kr import count, discard_card, options_of
from deadwood_knock.bots.search import SearchBot, keep_the_joker, throws_a_joker
from deadwood_knock.bots.strong import ActionValue
from deadwood_knock.bots.view import TableView, view_of, with_card, without
from deadwood_knock.cards import Card, parse_card
from deadwood_knock.games import facts as rule_facts
from deadwood_knock.games.base import Action, Game
from deadwood_knock.games.deadwood_knock.core import Draw as DkDraw
from deadwood_knock.games.points import deadwood_term, figure_text

if TYPE_CHECKING:
    from deadwood_knock.games.deadwood_knock.hand import HandEvaluation

__all__ = [
    "AFTER_POT_CPU",
    "AFTER_RUMMY_CPU",
    "AFTER_SEARCH_CPU",
    "AFTER_STAND_CPU",
    "DEFAULT_HINT_BUDGET",
    "POT_DEALS",
    "Claim",
    "Hint",
    "RankedAction",
    "action_words",
    "after_search_cpu",
    "confidence_words",
    "explain",
    "hand_focus",
    "pot_dealer",
    "sureness",
]

DEFAULT_HINT_BUDGET = Budget(seconds=0.25, iterations=300)
#: Deals of the unseen cards behind a call-or-fold chance.
POT_DEALS = 400
#: Paired z-scores where "too close to call" becomes "probably" and then "clearly".
PROBABLY_Z, CLEARLY_Z = 1.0, 2.0
#: A margin (points) below which a sure lead is only "by a hair": two moves that differ in
#: a few deals can be surely apart by 0.1 points, and "0.1 ahead (clearly best)" reads as
#: a contradiction to a player.
SLIGHT_MARGIN = 1.0


# --- values -----------------------------------------------------------------------------------


def signed_points(value: float) -> str:
    """A point figure for players, with its sign and a true minus sign: "+4.5", "−3.0"."""
    return f"{value:+.1f}".replace("-", "\N{MINUS SIGN}")


def split_sum(hand_points: int, deadwood: int) -> str:
    """Hand points less deadwood, in the words the showdown uses: "30 − 12 deadwood",
    "50 + 3 deadwood (jokers count −2)" (two jokers and an ace)."""
    return f"{hand_points} {deadwood_term(deadwood)}"


def deals_text(deals: int) -> str:
    """A count of deals: "1 deal", "300 deals" (a hint cut short by a busy machine can rest
    on one).

    >>> deals_text(1), deals_text(300)
    ('1 deal', '300 deals')
    """
    return f"{deals} deal" if deals == 1 else f"{deals} deals"


def share_words(share: float, deals: int) -> str:
    """How often, over ``deals`` deals, in words that stay true at the ends (a share that
    rounds to 100% but is not all of them is not "about 100%").

    >>> share_words(0.5, 400), share_words(1.0, 350), share_words(0.0, 100)
    ('in about 50% of 400 deals', 'in all 350 deals', 'in none of 100 deals')
    >>> share_words(0.998, 400), share_words(0.003, 400)
    ('in over 99% of 400 deals', 'in under 1% of 400 deals')
    >>> share_words(1.0, 1), share_words(0.0, 1)
    ('in the one deal', 'in none of 1 deal')
    """
    if share >= 1.0:
        return "in the one deal" if deals == 1 else f"in all {deals} deals"
    if share <= 0.0:
        return "in none of 1 deal" if deals == 1 else f"in none of {deals} deals"
    rounded = round(100 * share)
    if rounded >= 100:
        return f"in over 99% of {deals_text(deals)}"
    if rounded <= 0:
        return f"in under 1% of {deals_text(deals)}"
    return f"in about {share_percent(share)}% of {deals_text(deals)}"


def share_percent(share: float) -> int | None:
    """The percentage ``share_words`` says (a bound at the ends), or None for all or none.

    >>> share_percent(0.5), share_percent(0.998), share_percent(0.003), share_percent(1.0)
    (50, 99, 1, None)
    """
    if share >= 1.0 or share <= 0.0:
        return None
    return min(99, max(1, round(100 * share)))


@dataclass(frozen=True, slots=True)
class Claim:
    """One checked fact and the sentence that says it. ``facts`` are the figures the
    sentence states (JSON-ready); ``inputs`` name what it is about (a card, a move)."""

    kind: str
    inputs: Mapping[str, Any]
    facts: Mapping[str, Any]
    text: str

    def holds(self, view: TableView) -> bool:
        """Recompute the figures from the engine; the claim holds if they are the same."""
        measure = _FACTS.get(self.kind)
        if measure is None:
            return True  # figures from the search, restated from the ranking itself
        try:
            return dict(measure(view, self.inputs)) == dict(self.facts)
        except (ValueError, KeyError, IndexError):
            return False

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.inputs, **self.facts, "text": self.text}


@dataclass(frozen=True, slots=True)
class RankedAction:
    """One legal action: its value in points (``None``: not searched), the samples behind
    it, its margin to the best move and that margin's confidence in words."""

    action: dict[str, Any]
    value: float | None
    samples: int
    words: str = ""
    margin: float | None = None
    confidence: str = ""

    def to_json(self) -> dict[str, Any]:
        def num(v: float | None) -> float | None:
            # One decimal, as the words show it (one rounding of the exact value).
            return None if v is None or math.isinf(v) else round(v, 1)

        return {
            "action": self.action,
            "value": num(self.value),
            "samples": self.samples,
            "words": self.words,
            "margin": num(self.margin),
            "confidence": self.confidence,
        }


@dataclass(frozen=True, slots=True)
class Hint:
    """Ranked actions (by value, then the unsearched ones), the best explained, knock advice."""

    game: str
    actions: tuple[RankedAction, ...]
    best: dict[str, Any] | None
    explanation: str
    knock_legal: bool
    knock_wise: bool | None
    knock_advice: str
    claims: tuple[Claim, ...] = ()
    unit: str = ""
    pot: PotOutlook | None = None
    knock_claims: tuple[Claim, ...] = field(default=())

    def ranking_lines(self, top: int = 4) -> list[str]:
        """The ranked moves in words, best first: what both clients show."""
        lines = []
        valued = [(r, r.value) for r in self.actions if r.value is not None][:top]
        for i, (r, value) in enumerate(valued, 1):
            lines.append(f"{i}. {r.words}: {signed_points(value)} points ({r.confidence})")
        return lines

    def to_json(self) -> dict[str, Any]:
        pot = None
        if self.pot is not None:
            pot = {
                "chance": round(self.pot.chance, 4),
                "call": round(self.pot.call, 2),
                "fold": round(self.pot.fold, 2),
                "deals": self.pot.deals,
                "in_pot": self.pot.in_pot,
            }
        return {
            "game": self.game,
            "best": self.best,
            "explanation": self.explanation,
            "knock": {
                "legal": self.knock_legal,
                "wise": self.knock_wise,
                "advice": self.knock_advice,
                "claims": [c.to_json() for c in self.knock_claims],
            },
            "actions": [a.to_json() for a in self.actions],
            "ranking": self.ranking_lines(),
            "unit": self.unit,
            "claims": [c.to_json() for c in self.claims],
            "pot": pot,
        }


def _kind(action: Action) -> str:
    return action.kind


def sureness(diffs: Sequence[float]) -> str:
    """How sure the search is that one move beats another, from their paired per-sample
    differences (first minus second): ``clear``, ``likely`` or ``close`` by the z-score of
    the mean difference over its standard error; a lead that is at least likely but under
    :data:`SLIGHT_MARGIN` points is ``slight``.

    >>> sureness([3.0, 2.5, 3.5, 3.0]), sureness([0.2, 0.1, 0.2, 0.1]), sureness([9.0, -9.0])
    ('clear', 'slight', 'close')
    """
    n = len(diffs)
    if n < 2:
        return "close"
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    se = math.sqrt(var / n)
    z = (math.inf if mean > 0 else 0.0) if se == 0 else mean / se
    if z < PROBABLY_Z:
        return "close"
    # Judged on the figure the player reads (one decimal), so "1.0 ahead" is never a hair.
    if round(mean, 1) < SLIGHT_MARGIN:
        return "slight"
    return "clear" if z >= CLEARLY_Z else "likely"


#: Confidence in plain words, for the best move (against the next) and for the others
#: (against the best).
BEST_WORDS = {
    "clear": "clearly best",
    "likely": "probably best",
    "slight": "best by a hair",
    "close": "best, a close call",
}
OTHER_WORDS = {
    "clear": "clearly worse",
    "likely": "probably worse",
    "slight": "a hair worse",
    # Not "about as good": that claims the two are alike, and beside it a move of nearly the
    # same value, its own comparison steadier, read "clearly worse" (38.0 "about as good",
    # 37.8 "clearly worse", a Deadwood Knock hint over 36 deals). The search only failed to
    # tell them apart.
    "close": "too close to call",
}
VERDICT_WORDS = {
    "clear": "clearly",
    "likely": "probably",
    "slight": "by a hair",
    "close": "a close call",
}


def confidence_words(diffs: Sequence[float], best: bool) -> str:
    """Plain words for a move's confidence (see :func:`sureness`)."""
    return (BEST_WORDS if best else OTHER_WORDS)[sureness(diffs)]


# --- the hint ---------------------------------------------------------------------------------


def hand_focus(
    game: Game[Any, A, O],
    observation: O,
    budget: Budget | None = None,
    seed: int = 0,
    pot_deals: int = POT_DEALS,
    *,
    wall: Callable[[], float] = time.perf_counter,
    cpu: Callable[[], float] = time.process_time,
) -> Hint:
    """Rank the seat's legal actions by value and explain the best; see the module docstring.

    The budget's seconds are the whole hint's, from this call (``wall``, ``cpu``: the
    clocks, a test's own): the search, or the pot's dealing, stops before a sample (a
    chunk of deals) that would not fit in them with :func:`after_search_cpu`'s reserve
    for the sentences that follow. Its iterations cap the search as before; a budget
    without seconds gives the same hint as it always did."""
    started = wall()
    budget = budget or DEFAULT_HINT_BUDGET
    view = view_of(observation, game.name)
    legal = [game.action_from_json(a) for a in view.raw.get("legal_actions") or ()]
    unit = _unit(game.name)
    if not legal:
        return Hint(game.name, (), None, "Hints come on your turn.", False, None, "", unit=unit)
    rng = random.Random(seed)
    kinds = {_kind(a) for a in legal}
    pot = "call" in kinds and game.facts.poker_split
    stop = None
    if budget.seconds is not None:
        reserve = after_search_cpu(game.name, kinds)
        stop = Deadline(started + budget.seconds, reserve, wall, cpu)
    if pot:
        return _pot_hint(game.name, view, legal, rng, unit, pot_deals, stop)
    weighed: Sequence[A] = legal
    if game.facts.poker_split and not search_module.JOKER_KEEP and throws_a_joker(legal):
        # A joker discard is weighed only where it scores more after the draw than every
        # other discard with its source (``keep_the_joker``: the playouts overrate it),
        # whatever the bot's switch; with the switch on, ``SearchBot.evaluate`` does it
        # (here too, it read the hand and the unseen cards twice a hint).
        weighed = keep_the_joker(view, legal)
    values = SearchBot().evaluate(game, observation, weighed, rng, budget, cull=False, stop=stop)
    ranked, best = _rank(values, legal)
    claims = _checked(view, explain_claims(game.name, view, best))
    lead = _lead_claim(game.name, claims, values, best)
    if lead is not None:
        claims.append(lead)
    search = _search_claim(ranked, unit)
    if search is not None:
        claims.append(search)
    knock_legal = "knock" in kinds
    wise: bool | None = None
    advice = ""
    knock_claims: list[Claim] = []
    if knock_legal:
        wise, knock_claims = _knock_claims(game.name, view, values, ranked)
        advice = " ".join(c.text for c in knock_claims)
    return Hint(
        game.name,
        tuple(ranked),
        best.to_json(),
        " ".join(c.text for c in claims),
        knock_legal,
        wise,
        advice,
        tuple(claims),
        unit,
        None,
        tuple(knock_claims),
    )


#: CPU seconds Hand Focus keeps at the end of its time for the work after the search (or
#: the pot's deals), scaled by the share of a core the process had (``Deadline``): the
#: ranking, the sentences and their checks, the knock's verdict. Measured 2026-12-07
#: (``hand_focus`` at seat 0's decisions of seeded games, ``strong`` against ``legend``):
#: Deadwood Knock (160 games of 2-6 players) p95 4.0 ms (a stock draw's mean over the
#: unseen cards); where standing is legal and best, p50 14, p90 22, worst 28 ms (32
#: positions: the best blind draw over every discard, computed and checked); Knock Rummy
#: and Gin (6 games each) p95 1.3 and 1.1, worst 1.6 (a take's meld partners included); a
#: call or fold's p95 0.3, worst 0.4 after the deals (40 call positions of seed 31).
AFTER_SEARCH_CPU: Final = 0.004
AFTER_STAND_CPU: Final = 0.020
AFTER_RUMMY_CPU: Final = 0.0015
AFTER_POT_CPU: Final = 0.001


def after_search_cpu(game_name: str, kinds: set[str] | frozenset[str]) -> float:
    """The reserve (CPU seconds) for a hint at a position whose legal moves are ``kinds``."""
    if not rule_facts(game_name).poker_split:
        return AFTER_RUMMY_CPU
    if "call" in kinds:
        return AFTER_POT_CPU
    return AFTER_STAND_CPU if "stand" in kinds else AFTER_SEARCH_CPU


def _unit(game_name: str) -> str:
    """What a value means, in the words that follow the number ("+4.2 points ...")."""
    if rule_facts(game_name).poker_split:
        return "against the table"  # the round score minus the other players' mean
    return "this hand"


def _rank(values: Sequence[ActionValue[A]], legal: Sequence[A]) -> tuple[list[RankedAction], A]:
    """Searched actions by value (best first), each with its margin and confidence, then
    the legal actions the search did not weigh."""
    searched = [av for av in values if av.samples > 0]
    searched.sort(key=lambda av: -av.value)
    if not searched:  # one forced move: nothing to compare
        only = values[0].action if values else legal[0]
        ranked = [RankedAction(a.to_json(), None, 0, action_words(a.to_json())) for a in legal]
        return ranked, only
    top = searched[0]
    out: list[RankedAction] = []
    for i, av in enumerate(searched):
        if i == 0:
            other = searched[1] if len(searched) > 1 else None
            diffs = _diffs(top, other) if other is not None else []
            words = confidence_words(diffs, best=True) if other is not None else "the only move"
        else:
            words = confidence_words(_diffs(top, av), best=False)
        out.append(
            RankedAction(
                av.action.to_json(),
                av.value,
                av.samples,
                action_words(av.action.to_json()),
                av.value - top.value,
                words,
            )
        )
    done = {id(av.action) for av in searched}
    out += [
        RankedAction(a.to_json(), None, 0, action_words(a.to_json()))
        for a in legal
        if id(a) not in done
    ]
    return out, top.action


def _diffs(a: ActionValue[A], b: ActionValue[A]) -> list[float]:
    n = min(len(a.draws), len(b.draws))
    return [a.draws[k] - b.draws[k] for k in range(n)]


def _search_claim(ranked: Sequence[RankedAction], unit: str) -> Claim | None:
    valued = [r for r in ranked if r.value is not None]
    if not valued:
        return None
    best = valued[0]
    assert best.value is not None
    facts: dict[str, Any] = {
        "value": round(best.value, 1),
        "samples": best.samples,
        "confidence": best.confidence,
    }
    text = f"Search: {signed_points(best.value)} points {unit} over {deals_text(best.samples)}"
    if len(valued) > 1 and valued[1].value is not None:
        ahead = best.value - valued[1].value
        facts["ahead"] = round(ahead, 1)
        text += f", {ahead:.1f} ahead of the next move ({best.confidence})."
    else:
        text += "."
    return Claim("search", {}, facts, text)


def _lead_claim(
    game_name: str, claims: Sequence[Claim], values: Sequence[ActionValue[A]], best: A
) -> Claim | None:
    """What the search measured, where the best move's own figures show no gain over the
    moves it is set against: a stand whose sentence shows a draw raising the hand's score,
    a take whose facts show no gain (``take_shows_gain``; in Knock Rummy and Gin no meld,
    no partner, no lower count). The figure is the search's: the best move's value less
    the best of the others it is set against that it weighed (every draw for a stand, the
    stock draws for a take; with none weighed, the next move), and how sure the paired
    samples make it. The search weighs only its candidates (the best few by a cheap prior,
    ``SearchBot._candidates``), so the words say "it weighed", and say so when it weighed
    no stock draw. Before 2026-12-07 such a take was named with no why ("your hand stays a
    pair, score 3 → 3."), and such a stand read as if the draw were better."""
    facts_of = {c.kind: c.facts for c in claims}
    kind = _kind(best)
    dk = rule_facts(game_name).poker_split
    if kind == "stand":
        f = facts_of.get("dk_stand")
        if f is None or not stand_raisers(f):
            return None
    elif kind == "draw" and source_of(best) == "discard":
        f = facts_of.get("dk_take" if dk else "kr_take")
        if f is None:
            return None
        if dk:
            gain = take_shows_gain(f)
        else:
            gain = bool(f["meld"] is not None or f["partners"])
            gain = gain or f["count_after"] < f["count_before"]
        if gain:
            return None
    else:
        return None
    top = next((av for av in values if av.action is best and av.samples), None)
    others = [av for av in values if av.samples and av.action is not best]
    if top is None or not others:
        return None
    stock = [av for av in others if _kind(av.action) == "draw" and source_of(av.action) == "stock"]
    if kind == "stand":
        rivals = [av for av in others if _kind(av.action) == "draw"]
    else:
        rivals = stock or others
    if not rivals:
        return None
    other = max(rivals, key=lambda av: av.value)
    lead = round(top.value - other.value, 1)
    sure = sureness(_diffs(top, other))
    facts = {
        "lead": lead,
        "sureness": sure,
        "against": other.action.to_json(),
        "stock_weighed": bool(stock),
    }
    verdict = VERDICT_WORDS[sure]
    against = action_words(other.action.to_json())
    if kind == "stand":
        text = (
            "Standing is ranked first all the same: the search's values count the pot and the "
            f"other players' scores as well as your hand, and rate standing {lead:.1f} points "
            f"above the best draw it weighed ({against}), {verdict}."
        )
        if not stock:
            text += " It weighed no blind draw."
        return Claim("search_lead", {}, facts, text)
    if stock and not dk:
        rated = f"{lead:.1f} points above drawing from the stock"
    elif stock:
        rated = f"{lead:.1f} points above the best stock draw it weighed ({against})"
    else:
        rated = f"{lead:.1f} points above the next move it weighed ({against})"
    if dk:
        text = (
            "Your hand's figures show no gain; the search's values, which count the pot and "
            f"the other players' scores as well, rate this take {rated}, {verdict}."
        )
    else:
        text = f"Your count shows no gain; the search's playouts rate the take {rated}, {verdict}."
    if not stock:
        text += " It weighed no stock draw."
    return Claim("search_lead", {}, facts, text)


def _checked(view: TableView, claims: Sequence[Claim | None]) -> list[Claim]:
    """Only the claims that hold are said."""
    return [c for c in claims if c is not None and c.holds(view)]


def _knock_claims(
    game_name: str,
    view: TableView,
    values: Sequence[ActionValue[A]],
    ranked: Sequence[RankedAction],
) -> tuple[bool | None, list[Claim]]:
    """Whether knocking now is wise, in checked words (only called when a knock is legal)."""
    claims: list[Claim | None] = []
    if rule_facts(game_name).poker_split:
        claims.append(_dk_knock_count(view))
    knocks = [av for av in values if _kind(av.action) == "knock" and av.samples]
    others = [av for av in values if _kind(av.action) != "knock" and av.samples]
    wise: bool | None = None
    if knocks and others:
        k = max(knocks, key=lambda av: av.value)
        o = max(others, key=lambda av: av.value)
        wise = k.value >= o.value
        lead, trail = (k, o) if wise else (o, k)
        sure = sureness(_diffs(lead, trail))
        margin = round(abs(k.value - o.value), 1)
        if wise:
            text = f"Knock now: rated {margin:.1f} points above playing on"
        else:
            text = f"Not yet: playing on is rated {margin:.1f} points above knocking now"
        text += f" ({VERDICT_WORDS[sure]})."
        facts = {"wise": wise, "margin": margin, "sureness": sure}
        claims.append(Claim("knock_search", {}, facts, text))
    elif knocks:
        wise = True
        text = "The search weighed only knocking."
        claims.append(Claim("knock_search", {}, {"wise": True}, text))
    elif others:
        # A legal knock the search never weighed (at Gin, ``strong`` holds back knocks
        # above 6 when it reads the rival as close): no rating of knocking to report, so
        # no verdict either (the client's "rates playing on above knocking" needs one).
        claims.append(
            Claim("knock_search", {}, {"wise": None}, "The search did not weigh knocking now.")
        )
    elif values and _kind(values[0].action) == "rummy":
        wise = False  # going out beats any knock: it ends the hand with a bonus
        claims.append(
            Claim("knock_search", {}, {"wise": False}, "Not yet: go rummy instead of knocking.")
        )
    return wise, _checked(view, claims)


# --- claims: what each move does, from the engine ------------------------------------------------

Facts = Callable[[TableView, Mapping[str, Any]], Mapping[str, Any]]
_FACTS: dict[str, Facts] = {}


def _facts(kind: str) -> Callable[[Facts], Facts]:
    def register(fn: Facts) -> Facts:
        _FACTS[kind] = fn
        return fn

    return register


def _card(value: object) -> Card:
    return value if isinstance(value, Card) else parse_card(str(value))


def _pretty(value: object) -> str:
    return _card(value).pretty()


def _cards(values: Sequence[object]) -> str:
    return " ".join(_pretty(v) for v in values)


def _points(n: float) -> str:
    return "1 point" if n == 1 else f"{n:g} points"


def explain(game_name: str, view: TableView, action: Action) -> str:
    """The move in checked words (the explanation of ``hand_focus`` without the search)."""
    return " ".join(c.text for c in _checked(view, explain_claims(game_name, view, action)))


def explain_claims(game_name: str, view: TableView, action: Action) -> list[Claim | None]:
    """Candidate claims about ``action`` (each still to be checked)."""
    if rule_facts(game_name).poker_split:
        return _dk_claims(view, action)
    return _kr_claims(view, action)


# Deadwood Knock ---------------------------------------------------------------------------


def reading_order(cards: Sequence[Card]) -> tuple[Card, ...]:
    from deadwood_knock.games.deadwood_knock.hand import reading_order as order

    return tuple(order(cards))


def _evaluate(cards: Sequence[Card]) -> HandEvaluation:
    from deadwood_knock.games.deadwood_knock.hand import evaluate

    return evaluate(cards)


def _category(name: str) -> str:
    from deadwood_knock.games.deadwood_knock.hand import CATEGORY_WORDS

    return str(CATEGORY_WORDS.get(name, name))


@_facts("dk_take")
def _dk_take_facts(view: TableView, inputs: Mapping[str, Any]) -> Mapping[str, Any]:
    """Taking a known card (the top discard or, palming, the buried card) for ``select``."""
    source = inputs["source"]
    taken = view.top if source == "discard" else view.buried
    if taken is None or str(taken) != inputs["taken"]:
        raise ValueError("that card is not on offer")
    before = _evaluate(view.hand)
    after = _evaluate(with_card(without(view.hand, _card(inputs["select"])), taken))
    return {
        "score_before": before.score,
        "score_after": after.score,
        "category_before": before.category,
        "category_after": after.category,
        "deadwood_before": before.deadwood_points,
        "deadwood_after": after.deadwood_points,
        "knock_before": before.knock_count,
        "knock_after": after.knock_count,
        # The knock count is said only where a knock is legal now (no sentence mentions
        # knocking otherwise): the take then gives up a knock, or keeps one in reach.
        "knock_legal": any(a.get("type") == "knock" for a in view.raw.get("legal_actions") or ()),
        # The pot compares best five-card poker hands, kickers included (DK6): a take that
        # keeps the category and the score can still make the hand that goes into a pot
        # stronger, the only gain some takes make.
        "stronger": after.strength > before.strength,
        "poker_before": [str(c) for c in reading_order(before.poker_hand)],
        "poker_after": [str(c) for c in reading_order(after.poker_hand)],
    }


def take_gains(f: Mapping[str, Any]) -> bool:
    """Whether a Deadwood Knock take's facts show it raising the score or changing the
    category: otherwise its sentence says what else they show, and the search's measure."""
    return bool(f["score_after"] > f["score_before"] or f["category_after"] != f["category_before"])


def take_shows_gain(f: Mapping[str, Any]) -> bool:
    """Whether a take's facts show any gain at all: the score or category, a stronger poker
    hand for the pot, a lower knock count (said where a knock is legal). A take without
    one is best on the search's value alone, and the hint says so with what the search
    measured (``_lead_claim``)."""
    lower = f["knock_legal"] and f["knock_after"] < f["knock_before"]
    return take_gains(f) or bool(f["stronger"]) or lower


@_facts("dk_role")
def _dk_role_facts(view: TableView, inputs: Mapping[str, Any]) -> Mapping[str, Any]:
    """Where a card sits in the scoring split: the poker hand, or deadwood (and its worth)."""
    from deadwood_knock.games.points import card_value

    card = _card(inputs["card"])
    now = _evaluate(view.hand)
    in_hand = [c for c in view.hand if c == card or (card >= 52 and c >= 52)]
    if not in_hand:
        raise ValueError("not in the hand")
    deadwood = any(c in now.deadwood for c in in_hand)
    seven = _evaluate(without(view.hand, in_hand[0]))
    return {
        "in_deadwood": deadwood,
        "worth": card_value(in_hand[0]),
        "category": now.category,
        # What the hand is without the card, before the draw: the reason a card of the
        # poker hand can go (a high card's five, say, leave it high card).
        "category_without": seven.category,
        "kicker": not deadwood and _is_kicker(in_hand[0], now),
        # DK3: a joker is never in the poker hand and counts −2 as deadwood, so throwing
        # one lowers the score before the draw (by 2): the cost a joker discard states.
        "joker": in_hand[0].is_joker,
        "score": now.score,
        "score_without": seven.score,
    }


#: Categories made by cards of one rank: a card whose rank appears once in such a poker hand
#: is a kicker (it adds nothing to the category).
_SAME_RANK: Final = frozenset({"pair", "two_pair", "three_of_a_kind", "four_of_a_kind"})


def _is_kicker(card: Card, now: HandEvaluation) -> bool:
    """Whether ``card``, in the poker hand, is a kicker (jokers are never in it: DK3)."""
    if now.category not in _SAME_RANK:
        return False
    return sum(1 for c in now.poker_hand if c.rank == card.rank) == 1


@_facts("dk_blind_draw")
def _dk_blind_draw_facts(view: TableView, inputs: Mapping[str, Any]) -> Mapping[str, Any]:
    """A stock draw after discarding ``select``: the mean score over the unseen cards."""
    rest = without(view.hand, _card(inputs["select"]))
    unseen = view.unseen()
    if not unseen:
        raise ValueError("no unseen cards")
    now = _evaluate(view.hand).score
    scores = [_evaluate(with_card(rest, x)).score for x in unseen]
    return {
        "unseen": len(unseen),
        "mean": round(sum(scores) / len(scores), 1),
        "raise": sum(1 for s in scores if s > now),
        "score_now": now,
    }


@_facts("dk_now")
def _dk_now_facts(view: TableView, inputs: Mapping[str, Any]) -> Mapping[str, Any]:
    now = _evaluate(view.hand)
    return {
        "category": now.category,
        "hand_points": now.hand_points,
        "deadwood": now.deadwood_points,
        "score": now.score,
    }


@_facts("dk_knock_count")
def _dk_knock_count_facts(view: TableView, inputs: Mapping[str, Any]) -> Mapping[str, Any]:
    from deadwood_knock.games.deadwood_knock.hand import KNOCK_LIMIT

    legal = any(a.get("type") == "knock" for a in view.raw.get("legal_actions") or ())
    return {"knock_count": _evaluate(view.hand).knock_count, "limit": KNOCK_LIMIT, "legal": legal}


@_facts("dk_stand")
def _dk_stand_facts(view: TableView, inputs: Mapping[str, Any]) -> Mapping[str, Any]:
    """A final turn: the best a take of the top discard could score, and a blind draw."""
    now = _evaluate(view.hand).score
    best_take = None
    if view.top is not None:
        best_take = max(
            _evaluate(with_card(without(view.hand, s), view.top)).score for s in view.hand
        )
    unseen = view.unseen()
    best_blind = None
    if unseen:
        best_blind = max(
            round(
                sum(_evaluate(with_card(without(view.hand, s), x)).score for x in unseen)
                / len(unseen),
                1,
            )
            for s in set(view.hand)
        )
    return {
        "score": now,
        "best_take": best_take,
        "best_blind": best_blind,
        "unseen": len(unseen),
    }


@_facts("dk_palm")
def _dk_palm_facts(view: TableView, inputs: Mapping[str, Any]) -> Mapping[str, Any]:
    from deadwood_knock.games.deadwood_knock.rules import SUSPICION

    if view.top is None or view.buried is None:
        raise ValueError("nothing to palm")
    return {"cover": str(view.top), "buried": str(view.buried), "suspicion": SUSPICION}


def _dk_knock_count(view: TableView) -> Claim | None:
    f = _dk_knock_count_facts(view, {})
    if not f["legal"]:
        return None
    text = f"Your knock count is {f['knock_count']} (a knock needs {f['limit']} or less)."
    return Claim("dk_knock_count", {}, f, text)


def stand_raisers(f: Mapping[str, Any]) -> list[str]:
    """Which draws (``take``, ``blind``) the stand's facts show raising the hand's score
    above what standing keeps: a stand sentence must not set them out as if they were
    reasons to stand."""
    out = []
    if f["best_take"] is not None and f["best_take"] > f["score"]:
        out.append("take")
    if f["best_blind"] is not None and f["best_blind"] > f["score"]:
        out.append("blind")
    return out


def _stand_text(view: TableView, f: Mapping[str, Any]) -> str:
    """A stand in words: the score kept, then what the top discard and a blind draw would
    make. Those that do no better are the stand's reasons; those that would raise the
    hand's score are said apart, as the hand's score alone (the search's values count the
    pot and the other players' scores too: ``_lead_claim``). Before 2026-12-07 all three
    sat in one list, "Stand: keep your score of 6; taking 6♣ would make it at best 18; a
    blind draw averages at best 11.4.", read as if the draw were better."""
    words: dict[str, str] = {}
    if f["best_take"] is not None and view.top is not None:
        words["take"] = (
            f"taking {view.top.pretty()} would make it at best {figure_text(f['best_take'])}"
        )
    if f["best_blind"] is not None:
        words["blind"] = (
            f"a blind draw averages at best {figure_text(float(f['best_blind']))} over the "
            f"{f['unseen']} cards you have not seen"
        )
    raisers = stand_raisers(f)
    agree = [w for k, w in words.items() if k not in raisers]
    text = "; ".join([f"Stand: keep your score of {figure_text(f['score'])}", *agree]) + "."
    if raisers:
        more = ", and ".join(words[k] for k in raisers if k in words)
        text += f" On your hand's score alone a draw does better: {more}."
    return text


def _dk_claims(view: TableView, action: Action) -> list[Claim | None]:
    from deadwood_knock.games.deadwood_knock.rules import POT_ANTE

    kind = _kind(action)
    now = _dk_now_facts(view, {})
    cat = _category(now["category"])
    if kind == "knock":
        return [
            Claim(
                "dk_now",
                {},
                now,
                f"Knock: {cat} scores {split_sum(now['hand_points'], now['deadwood'])} = "
                f"{figure_text(now['score'])} now.",
            ),
            Claim(
                "rule",
                {},
                {"pot": POT_ANTE},
                "Each other player then takes one final turn and calls or folds on a "
                f"{POT_ANTE}-point pot.",
            ),
        ]
    if kind == "stand":
        return [Claim("dk_stand", {}, (f := _dk_stand_facts(view, {})), _stand_text(view, f))]
    if kind == "reveal":
        return [
            Claim(
                "dk_now",
                {},
                now,
                f"Show the scoring split: {cat}, {split_sum(now['hand_points'], now['deadwood'])}"
                f" = {figure_text(now['score'])}.",
            )
        ]
    if not isinstance(action, DkDraw):
        return []
    select = action.select
    src = source_of(action)
    inputs = {"select": str(select)}
    claims: list[Claim | None] = []
    if src in ("discard", "palm"):
        taken = view.top if src == "discard" else view.buried
        if taken is None:
            return []
        f = _dk_take_facts(view, {**inputs, "source": src, "taken": str(taken)})
        # In the order the player makes the move: the discard is chosen first, then the draw.
        take = "palm" if src == "palm" else "take"
        where = "" if src == "palm" else " from the pile"
        # "Stays" when the category does not change: "becomes a straight" of a straight
        # reads as a change the move does not make.
        turns = "stays" if f["category_after"] == f["category_before"] else "becomes"
        text = (
            f"Discard {select.pretty()} and {take} {taken.pretty()}{where}: your hand {turns} "
            f"{_category(f['category_after'])}, score {figure_text(f['score_before'])} → "
            f"{figure_text(f['score_after'])}"
        )
        if f["deadwood_after"] != f["deadwood_before"]:
            text += (
                f", deadwood {figure_text(f['deadwood_before'])} → "
                f"{figure_text(f['deadwood_after'])}"
            )
        if not take_gains(f):
            # Neither the score nor the category rises: what else the figures show. A
            # stronger poker hand for the pot (DK6); the knock count, either way.
            if f["stronger"]:
                text += (
                    f"; its poker hand ({_cards(f['poker_after'])}) beats the one you hold "
                    f"({_cards(f['poker_before'])}) in a pot"
                )
            if f["knock_legal"] and f["knock_after"] != f["knock_before"]:
                text += (
                    f"; knock count {figure_text(f['knock_before'])} → "
                    f"{figure_text(f['knock_after'])}"
                )
        claims.append(
            Claim("dk_take", {**inputs, "source": src, "taken": str(taken)}, f, text + ".")
        )
        if src == "palm":
            p = _dk_palm_facts(view, {})
            claims.append(
                Claim(
                    "dk_palm",
                    {},
                    p,
                    f"Palming sets {_pretty(p['cover'])} aside; once per round, and if your round "
                    f"score ends below the round's best you lose {-p['suspicion']} (Suspicion).",
                )
            )
        return claims
    role = _dk_role_facts(view, {"card": str(select)})
    if role["in_deadwood"]:
        role_text = f"{select.pretty()} counts {figure_text(role['worth'])} in your deadwood"
        if role["joker"]:
            # Its cost, not a reason: a joker's −2 raises the score, so throwing it lowers
            # the score before the draw; the draw's mean follows in its own sentence.
            role_text += (
                f", so throwing it lowers your score by {role['score'] - role['score_without']}"
                f" before the draw ({figure_text(role['score'])} → "
                f"{figure_text(role['score_without'])})"
            )
    elif role["kicker"]:
        role_text = (
            f"{select.pretty()} is a kicker in your poker hand ({_category(role['category'])})"
        )
    else:
        # Said of a card the move throws away: what the hand keeps without it, read on its
        # seven cards, so "is in your poker hand" does not stand alone as a reason to keep it.
        without_it = (
            f"still {_category(role['category_without'])}"
            if role["category_without"] == role["category"]
            else f"only {_category(role['category_without'])}"
        )
        role_text = (
            f"{select.pretty()} is in your poker hand ({_category(role['category'])}), "
            f"which is {without_it} without it"
        )
    claims.append(
        Claim(
            "dk_role",
            {"card": str(select)},
            role,
            f"Discard {select.pretty()} and draw from the stock: {role_text}.",
        )
    )
    blind = _dk_blind_draw_facts(view, inputs)
    raise_words = (
        f"{blind['raise']} of them raise it" if blind["raise"] else "none of them raises it"
    )
    claims.append(
        Claim(
            "dk_blind_draw",
            inputs,
            blind,
            f"Over the {blind['unseen']} cards you have not seen, your score after the draw "
            f"averages {figure_text(float(blind['mean']))} "
            f"(now {figure_text(blind['score_now'])}; {raise_words}).",
        )
    )
    return claims


# Call or fold ------------------------------------------------------------------------------


def pot_dealer(view: TableView) -> HiddenDealer:
    """The deals Hand Focus prices a pot on: the inference model's, the knocker's hand the
    best of ``POT_KNOCKER_TRIES`` (``POT_FIRST_LAP_KNOCKER_TRIES`` after a knock made
    before everyone had moved: such a knock is read as a stronger hand), the calibrated
    reading of the trail's characters."""
    first_lap = view.first_lap_knock
    tries = POT_FIRST_LAP_KNOCKER_TRIES if first_lap else POT_KNOCKER_TRIES
    return HiddenDealer(view, knocker_tries=tries)


def _pot_hint(
    game_name: str,
    view: TableView,
    legal: Sequence[Action],
    rng: random.Random,
    unit: str,
    deals: int,
    stop: Deadline | None,
) -> Hint:
    """Call or fold from the chance of winning the pot (see ``bots.dk.pot_outlook``): up
    to ``deals`` deals, fewer (at least ``dk.MIN_POT_DEALS``) if the next ones would not
    fit before ``stop``."""
    from deadwood_knock.games.deadwood_knock.rules import POT_ANTE

    pot = pot_outlook(view, rng, deals, pot_dealer(view).deal, stop=stop)
    call = next(a for a in legal if _kind(a) == "call")
    fold = next(a for a in legal if _kind(a) == "fold")
    better, worse = (call, fold) if pot.call >= pot.fold else (fold, call)
    values = {"call": pot.call, "fold": pot.fold}
    margin = abs(pot.call - pot.fold)
    ranked = [
        RankedAction(better.to_json(), values[_kind(better)], pot.deals,
                     action_words(better.to_json()), 0.0, "best by the pot's odds"),
        RankedAction(worse.to_json(), values[_kind(worse)], pot.deals,
                     action_words(worse.to_json()), -margin, "worse by the pot's odds"),
    ]  # fmt: skip
    rivals = (
        "the knocker"
        if len(pot.rivals) == 1
        else f"the knocker and {len(pot.rivals) - 1} caller{'s' if len(pot.rivals) > 2 else ''}"
    )
    mine = _dk_now_facts(view, {})
    # What calling stakes and what it takes, from the engine's own settlement of this pot
    # (the knocker and the callers in it with you): taken alone, and lost to the knocker.
    # "Puts in 10 to win 30" counted your own 10 as won; the round score gains 20.
    from deadwood_knock.games.deadwood_knock.rules import pot_result

    me, knocker = view.seat, int(view.raw["knocker"])
    calls = [
        "call" if s == me or (s in pot.rivals and s != knocker) else None
        for s in range(view.players)
    ]
    ahead = [(1,) if s == me else (0,) for s in range(view.players)]
    behind = [(0,) if s == me else (1,) for s in range(view.players)]
    win = pot_result(knocker, calls, ahead)[me]
    risk = -pot_result(knocker, calls, behind)[me]
    # The values assume the players still to answer fold; the words say so only when
    # there is one.
    pending = pot.pending
    facts = {
        "chance": round(pot.chance, 3),
        "percent": share_percent(pot.chance),
        "pending": pending,
        "deals": pot.deals,
        "in_pot": pot.in_pot,
        "callers": len(pot.rivals) - 1,
        "ante": POT_ANTE,
        "risk": risk,
        "win": win,
        "call": round(pot.call, 1),
        "fold": round(pot.fold, 1),
        "category": mine["category"],
    }
    head = "Call" if _kind(better) == "call" else "Fold"
    text = (
        f"{head}: your hand ({_category(mine['category'])}) takes the pot "
        f"{share_words(pot.chance, pot.deals)} of the cards you have not seen, "
        f"dealt as the others' play suggests, against {rivals}. "
        f"Calling risks {risk} to win {win}: "
        f"worth {signed_points(pot.call)} points against the table, "
        f"folding {signed_points(pot.fold)}"
        + (" (if the players still to answer fold)." if pending else ".")
    )
    claims = [Claim("pot", {}, facts, text)]
    return Hint(
        game_name,
        tuple(ranked),
        better.to_json(),
        text,
        False,
        None,
        "",
        tuple(claims),
        unit,
        pot,
    )


# Knock Rummy and Gin -------------------------------------------------------------------------


def _kr_count(cards: Sequence[Card], view: TableView) -> int:
    high_aces, _limit, _gin = options_of(view.raw)
    return count(cards, high_aces)


@_facts("kr_take")
def _kr_take_facts(view: TableView, inputs: Mapping[str, Any]) -> Mapping[str, Any]:
    """Taking the top discard: the count now and after the best discard, and its meld; with
    no meld, the kept cards it is one card from a meld with (a card still unseen would
    complete it), so a take that leaves the count as it was says what it builds."""
    from deadwood_knock.games.knock_rummy.melds import arrange, count

    top = view.top
    if top is None or str(top) != inputs["taken"]:
        raise ValueError("that card is not on offer")
    high_aces, _limit, _gin = options_of(view.raw)
    now = _kr_count(view.hand, view)
    # The held cards the taken one is a card from a meld with (a card still unseen would
    # complete it). Of the discards that leave the lowest count, one of these is thrown
    # last: of equals the highest card went, so "take 9♣ ... after you discard 8♣" (read in
    # a Gin hint, 8♥ leaving the same count) would throw the 8♣ the 9♣ builds a run with
    # whenever 7♣ or 10♣ is still unseen.
    unseen = [x for x in view.unseen() if not x.is_joker]
    linked = {p for p in view.hand if any(count([top, p, x], high_aces) == 0 for x in unseen)}
    options = [(_kr_count([*(x for x in view.hand if x != d), top], view), d) for d in view.hand]
    after, throw = min(options, key=lambda o: (o[0], o[1] in linked, -o[1]))
    kept = [*(x for x in view.hand if x != throw), top]
    layout = arrange(kept, high_aces=high_aces)
    meld = next((m for m in layout.melds if top in m), None)
    partners = [] if meld is not None else [str(p) for p in kept if p in linked]
    return {
        "count_before": now,
        "count_after": after,
        "discard": str(throw),
        "meld": None if meld is None else [str(c) for c in meld],
        "partners": partners,
    }


@_facts("kr_stock")
def _kr_stock_facts(view: TableView, inputs: Mapping[str, Any]) -> Mapping[str, Any]:
    """A stock draw: what the top discard would do at best, and over the unseen cards the
    count after the draw (and the best discard) on average and how many would lower it:
    the average is what to set against the top discard's count."""
    from deadwood_knock.games.knock_rummy.melds import best_discard_count

    high_aces, _limit, _gin = options_of(view.raw)
    now = _kr_count(view.hand, view)
    top = view.top
    with_top = None
    if top is not None:
        with_top = min(_kr_count([*(x for x in view.hand if x != d), top], view) for d in view.hand)
    unseen = [c for c in view.unseen() if c < 52]
    after = [best_discard_count([*view.hand, x], high_aces)[0] for x in unseen]
    lower = sum(1 for a in after if a < now)
    mean = round(sum(after) / len(after), 1) if after else None
    return {"count": now, "with_top": with_top, "unseen": len(unseen), "lower": lower, "mean": mean}


@_facts("kr_throw")
def _kr_throw_facts(view: TableView, inputs: Mapping[str, Any]) -> Mapping[str, Any]:
    """Throwing a card: the count after, its worth, and whether it was deadwood (in some
    lowest arrangement) rather than part of a meld."""
    from deadwood_knock.games.points import card_value

    card = _card(inputs["card"])
    if card not in view.hand:
        raise ValueError("not in the hand")
    before = _kr_count(view.hand, view)
    left = _kr_count([x for x in view.hand if x != card], view)
    worth = card_value(card)
    return {"count_after": left, "worth": worth, "deadwood": left + worth == before}


@_facts("kr_limit")
def _kr_limit_facts(view: TableView, inputs: Mapping[str, Any]) -> Mapping[str, Any]:
    from deadwood_knock.games.knock_rummy.rules import (
        GIN_BONUS,
        KNOCK_PENALTY,
        gin_layoffs_allowed,
    )

    _high, limit, gin = options_of(view.raw)
    card = inputs.get("card")
    kept = [x for x in view.hand if card is None or x != _card(card)]
    # A Gin knock that is gin takes no lay-offs and no undercut (KR8: the engine's
    # gin_layoffs_allowed), so the knock's general rule would be false of it.
    going_gin = bool(gin) and card is not None and not gin_layoffs_allowed(_kr_count(kept, view))
    return {
        "limit": limit,
        "gin": gin,
        "penalty": KNOCK_PENALTY,
        "bonus": GIN_BONUS,
        "going_gin": going_gin,
    }


@_facts("kr_rummy")
def _kr_rummy_facts(view: TableView, inputs: Mapping[str, Any]) -> Mapping[str, Any]:
    from deadwood_knock.games.knock_rummy.rules import RUMMY_BONUS

    card = inputs.get("card")
    kept = [x for x in view.hand if card is None or x != _card(card)]
    return {"count": _kr_count(kept, view), "bonus": RUMMY_BONUS}


def _kr_claims(view: TableView, action: Action) -> list[Claim | None]:
    kind = _kind(action)
    if kind == "rummy":
        c = discard_card(action)
        inputs = {"card": None if c is None else str(c)}
        f = _kr_rummy_facts(view, inputs)
        if f["count"] != 0:
            return []
        lead = "Go rummy" + (f", discarding {c.pretty()}" if c is not None else "")
        return [
            Claim(
                "kr_rummy",
                inputs,
                f,
                f"{lead}: every card is matched, so the hand ends and each other player pays "
                f"you their count plus {f['bonus']}.",
            )
        ]
    if kind == "draw":
        if source_of(action) == "discard" and view.top is not None:
            top = view.top
            f = _kr_take_facts(view, {"taken": str(top)})
            text = f"Take {top.pretty()} from the discard pile: "
            if f["meld"] is not None:
                text += f"it makes a meld ({_cards(f['meld'])}) and "
            if f["count_after"] == f["count_before"]:
                text += f"your count stays {f['count_before']}"
            else:
                text += f"your count goes {f['count_before']} → {f['count_after']}"
            text += f" after you discard {_pretty(f['discard'])}"
            if f["partners"]:
                text += f"; {top.pretty()} is one card from a meld with {_cards(f['partners'])}"
            return [Claim("kr_take", {"taken": str(top)}, f, text + ".")]
        f = _kr_stock_facts(view, {})
        text = "Draw from the stock"
        if f["with_top"] is not None and view.top is not None:
            text += (
                f": taking {view.top.pretty()} would leave your count at best {f['with_top']} "
                f"(now {f['count']})"
            )
        if f["mean"] is None:
            return [Claim("kr_stock", {}, f, text + ".")]
        lower = f"{f['lower']} of them lower it" if f["lower"] else "none of them lowers it"
        text += (
            f". Over the {f['unseen']} cards you have not seen, your count after the draw "
            f"averages {figure_text(float(f['mean']))} ({lower})."
        )
        return [Claim("kr_stock", {}, f, text)]
    card = discard_card(action)
    if card is None or kind not in ("discard", "knock"):
        return []
    f = _kr_throw_facts(view, {"card": str(card)})
    lead = "Knock and discard" if kind == "knock" else "Discard"
    text = f"{lead} {card.pretty()}: your count goes to {f['count_after']}"
    if f["deadwood"]:
        text += f" ({card.pretty()} is deadwood worth {_points(f['worth'])})"
    claims: list[Claim | None] = [Claim("kr_throw", {"card": str(card)}, f, text + ".")]
    if kind == "knock":
        lim_inputs = {"card": str(card)}
        lim = _kr_limit_facts(view, lim_inputs)
        if lim["going_gin"]:
            rule = (
                f"That is gin: the other player may not lay off, and you score their count "
                f"plus {lim['bonus']}."
            )
        elif lim["gin"]:
            rule = (
                f"The other player lays off what fits your melds; at or under your count they "
                f"undercut you for {lim['bonus']} more."
            )
        else:
            rule = (
                "The lowest count wins the difference from each player; a knocker who does "
                f"not win also pays {lim['penalty']}."
            )
        claims.append(Claim("kr_limit", lim_inputs, lim, rule))
    return claims


# --- actions in words --------------------------------------------------------------------------


def action_words(action: Mapping[str, Any]) -> str:
    """An action's JSON in a few words, e.g. "discard K♣, take from the pile"."""
    kind = action.get("type")

    def c(key: str) -> str:
        return _pretty(action[key])

    if kind == "draw" and "select" in action:
        where = {"stock": "the stock", "discard": "the pile", "palm": "a palm"}[action["source"]]
        return f"discard {c('select')}, take from {where}"
    if kind == "draw":
        return f"draw from the {'stock' if action['source'] == 'stock' else 'pile'}"
    if kind == "discard":
        return f"discard {c('card')}"
    if kind == "knock" and action.get("discard"):
        return f"knock, discarding {c('discard')}"
    if kind == "rummy":
        return "go rummy" + (f", discarding {c('discard')}" if action.get("discard") else "")
    if kind == "reveal":
        return "show the scoring split"
    return str(kind)
