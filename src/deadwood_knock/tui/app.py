"""The Textual app: one person (seat 0) against bots, keyboard first.

Keys: 1-9/0 or ←/→ pick a card; s/d/p take from stock/discard/palm (Deadwood Knock) or
draw from stock/discard (Knock Rummy, Gin); in the discard step d or Enter discards the
picked card; k knock; r rummy; t stand; c call; f fold; h Hand Focus; q quit (asks first).
Each key works only when the engine lists a matching legal action.
"""

from __future__ import annotations

import asyncio
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from deadwood_knock.bots import Budget
from deadwood_knock.bots.hints import Hint, hand_focus
from deadwood_knock.cards import Card, parse_card, sort_key
from deadwood_knock.tui.session import HUMAN_SEAT, Session
from deadwood_knock.tui.words import cards_text, evaluation_lines, result_lines

__all__ = ["DeadwoodApp"]

_NUMBER_KEYS = "1234567890-"
_KEY_NAMES = {"minus": "-"}  # Textual's name for the 11th card's key
_LOG_LINES = 12


def action_words(action: dict[str, Any]) -> str:
    """A ranked action's JSON form in a few words (for the Hand Focus list)."""
    kind = action.get("type")

    def c(key: str) -> str:
        return parse_card(str(action[key])).pretty()

    if kind == "draw" and "select" in action:
        where = {"stock": "the stock", "discard": "the pile", "palm": "a palm"}[action["source"]]
        return f"discard {c('select')}, take from {where}"
    if kind == "draw":
        return f"draw from the {'stock' if action['source'] == 'stock' else 'pile'}"
    if kind == "discard":
        return f"discard {c('card')}"
    if kind == "knock" and "discard" in action:
        return f"knock, discarding {c('discard')}"
    if kind == "rummy":
        return "go rummy" + (f", discarding {c('discard')}" if action.get("discard") else "")
    return str(kind)


class DeadwoodApp(App[None]):
    """Play a session; ``bot_pause`` is the visible pause before each bot move."""

    TITLE = "Deadwood Knock"
    CSS = """
    Screen { layout: vertical; }
    #banner { height: auto; background: $boost; text-style: bold; padding: 0 1; }
    #top { height: auto; }
    #table { width: 1fr; height: auto; border: round $secondary; padding: 0 1; }
    #focus { width: 1fr; height: auto; border: round $warning; padding: 0 1; }
    #hand { height: auto; border: round $primary; padding: 0 1; }
    #prompt { height: auto; padding: 0 1; text-style: bold; }
    #results { height: auto; border: round $success; padding: 0 1; }
    #log { height: 1fr; border: round $panel; padding: 0 1; }
    """

    def __init__(
        self,
        session: Session,
        *,
        bot_pause: float = 0.6,
        hint_budget: Budget | None = None,
    ) -> None:
        super().__init__()
        self.session = session
        self.bot_pause = bot_pause
        self.hint_budget = hint_budget or Budget(seconds=0.25, iterations=300)
        self.selected = 0
        self.show_focus = False
        self.confirm_quit = False
        self.message = ""
        self.hint: Hint | None = None
        self._hint_for: Any = None  # the state the hint was computed for
        self.bots_running = False

    # --- layout -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="banner", markup=False)
        with Horizontal(id="top"):
            yield Static(id="table", markup=False)
            yield Static(id="focus", markup=False)
        yield Static(id="hand", markup=False)
        yield Static(id="prompt", markup=False)
        yield Static(id="results", markup=False)
        with Vertical(id="log"):
            yield Static(id="loglines", markup=False)

    def on_mount(self) -> None:
        self.query_one("#focus").display = False
        self.refresh_view()
        self._start_bots()

    # --- what the screen shows ------------------------------------------------------------

    def hand_order(self) -> list[Card]:
        return sorted(self.session.observation().hand, key=sort_key)

    def selected_card(self) -> Card | None:
        hand = self.hand_order()
        if not hand:
            return None
        self.selected = max(0, min(self.selected, len(hand) - 1))
        return hand[self.selected]

    def refresh_view(self) -> None:
        s = self.session
        obs = s.observation()
        self.query_one("#banner", Static).update(self._banner(obs))
        self.query_one("#table", Static).update(self._table(obs))
        self.query_one("#hand", Static).update(self._hand(obs))
        self.query_one("#prompt", Static).update(self._prompt(obs))
        results = result_lines(s.name, obs, s.names)
        panel = self.query_one("#results", Static)
        panel.display = bool(results)
        panel.update("\n".join(results))
        # Newest lines last, as many as the log box holds once the other panels are drawn.
        room = self.query_one("#log").size.height or _LOG_LINES
        self.query_one("#loglines", Static).update("\n".join(s.log[-room:]))
        focus = self.query_one("#focus", Static)
        focus.display = self.show_focus
        focus.update(self._focus_text())

    def _banner(self, obs: Any) -> str:
        s = self.session
        parts = [s.game.title]
        if s.name == "deadwood-knock":
            parts.append(f"Round {obs.round} of {obs.options.rounds}")
            parts.append(
                {
                    "play": "Play",
                    "final": "Final turns",
                    "call": "Call or fold",
                    "reveal": "Showdown",
                    "over": "Match over",
                }[obs.phase]
            )
            if obs.final_turn:
                parts.append("*** FINAL TURN ***")
            elif obs.knocker is not None and obs.phase == "final":
                parts.append(f"{s.names[obs.knocker]} knocked")
        else:
            parts.append(f"Hand {obs.hand_number}, game to {obs.options.target}")
            parts.append("Game over" if obs.over else f"{obs.phase.title()} step")
        totals = "  ".join(f"{s.names[i]} {t}" for i, t in enumerate(obs.totals))
        parts.append(f"Scores: {totals}")
        return "  |  ".join(parts)

    def _table(self, obs: Any) -> str:
        s = self.session
        lines = []
        for seat in range(len(s.names)):
            if seat == HUMAN_SEAT:
                continue
            known = obs.known_cards[seat]
            mark = "▶ " if obs.to_act == seat else "  "
            tags = []
            if obs.dealer == seat:
                tags.append("dealer")
            if s.name == "deadwood-knock":
                if obs.knocker == seat:
                    tags.append("knocked")
                if obs.calls[seat]:
                    tags.append(f"{obs.calls[seat]}ed")
                if obs.palmed[seat]:
                    tags.append("palmed")
            tag = f" [{', '.join(tags)}]" if tags else ""
            lines.append(
                f"{mark}{s.names[seat]}: {_count(obs.hand_sizes[seat])}{tag}, "
                f"known: {cards_text(known)}"
            )
        pile = obs.discard_pile
        top = cards_text(pile[-1:]) if pile else "empty"
        lines.append(f"Discard pile: {top} on top ({_count(len(pile))})")
        if s.name == "deadwood-knock" and len(pile) >= 2:
            lines.append(f"  buried card under it: {cards_text(pile[-2:-1])}")
        lines.append(f"Stock: {_count(obs.stock_size)}")
        if s.name == "deadwood-knock" and obs.covers:
            lines.append(f"Set aside (palm covers): {cards_text(obs.covers)}")
        if s.name != "deadwood-knock" and obs.public_stock is not None:
            lines.append("The stock is the turned-over pile: its draws are public.")
        return "\n".join(lines)

    def _hand(self, obs: Any) -> Text:
        text = Text()
        mark = "▶ " if obs.to_act == HUMAN_SEAT else "  "
        text.append(f"{mark}Your hand: ")
        for i, c in enumerate(self.hand_order()):
            label = f"{_NUMBER_KEYS[i]}:" if i < len(_NUMBER_KEYS) else ""
            if i == self.selected:
                text.append(f"[{label}{c.pretty()}]", style="reverse bold")
            else:
                text.append(f" {label}{c.pretty()} ")
            text.append(" ")
        text.append("\n")
        text.append("\n".join(evaluation_lines(self.session.name, obs)))
        return text

    def _prompt(self, obs: Any) -> str:
        if self.confirm_quit:
            return "Quit the game? y = yes, any other key = no"
        lead = f"{self.message}\n" if self.message else ""
        if self.session.over():
            names = self.session.names
            best = max(obs.totals)
            won = " and ".join(names[i] for i, t in enumerate(obs.totals) if t == best)
            return lead + f"The game is over: {won} won with {best}. q quits."
        if obs.to_act != HUMAN_SEAT:
            who = self.session.names[obs.to_act] if obs.to_act is not None else "Nobody"
            return lead + f"{who} is thinking…"
        return lead + "Your turn: " + " · ".join(self.controls()) + " · h hint · q quit"

    def controls(self) -> list[str]:
        """The keys that do something now, read from the legal actions."""
        legal = self.session.legal()
        sel = self.selected_card()
        kinds = {a.kind for a in legal}
        out: list[str] = []
        if self.session.name == "deadwood-knock":
            if "knock" in kinds:
                out.append("k knock")
            draws = [a for a in legal if a.kind == "draw" and a.select == _dk_select(sel)]
            if draws:
                out.append(f"{self._pick_keys()} pick the card to discard ({cards_text([sel])})")
                for a in draws:
                    out.append(
                        {
                            "stock": "s take from stock",
                            "discard": "d take the top discard",
                            "palm": "p palm the buried card",
                        }[a.source]
                    )
            if "stand" in kinds:
                out.append("t stand")
            if "call" in kinds:
                out.append("c call")
            if "fold" in kinds:
                out.append("f fold")
            if "reveal" in kinds:
                out.append("Enter show the scoring split")
            return out
        for a in legal:
            if a.kind == "draw":
                out.append("s draw from stock" if a.source == "stock" else "d take the top discard")
        if any(a.kind in ("discard", "knock", "rummy") for a in legal):
            out.append(f"{self._pick_keys()} pick a card ({cards_text([sel])})")
            if _find(legal, "discard", sel) is not None:
                out.append("d/Enter discard it")
            elif sel is not None and sel == self.session.observation().taken_discard:
                out.append("(taken from the pile: it cannot go back this turn)")
            if _find(legal, "knock", sel) is not None:
                out.append("k knock with it")
            if _find(legal, "rummy", sel) is not None or _find(legal, "rummy", None) is not None:
                out.append("r go rummy")
        return out

    def _pick_keys(self) -> str:
        n = min(len(self.hand_order()), len(_NUMBER_KEYS))
        return f"1-{_NUMBER_KEYS[n - 1]}/←→" if n > 1 else "1"

    def _focus_text(self) -> str:
        lines = ["Hand Focus (h hides)"]
        if self.hint is None or self._hint_for is not self.session.state:
            if self.session.legal():
                lines.append("Thinking…")
            else:
                lines.append("Hints come on your turn.")
            return "\n".join(lines)
        h = self.hint
        lines.append(h.explanation)
        if h.knock_advice:
            lines.append(h.knock_advice)
        # The search's pick comes first (it may keep its favourite on a near tie); the
        # rest follow by value so the list reads from better to worse.
        valued = [r for r in h.actions if r.value is not None]
        first = [r for r in valued if r.action == h.best][:1]
        rest = sorted((r for r in valued if r not in first), key=lambda r: -(r.value or 0.0))
        for i, r in enumerate([*first, *rest][:4], 1):
            tag = " ← best" if i == 1 and first else ""
            lines.append(f"{i}. {action_words(r.action)} ({r.value or 0.0:+.1f}){tag}")
        return "\n".join(lines)

    # --- keys -----------------------------------------------------------------------------

    async def on_key(self, event: Any) -> None:
        key = str(event.key)
        if self.confirm_quit:
            self.confirm_quit = False
            if key == "y":
                self.exit()
                return
            self.refresh_view()
            return
        if key == "q":
            self.confirm_quit = True
            self.refresh_view()
            return
        if key == "h":
            self.show_focus = not self.show_focus
            self.refresh_view()
            if self.show_focus:
                self._start_hint()
            return
        key = _KEY_NAMES.get(key, key)
        hand = self.hand_order()
        if len(key) == 1 and key in _NUMBER_KEYS and _NUMBER_KEYS.index(key) < len(hand):
            self.selected = _NUMBER_KEYS.index(key)
        elif key in ("left", "right") and hand:
            self.selected = (self.selected + (1 if key == "right" else -1)) % len(hand)
        else:
            action = self.action_for(key)
            if action is not None:
                self.message = ""
                self.session.apply(action)
                self.hint = None
                self._start_bots()
            elif (len(key) == 1 and key in "sdpktcfr") or key == "enter":
                self.message = "That move is not possible now."
        self.refresh_view()

    def action_for(self, key: str) -> Any:
        """The legal action a key means now, or ``None``."""
        legal = self.session.legal()
        sel = self.selected_card()
        if self.session.name == "deadwood-knock":
            simple = {"k": "knock", "t": "stand", "c": "call", "f": "fold"}
            if key in simple:
                return next((a for a in legal if a.kind == simple[key]), None)
            source = {"s": "stock", "d": "discard", "p": "palm"}.get(key)
            if source:
                return next(
                    (
                        a
                        for a in legal
                        if a.kind == "draw" and a.source == source and a.select == _dk_select(sel)
                    ),
                    None,
                )
            if key == "enter":
                # Manual splits are not offered by this client; show the scoring split.
                return next((a for a in legal if a.kind == "reveal"), None)
            return None
        if key in ("s", "d") and any(a.kind == "draw" for a in legal):
            source = "stock" if key == "s" else "discard"
            return next((a for a in legal if a.kind == "draw" and a.source == source), None)
        if key in ("d", "enter"):
            return _find(legal, "discard", sel)
        if key == "k":
            return _find(legal, "knock", sel)
        if key == "r":
            return _find(legal, "rummy", sel) or _find(legal, "rummy", None)
        return None

    # --- background work ----------------------------------------------------------------

    def _start_bots(self) -> None:
        if self.session.bot_to_act() is not None and not self.bots_running:
            self.bots_running = True
            self.run_worker(self._bot_loop(), group="bots")
        elif self.show_focus:
            self._start_hint()

    async def _bot_loop(self) -> None:
        try:
            while (seat := self.session.bot_to_act()) is not None:
                self.refresh_view()
                await asyncio.sleep(self.bot_pause)
                # The bot thinks in a thread so keys and redraws keep working meanwhile.
                action = await asyncio.to_thread(self.session.choose_bot_action, seat)
                self.session.apply(action)
                self.selected = min(self.selected, max(0, len(self.hand_order()) - 1))
        finally:
            self.bots_running = False
        self.refresh_view()
        if self.show_focus:
            self._start_hint()

    def _start_hint(self) -> None:
        if self.session.legal() and self._hint_for is not self.session.state:
            self.run_worker(self._hint_job(), group="hint", exclusive=True)

    async def _hint_job(self) -> None:
        state = self.session.state
        obs = self.session.observation()
        hint = await asyncio.to_thread(
            hand_focus, self.session.game, obs, self.hint_budget, self.session.seed
        )
        if state is self.session.state:  # drop a hint for a position that has moved on
            self.hint, self._hint_for = hint, state
            self.refresh_view()

    # --- for tests and screen readers -----------------------------------------------------

    def screen_text(self) -> str:
        """The text of every visible panel as rendered (borders included)."""
        from textual.geometry import Region

        out = []
        for widget in self.screen.query(Static):
            if not widget.display or widget.size.area == 0:
                continue
            width, height = widget.outer_size
            strips = widget.render_lines(Region(0, 0, width, height))
            out.append("\n".join(strip.text for strip in strips))
        return "\n".join(out)


def _count(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _dk_select(card: Card | None) -> Card | None:
    # The engine writes a joker select as the first joker (both are interchangeable).
    if card is not None and card >= 52:
        return parse_card("JK")
    return card


def _find(legal: tuple[Any, ...], kind: str, card: Card | None) -> Any:
    for a in legal:
        if a.kind != kind:
            continue
        held = getattr(a, "card", None) if kind == "discard" else getattr(a, "discard", None)
        if held == card:
            return a
    return None
