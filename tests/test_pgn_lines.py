"""PGN with variations (pgn.write_lines, the analysis board's export), read back by python-chess."""

from __future__ import annotations

import io

import pytest

from morphchess import pgn
from morphchess.board import Board
from morphchess.variants import builtin

chess_pgn = pytest.importorskip("chess.pgn")


def line(board: Board, *moves) -> pgn.Line:
    """A line from SAN words; a tuple (san, [variation, ...]) gives a move its variations."""
    out: pgn.Line = []
    b = board.copy()
    for item in moves:
        san, variations = item if isinstance(item, tuple) else (item, [])
        out.append((b.parse_san(san), [line(b, *v) for v in variations]))
        b.push(out[-1][0])
    return out


def tree(node) -> list:
    """python-chess's reading of a game as nested [san, [variations...]] of the main line."""
    out = []
    while node.variations:
        main, *others = node.variations
        out.append([node.board().san(main.move), [tree_from(node, v) for v in others]])
        node = main
    return out


def tree_from(parent, child) -> list:
    return [[parent.board().san(child.move), []]] + tree(child)


def test_variations_nested_and_after_blacks_move_read_back_by_python_chess():
    start = Board(builtin("chess"))
    main = line(start, ("e4", [["d4", ("d5", [["Nf6", "c4"]])]]), "e5", ("Nf3", [["f4", "exf4"]]), "Nc6")
    text = pgn.write_lines(start, main, {"White": "Ann"})
    assert "1. e4 (1. d4 d5 (1... Nf6 2. c4)) 1... e5 2. Nf3 (2. f4 exf4) 2... Nc6 *" in " ".join(text.split())
    game = chess_pgn.read_game(io.StringIO(text))
    assert game.headers["White"] == "Ann"
    assert tree(game) == [
        ["e4", [[["d4", []], ["d5", [[["Nf6", []], ["c4", []]]]]]]],
        ["e5", []],
        ["Nf3", [[["f4", []], ["exf4", []]]]],
        ["Nc6", []],
    ]
    assert pgn.read(text).board.move_stack == [m for m, _ in main]  # our reader keeps the main line


def test_a_line_without_variations_is_what_write_gives():
    start = Board(builtin("chess"))
    main = line(start, "e4", "e5", "Nf3")
    board = start.copy()
    for move, _ in main:
        board.push(move)
    assert pgn.write_lines(start, main) == pgn.write(board)
