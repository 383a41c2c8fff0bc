"""Hand Focus says only what the engine confirms, ranks by value, and keeps knock advice
to positions where a knock is legal.

Over 2,000 random positions of each game (deadwood-knock, knock-rummy, gin), reached by
random and greedy players with random table options, every hint is checked here against
the engine, independently of the hint code: each claim's figures are recomputed from the
position (``position_to_json``: the real hands and stock) with the engine's evaluator,
meld counter, legal actions and rule constants; every number in the words must be one
of those figures; the ranking must be by value; and when no knock is legal no sentence
may mention knocking. The call-or-fold chance is also re-estimated from the engine's own
determinized states and rounds (``game.apply`` settles each pot), and checked against the
share of the pot calling really takes at the trail's characters' tables.
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from deadwood_knock.bots import Budget, get_bot
from deadwood_knock.bots.hints import (
    BEST_WORDS,
    OTHER_WORDS,
    SLIGHT_MARGIN,
    VERDICT_WORDS,
    Hint,
    hand_focus,
    pot_dealer,
    share_words,
    signed_points,
)
from deadwood_knock.bots.view import view_of
from deadwood_knock.cards import JOKERS, Card, parse_card
from deadwood_knock.games import get_game
from deadwood_knock.games.base import Game
from deadwood_knock.games.deadwood_knock import hand as dk_hand
from deadwood_knock.games.deadwood_knock import rules as dk_rules
from deadwood_knock.games.knock_rummy import melds as kr_melds
from deadwood_knock.games.knock_rummy import rules as kr_rules

POSITIONS = int(__import__("os").environ.get("HINT_POSITIONS", "2000"))
SEARCH = Budget(iterations=2)  # the claims do not depend on the search's depth
POT_DEALS = 150
POT_CHECKS = 12  # call-or-fold positions per run re-estimated through the engine
NUMBER = re.compile(r"[+−-]?\d+(?:\.\d+)?")


# --- positions ----------------------------------------------------------------------------------


def _options(game_name: str, rng: random.Random) -> dict[str, Any]:
    if game_name == "deadwood-knock":
        return {"players": rng.randint(2, 6), "sleight_of_hand": rng.random() < 0.5}
    if game_name == "gin":
        return {"players": 2}
    opts: dict[str, Any] = {"players": rng.randint(2, 5), "high_aces": rng.random() < 0.3}
    if rng.random() < 0.3:
        opts["knock_limit"] = rng.choice([5, 10])
    return opts


def positions(game_name: str, count: int, seed: int) -> Iterator[tuple[Game[Any, Any], Any]]:
    """``count`` positions where some seat must act, from whole games between random and
    greedy players (so knocks, final turns, calls, palms and stock turn-overs all occur)."""
    game = get_game(game_name)
    rng = random.Random(seed)
    bots = {name: get_bot(name) for name in ("random", "greedy")}
    made = 0
    while made < count:
        options = _options(game_name, rng)
        state = game.new_game(game.options_from_json(options), rng.getrandbits(40))
        players = [rng.choice(list(bots)) for _ in range(options["players"])]
        for _step in range(400):
            if game.is_over(state) or made >= count:
                break
            seat = game.to_act(state)
            legal = game.legal_actions(state)
            # Every call and most knock chances are kept: they are rarer and matter most.
            keep = 0.2
            if any(a.kind in ("knock", "call") for a in legal):
                keep = 0.7
            if rng.random() < keep:
                made += 1
                yield game, state
            obs = game.observe(state, seat)
            state, _ = game.apply(state, bots[players[seat]].act(game, obs, legal, rng))


# --- what the seat has not seen, from the real position --------------------------------------


def _cards(items: Any) -> list[Card]:
    out: list[Card] = []
    for item in items:
        c = parse_card(str(item))
        if c >= 52 and c in out:
            c = JOKERS[1]
        out.append(c)
    return out


def unseen_of(game_name: str, position: dict[str, Any], seat: int) -> list[Card]:
    """The cards the seat has not seen: the face-down stock and what nobody saw enter the
    other hands (jokers are counted, as they are interchangeable)."""
    out = [] if position.get("stock_public") else list(position["stock"])
    for s, hand in enumerate(position["hands"]):
        if s == seat:
            continue
        known = list(position["known"][s])
        for c in hand:
            if c in known:
                known.remove(c)
            else:
                out.append(c)
    mine = _cards(position["hands"][seat])
    free = [j for j in JOKERS if j not in mine]  # the jokers' names are interchangeable
    plain = _cards(c for c in out if c != "JK")
    return plain + free[: sum(1 for c in out if c == "JK")]


def _plus(rest: list[Card], card: Card) -> list[Card]:
    """``rest`` and ``card``; a joker joins under whichever joker name is free."""
    if card >= 52 and card in rest:
        card = next(j for j in JOKERS if j not in rest)
    return [*rest, card]


def _without(hand: list[Card], select: Card) -> list[Card]:
    rest = list(hand)
    rest.remove(next(c for c in rest if c == select or (select >= 52 and c >= 52)))
    return rest


# --- the checks ---------------------------------------------------------------------------------


def _numbers(text: str) -> list[float]:
    return [float(n.replace("−", "-")) for n in NUMBER.findall(text)]


def _figures(value: Any) -> set[float]:
    """Every number a claim may state: its figures, card ranks and their obvious forms."""
    out: set[float] = set()
    if isinstance(value, bool):
        return out
    if isinstance(value, (int, float)):
        out |= {float(value), abs(float(value)), round(100 * float(value))}
    elif isinstance(value, str):
        out |= set(_numbers(value))
    elif isinstance(value, (list, tuple)):
        for v in value:
            out |= _figures(v)
    elif isinstance(value, dict):
        for v in value.values():
            out |= _figures(v)
    return out


def check_words(hint: Hint, data: dict[str, Any], legal_kinds: set[str]) -> None:
    claims = data["claims"]
    # Every sentence is a claim, and every number in it is one of that claim's figures
    # (card ranks such as the 10 in 10♥ count: they are in the claim's inputs).
    assert data["explanation"] == " ".join(c["text"] for c in claims)
    assert data["knock"]["advice"] == " ".join(c["text"] for c in data["knock"]["claims"])
    for claim in [*claims, *data["knock"]["claims"]]:
        allowed = _figures({k: v for k, v in claim.items() if k != "text"})
        allowed |= _figures(re.findall(r"\d+(?=[♠♥♦♣])", claim["text"]))
        for n in _numbers(claim["text"]):
            assert n in allowed or abs(n) in allowed, (n, claim)
    if "knock" not in legal_kinds:
        assert not data["knock"]["legal"] and data["knock"]["wise"] is None
        assert data["knock"]["advice"] == ""
        text = data["explanation"].lower()
        assert "knock" not in text.replace("knocker", ""), text


def check_ranking(hint: Hint, data: dict[str, Any], legal_json: list[dict[str, Any]]) -> None:
    listed = [json.dumps(a["action"], sort_keys=True) for a in data["actions"]]
    assert sorted(listed) == sorted(json.dumps(a, sort_keys=True) for a in legal_json)
    valued = [a for a in data["actions"] if a["value"] is not None]
    assert all(a["value"] is None for a in data["actions"][len(valued) :])  # rated ones first
    values = [a["value"] for a in valued]
    assert values == sorted(values, reverse=True), values  # ranked by value
    if valued:
        assert data["best"] == valued[0]["action"]
        best = hint.actions[0].value
        assert best is not None
        for r in hint.actions[: len(valued)]:
            assert r.value is not None and r.margin is not None
            assert math.isclose(r.margin, r.value - best, abs_tol=1e-9)
        words = {a["confidence"] for a in valued[1:]}
        if data["pot"] is None:
            assert valued[0]["confidence"] in (*BEST_WORDS.values(), "the only move")
            assert words <= set(OTHER_WORDS.values())
            # "Clearly" and "probably" only for a lead of SLIGHT_MARGIN points or more.
            sure_best = (BEST_WORDS["clear"], BEST_WORDS["likely"])
            if valued[0]["confidence"] in sure_best:
                assert best - (hint.actions[1].value or 0.0) >= SLIGHT_MARGIN - 0.05 - 1e-9
            for r in hint.actions[1 : len(valued)]:
                if r.confidence in (OTHER_WORDS["clear"], OTHER_WORDS["likely"]):
                    assert r.margin is not None and r.margin <= -SLIGHT_MARGIN + 0.05 + 1e-9
        lines = hint.ranking_lines(len(valued))
        for line, a in zip(lines, valued, strict=True):
            assert f"{signed_points(a['value'])} points" in line and a["words"] in line
    else:
        assert data["best"] in legal_json


def check_search(hint: Hint, claim: dict[str, Any]) -> None:
    valued = [r for r in hint.actions if r.value is not None]
    assert valued[0].value is not None
    assert claim["value"] == round(valued[0].value, 1)
    assert claim["samples"] == valued[0].samples
    assert claim["confidence"] == valued[0].confidence
    if len(valued) > 1:
        assert valued[1].value is not None
        assert claim["ahead"] == round(valued[0].value - valued[1].value, 1)


def check_search_lead(hint: Hint, data: dict[str, Any], claim: dict[str, Any]) -> None:
    """The search's measure for a best move whose own figures show no gain: its value less
    the best of the moves it weighed that it is set against (every draw for a stand, the
    stock draws for a take, else the next move), as the ranking has them; and whether it
    weighed a stock draw at all (the search weighs only its candidates)."""
    best = data["best"]
    claims = {c["kind"]: c for c in data["claims"]}
    valued = [r for r in hint.actions if r.value is not None]
    assert valued[0].action == best and valued[0].value is not None
    others = valued[1:]
    stock = [r for r in others if r.action.get("source") == "stock"]
    assert claim["stock_weighed"] == bool(stock)
    if best["type"] == "stand":
        f = claims["dk_stand"]
        assert (f["best_take"] or -999) > f["score"] or (f["best_blind"] or -999) > f["score"]
        rivals = [r for r in others if r.action["type"] == "draw"]
        assert "above the best draw it weighed (" in claim["text"]
        assert ("It weighed no blind draw." in claim["text"]) == (not stock), claim["text"]
    else:
        assert best["type"] == "draw" and best["source"] == "discard"
        if "dk_take" in claims:
            f = claims["dk_take"]
            assert f["score_after"] <= f["score_before"], f
            assert f["category_after"] == f["category_before"] and not f["stronger"], f
            assert not f["knock_legal"] or f["knock_after"] >= f["knock_before"], f
        else:
            f = claims["kr_take"]
            assert f["meld"] is None and not f["partners"], f
            assert f["count_after"] >= f["count_before"], f
        rivals = stock or others
        assert ("It weighed no stock draw." in claim["text"]) == (not stock), claim["text"]
    top = max(rivals, key=lambda r: r.value or 0.0)
    assert top.value is not None
    assert claim["against"] == top.action
    assert claim["lead"] == round(valued[0].value - top.value, 1)
    assert f"{claim['lead']:.1f} points above" in claim["text"]
    assert f", {VERDICT_WORDS[claim['sureness']]}." in claim["text"], claim["text"]


def check_lead_said(hint: Hint, data: dict[str, Any]) -> None:
    """A stand whose sentence shows a draw raising the hand's score, and a take whose facts
    show no gain, carry the search's measure (when it weighed a move to set them against):
    neither reads as a reason against the move, nor as a move with no why."""
    best = data["best"]
    claims = {c["kind"]: c for c in data["claims"]}
    valued = [r for r in hint.actions if r.value is not None]
    if best is None or not valued or valued[0].action != best:
        return
    if best["type"] == "stand" and "dk_stand" in claims:
        f = claims["dk_stand"]
        raises = (f["best_take"] or -999) > f["score"] or (f["best_blind"] or -999) > f["score"]
        others = [r for r in valued[1:] if r.action["type"] == "draw"]
    elif best["type"] == "draw" and best.get("source") == "discard":
        if "dk_take" in claims:
            f = claims["dk_take"]
            gain = f["score_after"] > f["score_before"] or f["stronger"]
            gain = gain or f["category_after"] != f["category_before"]
            gain = gain or (f["knock_legal"] and f["knock_after"] < f["knock_before"])
            raises = not gain
        elif "kr_take" in claims:
            f = claims["kr_take"]
            raises = not (f["meld"] or f["partners"] or f["count_after"] < f["count_before"])
        else:
            return
        others = valued[1:]
    else:
        return
    assert ("search_lead" in claims) == bool(raises and others), data["explanation"]


def check_knock_search(hint: Hint, claim: dict[str, Any]) -> None:
    knocks = [r for r in hint.actions if r.value is not None and r.action["type"] == "knock"]
    others = [r for r in hint.actions if r.value is not None and r.action["type"] != "knock"]
    assert hint.knock_wise == claim["wise"]
    if knocks and others:
        k, o = max(r.value or 0 for r in knocks), max(r.value or 0 for r in others)
        assert claim["wise"] == (k >= o)
        assert claim["margin"] == round(abs(k - o), 1)
        assert VERDICT_WORDS[claim["sureness"]] in claim["text"]
        if claim["sureness"] in ("clear", "likely"):
            assert claim["margin"] >= SLIGHT_MARGIN


def _m(figure: object) -> str:
    """A figure as the hints print it: a true minus sign below zero."""
    return str(figure).replace("-", "\N{MINUS SIGN}")


def check_dk_claim(
    claim: dict[str, Any], position: dict[str, Any], seat: int, legal_knock: bool = False
) -> None:
    hand = _cards(position["hands"][seat])
    now = dk_hand.evaluate(hand)
    pile = _cards(position["discard"])
    kind = claim["kind"]
    if kind == "dk_take":
        taken = pile[-1] if claim["source"] == "discard" else pile[-2]
        assert str(taken) == claim["taken"]
        after = dk_hand.evaluate(_plus(_without(hand, parse_card(claim["select"])), taken))
        assert (claim["score_before"], claim["deadwood_before"]) == (
            now.score,
            now.deadwood_points,
        )
        assert (claim["score_after"], claim["deadwood_after"], claim["category_after"]) == (
            after.score,
            after.deadwood_points,
            after.category,
        )
        assert claim["category_before"] == now.category
        turns = "stays" if after.category == now.category else "becomes"
        assert f"your hand {turns} {dk_hand.CATEGORY_WORDS[after.category]}," in claim["text"]
        assert f"score {_m(now.score)} → {_m(after.score)}" in claim["text"]
        assert (claim["knock_before"], claim["knock_after"]) == (now.knock_count, after.knock_count)
        assert claim["stronger"] == (after.strength > now.strength)
        # A take that raises neither the score nor the category says what else it does.
        plain = after.score <= now.score and after.category == now.category
        pot = "beats the one you hold" in claim["text"]
        assert pot == (plain and after.strength > now.strength), claim["text"]
        # The knock count only where a knock is legal (no sentence mentions it otherwise).
        assert claim["knock_legal"] == legal_knock
        knock = f"knock count {_m(now.knock_count)} → {_m(after.knock_count)}"
        moved = now.knock_count != after.knock_count
        assert (knock in claim["text"]) == (plain and legal_knock and moved)
    elif kind == "dk_role":
        card = parse_card(claim["card"])
        mine = [c for c in hand if c == card or (card >= 52 and c >= 52)]
        in_deadwood = any(c in now.deadwood for c in mine)
        assert claim["in_deadwood"] == in_deadwood
        assert claim["worth"] == dk_hand.card_value(mine[0])
        # A kicker, counted here from the ranks of the poker hand.
        kicker = (
            not in_deadwood
            and now.category in ("pair", "two_pair", "three_of_a_kind", "four_of_a_kind")
            and [c.rank for c in now.poker_hand].count(card.rank) == 1
        )
        assert claim["kicker"] == kicker
        words = dk_hand.CATEGORY_WORDS[now.category]
        # A joker is never in a legal poker hand (DK3), asked of the engine.
        others = [c for c in now.poker_hand if c != mine[0]][:4]
        joker = not dk_hand.is_legal_poker_hand([mine[0], *others])
        assert claim["joker"] == joker
        # The score before and without the card, from the engine; a joker's discard
        # states its cost (its −2 raised the score), never a reason to throw it.
        seven = dk_hand.evaluate(_without(hand, mine[0])).score
        assert (claim["score"], claim["score_without"]) == (now.score, seven)
        cost = (
            f", so throwing it lowers your score by {now.score - seven} before the draw "
            f"({_m(now.score)} → {_m(seven)})"
        )
        assert (cost in claim["text"]) == (joker and in_deadwood)
        if joker:
            assert now.score - seven == 2
        assert "can never join the poker hand" not in claim["text"]
        if in_deadwood:
            assert f"counts {_m(dk_hand.card_value(mine[0]))} in your deadwood" in claim["text"]
        elif kicker:
            assert f"is a kicker in your poker hand ({words})" in claim["text"]
        else:
            # What the hand is without the card: the engine's own reading of the seven.
            rest = dk_hand.evaluate(_without(hand, mine[0])).category
            assert claim["category_without"] == rest
            kept = "still" if rest == now.category else "only"
            assert (
                f" is in your poker hand ({words}), which is {kept} "
                f"{dk_hand.CATEGORY_WORDS[rest]} without it" in claim["text"]
            )
    elif kind == "dk_blind_draw":
        unseen = unseen_of("deadwood-knock", position, seat)
        rest = _without(hand, parse_card(claim["select"]))
        scores = [dk_hand.evaluate([*rest, x]).score for x in unseen]
        assert claim["unseen"] == len(unseen)
        assert claim["mean"] == round(sum(scores) / len(scores), 1)
        assert claim["raise"] == sum(1 for s in scores if s > now.score)
        assert claim["score_now"] == now.score
        assert f"averages {_m(f'{sum(scores) / len(scores):.1f}')}" in claim["text"]
    elif kind == "dk_now":
        assert (claim["score"], claim["hand_points"], claim["deadwood"]) == (
            now.score,
            now.hand_points,
            now.deadwood_points,
        )
        # Below zero (jokers) the deadwood adds, in the showdown's words.
        d = now.deadwood_points
        dw = f"− {d} deadwood" if d >= 0 else f"+ {-d} deadwood (jokers count {_m(-2)})"
        assert f"{now.hand_points} {dw} = {_m(now.score)}" in (claim["text"])
    elif kind == "dk_knock_count":
        assert claim["knock_count"] == now.knock_count <= dk_hand.KNOCK_LIMIT == claim["limit"]
        assert claim["legal"] is True
    elif kind == "dk_stand":
        unseen = unseen_of("deadwood-knock", position, seat)
        assert claim["score"] == now.score
        if pile:
            best = max(dk_hand.evaluate(_plus(_without(hand, s), pile[-1])).score for s in hand)
            assert claim["best_take"] == best
        blind = max(
            round(
                sum(dk_hand.evaluate([*_without(hand, s), x]).score for x in unseen) / len(unseen),
                1,
            )
            for s in hand
        )
        assert claim["best_blind"] == blind
        assert claim["unseen"] == len(unseen)
        # What would raise the hand's score is never listed as a reason to stand: it comes
        # after "On your hand's score alone a draw does better".
        text = claim["text"]
        head, _, alone = text.partition(" On your hand's score alone a draw does better: ")
        take = pile and claim["best_take"] is not None
        if take:
            said = f"taking {pile[-1].pretty()} would make it at best {_m(claim['best_take'])}"
            assert said in (alone if claim["best_take"] > now.score else head), text
        said = f"a blind draw averages at best {_m(f'{blind:.1f}')} over the {len(unseen)} cards"
        assert said in (alone if blind > now.score else head), text
        assert bool(alone) == (blind > now.score or (take and claim["best_take"] > now.score))
    elif kind == "dk_palm":
        assert (claim["cover"], claim["buried"]) == (str(pile[-1]), str(pile[-2]))
        assert claim["suspicion"] == dk_rules.SUSPICION
    elif kind == "rule":
        assert claim["pot"] == dk_rules.POT_ANTE
    elif kind not in ("search", "pot", "knock_search"):
        raise AssertionError(f"unchecked claim {kind}")


def _is_meld(cards: list[Card], high_aces: bool) -> bool:
    if len(cards) < 3:
        return False
    if len({c % 13 for c in cards}) == 1:
        return len(cards) <= 4
    if len({c // 13 for c in cards}) != 1:
        return False
    ranks = sorted(c % 13 for c in cards)
    if ranks == list(range(ranks[0], ranks[0] + len(ranks))):
        return True
    # Q-K-A with high aces (the ace counted above the king).
    shifted = sorted(13 if r == 0 else r for r in ranks)
    return high_aces and shifted == list(range(shifted[0], shifted[0] + len(shifted)))


def check_kr_claim(claim: dict[str, Any], position: dict[str, Any], seat: int) -> None:
    hand = _cards(position["hands"][seat])
    opts = position["options"]
    high = bool(opts["high_aces"])

    def count(cards: list[Card]) -> int:
        return int(kr_melds.count(cards, high_aces=high))

    kind = claim["kind"]
    if kind == "kr_take":
        top = _cards(position["discard_pile"])[-1]
        assert claim["taken"] == str(top)
        assert claim["count_before"] == count(hand)
        best = min(count([*(x for x in hand if x != d), top]) for d in hand)
        assert claim["count_after"] == best
        thrown = parse_card(claim["discard"])
        kept = [*(x for x in hand if x != thrown), top]
        assert count(kept) == best
        # The held cards one unseen card from a meld with the taken one; of the discards
        # leaving the lowest count, one of them is thrown only if all are.
        unseen = [x for x in unseen_of(position["game"], position, seat) if not x.is_joker]
        linked = {p for p in hand if any(count([top, p, x]) == 0 for x in unseen)}
        lowest = [d for d in hand if count([*(x for x in hand if x != d), top]) == best]
        assert (thrown in linked) == all(d in linked for d in lowest)
        if claim["meld"] is not None:
            meld = _cards(claim["meld"])
            assert top in meld and set(meld) <= set(kept) and _is_meld(meld, high)
            assert claim["partners"] == []
        else:
            assert "makes a meld" not in claim["text"]
            assert claim["partners"] == [str(p) for p in kept if p in linked]
            if claim["partners"]:
                assert "is one card from a meld with" in claim["text"]
    elif kind == "kr_stock":
        unseen = unseen_of(position["game"], position, seat)
        now = count(hand)
        assert claim["count"] == now and claim["unseen"] == len(unseen)
        lower = sum(
            1
            for x in unseen
            if min(count([*hand, x][:i] + [*hand, x][i + 1 :]) for i in range(len(hand) + 1)) < now
        )
        assert claim["lower"] == lower
        after = [
            min(count([*hand, x][:i] + [*hand, x][i + 1 :]) for i in range(len(hand) + 1))
            for x in unseen
        ]
        assert claim["mean"] == (round(sum(after) / len(after), 1) if after else None)
        pile = _cards(position["discard_pile"])
        if pile:
            assert claim["with_top"] == min(
                count([*(x for x in hand if x != d), pile[-1]]) for d in hand
            )
    elif kind == "kr_throw":
        card = parse_card(claim["card"])
        left = count([x for x in hand if x != card])
        assert claim["count_after"] == left
        assert claim["worth"] == kr_melds.card_value(card)
        assert claim["deadwood"] == (left + kr_melds.card_value(card) == count(hand))
        assert f"your count goes to {left}" in claim["text"]
    elif kind == "kr_limit":
        assert claim["gin"] == bool(opts["gin"])
        expected = kr_rules.GIN_LIMIT if opts["gin"] else opts["knock_limit"]
        assert claim["limit"] == expected
        assert (claim["penalty"], claim["bonus"]) == (kr_rules.KNOCK_PENALTY, kr_rules.GIN_BONUS)
        thrown = parse_card(claim["card"])
        gin_hand = bool(opts["gin"]) and count([x for x in hand if x != thrown]) == 0
        assert claim["going_gin"] == gin_hand
        # Gin takes no lay-offs and cannot be undercut (KR8): the words must not say so.
        if gin_hand:
            assert "That is gin" in claim["text"] and "lay off" in claim["text"], claim["text"]
            assert "undercut" not in claim["text"], claim["text"]
        elif opts["gin"]:
            assert "undercut you" in claim["text"], claim["text"]
    elif kind == "kr_rummy":
        kept = [x for x in hand if claim["card"] is None or x != parse_card(claim["card"])]
        assert claim["count"] == count(kept) == 0 and claim["bonus"] == kr_rules.RUMMY_BONUS
    elif kind not in ("search", "knock_search"):
        raise AssertionError(f"unchecked claim {kind}")


def estimate_pot(game: Game[Any, Any], state: Any, seat: int, deals: int) -> tuple[float, float]:
    """The chance and the call's value against the table, through the engine alone, on
    the deals Hand Focus prices the pot on (``hints.pot_dealer``, the inference model's):
    each deal's hands and stock are put into the engine's
    determinized state, deals where the knocker could not have knocked are dropped, then
    the seat calls, those still to answer fold, and the engine's round result gives the
    pot."""
    obs = game.observe(state, seat)
    rng = random.Random(99)
    knocker = obs.knocker
    dealer = pot_dealer(view_of(obs, game.name))
    shares: list[float] = []
    values: list[float] = []
    while len(shares) < deals:
        hands, rest = dealer.deal(rng)
        if dk_hand.knock_count(hands[knocker]) > dk_hand.KNOCK_LIMIT:
            continue
        sample = dataclasses.replace(
            dk_rules.determinize(obs, rng),
            hands=tuple(tuple(sorted(h)) for h in hands),
            stock=tuple(rest),
        )
        s, events = game.apply(sample, dk_rules.Call())
        while not any(e.kind == "round_result" for e in events):
            s, events = game.apply(s, dk_rules.Fold())
        result = next(e for e in events if e.kind == "round_result").data
        pot = result["pot"]
        ins = 1 + sum(1 for x in result["calls"] if x == "call")
        shares.append((pot[seat] + dk_rules.POT_ANTE) / (dk_rules.POT_ANTE * ins))
        others = [p for i, p in enumerate(pot) if i != seat]
        values.append(pot[seat] - sum(others) / len(others))
    return sum(shares) / deals, sum(values) / deals


# --- the test ---------------------------------------------------------------------------------


@pytest.mark.parametrize("game_name", ["deadwood-knock", "knock-rummy", "gin"])
def test_every_hint_is_checked_fact_ranked_by_value(game_name: str) -> None:
    kinds_seen: set[str] = set()
    knock_legal = knock_illegal = pots = 0
    for n, (game, state) in enumerate(positions(game_name, POSITIONS, seed=20261130)):
        seat = game.to_act(state)
        obs = game.observe(state, seat)
        legal_json = [a.to_json() for a in game.legal_actions(state)]
        hint = hand_focus(game, obs, SEARCH, seed=n, pot_deals=POT_DEALS)
        data = json.loads(json.dumps(hint.to_json()))
        kinds = {a["type"] for a in legal_json}
        knock_legal += "knock" in kinds
        knock_illegal += "knock" not in kinds
        check_words(hint, data, kinds)
        check_ranking(hint, data, legal_json)
        check_lead_said(hint, data)
        position = game.position_to_json(state)
        for claim in [*data["claims"], *data["knock"]["claims"]]:
            kinds_seen.add(claim["kind"])
            if claim["kind"] == "search":
                check_search(hint, claim)
            elif claim["kind"] == "search_lead":
                check_search_lead(hint, data, claim)
            elif claim["kind"] == "knock_search":
                check_knock_search(hint, claim)
            elif game_name == "deadwood-knock":
                check_dk_claim(claim, position, seat, "knock" in kinds)
            else:
                check_kr_claim(claim, position, seat)
        if data["pot"] is not None:
            pot = data["pot"]
            assert data["best"]["type"] == ("call" if pot["call"] >= pot["fold"] else "fold")
            assert share_words(pot["chance"], pot["deals"]) in data["explanation"]
            (claim,) = data["claims"]
            # Calling stakes the ante and takes the others' antes (the showdown's
            # "+ 20 pot" with three in it), not the whole pot with your own.
            assert claim["ante"] == dk_rules.POT_ANTE and claim["risk"] == 10
            assert claim["win"] == 10 * (pot["in_pot"] - 1)
            assert f"Calling risks 10 to win {claim['win']}: " in data["explanation"]
            # The percentage said is the chance's (a bound of 1 or 99 at the ends).
            said = claim["percent"]
            assert said is None or abs(said - 100 * claim["chance"]) < 1, claim
            assert (said is None) == (claim["chance"] in (0.0, 1.0)), claim
            # "If the players still to answer fold" only when someone is still to answer.
            calls, knocker = position["calls"], position["knocker"]
            pending = sum(1 for s, c in enumerate(calls) if s not in (seat, knocker) and c is None)
            assert claim["pending"] == pending
            assert ("still to answer" in data["explanation"]) == (pending > 0)
            assert claim["callers"] == pot["in_pot"] - 2
            assert claim["category"] == dk_hand.evaluate(_cards(obs.hand)).category
            if pots < POT_CHECKS:
                pots += 1
                chance, value = estimate_pot(game, state, seat, 300)
                # Two independent estimates of one mean: within 4.5 standard errors.
                se = math.sqrt(max(chance * (1 - chance), 0.02) * (1 / pot["deals"] + 1 / 300))
                assert abs(chance - pot["chance"]) <= 4.5 * se + 0.01, (chance, pot)
                spread = 10.0 * (pot["in_pot"] + 1)
                assert abs(value - pot["call"]) <= 4.5 * spread * se + 0.5, (value, pot)
    # The run covered every kind of claim and both sides of the knock rule.
    expected = {
        "deadwood-knock": {"dk_take", "dk_role", "dk_blind_draw", "dk_knock_count", "dk_now",
                           "dk_stand", "dk_palm", "rule", "search", "pot", "knock_search",
                           "search_lead"},
        "knock-rummy": {"kr_take", "kr_stock", "kr_throw", "kr_limit", "kr_rummy", "search",
                        "knock_search", "search_lead"},
        "gin": {"kr_take", "kr_stock", "kr_throw", "kr_limit", "search", "knock_search",
                "search_lead"},
    }[game_name]  # fmt: skip
    assert expected <= kinds_seen, expected - kinds_seen
    assert knock_legal > 50 and knock_illegal > 50
    if game_name == "deadwood-knock":
        assert pots == POT_CHECKS


def test_call_advice_states_the_chance_and_calls_a_flush_against_a_lone_knocker() -> None:
    # Issue #13: fold was advised with a flush against a lone knocker holding a pair.
    from deadwood_knock.cards import DECK_54

    game = get_game("deadwood-knock")
    hands = ["2h 5h 8h Jh Kh 3c 4d 9s".split(), "Ac Ad 4s 6c 7d 2s 3s 5d".split()]
    used = {c for h in hands for c in h} | {"Qs"}
    stock = [str(c) for c in DECK_54[:52] if str(c) not in used] + ["JK", "JK"]
    position = {"options": {"players": 2}, "hands": hands, "discard": ["Qs"], "stock": stock}
    start = game.position_from_json(position)  # seat 1 (the dealer's left) acts first
    # A knock once both have played (a pair of aces, knock count 9), and the same knock
    # before seat 0 has moved, which the trail's characters make only with a strong hand:
    # the chance is lower there (0.58 against 0.61), and calling is still the advice.
    later, _ = game.apply(start, dk_rules.Draw(parse_card("5d"), "discard"))  # takes Qs
    later, _ = game.apply(later, dk_rules.Draw(parse_card("3c"), "discard"))  # takes 5d
    chances = []
    for state in (later, start):
        state, _ = game.apply(state, dk_rules.Knock())
        state, _ = game.apply(state, dk_rules.Stand())  # seat 0's final turn
        assert game.to_act(state) == 0
        assert {a.kind for a in game.legal_actions(state)} == {"call", "fold"}
        hint = hand_focus(game, game.observe(state, 0), seed=3)
        assert hint.best == {"type": "call"}
        assert hint.pot is not None and hint.pot.chance > 0.5, hint.pot
        chances.append(hint.pot.chance)
        words = share_words(hint.pot.chance, hint.pot.deals)
        assert words in hint.explanation and "a flush" in hint.explanation
        assert hint.knock_advice == "" and not hint.knock_legal
    assert chances[1] < chances[0], chances


# --- the false sentences of issue #13, one by one ------------------------------------------------


def _dk_obs(hand: str, pile: str, **extra: Any) -> dict[str, Any]:
    cards = hand.split()
    return {
        "game": "deadwood-knock",
        "seat": 0,
        "players": 2,
        "phase": "play",
        "to_act": 0,
        "hand": cards,
        "discard_pile": pile.split(),
        "stock_size": 54 - 16 - len(pile.split()),
        "hand_sizes": [8, 8],
        "known_cards": [[], []],
        "events": [],
        **extra,
    }


def test_figures_below_zero_read_with_a_true_minus_and_deadwood_that_adds() -> None:
    """Jokers take deadwood, and so a score, below zero: "deadwood 2 → −2" (was "-2"), and
    a knock's sum "50 + 3 deadwood (jokers count −2) = 53", the showdown's words (was
    "50 − -3 deadwood", then "50 − (−3) deadwood")."""
    from deadwood_knock.bots.hints import explain
    from deadwood_knock.bots.view import view_of
    from deadwood_knock.games.deadwood_knock import Knock

    hand = "4h 5h 6h 7h 8s JK JK Ac"
    now = dk_hand.evaluate(_cards(hand.split()))
    assert now.deadwood_points == -3 and now.category == "straight"
    obs = _dk_obs(hand, "5c", legal_actions=[{"type": "knock"}])
    text = explain("deadwood-knock", view_of(obs), Knock())
    want = f"scores {now.hand_points} + 3 deadwood (jokers count −2) = {now.score} now."
    assert want in text, text
    assert " -" not in text and "(-" not in text


def test_discarding_a_joker_is_never_said_to_cut_deadwood() -> None:
    from deadwood_knock.bots.hints import explain
    from deadwood_knock.bots.view import view_of
    from deadwood_knock.games.deadwood_knock import Draw

    view = view_of(_dk_obs("As Ah 7c 7d Kd 2s JK 9h", "5c"))
    text = explain("deadwood-knock", view, Draw(parse_card("JK"), "stock"))
    assert "Joker counts −2 in your deadwood" in text
    assert "cut" not in text
    # Its cost, before the draw: the joker's −2 raised the score (issue 17, Deadwood Knock
    # seventeenth pass; it said "and can never join the poker hand", read as a reason).
    now = dk_hand.evaluate(_cards("As Ah 7c 7d Kd 2s JK 9h".split())).score
    want = f"so throwing it lowers your score by 2 before the draw ({_m(now)} → {_m(now - 2)})"
    assert want in text, text
    assert "never join" not in text


def test_a_kicker_is_named_as_one_and_a_kept_category_stays() -> None:
    """Discarding the spare card of two pair does not break the poker hand, and a take
    that leaves the category as it was does not "become" it (both read in play: "10♠ is in
    your poker hand (two pair)", "your hand becomes a straight, score 45 → 45")."""
    from deadwood_knock.bots.hints import explain
    from deadwood_knock.bots.view import view_of
    from deadwood_knock.games.deadwood_knock import Draw

    two_pair = view_of(_dk_obs("Qd Qc 3h 3d 10s 5d 9d 8c", "2c"))
    text = explain("deadwood-knock", two_pair, Draw(parse_card("10s"), "stock"))
    assert "10♠ is a kicker in your poker hand (two pair)" in text
    paired = explain("deadwood-knock", two_pair, Draw(parse_card("Qd"), "stock"))
    assert "Q♦ is in your poker hand (two pair), which is only a pair without it" in paired
    assert "kicker" not in paired
    # A joker is never in the poker hand (RULINGS DK3): never a kicker, whatever the hand.
    wild = view_of(_dk_obs("Ks Kh JK 9s 2h 7c 5d 4c", "2c"))
    assert "kicker" not in explain("deadwood-knock", wild, Draw(parse_card("JK"), "stock"))
    # A straight that takes a card and is still a straight stays one.
    straight = view_of(_dk_obs("9c 10d Jh Qs Kd 2s 4h 7h", "7s"))
    kept = explain("deadwood-knock", straight, Draw(parse_card("7h"), "discard"))
    assert kept.startswith("Discard 7♥ and take 7♠ from the pile: your hand stays a straight")
    full = view_of(_dk_obs("Qd Qc 3h 3d 10s 5d 9d 8c", "3c"))
    made = explain("deadwood-knock", full, Draw(parse_card("10s"), "discard"))
    assert made.startswith("Discard 10♠ and take 3♣ from the pile: your hand becomes a full house")


def _kr_draw_obs(game: str, hand: str, top: str) -> dict[str, Any]:
    """A two-player Knock Rummy / Gin observation at the draw step."""
    return {
        "game": game,
        "options": {"gin": game == "gin"},
        "seat": 0,
        "players": 2,
        "phase": "draw",
        "to_act": 0,
        "hand": hand.split(),
        "discard_pile": [top],
        "stock_size": 31,
        "hand_sizes": [10, 10],
        "known_cards": [[], []],
        "events": [],
    }


def test_a_card_of_the_poker_hand_thrown_away_says_what_the_hand_keeps_without_it() -> None:
    """Read in play at 360 px: "Discard 6♦ and draw from the stock: 6♦ is in your poker hand
    (high card)." stood alone as the reason to throw a card of the poker hand away. The
    hint now says what the seven cards left still make."""
    from deadwood_knock.bots.hints import explain
    from deadwood_knock.bots.view import view_of
    from deadwood_knock.games.deadwood_knock import Draw

    high = view_of(_dk_obs("Qs Js 10c 9d 6d Ah 2h 3d", "Jc"))
    text = explain("deadwood-knock", high, Draw(parse_card("6d"), "stock"))
    assert "6♦ is in your poker hand (high card), which is still high card without it" in text
    flush = view_of(_dk_obs("2h 5h 9h Jh Kh Ac 3d 7s", "Jc"))
    text = explain("deadwood-knock", flush, Draw(parse_card("9h"), "stock"))
    assert "9♥ is in your poker hand (a flush), which is only high card without it" in text


def test_a_take_that_makes_no_meld_does_not_say_so() -> None:
    from deadwood_knock.bots.hints import explain
    from deadwood_knock.bots.view import view_of
    from deadwood_knock.games.knock_rummy import Draw

    obs = _kr_draw_obs("knock-rummy", "2s 5h 9d Kc Qh 3c 4d Jd 4h 6c", "7s")
    lonely = explain("knock-rummy", view_of(obs), Draw("discard"))
    assert "meld" not in lonely and lonely.startswith("Take 7♠ from the discard pile: your count")
    obs["discard_pile"] = ["Qs"]  # a second queen: a pair, still no meld
    pair = explain("knock-rummy", view_of(obs), Draw("discard"))
    assert "makes a meld" not in pair and "Q♠ is one card from a meld with Q♥" in pair, pair
    obs["hand"] = "2s 5h 9d Kc Qh Qd 8s Jd 4h 6c".split()
    melded = explain("knock-rummy", view_of(obs), Draw("discard"))
    assert "it makes a meld (Q♠ Q♥ Q♦)" in melded or "it makes a meld (Q♥ Q♦ Q♠)" in melded


def test_a_take_keeps_the_card_it_was_taken_for() -> None:
    """Of the discards that leave the lowest count, a take throws one the taken card is a
    card from a meld with only if all of them are (read in play: "Take 9♣ ... after you
    discard 8♣" with 8♥ leaving the same count: with 7♣ or 10♣ unseen that throws the card
    the 9♣ builds with), and says what it builds."""
    from deadwood_knock.bots.hints import explain
    from deadwood_knock.bots.view import view_of
    from deadwood_knock.games.knock_rummy import Draw

    # 8♥ and 8♣ both leave the lowest count; 8♣ is one card (7♣ or 10♣) from a run with 9♣.
    obs = _kr_draw_obs("gin", "As 3s 4s Qs 8h Qh 2d 5d 8c Qc", "9c")
    text = explain("gin", view_of(obs), Draw("discard"))
    assert "after you discard 8♥; 9♣ is one card from a meld with 8♣." in text, text
    # With 7♣ and 10♣ both gone, the 8♣ builds nothing and either 8 may go.
    obs["known_cards"] = [[], ["7c", "Tc"]]
    text = explain("gin", view_of(obs), Draw("discard"))
    assert "one card from a meld" not in text, text


def test_an_unchanged_count_is_said_to_stay() -> None:
    from deadwood_knock.bots.hints import explain
    from deadwood_knock.bots.view import view_of
    from deadwood_knock.games.knock_rummy import Draw

    obs = _kr_draw_obs("gin", "Ks Kh Kd 2c 3c 4c 9s 9h Jd Qs", "Qc")
    text = explain("gin", view_of(obs), Draw("discard"))
    before = kr_melds.count(_cards(obs["hand"]))
    assert f"your count stays {before}" in text and "makes a meld" not in text


@pytest.mark.parametrize("phase", ["final", "call"])
def test_no_knock_advice_on_final_turns_or_calls(phase: str) -> None:
    game = get_game("deadwood-knock")
    hands = ["2h 5h 8h Jh Kh 3c 4d 9s".split(), "Ac Ad 4s 6c 7d 2s 3s 5d".split()]
    used = {c for h in hands for c in h} | {"Qs"}
    from deadwood_knock.cards import DECK_54

    stock = [str(c) for c in DECK_54[:52] if str(c) not in used] + ["JK", "JK"]
    state = game.position_from_json(
        {"options": {"players": 2}, "hands": hands, "discard": ["Qs"], "stock": stock}
    )
    state, _ = game.apply(state, dk_rules.Knock())
    if phase == "call":
        state, _ = game.apply(state, dk_rules.Stand())
    hint = hand_focus(game, game.observe(state, 0), Budget(iterations=6), seed=1)
    assert game.observe(state, 0).evaluation.knock_count <= dk_hand.KNOCK_LIMIT  # could knock
    assert not hint.knock_legal and hint.knock_wise is None and hint.knock_advice == ""
    assert "knock" not in hint.explanation.replace("knocker", "").lower()
    off_turn = hand_focus(game, game.observe(state, 1))
    assert off_turn.best is None and off_turn.actions == () and off_turn.knock_advice == ""


def test_the_best_move_never_scores_below_one_listed_under_it() -> None:
    # Issue #13: "1. discard J♣ (+44.9) ← best / 2. discard 2♦ (+47.5)".
    game = get_game("deadwood-knock")
    for seed in range(6):
        state = game.new_game(game.options_from_json({"players": 3}), seed)
        hint = hand_focus(game, game.observe(state, game.to_act(state)), Budget(iterations=40))
        values = [r.value for r in hint.actions if r.value is not None]
        assert values == sorted(values, reverse=True) and len(values) >= 3
        assert hint.best == hint.actions[0].action
        lines = hint.ranking_lines()
        assert lines[0].startswith("1. ") and "best" in lines[0]
        assert all(
            f"{signed_points(v)} points" in line for v, line in zip(values, lines, strict=False)
        )


def test_confidence_words_follow_the_paired_margin() -> None:
    from deadwood_knock.bots.hints import confidence_words, sureness

    steady = [3.0, 2.5, 3.5, 3.0, 2.8, 3.2]  # always ahead by about 3: clear
    noisy = [30.0, -28.0, 25.0, -26.0, 1.0, 2.0]  # ahead on average, within the noise
    assert sureness(steady) == "clear" and confidence_words(steady, best=True) == "clearly best"
    assert sureness(noisy) == "close" and confidence_words(noisy, best=False) == "too close to call"
    likely = [4.0, -1.0, 3.0, 0.5, 2.0, -0.5, 1.5, 0.0]  # z between 1 and 2
    assert sureness(likely) == "likely"
    assert confidence_words(likely, best=False) == "probably worse"
    assert sureness([1.0]) == "close"  # one sample says nothing
    # Surely ahead, but by a tenth of a point: "by a hair", not "clearly".
    hair = [0.0] * 30 + [1.0, 2.0, 1.0]
    assert sureness(hair) == "slight"
    assert confidence_words(hair, best=True) == "best by a hair"
    assert confidence_words(hair, best=False) == "a hair worse"
    # The player reads one decimal: 0.96 ahead shows as 1.0, a point, so not a hair.
    assert sureness([0.96] * 10 + [0.95, 0.97]) == "clear"
    assert sureness([0.94] * 10 + [0.93, 0.95]) == "slight"


# --- the call chance against what calling really takes ------------------------------------------

CHARACTERS = (
    "tenderfoot", "greenhorn", "regular", "sharp", "high_roller", "legend",
    "flush-chaser", "set-collector", "straight-shooter", "bean-counter", "cautious", "gambler",
)  # fmt: skip
CALIBRATION_CALLS = 200  # at 120 the mean share taken still moved by 2 standard errors


def call_positions(count: int, seed: int) -> Iterator[tuple[Game[Any, Any], Any, int, float]]:
    """Call-or-fold positions of seeded tables of the trail's characters (2 to 6 players),
    each with the share of the pot the seat really takes if it calls and the players
    still to answer fold, settled by the engine on the real hands."""
    game = get_game("deadwood-knock")
    rng = random.Random(seed)
    bots = {name: get_bot(name) for name in CHARACTERS}
    made = 0
    while made < count:
        n = rng.choice([2, 3, 4, 4, 5, 6])
        players = [rng.choice(CHARACTERS) for _ in range(n)]
        state = game.new_game(game.options_from_json({"players": n}), rng.getrandbits(40))
        while not game.is_over(state) and made < count:
            seat = game.to_act(state)
            legal = game.legal_actions(state)
            obs = game.observe(state, seat)
            if any(a.kind == "call" for a in legal):
                s, events = game.apply(state, dk_rules.Call())
                while not any(e.kind == "round_result" for e in events):
                    s, events = game.apply(s, dk_rules.Fold())
                result = next(e for e in events if e.kind == "round_result").data
                ins = 1 + sum(1 for x in result["calls"] if x == "call")
                made += 1
                yield (
                    game,
                    state,
                    seat,
                    (result["pot"][seat] + dk_rules.POT_ANTE) / (dk_rules.POT_ANTE * ins),
                )
            state, _ = game.apply(state, bots[players[seat]].act(game, obs, legal, rng))


def test_the_call_chance_matches_what_calling_takes_at_the_characters_tables() -> None:
    """The chance Hand Focus states ("takes the pot in about 46% of 150 deals") is the
    share of the pot calling really takes, over positions it never saw: the mean and
    each well-filled tenth agree, and it is far closer than pricing on uniform deals
    (which said 0.68 where calling took 0.45)."""
    from deadwood_knock.bots.dk import pot_outlook

    said: list[float] = []
    uniform: list[float] = []
    taken: list[float] = []
    for game, state, seat, share in call_positions(CALIBRATION_CALLS, seed=4242):
        obs = game.observe(state, seat)
        hint = hand_focus(game, obs, SEARCH, seed=len(taken), pot_deals=POT_DEALS)
        assert hint.pot is not None
        assert share_words(hint.pot.chance, POT_DEALS) in hint.explanation
        said.append(hint.pot.chance)
        uniform.append(pot_outlook(view_of(obs, game.name), random.Random(0), POT_DEALS).chance)
        taken.append(share)
    n = len(taken)
    mean_said, mean_taken = sum(said) / n, sum(taken) / n
    assert abs(mean_said - mean_taken) <= 0.08, (mean_said, mean_taken)
    brier = sum((p - t) ** 2 for p, t in zip(said, taken, strict=True)) / n
    brier_uniform = sum((p - t) ** 2 for p, t in zip(uniform, taken, strict=True)) / n
    assert brier < brier_uniform - 0.03, (brier, brier_uniform)
    bins: dict[int, list[tuple[float, float]]] = {}
    for p, t in zip(said, taken, strict=True):
        bins.setdefault(min(4, int(p * 5)), []).append((p, t))
    for b, pairs in bins.items():
        if len(pairs) >= 20:
            gap = sum(p for p, _ in pairs) / len(pairs) - sum(t for _, t in pairs) / len(pairs)
            # 2.5 binomial standard errors of the bin's mean share, at least 0.1.
            assert abs(gap) <= max(0.1, 2.5 * 0.5 / math.sqrt(len(pairs))), (b, len(pairs), gap)


def test_the_pot_hint_keeps_to_its_time_and_says_how_many_deals_it_used() -> None:
    """Out of time, the pot is priced on MIN_POT_DEALS deals and the words say so; with no
    time limit, on every deal asked for."""
    from deadwood_knock.bots.dk import MIN_POT_DEALS

    game, state, seat, _share = next(call_positions(1, seed=5))
    obs = game.observe(state, seat)
    rushed = hand_focus(game, obs, Budget(seconds=0.0), seed=1, pot_deals=400)
    assert rushed.pot is not None and rushed.pot.deals == MIN_POT_DEALS
    words = share_words(rushed.pot.chance, MIN_POT_DEALS)
    assert f"{words} of the cards you have not seen" in rushed.explanation
    full = hand_focus(game, obs, SEARCH, seed=1, pot_deals=400)
    assert full.pot is not None and full.pot.deals == 400
    assert f"{share_words(full.pot.chance, 400)} of the cards" in full.explanation


def test_a_gin_knock_at_count_zero_is_explained_as_gin_not_as_a_knock() -> None:
    """Gin (count 0) takes no lay-offs and cannot be undercut (KR8), so its hint says what
    gin scores; a Gin knock above 0 keeps the knock's rule (lay-offs, undercut)."""
    from bot_positions import played
    from deadwood_knock.bots.hints import explain

    seen = {"gin": 0, "knock": 0}
    for seed in range(60):
        game, state = played(
            "gin",
            {},
            seed,
            400,
            until=lambda g, s: any(a.kind == "knock" for a in g.legal_actions(s)) or g.is_over(s),
        )
        if game.is_over(state):
            continue
        seat = game.to_act(state)
        view = view_of(game.observe(state, seat), game.name)
        for action in game.legal_actions(state):
            if action.kind != "knock":
                continue
            words = explain(game.name, view, action)
            if "your count goes to 0" in words:
                seen["gin"] += 1
                assert "That is gin: the other player may not lay off" in words, words
                assert "undercut" not in words, words
            else:
                seen["knock"] += 1
                assert "undercut you for" in words, words
    assert seen["knock"] >= 10 and seen["gin"] >= 1, seen


def test_a_search_over_one_deal_says_one_deal() -> None:
    """A hint cut short by a busy machine can rest on a single deal (seen in the browser:
    "over 1 deals"); the count reads as English either way."""
    from deadwood_knock.bots.hints import RankedAction, _search_claim

    ranked = [
        RankedAction({"type": "stand"}, 28.0, 1, confidence="best, a close call"),
        RankedAction({"type": "knock"}, 27.0, 1),
    ]
    one = _search_claim(ranked, "against the table")
    assert one is not None
    assert "over 1 deal," in one.text and "1 deals" not in one.text
    many = _search_claim([RankedAction({"type": "stand"}, 28.0, 300)], "against the table")
    assert many is not None and "over 300 deals." in many.text


# --- a hint's words never argue against its move ----------------------------------------------

#: A final turn (seat 3, after seat 0's knock) where a pile take and a blind draw both raise
#: the hand's score (a pair of sixes, 0: taking 4♦ makes two pair, 10; a blind draw averages
#: 7.0 at best), and the search still ranks standing first (its values count the pot and the
#: other players' scores: a better hand calls more often and loses the pot to the knocker).
STAND_POSITION: dict[str, Any] = {
    "options": {"players": 4, "sleight_of_hand": True},
    "round": 3,
    "phase": "final",
    "to_act": 3,
    "knocker": 0,
    "hands": [
        "5h Ad 2d 5d 9d 4c 7c 9c".split(),
        "6s 2h 3h 9h Jh Kd Ac JK".split(),
        "Qs Ks Ah 7h Qd Tc Kc JK".split(),
        "4s 9s 6h Kh 3d 6c 8c Jc".split(),
    ],
    "stock": "2s As 7d 8h 7s Ts 6d Th 4h 8s Qc 3s Td Qh Jd 3c 5s 5c 2c".split(),
    "discard": "Js 8d 4d".split(),
}


def test_a_stand_hint_never_sets_out_a_better_draw_as_a_reason_to_stand() -> None:
    """Read in play: "Stand: keep your score of 6; taking 6♣ would make it at best 18; a
    blind draw averages at best 11.4." beside "stand ... (clearly best)": the draws that
    raise the hand's score are now said apart, as the hand's score alone, and the search's
    measure on its own footing (the pot and the other players' scores counted) follows."""
    game = get_game("deadwood-knock")
    state = game.position_from_json(STAND_POSITION)
    obs = game.observe(state, 3)
    hints = (hand_focus(game, obs, Budget(iterations=150), seed=s) for s in range(5))
    hint = next(h for h in hints if h.best == {"type": "stand"})
    data = hint.to_json()
    claims = {c["kind"]: c for c in data["claims"]}
    stand = claims["dk_stand"]
    assert (stand["score"], stand["best_take"], stand["best_blind"]) == (0, 10, 7.0)
    assert stand["text"] == (
        "Stand: keep your score of 0. On your hand's score alone a draw does better: taking "
        "4♦ would make it at best 10, and a blind draw averages at best 7.0 over the 43 cards "
        "you have not seen."
    )
    lead = claims["search_lead"]
    valued = [r for r in hint.actions if r.value is not None]
    draws = [r for r in valued if r.action["type"] != "stand"]
    best_draw = max(draws, key=lambda r: r.value or 0.0)
    assert valued[0].value is not None and best_draw.value is not None
    assert lead["lead"] == round(valued[0].value - best_draw.value, 1) > 0
    assert lead["against"] == best_draw.action
    assert lead["text"].startswith(
        "Standing is ranked first all the same: the search's values count the pot and the "
        f"other players' scores as well as your hand, and rate standing {lead['lead']:.1f} "
        f"points above the best draw it weighed ({best_draw.words}), "
    )
    # The search weighs its few best candidates by a cheap prior: here no blind draw was
    # among them, and the words say so rather than rank standing above a draw never weighed.
    blind = [r for r in draws if r.action["source"] == "stock"]
    assert lead["stock_weighed"] == bool(blind)
    assert lead["text"].endswith(" It weighed no blind draw.") == (not blind)
    check_search_lead(hint, data, lead)
    # The order the player reads: the stand, the hand's figures, the search's footing.
    assert data["explanation"].index("On your hand's score alone") < data["explanation"].index(
        "ranked first all the same"
    )


def test_a_stand_whose_draws_do_no_better_keeps_them_as_its_reasons() -> None:
    from deadwood_knock.bots.hints import explain
    from deadwood_knock.bots.view import view_of
    from deadwood_knock.games.deadwood_knock import Stand

    # A flush kept (score 52): neither K♣ nor a blind draw beats it.
    obs = _dk_obs("Kh Jh 9h 6h 2h As 4d 3c", "Kc", phase="final", knocker=1)
    text = explain("deadwood-knock", view_of(obs), Stand())
    assert text == (
        "Stand: keep your score of 52; taking K♣ would make it at best 46; a blind draw "
        "averages at best 50.8 over the 45 cards you have not seen."
    ), text
    # 2♣ would raise it (for the 4♦): said apart, the blind draw still a reason to stand.
    obs = _dk_obs("Kh Jh 9h 6h 2h As 4d 3c", "2c", phase="final", knocker=1)
    text = explain("deadwood-knock", view_of(obs), Stand())
    assert text == (
        "Stand: keep your score of 52; a blind draw averages at best 50.6 over the 45 cards "
        "you have not seen. On your hand's score alone a draw does better: taking 2♣ would "
        "make it at best 54."
    ), text


def test_a_take_that_raises_nothing_says_what_it_does_do() -> None:
    """Read in play: "Discard 9♥ and take J♠ from the pile: your hand stays a pair, score
    3 → 3." (clearly best) gave no reason. The take's facts now say what else it does: a
    poker hand that beats the old one in a pot (DK6: kickers count), the knock count."""
    from deadwood_knock.bots.hints import explain
    from deadwood_knock.bots.view import view_of
    from deadwood_knock.games.deadwood_knock import Draw

    pair = view_of(_dk_obs("2s 6s Qs 5h 9h Ad 2c 7c", "Js"))
    text = explain("deadwood-knock", pair, Draw(parse_card("9h"), "discard"))
    assert text == (
        "Discard 9♥ and take J♠ from the pile: your hand stays a pair, score 3 → 3; its poker "
        "hand (2♠ 2♣ Q♠ J♠ 7♣) beats the one you hold (2♠ 2♣ Q♠ 9♥ 7♣) in a pot."
    ), text
    # An ace-high flush for a king-high one: no gain in any figure, and the knock count rises.
    legal = [{"type": "knock"}]
    flush = view_of(_dk_obs("10s 5h 8h Ad 5d 7d 9d Kd", "Qd", legal_actions=legal))
    text = explain("deadwood-knock", flush, Draw(parse_card("Ad"), "discard"))
    assert text == (
        "Discard A♦ and take Q♦ from the pile: your hand stays a flush, score 37 → 37; "
        "knock count 11 → 17."
    ), text
    # Where no knock is legal the take says nothing of knocking.
    flush = view_of(_dk_obs("10s 5h 8h Ad 5d 7d 9d Kd", "Qd"))
    text = explain("deadwood-knock", flush, Draw(parse_card("Ad"), "discard"))
    assert text.endswith("score 37 → 37.") and "knock" not in text, text


def _av(action: Any, draws: list[float]) -> Any:
    from deadwood_knock.bots.strong import ActionValue

    return ActionValue(action, sum(draws) / len(draws), len(draws), 0.0, tuple(draws))


def test_a_take_best_on_the_search_alone_says_what_the_search_measured() -> None:
    """A take whose facts show no gain is named with the search's measure against the best
    stock draw (Deadwood Knock) or the stock draw (Knock Rummy, Gin), not with no why."""
    from deadwood_knock.bots.hints import _checked, _lead_claim, explain_claims
    from deadwood_knock.bots.view import view_of
    from deadwood_knock.games.deadwood_knock import Draw
    from deadwood_knock.games.knock_rummy import Draw as KrDraw

    flush = view_of(_dk_obs("10s 5h 8h Ad 5d 7d 9d Kd", "Qd"))
    take = Draw(parse_card("Ad"), "discard")
    stock = [Draw(parse_card("10s"), "stock"), Draw(parse_card("5h"), "stock")]
    values = [
        _av(take, [3.0, 2.0, 4.0, 3.0]),
        _av(stock[0], [1.0, 0.0, 1.0, 2.0]),
        _av(stock[1], [-1.0, 0.0, 1.0, 0.0]),
    ]
    claims = _checked(flush, explain_claims("deadwood-knock", flush, take))
    lead = _lead_claim("deadwood-knock", claims, values, take)
    assert lead is not None
    assert lead.facts == {
        "lead": 2.0,
        "sureness": "clear",
        "against": stock[0].to_json(),
        "stock_weighed": True,
    }
    assert lead.text == (
        "Your hand's figures show no gain; the search's values, which count the pot and the "
        "other players' scores as well, rate this take 2.0 points above the best stock draw "
        "it weighed (discard 10♠, take from the stock), clearly."
    )
    # With no stock draw weighed, the next move it weighed, and the words say so.
    other_take = Draw(parse_card("5h"), "discard")
    lead = _lead_claim(
        "deadwood-knock", claims, [values[0], _av(other_take, [2.0, 2.0, 3.0, 2.0])], take
    )
    assert lead is not None and lead.text.endswith(
        "rate this take 0.8 points above the next move it weighed (discard 5♥, take from the "
        "pile), by a hair. It weighed no stock draw."
    ), lead.text
    # A take that makes the poker hand stronger for the pot has its reason: no measure added.
    pair = view_of(_dk_obs("2s 6s Qs 5h 9h Ad 2c 7c", "Js"))
    jack = Draw(parse_card("9h"), "discard")
    values[0] = _av(jack, [3.0, 2.0, 4.0, 3.0])
    claims = _checked(pair, explain_claims("deadwood-knock", pair, jack))
    assert _lead_claim("deadwood-knock", claims, values, jack) is None

    # 10♠ for K♣: the count stays, and no held card is one card from a meld with it.
    obs = _kr_draw_obs("knock-rummy", "2s 5h 9d Kc Qh 3c 4d Jd 4h 6c", "10s")
    view = view_of(obs)
    pile, blind = KrDraw("discard"), KrDraw("stock")
    kr = [_av(pile, [1.0, 2.0, 0.0, 1.5]), _av(blind, [1.0, 1.5, 0.5, 1.0])]
    claims = _checked(view, explain_claims("knock-rummy", view, pile))
    (take_claim,) = claims
    assert take_claim.facts["meld"] is None and not take_claim.facts["partners"]
    assert take_claim.facts["count_after"] >= take_claim.facts["count_before"]
    lead = _lead_claim("knock-rummy", claims, kr, pile)
    assert lead is not None and lead.facts["lead"] == 0.1
    assert lead.text == (
        "Your count shows no gain; the search's playouts rate the take 0.1 points above "
        f"drawing from the stock, {VERDICT_WORDS[lead.facts['sureness']]}."
    )
