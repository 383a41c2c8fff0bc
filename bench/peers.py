"""Adapters for the peer libraries the benchmark compares with.

Each adapter converts our seeded hands to the peer's own card encoding once
(``prepare``, not timed), then offers ``results`` (one value per hand, for the
agreement checks) and ``evaluate`` (the whole batch, for timing). Only each library's
public calls are timed, looped over the hands the same way as ours.

Encodings, read from the installed sources:
* ours: ``suit * 13 + rank - 1``, suits ``s h d c`` (``deadwood_knock.cards``).
* OpenSpiel gin_rummy: ``suit * 13 + rank - 1`` with suits ``s c d h``.
* RLCard gin_rummy: card id ``rank - 1 + 13 * suit`` with suits ``S H D C`` (same as ours),
  as ``rlcard.games.base.Card`` objects.
* treys, eval7, phevaluator: card strings like ``Th``, which is our notation.

Run as a script (``bench/.venv/bin/python bench/peers.py --check N``) it prints one JSON
object comparing every peer with our evaluators on N seeded hands; the test suite uses it.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import json
import random
from collections.abc import Callable, Sequence
from importlib import metadata
from typing import Any

Hand = Sequence[int]

# Distribution names as installed, keyed by the name used in tables.
DISTRIBUTIONS = {
    "treys": "treys",
    "phevaluator": "phevaluator",
    "eval7": "eval7",
    "RLCard": "rlcard",
    "OpenSpiel": "open_spiel",
}

_OPENSPIEL_SUIT = (0, 3, 2, 1)  # ours s h d c -> OpenSpiel's s c d h


def version(peer: str) -> str | None:
    try:
        return metadata.version(DISTRIBUTIONS[peer])
    except metadata.PackageNotFoundError:
        return None


def unavailable(peer: str) -> str | None:
    """Why the peer cannot be used here, or None when it imports."""
    module = {"OpenSpiel": "pyspiel", "RLCard": "rlcard"}.get(peer, DISTRIBUTIONS[peer])
    try:
        importlib.import_module(module)
    except Exception as exc:  # any import failure just excludes the peer
        return f"{peer} not importable here: {exc}"
    return None


def _text(card: int) -> str:
    return "A23456789TJQK"[card % 13] + "shdc"[card // 13]


# --- 7-card poker evaluators (lower rank = stronger hand in treys and phevaluator) ---


class Treys:
    name = "treys"

    def __init__(self) -> None:
        from treys import Card, Evaluator  # type: ignore[import-not-found]

        self._new = Card.new
        self._evaluator = Evaluator()

    def prepare(self, hands: list[Hand]) -> list[tuple[list[int], list[int]]]:
        # treys takes hole cards and board apart; a 7-card hand is 2 + 5.
        out = []
        for hand in hands:
            cards = [self._new(_text(c)) for c in hand]
            out.append((cards[:2], cards[2:]))
        return out

    def results(self, prepared: list[tuple[list[int], list[int]]]) -> list[int]:
        evaluate = self._evaluator.evaluate
        return [evaluate(h, b) for h, b in prepared]

    def evaluate(self, prepared: list[tuple[list[int], list[int]]]) -> None:
        evaluate = self._evaluator.evaluate
        for hole, board in prepared:
            evaluate(hole, board)

    def rank_class(self, rank: int) -> str:
        """treys' name of the hand category, e.g. ``Two Pair``."""
        ev = self._evaluator
        return str(ev.class_to_string(ev.get_rank_class(rank)))


class PhEvaluator:
    name = "phevaluator"

    def __init__(self) -> None:
        from phevaluator import Card, evaluate_cards  # type: ignore[import-not-found]

        self._id = Card.to_id
        self._evaluate = evaluate_cards

    def prepare(self, hands: list[Hand]) -> list[list[int]]:
        return [[self._id(_text(c)) for c in hand] for hand in hands]

    def results(self, prepared: list[list[int]]) -> list[int]:
        evaluate = self._evaluate
        return [evaluate(*h) for h in prepared]

    def evaluate(self, prepared: list[list[int]]) -> None:
        evaluate = self._evaluate
        for hand in prepared:
            evaluate(*hand)


class Eval7:
    name = "eval7"

    def __init__(self) -> None:
        import eval7  # type: ignore[import-not-found]

        self._card = eval7.Card
        self._evaluate = eval7.evaluate

    def prepare(self, hands: list[Hand]) -> list[list[Any]]:
        return [[self._card(_text(c)) for c in hand] for hand in hands]

    def results(self, prepared: list[list[Any]]) -> list[int]:
        return [int(self._evaluate(h)) for h in prepared]

    def evaluate(self, prepared: list[list[Any]]) -> None:
        list(map(self._evaluate, prepared))


# --- gin rummy deadwood -------------------------------------------------------------


class OpenSpiel:
    """OpenSpiel's C++ gin rummy utilities and game, driven from Python."""

    name = "OpenSpiel"

    def __init__(self) -> None:
        import pyspiel  # type: ignore[import-not-found]

        self._pyspiel = pyspiel
        # Standard deck and a 10-card hand: min_deadwood of 11 cards takes its
        # "best discard" shortcut (drop the highest deadwood card of the best
        # 11-card arrangement), which is not always the true optimum.
        self.utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)

    @staticmethod
    def encode(card: int) -> int:
        return _OPENSPIEL_SUIT[card // 13] * 13 + card % 13

    def prepare(self, hands: list[Hand]) -> list[list[int]]:
        encode = self.encode
        return [[encode(c) for c in hand] for hand in hands]

    def results(self, prepared: list[list[int]]) -> list[int]:
        """``min_deadwood``: the count of 10 cards, or the shortcut for 11."""
        return list(map(self.utils.min_deadwood, prepared))

    def evaluate(self, prepared: list[list[int]]) -> None:
        list(map(self.utils.min_deadwood, prepared))

    def exact_best_discard(self, prepared: list[list[int]]) -> list[int]:
        """The true 11-card figure from OpenSpiel: min over discards of the 10-card count."""
        md = self.utils.min_deadwood
        return [min(md(h[:i] + h[i + 1 :]) for i in range(len(h))) for h in prepared]

    # -- playouts --

    def random_hand(self, deck: list[int], rng: random.Random) -> int:
        """One gin_rummy game (one hand) of uniformly random legal play; returns the
        players' actions. Chance nodes (the deal and every stock draw) take the
        cards of ``deck`` (OpenSpiel encoding) in order, so the stock is seeded too."""
        state = self._game.new_initial_state()
        next_card = iter(deck)
        random = rng.random
        actions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(next(next_card))
            else:
                # The draw of our loop (bench.play_kr_hand): a uniform index into the list.
                legal = state.legal_actions()
                state.apply_action(legal[int(random() * len(legal))])
                actions += 1
        return actions

    @property
    def _game(self) -> Any:
        game = getattr(self, "_loaded", None)
        if game is None:
            game = self._loaded = self._pyspiel.load_game("gin_rummy")
        return game

    def random_hands(self, decks: list[list[int]], rng: random.Random) -> None:
        for deck in decks:
            self.random_hand(deck, rng)

    # -- the reinforcement-learning environment --

    def env_runner(self, seed: int) -> Callable[[int, random.Random], None]:
        """``run(steps, rng)``: steps of OpenSpiel's Python RL environment on gin_rummy
        (``rl_environment.Environment``: each step one player action, the chance nodes
        sampled inside, observation tensors and legal actions built), a uniformly
        random legal action each; episodes reset as they end."""
        from open_spiel.python import rl_environment  # type: ignore[import-not-found]

        env = rl_environment.Environment(
            "gin_rummy", chance_event_sampler=rl_environment.ChanceEventSampler(seed)
        )
        box = {"ts": env.reset()}

        def run(steps: int, rng: random.Random) -> None:
            ts = box["ts"]
            random = rng.random
            done = 0
            while done < steps:
                if ts.last():
                    ts = env.reset()
                    continue
                obs = ts.observations
                legal = obs["legal_actions"][obs["current_player"]]
                ts = env.step([legal[int(random() * len(legal))]])
                done += 1
            box["ts"] = ts

        return run


class RLCard:
    """RLCard's pure-Python gin rummy melding, used the way its own judge uses it."""

    name = "RLCard"

    def __init__(self) -> None:
        from rlcard.games.gin_rummy.utils import melding, utils  # type: ignore[import-not-found]

        self._melding = melding
        self._utils = utils

    def prepare(self, hands: list[Hand]) -> list[list[Any]]:
        get_card = self._utils.get_card  # card id = rank - 1 + 13 * suit, suits S H D C
        return [[get_card(int(c)) for c in hand] for hand in hands]

    def count10(self) -> Callable[[list[Any]], int]:
        best_clusters = self._melding.get_best_meld_clusters
        deadwood_count = self._utils.get_deadwood_count
        value = self._utils.get_deadwood_value

        def count(hand: list[Any]) -> int:
            clusters = best_clusters(hand)
            if clusters:
                return int(deadwood_count(hand, clusters[0]))
            return sum(value(c) for c in hand)

        return count

    def best_discard11(self) -> Callable[[list[Any]], int]:
        # As RLCard's judge finds knock cards: every meld cluster of the 11 cards,
        # less its highest deadwood card; the empty cluster too.
        clusters_of = self._melding.get_meld_clusters
        value = self._utils.get_deadwood_value

        def count(hand: list[Any]) -> int:
            values = [value(c) for c in hand]
            best: int = sum(values) - max(values)
            for cluster in clusters_of(hand):
                melded = [c for pile in cluster for c in pile]
                dead = [value(c) for c in hand if c not in melded]
                if not dead:
                    return 0
                best = min(best, int(sum(dead) - max(dead)))
            return best

        return count

    def env_runner(self, seed: int) -> Callable[[int, random.Random], None]:
        """``run(steps, rng)``: steps of RLCard's ``gin-rummy`` environment (``env.step``:
        one player action, its state dict with the observation array and legal actions),
        a uniformly random legal action each; episodes reset as they end."""
        import rlcard  # type: ignore[import-not-found]

        env = rlcard.make("gin-rummy", config={"seed": seed})
        box = {"state": env.reset()[0]}

        def run(steps: int, rng: random.Random) -> None:
            state = box["state"]
            random = rng.random
            done = 0
            while done < steps:
                if env.is_over():
                    state = env.reset()[0]
                    continue
                legal = list(state["legal_actions"])
                state, _ = env.step(legal[int(random() * len(legal))])
                done += 1
            box["state"] = state

        return run

    def results(self, prepared: list[list[Any]]) -> list[int]:
        func = self.count10() if len(prepared[0]) == 10 else self.best_discard11()
        return list(map(func, prepared))

    def evaluate(self, prepared: list[list[Any]]) -> None:
        func = self.count10() if len(prepared[0]) == 10 else self.best_discard11()
        list(map(func, prepared))


PEERS: dict[str, type[Any]] = {
    "treys": Treys,
    "phevaluator": PhEvaluator,
    "eval7": Eval7,
    "OpenSpiel": OpenSpiel,
    "RLCard": RLCard,
}


def load(name: str) -> tuple[Any | None, str | None]:
    """(adapter, None), or (None, the reason it is excluded)."""
    reason = unavailable(name)
    if reason is not None:
        return None, reason
    try:
        return PEERS[name](), None
    except Exception as exc:
        return None, f"{name} failed to start: {exc}"


# --- agreement with our evaluators --------------------------------------------------


def _mismatches(ours: list[int], theirs: list[int]) -> int:
    return sum(1 for a, b in zip(ours, theirs, strict=True) if a != b)


def check(count: int, seed: int) -> dict[str, Any]:
    """Compare every available peer with our evaluators on the same seeded hands.

    Each entry is ``{"hands": n, "mismatches": m}`` (or ``{"skipped": reason}``).
    For OpenSpiel's 11-card figure both its ``min_deadwood`` shortcut and the exact
    minimum over its 10-card counts are compared.
    """
    from deadwood_knock.bench import random_hands
    from deadwood_knock.games.knock_rummy import melds

    sets = {
        name: random_hands(seed, name, count) for name in ("kr10", "kr11", "dense10", "dense11")
    }
    ours = {
        name: [melds.count(h) if len(h) == 10 else melds.best_discard_count(h)[0] for h in hands]
        for name, hands in sets.items()
    }
    out: dict[str, Any] = {"seed": seed, "hands": count}

    def entry(name: str, theirs: list[int]) -> dict[str, int]:
        return {"hands": len(theirs), "mismatches": _mismatches(ours[name], theirs)}

    os_peer, reason = load("OpenSpiel")
    if os_peer is None:
        out["OpenSpiel"] = {"skipped": reason}
    else:
        for name, hands in sets.items():
            prepared = os_peer.prepare(hands)
            if len(hands[0]) == 10:
                out[f"OpenSpiel_{name}"] = entry(name, os_peer.results(prepared))
            else:
                out[f"OpenSpiel_{name}_shortcut"] = entry(name, os_peer.results(prepared))
                out[f"OpenSpiel_{name}_exact"] = entry(name, os_peer.exact_best_discard(prepared))
    rl_peer, reason = load("RLCard")
    if rl_peer is None:
        out["RLCard"] = {"skipped": reason}
    else:
        for name, hands in sets.items():
            out[f"RLCard_{name}"] = entry(name, rl_peer.results(rl_peer.prepare(hands)))
    out.update(check_poker(count, seed))
    return out


def check_poker(count: int, seed: int) -> dict[str, Any]:
    """The poker peers against our hand evaluator on 5-card hands: there a Deadwood
    Knock hand has exactly one split (all five cards), so it is plain poker."""
    from deadwood_knock.bench import random_hands
    from deadwood_knock.games.deadwood_knock.hand import evaluate

    five = random_hands(seed, "poker5", count)
    results = [evaluate(h) for h in five]
    strengths = [r.strength for r in results]
    out: dict[str, Any] = {}
    for name in ("treys", "phevaluator", "eval7"):
        peer, reason = load(name)
        if peer is None:
            out[name] = {"skipped": reason}
            continue
        ranks = peer.results(peer.prepare(five))
        if name == "eval7":  # eval7: higher is stronger; the others: lower is stronger
            ranks = [-r for r in ranks]
        out[name] = {"hands": count, "order_mismatches": _order_mismatches(strengths, ranks)}
        if name == "treys":
            out[name]["category_mismatches"] = sum(
                1
                for ours, rank in zip(results, ranks, strict=True)
                if _TREYS_CLASS[ours.category] != peer.rank_class(rank)
            )
    return out


_TREYS_CLASS = {
    "royal_flush": "Straight Flush",
    "straight_flush": "Straight Flush",
    "four_of_a_kind": "Four of a Kind",
    "full_house": "Full House",
    "flush": "Flush",
    "straight": "Straight",
    "three_of_a_kind": "Three of a Kind",
    "two_pair": "Two Pair",
    "pair": "Pair",
    "high_card": "High Card",
}


def _order_mismatches(strengths: list[Any], ranks: list[int]) -> int:
    """Hands whose place in our strength order differs from the peer's rank order
    (lower rank stronger): sorted both ways, equal hands must group identically."""
    order = sorted(range(len(ranks)), key=lambda i: ranks[i])
    bad = 0
    for a, b in itertools.pairwise(order):
        if ranks[a] == ranks[b]:
            bad += strengths[a] != strengths[b]
        else:
            bad += not strengths[a] > strengths[b]
    return bad


def main() -> None:
    parser = argparse.ArgumentParser(description="Check the peers agree with our evaluators.")
    parser.add_argument("--check", type=int, default=2000, metavar="N", help="hands per set")
    parser.add_argument("--seed", type=int, default=12345)
    args = parser.parse_args()
    print(json.dumps(check(args.check, args.seed)))


if __name__ == "__main__":
    main()
