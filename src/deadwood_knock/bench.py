"""Speed measurements of our evaluators and engines, and ``deadwood-knock bench``.

``deadwood-knock bench --quick [--json]`` measures our code only (no peer library is
needed) in under 30 s. Without ``--quick`` the full harness ``bench/run.py`` runs
in the separate bench environment ``bench/.venv`` (made by ``make bench``), where the
peer libraries are installed, and compares with them on the same seeded hands.

The hand streams and timing helpers here are shared with the full harness, so both
measure exactly the same workload.

Every rate is items per second: the best of ``repeats`` timings, each summing timed
batches until at least ``min_time`` seconds. Every batch is new work (the next hands
of a seeded stream, new game seeds), so memoised answers inflate no figure; only dense
hands, drawn from 20 cards, repeat now and then, as they would in play. Building and
converting a batch is not timed.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from deadwood_knock.cards import DECK_52, DECK_54, Card
from deadwood_knock.games import facts, get_game
from deadwood_knock.games.base import derive_rng

__all__ = [
    "DEFAULT_SEED",
    "HAND_SETS",
    "QUICK_KEYS",
    "api_game_step",
    "batch_step",
    "best_rate",
    "bot_playout_step",
    "chunks",
    "clock",
    "env_step",
    "hand_stream",
    "import_cost",
    "interleaved_rates",
    "main",
    "measure_ours",
    "play_dk_round",
    "play_kr_hand",
    "play_rng",
    "random_hands",
    "search_step",
    "timed_rate",
    "use_clock",
]

DEFAULT_SEED = 20261129

#: The keys ``--quick --json`` always prints (more follow).
QUICK_KEYS = (
    "dk_eval_per_s",
    "kr10_per_s",
    "kr11_per_s",
    "kr_api_hands_per_s",
    "dk_api_rounds_per_s",
)

#: Cards of ranks A-5 only: the dense case, where melds overlap the most.
DENSE_DECK: tuple[Card, ...] = tuple(c for c in DECK_52 if c.rank <= 5)

#: Each hand set: (cards per hand, deck drawn from).
HAND_SETS: dict[str, tuple[int, tuple[Card, ...]]] = {
    "dk8": (8, DECK_54),  # Deadwood Knock hands, jokers included
    "poker7": (7, DECK_52),  # for the 7-card poker evaluators
    "poker5": (5, DECK_52),  # plain poker hands, for agreement checks
    "kr10": (10, DECK_52),
    "kr11": (11, DECK_52),
    "dense10": (10, DENSE_DECK),
    "dense11": (11, DENSE_DECK),
}
# Each set draws from its own stream of the seed, so adding a set changes no other.
_STREAMS = {name: number for number, name in enumerate(HAND_SETS, 1)}

# A random playout that has not ended after this many actions means an engine bug.
_MAX_ACTIONS = 20_000

CHUNK = 4_000  # hands per timed batch: small, so a timing overshoots min_time little

Hand = tuple[Card, ...]
#: One timed step: (items done, seconds they took).
Step = Callable[[], tuple[int, float]]


#: Timed clocks: ``wall`` (``time.perf_counter``, the default) or ``cpu`` (this
#: process's CPU time), which other work on a shared machine disturbs far less.
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}
_clock_name = "wall"


def use_clock(name: str) -> None:
    """Choose the clock every step times with (``wall`` or ``cpu``)."""
    global _clock_name
    if name not in CLOCKS:
        raise ValueError(f"unknown clock {name!r}; choose one of: {', '.join(CLOCKS)}")
    _clock_name = name


def clock() -> Callable[[], float]:
    return CLOCKS[_clock_name]


def hand_stream(seed: int, name: str) -> Iterator[Hand]:
    """The endless seeded stream of one hand set's hands."""
    size, deck = HAND_SETS[name]
    sample = derive_rng(seed, 0xBE7C, _STREAMS[name]).sample
    while True:
        yield tuple(sample(deck, size))


def random_hands(seed: int, name: str, count: int) -> list[Hand]:
    """The first ``count`` hands of a set's stream (every timing starts with these)."""
    return list(itertools.islice(hand_stream(seed, name), count))


def chunks(seed: int, name: str, size: int = CHUNK) -> Iterator[list[Hand]]:
    """A set's stream cut into batches of ``size`` hands."""
    stream = hand_stream(seed, name)
    while True:
        yield list(itertools.islice(stream, size))


def _same(hands: list[Hand]) -> Any:
    return hands


def batch_step(
    batches: Iterator[list[Hand]],
    evaluate: Callable[[Any], object],
    prepare: Callable[[list[Hand]], Any] = _same,
) -> Step:
    """A step that takes the next batch, converts it (untimed), then times ``evaluate``."""

    def step() -> tuple[int, float]:
        hands = next(batches)
        work = prepare(hands)
        now = clock()
        start = now()
        evaluate(work)
        return len(hands), now() - start

    return step


def timed_rate(step: Step, min_time: float = 0.5) -> float:
    """Items per second over steps summed until at least ``min_time`` timed seconds."""
    items, spent = 0, 0.0
    while True:
        n, seconds = step()
        items += n
        spent += seconds
        if spent >= min_time and spent > 0:
            return items / spent


def best_rate(step: Step, min_time: float = 0.5, repeats: int = 3) -> float:
    """Items per second: the best of ``repeats`` timings of at least ``min_time`` s."""
    return max(timed_rate(step, min_time) for _ in range(max(1, repeats)))


def interleaved_rates(steps: dict[str, Step], min_time: float, repeats: int) -> dict[str, float]:
    """Best-of-``repeats`` rates of several steps, timed in turn (one timing of each per
    round), so that a busy spell of the machine hits them all alike, not one alone."""
    best = dict.fromkeys(steps, 0.0)
    for _ in range(max(1, repeats)):
        for name, step in steps.items():
            best[name] = max(best[name], timed_rate(step, min_time))
    return best


# --- our workloads -----------------------------------------------------------------


def dk_eval_step(seed: int, size: int = CHUNK) -> Step:
    from deadwood_knock.games.deadwood_knock.hand import evaluate_batch

    return batch_step(chunks(seed, "dk8", size), evaluate_batch)


def kr10_step(seed: int, name: str = "kr10", size: int = CHUNK) -> Step:
    from deadwood_knock.games.knock_rummy.melds import count

    def run(hands: list[Hand]) -> object:
        return list(map(count, hands))

    return batch_step(chunks(seed, name, size), run)


def kr11_step(seed: int, name: str = "kr11", size: int = CHUNK) -> Step:
    from deadwood_knock.games.knock_rummy.melds import best_discard_count

    def run(hands: list[Hand]) -> object:
        return list(map(best_discard_count, hands))

    return batch_step(chunks(seed, name, size), run)


def _play_until(
    game: Any, state: Any, rng: Any, end_kinds: frozenset[str], index_draw: bool = False
) -> int:
    """Random legal actions until an event of ``end_kinds``; returns the actions taken.

    The draw is ``rng.choice`` of the legal actions, or with ``index_draw``
    ``legal[int(rng.random() * len(legal))]`` (the same uniform pick without
    ``choice``'s two Python calls, as the OpenSpiel peer's loop draws and as the learning
    environments' rows draw); the two give different games for the same seed."""
    legal_actions, apply = game.legal_actions, game.apply
    if index_draw:
        random = rng.random
        for taken in range(1, _MAX_ACTIONS + 1):
            legal = legal_actions(state)
            state, events = apply(state, legal[int(random() * len(legal))])
            for event in events:
                if event.kind in end_kinds:
                    return taken
    else:
        choice = rng.choice
        for taken in range(1, _MAX_ACTIONS + 1):
            state, events = apply(state, choice(legal_actions(state)))
            for event in events:
                if event.kind in end_kinds:
                    return taken
    raise RuntimeError(f"{game.name}: random playout did not end in {_MAX_ACTIONS} actions")


# Knock Rummy and Gin end a hand with a result, or void it (the stock ran out).
_KR_END = frozenset({"hand_result", "void"})
_DK_END = frozenset({"round_result"})


def play_rng(seed: int) -> random.Random:
    """The random player's own generator for the game of ``seed`` (not the deal's)."""
    return derive_rng(seed, 0xA11)


def play_kr_hand(
    seed: int,
    players: int = 2,
    game_name: str = "knock-rummy",
    rng: random.Random | None = None,
) -> int:
    """One hand of uniformly random legal play through the public engine API;
    returns the number of actions it took. The draw is the index draw of
    :func:`_play_until`, as the OpenSpiel peer's loop draws (``bench/peers.py``), from
    ``rng`` (default :func:`play_rng` of the seed)."""
    game = get_game(game_name)
    state = game.new_game(game.options_from_json({"players": players}), seed)
    player = rng if rng is not None else play_rng(seed)
    return _play_until(game, state, player, _KR_END, index_draw=True)


def play_dk_round(seed: int, players: int = 4, rng: random.Random | None = None) -> int:
    """One Deadwood Knock round of uniformly random legal play, public engine API."""
    game = get_game("deadwood-knock")
    state = game.new_game(game.options_from_json({"players": players, "rounds": 1}), seed)
    return _play_until(game, state, rng if rng is not None else play_rng(seed), _DK_END)


def api_game_step(play: Callable[..., int], seed: int, games: int) -> Step:
    """Times ``games`` games of random play through the public API per step, each with a
    new seed (no game is replayed): ``play(seed, rng=...)``.

    The random player's generators are made before the clock starts, as the OpenSpiel
    peer's loop makes its one generator untimed: seeding a Mersenne Twister is the
    harness's cost, not the engine's (about 1% of a Gin hand's time). The engine's own
    deal, seeded from the game's seed, stays timed."""
    seeds = itertools.count(seed)

    def step() -> tuple[int, float]:
        batch = [(s, play_rng(s)) for s in itertools.islice(seeds, games)]
        now = clock()
        start = now()
        for s, rng in batch:
            play(s, rng=rng)
        return games, now() - start

    return step


def bot_playout_step(game_name: str, seed: int, games: int, players: int) -> Step:
    """Times the search bot's own playouts (``bots/dk_playout`` on the Deadwood Knock
    core, ``bots/kr_playout`` on the Knock Rummy core: its playout policy for every seat)
    from fresh engine deals, ``games`` per step.

    This is the path the strong bot runs thousands of times a decision; the tests in
    ``tests/test_bots_playouts.py`` prove the playouts score rounds as the engine does.
    As in the bot, a Knock Rummy or Gin playout stops after ``kr_playout.PLAYOUT_CAP`` moves
    and scores the rest by counts. Dealing and copying into the core is untimed.
    """
    from deadwood_knock.bots import dk_playout, kr_playout
    from deadwood_knock.bots.strong import playout_knock_at
    from deadwood_knock.games.knock_rummy.rules import table_of

    game = get_game(game_name)
    seeds = itertools.count(seed)
    options = {"players": players} | ({"rounds": 1} if facts(game_name).poker_split else {})
    parsed = game.options_from_json(options)
    knock_at = playout_knock_at(facts(game_name).layoffs)  # as the strong bot's playouts

    def deal(s: int) -> Any:
        state = game.new_game(parsed, s)
        if facts(game_name).poker_split:
            return dk_playout.dealt(state)
        return table_of(state, single_hand=True)

    def step() -> tuple[int, float]:
        batch = list(itertools.islice(seeds, games))
        positions = [deal(s) for s in batch]
        rngs = [derive_rng(s, 0xA11) for s in batch]
        now = clock()
        start = now()
        if facts(game_name).poker_split:
            for position, rng in zip(positions, rngs, strict=True):
                dk_playout.playout(position, rng)
        else:
            for position in positions:
                kr_playout.playout(position, knock_at)
        return games, now() - start

    return step


def search_step(game_name: str, seed: int, players: int, iterations: int = 40) -> Step:
    """Times the ``strong`` bot's whole search (issue 17): ``SearchBot.evaluate`` at a
    fixed budget of ``iterations`` (0: the bot's default, time-limited budget) on a new
    seeded position each step (a deal played a
    few moves, 2 to 13 by the seed, by greedy players), and counts the iterations it ran
    (one iteration: a position dealt by the bot's sampler, then a playout of every kept
    candidate on it). So the rate is the search's samples per second, sampling
    included, the figure a time budget turns into samples per decision. Making the
    position is untimed; positions with a single candidate are skipped.
    """
    from deadwood_knock.bots import get_bot
    from deadwood_knock.bots.base import Budget

    game = get_game(game_name)
    options = {"players": players} | ({"rounds": 1} if facts(game_name).poker_split else {})
    parsed = game.options_from_json(options)
    greedy, strong = get_bot("greedy"), get_bot("strong")
    budget = Budget(iterations=iterations) if iterations else None
    seeds = itertools.count(seed)

    def position(s: int) -> tuple[Any, Sequence[Any]] | None:
        state = game.new_game(parsed, s)
        rng = random.Random(s)
        for _ in range(2 + s % 12):
            seat = game.to_act(state)
            if seat is None or game.is_over(state):
                return None
            legal = game.legal_actions(state)
            state, _ = game.apply(state, greedy.act(game, game.observe(state, seat), legal, rng))
        seat = game.to_act(state)
        if seat is None or game.is_over(state):
            return None
        legal = game.legal_actions(state)
        return (game.observe(state, seat), legal) if len(legal) > 1 else None

    def step() -> tuple[int, float]:
        while True:
            s = next(seeds)
            found = position(s)
            if found is None:
                continue
            obs, legal = found
            rng = derive_rng(s, 0x5EA)
            now = clock()
            start = now()
            ranked = strong.evaluate(game, obs, legal, rng, budget)  # type: ignore[attr-defined]
            spent = now() - start
            ran = max(av.samples for av in ranked)
            if ran:
                return ran, spent

    return step


#: The learning environments the full bench times: (label, kind, env settings).
ENV_WORKLOADS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("Gin, PettingZoo AEC", "aec", {"game": "gin"}),
    ("Gin, Gymnasium vs random", "gym", {"game": "gin", "opponents": "random"}),
    ("Gin, Gymnasium vs greedy", "gym", {"game": "gin", "opponents": "greedy"}),
    ("Knock Rummy 2p, PettingZoo AEC", "aec", {"game": "knock-rummy"}),
    ("Knock Rummy 4p, PettingZoo AEC", "aec", {"game": "knock-rummy", "players": 4}),
    ("Deadwood Knock 4p, PettingZoo AEC", "aec", {"game": "deadwood-knock", "players": 4}),
    (
        "Deadwood Knock 6p Sleight of Hand, PettingZoo AEC",
        "aec",
        {"game": "deadwood-knock", "players": 6, "sleight_of_hand": True},
    ),
    (
        "Deadwood Knock 4p, Gymnasium vs random",
        "gym",
        {"game": "deadwood-knock", "players": 4, "opponents": "random"},
    ),
)


def env_step(kind: str, settings: dict[str, Any], seed: int, steps: int = 500) -> Step:
    """Times ``steps`` environment steps per timing: a uniformly random legal index from
    each observation's action mask (drawing it is timed, as for the peers). ``kind`` is
    ``aec`` (PettingZoo: every seat one step) or ``gym`` (one learner; the bots' moves
    between its steps are part of its step). Episodes reset as they end (timed too)."""
    import random as random_module

    from deadwood_knock import rl
    from deadwood_knock.rl import aec

    opts = dict(settings)
    game = opts.pop("game")
    # The draw is PettingZoo's random agent's (a uniform pick among the mask's set
    # indices), done the cheapest way: the mask's nonzero indices (what np.flatnonzero
    # returns, without its Python wrapper) indexed by ``int(random() * n)`` (``item``
    # gives the int), as the peers' loops pick from the legal-action lists their
    # environments hand out.
    random = random_module.Random(seed).random
    if kind == "aec":
        env = aec.raw_env(game, **opts)
        env.reset(seed=seed)

        def aec_step() -> tuple[int, float]:
            now = clock()
            start = now()
            last, step = env.last, env.step
            done = 0
            while done < steps:
                obs, _, terminated, truncated, _ = last()
                if terminated or truncated:
                    env.reset()  # the dead agents' None steps are skipped: a new match
                    continue
                legal = obs["action_mask"].nonzero()[0]
                step(legal.item(int(random() * len(legal))))
                done += 1
            return steps, now() - start

        return aec_step
    if kind != "gym":
        raise ValueError(f"kind must be aec or gym, not {kind!r}")
    import gymnasium

    env_id = next(k for k, v in rl.ENV_IDS.items() if v == game)
    genv = gymnasium.make(env_id, **opts).unwrapped
    state = {"obs": genv.reset(seed=seed)[0]}

    def gym_step() -> tuple[int, float]:
        now = clock()
        start = now()
        obs = state["obs"]
        for _ in range(steps):
            legal = obs["action_mask"].nonzero()[0]
            obs, _, terminated, truncated, _ = genv.step(legal.item(int(random() * len(legal))))
            if terminated or truncated:
                obs = genv.reset()[0]
        state["obs"] = obs
        return steps, now() - start

    return gym_step


def import_cost(module: str) -> tuple[float, float]:
    """Seconds and peak MB that importing ``module`` adds, in a fresh interpreter.

    The package's base modules are imported first so that only the module's own
    work (for an evaluator: building or loading its tables) is counted.
    """
    # The peak comes from /proc (VmHWM, this process image's own high-water mark), not
    # getrusage: ru_maxrss survives fork+exec, so a child started by a big parent would
    # report the parent's peak and the import would seem to cost nothing.
    code = (
        "import importlib, time\n"
        "def hwm():\n"
        "    for line in open('/proc/self/status'):\n"
        "        if line.startswith('VmHWM:'):\n"
        "            return int(line.split()[1])\n"
        "import deadwood_knock.cards, deadwood_knock.games.base\n"
        "before = hwm()\n"
        "t = time.perf_counter()\n"
        f"importlib.import_module({module!r})\n"
        "dt = time.perf_counter() - t\n"
        "after = hwm()\n"
        "print(dt, (after - before) / 1024)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    seconds, megabytes = done.stdout.split()
    return float(seconds), float(megabytes)


def peak_rss_mb() -> float:
    """This process's peak resident memory so far, in MB (Linux reports KiB)."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


DK_HAND_MODULE = "deadwood_knock.games.deadwood_knock.hand"
KR_MELDS_MODULE = "deadwood_knock.games.knock_rummy.melds"


def measure_ours(
    seed: int = DEFAULT_SEED,
    hands: int = CHUNK,
    games: int = 20,
    min_time: float = 0.3,
    repeats: int = 3,
    progress: Callable[[int, int, str], None] | None = None,
) -> dict[str, Any]:
    """Every ours-only figure, as the JSON object ``--quick --json`` prints.

    ``hands`` is the batch size of the evaluator timings, ``games`` the Knock Rummy
    hands per playout batch (Deadwood Knock rounds are longer: a quarter as many).
    ``progress(done, total, label)`` is told as each figure is taken.
    """
    few = max(1, games // 4)

    def rate(step: Callable[[], Step]) -> Callable[[], float]:
        return lambda: round(best_rate(step(), min_time, repeats), 1)

    def dk6(s: int, rng: random.Random | None = None) -> int:
        return play_dk_round(s, players=6, rng=rng)

    figures: list[tuple[str, Callable[[], float]]] = [
        ("dk_eval_per_s", rate(lambda: dk_eval_step(seed, hands))),
        ("kr10_per_s", rate(lambda: kr10_step(seed, "kr10", hands))),
        ("kr11_per_s", rate(lambda: kr11_step(seed, "kr11", hands))),
        ("kr_api_hands_per_s", rate(lambda: api_game_step(play_kr_hand, seed, games))),
        ("dk_api_rounds_per_s", rate(lambda: api_game_step(play_dk_round, seed, few))),
        ("kr11_dense_per_s", rate(lambda: kr11_step(seed, "dense11", hands))),
        ("dk6_api_rounds_per_s", rate(lambda: api_game_step(dk6, seed, few))),
        ("kr_bot_playouts_per_s", rate(lambda: bot_playout_step("knock-rummy", seed, games, 2))),
        ("gin_bot_playouts_per_s", rate(lambda: bot_playout_step("gin", seed, few, 2))),
        ("dk_bot_playouts_per_s", rate(lambda: bot_playout_step("deadwood-knock", seed, few, 4))),
        ("dk6_bot_playouts_per_s", rate(lambda: bot_playout_step("deadwood-knock", seed, few, 6))),
        ("kr_search_per_s", rate(lambda: search_step("knock-rummy", seed, 2))),
        ("gin_search_per_s", rate(lambda: search_step("gin", seed, 2))),
        ("dk_search_per_s", rate(lambda: search_step("deadwood-knock", seed, 4))),
    ]
    tables = (("dk_tables", DK_HAND_MODULE), ("kr_tables", KR_MELDS_MODULE))
    total = len(figures) + len(tables)
    result: dict[str, Any] = {}
    for done, (key, measure) in enumerate(figures, 1):
        result[key] = measure()
        if progress:
            progress(done, total, LABELS.get(key, key))
    for done, (key, module) in enumerate(tables, len(figures) + 1):
        seconds, megabytes = import_cost(module)
        result[f"{key}_load_s"] = round(seconds, 3)
        result[f"{key}_load_mb"] = round(megabytes, 1)
        if progress:
            progress(done, total, LABELS.get(f"{key}_load_s", key))
    # Tables or memos filled while running count here, not in the import cost.
    result["peak_rss_mb"] = round(peak_rss_mb(), 1)
    result["settings"] = {
        "clock": _clock_name,
        "seed": seed,
        "hands": hands,
        "games": games,
        "min_time": min_time,
        "repeats": repeats,
        "python": platform.python_version(),
    }
    return result


LABELS = {
    "dk_eval_per_s": "Deadwood Knock 8-card evals/s (batch API)",
    "kr10_per_s": "Knock Rummy count, 10 random cards, hands/s",
    "kr11_per_s": "Knock Rummy best discard, 11 random cards, hands/s",
    "kr11_dense_per_s": "Knock Rummy best discard, 11 dense cards, hands/s",
    "kr_api_hands_per_s": "Knock Rummy 2p random hands/s (engine API)",
    "dk_api_rounds_per_s": "Deadwood Knock 4p random rounds/s (engine API)",
    "dk6_api_rounds_per_s": "Deadwood Knock 6p random rounds/s (engine API)",
    "kr_bot_playouts_per_s": "Knock Rummy 2p playouts/s (the search bot's, capped)",
    "gin_bot_playouts_per_s": "Gin 2p playouts/s (the search bot's, capped)",
    "dk_bot_playouts_per_s": "Deadwood Knock 4p playout rounds/s (the search bot's)",
    "dk6_bot_playouts_per_s": "Deadwood Knock 6p playout rounds/s (the search bot's)",
    "kr_search_per_s": "Knock Rummy 2p search iterations/s (strong, sampling included)",
    "gin_search_per_s": "Gin 2p search iterations/s (strong, sampling included)",
    "dk_search_per_s": "Deadwood Knock 4p search iterations/s (strong, sampling included)",
    "dk_tables_load_s": "Deadwood Knock tables load, s",
    "dk_tables_load_mb": "Deadwood Knock tables load, MB",
    "kr_tables_load_s": "Knock Rummy tables load, s",
    "kr_tables_load_mb": "Knock Rummy tables load, MB",
    "peak_rss_mb": "Peak memory of the whole bench run, MB",
}


def fmt(value: float) -> str:
    """Rates as whole numbers with thousands separators; small figures to 3 digits."""
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3g}"


def _print_table(result: dict[str, Any]) -> None:
    width = max(len(label) for label in LABELS.values())
    for key, label in LABELS.items():
        if key in result:
            print(f"{label:<{width}}  {fmt(result[key]):>12}")


def repo_root() -> Path:
    """The source checkout this package runs from (an editable install)."""
    return Path(__file__).resolve().parents[2]


def run_full(argv: Sequence[str] = ()) -> int:
    """The full harness, with the peers, in the bench environment."""
    root = repo_root()
    python = root / "bench" / ".venv" / "bin" / "python"
    script = root / "bench" / "run.py"
    if not script.is_file():
        print(f"bench: {script} not found (the full harness needs a source checkout)")
        return 2
    if not python.is_file():
        print("bench: the bench environment bench/.venv is missing; `make bench` creates it")
        return 2
    return subprocess.call([str(python), str(script), *argv], cwd=root, env=dict(os.environ))


def progress_lines(stream: Any) -> Callable[[int, int, str], None]:
    """A progress callback writing one line per figure taken: ``[ 3.1 s] 2/13 label``."""
    started = time.perf_counter()

    def tell(done: int, total: int, label: str) -> None:
        elapsed = time.perf_counter() - started
        stream.write(f"[{elapsed:5.1f} s] {done}/{total} {label}\n")
        stream.flush()

    return tell


def main(argv: Sequence[str] | None = None) -> int:
    from deadwood_knock.cliutil import HelpFormatter

    parser = argparse.ArgumentParser(
        prog="deadwood-knock bench",
        description="Measure evaluator and playout speed (ours only with --quick).",
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--quick", action="store_true", help="ours only, no peers, under 30 s")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--seed", type=int, default=DEFAULT_SEED, help="seed of the hand streams and deals"
    )
    parser.add_argument("--hands", type=int, default=CHUNK, help="hands per timed batch")
    parser.add_argument("--games", type=int, default=20, help="Knock Rummy hands per batch")
    # 0.3 s, not the full harness's 0.5 s: making the fresh hands (untimed) costs as
    # much again, and the quick bench must stay under 30 s as the evaluators speed up.
    parser.add_argument("--min-time", type=float, default=0.3, help="timed seconds per timing")
    parser.add_argument("--repeats", type=int, default=3, help="timings; the best counts")
    # CPU time by default: every timed step runs in this one thread, so the CPU clock
    # counts the same work as the wall clock less the time other processes took the core.
    parser.add_argument(
        "--clock", choices=sorted(CLOCKS), default="cpu", help="cpu (default) or wall time"
    )
    parser.add_argument(
        "--no-progress", action="store_true", help="no progress lines on stderr (quick bench)"
    )
    args = parser.parse_args(argv)
    if not args.quick:
        passed = ["--json"] if args.json else []
        return run_full([*passed, "--seed", str(args.seed), "--clock", args.clock])
    use_clock(args.clock)
    if args.hands < 1 or args.games < 1 or args.min_time < 0 or args.repeats < 1:
        parser.error("--hands, --games and --repeats must be positive, --min-time >= 0")
    result = measure_ours(
        args.seed,
        args.hands,
        args.games,
        args.min_time,
        args.repeats,
        progress=None if args.no_progress else progress_lines(sys.stderr),
    )
    if args.json:
        print(json.dumps(result))
    else:
        _print_table(result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
