"""Position-based tests of the Knock Rummy rules, one or more per ruling KR1-KR8."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest

from deadwood_knock.cards import DECK_52, Card, parse_cards, shuffled
from deadwood_knock.games import get_game
from deadwood_knock.games.base import (
    Event,
    GameError,
    IllegalActionError,
    PositionError,
    derive_rng,
)
from deadwood_knock.games.knock_rummy import (
    GAME,
    GIN_GAME,
    Discard,
    Draw,
    Knock,
    KnockRummyOptions,
    KnockRummyState,
    Rummy,
    action_from_json,
    count,
    determinize,
    knock_rummy_scores,
    observe,
)

C = parse_cards


def one(text: str) -> Card:
    return parse_cards(text)[0]


def position(
    hands: Sequence[str],
    *,
    pile: str | None = None,
    stock_top: str = "",
    stock_empty: bool = False,
    options: dict[str, Any] | None = None,
    **extra: Any,
) -> KnockRummyState:
    """A position from explicit hands. With ``pile`` given, every other card is in the
    stock (``stock_top`` cards on top, last = top); with ``stock_empty`` every other
    card is in the discard pile (deck order, bottom first)."""
    held = [c for h in hands for c in C(h)]
    top = list(C(stock_top))
    if stock_empty:
        rest = [c for c in DECK_52 if c not in held]
        stock_cards: list[Card] = []
        pile_cards = rest
    else:
        pile_cards = list(C(pile or ""))
        rest = [c for c in DECK_52 if c not in held and c not in pile_cards and c not in top]
        stock_cards = rest + top
    data = {
        "options": options or {"players": len(hands)},
        "hands": [h.split() for h in hands],
        "stock": [str(c) for c in stock_cards],
        "discard_pile": [str(c) for c in pile_cards],
        **extra,
    }
    opts = data["options"]
    game = GIN_GAME if opts.get("gin") else GAME
    return game.position_from_json(data)


def places(state: KnockRummyState) -> list[int]:
    return sorted([*(c for h in state.hands for c in h), *state.stock, *state.discard_pile])


def kinds(events: Sequence[Event]) -> list[str]:
    return [e.kind for e in events]


def result_of(events: Sequence[Event]) -> dict[str, Any]:
    return next(e.to_json() for e in events if e.kind == "hand_result")


# ----------------------------------------------------------------------------- KR1


@pytest.mark.parametrize(("players", "size"), [(2, 10), (3, 7), (4, 7), (5, 6)])
def test_kr1_deal_sizes_upcard_and_first_player(players: int, size: int) -> None:
    state = GAME.new_game(KnockRummyOptions(players=players), 7)
    assert [len(h) for h in state.hands] == [size] * players
    assert len(state.discard_pile) == 1
    assert len(state.stock) == 52 - players * size - 1
    assert places(state) == list(range(52))
    assert state.dealer == 0 and state.to_act == 1 and state.phase == "draw"


def test_kr1_deals_one_card_at_a_time_from_dealers_left() -> None:
    seed = 99
    state = GAME.new_game(KnockRummyOptions(players=3), seed)
    deck = shuffled(DECK_52, derive_rng(seed, 1))
    # The top of the deck is the end of the list: seat 1, seat 2, seat 0, seat 1, ...
    order = [1, 2, 0] * 7
    dealt: dict[int, list[Card]] = {0: [], 1: [], 2: []}
    for seat in order:
        dealt[seat].append(deck.pop())
    assert [sorted(dealt[s]) for s in range(3)] == [list(h) for h in state.hands]
    assert state.discard_pile == (deck.pop(),)
    assert list(state.stock) == deck


def _knock_two_player(winner_is_knocker: bool) -> tuple[KnockRummyState, list[Event]]:
    knocker_hand = "As 2s 3s 4h 4d 4c 8c 8d 8h Kd 5c"  # count 5 after discarding Kd
    other = "2h 3h 9s 9h Ts Js Qs 7d 6c 2c" if winner_is_knocker else "Ac Ah 5d 6d 7d 9s Ts"
    if not winner_is_knocker:
        other += " Js Qs Ks"  # count 2: A A
    state = position([knocker_hand, other], pile="Qd", phase="discard", to_act=0, dealer=1)
    new, events = GAME.apply(state, Knock(one("Kd")))
    return new, list(events)


def test_kr1_two_players_winner_deals_next() -> None:
    new, _ = _knock_two_player(winner_is_knocker=True)
    assert new.dealer == 0 and new.to_act == 1 and new.hand_number == 2
    new, _ = _knock_two_player(winner_is_knocker=False)
    assert new.dealer == 1 and new.to_act == 0


def test_kr1_deal_passes_left_with_more_players() -> None:
    # Three players, seat 2 (dealer 1) knocks: whoever wins, seat 2 deals the next hand.
    state = position(
        ["As 2s 3s 4s 5d 5h Kc", "7h 8h 9h Tc Jc Qc 7c", "9d Td Jd 2c 3c 4c 7s Kh"],
        pile="Qd",
        phase="discard",
        to_act=2,
        dealer=1,
    )
    new, _ = GAME.apply(state, Knock(one("Kh")))
    assert new.dealer == 2 and new.to_act == 0


# ----------------------------------------------------------------------------- KR2


def test_kr2_high_aces_counts_queen_king_ace_at_the_showdown() -> None:
    hands = ["Qh Kh Ah 5c 6c 7c 8c 2d 2s 2c 9d", "3h 4h 5h 6s 7s 8s 9c Tc Jc Js"]
    low = position(hands, pile="Td", phase="discard", to_act=0)
    high = position(
        hands,
        pile="Td",
        phase="discard",
        to_act=0,
        options={"players": 2, "high_aces": True},
    )
    _, ev_low = GAME.apply(low, Knock(one("9d")))
    _, ev_high = GAME.apply(high, Knock(one("9d")))
    assert result_of(ev_low)["counts"] == [21, 10]
    assert result_of(ev_high)["counts"] == [0, 10]
    # With high aces seat 0 also could have gone rummy by discarding 9d.
    assert Rummy(one("9d")) in GAME.legal_actions(high)
    assert Rummy(one("9d")) not in GAME.legal_actions(low)


# ----------------------------------------------------------------------------- KR3


def test_kr3_card_taken_from_discard_pile_may_not_be_discarded() -> None:
    state = position(
        ["As 2s 3s 4h 4d 4c 8c 8d 8h Kd", "2h 3h 9s 9h Ts Js Qs 7d 6c 2c"], pile="Qd Kc"
    )
    assert GAME.legal_actions(state) == (Draw("stock"), Draw("discard"))
    # Seat 1 acts first (dealer 0); take Kc from the pile.
    state, events = GAME.apply(state, Draw("discard"))
    assert events[0].to_json() == {"type": "draw", "seat": 1, "source": "discard", "card": "Kc"}
    legal = GAME.legal_actions(state)
    assert Discard(one("Kc")) not in legal and Knock(one("Kc")) not in legal
    assert Discard(one("2c")) in legal
    before = GAME.position_to_json(state)
    with pytest.raises(IllegalActionError, match="discard pile"):
        GAME.apply(state, Discard(one("Kc")))
    assert GAME.position_to_json(state) == before


def test_kr3_must_draw_before_discarding_and_draw_only_once() -> None:
    state = position(["As 2s 3s 4h 4d 4c 8c 8d 8h Kd", "2h 3h 9s 9h Ts Js Qs 7d 6c 2c"], pile="Qd")
    with pytest.raises(IllegalActionError, match="must draw"):
        GAME.apply(state, Discard(one("2c")))
    drawn, _ = GAME.apply(state, Draw("stock"))
    with pytest.raises(IllegalActionError):
        GAME.apply(drawn, Draw("stock"))
    with pytest.raises(IllegalActionError, match="not in the hand"):
        GAME.apply(drawn, Discard(one("As")))


def test_kr3_stock_draw_is_private_and_turn_passes() -> None:
    state = position(
        ["As 2s 3s 4h 4d 4c 8c 8d 8h Kd", "2h 3h 9s 9h Ts Js Qs 7d 6c 2c"],
        pile="Qd",
        stock_top="5c",
    )
    state, events = GAME.apply(state, Draw("stock"))
    public = [e for e in events if e.private_to is None]
    assert all("5c" not in json.dumps(e.to_json()) for e in public)
    assert [e.to_json() for e in events if e.private_to == 1] == [
        {"type": "draw_card", "seat": 1, "card": "5c"}
    ]
    state, _ = GAME.apply(state, Discard(one("5c")))
    assert state.to_act == 0 and state.phase == "draw" and state.discard_pile[-1] == one("5c")


# ----------------------------------------------------------------------------- KR4


def test_kr4_knock_ends_the_hand_after_the_discard_and_counts_hands_as_they_stand() -> None:
    new, events = _knock_two_player(winner_is_knocker=True)
    assert kinds(events)[:4] == ["knock", "discard", "showdown", "hand_result"]
    result = result_of(events)
    assert result["counts"] == [5, 29]
    assert result["scores"] == [24, -24]
    assert new.totals == (24, -24)
    # Nobody else took a turn: the knocker's discard was the last play of the hand.
    assert new.last_result is not None and new.last_result.layoffs == ()
    assert new.last_result.hands[1] == tuple(sorted(C("2h 3h 9s 9h Ts Js Qs 7d 6c 2c")))


def test_kr4_knock_limit_allows_only_discards_leaving_count_at_or_under_limit() -> None:
    hand = "As 2s 3s 4h 4d 4c 8c 8d 9h Kd 5c"  # 8c 8d 9h loose
    state = position(
        [hand, "2h 3h 9s 8h Ts Js Qs 7d 6c 2c"],
        pile="Qd",
        phase="discard",
        to_act=0,
        options={"players": 2, "knock_limit": 15},
    )
    knocks = {a.discard for a in GAME.legal_actions(state) if isinstance(a, Knock)}
    # After Kd the count is 8+8+9+5 = 30; no single discard gets to 15 or less.
    assert knocks == set()
    state = position(
        ["As 2s 3s 4h 4d 4c 8c 8d 8h Kd 5c", "2h 3h 9s 9h Ts Js Qs 7d 6c 2c"],
        pile="Qd",
        phase="discard",
        to_act=0,
        options={"players": 2, "knock_limit": 10},
    )
    knocks = {a.discard for a in GAME.legal_actions(state) if isinstance(a, Knock)}
    assert knocks == {one("Kd"), one("5c")}  # counts 5 and 10; anything else is over 10
    with pytest.raises(IllegalActionError, match="knock limit"):
        GAME.apply(state, Knock(one("As")))
    # The seat's observation says what each discard leaves, so the knocks' counts agree
    # with the limit: Kd and 5c leave 5 and 10, every other card more than 10.
    obs = observe(state, 0)
    counts = dict(obs.discard_counts)
    assert list(counts) == list(obs.hand)
    assert (counts[one("Kd")], counts[one("5c")]) == (5, 10)
    assert {c for c, n in counts.items() if n <= 10} == knocks
    assert obs.to_json()["discard_counts"] == {str(c): n for c, n in counts.items()}
    # The rival, not on turn, is told nothing of the kind.
    assert observe(state, 1).discard_counts == ()
    assert observe(state, 1).to_json()["discard_counts"] == {}


def test_kr4_without_limit_a_knock_is_always_allowed() -> None:
    state = position(
        ["2h 3h 9s 9h Ts Js Qs 7d 6c 2c Kd", "As 2s 3s 4h 4d 4c 8c 8d 8h 5c"],
        pile="Qd",
        phase="discard",
        to_act=0,
    )
    knocks = [a for a in GAME.legal_actions(state) if isinstance(a, Knock)]
    assert len(knocks) == 11


# ----------------------------------------------------------------------------- KR5


def test_kr5_rummy_without_discard_ends_at_once_and_collects_25_from_each() -> None:
    state = position(
        ["As 2s 3s 4s 5h 5d 5c 9c Tc Jc Qc", "2h 3h 9s 9h Ts Js Qs 7d 6c 2c"],
        pile="Qd",
        phase="discard",
        to_act=0,
    )
    assert Rummy(None) in GAME.legal_actions(state)
    new, events = GAME.apply(state, Rummy(None))
    assert kinds(events)[:3] == ["rummy", "showdown", "hand_result"]
    result = result_of(events)
    assert result["outcome"] == "rummy" and result["winners"] == [0]
    assert result["counts"] == [0, 29]
    assert result["scores"] == [29 + 25, -(29 + 25)]
    assert result["difference"] == [29, -29] and result["bonus"] == [25, -25]
    assert new.last_result is not None and len(new.last_result.hands[0]) == 11
    assert new.last_result.to_json()["bonus"] == [25, -25]


def test_kr5_rummy_after_discarding_and_not_when_unmatched() -> None:
    state = position(
        ["As 2s 3s 5h 5d 5c 9c Tc Jc Qc 7d", "2h 3h 9s 9h Ts Js Qs Kd 6c 2c"],
        pile="Qd",
        phase="discard",
        to_act=0,
    )
    legal = GAME.legal_actions(state)
    assert Rummy(one("7d")) in legal
    assert Rummy(None) not in legal and Rummy(one("As")) not in legal
    with pytest.raises(IllegalActionError, match="not all matched"):
        GAME.apply(state, Rummy(one("5h")))
    new, events = GAME.apply(state, Rummy(one("7d")))
    assert kinds(events)[:3] == ["discard", "rummy", "showdown"]
    opponent = count(C("2h 3h 9s 9h Ts Js Qs Kd 6c 2c"))
    assert result_of(events)["scores"] == [opponent + 25, -(opponent + 25)]
    assert new.totals == (opponent + 25, -(opponent + 25))


def test_kr5_three_players_rummy_collects_from_each() -> None:
    state = position(
        ["As 2s 3s 5h 5d 5c 5s Kd", "7h 8h 9h Kc Jc Qc 7c", "9d Td Jd 2c 3c 4c 7s"],
        pile="Qd",
        phase="discard",
        to_act=0,
    )
    _new, events = GAME.apply(state, Rummy(one("Kd")))
    assert result_of(events)["scores"] == [7 + 25 + 7 + 25, -32, -32]


# ----------------------------------------------------------------------------- KR6


def test_kr6_knocker_tie_goes_to_non_knocker_and_knocker_pays_10() -> None:
    state = position(
        ["As 2s 3s 4h 4d 4c 8c 8d 8h 5c Kd", "5s 9s 9h 9d 5d 6d 7d Tc Jc Qc"],
        pile="Qd",
        phase="discard",
        to_act=0,
    )
    new, events = GAME.apply(state, Knock(one("Kd")))
    result = result_of(events)
    assert result["counts"] == [5, 5]
    assert result["winners"] == [1]
    assert result["winner"] == 1
    assert result["scores"] == [-10, 10]
    # The showdown's own lines: no difference, the knocker's penalty, no bonus.
    assert result["difference"] == [0, 0]
    assert result["penalty"] == [-10, 10]
    assert result["bonus"] == [0, 0]
    assert new.dealer == 1


def test_kr6_knocker_not_lowest_pays_difference_plus_10() -> None:
    _new, events = _knock_two_player(winner_is_knocker=False)
    result = result_of(events)
    assert result["counts"] == [5, 2]
    assert result["scores"] == [-(3 + 10), 3 + 10]


def test_kr6_tying_non_knockers_share_rounded_down_and_hand_sums_to_zero() -> None:
    # Seat 0 knocks at 10; seats 1 and 2 tie at 7 and share; seat 3 holds 37.
    state = position(
        [
            "As 2s 3s 4s 5d 5h Kc Ks",
            "7h 8h 9h Tc Jc Qc 7c",
            "9d Td Jd 2c 3c 4c 7s",
            "6d 6s 6h 8s 9s Kh Qh",
        ],
        pile="Qd",
        phase="discard",
        to_act=0,
        dealer=3,
    )
    _new, events = GAME.apply(state, Knock(one("Ks")))
    result = result_of(events)
    assert result["counts"] == [20, 7, 7, 37]
    assert result["winners"] == [1, 2]
    assert result["winner"] is None  # a shared hand has no one winner
    # Knocker owes 13 + 10 = 23 -> 11 each (pays 22); seat 3 owes 30 -> 15 each.
    assert result["scores"] == [-22, 26, 26, -30]
    assert sum(result["scores"]) == 0
    # 13 alone would be 6 a share (12); the penalty adds 5 a share (10).
    assert result["difference"] == [-12, 21, 21, -30]
    assert result["penalty"] == [-10, 5, 5, 0]
    assert result["bonus"] == [0, 0, 0, 0]


def test_kr6_settling_table() -> None:
    assert knock_rummy_scores([5, 29], knocker=0) == ((0,), (24, -24))
    assert knock_rummy_scores([5, 5], knocker=0) == ((1,), (-10, 10))
    assert knock_rummy_scores([4, 4, 4], knocker=1) == ((0, 2), (5, -10, 5))
    assert knock_rummy_scores([9, 4, 4, 4], knocker=0) == ((1, 2, 3), (-15, 5, 5, 5))
    assert knock_rummy_scores([0, 12, 30], knocker=None, rummy=0) == ((0,), (92, -37, -55))


def test_kr6_game_ends_after_the_hand_reaching_target_highest_total_wins() -> None:
    state = position(
        ["As 2s 3s 4h 4d 4c 8c 8d 8h Kd 5c", "2h 3h 9s 9h Ts Js Qs 7d 6c 2c"],
        pile="Qd",
        phase="discard",
        to_act=0,
        totals=[80, -80],
    )
    new, events = GAME.apply(state, Knock(one("Kd")))
    assert new.phase == "over" and GAME.is_over(new) and new.to_act is None
    assert new.totals == (104, -104) and GAME.scores(new) == (104, -104)
    assert new.winners == (0,)
    assert kinds(events)[-1] == "game_over"
    # The finished game keeps the last hand's whole public story.
    assert kinds(new.log)[-5:] == ["knock", "discard", "showdown", "hand_result", "game_over"]
    assert [e["type"] for e in observe(new, 1).to_json()["events"]][-5:] == kinds(new.log)[-5:]
    assert GAME.legal_actions(new) == ()
    with pytest.raises(IllegalActionError, match="over"):
        GAME.apply(new, Draw("stock"))


# ----------------------------------------------------------------------------- KR7


def test_kr7_turn_over_without_shuffling_old_bottom_discard_is_drawn() -> None:
    state = position(
        ["As 2s 3s 4h 4d 4c 8c 8d 8h Kd", "2h 3h 9s 9h Ts Js Qs 7d 6c 2c"], stock_empty=True
    )
    pile = state.discard_pile
    assert GAME.legal_actions(state) == (Draw("stock"), Draw("discard"))
    new, events = GAME.apply(state, Draw("stock"))
    assert kinds(events) == ["turn_over", "draw"]
    assert pile[0] in new.hands[1]  # the old bottom discard became the stock's top
    assert new.stock == tuple(reversed(pile))[:-1]
    assert new.discard_pile == () and new.turnovers == 1
    # Everyone saw the pile, so the draw from it is public and the card is known.
    assert events[1].to_json()["card"] == str(pile[0])
    assert pile[0] in new.known[1]


def test_kr7_take_top_discard_when_stock_is_empty() -> None:
    state = position(
        ["As 2s 3s 4h 4d 4c 8c 8d 8h Kd", "2h 3h 9s 9h Ts Js Qs 7d 6c 2c"], stock_empty=True
    )
    top = state.discard_pile[-1]
    new, _ = GAME.apply(state, Draw("discard"))
    assert top in new.hands[1] and new.turnovers == 0 and new.stock == ()


def test_kr7_third_run_out_voids_the_hand_same_dealer_deals() -> None:
    state = position(
        ["As 2s 3s 4h 4d 4c 8c 8d 8h Kd", "2h 3h 9s 9h Ts Js Qs 7d 6c 2c"],
        pile="Qd Qh",
        stock_empty=False,
        turnovers=2,
        dealer=1,
        to_act=0,
    )
    # Leave exactly one stock card: move the rest of the stock to the pile.
    data = GAME.position_to_json(state)
    data["discard_pile"] = data["stock"][:-1] + data["discard_pile"]
    data["stock"] = data["stock"][-1:]
    state = GAME.position_from_json(data)
    # Only one draw remains; after it runs out a third time there is no turning over.
    state, _ = GAME.apply(state, Draw("stock"))
    drawn = next(c for c in state.hands[0] if c not in C("As 2s 3s 4h 4d 4c 8c 8d 8h Kd"))
    new, events = GAME.apply(state, Discard(drawn))
    assert "void" in kinds(events)
    result = result_of(events)
    assert result["outcome"] == "void" and result["scores"] == [0, 0]
    assert new.totals == (0, 0)
    assert new.dealer == 1 and new.hand_number == 2 and new.to_act == 0
    assert new.turnovers == 0


def test_kr7_pile_may_be_turned_twice() -> None:
    state = position(
        ["As 2s 3s 4h 4d 4c 8c 8d 8h Kd", "2h 3h 9s 9h Ts Js Qs 7d 6c 2c"],
        stock_empty=True,
        turnovers=1,
    )
    assert Draw("stock") in GAME.legal_actions(state)
    new, _ = GAME.apply(state, Draw("stock"))
    assert new.turnovers == 2
    with pytest.raises(PositionError, match="third"):
        position(
            ["As 2s 3s 4h 4d 4c 8c 8d 8h Kd", "2h 3h 9s 9h Ts Js Qs 7d 6c 2c"],
            stock_empty=True,
            turnovers=2,
        )


# ----------------------------------------------------------------------------- KR8


def gin_position(knocker: str, defender: str, **extra: Any) -> KnockRummyState:
    return position(
        [knocker, defender],
        pile="Qd",
        phase="discard",
        to_act=0,
        options={"gin": True},
        **extra,
    )


def test_kr8_gin_lay_offs_with_chains_and_fourth_of_a_set() -> None:
    state = gin_position("5h 6h 7h 8s 8d 8c As 2s 3s 4d Ks", "3h 4h 8h 4s Kd Qc Jd 9c 7c 2d")
    new, events = GIN_GAME.apply(state, Knock(one("Ks")))
    show = next(e for e in events if e.kind == "showdown").to_json()
    # 4h then 3h chain below 5-6-7h, 4s extends A-2-3s, 8h joins the run or the set.
    assert sorted(show["layoffs"]) == sorted(["3h", "4h", "8h", "4s"])
    result = result_of(events)
    assert result["outcome"] == "knock"
    assert result["counts"] == [4, 48]
    assert result["scores"] == [44, 0]
    assert new.totals == (44, 0) and new.dealer == 0


def test_kr8_gin_knocker_layout_tie_lets_defender_lay_off_least() -> None:
    # 2h 3h 4h 3s 3d: run 2-3-4h (3s 3d loose) or set of threes (2h 4h loose): 6 either
    # way. The run would take the defender's 5h 6h, the set only 3c.
    state = gin_position("2h 3h 4h 3s 3d 9s 9d 9c 9h Ac Kd", "5h 6h 3c Ks Qh Jc 8s 7d 5c Td")
    _, events = GIN_GAME.apply(state, Knock(one("Kd")))
    show = next(e for e in events if e.kind == "showdown").to_json()
    assert show["layoffs"] == ["3c"]
    result = result_of(events)
    assert result["counts"] == [7, 71]
    assert result["scores"] == [64, 0]


def test_kr8_gin_undercut_scores_difference_plus_25_to_defender() -> None:
    state = gin_position("As 2s 3s 7h 7d 7c Jc Qc Kc 9d Kd", "4d 5d 6d 8s 8h 8d Ts Th Tc 6s")
    new, events = GIN_GAME.apply(state, Knock(one("Kd")))
    result = result_of(events)
    assert result["outcome"] == "undercut" and result["winners"] == [1]
    assert result["counts"] == [9, 6]
    assert result["scores"] == [0, 9 - 6 + 25]
    assert result["difference"] == [0, 3]
    assert result["bonus"] == [0, 25]
    assert result["penalty"] == [0, 0]
    assert new.dealer == 1  # the winner deals


def test_kr8_gin_equal_count_is_an_undercut() -> None:
    state = gin_position("As 2s 3s 7h 7d 7c Jc Qc Kc 6h Kd", "4d 5d 6d 8s 8h 8d Ts Th Tc 6s")
    _, events = GIN_GAME.apply(state, Knock(one("Kd")))
    result = result_of(events)
    assert result["counts"] == [6, 6]
    assert result["outcome"] == "undercut" and result["scores"] == [0, 25]


def test_kr8_gin_bonus_and_no_lay_offs_after_gin() -> None:
    defender = "4s 9c 5d 6d 2h 3h 8h 9h Js Qs"
    state = gin_position("As 2s 3s 7h 7d 7c Tc Jc Qc Kc Kd", defender)
    legal = GIN_GAME.legal_actions(state)
    assert not any(isinstance(a, Rummy) for a in legal)  # gin has no rummy action
    _new, events = GIN_GAME.apply(state, Knock(one("Kd")))
    result = result_of(events)
    assert result["outcome"] == "gin"
    assert result["counts"] == [0, 66]  # 4s and 9c would fit, but gin allows no lay-offs
    assert result["scores"] == [66 + 25, 0]
    assert result["difference"] == [66, 0] and result["bonus"] == [25, 0]
    show = next(e for e in events if e.kind == "showdown").to_json()
    assert show["layoffs"] == []


def test_kr8_gin_knock_only_at_10_or_less() -> None:
    state = gin_position("As 2s 3s 7h 7d 7c Jc Qc 9d 8s Kd", "4d 5d 6d 8h 8c 8d Ts Th Tc 6s")
    knocks = {a.discard for a in GIN_GAME.legal_actions(state) if isinstance(a, Knock)}
    # Loose: Jc Qc 9d 8s Kd. Only keeping <= 10 after one discard is impossible.
    assert knocks == set()
    state = gin_position("As 2s 3s 7h 7d 7c Jc Qc Kc 9d Kd", "4d 5d 6d 8h 8c 8d Ts Th Tc 6s")
    knocks = {a.discard for a in GIN_GAME.legal_actions(state) if isinstance(a, Knock)}
    assert knocks == {one("Kd"), one("9d")}


def gin_three_in_stock() -> KnockRummyState:
    """A Gin hand with three stock cards left (the rest in the pile under a face-up Qd),
    seat 1 to draw."""
    state = position(
        ["As 2s 3s 7h 7d 7c Jc Qc 9d 8s", "4d 5d 6d 8h 8c 8d Ts Th Tc 6s"],
        pile="Qd",
        options={"gin": True},
        dealer=0,
        to_act=1,
    )
    data = GIN_GAME.position_to_json(state)
    data["discard_pile"] = data["stock"][:-3] + data["discard_pile"]
    data["stock"] = data["stock"][-3:]
    return GIN_GAME.position_from_json(data)


def test_kr8_gin_void_when_only_two_stock_cards_remain() -> None:
    state = gin_three_in_stock()
    state, _ = GIN_GAME.apply(state, Draw("stock"))
    assert len(state.stock) == 2
    new, events = GIN_GAME.apply(state, Discard(one("6s")))
    assert result_of(events)["outcome"] == "void"
    assert new.dealer == 0 and new.hand_number == 2 and new.totals == (0, 0)


def test_void_hand_result_shows_only_what_the_table_saw() -> None:
    """Audit finding 4: a void hand is thrown in unseen. The result (and so every seat's
    observation) holds only the cards the table saw enter each hand, never the rest."""
    state = gin_three_in_stock()
    # Seat 1 takes the face-up Qd (everyone sees it), seat 0 draws blind; the next
    # discard leaves two stock cards and voids the hand.
    state, _ = GIN_GAME.apply(state, Draw("discard"))
    state, _ = GIN_GAME.apply(state, Discard(one("6s")))
    state, _ = GIN_GAME.apply(state, Draw("stock"))
    before = state.hands
    drawn = next(c for c in before[0] if c not in C("As 2s 3s 7h 7d 7c Jc Qc 9d 8s"))
    new, events = GIN_GAME.apply(state, Discard(drawn))
    assert result_of(events)["outcome"] == "void"
    result = new.last_result
    assert result is not None and result.outcome == "void"
    assert result.hands == ((), (one("Qd"),))
    for seat in (0, 1):
        shown = observe(new, seat).to_json()["last_result"]
        assert shown["hands"] == [[], ["Qd"]]
        text = json.dumps(shown)
        # No card of the thrown-in hands beyond the one taken face up.
        hidden = {str(c) for h in before for c in h} - {"Qd"}
        assert not any(f'"{c}"' in text for c in hidden)


def test_kr8_gin_options_are_fixed() -> None:
    assert GIN_GAME.options_from_json({}) == KnockRummyOptions(gin=True, knock_limit=10)
    with pytest.raises(GameError, match="2 players"):
        GIN_GAME.options_from_json({"players": 3})
    with pytest.raises(GameError, match="fixed"):
        GIN_GAME.options_from_json({"knock_limit": 5})
    with pytest.raises(GameError, match="gin game"):
        GAME.options_from_json({"gin": True})
    assert get_game("gin") is GIN_GAME and get_game("knock-rummy") is GAME
    assert GIN_GAME.max_players == 2 and GAME.max_players == 5


# ----------------------------------------------------------------------------- JSON, errors


@pytest.mark.parametrize(
    "data",
    [
        {"players": 1},
        {"players": 6},
        {"players": "2"},
        {"knock_limit": -1},
        {"knock_limit": 1.5},
        {"high_aces": "yes"},
        {"target": 0},
        {"colour": "red"},
    ],
)
def test_kr_options_reject_bad_values(data: dict[str, Any]) -> None:
    with pytest.raises(GameError):
        GAME.options_from_json(data)


def test_options_kept_per_json_object_tell_equal_values_of_other_types_apart() -> None:
    """Parsed options are kept per JSON object (a bench or a server parses the same few
    again and again); ``True`` and ``1`` are equal and hash alike, yet only one is valid."""
    for game in (GAME, GIN_GAME):
        first = game.options_from_json({"players": 2, "high_aces": True})
        again = game.options_from_json({"players": 2, "high_aces": True})
        assert again == first and again.high_aces is True
        with pytest.raises(GameError, match="true or false"):
            game.options_from_json({"players": 2, "high_aces": 1})
        with pytest.raises(GameError, match="whole number"):
            game.options_from_json({"players": 2, "target": 100.0})
        with pytest.raises(GameError):  # an unhashable value is parsed (and refused) too
            game.options_from_json({"players": 2, "target": [100]})
    # The same JSON, kept by one game, is still checked by the other.
    assert GIN_GAME.options_from_json({"players": 2}).gin
    assert not GAME.options_from_json({"players": 2}).gin
    with pytest.raises(GameError, match="gin game"):
        GAME.options_from_json({"players": 2, "gin": True})
    assert GIN_GAME.options_from_json({"players": 2, "gin": True}).gin
    for n in range(300):  # more objects than are kept: each still parses right
        assert GAME.options_from_json({"players": 2, "target": 1 + n}).target == 1 + n


def _hand_starts(game: Any, data: dict[str, Any], seed: int, read_at_once: bool) -> list[Any]:
    """The states that start each hand of a random game (at most four hands); with
    ``read_at_once`` every state is read before it is played on."""
    state = game.new_game(game.options_from_json(data), seed)
    rng = random.Random(seed)
    starts = [state]
    while len(starts) < 4:
        if read_at_once:
            repr(state)
        legal = game.legal_actions(state)  # (``is_over`` would read the state at once)
        if not legal:
            break
        state, events = game.apply(state, legal[rng.randrange(len(legal))])
        if any(e.kind in ("deal", "game_over") for e in events):
            starts.append(state)
    return starts


def test_hand_starts_read_late_are_dealt_again_the_same() -> None:
    """A state that starts a hand keeps the deal's inputs, not a copy of its table: read
    late (after its table moved on) it is dealt again, and equals the state read at once."""
    for game, data in ((GIN_GAME, {}), (GAME, {"players": 3, "target": 30})):
        for seed in range(3):
            late = _hand_starts(game, data, seed, read_at_once=False)
            at_once = _hand_starts(game, data, seed, read_at_once=True)
            assert len(late) >= 2  # a hand dealt after new_game's
            assert [repr(s) for s in late] == [repr(s) for s in at_once]
            assert [s.log for s in late] == [s.log for s in at_once]
            assert [game.legal_actions(s) for s in late] == [game.legal_actions(s) for s in at_once]


def test_kr_options_round_trip() -> None:
    opts = KnockRummyOptions(players=4, knock_limit=7, high_aces=True, target=50)
    assert GAME.options_from_json(opts.to_json()) == opts
    assert json.loads(json.dumps(opts.to_json())) == opts.to_json()


@pytest.mark.parametrize(
    "action",
    [
        Draw("stock"),
        Draw("discard"),
        Discard(one("7c")),
        Knock(one("Th")),
        Rummy(None),
        Rummy(one("As")),
    ],
)
def test_kr_action_json_round_trip(action: Any) -> None:
    data = json.loads(json.dumps(action.to_json()))
    assert "type" in data
    assert action_from_json(data) == action


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"type": "draw"},
        {"type": "draw", "source": "deck"},
        {"type": "discard", "card": "1x"},
        {"type": "discard", "card": "JK"},
        {"type": "discard"},
        {"type": "knock", "discard": 7},
        {"type": "pass"},
        {"type": "discard", "card": "7c", "extra": 1},
    ],
)
def test_kr_bad_action_json_is_a_game_error(data: dict[str, Any]) -> None:
    with pytest.raises(GameError):
        action_from_json(data)


def test_kr_position_round_trip_and_impossible_positions() -> None:
    state = GAME.new_game(KnockRummyOptions(players=3, high_aces=True), 5)
    state, _ = GAME.apply(state, Draw("discard"))
    data = json.loads(json.dumps(GAME.position_to_json(state)))
    again = GAME.position_from_json(data)
    assert GAME.position_to_json(again) == data
    assert again.hands == state.hands and again.known == state.known
    assert GAME.legal_actions(again) == GAME.legal_actions(state)
    bad = dict(data, stock=data["stock"][1:])
    with pytest.raises(PositionError, match="missing"):
        GAME.position_from_json(bad)
    bad = dict(data, stock=[*data["stock"][1:], data["hands"][0][0]])
    with pytest.raises(PositionError, match="two places"):
        GAME.position_from_json(bad)
    bad = dict(data, phase="draw")
    with pytest.raises(PositionError, match="holds"):
        GAME.position_from_json(bad)
    with pytest.raises(PositionError):
        GAME.position_from_json(dict(data, taken_discard=data["stock"][0]))
    with pytest.raises(PositionError):
        GIN_GAME.position_from_json(data)


def test_kr_illegal_actions_leave_state_unchanged() -> None:
    state = GAME.new_game(KnockRummyOptions(), 3)
    before = GAME.position_to_json(state)
    for action in (Discard(state.hands[1][0]), Knock(state.hands[1][0]), Rummy(None)):
        with pytest.raises(IllegalActionError):
            GAME.apply(state, action)
    assert GAME.position_to_json(state) == before


def test_kr_observation_hides_other_hands_and_stock() -> None:
    state = GAME.new_game(KnockRummyOptions(players=3), 11)
    state, _ = GAME.apply(state, Draw("stock"))
    for seat in range(3):
        obs = observe(state, seat).to_json()
        text = json.dumps(obs)
        for other in range(3):
            if other != seat:
                for c in state.hands[other]:
                    assert f'"{c}"' not in text
        for c in state.stock:
            assert f'"{c}"' not in text
        assert obs["hand"] == [str(c) for c in state.hands[seat]]
        assert obs["legal_actions"] == (
            [] if seat != 1 else [a.to_json() for a in GAME.legal_actions(state)]
        )
        for key in (
            "game",
            "seat",
            "players",
            "to_act",
            "phase",
            "over",
            "discard_pile",
            "stock_size",
            "hand_sizes",
            "known_cards",
            "totals",
            "round",
            "rounds",
            "dealer",
            "final_turn",
            "events",
            "last_result",
        ):
            assert key in obs
        assert obs["game"] == "knock-rummy" and obs["rounds"] is None
        assert obs["final_turn"] is False
    assert "seed" not in json.dumps(observe(state, 0).to_json())


def test_kr7_determinize_keeps_the_public_stock_order_after_a_turn_over() -> None:
    state = position(
        ["As 2s 3s 4h 4d 4c 8c 8d 8h Kd", "2h 3h 9s 9h Ts Js Qs 7d 6c 2c"], stock_empty=True
    )
    state, _ = GAME.apply(state, Draw("stock"))
    state, _ = GAME.apply(state, Discard(state.hands[1][0]))
    obs = observe(state, 0)
    assert obs.to_json()["public_stock"] == [str(c) for c in state.stock]
    for seed in range(5):
        guess = determinize(obs, random.Random(seed))
        assert guess.stock == state.stock and guess.hands[0] == state.hands[0]
        assert guess.known == state.known
        assert sorted(c for h in guess.hands for c in h) == sorted(
            c for h in state.hands for c in h
        )
        assert GAME.legal_actions(guess) == GAME.legal_actions(state)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_kr6_score_lines_add_up_to_the_score_in_random_hands(players: int) -> None:
    """Whatever ends a hand, each seat's difference + penalty + bonus is its score, and
    only a knocker who lost pays a penalty."""
    rng = random.Random(players)
    games = [GAME, GIN_GAME] if players == 2 else [GAME]
    ended = 0
    for game in games:
        opts = {"players": players} if game is GAME else {}
        for seed in range(12):
            state = game.new_game(game.options_from_json(opts), seed)
            while not game.is_over(state) and ended < 60:
                state, events = game.apply(state, rng.choice(game.legal_actions(state)))
                for e in events:
                    if e.kind != "hand_result":
                        continue
                    ended += 1
                    r = e.to_json()
                    parts = zip(r["difference"], r["penalty"], r["bonus"], strict=True)
                    assert [sum(p) for p in parts] == r["scores"]
                    payers = [s for s in range(players) if r["penalty"][s] < 0]
                    assert len(payers) <= 1
                    if payers:
                        assert r["outcome"] == "knock" and payers[0] not in r["winners"]
    assert ended >= 20
