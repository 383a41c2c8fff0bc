"""Sending mail: printed to the console by default, over SMTP (aiosmtplib) when configured.

Sending happens in two steps so that a one-time code costs the same time for every
address and an outage is known before anything is stored: :meth:`Mailer.open` reaches
the mail server (connect, TLS, login) while the request is answered, for every address
alike, and raises :class:`MailUnavailable` if it cannot; the message itself goes out on
the open :class:`Delivery` after the answer.
"""

from __future__ import annotations

import sys
from email.message import EmailMessage
from typing import Any, Protocol

from deadwood_knock.server.settings import Settings


class MailUnavailable(Exception):
    """The mail server could not be reached or refused the message."""


class Delivery(Protocol):
    async def send(self, to: str, subject: str, body: str) -> None: ...

    async def close(self) -> None: ...


class Mailer(Protocol):
    async def open(self) -> Delivery: ...


class _ConsoleDelivery:
    def __init__(self, sender: str) -> None:
        self.sender = sender

    async def send(self, to: str, subject: str, body: str) -> None:
        print(f"--- mail to {to}\nSubject: {subject}\n\n{body}\n---", file=sys.stdout, flush=True)

    async def close(self) -> None:
        return None


class ConsoleMailer:
    """For ``make run`` on a laptop: the message goes to standard output, not to a log."""

    def __init__(self, sender: str) -> None:
        self.sender = sender

    async def open(self) -> Delivery:
        return _ConsoleDelivery(self.sender)


class _SmtpDelivery:
    def __init__(self, smtp: Any, sender: str) -> None:
        self.smtp = smtp
        self.sender = sender

    async def send(self, to: str, subject: str, body: str) -> None:
        import aiosmtplib

        message = EmailMessage()
        message["From"] = self.sender
        message["To"] = to
        message["Subject"] = subject
        message.set_content(body)
        try:
            await self.smtp.send_message(message)
        except (aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
            raise MailUnavailable(type(exc).__name__) from None

    async def close(self) -> None:
        import aiosmtplib

        try:
            await self.smtp.quit()
        except (aiosmtplib.SMTPException, OSError, TimeoutError):
            self.smtp.close()


class SmtpMailer:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    async def open(self) -> Delivery:
        import aiosmtplib

        s = self.settings
        smtp = aiosmtplib.SMTP(
            hostname=s.smtp_host,
            port=s.smtp_port,
            username=s.smtp_username,
            password=s.smtp_password,
            use_tls=s.smtp_security == "tls",
            start_tls=s.smtp_security == "starttls",
            timeout=s.smtp_timeout_seconds,
        )
        try:
            await smtp.connect()
            if smtp.last_ehlo_response is None:
                # Greet now (TLS and login already did): every request, whether a message
                # follows or not, costs the same exchange and meets an outage alike.
                await smtp.ehlo()
        except (aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
            smtp.close()
            raise MailUnavailable(type(exc).__name__) from None
        return _SmtpDelivery(smtp, s.mail_from)


def make_mailer(settings: Settings) -> Mailer:
    if settings.smtp_host:
        return SmtpMailer(settings)
    return ConsoleMailer(settings.mail_from)
