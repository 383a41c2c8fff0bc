"""The strong bot: determinized rollouts over what its seat has not seen.

For each decision it ranks the legal actions with a cheap heuristic, keeps the most
promising few, and then repeatedly:

1. samples a full position consistent with everything the seat saw (the game module's
   ``determinize(observation, rng)``: unseen cards dealt at random to the other hands
   and the stock), never looking at the real hidden cards;
2. plays every kept action in that same sample and finishes the round (Deadwood Knock)
   or hand (Knock Rummy, Gin) with a fast playout policy, the same random stream for
   every action so that their differences are not drowned in card luck;
3. scores the outcome as its own round score minus the mean of the others'
   (Deadwood Knock) or its own hand score (Knock Rummy and Gin, which are zero-sum).

Weak actions are dropped as evidence builds (successive halving); the budget is a time
limit and/or an iteration limit (one iteration = one sample played with every kept action).

Knock Rummy and Gin keep a heuristic favourite (the anchor) unless the playouts clearly
beat it. At Gin the anchor is a sound Gin player's move (:func:`gin_choice`: take the top
only when it pays, keep cards that can still meld, do not feed the opponent, knock low),
so the search is a policy improvement on it: it only deviates where the playouts,
compared on the same samples, are well ahead.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from deadwood_knock.bots import draws, kr_playout
from deadwood_knock.bots.base import A, Budget, Deadline, O
from deadwood_knock.bots.dk import (
    draw_values,
    hand_value,
    potential,
    safe_value,
    sample_cards,
    source_of,
)
from deadwood_knock.bots.dk_playout import (
    DEFAULT_STYLE,
    Style,
    apply_action,
    playout,
    sample_position,
)
from deadwood_knock.bots.kr import best_after_draw, count, discard_card, options_of
from deadwood_knock.bots.view import TableView, view_of
from deadwood_knock.cards import CARDS, Card
from deadwood_knock.games import facts
from deadwood_knock.games.base import Action, Event, Game, Observation
from deadwood_knock.games.deadwood_knock.core import Core, DeadwoodKnockState
from deadwood_knock.games.deadwood_knock.core import Draw as DkDraw
from deadwood_knock.games.knock_rummy.core import KrTable
from deadwood_knock.games.knock_rummy.melds import best_discard_count
from deadwood_knock.games.knock_rummy.rules import GIN_LIMIT, KnockRummyState
from deadwood_knock.games.points import card_value

__all__ = ["DEFAULT_BUDGET", "ActionValue", "StrongBot"]

DEFAULT_BUDGET = Budget(seconds=0.1, iterations=400)
KR_BUDGET = Budget(seconds=0.15, iterations=400)
#: With a ``stop`` (Hand Focus's deadline) the search takes at least this many samples
#: before it looks at the clock, as the pot deals at least ``dk.MIN_POT_DEALS``: one stall
#: in the first sample (the process waiting for a core) made the deadline expect every
#: sample to take as long, and a hint stood on one deal ("over 1 deal", seen in play on a
#: busy machine). The first look then times the samples as an average of these.
MIN_STOP_SAMPLES = 24
KR_PLAYOUT_KNOCK = 6
ANCHOR_Z = 1.0
GIN_ANCHOR_Z = 1.5
GIN_KNOCK = 8  # the Gin anchor knocks at this count or less
GIN_OUTS = 6.0  # weight of the share of unseen cards that would meld with what is kept
GIN_FEED = 1.0  # weight of feeding the cards the opponent took from the pile
GIN_TAKE_MARGIN = 0.5  # taking the top shows the opponent what you collect
ROUND_END_KINDS = frozenset({"round_result", "hand_result", "void", "hand_void"})
MAX_PLAYOUT_ACTIONS = 400

S = TypeVar("S")
#: A state the playout policies read: either game's public state.
PlayoutState = DeadwoodKnockState | KnockRummyState


@dataclass(frozen=True, slots=True)
class ActionValue(Generic[A]):
    """One candidate action: its mean playout value, how many samples, and its prior.
    ``draws`` holds each sample's value in order (the k-th of every action comes from the
    same sampled position), so two actions can be compared pairwise."""

    action: A
    value: float
    samples: int
    prior: float
    draws: tuple[float, ...] = ()


def _kind(action: Action) -> str:
    return action.kind


def determinizer(game: Game[S, Any, O]) -> Callable[[O, random.Random], S]:
    """The game's own determinize (a full state consistent with an observation)."""
    return game.sample_state


# --- reading a sampled state (the search's own sample, never the real one) -------------------


def state_hand(state: PlayoutState, seat: int) -> tuple[Card, ...]:
    return tuple(state.hands[seat])


def state_top(state: PlayoutState) -> Card | None:
    pile = state.discard if isinstance(state, DeadwoodKnockState) else state.discard_pile
    return pile[-1] if pile else None


# --- playout policies ------------------------------------------------------------------------


def _joker_as_one(c: Card) -> Card:
    return CARDS[52] if c >= 52 else c


def dk_playout_action(
    state: DeadwoodKnockState, seat: int, legal: Sequence[A], rng: random.Random
) -> A:
    """A quick, reasonable Deadwood Knock move for any seat inside a playout."""
    first = _kind(legal[0])
    if first == "reveal" or len(legal) == 1:
        return legal[0]
    hand = state_hand(state, seat)
    if first in ("call", "fold"):
        want = "call" if hand_value(hand).hand_points >= 30 else "fold"
        return next((a for a in legal if _kind(a) == want), legal[0])
    now = hand_value(hand)
    knock = stand = None
    by_move: dict[tuple[Card, str], A] = {}
    for a in legal:
        k = _kind(a)
        if k == "knock":
            knock = a
        elif k == "stand":
            stand = a
        elif isinstance(a, DkDraw):
            by_move[(_joker_as_one(a.select), source_of(a))] = a
    if knock is not None and (now.knock_count <= 6 or now.score >= 20):
        return knock
    top = state_top(state)
    best_take, best_v = None, float(now.score) + 1.0
    if top is not None:
        for c in hand:
            take = by_move.get((_joker_as_one(c), "discard"))
            if take is not None:
                v = safe_value([x for x in hand if x != c] + [top])
                if v > best_v:
                    best_take, best_v = take, v
    if best_take is not None:
        return best_take
    if stand is not None:
        return stand
    # Throw the card whose loss hurts least, judged on the 7 cards left.
    best_stock, best_keep = None, float("-inf")
    for c in hand:
        throw = by_move.get((_joker_as_one(c), "stock"))
        if throw is None:
            continue
        v = safe_value([x for x in hand if x != c]) if len(hand) > 5 else 0.0
        if v > best_keep:
            best_stock, best_keep = throw, v
    if best_stock is not None:
        return best_stock
    return legal[rng.randrange(len(legal))]


def kr_playout_action(
    state: KnockRummyState,
    seat: int,
    legal: Sequence[A],
    rng: random.Random,
    high_aces: bool,
    limit: int,
) -> A:
    """A quick Knock Rummy / Gin move: greedy draws, lowest-count discards, knock when low."""
    if len(legal) == 1:
        return legal[0]
    for a in legal:
        if _kind(a) == "rummy":
            return a
    hand = state_hand(state, seat)
    if _kind(legal[0]) == "draw":
        draws = {source_of(a): a for a in legal}
        top = state_top(state)
        if (
            "discard" in draws
            and "stock" in draws
            and top is not None
            and best_after_draw(hand, top, high_aces, keep=True) < count(hand, high_aces) - 1
        ):
            return draws["discard"]
        return draws.get("stock") or legal[0]
    best_key: tuple[int, int] | None = None
    best_card: Card | None = None
    for a in legal:
        c = discard_card(a)
        if c is None or _kind(a) != "discard":
            continue
        key = (count([x for x in hand if x != c], high_aces), -card_value(c))
        if best_key is None or key < best_key:
            best_key, best_card = key, c
    if best_key is not None and best_key[0] <= limit:
        for a in legal:
            if _kind(a) == "knock" and discard_card(a) == best_card:
                return a
    for a in legal:
        if _kind(a) == "discard" and discard_card(a) == best_card:
            return a
    return legal[rng.randrange(len(legal))]


# --- the bot ---------------------------------------------------------------------------------


class StrongBot:
    """Determinized-rollout search; see the module docstring."""

    name = "strong"
    #: How far (in standard errors of the paired difference) the playouts must put another
    #: action ahead of the anchor: Knock Rummy, Gin. Subclasses may tune them.
    anchor_z = ANCHOR_Z
    gin_anchor_z = GIN_ANCHOR_Z

    #: The budgets when neither the call nor the bot names one: Deadwood Knock's, then
    #: Knock Rummy's and Gin's (their playouts are longer: half as much time again).
    budgets = (DEFAULT_BUDGET, KR_BUDGET)

    def __init__(self, default_budget: Budget | None = None, width: int = 6) -> None:
        #: ``None``: by game, from :attr:`budgets`.
        self.default_budget = default_budget
        self.width = width

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
        return self.evaluate(game, observation, legal, rng, budget)[0].action

    def evaluate(
        self,
        game: Game[Any, A, O],
        observation: O,
        legal: Sequence[A],
        rng: random.Random,
        budget: Budget | None = None,
        cull: bool = True,
        stop: Deadline | None = None,
    ) -> list[ActionValue[A]]:
        """Every considered action with its value, best first. ``cull=False`` keeps every
        candidate to the end, so all have the same samples (Hand Focus ranks by value).
        ``stop`` replaces the budget's seconds: the search stops before a sample that would
        not fit in it (Hand Focus's, which keeps time for its sentences; never before
        ``MIN_STOP_SAMPLES``); the budget's iterations still cap it."""
        if budget is None:
            budget = self.default_budget
        if budget is None:
            budget = self.budgets[0] if game.facts.poker_split else self.budgets[1]
        started = time.perf_counter()
        view = view_of(observation, game.name)
        priors = self._priors(game.name, view, legal, rng)
        forced = self._forced(game.name, view, legal)
        if forced is not None:
            return [ActionValue(forced, 0.0, 0, 0.0)]
        gin = not game.facts.poker_split and options_of(view.raw)[2]
        if gin:
            # Policy improvement: the anchor is a sound Gin player's move (kept unless the
            # playouts clearly beat it), not just the lowest count.
            choice = self._gin_anchor(view, legal)
            top_prior = max(pr for _, pr in priors) + 1.0
            priors = [(a, top_prior if a is choice else pr) for a, pr in priors]
        ranked = sorted(priors, key=lambda ap: -ap[1])
        # Knock Rummy playouts are longer, so fewer candidates get more samples each.
        width = self.width if game.facts.poker_split else self._rummy_width(gin)
        keep = self._candidates(game, ranked, width, gin)
        if len(keep) == 1:
            return [ActionValue(keep[0][0], keep[0][1], 0, keep[0][1])]
        sums = [0.0] * len(keep)
        visits = [0] * len(keep)
        values: list[list[float]] = [[] for _ in keep]
        active = list(range(len(keep)))
        protected = self._protected(game, keep, gin)
        search = self._search(game, observation, view)
        deadline = None if budget.seconds is None else started + budget.seconds
        limit = budget.iterations
        it = 0
        next_cut = 4
        # Seeding a Random costs about 6 us, a few per cent of a rummy iteration (issue 17,
        # branch fast18). A search whose playouts never draw from the stream (Gin's: its
        # stock is dealt in order) is handed one unused Random instead of a new one a
        # candidate; one that values a candidate from the stream itself
        # (``value_on_stream``: Knock Rummy's only shuffles the stock with it, Deadwood
        # Knock's only reads a reshuffle seed) makes what it needs once a stream. Either
        # gives the values ``value`` gives (tests/test_search_fast.py).
        unused = None if getattr(search, "draws_from_stream", True) else random.Random(0)
        on_stream = None if unused else getattr(search, "value_on_stream", None)
        if stop is not None:
            stop.start()
        while True:
            sample = search.sample(rng)
            stream = rng.getrandbits(48)
            for i in active:
                if on_stream is not None:
                    v = on_stream(sample, keep[i][0], stream)
                else:
                    v = search.value(sample, keep[i][0], unused or random.Random(stream))
                sums[i] += v
                visits[i] += 1
                values[i].append(v)
            it += 1
            if limit is not None and it >= limit:
                break
            if stop is not None:
                if it >= MIN_STOP_SAMPLES and not stop.fits(it):
                    break
            elif deadline is not None and time.perf_counter() >= deadline:
                break
            if cull and it >= next_cut and len(active) > 2:
                active.sort(key=lambda i: -(sums[i] / visits[i]))
                cut = active[: max(2, (len(active) + 1) // 2)]
                for p in protected:  # measured to the end (the Gin anchor: first kept)
                    if p not in cut:
                        cut[-1 - protected.index(p)] = p
                active = cut
                next_cut *= 2
        out = [
            ActionValue(
                a,
                sums[i] / visits[i] if visits[i] else float("-inf"),
                visits[i],
                pr,
                tuple(values[i]),
            )
            for i, (a, pr) in enumerate(keep)
        ]
        out.sort(key=lambda av: (-av.samples, -av.value, -av.prior))
        # Most-sampled first (survivors of the halving), then by value.
        top_visits = out[0].samples
        survivors = sorted(
            (av for av in out if av.samples == top_visits), key=lambda av: (-av.value, -av.prior)
        )
        rest = sorted((av for av in out if av.samples != top_visits), key=lambda av: -av.value)
        ranked_out = survivors + rest
        if not game.facts.poker_split:
            ranked_out = self._rummy_choice(ranked_out, keep, values, gin)
        return ranked_out

    def _candidates(
        self, game: Game[Any, Any, O], ranked: Sequence[tuple[A, float]], width: int, gin: bool
    ) -> list[tuple[A, float]]:
        """The actions the search weighs, from the best prior down: the first ``width``,
        and the best of each turn-ending choice, however the heuristic rates it."""
        keep = list(ranked[:width])
        kept_kinds = {_kind(a) for a, _ in keep}
        for a, pr in ranked[width:]:
            k = _kind(a)
            if k in ("knock", "stand", "call", "fold") and k not in kept_kinds:
                keep.append((a, pr))
                kept_kinds.add(k)
        return keep

    def _protected(
        self, game: Game[Any, Any, O], keep: Sequence[tuple[A, float]], gin: bool
    ) -> list[int]:
        """The kept candidates (by index) the halving never drops: the Gin anchor."""
        return [0] if gin else []

    def _rummy_choice(
        self,
        ranked: list[ActionValue[A]],
        keep: Sequence[tuple[A, float]],
        values: Sequence[list[float]],
        gin: bool,
    ) -> list[ActionValue[A]]:
        """Knock Rummy / Gin: the heuristic's favourite unless the playouts beat it."""
        z = self.gin_anchor_z if gin else self.anchor_z
        return keep_anchor_unless_beaten(ranked, keep, values, z)

    # --- pieces --------------------------------------------------------------------------

    def _gin_anchor(self, view: TableView, legal: Sequence[A]) -> A:
        """The Gin anchor: :func:`gin_choice`."""
        return gin_choice(view, legal)

    def _rummy_width(self, gin: bool) -> int:
        """How many candidates the Knock Rummy / Gin search keeps (before the turn-ending
        ones): fewer than in Deadwood Knock, whose playouts are shorter."""
        return max(2, self.width - 2)

    def _forced(self, game_name: str, view: TableView, legal: Sequence[A]) -> A | None:
        kinds = [_kind(a) for a in legal]
        if facts(game_name).poker_split and kinds and kinds[0] == "reveal":
            return legal[0]
        if not facts(game_name).poker_split and "rummy" in kinds:
            return legal[kinds.index("rummy")]
        return None

    def _priors(
        self, game_name: str, view: TableView, legal: Sequence[A], rng: random.Random
    ) -> list[tuple[A, float]]:
        if facts(game_name).poker_split:
            return _dk_priors(view, legal, rng)
        return _kr_priors(view, legal, rng)

    def _search(self, game: Game[Any, Any, O], observation: O, view: TableView) -> Search:
        if game.facts.poker_split:
            probe = sample_position(view, random.Random(0))
            if probe is not None:
                return SimSearch(view)
        elif kr_playout.sample_position(view, random.Random(0)) is not None:
            return KrSimSearch(view)
        return EngineSearch(game, observation, view)


class Search(Protocol):
    """Samples positions and values one action in a sample. A sample is the search's own
    (a ``Core``, a ``KrTable`` or a public state): the bot only hands it back, hence
    ``Any``."""

    def sample(self, rng: random.Random) -> Any: ...

    def value(self, sample: Any, action: Action, rng: random.Random) -> float: ...


class SimSearch:
    """Deadwood Knock playouts on the engine's core, on positions sampled from the view.
    ``deal`` (hidden hands and stock) and ``style`` (the playout rivals) default to the
    uniform deal and the playout's own style; the ``strong`` bot passes its own."""

    def __init__(
        self,
        view: TableView,
        deal: Callable[[random.Random], tuple[list[list[Card]], list[Card]]] | None = None,
        style: Style = DEFAULT_STYLE,
    ) -> None:
        self.view = view
        self.deal = deal
        self.style = style
        #: If set, each seat's own playout style instead (``dk_playout.playout``'s styles).
        self.styles: Sequence[Style] | None = None
        self._unseen: tuple[Card, ...] | None = None
        #: ``value_on_stream``'s last stream, its reshuffle seed and its Random after it.
        self._stream: int | None = None
        self._seed = 0
        self._rng = random.Random(0)

    def sample(self, rng: random.Random) -> Core:
        if self._unseen is None:
            self._unseen = self.view.unseen()  # the same for every sample of a decision
        position = sample_position(self.view, rng, self.deal, self._unseen)
        assert position is not None
        return position

    def value(self, sample: Core, action: Action, rng: random.Random) -> float:
        # A reshuffle's order is a guess: one per stream.
        return self._played(sample, action, rng.getrandbits(63), rng)

    def _played(self, sample: Core, action: Action, seed: int, rng: random.Random) -> float:
        """The action's playout from ``sample`` with reshuffle seed ``seed``: the seat's
        score less the others' mean (-1000 for an action the sample cannot take)."""
        sim = sample.copy()
        sim.seed = seed
        seat = self.view.seat
        if not apply_action(sim, seat, action):
            return -1000.0
        scores = playout(sim, rng, self.style, styles=self.styles)
        others = [v for s, v in enumerate(scores) if s != seat]
        return scores[seat] - (sum(others) / len(others) if others else 0.0)

    def value_on_stream(self, sample: Core, action: Action, stream: int) -> float:
        """``value(sample, action, random.Random(stream))``, the search loop's call: the
        stream gives the reshuffle's seed (its first 63 bits) and nothing more (the
        playout policy draws nothing from it: tests/test_search_fast.py), so it is seeded
        once a stream, not once a candidate (issue 17, branch fast18)."""
        if stream != self._stream:
            rng = random.Random(stream)
            self._stream, self._seed, self._rng = stream, rng.getrandbits(63), rng
        return self._played(sample, action, self._seed, self._rng)


class KrSimSearch:
    """Knock Rummy / Gin playouts on the engine's core, on positions sampled from the view."""

    def __init__(self, view: TableView) -> None:
        self.view = view
        _high, _limit, gin = options_of(view.raw)
        self.knock_at = playout_knock_at(gin)
        self.bank: dict[int, list[tuple[int, list[Card]]]] = {}
        #: ``value_on_stream``'s stock orders by (stream, stock length).
        self._orders: dict[tuple[int, int], list[int]] = {}

    def sample(self, rng: random.Random) -> KrTable:
        position = kr_playout.sample_position(self.view, rng, self.bank)
        assert position is not None
        return position

    def value(self, sample: KrTable, action: Action, rng: random.Random) -> float:
        sim = self.played(sample, action, rng)
        if sim is None:
            return -1000.0
        return float(kr_playout.playout(sim, self.knock_at)[self.view.seat])

    def played(self, sample: KrTable, action: Action, rng: random.Random) -> KrTable | None:
        """A copy of ``sample`` with ``action`` played and the stock shuffled by ``rng``
        (``None``: the action does not apply)."""
        sim = sample.copy()
        if not kr_playout.apply_action(sim, self.view.seat, action):
            return None
        # The sampled stock order is a guess: vary it per playout (rng.shuffle's draws).
        draws.shuffle(rng, sim.stock)
        return sim

    def value_on_stream(self, sample: KrTable, action: Action, stream: int) -> float:
        """``value(sample, action, random.Random(stream))``, the search loop's call."""
        sim = self.played_on_stream(sample, action, stream)
        if sim is None:
            return -1000.0
        return float(kr_playout.playout(sim, self.knock_at)[self.view.seat])

    def played_on_stream(self, sample: KrTable, action: Action, stream: int) -> KrTable | None:
        """A copy of ``sample`` with ``action`` played and the stock in ``stream``'s order
        (``None``: the action does not apply). The stream only shuffles the stock, and a
        shuffle's swaps depend on the list's length alone, so the order for a stream and a
        stock length is made once (on the positions 0..n-1) and read for every candidate
        that leaves that many cards."""
        sim = sample.copy()
        if not kr_playout.apply_action(sim, self.view.seat, action):
            return None
        stock = sim.stock
        key = (stream, len(stock))
        order = self._orders.get(key)
        if order is None:
            if len(self._orders) >= 16:  # one stream's few lengths are all that repeat
                self._orders.clear()
            order = self._orders[key] = list(range(len(stock)))
            draws.shuffle(random.Random(stream), order)
        sim.stock = [stock[i] for i in order]
        return sim


class EngineSearch:
    """Playouts through the public engine on the game module's ``determinize`` samples."""

    def __init__(self, game: Game[Any, Any], observation: Observation, view: TableView) -> None:
        self.game = game
        self.observation = observation
        self.view = view
        self.determinize = determinizer(game)

    def sample(self, rng: random.Random) -> Any:
        return self.determinize(self.observation, rng)

    def value(self, sample: Any, action: Action, rng: random.Random) -> float:
        game, view = self.game, self.view
        base = tuple(game.scores(sample))
        seat = view.seat
        dk = game.facts.poker_split
        high_aces, limit, gin = (False, None, False) if dk else options_of(view.raw)
        knock_at = min(limit if limit is not None else 99, playout_knock_at(gin))
        state, events = game.apply(sample, action)
        steps = 0
        while not _ended(events) and not game.is_over(state) and steps < MAX_PLAYOUT_ACTIONS:
            who = game.to_act(state)
            if who is None:
                break
            legal = game.legal_actions(state)
            if dk:
                a = dk_playout_action(state, who, legal, rng)
            else:
                a = kr_playout_action(state, who, legal, rng, high_aces, knock_at)
            state, events = game.apply(state, a)
            steps += 1
        totals = game.scores(state)
        deltas = [b - a for a, b in zip(base, totals, strict=True)]
        if not _ended(events) and not game.is_over(state):
            return _static(game.name, state, seat, high_aces)
        if dk:
            others = [d for s, d in enumerate(deltas) if s != seat]
            return deltas[seat] - (sum(others) / len(others) if others else 0.0)
        return float(deltas[seat])


def playout_knock_at(gin: bool) -> int:
    """The count at or below which the Knock Rummy and Gin playout policy knocks: at Gin as
    soon as its limit allows, in Knock Rummy at ``KR_PLAYOUT_KNOCK``."""
    return GIN_LIMIT if gin else KR_PLAYOUT_KNOCK


def keep_anchor_unless_beaten(
    ranked: list[ActionValue[A]],
    keep: Sequence[tuple[A, float]],
    values: Sequence[list[float]],
    z: float = ANCHOR_Z,
) -> list[ActionValue[A]]:
    """Stay with the heuristic's favourite unless the playouts clearly beat it.

    Knock Rummy playouts are long and noisy, and close candidates (two discards a point
    apart) would otherwise be picked almost at random; a paired comparison on the same
    samples must show the search's choice ahead by at least one standard error.
    """
    anchor = max(range(len(keep)), key=lambda i: keep[i][1])
    best = next(i for i, (a, _) in enumerate(keep) if a is ranked[0].action)
    if best == anchor:
        return ranked
    n = min(len(values[best]), len(values[anchor]))
    diffs = [values[best][k] - values[anchor][k] for k in range(n)]
    if n >= 4:
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if mean > z * (var / n) ** 0.5:
            return ranked
    chosen = next(av for av in ranked if av.action is keep[anchor][0])
    return [chosen, *(av for av in ranked if av is not chosen)]


def _ended(events: Sequence[Event]) -> bool:
    return any(e.kind in ROUND_END_KINDS for e in events)


def _static(game_name: str, state: PlayoutState, seat: int, high_aces: bool) -> float:
    """A cut-off playout's value: hand quality now against the table's."""
    players = len(state.hands)
    if facts(game_name).poker_split:
        mine = safe_value(state_hand(state, seat))
        others = [safe_value(state_hand(state, s)) for s in range(players) if s != seat]
        return mine - sum(others) / len(others)
    mine_c = count(state_hand(state, seat), high_aces)
    others_c = [count(state_hand(state, s), high_aces) for s in range(players) if s != seat]
    return (sum(others_c) / len(others_c) - mine_c) * 0.5


def _dk_priors(view: TableView, legal: Sequence[A], rng: random.Random) -> list[tuple[A, float]]:
    now = hand_value(view.hand)
    kinds = {_kind(a) for a in legal}
    final = "stand" in kinds
    out: list[tuple[A, float]] = []
    if "call" in kinds or "fold" in kinds:
        return [(a, 0.0) for a in legal]

    def value(cards: Sequence[Card]) -> float:
        base = safe_value(cards)
        return base if final else base + 0.5 * potential(cards, "balanced")

    draws = [a for a in legal if _kind(a) == "draw"]
    sample = sample_cards(view.unseen(), 12, rng)
    for ch in draws_and_values(view, draws, sample, value):
        out.append(ch)
    for a in legal:
        if _kind(a) in ("knock", "stand"):
            out.append((a, float(now.score)))
    return out


def draws_and_values(
    view: TableView,
    draws: Sequence[A],
    sample: Sequence[Card],
    value: Callable[[Sequence[Card]], float],
) -> list[tuple[A, float]]:
    return [
        (ch.action, ch.value)
        for ch in draw_values(view.hand, draws, view.top, view.buried, sample, value)
    ]


def _kr_priors(view: TableView, legal: Sequence[A], rng: random.Random) -> list[tuple[A, float]]:
    high_aces, limit, _gin = options_of(view.raw)
    out: list[tuple[A, float]] = []
    for a in legal:
        k = _kind(a)
        if k == "draw":
            if source_of(a) == "discard" and view.top is not None:
                out.append((a, -float(best_after_draw(view.hand, view.top, high_aces, keep=True))))
            else:
                out.append((a, -float(count(view.hand, high_aces))))
        elif k in ("discard", "knock"):
            c = discard_card(a)
            left = count([x for x in view.hand if x != c], high_aces)
            prior = -float(left) + 0.01 * (card_value(c) if c is not None else 0)
            if k == "knock":  # knocking early at a low count is the sound default
                prior += 0.5 if left <= (limit if limit is not None else 10) else -5.0
            out.append((a, prior))
        else:
            out.append((a, 0.0))
    return out


def gin_choice(view: TableView, legal: Sequence[A], knock_at: int = GIN_KNOCK) -> A:
    """A sound Gin move without search: the strong bot's anchor.

    Draw: the discard top only when the best hand with it beats the mean best hand after
    a stock draw (over every unseen card) by a margin. Throw: lowest count, then keep the
    cards that many unseen cards would meld with, and do not feed what the opponent took.
    Knock at ``knock_at`` (GIN_KNOCK) or less.
    """
    high_aces, _limit, _gin = options_of(view.raw)
    hand = list(view.hand)
    kinds = {_kind(a) for a in legal}
    unseen = view.unseen()
    if "draw" in kinds:
        by = {source_of(a): a for a in legal if _kind(a) == "draw"}
        stock, take = by.get("stock"), by.get("discard")
        if stock is None or take is None or view.top is None or not unseen:
            return stock or take or legal[0]
        with_top = best_after_draw(hand, view.top, high_aces, keep=True)
        drawn = sum(best_discard_count([*hand, x], high_aces=high_aces)[0] for x in unseen)
        return take if with_top + GIN_TAKE_MARGIN < drawn / len(unseen) else stock
    throws = [a for a in legal if _kind(a) in ("discard", "knock")]
    if not throws:
        return legal[0]
    opp = view.next_seat()
    taken = [c for c in view.picked[opp] if c < 52] if opp < len(view.picked) else []
    counts: dict[Card, int] = {}
    scores: dict[Card, float] = {}
    for a in throws:
        c = discard_card(a)
        if c is None or c in counts:
            continue
        rest = [x for x in hand if x != c]
        n = count(rest, high_aces)
        counts[c] = n
        melds = sum(1 for x in unseen if count([*rest, x], high_aces) < n + card_value(x))
        feed = sum(_feeds(c, t) for t in taken)
        share = melds / len(unseen) if unseen else 0.0
        scores[c] = -n + GIN_OUTS * share - GIN_FEED * feed + 0.05 * card_value(c)
    knocks = [a for a in throws if _kind(a) == "knock" and discard_card(a) in counts]
    if knocks:
        best_knock = min(knocks, key=lambda a: counts[discard_card(a)])  # type: ignore[index]
        if counts[discard_card(best_knock)] <= knock_at:  # type: ignore[index]
            return best_knock
    best = max(scores, key=lambda c: scores[c])
    return next(a for a in throws if _kind(a) == "discard" and discard_card(a) == best)


def _feeds(c: Card, taken: Card) -> float:
    """How much throwing ``c`` helps a player known to hold ``taken``: same rank most."""
    if taken % 13 == c % 13:
        return 3.0
    if taken // 13 == c // 13 and abs(taken % 13 - c % 13) <= 2:
        return 2.0
    return 0.0
