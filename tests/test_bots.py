"""Bots: registry, personalities, legality over many games, hidden information, hints."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot_positions import played, swapped
from deadwood_knock.arena import play_match, run_arena
from deadwood_knock.bots import (
    LADDER,
    PERSONALITIES,
    Budget,
    PersonalityParams,
    UnknownBotError,
    bot_names,
    get_bot,
    personality_bot,
)
from deadwood_knock.bots.hints import explain, hand_focus, pot_dealer
from deadwood_knock.bots.search import DK_STYLE, HOLDING_STYLE, SearchBot, leave_the_loop
from deadwood_knock.bots.view import repeated_position, view_of
from deadwood_knock.cards import parse_card, parse_cards
from deadwood_knock.games import get_game
from deadwood_knock.games.base import GameError

TINY = Budget(iterations=3)


# --- registry and parameters -----------------------------------------------------------------


def test_registry_holds_every_builtin_and_the_ladder() -> None:
    names = bot_names()
    for name in ("random", "greedy", "strong", *LADDER, "flush-chaser", "cautious"):
        assert name in names
        assert get_bot(name).name == name


def test_unknown_bot_lists_valid_names() -> None:
    with pytest.raises(UnknownBotError) as err:
        get_bot("sheriff")
    assert "sheriff" in str(err.value) and "legend" in str(err.value)


@pytest.mark.parametrize(
    "bad",
    [
        {"knock_threshold": 12},
        {"call_rate": 1.5},
        {"palm_rate": -0.1},
        {"chase": "luck"},
        {"difficulty": "deity"},
    ],
)
def test_personality_params_are_validated(bad: dict[str, Any]) -> None:
    with pytest.raises(GameError):
        PersonalityParams.from_any(bad)


def test_personality_bot_from_mapping_and_from_a_content_figure() -> None:
    bot = personality_bot({"knock_threshold": 3, "chase": "flush", "difficulty": "sharp"})
    assert bot.params.knock_threshold == 3 and bot.params.difficulty == "sharp"
    from deadwood_knock.content import load_content

    for fig in load_content().figures:
        made = personality_bot(fig)
        assert made.params.knock_threshold == fig.knock_threshold
        assert made.params.chase == getattr(fig.chase, "value", fig.chase)
        assert made.params.difficulty == getattr(fig.difficulty, "value", fig.difficulty)


def test_ladder_is_ordered_by_skill() -> None:
    from deadwood_knock.bots.personality import SKILLS

    blunders = [SKILLS[level].blunder for level in LADDER]
    assert blunders == sorted(blunders, reverse=True)
    rummy = [SKILLS[level].rummy_blunder for level in LADDER]
    assert rummy == sorted(rummy, reverse=True) and rummy[-1] == 0.0
    assert [PERSONALITIES[level].difficulty for level in LADDER] == list(LADDER)
    # The lower rungs knock earlier: the knock timing column of the arena shows the ladder.
    thresholds = [PERSONALITIES[level].knock_threshold for level in LADDER]
    assert thresholds == sorted(thresholds, reverse=True)


def test_the_legend_is_the_fixed_top_of_the_ladder() -> None:
    # The strong bot is measured against the legend: the ladder is tuned below it.
    from deadwood_knock.bots.personality import SKILLS, Skill

    assert PERSONALITIES["legend"] == PersonalityParams(
        6, 0.5, 0.85, "balanced", 0.1, 1.0, "legend"
    )
    assert SKILLS["legend"] == Skill(0.0, 24, 1.0, odds=True)


def test_knock_rummy_ladder_is_in_order() -> None:
    # Early knocks pay in Knock Rummy, so without their own mistake rate the eager low
    # rungs played level with the legend; a rung apart is about 8 points a hand.
    report = run_arena("knock-rummy", ["tenderfoot", "regular", "legend"], 90, seed=12)
    means = [report.bots[name].mean for name in ("tenderfoot", "regular", "legend")]
    assert means == sorted(means)
    for pair in ("tenderfoot - regular", "regular - legend"):
        _margin, (_lo, hi) = report.margins[pair]
        assert hi < 0, pair  # the rung above is ahead, paired by match


# --- legality over many games ---------------------------------------------------------------


def _lineups(rng: random.Random, n: int, pool: list[str]) -> list[str]:
    return [rng.choice(pool) for _ in range(n)]


def test_cheap_bots_play_thousands_of_legal_games() -> None:
    """play_match raises on any illegal action. Each game seats one bot under test (in
    turn: greedy and every personality) among random players, so it sees wild tables."""
    rng = random.Random(20261129)
    games = rounds = 0
    configs: list[tuple[str, int, dict[str, Any], int]] = [
        ("deadwood-knock", n, {"rounds": 1, "sleight_of_hand": soh}, 135)
        for n in (2, 3, 4, 5, 6)
        for soh in (False, True)
    ]
    configs += [("knock-rummy", n, {"target": 1}, 120) for n in (2, 3, 4, 5)]
    configs += [("knock-rummy", 2, {"target": 1, "high_aces": True, "knock_limit": 10}, 60)]
    configs += [("gin", 2, {"target": 1}, 120)]
    tested = ["greedy", *PERSONALITIES]
    for game, n, options, count in configs:
        for i in range(count):
            lineup = ["random"] * n
            lineup[i % n] = tested[games % len(tested)]
            result = play_match(game, lineup, options, seed=rng.getrandbits(32))
            games += 1
            rounds += len(result.round_scores)
    assert games >= 2000 and rounds >= games


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("deadwood-knock", 2, {"rounds": 2, "sleight_of_hand": True}),
        ("deadwood-knock", 4, {"rounds": 1}),
        ("deadwood-knock", 6, {"rounds": 1, "sleight_of_hand": True}),
        ("knock-rummy", 2, {"target": 25}),
        ("knock-rummy", 4, {"target": 10}),
        ("gin", 2, {"target": 25}),
    ],
)
def test_strong_bot_plays_legal_games(game: str, players: int, options: dict[str, Any]) -> None:
    lineup = ["strong", *(["greedy", "legend", "random"] * 2)][:players]
    for seed in range(2):
        result = play_match(game, lineup, options, seed=seed, budget=TINY)
        assert result.round_scores


# --- hidden information --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game_name", "options"),
    [
        ("deadwood-knock", {"players": 3, "rounds": 1}),
        ("knock-rummy", {"players": 3}),
        ("gin", {"players": 2}),
    ],
)
@pytest.mark.parametrize("bot_name", ["strong", "strong-v1", "greedy", "legend", "tenderfoot"])
def test_doctored_hidden_cards_do_not_change_any_decision(
    game_name: str, options: dict[str, Any], bot_name: str
) -> None:
    rng = random.Random(7)
    checked = 0
    for seed in range(6):
        game, state = played(game_name, options, seed, steps=rng.randrange(0, 3))
        seat = game.to_act(state)
        if seat is None or game.is_over(state) or not state.stock:
            continue
        other = next(s for s in range(len(state.hands)) if s != seat)
        doctored = swapped(state, other, rng.choice)
        assert doctored.hands != state.hands
        real_obs, fake_obs = game.observe(state, seat), game.observe(doctored, seat)
        assert real_obs.to_json() == fake_obs.to_json()
        legal = game.legal_actions(state)
        bot = get_bot(bot_name)
        a = bot.act(game, real_obs, legal, random.Random(seed), Budget(iterations=4))
        b = bot.act(game, fake_obs, legal, random.Random(seed), Budget(iterations=4))
        assert a == b
        checked += 1
    assert checked >= 3


def test_bot_reads_only_the_observation_it_is_given() -> None:
    """A JSON copy of the observation (no engine object at all) gives the same decision."""
    game, state = played("deadwood-knock", {"players": 4, "rounds": 1}, 5, steps=2)
    seat = game.to_act(state)
    obs = game.observe(state, seat)
    legal = game.legal_actions(state)
    as_json = json.loads(json.dumps(obs.to_json()))
    for name in ("greedy", "legend", "strong", "strong-v1"):
        bot = get_bot(name)
        a = bot.act(game, obs, legal, random.Random(3), Budget(iterations=4))
        b = bot.act(game, as_json, legal, random.Random(3), Budget(iterations=4))
        assert a == b, name


# --- hints ---------------------------------------------------------------------------------


def test_hand_focus_ranks_legal_actions_and_is_json() -> None:
    game, state = played("deadwood-knock", {"players": 2, "rounds": 1}, 12, steps=0)
    seat = game.to_act(state)
    hint = hand_focus(game, game.observe(state, seat), Budget(iterations=6))
    data = json.loads(json.dumps(hint.to_json()))
    legal_json = [a.to_json() for a in game.legal_actions(state)]
    assert data["best"] in legal_json
    assert len(data["actions"]) == len(legal_json)
    assert {json.dumps(a["action"], sort_keys=True) for a in data["actions"]} == {
        json.dumps(a, sort_keys=True) for a in legal_json
    }
    assert data["explanation"]
    assert data["knock"]["legal"] == any(a["type"] == "knock" for a in legal_json)


def test_style_differs_between_personalities() -> None:
    report = run_arena(
        "deadwood-knock",
        ["tenderfoot", "cautious", "gambler", "regular"],
        12,
        seed=4,
        options={"rounds": 3, "sleight_of_hand": True},
    )
    styles = report.styles
    knock_rate = {n: s.knocks / max(1, s.rounds) for n, s in styles.items()}
    call_rate = {n: s.calls / max(1, s.calls + s.folds) for n, s in styles.items()}
    assert knock_rate["tenderfoot"] > knock_rate["cautious"]
    assert call_rate["gambler"] > call_rate["cautious"]
    assert styles["cautious"].palms == 0


def test_palm_rate_decides_who_palms_a_good_buried_card() -> None:
    from deadwood_knock.games.deadwood_knock import Draw

    game = get_game("deadwood-knock")
    hand = parse_cards("As Ah 7c 7d Kd 2s 9h 4c")
    obs = {
        "game": "deadwood-knock",
        "seat": 0,
        "players": 2,
        "phase": "play",
        "to_act": 0,
        "options": {"sleight_of_hand": True},
        "hand": [str(c) for c in hand],
        "discard_pile": ["5d", "Ac", "3s"],  # the ace under the top would make a full house
        "stock_size": 35,
        "hand_sizes": [8, 8],
        "known_cards": [[], []],
        "events": [],
    }
    legal = [Draw(c, src) for c in hand for src in ("stock", "discard", "palm")]
    palms = {}
    for name in ("gambler", "cautious"):
        bot = get_bot(name)
        chosen = [bot.act(game, obs, legal, random.Random(i)) for i in range(40)]
        palms[name] = sum(1 for a in chosen if a.source == "palm")
    assert palms["cautious"] == 0
    assert palms["gambler"] >= 20


def test_no_personality_folds_a_full_house_or_better_to_a_knock() -> None:
    """The players who call by feel (no pot odds) fold middling hands at their call rate, but
    never a full house or better: at a 360 px table Lottie Deno (a greenhorn) folded a
    straight flush once another seat had called."""
    from deadwood_knock.games.deadwood_knock import Call, Fold
    from deadwood_knock.trail.figure_bots import register_figure_bots

    register_figure_bots()
    game = get_game("deadwood-knock")
    hands = {
        "straight flush": "5h 6h 7h 8h 9h Kc 2d 3s",
        "full house": "Js Jh Jd 6s 6h 8s 3c 4d",
        "two pair": "Js Jh 6d 6s 9h 8s 3c 4d",
    }
    folds: dict[str, dict[str, int]] = {}
    for label, cards in hands.items():
        obs = {
            "game": "deadwood-knock",
            "seat": 2,
            "players": 3,
            "phase": "call",
            "to_act": 2,
            "knocker": 0,
            "options": {"sleight_of_hand": True},
            "hand": cards.split(),
            "discard_pile": ["5d", "Ac", "3s"],
            "stock_size": 20,
            "hand_sizes": [8, 8, 8],
            "known_cards": [[], [], []],
            "calls": [None, "call", None],
            "events": [{"type": "knock", "seat": 0}, {"type": "call", "seat": 1}],
        }
        legal = [Call(), Fold()]
        for name in ("tenderfoot", "greenhorn", "figure:lottie-deno", "cautious"):
            bot = get_bot(name)
            chosen = [bot.act(game, obs, legal, random.Random(i)) for i in range(60)]
            folds.setdefault(label, {})[name] = sum(isinstance(a, Fold) for a in chosen)
    assert all(n == 0 for n in folds["straight flush"].values()), folds
    assert all(n == 0 for n in folds["full house"].values()), folds
    # Below that, the call rate still decides: a timid player folds two pair at times.
    assert folds["two pair"]["cautious"] > 0, folds


def test_explanation_judges_draws_after_the_take() -> None:
    # Taking 2♦ makes a full house: the old "one card from a straight" note no longer applies.
    from deadwood_knock.games.deadwood_knock import Draw

    hand = parse_cards("9c 9s 9d 2h 3s 4c 5d Kh")
    obs = {
        "game": "deadwood-knock",
        "seat": 0,
        "players": 2,
        "phase": "play",
        "to_act": 0,
        "hand": [str(c) for c in hand],
        "discard_pile": ["7c", "2d"],
        "stock_size": 36,
        "hand_sizes": [8, 8],
        "known_cards": [[], []],
        "events": [],
    }
    text = explain("deadwood-knock", view_of(obs), Draw(parse_card("Kh"), "discard"))
    # Worded in the order of the move: the discard is chosen, then the pile's card taken.
    assert text.startswith("Discard K♥ and take 2♦ from the pile: your hand becomes")
    assert "full house" in text
    assert "from a straight" not in text


def test_the_playout_memo_costs_the_garbage_collector_nothing() -> None:
    """The playouts' evaluation memo holds hundreds of thousands of entries; if its keys
    or values were tracked objects, every full collection would scan them all (a 100 ms
    pause in the middle of a decision, which broke the bots' time budget)."""
    import gc

    from deadwood_knock.bots import dk_playout
    from deadwood_knock.cards import CARDS

    rng = random.Random(3)
    for _ in range(50):
        dk_playout.quick(rng.sample(CARDS, 8))
    gc.collect()
    assert dk_playout._CACHE
    assert not any(gc.is_tracked(k) or gc.is_tracked(v) for k, v in dk_playout._CACHE.items())


def test_batched_safe_values_equal_safe_value_hand_by_hand() -> None:
    """The greedy stock draw scores its sample in one batch (``safe_values``): each value
    must be what ``safe_value`` gives the hand alone, jokers and short hands included."""
    from deadwood_knock.bots.dk import safe_value, safe_values
    from deadwood_knock.cards import CARDS

    rng = random.Random(41)
    hands = [rng.sample(CARDS[:54], rng.randint(5, 9)) for _ in range(3000)] + [
        [CARDS[52], CARDS[53], *rng.sample(CARDS[:52], 4)] for _ in range(50)
    ]
    got = safe_values(hands)
    assert got == [safe_value(h) for h in hands]
    assert -20.0 in got and len(set(got)) > 50  # short hands and real scores both met


def test_the_view_tells_a_knock_made_before_everyone_had_moved() -> None:
    # Read from the public events, as every seat sees them: a knock while a rival has yet
    # to take a turn (counted here from the actions applied) is a first-lap knock.
    game = get_game("deadwood-knock")
    seen = {True: 0, False: 0}
    for seed in range(300):
        state = game.new_game(game.options_from_json({"players": 3}), seed)
        drew = [0, 0, 0]
        while state.phase == "play":
            seat = game.to_act(state)
            legal = game.legal_actions(state)
            knock = next((a for a in legal if a.kind == "knock"), None)
            first = any(n == 0 for s, n in enumerate(drew) if s != seat)
            if knock is not None and seen[first] < 3:
                state, _ = game.apply(state, knock)
                for other in range(3):
                    view = view_of(game.observe(state, other), game.name)
                    assert view.first_lap_knock is first
                # Hand Focus reads such a knocker as holding a better hand.
                dealer = pot_dealer(view)
                assert dealer.tries(seat) == (12 if first else 5)
                seen[first] += 1
                break
            draw = next(a for a in legal if a.kind == "draw")
            state, _ = game.apply(state, draw)
            drew[seat] += 1
        if min(seen.values()) >= 3:
            break
    assert seen == {True: 3, False: 3}


# --- the heads-up pile loop ----------------------------------------------------------------

#: Round 4 of match 4 of ``deadwood-knock arena --bots strong,strong-v1 --seed 2511
#: --iterations 200`` at its 137th action, as strong and strong-v1 started trading the same
#: low hearts and diamonds through the pile (seat 0 strong's royal flush, seat 1
#: strong-v1's full house, both free to knock): before the pile-loop rule that round went
#: on for 3,000 actions and more with the stock at 7 (docs/bots-experiments.md, Deadwood
#: Knock, eleventh pass).
LOOP_POSITION: dict[str, Any] = {
    "game": "deadwood-knock",
    "options": {"players": 2, "rounds": 10},
    "seed": 3899119289470417365,
    "round": 3,
    "dealer": 1,
    "to_act": 1,
    "phase": "play",
    "hands": ["Ah 2h Th Jh Qh Kh Ad Ac".split(), "Ks 4d Jd Kd Jc Kc JK JK".split()],
    "stock": "6s 2c 8s Ts 3d 3c Qs 4h 5c 7s Tc 6d 4s Qd 2d".split(),
    "discard": "8h 9h 4c 6h 6c 5d 2s 9d 5h Js 7h As 5s 3s 8c 9s 9c 7d 7c 8d Qc Td 3h".split(),
    "reshuffled": True,
    "known": ["Ah 2h Kh Ad Ac".split(), "4d JK JK".split()],
}


def _draw(game: Any, select: str, source: str) -> Any:
    return game.action_from_json({"type": "draw", "select": select, "source": source})


def test_a_seat_sees_its_position_come_back_through_the_pile() -> None:
    # Seat 1 throws 4d, 3h, 2h and seat 0 takes each back: after three turns each, seat 1
    # holds the same hand over the same pile. Not when seat 0's last card comes from the
    # stock: seat 1 holds the same hand, the pile has one card more.
    game = get_game("deadwood-knock")
    trades = ["4d", "2h", "3h", "4d", "2h", "3h"]
    for stock_at in (None, 5):
        state = game.position_from_json(LOOP_POSITION)
        start = (state.hands[1], state.discard)
        seen = []
        for i, select in enumerate(trades):
            seat = game.to_act(state)
            seen.append(repeated_position(view_of(game.observe(state, seat), game.name)))
            source = "stock" if i == stock_at else "discard"
            state, _ = game.apply(state, _draw(game, select, source))
        assert state.hands[1] == start[0]
        assert (state.discard == start[1]) is (stock_at is None)
        assert not any(seen)
        # At seat 1's turn; seat 0, not to act, is not at the start of a turn.
        assert repeated_position(view_of(game.observe(state, 1), game.name)) is (stock_at is None)
        assert not repeated_position(view_of(game.observe(state, 0), game.name))


def test_leave_the_loop_keeps_the_knock_and_the_stock_draws() -> None:
    game = get_game("deadwood-knock")
    state = game.position_from_json({**LOOP_POSITION, "to_act": 0})
    legal = game.legal_actions(state)
    kept = leave_the_loop(legal)
    assert {a.kind for a in kept} == {"knock", "draw"}
    assert {getattr(a, "source", "stock") for a in kept} == {"stock"}
    assert len(kept) == 1 + sum(1 for a in legal if getattr(a, "source", "") == "stock")
    assert leave_the_loop([a for a in legal if getattr(a, "source", "") == "discard"])


@pytest.mark.parametrize("seed", [1, 3, 4])
def test_strong_leaves_the_heads_up_pile_loop(seed: int) -> None:
    # From the loop position, strong (seat 0) against strong-v1 at 20 iterations: before
    # the rule both took the pile's top at every turn and the round was still going after
    # 400 actions on these seeds; now strong leaves the loop once it sees the position
    # back, and the round ends within a few turns.
    game = get_game("deadwood-knock")
    state = game.position_from_json(LOOP_POSITION)
    bots = [get_bot("strong"), get_bot("strong-v1")]
    rngs = [random.Random(seed * 10 + s) for s in range(2)]
    for _ in range(60):
        seat = game.to_act(state)
        assert seat is not None
        legal = game.legal_actions(state)
        action = bots[seat].act(
            game, game.observe(state, seat), legal, rngs[seat], Budget(iterations=20)
        )
        state, events = game.apply(state, action)
        if any(e.kind == "round_result" for e in events):
            break
    else:
        pytest.fail("the round was still going after 60 actions")


def test_strong_prices_a_repeated_position_with_rivals_that_hold() -> None:
    # Only in a position seen before do the playout rivals stop knocking; there strong
    # knocks its royal flush (strong-v1 with a full house has just passed up the knock).
    game = get_game("deadwood-knock")
    state = game.position_from_json(LOOP_POSITION)
    bot = SearchBot()
    for select in ("4d", "2h", "3h", "4d", "2h", "3h"):
        seat = game.to_act(state)
        obs = game.observe(state, seat)
        assert bot._search(game, obs, view_of(obs, game.name)).styles is None  # type: ignore[attr-defined]
        state, _ = game.apply(state, _draw(game, select, "discard"))
    state, _ = game.apply(state, _draw(game, "4d", "discard"))  # seat 1 again, as before
    obs = game.observe(state, 0)
    view = view_of(obs, game.name)
    assert repeated_position(view)
    styles = bot._search(game, obs, view).styles  # type: ignore[attr-defined]
    assert styles is not None and styles[0] == DK_STYLE and styles[1] == HOLDING_STYLE
    legal = game.legal_actions(state)
    assert bot.act(game, obs, legal, random.Random(1), Budget(iterations=50)).kind == "knock"
