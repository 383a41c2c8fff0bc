"""The ``strong`` bot's search speed (issue 17): iterations per CPU second at a fixed
iteration budget, and iterations per decision at the default (time) budget. One
iteration is a position dealt by the bot's sampler plus a playout of every kept
candidate on it, so both figures count sampling and playouts alike.

    .venv/bin/python bench/search_rate.py --positions 100 --iterations 40
    .venv/bin/python bench/search_rate.py --positions 30 --iterations 0

The fixed-budget figure times ``deadwood_knock.bench.search_step`` (the quick bench's
``*_search_per_s``) on the same seeded positions in every run: a fixed count of them,
not a time, so two trees do the same work. ``--iterations 0`` gives the bot its default
(time-limited) budget on the same positions: the iterations per position are then the
samples a decision gets. The step is loaded from this checkout's
``src/deadwood_knock/bench.py`` whichever ``deadwood_knock`` is imported, so a tree from
before the step existed can be timed on the same workload
(``PYTHONPATH=/tmp/base/src .venv/bin/python bench/search_rate.py``). One JSON object
per game; CPU seconds of this process.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
from pathlib import Path
from typing import Any

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
        "iterations_per_position": round(ran / positions, 1),
        "iterations_per_cpu_s": round(ran / spent, 1),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", action="append", help="default: all three")
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--iterations", type=int, default=40, help="0: the default budget")
    args = ap.parse_args()
    for name in args.game or list(GAMES):
        print(json.dumps(fixed(name, args.seed, args.positions, args.iterations)), flush=True)


if __name__ == "__main__":
    main()
