"""How ``strong-v1`` knocks and answers at its own table (issue #17, tenth pass).

Plays 4-player Deadwood Knock matches with ``strong-v1`` at every seat (``--iterations``
a decision, one match a seed of ``--seeds LO:HI``) and, at every turn where a
knock is allowed and at every call-or-fold, logs the stock size, the hand's score and
hand points, and what it chose (one JSON line each with ``--log``). At the end it prints
the knocks over the chances by stock size and hand score (``ODDS_STOCK`` /
``ODDS_SCORE``: the table the tenth pass's ``FITTED_ODDS`` held, docs/bots-experiments.md,
"Deadwood Knock, tenth pass") and the calls by hand points.

    .venv/bin/python bench/dk_knock_log.py --seeds 10100:10108 --iterations 200
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter

from deadwood_knock.bots import Budget, get_bot
from deadwood_knock.bots.dk_playout import quick
from deadwood_knock.games import get_game

#: The stock sizes and hand scores that bound the table's rows and columns.
ODDS_STOCK = (7, 14)
ODDS_SCORE = (40, 50, 60, 70)


def _bucket(value: int, bounds: tuple[int, ...]) -> int:
    return next((i for i, b in enumerate(bounds) if value < b), len(bounds))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seeds", default="10100:10108")
    p.add_argument("--iterations", type=int, default=200)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--log", action="store_true", help="print every logged decision")
    a = p.parse_args()
    game = get_game("deadwood-knock")
    bot = get_bot("strong-v1")
    budget = Budget(iterations=a.iterations)
    chances: Counter[tuple[int, int]] = Counter()
    knocks: Counter[tuple[int, int]] = Counter()
    answers: Counter[int] = Counter()
    calls: Counter[int] = Counter()
    lo, hi = map(int, a.seeds.split(":"))
    for seed in range(lo, hi):
        state = game.new_game(game.options_from_json({"players": a.players}), seed)
        rng = random.Random(seed)
        while not game.is_over(state):
            seat = game.to_act(state)
            legal = game.legal_actions(state)
            kinds = {x.kind for x in legal}
            action = bot.act(game, game.observe(state, seat), legal, rng, budget)
            if "knock" in kinds or "call" in kinds:
                score, _knock, points = quick(state.hands[seat])[:3]
                took = action.kind in ("knock", "call")
                if "knock" in kinds:
                    cell = (_bucket(len(state.stock), ODDS_STOCK), _bucket(score, ODDS_SCORE))
                    chances[cell] += 1
                    knocks[cell] += took
                else:
                    answers[points] += 1
                    calls[points] += took
                if a.log:
                    row = {"seed": seed, "t": "knock" if "knock" in kinds else "call"}
                    row |= {"stock": len(state.stock), "score": score, "points": points}
                    print(json.dumps(row | {"took": took}), flush=True)
            state, _ = game.apply(state, action)
    print(f"knocks {sum(knocks.values())} in {sum(chances.values())} chances")
    for i in range(len(ODDS_STOCK) + 1):
        cells = [(knocks[(i, j)], chances[(i, j)]) for j in range(len(ODDS_SCORE) + 1)]
        print(f"stock row {i}:", "  ".join(f"{k}/{n} ({k / n if n else 0:.3f})" for k, n in cells))
    print("calls by hand points:", {pts: (calls[pts], answers[pts]) for pts in sorted(answers)})


if __name__ == "__main__":
    main()
