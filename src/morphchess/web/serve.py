"""The ``serve`` subcommand: the web board on a local port, its games in a database.

Every limit of :class:`~morphchess.web.limits.Limits` is an option (``--games-per-minute``
and the like), checked before anything starts.  SIGTERM or SIGINT ends the event
streams at once (the app's own handler, :func:`~morphchess.web.events.ended_on_signals`),
stops the server within :data:`~.shutdown.SHUTDOWN_S` seconds and ends the process soon after,
whatever still runs (:mod:`~.shutdown`).
"""

from __future__ import annotations

import argparse
import dataclasses
import ipaddress
import math
import socket
import sys
import threading
import webbrowser
from typing import Any

from ..errors import OptionError
from .limits import Limits
from .shutdown import SHUTDOWN_S

__all__ = ["add"]

CEILING = {int: 1_000_000, float: 3600.0}  # the largest limit an option takes: a count, seconds


def _port(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"port {text[:20]!r}: use a number from 1 to 65535")
    return int(text)


def _limit_type(name: str, kind: type, minimum: float):
    ceiling = CEILING[kind]

    def read(text: str):
        """A number in ASCII digits (not ٥ or ５: Python's int and float would read them)."""
        try:
            if not text.isascii():  # int() and float() would also read '١' or '５'
                raise ValueError(text)
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} {text[:20]!r}: not a number in digits 0-9") from None
        if not minimum <= value <= ceiling:
            why = f"at least {minimum:g}" if value < minimum else \
                f"at most {ceiling:.10g}" if value < math.inf else "a finite number"
            raise argparse.ArgumentTypeError(f"{name} {text[:20]!r}: {why}")
        return value
    return read


def _proxy(text: str) -> str:
    try:
        ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        raise argparse.ArgumentTypeError(f"trusted-proxy {text[:40]!r}: not an address or network "
                                         "(10.0.0.1, 10.0.0.0/8)") from None
    return text.strip()


def _limits_from_dataclass() -> list[dataclasses.Field]:
    return list(dataclasses.fields(Limits))


def add(sub) -> None:
    p = sub.add_parser("serve", help="play in the browser: the web board, online games and their JSON API")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=_port, default=8000, help="port (default 8000)")
    p.add_argument("--db", metavar="URL", help="database: sqlite:///FILE or postgresql://USER:PASS@HOST/NAME "
                   "(default: an SQLite file in the user's data directory)")
    p.add_argument("--open", action="store_true", help="open the board in the web browser")
    p.add_argument("--no-access-log", dest="access_log", action="store_false",
                   help="do not log each request to stderr (the log never holds a seat token)")
    mail = p.add_argument_group("mail (correspondence notices; see docs/web.md)")
    mail.add_argument("--smtp-host", metavar="HOST", help="SMTP server that sends the mails (default: none, "
                      "no mail is sent)")
    mail.add_argument("--smtp-port", type=_port, default=587, metavar="N", help="its port (default 587)")
    mail.add_argument("--smtp-from", metavar="ADDRESS", help="the address mails are sent from (needed with "
                      "--smtp-host)")
    mail.add_argument("--smtp-user", metavar="NAME", help="log in to the SMTP server as NAME, with the password "
                      "in the environment variable named by --smtp-password-env")
    mail.add_argument("--smtp-password-env", metavar="VARIABLE", default="MORPHCHESS_SMTP_PASSWORD",
                      help="environment variable holding the SMTP password (default MORPHCHESS_SMTP_PASSWORD)")
    mail.add_argument("--smtp-starttls", choices=("on", "off"), default="on",
                      help="switch the connection to TLS with STARTTLS before logging in (default on)")
    mail.add_argument("--site-url", metavar="URL", help="the site's address as links in mails start "
                      "(default http://HOST:PORT)")
    limits = p.add_argument_group("limits (see docs/security.md)")
    for f in _limits_from_dataclass():
        option = "--" + f.name.replace("_", "-")
        if f.name == "trusted_proxies":
            limits.add_argument("--trusted-proxy", dest=f.name, action="append", type=_proxy, default=[],
                                metavar="ADDRESS", help=f.metadata["help"] + " (repeatable; default none)")
            continue
        kind = type(f.default)
        limits.add_argument(option, dest=f.name, type=_limit_type(option[2:], kind, f.metadata["min"]),
                            default=f.default, metavar="N", help=f"{f.metadata['help']} (default {f.default:g})")
    p.set_defaults(func=run)


def _listen(host: str, port: int) -> socket.socket:
    """The server's socket, bound before anything is announced (OptionError if the port is taken)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        sock = socket.socket(infos[0][0], socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(infos[0][4])
    except OSError as e:
        raise OptionError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    return sock


def _smtp(args):
    """The checked SMTP settings of the options (None without --smtp-host); OptionError naming the option."""
    from .errors import BadInput
    from .mail import smtp_settings
    if not args.smtp_host:
        return None
    try:
        return smtp_settings(args.smtp_host, args.smtp_from, args.site_url or f"http://{args.host}:{args.port}",
                             args.smtp_port, args.smtp_user, args.smtp_password_env, args.smtp_starttls == "on")
    except BadInput as e:
        raise OptionError(str(e)) from None


def run(args) -> None:
    try:
        import uvicorn

        from .access import log_to_stderr
        from .app import create_app
    except ImportError as e:
        raise OptionError(f"the web board needs the web extra: pip install 'morphchess[web]' ({e})") from None
    chosen: dict[str, Any] = {f.name: getattr(args, f.name) for f in _limits_from_dataclass()}
    limits = Limits(**{**chosen, "trusted_proxies": tuple(chosen["trusted_proxies"])})
    smtp = _smtp(args)
    sock = _listen(args.host, args.port)
    try:
        app = create_app(args.db, limits, smtp)
    except Exception as e:  # noqa: BLE001 - a database that cannot be opened is bad input: one line
        sock.close()
        raise OptionError(f"database {args.db or 'default'}: {str(e).splitlines()[0][:200]}") from None
    url = f"http://{args.host}:{args.port}/"
    if args.open:
        threading.Timer(1.0, webbrowser.open, (url,)).start()
    if args.access_log:
        log_to_stderr()
    print(f"morphchess web board on {url} (Ctrl-C stops it)", file=sys.stderr)
    # the client address is read by the app, from X-Forwarded-For only for a --trusted-proxy
    config = uvicorn.Config(app, log_level="warning", access_log=False, proxy_headers=False,
                            timeout_graceful_shutdown=SHUTDOWN_S)
    uvicorn.Server(config).run(sockets=[sock])
