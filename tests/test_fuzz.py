"""Fuzz and property tests of every reader (Hypothesis): random and mutated input never raises anything
but an InputError, and a refused input leaves the board as it was.

Inputs are mutations (cuts, insertions, repeats, swapped words) of valid text from random games of every
built-in variant and start array, and of a variant from definition text: position text, coordinate and
SAN moves, PGN, Game Courier logs, coordinate lists and command lines.  ``MORPHCHESS_FUZZ=N`` runs N
random examples a test instead of the fixed, derandomised CI set.
"""

from __future__ import annotations

import contextlib
import io
import os
import random
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from morphchess import Board, gamecourier, load, pgn
from morphchess.board import RecordError
from morphchess.cli import main
from morphchess.errors import InputError
from morphchess.notation import from_fen, to_fen
from morphchess.play import parse_move
from morphchess.records import read_record
from morphchess.variant import Variant

from common import SETUPS

_RUNS = int(os.environ.get("MORPHCHESS_FUZZ", "0"))
fuzz = settings(max_examples=_RUNS or 60, deadline=None, derandomize=not _RUNS, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
LONG_MESSAGE = 400  # an error line quotes at most short excerpts


def _game(variant: str | Variant, setup: str, seed: int) -> Board:
    board = Board(variant, setup=setup)
    rng = random.Random(f"{board.variant.name}/{setup}/{seed}")
    for _ in range(rng.randrange(4, 70)):
        if board.outcome() is not None:
            break
        board.push(rng.choice(list(board.legal_moves)))
    return board


# a variant from definition text too: its PGN carries the definition in [VariantDefinition] tags
_MINI = load("files=5 ranks=5 royal=K promoZone=1 promoChoice=RN\npawn:P:fW:pawn:a2-e2\nrook:R:R:rook:a1,e1\n"
             "knight:N:N:knight:b1,d1\nmorph=//BBBBB//\nbishop:B:B:bishop:\nking:K:K:king:c1", "mini")
GAMES = [_game(name, setup, seed) for name, setup in SETUPS for seed in range(2)] + [_game(_MINI, "standard", 1)]
_CHARS = st.sampled_from("abcdefghijklmnopqrstuvwxyzABCKNPQRZ0123456789 /-.;:[](){}\"*^+#=!?$%,@\n\\e")
_PIECES = st.text(_CHARS | st.characters(codec="utf-8"), max_size=10)


@st.composite
def mutated(draw, text: str) -> str:
    """``text`` with one to four cuts, insertions, repeats or swapped words."""
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 12)))
        op = draw(st.sampled_from(["cut", "insert", "replace", "repeat", "swap"]))
        if op == "cut":
            text = text[:i] + text[j:]
        elif op == "insert":
            text = text[:i] + draw(_PIECES) + text[i:]
        elif op == "replace":
            text = text[:i] + draw(_PIECES) + text[j:]
        elif op == "repeat":
            text = text[:j] + text[i:j] + text[j:]
        else:
            words = text.split(" ")
            a, b = draw(st.integers(0, len(words) - 1)), draw(st.integers(0, len(words) - 1))
            words[a], words[b] = words[b], words[a]
            text = " ".join(words)
    return text


@st.composite
def mid_game(draw) -> Board:
    """A board somewhere in one of the random games."""
    game = draw(st.sampled_from(GAMES))
    board = game.root()
    for move in game.move_stack[:draw(st.integers(0, len(game.move_stack)))]:
        board.push(move)
    return board


def refused_cleanly(error: InputError) -> None:
    text = str(error)
    assert "\n" not in text and len(text) < LONG_MESSAGE, text


def kept_its_game(error: RecordError) -> None:
    """The board a RecordError holds is a game whose moves replay to it."""
    refused_cleanly(error)
    if error.board is not None:
        board = error.board.root()
        for move in error.board.move_stack:
            board.push(move)
        assert board.fen() == error.board.fen()


# -- position text ------------------------------------------------------------------------

@fuzz
@given(st.data())
def test_position_text(data):
    board = data.draw(mid_game())
    text = data.draw(mutated(board.fen()) | st.text(max_size=80))
    try:
        pos = from_fen(board.variant, text)
    except InputError as e:
        refused_cleanly(e)
        return
    fen = to_fen(pos)  # accepted text is read exactly: its own form reads back the same
    assert to_fen(from_fen(board.variant, fen)) == fen


# -- moves ------------------------------------------------------------------------------------

def _move_texts(board: Board, write) -> st.SearchStrategy[str]:
    legal = list(board.legal_moves)
    valid = [write(m) for m in legal[:30]] or ["e2e4"]
    return st.sampled_from(valid).flatmap(lambda t: st.just(t) | mutated(t)) | st.text(max_size=12)


def _push_or_keep(board: Board, push, text: str) -> None:
    fen, stack = board.fen(), list(board.move_stack)
    try:
        move = push(text)
    except InputError as e:
        refused_cleanly(e)
        assert (board.fen(), board.move_stack) == (fen, stack)
        return
    assert board.move_stack == stack + [move]


@fuzz
@given(st.data())
def test_coordinate_moves(data):
    board = data.draw(mid_game())
    _push_or_keep(board, board.push_uci, data.draw(_move_texts(board, lambda m: m.uci())))


@fuzz
@given(st.data())
def test_san_moves(data):
    board = data.draw(mid_game())
    _push_or_keep(board, board.push_san, data.draw(_move_texts(board, board.san)))


@fuzz
@given(st.data())
def test_terminal_moves(data):
    board = data.draw(mid_game())
    text = data.draw(_move_texts(board, lambda m: gamecourier.write_move(board, m)) | _move_texts(board, board.san))
    _push_or_keep(board, lambda t: board.push(parse_move(board, t)) or board.peek(), text)


# -- records ----------------------------------------------------------------------------------

def _record(text: str, **kwargs) -> None:
    try:
        record = read_record(text, **kwargs)
    except RecordError as e:
        kept_its_game(e)
    except InputError as e:
        refused_cleanly(e)
    else:
        assert record.board.fen() == record.board.copy().fen()


@fuzz
@given(st.data())
def test_pgn(data):
    game = data.draw(st.sampled_from(GAMES))
    _record(data.draw(mutated(pgn.write(game, {"Event": "fuzz"}))), form="pgn")


@fuzz
@given(st.data())
def test_game_courier_logs(data):
    game = data.draw(st.sampled_from(GAMES))
    text = data.draw(mutated(gamecourier.write(game)))
    _record(text, form="gc", variant=game.variant, setup=game.setup)


@fuzz
@given(st.data())
def test_coordinate_lists_and_guessed_forms(data):
    game = data.draw(st.sampled_from(GAMES))
    text = data.draw(mutated(" ".join(m.uci() for m in game.move_stack)) | st.text(max_size=60))
    _record(text, variant=game.variant, setup=game.setup)


# -- the command line -------------------------------------------------------------------------

def _run(argv: list[str], stdin: str = "") -> None:
    """Run the command line: status 0, or 2 with one error line; argparse's own refusals exit with 2."""
    out, err = io.StringIO(), io.StringIO()
    with mock.patch("sys.stdin", io.StringIO(stdin)), contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as e:
            code = e.code
    assert code in (0, 2), (argv, err.getvalue())
    if code == 2:
        lines = err.getvalue().strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("morphchess: error: "), (argv, lines)


_WORDS = st.text(_CHARS, max_size=12)


@fuzz
@given(st.data())
def test_command_line_positions(data):
    board = data.draw(mid_game())
    name = board.variant.name
    argv = [data.draw(st.sampled_from(["perft", "bestmove"])), data.draw(st.just(name) | mutated(name))]
    argv += ["1"] if argv[0] == "perft" else ["--depth", "1"]
    if data.draw(st.booleans()):
        argv += ["--fen", data.draw(st.just(board.fen()) | mutated(board.fen()))]
    if data.draw(st.booleans()):
        moves = " ".join(m.uci() for m in list(board.legal_moves)[:1])
        argv += ["--moves", data.draw(mutated(moves) if moves else _WORDS)]
    if data.draw(st.booleans()):
        argv += ["--setup", data.draw(st.sampled_from(sorted(board.variant.setups)) | _WORDS)]
    _run(argv)


@fuzz
@given(st.data())
def test_command_line_records(data):
    game = data.draw(st.sampled_from(GAMES))
    text = data.draw(st.sampled_from([pgn.write(game), gamecourier.write(game),
                                      " ".join(m.uci() for m in game.move_stack)]).flatmap(mutated))
    argv = ["replay", "-"] if data.draw(st.booleans()) else ["convert", "-", "--to",
                                                              data.draw(st.sampled_from(["pgn", "gc", "coord"]))]
    for option, values in (("--from", ["pgn", "gc", "coord"]), ("--variant", [game.variant.name]),
                           ("--setup", sorted(game.variant.setups))):
        if data.draw(st.booleans()):
            argv += [option, data.draw(st.sampled_from(values) | _WORDS)]
    _run(argv, text)


@fuzz
@given(st.lists(_WORDS | st.sampled_from(["perft", "show", "replay", "convert", "--fen", "--moves", "--setup",
                                          "--to", "--from", "--variant", "chess", "polymorph", "1", "-"]),
                max_size=8))
def test_command_line_words(argv):
    if argv and argv[0] in ("perft", "show", "replay", "convert"):
        argv = [w if not w.isdigit() else "1" for w in argv]  # no deep perft
        _run(argv, "e2e4")
