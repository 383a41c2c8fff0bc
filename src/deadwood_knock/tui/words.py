"""Plain words for the terminal client: events, hand evaluations and round results.

Everything here reads engine values (events, observations, results, the game's
``RuleFacts``: titles, category words, card points, knock limit) and formats them; no rule
is decided or copied here. Cards are written with suit symbols (``10♥``) so a suit never
depends on colour.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from deadwood_knock.cards import Card, parse_card
from deadwood_knock.games import facts
from deadwood_knock.games.base import Event
from deadwood_knock.games.deadwood_knock.hand import best_five, long_hand, reading_order
from deadwood_knock.games.points import deadwood_term, figure_text

__all__ = [
    "cards_text",
    "describe_event",
    "evaluation_lines",
    "game_over_line",
    "help_lines",
    "knock_words",
    "melds_text",
    "result_lines",
    "settled_lines",
    "whose_melds",
]


def _card(value: Any) -> Card:
    return value if isinstance(value, Card) else parse_card(str(value))


def cards_text(cards: Sequence[Any] | None) -> str:
    """Cards as ``A♠ 10♥ Joker``; ``-`` for none."""
    if not cards:
        return "-"
    return " ".join(_card(c).pretty() for c in cards)


def melds_text(melds: Sequence[Sequence[Any]]) -> str:
    """Melds as ``3♠ 3♦ 3♣ | J♦ Q♦ K♦``; ``none`` for none."""
    return " | ".join(cards_text(m) for m in melds) or "none"


def whose_melds(ender: int, viewer: int | None, names: Sequence[str]) -> str:
    """The knocker's melds as the viewer reads them, for the cards laid off on them:
    "your", "Luke Short's"."""
    return "your" if ender == viewer else f"{names[ender]}'s"


def _arrangement_lines(melds: Sequence[Sequence[Any]], deadwood: Any, count: int) -> list[str]:
    """A Knock Rummy or Gin hand's melds and deadwood with its count, one line each."""
    return [f"Melds: {melds_text(melds)}", f"Deadwood: {cards_text(deadwood)} — count {count}"]


def _poker_text(poker_hand: Sequence[Card], category: str) -> str:
    """A showdown's poker hand: the five that score and the category; a 6-8 card hand
    (DK3) names its other cards apart, which are not deadwood ("Q♥ 10♥ 9♥ 8♥ 7♥ (flush;
    J♠ K♠ complete the 7-card straight)")."""
    five = best_five(poker_hand)
    kind = long_hand(poker_hand)
    if kind is None:
        return f"{cards_text(five)} ({category})"
    rest = [c for c in reading_order(poker_hand) if c not in five]
    verb = "complete" if len(rest) > 1 else "completes"
    return (
        f"{cards_text(five)} ({category}; {cards_text(rest)} {verb} the "
        f"{len(poker_hand)}-card {kind})"
    )


def describe_event(event: Event, names: Sequence[str], viewer: int) -> str | None:
    """One log line for an event the viewer may see (``None``: nothing worth a line).

    The caller filters with ``event.visible_to(viewer)``; this never adds hidden cards
    because it only formats the event's own data.
    """
    if not event.visible_to(viewer):
        return None
    d: Mapping[str, Any] = event.data
    who = names[event.seat] if event.seat is not None else "The table"
    you = event.seat == viewer
    k = event.kind

    def inside(seat: int) -> str:
        # Your seat is "You" where it opens a sentence and "you" inside one, as on the web.
        return "you" if seat == viewer else names[seat]

    def s_(verb: str) -> str:
        return verb if you else verb + "s"

    if k == "deal":
        number = d.get("round", d.get("hand"))
        flipped = d.get("flipped", d.get("upcard"))
        label = "Round" if "round" in d else "Hand"
        dealer = int(d["dealer"])
        deals = "deal" if dealer == viewer else "deals"
        return (
            f"— {label} {number}: {inside(dealer)} {deals}; "
            f"{cards_text([flipped])} starts the pile."
        )
    if k in ("hand", "dealt"):
        return f"Your hand: {cards_text(d['cards'])}."
    if k == "knock":
        if "discard" in d:  # Knock Rummy: the discard event follows with the card
            return f"{who} {s_('knock')}."
        return f"{who} {s_('knock')}! Everyone else gets one final turn."
    if k in ("stand", "call", "fold"):
        return f"{who} {s_(k)}."
    if k == "reveal":
        return f"{who} {s_('show')} {cards_text(d['poker_hand'])}."
    if k == "reshuffle":
        return f"The discard pile is shuffled into a new stock ({d['stock_size']} cards)."
    if k == "turn_over":
        return (
            f"{who} {s_('turn')} the discard pile over as the new stock ({d['stock_size']} cards)."
        )
    if k == "draw":
        src = d.get("source")
        if src == "discard":
            return f"{who} {'take' if you else 'takes'} {cards_text([d['card']])} from the pile."
        if src == "palm":
            return (
                f"{who} {'palm' if you else 'palms'} {cards_text([d['card']])} "
                f"(cover {cards_text([d['cover']])} set aside)."
            )
        if "card" in d:  # a public stock (KR7: the turned-over pile)
            return f"{who} {'draw' if you else 'draws'} {cards_text([d['card']])} from the stock."
        return None if you else f"{who} draws from the stock."
    if k in ("stock_card", "draw_card"):
        return f"You draw {cards_text([d['card']])} from the stock."
    if k == "discard":
        return f"{who} {'discard' if you else 'discards'} {cards_text([d['card']])}."
    if k == "rummy":  # any discard was its own event just before
        return f"{who} {'go' if you else 'goes'} rummy!"
    if k == "stock_out":
        return "The stock is out: showdown with no knocker and no pot."
    if k == "void":
        return f"The hand is void: {d['reason']}."
    if k in ("round_result", "hand_result"):
        totals = ", ".join(f"{inside(s)} {figure_text(t)}" for s, t in enumerate(d["totals"]))
        # The round's or hand's own scores first, in the web log's words ("Round 3 scored:",
        # "Hand 2 to you (gin):"): a replay has no result panel, and "Totals" alone never
        # said who took a hand.
        scores = d.get("round_scores", d.get("scores"))
        if scores is None or d.get("outcome") == "void":  # a void hand: its event said it
            return f"Totals: {totals}."
        parts = [f"{inside(s)} {_score(v)}" for s, v in enumerate(scores)]
        if k == "round_result":
            parts += [
                f"{inside(s)} {_score(v)} suspicion"
                for s, v in enumerate(d.get("suspicion", ()))
                if v
            ]
            head = f"Round {d['round']} scored"
        else:
            takers = [inside(s) for s in d.get("winners", ())]
            how = {"gin": " (gin)", "undercut": " (undercut)"}.get(str(d.get("outcome")), "")
            head = f"Hand {d['hand']} to {' and '.join(takers) or 'nobody'}{how}"
        return f"{head}: {', '.join(parts)}. Totals: {totals}."
    if k in ("match_over", "game_over"):
        won = " and ".join(inside(s) for s in d["winners"])
        plural = len(d["winners"]) > 1 or d["winners"][0] == viewer
        return f"Game over: {won} {'win' if plural else 'wins'}."
    return None  # showdown: shown in the results panel


def _score(value: float) -> str:
    """A score with its sign, as the web log writes it: "+80", "−7", "0"."""
    return ("+" if value > 0 else "") + figure_text(value)


def knock_words(observation: Any, limit: int | None) -> str:
    """What the knock count allows, from the observation's own facts (DK2, DK4): a knock
    only at the start of your turn, while nobody has knocked this round. "Low enough to
    knock" stood alone while another seat was to act and after a knock, when no knock was
    possible. The web client's Hand Focus says the same (``focus.js``, ``knockHint``)."""
    knocker = getattr(observation, "knocker", None)
    if knocker is not None:
        mine = knocker == getattr(observation, "seat", None)
        return "you knocked" if mine else "no more knocks this round"
    if getattr(observation, "phase", "play") != "play":
        return "no knock: the round is over"
    if not observation.evaluation.can_knock:
        return f"knocking needs {limit} or less"
    legal = getattr(observation, "legal_actions", ())
    if any(getattr(a, "kind", None) == "knock" for a in legal):
        return "you may knock now"
    return "low enough to knock on your turn"


def evaluation_lines(game_name: str, observation: Any, width: int | None = None) -> list[str]:
    """The observation's own evaluation of the viewer's hand, in words. With a ``width``
    (a small screen) the poker hand and the deadwood share a line when they fit."""
    rule_facts = facts(game_name)
    if rule_facts.poker_split:
        words = rule_facts.category_words
        ev = observation.evaluation
        knock = knock_words(observation, rule_facts.knock_limit)
        poker = (
            f"Poker hand: {cards_text(reading_order(ev.poker_hand))} — "
            f"{words.get(ev.category, ev.category)}, {ev.hand_points} points"
        )
        dead = f"Deadwood:   {cards_text(ev.deadwood)} — {_points(ev.deadwood_points)}"
        # Jokers count −2, so deadwood can be below zero: it is then added.
        d = ev.deadwood_points
        less = f"− {d}" if d >= 0 else f"+ {-d}"
        score = (
            f"Score {ev.hand_points} {less} = {figure_text(ev.score)}   "
            f"Knock count {figure_text(ev.knock_count)} ({knock})"
        )
        together = f"{poker} · deadwood {cards_text(ev.deadwood)} = {ev.deadwood_points}"
        if width is not None and len(together) <= width:
            return [together, score]
        return [poker, dead, score]
    arr = observation.arrangement
    lines = _arrangement_lines(arr.melds, arr.deadwood, arr.deadwood_points)
    limit = observation.options.knock_limit
    if limit is not None:
        lines.append(f"Knocking needs a count of {limit} or less after the discard.")
    after = dict(observation.discard_counts)
    if after:
        low = min(after.values())
        cards = " or ".join(cards_text([c]) for c, n in after.items() if n == low)
        lines.append(f"Lowest count after a discard: {low} ({cards}).")
    if arr.rummy:
        lines.append("Every card is matched: rummy!")
    return lines


def settled_lines(
    arrangement: Any, laid_off: Sequence[Card], count: int, knocker: str
) -> list[str]:
    """Your last Knock Rummy or Gin hand once the game is over, as the engine settled it
    (``HandResult``): its melds, its deadwood and count after any lay-off, and the cards
    laid off on the knocker's melds (no longer yours to count)."""
    lines = _arrangement_lines(arrangement.melds, arrangement.deadwood, count)
    if laid_off:
        lines.append(f"Laid off on {knocker}'s melds: {cards_text(laid_off)}")
    return lines


def _points(n: int) -> str:
    # Jokers make deadwood negative: a true minus sign, as the sums print it.
    return f"{figure_text(n)} point" + ("" if abs(n) == 1 else "s")


def _signed(n: int) -> str:
    return f"+ {n}" if n >= 0 else f"− {-n}"


def game_over_line(names: Sequence[str], totals: Sequence[int], viewer: int) -> str:
    """The prompt once the match is over: ``The game is over: you won with 474.`` (your
    seat lower case inside the sentence, as in the log's ``Game over: you win.``)."""
    best = max(totals)
    won = [("you" if i == viewer else names[i]) for i, t in enumerate(totals) if t == best]
    return f"The game is over: {' and '.join(won)} won with {best}."


def result_lines(
    game_name: str, observation: Any, names: Sequence[str], compact: bool = False
) -> list[str]:
    """The last finished round (DK) or hand (KR/Gin), with its arithmetic. ``compact``
    (a small terminal) leaves out the cards (DK: the category stays; KR/Gin: the melds
    and deadwood, the count stays) so each player fits one line; the figures stay."""
    rule_facts = facts(game_name)
    viewer = getattr(observation, "seat", None)

    def inside(seat: int) -> str:
        # "You" opens a sentence; inside one (after the colon, "and", ";") it is "you".
        return "you" if seat == viewer else names[seat]

    if rule_facts.poker_split:
        words = rule_facts.category_words
        r = observation.last_result
        if r is None:
            return []
        if r.dry:
            head = f"Round {r.round} result: the stock ran out, no knocker and no pot."
        else:
            assert r.knocker is not None
            # Past tense, as the rest of the result: "King Fisher knocked; you called".
            said = [f"{inside(s)} {c}ed" for s, c in enumerate(r.calls) if c is not None]
            if compact and len(said) > 2:
                called = sum(1 for c in r.calls if c == "call")
                said = [f"{called} called", f"{len(said) - called} folded"]
            head = f"Round {r.round} result: {inside(r.knocker)} knocked" + (
                f"; {', '.join(said)}." if said else "."
            )
        lines = [head]
        for s in range(len(r.totals)):
            cat = words.get(r.categories[s], r.categories[s])
            sus = f" {_signed(r.suspicion[s])} suspicion" if r.suspicion[s] else ""
            # Compact: the category without the cards, so each player fits one line.
            shown = cat if compact else _poker_text(r.poker_hands[s], cat)
            dead = "" if compact or not r.deadwood[s] else cards_text(r.deadwood[s])
            # Jokers can take deadwood below zero: then it adds, in the showdown's words.
            deadwood = deadwood_term(r.deadwood_points[s], dead)
            lines.append(
                f"  {names[s]}: {shown} {r.hand_points[s]} {deadwood}"
                f" {_signed(r.pot[s])} pot{sus} = {figure_text(r.round_scores[s] + r.suspicion[s])}"
                f"  → total {figure_text(r.totals[s])}"
            )
        return lines
    hr = observation.last_result
    if hr is None:
        return []
    figures = rule_facts.figures
    if hr.outcome == "void":
        return [f"Hand {hr.hand_number} result: void, no score."]
    ender = inside(hr.ender) if hr.ender is not None else "nobody"
    verb = {
        "knock": "knocked",
        "undercut": "knocked and was undercut",
        "gin": "went gin",
        "rummy": "went rummy",
    }.get(hr.outcome, hr.outcome)
    if hr.ender == viewer and hr.outcome == "undercut":
        verb = "knocked and were undercut"  # "you knocked and was undercut"
    if list(hr.winners) == [hr.ender]:
        head = f"{ender} {verb} and won the hand."
    else:
        won = " and ".join(inside(w) for w in hr.winners)
        head = f"{ender} {verb}; {won} won the hand."
    lines = [f"Hand {hr.hand_number} result: {head}"]
    low = min(hr.counts[w] for w in hr.winners) if hr.winners else 0
    for s in range(len(hr.totals)):
        arr = hr.arrangements[s] if s < len(hr.arrangements) else None
        melds = melds_text(arr.melds) if arr else "none"
        dead = cards_text(arr.deadwood) if arr else cards_text(hr.hands[s])
        why = ""
        if observation.options.gin and s in hr.winners:
            other = hr.counts[1 - s]
            why = {
                "knock": f" ({other} − {hr.counts[s]})",
                "undercut": f" ({other} − {hr.counts[s]} + {figures['gin_bonus']} undercut)",
                "gin": f" ({other} + {figures['gin_bonus']} gin)",
            }.get(hr.outcome, "")
        if s not in hr.winners and not observation.options.gin:
            bonus = {"rummy": f" + {figures['rummy_bonus']} rummy"}.get(hr.outcome, "")
            if hr.outcome == "knock" and s == hr.ender:
                bonus = f" + {figures['knock_penalty']} for a failed knock"
            why = f" (pays {hr.counts[s]} − {low}{bonus}"
            why += ", shared)" if len(hr.winners) > 1 else ")"
        shown = "" if compact else f"melds {melds}; deadwood {dead}; "
        lines.append(
            f"  {names[s]}: {shown}count {hr.counts[s]};"
            f" score {'+' if hr.scores[s] > 0 else ''}{figure_text(hr.scores[s])}{why}"
            f" → total {figure_text(hr.totals[s])}"
        )
    if hr.layoffs:
        # Who laid off on whose melds, from the hands the result holds ("Laid off: 2♠" did
        # not say whose card it was).
        laid = set(hr.layoffs)
        by = next((s for s, h in enumerate(hr.hands) if laid <= set(h)), None)
        if by is None or hr.ender is None:
            lines.append(f"  Laid off: {cards_text(hr.layoffs)}")
        else:
            onto = whose_melds(hr.ender, viewer, names)
            lines.append(f"  {names[by]} laid off {cards_text(hr.layoffs)} on {onto} melds.")
    return lines


# --- help (? or F1) ----------------------------------------------------------------------------


def points_words(card_points: Sequence[int]) -> str:
    """A game's card points table (``RuleFacts.card_points``) in words, e.g. ``A 1, 2-10
    face value, J/Q/K 10, joker −2``: generated from the engine's table, never copied."""
    parts = [f"A {card_points[0]}"]
    if all(card_points[r] == r + 1 for r in range(1, 10)):
        parts.append("2-10 face value")
    else:
        parts.extend(f"{r + 1} {card_points[r]}" for r in range(1, 10))
    courts = card_points[10:13]
    if len(set(courts)) == 1:
        parts.append(f"J/Q/K {courts[0]}")
    else:
        parts.extend(f"{letter} {v}" for letter, v in zip("JQK", courts, strict=True))
    if len(card_points) > 52:
        parts.append(f"joker {figure_text(card_points[52])}")
    return ", ".join(parts)


def help_lines(game_name: str, options: Any) -> list[str]:
    """The rules in brief and the keys, for the help screen: paragraphs the screen wraps,
    key lines that fit 70 columns. Figures come from the engine."""
    rule_facts = facts(game_name)
    figures = rule_facts.figures
    title = rule_facts.title.upper()
    points = points_words(rule_facts.card_points)
    if rule_facts.poker_split:
        rules = [
            f"{title}: rummy meets poker.",
            f"You hold {rule_facts.hand_size} cards, split into a poker hand (any 5 cards, "
            f"or 6-8 of one suit or one straight) and deadwood ({points}). "
            "Round score = hand points − deadwood + the pot.",
            "A turn: pick the card to discard, then take the top of the stock or the top "
            "discard (or, with Sleight of Hand, palm the card under the top discard); your "
            "pick goes on the pile.",
            f"Knock at the start of a turn if your deadwood can be {rule_facts.knock_limit} or "
            "less. "
            "Everyone else then takes one final turn (a draw, or stand to keep the hand) and "
            f"calls or folds: each caller puts {figures['pot_ante']} in and the best poker hand "
            f"among those in takes the pot; if nobody calls, the knocker gets "
            f"{figures['pot_ante']}.",
            "Palming: once a round; the top discard is set aside; if your round score ends "
            f"below the round's best, {figure_text(figures['suspicion'])}.",
        ]
    else:
        gin = bool(getattr(options, "gin", False))
        limit = getattr(options, "knock_limit", None)
        rules = [
            f"{title} (two players)." if gin else f"{title}.",
            "Make sets (3-4 of a rank) and runs (3 or more in a row, one suit). Unmatched "
            f"cards are deadwood ({points}); your count is the lowest "
            "deadwood over every way to arrange the hand.",
            "A turn: draw from the stock or take the top discard, then discard (not the "
            "card you just took from the pile). Instead of a plain discard you may knock "
            "with it: the hand ends and the counts are compared.",
        ]
        if gin:
            rules.append(
                f"Gin: knock at {rule_facts.knock_limit} or less. The other player lays off "
                "cards on your melds; at or under your count they undercut you "
                f"(+{figures['gin_bonus']}); a count of 0 is gin (+{figures['gin_bonus']})."
            )
        else:
            if limit is not None:
                rules.append(f"This table's knock limit: {limit} or less after the discard.")
            rules.append(
                "The lowest count wins the difference from each player; a knocker who does "
                f"not win pays {figures['knock_penalty']} more. With every card matched you may go "
                f"rummy: +{figures['rummy_bonus']} from each player."
            )
    keys = ["", "KEYS", "1-9 0 -, ← →  pick a card in your hand (it shows in [brackets])"]
    if facts(game_name).poker_split:
        keys += [
            "s d p         discard the picked card and take the stock's top card,",
            "              the top discard, or palm the card under the top discard",
            "k             knock (at the start of your turn)",
            "t             stand (a final turn after a knock: keep your hand)",
            "c f           call or fold after a knock",
        ]
    else:
        keys += [
            "s d           draw from the stock, or take the top discard",
            "d or Enter    after drawing: discard the picked card",
            "k             knock, with the picked card as the discard",
        ]
        if facts(game_name).rummy:
            keys.append("r             go rummy (with the picked card as the discard)")
    keys += [
        "h             Hand Focus: the moves ranked, the best explained",
        "PgUp PgDn     scroll the log (a new event brings it back)",
        "? or F1       this help (Esc, ? or F1 closes it)",
        "q             quit (asks first)",
    ]
    return [*[line for rule in rules for line in (rule, "")][:-1], *keys]
