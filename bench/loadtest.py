"""Load test: N players, each playing Deadwood Knock against two greedy bots.

Each player acts as soon as the match socket says it is their turn (after an optional think
time), POSTing the action as the web client does (with ``version`` and a
``client_action_id``); a finished match is followed by a new one. The latency measured is
the action POST's round trip. The server processes are started here (``--processes``, on
consecutive ports), or an already running server is used (``--url``).

    python bench/loadtest.py --players 100 --seconds 30
    python bench/loadtest.py --players 1000 --think 2-4 --database-url postgresql+asyncpg://…

It prints one table row: players, think time, processes, database, actions/s, p50/p95/p99
of the action round trip, errors, and the server's memory (RSS of every server process and
its bot workers), then the CPU milliseconds per action of the server's main process, its
bot workers and this load generator (steadier than actions/s on a shared machine). ``--json``
prints the same as JSON. Exit status 1 if any request failed.

Each player keeps its own keep-alive connection, as a browser does, spoken to by a few lines
of HTTP/1.1 here: the load generator shares the machine with the server, so it must cost
little per action.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import orjson
import websockets

from deadwood_knock.server.launch import ServerProcess

GAME = "deadwood-knock"
OPPONENTS = ["greedy", "greedy"]


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    error_kinds: dict[str, int] = field(default_factory=dict)
    matches: int = 0
    measuring: bool = False

    def error(self, kind: str) -> None:
        self.errors += 1
        self.error_kinds[kind] = self.error_kinds.get(kind, 0) + 1


class HttpError(Exception):
    pass


@dataclass
class Answer:
    status_code: int
    body: bytes

    def json(self) -> Any:
        return orjson.loads(self.body)


class Http:
    """A player's own keep-alive HTTP/1.1 connection per server address, as a browser keeps
    one. (httpx's shared pool looked at every open connection on each request: with a
    hundred players the load generator spent a core on that and measured its own delays.)"""

    #: The server closes a connection idle for 5 s; one idle this long is not reused.
    IDLE = 4.0

    def __init__(self) -> None:
        self._conns: dict[str, tuple[asyncio.StreamReader, asyncio.StreamWriter, float]] = {}

    async def post(self, url: str, body: object, headers: dict[str, str]) -> Answer:
        # A stuck request is an error (TimeoutError is an OSError), not a hung player.
        async with asyncio.timeout(60):
            return await self._post(url, body, headers)

    async def _post(self, url: str, body: object, headers: dict[str, str]) -> Answer:
        parts = urlsplit(url)
        origin = f"{parts.hostname}:{parts.port}"
        payload = orjson.dumps(body)
        head = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
        request = (
            f"POST {parts.path} HTTP/1.1\r\nHost: {origin}\r\n{head}"
            f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n"
        ).encode() + payload
        for attempt in (0, 1):
            conn = self._conns.pop(origin, None)
            if conn is not None and time.monotonic() - conn[2] > self.IDLE:
                conn[1].close()
                conn = None
            if conn is None:
                reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
            else:
                reader, writer = conn[0], conn[1]
            try:
                writer.write(request)
                status_line = await reader.readline()
                if not status_line:
                    raise ConnectionResetError("closed before an answer")
            except (ConnectionError, OSError):
                writer.close()
                if attempt == 0 and conn is not None:
                    continue  # a kept connection the server had closed: as a browser, retry
                raise HttpError("connection lost") from None
            status = int(status_line.split()[1])
            length = 0
            close = False
            while True:
                line = await reader.readline()
                if line in (b"\r\n", b""):
                    break
                name, _, value = line.decode("latin-1").partition(":")
                name = name.strip().lower()
                if name == "content-length":
                    length = int(value)
                elif name == "connection" and value.strip().lower() == "close":
                    close = True
            data = await reader.readexactly(length)
            if close:
                writer.close()
            else:
                self._conns[origin] = (reader, writer, time.monotonic())
            return Answer(status, data)
        raise HttpError("unreachable")

    def close(self) -> None:
        for _reader, writer, _used in self._conns.values():
            writer.close()
        self._conns.clear()


def _rss_kib(pid: int) -> int:
    """RSS of a process and all its descendants (the bot workers), in KiB."""
    total = 0
    todo = [pid]
    while todo:
        current = todo.pop()
        try:
            for line in Path(f"/proc/{current}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
            children = Path(f"/proc/{current}/task/{current}/children").read_text().split()
            todo.extend(int(c) for c in children)
        except OSError:
            continue
    return total


def _cpu_seconds(pid: int) -> tuple[float, float]:
    """CPU seconds (user + system) of a process itself and of its descendants (the bot
    workers): CPU per action is steadier than actions/s on a shared machine."""
    tick = os.sysconf("SC_CLK_TCK")
    own = rest = 0.0
    todo = [(pid, True)]
    while todo:
        current, top = todo.pop()
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
            used = (int(fields[11]) + int(fields[12])) / tick
            children = Path(f"/proc/{current}/task/{current}/children").read_text().split()
        except (OSError, IndexError, ValueError):
            continue
        if top:
            own += used
        else:
            rest += used
        todo.extend((int(c), False) for c in children)
    return own, rest


async def _database_cpu(url: str | None) -> dict[int, float]:
    """PostgreSQL on this machine: CPU seconds of each server process (backend) serving
    ``url``'s database, which shares the cores with the server (empty otherwise)."""
    if not url or not url.startswith("postgresql"):
        return {}
    import asyncpg

    try:
        conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
    except (OSError, asyncpg.PostgresError):
        return {}
    try:
        rows = await conn.fetch(
            "SELECT pid FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    finally:
        await conn.close()
    found = {}
    for row in rows:
        with contextlib.suppress(OSError, IndexError, ValueError):
            found[row[0]] = _cpu_seconds(row[0])[0]
    return found


def _percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    index = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[index]


async def _player(
    number: int,
    bases: list[str],
    stats: Stats,
    think: tuple[float, float],
    deadline: float,
    rng: random.Random,
) -> None:
    http = Http()
    try:
        await _player_plays(number, bases, http, stats, think, deadline, rng)
    except (HttpError, OSError, asyncio.IncompleteReadError) as exc:
        stats.error(f"http {type(exc).__name__}")
    finally:
        http.close()


async def _player_plays(
    number: int,
    bases: list[str],
    http: Http,
    stats: Stats,
    think: tuple[float, float],
    deadline: float,
    rng: random.Random,
) -> None:
    # Several processes: each request may go to any of them (as behind a proxy).
    def base() -> str:
        return bases[rng.randrange(len(bases))]

    # Every player from its own address, as through a reverse proxy, so the per-address
    # limit on new players applies per player.
    forwarded = {
        "X-Forwarded-For": f"10.{number // 65536 % 256}.{number // 256 % 256}.{number % 256}"
    }
    response = await http.post(f"{base()}/api/players", {}, headers=forwarded)
    if response.status_code != 201:
        stats.error(f"player {response.status_code}")
        return
    token = response.json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    # Spread the players' starts over a second so they do not all begin in one instant.
    await asyncio.sleep(rng.random())
    while time.monotonic() < deadline:
        response = await http.post(
            f"{base()}/api/matches", {"game": GAME, "opponents": OPPONENTS}, headers=auth
        )
        if response.status_code != 201:
            stats.error(f"create {response.status_code}")
            await asyncio.sleep(1.0)
            continue
        match_id = response.json()["match_id"]
        finished = await _play(match_id, token, auth, base, http, stats, think, deadline, rng)
        if finished:
            stats.matches += 1


async def _play(
    match_id: str,
    token: str,
    auth: dict[str, str],
    base: Any,
    http: Http,
    stats: Stats,
    think: tuple[float, float],
    deadline: float,
    rng: random.Random,
) -> bool:
    ws_url = base().replace("http://", "ws://") + f"/api/matches/{match_id}/ws"
    try:
        async with websockets.connect(
            ws_url, max_size=None, open_timeout=30, compression=None
        ) as ws:
            await ws.send(json.dumps({"type": "auth", "token": token}))
            try:
                return await _turns(ws, match_id, auth, base, http, stats, think, deadline, rng)
            except TimeoutError:
                return False  # no message before the end of the measured time
    except (OSError, websockets.WebSocketException, TimeoutError) as exc:
        stats.error(f"socket {type(exc).__name__}")
        await asyncio.sleep(0.5)
    return False


async def _turns(
    ws: Any,
    match_id: str,
    auth: dict[str, str],
    base: Any,
    http: Http,
    stats: Stats,
    think: tuple[float, float],
    deadline: float,
    rng: random.Random,
) -> bool:
    """The match's messages until it ends (True) or the measured time is up (False, or
    TimeoutError while waiting for a message)."""
    acted_at = -1
    loop = asyncio.get_running_loop()
    # One timeout moved for each message (asyncio.wait_for made a task and a timer each).
    async with asyncio.timeout(None) as limit:
        while time.monotonic() < deadline:
            limit.reschedule(loop.time() + max(0.1, deadline - time.monotonic()))
            raw = await ws.recv()
            limit.reschedule(None)
            message = orjson.loads(raw)
            if message.get("type") == "error":
                stats.error(f"socket {message.get('code')}")
                return False
            if message.get("type") != "view":
                continue
            view = message["view"]
            if view["status"] != "active":
                return True
            if not view["your_turn"] or view["version"] <= acted_at:
                continue
            if think[1] > 0:
                await asyncio.sleep(rng.uniform(*think))
                if time.monotonic() >= deadline:
                    return False
            action = rng.choice(view["legal_actions"])
            acted_at = view["version"]
            body = {
                "action": action,
                "version": view["version"],
                "client_action_id": f"{match_id[:8]}-{view['version']}",
            }
            started = time.perf_counter()
            try:
                response = await http.post(
                    f"{base()}/api/matches/{match_id}/actions", body, headers=auth
                )
            except (HttpError, OSError, asyncio.IncompleteReadError) as exc:
                stats.error(f"action {type(exc).__name__}")
                return False
            elapsed = time.perf_counter() - started
            if response.status_code != 200:
                stats.error(f"action {response.status_code}")
                return False
            if stats.measuring:
                stats.latencies.append(elapsed)
            answer = response.json()
            if answer["status"] != "active":
                return True
    return False


def _start_servers(args: argparse.Namespace, data_dir: Path) -> list[ServerProcess]:
    env = dict(kv.split("=", 1) for kv in args.env)
    return [
        ServerProcess(
            data_dir,
            database_url=args.database_url,
            redis_url=args.redis_url,
            workers=args.workers,
            extra=("--trusted-proxies", "127.0.0.1", "--log-level", "warning"),
            env=env,
            new_session=True,  # stopped with its bot workers, as a group
        )
        for _ in range(args.processes)
    ]


async def _run(args: argparse.Namespace) -> dict[str, Any]:
    servers: list[ServerProcess] = []
    with tempfile.TemporaryDirectory(prefix="dk-load-") as tmp:
        if args.url:
            bases = [u.rstrip("/") for u in args.url]
        else:
            servers = _start_servers(args, Path(tmp))
            bases = [server.base for server in servers]
        try:
            for server in servers:
                try:
                    await asyncio.to_thread(server.wait_ready, 180.0)
                except RuntimeError as exc:
                    raise SystemExit(str(exc)) from None
            # As in the server: what exists now is kept out of every collection, and young
            # objects (a player's messages) are collected less often.
            gc.collect()
            gc.freeze()
            gc.set_threshold(20_000, *gc.get_threshold()[1:])
            stats = Stats()
            think = args.think
            warm = args.warmup
            deadline = time.monotonic() + warm + args.seconds
            rng = random.Random(args.seed)
            tasks = [
                asyncio.create_task(
                    _player(n, bases, stats, think, deadline, random.Random(rng.random()))
                )
                for n in range(args.players)
            ]
            await asyncio.sleep(warm)
            stats.measuring = True
            begun = time.monotonic()
            cpu_start = [_cpu_seconds(server.proc.pid) for server in servers]
            own_start = time.process_time()
            db_start = await _database_cpu(args.database_url)
            rss_peak = 0
            while time.monotonic() < deadline:
                await asyncio.sleep(min(1.0, max(0.0, deadline - time.monotonic())))
                rss_peak = max(rss_peak, sum(_rss_kib(server.proc.pid) for server in servers))
            measured = time.monotonic() - begun
            stats.measuring = False
            cpu_end = [_cpu_seconds(server.proc.pid) for server in servers]
            own_cpu = time.process_time() - own_start
            db_end = await _database_cpu(args.database_url)
            # Backends that began during the measured time count from zero.
            db_cpu = sum(used - db_start.get(pid, 0.0) for pid, used in db_end.items())
            spans = list(zip(cpu_start, cpu_end, strict=True))
            await asyncio.gather(*tasks, return_exceptions=True)
            with contextlib.suppress(OSError):
                load = os.getloadavg()
        finally:
            for server in servers:
                server.stop()  # SIGTERM: the server shuts its pool down
    lat = sorted(stats.latencies)

    def per_action(seconds: float) -> float:
        return round(seconds * 1000 / len(lat), 2) if lat else float("nan")

    db = "external" if args.url else ("PostgreSQL" if args.database_url else "SQLite")
    return {
        "players": args.players,
        "think": f"{think[0]:g}-{think[1]:g} s" if think[1] > 0 else "0",
        "processes": len(bases) * args.workers,
        "db": db,
        "actions_per_s": round(len(lat) / measured, 1) if measured > 0 else 0.0,
        "p50_ms": round(_percentile(lat, 0.50) * 1000, 1),
        "p95_ms": round(_percentile(lat, 0.95) * 1000, 1),
        "p99_ms": round(_percentile(lat, 0.99) * 1000, 1),
        "errors": stats.errors,
        "error_kinds": stats.error_kinds,
        "rss_mib": round(rss_peak / 1024, 1) if servers else None,
        "matches_finished": stats.matches,
        # CPU milliseconds per measured action: the server's main process(es), its bot
        # workers (and --workers children), and this load generator.
        "cpu_ms_per_action": {
            "server": per_action(sum(e[0] - s[0] for s, e in spans)),
            "workers": per_action(sum(e[1] - s[1] for s, e in spans)),
            "client": per_action(own_cpu),
            # PostgreSQL's backends for this database (when it runs on this machine).
            **({"database": per_action(db_cpu)} if db_end else {}),
        }
        if servers
        else {"client": per_action(own_cpu)},
        "seconds": round(measured, 1),
        "load_average": [round(x, 2) for x in load],
    }


def _think(text: str) -> tuple[float, float]:
    low, _, high = text.partition("-")
    pair = (float(low), float(high or low))
    if pair[0] < 0 or pair[1] < pair[0]:
        raise argparse.ArgumentTypeError("think time is LOW-HIGH seconds, e.g. 2-4")
    return pair


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--think", type=_think, default=(0.0, 0.0), help="seconds, e.g. 2-4")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured time")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    parser.add_argument("--processes", type=int, default=1, help="server processes to start")
    parser.add_argument(
        "--workers", type=int, default=1, help="processes behind each address (serve --workers)"
    )
    parser.add_argument("--database-url", default=None, help="default: SQLite in a temp folder")
    parser.add_argument("--redis-url", default=None)
    parser.add_argument("--url", action="append", help="use running server(s) instead")
    parser.add_argument(
        "--env", action="append", default=[], metavar="NAME=VALUE", help="server environment"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = asyncio.run(_run(args))
    if args.json:
        print(json.dumps(result))
    else:
        print(
            "| players | think | processes | db | actions/s | p50 ms | p95 ms | p99 ms "
            "| errors | RSS MiB | load avg |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        print(
            f"| {result['players']} | {result['think']} | {result['processes']} | {result['db']} "
            f"| {result['actions_per_s']} | {result['p50_ms']} | {result['p95_ms']} "
            f"| {result['p99_ms']} | {result['errors']} | {result['rss_mib']} "
            f"| {' '.join(map(str, result['load_average']))} |"
        )
        print("CPU ms per action:", result["cpu_ms_per_action"])
        if result["error_kinds"]:
            print("errors:", result["error_kinds"])
    return 1 if result["errors"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
