"""XBetza (spec section 3): the compiler's vectors, and the moves they give on a board.

Expected move sets are written out by hand (or from the spec's vector lists), never
taken from the engine.
"""

from __future__ import annotations

import pytest

from morphchess import BetzaError, load
from morphchess.betza import parse
from morphchess.notation import from_fen, move_to_coord


def vectors(text: str) -> set[tuple[int, int]]:
    return {(s.dx, s.dy) for s in parse(text).steps}


def eight(a: int, b: int) -> set[tuple[int, int]]:
    return {(sx * x, sy * y) for x, y in ((a, b), (b, a)) for sx in (1, -1) for sy in (1, -1)}


@pytest.mark.parametrize("atom,leap,count", [
    ("W", (1, 0), 4), ("F", (1, 1), 4), ("D", (2, 0), 4), ("N", (2, 1), 8), ("A", (2, 2), 4),
    ("H", (3, 0), 4), ("C", (3, 1), 8), ("Z", (3, 2), 8), ("G", (3, 3), 4),
    ("WX", (4, 0), 4), ("AY", (4, 4), 4),
])
def test_atoms(atom, leap, count):
    got = vectors(atom)
    assert got == eight(*leap) and len(got) == count
    assert all(s.rng == 1 and s.move and s.capture for s in parse(atom).steps)


def test_shortcuts():
    assert vectors("K") == eight(1, 0) | eight(1, 1)
    assert all(s.rng == 1 for s in parse("K").steps)
    for text, atoms in (("R", [(1, 0)]), ("B", [(1, 1)]), ("Q", [(1, 0), (1, 1)])):
        assert vectors(text) == set().union(*(eight(*a) for a in atoms))
        assert all(s.rng == 0 for s in parse(text).steps)


def test_riders_and_ranges():
    assert {s.rng for s in parse("NN").steps} == {0} and vectors("NN") == eight(2, 1)
    assert {s.rng for s in parse("N2").steps} == {2}
    assert {s.rng for s in parse("W4").steps} == {4} and vectors("W4") == eight(1, 0)
    assert {s.rng for s in parse("WW").steps} == {0}


def test_compounds_are_unions():
    assert vectors("BN") == eight(1, 1) | eight(2, 1)
    assert vectors("FAGAY") == eight(1, 1) | eight(2, 2) | eight(3, 3) | eight(4, 4)
    assert vectors("WDHWX") == eight(1, 0) | eight(2, 0) | eight(3, 0) | eight(4, 0)
    assert vectors("WFDA") == eight(1, 0) | eight(1, 1) | eight(2, 0) | eight(2, 2)


@pytest.mark.parametrize("text,expected", [
    ("fW", {(0, 1)}), ("bW", {(0, -1)}), ("lW", {(-1, 0)}), ("rW", {(1, 0)}),
    ("vW", {(0, 1), (0, -1)}), ("sW", {(1, 0), (-1, 0)}), ("fsW", {(0, 1), (1, 0), (-1, 0)}),
    ("fF", {(1, 1), (-1, 1)}), ("bF", {(1, -1), (-1, -1)}), ("lF", {(-1, 1), (-1, -1)}),
    ("frF", {(1, 1)}), ("blF", {(-1, -1)}),
    ("fN", {(1, 2), (-1, 2)}), ("ffN", {(1, 2), (-1, 2)}), ("fsN", {(2, 1), (-2, 1)}),
    ("bbN", {(1, -2), (-1, -2)}), ("bsN", {(2, -1), (-2, -1)}),
    ("fhN", {(1, 2), (-1, 2), (2, 1), (-2, 1)}), ("bhN", {(1, -2), (-1, -2), (2, -1), (-2, -1)}),
    ("vN", {(1, 2), (-1, 2), (1, -2), (-1, -2)}), ("sN", {(2, 1), (-2, 1), (2, -1), (-2, -1)}),
    ("lN", {(-2, 1), (-2, -1)}), ("rN", {(2, 1), (2, -1)}),
    ("frN", {(2, 1)}), ("rfN", {(1, 2)}), ("flN", {(-2, 1)}), ("lfN", {(-1, 2)}),
    ("fB", {(1, 1), (-1, 1)}),
])
def test_directions(text, expected):
    assert vectors(text) == expected


def test_modalities_and_flags():
    steps = {(s.dx, s.dy): s for s in parse("ifmnDfmWfceF").steps}
    d, w, f = steps[(0, 2)], steps[(0, 1)], steps[(1, 1)]
    assert d.initial and d.lame and d.move and not d.capture
    assert not w.initial and w.move and not w.capture and not w.lame
    assert f.capture and not f.move and f.ep and steps[(-1, 1)].ep
    assert len(steps) == 4
    h = parse("fcnH").steps
    assert len(h) == 1 and h[0].lame and h[0].capture and not h[0].move and (h[0].dx, h[0].dy) == (0, 3)
    assert all(s.move and s.capture for s in parse("mcK").steps)


def test_castling_atom():
    moves = parse("KisO3")
    assert [(c.steps, sorted(c.sides)) for c in moves.castlings] == [(3, [-1, 1])]
    assert vectors("KisO3") == eight(1, 0) | eight(1, 1)
    assert [c.steps for c in parse("O2").castlings] == [2]


@pytest.mark.parametrize("text,named", [
    ("pzB", "crooked"), ("zqN", "circular"), ("zU", "universal"), ("zafW", "first leg"),
    ("aafzK", "either way"), ("xK", "'x'"), ("yK", "'y' on the last leg"), ("umN", "unload"),
    ("tR", "'t'"), ("wW", "'w'"), ("E", "'E'"), ("fm", "not followed by an atom"), ("O", "castling"),
    ("O0", "castling"), ("nNN", "lame rider"), ("nC", "oblique"), ("W(F)", "grouping"), ("", "empty"),
    ("K?", "'?'"), ("maifW", "'i' on a later leg"), ("meafW", "en-passant 'e'"), ("kafW", "'k' on a leg"),
    ("aU", "universal leaper"), ("pU", "universal leaper"), ("[W-F", "without its ']'"), ("[W+F]", "'+'"),
    ("tpR", "'t'"), ("upR", "unload 'u'"), ("uafcR", "unload 'u'"), ("xaN", "'x'"), ("xK", "borrowing"),
    ("nqN", "crooked or circular"), ("ozR", "crooked"), ("zqB", "'zq'"),
])
def test_unsupported_constructs_are_named(text, named):
    with pytest.raises(BetzaError) as e:
        parse(text)
    assert named in str(e.value) and repr(text) in str(e.value)


def test_unsupported_construct_in_a_definition_names_the_piece():
    with pytest.raises(Exception) as e:
        load("files=8 ranks=8\ncannon:C:mRcxR::a1\nking:K:K::e1", "bad")
    assert "cannon" in str(e.value) and "'x'" in str(e.value)


# -- on the board ---------------------------------------------------------------------------

# One type per letter; the piece under test stands on e5 of an otherwise empty 9x9 board,
# the kings on a2 and i8 (no line of any tested piece from e5 reaches them).
BOARD = """
files=9 ranks=9 promoZone=0
lame pawn:P:fWfcnD:p:
speedpawn:S:fWfnDfcnH:s:
snappy pawn:Y:fWfnD:y:
fide pawn:F:ifmnDfmWfceF:f:a2-i2
short knight:X:N2:x:
short bishop:G:FAGAY:g:
short rook:O:WDHWX:o:
short queen:U:WFDA:u:
dragon horse:H:BW:h:
dragon king:D:RF:d:
archbishop:A:BN:a:
chancellor:C:RN:c:
amazon:Z:QN:z:
nightrider:N:NN:n:
cardinalrider:I:BNN:i:
chancellorrider:J:RNN:j:
king step:M:K:m:
king:K:K:k:e1
"""


@pytest.fixture(scope="module")
def v():
    return load(BOARD, "board")


def on_board(f: int, r: int) -> bool:
    return 0 <= f < 9 and 0 <= r < 9


def name(f: int, r: int) -> str:
    return f"{chr(97 + f)}{r + 1}"


def reference(leaps=(), rides=(), limit=99, start=(4, 4)) -> set[str]:
    """Destinations on an empty board: leaps (vectors) and rides (vectors, up to ``limit`` steps)."""
    out = set()
    for dx, dy in leaps:
        if on_board(start[0] + dx, start[1] + dy):
            out.add(name(start[0] + dx, start[1] + dy))
    for dx, dy in rides:
        k = 1
        while k <= limit and on_board(start[0] + k * dx, start[1] + k * dy):
            out.add(name(start[0] + k * dx, start[1] + k * dy))
            k += 1
    return out


def destinations(v, letter: str, extra: str = "", square: str = "e5", side: str = "w") -> set[str]:
    """Targets of the piece on ``square`` (``extra``: more pieces, as {square: letter})."""
    pieces = {"a2": "K", "i8": "k", square: letter}
    pieces.update(dict(x.split("=") for x in extra.split()))
    rows = []
    for r in range(8, -1, -1):
        row, empty = "", 0
        for f in range(9):
            p = pieces.get(name(f, r))
            if p:
                row += (str(empty) if empty else "") + p
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    pos = from_fen(v, "/".join(rows) + f" {side} - - 0 1")
    sq = v.square(square)
    return {move_to_coord(pos, m)[2:] for m in pos.legal_moves() if m.origin == sq}


ORTHO, DIAG = eight(1, 0), eight(1, 1)


@pytest.mark.parametrize("letter,expected", [
    ("X", reference(rides=eight(2, 1), limit=2)),
    ("G", reference(leaps=eight(1, 1) | eight(2, 2) | eight(3, 3) | eight(4, 4))),
    ("O", reference(leaps=eight(1, 0) | eight(2, 0) | eight(3, 0) | eight(4, 0))),
    ("U", reference(leaps=eight(1, 0) | eight(1, 1) | eight(2, 0) | eight(2, 2))),
    ("H", reference(leaps=ORTHO, rides=DIAG)),
    ("D", reference(leaps=DIAG, rides=ORTHO)),
    ("A", reference(leaps=eight(2, 1), rides=DIAG)),
    ("C", reference(leaps=eight(2, 1), rides=ORTHO)),
    ("Z", reference(leaps=eight(2, 1), rides=ORTHO | DIAG)),
    ("N", reference(rides=eight(2, 1))),
    ("I", reference(rides=DIAG | eight(2, 1))),
    ("J", reference(rides=ORTHO | eight(2, 1))),
    ("M", reference(leaps=ORTHO | DIAG)),
    ("P", {"e6"}), ("S", {"e6", "e7"}), ("Y", {"e6", "e7"}),
])
def test_piece_on_empty_board(v, letter, expected):
    assert destinations(v, letter) == expected


def test_short_rook_and_bishop_reach_distance_four(v):
    assert {"e1", "e9", "a5", "i5"} <= destinations(v, "O", square="e5")
    assert {"a1", "i1", "a9", "i9"} <= destinations(v, "G")


def test_leapers_are_never_blocked(v):
    crowd = " ".join(f"{s}=p" for s in ("d4", "d5", "d6", "e4", "e6", "f4", "f5", "f6", "c3", "g7"))
    assert destinations(v, "G", crowd) == reference(leaps=eight(1, 1) | eight(2, 2) | eight(3, 3) | eight(4, 4))
    assert destinations(v, "O", crowd) == reference(leaps=eight(1, 0) | eight(2, 0) | eight(3, 0) | eight(4, 0))


def test_lame_pawn_fWfcnD(v):
    assert destinations(v, "P", "e7=p") == {"e6", "e7"}        # capture two ahead over an empty e6
    assert destinations(v, "P", "e6=p e7=p") == {"e6"}         # e6 blocks the lame leap; fW captures
    assert destinations(v, "P", "d6=p f6=p") == {"e6"}         # no diagonal capture
    assert destinations(v, "P", "e6=P e7=p") == set()
    assert destinations(v, "p", "e3=P", square="e5", side="b") == {"e4", "e3"}  # Black goes down


def test_speedpawn_fWfnDfcnH(v):
    assert destinations(v, "S", "e8=p") == {"e6", "e7", "e8"}
    assert destinations(v, "S", "e7=p e8=p") == {"e6", "e7"}   # e7 blocks the triple step
    assert destinations(v, "S", "e6=p e8=p") == {"e6"}         # e6 blocks both lame leaps
    assert destinations(v, "S", "e7=p") == {"e6", "e7"}        # the double step may capture


def test_snappy_pawn_fWfnD(v):
    assert destinations(v, "Y", "e6=p") == {"e6"}
    assert destinations(v, "Y", "e7=p") == {"e6", "e7"}
    assert destinations(v, "Y", "e6=P") == set()


def test_fide_pawn(v):
    assert destinations(v, "F", square="c2") == {"c3", "c4"}
    assert destinations(v, "F", "c3=p", square="c2") == set()
    assert destinations(v, "F", "c4=p b3=p d3=p", square="c2") == {"c3", "b3", "d3"}
    assert destinations(v, "F", square="c3") == {"c4"}  # off its start square: no double step


def test_range_two_nightrider_is_blocked_at_the_first_landing(v):
    assert "g9" in destinations(v, "X") and "a3" in destinations(v, "X")
    assert "g9" not in destinations(v, "X", "f7=p")
    assert "f7" in destinations(v, "X", "f7=p")


def test_nightrider_stops_at_the_first_piece(v):
    free = destinations(v, "N")
    assert {"c1", "g1", "a3", "i3", "a7", "i7", "c9", "g9"} <= free and "a1" not in free
    blocked = destinations(v, "N", "g6=p")
    assert "g6" in blocked and "i7" not in blocked
