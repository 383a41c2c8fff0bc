"""Is Hand Focus's call-or-fold chance true? (docs/bots.md, "Hints", 2026-12-06)

At Deadwood Knock call positions of seeded tables (2 to 6 players, the trail's twelve
characters unless ``--bots`` says otherwise), prices the pot with ``dk.pot_outlook`` on
uniform deals and on the inference model's deals with the knocker the best of K deals
that allow its knock, and compares each stated chance with the share of the pot the
seat really takes if it calls and the players still to answer fold (the engine settles
the real hands). Prints, per dealer, the mean stated chance, the mean share taken, the
Brier score and the tenth-bins (stated / taken).

    .venv/bin/python bench/pot_calibration.py --seed 12 --positions 300
    .venv/bin/python bench/pot_calibration.py --seed 12 --positions 400 --knocker 3,4,5,6 \\
        --pairs 4:12,4:24,5:12,5:24,3:12
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
    parser.add_argument(
        "--pairs",
        default="",
        help="K:F pairs (F for a knock made before everyone had moved), e.g. 4:12,4:24",
    )
    args = parser.parse_args()
    game = get_game("deadwood-knock")
    names = args.bots.split(",")
    bots = {n: get_bot(n) for n in names}
    pairs = [tuple(int(x) for x in p.split(":")) for p in args.pairs.split(",") if p]
    ks = [0] + [int(k) for k in args.knocker.split(",")]  # 0: the uniform deal
    ks += sorted({k for pair in pairs for k in pair} - set(ks))
    rng = random.Random(args.seed)
    rows: list[tuple[list[float], float, bool]] = []
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
                rows.append((stated, share, view.first_lap_knock))
            state, _ = game.apply(state, bots[players[seat]].act(game, obs, legal, rng))
    print(f"{len(rows)} call positions, seed {args.seed}, {time.perf_counter() - started:.0f} s")
    for label, keep in (("all", None), ("knock on the first lap", True), ("later knock", False)):
        subset = [r for r in rows if keep is None or r[2] == keep]
        if not subset:
            continue
        print(f"-- {label}: {len(subset)} positions")
        for i, k in enumerate(ks):
            name = "uniform" if k == 0 else f"model, knocker best of {k}"
            _row(name, [(r[0][i], r[1]) for r in subset])
        if keep is None:
            for k, f in pairs:
                said = [r[0][ks.index(f if r[2] else k)] for r in rows]
                _row(f"model, knocker best of {k} ({f} on the first lap)",
                     [(p, r[1]) for p, r in zip(said, rows, strict=True)])  # fmt: skip


def _row(name: str, pairs: list[tuple[float, float]]) -> None:
    """The mean stated chance and share taken, the Brier score and the tenth-bins."""
    n = len(pairs)
    brier = sum((p - t) ** 2 for p, t in pairs) / n
    bins: dict[int, list[tuple[float, float]]] = {}
    for p, t in pairs:
        bins.setdefault(min(4, int(p * 5)), []).append((p, t))
    cells = "; ".join(
        f"{b / 5:.1f}+ n={len(v)} {sum(p for p, _ in v) / len(v):.2f}/"
        f"{sum(t for _, t in v) / len(v):.2f}"
        for b, v in sorted(bins.items())
    )
    print(
        f"{name}: stated {sum(p for p, _ in pairs) / n:.3f}, "
        f"taken {sum(t for _, t in pairs) / n:.3f}, Brier {brier:.4f} | {cells}"
    )


if __name__ == "__main__":
    main()
