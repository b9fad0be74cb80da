"""The catalogue search beside the variant chooser (catalog.js), in Debian's headless Chromium."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow  # a browser


def test_catalogue_search_finds_and_selects_a_game(page):
    page.fill("#catalog-search", "drops")
    page.wait_for_selector("#catalog-results .catalog-hit[data-key='chessgi']")
    keys = page.eval_on_selector_all("#catalog-results .catalog-hit", "els => els.map(e => e.dataset.key)")
    assert "pocketknight" in keys and "chess" not in keys
    assert "drops" in page.inner_text("#catalog-results .catalog-hit[data-key='chessgi']")
    page.click("#catalog-results .catalog-hit[data-key='chessgi']")
    page.wait_for_function("() => document.getElementById('variant').value === 'chessgi'")
    page.wait_for_function("() => document.getElementById('variant-name').textContent === 'Chessgi'")


def test_catalogue_search_shows_markup_as_text(page):
    page.fill("#catalog-search", "<img src=x onerror=alert(1)>")
    page.wait_for_function("() => document.getElementById('catalog-status').textContent.includes('0 games')")
    assert page.locator("#catalog img").count() == 0
