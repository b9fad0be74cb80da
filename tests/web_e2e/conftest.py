"""The web board's end-to-end tests share one server and one Chromium per test module."""

from web_e2e_support import browser, live_server, page, pages, server  # noqa: F401
