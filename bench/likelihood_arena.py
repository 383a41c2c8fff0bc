"""The arena with ``strong``'s samples reweighted by the opponents' policy (``bots/likelihood.py``).

Sets ``search.LIKELIHOOD_RUMMY`` (and, for Knock Rummy, ``search.INFERRED_RUMMY``: the
bank's proposal is the card model) and the dealer's knobs, then runs ``arena.main`` with
the remaining arguments, so a variant and the plain command share their deals:

    .venv/bin/python bench/likelihood_arena.py --sir-games gin --power 0.5 -- \\
        --game gin --bots strong,strong-v1 --matches 16 --seed 2101 --jobs 1 --json --no-progress
"""

from __future__ import annotations

import argparse
import sys

from deadwood_knock import arena
from deadwood_knock.bots import likelihood, search


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sir-games", nargs="*", default=["gin"])
    ap.add_argument("--power", type=float, default=likelihood.POWER)
    ap.add_argument("--bank", type=int, default=likelihood.BANK)
    ap.add_argument("rest", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    search.LIKELIHOOD_RUMMY = frozenset(args.sir_games)
    search.INFERRED_RUMMY = search.INFERRED_RUMMY | frozenset(args.sir_games)
    likelihood.POWER = args.power
    likelihood.BANK = args.bank
    rest = args.rest[1:] if args.rest[:1] == ["--"] else args.rest
    print(
        f"# sir {sorted(search.LIKELIHOOD_RUMMY)} power {likelihood.POWER} bank {args.bank}",
        file=sys.stderr,
    )
    return arena.main(rest)


if __name__ == "__main__":
    sys.exit(main())
