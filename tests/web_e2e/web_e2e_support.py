"""Shared pieces of the web board's end-to-end tests: one server and one Chromium per test module.

The server runs in a thread on a free local port with a database in a temporary directory;
Playwright drives Debian's Chromium (``/usr/bin/chromium``) and never downloads a browser.
"""

from __future__ import annotations

import json
import re
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
playwright_api = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")
axe_playwright = pytest.importorskip("axe_playwright_python.sync_playwright")

from morphchess.web import create_app  # noqa: E402

from programs import debian_program, free_port  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
SHOTS = Path(__file__).resolve().parents[2] / "build" / "web-screenshots"
TIMEOUT = 20_000  # ms for any one thing to appear
STORAGE = "morphchess.game"

debian_program(CHROMIUM, "chromium")


def make_app(tmp: Path):
    """The app on a database file in ``tmp``, with no limit on new games that a test could reach."""
    return create_app(f"sqlite:///{tmp / 'games.db'}", 100_000)


class Server:
    """A uvicorn server in a thread; ``stop`` and ``start`` again simulate a restart."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.srv: uvicorn.Server | None = None
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        self.srv = uvicorn.Server(uvicorn.Config(make_app(self.tmp), host="127.0.0.1", port=self.port,
                                                 log_level="warning", timeout_graceful_shutdown=1))
        self.thread = threading.Thread(target=self.srv.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.srv.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the web server did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        assert self.srv is not None and self.thread is not None
        self.srv.should_exit = True
        self.srv.force_exit = True
        self.thread.join(10)


@pytest.fixture(scope="module")
def live_server(tmp_path_factory):
    server = Server(tmp_path_factory.mktemp("web"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def server(live_server):
    return live_server.url


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


class Pages:
    """Opens pages in fresh browser contexts (one context = one person) and checks for script errors."""

    def __init__(self, browser, server: str) -> None:
        self.browser = browser
        self.server = server
        self.contexts: list = []
        self.errors: list[str] = []

    def open(self, path: str = "/", wait_ready: bool = True, storage: dict | None = None, **context_options):
        """A page at ``path`` in a new context whose local storage starts with ``storage``."""
        options = {"viewport": {"width": 1280, "height": 900}, **context_options}
        context = self.browser.new_context(base_url=self.server, **options)
        context.set_default_timeout(TIMEOUT)
        if storage:
            context.add_init_script(f"for (const [k, v] of Object.entries({json.dumps(storage)})) "
                                    "if (localStorage.getItem(k) === null) localStorage.setItem(k, v);")
        self.contexts.append(context)
        pg = context.new_page()
        pg.on("pageerror", lambda e: self.errors.append(str(e)))
        pg.goto(path)
        if wait_ready:
            pg.wait_for_selector("body[data-ready='1']")
        return pg

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def pages(browser, server):
    opened = Pages(browser, server)
    yield opened
    opened.close()
    assert not opened.errors, f"JavaScript errors: {opened.errors}"


@pytest.fixture
def page(pages):
    return pages.open()


def sq(page, name: str):
    return page.locator(f"#board .sq[data-square='{name}']")


def piece_on(page, name: str) -> str | None:
    img = sq(page, name).locator(".piece-img")
    return img.get_attribute("data-piece") if img.count() else None


def game_id(page) -> str | None:
    return page.evaluate(f"(JSON.parse(localStorage.getItem('{STORAGE}') || 'null') || {{}}).id || null")


def wait_new_game(page, old: str | None) -> None:
    page.wait_for_function(f"old => (JSON.parse(localStorage.getItem('{STORAGE}')) || {{}}).id !== old", arg=old)


def new_online_game(page, button: str = "#invite") -> str:
    """Press *Invite a friend* (or *Post in the lobby*: ``#seek``) and wait for the new game: its id."""
    old = game_id(page)
    page.click(button)
    wait_new_game(page, old)
    return game_id(page)


def show_tab(page, name: str) -> None:
    """On a narrow screen (a phone), show the panel tab ``name`` (moves, talk, analysis, game, more); on a
    wide one every panel shows already."""
    tab = page.locator(f"#tab-{name}")
    if tab.is_visible():
        tab.click()


def start(page, variant: str, black: str = "human", level: int = 1, white: str = "human") -> None:
    """A new game of ``variant`` through the page's controls (waits until it is shown; on a phone the
    Moves tab shows again)."""
    show_tab(page, "game")
    page.select_option("#white", white)
    page.select_option("#black", black)
    page.select_option("#level", str(level))
    old = game_id(page)
    if page.input_value("#variant") != variant:
        page.select_option("#variant", variant)  # starts a game at once
    else:
        page.click("#new")
    wait_new_game(page, old)
    show_tab(page, "moves")
    page.evaluate("window.scrollTo(0, 0)")  # the board in view again (the Game box may be far below it)


def click_move(page, frm: str, to: str, ply: int) -> None:
    """Play a move by two clicks and wait until it is in the move list as ``ply``."""
    sq(page, frm).click()
    sq(page, to).click()
    wait_plies(page, ply)


def wait_plies(page, n: int, timeout: float = TIMEOUT) -> None:
    try:
        page.wait_for_selector(f"#moves .mv[data-ply='{n}']", timeout=timeout)
    except playwright_api.TimeoutError:
        raise AssertionError(f"no move {n}: status {page.inner_text('#status')!r}, "
                             f"engine {page.inner_text('#engine-line')!r}, "
                             f"moves {page.inner_text('#moves')!r}") from None


def ply_count(page) -> int:
    return page.locator("#moves .mv").count()


def drag(page, frm: str, to: str) -> None:
    """Press on ``frm``, move in steps and release on ``to`` with the mouse."""
    a, b = sq(page, frm).bounding_box(), sq(page, to).bounding_box()
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] / 3, b["y"] + b["height"] / 3, steps=5)
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=2)
    page.mouse.up()


def new_game_via_api(page, **spec) -> dict:
    """Create a game with a fetch from the page and open its seat link there."""
    game = page.evaluate("""async spec => {
        const r = await fetch('/api/games', {method: 'POST', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify(spec)});
        return r.json();
    }""", spec)
    page.goto(game["seat"]["link"])
    page.wait_for_selector("body[data-ready='1']")
    return game


def serious_findings(page) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now."""
    results = axe_playwright.Axe().run(page)
    return [f"{v['id']}: {v['help']} ({len(v['nodes'])}x, e.g. {v['nodes'][0]['target']})"
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]


def invite(pages, time_control: str = "", **watcher_options):
    """Ann invites, Bob opens the invite link, a spectator opens the public link (in a context with
    ``watcher_options``): their three pages."""
    ann = pages.open(storage={"morphchess.name": "Ann"})
    ann.select_option("#time-control", time_control)
    old = game_id(ann)
    ann.click("#invite")
    ann.wait_for_function("old => JSON.parse(localStorage.getItem('morphchess.game')).id !== old", arg=old)
    ann.wait_for_selector("#invite-link")
    invite_link, watch_link = ann.input_value("#invite-link"), ann.input_value("#watch-link")
    assert re.search(r"/game/[\w-]+#seat=[\w-]{22,}$", invite_link), invite_link
    assert "#" not in watch_link and ann.input_value("#seat-link") != invite_link
    bob = pages.open(invite_link, storage={"morphchess.name": "Bob"})
    assert bob.evaluate("location.hash") == ""  # the token left the address bar
    ann.wait_for_function("() => document.getElementById('players').textContent.includes('Black: Bob')")
    watcher = pages.open(watch_link, **watcher_options)
    return ann, bob, watcher
