"""Does the round wait for the person? The share of Deadwood Knock rounds in which seat 0
gets a normal turn before anybody knocks, at a table like the clients' default ones.

    .venv/bin/python bench/first_turn.py --seed 1 --matches 200 --bots lottie-deno,luke-short

Seat 0 (the person's seat, as in the web client and ``deadwood-knock play``) is played by
``--stand-in``; its choices cannot change the figure, which is settled at or before its
first decision of each round. The dealer moves one seat each round, so seat 0 sits in
every position. Only the engine API and ``get_bot`` are used, so the same script measures
any commit (issue #13 measured before and after its change with it); the arena's style
column ``turn_before_knock`` is the same figure for every seat of a line-up.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from deadwood_knock.bots import get_bot
from deadwood_knock.games import get_game
from deadwood_knock.games.base import derive_rng


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--matches", type=int, default=200)
    p.add_argument("--bots", required=True, help="the opponents, comma separated")
    p.add_argument("--stand-in", default="regular", help="the bot in seat 0")
    args = p.parse_args()
    try:  # characters are registered by the trail (on commits that have them)
        from deadwood_knock.trail.figure_bots import register_figure_bots

        register_figure_bots()
    except ImportError:
        pass
    lineup = [args.stand_in, *args.bots.split(",")]
    game = get_game("deadwood-knock")
    rounds = waited = first_rounds = first_waited = 0
    started = time.time()
    for m in range(args.matches):
        seed = derive_rng(args.seed, m).getrandbits(62)
        bots = [_bot(name) for name in lineup]
        rngs = [random.Random(derive_rng(seed, 7, s).getrandbits(64)) for s in range(len(lineup))]
        state = game.new_game(game.options_from_json({"players": len(lineup)}), seed)
        settled, current = False, state.round
        while not game.is_over(state):
            if state.round != current:
                current, settled = state.round, False
            seat = game.to_act(state)
            if not settled and (seat == 0 or state.phase != "play"):
                settled = True
                got = seat == 0 and state.phase == "play"
                rounds += 1
                waited += got
                if state.round == 0:
                    first_rounds += 1
                    first_waited += got
            legal = game.legal_actions(state)
            action = bots[seat].act(game, game.observe(state, seat), legal, rngs[seat], None)
            state, _ = game.apply(state, action)
    print(
        f"seat 0 ({args.stand_in}) against {args.bots}, seed {args.seed}, {args.matches} "
        f"matches: a normal turn before any knock in {waited}/{rounds} rounds "
        f"= {waited / rounds:.3f}; round 1 only {first_waited}/{first_rounds}; "
        f"{time.time() - started:.0f} s"
    )


def _bot(name: str) -> Any:
    try:
        return get_bot(name)
    except Exception:  # older commits: characters only under figure:<id>, names exact
        return get_bot(f"figure:{name}")


if __name__ == "__main__":
    main()
