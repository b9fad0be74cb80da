"""A fresh attack on the command line (issue 19's "Done when"): nonsense arguments to the newer
subcommands get exit status 2 and one line, never a traceback.  What was tried and held is in
docs/security.md ("A fresh attack")."""

from __future__ import annotations

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
