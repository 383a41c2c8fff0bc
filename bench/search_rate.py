"""The ``strong`` bot's search speed (issue 17): iterations per CPU second at a fixed
iteration budget, and iterations per decision at the default (time) budget. One
iteration is a position dealt by the bot's sampler plus a playout of every kept
candidate on it, so both figures count sampling and playouts alike.

    .venv/bin/python bench/search_rate.py --positions 60 --iterations 40
    .venv/bin/python bench/search_rate.py --default --games 2 --cap 80

The fixed-budget figure times ``deadwood_knock.bench.search_step`` (the quick bench's
``*_search_per_s``) on the same seeded positions in every run: a fixed count of them,
not a time, so two trees do the same work. The step is loaded from this checkout's
``src/deadwood_knock/bench.py`` whichever ``deadwood_knock`` is imported, so a tree from
before the step existed can be timed on the same workload
(``PYTHONPATH=/tmp/base/src .venv/bin/python bench/search_rate.py``). ``--default``
counts the iterations of each of seat 0's decisions in ``bench/decision_time.py``'s games
(the bot's default budget, as the server calls it). One JSON object per game.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import time
from pathlib import Path
from typing import Any

from deadwood_knock.bots import get_bot
from deadwood_knock.games import get_game

GAMES = {"deadwood-knock": 4, "knock-rummy": 2, "gin": 2}


def _search_step() -> Any:
    path = Path(__file__).resolve().parent.parent / "src" / "deadwood_knock" / "bench.py"
    spec = importlib.util.spec_from_file_location("_search_rate_bench", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.use_clock("cpu")
    return module.search_step


def fixed(game_name: str, seed: int, positions: int, iterations: int) -> dict[str, Any]:
    make = _search_step()
    make(game_name, seed + 10**6, GAMES[game_name], iterations)()  # warm up: tables, memos
    step = make(game_name, seed, GAMES[game_name], iterations)
    ran, spent = 0, 0.0
    for _ in range(positions):
        n, seconds = step()
        ran += n
        spent += seconds
    return {
        "game": game_name,
        "positions": positions,
        "iterations": ran,
        "cpu_s": round(spent, 3),
        "iterations_per_cpu_s": round(ran / spent, 1),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def at_default(game_name: str, games: int, seed: int, cap: int) -> dict[str, Any]:
    """Iterations per decision of seat 0 (``strong``) at its default budget, against the
    legend, in ``decision_time.py``'s seeded games."""
    game = get_game(game_name)
    players = GAMES[game_name]
    opts = {"players": players} | ({"rounds": 2} if players == 4 else {})
    rng = random.Random(seed)
    counts: list[int] = []
    cpu: list[float] = []
    for g in range(games):
        state = game.new_game(game.options_from_json(opts), seed * 1000 + g)
        bots = [get_bot("strong")] + [get_bot("legend") for _ in range(players - 1)]
        ran = [0]
        real = bots[0]._search  # type: ignore[attr-defined]

        def counted(*args: Any, real: Any = real, ran: list[int] = ran) -> Any:
            search = real(*args)
            sample = search.sample

            def counting(r: random.Random) -> Any:
                ran[0] += 1
                return sample(r)

            search.sample = counting
            return search

        bots[0]._search = counted  # type: ignore[attr-defined]
        steps = 0
        while not game.is_over(state) and steps < cap:
            seat = game.to_act(state)
            if seat is None:
                break
            legal = game.legal_actions(state)
            obs = game.observe(state, seat)
            ran[0] = 0
            c0 = time.process_time()
            action = bots[seat].act(game, obs, legal, rng)
            if seat == 0 and ran[0]:
                counts.append(ran[0])
                cpu.append(time.process_time() - c0)
            state, _ = game.apply(state, action)
            steps += 1
    counts.sort()
    return {
        "game": game_name,
        "decisions": len(counts),
        "iterations_mean": round(sum(counts) / len(counts), 1) if counts else 0.0,
        "iterations_p50": counts[len(counts) // 2] if counts else 0,
        "capped": sum(1 for c in counts if c >= 600),
        "cpu_ms_mean": round(1000 * sum(cpu) / len(cpu), 1) if cpu else 0.0,
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", action="append", help="default: all three")
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--positions", type=int, default=60)
    ap.add_argument("--iterations", type=int, default=40)
    ap.add_argument("--default", action="store_true", help="iterations per decision")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--cap", type=int, default=80, help="moves per game at most")
    args = ap.parse_args()
    for name in args.game or list(GAMES):
        if args.default:
            figure = at_default(name, args.games, args.seed, args.cap)
        else:
            figure = fixed(name, args.seed, args.positions, args.iterations)
        print(json.dumps(figure), flush=True)


if __name__ == "__main__":
    main()
