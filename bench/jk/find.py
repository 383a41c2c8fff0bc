"""Count strong's joker throws (jk46; from the lead's /tmp/jk/find.py): 3-player Deadwood
Knock, strong against two legends at 200 iterations. python bench/jk/find.py FROM TO [on]
("on": search.JOKER_KEEP on)."""
import random, sys
from deadwood_knock.games import get_game
from deadwood_knock.bots.base import get_bot, Budget
from deadwood_knock.bots import search
if "on" in sys.argv[3:]:
    search.JOKER_KEEP = True
game = get_game("deadwood-knock")
bots = [get_bot("strong"), get_bot("legend"), get_bot("legend")]
found = 0; total = 0
for seed in range(int(sys.argv[1]), int(sys.argv[2])):
    state = game.new_game(game.options_from_json({"players": 3}), seed)
    rng = random.Random(seed)
    n = 0
    while not game.is_over(state) and n < 400:
        n += 1
        seat = game.to_act(state)
        legal = game.legal_actions(state)
        obs = game.observe(state, seat)
        a = bots[seat].act(game, obs, legal, rng, Budget(iterations=200))
        if seat == 0 and hasattr(a, "select") and a.select is not None:
            hand = obs.hand if hasattr(obs, "hand") else None
            if any(str(c) == "JK" for c in hand):
                total += 1
                if str(a.select) == "JK":
                    found += 1
                    print(seed, n, " ".join(map(str, hand)), "pile", " ".join(map(str, obs.discard_pile[-2:])), a, flush=True)
        state, _ = game.apply(state, a)
print("joker held decisions", total, "joker thrown", found)
