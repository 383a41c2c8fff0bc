"""Decision time of a search bot at its default budget (no budget passed, as the server
and hints call it): p50 and p95, wall clock and CPU, over seeded games against a
personality. Prints one JSON object per game; report the load average with it.

    .venv/bin/python bench/decision_time.py --bot strong --games 3 --seed 1

``--set NAME=VALUE`` (repeatable) sets a constant of ``bots/search.py`` first (as
``bench/kr_switch_arena.py`` does), to time a switched-off variant; each figure reports
the constants set:

    .venv/bin/python bench/decision_time.py --bot strong --game gin --games 4 --seed 2 \\
        --cap 120 --set NAME=1

``--hints`` times Hand Focus instead, as the server asks it for a person (the server's own
call, ``server.botpool.hint``: the observation's JSON, the server's ``hint_seconds`` with
``DEFAULT_HINT_BUDGET``'s iteration cap) at each of seat 0's decisions, the bot still
playing the seat; a Deadwood Knock call or fold is reported apart as ``pot_*``
(it prices the pot on dealt hands, not by the search):

    .venv/bin/python bench/decision_time.py --hints --games 3 --seed 1 --cap 120
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from collections.abc import Sequence
from typing import Any

from kr_switch_arena import set_switches  # a sibling script: bench/ is on sys.path

from deadwood_knock.bots import get_bot, search
from deadwood_knock.games import get_game
from deadwood_knock.server import botpool
from deadwood_knock.server.settings import Settings

TABLES: dict[str, dict[str, Any]] = {
    "deadwood-knock": {"players": 4, "rounds": 2},
    "knock-rummy": {"players": 2},
    "gin": {"players": 2},
}


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else 0.0


def measure(
    game_name: str,
    bot_name: str,
    games: int,
    seed: int,
    cap: int,
    switches: Sequence[str] = (),
    hints: bool = False,
) -> dict[str, Any]:
    """The decision times; ``switches``: the ``bots/search.py`` constants to report (their
    values when it was measured); ``hints``: Hand Focus's times at seat 0's decisions."""
    game = get_game(game_name)
    opts = TABLES[game_name]
    rng = random.Random(seed)
    wall: list[float] = []
    cpu: list[float] = []
    pot_wall: list[float] = []
    pot_cpu: list[float] = []
    hint_seconds = Settings().hint_seconds
    for g in range(games):
        state = game.new_game(game.options_from_json(opts), seed * 1000 + g)
        bots = [get_bot(bot_name)] + [get_bot("legend") for _ in range(opts["players"] - 1)]
        steps = 0
        while not game.is_over(state) and steps < cap:
            seat = game.to_act(state)
            if seat is None:
                break
            legal = game.legal_actions(state)
            obs = game.observe(state, seat)
            if hints and seat == 0 and len(legal) > 1:
                seen = obs.to_json()
                t0, c0 = time.perf_counter(), time.process_time()
                botpool.hint(game_name, seen, hint_seconds, steps)
                pot = any(a.kind == "call" for a in legal)
                (pot_wall if pot else wall).append(time.perf_counter() - t0)
                (pot_cpu if pot else cpu).append(time.process_time() - c0)
            t0, c0 = time.perf_counter(), time.process_time()
            action = bots[seat].act(game, obs, legal, rng)
            if not hints and seat == 0 and len(legal) > 1:
                wall.append(time.perf_counter() - t0)
                cpu.append(time.process_time() - c0)
            state, _ = game.apply(state, action)
            steps += 1
    figure: dict[str, Any] = {
        "game": game_name,
        "set": {name: getattr(search, name) for name in switches},
        "bot": bot_name,
        "timed": "hand_focus" if hints else "bot",
        **({"hint_seconds": hint_seconds} if hints else {}),
        "decisions": len(wall),
        "wall_ms_p50": round(1000 * percentile(wall, 0.5), 1),
        "wall_ms_p95": round(1000 * percentile(wall, 0.95), 1),
        "cpu_ms_p50": round(1000 * percentile(cpu, 0.5), 1),
        "cpu_ms_p95": round(1000 * percentile(cpu, 0.95), 1),
    }
    if pot_wall:
        figure.update(
            pot_decisions=len(pot_wall),
            pot_wall_ms_p50=round(1000 * percentile(pot_wall, 0.5), 1),
            pot_wall_ms_p95=round(1000 * percentile(pot_wall, 0.95), 1),
            pot_cpu_ms_p95=round(1000 * percentile(pot_cpu, 0.95), 1),
        )
    figure["load_average"] = [round(x, 2) for x in os.getloadavg()]
    return figure


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bot", default="strong")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cap", type=int, default=160, help="moves per game at most")
    ap.add_argument("--game", action="append", help="default: all three")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--hints", action="store_true", help="time Hand Focus, not the bot")
    args = ap.parse_args()
    switches = set_switches(ap, args.set)
    for name in args.game or list(TABLES):
        figure = measure(name, args.bot, args.games, args.seed, args.cap, switches, args.hints)
        print(json.dumps(figure), flush=True)


if __name__ == "__main__":
    main()
