"""The Textual app: one person (seat 0) against bots, keyboard first.

Keys: 1-9/0 or ←/→ pick a card; s/d/p take from stock/discard/palm (Deadwood Knock) or
draw from stock/discard (Knock Rummy, Gin); in the discard step d or Enter discards the
picked card; k knock; r rummy; t stand; c call; f fold; h Hand Focus; PgUp/PgDn scroll
the log; ? or F1 the rules and keys; q quit (asks first). Each key works only when the
engine lists a matching legal action, and the prompt says what each one does.

Layout: on a roomy terminal the panels have borders and Hand Focus sits beside the
table; below 100×34 (down to 80×24) the screen is compact: no borders, one line per
opponent, results without the card lists, and Hand Focus under the log's newest rows
(``LOG_ROWS``) while it is shown. The log is a scrolling widget written as events
happen, so its newest line is always in view.
"""

from __future__ import annotations

import asyncio
import textwrap
from typing import Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import Resize
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Log, Static

from deadwood_knock.bots import Budget
from deadwood_knock.bots.hints import Hint, action_words, hand_focus
from deadwood_knock.cards import Card, parse_card, sort_key
from deadwood_knock.games.deadwood_knock.hand import reading_order
from deadwood_knock.games.points import figure_text
from deadwood_knock.tui.session import HUMAN_SEAT, Session
from deadwood_knock.tui.words import (
    cards_text,
    evaluation_lines,
    game_over_line,
    help_lines,
    result_lines,
    settled_lines,
)

__all__ = ["COMPACT_BELOW", "DeadwoodApp", "HelpScreen", "action_words"]

_NUMBER_KEYS = "1234567890-"


def pick_keys(cards: int) -> str:
    """The keys that pick a card, in words a player reads at a glance.

    The keys run 1-9, then 0 and - (the key row's order), so a range "1--" or "1-0"
    would read as nonsense: past nine cards the extra keys are listed.

    >>> pick_keys(1), pick_keys(8), pick_keys(10), pick_keys(11)
    ('1', '1-8/←→', '1-9, 0/←→', '1-9, 0, -/←→')
    """
    n = min(cards, len(_NUMBER_KEYS))
    if n <= 1:
        return "1"
    keys = ", ".join([f"1-{min(n, 9)}", *_NUMBER_KEYS[9:n]])
    return f"{keys}/←→"


_GLUE = "\xa0"  # a space textwrap does not break at (it breaks only at ASCII whitespace)
_KEY_NAMES = {"minus": "-"}  # Textual's name for the 11th card's key
#: Below this many columns or rows the screen goes compact (80×24 must stay usable).
COMPACT_BELOW = (100, 34)
#: On a small screen with Hand Focus on, the log keeps this many of its newest rows.
LOG_ROWS = 2


class HelpScreen(ModalScreen[None]):
    """The rules in brief and every key, over the table; Esc, ?, F1 or q closes it."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    #help-box { width: 100%; max-width: 92; height: 100%; max-height: 40;
                border: round $accent; background: $surface; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("escape", "close", "Close"),
        Binding("q", "close", "Close", show=False),
        Binding("question_mark", "close", "Close", show=False),
        Binding("f1", "close", "Close", show=False),
    ]

    def __init__(self, lines: list[str]) -> None:
        super().__init__()
        self.lines = lines

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Static(
                "\n".join([*self.lines, "", "(Esc, ? or F1 closes; ↑ ↓ PgUp PgDn scroll)"]),
                id="help-text",
                markup=False,
            )

    def action_close(self) -> None:
        self.dismiss(None)


class DeadwoodApp(App[None]):
    """Play a session; ``bot_pause`` is the visible pause before each bot move."""

    TITLE = "Deadwood Knock"
    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("question_mark", "help", "Rules and keys", show=False),
        Binding("f1", "help", "Rules and keys", show=False),
    ]
    CSS = """
    Screen { layout: vertical; }
    #banner { height: auto; background: $boost; text-style: bold; padding: 0 1; }
    #top { height: auto; }
    #table { width: 1fr; height: auto; border: round $secondary; padding: 0 1; }
    #focus { width: 1fr; height: auto; border: round $warning; padding: 0 1; }
    #hand { height: auto; border: round $primary; padding: 0 1; }
    #prompt { height: auto; padding: 0 1; text-style: bold; }
    #results { height: auto; max-height: 50%; border: round $success; padding: 0 1; }
    #bottom { height: 1fr; min-height: 3; }
    #log { height: 1fr; border: round $panel; padding: 0 1; overflow-x: hidden;
           scrollbar-gutter: stable; }
    #focus-low { height: auto; padding: 0 1; background: $boost; display: none; }
    Screen.compact #table { border: none; padding: 0 1; background: $surface; }
    Screen.compact #hand { border: none; padding: 0 1; background: $panel; }
    Screen.compact #results { border: none; padding: 0 1; background: $success 20%; }
    Screen.compact #log { border: none; padding: 0 1; }
    Screen.compact #bottom { min-height: 2; }
    Screen.compact #log { min-height: 2; }  /* LOG_ROWS */
    Screen.compact #focus { display: none; }
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
        self.compact = False
        self._logged = 0  # lines of the session's log already written to the log widget
        self._result_seen: Any = None  # the last result the person has moved past

    # --- layout -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="banner", markup=False)
        with Horizontal(id="top"):
            yield Static(id="table", markup=False)
            yield Static(id="focus", markup=False)
        yield Static(id="hand", markup=False)
        yield Static(id="prompt", markup=False)
        with VerticalScroll(id="results"):
            yield Static(id="result-text", markup=False)
        with Vertical(id="bottom"):
            yield Log(id="log", auto_scroll=True)
            yield Static(id="focus-low", markup=False)

    def on_mount(self) -> None:
        # Nothing takes the keyboard focus: every key is the table's (arrows pick cards).
        for widget in (self.query_one("#results"), self.query_one("#log")):
            widget.can_focus = False
        self._set_compact(self.size.width, self.size.height)
        self.refresh_view()
        self._start_bots()

    def on_resize(self, event: Resize) -> None:
        self._set_compact(event.size.width, event.size.height)
        self.refresh_view()
        # The text wrapped to the width (prompt, result) again once the new size has landed.
        self.call_after_refresh(self.refresh_view)

    def _set_compact(self, width: int, height: int) -> None:
        self.compact = width < COMPACT_BELOW[0] or height < COMPACT_BELOW[1]
        self.screen.set_class(self.compact, "compact")

    # --- what the screen shows ------------------------------------------------------------

    def hand_order(self) -> list[Card]:
        """The hand as the web table holds it: the engine's groups first, each in the
        engine's order (Deadwood Knock: the scoring split's poker hand as it reads; Knock
        Rummy / Gin: each meld), then the rest by suit and rank."""
        groups, rest = self.hand_groups()
        settled = self.settled_hand()
        laid = list(settled[1]) if settled is not None else []
        return [*(c for group in groups for c in group), *rest, *laid]

    def hand_groups(self) -> tuple[list[list[Card]], list[Card]]:
        """The engine's groups of the hand, and the other cards by suit and rank (once a
        Knock Rummy or Gin game is over: the last hand as settled, without the cards laid
        off, which :meth:`settled_hand` gives)."""
        obs = self.session.observation()
        settled = self.settled_hand()
        if self.session.game.facts.poker_split:
            ev = obs.evaluation
            groups = [list(reading_order(ev.poker_hand))] if ev is not None else []
        else:
            arr = settled[0] if settled is not None else obs.arrangement
            groups = [list(m) for m in arr.melds] if arr is not None else []
        rest = list(obs.hand)
        for c in settled[1] if settled is not None else ():
            rest.remove(c)
        for group in groups:
            for c in group:
                rest.remove(c)  # the two jokers are equal cards: either will do
        return [g for g in groups if g], sorted(rest, key=sort_key)

    def settled_hand(self) -> tuple[Any, tuple[Card, ...]] | None:
        """Once a Knock Rummy or Gin game is over, your last hand as the engine settled it:
        its arrangement (a Gin defender's after lay-offs) and the cards you laid off on the
        knocker's melds (the screen showed them as still held, in the deadwood, with the
        count before the lay-off). ``None`` while the game goes on."""
        if self.session.game.facts.poker_split or not self.session.over():
            return None
        obs = self.session.observation()
        hr = obs.last_result
        if hr is None or len(hr.arrangements) <= HUMAN_SEAT:
            return None  # a void hand: nothing was laid down
        mine = list(obs.hand)
        laid = tuple(c for c in hr.layoffs if c in mine)
        return hr.arrangements[HUMAN_SEAT], laid

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
        # A small screen leaves out the cards, but two players' melds fit: a Gin defender
        # sees the knocker's melds their cards were laid off on.
        two = not s.game.facts.poker_split and len(s.names) == 2
        results = result_lines(s.name, obs, s.names, compact=self.compact and not two)
        # A small screen shows the last result from the round's end to the person's next
        # move, or with Hand Focus on to their next key (then the hint has the room); a
        # roomy one keeps it up.
        fresh = bool(results) and (
            not self.compact or obs.last_result is not self._result_seen or s.over()
        )
        panel = self.query_one("#results")
        panel.display = fresh
        # On a small screen the result and the hint do not both fit (six players' result
        # lines leave the hint three rows): the result has the room until the next key.
        waiting = self.show_focus and self.compact and fresh and not s.over()
        if waiting:
            results = [*results, "Hand Focus returns at your next key."]
        width = self.size.width - (2 if self.compact else 4)
        self.query_one("#result-text", Static).update("\n".join(_fit(results, width)))
        self._write_log()
        focus_text = self._focus_text()
        # Once the game is over there is no turn to hint at: the log (the last round's
        # scores and remarks) has the room.
        focus = self.show_focus and not s.over()
        top = self.query_one("#focus", Static)
        top.display = focus and not self.compact
        top.update(focus_text)
        low = self.query_one("#focus-low", Static)
        low.display = focus and self.compact and not waiting
        # A small screen keeps the log's newest lines above the hint (with the hint in the
        # log's place the player no longer saw what the others had just done); the hint
        # gets the rest, cut to fit it from its last ranked move up.
        low.update(self._focus_fitted())
        if low.display:
            self.call_after_refresh(self._fit_focus)
        log = self.query_one("#log", Log)
        # A layout change can leave the log scrolled off its end: bring the newest line back.
        self.call_after_refresh(log.scroll_end, animate=False)

    def _fit_focus(self) -> None:
        """Cut the small screen's hint to the rows the laid-out screen leaves it."""
        low = self.query_one("#focus-low", Static)
        if low.display:
            low.update(self._focus_fitted())
            self.call_after_refresh(self.query_one("#log", Log).scroll_end, animate=False)

    def _write_log(self) -> None:
        """Write the session's new log lines (wrapped to the log's width) to the widget."""
        s = self.session
        total = s.log_dropped + len(s.log)
        if total <= self._logged:
            return
        start = max(0, self._logged - s.log_dropped)
        log = self.query_one("#log", Log)
        # The scrollbar's columns are kept free (``scrollbar-gutter: stable``): a line wrapped
        # to the whole width while the log did not scroll ran under the scrollbar once it
        # did ("…, Luke Short +41, Lotti" at 80×24).
        width = max(20, (log.scrollable_content_region.width or self.size.width - 6) - 1)
        lines: list[str] = []
        for line in s.log[start:]:
            # A wrapped line goes on indented under its start (a remark under its speaker).
            indent = " " * (len(line) - len(line.lstrip(" ")) + 2)
            lines += textwrap.wrap(line, width, subsequent_indent=indent) or [""]
        log.write_lines(lines, scroll_end=True)
        self._logged = total

    def _banner(self, obs: Any) -> str:
        s = self.session
        parts = [s.game.title]
        if s.game.facts.poker_split:
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
        if not self.compact:
            totals = "  ".join(f"{s.names[i]} {t}" for i, t in enumerate(obs.totals))
            parts.append(f"Scores: {totals}")
            return "  |  ".join(parts)
        # Small screen: one line (scores sit beside each name); drop what does not fit.
        if "*** FINAL TURN ***" in parts:
            parts.remove("Final turns")
        parts.append("? help")
        while len("  |  ".join(parts)) > self.size.width - 2 and len(parts) > 2:
            parts.pop(-2 if parts[-1] == "? help" and len(parts) > 3 else -1)
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
            if s.game.facts.poker_split:
                if obs.knocker == seat:
                    tags.append("knocked")
                if obs.calls[seat]:
                    tags.append(f"{obs.calls[seat]}ed")
                if obs.palmed[seat]:
                    tags.append("palmed")
            tag = f" [{', '.join(tags)}]" if tags else ""
            # "(total 32)": a bare "(32)" read as a seat number ("Greedy (2) (32)").
            total = f" (total {figure_text(obs.totals[seat])})" if self.compact else ""
            lines.append(
                f"{mark}{s.names[seat]}{total}: {_count(obs.hand_sizes[seat])}{tag}, "
                f"known: {cards_text(known)}"
            )
        pile = obs.discard_pile
        if pile:
            pile_line = f"Discard pile: {cards_text(pile[-1:])} on top ({_count(len(pile))})"
        else:
            pile_line = "Discard pile: empty"
        if s.game.facts.poker_split and len(pile) >= 2:
            pile_line += f", buried under it: {cards_text(pile[-2:-1])}"
        if self.compact:
            lines.append(f"{pile_line} · Stock: {_count(obs.stock_size)}")
        else:
            lines += [pile_line, f"Stock: {_count(obs.stock_size)}"]
        if s.game.facts.poker_split and obs.covers:
            lines.append(f"Set aside (palm covers): {cards_text(obs.covers)}")
        if not s.game.facts.poker_split and obs.public_stock is not None:
            lines.append("The stock is the turned-over pile: its draws are public.")
        if self.compact:
            # A seat's row too long for the screen (a shown hand of eight with its tags)
            # goes on indented under its start: "Joker" sat alone at the left edge.
            lines = _fit(lines, self.size.width - 2)
        return "\n".join(lines)

    def _hand(self, obs: Any) -> Text:
        text = Text()
        mark = "▶ " if obs.to_act == HUMAN_SEAT else "  "
        # Bare, so eleven Gin cards still sit beside it at 80 columns.
        mine = f" ({figure_text(obs.totals[HUMAN_SEAT])})" if self.compact else ""
        head = f"{mark}Your hand{mine}:"
        groups, rest = self.hand_groups()
        settled = self.settled_hand()
        laid = list(settled[1]) if settled is not None else []
        # The engine's groups (poker hand, melds) underlined, as on the web table; a bar
        # between groups; the cards laid off on the knocker's melds last, dim.
        parts = [(group, "underline") for group in groups] + ([(rest, "")] if rest else [])
        parts += [(laid, "dim")] if laid else []
        cards = self._hand_cards(parts)
        text.append(head)
        # An 80-column terminal cannot hold 11 Gin cards after the label: they go on a line
        # of their own rather than wrap mid-hand.
        if self.compact and len(head) + 1 + len(cards) > self.size.width - 2:
            text.append("\n ")
        text.append(" ")
        text.append_text(cards)
        text.append("\n")
        width = self.size.width - 2 if self.compact else None
        if settled is not None:
            hr = obs.last_result
            knocker = self.session.names[hr.ender] if hr.ender is not None else ""
            lines = settled_lines(settled[0], settled[1], hr.counts[HUMAN_SEAT], knocker)
        else:
            lines = evaluation_lines(self.session.name, obs, width)
        text.append("\n".join(lines))
        return text

    def _hand_cards(self, parts: list[tuple[list[Any], str]]) -> Text:
        """The cards with their number keys, a bar between groups. Compact: neighbours share
        one space, which the selection's bracket takes, so 11 cards fit 80 columns and moving
        the selection shifts nothing."""
        text = Text()
        picked = "reverse bold"
        i = 0
        if not self.compact:
            for g, (cards, style) in enumerate(parts):
                if g:
                    text.append(" │  ", style="dim")
                for c in cards:
                    label = f"{_NUMBER_KEYS[i]}:" if i < len(_NUMBER_KEYS) else ""
                    if i == self.selected:
                        text.append(f"[{label}{c.pretty()}] ", style=picked)
                    else:
                        text.append(" ")
                        text.append(f"{label}{c.pretty()}", style=style)
                        text.append("  ")
                    i += 1
            return text
        before = False  # the card before this one is selected

        def gap() -> None:
            # The space after a card: the selection's closing bracket takes it.
            text.append("]" if before else " ", style=picked if before else "")

        for g, (cards, style) in enumerate(parts):
            for j, c in enumerate(cards):
                chosen = i == self.selected
                if g and not j:
                    gap()
                    text.append("│", style="dim")
                    before = False
                if chosen:
                    text.append("[", style=picked)
                else:
                    gap()
                label = f"{_NUMBER_KEYS[i]}:" if i < len(_NUMBER_KEYS) else ""
                text.append(f"{label}{c.pretty()}", style=picked if chosen else style)
                before = chosen
                i += 1
        gap()
        return text

    def _prompt(self, obs: Any) -> str:
        if self.confirm_quit:
            return "Quit the game? y = yes, any other key = no"
        lead = f"{self.message}\n" if self.message else ""
        if self.session.over():
            over = game_over_line(self.session.names, obs.totals, HUMAN_SEAT)
            return lead + f"{over} q quits, ? shows the rules."
        if obs.to_act != HUMAN_SEAT:
            who = self.session.names[obs.to_act] if obs.to_act is not None else "Nobody"
            return lead + f"{who} is thinking…"
        head = "Your final turn" if getattr(obs, "final_turn", False) else "Your turn"
        if getattr(obs, "phase", "") == "call":
            head = f"{self.session.names[obs.knocker]} knocked. Call or fold"
        # The compact banner shows "? help", and the help lists q.
        tail = "h hint" if self.compact else "h hint · ? help · q quit"
        # Each key keeps its words: the line breaks between controls or inside a long one,
        # never between a key and what it does ("· d" above "take the top discard 6♠").
        keyed = [c.replace(" ", _GLUE, 1) for c in [*self.controls(), tail]]
        line = f"{head}: " + f"{_GLUE}· ".join(keyed)
        width = max(20, self.size.width - 2)
        wrapped = textwrap.wrap(line, width, break_on_hyphens=False) or [""]
        return lead + "\n".join(w.replace(_GLUE, " ") for w in wrapped)

    def controls(self) -> list[str]:
        """The keys that do something now, each with what it does, from the legal actions."""
        if self.session.game.facts.poker_split:
            return self._dk_controls()
        return self._kr_controls()

    def _dk_controls(self) -> list[str]:
        figures = self.session.game.facts.figures
        ante, suspicion = figures["pot_ante"], figures["suspicion"]
        legal = self.session.legal()
        obs = self.session.observation()
        sel = self.selected_card()
        kinds = {a.kind for a in legal}
        out: list[str] = []
        if "knock" in kinds:
            out.append(f"k knock (your knock count is {obs.evaluation.knock_count})")
        draws = [a for a in legal if a.kind == "draw" and a.select == _dk_select(sel)]
        if draws:
            out.append(f"{self._pick_keys()} pick the card to discard ({cards_text([sel])})")
            pile = obs.discard_pile
            for a in draws:
                if a.source == "stock":
                    out.append("s take from the stock")
                elif a.source == "discard":
                    out.append(f"d take the top discard {cards_text(pile[-1:])}")
                else:
                    out.append(
                        f"p palm: take {cards_text(pile[-2:-1])} from under "
                        f"{cards_text(pile[-1:])}, which is set aside (once a round; "
                        f"{suspicion} if your round score ends below the best)"
                    )
        if "stand" in kinds:
            out.append("t stand: keep your hand as it is, no draw")
        if "call" in kinds:
            ins = 1 + sum(1 for c in obs.calls if c == "call")
            out.append(
                f"c call: put {ante} in; the best poker hand among those in takes the pot "
                f"({ante * (ins + 1)} if nobody after you calls)"
            )
        if "fold" in kinds:
            out.append("f fold: stay out of the pot, pay nothing")
        if "reveal" in kinds:
            out.append("Enter show the scoring split")
        return out

    def _kr_controls(self) -> list[str]:
        legal = self.session.legal()
        obs = self.session.observation()
        sel = self.selected_card()
        out: list[str] = []
        for a in legal:
            if a.kind == "draw":
                if a.source == "stock":
                    out.append("s draw from the stock")
                else:
                    out.append(f"d take the top discard {cards_text(obs.discard_pile[-1:])}")
        if any(a.kind in ("discard", "knock", "rummy") for a in legal):
            out.append(f"{self._pick_keys()} pick a card ({cards_text([sel])})")
            if _find(legal, "discard", sel) is not None:
                out.append("d/Enter discard it")
            elif sel is not None and sel == obs.taken_discard:
                out.append("(taken from the pile: it cannot go back this turn)")
            if _find(legal, "knock", sel) is not None:
                out.append("k knock with it: the hand ends and the counts are compared")
            elif knocks := [a.discard for a in legal if a.kind == "knock"]:
                # Say so, or a player holding a gin or a low count never sees k offered.
                out.append(f"k knock: pick {' or '.join(cards_text([c]) for c in knocks)} first")
            if _find(legal, "rummy", sel) is not None or _find(legal, "rummy", None) is not None:
                out.append("r go rummy")
        return out

    def _pick_keys(self) -> str:
        return pick_keys(len(self.hand_order()))

    def _focus_text(self) -> str:
        return "\n".join(self._focus_parts())

    def _focus_parts(self) -> list[str]:
        lines = ["Hand Focus (h hides)"]
        if self.hint is None or self._hint_for is not self.session.state:
            if self.session.legal():
                lines.append("Thinking…")
            else:
                lines.append("Hints come on your turn.")
            return lines
        h = self.hint
        lines.append(h.explanation)
        if h.knock_advice:
            lines.append(h.knock_advice)
        lines += h.ranking_lines(3 if self.compact else 4)
        return lines

    def _focus_fitted(self) -> str:
        """The small screen's hint, wrapped to its width and cut to the rows the log leaves
        it (the log keeps ``LOG_ROWS`` of its newest lines): the lowest-ranked moves go
        first, then the knock advice, then the explanation's end; the header, the best
        move and the explanation's start always stay."""
        parts = self._focus_parts()
        low = self.query_one("#focus-low", Static)
        rows = self.query_one("#bottom").size.height - LOG_ROWS
        width = max(20, low.content_size.width or self.size.width - 2)
        wrap = [textwrap.wrap(p, width, break_on_hyphens=False) or [""] for p in parts]
        if rows > 0 and self.hint is not None and self._hint_for is self.session.state:
            ranked = len(self.hint.ranking_lines(3 if self.compact else 4))
            # Keep: the header, the explanation and the best move; drop from the end up.
            first_rank = len(parts) - ranked
            droppable = [*range(len(parts) - 1, first_rank, -1)]
            if self.hint.knock_advice:
                droppable.append(first_rank - 1)
            for i in droppable:
                if sum(len(w) for w in wrap) <= rows:
                    break
                wrap[i] = []
            # Still too tall: the explanation is cut short, its last row ending in "…".
            over = sum(len(w) for w in wrap) - rows
            if over > 0 and len(wrap[1]) > 1:
                keep = max(1, len(wrap[1]) - over)
                cut = wrap[1][:keep]
                cut[-1] = cut[-1][: width - 1].rstrip() + "…"
                wrap[1] = cut
        return "\n".join(line for w in wrap for line in w)

    # --- keys -----------------------------------------------------------------------------

    async def on_key(self, event: Any) -> None:
        key = str(event.key)
        if isinstance(self.screen, HelpScreen):
            return  # the help screen's own bindings close it
        if self.confirm_quit:
            self.confirm_quit = False
            if key == "y":
                self.exit()
                return
            self.refresh_view()
            return
        if key in ("pageup", "pagedown"):
            log = self.query_one("#log", Log)
            if key == "pageup":
                log.scroll_page_up(animate=False)
            else:
                log.scroll_page_down(animate=False)
            return
        if key == "q":
            self.confirm_quit = True
            self.refresh_view()
            return
        if key == "h":
            self.show_focus = not self.show_focus
            if self.show_focus:  # the result has been seen: the hint takes its room
                self._result_seen = self.session.observation().last_result
            self.refresh_view()
            if self.show_focus:
                self._start_hint()
            return
        key = _KEY_NAMES.get(key, key)
        if self.show_focus:
            # Any key moves past the result on a small screen (a result this key's move
            # brings stays until the next one).
            self._result_seen = self.session.observation().last_result
        hand = self.hand_order()
        if len(key) == 1 and key in _NUMBER_KEYS and _NUMBER_KEYS.index(key) < len(hand):
            self.selected = _NUMBER_KEYS.index(key)
        elif key in ("left", "right") and hand:
            self.selected = (self.selected + (1 if key == "right" else -1)) % len(hand)
        else:
            action = self.action_for(key)
            if action is not None:
                self.message = ""
                self._result_seen = self.session.observation().last_result
                self._apply(action)
                self.hint = None
                self._start_bots()
            elif (len(key) == 1 and key in "sdpktcfr") or key == "enter":
                self.message = "That move is not possible now."
        self.refresh_view()

    def _apply(self, action: Any) -> None:
        """Play an action; the picked card stays picked wherever the hand now holds it (a
        draw regroups the hand: the pick stayed on its slot, so another card was picked)."""
        card = self.selected_card()
        self.session.apply(action)
        hand = self.hand_order()
        if card is not None and card in hand:
            self.selected = hand.index(card)
        else:  # the card has left the hand (discarded, a new deal): the slot stays
            self.selected = min(self.selected, max(0, len(hand) - 1))

    def action_help(self) -> None:
        """? or F1: the rules and keys (the help screen's own ? and F1 close it)."""
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(help_lines(self.session.name, self._options())))

    def _options(self) -> Any:
        return self.session.observation().options

    def action_for(self, key: str) -> Any:
        """The legal action a key means now, or ``None``."""
        legal = self.session.legal()
        sel = self.selected_card()
        if self.session.game.facts.poker_split:
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
                self._apply(action)
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
        out = []
        for widget in self.screen.query(Widget):
            if not isinstance(widget, (Static, Log)):
                continue
            if not widget.display or widget.size.area == 0 or not _shown(widget):
                continue
            out.append("\n".join(self.widget_lines(widget)))
        return "\n".join(out)

    def widget_lines(self, widget: Widget) -> list[str]:
        """The rows a widget shows on screen now, as text."""
        from textual.geometry import Region

        width, height = widget.outer_size
        return [strip.text for strip in widget.render_lines(Region(0, 0, width, height))]

    def log_lines(self) -> list[str]:
        """The log's visible rows, without blank ones."""
        return [r.strip() for r in self.widget_lines(self.query_one("#log", Log)) if r.strip()]


def _shown(widget: Widget) -> bool:
    node: Any = widget.parent
    while node is not None and isinstance(node, Widget):
        if not node.display:
            return False
        node = node.parent
    return True


def _fit(lines: list[str], width: int) -> list[str]:
    """Lines wrapped to ``width``, each going on indented under its start and never parting
    "→ total 244" (the screen's own wrap left "→ total" at a line's end, its figure below)."""
    out: list[str] = []
    for line in lines:
        if len(line) <= width:
            out.append(line)
            continue
        indent = " " * (len(line) - len(line.lstrip(" ")) + 2)
        glued = line.replace("→ total ", "→\xa0total\xa0")  # textwrap breaks at ASCII spaces
        wrapped = textwrap.wrap(glued, width, subsequent_indent=indent, break_on_hyphens=False)
        out += [w.replace("\xa0", " ") for w in wrapped]
    return out


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
