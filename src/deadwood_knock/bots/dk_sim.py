"""A fast Deadwood Knock round simulator for the search bot's playouts.

The public engine is exact and immutable, which makes it too slow to play hundreds of
rounds inside one 100 ms decision. This module replays the same rules (DK2, DK4–DK8)
on plain mutable lists: turns with select-then-take, the knock and final turns, call or
fold, the pot, the one reshuffle and the dry round, Suspicion. It is only ever run on a
*sampled* position built from the seat's own view (:func:`sample_position`), so it never
touches the real hidden cards; its results are estimates, and the tests check them
against the public engine on the same positions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from deadwood_knock.bots.view import TableView
from deadwood_knock.cards import Card
from deadwood_knock.games.deadwood_knock.hand import KNOCK_LIMIT
from deadwood_knock.games.deadwood_knock.rules import settle_pot, suspicions

__all__ = ["Sim", "playout", "quick", "sample_position"]

_CACHE: dict[tuple[Card, ...], tuple[int, int, int, int, int]] = {}
_CACHE_CAP: Final = 1 << 19


def quick(cards: Sequence[Card]) -> tuple[int, int, int, int, int]:
    """(score, knock count, hand points, deadwood points, strength code), memoised."""
    key = tuple(sorted(cards))
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    from deadwood_knock.games.deadwood_knock.hand import evaluate_batch

    if len(_CACHE) >= _CACHE_CAP:
        _CACHE.clear()
    res = _CACHE[key] = evaluate_batch([key])[0]
    return res


TURN: Final = "turn"
FINAL: Final = "final"
CALL: Final = "call"
OVER: Final = "over"


@dataclass(slots=True)
class Sim:
    """A mutable round in progress (a sample, never the real deal)."""

    hands: list[list[Card]]
    stock: list[Card]  # top is last
    pile: list[Card]  # top is last
    to_act: int
    phase: str = TURN
    knocker: int | None = None
    pending: list[int] = field(default_factory=list)  # seats still to take a final turn / answer
    called: list[bool] = field(default_factory=list)
    reshuffled: bool = False
    palmed: list[bool] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)

    @property
    def players(self) -> int:
        return len(self.hands)

    def copy(self) -> Sim:
        return Sim(
            hands=[h[:] for h in self.hands],
            stock=self.stock[:],
            pile=self.pile[:],
            to_act=self.to_act,
            phase=self.phase,
            knocker=self.knocker,
            pending=self.pending[:],
            called=self.called[:],
            reshuffled=self.reshuffled,
            palmed=self.palmed[:],
        )

    @classmethod
    def dealt(cls, state: Any) -> Sim:
        """A simulator holding an engine round's whole deal, at its first turn.

        For the tests and the bench, which compare or time the simulator on real deals;
        the bots never get a state and build theirs with :func:`sample_position`.
        """
        n = len(state.hands)
        return cls(
            hands=[list(h) for h in state.hands],
            stock=list(state.stock),
            pile=list(state.discard),
            to_act=state.to_act,
            called=[False] * n,
            palmed=[False] * n,
        )


def sample_position(view: TableView, rng: random.Random) -> Sim | None:
    """A full round position consistent with everything this seat has seen.

    Cards the seat saw go where they were seen (its hand, the pile, cards others took
    from the pile); every unseen card is dealt at random to the other hands and the
    stock. Returns ``None`` when the observation is not a Deadwood Knock turn it can read.
    """
    raw = view.raw
    n = view.players
    unseen = list(view.unseen())
    rng.shuffle(unseen)
    hands: list[list[Card]] = []
    knocker_seat = raw.get("knocker")
    for s in range(n):
        if s == view.seat:
            hands.append(list(view.hand))
            continue
        known = [c for c in view.known_cards[s]] if s < len(view.known_cards) else []
        size = view.hand_sizes[s] if s < len(view.hand_sizes) else 8
        need = max(0, size - len(known))
        # Players keep their better cards, so a hand that has been played a few turns is
        # better than a fresh deal: take the best of a few random deals. A knocker's hand
        # must have allowed the knock.
        tries = 1 + min(view.turns[s] if s < len(view.turns) else 0, 3)
        must_knock = knocker_seat == s
        if must_knock:
            tries = 12
        best: list[Card] | None = None
        best_key = -(10**9)
        for _ in range(tries):
            pick = rng.sample(unseen, need) if need <= len(unseen) else list(unseen)
            hand = known + pick
            score, knock = quick(hand)[:2] if len(hand) >= 5 else (0, 99)
            key = score - (1000 if must_knock and knock > 11 else 0)
            if best is None or key > best_key:
                best, best_key = hand, key
        assert best is not None
        hands.append(best)
        taken = set(best[len(known) :])
        unseen = [c for c in unseen if c not in taken]
    stock = unseen[: view.stock_size] if view.stock_size <= len(unseen) else unseen
    to_act = raw.get("to_act")
    phase = {"play": TURN, "final": FINAL, "call": CALL}.get(str(raw.get("phase", "")))
    if to_act is None or phase is None:
        return None
    to_act = int(to_act)
    knocker = raw.get("knocker")
    knocker = None if knocker is None else int(knocker)
    pending: list[int] = []
    answers = _answers(raw, n)
    called = [a == "call" for a in answers]
    if phase != TURN:
        if knocker is None:
            return None
        order = [(knocker + i) % n for i in range(1, n)]
        if to_act not in order:
            return None
        pending = order[order.index(to_act) :]
    palms = raw.get("palmed") or [False] * n
    palmed = [bool(p) for p in palms][:n]
    palmed += [False] * (n - len(palmed))
    return Sim(
        hands=hands,
        stock=stock,
        pile=list(view.discard_pile),
        to_act=to_act,
        phase=phase,
        knocker=knocker,
        pending=pending,
        called=called,
        reshuffled=bool(raw.get("reshuffled", False)),
        palmed=palmed,
    )


def _answers(raw: dict[str, object] | object, n: int) -> list[str | None]:
    """Call/fold answers so far per seat, from the observation's ``calls`` field."""
    calls = raw.get("calls") if isinstance(raw, dict) else None
    out: list[str | None] = [None] * n
    if isinstance(calls, list):
        for s, a in enumerate(calls[:n]):
            if a is True or a == "call":
                out[s] = "call"
            elif a is False or a == "fold":
                out[s] = "fold"
    elif isinstance(calls, dict):
        for k, a in calls.items():
            s = int(k)
            if 0 <= s < n and a is not None:
                out[s] = "call" if a in (True, "call") else "fold"
    return out


# --- moves -----------------------------------------------------------------------------------


def do_draw(sim: Sim, seat: int, select: Card, source: str, rng: random.Random) -> None:
    hand = sim.hands[seat]
    hand.remove(select)
    if source == "discard":
        hand.append(sim.pile.pop())
    elif source == "palm":
        sim.pile.pop()  # the cover goes out of play
        hand.append(sim.pile.pop())
        sim.palmed[seat] = True
    else:
        if not sim.stock and not sim.reshuffled and len(sim.pile) >= 2:
            sim.stock = sim.pile[:-1]
            rng.shuffle(sim.stock)
            sim.pile = sim.pile[-1:]
            sim.reshuffled = True
        if sim.stock:
            hand.append(sim.stock.pop())
        else:  # cannot happen under DK7; keep the hand size anyway
            hand.append(select)
            return
    sim.pile.append(select)
    _end_turn(sim, seat)


def do_knock(sim: Sim, seat: int) -> None:
    sim.knocker = seat
    sim.phase = FINAL
    sim.pending = [(seat + i) % sim.players for i in range(1, sim.players)]
    sim.to_act = sim.pending[0]


def do_stand(sim: Sim, seat: int) -> None:
    _end_turn(sim, seat)


def do_answer(sim: Sim, seat: int, call: bool) -> None:
    sim.called[seat] = call
    if sim.pending and sim.pending[0] == seat:
        sim.pending.pop(0)
    if sim.pending:
        sim.to_act = sim.pending[0]
    else:
        showdown(sim, pot=True)


def _end_turn(sim: Sim, seat: int) -> None:
    if not sim.stock and (sim.reshuffled or len(sim.pile) < 2):
        showdown(sim, pot=False)
        return
    if sim.phase == FINAL:
        if sim.pending and sim.pending[0] == seat:
            sim.pending.pop(0)
        if sim.pending:
            sim.to_act = sim.pending[0]
        else:
            assert sim.knocker is not None
            sim.phase = CALL
            sim.pending = [(sim.knocker + i) % sim.players for i in range(1, sim.players)]
            sim.to_act = sim.pending[0]
        return
    sim.to_act = (seat + 1) % sim.players


def showdown(sim: Sim, pot: bool) -> None:
    """Round scores (DK6, DK8): hand points - deadwood + pot, then Suspicion."""
    evals = [quick(h) for h in sim.hands]
    scores = [e[0] for e in evals]
    if pot and sim.knocker is not None:
        # The engine's own settlement (DK6), on the evaluator's strength codes.
        knocker = sim.knocker
        calls = ["call" if c and s != knocker else None for s, c in enumerate(sim.called)]
        settled = settle_pot(knocker, calls, [e[4] for e in evals])
        scores = [x + p for x, p in zip(scores, settled.result, strict=True)]
    sim.scores = [x + y for x, y in zip(scores, suspicions(sim.palmed, scores), strict=True)]
    sim.phase = OVER


# --- the playout policy ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Style:
    """How the simulated players play: knock and call thresholds."""

    knock_count: int = 6  # always knock at or below this knock count
    knock_score: int = 20  # or when the hand scores at least this (and may knock)
    call_points: int = 30  # call with at least these hand points


DEFAULT_STYLE: Final = Style()


def policy_move(sim: Sim, rng: random.Random, style: Style = DEFAULT_STYLE) -> None:
    """Play one quick, sensible move for the seat to act."""
    seat = sim.to_act
    hand = sim.hands[seat]
    score, knock, points, _dw, _code = quick(hand)
    if sim.phase == CALL:
        do_answer(sim, seat, points >= style.call_points)
        return
    if (
        sim.phase == TURN
        and sim.knocker is None
        and knock <= KNOCK_LIMIT
        and (knock <= style.knock_count or score >= style.knock_score)
    ):
        do_knock(sim, seat)
        return
    top = sim.pile[-1] if sim.pile else None
    if top is not None:
        best_i, best_v = -1, score
        for i in range(len(hand)):
            v = quick([*hand[:i], *hand[i + 1 :], top])[0]
            if v > best_v:
                best_i, best_v = i, v
        if best_i >= 0:
            do_draw(sim, seat, hand[best_i], "discard", rng)
            return
    if sim.phase == FINAL:
        do_stand(sim, seat)
        return
    worst, keep = hand[0], -(10**9)
    for i in range(len(hand)):
        v = quick([*hand[:i], *hand[i + 1 :]])[0]
        if v > keep:
            worst, keep = hand[i], v
    do_draw(sim, seat, worst, "stock", rng)


def apply_action(sim: Sim, seat: int, action: object, rng: random.Random) -> bool:
    """Play one public engine action in the sample; False if it does not fit the sample."""
    kind = getattr(action, "kind", "")
    if sim.phase == OVER or sim.to_act != seat:
        return False
    if kind == "knock":
        do_knock(sim, seat)
    elif kind == "stand":
        do_stand(sim, seat)
    elif kind in ("call", "fold"):
        do_answer(sim, seat, kind == "call")
    elif kind == "draw":
        select = getattr(action, "select", None)
        source = getattr(action, "source", "stock")
        source = str(getattr(source, "value", source))
        if not isinstance(select, Card):
            return False
        if select not in sim.hands[seat]:
            held = [c for c in sim.hands[seat] if c >= 52]
            if select < 52 or not held:
                return False
            select = held[0]  # a joker select means whichever joker the hand holds
        if source == "palm" and len(sim.pile) < 2:
            return False
        do_draw(sim, seat, select, source, rng)
    else:
        return False
    return True


def playout(
    sim: Sim, rng: random.Random, style: Style = DEFAULT_STYLE, cap: int = 400
) -> list[int]:
    """Finish the round; return every seat's round score."""
    steps = 0
    while sim.phase != OVER and steps < cap:
        policy_move(sim, rng, style)
        steps += 1
    if sim.phase != OVER:
        showdown(sim, pot=False)
    return sim.scores
