"""Where a search bot's choice differs from a long search's, by the long search's values.

Plays seeded two-player games of a rummy game (default Gin) with ``--bot`` in seat 0 and
``--opponent`` in seat 1, the first hand of each game. At each decision of seat 0 with a
choice, it asks the bot (``--iterations``, as the arena would) and the same bot again with
``--long`` iterations and no culling (every candidate valued on the same samples), and
prints one JSON line: the decision's kind, the anchor (Gin: ``gin_choice``), the bot's
choice, the long search's best and how many points (by the long search's own values) the
bot's choice and the anchor are behind it. Then a summary line. Seat 0 plays the bot's
choice, so the games are the bot's own.

The long search's values come from the bot's own model (sampler and playout policy):
a disagreement says the search is noisy at its budget, not that the long search's move
is better at the table; the arena answers that (docs/bots-experiments.md, "Fourth pass:
more samples, fewer culls (Gin)").

    .venv/bin/python bench/search_disagreement.py --seeds 9300 9302 --long 2000
"""

from __future__ import annotations

import argparse
import json
import random
from typing import Any

from deadwood_knock.bots import Budget, get_bot
from deadwood_knock.bots.strong import StrongBot, gin_choice
from deadwood_knock.bots.view import view_of
from deadwood_knock.games import get_game

HAND_END = ("hand_result", "hand_void")


def disagreements(
    game_name: str, bot_name: str, opponent: str, seed: int, iterations: int, long: int
) -> list[dict[str, Any]]:
    """One row per decision of seat 0 with a choice, over the first hand of one game."""
    game = get_game(game_name)
    bot = get_bot(bot_name)
    if not isinstance(bot, StrongBot):
        raise SystemExit(f"{bot_name} is not a search bot")
    other = get_bot(opponent)
    state = game.new_game(game.options_from_json({"players": 2}), seed)
    rng = random.Random(seed)
    rows: list[dict[str, Any]] = []
    while not game.is_over(state):
        seat = game.to_act(state)
        if seat is None:
            break
        legal = game.legal_actions(state)
        obs = game.observe(state, seat)
        if seat != 0 or len(legal) < 2:
            action = other.act(game, obs, legal, rng, Budget(iterations=iterations))
        else:
            short = bot.evaluate(
                game, obs, legal, random.Random(rng.getrandbits(32)), Budget(iterations=iterations)
            )
            action = short[0].action
            values = bot.evaluate(
                game,
                obs,
                legal,
                random.Random(rng.getrandbits(32)),
                Budget(iterations=long),
                cull=False,
            )
            by = {repr(av.action): av.value for av in values}
            best = max(values, key=lambda av: av.value)
            view = view_of(obs, game.name)
            anchor = gin_choice(view, legal) if game.facts.layoffs else None
            rows.append(
                {
                    "seed": seed,
                    "kind": getattr(legal[0], "kind", ""),
                    "stock": view.stock_size,
                    "candidates": len(values),
                    "anchor": repr(anchor),
                    "chosen": repr(action),
                    "long_best": repr(best.action),
                    "chosen_behind": round(best.value - by.get(repr(action), best.value), 3),
                    "anchor_behind": (
                        round(best.value - by[repr(anchor)], 3) if repr(anchor) in by else None
                    ),
                }
            )
        state, events = game.apply(state, action)
        if any(e.kind in HAND_END for e in events):
            break
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="gin", choices=("gin", "knock-rummy"))
    ap.add_argument("--bot", default="strong")
    ap.add_argument("--opponent", default="strong-v1")
    ap.add_argument("--seeds", type=int, nargs=2, default=(9300, 9302), help="from, to (excl.)")
    ap.add_argument("--iterations", type=int, default=400)
    ap.add_argument("--long", type=int, default=2000)
    args = ap.parse_args()
    rows: list[dict[str, Any]] = []
    for seed in range(*args.seeds):
        for row in disagreements(
            args.game, args.bot, args.opponent, seed, args.iterations, args.long
        ):
            print(json.dumps(row), flush=True)
            rows.append(row)
    summary: dict[str, Any] = {"decisions": len(rows)}
    for kind in sorted({r["kind"] for r in rows}):
        of = [r for r in rows if r["kind"] == kind]
        summary[kind] = {
            "decisions": len(of),
            "left_anchor": sum(r["chosen"] != r["anchor"] for r in of),
            "long_disagrees": sum(r["chosen"] != r["long_best"] for r in of),
            "mean_behind": round(sum(r["chosen_behind"] for r in of) / len(of), 3),
        }
    print(json.dumps({"summary": summary}))


if __name__ == "__main__":
    main()
