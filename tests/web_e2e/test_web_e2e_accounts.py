"""Accounts through the page: sign up in one browser (its anonymous game goes with it), play a game
logged in, see both on the profile after logging in from a second browser, play on there, change the
password (the first browser's session ends), log out."""

from __future__ import annotations

import pytest

from web_e2e_support import click_move, game_id, start

pytestmark = pytest.mark.slow  # a browser: left out of the fast loop (-m "not slow")


def enter(page, action: str, name: str, password: str, shown: str = "Ann-1") -> None:
    page.click("#account-open")
    page.fill("#account-user", name)
    page.fill("#account-password", password)
    page.click(f"#account-{action}")
    page.wait_for_selector(f"#account-name:text-is('{shown}')")


def test_sign_up_play_and_play_on_from_another_browser(pages):
    laptop = pages.open()
    other_tab = laptop.context.new_page()  # opened before the log-in: it knows no CSRF token yet
    other_tab.goto("/")
    other_tab.wait_for_selector("body[data-ready='1']")
    anonymous = game_id(laptop)
    click_move(laptop, "e2", "e4", 1)
    enter(laptop, "signup", "Ann-1", "a long password")
    start(laptop, "chess")  # a game made while logged in: the page sends the CSRF token
    logged_in = game_id(laptop)
    click_move(laptop, "d2", "d4", 1)
    start(other_tab, "chess")  # refused for want of the token, asked again, sent again
    other_tab.wait_for_selector("#account-name:text-is('Ann-1')")
    phone = pages.open()
    assert phone.locator("#account-name").count() == 0
    enter(phone, "login", "ann-1", "a long password")
    phone.click("#account-name")
    phone.wait_for_selector(f"#profile-games li[data-game='{logged_in}']")
    assert phone.locator(f"#profile-games li[data-game='{anonymous}']").count() == 1
    assert phone.inner_text("#profile-name") == "Ann-1"
    assert not phone.locator("#profile-own").is_hidden()  # the owner's own controls
    phone.click(f"#profile-games li[data-game='{logged_in}'] button.play-here")  # its seats move to the phone
    phone.wait_for_selector("body[data-ready='1']")
    assert game_id(phone) == logged_in
    click_move(phone, "d7", "d5", 2)
    phone.goto("/players/Ann-1")
    phone.wait_for_selector("#profile-own:not([hidden])")
    phone.fill("#profile-old", "a long password")
    phone.fill("#profile-new", "another long password")
    phone.click("#profile-password button")
    phone.wait_for_selector("#profile-said:has-text('Password changed')")
    laptop.reload()  # the laptop's session ended with the change
    laptop.wait_for_selector("#account-open")
    phone.click("#account-logout")
    phone.wait_for_selector("#account-open")
    phone.wait_for_selector("#profile-own", state="hidden")  # the profile is read again after the log-out
