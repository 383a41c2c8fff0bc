"""Bot moves and hints, computed in worker processes and scheduled fairly across players.

Two layers:

* :class:`FairScheduler` queues jobs per owner (the person a bot move or hint is for) and
  starts them round-robin across owners, so one player's backlog (a hundred matches of
  strong bots) never delays another player's next move. One owner may hold at most all
  slots but one, so a free slot is always left for someone else.
* A backend runs a started job. :class:`PipeWorkers` (the server's own) talks to each
  worker process over a pipe that the event loop watches directly: no helper threads to
  wake, and no queue of three between the loop and the workers, as in
  ``ProcessPoolExecutor``, whose hand-off serialised the bots under load.
  :class:`ExecutorBackend` runs jobs in a given ``concurrent.futures`` executor (tests share
  one pool across apps).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
import multiprocessing
import os
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any, Protocol

log = logging.getLogger("deadwood_knock.server.workers")


class WorkerError(Exception):
    """A job failed in its worker (the message is the exception's type only)."""


class Backend(Protocol):
    slots: int

    async def run(self, function: str, args: tuple[Any, ...]) -> Any: ...

    async def close(self) -> None: ...


# ----- the worker process side ------------------------------------------------------------------


def _worker_main(conn: Connection, games: tuple[Any, ...] = ()) -> None:
    """Answer (job id, function name, args) with (job id, ok, result or error type).
    ``games``: the server's run-time registered games, registered here too."""
    from deadwood_knock.server import botpool

    botpool.register_games(games)

    while True:
        try:
            job_id, function, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            result: Any = getattr(botpool, function)(*args)
            reply = (job_id, True, result)
        except Exception as exc:
            # The message could name cards; the type is enough to investigate.
            reply = (job_id, False, type(exc).__name__)
        try:
            conn.send(reply)
        except (BrokenPipeError, OSError):
            return


# ----- backends ---------------------------------------------------------------------------------


#: Matches whose position each worker is believed to hold (its cache keeps more).
_KNOWN_PER_WORKER = 1024


@dataclass(eq=False)
class _Worker:
    process: Any
    conn: Connection
    pending: dict[int, asyncio.Future[Any]] = field(default_factory=dict)
    #: match id -> actions the worker has replayed for it (after its last decision there).
    known: OrderedDict[str, int] = field(default_factory=OrderedDict)


class PipeWorkers:
    """Worker processes, one job at a time each, fed and read by the event loop itself."""

    def __init__(self, workers: int) -> None:
        self.slots = workers
        self._context = multiprocessing.get_context("spawn")
        self._workers: list[_Worker] = []
        self._ids = itertools.count()
        self._closing = False

    def start(self) -> None:
        for _ in range(self.slots):
            self._workers.append(self._spawn())

    async def ready(self, timeout: float = 120.0) -> None:
        """Wait until every worker has imported the engine and bots (the first move is quick)."""
        calls = []
        for worker in self._workers:
            job_id = next(self._ids)
            future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
            worker.pending[job_id] = future
            worker.conn.send((job_id, "warm_up", ()))
            calls.append(future)
        await asyncio.wait_for(asyncio.gather(*calls), timeout)

    def _spawn(self) -> _Worker:
        parent, child = self._context.Pipe(duplex=True)
        from deadwood_knock.games import registered_games

        process = self._context.Process(
            target=_worker_main, args=(child, registered_games()), daemon=True
        )
        process.start()
        child.close()
        worker = _Worker(process, parent)
        asyncio.get_running_loop().add_reader(parent.fileno(), self._readable, worker)
        return worker

    def _readable(self, worker: _Worker) -> None:
        try:
            while worker.conn.poll():
                job_id, ok, result = worker.conn.recv()
                future = worker.pending.pop(job_id, None)
                if future is None or future.done():
                    continue
                if ok:
                    future.set_result(result)
                else:
                    future.set_exception(WorkerError(result))
        except (EOFError, OSError):
            self._lost(worker)

    @staticmethod
    def _detach(worker: _Worker) -> None:
        """Stop listening to a worker's pipe and close it (it may be closed already)."""
        loop = asyncio.get_running_loop()
        with contextlib.suppress(ValueError, OSError):
            loop.remove_reader(worker.conn.fileno())
        with contextlib.suppress(OSError):
            worker.conn.close()

    def _lost(self, worker: _Worker) -> None:
        """A worker died (killed, out of memory): fail its job and start another."""
        self._detach(worker)
        for future in worker.pending.values():
            if not future.done():
                future.set_exception(WorkerError("WorkerDied"))
        worker.pending.clear()
        if worker in self._workers:
            index = self._workers.index(worker)
            if self._closing:
                self._workers.pop(index)
            else:
                log.error("a bot worker died; starting another")
                self._workers[index] = self._spawn()

    async def run(self, function: str, args: tuple[Any, ...]) -> Any:
        if function == "decide":
            return await self._decide(args)
        # The scheduler starts at most `slots` jobs at once: one worker is free.
        worker = min(self._workers, key=lambda w: len(w.pending))
        return await self._call(worker, function, args)

    async def _decide(self, args: tuple[Any, ...]) -> Any:
        """A bot move, preferably on the worker that made the match's last one: it holds the
        position, so only the actions since then are sent, not the whole record (whose
        pickling and pipe writes stalled the event loop under load)."""
        match_id, record = args[0], args[1]
        actions = record["actions"]
        worker = min(self._workers, key=lambda w: len(w.pending))
        base = None
        for candidate in self._workers:
            known = candidate.known.get(match_id)
            if known is not None and known <= len(actions) and not candidate.pending:
                worker, base = candidate, known
                break
        result: Any = None
        if base is not None:
            start = (record["game"], record["options"], record["seed"])
            try:
                result = await self._call(
                    worker, "decide_tail", (match_id, start, base, actions[base:], *args[2:])
                )
            except WorkerError as exc:
                if str(exc) != "CacheMiss":
                    raise
                base = None
        if base is None:
            result = await self._call(worker, "decide", args)
        for other in self._workers:
            other.known.pop(match_id, None)
        worker.known[match_id] = len(actions)
        if len(worker.known) > _KNOWN_PER_WORKER:
            worker.known.popitem(last=False)
        return result

    async def _call(self, worker: _Worker, function: str, args: tuple[Any, ...]) -> Any:
        job_id = next(self._ids)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        worker.pending[job_id] = future
        try:
            worker.conn.send((job_id, function, args))
        except (BrokenPipeError, OSError):
            self._lost(worker)
        return await future

    async def close(self) -> None:
        self._closing = True
        for worker in list(self._workers):
            self._detach(worker)
            for future in worker.pending.values():
                if not future.done():
                    future.cancel()
        for worker in self._workers:
            worker.process.join(timeout=2)
            if worker.process.is_alive():
                worker.process.kill()
        self._workers.clear()

    def pids(self) -> list[int]:
        return [w.process.pid for w in self._workers if w.process.pid]


class ExecutorBackend:
    """Jobs in a ``concurrent.futures`` executor (the tests share one process pool)."""

    def __init__(self, executor: Executor, slots: int | None = None) -> None:
        self.executor = executor
        self.slots = slots or getattr(executor, "_max_workers", None) or os.cpu_count() or 2

    async def run(self, function: str, args: tuple[Any, ...]) -> Any:
        from deadwood_knock.server import botpool

        call: Callable[..., Any] = getattr(botpool, function)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.executor, call, *args)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            raise WorkerError(type(exc).__name__) from None

    async def close(self) -> None:
        return None


# ----- fair scheduling --------------------------------------------------------------------------


@dataclass(eq=False)
class _Job:
    function: str
    args: tuple[Any, ...]
    future: asyncio.Future[Any]


class FairScheduler:
    """Round-robin across owners over a backend's slots."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self._queues: dict[str, deque[_Job]] = {}
        self._turns: deque[str] = deque()  # owners with queued jobs, next first
        self._running: dict[str, int] = {}
        self._busy = 0
        #: One owner may use every slot but one (all of them when there is only one).
        self.per_owner = max(1, backend.slots - 1)

    def queued(self, owner: str) -> int:
        return len(self._queues.get(owner, ()))

    async def run(self, owner: str, function: str, *args: Any) -> Any:
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        queue = self._queues.get(owner)
        if queue is None:
            queue = self._queues[owner] = deque()
            self._turns.append(owner)
        queue.append(_Job(function, args, future))
        self._dispatch()
        # Cancelled while queued: _dispatch skips it; once started, its answer is dropped.
        return await future

    def _dispatch(self) -> None:
        skipped = 0
        while self._busy < self.backend.slots and self._turns and skipped < len(self._turns):
            owner = self._turns[0]
            queue = self._queues[owner]
            while queue and queue[0].future.done():
                queue.popleft()  # cancelled while waiting
            if not queue:
                self._turns.popleft()
                del self._queues[owner]
                continue
            if self._running.get(owner, 0) >= self.per_owner:
                self._turns.rotate(-1)
                skipped += 1
                continue
            skipped = 0
            job = queue.popleft()
            self._turns.rotate(-1)
            if not queue:
                self._turns.remove(owner)
                del self._queues[owner]
            self._busy += 1
            self._running[owner] = self._running.get(owner, 0) + 1
            task = asyncio.ensure_future(self.backend.run(job.function, job.args))
            task.add_done_callback(functools.partial(self._finished, owner=owner, job=job))

    def _finished(self, task: asyncio.Future[Any], owner: str, job: _Job) -> None:
        self._busy -= 1
        left = self._running[owner] - 1
        if left:
            self._running[owner] = left
        else:
            del self._running[owner]
        if not job.future.done():
            if task.cancelled():
                job.future.cancel()
            elif task.exception() is not None:
                job.future.set_exception(task.exception())  # type: ignore[arg-type]
            else:
                job.future.set_result(task.result())
        elif not task.cancelled():
            task.exception()  # retrieved: no "never retrieved" warning
        self._dispatch()

    async def close(self) -> None:
        for queue in self._queues.values():
            for job in queue:
                job.future.cancel()
        self._queues.clear()
        self._turns.clear()
        await self.backend.close()
