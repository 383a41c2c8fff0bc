"""A ``strong`` switch on and off on the same Deadwood Knock deals (issue #17, ninth pass).

Plays each match of ``deadwood-knock arena --game deadwood-knock --bots LINEUP --matches N
--seed S --iterations I --jobs 1`` (``arena.match_plan``, ``arena.play_match``) twice, with
the module constant ``search.SWITCH`` (default ``PATIENT_DRAWS``) off (base: ``strong`` as
it plays) and on (variant), interleaved match by match so a run cut short leaves both
halves on the same deals and seats. After every match it prints one JSON line (the
match's margins, ``strong`` minus each other bot a round, and ``strong``'s knocks and
calls) and at the end the arena's summary of each half and the variant's margin less the
base's, paired by match (the arena's estimator: the mean of the matches, weighted by
rounds, with a normal 95% interval).

    .venv/bin/python bench/dk_switch_arena.py --bots strong,strong-v1,strong-v1,strong-v1 \\
        --matches 16 --seed 2401 --iterations 200
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

from deadwood_knock import arena
from deadwood_knock.bots import Budget, search
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


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bots", required=True)
    p.add_argument("--matches", type=int, required=True)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--iterations", type=int, default=200)
    p.add_argument("--switch", default="PATIENT_DRAWS")
    p.add_argument("--start", type=int, default=0, help="first match index to play")
    args = p.parse_args()
    register_figure_bots()
    lineup = args.bots.split(",")
    first = lineup[0]
    others = sorted(set(lineup[1:]))
    budget = Budget(iterations=args.iterations)
    halves: dict[str, list[arena.MatchResult]] = {"base": [], "variant": []}
    for index, rot, seed in arena.match_plan(lineup, args.matches, args.seed)[args.start :]:
        row: dict[str, Any] = {"match": index}
        for half, on in (("base", False), ("variant", True)):
            setattr(search, args.switch, on)
            t = time.perf_counter()
            result = arena.play_match("deadwood-knock", rot, {}, seed, budget, index)
            halves[half].append(result)
            row[half] = {
                "margin": round(margin(result, first, [n for n in others if n != first]), 3),
                "vs": {o: round(margin(result, first, [o]), 3) for o in others if o != first},
                **style(result, first),
                "s": round(time.perf_counter() - t, 1),
            }
        row["diff"] = round(row["variant"]["margin"] - row["base"]["margin"], 3)
        row["load"] = os.getloadavg()[0]
        print(json.dumps(row), flush=True)
    setattr(search, args.switch, False)
    out: dict[str, Any] = {}
    for half, results in halves.items():
        report = arena.summarise("deadwood-knock", lineup, {}, results)
        out[half] = {
            "margins": {
                k: [round(v[0], 2), [round(x, 2) for x in v[1]]] for k, v in report.margins.items()
            },
            "rounds": sum(len(r.round_scores) for r in results),
        }
    base = halves["base"]
    var = halves["variant"]
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
