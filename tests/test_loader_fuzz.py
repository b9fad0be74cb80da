"""Fuzz of the definition loader (Hypothesis, issue 19): every input, however hostile, is loaded or
refused with an InputError, within a time and a memory bound; one that loads compiles its move tables
and lists the start position's moves within the same bounds.

Inputs are Interactive Diagram definitions assembled from the loader's own vocabulary (keys with small, huge, signed and
non-ASCII numbers; piece lines with random XBetza, square lists, hands and extra fields; morph tables
and setups) and mutations of them, and Fairy-Stockfish variants.ini sections (the same loader's
other language) of random played keys and values.  The bounds are the loader's limits (docs/definitions.md, "Limits")
seen from outside: no input may take seconds or hundreds of megabytes.  ``MORPHCHESS_FUZZ=N`` runs N
examples instead of the fixed, derandomised CI set (about 15 s for both).
"""

from __future__ import annotations

import gc
import os
import time
import tracemalloc
import warnings

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from morphchess import Position, fairy_ini, load
from morphchess.errors import InputError
from morphchess.loader import load as load_any

_RUNS = int(os.environ.get("MORPHCHESS_FUZZ", "0"))
fuzz = settings(max_examples=_RUNS or 120, deadline=None, derandomize=not _RUNS, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SECONDS = 3.0  # CPU seconds per input, load and first move list, traced (tracemalloc slows Python down)
PEAK = 150 * 2**20  # bytes allocated at most at once per input

_NUMBERS = st.one_of(st.integers(-3, 30).map(str), st.integers(0, 10**30).map(str),
                     st.sampled_from(["", "08", "٨", "８", "+3", "1e3", "9" * 5000, " 8 ", "0x10", "-0"]))
_KEYS = st.sampled_from(["files", "ranks", "promoZone", "maxPromote", "promoOffset", "holdingsType", "baring",
                         "fiftyMoves", "repetitions", "enPassant", "royal", "extinction", "succession", "iron",
                         "protected", "counterStrike", "shuffle", "promoChoice", "symmetry", "transform"])
_BETZA_PARTS = st.sampled_from(list("WFDNAHCZGKRBQUOXYmcdpgyiafblrvshnjokzqu0123456789[]-?*") +
                               ["mafs", "caK", "W*", "dU", "fmnD", "ifmnD", "mRcpR", "[F?fqR]", "KisO2"])
_BETZA = st.lists(_BETZA_PARTS, min_size=1, max_size=40).map("".join)
_SQUARE = st.builds(lambda f, r: f"{f}{r}", st.sampled_from("abcdehz"), st.sampled_from(["1", "2", "8", "26", "99",
                                                                                         "100", "0", "٣"]))
_SQUARES = st.lists(st.one_of(_SQUARE, st.builds(lambda a, b: f"{a}-{b}", _SQUARE, _SQUARE), st.just("")),
                    max_size=6).map(",".join)
_NAME = st.one_of(st.sampled_from(["pawn", "king", "knight", "queen", "lion", "hole", "", "x y", "a\"><b>"]),
                  st.text(max_size=6))
_LETTER = st.one_of(st.sampled_from(list("PKNQRBLXY") + ["+P", "", "ab", "?"]), st.text(max_size=2))
_PIECE = st.builds(lambda name, letter, betza, squares, rest: ":".join([name, letter, betza, "", squares] + rest),
                   _NAME, _LETTER, st.one_of(_BETZA, st.just("")), _SQUARES,
                   st.lists(st.one_of(_NUMBERS, st.just("1,2"), st.text(max_size=3)), max_size=3))
_ITEM = st.one_of(st.builds(lambda k, v: f"{k}={v}", _KEYS, st.one_of(_NUMBERS, st.text(max_size=8))),
                  _PIECE, _PIECE,
                  st.builds(lambda rows: "morph=" + "/".join(rows), st.lists(st.text("NBRQ.#*+", max_size=9),
                                                                             max_size=9)),
                  st.builds(lambda b: "setup=x:" + b, st.text("rnbqkpRNBQKP12345678/٨0", max_size=40)))
_DEFINITION = st.lists(_ITEM, min_size=1, max_size=12).map("\n".join)


def _mutate(text: str, data: st.DataObject) -> str:
    for _ in range(data.draw(st.integers(0, 3))):
        i = data.draw(st.integers(0, len(text)))
        text = text[:i] + data.draw(st.sampled_from([" ", "\n", ":", "=", ",", "-", "\x00", "mafs" * 8,
                                                     "9" * 12])) + text[i:]
    return text


def _within_bounds(loader, text: str) -> None:
    """``loader`` reads ``text`` and its first move list is made (which compiles the tables of every
    square on boards up to 10x10) within the CPU and memory bounds, or it is refused in one line.
    The garbage collector is kept out of the timing: a full collection of what earlier tests left in
    this process (gigabytes in a whole run) once took 3.4 s of a 0.1 s load."""
    gc.disable()
    tracemalloc.start()
    start = time.thread_time()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            Position(loader(text, "fuzz")).legal_moves()
    except InputError as e:
        assert "\n" not in str(e)
    finally:
        elapsed = time.thread_time() - start
        _size, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        gc.enable()
    assert elapsed < SECONDS, (elapsed, text[:200])
    assert peak < PEAK, (peak, text[:200])


@fuzz
@given(data=st.data())
def test_every_definition_loads_or_is_refused_within_bounds(data):
    text = _mutate(data.draw(_DEFINITION) + "\nking:K:K::e1", data)
    _within_bounds(load, text)


_FAIRY_KEYS = st.sampled_from(sorted(fairy_ini.PLAYED) + ["customPiece1", "queen", "knight", "unknownKey"])
_FAIRY_VALUES = st.one_of(_NUMBERS, _BETZA.map(lambda b: "x:" + b), _SQUARES.map(lambda s: s.replace(",", " ")),
                          st.sampled_from(["true", "false", "-", "*8", "a*", "win", "loss", "q", "n:N",
                                           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]),
                          st.text(max_size=8))
_SECTION = st.lists(st.builds(lambda k, v: f"{k} = {v}", _FAIRY_KEYS, _FAIRY_VALUES), max_size=8).map(
    lambda lines: "[fuzz:chess]\n" + "\n".join(lines) + "\n")


@fuzz
@given(text=_SECTION)
def test_every_variants_ini_section_loads_or_is_refused_within_bounds(text):
    load_any("[warm:chess]\n", "warm")  # reads the built-in sections once, outside the bound
    _within_bounds(load_any, text)
