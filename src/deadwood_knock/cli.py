"""The ``deadwood-knock`` command.

Subcommands: ``hand`` (the hand calculator), ``serve`` (the game server),
``bench`` (speed figures), ``arena`` (bot matches), ``play`` (the terminal client).
Bad input prints one line naming what was wrong and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

from deadwood_knock import __version__
from deadwood_knock.cards import Card, CardError, parse_cards

EXIT_USAGE = 2


class CliError(Exception):
    """A user error: printed as one line, exit status 2."""


# --- hand calculator -------------------------------------------------------------------------


def _dk_hand(cards: Sequence[Card]) -> dict[str, Any]:
    from deadwood_knock.games.deadwood_knock.hand import evaluate

    if any(cards.count(c) > 1 for c in cards):  # parse_cards already refuses repeats
        raise CliError("a card appears twice")
    if not 5 <= len(cards) <= 9:
        raise CliError(f"a Deadwood Knock hand has 8 cards (5 to 9 accepted), got {len(cards)}")
    if sum(1 for c in cards if not c.is_joker) < 5:
        raise CliError("a poker hand needs at least 5 cards that are not jokers")
    out = evaluate(cards).to_json()
    del out["strength"]  # an internal ordering code, not part of the calculator's answer
    return out


def _kr_hand(cards: Sequence[Card], high_aces: bool) -> dict[str, Any]:
    from deadwood_knock.games.knock_rummy.melds import arrange

    if any(c.is_joker for c in cards):
        raise CliError("bad card 'JK': Knock Rummy is played without jokers")
    if not 1 <= len(cards) <= 11:
        raise CliError(f"a Knock Rummy hand has 1 to 11 cards, got {len(cards)}")
    a = arrange(cards, high_aces=high_aces)
    return {
        "deadwood_points": a.deadwood_points,
        "melds": [[str(c) for c in meld] for meld in a.melds],
        "deadwood": [str(c) for c in a.deadwood],
        "rummy": a.rummy,
    }


def _words(game: str, result: dict[str, Any]) -> str:
    from deadwood_knock.games.deadwood_knock.hand import CATEGORY_WORDS

    def cards(key: str) -> str:
        return " ".join(result[key]) or "none"

    if game == "deadwood-knock":
        knock = "yes" if result["can_knock"] else "no (needs 11 or less)"
        return "\n".join(
            [
                f"Poker hand: {cards('poker_hand')} — {CATEGORY_WORDS[result['category']]}, "
                f"{result['hand_points']} points",
                f"Deadwood:   {cards('deadwood')} — {result['deadwood_points']} points",
                f"Score:      {result['hand_points']} − {result['deadwood_points']} = "
                f"{result['score']}",
                f"Knock count: {result['knock_count']}; can knock: {knock}",
            ]
        )
    melds = " | ".join(" ".join(m) for m in result["melds"]) or "none"
    lines = [
        f"Melds:    {melds}",
        f"Deadwood: {cards('deadwood')} — count {result['deadwood_points']}",
    ]
    if result["rummy"]:
        lines.append("Every card is matched: rummy!")
    return "\n".join(lines)


def _evaluate_line(game: str, text: str, high_aces: bool) -> dict[str, Any]:
    cards = parse_cards(text)
    if not cards:
        raise CliError("no cards given")
    if game == "deadwood-knock":
        return _dk_hand(cards)
    return _kr_hand(cards, high_aces)


def _cmd_hand(args: argparse.Namespace, out: TextIO) -> int:
    game: str = args.game
    high_aces = bool(getattr(args, "high_aces", False))
    if args.cards == ["-"]:
        # One hand per line; a bad line gets an error object and every other line is answered.
        for line in sys.stdin:
            if not line.strip():
                continue
            try:
                obj = _evaluate_line(game, line, high_aces)
            except (CardError, CliError) as exc:
                obj = {"error": str(exc)}
            out.write(json.dumps(obj) + "\n")
            out.flush()
        return 0
    result = _evaluate_line(game, " ".join(args.cards), high_aces)
    if args.json:
        out.write(json.dumps(result) + "\n")
    else:
        out.write(_words(game, result) + "\n")
    return 0


# --- server and bench ------------------------------------------------------------------------


def _cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    from deadwood_knock.server import serve

    trusted = [p.strip() for item in args.trusted_proxies or () for p in item.split(",")]
    if args.proxy_headers:
        trusted += list(LOOPBACK_PROXIES)
    serve(
        host=args.host,
        port=args.port,
        data_dir=Path(args.data_dir),
        database_url=args.database_url,
        trusted_proxies=tuple(p for p in trusted if p) or None,
        log_level=args.log_level,
    )
    return 0


#: ``--proxy-headers``: a reverse proxy on this machine.
LOOPBACK_PROXIES = ("127.0.0.1", "::1")


def _cmd_bench(args: argparse.Namespace, out: TextIO) -> int:
    from deadwood_knock.bench import main as bench_main

    argv = [*(["--quick"] if args.quick else []), *(["--json"] if args.json else [])]
    return int(bench_main(argv))


def _cmd_arena(args: argparse.Namespace, out: TextIO) -> int:
    from deadwood_knock.arena import run_cli

    return run_cli(args, out)


def _cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    from deadwood_knock.games.base import GameError
    from deadwood_knock.tui import main as tui_main

    try:
        return tui_main(args)
    except GameError as exc:  # bad options or an unknown bot name
        raise CliError(str(exc)) from exc


# --- parser ----------------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="deadwood-knock", description="Deadwood Knock and Knock Rummy.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    hand = sub.add_parser("hand", help="score a hand: the best arrangement in words or JSON")
    games = hand.add_subparsers(dest="game", required=True, parser_class=_Parser)
    for name, help_text in (
        ("deadwood-knock", "8 cards: scoring split, hand points, deadwood, knock count"),
        ("knock-rummy", "Knock Rummy count: melds and deadwood"),
    ):
        g = games.add_parser(name, help=help_text)
        if name == "knock-rummy":
            g.add_argument("--high-aces", action="store_true", help="aces may also sit above kings")
        g.add_argument("--json", action="store_true", help="print one JSON object")
        g.add_argument("cards", nargs="+", help="cards like As Kd Th 7c JK, or - to read stdin")
        g.set_defaults(func=_cmd_hand)

    serve = sub.add_parser("serve", help="run the game server")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--data-dir", default="data", help="SQLite folder (default ./data)")
    serve.add_argument("--database-url", default=None, help="e.g. postgresql+asyncpg://…")
    serve.add_argument(
        "--proxy-headers",
        action="store_true",
        help="believe X-Forwarded-For from a reverse proxy on this machine (127.0.0.1, ::1)",
    )
    serve.add_argument(
        "--trusted-proxies",
        action="append",
        metavar="ADDRS",
        help="comma-separated proxy addresses or networks whose X-Forwarded-For is believed",
    )
    serve.add_argument(
        "--log-level",
        default="info",
        choices=("trace", "debug", "info", "warning", "error"),
        help="log level (no token, card or code is logged at any level)",
    )
    serve.set_defaults(func=_cmd_serve)

    bench = sub.add_parser("bench", help="measure engine speed (--quick --json: ours only)")
    bench.add_argument("--quick", action="store_true", help="ours only, under 30 s")
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.set_defaults(func=_cmd_bench)

    from deadwood_knock.arena import add_arguments as arena_arguments

    arena = sub.add_parser("arena", help="play whole matches between bots, seats rotated")
    arena_arguments(arena)
    arena.set_defaults(func=_cmd_arena)

    from deadwood_knock.games import GAME_NAMES

    play = sub.add_parser("play", help="play in the terminal against bots")
    play.add_argument("--game", default="deadwood-knock", choices=GAME_NAMES)
    play.add_argument("--opponents", default="greedy", help="bot names, comma separated")
    play.add_argument("--seed", type=int, default=None, help="deal seed (default: random)")
    play.add_argument("--sleight-of-hand", action="store_true", help="Deadwood Knock palming")
    play.add_argument("--rounds", type=int, default=None, help="Deadwood Knock rounds")
    play.add_argument("--target", type=int, default=None, help="Knock Rummy/Gin game total")
    play.add_argument("--pause", type=float, default=0.6, help="seconds before each bot move")
    play.set_defaults(func=_cmd_play)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args, out))
    except (CardError, CliError) as exc:
        sys.stderr.write(f"deadwood-knock: {exc}\n")
        return EXIT_USAGE


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
