"""``search.KR_CHANCE_FIRST`` (issue #17, Gin and Knock Rummy twentieth pass): added to
the logit of the heads-up Knock Rummy playout rival's knock chance
(``search.KR_RIVAL_CHANCE``) at the rival's first discard of the hand, when the view shows
it has taken no turn yet. Off (0.0): the eighteenth pass's chance exactly, sample for
sample; on: the first playout discard's threshold raised by ``first / per_count`` only
there, the values change, a seed repeats, nothing hidden read."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from bot_positions import discard_position
from deadwood_knock.bots import Budget, get_bot, search
from deadwood_knock.bots.strong import KR_PLAYOUT_KNOCK
from deadwood_knock.bots.view import view_of
from deadwood_knock.games import get_game
from deadwood_knock.games.knock_rummy.core import DRAW, OVER
from test_rival_chance import FAR, HAND, _rival_to_discard

#: The variant the pass runs: the refit with the first-turn term.
REFIT = {"KR_CHANCE_BASE": -2.633, "KR_CHANCE_COUNT": 0.168, "KR_CHANCE_STOCK": 0.277}


def _values(game: Any, obs: Any, legal: Any, seed: int = 11) -> list[tuple[str, Any]]:
    ranked = search.SearchBot().evaluate(
        game, obs, legal, random.Random(seed), Budget(iterations=24)
    )
    return [(str(av.action), av.draws) for av in ranked]


def _set(monkeypatch: Any, first: float, **fit: float) -> None:
    for name, value in fit.items():
        monkeypatch.setattr(search, name, value)
    monkeypatch.setattr(search, "KR_CHANCE_FIRST", first)


def test_off_in_play_and_off_is_todays(monkeypatch: Any) -> None:
    """Off in play (0.0); the search built with 0.0 has no first-turn term, and its values
    are the ones of a search built without the argument (the eighteenth pass's)."""
    assert search.KR_CHANCE_FIRST == 0.0
    game, state = discard_position("knock-rummy", FAR, "5h")
    obs, legal = game.observe(state, 0), game.legal_actions(state)
    built = search.SearchBot()._search(game, obs, view_of(obs, game.name))
    assert isinstance(built, search.ChanceKnockKrSearch) and built.first == 0.0
    today = _values(game, obs, legal)
    real = search.ChanceKnockKrSearch.__init__

    def four(
        self: Any, view: Any, base: float, per_count: float, per_stock: float, *_: Any
    ) -> None:
        real(self, view, base, per_count, per_stock)

    monkeypatch.setattr(search.ChanceKnockKrSearch, "__init__", four)
    assert _values(game, obs, legal) == today


def test_on_raises_the_first_discard_only() -> None:
    """With the rival yet to take a turn, its first playout discard's threshold is raised
    by first / per_count, the later ones not; once it has taken a turn, none is."""
    fit = (REFIT["KR_CHANCE_BASE"], REFIT["KR_CHANCE_COUNT"], REFIT["KR_CHANCE_STOCK"])
    game, state = discard_position("knock-rummy", HAND, "5h")
    view = view_of(game.observe(state, 0), game.name)
    assert view.turns[1] == 0
    plain = search.ChanceKnockKrSearch(view, *fit)
    found = search.ChanceKnockKrSearch(view, *fit, 1.755)
    assert found.first == pytest.approx(1.755 / 0.168)
    plain._noise = found._noise = (0.5, 0.5)
    assert found.limit(30, 0) == pytest.approx(plain.limit(30, 0) + 1.755 / 0.168)
    assert found.limit(28, 1) == plain.limit(28, 1)
    later = search.ChanceKnockKrSearch(dataclasses.replace(view, turns=(1, 1)), *fit, 1.755)
    assert later.first == 0.0
    # The rival's discard leaves 10. At an even draw with a stock of 12 or 14 the refit
    # alone plays on (its even count is 4.1 or 7.4) ...
    for stock in (12, 14):
        base = search.ChanceKnockKrSearch(view, *fit)
        base._noise, base._k = (0.0,), 0
        assert base.limit(stock, 0) < 10
        t = _rival_to_discard(stock)
        base.move(t, KR_PLAYOUT_KNOCK)
        assert t.phase == DRAW
        # ... and with the first-turn term (+10.4), at its first discard, it knocks; at a
        # later discard it plays on.
        first = search.ChanceKnockKrSearch(view, *fit, 1.755)
        first._noise, first._k = (0.0,), 0
        t = _rival_to_discard(stock)
        first.move(t, KR_PLAYOUT_KNOCK)
        assert t.phase == OVER
        first._noise, first._k = (0.0, 0.0), 1
        t = _rival_to_discard(stock)
        first.move(t, KR_PLAYOUT_KNOCK)
        assert t.phase == DRAW


def test_on_the_values_change(monkeypatch: Any) -> None:
    game, state = discard_position("knock-rummy", FAR, "5h")
    obs, legal = game.observe(state, 0), game.legal_actions(state)
    _set(monkeypatch, 0.0, **REFIT)
    off = _values(game, obs, legal)
    _set(monkeypatch, 1.755, **REFIT)
    assert _values(game, obs, legal) != off


def test_on_reads_nothing_hidden(monkeypatch: Any) -> None:
    """Doctored states: other hidden cards behind the same observation, the same values."""
    _set(monkeypatch, 1.755, **REFIT)
    runs, rivals = [], []
    for shift in (0, 7, 19):
        game, state = discard_position("knock-rummy", HAND, "5h", shift=shift)
        runs.append(_values(game, game.observe(state, 0), game.legal_actions(state)))
        rivals.append(state.hands[1])
    assert len(set(rivals)) == 3
    assert runs[0] == runs[1] == runs[2]


@pytest.mark.parametrize("seat", [0, 1])
def test_on_a_seeded_match_repeats(monkeypatch: Any, seat: int) -> None:
    """A seeded Knock Rummy match, strong (the refit with the first-turn term) against
    strong-v1, twice: the same moves; the search is built with the term."""
    _set(monkeypatch, 1.755, **REFIT)
    built = []
    real = search.ChanceKnockKrSearch.__init__

    def spy(self: Any, view: Any, *fit: float) -> None:
        built.append((view.seat, *fit))
        real(self, view, *fit)

    monkeypatch.setattr(search.ChanceKnockKrSearch, "__init__", spy)

    def play() -> list[str]:
        game = get_game("knock-rummy")
        state = game.new_game(game.options_from_json({"players": 2}), 4)
        bots = [get_bot("strong-v1"), get_bot("strong-v1")]
        bots[seat] = get_bot("strong")
        rngs = [random.Random(1), random.Random(2)]
        moves: list[str] = []
        while not game.is_over(state) and len(moves) < 3000:
            who = game.to_act(state)
            obs, legal = game.observe(state, who), game.legal_actions(state)
            action = bots[who].act(game, obs, legal, rngs[who], Budget(iterations=6))
            moves.append(str(action))
            state, _ = game.apply(state, action)
        return moves

    assert play() == play()
    assert built and all(b == (seat, -2.633, 0.168, 0.277, 1.755) for b in built)
