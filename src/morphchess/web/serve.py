"""The ``serve`` subcommand: the web board on a local port, its games in a database."""

from __future__ import annotations

import argparse
import socket
import sys

from ..errors import OptionError

__all__ = ["add"]


def _port(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"port {text[:20]!r}: use a number from 1 to 65535")
    return int(text)


def add(sub) -> None:
    p = sub.add_parser("serve", help="play in the browser: the web board, online games and their JSON API")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=_port, default=8000, help="port (default 8000)")
    p.add_argument("--db", metavar="URL", help="database: sqlite:///FILE or postgresql://USER:PASS@HOST/NAME "
                   "(default: an SQLite file in the user's data directory)")
    p.add_argument("--games-per-minute", type=int, default=60, metavar="N",
                   help="new games one client address may start a minute (default 60)")
    p.add_argument("--open", action="store_true", help="open the board in the web browser")
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


def run(args) -> None:
    try:
        import uvicorn

        from .app import create_app
    except ImportError as e:
        raise OptionError(f"the web board needs the web extra: pip install 'morphchess[web]' ({e})") from None
    sock = _listen(args.host, args.port)
    try:
        app = create_app(args.db, args.games_per_minute)
    except Exception as e:  # noqa: BLE001 - a database that cannot be opened is bad input: one line
        sock.close()
        raise OptionError(f"database {args.db or 'default'}: {str(e).splitlines()[0][:200]}") from None
    url = f"http://{args.host}:{args.port}/"
    if args.open:
        import threading
        import webbrowser
        threading.Timer(1.0, webbrowser.open, (url,)).start()
    print(f"morphchess web board on {url} (Ctrl-C stops it)", file=sys.stderr)
    uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[sock])
