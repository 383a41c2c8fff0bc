"""A joker throw's search values with the playout knock rules changed (issue 17, Deadwood
Knock seventeenth pass): ``StrongBot.evaluate(cull=False)`` at ``ITERS`` iterations,
random stream 1, at a finder position, with the searching seat's and/or the rivals'
playout knocks changed; prints the joker throw less the other card's (stock draws),
paired sample by sample, with its standard error.

    .venv/bin/python bench/jk/diag.py 1 7 2000 7c
"""

from __future__ import annotations

import dataclasses
import random
import sys
from typing import Any

from position import replay

from deadwood_knock.bots import search as S
from deadwood_knock.bots.base import Budget
from deadwood_knock.bots.dk_playout import Style

NO_KNOCK = dataclasses.replace(S.DK_STYLE, knock_count=-100, knock_score=1_000_000)


class Variant(S.SearchBot):
    def __init__(self, seat: Style | None = None, rivals: Style | None = None) -> None:
        super().__init__()
        self.seat_style, self.rival_style = seat, rivals

    def _search(self, game: Any, observation: Any, view: Any) -> Any:
        s = super()._search(game, observation, view)
        if self.seat_style or self.rival_style:
            s.styles = [
                (self.seat_style or S.DK_STYLE)
                if i == view.seat
                else (self.rival_style or S.DK_STYLE)
                for i in range(view.players)
            ]
        return s


def name(a: Any) -> str:
    return f"{a.select}-{a.source}" if getattr(a, "kind", "") == "draw" else str(a.kind)


def main() -> None:
    seed, step, iters = (int(x) for x in sys.argv[1:4])
    other = sys.argv[4] if len(sys.argv) > 4 else "7c"
    game, obs, legal = replay(seed, step)
    print(" ".join(map(str, obs.hand)), "pile", " ".join(map(str, obs.discard_pile)))
    variants = {
        "today (DK_STYLE: knock count 4, score 25)": Variant(),
        "seat never knocks by score": Variant(dataclasses.replace(S.DK_STYLE, knock_score=10**6)),
        "seat knocks by score at 35": Variant(dataclasses.replace(S.DK_STYLE, knock_score=35)),
        "seat knocks by score at 45": Variant(dataclasses.replace(S.DK_STYLE, knock_score=45)),
        "seat never knocks": Variant(NO_KNOCK),
        "rivals never knock": Variant(None, NO_KNOCK),
        "nobody knocks": Variant(NO_KNOCK, NO_KNOCK),
    }
    for label, bot in variants.items():
        budget = Budget(iterations=iters)
        vals = bot.evaluate(game, obs, legal, random.Random(1), budget, cull=False)
        by = {name(v.action): v for v in vals}
        jk, ot = by.get("JK-stock"), by.get(f"{other}-stock")
        paired = ""
        if jk and ot:
            d = [a - b for a, b in zip(jk.draws, ot.draws, strict=True)]
            m = sum(d) / len(d)
            se = (sum((x - m) ** 2 for x in d) / (len(d) - 1) / len(d)) ** 0.5
            paired = f"JK-{other} {m:+.2f} (se {se:.2f})"
        top = [(k, round(v.value, 2)) for k, v in list(by.items())[:6]]
        print(f"{label:42s}", paired, top, flush=True)


if __name__ == "__main__":
    main()
