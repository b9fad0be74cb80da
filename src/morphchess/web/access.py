"""The access log: one line a request, never holding a seat token.

Tokens travel in the ``Authorization`` header, which is never logged; anything
in a path or query that could be one (a run of 22 or more URL-safe characters,
a seat token's length) and every query value named like a secret is written as
``[redacted]``.  Lines go to the ``morphchess.access`` logger.
"""

from __future__ import annotations

import logging
import re
import time
from urllib.parse import parse_qsl, urlencode

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .limits import client_address

__all__ = ["AccessLog", "redact", "log_to_stderr"]

_log = logging.getLogger("morphchess.access")
_TOKEN_LIKE = re.compile(r"[A-Za-z0-9_\-]{22,}")
_SECRET_NAMES = re.compile(r"token|seat|auth|key|secret|password", re.I)
REDACTED = "[redacted]"


def log_to_stderr() -> None:
    """Write the access log to stderr, one timestamped line a request (``serve``, ``app_from_env``)."""
    if _log.handlers:
        return
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
    _log.addHandler(handler)
    _log.setLevel(logging.INFO)
    _log.propagate = False


def redact(path: str, query: str) -> str:
    """A request's path and query as logged: token-like runs and secret-named values redacted."""
    out = _TOKEN_LIKE.sub(REDACTED, path)
    if query:
        pairs = [(k, REDACTED if _SECRET_NAMES.search(k) else _TOKEN_LIKE.sub(REDACTED, v))
                 for k, v in parse_qsl(query, keep_blank_values=True)]
        out += "?" + urlencode(pairs, safe="[]")
    return out


class AccessLog:
    """Log method, path, status, answer size and time of every HTTP request."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not _log.isEnabledFor(logging.INFO):
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        seen = {"status": 0, "bytes": 0}

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                seen["status"] = message["status"]
            elif message["type"] == "http.response.body":
                seen["bytes"] += len(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            line = redact(scope.get("path", ""), scope.get("query_string", b"").decode("latin-1"))
            _log.info("%s %s %s %d %dB %.0fms", _client(scope), scope["method"], line, seen["status"],
                      seen["bytes"], (time.perf_counter() - start) * 1000)


def _client(scope: Scope) -> str:
    """The client's address as the rate limits see it (through a trusted proxy: the address it saw)."""
    limits = getattr(getattr(scope.get("app"), "state", None), "limits", None)
    if limits is None:
        return (scope.get("client") or ("-", 0))[0]
    return client_address(Request(scope), limits)
