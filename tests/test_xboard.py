"""``morphchess xboard``: python-chess and XBoard itself play it; the match runner plays every variant."""

import io
import os
import random
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import chess
import chess.engine
import pytest

from morphchess import load
from morphchess.board import Board
from morphchess.engine.match import run_match
from morphchess.protocol_text import hand_types, holdings_types, move_text, parse_move, rank_shift, shift_ranks
from morphchess.protocols.common import Output, ProtocolError
from morphchess.protocols.xboard import (
    XboardEngine,
    main,
    piece_to_char,
    setup_commands,
    xboard_betza,
    xboard_castling,
    xboard_fen,
)
from morphchess.variants import builtin
from test_xbetza_drops import DEFINITION as CRAZYHOUSE
from test_xbetza_shogi import DEFINITION as MINISHOGI

from protocol_support import ENGINE, PROTOCOL_GAMES, Session, engine_command

pytestmark = pytest.mark.slow  # left out of the fast loop (-m "not slow")


def test_python_chess_plays_a_whole_game():
    rng = random.Random(4)
    board = chess.Board()
    with chess.engine.SimpleEngine.popen_xboard([*ENGINE, "xboard"], timeout=120) as engine:
        assert engine.id["name"] == "morphchess"
        while not board.is_game_over() and board.ply() < 200:
            if board.turn == chess.BLACK:
                board.push(engine.play(board, chess.engine.Limit(depth=2)).move)
            else:
                board.push(rng.choice(list(board.legal_moves)))
    assert board.is_checkmate() and board.turn == chess.WHITE


@pytest.mark.parametrize("variant", PROTOCOL_GAMES)
def test_every_variant_through_xboard(variant):
    """A whole game of each variant, the engine behind CECP (``variant NAME``) against a random player."""
    r = run_match(variant, "random", f"xboard:{engine_command('xboard')}", 1, movetime_ms=30, seed=5)
    assert (r.wins, r.draws, r.losses) == (0, 0, 1)


def test_a_ten_rank_definition_through_match(recwarn):
    """``match`` against an external CECP engine on a board 10 ranks high (Xiangqi's): moves go both
    ways with XBoard's rank numbers, counted from 0."""
    path = Path(__file__).with_name("definitions") / "xiangqi.txt"
    r = run_match(str(path), "random", f"xboard:{engine_command('xboard')} {shlex.quote(str(path))}", 2,
                  movetime_ms=30, seed=5)
    assert (r.wins, r.draws, r.losses) == (0, 0, 2)


def test_engine_defined_variant_commands():
    v = builtin("crossroads")
    assert piece_to_char(v) == "PNBRQ.....L..HD..............ZKpnbrq.....l..hd..............zk"
    lines = setup_commands(v, Board(v).fen())
    assert lines[0] == ("setup (PNBRQ.....L..HD..............ZKpnbrq.....l..hd..............zk) 9x9+0_fairy "
                        "rnbqkqbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKQBNR w KQkq - 0 1")
    assert "piece P& ifmnDfmWfcF" in lines  # Crossroads has no en passant: the 'e' capture is left out
    assert "piece K& KisO3" in lines
    assert xboard_betza("FAGAY") == "FAGjjjF" and xboard_betza("WDHWX") == "WDHjjjW" and xboard_betza("fNX") == ""
    assert piece_to_char(builtin("polymorph")) == "PNBRQAGKpnbrqagk"


def test_castling_and_pawns_keep_xboard_types():
    """Where captures go to no hand, every type keeps XBoard's type of its name and the holdings
    reach to the last droppable one, so the pawn stays XBoard's pawn and ``KQkq`` finds XBoard's
    rooks; a partner of another type is named by its file, which XBoard reads only for White."""
    demo_text = (Path(__file__).parent / "definitions" / "id-demo.txt").read_text()
    demo = load(demo_text, "mcdemo")
    assert [t.letter for t in holdings_types(demo)] == ["P", "N", "B", "R", "Q", "L"]
    setup = setup_commands(demo, Board(demo).fen())[0]
    assert setup.startswith("setup (PNBRQL.ACKpnbrql.ack) 10x8+6_bughouse ") and " w KQkq - " in setup
    swapped = load(demo_text.replace("Rook::::a1,j1", "Rook::::h1").replace("Chancellor::::h1", "Chancellor::::a1,j1"),
                   "swapped")
    assert " w JA - " in setup_commands(swapped, Board(swapped).fen())[0]
    moved = Board(demo, fen="r4k3r/10/10/10/10/10/10/R4K3R w Qk - 0 1")
    assert xboard_castling(demo, moved.fen()).split()[2] == "Qk"


@pytest.fixture
def crazyhouse_file(tmp_path):
    path = tmp_path / "mczh.txt"
    path.write_text(CRAZYHOUSE.format(hand=":1"))
    return path


def test_hands_are_xboard_holdings():
    """The types that can be in a hand come first in the piece table (XBoard numbers its holdings
    so), the board size counts them, and hands that only feed promotions stay out."""
    mini = load(MINISHOGI, "mini")
    assert [t.letter for t in hand_types(mini)] == ["P", "S", "B", "R", "G"]  # promoted types never reach a hand
    # the promoted types are XBoard's shogi-style ones (^P: promoted partner of P), after the hand types
    assert piece_to_char(mini) == "P.BR.SG..^P.^S...^B^RKp.br.sg..^p.^s...^b^rk"
    lines = setup_commands(mini, Board(mini, fen="rbsgk/4t/5/P4/KGSBR[] w - - 0 1").fen())
    assert lines[0].endswith(" 5x5+5_fairy rbsgk/4+p/5/P4/KGSBR[] w - - 0 1") and "piece +P& WfF" in lines
    gross = load((Path(__file__).parent / "definitions" / "gross-chess.txt").read_text(), "gross")
    assert hand_types(gross) == [] and "[" in Board(gross).fen()
    setup = setup_commands(gross, Board(gross).fen())[0]
    assert "+0_fairy" in setup and "[" not in setup


def test_drops_through_the_protocol(crazyhouse_file):
    """Drops in and out as ``N@e4``; lifting a piece from a holdings slot marks its drop squares."""
    s = Session(main)
    s.send("protover 2", f"option VariantFile={crazyhouse_file}")
    assert s.expect("setup (").endswith(" 8x8+5_fairy rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Nn] w KQkq - 0 1")
    s.send("new", "force", "lift j2")  # White's holdings, slot 1: the knight
    assert s.expect("highlight ") == "highlight 8/8/yyyyyyyy/yyyyyyyy/yyyyyyyy/yyyyyyyy/8/8"
    s.send("usermove N@e4", "lift _7")  # Black's knight slot, now Black to move
    assert s.expect("highlight ") == "highlight 8/8/yyyyyyyy/yyyyyyyy/yyyy1yyy/yyyyyyyy/8/8"
    s.send("usermove N@e4", "setboard 7k/6pp/8/8/8/8/8/6K1[Q] w - - 0 1", "sd 2", "go")
    assert re.fullmatch(r"move Q@[a-f]8", s.expect("move "))  # back-rank mate by a dropped queen
    assert s.expect("1-0") == "1-0 {White wins by checkmate (1-0)}"
    s.close()


# A small shogi-like game whose rooks and tokins meet at once: captured promoted pieces are demoted
# into the capturer's hand (holdingsType=-1), which XBoard must do the same way.
TOKINS = """files=5 ranks=5 promoZone=1 promoOffset=3 maxPromote=2 promoChoice=+ holdingsType=-1 symmetry=rotate
royal=K
pawn:P:fW:pawn:c2
rook:R:R:rook:a2
king:K:K:king:a1
tokin:T:WfF:tokin:b3
dragon:D:RF:dragon:
"""


@pytest.fixture
def minishogi_file(tmp_path):
    path = tmp_path / "mcmini.txt"
    path.write_text(MINISHOGI)
    return path


def test_shogi_promotions_in_xboards_form(minishogi_file):
    """A shogi-style promotion goes both ways as ``a4a5+`` and a promoted piece as ``+P`` in
    position text, as XBoard writes them (so XBoard demotes it when it is captured)."""
    s = Session(lambda inp, out: main(inp, out, str(minishogi_file)))
    s.send("protover 2", "new", "force", "setboard 2k2/P4/5/5/4K[] w - - 0 1", "sd 3", "go")
    assert s.expect("move ") == "move a4a5+"  # the pawn becomes a tokin
    s.send("force", "setboard 2k2/+P4/5/5/4K[] b - - 0 1", "usermove c5b4", "ping 1")
    assert s.expect("Illegal move") and s.expect("pong 1")  # the tokin on a4 guards b4; a pawn would not
    seen = len(s.seen)
    s.send("setboard 2k2/P4/5/5/4K[] w - - 0 1", "usermove a4a5+", "usermove c5b4", "ping 2")
    s.expect("pong 2")
    assert not [line for line in s.seen[seen:] if line.startswith("Illegal")]  # from a5 the tokin does not
    s.close()


def test_morphs_are_written_as_promotions():
    board = Board("crossroads")
    move = board.parse_uci("f2f3")
    assert move_text(move) == "f2f3z"
    assert parse_move(board, "f2f3z") == move and parse_move(board, "f2f3") == move
    with pytest.raises(ValueError):
        parse_move(board, "f2f3q")  # a pawn arriving on f3 becomes an amazon, nothing else
    poly = Board("polymorph")
    assert move_text(poly.parse_uci("c1c1n")) == "c1c1n"  # a transformation keeps its own text


def test_session():
    s = Session(main)
    s.send("xboard", "protover 2")
    features = s.expect("feature myname")
    assert 'variants="normal,' in features
    assert ",ai-wok," in features and ",fischerandom," in features and ",crossroads," in features
    assert "setboard=1" in features and "ping=1" in features
    s.expect("feature done=1")
    s.send("new", "variant crossroads")
    assert s.expect("setup (").endswith("9x9+0_fairy rnbqkqbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKQBNR w KQkq - 0 1")
    s.send("force", "lift f2")
    marks = s.expect("highlight ").split()[1]
    assert marks == "9/9/9/9/9/5b3/5b3/9/9"  # f3 and f4: the pawn morphs there (blue: a forced promotion)
    s.send("put f3")
    assert s.expect("choice") == "choice Z"
    s.send("usermove f2f3z", "usermove e7e5", "ping 7")
    assert s.expect("Illegal move") and s.expect("pong 7")
    s.send("usermove e8e7", "undo", "usermove e8e6", "sd 2", "post", "go")
    thinking = s.expect("1 ")
    assert re.fullmatch(r"1 -?\d+ \d+ \d+( [a-i]\d[a-i]\d[a-z]?)+", thinking)
    move = s.expect("move ").split()[1]
    board = Board("crossroads")
    for m in ("f2f3", "e8e6"):
        board.push_uci(m)
    assert move_text(parse_move(board, move)) == move
    s.send("remove", "setboard 4k4/9/9/9/9/9/9/9/R3K4 w - - 0 1", "frobnicate", "ping 8")
    assert s.expect("Error (unknown command): frobnicate") and s.expect("pong 8")
    s.close()


def test_no_transformation_from_the_engine():
    """XBoard refuses a move that stays on its square: in Polymorph the engine never plays one, but
    takes the opponent's (from a driver other than XBoard)."""
    s = Session(main)
    s.send("protover 2", "new", "variant polymorph", "force", "usermove b1b1a", "usermove c8c8a", "sd 2")
    for _ in range(4):
        s.send("go")
        move = s.expect("move ").split()[1]
        assert move[:2] != move[2:4]
        s.send("force", "usermove a7a6" if _ % 2 == 0 else "usermove a6a5")
    s.close()


def test_time_controls():
    engine = XboardEngine(Output(io.StringIO()))
    for line in ("level 40 5:30 2", "time 30000"):  # 300 s left, 40 moves per session, 2 s increment
        engine.handle(line)
    assert engine._limits() == {"movetime_ms": 300_000 // 40 + 1600 - 50}
    engine.handle("st 3")
    assert engine._limits() == {"movetime_ms": 2900}
    engine.handle("sd 4")
    assert engine._limits() == {"depth": 4, "movetime_ms": 2900}
    engine.handle("st 0.2")  # python-chess sends fractions of a second
    assert engine._limits() == {"depth": 4, "movetime_ms": 150}
    for bad in ("st", "st soon", "st -1", "st 0", "st nan"):
        with pytest.raises(ProtocolError, match="st needs"):
            engine.cmd_st(bad.split()[1:])


def test_python_chess_time_limit():
    """python-chess's CECP client with ``Limit(time=0.2)`` sends ``st 0.2``: the engine answers with moves."""
    board = chess.Board()
    with chess.engine.SimpleEngine.popen_xboard([*ENGINE, "xboard"], timeout=120) as engine:
        for _ in range(4):
            move = engine.play(board, chess.engine.Limit(time=0.2)).move
            assert move in board.legal_moves
            board.push(move)


def test_game_end_is_claimed():
    s = Session(main)
    s.send("protover 2", "new", "force", "setboard 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "sd 3", "go")
    assert s.expect("move ") == "move a1a8"
    assert s.expect("1-0") == "1-0 {White wins by checkmate (1-0)}"
    s.close()


def test_analyze_mode():
    s = Session(main)
    s.send("protover 2", "new", "variant morphomania", "force", "analyze")
    assert re.fullmatch(r"2 -?\d+ \d+ \d+ \S+ \S+", s.expect("2 "))  # no 'post' needed while analysing
    s.send("usermove e2e3")
    s.expect("1 ")
    s.send("exit", "ping 3")
    s.expect("pong 3")
    assert not s.quiet(0.5)  # the analysis has stopped and no move is played
    s.close()


def _xboard() -> str | None:
    return shutil.which("xboard", path=os.environ.get("PATH", "") + os.pathsep + "/usr/games")


needs_xboard = pytest.mark.skipif(not (_xboard() and shutil.which("xvfb-run")),
                                  reason="XBoard and xvfb-run are not installed (apt-get install xboard xvfb)")


def sorted_hands(fen: str) -> list[str]:
    """The placement and side to move of a position text, the pieces in hand sorted (XBoard lists them
    in its own order)."""
    return re.sub(r"\[([^]]*)\]", lambda m: "[" + "".join(sorted(m.group(1))) + "]", fen).split()[:2]


def xboard_game(tmp_path, engine: str, variant: str) -> tuple[str, list[str], str, str]:
    """XBoard (under a virtual X server) runs one game between two copies of ``engine``: its debug
    log, the moves the engines sent, the saved game and the last position XBoard saved."""
    debug, pgn, end = tmp_path / "xboard.debug", tmp_path / "game.pgn", tmp_path / "end.fen"
    subprocess.run(["xvfb-run", "-a", _xboard(), "-fcp", engine, "-scp", engine, "-variant", variant,
                    "-matchGames", "1", "-searchDepth", "1", "-tc", "5", "-testLegality", "false",
                    "-saveGameFile", str(pgn), "-savePositionFile", str(end), "-debug", "-nameOfDebugFile",
                    str(debug), "-xexit"], cwd=tmp_path, timeout=240, capture_output=True, check=False)
    log = debug.read_text(errors="replace")
    return log, re.findall(r"<(?:first|second) *: move (\S+)", log), pgn.read_text(), end.read_text().strip()


@needs_xboard
def test_xboard_plays_a_crossroads_game(tmp_path):
    """XBoard runs a whole Crossroads game between two morphchess engines.

    Its debug log holds every move the engines made; they replay legally here and end as claimed."""
    log, moves, game, _ = xboard_game(tmp_path, engine_command("xboard"), "crossroads")
    assert "setup (PNBRQ.....L..HD" in log and "piece K& KisO3" in log
    board = Board("crossroads")
    for text in moves:
        board.push(parse_move(board, text))
    outcome = board.outcome()
    assert outcome is not None and len(board.move_stack) > 4
    assert f'[Result "{outcome.result()}"]' in game and "=Z" in game  # morphs shown as promotions


@needs_xboard
@pytest.mark.parametrize("name", ["mczh", "mcxiangqi", "mcmini", "mctokins", "mcdemo"])
def test_xboard_plays_a_definition_file(tmp_path, crazyhouse_file, minishogi_file, name):
    """XBoard runs a game of a definition file (``morphchess xboard FILE``, the variant selected by
    its name, one XBoard does not know) between two morphchess engines: a crazyhouse definition,
    whose holdings XBoard takes from the setup, the collected Xiangqi, whose ranks XBoard numbers
    from 0, shogi-like definitions, whose promoted types are XBoard's shogi-style ones, and the ID
    demonstration, whose Lions in hand are dropped while captured pieces go to no hand.  The
    engines' moves replay legally to the end of the game (a claim, or XBoard's adjudication), and the
    position XBoard saves at the end, hands included, is morphchess's."""
    files = {"mczh": crazyhouse_file, "mcmini": minishogi_file, "mcxiangqi": tmp_path / "mcxiangqi.txt",
             "mctokins": tmp_path / "mctokins.txt", "mcdemo": tmp_path / "mcdemo.txt"}
    files["mcxiangqi"].write_text((Path(__file__).parent / "definitions" / "xiangqi.txt").read_text())
    files["mcdemo"].write_text((Path(__file__).parent / "definitions" / "id-demo.txt").read_text())
    files["mctokins"].write_text(TOKINS)
    path = files[name]
    log, moves, _, end = xboard_game(tmp_path, f"{engine_command('xboard')} {shlex.quote(str(path))}", name)
    board = Board(load(path.read_text(), name))
    seen = [board.fen()]
    for text in moves:
        board.push(parse_move(board, shift_ranks(text, -rank_shift(board.variant))))
        seen.append(board.fen())
    # XBoard's own board, hands included (in any order), is ours at the end (or one move before, when it adjudicates)
    assert sorted_hands(end.replace("[-]", "[]")) in [sorted_hands(xboard_fen(board.variant, fen)) for fen in seen[-2:]]
    assert len(moves) > 10 and "Illegal move" not in log
    assert re.search(r">first : result (1-0|0-1|1/2-1/2)", log)
    signs = {"mczh": "8x8+5_fairy" in log and any("@" in m for m in moves),
             "mcxiangqi": any(re.fullmatch(r"[a-i]0[a-i]\d+", m) for m in moves),  # from Red's back rank, 0
             "mcmini": "setup (P.BR.SG..^P.^S...^B^RK" in log and "piece +P& WfF" in log,
             "mctokins": any("@" in m for m in moves),  # captures dropped (a dragon only if the game takes one)
             "mcdemo": "(PNBRQL.ACK" in log and "10x8+6_bughouse" in log and "w KQkq" in log  # captures to no hand
                       and any(m.startswith("L@") for m in moves)}
    assert signs[name]


def test_variants_under_fairy_stockfish_names():
    """``variant capablanca`` and ``variant fischerandom`` (Fairy-Stockfish's and XBoard's names)
    select the library's games and define them to XBoard."""
    s = Session(main)
    s.send("xboard", "protover 2")
    s.expect("feature done=1")
    s.send("variant capablanca")
    assert s.expect("setup").split()[2].startswith("10x8")
    s.send("variant fischerandom", "setboard 1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1", "go")
    assert s.expect("move ")
    s.close()
