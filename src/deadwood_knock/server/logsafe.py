"""Keeping secrets and forged lines out of the logs, at every level.

Two things can put what a player must not lose into a log: libraries that log what
passes through them at DEBUG (socket frames hold the auth token and the player's
cards; SMTP conversations hold one-time codes; SQL rows hold actions), and request
data written into a line (a ``%0a`` in a path would start a fake line). The first is
handled by capping those loggers at WARNING whatever the root level, the second by
escaping control characters in our own lines and, for the server we run, in every
line (:class:`EscapeControls` on the handlers).
"""

from __future__ import annotations

import logging
import re

from deadwood_knock.persistence.db import quiet_driver_logs

#: Loggers that print message contents below WARNING.
SECRET_LOGGERS = (
    # Socket frames, with tokens and cards, at DEBUG.
    "websockets",
    "websockets.protocol",
    "websockets.server",
    "websockets.client",
    "wsproto",
    # uvicorn at TRACE: every ASGI message, headers (the bearer token) included.
    "uvicorn.asgi",
    # The SMTP conversation holds the code.
    "aiosmtplib",
    "mail.log",
    # Request and response headers.
    "httpx",
    "httpcore",
    "hpack",
)

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def escape_controls(text: str) -> str:
    """``text`` with every control character written as an escape (one line, no forgery)."""
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


class NothingBelowInfo(logging.Filter):
    """uvicorn hands its own ``uvicorn.error`` logger to the websockets library, which logs
    every frame through it at DEBUG; this keeps that logger's INFO and above only."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno >= logging.INFO


def cap_secret_loggers() -> None:
    """Cap :data:`SECRET_LOGGERS` (and the SQL drivers' loggers) at WARNING and
    ``uvicorn.error`` at INFO, whatever the root level (idempotent)."""
    quiet_driver_logs()
    for name in SECRET_LOGGERS:
        logger = logging.getLogger(name)
        if logger.level < logging.WARNING:
            logger.setLevel(logging.WARNING)
    uvicorn_error = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, NothingBelowInfo) for f in uvicorn_error.filters):
        uvicorn_error.addFilter(NothingBelowInfo())


class EscapeControls(logging.Filter):
    """A handler filter: the finished message with control characters escaped (a
    traceback, formatted later by the handler, keeps its own line breaks)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = escape_controls(record.getMessage())
        record.msg, record.args = message, None
        return True


def escape_all_handlers(logger: logging.Logger | None = None) -> None:
    """Put :class:`EscapeControls` on every handler of ``logger`` (the root by default)."""
    target = logger or logging.getLogger()
    for handler in target.handlers:
        if not any(isinstance(f, EscapeControls) for f in handler.filters):
            handler.addFilter(EscapeControls())
