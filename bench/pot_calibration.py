"""Is Hand Focus's call-or-fold chance true? (docs/bots.md, "Hints", 2026-12-06)

At Deadwood Knock call positions of seeded tables (2 to 6 players, the trail's twelve
characters unless ``--bots`` says otherwise), prices the pot with ``dk.pot_outlook`` on
uniform deals and on the inference model's deals with the knocker the best of K deals
that allow its knock, and compares each stated chance with the share of the pot the
seat really takes if it calls and the players still to answer fold (the engine settles
the real hands). Prints, per dealer, the mean stated chance, the mean share taken, the
Brier score and the tenth-bins (stated / taken).

    .venv/bin/python bench/pot_calibration.py --seed 12 --positions 300
    .venv/bin/python bench/pot_calibration.py --seed 11 --positions 250 \\
        --bots legend,sharp,greedy,strong-v1
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from deadwood_knock.bots import get_bot
from deadwood_knock.bots.dk import pot_outlook
from deadwood_knock.bots.inference import HiddenDealer
from deadwood_knock.bots.view import view_of
from deadwood_knock.games import get_game
from deadwood_knock.games.deadwood_knock import rules as dk_rules

CHARACTERS = (
    "tenderfoot", "greenhorn", "regular", "sharp", "high_roller", "legend",
    "flush-chaser", "set-collector", "straight-shooter", "bean-counter", "cautious", "gambler",
)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--deals", type=int, default=200, help="deals per position")
    parser.add_argument("--bots", default=",".join(CHARACTERS))
    parser.add_argument("--knocker", default="1,2,3,4,6,12", help="K values to compare")
    args = parser.parse_args()
    game = get_game("deadwood-knock")
    names = args.bots.split(",")
    bots = {n: get_bot(n) for n in names}
    ks = [0] + [int(k) for k in args.knocker.split(",")]  # 0: the uniform deal
    rng = random.Random(args.seed)
    rows: list[tuple[list[float], float]] = []
    started = time.perf_counter()
    while len(rows) < args.positions:
        n = rng.choice([2, 3, 4, 4, 4, 5, 6])
        players = [rng.choice(names) for _ in range(n)]
        state: Any = game.new_game(game.options_from_json({"players": n}), rng.getrandbits(40))
        while not game.is_over(state) and len(rows) < args.positions:
            seat = game.to_act(state)
            legal = game.legal_actions(state)
            obs = game.observe(state, seat)
            if any(a.kind == "call" for a in legal):
                view = view_of(obs, game.name)
                stated = []
                for k in ks:
                    deal = None if k == 0 else HiddenDealer(view, knocker_tries=k).deal
                    stated.append(pot_outlook(view, random.Random(5), args.deals, deal).chance)
                s, events = game.apply(state, dk_rules.Call())
                while not any(e.kind == "round_result" for e in events):
                    s, events = game.apply(s, dk_rules.Fold())
                result = next(e for e in events if e.kind == "round_result").data
                ins = 1 + sum(1 for x in result["calls"] if x == "call")
                share = (result["pot"][seat] + dk_rules.POT_ANTE) / (dk_rules.POT_ANTE * ins)
                rows.append((stated, share))
            state, _ = game.apply(state, bots[players[seat]].act(game, obs, legal, rng))
    taken = sum(r[1] for r in rows) / len(rows)
    print(f"{len(rows)} call positions, seed {args.seed}, {time.perf_counter() - started:.0f} s")
    for i, k in enumerate(ks):
        said = [r[0][i] for r in rows]
        brier = sum((p - r[1]) ** 2 for p, r in zip(said, rows, strict=True)) / len(rows)
        bins: dict[int, list[tuple[float, float]]] = {}
        for p, r in zip(said, rows, strict=True):
            bins.setdefault(min(4, int(p * 5)), []).append((p, r[1]))
        cells = "; ".join(
            f"{b / 5:.1f}+ n={len(v)} {sum(p for p, _ in v) / len(v):.2f}/"
            f"{sum(t for _, t in v) / len(v):.2f}"
            for b, v in sorted(bins.items())
        )
        name = "uniform" if k == 0 else f"model, knocker best of {k}"
        print(
            f"{name}: stated {sum(said) / len(said):.3f}, taken {taken:.3f}, "
            f"Brier {brier:.4f} | {cells}"
        )


if __name__ == "__main__":
    main()
