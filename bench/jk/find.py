"""How often ``strong`` throws a joker (issue 17, Deadwood Knock seventeenth pass; the
lead's finder). 3-player Deadwood Knock, ``strong`` in seat 0 against two legends, 200
iterations a decision, one generator seeded by the deal's seed; prints each joker throw
and the count of decisions that held a joker.

    .venv/bin/python bench/jk/find.py 1 11        # seeds 1-10, the switch as in the tree
    .venv/bin/python bench/jk/find.py 1 11 on     # search.JOKER_KEEP on
    .venv/bin/python bench/jk/find.py 1 11 off    # search.JOKER_KEEP off
"""

from __future__ import annotations

import random
import sys

from deadwood_knock.bots import search
from deadwood_knock.bots.base import Budget, get_bot
from deadwood_knock.games import get_game


def main() -> None:
    first, stop = int(sys.argv[1]), int(sys.argv[2])
    if "on" in sys.argv[3:]:
        search.JOKER_KEEP = True
    if "off" in sys.argv[3:]:
        search.JOKER_KEEP = False
    game = get_game("deadwood-knock")
    bots = [get_bot("strong"), get_bot("legend"), get_bot("legend")]
    found = total = 0
    for seed in range(first, stop):
        state = game.new_game(game.options_from_json({"players": 3}), seed)
        rng = random.Random(seed)
        n = 0
        while not game.is_over(state) and n < 400:
            n += 1
            seat = game.to_act(state)
            assert seat is not None
            legal = game.legal_actions(state)
            obs = game.observe(state, seat)
            a = bots[seat].act(game, obs, legal, rng, Budget(iterations=200))
            select = getattr(a, "select", None)
            if seat == 0 and select is not None and any(c >= 52 for c in obs.hand):
                total += 1
                if select >= 52:
                    found += 1
                    pile = " ".join(map(str, obs.discard_pile[-2:]))
                    print(seed, n, " ".join(map(str, obs.hand)), "pile", pile, a, flush=True)
            state, _ = game.apply(state, a)
    print("joker held decisions", total, "joker thrown", found)


if __name__ == "__main__":
    main()
