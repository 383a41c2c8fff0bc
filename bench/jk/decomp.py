"""Where a joker throw's playout value comes from (issue 17, Deadwood Knock seventeenth
pass): at a finder position, ``N`` samples of ``strong``'s own search (the inference
model's deals, ``DK_STYLE`` playouts), the joker and another card thrown to the stock on
the same sample and stream; per action the mean value, the seat's and the others' round
scores, the seat's pot share, and who knocked. ``seat-no`` / ``rival-no``: that side
never knocks in the playouts.

    .venv/bin/python bench/jk/decomp.py 1 7 3000 7c [seat-no] [rival-no]
"""

from __future__ import annotations

import dataclasses
import random
import sys
from collections import Counter

from position import replay

from deadwood_knock.bots import search as S
from deadwood_knock.bots.dk_playout import apply_action, policy_move, quick
from deadwood_knock.bots.view import view_of


def main() -> None:
    seed, step, n = (int(x) for x in sys.argv[1:4])
    other = next((x for x in sys.argv[4:] if len(x) == 2), "7c")
    no = dataclasses.replace(S.DK_STYLE, knock_count=-100, knock_score=1_000_000)
    seat_style = no if "seat-no" in sys.argv else S.DK_STYLE
    rival_style = no if "rival-no" in sys.argv else S.DK_STYLE
    game, obs, legal = replay(seed, step)
    view = view_of(obs, game.name)
    me = view.seat
    acts = {
        str(a.select): a
        for a in legal
        if getattr(a, "kind", "") == "draw"
        and a.source == "stock"
        and str(a.select) in ("JK", other)
    }
    search = S.InferredSimSearch(view)
    rng = random.Random(1)
    stats = {k: Counter[str]() for k in acts}
    sums = {k: Counter[str]() for k in acts}
    for _ in range(n):
        sample = search.sample(rng)
        reshuffle = rng.getrandbits(63)
        for k, a in acts.items():
            sim = sample.copy()
            sim.seed = reshuffle
            assert apply_action(sim, me, a)
            sums[k]["my_score_after_draw"] += quick(sim.hands[me])[0]
            steps, knocker = 0, None
            while sim.phase != "over" and steps < 400:
                before = sim.knocker
                policy_move(sim, rng, seat_style if sim.to_act == me else rival_style)
                if before is None and sim.knocker is not None:
                    knocker = sim.knocker
                steps += 1
            sc = sim.round_scores
            others = [v for s, v in enumerate(sc) if s != me]
            hands = [quick(h)[0] for h in sim.hands]
            sums[k]["value"] += sc[me] - sum(others) / len(others)
            sums[k]["mine"] += sc[me]
            sums[k]["others"] += sum(others) / len(others)
            sums[k]["my_pot"] += sc[me] - hands[me]
            who = (
                "none"
                if knocker is None
                else "me"
                if knocker == me
                else f"rival+{(knocker - me) % view.players}"
            )
            stats[k]["knocker=" + who] += 1
    for k in acts:
        print(k, {x: round(v / n, 2) for x, v in sums[k].items()})
        print("  ", sorted(stats[k].items()))


if __name__ == "__main__":
    main()
