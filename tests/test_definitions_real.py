"""Definitions copied from real chessvariants.com pages (tests/definitions/, sources in each file).

Each one either loads, plays, and says in ``variant.warnings`` every rule of its page it does not
play, or is refused with one line naming the piece and the construct.  The lists below are what
the loader must warn about; a warning that is not listed fails the test too, so a definition can
never play a different game without saying so (rules the page keeps only in its prose are listed
in docs/definitions.md).
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest

from morphchess import Position, VariantError, load

HERE = Path(__file__).with_name("definitions")
FILES = sorted(HERE.glob("*.txt"))

# name -> key words of every warning the definition must give when it loads, or the XBetza text it is
# refused for (a str).  When a rule or construct lands, move the name to the warnings it now gives.
EXPECTED: dict[str, list[str] | str] = {
    "arch-chancellor": ["satellite=archanc"],
    "capablanca-random": [],
    "carrera-960": [],
    "chak": ["counterbare=lose", "a river", "'offering' cannot move"],
    "elven-chess": [],
    "elven-shogi": ["IDs shared"],
    "eurasian-chess": [],
    "gross-chess": [],
    "id-demo": ["satellite=demo"],
    "jumping-chess": "ifmnDfmWfceamfF",
    "kings-castle": [],
    "metamachy": ["satellite=metamachy"],
    "omega-chess": [],
    "spartan": ["IDs shared", "Black with 0"],
    "tamerlane": ["IDs shared", "a9, m2: alone"],
    "tamerlane-ii": ["'dU' takes any own piece"],
    "wildebeest": ["satellite=wildebeest"],
    "xiangqi": ["a river"],
}


def test_every_collected_definition_is_listed():
    assert {p.stem for p in FILES} == set(EXPECTED)
    for p in FILES:
        assert re.search(r"^# source: https?://\S+$", p.read_text(), re.M), p.name


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_loads_and_warns_or_is_refused_naming_piece_and_construct(path):
    text = path.read_text()
    names = {m.lower() for m in re.findall(r"(?:^|\s)([A-Za-z][\w ()]*?):", text)}
    expected = EXPECTED[path.stem]
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            v = load(text, path.stem)
    except VariantError as e:
        message = str(e)
        assert "\n" not in message
        piece = re.match(r"piece '([^']+)': ", message)
        assert piece and piece[1].lower() in names, message
        assert isinstance(expected, str) and f"XBetza {expected!r}" in message, message
        return
    assert isinstance(expected, list), f"{path.stem} loads now: list its warnings {v.warnings}"
    assert len(caught) == len(v.warnings) == len(expected), v.warnings
    for word in expected:
        assert any(word in w for w in v.warnings), (word, v.warnings)
    assert len(Position(v).legal_moves()) > 0
