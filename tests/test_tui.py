"""The terminal client, driven by key presses through Textual's Pilot."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from textual.widgets import Static

from deadwood_knock.bots import Budget
from deadwood_knock.cards import Card, parse_card, parse_cards
from deadwood_knock.games.base import Event
from deadwood_knock.games.knock_rummy.melds import arrange
from deadwood_knock.games.points import figure_text
from deadwood_knock.tui import Session
from deadwood_knock.tui.app import DeadwoodApp
from deadwood_knock.tui.words import cards_text, describe_event, game_over_line, result_lines

SIZE = (120, 60)


async def settle(pilot: Any, app: DeadwoodApp) -> None:
    """Wait until the bots have moved and it is the person's turn (or the game is over)."""
    for _ in range(2000):
        await pilot.pause()
        if not app.bots_running and (app.session.legal() or app.session.over()):
            return
    raise AssertionError("the bots never handed the turn back")


async def play_by_keys(pilot: Any, app: DeadwoodApp, action: Any) -> None:
    """Play ``action`` as a person would, by its keys, and let the screen settle."""
    for key in keys_for(app, action):
        await pilot.press(key)
    await settle(pilot, app)


def keys_for(app: DeadwoodApp, action: Any) -> list[str]:
    """The key presses that mean ``action`` on this screen."""
    hand = app.hand_order()

    def pick(card: Card) -> str:
        i = hand.index(card) if card < 52 else next(i for i, c in enumerate(hand) if c >= 52)
        return "1234567890"[i] if i < 10 else "minus"

    kind = action.kind
    if app.session.name == "deadwood-knock":
        if kind == "draw":
            return [pick(action.select), {"stock": "s", "discard": "d", "palm": "p"}[action.source]]
        return [{"knock": "k", "stand": "t", "call": "c", "fold": "f"}[kind]]
    if kind == "draw":
        return ["s" if action.source == "stock" else "d"]
    if kind == "discard":
        return [pick(action.card), "d"]
    if kind == "knock":
        return [pick(action.discard), "k"]
    return ["r"] if action.discard is None else [pick(action.discard), "r"]


def hidden_cards_shown(app: DeadwoodApp) -> list[str]:
    """Cards in another seat's hand, not known to the table, that appear on screen."""
    state = app.session.state
    obs = app.session.observation()
    text = app.screen_text()
    shown = []
    for seat, hand in enumerate(state.hands):
        if seat == 0:
            continue
        for c in set(hand) - set(obs.known_cards[seat]):
            # Both jokers print alike, so a joker elsewhere on the table says nothing.
            if c < 52 and c.pretty() in text:
                shown.append(c.pretty())
    return shown


def dk_choice(legal: tuple[Any, ...], moves: int) -> Any:
    kinds = {a.kind: a for a in legal}
    # A few ordinary turns first, so the round shows draws and discards before the knock.
    for kind in ("knock", "call", "stand") if moves >= 4 else ("call", "stand"):
        if kind in kinds:
            return kinds[kind]
    return next(a for a in legal if a.kind == "draw" and a.source == "stock")


def kr_choice(app: DeadwoodApp, turn: int) -> Any:
    legal = app.session.legal()
    rummy = [a for a in legal if a.kind == "rummy"]
    if rummy:
        return rummy[0]
    if legal[0].kind == "draw":
        return next(a for a in legal if a.source == "stock")
    hand = app.session.observation().hand

    def left(card: Card) -> int:
        return arrange([c for c in hand if c != card]).deadwood_points

    best = min((a for a in legal if a.kind == "discard"), key=lambda a: left(a.card))
    if left(best.card) <= 10 or turn > 10:
        knock = next((a for a in legal if a.kind == "knock" and a.discard == best.card), None)
        if knock is not None:
            return knock
    return best


@pytest.mark.asyncio
async def test_deadwood_knock_round_by_keys_shows_hand_and_result() -> None:
    session = Session("deadwood-knock", ["random", "random"], seed=11, rounds=2)
    app = DeadwoodApp(session, bot_pause=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        text = app.screen_text()
        assert "Round 1 of 2" in text
        for c in session.observation().hand:
            assert c.pretty() in text
        assert f"Score {session.observation().evaluation.hand_points}" in text
        moves = 0
        while not session.observation().results:
            assert not hidden_cards_shown(app), "another seat's hidden card is on screen"
            legal = session.legal()
            if "knock" in {a.kind for a in legal}:
                assert "k knock" in app.screen_text()
            else:
                assert "k knock" not in app.screen_text()
            action = dk_choice(legal, moves)
            await play_by_keys(pilot, app, action)
            moves += 1
            assert moves < 60
        assert moves >= 3
        result = session.observation().last_result
        text = app.screen_text()
        assert "Round 1 result" in text
        assert "Round 2 of 2" in text
        for s in range(3):
            # The arithmetic line: hand points − deadwood ± pot = round score, then the total.
            score = f"{result.round_scores[s] + result.suspicion[s]}".replace("-", "−")
            assert f"= {score}  → total" in text
            dp = result.deadwood_points[s]
            term = f"− {dp} deadwood" if dp >= 0 else f"+ {-dp} deadwood ("
            assert f"{result.hand_points[s]} {term}" in text
        assert result.totals == session.observation().totals


@pytest.mark.asyncio
async def test_knock_rummy_hand_to_its_end_without_leaking_hands() -> None:
    session = Session("knock-rummy", ["greedy"], seed=5)
    app = DeadwoodApp(session, bot_pause=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        turn = 0
        while session.observation().last_result is None:
            assert not hidden_cards_shown(app), "another seat's hidden card is on screen"
            action = kr_choice(app, turn)
            await play_by_keys(pilot, app, action)
            turn += 1
            assert turn < 120
        hr = session.observation().last_result
        text = app.screen_text()
        assert f"Hand {hr.hand_number} result" in text
        assert sum(hr.scores) == 0  # Knock Rummy points only move between players
        for s in range(2):
            assert f"count {hr.counts[s]}; score {hr.scores[s]:+d}".replace("-", "−") in text


@pytest.mark.asyncio
async def test_gin_starts_and_takes_a_draw_key() -> None:
    session = Session("gin", ["greedy"], seed=2)
    app = DeadwoodApp(session, bot_pause=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        assert "Gin" in app.screen_text()
        assert "10 or less" in app.screen_text()
        before = len(session.observation().hand)
        await pilot.press("s")
        assert len(session.observation().hand) == before + 1
        assert session.observation().phase == "discard"
        # Eleven cards: the prompt names the keys as they are, not "1--".
        assert "1-9, 0, -/←→ pick a card" in app.screen_text()


@pytest.mark.asyncio
async def test_illegal_key_changes_nothing_and_says_so() -> None:
    session = Session("deadwood-knock", ["greedy"], seed=3)
    app = DeadwoodApp(session, bot_pause=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        state = session.state
        await pilot.press("c")  # no call is legal during play
        assert session.state is state
        assert "not possible now" in app.screen_text()
        await pilot.press("right")
        assert app.selected == 1


@pytest.mark.asyncio
async def test_hand_focus_toggles_and_quit_asks_first() -> None:
    session = Session("deadwood-knock", ["greedy"], seed=4)
    app = DeadwoodApp(session, bot_pause=0, hint_budget=Budget(iterations=20))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("h")
        for _ in range(500):
            await pilot.pause()
            if app.hint is not None:
                break
        text = app.screen_text()
        assert "Hand Focus" in text
        assert app.hint is not None and app.hint.explanation.split(":")[0] in text
        # The ranked moves, best first, in points with a confidence in words.
        first = app.hint.ranking_lines()[0]
        assert first.startswith("1. ") and "best" in first
        assert first[:20] in text
        await pilot.press("h")
        assert "Hand Focus" not in app.screen_text()
        await pilot.press("q")
        assert "Quit the game?" in app.screen_text()
        await pilot.press("n")
        assert app.is_running and "Quit the game?" not in app.screen_text()
        await pilot.press("q", "y")
        await pilot.pause()
        assert not app.is_running


def test_private_events_of_other_seats_get_no_words() -> None:
    names = ["You", "Bot"]
    secret = Event("stock_card", 1, {"card": Card(5)}, private_to=1)
    assert describe_event(secret, names, 0) is None
    mine = Event("stock_card", 0, {"card": Card(5)}, private_to=0)
    assert describe_event(mine, names, 0) == "You draw 6♠ from the stock."
    assert describe_event(Event("draw", 1, {"source": "stock"}), names, 0) == (
        "Bot draws from the stock."
    )


@pytest.mark.asyncio
async def test_the_leak_check_catches_a_shown_hand() -> None:
    """Guards the guard: if the table printed a bot's hand, the check would say so."""
    session = Session("knock-rummy", ["greedy"], seed=5)
    app = DeadwoodApp(session, bot_pause=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        assert not hidden_cards_shown(app)
        app.session.log.append(" ".join(c.pretty() for c in session.state.hands[1]))
        app.refresh_view()
        await pilot.pause()
        assert hidden_cards_shown(app)


def _play_out(s: Session, seed: int, after: Any) -> None:
    """Play a session to its end with ``greedy`` in the person's seat, calling ``after()``
    after every move."""
    import random

    from deadwood_knock.bots import get_bot

    me, rng = get_bot("greedy"), random.Random(seed)
    while not s.over():
        seat = s.bot_to_act()
        if seat is not None:
            s.apply(s.choose_bot_action(seat))
        else:
            s.apply(me.act(s.game, s.observation(), s.legal(), rng))
        after()


def _played_results(game: str, opponents: list[str], seeds: range) -> list[tuple[Any, list[str]]]:
    """Whole games with a bot in the person's seat too; each finished round's lines."""
    out: list[tuple[Any, list[str]]] = []
    for seed in seeds:
        s = Session(game, opponents, seed=seed, rounds=3, target=60)

        def keep(s: Session = s) -> None:
            obs = s.observation()
            if obs.last_result is not None and (not out or obs.last_result is not out[-1][0]):
                out.append((obs.last_result, result_lines(s.name, obs, s.names)))

        _play_out(s, seed, keep)
    return out


def _sum_expression(text: str) -> int:
    """Evaluate '12 − 3 + 25' as written on screen."""
    total, sign = 0, 1
    for token in text.replace("−", " - ").replace("+", " + ").split():
        if token in "+-":
            sign = 1 if token == "+" else -1
        elif token.isdigit():
            total += sign * int(token)
    return total


@pytest.mark.parametrize(
    ("game", "opponents"), [("gin", ["greedy"]), ("knock-rummy", ["greedy", "random"])]
)
def test_rummy_result_arithmetic_matches_the_engine(game: str, opponents: list[str]) -> None:
    checked = 0
    for hr, lines in _played_results(game, opponents, range(6)):
        for s, line in enumerate(lines[1 : 1 + len(hr.totals)]):
            # A zero reads "score 0", as the log's "Bat Masterson 0", not "+0".
            signed = f"{hr.scores[s]:+d}" if hr.scores[s] else "0"
            assert f"score {signed} ".replace("-", "−") in line
            assert "+0" not in line
            assert f"total {hr.totals[s]}".replace("-", "−") in line
            if "(" not in line.split("score", 1)[1]:
                continue
            written = line.split("score", 1)[1].split("(", 1)[1].split(")")[0]
            if "shared" in written:
                continue
            value = _sum_expression(written.replace("pays", ""))
            assert value == abs(hr.scores[s]), line
            checked += 1
    assert checked > 0


def test_deadwood_knock_result_arithmetic_matches_the_engine() -> None:
    for r, lines in _played_results("deadwood-knock", ["greedy", "random"], range(3)):
        for s, line in enumerate(lines[1:]):
            body = line.split(")", 1)[1].split("=")[0]  # after the category
            body = re.sub(r"\([^)]*\)", "", body)  # the deadwood's cards and joker note
            written = body.replace("deadwood", "").replace("pot", "").replace("suspicion", "")
            numbers = " ".join(t for t in written.split() if not any(ch in t for ch in "♠♥♦♣"))
            numbers = numbers.replace("Joker", "")
            assert _sum_expression(numbers) == r.round_scores[s] + r.suspicion[s], line
            # The figures after it carry a true minus sign, as the sum does.
            assert "-" not in line.split("=", 1)[1], line
        # The calls read in the past tense, like the knock: "King Fisher knocked; You called".
        if r.knocker is not None:
            assert not re.search(r"\b(call|calls|fold|folds)\b", lines[0]), lines[0]


def test_negative_deadwood_adds_in_the_result_line() -> None:
    """Two jokers and a low card leave deadwood below zero; the line still sums."""
    from types import SimpleNamespace

    from deadwood_knock.games.deadwood_knock.core import RoundResult

    r = RoundResult(
        round=1,
        knocker=0,
        dry=False,
        poker_hands=(parse_cards("Ks Kh 9d 8c 7s"), parse_cards("Qs Qh Jd Tc 9s")),
        deadwood=(parse_cards("2c 3d 4h"), parse_cards("JK JK Ac")),
        categories=("pair", "pair"),
        hand_points=(15, 15),
        deadwood_points=(9, -3),
        calls=(None, "call"),
        pot=(10, -10),
        round_scores=(16, 8),
        suspicion=(0, 0),
        totals=(16, 8),
    )
    obs = SimpleNamespace(last_result=r, seat=0)
    for compact in (False, True):
        lines = result_lines("deadwood-knock", obs, ["You", "Doc"], compact=compact)
        doc = lines[2]
        # The showdown's words (games.points.deadwood_term), the joker's figure the engine's.
        assert "15 + 3 deadwood (" in doc and "jokers count −2)" in doc, doc
        assert "-3" not in doc and "−3" not in doc, doc
        body = re.sub(r"\([^)]*\)", "", doc.split("pair", 1)[1].split("=")[0])
        numbers = " ".join(t for t in body.split() if not any(ch in t for ch in "♠♥♦♣"))
        assert _sum_expression(numbers.replace("Joker", "").replace("deadwood", "")) == 8, doc


@pytest.mark.asyncio
async def test_screen_answers_keys_while_a_bot_thinks() -> None:
    import threading

    from deadwood_knock.bots import get_bot

    release = threading.Event()
    inner = get_bot("greedy")

    class SlowBot:
        name = "slow"

        def act(self, *args: Any) -> Any:
            release.wait(10)  # thinks until the test lets it go
            return inner.act(*args)

    session = Session("knock-rummy", ["greedy"], seed=8)  # seat 1 acts first (seat 0 deals)
    session.bots[1] = SlowBot()
    app = DeadwoodApp(session, bot_pause=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.bots_running
        assert "Greedy (2) is thinking" in app.screen_text()
        await pilot.press("h")  # the event loop is free: the key is handled at once
        assert app.show_focus and "Hand Focus" in app.screen_text()
        release.set()
        await settle(pilot, app)
        assert session.legal()


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--opponents", "nobody"],
        ["play", "--game", "gin", "--opponents", "greedy,greedy"],
        ["play", "--game", "knock-rummy", "--bots", "greedy,greedy,greedy,greedy,greedy"],
    ],
)
def test_play_command_refuses_bad_tables_with_one_line(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    from deadwood_knock.cli import main

    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("deadwood-knock: ") and err.count("\n") == 1


def test_play_and_the_quick_tables_seat_characters_by_default() -> None:
    import re
    from pathlib import Path

    from deadwood_knock.tui.session import DEFAULT_OPPONENTS

    for game in ("deadwood-knock", "knock-rummy", "gin"):
        session = Session(game, seed=1)
        bots = [b for b in session.bots if b is not None]
        assert [b.name for b in bots] == [f"figure:{n}" for n in DEFAULT_OPPONENTS[game]]
        assert "greedy" not in " ".join(session.names).lower()
    screens = Path(__file__).parents[1] / "src/deadwood_knock/web/app/screens.js"
    block = screens.read_text(encoding="utf-8").split("const QUICK_TABLES", 1)[1].split("];")[0]
    quick = {
        game: tuple(re.findall(r'"figure:([a-z-]+)"', opponents))
        for game, opponents in re.findall(r'game: "([a-z-]+)", opponents: \[([^\]]*)\]', block)
    }
    assert quick == DEFAULT_OPPONENTS


# --- 80×24: the smallest terminal the client promises -----------------------------------------

SMALL = (80, 24)


def _fully_on_screen(app: DeadwoodApp) -> None:
    """Every shown panel lies inside the 80×24 screen, and none hides text it cannot scroll."""
    for selector in ("#banner", "#table", "#hand", "#prompt", "#results", "#log", "#focus-low"):
        widget = app.query_one(selector)
        if not widget.display:
            continue
        region = widget.region
        assert region.width > 0 and region.height > 0, selector
        assert region.right <= SMALL[0] and region.bottom <= SMALL[1], (selector, region)
    results = app.query_one("#results")
    if results.display:
        assert results.max_scroll_y == 0, "the round's result is cut off"


def _log_shows_the_latest_event(app: DeadwoodApp) -> None:
    shown = app.log_lines()
    assert shown, "the log shows nothing"
    assert app.session.log[-1].endswith(shown[-1]), (shown[-1], app.session.log[-1])


@pytest.mark.asyncio
@pytest.mark.parametrize("width", [SMALL[0], 66])
@pytest.mark.parametrize("seed", [5, 8, 13])
async def test_a_gin_hand_of_eleven_reads_on_one_line(width: int, seed: int) -> None:
    """After the draw a Gin hand holds 11 cards: each with its key on one line, none
    wrapped to the next. At 80 columns they sit beside the label; where they cannot,
    they take a line of their own."""
    session = Session("gin", ["strong"], seed=seed)
    app = DeadwoodApp(session, bot_pause=0)
    async with app.run_test(size=(width, SMALL[1])) as pilot:
        await settle(pilot, app)
        await pilot.press("s")
        await settle(pilot, app)
        assert len(session.observation().hand) == 11
        keys = "1234567890-"
        labels = [f"{k}:{c.pretty()}" for k, c in zip(keys, app.hand_order(), strict=True)]
        lines = app.screen_text().splitlines()
        assert all(len(x) <= width for x in lines)
        row = next(i for i, x in enumerate(lines) if "Your hand" in x)
        cards = lines[row] if width == SMALL[0] else lines[row + 1]
        assert all(label in cards for label in labels), cards
        # The selection's brackets take the shared space: picking another card moves nothing.
        before = [cards.index(label) for label in labels]
        await pilot.press("5")
        await pilot.pause()
        after = app.screen_text().splitlines()[row if width == SMALL[0] else row + 1]
        assert f"[{labels[4]}]" in after
        assert [after.index(label) for label in labels] == before


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("game", "bots"),
    [
        ("deadwood-knock", None),
        ("deadwood-knock", ["greedy", "random", "greedy", "random", "greedy"]),
        ("knock-rummy", ["greedy", "random", "greedy"]),
        ("gin", None),
    ],
)
async def test_80x24_plays_a_round_with_the_newest_log_line_in_view(
    game: str, bots: list[str] | None
) -> None:
    session = Session(game, bots, seed=21, rounds=2, target=40)
    app = DeadwoodApp(session, bot_pause=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        assert app.compact
        moves = 0
        start = session.observation().last_result
        while session.observation().last_result is start and not session.over():
            _fully_on_screen(app)
            _log_shows_the_latest_event(app)
            text = app.screen_text()
            for c in session.observation().hand:
                assert c.pretty() in text
            assert "Your " in text or "knocked" in text  # the prompt is on screen
            assert not hidden_cards_shown(app)
            legal = session.legal()
            dk = game == "deadwood-knock"
            action = dk_choice(legal, moves) if dk else kr_choice(app, moves)
            await play_by_keys(pilot, app, action)
            moves += 1
            assert moves < 150
        # The round's end: its result is on screen in full, and the log is at its end.
        _fully_on_screen(app)
        _log_shows_the_latest_event(app)
        assert "result" in app.screen_text()
        await pilot.press("h")
        for _ in range(500):
            await pilot.pause()
            if app.hint is not None or not session.legal():
                break
        _fully_on_screen(app)
        if session.legal():
            assert "Hand Focus" in app.screen_text() and app.hint is not None
            assert app.hint.ranking_lines()[0][:20] in app.screen_text()


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("game", "bots"),
    [
        ("deadwood-knock", None),
        ("deadwood-knock", ["greedy", "random", "greedy", "random", "greedy"]),
        ("gin", None),
    ],
)
async def test_80x24_shows_the_result_with_hand_focus_on(game: str, bots: list[str] | None) -> None:
    """A player who keeps Hand Focus on still sees each round's result on a small screen:
    it stands from the round's end until their next key, then the hint has the room."""
    session = Session(game, bots, seed=21, rounds=2, target=40)
    app = DeadwoodApp(session, bot_pause=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        await pilot.press("h")
        moves = 0
        start = session.observation().last_result
        while session.observation().last_result is start and not session.over():
            dk = game == "deadwood-knock"
            action = dk_choice(session.legal(), moves) if dk else kr_choice(app, moves)
            await play_by_keys(pilot, app, action)
            moves += 1
            assert moves < 150
        assert app.show_focus
        _fully_on_screen(app)
        assert app.query_one("#results").display
        assert "result:" in app.screen_text()
        if session.over():
            return
        # The hint waits for the key rather than share the screen cut short.
        assert not app.query_one("#focus-low").display
        assert "Hand Focus returns at your next key." in app.screen_text()
        await pilot.press("right")  # any key: the result has been read
        for _ in range(500):
            await pilot.pause()
            if app.hint is not None and app._hint_for is session.state:
                break
        _fully_on_screen(app)
        assert not app.query_one("#results").display
        assert app.hint is not None
        assert app.hint.ranking_lines()[0][:20] in app.screen_text()


@pytest.mark.asyncio
@pytest.mark.parametrize("key", ["question_mark", "f1"])
async def test_help_opens_with_rules_and_keys_and_closes(key: str) -> None:
    from deadwood_knock.tui.app import HelpScreen

    session = Session("deadwood-knock", ["random"], seed=3)
    app = DeadwoodApp(session, bot_pause=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        state = session.state
        await pilot.press(key)
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = "\n".join(
            "\n".join(app.widget_lines(w)) for w in app.screen.query(Static) if w.display
        )
        for words in ("DEADWOOD KNOCK", "knock", "KEYS", "call or fold", "palm"):
            assert words in text, words
        await pilot.press("s")  # keys go to the help screen, not the table
        assert session.state is state
        await pilot.press("escape" if key == "question_mark" else key)
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)
        await pilot.press(key, "question_mark" if key == "f1" else "f1")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)  # ? and F1 close it too


@pytest.mark.asyncio
async def test_prompts_say_what_call_fold_stand_and_palm_do() -> None:
    from deadwood_knock.games.deadwood_knock.rules import POT_ANTE, SUSPICION

    # Greedy knocks at once; the person takes a normal turn first, then a final turn.
    session = Session("deadwood-knock", ["greedy"], seed=2, sleight_of_hand=True)
    app = DeadwoodApp(session, bot_pause=0)
    seen: set[str] = set()
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        for _ in range(80):
            if session.over():
                break
            obs = session.observation()
            legal = session.legal()
            kinds = {a.kind for a in legal}
            prompt = app.query_one("#prompt", Static).render()
            words = " ".join(str(prompt).split())
            if "stand" in kinds:
                assert "t stand: keep your hand as it is, no draw" in words
                seen.add("stand")
            if "call" in kinds:
                ins = 2 + sum(1 for c in obs.calls if c == "call")
                assert f"c call: put {POT_ANTE} in" in words
                assert f"({POT_ANTE * ins} if nobody after you calls)" in words
                assert "f fold: stay out of the pot, pay nothing" in words
                seen.add("call")
            palms = [a for a in legal if a.kind == "draw" and a.source == "palm"]
            if any(a.select == app.selected_card() for a in palms):
                pile = obs.discard_pile
                assert (
                    f"p palm: take {pile[-2].pretty()} from under {pile[-1].pretty()}, which is "
                    f"set aside (once a round; {SUSPICION} if your round score ends below the best)"
                ) in words
                seen.add("palm")
            plain = [a for a in legal if a.kind in ("call", "stand")]
            action = plain[0] if plain else next(a for a in legal if a.kind == "draw")
            await play_by_keys(pilot, app, action)
            if seen >= {"stand", "call", "palm"}:
                break
    assert seen == {"stand", "call", "palm"}


# --- table talk: the characters' own lines in the log -----------------------------------------

_REMARK = re.compile(r"^  (?P<who>[^:“]+): “(?P<text>.+)”$")


def _talk_of(figure_id: str, *situations: str) -> set[str]:
    from deadwood_knock.content import load_content

    figure = load_content().figure_by_id.get(figure_id)
    if figure is None:  # a plain bot has no lines
        return set()
    return {t.line for t in figure.table_talk if t.situation.value in situations}


def _talk_game(
    game: str, opponents: list[str], seed: int
) -> tuple[Session, list[str], dict[int, Any]]:
    """A whole seeded match with a bot in the person's seat: every log line it wrote, and
    the engine's result behind each ``Totals`` line (by the line's index)."""
    s = Session(
        game,
        opponents,
        seed=seed,
        rounds=3,
        target=60,
        sleight_of_hand=True,
        budget=Budget(iterations=40),
    )
    lines, results = list(s.log), {}

    def keep() -> None:
        new = s.log[len(s.log) - (s.log_dropped + len(s.log) - len(lines)) :]
        for line in new:
            if "Totals:" in line:
                results[len(lines)] = s.observation().last_result
            lines.append(line)

    _play_out(s, seed, keep)
    return s, lines, results


def _palmers(result: Any) -> set[int]:
    """The seats a round's Suspicion fell on (palms the table caught)."""
    return {seat for seat, mark in enumerate(getattr(result, "suspicion", ())) if mark < 0}


@pytest.mark.parametrize(
    ("game", "opponents", "seeds"),
    [
        ("deadwood-knock", ["jack-harris", "king-fisher"], range(5)),
        ("deadwood-knock", ["lottie-deno", "greedy", "king-fisher"], range(3)),
        ("knock-rummy", ["luke-short", "greedy"], range(3)),
        ("gin", ["bat-masterson"], range(3)),
    ],
)
def test_characters_say_their_own_lines_at_the_right_moments(
    game: str, opponents: list[str], seeds: range
) -> None:
    """Each remark follows the event it answers, in the voice of the seat that acted (or, at
    a round's end, the winner; a loser when the person won), from that character's own
    table talk for that situation. A bot that is no character says nothing."""
    situations: set[str] = set()
    for seed in seeds:
        s, lines, results = _talk_game(game, opponents, seed)
        ids = {name: bot for name, bot in zip(s.names[1:], opponents, strict=True)}
        winners_seen = 0
        for i, line in enumerate(lines):
            m = _REMARK.match(line)
            if m is None:
                continue
            who, text, before = m["who"], m["text"], lines[i - 1]
            assert who in ids and ids[who] != "greedy", line
            figure = ids[who]
            seat = s.names.index(who)
            if before.startswith("— "):
                assert before.startswith(("— Round 1:", "— Hand 1:")), before
                situation = "greeting"
                assert text in _talk_of(figure, "greeting")
            elif "Totals:" in before and _palmers(results[i - 1]):
                # A palm the table caught: another character calls it out instead.
                assert seat not in _palmers(results[i - 1]), line
                situation = "palm_caught"
                assert text in _talk_of(figure, situation), line
                winners_seen += 1
            elif "Totals:" in before:
                winner = results[i - 1].winner
                assert winner is not None, (before, line)
                situation = "win" if winner == seat else "lose"
                assert winner in (seat, 0), (winner, line)
                assert text in _talk_of(figure, situation), line
                winners_seen += 1
            else:
                assert before.startswith(f"{who} "), (before, line)
                verb = before[len(who) + 1 :].split()[0].strip(".!")
                allowed = {
                    "knocks": ("knock",),
                    "calls": ("call", "bluff"),
                    "palms": ("palm", "bluff"),
                    "folds": ("fold",),
                    "stands": ("stand",),
                }[verb]
                # talk.js order: the first situation the character has lines for. Every
                # character has "call" and "fold" lines, so a call never says a bluff line.
                situation = next(x for x in allowed if _talk_of(figure, x))
                assert situation == allowed[0], (situation, line)
                assert text in _talk_of(figure, situation), line
            situations.add(situation)
        # A round with one winner who is a character, or won by the person against a
        # character, draws a remark; one won by a plain bot draws none.
        expected = 0
        for result in results.values():
            callers = [f for n, f in enumerate(opponents, 1) if n not in _palmers(result)]
            if _palmers(result) and any(_talk_of(f, "palm_caught") for f in callers):
                expected += 1
                continue
            winner = result.winner
            if winner is None:
                continue
            if winner != 0:
                expected += opponents[winner - 1] != "greedy"
            else:
                expected += any(o != "greedy" for o in opponents)
        assert winners_seen == expected, seed
    assert {"greeting", "win"} <= situations or {"greeting", "lose"} <= situations
    assert "knock" in situations or game == "knock-rummy"
    # Deadwood Knock's poker pot: these seeded matches see a character call and one fold.
    assert {"call", "fold"} <= situations or game != "deadwood-knock"


def test_a_character_voices_one_call_or_fold_in_two_not_every_one() -> None:
    """``talk.EVERY``: a knock is always voiced, but a call, fold, palm or stand only at one
    move in two (by the seed, round and seat), so a character's one line for a moment is
    not heard at every call of a ten-round match."""
    moves = voiced = knocks = knocks_voiced = 0
    for seed in range(6):
        s, lines, _ = _talk_game("deadwood-knock", ["jack-harris", "king-fisher"], seed)
        for i, line in enumerate(lines[:-1]):
            who = next((n for n in s.names[1:] if line.startswith(n + " ")), None)
            if who is None:
                continue
            rest = line[len(who) + 1 :]
            said = _REMARK.match(lines[i + 1]) is not None
            if rest.startswith(("calls", "folds")):
                moves += 1
                voiced += said
            elif rest.startswith("knocks"):
                knocks += 1
                knocks_voiced += said
    assert knocks and knocks_voiced == knocks, (knocks, knocks_voiced)
    assert moves >= 12, moves
    assert 0.25 * moves <= voiced <= 0.75 * moves, (voiced, moves)


def test_a_table_of_plain_bots_says_nothing_and_talk_hears_no_secrets() -> None:
    from deadwood_knock.tui.talk import TableTalk

    lines = _talk_game("deadwood-knock", ["greedy", "random"], 3)[1]
    assert lines and not [line for line in lines if _REMARK.match(line)]
    talk = TableTalk.for_bots([None, "figure:king-fisher"], seed=1, person=0)
    assert talk.hear(Event("knock", 1)) is not None
    assert talk.hear(Event("knock", 1, private_to=1)) is None
    assert talk.hear(Event("knock", 0)) is None  # the person's words are their own


def test_a_call_and_a_fold_speak_the_characters_own_pot_lines() -> None:
    """A call says the character's "call" line (not its bluff line), a fold its "fold"
    line, as ``talk.js`` picks them."""
    from deadwood_knock.tui.talk import TableTalk

    figures = [None, "king-fisher", "jack-harris"]
    talk = TableTalk.for_bots([None, *(f"figure:{f}" for f in figures[1:])], seed=2, person=0)
    for seat, figure in enumerate(figures):
        for kind in ("call", "fold"):
            # One such move in two is voiced (talk.EVERY): over ten rounds, some are.
            heard = []
            for number in range(1, 11):
                talk.round = number
                heard.append(talk.hear(Event(kind, seat)))
            said = [r for r in heard if r is not None]
            if figure is None:
                assert said == []
                continue
            assert 0 < len(said) < len(heard), (figure, kind, len(said))
            for remark in said:
                assert (remark.seat, remark.moment, remark.situation) == (seat, kind, kind)
                assert remark.text in _talk_of(figure, kind)
                assert remark.text not in _talk_of(figure, "bluff")


def test_a_character_says_its_lines_for_a_moment_in_turn() -> None:
    """A seat's lines for a moment (here its knocks; a win or lose line is picked the same
    way) come round in turn from round to round, so a ten-round match does not hear one of
    them at most knocks (King Fisher once said "Knocking, and I like it." at six of ten)."""
    from deadwood_knock.tui.talk import TableTalk

    lines = sorted(_talk_of("king-fisher", "knock"))
    assert len(lines) >= 3
    for seed in range(4):
        talk = TableTalk.for_bots([None, "figure:king-fisher"], seed=seed, person=0)
        said = []
        for number in range(1, 1 + 2 * len(lines)):
            talk.round = number
            remark = talk.hear(Event("knock", 1))
            assert remark is not None
            said.append(remark.text)
        assert sorted(said[: len(lines)]) == lines, (seed, said)
        assert said[len(lines) :] == said[: len(lines)], (seed, said)


def _round_result_event(
    number: int,
    scores: list[int],
    suspicion: list[int] | None = None,
    calls: tuple[str | None, ...] | None = None,
) -> Event:
    """A Deadwood Knock round's result event as the engine writes it (so its ``winner`` is
    the engine's), seat 1 the knocker, every other figure zero."""
    from deadwood_knock.games.deadwood_knock.rules import RoundResult

    n = len(scores)
    none, zero = ((),) * n, (0,) * n
    r = RoundResult(
        number,
        1,
        False,
        none,
        none,
        ("",) * n,
        zero,
        zero,
        calls or (None,) * n,
        zero,
        tuple(scores),
        tuple(suspicion or zero),
        zero,
    )
    return Event("round_result", None, r.to_json())


def test_a_caught_palm_is_called_out_by_another_character() -> None:
    """Suspicion on a seat (a palm the table caught) draws a "palm_caught" line, from the
    round's winner when it has one, never from the palmer; no line, the usual remark."""
    from deadwood_knock.tui.talk import TableTalk

    figures = [None, "luke-short", "king-fisher", "wyatt-earp"]
    talk = TableTalk.for_bots([None, *(f"figure:{f}" for f in figures[1:])], seed=4, person=0)

    def result(
        scores: list[int], suspicion: list[int], calls: tuple[str | None, ...] = (None,) * 4
    ) -> Event:
        return _round_result_event(2, scores, suspicion, calls)

    # The person palmed and lost it; Wyatt Earp took the round and calls it out.
    said = talk.hear(result([10, 20, 5, 40], [-5, 0, 0, 0]))
    assert said is not None and (said.seat, said.situation) == (3, "palm_caught")
    assert said.text in _talk_of("wyatt-earp", "palm_caught")
    # Wyatt Earp palmed: the winner, King Fisher, has no such line; Luke Short has.
    said = talk.hear(result([10, 20, 40, 5], [0, 0, 0, -5]))
    assert said is not None and (said.seat, said.situation) == (1, "palm_caught")
    # Nobody caught: the winner's usual line.
    said = talk.hear(result([10, 20, 40, 5], [0, 0, 0, 0]))
    assert said is not None and (said.seat, said.situation) == (2, "win")
    # The top score folded the pot: no "win" from a seat that sat it out.
    folded = result([10, 20, 40, 5], [0, 0, 0, 0], (None, None, "fold", "call"))
    assert talk.hear(folded) is None


def test_losing_characters_say_their_lines_in_turn_while_the_person_keeps_winning() -> None:
    """When the person wins round after round, the losing characters take turns to speak
    and each says its "lose" lines in turn at its own turns (stepped by the round, two
    losers picked by the round each said one line at every turn of theirs)."""
    from deadwood_knock.tui.talk import TableTalk

    figures = ["luke-short", "king-fisher"]
    for seed in range(6):
        talk = TableTalk.for_bots([None, *(f"figure:{f}" for f in figures)], seed=seed, person=0)
        said: dict[int, list[str]] = {1: [], 2: []}
        for number in range(1, 21):
            remark = talk.hear(_round_result_event(number, [40, 5, 3]))
            assert remark is not None and remark.situation == "lose"
            said[remark.seat].append(remark.text)
        for seat, figure in enumerate(figures, start=1):
            lines = _talk_of(figure, "lose")
            run = said[seat]
            assert len(lines) >= 2 and len(run) >= len(lines), (seed, seat, run)
            assert all(a != b for a, b in itertools.pairwise(run)), (seed, seat, run)
            assert set(run[: len(lines)]) == lines, (seed, seat, run)


def test_the_same_seed_says_the_same() -> None:
    first = _talk_game("deadwood-knock", ["jack-harris", "king-fisher"], 5)[1]
    again = _talk_game("deadwood-knock", ["jack-harris", "king-fisher"], 5)[1]
    assert first == again
    assert [line for line in first if _REMARK.match(line)]


def test_the_terminal_prints_a_poker_hand_in_reading_order() -> None:
    """Hand Focus's "Poker hand:" line and the round result read each poker hand as the
    engine's ``reading_order`` lays it out (a run as a run, groups first), not index order."""
    from deadwood_knock.cards import parse_card
    from deadwood_knock.games import get_game
    from deadwood_knock.games.deadwood_knock.hand import reading_order
    from deadwood_knock.tui.words import evaluation_lines

    def read(text: str) -> list[int]:
        return [int(parse_card(t)) for t in text.replace("10", "T").split()]

    game = get_game("deadwood-knock")
    reordered = 0
    for seed in range(40):
        state = game.new_game(game.options_from_json({"players": 2}), seed)
        obs = game.observe(state, 0)
        line = next(x for x in evaluation_lines(game.name, obs) if x.startswith("Poker hand:"))
        printed = read(line.removeprefix("Poker hand:").split("—")[0])
        assert printed == [int(c) for c in reading_order(printed)], line
        reordered += printed != sorted(printed)
    assert reordered > 0  # some deals read differently from index order


def test_the_terminal_gives_the_lowest_count_a_discard_leaves() -> None:
    """Knock Rummy's Your Count, holding a card to throw, names the lowest count a discard
    leaves and the cards that leave it, from the engine's ``discard_counts``."""
    from deadwood_knock.games import get_game
    from deadwood_knock.tui.words import cards_text, evaluation_lines

    game = get_game("knock-rummy")
    state = game.new_game(game.options_from_json({"players": 2}), 3)
    seat = state.to_act
    assert not any(
        x.startswith("Lowest count") for x in evaluation_lines(game.name, game.observe(state, seat))
    )
    state, _ = game.apply(state, game.legal_actions(state)[0])
    obs = game.observe(state, seat)
    after = dict(obs.discard_counts)
    low = min(after.values())
    cards = " or ".join(cards_text([c]) for c, n in after.items() if n == low)
    assert f"Lowest count after a discard: {low} ({cards})." in evaluation_lines(game.name, obs)


def test_the_terminal_writes_a_deadwood_below_zero_with_a_minus_sign() -> None:
    """Two jokers (−2 each) take the deadwood below zero: the sum adds it and every figure
    below zero has a true minus sign, as the rest of the table prints them."""
    from types import SimpleNamespace

    from deadwood_knock.cards import JOKERS, parse_cards
    from deadwood_knock.games.deadwood_knock.hand import evaluate
    from deadwood_knock.tui.words import evaluation_lines

    ev = evaluate((*parse_cards("9h 9c Kd 6s 4h 3h".split()), *JOKERS))
    assert (ev.hand_points, ev.deadwood_points, ev.knock_count, ev.score) == (15, -1, -1, 16)
    lines = evaluation_lines("deadwood-knock", SimpleNamespace(evaluation=ev))
    assert lines[1] == "Deadwood:   3♥ Joker Joker — −1 point"
    assert lines[2].startswith("Score 15 + 1 = 16   Knock count −1 ")
    assert "-" not in "".join(lines)


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("game", "bots"), [("deadwood-knock", ["random", "random"]), ("gin", ["random"])]
)
async def test_the_terminal_holds_the_hand_as_the_engine_groups_it(
    game: str, bots: list[str]
) -> None:
    """The hand on screen, and the number keys that pick from it: the engine's groups first
    in the engine's order (the poker hand as it reads; each meld), then the rest by suit and
    rank, as the web table holds it."""
    from deadwood_knock.cards import sort_key
    from deadwood_knock.games.deadwood_knock.hand import reading_order

    session = Session(game, bots, seed=7)
    app = DeadwoodApp(session, bot_pause=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        obs = session.observation()
        if game == "deadwood-knock":
            groups = [list(reading_order(obs.evaluation.poker_hand))]
        else:
            groups = [list(m) for m in obs.arrangement.melds]
        grouped = [c for g in groups for c in g]
        rest = sorted((c for c in obs.hand if c not in grouped), key=sort_key)
        assert app.hand_order() == grouped + rest
        assert sorted(app.hand_order()) == sorted(obs.hand)
        # The screen's hand line reads in that order, key 1 on the first card.
        line = next(x for x in app.screen_text().splitlines() if "Your hand" in x)
        assert f"1:{app.hand_order()[0].pretty()}" in line
        shown = [line.index(f":{c.pretty()}") for c in app.hand_order()[:5]]
        assert shown == sorted(shown), line


def test_a_bot_is_named_as_the_web_names_it() -> None:
    """Plain bots read as names, the id's underscore a space ("High Roller (3)", as the web
    writes ``high_roller``), a character by its own name, and a name twice gets its seat."""
    from deadwood_knock.tui.session import seat_names

    assert seat_names(["greedy", "high_roller", "greedy"]) == [
        "Greedy (2)",
        "High Roller (3)",
        "Greedy (4)",
    ]
    assert seat_names(["figure:luke-short"]) == ["Luke Short"]


@pytest.mark.parametrize(("game", "opponents"), [("gin", ["greedy"]), ("knock-rummy", ["random"])])
def test_a_hand_result_says_who_ended_it_and_who_won_in_one_sentence(
    game: str, opponents: list[str]
) -> None:
    """The ender who won: "You knocked and won the hand."; otherwise who won, with
    "you" lower-cased after the semicolon (play showed "You knocked; You won")."""
    seen = {"same": 0, "other": 0}
    for hr, lines in _played_results(game, opponents, range(6)):
        if hr.outcome == "void":
            continue
        head = lines[0].split(": ", 1)[1]
        if list(hr.winners) == [hr.ender]:
            seen["same"] += 1
            assert head.endswith(" and won the hand.") and ";" not in head, head
        else:
            seen["other"] += 1
            assert ";" in head and " and won the hand" not in head, head
            if hr.winners[0] == 0:  # the person's seat
                assert "; you " in head, head
        assert "; You" not in head, head
    assert seen["same"] and seen["other"], seen


def test_a_long_poker_hand_shows_the_five_that_score_and_names_the_rest() -> None:
    """A 7-card straight that scores a flush inside it (DK3): the line shows the flush's
    five with the category, and the other two cards apart, as completing the straight,
    so "flush" never stands over a spade."""
    from types import SimpleNamespace

    from deadwood_knock.games.deadwood_knock.core import RoundResult

    r = RoundResult(
        round=1,
        knocker=0,
        dry=False,
        poker_hands=(parse_cards("7h 8h 9h Th Js Qh Ks"), parse_cards("Qs Qh Jd Tc 9s")),
        deadwood=(parse_cards("JK"), parse_cards("2c 3d 4h")),
        categories=("flush", "pair"),
        hand_points=(60, 15),
        deadwood_points=(-2, 9),
        calls=(None, "call"),
        pot=(10, -10),
        round_scores=(72, -4),
        suspicion=(0, 0),
        totals=(72, -4),
    )
    obs = SimpleNamespace(last_result=r, seat=0)
    lines = result_lines("deadwood-knock", obs, ["You", "Doc"], compact=False)
    assert "Q♥ 10♥ 9♥ 8♥ 7♥ (a flush; J♠ K♠ complete the 7-card straight) 60" in lines[1], lines
    assert "Q♠ Q♥ J♦ 10♣ 9♠ (a pair) 15" in lines[2], lines
    assert r.to_json()["best_fives"][0] == ["Qh", "Th", "9h", "8h", "7h"]
    assert r.to_json()["long_hands"] == ["straight", None]


def test_your_seat_is_capital_only_where_it_opens_a_sentence() -> None:
    """ "You" opens a line ("You call."); inside one (after a colon, ";" or "and") it is
    "you", as the web client says it: "Round 1 result: Doc knocked; you called."."""
    from types import SimpleNamespace

    from deadwood_knock.games.deadwood_knock.core import RoundResult

    names = ["You", "Doc"]
    r = RoundResult(
        round=1,
        knocker=1,
        dry=False,
        poker_hands=(parse_cards("Ks Kh 9d 8c 7s"), parse_cards("Qs Qh Jd Tc 9s")),
        deadwood=(parse_cards("2c 3d 4h"), parse_cards("Ac 2d 3h")),
        categories=("pair", "pair"),
        hand_points=(15, 15),
        deadwood_points=(9, 6),
        calls=("call", None),
        pot=(10, -10),
        round_scores=(16, -1),
        suspicion=(0, 0),
        totals=(16, -1),
    )
    obs = SimpleNamespace(last_result=r, seat=0)
    lines = result_lines("deadwood-knock", obs, names)
    assert lines[0] == "Round 1 result: Doc knocked; you called.", lines
    assert lines[1].startswith("  You: "), lines
    deal = Event("deal", None, {"round": 2, "dealer": 0, "flipped": parse_card("6d")})
    assert describe_event(deal, names, 0) == "— Round 2: you deal; 6♦ starts the pile."
    totals = Event("round_result", None, {"totals": [16, -1]})
    assert describe_event(totals, names, 0) == "Totals: you 16, Doc −1."
    # With the round's own scores (the engine's result), they come first, as in the web log.
    scored = Event("round_result", None, r.to_json())
    assert (
        describe_event(scored, names, 0)
        == "Round 1 scored: you +16, Doc −1. Totals: you 16, Doc −1."
    )
    hand = Event(
        "hand_result",
        None,
        {"hand": 2, "outcome": "gin", "winners": [1], "scores": [0, 31], "totals": [5, 40]},
    )
    assert (
        describe_event(hand, names, 0)
        == "Hand 2 to Doc (gin): you 0, Doc +31. Totals: you 5, Doc 40."
    )
    over = Event("match_over", None, {"winners": [0]})
    assert describe_event(over, names, 0) == "Game over: you win."
    assert game_over_line(names, [474, 454], 0) == "The game is over: you won with 474."
    assert game_over_line(names, [300, 300], 0) == "The game is over: you and Doc won with 300."
    assert game_over_line(names, [3, 9], 0) == "The game is over: Doc won with 9."
    assert describe_event(Event("call", 0, {}), names, 0) == "You call."


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [SIZE, SMALL])
async def test_hand_focus_gives_way_to_the_log_once_the_game_is_over(size: tuple[int, int]) -> None:
    """At the game's end Hand Focus said "Hints come on your turn." (there are no more
    turns) and, on a small screen, hid the log with the last round's scores."""
    session = Session("knock-rummy", ["greedy"], seed=5, target=30)
    _play_out(session, 5, lambda: None)
    app = DeadwoodApp(session, bot_pause=0)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        await pilot.press("h")
        await pilot.pause()
        text = app.screen_text()
        assert "Hints come on your turn" not in text and "Hand Focus" not in text
        assert "The game is over" in text
        assert app.query_one("#log").display and session.log[-1] in text


@pytest.mark.asyncio
async def test_an_empty_discard_pile_reads_as_empty() -> None:
    """Gin's first taker leaves the pile empty: it read "Discard pile: empty on top (0 cards)"."""
    session = Session("gin", ["greedy"], seed=5)
    app = DeadwoodApp(session, bot_pause=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        while session.observation().discard_pile:
            legal = session.legal()
            take = next((a for a in legal if a.kind == "draw" and a.source == "discard"), None)
            session.apply(take or next(a for a in legal if a.kind == "discard"))
            app.refresh_view()
            await settle(pilot, app)
        text = app.screen_text()
        assert "Discard pile: empty ·" in text and "on top (0 cards)" not in text


@pytest.mark.asyncio
async def test_a_long_result_line_wraps_whole_with_its_total() -> None:
    """A result line longer than 80 columns (a long name, jokers' "(jokers count −2)")
    wrapped where the screen cut it: "… = 62  → total" and "244" alone on the next row."""
    session = Session("deadwood-knock", ["greedy", "greedy"], seed=5, rounds=1)
    session.names = ["You", "Calamity Jane Canary of Deadwood", "Wild Bill Hickok"]
    _play_out(session, 5, lambda: None)
    app = DeadwoodApp(session, bot_pause=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        rows = [r.rstrip() for r in app.widget_lines(app.query_one("#result-text"))]
        rows = [r for r in rows if r.strip()]
        totals = session.observation().last_result.totals
        lines = result_lines(session.name, session.observation(), session.names, compact=True)
        assert max(len(r) for r in lines) > 78
        for total in totals:
            figure = f"→ total {total}".replace("-", "−")
            assert any(figure in r for r in rows), (figure, rows)
        assert not any(r.endswith(("→ total", "total", "→")) for r in rows), rows
        # A wrapped line goes on indented under its start, as the log's lines do.
        assert all(r.startswith("  ") for r in rows[1:]), rows


@pytest.mark.asyncio
async def test_the_prompt_never_parts_a_key_from_what_it_does() -> None:
    """At 80 columns the prompt wrapped as "· s take from the stock · d" above "take the top
    discard 6♠ · h" above "hint": a key at one line's end, its words on the next."""
    session = Session("deadwood-knock", ["greedy", "greedy"], seed=5)
    app = DeadwoodApp(session, bot_pause=0)
    lone_key = re.compile(r"(^|· )(\S{1,7})$")
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        seen = 0
        for moves in range(12):
            rows = [r.rstrip() for r in app.widget_lines(app.query_one("#prompt")) if r.strip()]
            seen += len(rows) > 1
            for row in rows:
                assert not lone_key.search(row), rows
            action = dk_choice(session.legal(), moves)
            await play_by_keys(pilot, app, action)
            if session.over():
                break
        assert seen  # the prompt did wrap


@pytest.mark.asyncio
async def test_the_prompt_says_which_card_a_knock_needs() -> None:
    """Gin: with a card picked that cannot be the knock's discard the prompt did not say a
    knock was possible at all, though Hand Focus advised one."""
    session = Session("gin", ["greedy"], seed=5)
    app = DeadwoodApp(session, bot_pause=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        for moves in range(200):
            legal = session.legal()
            knocks = [a.discard for a in legal if a.kind == "knock"]
            others = [c for c in app.hand_order() if c not in knocks]
            if knocks and others:
                break
            action = kr_choice(app, moves)
            if action.kind == "knock":  # play on, to reach a knock with a card picked
                action = next(a for a in legal if a.kind == "discard")
            await play_by_keys(pilot, app, action)
        else:
            raise AssertionError("no knock came")
        i = app.hand_order().index(others[0])
        await pilot.press("1234567890"[i] if i < 10 else "minus")
        await pilot.pause()
        prompt = " ".join(r.strip() for r in app.widget_lines(app.query_one("#prompt")))
        assert "k knock: pick" in prompt and knocks[0].pretty() in prompt, prompt


@pytest.mark.asyncio
async def test_the_prompt_wraps_to_the_new_width_after_a_resize() -> None:
    """Narrowed from 80 to 60 columns, the prompt kept its 80-column lines and the screen
    broke them again ("· s take" above "from the stock ·" above "d take …")."""
    session = Session("deadwood-knock", ["greedy", "greedy"], seed=5)
    app = DeadwoodApp(session, bot_pause=0)
    lone_key = re.compile(r"(^|· )(\S{1,7})$")
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        await pilot.resize_terminal(60, 20)
        for _ in range(5):
            await pilot.pause()
        rows = [r.rstrip() for r in app.widget_lines(app.query_one("#prompt")) if r.strip()]
        assert len(rows) > 1
        for row in rows:
            assert not lone_key.search(row), rows


def test_the_help_writes_minus_as_the_table_does() -> None:
    """The help read "joker -2", "-5" and "hand points - deadwood" with a hyphen, while
    the table, the results and Hand Focus write a true minus ("jokers count −2")."""
    from deadwood_knock.tui.words import help_lines

    session = Session("deadwood-knock", ["greedy"], seed=1, sleight_of_hand=True)
    text = "\n".join(help_lines(session.name, session.observation().options))
    assert "joker −2" in text and "points − deadwood" in text
    assert not re.search(r"(?<![\w-])-\d", text), re.findall(r".{20}(?<![\w-])-\d.{5}", text)


# --- playing at 80×24: what a player noticed (branch tui46) -----------------------------------


async def _hint_shown(pilot: Any, app: DeadwoodApp) -> None:
    for _ in range(500):
        await pilot.pause()
        if app.hint is not None and app._hint_for is app.session.state:
            break
    await pilot.pause()


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [SMALL, (100, 30), (120, 40)])
@pytest.mark.parametrize(
    ("game", "bots"),
    [
        ("deadwood-knock", None),
        ("deadwood-knock", ["greedy", "random", "greedy", "random", "greedy"]),
        ("knock-rummy", ["greedy", "random", "greedy"]),
        ("gin", ["greedy"]),
    ],
)
async def test_hand_focus_leaves_the_latest_moves_in_view(
    game: str, bots: list[str] | None, size: tuple[int, int]
) -> None:
    """With Hand Focus on, the others' latest moves stay on screen above the hint (at
    80×24 the hint took the log's place: the player no longer saw what had just been
    done), and the hint's best move is on screen whole, every panel inside the screen."""
    session = Session(game, bots, seed=23, rounds=2, target=40)
    app = DeadwoodApp(session, bot_pause=0, hint_budget=Budget(iterations=30))
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        for turn in range(3):
            if session.over():
                break
            await pilot.press("h")
            await _hint_shown(pilot, app)
            assert app.hint is not None
            text = app.screen_text()
            for row in app.widget_lines(app.query_one("#banner")):
                assert len(row.rstrip()) <= size[0]
            # The log's two newest rows, as written (wrapped) to the log.
            assert app.query_one("#log").display
            rows = [r.strip("│ ▁▂▃▄▅▆▇█") for r in app.log_lines()]
            shown = [r for r in rows if r and r[0] not in "╭╰"]
            assert len(shown) >= 2, shown
            assert session.log[-1].endswith(shown[-1])
            assert shown[-1] in text and shown[-2] in text
            # The hint: its header and its best move, and the whole panel on screen.
            assert "Hand Focus (h hides)" in text
            best = app.hint.ranking_lines()[0]
            panel = app.query_one("#focus" if size == (120, 40) else "#focus-low")
            assert panel.display
            flat = " ".join(" ".join(r.strip("│╭╮╰╯─ ") for r in app.widget_lines(panel)).split())
            assert best in flat, (best, flat)
            if size == SMALL:
                _fully_on_screen(app)
            for selector in ("#focus", "#focus-low", "#log"):
                widget = app.query_one(selector)
                if widget.display:
                    assert widget.region.bottom <= size[1], selector
            await pilot.press("h")
            # Play on: the hint off, a move by keys.
            legal = session.legal()
            dk = game == "deadwood-knock"
            action = dk_choice(legal, 0) if dk else kr_choice(app, turn)
            await play_by_keys(pilot, app, action)


@pytest.mark.asyncio
async def test_a_long_hint_is_cut_from_its_last_move_up_to_leave_the_log_two_rows() -> None:
    """Six players at 80×24 leave the bottom of the screen a dozen rows: a hint longer than
    that loses its lowest-ranked moves, then the knock advice, never its best move, and
    the log keeps its two newest rows (``LOG_ROWS``) above it."""
    from dataclasses import replace

    from deadwood_knock.tui import app as tui_app

    log_rows = getattr(tui_app, "LOG_ROWS", 2)
    bots = ["greedy", "random", "greedy", "random", "greedy"]
    session = Session("deadwood-knock", bots, seed=23)
    app = DeadwoodApp(session, bot_pause=0, hint_budget=Budget(iterations=30))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        await pilot.press("h")
        await _hint_shown(pilot, app)
        assert app.hint is not None and len(app.hint.ranking_lines(3)) == 3
        long = app.hint.explanation + " " + app.hint.explanation
        app.hint = replace(app.hint, explanation=long, knock_advice=app.hint.explanation)
        app.refresh_view()
        for _ in range(3):
            await pilot.pause()
        _fully_on_screen(app)
        low = app.query_one("#focus-low")
        bottom = app.query_one("#bottom")
        assert low.region.bottom <= bottom.region.bottom
        flat = " ".join(" ".join(app.widget_lines(low)).split())
        first, _, third = app.hint.ranking_lines(3)
        assert first in flat and third not in flat
        assert flat.startswith("Hand Focus (h hides) " + " ".join(long.split())[:60])
        shown = app.log_lines()
        assert len(shown) >= log_rows and session.log[-1].endswith(shown[-1])
        assert shown[-1] in app.screen_text()


@pytest.mark.asyncio
@pytest.mark.parametrize("source", ["s", "d"])
async def test_the_pick_follows_its_card_when_a_draw_regroups_the_hand(source: str) -> None:
    """Picking a card, then drawing: the hand regroups (the new card sorts in, a meld
    forms) and the pick stays on the card, not on its old slot (seed 6002 at Gin: 10♣
    was picked at key 0, the draw of 6♠ moved it to key -, and 6♣ was picked instead)."""
    moved = 0
    for seed in (6002, 6004, 6006, 6009):
        session = Session("gin", ["greedy"], seed=seed)
        app = DeadwoodApp(session, bot_pause=0)
        async with app.run_test(size=SMALL) as pilot:
            await settle(pilot, app)
            hand = app.hand_order()
            if not any(a.kind == "draw" and a.source == "discard" for a in session.legal()):
                continue
            for i in range(len(hand)):
                await pilot.press("1234567890"[i])
                assert app.selected_card() == hand[i]
                if i == len(hand) - 1:
                    break
            picked = hand[-1]
            await pilot.press(source)
            await settle(pilot, app)
            after = app.hand_order()
            moved += after.index(picked) != len(hand) - 1
            assert app.selected_card() == picked, (seed, picked, app.selected_card())
            assert f"[{'1234567890-'[after.index(picked)]}:{picked.pretty()}]" in app.screen_text()
    assert moved, "no draw moved the picked card: the test shows nothing"


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [SMALL, SIZE])
async def test_the_game_over_gin_hand_is_the_hand_as_settled(size: tuple[int, int]) -> None:
    """A Gin game that ends on a knock against you: the hand left on screen is the hand
    the engine settled, the cards you laid off on the knocker's melds apart from your
    deadwood, and the count the result scored (seed 6008: the screen held 2♠ in the
    deadwood, "count 26", while the result said count 24 and "Laid off: 2♠")."""
    session = Session("gin", ["greedy"], seed=6008, target=20)
    _play_out(session, 6008, lambda: None)
    hr = session.observation().last_result
    assert hr.ender == 1 and hr.layoffs  # the premise: your cards went onto Greedy's melds
    assert set(hr.layoffs) <= set(session.observation().hand)
    app = DeadwoodApp(session, bot_pause=0)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        panel = [r.strip("│ ") for r in app.widget_lines(app.query_one("#hand"))]
        arr = hr.arrangements[0]
        dead = next(r for r in panel if r.startswith("Deadwood:"))
        assert dead == f"Deadwood: {cards_text(arr.deadwood)} — count {hr.counts[0]}"
        assert arr.deadwood_points == hr.counts[0]
        laid = f"Laid off on Greedy (2)'s melds: {cards_text(hr.layoffs)}"
        assert laid in panel
        melds = " | ".join(cards_text(m) for m in arr.melds)
        assert f"Melds: {melds}" in panel
        # Nothing about a next discard: the game is over.
        assert not any(r.startswith(("Knocking needs", "Lowest count")) for r in panel)
        # The hand in the settlement's order: melds, deadwood, the cards laid off last.
        order = [*(c for m in arr.melds for c in m), *arr.deadwood, *hr.layoffs]
        assert sorted(app.hand_order()) == sorted(order)
        assert app.hand_order()[-len(hr.layoffs) :] == list(hr.layoffs)
        # The result says whose cards went onto whose melds, and shows those melds (a
        # small screen left every card out of the result).
        text = " ".join(app.screen_text().split())
        assert f"You laid off {cards_text(hr.layoffs)} on Greedy (2)'s melds." in text
        knocker = " | ".join(cards_text(m) for m in hr.arrangements[1].melds)
        assert f"Greedy (2): melds {knocker}; deadwood" in text
        if size == SMALL:
            _fully_on_screen(app)


def test_a_layoff_onto_your_melds_is_said_as_the_opponents() -> None:
    """The result line for a lay-off names who laid off on whose melds."""
    from types import SimpleNamespace

    session = Session("gin", ["greedy"], seed=6000, target=200)
    seen: list[Any] = []

    def keep() -> None:
        hr = session.observation().last_result
        if hr is not None and hr.layoffs and hr.ender == 0 and hr not in seen:
            seen.append(hr)

    _play_out(session, 6000, keep)
    assert seen, "no hand of this game had a lay-off onto your melds"
    obs = SimpleNamespace(seat=0, last_result=seen[0], options=session.observation().options)
    lines = result_lines("gin", obs, session.names)
    assert f"  Greedy (2) laid off {cards_text(seen[0].layoffs)} on your melds." in lines


def test_an_undercut_knock_reads_in_the_knockers_person() -> None:
    """ "you knocked and was undercut" read as the other seat's words: yours is "were"."""
    from types import SimpleNamespace

    session = Session("gin", ["greedy"], seed=6000, target=200)
    undercuts: list[Any] = []

    def keep() -> None:
        hr = session.observation().last_result
        if hr is not None and hr.outcome == "undercut" and hr not in undercuts:
            undercuts.append(hr)

    _play_out(session, 6000, keep)
    enders = {hr.ender for hr in undercuts}
    assert 0 in enders, "no undercut of your knock in this game"
    for hr in undercuts:
        obs = SimpleNamespace(seat=0, last_result=hr, options=session.observation().options)
        head = result_lines("gin", obs, session.names)[0]
        taker = session.names[hr.winners[0]] if hr.winners[0] else "you"
        knocker = session.names[hr.ender] if hr.ender else "you"
        verb = "were" if hr.ender == 0 else "was"
        assert head.endswith(f": {knocker} knocked and {verb} undercut; {taker} won the hand.")


@pytest.mark.asyncio
async def test_a_small_screen_names_each_total_as_a_total() -> None:
    """Beside a name the compact table wrote the total bare: "Greedy (2) (32)" read as two
    seat numbers. It says "(total 32)", and the prompt at a call reads "Luke Short
    knocked. Call or fold: …" (not "knocked: call or fold: c call: …")."""
    session = Session("deadwood-knock", ["greedy", "luke-short"], seed=6021, rounds=3)
    _play_out(session, 6021, lambda: None)
    app = DeadwoodApp(session, bot_pause=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        table = app.widget_lines(app.query_one("#table"))
        totals = session.observation().totals
        for seat, name in enumerate(session.names[1:], 1):
            row = next(r for r in table if f" {name} (" in r)
            assert f"{name} (total {figure_text(totals[seat])}):" in row, row
        hand = " ".join(app.widget_lines(app.query_one("#hand")))
        assert f"Your hand ({figure_text(totals[0])}):" in hand


@pytest.mark.asyncio
async def test_the_call_prompt_reads_as_two_sentences() -> None:
    session = Session("deadwood-knock", ["greedy"], seed=8)
    app = DeadwoodApp(session, bot_pause=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        for _ in range(60):
            obs = session.observation()
            if obs.phase == "call" and session.legal():
                break
            action = dk_choice(session.legal(), 0)  # never a knock: a bot knocks
            await play_by_keys(pilot, app, action)
        assert session.observation().phase == "call" and session.legal()
        knocker = session.names[session.observation().knocker]
        prompt = " ".join(" ".join(app.widget_lines(app.query_one("#prompt"))).split())
        assert prompt.startswith(f"{knocker} knocked. Call or fold: c call: put "), prompt


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [SMALL, SIZE])
async def test_no_log_line_ends_under_the_scrollbar(size: tuple[int, int]) -> None:
    """A log line wrapped while the log had no scrollbar ran under it once the log
    scrolled: at 80×24 "…, Luke Short +41, Lotti" lost its "e" (six players' round
    scores). The log keeps the scrollbar's columns free from the start."""
    session = Session("deadwood-knock", ["greedy"], seed=3)
    app = DeadwoodApp(session, bot_pause=0, hint_budget=Budget(iterations=20))
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        log = app.query_one("#log")
        width = log.content_size.width
        ends = [f"END{i:02d}" for i in range(3)]
        rows = log.content_size.height
        while len(log.lines) + len(session.log) - app._logged + len(ends) < rows:
            session.log.append("a short line")
        for end in ends:  # each line as long as the log's width allowed before the fix
            session.log.append("x" * (width - 2 - len(end)) + " " + end)
        app.refresh_view()
        await pilot.pause()
        # Now the log scrolls: at 80×24 Hand Focus takes its room, elsewhere more lines.
        if size == SMALL:
            await pilot.press("h")
        else:
            for i in range(80):
                session.log.append(f"line {i}")
            session.log.append("y" * (width - 2 - 5) + " LAST!")
            app.refresh_view()
        for _ in range(3):
            await pilot.pause()
        assert log.max_scroll_y > 0, "the log does not scroll: the test shows nothing"
        # The scrollbar is drawn over the log's right columns: no line may reach them.
        room = log.scrollable_content_region.width
        assert log.scrollbar_size_vertical > 0
        assert max(len(line) for line in log.lines) <= room, (room, log.lines[-1])
        assert (ends[-1] if size == SMALL else "LAST!") in log.lines[-1]


@pytest.mark.asyncio
async def test_a_long_seat_row_goes_on_indented_under_its_start() -> None:
    """At the showdown every hand is known: with its tags and total a seat's row can pass
    80 columns (seed 6058, six players); it went on with "Joker" alone at the left edge."""
    session = Session(
        "deadwood-knock", ["greedy", "random", "greedy", "random", "greedy"], seed=6058, rounds=1
    )
    _play_out(session, 6058, lambda: None)
    app = DeadwoodApp(session, bot_pause=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        rows = [r.rstrip() for r in app.widget_lines(app.query_one("#table"))]
        obs = session.observation()
        seats = len(session.names) - 1
        assert len(rows) > seats + 1, "no seat's row is too long: the test shows nothing"
        for row in rows:
            assert len(row) <= SMALL[0] - 1
        going_on = [r for r in rows if not re.match(r"^ (  |▶ )\S| Discard pile", r)]
        assert going_on, rows
        for r in going_on:
            assert r.startswith("     ") and r[5] != " ", rows  # indented under its start
        # Every known card of every seat is on screen, whole.
        text = " ".join(rows)
        for seat in range(1, seats + 1):
            for c in obs.known_cards[seat]:
                assert c.pretty() in text


#: What the hand summary says of the knock count in each situation (tests/knock_positions.py).
KNOCK_WORDS = {
    "now": "you may knock now",
    "their_turn": "low enough to knock on your turn",
    "they_knocked": "no more knocks this round",
    "i_knocked": "you knocked",
    "over_limit": "knocking needs 11 or less",
    "over": "no knock: the round is over",
}


def test_the_hand_summary_says_when_a_knock_is_possible() -> None:
    """Read in play: "Knock count 1 (low enough to knock)" while another seat was to act and
    after a knock, when no knock was possible. The words now follow the observation's facts
    (DK2, DK4: a knock only at the start of your turn, while nobody has knocked)."""
    from deadwood_knock.tui.words import evaluation_lines
    from knock_positions import knock_observations

    observations = knock_observations()
    assert set(observations) == set(KNOCK_WORDS)
    for name, obs in observations.items():
        line = evaluation_lines("deadwood-knock", obs)[-1]
        count = obs.evaluation.knock_count
        assert line.endswith(f"Knock count {count} ({KNOCK_WORDS[name]})"), (name, line)
        legal = any(a.kind == "knock" for a in obs.legal_actions)
        assert ("may knock now" in line) == legal, (name, line)
