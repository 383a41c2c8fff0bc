"""Fit the inference model's coefficients (``bots/inference.py``) and print them.

Plays seeded games between personalities and greedy through the public engine; at
sampled decisions it records, for the seat to act, every (opponent, unseen card) pair's
features and whether the opponent really holds the card (the fit may look: it is
offline, the bot only gets the coefficients). The model is a choice model: the hidden
cards of an opponent are drawn in proportion to exp(coef . features); the fit maximises
that likelihood by gradient ascent (it is concave).

    .venv/bin/python bench/fit_inference.py --game gin --games 200 --seed 1
"""

from __future__ import annotations

import argparse
import random
from typing import Any

import numpy as np

from deadwood_knock.bots import get_bot
from deadwood_knock.bots.inference import FEATURES, evidence_of, features
from deadwood_knock.bots.view import view_of
from deadwood_knock.games import get_game

BOTS = ("greedy", "legend", "sharp", "regular", "high_roller", "tenderfoot")


def collect(game_name: str, games: int, seed: int, players: int) -> list[tuple[Any, Any]]:
    """Per (decision, opponent): the features of every unseen card and which are held."""
    game = get_game(game_name)
    opts: dict[str, Any] = {"players": players}
    if game_name == "deadwood-knock":
        opts["rounds"] = 1
    rng = random.Random(seed)
    groups: list[tuple[Any, Any]] = []
    for g in range(games):
        state = game.new_game(game.options_from_json(opts), seed * 100_000 + g)
        bots = [get_bot(rng.choice(BOTS)) for _ in range(players)]
        steps = 0
        while not game.is_over(state) and steps < 400:
            seat = game.to_act(state)
            if seat is None:
                break
            obs = game.observe(state, seat)
            legal = game.legal_actions(state)
            if rng.random() < 0.25 and steps > 0:
                view = view_of(obs, game_name)
                unseen = list(view.unseen())
                ev = evidence_of(view)
                for s in range(players):
                    if s == seat:
                        continue
                    known = set(view.known_cards[s])
                    held = {c for c in state.hands[s] if c not in known}
                    if not held:
                        continue
                    x = np.array([features(c, ev[s], game_name) for c in unseen])
                    y = np.array([1.0 if c in held else 0.0 for c in unseen])
                    groups.append((x, y))
            state, events = game.apply(state, bots[seat].act(game, obs, legal, rng))
            steps += 1
            if any(e.kind in ("round_result", "hand_result", "void", "hand_void") for e in events):
                break
    return groups


def fit(groups: list[tuple[Any, Any]], steps: int = 400, lr: float = 0.5) -> Any:
    coef = np.zeros(len(FEATURES))
    total = sum(float(y.sum()) for _, y in groups)
    for _ in range(steps):
        grad = np.zeros_like(coef)
        for x, y in groups:
            w = np.exp(x @ coef)
            p = w / w.sum()
            grad += y @ x - y.sum() * (p @ x)
        coef += lr * grad / total
    return coef


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="gin")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    groups = collect(args.game, args.games, args.seed, args.players)
    coef = fit(groups)
    print(args.game, len(groups), "groups")
    for name, a in zip(FEATURES, coef, strict=True):
        print(f"  {name:12s} {a:+.3f}")
    print("(" + ", ".join(f"{a:.2f}" for a in coef) + ")")


if __name__ == "__main__":
    main()
