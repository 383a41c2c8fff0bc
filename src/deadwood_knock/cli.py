"""The ``deadwood-knock`` command.

Subcommands: ``hand`` (the hand calculator), ``serve`` (the game server),
``bench`` (speed figures), ``arena`` (bot matches), ``play`` (the terminal client).
Bad input prints one line naming what was wrong and exits with status 2; ``hand`` reading
stdin answers every line and exits 1 if any line was bad.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, TextIO

from deadwood_knock import __version__
from deadwood_knock.cards import Card, CardError, parse_cards
from deadwood_knock.cliutil import (
    EXIT_USAGE,
    HelpFormatter,
    Parser,
    add_table_options,
    non_negative_float,
    non_negative_int,
    port_number,
)
from deadwood_knock.games import get_game as _get_game

EXIT_BAD_LINES = 1


class CliError(Exception):
    """A user error: printed as one line, exit status 2."""


# --- hand calculator -------------------------------------------------------------------------


def dk_hand_sizes() -> tuple[int, ...]:
    """The card counts a Deadwood Knock hand has: the deal (DK1), kept through every turn."""
    from deadwood_knock.games.deadwood_knock.rules import HAND_SIZE

    return (HAND_SIZE,)


def kr_hand_sizes() -> tuple[int, ...]:
    """The card counts a Knock Rummy hand has: each table size's deal (KR1), and one more
    between the draw and the discard (KR3)."""
    from deadwood_knock.games import get_game
    from deadwood_knock.games.knock_rummy.rules import deal_size

    game = get_game("knock-rummy")
    dealt = {deal_size(p) for p in range(game.min_players, game.max_players + 1)}
    return tuple(sorted(dealt | {n + 1 for n in dealt}))


def _kr_size_rule() -> str:
    from deadwood_knock.games import get_game
    from deadwood_knock.games.knock_rummy.rules import deal_size

    game = get_game("knock-rummy")
    by_size: dict[int, list[int]] = {}
    for p in range(game.min_players, game.max_players + 1):
        by_size.setdefault(deal_size(p), []).append(p)
    words = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
    parts = [
        f"{size}{' cards' if i == 0 else ''} with "
        f"{' or '.join(words.get(p, str(p)) for p in players)}{' players' if i == 0 else ''}"
        for i, (size, players) in enumerate(sorted(by_size.items(), reverse=True))
    ]
    return (
        f"a Knock Rummy hand has {', '.join(parts)} (KR1), or one card more between the "
        "draw and the discard (KR3)"
    )


def _dk_hand(cards: Sequence[Card]) -> dict[str, Any]:
    from deadwood_knock.games.deadwood_knock.hand import evaluate

    if any(cards.count(c) > 1 for c in cards):  # parse_cards already refuses repeats
        raise CliError("a card appears twice")
    if len(cards) not in dk_hand_sizes():
        raise CliError(
            f"a Deadwood Knock hand has {dk_hand_sizes()[0]} cards (DK1: dealt 8, and every "
            f"turn takes one and places one), got {len(cards)}"
        )
    if sum(1 for c in cards if not c.is_joker) < 5:
        raise CliError("a poker hand needs at least 5 cards that are not jokers")
    out = evaluate(cards).to_json()
    del out["strength"]  # an internal ordering code, not part of the calculator's answer
    return out


def _kr_hand(cards: Sequence[Card], high_aces: bool) -> dict[str, Any]:
    from deadwood_knock.games.knock_rummy.melds import arrange

    if any(c.is_joker for c in cards):
        raise CliError("bad card 'JK': Knock Rummy is played without jokers")
    if len(cards) not in kr_hand_sizes():
        raise CliError(f"{_kr_size_rule()}; got {len(cards)}")
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

    if _get_game(game).facts.poker_split:
        knock = "yes" if result["can_knock"] else "no (needs 11 or less)"
        return "\n".join(
            [
                f"Poker hand: {cards('poker_hand')} — {CATEGORY_WORDS[result['category']]}, "
                f"{result['hand_points']} points",
                f"Deadwood:   {cards('deadwood')} — {_points(result['deadwood_points'])}",
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


def _points(n: int) -> str:
    return "1 point" if n == 1 else f"{n} points"


def _evaluate_line(game: str, text: str, high_aces: bool) -> dict[str, Any]:
    cards = parse_cards(text)
    if not cards:
        raise CliError("no cards given")
    if _get_game(game).facts.poker_split:
        return _dk_hand(cards)
    return _kr_hand(cards, high_aces)


def hand_lines(lines: Iterable[str]) -> Iterable[tuple[int, str]]:
    """(line number, cards) for each line that holds a hand: blank lines and ``#``
    comments (whole lines, or the rest of a line) are skipped."""
    for number, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].strip()
        if text:
            yield number, text


def _cmd_hand(args: argparse.Namespace, out: TextIO) -> int:
    game: str = args.game
    high_aces = bool(getattr(args, "high_aces", False))
    if args.cards == ["-"]:
        return _hands_from_stdin(game, high_aces, bool(args.json), out)
    result = _evaluate_line(game, " ".join(args.cards), high_aces)
    if args.json:
        out.write(json.dumps(result) + "\n")
    else:
        out.write(_words(game, result) + "\n")
    return 0


def _hands_from_stdin(game: str, high_aces: bool, as_json: bool, out: TextIO) -> int:
    """One hand per line. Each good line is answered (words, or one JSON object per line);
    a bad line gets an error (on stderr, or a JSON error object) and the rest go on."""
    bad = 0
    first = True
    for number, text in hand_lines(sys.stdin):
        try:
            result = _evaluate_line(game, text, high_aces)
        except (CardError, CliError) as exc:
            bad += 1
            if as_json:
                out.write(json.dumps({"line": number, "error": str(exc)}) + "\n")
            else:
                sys.stderr.write(f"deadwood-knock: line {number}: {exc}\n")
            continue
        if as_json:
            out.write(json.dumps(result) + "\n")
        else:
            out.write(("" if first else "\n") + f"Hand: {text}\n{_words(game, result)}\n")
            first = False
        out.flush()
    return EXIT_BAD_LINES if bad else 0


# --- server and bench ------------------------------------------------------------------------


def _cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    from deadwood_knock.server import ServeError, serve

    trusted = [p.strip() for item in args.trusted_proxies or () for p in item.split(",")]
    if args.proxy_headers:
        trusted += list(LOOPBACK_PROXIES)
    try:
        serve(
            host=args.host,
            port=args.port,
            data_dir=Path(args.data_dir),
            database_url=args.database_url,
            redis_url=args.redis_url,
            trusted_proxies=tuple(p for p in trusted if p) or None,
            log_level=args.log_level,
            workers=args.workers,
        )
    except ServeError as exc:
        print(f"deadwood-knock serve: {exc}", file=sys.stderr)
        return 2
    return 0


#: ``--proxy-headers``: a reverse proxy on this machine.
LOOPBACK_PROXIES = ("127.0.0.1", "::1")


def _cmd_bench(args: argparse.Namespace, out: TextIO) -> int:
    from deadwood_knock.bench import main as bench_main

    argv = [*(["--quick"] if args.quick else []), *(["--json"] if args.json else [])]
    argv += [] if args.progress else ["--no-progress"]
    # The harness's own options, passed on as given (it checks them and says what is wrong).
    for flag in ("seed", "clock", "hands", "games", "min_time", "repeats"):
        value = getattr(args, flag)
        if value is not None:
            argv += ["--" + flag.replace("_", "-"), str(value)]
    return int(bench_main(argv))


def _cmd_arena(args: argparse.Namespace, out: TextIO) -> int:
    from deadwood_knock.arena import run_cli

    return run_cli(args, out)


def _cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    import json

    from deadwood_knock.games.base import GameError, GameRecord
    from deadwood_knock.replays import replay_steps, replay_text

    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text()
    except OSError as exc:
        raise CliError(f"cannot read {args.file}: {exc.strerror or exc}") from None
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise CliError(f"{args.file} is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise CliError(f"{args.file}: a GameRecord is a JSON object (game, options, seed, actions)")
    try:
        record = GameRecord.from_json(data)
        names = ["You" if i == args.seat else f"Seat {i + 1}" for i in range(args.seat + 1)]
        replay = replay_steps(record, names, args.seat)
    except GameError as exc:
        raise CliError(f"{args.file}: {exc}") from None
    for line in replay_text(replay):
        out.write(line + "\n")
    return 0


def _cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    from deadwood_knock.games.base import GameError
    from deadwood_knock.tui import main as tui_main

    try:
        return tui_main(args)
    except GameError as exc:  # bad options or an unknown bot name
        raise CliError(str(exc)) from exc


# --- parser ----------------------------------------------------------------------------------


def _play_bots_help() -> str:
    from deadwood_knock.tui.session import DEFAULT_OPPONENTS

    def names(game: str) -> str:
        return ", ".join(DEFAULT_OPPONENTS[game])

    return (
        "bot names, comma separated, one per opponent seat (any case; a character by its id "
        f"or figure:<id>); default: {names('deadwood-knock')} at Deadwood Knock, "
        f"{names('knock-rummy')} at Knock Rummy, {names('gin')} at Gin"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="deadwood-knock",
        description="Deadwood Knock and Knock Rummy: the hand calculator, the terminal "
        "game, the server, bot matches and speed figures.",
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

    def command(name: str, text: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=text, description=text, formatter_class=HelpFormatter)

    hand = command("hand", "score a hand: the best arrangement in words or JSON")
    games = hand.add_subparsers(dest="game", required=True, parser_class=Parser)
    for name, help_text, aces_option in (
        (
            "deadwood-knock",
            "8 cards: the scoring split, hand points, deadwood and knock count",
            False,
        ),
        (
            "knock-rummy",
            "a Knock Rummy hand (6, 7, 8, 10 or 11 cards): melds, deadwood and the count",
            True,  # the High Aces table option
        ),
    ):
        g = games.add_parser(
            name, help=help_text, description=help_text, formatter_class=HelpFormatter
        )
        if aces_option:
            g.add_argument("--high-aces", action="store_true", help="aces may also sit above kings")
        g.add_argument("--json", action="store_true", help="print JSON (one object per hand)")
        g.add_argument(
            "cards",
            nargs="+",
            help="cards like As Kd Th 7c JK; or - to read one hand per line from stdin "
            "(blank lines and # comments skipped; exit status 1 if any line was bad)",
        )
        g.set_defaults(func=_cmd_hand)

    serve = command("serve", "run the game server and the web client")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument("--port", type=port_number, default=8000, help="port to listen on")
    serve.add_argument("--data-dir", default="data", help="folder of the SQLite database")
    serve.add_argument(
        "--database-url",
        default=None,
        help="a database URL instead, e.g. postgresql+asyncpg://… (default: SQLite in --data-dir)",
    )
    serve.add_argument(
        "--redis-url",
        default=None,
        help="a Redis URL, e.g. redis://host:6379/0: shared rate limits and match events, "
        "needed to run several server processes on one PostgreSQL database",
    )
    serve.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="server processes behind the one address (more than 1 needs PostgreSQL and Redis)",
    )
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

    bench = command("bench", "measure engine speed (the full table needs `make bench`)")
    bench.add_argument("--quick", action="store_true", help="ours only, no peers, under 30 s")
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.add_argument(
        "--no-progress",
        dest="progress",
        action="store_false",
        help="no progress lines on stderr",
    )
    bench.add_argument("--seed", type=int, help="seed of the hand streams and deals")
    bench.add_argument("--clock", choices=("cpu", "wall"), help="wall (default) or cpu time")
    bench.add_argument("--hands", type=int, help="hands per timed batch (quick bench)")
    bench.add_argument("--games", type=int, help="Knock Rummy hands per batch (quick bench)")
    bench.add_argument("--min-time", type=float, help="timed seconds per timing (quick bench)")
    bench.add_argument("--repeats", type=int, help="timings, the best counts (quick bench)")
    bench.set_defaults(func=_cmd_bench)

    from deadwood_knock.arena import add_arguments as arena_arguments

    arena = command("arena", "play whole matches between bots, seats rotated")
    arena_arguments(arena)
    arena.set_defaults(func=_cmd_arena)

    from deadwood_knock.games import GAME_NAMES

    play = command("play", "play in the terminal against bots")
    play.add_argument("--game", default="deadwood-knock", choices=GAME_NAMES, help="the game")
    play.add_argument(
        "--bots", "--opponents", dest="bots", default=None, metavar="NAMES", help=_play_bots_help()
    )
    play.add_argument(
        "--seed", type=non_negative_int, default=None, help="deal seed (default: random)"
    )
    add_table_options(play)
    play.add_argument(
        "--pause", type=non_negative_float, default=0.6, help="seconds before each bot move"
    )
    play.set_defaults(func=_cmd_play)

    replay = command("replay", "play back a finished match from its GameRecord JSON")
    replay.add_argument("file", help="a GameRecord JSON file (exported from Records), or -")
    replay.add_argument(
        "--seat", type=non_negative_int, default=0, help="whose view to follow (0 = first seat)"
    )
    replay.set_defaults(func=_cmd_replay)
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
