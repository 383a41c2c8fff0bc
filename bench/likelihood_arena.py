"""The arena with ``strong``'s samples reweighted by the opponents' policy (``bots/likelihood.py``).

Sets ``search.LIKELIHOOD_RUMMY`` (and, for Knock Rummy, ``search.INFERRED_RUMMY``: the
bank's proposal is the card model) and the dealer's knobs, then runs ``arena.main`` with
the remaining arguments, so a variant and the plain command share their deals:

    .venv/bin/python bench/likelihood_arena.py --sir-games gin --power 0.5 -- \\
        --game gin --bots strong,strong-v1 --matches 16 --seed 2101 --jobs 1 --json --no-progress

``--sir-games`` with no game leaves ``strong`` as it plays (the flags at their defaults),
so a baseline can go through here too; ``--matches-out FILE`` writes each match's line-up,
hands and per-seat points (one JSON line a match) so a variant and its baseline can be
paired match by match (the same index deals the same cards at the start).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from deadwood_knock import arena
from deadwood_knock.bots import likelihood, search


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sir-games", nargs="*", default=["gin"])
    ap.add_argument("--power", type=float, default=likelihood.POWER)
    ap.add_argument("--bank", type=int, default=likelihood.BANK)
    ap.add_argument("--matches-out", help="write one JSON line per match to this file")
    ap.add_argument("rest", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    search.LIKELIHOOD_RUMMY = frozenset(args.sir_games)
    search.INFERRED_RUMMY = search.INFERRED_RUMMY | frozenset(args.sir_games)
    likelihood.POWER = args.power
    likelihood.BANK = args.bank
    if args.matches_out:
        _write_matches_to(args.matches_out)
    rest = args.rest[1:] if args.rest[:1] == ["--"] else args.rest
    print(
        f"# sir {sorted(search.LIKELIHOOD_RUMMY)} power {likelihood.POWER} bank {args.bank}",
        file=sys.stderr,
    )
    return arena.main(rest)


def _write_matches_to(path: str) -> None:
    """Wrap ``arena.summarise`` so the matches it sums are written out first."""
    summarise = arena.summarise

    def writing(
        game: str,
        lineup: Sequence[str],
        options: Mapping[str, Any],
        results: Sequence[arena.MatchResult],
        seconds: float = 0.0,
    ) -> arena.ArenaReport:
        with open(path, "w", encoding="utf-8") as f:
            for r in results:
                points = [sum(s[seat] for s in r.round_scores) for seat in range(len(r.lineup))]
                row = {"index": r.index, "lineup": list(r.lineup), "hands": len(r.round_scores)}
                f.write(json.dumps({**row, "points": points}) + "\n")
        return summarise(game, lineup, options, results, seconds)

    arena.summarise = writing


if __name__ == "__main__":
    sys.exit(main())
