"""The search bot's playouts agree with the public engine on the same deals: Deadwood
Knock's run on the engine's core (``bots/dk_playout``), Knock Rummy's and Gin's on the
Knock Rummy core (``bots/kr_playout``)."""

from __future__ import annotations

import random
from typing import Any

from deadwood_knock.bots import dk_playout, get_bot, kr_playout
from deadwood_knock.games import get_game
from deadwood_knock.games.knock_rummy.core import OVER
from deadwood_knock.games.knock_rummy.rules import table_of

PLAYERS = ["greedy", "tenderfoot", "gambler", "random", "legend", "cautious"]


def _play_round(game_name: str, options: dict[str, Any], seed: int) -> tuple[Any, list[Any], Any]:
    """Play one round/hand in the engine: (first state, [(seat, action)...], last events)."""
    game = get_game(game_name)
    state = game.new_game(game.options_from_json(options), seed)
    first = state
    rng = random.Random(seed)
    moves = []
    n = options["players"]
    bots = [get_bot(PLAYERS[(seed + s) % len(PLAYERS)]) for s in range(n)]
    while True:
        seat = game.to_act(state)
        assert seat is not None
        legal = game.legal_actions(state)
        action = bots[seat].act(game, game.observe(state, seat), legal, rng)
        moves.append((seat, action))
        state, events = game.apply(state, action)
        if any(e.kind in ("round_result", "hand_result") for e in events):
            return first, moves, events


def test_dk_playouts_score_rounds_like_the_engine() -> None:
    # A playout core (no events, scores from the evaluator's rows) replays the engine's
    # round and scores it alike; the same seed reshuffles alike, so no round is skipped.
    compared = 0
    for seed in range(120):
        n = 2 + seed % 5
        options = {"players": n, "rounds": 1, "sleight_of_hand": seed % 2 == 0}
        first, moves, events = _play_round("deadwood-knock", options, seed)
        position = dk_playout.dealt(first)
        assert position.phase == "play"
        for seat, action in moves:
            assert dk_playout.apply_action(position, seat, action), (seed, action)
        assert position.phase == "over"
        result = next(e for e in events if e.kind == "round_result").data
        expected = [a + b for a, b in zip(result["round_scores"], result["suspicion"], strict=True)]
        assert list(position.round_scores) == expected, seed
        compared += 1
    assert compared >= 80


def test_kr_playout_table_settles_hands_like_the_engine() -> None:
    compared = 0
    for seed in range(80):
        n = 2 + seed % 4
        options = {"players": n, "target": 1}
        first, moves, events = _play_round("knock-rummy", options, seed)
        position = table_of(first, single_hand=True)
        for seat, action in moves:
            assert kr_playout.apply_action(position, seat, action), (seed, action)
        result = next(e for e in events if e.kind == "hand_result").data
        assert position.phase == OVER
        assert position.hand_scores == list(result["scores"]), seed
        compared += 1
    assert compared == 80


def _played(before: Any, after: Any, seat: int) -> tuple[str, int | None]:
    """What one playout move was, read from the table before and after it."""
    if before.phase == "draw":
        return ("pile" if len(after.pile) < len(before.pile) else "stock"), None
    thrown = before.hands[seat] & ~after.hands[seat]
    card = thrown.bit_length() - 1 if thrown else None
    return ("discard" if after.phase == "draw" else "end"), card


def test_meld_aware_playouts_play_legal_moves_and_settle() -> None:
    # strong's playout policy (kr_playout.meld_move) only ever makes a move the table's
    # rules allow (never the card just taken), in Knock Rummy and Gin, 2 to 4 players.
    from deadwood_knock.games.knock_rummy.core import Discard, Draw, KnockRummyOptions, KrTable

    moves = 0
    for seed in range(60):
        gin = seed % 2 == 0
        n = 2 if gin else 2 + seed % 3
        opts = KnockRummyOptions(players=n, target=100_000, gin=gin)
        t = KrTable.new(opts, seed, single_hand=True)
        steps = 0
        while t.phase != OVER and steps < 300:
            seat = t.to_act
            assert seat is not None
            before = t.copy()
            legal = before.legal()
            kr_playout.meld_move(t, 10 if gin else 6)
            kind, card = _played(before, t, seat)
            if kind == "pile":
                assert any(isinstance(a, Draw) and a.source == "discard" for a in legal)
            elif kind == "stock":
                assert any(isinstance(a, Draw) and a.source == "stock" for a in legal)
            elif kind == "discard":
                assert any(isinstance(a, Discard) and a.card == card for a in legal), seed
            else:
                assert any(a.kind in ("knock", "rummy") for a in legal), seed
            steps += 1
            moves += 1
        if t.phase == OVER:
            assert t.hand_scores is not None and len(t.hand_scores) == n
    assert moves > 1000


def test_meld_aware_discard_keeps_a_pair_over_a_lone_card() -> None:
    # Four ten-point cards left over: the lowest count is the same whichever goes, and the
    # meld-aware policy throws a lone one, not half of the pair of kings.
    from deadwood_knock.cards import CARDS, parse_cards
    from deadwood_knock.games.knock_rummy.core import KnockRummyOptions, KrTable
    from deadwood_knock.games.knock_rummy.melds import hand_mask

    t = KrTable.new(KnockRummyOptions(players=2, target=100_000, gin=True), 3, single_hand=True)
    hand = parse_cards("As 2s 3s 4h 4d 4c Kc Kd Qs Jh 9d")
    unseen = [c for c in CARDS[:52] if c not in hand]
    t.hands = [hand_mask(hand), hand_mask(unseen[:10])]
    t.stock = unseen[10:40]
    t.pile = unseen[40:]
    t.phase = "discard"
    t.to_act = 0
    t.taken = None
    plain = t.copy()
    kr_playout.policy_move(plain, 10)
    assert plain.pile[-1] in parse_cards("Kc Kd")  # the plain policy breaks the pair
    kr_playout.meld_move(t, 10)
    assert t.pile[-1] in parse_cards("Qs Jh")


def test_playout_styles_per_seat() -> None:
    first, _moves, _events = _play_round("deadwood-knock", {"players": 4, "rounds": 1}, 3)
    same = dk_playout.Style()
    a = dk_playout.playout(dk_playout.dealt(first), random.Random(5), same)
    b = dk_playout.playout(dk_playout.dealt(first), random.Random(5), styles=[same] * 4)
    assert a == b
    # Only seat 2 may knock: every playout that ends by a knock is its knock.
    never = dk_playout.Style(knock_count=-100, knock_score=1_000_000)
    eager = dk_playout.Style(knock_count=11, knock_score=0)
    knockers = []
    for seed in range(10):
        first, _moves, _events = _play_round("deadwood-knock", {"players": 4, "rounds": 1}, seed)
        core = dk_playout.dealt(first)
        dk_playout.playout(core, random.Random(seed), styles=[never, never, eager, never])
        knockers.append(core.knocker)
    assert set(knockers) <= {None, 2} and knockers.count(2) >= 8
