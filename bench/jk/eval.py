import random, sys
from deadwood_knock.games import get_game
from deadwood_knock.bots.base import get_bot, Budget
game = get_game("deadwood-knock")
bots = [get_bot("strong"), get_bot("legend"), get_bot("legend")]
seed, stop = int(sys.argv[1]), int(sys.argv[2])
state = game.new_game(game.options_from_json({"players": 3}), seed)
rng = random.Random(seed)
n = 0
while True:
    n += 1
    seat = game.to_act(state)
    legal = game.legal_actions(state)
    obs = game.observe(state, seat)
    if n == stop:
        print(" ".join(map(str, obs.hand)), "pile", " ".join(map(str, obs.discard_pile)), "stock", obs.stock_size)
        print("eval", obs.evaluation)
        for it in (200, 2000):
            vals = bots[0].evaluate(game, obs, legal, random.Random(1), Budget(iterations=it), cull=False)
            print(it, [(str(v.action.select) + v.action.source[:2] if hasattr(v.action, "select") else v.action, round(v.value, 2), v.samples, round(v.prior, 1)) for v in vals][:8])
        break
    a = bots[seat].act(game, obs, legal, rng, Budget(iterations=200))
    state, _ = game.apply(state, a)
