"""The ``morphchess`` command line: output forms, definition files, and bad input."""

from __future__ import annotations

import subprocess
import sys

import pytest

from morphchess import builtin
from morphchess.cli import main

from common import DEGENS


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def last_line(text: str) -> str:
    return text.strip().splitlines()[-1]


def test_variants_lists_the_builtins(capsys):
    code, out, _ = run(capsys, "variants")
    assert code == 0
    names = {line.split()[0] for line in out.splitlines()}
    assert names >= {"chess", "polymorph", *DEGENS}


@pytest.mark.parametrize("name", ["chess", "polymorph", *DEGENS])
def test_show(capsys, name):
    code, out, _ = run(capsys, "show", name)
    assert code == 0
    v = builtin(name)
    for t in v.types:
        assert t.betza in out and t.name in out
    if name == "crossroads":
        assert " 5 L Q B N R N B Q L" in out and " 1 R N B Q K Q B N R" in out


def test_show_says_holes_hands_and_warnings(capsys, tmp_path):
    path = tmp_path / "tiny.txt"
    path.write_text("files=4 ranks=4 holdingsType=-2 colour=blue\nhole::::a1\n"
                    "rook:R:R::c1:1\nking:K:K::d1\n")
    code, out, err = run(capsys, "show", str(path))
    assert code == 0 and "colour=blue" in err
    lines = out.splitlines()
    assert lines[0] == "tiny: 4x4, 2 holes (#)" and lines[1] == " 4 # . r k" and lines[4] == " 1 # . R K"
    assert "[Rr]" in lines[6]
    assert "Rules: stalemate draws, captured pieces go to the capturer's hand, pieces in hand may be dropped" in lines
    assert any(line.startswith("Warning: ") and "colour=blue" in line for line in lines)


def test_perft_last_line_is_the_count(capsys):
    code, out, _ = run(capsys, "perft", "chess", "3")
    assert code == 0 and last_line(out) == "8902"


def test_perft_depth_0_counts_the_position(capsys):
    code, out, _ = run(capsys, "perft", "crossroads", "0")
    assert code == 0 and last_line(out) == "1"


def test_perft_divide(capsys):
    code, out, _ = run(capsys, "perft", "chess", "2", "--divide")
    lines = out.strip().splitlines()
    assert code == 0 and lines[-1] == "400"
    counts = dict(line.split(": ") for line in lines[:-1])
    assert len(counts) == 20 and set(counts.values()) == {"20"} and "g1f3" in counts


def test_perft_with_moves_and_fen(capsys):
    _, out, _ = run(capsys, "perft", "chess", "1", "--moves", "e2e4 e7e5 g1f3")
    assert last_line(out) == "29"  # Black after 1.e4 e5 2.Nf3: 14 pawn, 5 knight, 5 bishop, 4 queen, 1 king
    fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    _, out2, _ = run(capsys, "perft", "chess", "2", "--fen", fen)
    _, out3, _ = run(capsys, "perft", "chess", "2", "--moves", "e2e4 e7e5 g1f3")
    assert last_line(out2) == last_line(out3)


def test_perft_polymorph_setup(capsys):
    _, out, _ = run(capsys, "perft", "polymorph", "1", "--setup", "knights")
    assert last_line(out) == "32"


@pytest.mark.slow
@pytest.mark.parametrize("name", DEGENS)
def test_seed_definition_file_gives_the_builtin_perft(capsys, tmp_path, name):
    """The page's raw definition string in a file, passed as VARIANT, plays the same game."""
    raw = next(x for x in builtin(name).text.splitlines() if x.startswith("files="))
    path = tmp_path / f"{name}.txt"
    path.write_text(raw + "\n", encoding="utf-8")
    _, by_file, _ = run(capsys, "perft", str(path), "3")
    _, by_name, _ = run(capsys, "perft", name, "3")
    assert last_line(by_file) == last_line(by_name)
    _, by_file, _ = run(capsys, "perft", str(path), "2", "--moves", "e2e3 e8e7")
    _, by_name, _ = run(capsys, "perft", name, "2", "--moves", "e2e3 e8e7")
    assert last_line(by_file) == last_line(by_name)


def test_definition_file_one_item_per_line(capsys, tmp_path):
    path = tmp_path / "mini.txt"
    path.write_text("files=5\nranks=5\npromoChoice=Q\npawn::::a2-e2\nqueen::::d1\nking::::c1\n", encoding="utf-8")
    code, out, _ = run(capsys, "perft", str(path), "1")
    # five single pawn steps (Black's pawns on rank 4 block the double steps), Qd1-e1, Kc1-b1
    assert code == 0 and last_line(out) == "7"


def test_definition_file_with_windows_line_ends(capsys, tmp_path):
    raw = next(x for x in builtin("crossroads").text.splitlines() if x.startswith("files="))
    path = tmp_path / "crlf.txt"
    path.write_bytes(raw.replace(" king:K:", "\r\nking:K:").encode() + b"\r\n")
    _, out, _ = run(capsys, "perft", str(path), "2")
    assert last_line(out) == "484"


def test_definition_file_with_byte_order_mark(capsys, tmp_path):
    raw = next(x for x in builtin("crossroads").text.splitlines() if x.startswith("files="))
    path = tmp_path / "bom.txt"
    path.write_text(raw + "\n", encoding="utf-8-sig")
    code, out, _ = run(capsys, "perft", str(path), "2")
    assert code == 0 and last_line(out) == "484"


def test_unknown_key_in_a_file_warns_but_runs(capsys, tmp_path):
    path = tmp_path / "odd.txt"
    path.write_text("frobnicate=1\nknight:N:N::b1\nking:K:K::e1\n", encoding="utf-8")
    code, out, err = run(capsys, "perft", str(path), "1")
    assert code == 0 and "frobnicate" in err and last_line(out).isdigit()


# -- bad input: exit status 2 and one line naming the problem ---------------------------------


@pytest.mark.parametrize("argv,words", [
    (["perft", "nosuch", "1"], ["nosuch"]),
    (["show", "nosuch"], ["nosuch"]),
    (["perft", "chess", "2", "--moves", "e2e5"], ["e2e5", "move 1"]),
    (["perft", "chess", "2", "--moves", "e2e4 e2e4"], ["e2e4", "move 1..."]),
    (["perft", "chess", "2", "--moves", "e2"], ["'e2'"]),
    (["perft", "chess", "2", "--moves", "z9z8"], ["z9z8"]),
    (["perft", "chess", "1", "--fen", "xx"], ["board"]),
    (["perft", "chess", "1", "--fen", "8/8/8/8/8/8/8/8 q - - 0 1"], ["'q'"]),
    (["perft", "chess", "1", "--fen", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "--setup", "knights"], ["--fen"]),
    (["perft", "polymorph", "1", "--setup", "nope"], ["nope"]),
    (["perft", "chess", "1", "--moves", "e7e8q"], ["e7e8q"]),
])
def test_bad_input(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("morphchess: error: ")
    for w in words:
        assert w in lines[0]


def test_bad_definition_files(capsys, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("files=9 knight:N:N%::b1 king:K:K::e1", encoding="utf-8")
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe\x00files=9")
    for path, word in ((bad, "knight"), (binary, str(binary)), (tmp_path, str(tmp_path))):
        code, _, err = run(capsys, "perft", str(path), "1")
        assert code == 2 and len(err.strip().splitlines()) == 1 and word in err


def test_real_process_exit_status(tmp_path):
    """The installed entry point: one line on stderr and status 2, no traceback."""
    bad = tmp_path / "bad.txt"
    bad.write_text("files=9 ranks=9 knight:N:N::b1 morph=N/N king:K:K::e1", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "morphchess.cli", "perft", str(bad), "1"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip().count("\n") == 0 and "knight" in proc.stderr and "morph" in proc.stderr
    ok = subprocess.run([sys.executable, "-m", "morphchess.cli", "perft", "chess", "2"],
                        capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0 and ok.stdout.strip().splitlines()[-1] == "400"


@pytest.mark.parametrize("depth", ["x", "-1", "21", "\u0661", "\uff11", "1_0", " 1"])
def test_bad_depth_is_one_line(capsys, depth):
    """Only ASCII digits are a number: int() alone would count ``perft chess ١`` (an Arabic-Indic one)."""
    assert main(["perft", "chess", depth]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "argument depth" in err[0]
