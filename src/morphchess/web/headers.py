"""Security headers on every answer: a Content-Security-Policy without inline script, no MIME
sniffing, no framing by other sites, no referrer to other sites.

The page builds itself from data with ``textContent`` and ``createElement`` (docs/security.md);
the policy is what keeps a slip inert: no inline script or event-handler attribute runs, no
``<style>`` block or ``style=`` attribute applies, nothing loads from another origin.
"""

from __future__ import annotations

import re

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["SecurityHeaders", "PAGE_POLICY", "REPORT_POLICY"]

PAGE_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
               "connect-src 'self'; frame-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
               "frame-ancestors 'none'")
# The lab's report is one self-contained page shown in the Lab panel's frame: it has no script at all,
# its styles are one <style> block and its pictures data URIs.
REPORT_POLICY = ("default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; "
                 "form-action 'none'; frame-ancestors 'self'")
_REPORT = re.compile(r"^/api/lab/[^/]+/report$")


def _headers(path: str) -> list[tuple[bytes, bytes]]:
    report = bool(_REPORT.match(path))
    return [
        (b"content-security-policy", (REPORT_POLICY if report else PAGE_POLICY).encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"x-frame-options", b"SAMEORIGIN" if report else b"DENY"),
        (b"referrer-policy", b"same-origin"),
    ]


class SecurityHeaders:
    """ASGI middleware adding the headers above to every HTTP answer (event streams included)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = _headers(scope["path"])

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name for name, _value in extra}
                kept = [(n, v) for n, v in message.get("headers", []) if n.lower() not in names]
                message = {**message, "headers": kept + extra}
            await send(message)

        await self.app(scope, receive, send_with_headers)
