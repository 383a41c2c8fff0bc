"""Deadwood Knock rules (DK1-DK10) on hand-built positions."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

from deadwood_knock.cards import CARDS, DECK_54, parse_cards, shuffled
from deadwood_knock.games import get_game
from deadwood_knock.games.base import (
    GameError,
    GameRecord,
    IllegalActionError,
    PositionError,
    derive_rng,
    replay,
)
from deadwood_knock.games.deadwood_knock import (
    GAME,
    Call,
    DeadwoodKnockOptions,
    DeadwoodKnockState,
    Draw,
    Fold,
    Knock,
    Reveal,
    Stand,
    action_from_json,
    apply,
    determinize,
    evaluate,
    legal_actions,
    legal_splits,
    new_game,
    observe,
    position_from_json,
    position_to_json,
    winners,
)
from deadwood_knock.games.deadwood_knock.rules import RoundResult

C = parse_cards

# Four hands for pot tests: seats 0-2 hold a K-high straight (a three-way tie, suits
# differ), seat 3 an 8-card A..8 straight (weaker, but scores 50 with no deadwood).
POT_HANDS = [
    "9s Th Jd Qc Ks 2s 3h 4d",
    "9h Tc Js Qd Kh 2h 3c 4s",
    "9d Ts Jc Qh Kd 2d 3s 4c",
    "5s 6h 7d 8c Ah 2c 3d 4h",
]


def rest(*groups: str) -> list[str]:
    """Every card not named in ``groups`` (jokers counted), in index order."""
    used = [c for g in groups for c in g.split()]
    jokers = 2 - used.count("JK")
    out = [str(c) for c in CARDS[:52] if str(c) not in used]
    return out + ["JK"] * jokers


def position(
    hands: list[str],
    discard: str,
    stock: str | None = None,
    covers: str = "",
    **extra: Any,
) -> DeadwoodKnockState:
    """A position; the stock defaults to every unplaced card (top = last)."""
    players = len(hands)
    options = {"players": players, **extra.pop("options", {})}
    stock_list = rest(*hands, discard, covers) if stock is None else stock.split()
    data = {
        "options": options,
        "seed": extra.pop("seed", 7),
        "hands": [h.split() for h in hands],
        "discard": discard.split(),
        "stock": stock_list,
        "covers": covers.split(),
        **extra,
    }
    return position_from_json(data)


def play(state: DeadwoodKnockState, *actions: Any) -> tuple[DeadwoodKnockState, list[Any]]:
    events: list[Any] = []
    for action in actions:
        state, evs = apply(state, action)
        events.extend(evs)
    return state, events


def kinds(events: list[Any]) -> list[str]:
    return [e.kind for e in events]


def result_of(events: list[Any]) -> dict[str, Any]:
    (ev,) = [e for e in events if e.kind == "round_result"]
    return dict(ev.data)


# --- DK1 ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_dk1_deal_eight_each_flip_one_54_cards(players: int) -> None:
    state = new_game(DeadwoodKnockOptions(players=players), 11)
    assert [len(h) for h in state.hands] == [8] * players
    assert len(state.discard) == 1
    assert len(state.stock) == 54 - 8 * players - 1
    every = [c for h in state.hands for c in h] + list(state.stock) + list(state.discard)
    assert sorted(every) == list(DECK_54)
    assert state.dealer == 0
    assert state.to_act == 1
    assert state.options.rounds == 10


def test_dk1_deal_one_at_a_time_from_dealers_left() -> None:
    seed = 99
    state = new_game(DeadwoodKnockOptions(players=3), seed)
    deck = shuffled(DECK_54, derive_rng(seed, 0, 0))
    hands: list[list[Any]] = [[], [], []]
    for i in range(24):
        hands[(1 + i) % 3].append(deck.pop())
    assert [sorted(h) for h in hands] == [list(h) for h in state.hands]
    assert state.discard == (deck.pop(),)
    assert state.stock == tuple(deck)


def test_dk1_deal_passes_left_and_left_of_dealer_acts_first() -> None:
    state = position(
        POT_HANDS,
        "5h",
        phase="call",
        knocker=0,
        to_act=3,
        calls=[None, "fold", "fold", None],
        options={"rounds": 3},
    )
    state, events = play(state, Fold())
    assert "round_result" in kinds(events)
    assert kinds(events).index("round_result") < kinds(events).index("deal")
    assert state.round == 1
    assert state.dealer == 1
    assert state.to_act == 2
    assert state.phase == "play"
    assert [len(h) for h in state.hands] == [8] * 4
    assert state.log[0].kind == "deal"


# --- DK2 ---------------------------------------------------------------------------------


def two_player(**extra: Any) -> DeadwoodKnockState:
    hands = ["As 2s 3s 4d 9c Tc Jh Qh", "5s 6s 7s 8d 9d Td Jd Kh"]
    stock = " ".join([*rest(*hands, "Kc 7c 9h", "", "Ks"), "Ks"])
    extra.setdefault("to_act", 0)
    return position(hands, "Kc 7c 9h", stock=stock, **extra)


def test_dk2_draw_from_stock_then_place_the_selected_card() -> None:
    state = two_player()
    state, events = play(state, Draw(C("Qh")[0], "stock"))
    assert C("Ks")[0] in state.hands[0]
    assert C("Qh")[0] not in state.hands[0]
    assert state.discard[-1] == C("Qh")[0]
    assert len(state.hands[0]) == 8
    assert state.to_act == 1
    public = [e for e in events if e.private_to is None]
    private = [e for e in events if e.private_to is not None]
    assert [e.kind for e in public] == ["draw", "discard"]
    assert "card" not in public[0].data  # the stock card stays secret
    assert [(e.kind, e.private_to, e.data["card"]) for e in private] == [
        ("stock_card", 0, C("Ks")[0])
    ]


def test_dk2_take_the_discard_top_and_the_selected_card_goes_on_it() -> None:
    state = two_player()
    state, events = play(state, Draw(C("As")[0], "discard"))
    assert C("9h")[0] in state.hands[0]
    assert state.discard == C("Kc 7c As")
    assert events[0].data == {"source": "discard", "card": C("9h")[0]}
    assert state.known[0] == frozenset(C("9h"))
    # Discarding the known card later removes it from the known set.
    state, _ = play(state, Draw(C("5s")[0], "stock"), Draw(C("9h")[0], "discard"))
    assert state.known[0] == frozenset(C("5s"))  # 9h went back; 5s came from the pile


def test_dk2_taken_card_is_never_the_card_discarded() -> None:
    state = two_player()
    selects = {a.select for a in legal_actions(state) if isinstance(a, Draw)}
    assert selects == set(state.hands[0])
    with pytest.raises(IllegalActionError, match="not in your hand"):
        apply(state, Draw(C("9h")[0], "discard"))


def test_dk2_illegal_action_raises_and_changes_nothing() -> None:
    state = two_player()
    before = position_to_json(state)
    for bad in (Stand(), Call(), Fold(), Reveal(C("As 2s 3s 4d 9c")), Draw(C("Ks")[0], "stock")):
        with pytest.raises(IllegalActionError):
            apply(state, bad)
    assert position_to_json(state) == before
    assert state == position_from_json(before)


# --- DK3 at the table ---------------------------------------------------------------------


def test_dk3_showdown_uses_the_scoring_split_without_manual_split() -> None:
    state = position(
        POT_HANDS, "5h", phase="call", knocker=0, to_act=3, calls=[None, "fold", "fold", None]
    )
    state, events = play(state, Fold())
    res = result_of(events)
    for seat, text in enumerate(POT_HANDS):
        expected = evaluate(C(text))
        assert res["hand_points"][seat] == expected.hand_points
        assert res["deadwood_points"][seat] == expected.deadwood_points
        assert res["poker_hands"][seat] == expected.to_json()["poker_hand"]


def test_dk3_manual_split_reveal_in_turn_order_scoring_split_first() -> None:
    state = position(
        POT_HANDS,
        "5h",
        phase="call",
        knocker=0,
        to_act=3,
        calls=[None, "fold", "fold", None],
        options={"manual_split": True},
    )
    state, _ = play(state, Fold())
    assert state.phase == "reveal"
    assert state.to_act == 1  # the dealer's left
    legal = legal_actions(state)
    assert all(isinstance(a, Reveal) for a in legal)
    assert [a.poker_hand for a in legal] == list(legal_splits(state.hands[1]))  # type: ignore[union-attr]
    assert legal[0].poker_hand == evaluate(state.hands[1]).poker_hand  # type: ignore[union-attr]
    with pytest.raises(IllegalActionError):
        apply(state, Reveal(C("9h Tc Js Qd 2h 3c")))  # six cards, no straight/flush
    worse = Reveal(tuple(sorted(C("9h Tc Js 2h 3c"))))
    state, events = play(state, worse)
    assert events[0].kind == "reveal"
    assert events[0].data["deadwood"] == tuple(sorted(C("Qd Kh 4s")))
    assert state.known[1] == frozenset(state.hands[1])
    assert state.to_act == 2
    state, events = play(state, legal_actions(state)[0])
    state, events = play(state, legal_actions(state)[0])
    assert state.to_act == 0
    state, events = play(state, legal_actions(state)[0])
    res = result_of(events)
    assert res["hand_points"][1] == 0
    assert res["deadwood_points"][1] == 10 + 10 + 4
    assert res["round_scores"][1] == -24


# --- DK4 ---------------------------------------------------------------------------------


def test_dk4_knock_needs_knock_count_of_11_or_less() -> None:
    other = "5s 6s 7s 8d 9d Td Jd Jh"
    twelve = position(["4s 4d 4h Ks Kd Kh Qc Qd", other], "2c", to_act=0)
    assert evaluate(twelve.hands[0]).knock_count == 12
    assert Knock() not in legal_actions(twelve)
    with pytest.raises(IllegalActionError, match="11 or less"):
        apply(twelve, Knock())
    eleven = position(["4s 4d 3h Ks Kd Kh Qc Qd", other], "2c", to_act=0)
    assert evaluate(eleven.hands[0]).knock_count == 11
    assert Knock() in legal_actions(eleven)


def test_dk4_knocker_skips_drawing_and_others_take_one_final_turn_in_order() -> None:
    hands = [
        "As 2s 3s 4s 5d Kh Kd Kc",
        "6s 7s 8s 9s Td Jh Jd Jc",
        "2h 3h 4h 5h 6d Qh Qd Qc",
        "7h 8h 9h Th Ad 2d 3d 4c",
    ]
    state = position(hands, "5c", to_act=2)
    state, events = play(state, Knock())
    assert kinds(events) == ["knock"]
    assert state.hands[2] == tuple(sorted(C(hands[2])))  # knocker neither draws nor discards
    assert state.phase == "final"
    seen = []
    for _ in range(3):
        seen.append(state.to_act)
        obs = observe(state, state.to_act)  # type: ignore[arg-type]
        assert obs.final_turn and obs.to_json()["final_turn"] is True
        assert Knock() not in legal_actions(state)  # nobody else may knock
        assert Stand() in legal_actions(state)
        state, _ = play(state, Stand())
    assert seen == [3, 0, 1]
    assert state.phase == "call"
    assert state.to_act == 3


def test_dk4_stand_only_in_a_final_turn_and_final_turn_may_draw() -> None:
    state = two_player()
    assert Stand() not in legal_actions(state)
    with pytest.raises(IllegalActionError, match="final turn"):
        apply(state, Stand())
    state, _ = play(state, Knock())
    assert state.to_act == 1
    state, _events = play(state, Draw(C("5s")[0], "discard"))
    assert state.phase == "call"
    assert C("9h")[0] in state.hands[1]


def test_dk4_no_second_knock_in_a_round() -> None:
    state = two_player()
    state, _ = play(state, Knock())
    with pytest.raises(IllegalActionError, match="one knock"):
        apply(state, Knock())


# --- DK5 ---------------------------------------------------------------------------------


def test_dk5_call_or_fold_in_order_from_knockers_left_answers_public() -> None:
    state = position(
        POT_HANDS, "5h", phase="call", knocker=1, to_act=2, options={"manual_split": True}
    )
    assert legal_actions(state) == (Call(), Fold())
    order = []
    for action in (Call(), Fold(), Call()):
        order.append(state.to_act)
        state, _ = play(state, action)
        # Every seat sees every earlier answer.
        for seat in range(4):
            seen = [e.kind for e in observe(state, seat).events if e.kind in ("call", "fold")]
            assert seen == [a.kind for a in (Call(), Fold(), Call())][: len(order)]
    assert order == [2, 3, 0]
    assert state.phase == "reveal"
    assert state.calls == ("call", None, "call", "fold")


def test_dk5_knocker_and_call_phase_reject_other_actions() -> None:
    state = position(POT_HANDS, "5h", phase="call", knocker=1, to_act=2)
    for bad in (Knock(), Stand(), Draw(state.hands[2][0], "stock")):
        with pytest.raises(IllegalActionError):
            apply(state, bad)
    with pytest.raises(PositionError):
        position(POT_HANDS, "5h", phase="call", knocker=1, to_act=1)


# --- DK6 ---------------------------------------------------------------------------------


def settle(calls: list[str | None], last: Any, **extra: Any) -> dict[str, Any]:
    state = position(
        POT_HANDS, "5h", phase="call", knocker=0, to_act=3, calls=calls, options={}, **extra
    )
    _, events = play(state, last)
    return result_of(events)


def test_dk6_nobody_calls_knocker_gets_10_and_nobody_pays() -> None:
    res = settle([None, "fold", "fold", None], Fold())
    assert res["pot"] == [10, 0, 0, 0]
    assert res["knocker"] == 0
    # Nobody put anything in: the knocker alone is in and takes the +10.
    assert (res["pot_in"], res["pot_winners"], res["pot_total"]) == ([0], [0], 0)
    assert res["calls"] == [None, "fold", "fold", "fold"]


def test_dk6_best_poker_hand_takes_the_pot() -> None:
    res = settle([None, "fold", "fold", None], Call())
    # K-high straight beats the 8-high straight: knocker wins the 20.
    assert res["pot"] == [10, 0, 0, -10]
    assert (res["pot_in"], res["pot_winners"], res["pot_total"]) == ([0, 3], [0], 20)


def test_dk6_tie_splits_pot_rounded_down_remainder_lost() -> None:
    res = settle([None, "call", "call", None], Call())
    # 40 in the pot, three equal straights (suits never break ties): 13 each, 1 lost.
    assert res["pot"] == [3, 3, 3, -10]
    assert sum(res["pot"]) == -1
    assert (res["pot_in"], res["pot_winners"], res["pot_total"]) == ([0, 1, 2, 3], [0, 1, 2], 40)


def test_dk6_folded_players_get_zero_from_the_pot() -> None:
    res = settle([None, "call", "fold", None], Call())
    assert res["pot"] == [5, 5, 0, -10]


def test_the_round_winner_is_the_one_top_round_score_of_a_round_with_a_knock() -> None:
    """``RoundResult.winner``, what the table's talk says won: the one highest round score,
    Suspicion left out; none for a dry round, a tie at the top or a top seat that folded."""

    def winner(scores: tuple[int, ...], **change: Any) -> int | None:
        n = len(scores)
        zero = (0,) * n
        r = RoundResult(
            3,
            0,
            False,
            ((),) * n,
            ((),) * n,
            ("",) * n,
            zero,
            zero,
            (None,) * n,
            zero,
            scores,
            zero,
            scores,
        )
        r = dataclasses.replace(r, **change)
        assert r.to_json()["winner"] == r.winner
        return r.winner

    assert winner((12, 30, 4)) == 1
    assert winner((30, 30, 4)) is None
    assert winner((12, 30, 4), calls=(None, "fold", "call")) is None
    assert winner((12, 30, 4), calls=(None, "call", "fold")) == 1
    assert winner((12, 30, 4), dry=True, knocker=None) is None
    assert winner((12, 30, 4), suspicion=(0, 0, -5)) == 1
    # A real settlement: the knocker took the pot alone.
    res = settle([None, "fold", "fold", None], Call())
    assert res["winner"] == max(range(4), key=res["round_scores"].__getitem__)


# --- DK7 ---------------------------------------------------------------------------------


def empty_stock_position(**extra: Any) -> DeadwoodKnockState:
    hands = ["As 2s 3s 4d 9c Tc Jh Qh", "5s 6s 7s 8d 9d Td Jd Kh"]
    pile = rest(*hands)
    return position(hands, " ".join(pile), stock="", to_act=0, **extra)


def test_dk7_empty_stock_reshuffles_all_but_the_top_discard() -> None:
    state = empty_stock_position(seed=5)
    assert Draw(C("As")[0], "stock") in legal_actions(state)
    pile = state.discard
    state, events = play(state, Draw(C("As")[0], "stock"))
    assert kinds(events)[:2] == ["reshuffle", "draw"]
    rebuilt = shuffled(list(pile[:-1]), derive_rng(5, 0, 1))
    drawn = rebuilt.pop()
    assert drawn in state.hands[0]
    assert state.stock == tuple(rebuilt)
    assert state.discard == (pile[-1], C("As")[0])
    assert state.reshuffled
    assert state.phase == "play"


def test_dk7_reshuffle_only_once_then_the_round_ends_dry() -> None:
    hands = ["As 2s 3s 4d 9c Tc Jh Qh", "5s 6s 7s 8d 9d Td Jd Kh"]
    pile = rest(*hands)
    state = position(hands, " ".join(pile[1:]), stock=pile[0], reshuffled=True, to_act=0)
    state, events = play(state, Draw(C("As")[0], "stock"))
    assert "stock_out" in kinds(events)
    res = result_of(events)
    assert res["dry"] is True
    assert res["knocker"] is None
    assert res["pot"] == [0, 0]
    assert (res["pot_in"], res["pot_winners"], res["pot_total"]) == ([], [], 0)
    assert state.phase == "play" and state.round == 1  # next round dealt


def test_dk7_reshuffle_used_means_the_stock_cannot_be_taken() -> None:
    state = empty_stock_position(reshuffled=True)
    sources = {a.source for a in legal_actions(state) if isinstance(a, Draw)}
    assert sources == {"discard"}
    with pytest.raises(IllegalActionError, match="stock"):
        apply(state, Draw(C("As")[0], "stock"))
    state, events = play(state, Draw(C("As")[0], "discard"))
    assert result_of(events)["dry"] is True


def test_dk7_nothing_under_the_top_discard_means_no_reshuffle() -> None:
    # Six hands (48) + one discard + five palm covers = 54: the stock is empty, the
    # reshuffle is unused, but there is nothing under the top discard to rebuild from.
    deck = [str(c) for c in DECK_54]
    deck[53] = "JK"
    hands = [" ".join(deck[8 * s : 8 * s + 8]) for s in range(6)]
    state = position(
        hands,
        deck[48],
        stock="",
        covers=" ".join(deck[49:]),
        palmed=[True, True, True, True, True, False],
        options={"sleight_of_hand": True},
        to_act=0,
    )
    sources = {a.source for a in legal_actions(state) if isinstance(a, Draw)}
    assert sources == {"discard"}
    state, events = play(state, Draw(state.hands[0][0], "discard"))
    assert result_of(events)["dry"] is True


def test_dk7_dry_round_with_a_pending_knock_has_no_knocker_and_no_pot() -> None:
    hands = ["As 2s 3s 4d 9c Tc Jh Qh", "5s 6s 7s 8d 9d Td Jd Kh"]
    pile = rest(*hands)
    state = position(
        hands,
        " ".join(pile[1:]),
        stock=pile[0],
        reshuffled=True,
        phase="final",
        knocker=0,
        to_act=1,
        options={"rounds": 1},
    )
    state, events = play(state, Draw(C("Kh")[0], "stock"))
    res = result_of(events)
    assert res["knocker"] is None and res["dry"] is True
    assert res["pot"] == [0, 0]
    assert "call" not in kinds(events)
    assert state.phase == "over"


# --- DK8 ---------------------------------------------------------------------------------


def test_dk8_round_score_is_hand_points_minus_deadwood_plus_pot() -> None:
    res = settle([None, "call", "call", None], Call())
    assert res["round_scores"] == [41 + 3, 41 + 3, 41 + 3, 50 - 10]
    assert res["totals"] == res["round_scores"]


def test_dk8_suspicion_for_a_palmer_below_the_round_high() -> None:
    extra: dict[str, Any] = {
        "palmed": [False, True, False, True],
        "options": {"sleight_of_hand": True},
    }
    hands = POT_HANDS
    covers = "5h 6c"
    state = position(
        hands,
        "6d",
        covers=covers,
        phase="call",
        knocker=0,
        to_act=3,
        calls=[None, "call", "call", None],
        **extra,
    )
    _, events = play(state, Call())
    res = result_of(events)
    # Scores 44, 44, 44, 40: seat 1 palmed but ties the high (no penalty); seat 3 is below.
    assert res["round_scores"] == [44, 44, 44, 40]
    assert res["suspicion"] == [0, 0, 0, -5]
    assert res["totals"] == [44, 44, 44, 35]


# --- DK9 ---------------------------------------------------------------------------------


def test_dk9_palm_sets_the_cover_aside_and_takes_the_buried_card() -> None:
    state = two_player(options={"sleight_of_hand": True})
    assert state.discard == C("Kc 7c 9h")
    state, events = play(state, Draw(C("Qh")[0], "palm"))
    assert C("7c")[0] in state.hands[0]
    assert state.covers == C("9h")
    assert state.discard == C("Kc Qh")
    assert state.palmed == (True, False)
    public = [e.to_json() for e in events if e.private_to is None]
    assert public[0] == {"type": "draw", "seat": 0, "source": "palm", "card": "7c", "cover": "9h"}
    assert state.known[0] == frozenset(C("7c"))


def test_dk9_palm_needs_the_option_three_discards_and_once_per_round() -> None:
    off = two_player()
    assert not any(isinstance(a, Draw) and a.source == "palm" for a in legal_actions(off))
    with pytest.raises(IllegalActionError, match="Sleight of Hand"):
        apply(off, Draw(C("Qh")[0], "palm"))
    state = two_player(options={"sleight_of_hand": True})
    state, _ = play(state, Draw(C("Qh")[0], "palm"))  # pile now Kc Qh: two cards
    state, _ = play(state, Draw(C("5s")[0], "stock"))  # pile Kc Qh 5s
    assert Draw(C("As")[0], "palm") not in legal_actions(state)  # seat 0 already palmed
    with pytest.raises(IllegalActionError, match="already palmed"):
        apply(state, Draw(C("As")[0], "palm"))
    short = position(
        ["As 2s 3s 4d 9c Tc Jh Qh", "5s 6s 7s 8d 9d Td Jd Kh"],
        "Kc 7c",
        options={"sleight_of_hand": True},
        to_act=0,
    )
    with pytest.raises(IllegalActionError, match="at least 3"):
        apply(short, Draw(C("Qh")[0], "palm"))


def test_dk9_final_turn_may_palm() -> None:
    state = two_player(options={"sleight_of_hand": True})
    state, _ = play(state, Knock())
    assert Draw(C("5s")[0], "palm") in legal_actions(state)
    state, _events = play(state, Draw(C("5s")[0], "palm"))
    assert state.phase == "call"


# --- DK10 --------------------------------------------------------------------------------


def test_dk10_match_ends_after_the_last_round_equal_totals_share_the_win() -> None:
    state = position(
        POT_HANDS,
        "5h",
        phase="call",
        knocker=0,
        to_act=3,
        calls=[None, "call", "call", None],
        round=1,
        options={"rounds": 2},
        totals=[0, 0, 0, 4],
    )
    state, events = play(state, Call())
    assert state.phase == "over"
    assert state.to_act is None
    assert legal_actions(state) == ()
    assert GAME.is_over(state)
    assert GAME.scores(state) == (44, 44, 44, 44)
    assert winners(state) == (0, 1, 2, 3)
    over = [e for e in events if e.kind == "match_over"]
    assert over[0].data["winners"] == [0, 1, 2, 3]
    with pytest.raises(IllegalActionError, match="over"):
        apply(state, Call())


def test_dk10_highest_total_wins() -> None:
    state = position(
        POT_HANDS,
        "5h",
        phase="call",
        knocker=0,
        to_act=3,
        calls=[None, "fold", "fold", None],
        round=0,
        options={"rounds": 1},
        totals=[0, 0, 0, 0],
    )
    state, _ = play(state, Fold())
    assert winners(state) == (0,)  # 41 + 10 beats 50 and 41


# --- JSON: options, actions, observations, positions ------------------------------------


def test_options_json_round_trip_and_errors() -> None:
    opts = DeadwoodKnockOptions(players=5, rounds=3, sleight_of_hand=True, manual_split=True)
    assert DeadwoodKnockOptions.from_json(opts.to_json()) == opts
    assert GAME.options_from_json({}) == DeadwoodKnockOptions()
    assert DeadwoodKnockOptions.from_json({"rounds": 100}).rounds == 100
    for bad, text in (
        ({"players": 7}, "players"),
        ({"players": 1}, "players"),
        ({"players": "2"}, "players"),
        ({"rounds": 0}, "rounds"),
        # Audit finding 10: a match must be able to finish.
        ({"rounds": 101}, "1 to 100"),
        ({"rounds": 10**100}, "rounds"),
        ({"sleight_of_hand": 1}, "sleight_of_hand"),
        ({"manual_split": "yes"}, "manual_split"),
        ({"colour": "red"}, "unknown"),
    ):
        with pytest.raises(GameError, match=text):
            DeadwoodKnockOptions.from_json(bad)


@pytest.mark.parametrize(
    "action",
    [
        Knock(),
        Stand(),
        Call(),
        Fold(),
        Draw(C("7c")[0], "stock"),
        Draw(C("Th")[0], "discard"),
        Draw(C("JK")[0], "palm"),
        Reveal(tuple(sorted(C("As Kd Th 7c 7d")))),
    ],
)
def test_action_json_round_trip(action: Any) -> None:
    data = action.to_json()
    assert json.loads(json.dumps(data)) == data
    assert action_from_json(data) == action
    assert data["type"] == action.kind


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"type": "dance"},
        {"type": "draw", "select": "7c"},
        {"type": "draw", "select": "7x", "source": "stock"},
        {"type": "draw", "select": "7c", "source": "river"},
        {"type": "knock", "extra": 1},
        {"type": "reveal", "poker_hand": "As Kd"},
        {"type": "reveal", "poker_hand": ["As", "As", "Kd", "Qd", "Jd"]},
        [],
    ],
)
def test_bad_action_json_raises_game_error(data: Any) -> None:
    with pytest.raises(GameError):
        action_from_json(data)


def test_joker_select_means_the_joker_in_hand() -> None:
    hands = ["As 2s 3s 4d 9c Tc Jh JK", "5s 6s 7s 8d 9d Td JK Kh"]
    state = position(hands, "Kc 7c 9h", to_act=0)
    draw = action_from_json({"type": "draw", "select": "JK", "source": "stock"})
    assert draw in legal_actions(state)
    state, _events = play(state, draw)
    assert not any(c.is_joker for c in state.hands[0])
    assert str(state.discard[-1]) == "JK"


REQUIRED_KEYS = {
    "game", "seat", "players", "to_act", "phase", "over", "hand", "discard_pile",
    "stock_size", "hand_sizes", "known_cards", "totals", "round", "rounds", "dealer",
    "final_turn", "events", "legal_actions", "last_result",
}  # fmt: skip


def test_observation_json_keys_and_values() -> None:
    state = new_game(DeadwoodKnockOptions(players=3, rounds=4), 3)
    obs = observe(state, 1)
    data = json.loads(json.dumps(obs.to_json()))
    assert set(data) >= REQUIRED_KEYS
    assert data["game"] == "deadwood-knock"
    assert data["round"] == 1 and data["rounds"] == 4
    assert data["to_act"] == 1 and data["legal_actions"]
    assert data["hand_sizes"] == [8, 8, 8]
    assert data["stock_size"] == len(state.stock)
    assert data["last_result"] is None and data["over"] is False
    assert all("type" in a for a in data["legal_actions"])
    assert data["evaluation"]["knock_count"] == evaluate(state.hands[1]).knock_count
    assert observe(state, 0).to_json()["legal_actions"] == []
    assert "seed" not in data and "stock" not in data


def test_observation_hides_other_hands_and_the_stock() -> None:
    state = new_game(DeadwoodKnockOptions(players=4), 8)
    for seat in range(4):
        text = json.dumps(observe(state, seat).to_json())
        for other in range(4):
            if other != seat:
                for c in state.hands[other]:
                    if not c.is_joker:
                        assert f'"{c}"' not in text
        for c in state.stock:
            if not c.is_joker:
                assert f'"{c}"' not in text


def test_position_json_round_trip() -> None:
    state = two_player(options={"sleight_of_hand": True})
    state, _ = play(state, Draw(C("Qh")[0], "palm"), Knock())
    data = position_to_json(state)
    back = position_from_json(json.loads(json.dumps(data)))
    assert position_to_json(back) == data
    assert back == state


def test_position_json_round_trip_with_a_known_joker_in_a_later_hand() -> None:
    """JSON writes both jokers as JK and a rebuilt position numbers them by place, so a
    known JK means the joker of that seat's own hand, whichever index it gets."""
    hands = [C("3s Jh Qh Td Kd 7c Qc JK"), C("As 6s 9s 7h Ad 5d 7d Kc"), C("Ks 4h 8d 2c 3c 6c 8c")]
    hands[2] = (*hands[2], CARDS[53])
    used = {c for h in hands for c in h}
    data = {
        "options": {"players": 3},
        "hands": [[str(c) for c in h] for h in hands],
        "discard": ["2s"],
        "stock": [str(c) for c in DECK_54 if c not in used and str(c) != "2s"],
        "known": [["3s"], [], ["4h", "JK"]],
    }
    state = position_from_json(data)
    assert CARDS[53] in state.known[2] and CARDS[53] in state.hands[2]
    assert position_to_json(position_from_json(position_to_json(state))) == position_to_json(state)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["hands"][0].append(d["stock"].pop()), "holds 9 cards"),
        (lambda d: d["stock"].pop(), "missing"),
        (lambda d: d["stock"].append(d["hands"][0][0]), "two places"),
        (lambda d: d.update(phase="dancing"), "phase"),
        (lambda d: d.update(to_act=5), "to_act"),
        (lambda d: d.update(dealer=1), "dealt by"),
        (lambda d: d.update(phase="final"), "knocker"),
        (lambda d: d.update(palmed=[True, False]), "cover"),
        (lambda d: d.update(hands=[d["hands"][0]]), "hands"),
    ],
)
def test_impossible_positions_raise_position_error(change: Any, message: str) -> None:
    data = position_to_json(two_player())
    change(data)
    with pytest.raises(PositionError, match=message):
        position_from_json(data)


def test_determinize_is_consistent_with_the_observation() -> None:
    rng = random.Random(3)
    state = new_game(DeadwoodKnockOptions(players=3, sleight_of_hand=True), 21)
    for _ in range(40):
        state, _ = apply(state, rng.choice(legal_actions(state)))
    for seat in range(3):
        obs = observe(state, seat)
        for _ in range(5):
            guess = determinize(obs, rng)
            assert observe(guess, seat).to_json() == obs.to_json()
            every = sorted(
                [c for h in guess.hands for c in h] + [*guess.stock, *guess.discard, *guess.covers]
            )
            assert every == list(DECK_54)


def test_game_is_registered_and_replays() -> None:
    game = get_game("deadwood-knock")
    assert game is GAME
    assert (game.name, game.title, game.min_players, game.max_players) == (
        "deadwood-knock",
        "Deadwood Knock",
        2,
        6,
    )
    rng = random.Random(1)
    opts = {"players": 3, "rounds": 2, "sleight_of_hand": True, "manual_split": True}
    state = game.new_game(game.options_from_json(opts), 42)
    actions = []
    while not game.is_over(state):
        action = rng.choice(game.legal_actions(state))
        actions.append(action.to_json())
        state, _ = game.apply(state, action)
    record = GameRecord.from_json(
        json.loads(json.dumps(GameRecord("deadwood-knock", opts, 42, tuple(actions)).to_json()))
    )
    assert replay(game, record) == state


def test_round_result_json_round_trip() -> None:
    res = settle([None, "call", "fold", None], Call())
    back = RoundResult.from_json(res)
    assert back.to_json() == res
