"""The strong bot at Gin: its anchor move (a sound Gin player's), the playout policy."""

from __future__ import annotations

import dataclasses
import itertools
import random
from typing import Any

import pytest

from deadwood_knock.bots import Budget, get_bot, kr_playout
from deadwood_knock.bots.strong import gin_choice
from deadwood_knock.bots.view import view_of
from deadwood_knock.cards import CARDS, parse_cards
from deadwood_knock.games import get_game
from deadwood_knock.games.knock_rummy.core import KrTable
from deadwood_knock.games.knock_rummy.rules import position_from_json, table_of


def _gin_position(hand: str, top: str, phase: str, opponent: str = "") -> tuple[Any, Any]:
    """A fresh Gin deal with seat 0's hand, the pile's top and seat 1's hand set by hand."""
    game = get_game("gin")
    state = game.new_game(game.options_from_json({"players": 2}), 1)
    mine, pile = list(parse_cards(hand)), list(parse_cards(top))
    rest = [c for c in CARDS[:52] if c not in mine and c not in pile]
    theirs = list(parse_cards(opponent)) if opponent else []
    rest = [c for c in rest if c not in theirs]
    theirs += rest[: 10 - len(theirs)]
    stock = rest[10 - len(parse_cards(opponent)) if opponent else 10 :]
    state = dataclasses.replace(
        state,
        hands=(tuple(sorted(mine)), tuple(sorted(theirs))),
        stock=tuple(stock),
        discard_pile=tuple(pile),
        phase=phase,
        to_act=0,
        taken_discard=None,
    )
    return game, state


def _choose(hand: str, top: str, phase: str) -> Any:
    game, state = _gin_position(hand, top, phase)
    legal = game.legal_actions(state)
    action = gin_choice(view_of(game.observe(state, 0), "gin"), legal)
    assert action in legal
    return action


def test_gin_anchor_takes_the_top_only_when_it_melds() -> None:
    # 9h completes 7h 8h 9h: take it.
    took = _choose("7h 8h 2c 5d Jd Qs Kc 3s 9c Td", "9h", "draw")
    assert took.kind == "draw" and took.source == "discard"
    # Kh melds with nothing (it would only replace a high card): draw blind instead.
    drew = _choose("7h 8h 2c 5d Jd Qs 4c 3s 9c Td", "Kh", "draw")
    assert drew.kind == "draw" and drew.source == "stock"


def test_gin_anchor_knocks_at_a_low_count() -> None:
    # After throwing Kd the hand is three melds and 2c + 3d: count 5, a knock.
    act = _choose("7h 8h 9h 4s 4d 4c Js Qs Ks 2c 3d", "5h", "discard")
    assert act.kind == "knock"
    assert str(act.discard) in ("3d", "2c")  # throws a deadwood card, never a meld card


def test_gin_anchor_keeps_connected_cards_over_lone_ones_of_the_same_value() -> None:
    # Ts, Js, Kd and Qc all cost 10; T-J of spades can still become a run, Kd and Qc cannot
    # meld with anything in the hand.
    act = _choose("2c 3c 4c 5h 6h 7h Ts Js Kd Qc Ah", "8s", "discard")
    assert act.kind == "discard"
    assert str(act.card) in ("Kd", "Qc")


def test_strong_bot_keeps_the_gin_anchor_without_evidence() -> None:
    """With too few samples to compare, the strong bot plays the anchor's move."""
    bot = get_bot("strong")
    for hand, top, phase in [
        ("7h 8h 2c 5d Jd Qs Kc 3s 9c Td", "9h", "draw"),
        ("7h 8h 2c 5d Jd Qs 4c 3s 9c Td", "Kh", "draw"),
        ("7h 8h 9h 4s 4d 4c Js Qs Ks 2c 3d", "5h", "discard"),
    ]:
        game, state = _gin_position(hand, top, phase)
        legal = game.legal_actions(state)
        obs = game.observe(state, 0)
        want = gin_choice(view_of(obs, "gin"), legal)
        got = bot.act(game, obs, legal, random.Random(3), Budget(iterations=2))
        assert got == want


def test_strong_bot_is_deterministic_at_gin_with_an_iteration_budget() -> None:
    game, state = _gin_position("7h 8h 2c 5d Jd Qs 4c 3s 9c Td", "Kh", "draw")
    legal = game.legal_actions(state)
    obs = game.observe(state, 0)
    bot = get_bot("strong")
    runs = {bot.act(game, obs, legal, random.Random(11), Budget(iterations=24)) for _ in range(2)}
    assert len(runs) == 1 and runs.pop() in legal


def _sim(hand: str, top: str, gin: bool) -> KrTable:
    mine, pile = list(parse_cards(hand)), list(parse_cards(top))
    rest = [c for c in CARDS[:52] if c not in mine and c not in pile]
    state = position_from_json(
        {
            "options": {"gin": gin},
            "hands": [[str(c) for c in mine], [str(c) for c in rest[:10]]],
            "stock": [str(c) for c in rest[10:]],
            "discard_pile": [str(c) for c in pile],
            "to_act": 0,
            "phase": "draw",
        }
    )
    return table_of(state, single_hand=True)


def test_gin_playouts_take_the_top_only_to_meld_it() -> None:
    # The 2h lowers the count (it replaces the king) but melds with nothing.
    hand = "7h 8h 5c 5d Jd Qs Kc 3s 9c Td"
    sim = _sim(hand, "2s", gin=True)
    kr_playout.policy_move(sim, 10)
    assert sim.taken is None and sim.pile == list(parse_cards("2s"))
    # Knock Rummy playouts still take any card that lowers the count.
    sim = _sim(hand, "2s", gin=False)
    kr_playout.policy_move(sim, 6)
    assert sim.taken == parse_cards("2s")[0]
    # A top that completes a run is taken at Gin too.
    sim = _sim(hand, "9h", gin=True)
    kr_playout.policy_move(sim, 10)
    assert sim.taken == parse_cards("9h")[0]


def test_strong_weighs_six_gin_candidates_and_strong_v1_four() -> None:
    """strong's Gin search keeps two more candidates than the frozen strong-v1."""
    game, state = _gin_position("2c 3c 4c 5h 6h 7h Ts Js Kd Qc Ah", "8s", "discard")
    legal = game.legal_actions(state)
    obs = game.observe(state, 0)
    budget = Budget(iterations=4)
    new = get_bot("strong").evaluate(game, obs, legal, random.Random(5), budget, cull=False)
    old = get_bot("strong-v1").evaluate(game, obs, legal, random.Random(5), budget, cull=False)
    assert [av.samples for av in new] == [4] * 6
    assert [av.samples for av in old] == [4] * 4


def _kr_position(hand: str, top: str) -> tuple[Any, Any]:
    """A fresh heads-up Knock Rummy deal, seat 0 to discard with ``hand`` (11 cards)."""
    game = get_game("knock-rummy")
    state = game.new_game(game.options_from_json({"players": 2}), 1)
    mine, pile = list(parse_cards(hand)), list(parse_cards(top))
    rest = [c for c in CARDS[:52] if c not in mine and c not in pile]
    state = dataclasses.replace(
        state,
        hands=(tuple(sorted(mine)), tuple(sorted(rest[:10]))),
        stock=tuple(rest[10:]),
        discard_pile=tuple(pile),
        phase="discard",
        to_act=0,
        taken_discard=None,
    )
    return game, state


def test_strong_decides_a_knock_rummy_knock_by_its_value_against_playing_on() -> None:
    """strong weighs its best knock on every sample (never culled) against the play-on
    moves, and knocks exactly when the knock's paired mean beats the move it would
    otherwise play; strong-v1 keeps its own rule (here: more than one knock weighed)."""
    knocked = []
    for hand in (
        "7h 8h 9h 4s 4d 4c Js Qs 2c 3d 5s",  # count 5 left: knocks
        "7h 8h 9h 4s 4d Js Qs Kd 2c 3d 9s",  # 42 at the first turn: knocks too
        "Ks Qd Jc Th 9s 8d 7c 6h Kd Qc 5s",  # 83: plays on
    ):
        game, state = _kr_position(hand, "5h")
        legal = game.legal_actions(state)
        obs = game.observe(state, 0)
        ranked = get_bot("strong").evaluate(
            game, obs, legal, random.Random(7), Budget(iterations=32)
        )
        knocks = [av for av in ranked if av.action.kind == "knock"]
        assert knocks and all(av.samples == 32 for av in knocks)
        best = max(knocks, key=lambda av: av.value)
        play_on = next(av for av in ranked if av.action.kind != "knock")
        n = min(len(best.draws), len(play_on.draws))
        gain = sum(best.draws[k] - play_on.draws[k] for k in range(n)) / n
        assert (ranked[0] is best) == (gain > 0)
        knocked.append(ranked[0] is best)
        assert len(knocks) == 1 and len(ranked) == 5  # four play-on moves and the knock
    assert knocked == [True, True, False]
    game, state = _kr_position("7h 8h 9h 4s 4d 4c Js Qs 2c 3d 5s", "5h")
    old = get_bot("strong-v1").evaluate(
        game,
        game.observe(state, 0),
        game.legal_actions(state),
        random.Random(7),
        Budget(iterations=8),
    )
    assert sum(av.action.kind == "knock" for av in old) == 2


def test_strong_knocks_at_gin_by_how_close_the_rival_is(monkeypatch: Any) -> None:
    """Rival far (a fresh deal): the anchor knocks at the rules' limit (strong-v1's at 8);
    rival judged close: no knock above 6, however the playouts rate it."""
    from deadwood_knock.bots import search

    # Throwing Kd leaves 9c alone: a knock at 9.
    game, state = _gin_position("7h 8h 9h 4s 4d 4c Js Qs Ks 9c Kd", "5h", "discard")
    legal = game.legal_actions(state)
    obs = game.observe(state, 0)
    view = view_of(obs, "gin")
    assert search.gin_knock_cap(view) == 10  # the rival has not played: far from knocking
    assert search.gin_knock_cap(view) == search.gin_knock_cap(view)
    strong = get_bot("strong").act(game, obs, legal, random.Random(3), Budget(iterations=2))
    assert strong.kind == "knock" and str(strong.discard) == "Kd"
    v1 = get_bot("strong-v1").act(game, obs, legal, random.Random(3), Budget(iterations=2))
    assert v1.kind == "discard"
    # Judged close (every deal counts under the threshold): a knock leaving 8 is not
    # weighed at all, only the discards and knocks at 6 or less.
    monkeypatch.setattr(search, "GIN_CLOSE_RIVAL", 1000.0)
    game, state = _gin_position("7h 8h 9h 4s 4d 4c Js Qs Ks 8c Kd", "5h", "discard")
    legal = game.legal_actions(state)
    obs = game.observe(state, 0)
    assert any(a.kind == "knock" for a in legal)
    assert search.gin_knock_cap(view_of(obs, "gin")) == 6
    ranked = get_bot("strong").evaluate(game, obs, legal, random.Random(3), Budget(iterations=40))
    assert ranked and all(av.action.kind != "knock" for av in ranked)


def test_gin_hint_gives_no_knock_verdict_when_the_knock_was_not_weighed(monkeypatch: Any) -> None:
    """Rival judged close: ``strong`` does not weigh the legal knock at 8, so Hand Focus
    must not say that playing on is rated above knocking (the client words a ``False``
    verdict that way); it says the knock was not weighed and gives no verdict."""
    from deadwood_knock.bots import search
    from deadwood_knock.bots.hints import hand_focus

    monkeypatch.setattr(search, "GIN_CLOSE_RIVAL", 1000.0)
    game, state = _gin_position("7h 8h 9h 4s 4d 4c Js Qs Ks 8c Kd", "5h", "discard")
    assert any(a.kind == "knock" for a in game.legal_actions(state))
    hint = hand_focus(game, game.observe(state, 0), Budget(iterations=12), seed=3)
    assert hint.knock_wise is None
    assert all(r.value is None for r in hint.actions if r.action["type"] == "knock")
    knock = hint.to_json()["knock"]
    assert knock["legal"] and knock["wise"] is None
    assert knock["advice"] == "The search did not weigh knocking now."


def test_strong_gin_anchor_is_offered_only_the_knocks_the_cap_left(monkeypatch: Any) -> None:
    """``SearchBot._gin_anchor`` knocks at up to 10 and relies on ``evaluate`` having taken
    the knocks above ``gin_knock_cap`` out of ``legal`` first (``gin_weighed``): with the
    rival judged close, every action ``evaluate`` offers the anchor leaves 6 or less, so
    its move is no knock at 8; offered every legal action it would knock at 8."""
    from deadwood_knock.bots import search

    offered: list[list[Any]] = []
    chosen: list[Any] = []
    anchor = search.SearchBot._gin_anchor

    def spy(self: Any, view: Any, legal: Any) -> Any:
        offered.append(list(legal))
        chosen.append(anchor(self, view, legal))
        return chosen[-1]

    monkeypatch.setattr(search.SearchBot, "_gin_anchor", spy)
    monkeypatch.setattr(search, "GIN_CLOSE_RIVAL", 1000.0)
    # Throwing Kd leaves 8c alone: a knock at 8, the only knock legal.
    game, state = _gin_position("7h 8h 9h 4s 4d 4c Js Qs Ks 8c Kd", "5h", "discard")
    legal = game.legal_actions(state)
    obs = game.observe(state, 0)
    view = view_of(obs, "gin")
    assert search.gin_knock_cap(view) == 6
    assert [a for a in legal if a.kind == "knock"]
    assert list(search.gin_weighed(view, legal)) == [a for a in legal if a.kind != "knock"]
    search.SearchBot().evaluate(game, obs, legal, random.Random(3), Budget(iterations=8))
    assert len(offered) == 1 and all(a.kind != "knock" for a in offered[0])
    assert chosen[0].kind == "discard"
    # The coupling: the anchor alone, offered the knock at 8, takes it.
    assert anchor(search.SearchBot(), view, legal).kind == "knock"
    # Rival far (the threshold back): the knock stays in and the anchor takes it.
    monkeypatch.setattr(search, "GIN_CLOSE_RIVAL", 25.0)
    assert search.gin_knock_cap(view) == 10
    assert list(search.gin_weighed(view, legal)) == list(legal)
    search.SearchBot().evaluate(game, obs, legal, random.Random(3), Budget(iterations=8))
    assert chosen[-1].kind == "knock" and str(chosen[-1].discard) == "Kd"


def _kr_ranked(hand: str, seed: int = 7, iterations: int = 32) -> list[Any]:
    game, state = _kr_position(hand, "5h")
    return get_bot("strong").evaluate(
        game,
        game.observe(state, 0),
        game.legal_actions(state),
        random.Random(seed),
        Budget(iterations=iterations),
    )


def _summary(ranked: list[Any]) -> list[tuple[str, int, tuple[float, ...]]]:
    return [(str(av.action), av.samples, av.draws) for av in ranked]


def test_knock_rummy_fifth_pass_switches_are_off_and_leave_play_as_it_was(
    monkeypatch: Any,
) -> None:
    """The fifth Gin / Knock Rummy pass's variants are off in play, so strong plays Knock
    Rummy on strong-v1's playouts (``KrSimSearch``); the early-knocking playouts with a
    margin no hand reaches play exactly those playouts (same moves, same values)."""
    from deadwood_knock.bots import search
    from deadwood_knock.bots.strong import KrSimSearch

    assert search.KR_AHEAD_MARGIN is None and search.KR_KNOCK_SHARE == 0.0
    game, state = _kr_position("7h 8h 9h 4s 4d Js Qs Kd 2c 3d 9s", "5h")
    obs = game.observe(state, 0)
    found = search.SearchBot()._search(game, obs, view_of(obs, "knock-rummy"))
    assert type(found) is KrSimSearch
    hands = ("7h 8h 9h 4s 4d Js Qs Kd 2c 3d 9s", "Ks Qd Jc Th 9s 8d 7c 6h Kd Qc 5s")
    plain = [_summary(_kr_ranked(h)) for h in hands]
    monkeypatch.setattr(search, "KR_AHEAD_MARGIN", 1000)
    assert [_summary(_kr_ranked(h)) for h in hands] == plain
    monkeypatch.setattr(search, "KR_AHEAD_MARGIN", 5)
    assert [_summary(_kr_ranked(h)) for h in hands] != plain


def test_ahead_playouts_knock_when_ahead_and_otherwise_play_the_plain_policy() -> None:
    """``kr_playout.ahead_move``: a heads-up Knock Rummy seat knocks (at any count) when
    its discard leaves ``margin`` or more below the other hand, else it moves as
    ``policy_move`` does; at Gin it is ``policy_move``."""
    from deadwood_knock.games.knock_rummy.core import OVER, KnockRummyOptions

    early = kr_playout.ahead_move(5)
    never = kr_playout.ahead_move(1000)
    knocks_high = 0
    for seed in range(40):
        gin = seed % 4 == 0
        opts = KnockRummyOptions(players=2, target=100_000, gin=gin)
        a = KrTable.new(opts, seed, single_hand=True)
        b = a.copy()
        c = a.copy()
        steps = 0
        while a.phase != OVER and steps < 200:
            kr_playout.policy_move(a, 6)
            never(b, 6)
            assert (a.hands, a.pile, a.phase) == (b.hands, b.pile, b.phase)
            steps += 1
        assert a.hand_scores == b.hand_scores
        while c.phase != OVER:
            seat = c.to_act
            before = c.copy()
            early(c, 6)
            if before.phase == "discard" and c.phase == OVER and not gin:
                mine = kr_playout.count_mask(c.hands[seat], False)
                other = kr_playout.count_mask(c.hands[1 - seat], False)
                if mine > 6:
                    assert mine + 5 <= other
                    knocks_high += 1
    assert knocks_high > 10


def test_knock_share_spends_the_kept_budget_on_the_knock_and_the_chosen_move(
    monkeypatch: Any,
) -> None:
    """With ``KR_KNOCK_SHARE`` the search runs on the rest of the iterations, then the
    knock and the play-on move it chose get the kept share on fresh paired samples, and
    the knock is played exactly when it is ahead over all their paired samples."""
    from deadwood_knock.bots import search

    monkeypatch.setattr(search, "KR_KNOCK_SHARE", 0.25)
    for hand in ("7h 8h 9h 4s 4d Js Qs Kd 2c 3d 9s", "Ks Qd Jc Th 9s 8d 7c 6h Kd Qc 5s"):
        ranked = _kr_ranked(hand, iterations=32)
        knock = next(av for av in ranked if av.action.kind == "knock")
        play = next(av for av in ranked if av.action.kind != "knock")
        # Paired: the main search's shared samples (24 if the move was never culled),
        # then the 8 kept back.
        assert knock.samples == play.samples == len(knock.draws) == len(play.draws)
        assert 4 + 8 <= knock.samples <= 24 + 8
        gain = sum(knock.draws) - sum(play.draws)
        assert (ranked[0] is knock) == (gain > 0)
        assert {str(av.action) for av in ranked} == {str(av.action) for av in _kr_ranked(hand)}


class _Counting:
    """A search that counts the playouts it is asked for."""

    def __init__(self, inner: Any, calls: list[int]) -> None:
        self.inner, self.calls = inner, calls

    def sample(self, rng: random.Random) -> Any:
        return self.inner.sample(rng)

    def value(self, sample: Any, action: Any, rng: random.Random) -> float:
        self.calls[0] += 1
        return float(self.inner.value(sample, action, rng))


def _counted(monkeypatch: Any, run: Any) -> tuple[Any, int]:
    from deadwood_knock.bots import search

    calls = [0]
    plain = search.SearchBot._search
    monkeypatch.setattr(
        search.SearchBot, "_search", lambda self, *a: _Counting(plain(self, *a), calls)
    )
    out = run()
    monkeypatch.setattr(search.SearchBot, "_search", plain)
    return out, calls[0]


_HALVING_HANDS = (
    "7h 8h 9h 4s 4d Js Qs Kd 2c 3d 9s",
    "Ks Qd Jc Th 9s 8d 7c 6h Kd Qc 5s",
    "7h 8h 9h 4s 4d 4c Js Qs Ks Ac Kd",
)


@pytest.mark.parametrize("switch", ["SEQ_HALVING", "KR_DISCARD_ANCHOR"])
def test_a_knock_rummy_switch_is_off_and_leaves_play_as_it_was(
    monkeypatch: Any, switch: str
) -> None:
    """The sixth and seventh passes' switches are off in play: strong's Knock Rummy
    evaluation is today's schedule (``StrongBot.evaluate`` on the same bot), sample for
    sample; switched on, the same position is evaluated otherwise."""
    from deadwood_knock.bots import search
    from deadwood_knock.bots.strong import StrongBot

    assert getattr(search, switch) == 0
    bot = search.SearchBot()
    budget = Budget(iterations=40)
    for seed, hand in enumerate(_HALVING_HANDS):
        game, state = _kr_position(hand, "5h")
        obs, legal = game.observe(state, 0), game.legal_actions(state)
        mine = bot.evaluate(game, obs, legal, random.Random(seed), budget)
        base = StrongBot.evaluate(bot, game, obs, legal, random.Random(seed), budget)
        assert _summary(mine) == _summary(base)
        assert bot.act(game, obs, legal, random.Random(seed), budget) == mine[0].action
    monkeypatch.setattr(search, switch, 1)
    # The last position again, on the same seed: only the switch differs.
    assert _summary(
        _kr_ranked(_HALVING_HANDS[-1], seed=len(_HALVING_HANDS) - 1, iterations=40)
    ) != _summary(base)


def test_halving_plan_spends_todays_playouts_in_equal_rounds() -> None:
    from deadwood_knock.bots import search

    # Knock Rummy discard: four play-on moves and the knock (kept), 200 iterations.
    assert search.today_playouts(5, 200) == 5 * 4 + 3 * 4 + 2 * 192
    assert search.halving_sizes(5, 1) == [5, 3, 2]
    assert search.halving_sizes(2, 0) == [2]
    assert search.halving_sizes(4, 0) == [4, 2]
    assert search.halving_sizes(7, 1) == [7, 4, 3, 2]
    for k, kept, n in ((5, 1, 200), (5, 1, 600), (5, 1, 32), (7, 1, 400), (6, 1, 400), (4, 0, 9)):
        total = search.today_playouts(k, n)
        sizes = search.halving_sizes(k, kept)
        plan = search.halving_plan(total, sizes)
        assert plan is not None and min(plan) >= 1
        assert sum(i * s for i, s in zip(plan, sizes, strict=True)) == total
        shares = [i * s for i, s in zip(plan, sizes, strict=True)]
        assert max(shares) - min(shares) <= 2 * max(sizes) * len(sizes)
    # A draw (two candidates): one round, today's iterations.
    assert search.halving_plan(search.today_playouts(2, 200), [2]) == [200]
    assert search.halving_plan(search.today_playouts(5, 2), [5, 3, 2]) is None


def test_sequential_halving_spends_the_same_playouts_and_repeats_for_a_seed(
    monkeypatch: Any,
) -> None:
    """On: the same number of playouts as today's schedule at a Knock Rummy discard and a
    Gin decision, the same result for a seed, fewer samples for the candidates dropped
    first, and the knock (Knock Rummy) measured to the end."""
    from deadwood_knock.bots import search

    gin_game, gin_state = _gin_position("7h 8h 2c 5d Jd Qs Kc 3s 9c Td 4h", "9h", "discard")
    obs = gin_game.observe(gin_state, 0)
    legal = gin_game.legal_actions(gin_state)

    def gin_run() -> Any:
        return get_bot("strong").evaluate(
            gin_game, obs, legal, random.Random(3), Budget(iterations=60)
        )

    for value in (1, 2, 3):
        for hand in _HALVING_HANDS:
            monkeypatch.setattr(search, "SEQ_HALVING", 0)
            before, n0 = _counted(monkeypatch, lambda h=hand: _kr_ranked(h, iterations=40))
            monkeypatch.setattr(search, "SEQ_HALVING", value)
            after, n1 = _counted(monkeypatch, lambda h=hand: _kr_ranked(h, iterations=40))
            assert n1 == n0 == search.today_playouts(5, 40)
            assert [av.samples for av in after] != [av.samples for av in before]
            assert _summary(after) == _summary(_kr_ranked(hand, iterations=40))
            knock = next(av for av in after if av.action.kind == "knock")
            assert knock.samples == max(av.samples for av in after)
            sizes = [5, 4, 3] if value == 3 else [5, 3, 2]  # 3: the anchor kept too
            plan = search.halving_plan(n0, sizes)
            assert plan is not None
            assert sorted({av.samples for av in after}) == list(itertools.accumulate(plan))
            full = sum(plan)
            assert sum(av.samples == full for av in after) == (3 if value == 3 else 2)
        monkeypatch.setattr(search, "SEQ_HALVING", 0)
        gin_before, g0 = _counted(monkeypatch, gin_run)
        monkeypatch.setattr(search, "SEQ_HALVING", value)
        gin_after, g1 = _counted(monkeypatch, gin_run)
        assert g1 == g0 and _summary(gin_after) == _summary(gin_run())
        assert [av.samples for av in gin_after] != [av.samples for av in gin_before]
        assert gin_after[0].samples == gin_after[1].samples  # the anchor and the survivor


class _Biased:
    """A stand-in search on a real position: each action's playout is its bias plus noise
    of its own (sd 10, drawn from the sample's stream and the action), so one move is
    clearly best and the paired differences are still noisy."""

    def __init__(self, bias: dict[str, float]) -> None:
        self.bias = bias

    def sample(self, rng: random.Random) -> None:
        return None

    def value(self, sample: Any, action: Any, rng: random.Random) -> float:
        stream = rng.getrandbits(32)
        noise = random.Random(f"{stream}:{action}").gauss(0.0, 10.0)
        return self.bias.get(str(action), 0.0) + noise


def test_sequential_halving_finds_the_clearly_best_discard(monkeypatch: Any) -> None:
    """A Knock Rummy discard whose playouts rate throwing 9s (not the lowest count, so not
    the anchor) 8 points above every other candidate and the knock 10 below: with halving
    on, the search plays it on every seed (rule 2: the survivor; rules 1 and 3: the
    survivor has 70-145 paired samples against the anchor, enough for the anchor rule to
    let it go)."""
    from deadwood_knock.bots import search

    hand = "7h 8h 9h 4s 4d Js Qs Kd 2c 3d 9s"
    game, state = _kr_position(hand, "5h")
    obs, legal = game.observe(state, 0), game.legal_actions(state)
    biased = _Biased({"Discard(card=9s)": 8.0})
    biased.bias.update({str(a): -10.0 for a in legal if a.kind == "knock"})
    monkeypatch.setattr(search.SearchBot, "_search", lambda self, *a: biased)
    for value in (1, 2, 3):
        monkeypatch.setattr(search, "SEQ_HALVING", value)
        for seed in range(6):
            ranked = search.SearchBot().evaluate(
                game, obs, legal, random.Random(seed), Budget(iterations=200)
            )
            assert str(ranked[0].action) == "Discard(card=9s)"
            assert ranked[0].samples == max(av.samples for av in ranked)


class _Flat:
    """A stand-in search on a real position: every play-on move worth 0, a knock -1, so
    strong-v1's anchor rule has no evidence and plays its anchor."""

    def sample(self, rng: random.Random) -> None:
        return None

    def value(self, sample: Any, action: Any, rng: random.Random) -> float:
        return -1.0 if action.kind == "knock" else 0.0


def _v1_anchor(monkeypatch: Any, game: Any, obs: Any, legal: Any) -> Any:
    from deadwood_knock.bots.strong import StrongBot

    with monkeypatch.context() as m:
        m.setattr(StrongBot, "_search", lambda self, *a: _Flat())
        return get_bot("strong-v1").act(game, obs, legal, random.Random(0), Budget(iterations=8))


def test_discard_anchor_throws_the_anchor_and_spends_todays_playouts_on_the_knock(
    monkeypatch: Any,
) -> None:
    """On: the play-on move is strong-v1's anchor (the lowest count; among the six
    10-point cards of the second hand, its tie-break), never searched; the knock and the
    anchor share every sample (today's playouts, two a sample), the knock is played
    exactly when its paired sum is ahead, and a seed repeats. A draw is as today."""
    from deadwood_knock.bots import search

    monkeypatch.setattr(search, "KR_DISCARD_ANCHOR", 1)
    knocked = []
    for hand in (*_HALVING_HANDS, "7h 8h 9h 4s 4d 4c Js Qs 2c 3d 5s"):
        game, state = _kr_position(hand, "5h")
        obs, legal = game.observe(state, 0), game.legal_actions(state)
        anchor = _v1_anchor(monkeypatch, game, obs, legal)
        assert anchor.kind == "discard"
        ranked, n = _counted(monkeypatch, lambda h=hand: _kr_ranked(h, iterations=40))
        assert n == search.today_playouts(5, 40) == 96
        assert _summary(ranked) == _summary(_kr_ranked(hand, iterations=40))
        knock, play = sorted(ranked[:2], key=lambda av: av.action.kind != "knock")
        assert knock.action.kind == "knock" and play.action == anchor
        assert knock.samples == play.samples == 48
        assert all(av.samples == 0 for av in ranked[2:]) and len(ranked) == 5
        gain = sum(k - p for k, p in zip(knock.draws, play.draws, strict=True))
        assert (ranked[0] is knock) == (gain > 0)
        knocked.append(ranked[0] is knock)
    assert knocked[1] is False and knocked[3] is True  # 85 left plays on; 5 left knocks
    # A draw: today's evaluation, sample for sample.
    game, state = _kr_position("7h 8h 9h 4s 4d Js Qs Kd 2c 3d 9s", "5h")
    state = dataclasses.replace(state, hands=(state.hands[0][:10], state.hands[1]), phase="draw")
    obs, legal = game.observe(state, 0), game.legal_actions(state)
    assert {a.kind for a in legal} == {"draw"}
    budget = Budget(iterations=40)
    on = search.SearchBot().evaluate(game, obs, legal, random.Random(5), budget)
    monkeypatch.setattr(search, "KR_DISCARD_ANCHOR", 0)
    off = search.SearchBot().evaluate(game, obs, legal, random.Random(5), budget)
    assert _summary(on) == _summary(off)


def test_discard_anchor_2_knocks_only_a_standard_error_ahead(monkeypatch: Any) -> None:
    """``KR_DISCARD_ANCHOR`` 2 (eighth pass): the same anchor, samples and playouts as 1,
    sample for sample; the knock is played exactly when its paired mean is more than one
    standard error (of the paired differences) ahead of the anchor's, and a seed repeats."""
    import statistics

    from deadwood_knock.bots import search

    decided = []
    for hand in (
        *_HALVING_HANDS,
        "7h 8h 9h 4s 4d 4c Js Qs 2c 3d 5s",
        "Ah 2h 3h 4s 4d 4c 5c 6d 9s Tc Kd",
    ):
        for seed in (7, 8):
            monkeypatch.setattr(search, "KR_DISCARD_ANCHOR", 1)
            one = _kr_ranked(hand, seed=seed, iterations=40)
            monkeypatch.setattr(search, "KR_DISCARD_ANCHOR", 2)
            two = _kr_ranked(hand, seed=seed, iterations=40)
            assert _summary(two) == _summary(_kr_ranked(hand, seed=seed, iterations=40))
            assert sorted(_summary(two)) == sorted(_summary(one))
            knock, play = sorted(two[:2], key=lambda av: av.action.kind != "knock")
            assert knock.action.kind == "knock" and play.samples == knock.samples == 48
            diffs = [k - p for k, p in zip(knock.draws, play.draws, strict=True)]
            mean, se = statistics.fmean(diffs), statistics.stdev(diffs) / len(diffs) ** 0.5
            assert (two[0] is knock) == (mean > se)
            decided.append((sum(diffs) > 0, two[0] is knock))
    assert (True, True) in decided and (False, False) in decided
    assert not any(k and not gain for gain, k in decided)  # 2 knocks only where 1 does


def test_a_knock_rummy_draw_is_already_the_whole_budget_on_pile_and_stock() -> None:
    """Why the eighth pass's value 3 was not added: at a Knock Rummy draw the two moves
    (pile, stock) share every sample of the budget, paired, never culled."""
    game, state = _kr_position("7h 8h 9h 4s 4d Js Qs Kd 2c 3d 9s", "5h")
    state = dataclasses.replace(state, hands=(state.hands[0][:10], state.hands[1]), phase="draw")
    obs, legal = game.observe(state, 0), game.legal_actions(state)
    assert len(legal) == 2 and {a.kind for a in legal} == {"draw"}
    ranked = get_bot("strong").evaluate(game, obs, legal, random.Random(5), Budget(iterations=40))
    assert len(ranked) == 2 and all(av.samples == 40 and len(av.draws) == 40 for av in ranked)


# --- Gin and Knock Rummy, ninth pass: sequential halving at Gin -------------------------

_GIN_HALVING = (
    ("7h 8h 9h 4s 4d 4c Js Qs Ks 2c 3d", "5h"),  # a knock legal
    ("7h 8h 2c 5d Jd Qs Kc 3s 9c Td 4h", "9h"),
    ("Ks Qd Jc Th 9s 8d 7c 6h Kd Qc 5s", "2h"),
)


def _gin_ranked(hand: str, top: str, seed: int, iterations: int, phase: str = "discard") -> Any:
    game, state = _gin_position(hand, top, phase)
    obs, legal = game.observe(state, 0), game.legal_actions(state)
    return get_bot("strong").evaluate(
        game, obs, legal, random.Random(seed), Budget(iterations=iterations)
    )


def test_gin_halving_is_off_and_leaves_gin_play_as_it_was(monkeypatch: Any) -> None:
    """``SEQ_HALVING`` is off in play: strong's Gin evaluation is today's schedule
    (``StrongBot.evaluate`` on the same bot, on the actions ``gin_weighed`` leaves), sample
    for sample, at three discards and a draw; switched on, a discard is evaluated
    otherwise and a draw (two candidates: one round) exactly as today."""
    from deadwood_knock.bots import search
    from deadwood_knock.bots.strong import StrongBot

    assert search.SEQ_HALVING == 0
    bot = search.SearchBot()
    budget = Budget(iterations=60)
    positions = [(h, t, "discard") for h, t in _GIN_HALVING]
    positions.append(("7h 8h 2c 5d Jd Qs Kc 3s 9c Td", "9h", "draw"))
    offs = []
    for seed, (hand, top, phase) in enumerate(positions):
        game, state = _gin_position(hand, top, phase)
        obs, legal = game.observe(state, 0), game.legal_actions(state)
        weighed = search.gin_weighed(view_of(obs, "gin"), legal)
        mine = bot.evaluate(game, obs, legal, random.Random(seed), budget)
        base = StrongBot.evaluate(bot, game, obs, weighed, random.Random(seed), budget)
        assert _summary(mine) == _summary(base)
        assert bot.act(game, obs, legal, random.Random(seed), budget) == mine[0].action
        offs.append(_summary(mine))
    monkeypatch.setattr(search, "SEQ_HALVING", 1)
    ons = [_summary(_gin_ranked(h, t, seed, 60, p)) for seed, (h, t, p) in enumerate(positions)]
    assert all(on != off for on, off in zip(ons[:3], offs[:3], strict=True))
    assert ons[3] == offs[3]


def test_gin_halving_keeps_the_anchor_to_the_end_and_its_values_agree(monkeypatch: Any) -> None:
    """On at Gin: today's playouts, in the plan's rounds (the samples per candidate are
    the plan's running sums); the anchor (``gin_choice``'s move, the top prior) is never
    dropped and shares every sample with the one survivor; values 1, 2 and 3 are one
    variant at Gin (the anchor rule kept, the anchor always protected), sample for
    sample; a seed repeats."""
    from deadwood_knock.bots import search

    for hand, top in _GIN_HALVING:
        game, state = _gin_position(hand, top, "discard")
        obs, legal = game.observe(state, 0), game.legal_actions(state)
        view = view_of(obs, "gin")
        anchor = search.SearchBot()._gin_anchor(view, search.gin_weighed(view, legal))
        runs = []
        for value in (1, 2, 3):
            monkeypatch.setattr(search, "SEQ_HALVING", value)
            ranked, n = _counted(monkeypatch, lambda h=hand, t=top: _gin_ranked(h, t, 4, 400))
            runs.append(_summary(ranked))
            k = len(ranked)
            assert k in (6, 7)  # six candidates, and the best knock when one is legal
            assert n == search.today_playouts(k, 400)
            plan = search.halving_plan(n, search.halving_sizes(k, 1))
            assert plan is not None
            assert sorted({av.samples for av in ranked}) == list(itertools.accumulate(plan))
            full = [av for av in ranked if av.samples == sum(plan)]
            assert len(full) == 2 and anchor in [av.action for av in full]
        assert runs[0] == runs[1] == runs[2]
        assert runs[0] == _summary(_gin_ranked(hand, top, 4, 400))


def test_gin_halving_finds_a_clearly_best_discard_and_otherwise_keeps_the_anchor(
    monkeypatch: Any,
) -> None:
    """A Gin discard whose playouts rate one candidate that is not the anchor 8 points
    above the rest (noise sd 10 a playout): with halving on it is played on every seed
    (the survivor: 257 paired samples against the anchor at 400 iterations). With every
    move rated alike the anchor, ``gin_choice``'s move, is played."""
    from deadwood_knock.bots import search

    hand, top = _GIN_HALVING[1]
    game, state = _gin_position(hand, top, "discard")
    obs, legal = game.observe(state, 0), game.legal_actions(state)
    view = view_of(obs, "gin")
    anchor = search.SearchBot()._gin_anchor(view, search.gin_weighed(view, legal))
    monkeypatch.setattr(search, "SEQ_HALVING", 1)
    plain = search.SearchBot().evaluate(game, obs, legal, random.Random(0), Budget(iterations=8))
    target = next(av.action for av in plain if av.action != anchor)
    biased = _Biased({str(target): 8.0})
    monkeypatch.setattr(search.SearchBot, "_search", lambda self, *a: biased)
    for seed in range(6):
        ranked = search.SearchBot().evaluate(
            game, obs, legal, random.Random(seed), Budget(iterations=400)
        )
        assert ranked[0].action == target and ranked[0].samples == 257
    monkeypatch.setattr(search.SearchBot, "_search", lambda self, *a: _Flat())
    ranked = search.SearchBot().evaluate(game, obs, legal, random.Random(1), Budget(iterations=400))
    assert ranked[0].action == anchor
