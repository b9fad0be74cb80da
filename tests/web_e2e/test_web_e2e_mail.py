"""The e-mail settings on the profile page: an address refused with its reason, a good one kept, and the note
that this server (started without --smtp-host) sends no mail."""

from __future__ import annotations

import pytest
from test_web_e2e_accounts import enter

pytestmark = pytest.mark.slow  # a browser: left out of the fast loop (-m "not slow")


def test_the_owner_sets_an_address_and_is_told_this_server_sends_no_mail(pages):
    page = pages.open()
    enter(page, "signup", "Mia-2", "a long password", shown="Mia-2")
    page.goto("/players/Mia-2")
    page.wait_for_selector("#profile-own:not([hidden])")
    page.wait_for_selector("#profile-mail-note:has-text('sends no e-mail')")
    page.fill("#profile-mail-address", "mia@localhost")
    page.check("#profile-mail-moves")
    page.click("#profile-mail button")
    page.wait_for_selector("#profile-said:has-text('is not a domain')")
    page.fill("#profile-mail-address", "mia@example.org")
    page.click("#profile-mail button")
    page.wait_for_selector("#profile-said:has-text('E-mail settings saved')")
    page.reload()
    page.wait_for_selector("#profile-own:not([hidden])")
    page.wait_for_function("document.getElementById('profile-mail-address').value === 'mia@example.org'")
    assert page.is_checked("#profile-mail-moves")
