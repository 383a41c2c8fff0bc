"""The arena: whole matches between named bots, with seats rotated, and their figures.

``deadwood-knock arena --game deadwood-knock --bots strong,greedy --matches 40 --seed 1``

Matches come in groups of one deal seed per rotation of the line-up: match ``m`` uses the
deal seed of group ``m // n`` and rotates the line-up by ``m % n`` seats, so every bot plays
every seat of the same deals (duplicate style), which cancels most of the luck of the cards.

For each bot it prints the mean score per round (Deadwood Knock) or per hand (Knock Rummy,
Gin) with a 95% confidence interval, the match win rate, the decision time (median, p95),
the paired margin between every two bots, and a style table (knock timing, call and palm
rates) that shows how the personalities differ. Knock timing is shown three ways: the turn
of the knock, the knocker's count at the moment it knocked, and how often it played on
when it could have knocked (Deadwood Knock rounds are short, so the knock turn alone
hides a late knocker: most hands may knock from the deal), plus how often a bot knocks
at its first chance and how often it gets a normal turn before anybody knocks.

Search bots think for a fixed number of iterations unless a wall-clock budget is asked
for, so a run repeats exactly from its seed (``DEFAULT_ITERATIONS``).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any, TextIO

from deadwood_knock.bots import Budget, UnknownBotError, get_bot, resolve_bot_name
from deadwood_knock.cliutil import (
    HelpFormatter,
    Parser,
    add_table_options,
    non_negative_int,
    positive_float,
    positive_int,
)
from deadwood_knock.games import GAME_NAMES, get_game
from deadwood_knock.games.base import Event, GameError, RuleFacts, derive_rng
from deadwood_knock.games.knock_rummy.melds import count as kr_count
from deadwood_knock.games.knock_rummy.rules import GIN_LIMIT
from deadwood_knock.trail.figure_bots import register_figure_bots

__all__ = [
    "ArenaError",
    "ArenaReport",
    "MatchResult",
    "main",
    "play_match",
    "run_arena",
]

#: Event kinds that close a scored round (DK) or hand (KR, Gin).
ROUND_END_KINDS = frozenset({"round_result", "hand_result"})
#: Knock Rummy and Gin: a turn "could knock" when a legal knock leaves this count or less
#: (Gin's limit; plain Knock Rummy lets any count knock, which says nothing of timing).
KNOCK_CHANCE_COUNT = GIN_LIMIT
#: A match longer than this many actions is a bug, not a slow game.
MAX_ACTIONS = 200_000
#: A round longer than this many actions is a pile loop, not a slow round: in heads-up
#: Deadwood Knock two bots that may both knock can each wait for the other's knock and
#: trade the same cards through the pile for ever, which the rules allow
#: (docs/bots-experiments.md, Deadwood Knock, tenth pass: 1,700 moves with the stock at 7).
#: Such a match is abandoned and left out of the figures; the report names it. A real
#: round takes under 200 actions.
MAX_ROUND_ACTIONS = 3_000
Z95 = 1.959963984540054


class ArenaError(GameError):
    """A bad arena request (unknown bot, bad option) or a bot that broke the rules."""


@dataclass(slots=True)
class SeatStyle:
    """What one seat did in a match, counted for the style table."""

    rounds: int = 0
    knocks: int = 0
    knock_turns: list[int] = field(default_factory=list)
    knock_counts: list[int] = field(default_factory=list)  # the knocker's count as it knocked
    knock_chances: int = 0  # decisions where it could knock (see KNOCK_CHANCE_COUNT)
    knock_passes: int = 0  # ... and played on instead
    chance_rounds: int = 0  # rounds in which it had a chance to knock
    first_chance_knocks: int = 0  # ... and knocked at the first one
    turn_rounds: int = 0  # rounds in which it had a normal turn before anybody knocked
    calls: int = 0
    folds: int = 0
    palms: int = 0
    palm_chances: int = 0
    stands: int = 0
    rummies: int = 0
    discard_takes: int = 0
    draws: int = 0

    def merge(self, other: SeatStyle) -> None:
        self.rounds += other.rounds
        self.knocks += other.knocks
        self.knock_turns.extend(other.knock_turns)
        self.knock_counts.extend(other.knock_counts)
        self.knock_chances += other.knock_chances
        self.knock_passes += other.knock_passes
        self.chance_rounds += other.chance_rounds
        self.first_chance_knocks += other.first_chance_knocks
        self.turn_rounds += other.turn_rounds
        self.calls += other.calls
        self.folds += other.folds
        self.palms += other.palms
        self.palm_chances += other.palm_chances
        self.stands += other.stands
        self.rummies += other.rummies
        self.discard_takes += other.discard_takes
        self.draws += other.draws


@dataclass(frozen=True, slots=True)
class MatchResult:
    """One played match: the line-up by seat, every round's scores, totals and timings."""

    index: int
    lineup: tuple[str, ...]
    round_scores: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    decision_ms: tuple[tuple[float, ...], ...]
    styles: tuple[SeatStyle, ...]
    #: Abandoned: a round passed ``MAX_ROUND_ACTIONS`` (its scores are the rounds before).
    stalled: bool = False


def _source(action: Any) -> str | None:
    source = getattr(action, "source", None)
    return None if source is None else str(getattr(source, "value", source))


def play_match(
    game_name: str,
    lineup: Sequence[str],
    options: Mapping[str, Any],
    seed: int,
    budget: Budget | None = None,
    index: int = 0,
) -> MatchResult:
    """Play one whole match; raise :class:`ArenaError` if a bot returns an illegal action."""
    game = get_game(game_name)
    opts = game.options_from_json({**options, "players": len(lineup)})
    bots = [get_bot(name) for name in lineup]
    rngs = [random.Random(derive_rng(seed, 7, seat).getrandbits(64)) for seat in range(len(lineup))]
    state = game.new_game(opts, seed)
    start_totals = tuple(game.scores(state))
    round_scores: list[tuple[int, ...]] = []
    timings: list[list[float]] = [[] for _ in lineup]
    styles = [SeatStyle() for _ in lineup]
    turns = [0] * len(lineup)
    had_chance = [False] * len(lineup)  # this round: a knock chance came (first one counted)
    had_turn = [False] * len(lineup)  # this round: a normal turn came before any knock
    actions = round_actions = 0
    stalled = False
    while not game.is_over(state):
        seat = game.to_act(state)
        if seat is None:
            raise ArenaError(f"{game_name}: nobody to act in a match that is not over")
        legal = game.legal_actions(state)
        observation = game.observe(state, seat)
        started = time.perf_counter()
        action = bots[seat].act(game, observation, legal, rngs[seat], budget)
        timings[seat].append((time.perf_counter() - started) * 1000.0)
        if action not in legal:
            raise ArenaError(
                f"bot {lineup[seat]!r} chose an illegal action {action!r} in match {index}"
            )
        _count_style(styles[seat], action, legal, turns, seat)
        chance = _count_knock_timing(styles[seat], game.facts, observation, action, legal)
        if chance and not had_chance[seat]:
            had_chance[seat] = True
            styles[seat].chance_rounds += 1
            styles[seat].first_chance_knocks += getattr(action, "kind", "") == "knock"
        if not had_turn[seat] and _normal_turn(game.facts, observation):
            had_turn[seat] = True
        state, events = game.apply(state, action)
        actions += 1
        round_actions += 1
        if actions > MAX_ACTIONS:
            raise ArenaError(f"match {index} did not end after {MAX_ACTIONS} actions")
        if round_actions > MAX_ROUND_ACTIONS:
            stalled = True
            break
        if _round_ended(events):
            totals = tuple(game.scores(state))
            round_scores.append(tuple(b - a for a, b in zip(start_totals, totals, strict=True)))
            start_totals = totals
            for s in range(len(lineup)):
                styles[s].rounds += 1
                styles[s].turn_rounds += had_turn[s]
        if _round_ended(events) or _hand_voided(events):
            round_actions = 0
            turns = [0] * len(lineup)
            had_chance = [False] * len(lineup)
            had_turn = [False] * len(lineup)
    totals = tuple(game.scores(state))
    if not round_scores:  # a game without result events still counts as one round
        round_scores.append(tuple(totals))
    return MatchResult(
        index=index,
        lineup=tuple(lineup),
        round_scores=tuple(round_scores),
        totals=totals,
        decision_ms=tuple(tuple(t) for t in timings),
        styles=tuple(styles),
        stalled=stalled,
    )


def _round_ended(events: Iterable[Event]) -> bool:
    """A scored round or hand ended (a void Knock Rummy hand is dealt again, not counted)."""
    return any(e.kind in ROUND_END_KINDS and e.data.get("outcome") != "void" for e in events)


def _hand_voided(events: Iterable[Event]) -> bool:
    """A Knock Rummy or Gin hand ended void (it is dealt again and not counted)."""
    return any(
        e.kind == "void" or (e.kind in ROUND_END_KINDS and e.data.get("outcome") == "void")
        for e in events
    )


def _count_style(
    style: SeatStyle, action: Any, legal: Sequence[Any], turns: list[int], seat: int
) -> None:
    kind = getattr(action, "kind", "")
    if any(_source(a) == "palm" for a in legal):
        style.palm_chances += 1
    # A turn starts with a draw or a stand; a Deadwood Knock knock is a whole turn, while a
    # Knock Rummy knock comes after that turn's draw.
    if kind in ("draw", "stand") or (kind == "knock" and not hasattr(action, "discard")):
        turns[seat] += 1
    if kind == "draw":
        style.draws += 1
        source = _source(action)
        if source == "palm":
            style.palms += 1
        elif source == "discard":
            style.discard_takes += 1
    elif kind == "knock":
        style.knocks += 1
        style.knock_turns.append(turns[seat])
    elif kind == "call":
        style.calls += 1
    elif kind == "fold":
        style.folds += 1
    elif kind == "stand":
        style.stands += 1
    elif kind == "rummy":
        style.rummies += 1


def _knock_counts(facts: RuleFacts, observation: Any, legal: Sequence[Any]) -> dict[Any, int]:
    """Each legal knock and the count it would leave, from the seat's own observation.

    Deadwood Knock: the hand's knock count (a knock is a whole turn). Knock Rummy and Gin:
    the count left after the knock's discard.
    """
    knocks = [a for a in legal if getattr(a, "kind", "") == "knock"]
    if not knocks:
        return {}
    if facts.poker_split:
        return dict.fromkeys(knocks, int(observation.evaluation.knock_count))
    high_aces = bool(getattr(getattr(observation, "options", None), "high_aces", False))
    hand = list(observation.hand)
    return {
        a: kr_count([c for c in hand if c != getattr(a, "discard", None)], high_aces)
        for a in knocks
    }


def _count_knock_timing(
    style: SeatStyle, facts: RuleFacts, observation: Any, action: Any, legal: Sequence[Any]
) -> bool:
    """The knocker's count when it knocked, and the chances to knock it let go by.
    Returns whether this decision was a chance to knock."""
    counts = _knock_counts(facts, observation, legal)
    if not counts:
        return False
    kind = getattr(action, "kind", "")
    if kind == "knock":
        style.knock_counts.append(counts[action])
    # Deadwood Knock: any legal knock is a chance. Knock Rummy and Gin: a low enough one.
    if facts.poker_split or min(counts.values()) <= KNOCK_CHANCE_COUNT:
        style.knock_chances += 1
        if kind not in ("knock", "rummy"):
            style.knock_passes += 1
        return True
    return False


def _normal_turn(facts: RuleFacts, observation: Any) -> bool:
    """A decision of an ordinary turn: not a final turn or a call after a knock (Deadwood
    Knock); in Knock Rummy and Gin a knock ends the hand, so every turn is ordinary."""
    return not facts.poker_split or getattr(observation, "phase", "") == "play"


# --- statistics ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BotFigures:
    name: str
    seats: int
    rounds: int
    mean: float
    ci95: tuple[float, float]
    win_rate: float
    decision_ms_p50: float
    decision_ms_p95: float
    decisions: int

    def to_json(self) -> dict[str, Any]:
        return {
            "mean": round(self.mean, 3),
            "ci95": [round(self.ci95[0], 3), round(self.ci95[1], 3)],
            "win_rate": round(self.win_rate, 4),
            "decision_ms_p50": round(self.decision_ms_p50, 3),
            "decision_ms_p95": round(self.decision_ms_p95, 3),
            "seats": self.seats,
            "rounds": self.rounds,
            "decisions": self.decisions,
        }


def ratio_mean_ci(
    sums: Sequence[float], counts: Sequence[int]
) -> tuple[float, tuple[float, float]]:
    """Mean per round over clusters (matches) and its 95% interval.

    Rounds of one match are not independent (same seat, same totals race), so the
    standard error treats each match as one sample of a ratio estimator.
    """
    total = sum(counts)
    if total == 0:
        return 0.0, (0.0, 0.0)
    mean = sum(sums) / total
    n = len(sums)
    if n < 2:
        return mean, (mean, mean)
    avg_count = total / n
    resid = sum((y - mean * x) ** 2 for y, x in zip(sums, counts, strict=True))
    se = math.sqrt(resid / (n * (n - 1))) / avg_count
    return mean, (mean - Z95 * se, mean + Z95 * se)


def mean_ci(values: Sequence[float]) -> tuple[float, tuple[float, float]]:
    """Sample mean and its normal 95% interval."""
    if not values:
        return 0.0, (0.0, 0.0)
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, (mean, mean)
    se = statistics.stdev(values) / math.sqrt(len(values))
    return mean, (mean - Z95 * se, mean + Z95 * se)


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100); 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100.0 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def _win_credit(totals: Sequence[int], seat: int) -> float:
    best = max(totals)
    if totals[seat] != best:
        return 0.0
    return 1.0 / sum(1 for t in totals if t == best)


@dataclass(frozen=True, slots=True)
class ArenaReport:
    game: str
    matches: int
    lineup: tuple[str, ...]
    options: Mapping[str, Any]
    bots: Mapping[str, BotFigures]
    margins: Mapping[str, tuple[float, tuple[float, float]]]
    styles: Mapping[str, SeatStyle]
    seconds: float
    #: The matches abandoned in a pile loop (``MAX_ROUND_ACTIONS``), left out of the figures.
    stalled: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": list(self.lineup),
            "options": dict(self.options),
            "matches": self.matches,
            "stalled_matches": list(self.stalled),
            "bots": {name: fig.to_json() for name, fig in self.bots.items()},
            "margins": {
                key: {"mean": round(m, 3), "ci95": [round(lo, 3), round(hi, 3)]}
                for key, (m, (lo, hi)) in self.margins.items()
            },
            "style": {name: style_row(self.game, s) for name, s in self.styles.items()},
            "seconds": round(self.seconds, 2),
        }


def style_row(game: str, s: SeatStyle) -> dict[str, float | None]:
    """The style figures of one bot: how often and how early it knocks, calls, palms."""

    def rate(a: int, b: int) -> float | None:
        return round(a / b, 3) if b else None

    row: dict[str, float | None] = {
        "knocks_per_round": rate(s.knocks, s.rounds),
        "knock_turn_mean": round(statistics.fmean(s.knock_turns), 2) if s.knock_turns else None,
        "knock_count_mean": (
            round(statistics.fmean(s.knock_counts), 2) if s.knock_counts else None
        ),
        "knock_pass_rate": rate(s.knock_passes, s.knock_chances),
        "first_chance_knock": rate(s.first_chance_knocks, s.chance_rounds),
        "turn_before_knock": rate(s.turn_rounds, s.rounds),
        "discard_take_rate": rate(s.discard_takes, s.draws),
    }
    if get_game(game).facts.poker_split:
        row["call_rate"] = rate(s.calls, s.calls + s.folds)
        row["palm_rate"] = rate(s.palms, s.palm_chances)
        row["stand_per_round"] = rate(s.stands, s.rounds)
    else:
        row["rummy_per_round"] = rate(s.rummies, s.rounds)
    return row


def summarise(
    game: str,
    lineup: Sequence[str],
    options: Mapping[str, Any],
    results: Sequence[MatchResult],
    seconds: float = 0.0,
) -> ArenaReport:
    names = list(dict.fromkeys(lineup))
    sums: dict[str, list[float]] = {n: [] for n in names}
    counts: dict[str, list[int]] = {n: [] for n in names}
    wins: dict[str, list[float]] = {n: [] for n in names}
    times: dict[str, list[float]] = {n: [] for n in names}
    styles: dict[str, SeatStyle] = {n: SeatStyle() for n in names}
    per_match: list[dict[str, float]] = []
    stalled = tuple(r.index for r in results if r.stalled)
    for result in results:
        if result.stalled:
            continue
        rounds = len(result.round_scores)
        match_means: dict[str, list[float]] = {}
        for seat, name in enumerate(result.lineup):
            total = sum(r[seat] for r in result.round_scores)
            sums[name].append(total)
            counts[name].append(rounds)
            wins[name].append(_win_credit(result.totals, seat))
            times[name].extend(result.decision_ms[seat])
            styles[name].merge(result.styles[seat])
            match_means.setdefault(name, []).append(total / rounds if rounds else 0.0)
        per_match.append({n: statistics.fmean(v) for n, v in match_means.items()})
        per_match[-1]["#rounds"] = float(rounds)
    bots: dict[str, BotFigures] = {}
    for name in names:
        mean, ci = ratio_mean_ci(sums[name], counts[name])
        bots[name] = BotFigures(
            name=name,
            seats=len(sums[name]),
            rounds=sum(counts[name]),
            mean=mean,
            ci95=ci,
            win_rate=statistics.fmean(wins[name]) if wins[name] else 0.0,
            decision_ms_p50=percentile(times[name], 50),
            decision_ms_p95=percentile(times[name], 95),
            decisions=len(times[name]),
        )
    margins: dict[str, tuple[float, tuple[float, float]]] = {}
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            # Paired by match, weighted by its rounds: the same weighting as the means.
            both = [m for m in per_match if a in m and b in m]
            margins[f"{a} - {b}"] = ratio_mean_ci(
                [(m[a] - m[b]) * m["#rounds"] for m in both], [int(m["#rounds"]) for m in both]
            )
    return ArenaReport(
        game=game,
        matches=len(results),
        lineup=tuple(lineup),
        options=dict(options),
        bots=bots,
        margins=margins,
        styles=styles,
        seconds=seconds,
        stalled=stalled,
    )


# --- running ---------------------------------------------------------------------------------


def match_plan(
    lineup: Sequence[str], matches: int, seed: int
) -> list[tuple[int, tuple[str, ...], int]]:
    """(index, rotated line-up, deal seed) for each match: one deal seed per full rotation."""
    n = len(lineup)
    plan = []
    for m in range(matches):
        shift = m % n
        rotated = tuple(lineup[shift:]) + tuple(lineup[:shift])
        deal_seed = derive_rng(seed, m // n).getrandbits(62)
        plan.append((m, rotated, deal_seed))
    return plan


def _play_task(
    task: tuple[str, tuple[str, ...], dict[str, Any], int, Budget | None, int],
) -> MatchResult:
    game, lineup, options, seed, budget, index = task
    register_figure_bots()  # a worker process that did not inherit the registry
    return play_match(game, lineup, options, seed, budget, index)


def run_arena(
    game: str,
    lineup: Sequence[str],
    matches: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    jobs: int = 1,
    budget: Budget | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ArenaReport:
    """Play ``matches`` matches (in ``jobs`` processes) and summarise them."""
    if game not in GAME_NAMES:
        raise ArenaError(f"unknown game {game!r}; choose one of: {', '.join(GAME_NAMES)}")
    register_figure_bots()
    try:
        lineup = [resolve_bot_name(name) for name in lineup]
    except UnknownBotError as exc:
        raise ArenaError(str(exc)) from None
    g = get_game(game)
    if not g.min_players <= len(lineup) <= g.max_players:
        raise ArenaError(
            f"{game} takes {g.min_players} to {g.max_players} players, got {len(lineup)}"
        )
    opts = dict(options or {})
    g.options_from_json({**opts, "players": len(lineup)})  # fail early on bad options
    budget = budget or Budget(iterations=DEFAULT_ITERATIONS)
    tasks = [(game, rot, opts, s, budget, i) for i, rot, s in match_plan(lineup, matches, seed)]
    started = time.perf_counter()
    results: list[MatchResult] = []
    if jobs <= 1:
        for task in tasks:
            results.append(_play_task(task))
            if progress:
                progress(len(results), matches)
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(_play_task, t) for t in tasks]
            for fut in as_completed(futures):
                results.append(fut.result())
                if progress:
                    progress(len(results), matches)
    results.sort(key=lambda r: r.index)
    return summarise(game, lineup, opts, results, time.perf_counter() - started)


class ProgressBar:
    """A one-line progress bar redrawn on a text stream (stderr)."""

    def __init__(self, stream: TextIO, width: int = 30) -> None:
        self.stream = stream
        self.width = width
        self.started = time.perf_counter()

    def __call__(self, done: int, total: int) -> None:
        filled = self.width * done // max(total, 1)
        elapsed = time.perf_counter() - self.started
        bar = "#" * filled + "-" * (self.width - filled)
        end = "\n" if done >= total else ""
        self.stream.write(f"\r[{bar}] {done}/{total} matches, {elapsed:.1f}s{end}")
        self.stream.flush()


# --- output ----------------------------------------------------------------------------------


def format_report(report: ArenaReport) -> str:
    unit = get_game(report.game).facts.unit
    lines = [
        f"{report.game}: {report.matches} matches, seats "
        f"{','.join(report.lineup)} rotated, {report.seconds:.1f}s",
    ]
    if report.stalled:
        which = ", ".join(str(i) for i in report.stalled)
        lines.append(
            f"abandoned: match {which} (a round passed {MAX_ROUND_ACTIONS:,} actions, the "
            f"players trading the same cards through the pile); the figures are over the "
            f"other {report.matches - len(report.stalled)}"
        )
    lines += [
        "",
        f"{'bot':<16}{'mean/' + unit:>12}{'95% CI':>22}{'win rate':>10}{'p50 ms':>9}{'p95 ms':>9}",
    ]
    for fig in report.bots.values():
        ci = f"[{fig.ci95[0]:.2f}, {fig.ci95[1]:.2f}]"
        lines.append(
            f"{fig.name:<16}{fig.mean:>12.2f}{ci:>22}{fig.win_rate:>10.3f}"
            f"{fig.decision_ms_p50:>9.2f}{fig.decision_ms_p95:>9.2f}"
        )
    if report.margins:
        lines += ["", f"{'margin (paired by match)':<34}{'mean':>10}{'95% CI':>22}"]
        for key, (m, (lo, hi)) in report.margins.items():
            lines.append(f"{key:<34}{m:>10.2f}{f'[{lo:.2f}, {hi:.2f}]':>22}")
    rows = {name: style_row(report.game, s) for name, s in report.styles.items()}
    if rows:
        columns = list(next(iter(rows.values())))
        lines += ["", f"{'style':<16}" + "".join(f"{c:>19}" for c in columns)]
        for name, row in rows.items():
            cells = "".join(f"{'-' if row[c] is None else row[c]:>19}" for c in columns)
            lines.append(f"{name:<16}{cells}")
    return "\n".join(lines)


#: Search iterations per decision when no budget is given: a fixed amount of work, so
#: ``--seed`` repeats a run exactly on any machine (the strong bot's own default cap).
DEFAULT_ITERATIONS = 400


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The arena's options, shared by ``deadwood-knock arena`` and this module's parser."""
    p.add_argument(
        "--game", default="deadwood-knock", choices=GAME_NAMES, help="the game the bots play"
    )
    p.add_argument(
        "--bots",
        "--players",
        dest="bots",
        required=True,
        metavar="NAMES",
        help="comma-separated bot names, one per seat (any case; a character by its id or "
        "figure:<id>)",
    )
    p.add_argument("--matches", type=positive_int, default=20, help="whole matches to play")
    p.add_argument(
        "--seed",
        type=non_negative_int,
        default=1,
        help="deal seed; under an iteration budget the same seed repeats the run",
    )
    p.add_argument("--jobs", type=positive_int, default=1, help="worker processes")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_table_options(p)
    p.add_argument("--options", default=None, help="more game options as a JSON object")
    p.add_argument(
        "--iterations",
        type=positive_int,
        default=None,
        help=f"search iterations per decision (default {DEFAULT_ITERATIONS} without "
        "--budget-ms, uncapped with it); an iteration budget makes --seed reproducible",
    )
    p.add_argument(
        "--budget-ms",
        type=positive_float,
        default=None,
        help="a wall-clock limit per search decision instead (default: none); results then "
        "depend on the machine's speed and load and do not repeat exactly",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


def build_parser(prog: str = "deadwood-knock arena") -> argparse.ArgumentParser:
    p = Parser(
        prog=prog,
        description="Play whole matches between bots, seats rotated.",
        formatter_class=HelpFormatter,
    )
    add_arguments(p)
    return p


def budget_of(args: argparse.Namespace) -> Budget:
    """The search budget the options ask for (see ``--iterations`` and ``--budget-ms``)."""
    if args.budget_ms is None:
        return Budget(iterations=args.iterations or DEFAULT_ITERATIONS)
    return Budget(seconds=args.budget_ms / 1000.0, iterations=args.iterations)


def _options(args: argparse.Namespace) -> dict[str, Any]:
    opts: dict[str, Any] = {}
    if args.options:
        try:
            loaded = json.loads(args.options)
        except json.JSONDecodeError as exc:
            raise ArenaError(f"--options is not JSON: {exc}") from exc
        if not isinstance(loaded, dict):
            raise ArenaError("--options must be a JSON object")
        opts.update(loaded)
    if args.sleight_of_hand:
        opts["sleight_of_hand"] = True
    if args.rounds is not None:
        opts["rounds"] = args.rounds
    if args.target is not None:
        opts["target"] = args.target
    return opts


def main(
    argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """``deadwood-knock arena …``: exit 0, or 2 with one line on stderr for bad input."""
    return run_cli(build_parser().parse_args(argv), out, err)


def run_cli(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run parsed arena arguments (the main CLI's ``arena`` subcommand lands here)."""
    out = out or sys.stdout
    err = err or sys.stderr
    lineup = [name.strip() for name in args.bots.split(",") if name.strip()]
    try:
        progress = None if args.no_progress else ProgressBar(err)
        report = run_arena(
            args.game,
            lineup,
            args.matches,
            args.seed,
            options=_options(args),
            jobs=args.jobs,
            budget=budget_of(args),
            progress=progress,
        )
    except (ArenaError, UnknownBotError, GameError) as exc:
        err.write(f"deadwood-knock arena: {exc}\n")
        return 2
    if args.json:
        out.write(json.dumps(report.to_json()) + "\n")
    else:
        out.write(format_report(report) + "\n")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
