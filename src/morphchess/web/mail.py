"""Outgoing e-mail: the server's SMTP settings and one sending thread behind a bounded queue.

A message is handed to :meth:`Mailer.send`, which never waits: a full queue drops
it with a log line.  One thread takes messages from the queue and hands each to the
SMTP server with the standard library's :mod:`smtplib` (a connection per message,
STARTTLS when asked); a server that cannot be reached costs that message and a log
line, nothing more.  Without settings (no ``--smtp-host``) nothing is sent.
Addresses are checked by :func:`check_address`; the :mod:`email` package refuses
CR or LF in any header as a second guard.
"""

from __future__ import annotations

import logging
import os
import queue
import re
import smtplib
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from email.message import EmailMessage
from urllib.parse import urlsplit

from .errors import BadInput

__all__ = ["Smtp", "Mailer", "check_address", "smtp_settings", "smtp_from_env", "ADDRESS_LENGTH", "QUEUED", "SEND_S",
           "PASSWORD_ENV"]

ADDRESS_LENGTH = 254  # RFC 5321's longest forward path, less its angle brackets
QUEUED = 100  # messages waiting to be sent; more are dropped
SEND_S = 20.0  # seconds a connection to the SMTP server may take per step
PASSWORD_ENV = "MORPHCHESS_SMTP_PASSWORD"  # the variable the SMTP password is read from by default
_LOCAL = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*")
_LABEL = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?")
log = logging.getLogger("morphchess.mail")


def check_address(text: str) -> str:
    """An e-mail address as it will be used (BadInput naming what is wrong): ASCII ``local@domain`` with
    a dot-atom local part (RFC 5322, no quoted strings) and a domain of two or more DNS labels; no
    spaces, CR or LF anywhere."""
    address = text.strip()
    if not address:
        raise BadInput("address: empty")
    if len(address) > ADDRESS_LENGTH:
        raise BadInput(f"address: {len(address)} characters; at most {ADDRESS_LENGTH}")
    if not address.isascii() or any(c.isspace() or not c.isprintable() for c in address):
        raise BadInput("address: only ASCII letters, digits and punctuation; no spaces or line breaks")
    local, at, domain = address.rpartition("@")
    if not at or not local:
        raise BadInput("address: write it as name@example.org")
    if len(local) > 64 or not _LOCAL.fullmatch(local):
        raise BadInput(f"address: {local[:64]!r} before the @ is not a plain mailbox name")
    labels = domain.split(".")
    if len(labels) < 2 or not all(_LABEL.fullmatch(label) for label in labels) or labels[-1].isdigit():
        raise BadInput(f"address: {domain[:64]!r} after the @ is not a domain such as example.org")
    return address


@dataclass(frozen=True)
class Smtp:
    """Where and how the server sends mail (``serve --smtp-host`` and the like)."""

    host: str
    sender: str  # the From address
    site: str  # the site's address, as the links in mails start: https://example.org
    port: int = 587
    user: str | None = None
    password: str | None = None
    starttls: bool = True


def smtp_settings(host: str, sender: str | None, site: str, port: int = 587, user: str | None = None,
                  password_env: str = PASSWORD_ENV, starttls: bool = True) -> Smtp:
    """Checked settings (BadInput naming the option that is wrong): the From address and the site's
    address are needed, the password is read from the environment variable ``password_env`` (never
    from a command line, which other users of the machine can read) when a user is given."""
    if not sender:
        raise BadInput("--smtp-from: the address mails are sent from is needed with --smtp-host")
    try:
        check_address(sender)
    except BadInput as e:
        raise BadInput(f"--smtp-from {e}") from None
    url = urlsplit(site)
    if url.scheme not in ("http", "https") or not url.hostname or not site.isprintable() or " " in site:
        raise BadInput(f"--site-url {site[:60]!r}: write the address the site is reached at, "
                       "such as https://chess.example.org")
    for name, value in (("--smtp-host", host), ("--smtp-user", user or "")):
        if not value.isprintable() or " " in value:
            raise BadInput(f"{name}: no spaces or control characters")
    password = os.environ.get(password_env) if user else None
    if user and password is None:
        raise BadInput(f"--smtp-user {user[:40]!r}: set the password in the environment variable {password_env}")
    return Smtp(host=host, sender=sender, site=site, port=port, user=user, password=password, starttls=starttls)


def smtp_from_env(env: Mapping[str, str] | None = None) -> Smtp | None:
    """The settings of ``MORPHCHESS_SMTP_HOST``, ``_PORT``, ``_FROM``, ``_USER``, ``_STARTTLS`` (on or off)
    and ``MORPHCHESS_SITE_URL`` (the password: ``MORPHCHESS_SMTP_PASSWORD``), checked as the options are;
    None without a host (no mail)."""
    source = os.environ if env is None else env
    host = source.get("MORPHCHESS_SMTP_HOST")
    if not host:
        return None
    port = source.get("MORPHCHESS_SMTP_PORT", "587")
    if not (port.isascii() and port.isdigit() and 1 <= int(port) <= 65535):
        raise BadInput(f"MORPHCHESS_SMTP_PORT {port[:20]!r}: use a number from 1 to 65535")
    return smtp_settings(host, source.get("MORPHCHESS_SMTP_FROM"), source.get("MORPHCHESS_SITE_URL", ""), int(port),
                         source.get("MORPHCHESS_SMTP_USER"), starttls=source.get("MORPHCHESS_SMTP_STARTTLS") != "off")


class Mailer:
    """Sends plain-text mails through :class:`Smtp` settings on its own thread; without settings, none."""

    def __init__(self, smtp: Smtp | None, queued: int = QUEUED) -> None:
        self.smtp = smtp
        self._queue: queue.Queue[EmailMessage | None] = queue.Queue(maxsize=queued)
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    @property
    def sending(self) -> bool:
        return self.smtp is not None

    def send(self, to: str, subject: str, text: str) -> bool:
        """Queue a plain-text mail to ``to`` without waiting; False if it is not going out (no SMTP
        settings, or the queue is full: then a log line says so)."""
        if self.smtp is None:
            return False
        message = EmailMessage()  # its header policy refuses CR and LF in a header's value
        message["From"], message["To"], message["Subject"] = self.smtp.sender, to, subject
        message.set_content(text)
        try:
            self._queue.put_nowait(message)
        except queue.Full:
            log.warning("mail to %s dropped: %d mails already wait to be sent", to, self._queue.maxsize)
            return False
        self._start()
        return True

    def close(self, seconds: float = 2.0) -> None:
        """Let the thread send what waits, for up to ``seconds``, then leave it (it ends with the process)."""
        if self._thread is None:
            return
        try:
            self._queue.put_nowait(None)
        except queue.Full:
            return
        self._thread.join(seconds)

    def _start(self) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="morphchess-mail", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        while (message := self._queue.get()) is not None:
            self._deliver(message)

    def _deliver(self, message: EmailMessage) -> None:
        smtp = self.smtp
        assert smtp is not None
        try:
            with smtplib.SMTP(smtp.host, smtp.port, timeout=SEND_S) as server:
                if smtp.starttls:
                    server.starttls()
                if smtp.user:
                    server.login(smtp.user, smtp.password or "")
                server.send_message(message)
        except (OSError, smtplib.SMTPException) as e:
            log.warning("mail to %s not sent: %s", message["To"], str(e)[:200] or type(e).__name__)
