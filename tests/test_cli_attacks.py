"""A fresh attack on the command line (issue 19's "Done when"): nonsense arguments to the newer
subcommands get exit status 2 and one line, never a traceback.  What was tried and held is in
docs/security.md ("A fresh attack")."""

from __future__ import annotations

from pathlib import Path

import pytest

from morphchess.cli import main

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
