"""The built-in library against Fairy-Stockfish (pyffish): every game's move lists at every node of
perft(3) from the start, along random games, and from positions that use its special rules.

Each library file written in variants.ini is compared with Fairy-Stockfish's built-in variant of
the same name, so a slip in the file or in morphchess's reading of it shows as a differing move.
"""

from __future__ import annotations

import random
import warnings

import pytest

from morphchess import Position, builtin, variant_names
from morphchess.loader import language_of
from morphchess.move import Kind
from morphchess.notation import from_fen, move_to_coord, parse_coord, text_target, to_fen
from morphchess.variants import definition_text

from common import perft_against

sf = pytest.importorskip("pyffish")

LIBRARY = [n for n in variant_names() if language_of(definition_text(n)) == "fairy"]



def game(name: str):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return builtin(name)


def text(pos: Position, m) -> str:
    """Fairy-Stockfish's move text: coordinates, ``N@e4`` for a drop; where a side moves or puts a
    wall (wallOrMove), Fairy-Stockfish writes a move that puts none with the unused wall square a1."""
    if m.kind is Kind.DROP:
        return f"{pos.t.letter[m.piece].upper()}@{pos.variant.square_name(m.target)}"
    if pos.t.wall_or_move and m.kind is not Kind.WALL:
        return f"{move_to_coord(pos, m)},{pos.variant.square_name(text_target(pos.t, m))}a1"
    return move_to_coord(pos, m)


def walk(pos: Position, name: str, fen: str, depth: int, chess960: bool = False) -> int:
    """Perft against pyffish; one ply less where each move also puts a wall (a wall square for each)."""
    depth -= bool(pos.t.walling) and depth > 1
    return perft_against(pos, lambda moves: set(sf.legal_moves(name, fen, moves, chess960)), depth, None, text)


def test_library_is_large_and_fairy_named():
    assert len(LIBRARY) >= 25
    assert set(LIBRARY) <= set(sf.variants())


@pytest.mark.parametrize("name", LIBRARY)
def test_start_position(name):
    pos = Position(game(name))
    assert to_fen(pos).split()[0] == sf.start_fen(name).split()[0].replace("[-]", "[]")  # shogi's empty hands
    assert walk(pos, name, sf.start_fen(name), 2) > 10  # Fox and Hounds: 14


@pytest.mark.slow
@pytest.mark.parametrize("name", LIBRARY)
def test_start_position_depth3(name):
    assert walk(Position(game(name)), name, sf.start_fen(name), 3) > 50


@pytest.mark.parametrize("name", LIBRARY)
def test_random_game(name):
    """A random game, move lists compared at every ply; perft(2) where it stops."""
    rng = random.Random(name)
    start = sf.start_fen(name)
    pos, moves = Position(game(name)), []
    for _ply in range(rng.randrange(20, 70)):
        if pos.outcome() is not None:
            return
        mine = {text(pos, m): m for m in pos.legal_moves()}
        assert set(mine) == set(sf.legal_moves(name, start, moves)), f"{name} after {' '.join(moves)}"
        choice = rng.choice(sorted(mine))
        pos.make(mine[choice])
        moves.append(choice)
    if pos.outcome() is None:
        walk(pos, name, sf.get_fen(name, start, moves), 2)


# Positions that use each game's own rules: castling on wide boards and from the second rank,
# promotion in deep zones, drops, en passant of diagonal pawns, hoppers.
POSITIONS = [
    ("capablanca", "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1", 3),
    ("embassy", "r3k4r/10/10/10/10/10/10/R3K4R b KQkq - 0 1", 3),
    ("shako", "c8c/er3k2re/10/10/10/10/10/10/ER3K2RE/C8C w KQkq - 0 1", 3),  # castling on the second rank
    ("shako", "4k5/1P8/10/10/4c5/10/10/10/10/4K5 w - - 0 1", 3),           # cannon screens, promotion
    ("makruk", "4k3/8/2P5/8/8/5p2/8/4K3 w - - 0 1", 4),                  # forced promotion on the 6th rank
    ("ai-wok", "4k3/8/2P5/8/8/5p2/8/4K3 w - - 0 1", 3),
    ("asean", "4k3/2P5/8/8/8/8/5p2/4K3 w - - 0 1", 3),
    ("chessgi", "r3k2r/pP4pp/8/8/8/8/P5Pp/R3K2R[QNbp] w KQkq - 0 1", 2),  # drops on the first rank
    ("pocketknight", "r3k2r/8/8/8/8/8/8/R3K2R[Nn] w KQkq - 0 1", 2),
    ("berolina", "4k3/8/8/8/2p5/8/3P4/4K3 w - - 0 1", 3),                # diagonal double step, en passant
    ("berolina", "4k3/8/8/8/8/8/1p6/R3K3 b Q - 0 1", 3),
    ("grasshopper", "4k3/8/3g4/8/1G3p2/8/8/4K3 w - - 0 1", 3),
    ("newzealand", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 2),
    ("perfect", "c3k2r/8/8/8/8/8/8/C3K2R w KQkq - 0 1", 2),              # castling with a chancellor
    ("knightmate", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 3),           # a royal knight castles
    ("extinction", "rnbqkbnr/pP1p3p/8/8/8/8/P2P3P/RNBQKBNR w - - 0 1", 2),        # promotion to a (non-royal) king
    ("georgian", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", 2),                # no en passant
    ("tencubed", "10/4k5/10/10/10/10/10/3P6/4K5/10 w - - 0 1", 3),       # double step from the third rank
    ("courier", "12/5k6/12/12/12/12/1p10/4RK6 b - - 0 1", 3),
    ("shatranj", "4k1n1/1P6/8/8/8/8/6p1/4K1N1 w - - 0 1", 3),
    ("losalamos", "2k3/P5/6/6/4p1/1K4 w - - 0 1", 3),
    ("gardner", "2k2/P4/5/4p/1K3 w - - 0 1", 3),
    ("modern", "r3k3r/1P7/9/9/9/9/9/9/R3K3R w KQkq - 0 1", 2),
    ("nightrider", "4k3/8/8/3n4/8/8/8/N3K3 w - - 0 1", 3),
    ("paradigm", "4k3/8/8/3b4/3P4/2B5/8/4K3 w - - 0 1", 3),            # the dragon bishop's blocked horse leaps
    ("minixiangqi", "3k3/7/2c4/3p3/4R2/7/3K3 w - - 0 1", 3),             # flying general, palace, cannon
    ("torpedo", "4k3/8/3p4/8/4P3/8/8/4K3 w - - 0 1", 4),                 # double steps from any rank, en passant
    ("pawnsideways", "4k3/2p5/8/8/8/8/1P6/4K3 w - - 0 1", 4),            # a pawn that stepped sideways on its rank
    ("janus", "r3k4r/10/10/10/10/10/10/R3K4R w KQkq - 0 1", 3),         # castling three squares to b1, four to i1
    ("atomic", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 3),              # castling, blasts near the kings
    ("shogi", "4k4/9/9/1L5N1/9/9/9/9/4K4[Pp] w - - 0 1", 2),            # lance and knight must promote where stuck
    ("euroshogi", "4k3/8/8/2P5/8/8/8/4K3[Pp] w - - 0 1", 3),            # promotion forced in the zone
    ("duck", "r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1", 2),          # the duck after castling, promotion, e.p.
]


@pytest.mark.parametrize("name", ["minishogi", "shogi", "torishogi"])
def test_shogi_position_text_of_fairy_stockfish(name):
    """Fairy-Stockfish writes a shogi game's position without castling and en-passant fields
    (``[-] w 0 1``); it reads, and its promoted pieces (``+P``) read back."""
    pos = from_fen(game(name), sf.start_fen(name))
    assert to_fen(pos) == to_fen(Position(game(name)))
    fen = sf.get_fen("minishogi", sf.start_fen("minishogi"), ["a2a3", "e4e3", "a3a4", "e3e2", "a4a5+"])
    assert to_fen(from_fen(game("minishogi"), fen)) == fen == "+Pbsgk/5/5/4p/KGSBR[R] b - - 0 3"


@pytest.mark.parametrize("name,fen,depth", POSITIONS)
def test_special_positions(name, fen, depth):
    assert walk(from_fen(game(name), fen), name, fen, depth) > 0


@pytest.mark.parametrize("seed", [1, 2, 3, 518])
def test_chess960_arrays(seed):
    """The ID-text Chess960 against Fairy-Stockfish's chess with Chess960 castling."""
    pos = Position(game("chess960"), f"shuffle-{seed}")
    fen = to_fen(pos)
    assert walk(pos, "chess", fen, 3, chess960=True) > 7000


@pytest.mark.parametrize("seed", [0, 2, 7])
def test_caparandom_arrays(seed):
    """The ID-text Capablanca Random Chess against Fairy-Stockfish's caparandom (Chess960 castling)."""
    pos = Position(game("caparandom"), f"shuffle-{seed}")
    fen = to_fen(pos)
    assert walk(pos, "caparandom", fen, 3, chess960=True) > 20000


def test_chess960_castling():
    v = game("chess960")
    fen = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1"
    assert walk(from_fen(v, fen), "chess", fen, 3, chess960=True) > 1000


# -- the catalogue ------------------------------------------------------------------------------------
def test_catalogue_search():
    from morphchess.library import entry, search
    assert {e.name for e in search("drops")} >= {"chessgi", "pocketknight"}
    assert "chess" not in {e.name for e in search("drops")}
    # Xiangqi's soldier morphs across the river; its cannon hops
    assert {e.name for e in search("morphs")} == {"crossroads", "morphing-chess", "morphomania", "snappy-chess",
                                                  "xiangqi"}
    assert {e.name for e in search("hoppers")} == {"grasshopper", "minixiangqi", "shako", "xiangqi"}
    assert {e.name for e in search("10x8 castling")} == {"capablanca", "caparandom", "centaur", "embassy", "gothic",
                                                         "janus"}
    assert [e.name for e in search("capablanca")][:1] == ["capablanca"]
    assert search("no such thing at all") == []
    e = entry("chancellor")
    assert (e.title, e.author, e.size, e.fairy_name) == ("Chancellor Chess", "Benjamin Foster", "9x9", "chancellor")
    assert entry("chess960").fairy_name == "fischerandom" and entry("crossroads").fairy_name is None
    assert all(entry(n).rules.startswith("http") for n in LIBRARY)


def test_cli_variants_search_and_perft_of_a_section(capsys, tmp_path):
    from morphchess.cli import main
    assert main(["variants", "--search", "drops"]) == 0
    out = capsys.readouterr().out
    assert "chessgi" in out and "pocketknight" in out and "crossroads" not in out
    assert main(["variants", "--search", "no-such-feature"]) == 2
    assert "no built-in variant fits" in capsys.readouterr().err
    assert main(["variants", "--search", "crazyhouse"]) == 2  # a game Fairy-Stockfish plays is named so
    assert "crazyhouse: not in the library yet; Fairy-Stockfish plays it" in capsys.readouterr().err
    path = tmp_path / "my.ini"
    path.write_text("[myvariant:chess]\ncustomPiece1 = a:BN\n"
                    "startFen = rnbakbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBAKBNR w KQkq - 0 1\n")
    sf.load_variant_config(path.read_text())
    assert main(["perft", f"{path}:myvariant", "3"]) == 0
    counted = int(capsys.readouterr().out.split()[-1])
    fen = sf.start_fen("myvariant")
    first = sf.legal_moves("myvariant", fen, [])
    assert counted == sum(len(sf.legal_moves("myvariant", fen, [m, n]))
                          for m in first for n in sf.legal_moves("myvariant", fen, [m]))


def test_cli_convert_definition(capsys):
    from morphchess.cli import main
    assert main(["convert-definition", "crossroads"]) == 0
    captured = capsys.readouterr()
    assert "lost: morph tables" in captured.err
    head, _, _body = captured.out.partition("[crossroads]\n")  # the loss written in the text too
    assert head.startswith("# lost: morph tables") and all(line.startswith("# lost: ") for line in head.splitlines())
    assert main(["convert-definition", "capablanca"]) == 0
    assert capsys.readouterr().out.startswith("files=10 ranks=8")
    assert main(["convert-definition", "capablanca", "--to", "fairy"]) == 2


def test_web_catalogue_query(client):
    listed = client.get("/api/variants", params={"search": "drops"}).json()
    keys = {v["key"] for v in listed}
    assert {"chessgi", "pocketknight"} <= keys and "chess" not in keys
    assert all("drops" in v["features"] for v in listed if v["builtin"])
    everything = client.get("/api/variants").json()
    assert {v["key"] for v in everything if v["builtin"]} == set(variant_names())
    by_key = {v["key"]: v for v in everything}
    assert by_key["chess960"]["fairy_name"] == "fischerandom" and by_key["shako"]["features"][0] == "hoppers"


def test_web_catalogue_query_attacks(client):
    assert client.get("/api/variants", params={"search": "x" * 201}).status_code == 422  # over budget, no work
    odd = client.get("/api/variants", params={"search": "<script>alert(1)</script> ' OR 1=1 --"})
    assert odd.status_code == 200 and odd.json() == []


def test_web_definition_box_takes_variants_ini(client):
    """A pasted variants.ini section is told from ID text, compiled and playable."""
    text = ("[mini-capa:chess]\ncustomPiece1 = a:BN\n"
            "startFen = rnbakbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBAKBNR w KQkq - 0 1\n")
    posted = client.post("/api/variants", json={"definition": text})
    assert posted.status_code == 200, posted.text
    key = posted.json()["key"]
    game = client.post("/api/games", json={"variant": key, "white": "human", "black": "human"})
    assert game.status_code in (200, 201), game.text
    refused = client.post("/api/variants", json={"definition": "[anti:chess]\nmustDrop = true\n"})
    assert refused.status_code == 422 and "mustDrop" in refused.text


@pytest.mark.parametrize("name", ["duck", "amazons"])
def test_wall_moves_make_unmake_and_text(name):
    """Moves that put a wall: make and unmake restore the position and its hash, the hash follows the
    wall (the duck lifted from its square), and each move's text names that move alone."""
    from common import assert_make_unmake_exact, random_positions
    for i, pos in enumerate(random_positions(game(name), "standard", 2, name, 12)):
        if i % 3 == 0:
            assert_make_unmake_exact(pos)
            legal = pos.legal_moves()
            assert all(parse_coord(pos, move_to_coord(pos, m), legal) == m for m in legal[::7])
    assert {m.kind for m in Position(game(name)).legal_moves()} == {Kind.WALL}


@pytest.mark.parametrize("name", ["duck", "amazons"])
def test_wall_moves_in_san(name):
    """SAN names the wall's square after a comma, as Fairy-Stockfish writes it (``e4,d5``), and reads back."""
    from morphchess import Board, san
    board = Board(game(name))
    for _ in range(4):
        moves = list(board.legal_moves)
        for m in moves[::29]:
            written = san.write(board, m)
            assert written.endswith("," + board.variant.square_name(m.raw.extra[1])) and san.parse(board, written) == m
        board.push(moves[len(moves) // 3])
