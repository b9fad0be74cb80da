"""Groups of modifiers in parentheses: ``x(y)zA`` is ``xzA xyzA xyyzA ...`` (H. G. Muller's comment on
the XBetza page, 2021-05-20: the Quintessence ``(az)N``), a count after the group bounding its
repetitions (``(az)7N``).  Each group against the moves written out by hand."""

from __future__ import annotations

import pytest

from morphchess import load
from morphchess.betza import BetzaError, parse
from morphchess.notation import from_fen
from test_xbetza_moves import board, fen

BLOCKERS = {"e5": "X", "a2": "K", "a8": "k", "f7": "P", "c6": "p", "g3": "p", "d3": "P"}


def targets(betza: str, pieces: dict[str, str]) -> set[str]:
    v = board(betza)
    pos = from_fen(v, fen(pieces))
    return {v.square_name(m.target) for m in pos.legal_moves() if m.origin == v.square("e5")}


@pytest.mark.parametrize("grouped,written", [
    ("(az)N", "NazNazazNazazazNazazazazNazazazazazNazazazazazazNazazazazazazazNazazazazazazazazNazazazazazazazazazN"),
    ("(az)2N", "NazNazazN"),
    ("(az)3N", "NazNazazNazazazN"),
    ("c(az)2N", "cNcazNcazazN"),
    ("m(af)2W", "mWmafWmafafW"),
])
def test_group_is_its_repetitions_written_out(grouped, written):
    for pieces in ({"e5": "X", "a2": "K", "a8": "k"}, BLOCKERS):
        assert targets(grouped, pieces) == targets(written, pieces)


def test_quintessence_reaches_past_its_first_leap():
    # from e5 on an empty 9x9 board: b4 by e5-c6-b4, the second leap turned a right angle (a later
    # leg's z on an oblique atom, docs/definitions.md), which no single knight leap reaches
    alone = {"e5": "X", "a2": "K", "a8": "k"}
    reached = targets("(az)7N", alone)
    assert "b4" in reached and "b4" not in targets("N", alone)
    assert reached == targets("(az)N", alone)  # seven repetitions are as many as 9x9 allows


def test_definition_with_a_grouped_count_loads():
    v = load("files=8 ranks=8\nquintessence:Q:(az)7N:q:d1\nking:K:K:k:e1\n", "q")
    assert v.type_by_letter("Q").betza == "(az)7N"
    assert sum(1 for _ in from_fen(v, "3qk3/8/8/8/8/8/8/3QK3 w - - 0 1").legal_moves()) > 10


@pytest.mark.parametrize("text,what", [("(az)11N", "more than 10 legs"), ("(z)N", "needs an 'a'"),
                                       ("(az)N(", "one group to an atom"), ("W(F)", "grouping"),
                                       ("(az)Nx", "as written out")])
def test_bad_groups_are_refused_by_name(text, what):
    with pytest.raises(BetzaError, match=what):
        parse(text)
