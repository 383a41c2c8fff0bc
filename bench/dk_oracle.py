"""Deadwood Knock's knock and call decisions, valued on the real deal.

``collect``: strong-v1 plays 4-player rounds against itself (100 iterations a decision);
at every call decision, and at every decision where a knock is legal with a hand scoring
45 or more, each choice (call / fold; knock / strong-v1's own other move) is applied to
the real state and the round finished by strong-v1 for every seat (40 iterations a
decision; the stock is the real one), twice for a call, fold or wait, once for a knock.
The seat's value is its round score minus the others' mean. ``judge``: a bot chooses at
each stored position (between the two valued moves) and scores the value of its choice;
printed as the gain over never knocking (never calling), per position, with its
standard error. Comparing two bots position by position gives a paired difference.

    .venv/bin/python bench/dk_oracle.py collect --seeds 5001:5012 --out positions.pkl
    .venv/bin/python bench/dk_oracle.py judge positions.pkl --bot strong --iterations 100 \
        [--set "inference.KNOCKER_TRIES = 25"] [--out choices.json]

A position's values come from one continuation policy (strong-v1 at 40 iterations), so
they are a yardstick for one decision, not the whole match.
"""

from __future__ import annotations

import argparse
import json
import pickle
import random
import statistics
from typing import Any

from deadwood_knock.bots import Budget, get_bot, inference, search
from deadwood_knock.bots.dk import hand_value
from deadwood_knock.games import get_game
from deadwood_knock.games.base import Action

CONTINUATION = Budget(iterations=40)
PLAY = Budget(iterations=100)
KNOCK_SCORE = 45


def _against_table(scores: list[int], seat: int) -> float:
    others = [v for s, v in enumerate(scores) if s != seat]
    return scores[seat] - sum(others) / len(others)


def _finish(game: Any, state: Any, seat: int, seed: int) -> float:
    bot = get_bot("strong-v1")
    rng = random.Random(seed)
    while True:
        who = game.to_act(state)
        legal = game.legal_actions(state)
        action = bot.act(game, game.observe(state, who), legal, rng, CONTINUATION)
        state, events = game.apply(state, action)
        for e in events:
            if e.kind == "round_result":
                return _against_table(list(e.data["round_scores"]), seat)


def _value(game: Any, state: Any, action: Action, seat: int, reps: int) -> float:
    after, events = game.apply(state, action)
    for e in events:
        if e.kind == "round_result":
            return _against_table(list(e.data["round_scores"]), seat)
    return sum(_finish(game, after, seat, 1000 + k) for k in range(reps)) / reps


def collect(seed: int) -> list[dict[str, Any]]:
    game = get_game("deadwood-knock")
    state = game.new_game(game.options_from_json({"players": 4, "rounds": 2}), seed)
    bot = get_bot("strong-v1")
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    while not game.is_over(state):
        seat = game.to_act(state)
        legal = game.legal_actions(state)
        obs = game.observe(state, seat)
        kinds = {a.kind for a in legal}
        chosen = bot.act(game, obs, legal, rng, PLAY)
        if "call" in kinds:
            call = next(a for a in legal if a.kind == "call")
            fold = next(a for a in legal if a.kind == "fold")
            values = {"call": _value(game, state, call, seat, 2)}
            values["fold"] = _value(game, state, fold, seat, 2)
            out.append({"t": "call", "state": state, "seat": seat, "v": values})
        elif "knock" in kinds and hand_value(state.hands[seat]).score >= KNOCK_SCORE:
            knock = next(a for a in legal if a.kind == "knock")
            wait = chosen
            if wait.kind == "knock":
                rest = [a for a in legal if a.kind != "knock"]
                wait = bot.evaluate(game, obs, rest, random.Random(1), PLAY)[0].action
            values = {"knock": _value(game, state, knock, seat, 1)}
            values["wait"] = _value(game, state, wait, seat, 2)
            out.append({"t": "knock", "state": state, "seat": seat, "wait": wait, "v": values})
        state, _ = game.apply(state, chosen)
    return out


def judge(path: str, bot_name: str, iterations: int, setup: str) -> dict[str, list[float]]:
    exec(setup, {"search": search, "inference": inference})  # module constants to try
    game = get_game("deadwood-knock")
    with open(path, "rb") as f:
        data = pickle.load(f)
    bot = get_bot(bot_name)
    chosen: dict[str, list[float]] = {"call": [], "knock": []}
    gains: dict[str, list[float]] = {"call": [], "knock": []}
    took_count = {"call": 0, "knock": 0}
    for i, d in enumerate(data):
        state, seat = d["state"], d["seat"]
        legal = game.legal_actions(state)
        if d["t"] == "knock":
            legal = [a for a in legal if a.kind == "knock" or a == d["wait"]]
        obs = game.observe(state, seat)
        a = bot.act(game, obs, legal, random.Random(i), Budget(iterations=iterations))
        t, other = ("call", "fold") if d["t"] == "call" else ("knock", "wait")
        took = a.kind == t
        took_count[t] += took
        chosen[t].append(d["v"][t] if took else d["v"][other])
        gains[t].append(d["v"][t] - d["v"][other] if took else 0.0)
    for t, g in gains.items():
        if len(g) > 1:
            se = statistics.stdev(g) / len(g) ** 0.5
            print(
                f"{bot_name} {setup!r}: {t} {len(g)} positions, took {took_count[t]}; "
                f"gain over never-{t} {statistics.mean(g):+.2f} (se {se:.2f})"
            )
    return chosen


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--seeds", default="5001:5012")
    c.add_argument("--out", required=True)
    j = sub.add_parser("judge")
    j.add_argument("positions")
    j.add_argument("--bot", default="strong")
    j.add_argument("--iterations", type=int, default=100)
    j.add_argument("--set", default="")
    j.add_argument("--out", default=None)
    a = p.parse_args()
    if a.cmd == "collect":
        lo, hi = map(int, a.seeds.split(":"))
        rows = [r for seed in range(lo, hi) for r in collect(seed)]
        with open(a.out, "wb") as f:
            pickle.dump(rows, f)
        print(len(rows), "positions")
    else:
        chosen = judge(a.positions, a.bot, a.iterations, a.set)
        if a.out:
            with open(a.out, "w") as f:
                json.dump(chosen, f)


if __name__ == "__main__":
    main()
