"""The designer's lab panel of the web board (issue 15), in Debian's headless Chromium."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow  # a browser and two self-play games


def test_web_lab_panel_in_the_browser(page):
    page.select_option("#variant", "snappy-chess")
    page.fill("#lab-games", "2")
    page.click("#lab-run")
    page.wait_for_selector("#lab-figures", timeout=300_000)
    assert "White's score" in page.inner_text("#lab-figures")
    assert page.inner_text("#lab-status").startswith("snappy-chess: 2 games of level:1")
    assert page.frame_locator("#lab-report").locator("h1").inner_text() == "morphchess lab: snappy-chess"
