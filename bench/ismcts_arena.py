"""``deadwood-knock arena`` with ``strong``'s information-set MCTS switched on (issue #17,
Gin and Knock Rummy, fourth pass).

Sets ``bots.search.ISMCTS_RUMMY`` to the games named by ``--ismcts`` (and
``search.ISMCTS_PAIRED`` with ``--paired``) and runs the arena
with the remaining arguments, in this process (so ``--jobs 1``): the same deals and seats
as the plain command with the same seed, so the two runs pair match by match.

    .venv/bin/python bench/ismcts_arena.py --ismcts knock-rummy -- --game knock-rummy \\
        --bots strong,strong-v1 --matches 16 --seed 1801 --iterations 200 --jobs 1 --json
"""

from __future__ import annotations

import argparse
import sys

from deadwood_knock import arena
from deadwood_knock.bots import search


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ismcts", required=True, help="games, comma separated: gin,knock-rummy")
    parser.add_argument("--paired", action="store_true", help="the flat search's root")
    parser.add_argument("arena_args", nargs=argparse.REMAINDER, help="after --: the arena's")
    args = parser.parse_args(argv)
    rest = [a for a in args.arena_args if a != "--"]
    if "--jobs" not in rest or rest[rest.index("--jobs") + 1] != "1":
        parser.error("the switch lives in this process: pass --jobs 1")
    search.ISMCTS_RUMMY = frozenset(g.strip() for g in args.ismcts.split(",") if g.strip())
    search.ISMCTS_PAIRED = args.paired
    return arena.main(rest)


if __name__ == "__main__":
    sys.exit(main())
