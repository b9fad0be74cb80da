"""The API's errors: one JSON shape ``{"error": {"code", "message"}}`` for every 4xx and 5xx answer.

Also the request body cap (413), applied before the body reaches the app, and the
answer cap: an answer over :data:`MAX_ANSWER` bytes is replaced by a 413 error.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import InputError

__all__ = ["ApiError", "NotFound", "Forbidden", "Conflict", "StalePly", "IllegalMove", "BadInput",
           "RateLimited", "Busy", "Unavailable", "until_unavailable", "install", "BodyLimit", "AnswerLimit",
           "MAX_BODY", "MAX_ANSWER"]

MAX_BODY = 256 * 1024
MAX_ANSWER = 4 * 1024 * 1024  # bytes of one answer that declares its length (event streams do not)
_log = logging.getLogger("morphchess.web")
_CODES = {400: "bad_request", 401: "forbidden", 403: "forbidden", 404: "not_found", 405: "method_not_allowed",
          409: "conflict", 413: "too_large", 422: "bad_input", 429: "rate_limited", 503: "unavailable"}


class ApiError(Exception):
    """An answer other than 2xx, with its status, code and message."""

    status = 422
    code = "bad_input"

    def __init__(self, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.headers = headers


class NotFound(ApiError):
    status, code = 404, "not_found"


class Forbidden(ApiError):
    status, code = 403, "forbidden"


class Conflict(ApiError):
    status, code = 409, "conflict"


class StalePly(Conflict):
    code = "stale_ply"


class IllegalMove(ApiError):
    code = "illegal_move"


class BadInput(ApiError):
    code = "bad_input"


class RateLimited(ApiError):
    status, code = 429, "rate_limited"


class Unavailable(ApiError):
    """The database cannot be used now (stopped, its file missing or read-only); try again shortly."""

    status, code = 503, "unavailable"


class Busy(ApiError):
    """The server's bounded work is all taken; try again shortly."""

    status, code = 503, "busy"


async def until_unavailable(events: AsyncIterator[str]) -> AsyncIterator[str]:
    """An event stream that ends when its database goes away (:class:`Unavailable`) instead of breaking
    with an error: the page reconnects, and polls while the server answers 503."""
    try:
        async for chunk in events:
            yield chunk
    except Unavailable:
        return


def body(code: str, message: str, **extra) -> dict:
    return {"error": {"code": code, "message": message, **extra}}


def install(app: FastAPI) -> None:
    """Answer every error in the one documented shape."""

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError):
        return JSONResponse(body(exc.code, str(exc)), exc.status, headers=exc.headers)

    @app.exception_handler(InputError)
    async def input_error(request: Request, exc: InputError):
        return JSONResponse(body("bad_input", str(exc)[:300]), 422)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException):
        message = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
        return JSONResponse(body(_CODES.get(exc.status_code, "error"), message), exc.status_code,
                            headers=getattr(exc, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError):
        fields = [{"loc": list(e["loc"]), "msg": e["msg"]} for e in exc.errors()]
        message = "; ".join(f"{'.'.join(map(str, f['loc']))}: {f['msg']}" for f in fields)
        return JSONResponse(body("validation", message[:500], fields=fields), 422)

    @app.exception_handler(OverflowError)
    @app.exception_handler(RecursionError)
    async def too_big(request: Request, exc: Exception):  # numbers or nesting past what is bounded
        _log.warning("refused as too big on %s %s: %r", request.method, request.url.path, exc)
        return JSONResponse(body("bad_input", "a number or a nesting in the request is too big"), 422)

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception):
        _log.exception("internal error on %s %s", request.method, request.url.path)
        return JSONResponse(body("internal", "internal server error"), 500)


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413, whether or not they declare their length, and
    any request with a NUL character (in its path, query or body) with 422: PostgreSQL cannot store or
    even compare text holding one, so it is refused the same way on either database."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if "\x00" in scope.get("path", "") or b"%00" in scope.get("query_string", b""):
            await _refuse_nul(send)
            return
        if scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and (len(declared) > 12 or int(declared) > self.limit):
            await self._refuse(send)
            return
        chunks, size, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.limit:
                await self._refuse(send)
                return
            more = message.get("more_body", False)
        data = b"".join(chunks)
        if b"\x00" in data or b"\\u0000" in data:
            await _refuse_nul(send)
            return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": data, "more_body": False}

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send) -> None:
        response = JSONResponse(body("too_large", f"the request body is over {self.limit // 1024} KiB"), 413)
        await response({"type": "http"}, _no_receive, send)


async def _refuse_nul(send: Send) -> None:
    response = JSONResponse(body("bad_input", "the request holds a NUL character (\\u0000), which no text may hold"),
                            422)
    await response({"type": "http"}, _no_receive, send)


class AnswerLimit:
    """Replace an answer whose declared length is over ``limit`` bytes by a 413 error."""

    def __init__(self, app: ASGIApp, limit: int = MAX_ANSWER) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refused = False

        async def sending(message: Message) -> None:
            nonlocal refused
            if message["type"] == "http.response.start":
                length = dict(message.get("headers", [])).get(b"content-length", b"0")
                if length.isdigit() and int(length) > self.limit:
                    refused = True
                    _log.warning("answer of %s bytes refused on %s", length.decode(), scope.get("path"))
                    response = JSONResponse(body("too_large", f"the answer is over {self.limit // 1024} KiB"), 413)
                    await response(scope, _no_receive, send)
                    return
            if not refused:
                await send(message)

        await self.app(scope, receive, sending)


async def _no_receive() -> Message:
    return {"type": "http.disconnect"}
