"""The full benchmark: our evaluators and engines against the peer libraries.

Run by ``make bench`` in the bench environment ``bench/.venv`` (the package installed
editable plus ``bench/requirements.txt``). Every evaluator, ours or a peer's, takes its
hands from the same seeded streams (``deadwood_knock.bench``), converted to its own
encoding before timing. Prints one table (ours, the peer, the ratio side by side),
then the agreement checks, and writes ``bench/results/latest.json``.

A peer that does not install or import here is excluded with its reason in the table.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import peers

from deadwood_knock import bench as ours
from deadwood_knock.bots.kr_playout import PLAYOUT_CAP
from deadwood_knock.cards import DECK_52
from deadwood_knock.games import get_game
from deadwood_knock.games.base import derive_rng

RESULTS = Path(__file__).resolve().parent / "results" / "latest.json"


@dataclass
class Row:
    what: str
    unit: str
    ours: float | None
    peer: str | None = None
    peer_rate: float | None = None
    target: float | None = None  # the least ours / peer ratio the issue asks for
    note: str = ""
    limit: float | None = None  # the most ``ours`` may be (load time, memory)

    @property
    def ratio(self) -> float | None:
        if self.ours is None or not self.peer_rate:
            return None
        return self.ours / self.peer_rate

    @property
    def met(self) -> bool | None:
        if self.limit is not None and self.ours is not None:
            return self.ours <= self.limit
        if self.target is None or self.ratio is None:
            return None
        return self.ratio >= self.target

    @property
    def goal(self) -> str:
        if self.limit is not None:
            return f"<= {self.limit:g} {self.unit}"
        return f">= {self.target:g}x" if self.target is not None else "-"


class Bench:
    def __init__(self, seed: int, min_time: float, repeats: int) -> None:
        self.seed = seed
        self.min_time = min_time
        self.repeats = repeats
        self.adapters: dict[str, Any] = {}
        self.excluded: dict[str, str] = {}
        for name in peers.PEERS:
            adapter, reason = peers.load(name)
            if adapter is None:
                self.excluded[name] = reason or "unavailable"
            else:
                self.adapters[name] = adapter

    def rates(self, steps: dict[str, ours.Step]) -> dict[str, float]:
        return ours.interleaved_rates(steps, self.min_time, self.repeats)

    def peer_step(self, name: str, hand_set: str, chunk: int = 2_000) -> ours.Step | None:
        """Times a peer on the same stream of hands as ours (converted untimed)."""
        adapter = self.adapters.get(name)
        if adapter is None:
            return None
        batches = ours.chunks(self.seed, hand_set, chunk)
        return ours.batch_step(batches, adapter.evaluate, adapter.prepare)

    def peer_note(self, name: str) -> str:
        return f"{name} excluded: {self.excluded[name]}" if name in self.excluded else ""

    def openspiel_game_step(self, games: int = 10) -> ours.Step | None:
        """OpenSpiel gin_rummy hands, random legal play driven from Python. Its chance
        nodes deal from seeded shuffled decks (made and converted untimed)."""
        adapter = self.adapters.get("OpenSpiel")
        if adapter is None:
            return None
        rng = random.Random(self.seed)
        deck_rng = derive_rng(self.seed, 0xDEC)

        def step() -> tuple[int, float]:
            decks = []
            for _ in range(games):
                deck = list(DECK_52)
                deck_rng.shuffle(deck)
                decks.append([adapter.encode(c) for c in deck])
            now = ours.clock()
            start = now()
            adapter.random_hands(decks, rng)
            return games, now() - start

        return step

    def peer_env_step(self, name: str, steps: int = 500) -> ours.Step | None:
        """A peer's gin RL environment, ``steps`` random legal actions per timing."""
        adapter = self.adapters.get(name)
        if adapter is None:
            return None
        run = adapter.env_runner(self.seed)
        rng = random.Random(self.seed)

        def step() -> tuple[int, float]:
            now = ours.clock()
            start = now()
            run(steps, rng)
            return steps, now() - start

        return step

    def openspiel_mean_actions(self, games: int = 100) -> float:
        adapter = self.adapters["OpenSpiel"]
        rng = random.Random(self.seed + 1)
        deck_rng = derive_rng(self.seed, 0xDEC, 1)
        total = 0
        for _ in range(games):
            deck = list(DECK_52)
            deck_rng.shuffle(deck)
            total += adapter.random_hand([adapter.encode(c) for c in deck], rng)
        return total / games


def mean_actions(play: Callable[[int], int], seed: int, games: int) -> float:
    # Seeds far from the timed ones, so this warms no memo for them.
    return sum(play(seed + 10**9 + i) for i in range(games)) / games


def _present(steps: dict[str, ours.Step | None]) -> dict[str, ours.Step]:
    return {name: step for name, step in steps.items() if step is not None}


def _gin_hand(s: int, rng: random.Random | None = None) -> int:
    return ours.play_kr_hand(s, game_name="gin", rng=rng)


def _dk6_round(s: int, rng: random.Random | None = None) -> int:
    return ours.play_dk_round(s, players=6, rng=rng)


# (hand set, what, our step, {peer: least ratio the issue asks for, or None})
Group = tuple[str, str, Callable[..., ours.Step], dict[str, float | None]]
EVALUATOR_GROUPS: tuple[Group, ...] = (
    (
        "kr10",
        "Knock Rummy count, 10 random cards",
        ours.kr10_step,
        {"OpenSpiel": 1.0, "RLCard": 10.0},
    ),
    (
        "kr11",
        "Knock Rummy best discard, 11 random cards",
        ours.kr11_step,
        {"OpenSpiel": None, "RLCard": 10.0},
    ),
    # Dense 11-card hands before dense 10-card ones: a best discard looks at 10-card
    # subsets, which from only 20 cards the 10-card stream would have warmed.
    (
        "dense11",
        "Knock Rummy best discard, 11 cards of A-5",
        ours.kr11_step,
        {"OpenSpiel": None, "RLCard": 10.0},
    ),
    (
        "dense10",
        "Knock Rummy count, 10 cards of A-5",
        ours.kr10_step,
        {"OpenSpiel": None, "RLCard": None},
    ),
)

PEER_LABELS = {
    "OpenSpiel": "OpenSpiel min_deadwood (C++)",
    "RLCard": "RLCard melding (Python)",
}


GROUPS = ("evaluators", "api", "envs", "dk-api", "playouts", "load")


def measure(
    bench: Bench, log: Callable[[str], None], only: frozenset[str] = frozenset(GROUPS)
) -> list[Row]:
    """Every row of the table (of the ``only`` groups). Ours and its peers are timed in
    turn, group by group."""
    rows: list[Row] = []
    if "evaluators" in only:
        rows += _evaluators(bench, log)
    if "api" in only:
        rows += _api_hands(bench, log)
    if "envs" in only:
        rows += _envs(bench, log)
    if "dk-api" in only:
        rows += _dk_api(bench, log)
    if "playouts" in only:
        rows += _playouts(bench, log)
    if "load" in only:
        rows += _load(log)
    return rows


def _evaluators(bench: Bench, log: Callable[[str], None]) -> list[Row]:
    seed = bench.seed
    rows: list[Row] = []

    log("Deadwood Knock evaluator and the 7-card poker evaluators")
    poker = ("treys", "phevaluator", "eval7")
    steps: dict[str, ours.Step | None] = {"ours": ours.dk_eval_step(seed)}
    steps.update({name: bench.peer_step(name, "poker7", 10_000) for name in poker})
    rates = bench.rates(_present(steps))
    for name in poker:
        rows.append(
            Row(
                "Deadwood Knock 8-card scoring split + knock count (batch)",
                "hands/s",
                rates["ours"],
                f"{name} 7-card best-of-7",
                rates.get(name),
                8.0 if name == "treys" else None,
                bench.peer_note(name) or "peer: plain 7-card poker rank, a smaller job",
            )
        )

    for hand_set, what, our_step, targets in EVALUATOR_GROUPS:
        log(what)
        steps = {"ours": our_step(seed, hand_set)}
        for name in targets:
            steps[name] = bench.peer_step(name, hand_set, 10_000 if name == "OpenSpiel" else 2_000)
        rates = bench.rates(_present(steps))
        for name, target in targets.items():
            note = ""
            if hand_set.endswith("11"):
                note = {
                    "OpenSpiel": "its 11-card shortcut, not exact (see agreement)",
                    "RLCard": "every meld cluster less its top deadwood card",
                }[name]
            rows.append(
                Row(
                    what,
                    "hands/s",
                    rates["ours"],
                    PEER_LABELS[name],
                    rates.get(name),
                    target,
                    bench.peer_note(name) or note,
                )
            )

    return rows


def _api_hands(bench: Bench, log: Callable[[str], None]) -> list[Row]:
    seed = bench.seed
    rows: list[Row] = []
    log("random hands through the public API: Knock Rummy, Gin and OpenSpiel gin_rummy")
    rates = bench.rates(
        _present(
            {
                "kr": ours.api_game_step(ours.play_kr_hand, seed, 20),
                "gin": ours.api_game_step(_gin_hand, seed, 10),
                "OpenSpiel": bench.openspiel_game_step(),
            }
        )
    )
    actions = {
        "kr": mean_actions(ours.play_kr_hand, seed, 100),
        "gin": mean_actions(_gin_hand, seed, 50),
    }
    os_rate = rates.get("OpenSpiel")
    os_per_action = ""
    if os_rate:
        actions["OpenSpiel"] = bench.openspiel_mean_actions()
        os_per_action = f" vs OpenSpiel's {ours.fmt(os_rate * actions['OpenSpiel'])}"
    for key, what, target, rules in (
        ("kr", "Knock Rummy 2p random hands, public engine API", 10.0, "knock any time"),
        ("gin", "Gin preset 2p random hands, public engine API", 10.0, "standard gin, as the peer"),
    ):
        rows.append(
            Row(
                what,
                "hands/s",
                rates[key],
                "OpenSpiel gin_rummy from Python",
                os_rate,
                target,
                bench.peer_note("OpenSpiel")
                or f"{rules}; {actions[key]:.0f} actions/hand (OpenSpiel "
                f"{actions.get('OpenSpiel', 0):.0f}); actions/s "
                f"{ours.fmt(rates[key] * actions[key])}{os_per_action}",
            )
        )

    return rows


def _envs(bench: Bench, log: Callable[[str], None]) -> list[Row]:
    seed = bench.seed
    rows: list[Row] = []
    log("learning environments: ours, RLCard's and OpenSpiel's gin")
    env_steps: dict[str, ours.Step | None] = {
        label: ours.env_step(kind, settings, seed) for label, kind, settings in ours.ENV_WORKLOADS
    }
    env_steps["RLCard"] = bench.peer_env_step("RLCard")
    env_steps["OpenSpiel"] = bench.peer_env_step("OpenSpiel")
    rates = bench.rates(_present(env_steps))
    for name in ("OpenSpiel", "RLCard"):
        label = {
            "OpenSpiel": "OpenSpiel rl_environment gin_rummy",
            "RLCard": "RLCard gin-rummy env",
        }
        rows.append(
            Row(
                f"{label[name]} (peer alone)",
                "steps/s",
                rates.get(name),
                note=bench.peer_note(name) or "random legal actions, episodes reset as they end",
            )
        )
    for label, kind, _settings in ours.ENV_WORKLOADS:
        gin = label.startswith("Gin")
        rows.append(
            Row(
                f"{label} env",
                "steps/s",
                rates[label],
                "OpenSpiel rl_environment gin_rummy" if gin else None,
                rates.get("OpenSpiel") if gin else None,
                5.0 if label == "Gin, PettingZoo AEC" else None,
                "random legal index from the mask; "
                + (
                    "one step = one seat's action"
                    if kind == "aec"
                    else "one step = the learner's action and the bots' replies"
                ),
            )
        )

    return rows


def _dk_api(bench: Bench, log: Callable[[str], None]) -> list[Row]:
    seed = bench.seed
    rows: list[Row] = []
    log("random rounds through the public API: Deadwood Knock")
    rates = bench.rates(
        {
            "dk4": ours.api_game_step(ours.play_dk_round, seed, 5),
            "dk6": ours.api_game_step(_dk6_round, seed, 5),
        }
    )
    for key, players, play in (("dk4", 4, ours.play_dk_round), ("dk6", 6, _dk6_round)):
        per_round = mean_actions(play, seed, 40)
        rows.append(
            Row(
                f"Deadwood Knock {players}p random rounds, public engine API",
                "rounds/s",
                rates[key],
                note=f"{per_round:.0f} actions/round, "
                f"{ours.fmt(rates[key] * per_round)} actions/s; bots need thousands of rounds/s",
            )
        )

    return rows


def _playouts(bench: Bench, log: Callable[[str], None]) -> list[Row]:
    seed = bench.seed
    rows: list[Row] = []
    log("the search bot's own playouts on the cores")
    playout_steps = {
        ("knock-rummy", 2): 20,
        ("gin", 2): 10,
        ("deadwood-knock", 4): 10,
        ("deadwood-knock", 6): 10,
    }
    rates = bench.rates(
        {
            f"{name} {players}": ours.bot_playout_step(name, seed, games, players)
            for (name, players), games in playout_steps.items()
        }
    )
    for (name, players), _games in playout_steps.items():
        unit = "rounds/s" if name == "deadwood-knock" else "playouts/s"
        title = {"knock-rummy": "Knock Rummy", "gin": "Gin", "deadwood-knock": "Deadwood Knock"}
        rows.append(
            Row(
                f"{title[name]} {players}p {'rounds' if name == 'deadwood-knock' else 'hands'}, "
                "search bot's playouts",
                unit,
                rates[f"{name} {players}"],
                note="its playout policy in every seat; scored as the engine "
                "(tests/test_bots_playouts.py)"
                + (
                    ""
                    if name == "deadwood-knock"
                    else f"; cut at {PLAYOUT_CAP} moves as in the bot"
                ),
            )
        )
    log("the search bot's whole search (sampling and playouts)")
    searches = {"knock-rummy": 2, "gin": 2, "deadwood-knock": 4}
    search_rates = bench.rates(
        {name: ours.search_step(name, seed, players) for name, players in searches.items()}
    )
    for name, players in searches.items():
        rows.append(
            Row(
                f"{get_game(name).title} {players}p, strong bot's search",
                "iterations/s",
                search_rates[name],
                note="SearchBot.evaluate at 40 iterations on seeded positions; an iteration "
                "is a sampled deal and a playout of every kept move (issue 17)",
            )
        )

    return rows


def _load(log: Callable[[str], None]) -> list[Row]:
    rows: list[Row] = []
    log("table load cost")
    for title, module in (
        ("Deadwood Knock", ours.DK_HAND_MODULE),
        ("Knock Rummy", ours.KR_MELDS_MODULE),
    ):
        seconds, megabytes = ours.import_cost(module)
        what = f"{title} tables load (import)"
        rows.append(Row(what, "s", seconds, limit=0.5))
        rows.append(Row(what, "MB", megabytes, note="tables shipped or built at import", limit=100))
    rows.append(
        Row(
            "Peak memory after all of ours and the peers",
            "MB",
            ours.peak_rss_mb(),
            note="includes memos filled while running, and the peer libraries",
        )
    )
    return rows


def _cell(value: float | None, unit: str = "") -> str:
    if value is None:
        return "-"
    return ours.fmt(value) + (f" {unit}" if unit else "")


def render(rows: list[Row]) -> str:
    header = ("what", "ours", "peer", "peer's", "ratio", "target", "note")
    table = [header]
    for r in rows:
        met = {True: " ok", False: " MISSED", None: ""}[r.met]
        table.append(
            (
                r.what,
                _cell(r.ours, r.unit),
                r.peer or "-",
                _cell(r.peer_rate),
                f"{r.ratio:.2f}x" if r.ratio is not None else "-",
                r.goal + met,
                r.note,
            )
        )
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    lines = []
    for n, row in enumerate(table):
        cells = [
            c.ljust(w) if i in (0, 2, 6) else c.rjust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("| " + " | ".join(cells) + " |")
        if n == 0:
            lines.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def render_agreement(check: dict[str, Any]) -> str:
    lines = [f"Agreement with ours on the first {check['hands']} hands of each stream:"]
    for key, value in check.items():
        if not isinstance(value, dict):
            continue
        if "skipped" in value:
            lines.append(f"  {key}: skipped ({value['skipped']})")
            continue
        parts = [f"{k.replace('_', ' ')} {v}" for k, v in value.items() if k != "hands"]
        rate = ""
        if value.get("mismatches"):
            rate = f" ({100 * value['mismatches'] / value['hands']:.2f}% wrong)"
        lines.append(f"  {key}: {value['hands']} hands, " + ", ".join(parts) + rate)
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description="Deadwood Knock benchmark against the peers.")
    parser.add_argument("--seed", type=int, default=ours.DEFAULT_SEED)
    parser.add_argument("--min-time", type=float, default=0.5)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--check-hands", type=int, default=10_000)
    parser.add_argument("--json", action="store_true", help="print the JSON result instead")
    parser.add_argument(
        "--only",
        default=",".join(GROUPS),
        help="comma-separated groups to time (default all): " + ", ".join(GROUPS),
    )
    parser.add_argument(
        "--no-check", action="store_true", help="skip the agreement checks with the peers"
    )
    parser.add_argument(
        "--clock",
        choices=sorted(ours.CLOCKS),
        default="cpu",
        help="cpu (default: this process's CPU time, steady under other load) or wall time",
    )
    args = parser.parse_args()
    ours.use_clock(args.clock)
    started = time.perf_counter()
    load_before = os.getloadavg()

    def log(message: str) -> None:
        print(f"[{time.perf_counter() - started:6.1f} s] {message}", file=sys.stderr, flush=True)

    bench = Bench(args.seed, args.min_time, args.repeats)
    for name, reason in bench.excluded.items():
        log(f"excluded {name}: {reason}")
    only = frozenset(g.strip() for g in args.only.split(",") if g.strip())
    unknown = only - set(GROUPS)
    if unknown:
        parser.error(f"unknown group(s) {', '.join(sorted(unknown))}; choose from {GROUPS}")
    rows = measure(bench, log, only)
    check: dict[str, Any] = {"hands": 0}
    if not args.no_check:
        log("agreement checks")
        check = peers.check(args.check_hands, args.seed)
    elapsed = time.perf_counter() - started
    result: dict[str, Any] = {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "machine": {
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
            # Other work on the machine slows every figure; ratios suffer less as
            # ours and the peers are timed in turn.
            "load_average_1min": {"start": load_before[0], "end": os.getloadavg()[0]},
        },
        "settings": {
            "seed": args.seed,
            "min_time": args.min_time,
            "repeats": args.repeats,
            "clock": args.clock,
            "only": sorted(only),
        },
        "peers": {name: peers.version(name) for name in peers.PEERS},
        "excluded": bench.excluded,
        "rows": [asdict(r) | {"ratio": r.ratio, "met": r.met} for r in rows],
        "agreement": check,
        "elapsed_s": round(elapsed, 1),
    }
    # A partial run (--only) does not replace the whole table's results.
    out = RESULTS if only == set(GROUPS) else RESULTS.with_name("latest-partial.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    if args.json:
        print(json.dumps(result))
    else:
        versions = ", ".join(f"{k} {v or 'missing'}" for k, v in result["peers"].items())
        print(
            f"Deadwood Knock benchmark, seed {args.seed}, best of {args.repeats} x >= "
            f"{args.min_time} s of {args.clock} time, Python {platform.python_version()}, "
            f"{os.cpu_count()} cpus"
        )
        load = result["machine"]["load_average_1min"]
        print(f"Peers: {versions}")
        print(f"Load average (1 min) at start {load['start']:.1f}, at end {load['end']:.1f}\n")
        print(render(rows))
        print()
        print(render_agreement(check) if check.get("hands") else "Agreement checks skipped.")
        print(f"\nTook {elapsed:.0f} s; wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
