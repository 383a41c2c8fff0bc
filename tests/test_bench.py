"""The benchmark harness: seeded workloads, timing arithmetic, the quick JSON, and the
peer adapters' agreement with our evaluators (when the bench environment exists)."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
from pathlib import Path

import pytest

from deadwood_knock import bench
from deadwood_knock.cards import DECK_52

ROOT = Path(__file__).resolve().parents[1]
BENCH_PYTHON = ROOT / "bench" / ".venv" / "bin" / "python"


# --- seeded hands ------------------------------------------------------------------


def test_hand_streams_are_reproducible_and_well_formed() -> None:
    for name, (size, deck) in bench.HAND_SETS.items():
        first = bench.random_hands(7, name, 200)
        assert first == bench.random_hands(7, name, 200)
        assert first != bench.random_hands(8, name, 200)
        for hand in first:
            assert len(hand) == size
            assert len(set(hand)) == size
            assert set(hand) <= set(deck)


def test_dense_hands_hold_only_ranks_ace_to_five() -> None:
    hands = bench.random_hands(3, "dense11", 100)
    assert {c.rank for hand in hands for c in hand} == {1, 2, 3, 4, 5}
    assert len(bench.DENSE_DECK) == 20


def test_streams_differ_between_sets() -> None:
    tens = bench.random_hands(1, "kr10", 50)
    elevens = bench.random_hands(1, "kr11", 50)
    assert [h[:10] for h in elevens] != tens


def test_chunks_continue_the_stream_without_repeating_hands() -> None:
    batches = bench.chunks(5, "kr10", size=30)
    joined = list(itertools.chain.from_iterable(next(batches) for _ in range(4)))
    assert joined == bench.random_hands(5, "kr10", 120)
    assert len(set(joined)) == 120  # random 10-card hands essentially never repeat


def test_poker_hands_come_from_the_52_card_deck() -> None:
    hands = bench.random_hands(2, "poker7", 300)
    assert all(set(h) <= set(DECK_52) for h in hands)


# --- timing arithmetic --------------------------------------------------------------


def test_best_rate_sums_steps_until_min_time_and_keeps_the_best() -> None:
    timings = iter([(10, 0.25), (10, 0.25), (30, 0.5), (1, 1.0)])
    calls = []

    def step() -> tuple[int, float]:
        item = next(timings)
        calls.append(item)
        return item

    # Repeat 1: 20 items in 0.5 s (40/s); repeat 2: 30 in 0.5 s (60/s); repeat 3: 1/s.
    assert bench.best_rate(step, min_time=0.5, repeats=3) == pytest.approx(60.0)
    assert len(calls) == 4


def test_batch_step_times_only_the_evaluation() -> None:
    seen: list[list[object]] = []

    def prepare(hands: list[bench.Hand]) -> list[object]:
        return [len(h) for h in hands]

    batches = bench.chunks(9, "dk8", size=25)
    step = bench.batch_step(batches, seen.append, prepare)
    items, seconds = step()
    assert items == 25
    assert seconds >= 0
    assert seen == [[8] * 25]


def test_clock_choice_is_checked_and_used() -> None:
    with pytest.raises(ValueError, match="unknown clock"):
        bench.use_clock("sundial")
    try:
        bench.use_clock("cpu")
        assert bench.clock() is bench.CLOCKS["cpu"]
        step = bench.batch_step(bench.chunks(1, "kr10", size=5), lambda hands: sum(map(len, hands)))
        assert step()[0] == 5
    finally:
        bench.use_clock("wall")
    assert bench.clock() is bench.CLOCKS["wall"]


# --- the quick bench ----------------------------------------------------------------


def test_quick_json_has_every_key_with_positive_numbers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    tiny = ["--hands", "20", "--games", "1", "--min-time", "0", "--repeats", "1"]
    assert bench.main(["--quick", "--json", *tiny]) == 0
    result = json.loads(capsys.readouterr().out)
    for key in bench.QUICK_KEYS:
        assert isinstance(result[key], float)
        assert result[key] > 0, key
    assert result["settings"]["hands"] == 20
    assert result["dk_tables_load_s"] >= 0
    # The search bot's own playouts are reported beside the public engine's.
    for game in ("kr", "gin", "dk", "dk6"):
        assert result[f"{game}_bot_playouts_per_s"] > 0, game
    # And the strong bot's whole search, sampling included (issue 17).
    for game in ("kr", "gin", "dk"):
        assert result[f"{game}_search_per_s"] > 0, game


def test_bot_playout_steps_play_whole_rounds_from_engine_deals(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from deadwood_knock.bots import dk_playout, kr_playout

    finished: list[str] = []

    def watch(module: object, name: str) -> None:
        real = getattr(module, name)

        def wrapped(position: object, *args: object) -> object:
            result = real(position, *args)
            finished.append(str(position.phase))  # type: ignore[attr-defined]
            return result

        monkeypatch.setattr(module, name, wrapped)

    watch(dk_playout, "playout")
    watch(kr_playout, "playout")
    for game, players in (
        ("knock-rummy", 2),
        ("gin", 2),
        ("deadwood-knock", 4),
        ("deadwood-knock", 6),
    ):
        finished.clear()
        items, seconds = bench.bot_playout_step(game, 5, 3, players)()
        assert items == 3 and seconds >= 0
        assert len(finished) == 3, game
        if game == "deadwood-knock":
            assert finished == ["over"] * 3, finished
        # Knock Rummy and Gin playouts stop after kr_playout.PLAYOUT_CAP moves by design (the
        # rest is scored by counts), so some end mid-hand, as in the strong bot.


def test_playouts_end_and_report_their_actions() -> None:
    assert bench.play_kr_hand(1) > 0
    assert bench.play_kr_hand(2, game_name="gin") > 0
    assert bench.play_dk_round(3, players=4) > 0
    assert bench.play_dk_round(4, players=6) > 0
    # Same seed, same random game.
    assert bench.play_kr_hand(11) == bench.play_kr_hand(11)


def test_timed_games_are_the_games_of_their_seeds() -> None:
    """The API rows make the random player's generators before the clock starts; the
    games they time must still be the seeds' own games, action for action."""
    seen: list[tuple[int, int]] = []

    def play(s: int, rng: random.Random) -> int:
        # The generator handed in is the seed's own: same first draw as a fresh one.
        assert rng.random() == bench.play_rng(s).random()
        seen.append((s, bench.play_kr_hand(s, game_name="gin", rng=bench.play_rng(s))))
        return seen[-1][1]

    step = bench.api_game_step(play, 40, 3)
    assert step()[0] == 3 and step()[0] == 3
    assert [s for s, _ in seen] == [40, 41, 42, 43, 44, 45]
    assert [n for _, n in seen] == [bench.play_kr_hand(s, game_name="gin") for s in range(40, 46)]
    assert bench.play_dk_round(5, rng=bench.play_rng(5)) == bench.play_dk_round(5)


def test_full_bench_without_its_environment_says_how_to_make_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "bench").mkdir()
    (tmp_path / "bench" / "run.py").write_text("")
    monkeypatch.setattr(bench, "repo_root", lambda: tmp_path)
    assert bench.main([]) == 2
    assert "make bench" in capsys.readouterr().out


def test_bad_quick_options_are_refused() -> None:
    with pytest.raises(SystemExit):
        bench.main(["--quick", "--hands", "0"])


# --- peers, in the bench environment ------------------------------------------------


def _bench_env_reason() -> str | None:
    if not BENCH_PYTHON.is_file():
        return "bench/.venv does not exist (run `make bench` to create it)"
    probe = subprocess.run(
        [str(BENCH_PYTHON), "-c", "import deadwood_knock, pyspiel, rlcard, treys"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    if probe.returncode != 0:
        return "bench/.venv lacks the package or a peer: " + probe.stderr.strip()[-200:]
    return None


@pytest.fixture(scope="module")
def agreement() -> dict[str, object]:
    reason = _bench_env_reason()
    if reason:
        pytest.skip(reason)
    done = subprocess.run(
        [str(BENCH_PYTHON), "bench/peers.py", "--check", "1500", "--seed", "99"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_peers_count_the_same_deadwood_as_ours(agreement: dict[str, object]) -> None:
    exact = [
        "OpenSpiel_kr10",
        "OpenSpiel_dense10",
        "OpenSpiel_kr11_exact",
        "OpenSpiel_dense11_exact",
        "RLCard_kr10",
        "RLCard_kr11",
        "RLCard_dense10",
        "RLCard_dense11",
    ]
    for key in exact:
        entry = agreement[key]
        assert isinstance(entry, dict)
        assert entry == {"hands": 1500, "mismatches": 0}, key


def test_openspiel_shortcut_is_wrong_only_on_a_few_dense_hands(
    agreement: dict[str, object],
) -> None:
    dense = agreement["OpenSpiel_dense11_shortcut"]
    assert isinstance(dense, dict)
    # Its best-discard shortcut keeps the best 11-card arrangement, which is not
    # always the best after a discard; on dense hands that shows on about 1%.
    assert 0 < dense["mismatches"] < 0.05 * dense["hands"]


def test_poker_peers_order_five_card_hands_as_we_do(agreement: dict[str, object]) -> None:
    for name in ("treys", "phevaluator", "eval7"):
        entry = agreement[name]
        assert isinstance(entry, dict)
        assert entry["order_mismatches"] == 0, name
    treys = agreement["treys"]
    assert isinstance(treys, dict)
    assert treys["category_mismatches"] == 0


def test_import_cost_counts_the_shipped_table_even_from_a_big_parent() -> None:
    # This process already holds the table; the child must still see its own cost
    # (getrusage's peak survives fork+exec and once reported 0 MB here).
    import deadwood_knock.games.deadwood_knock.hand  # noqa: F401

    seconds, megabytes = bench.import_cost(bench.DK_HAND_MODULE)
    assert seconds > 0
    assert 10 < megabytes < 100


# --- the learning environments' step rates -----------------------------------------------


@pytest.mark.parametrize(("label", "kind", "settings"), bench.ENV_WORKLOADS)
def test_env_steps_take_random_legal_actions(
    label: str, kind: str, settings: dict[str, object]
) -> None:
    step = bench.env_step(kind, settings, seed=3, steps=40)
    for _ in range(3):  # episodes reset as they end, inside the timing
        done, seconds = step()
        assert done == 40 and seconds > 0


def test_env_step_rejects_an_unknown_kind() -> None:
    with pytest.raises(ValueError, match="kind must be"):
        bench.env_step("parallel", {"game": "gin"}, seed=1)
