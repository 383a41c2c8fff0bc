"""Where a Deadwood Knock bot wins or loses its margin: duplicate matches (the arena's
deal plan: every bot plays every seat of the same deals), each round of the first bot
in the line-up split by its role (knocker, caller, folder, no knock) into hand score
(hand points - deadwood) and pot, each against the other players' mean.

    .venv/bin/python bench/dk_split.py --bots strong,strong-v1,strong-v1,strong-v1 \
        --matches 8 --seed 901 --iterations 200 [--out rounds.json]

Prints the margin per round with a 95% interval (matches as the unit, as the arena) and,
per role, its share of rounds, mean total, hand and pot, and contribution to the margin.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from collections import defaultdict
from typing import Any

from deadwood_knock.arena import Z95, match_plan
from deadwood_knock.bots import Budget, get_bot
from deadwood_knock.games import get_game
from deadwood_knock.games.base import derive_rng
from deadwood_knock.trail.figure_bots import register_figure_bots


def play(lineup: tuple[str, ...], seed: int, iterations: int, rounds: int, index: int) -> list[Any]:
    """One match as the arena plays it; every round's result with the line-up."""
    register_figure_bots()
    game = get_game("deadwood-knock")
    opts = game.options_from_json({"players": len(lineup), "rounds": rounds})
    bots = [get_bot(n) for n in lineup]
    rngs = [random.Random(derive_rng(seed, 7, s).getrandbits(64)) for s in range(len(lineup))]
    state = game.new_game(opts, seed)
    out = []
    while not game.is_over(state):
        seat = game.to_act(state)
        assert seat is not None
        legal = game.legal_actions(state)
        obs = game.observe(state, seat)
        action = bots[seat].act(game, obs, legal, rngs[seat], Budget(iterations=iterations))
        state, events = game.apply(state, action)
        for e in events:
            if e.kind == "round_result":
                d = dict(e.data)
                out.append(
                    {
                        "lineup": lineup,
                        "index": index,
                        **{k: d[k] for k in ("knocker", "calls", "pot", "round_scores", "dry")},
                        "hand": [
                            a - b
                            for a, b in zip(d["hand_points"], d["deadwood_points"], strict=True)
                        ],
                    }
                )
    return out


def report(rows: list[Any], focus: str) -> None:
    total: list[float] = []
    per_match: dict[int, list[float]] = defaultdict(list)
    roles: dict[str, list[tuple[float, float, float]]] = defaultdict(list)
    for r in rows:
        n = len(r["lineup"])
        for s, name in enumerate(r["lineup"]):
            if name != focus:
                continue
            others = [t for t in range(n) if t != s]

            def margin(v: list[int], s: int = s, others: list[int] = others) -> float:
                return v[s] - sum(v[t] for t in others) / len(others)

            row = (margin(r["round_scores"]), margin(r["hand"]), margin(r["pot"]))
            total.append(row[0])
            per_match[r["index"]].append(row[0])
            if r["dry"]:
                role = "dry"
            elif r["knocker"] == s:
                role = "knocker"
            else:
                role = str(r["calls"][s])
            roles[role].append(row)
    means = [statistics.mean(v) for v in per_match.values()]
    mean = statistics.mean(means)
    half = Z95 * statistics.stdev(means) / len(means) ** 0.5 if len(means) > 1 else float("nan")
    print(
        f"{focus}: {len(total)} rounds, margin {mean:+.2f} ({mean - half:+.2f}, {mean + half:+.2f})"
    )
    for role, v in sorted(roles.items()):
        tot, hand, pot = (statistics.mean(x[i] for x in v) for i in range(3))
        share = len(v) / len(total)
        print(
            f"  {role:8s} {len(v):4d} ({share:.2f})  total {tot:+7.2f}  hand {hand:+7.2f}"
            f"  pot {pot:+7.2f}  contributes {sum(x[0] for x in v) / len(total):+.2f}"
        )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bots", default="strong,strong-v1,strong-v1,strong-v1")
    p.add_argument("--matches", type=int, default=8)
    p.add_argument("--seed", type=int, default=901)
    p.add_argument("--iterations", type=int, default=200)
    p.add_argument("--rounds", type=int, default=10)
    p.add_argument("--out", default=None)
    a = p.parse_args()
    lineup = a.bots.split(",")
    rows = [
        r
        for i, rot, s in match_plan(lineup, a.matches, a.seed)
        for r in play(rot, s, a.iterations, a.rounds, i)
    ]
    if a.out:
        with open(a.out, "w") as f:
            json.dump(rows, f)
    report(rows, lineup[0])


if __name__ == "__main__":
    main()
