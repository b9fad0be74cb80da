"""XBetza's unload ``u``: the piece a leg takes reappears where that leg started (``ucR`` swaps
with an enemy, ``udR`` with a friend, ``afudQ`` puts the friend where the first leg ended).

Destination sets and positions after the move are worked out by hand; random games of a variant
full of unloading pieces check make/unmake, check detection and every record form.
"""

from __future__ import annotations

import random

import pytest

from morphchess import BetzaError, Board, gamecourier, load, pgn
from morphchess.betza import parse
from morphchess.move import Kind
from morphchess.notation import from_fen, to_fen
from test_xbetza_moves import checks, fen, position

from common import assert_make_unmake_exact

SWAPS = """
files=8 ranks=8 promoZone=1 promoChoice=QS
pawn:P:ifmnDfmWfceF:p:a2-h2
rook:R:R:r:a1,h1
knight:N:mafsucW:n:b1,g1
swapper:S:mBucB:s:c1,f1
queen:Q:QafudQ:q:d1
king:K:KisO2udK:k:e1
"""


def unloads(betza: str, extra: str = "") -> set:
    """``{(target, unload square)}`` of the unload moves of the piece on e5, plus ``{target}``
    for its other moves."""
    v, pos = position(betza, extra)
    out: set = set()
    for m in pos.legal_moves():
        if m.origin == v.square("e5"):
            name = v.square_name(m.target)
            out.add((name, v.square_name(m.extra[0])) if m.kind is Kind.UNLOAD else name)
    return out


def test_ucR_swaps_with_the_first_enemy_of_each_line_only():
    assert unloads("ucR", "e8=p e3=P b5=p a5=p h5=P") == {("e8", "e5"), ("b5", "e5")}


def test_udR_swaps_with_a_friend():
    assert unloads("udR", "e8=p e3=P b5=p") == {("e3", "e5")}


def test_uR_moves_or_swaps():
    squares = {"e6", "e7", "e4", "e3", "e2", "e1", "d5", "c5", "b5", "a5", "f5", "g5", "h5", "i5"}
    assert unloads("uR", "e8=p") == squares | {("e8", "e5")}


def test_afudQ_puts_the_friend_where_the_first_leg_ended():
    assert unloads("afudQ", "e8=P e3=P h8=p") == {("e8", "e6"), ("e8", "e7"), ("e3", "e4")}


def test_maucK_pushes_an_enemy_back_onto_the_square_passed():
    assert unloads("maucK", "e7=p") == {("e7", "d6"), ("e7", "e6"), ("e7", "f6")}


def test_the_position_after_a_swap():
    v, pos = position("ucR", "e8=p")
    (m,) = [m for m in pos.legal_moves() if m.kind is Kind.UNLOAD]
    pos.make(m)
    after = to_fen(from_fen(v, fen({"a2": "K", "i8": "k", "e8": "X", "e5": "p"}, "b")))
    assert to_fen(pos) == after.replace(" 0 1", " 1 1")  # nothing left the board: the clock runs on
    pos.unmake()
    assert to_fen(pos) == to_fen(from_fen(v, fen({"a2": "K", "i8": "k", "e8": "p", "e5": "X"})))


def test_the_friend_unloaded_by_afudQ_stands_on_the_first_legs_end():
    v, pos = position("afudQ", "e8=P")
    m = next(m for m in pos.legal_moves() if m.kind is Kind.UNLOAD and m.extra == (v.square("e7"),))
    pos.make(m)
    after = to_fen(from_fen(v, fen({"a2": "K", "i8": "k", "e8": "X", "e7": "P"}, "b")))
    assert to_fen(pos).split()[0] == after.split()[0]


def test_a_swap_with_an_enemy_king_is_an_attack():
    assert checks("ucR", "a2=K e1=X e9=k")
    assert not checks("ucR", "a2=K e1=X e9=k e5=p")
    assert not checks("udR", "a2=K e1=X e9=k")


def test_a_king_may_not_swap_onto_an_attacked_square():
    """The king (``udK``) may swap with the swapper on f1, not with the knight on d2, which the rook
    on d8 attacks."""
    b = Board(load(SWAPS, "swaps"), fen="k2r4/8/8/8/8/8/3N4/4KS2 w - - 0 1")
    assert {m.uci() for m in b.legal_moves if m.raw.kind is Kind.UNLOAD} == {"e1e1,e1f1"}


def test_the_piece_unloaded_may_give_check():
    b = Board(load(SWAPS, "swaps"), fen="8/8/8/8/3R4/8/7k/3QK3 w - - 0 1")
    move = b.parse_uci("d1d2,d2d4")
    assert b.san(move) == "Qd1xd4>d2+"
    b.push(move)
    assert b.is_check() and b.fen().split()[0] == "8/8/8/8/3Q4/8/3R3k/4K3"


def test_the_kings_swap_with_a_friend_moves_the_royal_square():
    b = Board(load(SWAPS, "swaps"), fen="4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1")
    move = b.parse_uci("e1e1,e1d2")
    b.push(move)
    assert b.fen().split()[0] == "4k3/8/8/8/8/8/3K4/4Q3"
    assert b.position.royals[0] == (b.variant.square("d2"),)
    b.pop()
    assert b.fen().startswith("4k3/8/8/8/8/8/3Q4/4K3 w")


def test_texts_of_an_unload():
    b = Board(load(SWAPS, "swaps"), fen="4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1")
    move = b.parse_uci("e1e1,e1d2")
    assert move.uci() == "e1e1,e1d2"
    assert b.san(move) == "Ke1xd2>e1+"  # the queen, now on e1, checks the king on e8
    assert b.parse_san("Ke1xd2>e1+") == move == b.parse_san("Ke1:d2>e1") == b.parse_san("e1d2>e1")
    assert gamecourier.write_move(b, move) == "K e1-d2; Q-e1"


@pytest.mark.parametrize("text", ["ucR", "udR", "afudQ", "maucK", "mafsucW", "uR", "KisO2udK"])
def test_unloads_are_read(text):
    assert parse(text).paths


@pytest.mark.parametrize("text", ["umR", "upR", "ugB", "uafcR", "cafmauR", "uzR", "ukR", "uucR"])
def test_other_unloads_are_refused(text):
    with pytest.raises(BetzaError, match="'u'"):
        parse(text)


def swap_games(games: int, seed: str):
    """Boards of random games of ``SWAPS`` (each position before its random move)."""
    v = load(SWAPS, "swaps")
    rng = random.Random(seed)
    for _game in range(games):
        b = Board(v)
        for _ply in range(rng.randrange(30, 90)):
            if b.outcome() is not None:
                break
            yield b
            b.push(rng.choice(list(b.legal_moves)))


def test_random_games_make_unmake_exact_and_checks_agree():
    unloaded = 0
    for b in swap_games(6, "unload make"):
        pos = b.position
        assert_make_unmake_exact(pos)
        legal = pos.legal_moves()
        unloaded += sum(m.kind is Kind.UNLOAD for m in legal)
        assert not any(m.kind is Kind.UNLOAD for m in pos.captures())  # nothing leaves the board
        assert {m for m in legal if pos.capture_square(m) is not None} <= set(pos.captures())
        for m in legal:  # no legal move leaves the own king attacked, whatever it displaced
            pos.make(m)
            assert not any(pos.attacked(r, pos.turn) for r in pos.royals[pos.turn ^ 1])
            pos.unmake()
    assert unloaded > 50


def test_random_games_texts_round_trip():
    seen = 0
    for b in swap_games(4, "unload texts"):
        for move in b.legal_moves:
            assert b.parse_uci(move.uci()) == move
            assert b.parse_san(b.san(move)) == move
            seen += move.raw.kind is Kind.UNLOAD
    assert seen > 20


def test_random_games_survive_pgn_and_game_courier():
    v = load(SWAPS, "swaps")
    rng = random.Random("unload records")
    played = 0
    for _game in range(4):
        b = Board(v)
        while len(b.move_stack) < 80 and b.outcome() is None:
            unload = [m for m in b.legal_moves if m.raw.kind is Kind.UNLOAD]
            b.push(rng.choice(unload if unload and rng.random() < 0.5 else list(b.legal_moves)))
        played += sum(m.raw.kind is Kind.UNLOAD for m in b.move_stack)
        coords = [m.uci() for m in b.move_stack]
        for replay in (pgn.read(pgn.write(b), v).board, gamecourier.read(gamecourier.write(b), v)):
            assert [m.uci() for m in replay.move_stack] == coords
            assert replay.fen() == b.fen()
    assert played > 10
