"""Fairy-Stockfish's variants.ini as a definition language: reading, templates, refusals, and a
walk over Fairy-Stockfish's own variants.ini (tests/data) against pyffish."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from morphchess import Board, Position, VariantError, VariantWarning, load
from morphchess.fairy_ini import sections
from morphchess.loader import language_of
from morphchess.notation import to_fen
from morphchess.variants import load_variant
from test_library import text as move_text

FSF_FILE = Path(__file__).with_name("data").joinpath("fairy-stockfish-variants.ini")

MINE = """
# a parent and a child in one text
[wide:chess]
maxFile = 10
customPiece1 = a:BN
customPiece2 = c:RN
startFen = rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1
promotionPieceTypes = acqrbn
castlingKingsideFile = i
castlingQueensideFile = c

[narrow:wide]
customPiece2 = -
startFen = rnabqkbanr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBANR w KQkq - 0 1
"""


def quiet_load(text: str, name: str = "custom"):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return load(text, name)


def test_language_is_told_from_the_text():
    assert language_of(MINE) == "fairy"
    assert language_of("# a comment\n; another\n[x]\n") == "fairy"
    assert language_of("files=8 ranks=8\npawn:P:fW::a2-h2\nking:K:K::e1\n") == "id"


def test_template_chain_and_piece_removal():
    wide, narrow = quiet_load(MINE, "wide"), quiet_load(MINE, "narrow")
    assert (wide.files, wide.ranks) == (10, 8)
    assert [t.letter for t in wide.types if t.letter in "AC"] == ["A", "C"]
    assert "C" not in {t.letter for t in narrow.types}      # customPiece2 = - removed it
    # the removed chancellor also left the promotion choices (as Fairy-Stockfish's remove_piece does)
    assert {narrow.type(i).letter for i in narrow.promo_choice} == {"A", "Q", "R", "B", "N"}
    assert to_fen(Position(narrow)).startswith("rnabqkbanr/")


def test_variant_text_is_self_contained():
    """A variant's text holds its section and its ancestors from the file, so records reload it."""
    narrow = quiet_load(MINE, "narrow")
    assert "[wide:chess]" in narrow.text and "[narrow:wide]" in narrow.text
    again = quiet_load(narrow.text, "narrow")
    assert to_fen(Position(again)) == to_fen(Position(narrow))


def test_last_section_when_name_is_not_a_section():
    assert quiet_load(MINE).name == "narrow"


def test_path_and_section_spec(tmp_path):
    path = tmp_path / "my.ini"
    path.write_text(MINE)
    assert load_variant(f"{path}:wide").name == "wide"
    assert Board(f"{path}:narrow").variant.name == "narrow"
    with pytest.raises(VariantError, match=r"no section \[nothing\]"):
        load_variant(f"{path}:nothing")


def test_pockets_and_drops_from_start_fen():
    v = quiet_load("[pk:chess]\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[NNb] w KQkq - 0 1\n"
                   "pieceDrops = true\n")
    pos = Position(v)
    knight, bishop = v.type_by_letter("N").index, v.type_by_letter("B").index
    assert pos.hands[0][knight] == 2 and pos.hands[1][bishop] == 1
    assert any(move_text(pos, m) == "N@e4" for m in pos.legal_moves())


@pytest.mark.parametrize("section,key", [
    ("[x:chess]\nmustDrop = true\n", "mustDrop"),
    ("[x:crazyhouse]\n", "capturesToHand"),                       # promoted pieces demote in FSF
    ("[x:chess]\nextinctionValue = loss\nextinctionPieceTypes = q\nextinctionPseudoRoyal = true\n",
     "extinctionPseudoRoyal"),                                     # a pawn may promote to a second queen
    ("[x:chess]\nextinctionValue = loss\nextinctionPieceTypes = n\nextinctionPseudoRoyal = true\n",
     "extinctionPseudoRoyal"),                                     # two knights a side: pseudo-royal only later
    ("[x:chess]\ncastlingQueensideFile = f\n", "castlingQueensideFile"),  # the king away from its partner
    ("[x:chess]\npromotionRegionWhite = *7 *8\n", "promotionRegionWhite"),  # Black's zone differs
    ("[x:chess]\ndupleCheck = true\n", "dupleCheck"),
    ("[x:chess]\ncheckmateValue = draw\n", "checkmateValue"),
    ("[x:chess]\nmobilityRegionWhiteKing = e1\n", "mobilityRegionWhiteKing"),
    ("[x:chess]\ntripleStepRegionWhite = *2\n", "tripleStepRegionWhite"),
    ("[x:shogi]\npieceDemotion = true\n", "pieceDemotion"),
    ("[x:chess]\npromotedPieceType = n:b\n", "promotedPieceType"),  # beside the pawns' chess-style promotion
    ("[x:shogi]\npromotedPieceType = g:r\n", "promotedPieceType"),  # a promoted pawn (a gold) would promote again
    ("[x:shogi]\ncapturesToHand = true\ndropLoop = true\n", "dropLoop"),
    ("[x:chess]\nwallingRule = static\n", "wallingRule"),
    ("[x:chess]\nwallOrMove = true\n", "wallOrMove"),
    ("[x]\nmaxRank = 3\nmaxFile = c\ncustomPiece1 = p:mK\nstartFen = 3/3/3[Pp] w - - 0 1\npieceDrops = true\n"
     "stalemateValue = loss\nmustDrop = true\nmustDropType = z\n", "mustDropType"),
    ("[x:crazyhouse]\nwallingRule = edge\nwallOrMove = true\n", "wallingRule"),  # walls and drops
    ("[x:nosuchparent]\n", "nosuchparent"),
    ("[x:chess]\nstartFen = 8/8/8/8/8/8/8/4K2k b - - 0 1\n", "startFen"),
    ("[x:chess]\nconnectN = 4\nconnectValue = none\n", "connectValue"),
    ("[x:chess]\nimmobile = s\npieceDrops = true\n"                 # a stone in hand, dropped for good
     "startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Ss] w KQkq - 0 1\n", "immobile"),
])
def test_unplayable_keys_are_refused_by_name(section, key):
    with pytest.raises(VariantError, match=key):
        load(section, "x")


def test_key_set_to_its_default_is_not_refused():
    assert load("[x:chess]\nmustCapture = false\ngating = false\n", "x").name == "x"


def test_scoring_and_unknown_keys_warn():
    with pytest.warns(VariantWarning, match="countingRule"):
        load("[x:chess]\ncountingRule = makruk\n", "x")
    with pytest.warns(VariantWarning, match="nMoveRuleTypes"):       # pawn moves that do not reset the count
        load("[x:chess]\nnMoveRuleTypes = -\n", "x")
    with pytest.warns(VariantWarning, match="unknown key colour"):
        v = load("[x:chess]\ncolour = blue\n", "x")
    assert any("colour" in w for w in v.warnings)


@pytest.mark.parametrize("bad,where", [
    ("[x:chess]\nthis line has no equals sign\n", "line 2"),
    ("key = value\n[x]\n", "before the first"),
    ("[x:chess]\n[x:chess]\n", "defined twice"),
    ("[x:chess]\ncustomPiece1 = a\n", "customPiece1"),
    ("[x:chess]\npromotionPieceTypes = qz\n", "'z'"),
    ("[x:chess]\nmaxFile = ten\n", "maxFile"),
    ("[x:chess]\nblastOnCapture = true\nblastImmuneTypes = z\n", "blastImmuneTypes"),
    ("[x:chess]\nblastOnCapture = maybe\n", "blastOnCapture"),
    ("[x:shogi]\npromotedPieceType = p:z\n", "promotedPieceType"),
    ("[x:shogi]\ndropNoDoubledCount = two\n", "dropNoDoubledCount"),
    ("[x:chess]\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1\n", "7 ranks"),
])
def test_bad_text_names_the_fault(bad, where):
    with pytest.raises(VariantError, match=where):
        load(bad, "x")


def test_makruk_promotion_is_forced_in_the_whole_zone():
    v = quiet_load(Path(__file__).parents[1].joinpath("src/morphchess/variants/makruk.ini").read_text())
    assert v.promo_forced
    from morphchess.notation import from_fen
    pos = from_fen(v, "4k3/8/8/2P5/8/8/8/4K3 w - - 0 1")
    assert sorted(move_text(pos, m) for m in pos.legal_moves() if m.origin == v.square("c5")) == ["c5c6m"]


# -- Fairy-Stockfish's own variants.ini, section by section -------------------------------------------
def _walk_file(depth: int) -> tuple[dict, dict]:
    sf = pytest.importorskip("pyffish")
    from common import perft_against
    text = FSF_FILE.read_text()
    sf.load_variant_config(text)
    played, refused = {}, {}
    for name in sections(text):
        try:
            v = quiet_load(text, name)
        except VariantError as e:
            refused[name] = str(e)
            continue
        fen = sf.start_fen(name)
        deep = min(depth, 2) if v.walling else depth  # each move with each of its walls: one ply less
        played[name] = perft_against(Position(v), lambda moves, n=name, f=fen: set(sf.legal_moves(n, f, moves)),
                                     deep, None, move_text)
    return played, refused


def test_fairy_stockfish_variants_ini(capsys):
    """Every section either loads and matches Fairy-Stockfish move for move to depth 2, or is
    refused naming the key it needs; the report is printed (pytest -s shows it)."""
    played, refused = _walk_file(2)
    with capsys.disabled():
        print(f"\nvariants.ini: {len(played)} played, {len(refused)} refused")
        for name, why in sorted(refused.items()):
            print(f"  refused {name}: {why}")
    assert len(played) >= 70
    assert {"blackletter", "4x5chess", "antiantichess", "rookmate", "hexapawn", "nim", "6x6atom", "mansindam",
            "gorogoroplus", "atlantis", "cowboys", "atomicduck", "picaria", "nineholes", "tictacchess",
            "teeko"} <= set(played)
    assert all(why.startswith("[") for why in refused.values())
    assert "pieceDemotion" in refused["chennis"] and "customPiece4" in refused["cannonshogi"]  # pR2


@pytest.mark.slow
def test_fairy_stockfish_variants_ini_depth3():
    played, _refused = _walk_file(3)
    assert len(played) >= 50


# -- converting between the languages ---------------------------------------------------------------
@pytest.mark.parametrize("name", ["crossroads", "morphomania", "chess", "capablanca", "makruk", "shako", "chessgi",
                                  "shatranj", "extinction", "grasshopper"])
def test_to_fairy_means_the_same_to_fairy_stockfish(name):
    """A built-in written as a variants.ini section: Fairy-Stockfish and morphchess read the same game
    from it (the Degens games without their morph tables, which the conversion reports lost)."""
    sf = pytest.importorskip("pyffish")
    from morphchess import builtin
    from morphchess.convert import to_fairy

    from common import perft_against
    text, lost = to_fairy(builtin(name))
    assert ("morph tables" in " ".join(lost)) == (name in ("crossroads", "morphomania"))
    converted = text.replace(f"[{name}]", f"[rt-{name}]")
    sf.load_variant_config(converted)
    v = quiet_load(converted)
    fen = sf.start_fen(f"rt-{name}")
    assert to_fen(Position(v)).split()[0] == fen.split()[0]
    perft_against(Position(v), lambda moves: set(sf.legal_moves(f"rt-{name}", fen, moves)), 2, None, move_text)


@pytest.mark.parametrize("name", ["capablanca", "chessgi", "courier", "grasshopper", "knightmate"])
def test_to_id_and_back(name):
    """variants.ini -> ID text -> variant: the same game, perft(3) for perft(3)."""
    from morphchess import builtin
    from morphchess.convert import to_id
    from morphchess.idiagram import load as load_id
    from morphchess.variants import definition_text
    id_text, lost = to_id(definition_text(name), name)
    # chessgi's pawn dropped on the first rank double-steps from the second: the ID cannot say it
    assert [line.split(":")[0] for line in lost] == (["doubleStepRegion"] if name == "chessgi" else [])
    a, b = Position(builtin(name)), Position(load_id(id_text, name))
    assert to_fen(a) == to_fen(b) and a.perft(3) == b.perft(3)


def test_to_id_reports_a_region_pieces_come_back_to_lost():
    """Torpedo's pawns double-step from any rank: the ID's initial moves (unmoved pieces only) cannot say it."""
    from morphchess.convert import to_id
    from morphchess.variants import definition_text
    assert any(line.startswith("doubleStepRegion") for line in to_id(definition_text("torpedo"), "torpedo")[1])
    assert to_id("[plain:chess]\n", "plain")[1] == []  # pawns that only go forward from their region


def test_to_id_reports_optional_zone_promotion_lost():
    # the ID forces promotion anywhere in the zone: Makruk's forced promotion converts, an optional one does not
    from morphchess import builtin
    from morphchess.convert import to_id
    from morphchess.idiagram import load as load_id
    from morphchess.variants import definition_text
    text, lost = to_id(definition_text("makruk"), "makruk")
    assert not any("mandatoryPawnPromotion" in line for line in lost)
    assert Position(load_id(text, "makruk")).perft(3) == Position(builtin("makruk")).perft(3)
    optional = ("[optional:chess]\npromotionRegionWhite = *7 *8\npromotionRegionBlack = *1 *2\n"
                "mandatoryPawnPromotion = false\n")
    _text, lost = to_id(optional, "optional")
    assert any("mandatoryPawnPromotion" in line for line in lost)


def test_conversions_refuse_what_does_not_convert():
    from morphchess import builtin
    from morphchess.convert import to_fairy
    with pytest.raises(VariantError, match="one letter"):
        to_fairy(quiet_load("files=5 ranks=5\npawn:P:fW::a2\nqueen:+Q:Q::b1\nking:K:K::e1\n"))
    _text, lost = to_fairy(builtin("polymorph"))
    assert any("transformations" in line for line in lost) and any("setups" in line for line in lost)


def test_every_key_is_in_the_table_of_docs_definitions():
    from morphchess.fairy_ini import KEYS, PIECE_BETZA
    doc = Path(__file__).parents[1].joinpath("docs/definitions.md").read_text()
    table = doc[doc.index("### Every key and what morphchess does with it"):]
    assert [k for k in sorted(KEYS | set(PIECE_BETZA)) if f"`{k}`" not in table] == []


def test_mangled_text_gives_input_errors_only():
    """Lines of the library's files dropped, doubled and mixed: every outcome is a variant or an
    InputError (never another exception), so bad text never reaches the user as a traceback."""
    import contextlib
    import random

    from morphchess import InputError
    from morphchess.variants import definition_text, names
    rng = random.Random(23)
    lines = [line for n in names() if language_of(definition_text(n)) == "fairy"
             for line in definition_text(n).splitlines() if "=" in line]
    values = ["", "-", "x", "0", "99", "*", "true", "a1 b2", "*3 *4", "q:", "q:XYZ", "10/10", "[Qq] w"]
    for _case in range(300):
        body = [rng.choice(lines) for _ in range(rng.randrange(1, 12))]
        if rng.random() < 0.5:
            key = rng.choice(body).split("=")[0]
            body.append(f"{key}= {rng.choice(values)}")
        text = f"[m:{rng.choice(['chess', 'capablanca', 'shogi', 'makruk'])}]\n" + "\n".join(body) + "\n"
        with contextlib.suppress(InputError):
            quiet_load(text, "m")


def test_pgn_record_carries_a_variants_ini_definition():
    from morphchess import pgn
    board = Board(quiet_load(MINE, "narrow"))
    for move in ("e2e4", "e7e5", "d1h5"):
        board.push_uci(move)
    text = pgn.write(board)
    assert '[VariantDefinition "[narrow:wide]"]' in text
    again = pgn.read(text).board
    assert again.variant.name == "narrow" and again.fen() == board.fen()


def test_mobility_regions_and_flying_general_against_pyffish():
    """mobilityRegion (read as the ID's confine=) and flyingGeneral, move lists against pyffish."""
    sf = pytest.importorskip("pyffish")
    from morphchess.notation import from_fen

    from common import perft_against
    text = ("[zoned:chess]\nmobilityRegionWhiteKing = c1 d1 e1 f1 c2 d2 e2 f2\n"
            "mobilityRegionBlackKing = c8 d8 e8 f8 c7 d7 e7 f7\nmobilityRegionWhiteKnight = *1 *2 *3 *4\n"
            "mobilityRegionBlackKnight = *8 *7 *6 *5\nflyingGeneral = true\ncastling = false\n")
    sf.load_variant_config(text)
    v = quiet_load(text, "zoned")
    for fen in ("3k4/8/8/8/8/8/8/4K3 w - - 0 1", "3k4/8/8/3n4/8/2N5/8/4K3 w - - 0 1",
                "r3k3/4p3/8/8/8/8/8/R3K2R b - - 0 1"):
        perft_against(from_fen(v, fen), lambda moves, f=fen: set(sf.legal_moves("zoned", f, moves)), 3, None, move_text)
    with pytest.raises(VariantError, match="mirrored"):
        load("[z:chess]\nmobilityRegionWhiteKing = e1\nmobilityRegionBlackKing = d8\n", "z")
