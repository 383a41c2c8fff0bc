"""Joker-throw diagnosis (jk46): the seed-1 step-7 position valued with variants of the
playout model. python bench/jk/diag.py SEED STEP ITERS"""
import dataclasses, random, sys
from deadwood_knock.games import get_game
from deadwood_knock.bots.base import get_bot, Budget
from deadwood_knock.bots import search as S
from deadwood_knock.bots.dk_playout import Style

game = get_game("deadwood-knock")
seed, stop, iters = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
bots = [get_bot("strong"), get_bot("legend"), get_bot("legend")]
state = game.new_game(game.options_from_json({"players": 3}), seed)
rng = random.Random(seed)
n = 0
while True:
    n += 1
    seat = game.to_act(state)
    legal = game.legal_actions(state)
    obs = game.observe(state, seat)
    if n == stop:
        break
    a = bots[seat].act(game, obs, legal, rng, Budget(iterations=200))
    state, _ = game.apply(state, a)
print(" ".join(map(str, obs.hand)), "pile", " ".join(map(str, obs.discard_pile)))

NOKNOCK = dataclasses.replace(S.DK_STYLE, knock_count=-100, knock_score=1_000_000)

class Variant(S.SearchBot):
    def __init__(self, seat_style=None, rival_style=None):
        super().__init__()
        self.seat_style, self.rival_style = seat_style, rival_style
    def _search(self, game, observation, view):
        s = super()._search(game, observation, view)
        if self.seat_style or self.rival_style:
            s.styles = [(self.seat_style or S.DK_STYLE) if i == view.seat else (self.rival_style or S.DK_STYLE) for i in range(view.players)]
        return s

variants = {
    "today (DK_STYLE 4/25)": Variant(),
    "seat never knocks by score (4/inf)": Variant(dataclasses.replace(S.DK_STYLE, knock_score=1_000_000)),
    "seat knocks by score at 35": Variant(dataclasses.replace(S.DK_STYLE, knock_score=35)),
    "seat knocks by score at 45": Variant(dataclasses.replace(S.DK_STYLE, knock_score=45)),
    "seat never knocks": Variant(NOKNOCK),
    "rivals never knock": Variant(None, NOKNOCK),
}
for name, bot in variants.items():
    vals = bot.evaluate(game, obs, legal, random.Random(1), Budget(iterations=iters), cull=False)
    d = {(str(v.action.select) + v.action.source[:2] if hasattr(v.action, "select") else str(v.action)): v for v in vals}
    jk, c7 = d.get("JKst"), d.get("7cst")
    paired = ""
    if jk and c7:
        diffs = [a - b for a, b in zip(jk.draws, c7.draws)]
        m = sum(diffs) / len(diffs)
        sd = (sum((x - m) ** 2 for x in diffs) / (len(diffs) - 1)) ** 0.5
        paired = f"JK-7c {m:+.2f} (se {sd / len(diffs) ** 0.5:.2f})"
    print(f"{name:40s}", paired, [(k, round(v.value, 2)) for k, v in list(d.items())[:8]], flush=True)
