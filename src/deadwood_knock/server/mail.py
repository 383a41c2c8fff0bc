"""Sending mail: printed to the console by default, over SMTP (aiosmtplib) when configured."""

from __future__ import annotations

import sys
from email.message import EmailMessage
from typing import Protocol

from deadwood_knock.server.settings import Settings


class Mailer(Protocol):
    async def send(self, to: str, subject: str, body: str) -> None: ...


class ConsoleMailer:
    """For ``make run`` on a laptop: the message goes to standard output, not to a log."""

    def __init__(self, sender: str) -> None:
        self.sender = sender

    async def send(self, to: str, subject: str, body: str) -> None:
        print(f"--- mail to {to}\nSubject: {subject}\n\n{body}\n---", file=sys.stdout, flush=True)


class SmtpMailer:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    async def send(self, to: str, subject: str, body: str) -> None:
        import aiosmtplib

        s = self.settings
        message = EmailMessage()
        message["From"] = s.mail_from
        message["To"] = to
        message["Subject"] = subject
        message.set_content(body)
        await aiosmtplib.send(
            message,
            hostname=s.smtp_host,
            port=s.smtp_port,
            username=s.smtp_username,
            password=s.smtp_password,
            use_tls=s.smtp_security == "tls",
            start_tls=s.smtp_security == "starttls",
            timeout=15,
        )


def make_mailer(settings: Settings) -> Mailer:
    if settings.smtp_host:
        return SmtpMailer(settings)
    return ConsoleMailer(settings.mail_from)
