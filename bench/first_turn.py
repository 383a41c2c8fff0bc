"""Does the round wait for the person? The share of Deadwood Knock rounds in which seat 0
gets a normal turn before anybody knocks, at a table like the clients' default ones.

    .venv/bin/python bench/first_turn.py --seed 1 --matches 200 --bots lottie-deno,luke-short
    .venv/bin/python bench/first_turn.py --seed 1 --matches 30 --trail

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
    who = p.add_mutually_exclusive_group(required=True)
    who.add_argument("--bots", help="the opponents, comma separated")
    who.add_argument(
        "--trail", action="store_true", help="every Deadwood Knock table of the trail, in order"
    )
    p.add_argument("--stand-in", default="regular", help="the bot in seat 0")
    args = p.parse_args()
    try:  # characters are registered by the trail (on commits that have them)
        from deadwood_knock.trail.figure_bots import register_figure_bots

        register_figure_bots()
    except ImportError:
        pass
    if not args.trail:
        _report(args.bots, _measure([args.stand_in, *args.bots.split(",")], args), args)
        return
    from deadwood_knock.content import load_content

    tables = [
        (v.id, ",".join(v.table.opponents))
        for v in load_content().trail_venues()
        if v.table.game == "deadwood-knock"
    ]
    total = [0, 0, 0, 0]
    shares = []
    for venue, bots in tables:
        counts = _measure([args.stand_in, *bots.split(",")], args)
        total = [a + b for a, b in zip(total, counts[:4], strict=True)]
        shares.append(counts[1] / counts[0])
        _report(f"{venue} ({bots})", counts, args)
    shares.sort()
    print(
        f"{len(tables)} tables: {total[1]}/{total[0]} = {total[1] / total[0]:.3f} of rounds, "
        f"round 1 {total[3]}/{total[2]}; by table worst {shares[0]:.3f}, "
        f"median {shares[len(shares) // 2]:.3f}"
    )


def _report(what: str, counts: list[int], args: argparse.Namespace) -> None:
    rounds, waited, first_rounds, first_waited, secs = counts
    print(
        f"seat 0 ({args.stand_in}) against {what}, seed {args.seed}, {args.matches} "
        f"matches: a normal turn before any knock in {waited}/{rounds} rounds "
        f"= {waited / rounds:.3f}; round 1 only {first_waited}/{first_rounds}; {secs} s",
        flush=True,
    )


def _measure(lineup: list[str], args: argparse.Namespace) -> list[int]:
    """Rounds, rounds in which seat 0 had a normal turn before any knock, the same for
    round 1, and the seconds taken."""
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
    return [rounds, waited, first_rounds, first_waited, round(time.time() - started)]


def _bot(name: str) -> Any:
    try:
        return get_bot(name)
    except Exception:  # older commits: characters only under figure:<id>, names exact
        return get_bot(f"figure:{name}")


if __name__ == "__main__":
    main()
