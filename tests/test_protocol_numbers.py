"""Numbers a GUI sends to ``morphchess uci`` and ``morphchess xboard``: digits 0-9 only, each within a range,
and a bad one answered with one line naming it (never a traceback, never a guess); the session goes on."""

from __future__ import annotations

import subprocess

import pytest

from morphchess.protocols import uci, xboard

from protocol_support import ENGINE, Session

pytestmark = pytest.mark.slow  # subprocesses: left out of the fast loop (-m "not slow")

XBOARD_BAD = {
    "time": "time (centiseconds) needs a number",
    "time soon": "time (centiseconds): 'soon': write a whole number in digits 0-9",
    "time ٣٠٠٠": "time (centiseconds): '٣٠٠٠': write a whole number in digits 0-9",
    "otim 99999999999999999999": "otim (centiseconds): 99999999999999999999: use -10000000000 to 10000000000",
    "level 40 5:xx 0": "level's base seconds: 'xx': write a whole number in digits 0-9",
    "level 40 5:75 0": "level's base seconds: 75: use 0 to 59",
    "level 40 5 nan": "level's increment needs a number of seconds in digits 0-9, not 'nan'",
    "level 40 5 inf": "level's increment needs a number of seconds in digits 0-9, not 'inf'",
    "level ４０ 5 0": "level's moves per session: '４０': write a whole number in digits 0-9",
    "sd": "sd needs a number",
    "sd -3": "sd: -3: use 0 to 10000",
    "sd 100000": "sd: 100000: use 0 to 10000",
    "st ١": "st needs a number of seconds in digits 0-9, not '١'",
}
UCI_BAD = {
    "go depth": "go depth needs a number",
    "go depth ٣": "go depth: '٣': write a whole number in digits 0-9",
    "go depth 100000": "go depth: 100000: use 0 to 10000",
    "go movetime 1e9": "go movetime: '1e9': write a whole number in digits 0-9",
    "go nodes -1": "go nodes: -1: use 0 to 1000000000000000",
    "go wtime 1000 winc x": "go winc: 'x': write a whole number in digits 0-9",
}


def _session(protocol: str, lines: list[str]) -> tuple[list[str], str]:
    """Run the real front end on ``lines`` (then ``quit``): its output lines and its standard error."""
    done = subprocess.run([*ENGINE, protocol], input="\n".join([*lines, "quit"]) + "\n", capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines(), done.stderr


@pytest.mark.parametrize("line, message", XBOARD_BAD.items())
def test_xboard_answers_a_bad_number_with_one_line(line, message):
    out, err = _session("xboard", ["xboard", "protover 2", line, "ping 7"])
    errors = [o for o in out if o.startswith("Error")]
    assert errors == [f"Error ({message}): {line}"] and "pong 7" in out and not err


def test_xboard_reads_good_numbers_and_plays_on_them():
    s = Session(xboard.main)
    s.send("xboard", "protover 2", "new", "level 0 0:30 0.5", "time 3000", "otim 3000", "sd 2", "st 0.5", "go")
    assert s.expect("move ")
    s.send("quit")
    assert not [line for line in s.seen if line.startswith("Error")]


@pytest.mark.parametrize("line, message", UCI_BAD.items())
def test_uci_answers_a_bad_number_with_one_line(line, message):
    out, err = _session("uci", ["uci", line, "isready"])
    errors = [o for o in out if o.startswith("info string error")]
    assert errors == [f"info string error: {message}"] and "readyok" in out and not err
    assert not [o for o in out if o.startswith("bestmove")]  # nothing searched on a guess


def test_uci_reads_good_numbers_and_plays_on_them():
    s = Session(uci.main)
    s.send("uci", "position startpos", "go wtime -20 btime 3000 winc 0 binc 0 depth 2")
    assert s.expect("bestmove ")
    s.send("quit")
    assert not [line for line in s.seen if "error" in line]
