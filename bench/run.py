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
from deadwood_knock.cards import DECK_52
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

    @property
    def ratio(self) -> float | None:
        if self.ours is None or not self.peer_rate:
            return None
        return self.ours / self.peer_rate

    @property
    def met(self) -> bool | None:
        if self.target is None or self.ratio is None:
            return None
        return self.ratio >= self.target


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

    def rate(self, step: ours.Step) -> float:
        return ours.best_rate(step, self.min_time, self.repeats)

    def peer_rate(self, name: str, hand_set: str, chunk: int = 2_000) -> float | None:
        """A peer's hands per second on the same stream of hands as ours."""
        adapter = self.adapters.get(name)
        if adapter is None:
            return None
        batches = ours.chunks(self.seed, hand_set, chunk)
        return self.rate(ours.batch_step(batches, adapter.evaluate, adapter.prepare))

    def peer_note(self, name: str) -> str:
        return f"{name} excluded: {self.excluded[name]}" if name in self.excluded else ""

    def openspiel_playouts(self, games: int = 10) -> float | None:
        """OpenSpiel gin_rummy hands per second, random legal play driven from Python.
        Its chance nodes deal from seeded shuffled decks (conversion untimed)."""
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
            start = time.perf_counter()
            adapter.random_hands(decks, rng)
            return games, time.perf_counter() - start

        return self.rate(step)

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
    # Seeds far from the timed ones, so this does not warm any memo for them.
    return sum(play(seed + 10**9 + i) for i in range(games)) / games


def measure(bench: Bench, log: Callable[[str], None]) -> list[Row]:
    seed = bench.seed
    rows: list[Row] = []

    # Ours first, before the agreement checks touch any of the same hands.
    log("ours: evaluators")
    dk_eval = bench.rate(ours.dk_eval_step(seed))
    kr10 = bench.rate(ours.kr10_step(seed, "kr10"))
    kr11 = bench.rate(ours.kr11_step(seed, "kr11"))
    dense11 = bench.rate(ours.kr11_step(seed, "dense11"))
    dense10 = bench.rate(ours.kr10_step(seed, "dense10"))
    log("ours: playouts")

    def gin_hand(s: int) -> int:
        return ours.play_kr_hand(s, game_name="gin")

    def dk6_round(s: int) -> int:
        return ours.play_dk_round(s, players=6)

    plays: dict[str, tuple[float | None, str]] = {}
    for key, play, batch, sample in (
        ("kr", ours.play_kr_hand, 20, 100),
        ("gin", gin_hand, 20, 100),
        ("dk4", ours.play_dk_round, 5, 40),
        ("dk6", dk6_round, 5, 40),
    ):
        try:
            per_s = bench.rate(ours.playout_step(play, seed, batch))
            plays[key] = (per_s, f"{mean_actions(play, seed, sample):.0f} actions")
        except ImportError as exc:  # that engine has not landed: report, don't stop
            plays[key] = (None, f"engine missing: {exc}")

    log("peers: poker evaluators")
    for name in ("treys", "phevaluator", "eval7"):
        rows.append(
            Row(
                "Deadwood Knock 8-card scoring split + knock count (batch)",
                "hands/s",
                dk_eval,
                f"{name} 7-card best-of-7",
                bench.peer_rate(name, "poker7", 10_000),
                8.0 if name == "treys" else None,
                bench.peer_note(name) or "peer: plain 7-card poker rank, a smaller job",
            )
        )
    log("peers: gin rummy deadwood")
    for hand_set, what, value, targets in (
        ("kr10", "Knock Rummy count, 10 random cards", kr10, {"OpenSpiel": 1.0, "RLCard": 10.0}),
        ("kr11", "Knock Rummy best discard, 11 random cards", kr11, {"RLCard": 10.0}),
        ("dense11", "Knock Rummy best discard, 11 cards of A-5", dense11, {"RLCard": 10.0}),
        ("dense10", "Knock Rummy count, 10 cards of A-5", dense10, {}),
    ):
        for name in ("OpenSpiel", "RLCard"):
            if name == "OpenSpiel":
                label = "OpenSpiel min_deadwood (C++)"
                note = "11 cards: its shortcut, not exact" if hand_set.endswith("11") else ""
            else:
                label = "RLCard melding (Python)"
                note = "best cluster less top deadwood" if hand_set.endswith("11") else ""
            chunk = 10_000 if name == "OpenSpiel" else 2_000
            rows.append(
                Row(
                    what,
                    "hands/s",
                    value,
                    label,
                    bench.peer_rate(name, hand_set, chunk),
                    targets.get(name),
                    bench.peer_note(name) or note,
                )
            )
    log("peers: OpenSpiel gin_rummy playouts")
    os_play = bench.openspiel_playouts()
    os_note = ""
    if os_play:
        os_note = f"; OpenSpiel {bench.openspiel_mean_actions():.0f} actions"
    kr_play, kr_note = plays["kr"]
    gin_play, gin_note = plays["gin"]
    rows.append(
        Row(
            "Knock Rummy 2p random hands, public engine API",
            "hands/s",
            kr_play,
            "OpenSpiel gin_rummy from Python",
            os_play,
            10.0,
            bench.peer_note("OpenSpiel") or f"ours {kr_note} (knock any time){os_note}",
        )
    )
    rows.append(
        Row(
            "Gin preset 2p random hands, public engine API",
            "hands/s",
            gin_play,
            "OpenSpiel gin_rummy from Python",
            os_play,
            None,
            bench.peer_note("OpenSpiel") or f"same rules; ours {gin_note}{os_note}",
        )
    )
    for key, players in (("dk4", 4), ("dk6", 6)):
        rounds_per_s, note = plays[key]
        rows.append(
            Row(
                f"Deadwood Knock {players}p random rounds, public engine API",
                "rounds/s",
                rounds_per_s,
                note=f"{note}; bots need thousands/s",
            )
        )
    log("ours: table load cost")
    for title, module in (
        ("Deadwood Knock", ours.DK_HAND_MODULE),
        ("Knock Rummy", ours.KR_MELDS_MODULE),
    ):
        seconds, megabytes = ours.import_cost(module)
        rows.append(Row(f"{title} tables load (import)", "s", seconds, note="limit 0.5 s"))
        rows.append(Row(f"{title} tables load (import)", "MB", megabytes, note="limit 100 MB"))
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
                (f">= {r.target:g}x" if r.target is not None else "-") + met,
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
    args = parser.parse_args()
    started = time.perf_counter()

    def log(message: str) -> None:
        print(f"[{time.perf_counter() - started:6.1f} s] {message}", file=sys.stderr, flush=True)

    bench = Bench(args.seed, args.min_time, args.repeats)
    for name, reason in bench.excluded.items():
        log(f"excluded {name}: {reason}")
    rows = measure(bench, log)
    log("agreement checks")
    check = peers.check(args.check_hands, args.seed)
    elapsed = time.perf_counter() - started
    result: dict[str, Any] = {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "machine": {
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
        },
        "settings": {"seed": args.seed, "min_time": args.min_time, "repeats": args.repeats},
        "peers": {name: peers.version(name) for name in peers.PEERS},
        "excluded": bench.excluded,
        "rows": [asdict(r) | {"ratio": r.ratio, "met": r.met} for r in rows],
        "agreement": check,
        "elapsed_s": round(elapsed, 1),
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")
    if args.json:
        print(json.dumps(result))
    else:
        versions = ", ".join(f"{k} {v or 'missing'}" for k, v in result["peers"].items())
        print(
            f"Deadwood Knock benchmark, seed {args.seed}, best of {args.repeats} x >= "
            f"{args.min_time} s, Python {result['machine']['python']}, {os.cpu_count()} cpus"
        )
        print(f"Peers: {versions}\n")
        print(render(rows))
        print()
        print(render_agreement(check))
        print(f"\nTook {elapsed:.0f} s; wrote {RESULTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
