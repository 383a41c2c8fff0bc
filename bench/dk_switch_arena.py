"""``strong`` changed one way, and as it plays, on the same Deadwood Knock deals (issue
#17, ninth pass).

Plays each match of ``deadwood-knock arena --game deadwood-knock --bots LINEUP --matches N
--seed S --iterations I --jobs 1`` (``arena.match_plan``, ``arena.play_match``) twice: the
base (``strong`` as it plays) and the variant, interleaved match by match so a run cut
short leaves both halves on the same deals and seats. The variant is any of: ``--switch
NAME`` (a boolean constant of ``bots/search.py`` turned on), ``--set NAME=0|1`` (more
such constants), ``--scale K`` (``strong`` thinks K times the iterations it is given) and
``--placebo`` (``strong`` itself with its random stream moved on by one draw at every
decision: what the paired design calls noise). After every match it prints one JSON line
(the match's margins, ``strong`` minus the others a round, and ``strong``'s knocks and
calls) and at the end the arena's summary of each half and the variant's margin less the
base's, paired by match (the arena's estimator: the mean of the matches, weighted by
rounds, with a normal 95% interval). ``--variant-only`` plays only the variant (the base
repeats exactly from its seed: pair it with an earlier run's lines).

    .venv/bin/python bench/dk_switch_arena.py --bots strong,strong-v1,strong-v1,strong-v1 \\
        --matches 16 --seed 2401 --iterations 200 --placebo
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from deadwood_knock import arena
from deadwood_knock.bots import Bot, Budget, register, search
from deadwood_knock.bots.base import A, O
from deadwood_knock.bots.strong import ActionValue
from deadwood_knock.games.base import Game
from deadwood_knock.trail.figure_bots import register_figure_bots


def margin(result: arena.MatchResult, a: str, others: list[str]) -> float:
    """``a``'s round score less the mean of ``others``' seats, a round, in one match."""
    rounds = len(result.round_scores)
    mine = [s for s, n in enumerate(result.lineup) if n == a]
    theirs = [s for s, n in enumerate(result.lineup) if n in others]
    per = [
        sum(r[s] for s in mine) / len(mine) - sum(r[s] for s in theirs) / len(theirs)
        for r in result.round_scores
    ]
    return sum(per) / rounds if rounds else 0.0


def style(result: arena.MatchResult, name: str) -> dict[str, int]:
    seat = result.lineup.index(name)
    st = result.styles[seat]
    return {"knocks": st.knocks, "rounds": st.rounds, "calls": st.calls, "folds": st.folds}


def scaled(scale: float, placebo: bool = False) -> Callable[[], Bot]:
    """A ``strong`` that thinks ``scale`` times the iterations it is given; with
    ``placebo``, ``strong`` itself with its random stream moved on by one draw at every
    decision (the same bot by every measure: what the paired design calls noise)."""

    class Scaled(search.SearchBot):
        def evaluate(
            self,
            game: Game[Any, A, O],
            observation: O,
            legal: Sequence[A],
            rng: random.Random,
            budget: Budget | None = None,
            cull: bool = True,
        ) -> list[ActionValue[A]]:
            if budget is not None and budget.iterations is not None:
                budget = Budget(budget.seconds, max(1, round(budget.iterations * scale)))
            if placebo:
                rng.getrandbits(32)
            return super().evaluate(game, observation, legal, rng, budget, cull)

    return search.SearchBot if scale == 1.0 and not placebo else Scaled


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bots", required=True)
    p.add_argument("--matches", type=int, required=True)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--iterations", type=int, default=200)
    p.add_argument("--switch", default=None, help="a boolean constant of bots/search.py")
    p.add_argument("--start", type=int, default=0, help="first match index to play")
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=0|1",
        help="another search constant for the variant half (repeatable)",
    )
    p.add_argument(
        "--scale",
        type=float,
        default=1.0,
        help="the variant's strong thinks this many times the iterations (a diagnostic)",
    )
    p.add_argument(
        "--placebo",
        action="store_true",
        help="the variant is strong with its random stream moved on (a diagnostic)",
    )
    p.add_argument(
        "--variant-only",
        action="store_true",
        help="play only the variant half (the base repeats exactly from its seed)",
    )
    args = p.parse_args()
    register_figure_bots()
    lineup = args.bots.split(",")
    first = lineup[0]
    others = sorted(set(lineup[1:]))
    budget = Budget(iterations=args.iterations)
    halves: dict[str, list[arena.MatchResult]] = {"base": [], "variant": []}
    extra = [(k, bool(int(v))) for k, v in (item.split("=", 1) for item in args.set)]
    switches = [] if args.switch is None else [args.switch]
    for name in [*switches, *(k for k, _ in extra)]:
        if not isinstance(getattr(search, name, None), bool):
            p.error(f"bots/search.py has no boolean constant {name}")
    defaults = {k: getattr(search, k) for k, _ in extra}
    for index, rot, seed in arena.match_plan(lineup, args.matches, args.seed)[args.start :]:
        row: dict[str, Any] = {"match": index}
        for half, on in (("base", False), ("variant", True)):
            if args.variant_only and not on:
                continue
            for name in switches:
                setattr(search, name, on)
            for name, value in extra:
                setattr(search, name, value if on else defaults[name])
            register("strong", scaled(args.scale, args.placebo) if on else search.SearchBot)
            t = time.perf_counter()
            result = arena.play_match("deadwood-knock", rot, {}, seed, budget, index)
            halves[half].append(result)
            row[half] = {
                "margin": round(margin(result, first, [n for n in others if n != first]), 3),
                "vs": {o: round(margin(result, first, [o]), 3) for o in others if o != first},
                **style(result, first),
                "stalled": result.stalled,
                "s": round(time.perf_counter() - t, 1),
            }
        if not args.variant_only:
            row["diff"] = round(row["variant"]["margin"] - row["base"]["margin"], 3)
        row["load"] = os.getloadavg()[0]
        print(json.dumps(row), flush=True)
    for name in switches:
        setattr(search, name, False)
    register("strong", search.SearchBot)
    out: dict[str, Any] = {}
    for half, results in halves.items():
        if not results:
            continue
        report = arena.summarise("deadwood-knock", lineup, {}, results)
        out[half] = {
            "margins": {
                k: [round(v[0], 2), [round(x, 2) for x in v[1]]] for k, v in report.margins.items()
            },
            "rounds": sum(len(r.round_scores) for r in results),
        }
    if args.variant_only:
        print(json.dumps(out), flush=True)
        return 0
    # A pair with a match abandoned in a pile loop (arena.MAX_ROUND_ACTIONS) is left out.
    kept = [
        (b, v)
        for b, v in zip(halves["base"], halves["variant"], strict=True)
        if not (b.stalled or v.stalled)
    ]
    base = [b for b, _ in kept]
    var = [v for _, v in kept]
    diffs = [
        (
            margin(v, first, [n for n in others if n != first])
            - margin(b, first, [n for n in others if n != first])
        )
        * len(b.round_scores)
        for b, v in zip(base, var, strict=True)
    ]
    counts = [len(b.round_scores) for b in base]
    mean, ci = arena.ratio_mean_ci(diffs, counts)
    out["variant - base"] = [round(mean, 2), [round(x, 2) for x in ci]]
    print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
