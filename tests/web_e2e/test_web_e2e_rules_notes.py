"""The web board's rules line says what a pasted definition's page may add outside its text."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow  # a browser: left out of the fast loop (-m "not slow")


def test_rules_line_shows_the_definition_warnings(page):
    page.fill("#definition", "files=6 ranks=6 promoZone=3\npawn:P:fW:pawn:a2-f2\nking:K:K:king:c1")
    page.click("#load-definition")
    page.wait_for_function("() => document.querySelectorAll('#board .sq').length === 36")
    rules = page.inner_text("#rules")
    assert "Notes: promoZone=3 of 6 ranks is the far half of the board, a river" in rules
