"""Real server processes started from Python: ``deadwood-knock serve`` in a subprocess.

The tests that need several processes (two servers on one database, ``--workers``) and
the load test (``bench/loadtest.py``) start servers this one way, so a change to how a
server is started (a flag, its environment, when it counts as ready) is made once.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from pathlib import Path

__all__ = ["ServerProcess", "free_port"]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ServerProcess:
    """One ``deadwood-knock serve`` process on its own port of 127.0.0.1.

    ``log``: where its standard error goes (``None``: inherited). ``new_session``: in its
    own process group, so :meth:`stop` can kill it with its bot workers (the load test).
    """

    def __init__(
        self,
        data_dir: Path,
        *,
        database_url: str | None = None,
        redis_url: str | None = None,
        workers: int = 1,
        extra: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
        log: Path | None = None,
        new_session: bool = False,
    ) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = log
        command = [
            sys.executable,
            "-m",
            "deadwood_knock.cli",
            "serve",
            "--port",
            str(self.port),
            "--data-dir",
            str(data_dir),
            *extra,
        ]
        if database_url:
            command += ["--database-url", database_url]
        if redis_url:
            command += ["--redis-url", redis_url]
        if workers > 1:
            command += ["--workers", str(workers)]
        stderr = log.open("ab") if log is not None else None
        try:
            self.proc = subprocess.Popen(
                command,
                env={**os.environ, **(env or {})},
                stdout=subprocess.DEVNULL,
                stderr=stderr,
                start_new_session=new_session,
            )
        finally:
            if stderr is not None:
                stderr.close()  # the child holds its own copy

    def log_text(self) -> str:
        return self.log.read_text() if self.log is not None and self.log.exists() else ""

    def ready(self) -> bool:
        """Whether it answers ``/api/health``; raises if the process has exited."""
        if self.proc.poll() is not None:
            raise RuntimeError(
                f"the server on port {self.port} exited with {self.proc.returncode}: "
                + self.log_text()[-2000:]
            )
        try:
            with urllib.request.urlopen(self.base + "/api/health", timeout=1) as answer:
                return int(answer.status) == 200
        except (urllib.error.URLError, OSError):
            return False

    def wait_ready(self, timeout: float = 120.0) -> None:
        """Block until it answers ``/api/health``; raises if it exits or takes too long."""
        deadline = time.monotonic() + timeout
        while not self.ready():
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server on port {self.port} did not start in {timeout} s")
            time.sleep(0.2)

    def stop(self, timeout: float = 20.0) -> None:
        """SIGTERM (the server shuts its bot pool down), then a kill if it lingers."""
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                if self.proc.pid == os.getpgid(self.proc.pid):
                    os.killpg(self.proc.pid, signal.SIGKILL)
                else:
                    self.proc.kill()
            self.proc.wait()
