"""The strong bot's Deadwood Knock playouts: its sampling and playout policy, driving
the engine's own core (:class:`deadwood_knock.games.deadwood_knock.core.Core`).

No rule lives here. A sampled position is a non-recording ``Core`` (no events, no log)
whose match ends with the round in hand, so a playout stops at the round's scoring and
reads each seat's round score (with Suspicion) from ``Core.round_scores``. What is the
bot's own: how it guesses the hidden cards (:func:`sample_position`, from the seat's view
only, never the real deal) and how the simulated players move (:func:`policy_move`).
"""

from __future__ import annotations

import dataclasses
import random
from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from deadwood_knock.bots import draws
from deadwood_knock.bots.view import TableView, cards_of
from deadwood_knock.cards import Card
from deadwood_knock.games.deadwood_knock.core import (
    CALL,
    DRAWS,
    FOLD,
    KNOCK,
    STAND,
    Core,
    DeadwoodKnockOptions,
    DeadwoodKnockState,
)
from deadwood_knock.games.deadwood_knock.hand import KNOCK_LIMIT, evaluate_batch

__all__ = [
    "DEFAULT_STYLE",
    "Style",
    "apply_action",
    "dealt",
    "playout",
    "policy_move",
    "quick",
    "sample_position",
]

# Keyed by the sorted cards' bytes, not a tuple of Cards: a Card is an int subclass, so
# a tuple of them stays tracked by the garbage collector, and half a million tracked keys
# made each full collection a 100 ms pause in the middle of a decision. Bytes keys and
# tuples of ints are untracked, so the memo costs the collector nothing.
_CACHE: dict[bytes, tuple[int, int, int, int, int]] = {}
_CACHE_CAP: Final = 1 << 19


def quick(cards: Sequence[Card]) -> tuple[int, int, int, int, int]:
    """(score, knock count, hand points, deadwood points, strength code), memoised."""
    return _quick_sorted(sorted(cards))


def _quick_sorted(ordered: Sequence[Card]) -> tuple[int, int, int, int, int]:
    """:func:`quick` of cards already in card order: the playout policy's hands, made
    from the core's sorted hands, skip the sort (issue 17). The memo's key is the
    sorted cards' bytes either way, so both find the same entries."""
    key = bytes(ordered)
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    if len(_CACHE) >= _CACHE_CAP:
        _CACHE.clear()
    res = _CACHE[key] = evaluate_batch([ordered])[0]
    return res


def _last_round(options: DeadwoodKnockOptions, rnd: int) -> DeadwoodKnockOptions:
    """The table's options with the match ending after round ``rnd`` (0-based) and the
    scoring split shown for everyone: a playout ends at the round's scoring."""
    return dataclasses.replace(options, rounds=rnd + 1, manual_split=False)


def dealt(state: DeadwoodKnockState) -> Core:
    """A playout core at an engine state (for the tests and the bench, which compare or
    time the playouts on real deals; the bot never gets a state and samples its own)."""
    core = Core.of(state, record=False)
    core.options = _last_round(state.options, state.round)
    return core


def sample_position(
    view: TableView,
    rng: random.Random,
    deal: Callable[[random.Random], tuple[list[list[Card]], list[Card]]] | None = None,
    unseen_cards: Sequence[Card] | None = None,
) -> Core | None:
    """A full round position consistent with everything this seat has seen.

    Cards the seat saw go where they were seen (its hand, the pile, cards others took
    from the pile); every unseen card is dealt at random to the other hands and the
    stock, or by ``deal`` (every seat's hand and the rest, e.g. the inference model's
    ``HiddenDealer.deal``). Returns ``None`` when the observation is not a Deadwood Knock
    turn it can read. ``unseen_cards``: ``view.unseen()`` if the caller has it already
    (the search asks once a decision, not once a sample).
    """
    raw = view.raw
    n = view.players
    unseen = list(view.unseen() if unseen_cards is None else unseen_cards)
    draws.shuffle(rng, unseen)  # rng.shuffle, in fewer calls (the same draws)
    hands: list[tuple[Card, ...]] = []
    knocker_seat = raw.get("knocker")
    if deal is not None:
        dealt_hands, unseen = deal(rng)
        hands = [tuple(sorted(h)) for h in dealt_hands]
    for s in range(n if deal is None else 0):
        if s == view.seat:
            hands.append(tuple(sorted(view.hand)))
            continue
        known = list(view.known_cards[s]) if s < len(view.known_cards) else []
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
            pick = draws.sample(rng, unseen, need) if need <= len(unseen) else list(unseen)
            hand = known + pick
            score, knock = quick(hand)[:2] if len(hand) >= 5 else (0, 99)
            key = score - (1000 if must_knock and knock > KNOCK_LIMIT else 0)
            if best is None or key > best_key:
                best, best_key = hand, key
        assert best is not None
        hands.append(tuple(sorted(best)))
        taken = set(best[len(known) :])
        unseen = [c for c in unseen if c not in taken]
    stock = unseen[: view.stock_size] if view.stock_size <= len(unseen) else unseen
    to_act = raw.get("to_act")
    phase = str(raw.get("phase", ""))
    if to_act is None or phase not in ("play", "final", "call"):
        return None
    to_act = int(to_act)
    knocker = raw.get("knocker")
    knocker = None if knocker is None else int(knocker)
    if phase != "play" and (knocker is None or to_act == knocker):
        return None
    palms = raw.get("palmed") or [False] * n
    palmed = [bool(p) for p in palms][:n]
    palmed += [False] * (n - len(palmed))
    table = raw.get("options") or {}
    options = _options(n, bool(table.get("sleight_of_hand", False)))
    if options is None:
        return None
    state = DeadwoodKnockState(
        seed=rng.getrandbits(63),
        options=options,
        round=0,
        dealer=0,
        hands=tuple(hands),
        stock=tuple(stock),
        discard=tuple(view.discard_pile),
        covers=cards_of(raw.get("covers") or ()),
        phase=phase,
        to_act=to_act,
        knocker=knocker,
        calls=tuple(_answers(raw, n)),
        palmed=tuple(palmed),
        reshuffled=bool(raw.get("reshuffled", False)),
        reveals=(None,) * n,
        known=(frozenset(),) * n,
        totals=(0,) * n,
    )
    return Core.of(state, record=False)


#: The playout table's options by (players, Sleight of Hand): built once, not once a
#: sample (they are frozen, so every sample may share them; issue 17, branch fast18).
_OPTIONS: dict[tuple[int, bool], DeadwoodKnockOptions | None] = {}


def _options(players: int, sleight: bool) -> DeadwoodKnockOptions | None:
    """``DeadwoodKnockOptions(players, rounds=1, sleight_of_hand)``; ``None`` where those
    options are refused."""
    key = (players, sleight)
    if key not in _OPTIONS:
        try:
            _OPTIONS[key] = DeadwoodKnockOptions(players=players, rounds=1, sleight_of_hand=sleight)
        except ValueError:
            _OPTIONS[key] = None
    return _OPTIONS[key]


def _answers(raw: Mapping[str, Any], n: int) -> list[str | None]:
    """Call/fold answers so far per seat, from the observation's ``calls`` field."""
    calls = raw.get("calls") if hasattr(raw, "get") else None
    out: list[str | None] = [None] * n
    if isinstance(calls, list | tuple):
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


# --- the playout policy ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Style:
    """How the simulated players play: knock and call thresholds."""

    knock_count: int = 6  # always knock at or below this knock count
    knock_score: int = 20  # or when the hand scores at least this (and may knock)
    call_points: int = 30  # call with at least these hand points


DEFAULT_STYLE: Final = Style()


def policy_move(core: Core, rng: random.Random, style: Style = DEFAULT_STYLE) -> None:
    """Play one quick, sensible (and legal) move for the seat to act."""
    seat = core.to_act
    assert seat is not None
    hand = core.hands[seat]
    score, knock, points, _dw, _code = _quick_sorted(hand)
    phase = core.phase
    if phase == "call":
        core.step(CALL if points >= style.call_points else FOLD)
        return
    if (
        phase == "play"
        and knock <= KNOCK_LIMIT
        and (knock <= style.knock_count or score >= style.knock_score)
    ):
        core.step(KNOCK)
        return
    # The core keeps each hand in card order, so the hands weighed below are made in
    # order (the top put in its place once), and their look-ups skip quick's sort.
    # The memo's keys are cut straight from the hand's bytes (one card left out), so a
    # hit (nearly every look-up) builds no list; a miss goes through _quick_sorted with
    # the same cards as before (issue 17, branch fast18).
    get = _CACHE.get
    top = core.discard[-1] if core.discard else None
    if top is not None:
        at = bisect_left(hand, top)
        with_top = [*hand[:at], top, *hand[at:]]
        packed = bytes(with_top)
        best_i, best_v = -1, score
        for i in range(len(hand)):
            j = i if i < at else i + 1
            row = get(packed[:j] + packed[j + 1 :])
            if row is None:
                row = _quick_sorted([*with_top[:j], *with_top[j + 1 :]])
            v = row[0]
            if v > best_v:
                best_i, best_v = i, v
        if best_i >= 0:
            core.step(DRAWS["discard"][hand[best_i]])
            return
    if phase == "final":
        core.step(STAND)
        return
    worst, keep = hand[0], -(10**9)
    packed = bytes(hand)
    for i in range(len(hand)):
        row = get(packed[:i] + packed[i + 1 :])
        if row is None:
            row = _quick_sorted([*hand[:i], *hand[i + 1 :]])
        v = row[0]
        if v > keep:
            worst, keep = hand[i], v
    # At the start of a turn the stock can always be taken: a stock that cannot be
    # rebuilt ends the round when the turn before ends (DK7).
    core.step(DRAWS["stock"][worst])


def apply_action(core: Core, seat: int, action: object) -> bool:
    """Play one engine action in the sample; False if it is not legal there."""
    if core.to_act != seat or core.why_illegal(action) is not None:
        return False
    core.step(action)  # type: ignore[arg-type]  # why_illegal accepted it: an action
    return True


def playout(
    core: Core,
    rng: random.Random,
    style: Style = DEFAULT_STYLE,
    cap: int = 400,
    styles: Sequence[Style] | None = None,
) -> list[int]:
    """Finish the round; return every seat's round score (with Suspicion). A playout cut
    at ``cap`` moves (the policy can trade the same cards back and forth) is valued at
    each hand's score as it stands, an estimate. ``styles`` (one per seat) replaces
    ``style`` seat by seat."""
    steps = 0
    # Two loops, so the common case (one style) looks up nothing per move: this is the
    # search's innermost loop.
    if styles is None:
        while core.phase != "over" and steps < cap:
            policy_move(core, rng, style)
            steps += 1
    else:
        while core.phase != "over" and steps < cap:
            seat = core.to_act
            assert seat is not None
            policy_move(core, rng, styles[seat])
            steps += 1
    if core.phase != "over":
        return [quick(h)[0] for h in core.hands]
    return list(core.round_scores)
