"""Where the joker throw's playout value comes from (jk46). python bench/jk/decomp.py SEED STEP N"""
import random, sys
from collections import Counter
from deadwood_knock.games import get_game
from deadwood_knock.bots.base import get_bot, Budget
from deadwood_knock.bots import search as S
from deadwood_knock.bots.dk_playout import apply_action, policy_move, quick
from deadwood_knock.bots.view import view_of

game = get_game("deadwood-knock")
seed, stop, N = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
import dataclasses
NO = dataclasses.replace(S.DK_STYLE, knock_count=-100, knock_score=1_000_000)
SEAT = NO if "seat-no" in sys.argv else S.DK_STYLE
RIVAL = NO if "rival-no" in sys.argv else S.DK_STYLE
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
    state, _ = game.apply(state, bots[seat].act(game, obs, legal, rng, Budget(iterations=200)))
view = view_of(obs, game.name)
me = view.seat
acts = {str(a.select): a for a in legal if getattr(a, "select", None) is not None and a.source == "stock" and str(a.select) in ("JK", "7c")}
search = S.InferredSimSearch(view)
r = random.Random(1)
stats = {k: Counter() for k in acts}
sums = {k: Counter() for k in acts}
for i in range(N):
    sample = search.sample(r)
    s63 = r.getrandbits(63)
    for k, a in acts.items():
        sim = sample.copy(); sim.seed = s63
        assert apply_action(sim, me, a)
        my_after = quick(sim.hands[me])[0]
        sums[k]["my_score_after_draw"] += my_after
        steps = 0; first_knocker = None; my_turns = 0; took = None
        while sim.phase != "over" and steps < 400:
            if sim.phase == "play" and sim.to_act == me:
                my_turns += 1
            before = sim.knocker
            if steps == 0:
                pile0 = len(sim.discard)
            policy_move(sim, r, SEAT if sim.to_act == me else RIVAL)
            if before is None and sim.knocker is not None:
                first_knocker = sim.knocker
            if steps == 0:
                took = len(sim.discard) < pile0 + 1
            steps += 1
        sc = sim.round_scores
        others = [v for s, v in enumerate(sc) if s != me]
        sums[k]["value"] += sc[me] - sum(others) / len(others)
        sums[k]["mine"] += sc[me]
        sums[k]["others"] += sum(others) / len(others)
        hs = [quick(h)[0] for h in sim.hands]
        sums[k]["my_hand_end"] += hs[me]
        sums[k]["others_hand_end"] += sum(v for s, v in enumerate(hs) if s != me) / (len(hs) - 1)
        sums[k]["my_pot"] += sc[me] - hs[me]
        stats[k]["knocker=" + ("me" if first_knocker == me else "none" if first_knocker is None else f"rival{(first_knocker - me) % 3}")] += 1
        stats[k]["next_took_top=" + str(took)] += 1
        stats[k]["reshuffled=" + str(sim.reshuffled)] += 1
        stats[k][f"my_turns={min(my_turns, 3)}"] += 1
for k in acts:
    print(k, {x: round(v / N, 2) for x, v in sums[k].items()})
    print("  ", sorted(stats[k].items()))
