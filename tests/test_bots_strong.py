"""The strong bot at Gin: its anchor move (a sound Gin player's), the playout policy."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from bot_positions import discard_position
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
        game, state = discard_position("knock-rummy", hand, "5h")
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
    game, state = discard_position("knock-rummy", "7h 8h 9h 4s 4d 4c Js Qs 2c 3d 5s", "5h")
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


def test_a_knock_rummy_draw_spends_the_whole_budget_on_pile_and_stock() -> None:
    """At a Knock Rummy draw the two moves (pile, stock) share every sample of the budget,
    paired, never culled."""
    game, state = discard_position("knock-rummy", "7h 8h 9h 4s 4d Js Qs Kd 2c 3d 9s", "5h")
    state = dataclasses.replace(state, hands=(state.hands[0][:10], state.hands[1]), phase="draw")
    obs, legal = game.observe(state, 0), game.legal_actions(state)
    assert len(legal) == 2 and {a.kind for a in legal} == {"draw"}
    ranked = get_bot("strong").evaluate(game, obs, legal, random.Random(5), Budget(iterations=40))
    assert len(ranked) == 2 and all(av.samples == 40 and len(av.draws) == 40 for av in ranked)
