"""The arena's own matches played twice, without and with the rivals' policy as a
likelihood (``search.POLICY_DEALS``), interleaved match by match on the same deals.

Each match of ``deadwood-knock arena --game deadwood-knock --bots LINEUP --matches N
--seed S --iterations I --jobs 1`` (``arena.match_plan`` and ``arena.play_match``) is
played with ``POLICY_DEALS = 0`` (``strong`` as on main: the same code path and random
stream) and then with ``POLICY_DEALS = M``. After every match it rewrites ``--out`` with
both summaries (the arena's figures, ``arena.summarise``) and the variant's margin less
the base's, paired by match, so a run cut short still reports what it played.

    .venv/bin/python bench/dk_policy_arena.py --seed 2201 --matches 16 --deals 4 --out r.json
"""

from __future__ import annotations

import argparse
import json
import os
import time

from deadwood_knock import arena
from deadwood_knock.bots import Budget, search


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bots", default="strong,strong-v1,strong-v1,strong-v1")
    ap.add_argument("--matches", type=int, default=16)
    ap.add_argument("--seed", type=int, default=2201)
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--deals", type=int, default=4, help="POLICY_DEALS of the variant")
    ap.add_argument("--first", type=int, default=0, help="first match index to play")
    ap.add_argument("--only", choices=("both", "base", "variant"), default="both")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    arena.register_figure_bots()
    lineup = [arena.resolve_bot_name(n) for n in args.bots.split(",")]
    budget = Budget(iterations=args.iterations)
    variants = {"base": 0, "variant": args.deals}
    if args.only != "both":
        variants = {args.only: variants[args.only]}
    results: dict[str, list[arena.MatchResult]] = {k: [] for k in variants}
    seconds: dict[str, float] = dict.fromkeys(variants, 0.0)
    for index, rotated, deal_seed in arena.match_plan(lineup, args.matches, args.seed):
        if index < args.first:
            continue
        for name, deals in variants.items():
            search.POLICY_DEALS = deals
            started = time.perf_counter()
            results[name].append(
                arena.play_match("deadwood-knock", rotated, {}, deal_seed, budget, index)
            )
            seconds[name] += time.perf_counter() - started
        out: dict[str, object] = {
            "bots": args.bots,
            "seed": args.seed,
            "iterations": args.iterations,
            "deals": args.deals,
            "load": os.getloadavg()[0],
        }
        for name in variants:
            out[name] = arena.summarise("deadwood-knock", lineup, {}, results[name]).to_json()
            out[name + "_seconds"] = round(seconds[name], 1)
        if len(variants) == 2:
            paired = [
                _margin(v) - _margin(b)
                for b, v in zip(results["base"], results["variant"], strict=True)
            ]
            rounds = [len(b.round_scores) for b in results["base"]]
            m, (lo, hi) = arena.ratio_mean_ci(
                [p * r for p, r in zip(paired, rounds, strict=True)], rounds
            )
            out["variant_minus_base"] = {"mean": round(m, 3), "ci95": [round(lo, 3), round(hi, 3)]}
            out["per_match"] = [
                [round(_margin(b), 2), round(_margin(v), 2)]
                for b, v in zip(results["base"], results["variant"], strict=True)
            ]
        with open(args.out, "w") as fh:
            json.dump(out, fh, indent=1)
        print(index, {k: round(_margin(v[-1]), 2) for k, v in results.items()}, flush=True)


def _margin(result: arena.MatchResult) -> float:
    """The first bot's (``strong``'s) round score less the others' mean, per round."""
    seat = result.lineup.index("strong")
    n = len(result.lineup)
    total = 0.0
    for r in result.round_scores:
        total += r[seat] - (sum(r) - r[seat]) / (n - 1)
    return total / max(1, len(result.round_scores))


if __name__ == "__main__":
    main()
