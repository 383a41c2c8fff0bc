"""The arena: seat rotation, statistics, progress bar, CLI, JSON shape, errors."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from deadwood_knock import arena
from deadwood_knock.arena import (
    ArenaError,
    MatchResult,
    SeatStyle,
    match_plan,
    mean_ci,
    percentile,
    play_match,
    ratio_mean_ci,
    summarise,
)
from deadwood_knock.bots import base as bots_base
from deadwood_knock.games.base import Event, Game

# --- a toy game, so the arena's bookkeeping is tested apart from the real rules ------------


@dataclass(frozen=True, slots=True)
class Pick:
    value: int

    @property
    def kind(self) -> str:
        return "pick"

    def to_json(self) -> dict[str, Any]:
        return {"type": "pick", "value": self.value}


@dataclass(frozen=True, slots=True)
class ToyState:
    players: int
    round: int
    to_act: int
    picks: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ToyObs:
    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"game": "toy", "seat": self.seat, "hand": [], "events": []}


ROUNDS = 3


def _apply(state: ToyState, action: Pick) -> tuple[ToyState, tuple[Event, ...]]:
    picks = (*state.picks, action.value)
    if len(picks) < state.players:
        return ToyState(state.players, state.round, state.to_act + 1, picks, state.totals), ()
    # Round score: what you picked, plus 5 for the highest pick (seat order breaks ties).
    best = max(range(state.players), key=lambda s: (picks[s], -s))
    totals = tuple(
        t + p + (5 if s == best else 0)
        for s, (t, p) in enumerate(zip(state.totals, picks, strict=True))
    )
    nxt = ToyState(state.players, state.round + 1, 0, (), totals)
    return nxt, (Event("round_result", None, {"totals": totals}),)


TOY: Game[ToyState, Pick, ToyObs, dict[str, Any]] = Game(
    name="toy",
    title="Toy",
    min_players=2,
    max_players=4,
    options_from_json=lambda d: dict(d),
    new_game=lambda opts, seed: ToyState(
        int(opts["players"]), 0, 0, (), (0,) * int(opts["players"])
    ),
    legal_actions=lambda s: tuple(Pick(v) for v in range(3)),
    apply=_apply,
    observe=lambda s, seat: ToyObs(seat),
    to_act=lambda s: None if s.round >= ROUNDS else s.to_act,
    is_over=lambda s: s.round >= ROUNDS,
    scores=lambda s: s.totals,
    action_from_json=lambda d: Pick(int(d["value"])),
    position_from_json=lambda d: ToyState(2, 0, 0, (), (0, 0)),
    position_to_json=lambda s: {},
)


class HighBot:
    name = "toy-high"

    def act(
        self,
        game: Any,
        observation: Any,
        legal: Sequence[Any],
        rng: random.Random,
        budget: Any = None,
    ) -> Any:
        return legal[-1]


class LowBot:
    name = "toy-low"

    def act(
        self,
        game: Any,
        observation: Any,
        legal: Sequence[Any],
        rng: random.Random,
        budget: Any = None,
    ) -> Any:
        return legal[0]


class CheatBot:
    name = "toy-cheat"

    def act(
        self,
        game: Any,
        observation: Any,
        legal: Sequence[Any],
        rng: random.Random,
        budget: Any = None,
    ) -> Any:
        return Pick(99)


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(arena, "get_game", lambda name: TOY)
    monkeypatch.setattr(arena, "GAME_NAMES", ("toy",))
    for bot in (HighBot, LowBot, CheatBot):
        monkeypatch.setitem(bots_base._REGISTRY, bot.name, bot)


def test_play_match_counts_rounds_and_scores(toy: None) -> None:
    result = play_match("toy", ["toy-high", "toy-low"], {}, seed=3)
    assert result.round_scores == ((7, 0),) * ROUNDS
    assert result.totals == (21, 0)
    assert [len(t) for t in result.decision_ms] == [ROUNDS, ROUNDS]
    assert all(s.rounds == ROUNDS for s in result.styles)


def test_a_round_that_never_ends_abandons_its_match(
    toy: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A toy round takes one action a seat: two may not pass a cap of two, one does.
    monkeypatch.setattr(arena, "MAX_ROUND_ACTIONS", 2)
    whole = play_match("toy", ["toy-high", "toy-low"], {}, seed=3)
    assert not whole.stalled and len(whole.round_scores) == ROUNDS
    monkeypatch.setattr(arena, "MAX_ROUND_ACTIONS", 1)
    cut = play_match("toy", ["toy-high", "toy-low"], {}, seed=3)
    assert cut.stalled and len(cut.round_scores) < ROUNDS


def test_an_abandoned_match_is_named_and_left_out_of_the_figures() -> None:
    def result(index: int, scores: tuple[int, int], stalled: bool = False) -> MatchResult:
        styles = (SeatStyle(), SeatStyle())
        return MatchResult(index, ("a", "b"), (scores,), scores, ((1.0,), (2.0,)), styles, stalled)

    played = [result(0, (9, 1)), result(1, (0, 40), stalled=True), result(2, (3, 5))]
    report = summarise("knock-rummy", ["a", "b"], {}, played)
    alone = summarise("knock-rummy", ["a", "b"], {}, [played[0], played[2]])
    assert report.stalled == (1,) and report.matches == 3
    assert report.bots == alone.bots and report.margins == alone.margins
    assert report.to_json()["stalled_matches"] == [1]
    text = arena.format_report(report)
    assert "abandoned: match 1 (a round passed 3,000 actions" in text
    assert "the figures are over the other 2" in text


def test_illegal_action_is_an_error(toy: None) -> None:
    with pytest.raises(ArenaError, match="illegal action"):
        play_match("toy", ["toy-cheat", "toy-low"], {}, seed=1)


def test_seats_rotate_and_deals_repeat_per_rotation() -> None:
    plan = match_plan(["a", "b", "c"], 7, seed=5)
    assert [p[1] for p in plan[:3]] == [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")]
    assert plan[0][2] == plan[1][2] == plan[2][2] != plan[3][2]
    assert plan[3][1] == ("a", "b", "c")


def test_rotation_evens_out_seat_advantage(toy: None) -> None:
    # Equal bots: the tie-break favours seat 0, so only rotation makes them equal.
    report = arena.run_arena("toy", ["toy-high", "toy-high"], 4, seed=1)
    fig = report.bots["toy-high"]
    assert fig.seats == 8
    assert fig.win_rate == pytest.approx(0.5)
    assert fig.mean == pytest.approx((2 + 7) / 2)


def test_report_figures_and_margin(toy: None) -> None:
    report = arena.run_arena("toy", ["toy-high", "toy-low"], 6, seed=2)
    high, low = report.bots["toy-high"], report.bots["toy-low"]
    assert high.mean == pytest.approx(7.0) and low.mean == pytest.approx(0.0)
    assert high.win_rate == 1.0 and low.win_rate == 0.0
    assert high.ci95 == pytest.approx((7.0, 7.0))
    margin, (lo, hi) = report.margins["toy-high - toy-low"]
    assert margin == pytest.approx(7.0) and lo == pytest.approx(7.0) == hi
    data = report.to_json()
    assert data["matches"] == 6
    assert set(data["bots"]["toy-high"]) >= {
        "mean",
        "ci95",
        "win_rate",
        "decision_ms_p50",
        "decision_ms_p95",
    }
    json.dumps(data)


def test_ratio_mean_ci_covers_and_shrinks() -> None:
    rng = random.Random(4)
    sums, counts = [], []
    for _ in range(400):
        n = rng.randint(3, 10)
        sums.append(sum(rng.gauss(2.0, 5.0) for _ in range(n)))
        counts.append(n)
    mean, (lo, hi) = ratio_mean_ci(sums, counts)
    assert lo < 2.0 < hi
    assert lo < mean < hi
    _, (lo2, hi2) = ratio_mean_ci(sums[:50], counts[:50])
    assert hi2 - lo2 > hi - lo


def test_mean_ci_and_percentile() -> None:
    assert mean_ci([]) == (0.0, (0.0, 0.0))
    m, (lo, hi) = mean_ci([1.0, 2.0, 3.0, 4.0])
    assert m == 2.5 and lo < 2.5 < hi
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == 50.0
    assert percentile(values, 95) == 95.0
    assert percentile([], 95) == 0.0


def test_summarise_win_credit_is_shared_on_ties() -> None:
    results = [
        MatchResult(0, ("a", "b"), ((5, 5),), (5, 5), ((1.0,), (2.0,)), (SeatStyle(), SeatStyle())),
    ]
    report = summarise("knock-rummy", ["a", "b"], {}, results)
    assert report.bots["a"].win_rate == 0.5 == report.bots["b"].win_rate


def test_progress_bar_draws_on_the_stream() -> None:
    err = io.StringIO()
    bar = arena.ProgressBar(err, width=10)
    bar(5, 10)
    bar(10, 10)
    text = err.getvalue()
    assert "[#####-----] 5/10" in text and "[##########] 10/10" in text and text.endswith("\n")


def test_unknown_bot_is_a_clear_error_listing_valid_ones() -> None:
    out, err = io.StringIO(), io.StringIO()
    code = arena.main(
        ["--game", "gin", "--players", "strong,nobody", "--matches", "1"], out=out, err=err
    )
    assert code == 2
    message = err.getvalue()
    assert "unknown bot 'nobody'" in message
    for name in ("greedy", "strong", "tenderfoot", "legend", "random"):
        assert name in message
    assert out.getvalue() == ""


def test_bad_options_are_errors() -> None:
    err = io.StringIO()
    code = arena.main(
        ["--game", "gin", "--players", "greedy,greedy", "--options", "[1]"],
        out=io.StringIO(),
        err=err,
    )
    assert code == 2 and "JSON object" in err.getvalue()
    # Impossible numbers are refused by the parser: exit 2 with a line naming the option.
    with pytest.raises(SystemExit) as stop:
        arena.main(["--game", "gin", "--bots", "greedy,greedy", "--matches", "0"])
    assert stop.value.code == 2


def test_real_game_json_output_and_jobs_agree() -> None:
    argv = ["--game", "knock-rummy", "--players", "greedy,random", "--matches", "4"]
    argv += ["--target", "15", "--seed", "3", "--json"]
    outs = []
    for jobs in ("1", "2"):
        out, err = io.StringIO(), io.StringIO()
        assert arena.main([*argv, "--jobs", jobs], out=out, err=err) == 0
        assert "4/4 matches" in err.getvalue()  # the progress bar
        outs.append(json.loads(out.getvalue()))
    one, two = outs
    assert one["matches"] == 4
    for name in ("greedy", "random"):
        fig = one["bots"][name]
        assert fig["ci95"][0] <= fig["mean"] <= fig["ci95"][1]
        assert 0.0 <= fig["win_rate"] <= 1.0
        assert fig["decision_ms_p50"] <= fig["decision_ms_p95"]
        assert {k: fig[k] for k in ("mean", "ci95", "win_rate")} == {
            k: two["bots"][name][k] for k in ("mean", "ci95", "win_rate")
        }
    assert one["bots"]["greedy"]["win_rate"] + one["bots"]["random"]["win_rate"] == 1.0


def test_text_report_has_the_tables() -> None:
    out = io.StringIO()
    argv = ["--game", "deadwood-knock", "--players", "greedy,cautious,gambler", "--matches", "3"]
    code = arena.main([*argv, "--rounds", "2", "--no-progress"], out=out, err=io.StringIO())
    assert code == 0
    text = out.getvalue()
    for word in ("mean/round", "95% CI", "win rate", "p95 ms", "greedy - cautious", "call_rate"):
        assert word in text


# --- knock timing in the style table ------------------------------------------------------


def test_knock_timing_follows_patience_in_deadwood_knock() -> None:
    # Both weigh a knock against waiting; the eager tenderfoot (patience 0, any count)
    # knocks at its first chance far more often than the patient cautious player (1, at 4
    # or less), at a higher count, and lets fewer chances go by.
    report = arena.run_arena(
        "deadwood-knock", ["tenderfoot", "cautious"], 8, seed=6, options={"rounds": 5}
    )
    eager, patient = report.styles["tenderfoot"], report.styles["cautious"]
    for s, threshold in ((eager, 11), (patient, 4)):
        assert len(s.knock_counts) == s.knocks > 0
        assert max(s.knock_counts) <= threshold
        assert s.knock_passes <= s.knock_chances
        assert s.first_chance_knocks <= s.chance_rounds <= s.rounds
        assert s.turn_rounds <= s.rounds
    rows = {name: arena.style_row("deadwood-knock", s) for name, s in report.styles.items()}
    eager_row, patient_row = rows["tenderfoot"], rows["cautious"]
    eager_count, patient_count = eager_row["knock_count_mean"], patient_row["knock_count_mean"]
    assert eager_count is not None and patient_count is not None
    assert eager_count > patient_count + 2
    eager_first, patient_first = eager_row["first_chance_knock"], patient_row["first_chance_knock"]
    assert eager_first is not None and patient_first is not None
    assert eager_first > patient_first + 0.2
    eager_pass, patient_pass = eager_row["knock_pass_rate"], patient_row["knock_pass_rate"]
    assert eager_pass is not None and patient_pass is not None and patient_pass > eager_pass


def test_the_first_trail_tables_wait_for_the_new_player() -> None:
    # The trail's first Deadwood Knock tables seat eager characters (King Fisher knocks at
    # any count). While someone has yet to move, a knock must look clearly ahead on enough
    # deals, so the new player gets a normal turn before a knock in most rounds: before
    # that rule the first table gave one in 89 of these 120 rounds, now 116.
    for lineup, seed in (
        (["regular", "jack-harris", "king-fisher"], 5),
        (["regular", "jim-courtright", "rowdy-joe-lowe"], 6),
    ):
        report = arena.run_arena("deadwood-knock", lineup, 12, seed=seed)
        stand_in = report.styles["regular"]
        assert stand_in.rounds == 120
        assert stand_in.turn_rounds >= 108, (lineup, stand_in.turn_rounds)
    # Eager characters still knock early once everyone has moved.
    eager = report.styles["figure:rowdy-joe-lowe"]
    assert eager.knocks > 0


def test_knock_timing_in_knock_rummy_and_json() -> None:
    argv = ["--game", "knock-rummy", "--players", "tenderfoot,legend,bean-counter"]
    argv += ["--matches", "30", "--seed", "8", "--json", "--no-progress"]
    out = io.StringIO()
    assert arena.main(argv, out=out, err=io.StringIO()) == 0
    style = json.loads(out.getvalue())["style"]
    names = ("tenderfoot", "legend", "bean-counter")
    counts = {name: style[name]["knock_count_mean"] for name in names}
    # Knock at 11, 6 and 5: the count after the knock's discard follows the threshold.
    assert counts["tenderfoot"] > counts["legend"] + 1
    assert counts["legend"] <= 6 and counts["bean-counter"] <= 5
    passes = {name: style[name]["knock_pass_rate"] for name in ("tenderfoot", "legend")}
    assert passes["legend"] > passes["tenderfoot"]
