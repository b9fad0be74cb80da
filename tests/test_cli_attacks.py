"""A fresh attack on the command line (issue 19's "Done when"): nonsense arguments to the newer
subcommands get exit status 2 and one line, never a traceback.  What was tried and held is in
docs/security.md ("A fresh attack")."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from morphchess.cli import main
from morphchess.web.limits import LimitError, Limits

MATE = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#\n"


def refused(capsys, *argv: str) -> str:
    """The one line of a command refused with exit status 2."""
    assert main(list(argv)) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("morphchess: error: "), err
    return err[0]


@pytest.mark.parametrize("where", ["file", "under-a-file"])
def test_page_into_a_file_is_refused_with_one_line(capsys, tmp_path, where):
    taken = tmp_path / "rules.txt"
    taken.write_text("not a folder")
    out = taken if where == "file" else taken / "page"
    line = refused(capsys, "page", "chess", "--no-png", "--out", str(out))
    assert "--out" in line and "cannot write the folder" in line
    assert taken.read_text() == "not a folder"


def test_gif_out_must_end_in_gif(capsys, tmp_path):
    record = tmp_path / "mate.pgn"
    record.write_text(MATE)
    line = refused(capsys, "gif", str(record), "--out", str(tmp_path / "game.png"))
    assert "must end in .gif" in line
    assert not Path(tmp_path / "game.png").exists()


@pytest.mark.parametrize("value, words", [("inf", "a finite number"), ("nan", "a finite number"),
                                          ("1e999", "a finite number")])
def test_serve_refuses_an_endless_engine_time(value, words):
    """``--engine-seconds inf`` started a server whose engine searches never end."""
    from programs import free_port
    r = subprocess.run([sys.executable, "-m", "morphchess", "serve", "--port", str(free_port()), "--no-access-log",
                        "--engine-seconds", value], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert f"engine-seconds '{value}': {words}" in r.stderr
    with pytest.raises(LimitError, match="a finite number"):
        Limits.from_env({"MORPHCHESS_ENGINE_SECONDS": "inf"})


def test_lab_compare_checks_both_variants_before_playing(capsys, tmp_path):
    """``lab compare chess nosuch`` played chess's games first and only then said 'nosuch' is unknown."""
    start = time.monotonic()
    line = refused(capsys, "lab", "compare", "chess", "nosuch", "--games", "2", "--out", str(tmp_path))
    assert "nosuch" in line and time.monotonic() - start < 10
    assert not list(tmp_path.iterdir())


# -- issue 53: names, numbers, special files and full devices -------------------------------------

RECORD = "e2e4 e7e5 g1f3\n"


@pytest.mark.parametrize("argv", [
    ["perft", "chess", "\u0661"],                       # an Arabic-Indic one counted
    ["perft", "chess", "\uff12"],                       # a fullwidth two
    ["bestmove", "--depth", "\u0665"],
    ["bestmove", "--movetime", "99999999999999"],
    ["bestmove", "--depth", "100000"],                  # never ended
    ["bestmove", "--nodes", "0"],
    ["match", "chess", "--white", "random", "--black", "random", "--games", "\u0661\u0660"],
    ["match", "chess", "--white", "random", "--black", "random", "--movetime", "99999999999999"],
    ["lab", "chess", "--games", "\u0662"],
    ["lab", "chess", "--max-plies", "99999999999999"],
    ["play", "--level", "\u0664"],
    ["gif", "game.pgn", "--out", "x.gif", "--delay", "\u0668\u0660\u0660"],
    ["serve", "--definitions-cached", "99999999999999999999999"],
    ["serve", "--definitions-cached", "\u0661\u0666"],
    ["serve", "--engine-seconds", "99999"],
    ["serve", "--port", "\u0668\u0660\u0660\u0660"],
])
def test_numbers_are_ascii_digits_within_bounds(capsys, argv):
    """Every number the command line reads is written in 0-9 and has a range; the line names the option."""
    line = refused(capsys, *argv)
    option = next((a for a in reversed(argv[:-1]) if a.startswith("--")), "depth")
    assert f"argument {option}" in line


def test_a_name_too_long_is_one_line(capsys):
    """``show`` with a 300-character name was an OSError traceback."""
    line = refused(capsys, "show", "a" * 300)
    assert "name too long" in line.lower() and len(line) < 200


@pytest.mark.parametrize("command", [["replay"], ["convert", "--to", "pgn"], ["gif", "--out", "/dev/null.gif"]])
def test_records_are_read_from_regular_files_only(capsys, command):
    """``replay /dev/zero`` and ``convert /dev/zero`` ended in a MemoryError."""
    line = refused(capsys, *command, "/dev/zero")
    assert "'/dev/zero': not a regular file" in line


def test_a_fifo_is_refused_not_waited_on(tmp_path):
    """``replay`` of a FIFO with no writer waited for ever."""
    fifo = tmp_path / "game.fifo"
    os.mkfifo(fifo)
    r = subprocess.run([sys.executable, "-m", "morphchess", "replay", str(fifo)], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 2 and r.stderr.strip().splitlines() == [f"morphchess: error: '{fifo}': not a regular file"]


def test_a_record_too_long_is_refused(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr("morphchess.cli_common.MAX_INPUT", 10)
    path = tmp_path / "long.txt"
    path.write_text(RECORD)
    assert "longer than" in refused(capsys, "replay", str(path))
    monkeypatch.setattr("sys.stdin", io.StringIO(RECORD))
    assert "'-': longer than" in refused(capsys, "replay", "-")


def test_a_definition_too_long_is_refused_before_it_is_read(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr("morphchess.cli_common.MAX_INPUT", 10)
    path = tmp_path / "long.txt"
    path.write_text("files=8\nranks=8\nking:K:K::e1\n")
    assert f"'{path}': longer than" in refused(capsys, "show", str(path))
    assert f"'{path}': longer than" in refused(capsys, "show", f"{path}:section")


@pytest.mark.parametrize("argv", [["show", "chess"], ["perft", "chess", "2", "--divide"], ["variants"],
                                  ["replay", "RECORD"], ["convert", "RECORD", "--to", "pgn"]])
def test_a_full_device_is_one_line(tmp_path, argv):
    """Output to a full device was a 9-24 line traceback."""
    record = tmp_path / "game.txt"
    record.write_text(RECORD)
    argv = [str(record) if a == "RECORD" else a for a in argv]
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "morphchess", *argv], stdout=full, stderr=subprocess.PIPE,
                           text=True, timeout=120)
    assert r.returncode == 2 and r.stderr.strip().splitlines()[-1:] == \
        ["morphchess: error: cannot write (No space left on device)"], r.stderr
    assert "Traceback" not in r.stderr and "Exception ignored" not in r.stderr


def test_a_closed_pipe_ends_quietly():
    """``morphchess variants | head -1``: the reader has gone; no traceback and no message."""
    proc = subprocess.Popen([sys.executable, "-m", "morphchess", "variants"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    assert proc.wait(timeout=120) == 1 and proc.stderr.read() == b""


def test_match_pgn_on_a_full_device_is_one_line():
    r = subprocess.run([sys.executable, "-m", "morphchess", "match", "chess", "--white", "random", "--black", "random",
                        "--games", "1", "--quiet", "--pgn", "/dev/full"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stderr.strip().splitlines() == \
        ["morphchess: error: cannot write (No space left on device)"], r.stderr


def test_a_message_of_many_lines_is_one(capsys, tmp_path):
    """``lab --ray garbage://x`` printed Ray's two-line message as it came."""
    pytest.importorskip("ray")
    line = refused(capsys, "lab", "chess", "--games", "1", "--ray", "garbage://x", "--out", str(tmp_path))
    assert "--ray garbage://x" in line
