"""Fairy-Stockfish ``variants.ini`` text -> :class:`~morphchess.variant.Variant` (``docs/definitions.md``).

A section ``[name]`` or ``[name:parent]`` holds ``key = value`` lines (``#`` and ``;`` start comments).
Reading follows Fairy-Stockfish's own order: a section starts from a copy of its parent (a section
earlier in the text, or a Fairy-Stockfish built-in morphchess knows: the library's ``.ini`` files and
``variants/fairy-builtins.ini``), or, without a parent, from the default template (orthodox chess
rules without pieces); the section's board size, then
its pieces, then its rules are laid over it.  Piece-set keys (``promotionPieceTypes = qrbn``) name
pieces by the letters the section knows when it is read.

The rules are then written as Interactive Diagram text (:func:`to_id`; the languages overlap
there) and built by :func:`morphchess.idiagram.build`.  A key whose rule changes which moves are
legal and that morphchess cannot play is refused (:class:`~morphchess.variant.VariantError`
naming the key and the section); a key that only changes how a finished game is scored is
played without it and warned about (:class:`~morphchess.idiagram.VariantWarning`).
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from .betza import BetzaError, parse
from .connection import DIAGONALS, EAST, NORTH, Connection
from .errors import cut
from .idiagram import MAX_FILES, MAX_RANKS, VariantWarning, build
from .variant import Variant, VariantError

__all__ = ["load", "to_id", "sections", "section_text", "is_fairy", "PIECE_BETZA", "KEYS", "without_lame_leaps"]

# Fairy-Stockfish's predefined pieces and their moves (its variants.ini lists them).
PIECE_BETZA = {
    "pawn": "fmWfceF", "knight": "N", "bishop": "B", "rook": "R", "queen": "Q", "fers": "F", "alfil": "A",
    "fersAlfil": "FA", "silver": "FfW", "aiwok": "RNF", "bers": "RF", "archbishop": "BN", "chancellor": "RN",
    "amazon": "QN", "knibis": "mNcB", "biskni": "mBcN", "kniroo": "mNcR", "rookni": "mRcN", "shogiPawn": "fW",
    "lance": "fR", "shogiKnight": "fN", "gold": "WfF", "dragonHorse": "BW", "clobber": "cW",
    "breakthrough": "fmWfF", "immobile": "", "cannon": "mRcpR", "janggiCannon": "pR", "soldier": "fsW",
    "horse": "nN", "elephant": "nA", "janggiElephant": "nZ", "banner": "RcpRnN", "wazir": "W",
    "commoner": "K", "centaur": "KN", "king": "K",
}
CUSTOM = [f"customPiece{i}" for i in range(1, 26)]
PIECE_KEYS = [*PIECE_BETZA, *CUSTOM]
# the leaps Fairy-Stockfish can make lame (n): D, A and N; it gives 'n' on any other leap no move at all
_LAME_LEAPS = {(2, 0), (2, 2), (2, 1)}
# pieces with rules of their own beyond their Betza moves, which morphchess does not play
_SPECIAL_PIECES = {"janggiCannon": "cannot jump over or capture cannons",
                   "janggiElephant": "moves by Janggi's blocking rule",
                   "immobile": "never moves (a wall, or a stone dropped for good)"}

# The flag rules' keys (read by _flags): flagPiece = * is any piece, whiteFlag and blackFlag are old spellings
FLAG_KEYS = ("flagPiece", "flagPieceWhite", "flagPieceBlack", "flagRegion", "flagRegionWhite", "flagRegionBlack",
             "whiteFlag", "blackFlag", "flagPieceCount", "flagMove", "flagPieceSafe", "flagPieceBlockedWin")
# The connection rules' keys (read by _connection)
CONNECT_KEYS = ("connectN", "connectPieceTypes", "connectHorizontal", "connectVertical", "connectDiagonal",
                "connectRegion1White", "connectRegion2White", "connectRegion1Black", "connectRegion2Black",
                "connectNxN", "collinearN", "connectValue")
# Keys read into the rules.  Booleans are "true"/"false"; regions are Fairy-Stockfish's square lists.
PLAYED = {
    "maxRank", "maxFile", "startFen", "pieceDrops", "capturesToHand", "dropLoop", "firstRankPawnDrops",
    "promotionZonePawnDrops", "promotionRegionWhite", "promotionRegionBlack", "promotionRank", "pawnTypes",
    "promotionPawnTypes", "promotionPawnTypesWhite", "promotionPawnTypesBlack", "promotionPieceTypes",
    "promotionPieceTypesWhite", "promotionPieceTypesBlack", "mandatoryPawnPromotion", "doubleStep",
    "doubleStepRegionWhite", "doubleStepRegionBlack", "doubleStepRank", "doubleStepRankMin",
    "enPassantRegion", "enPassantRegionWhite", "enPassantRegionBlack", "enPassantTypes", "enPassantTypesWhite",
    "enPassantTypesBlack", "castling", "castlingKingsideFile", "castlingQueensideFile", "castlingRank",
    "castlingKingFile", "castlingKingPiece", "castlingKingPieceWhite", "castlingKingPieceBlack",
    "castlingRookKingsideFile", "castlingRookQueensideFile", "castlingRookPieces", "castlingRookPiecesWhite",
    "castlingRookPiecesBlack", "castlingRookPiece", "checking", "stalemateValue", "checkmateValue", "nMoveRule",
    "nFoldRule", "extinctionValue", "extinctionPieceTypes", "extinctionPieceCount",
    "extinctionOpponentPieceCount", "extinctionClaim", "immobilityIllegal", "nMoveRuleTypes",
    "nMoveRuleTypesWhite", "nMoveRuleTypesBlack", "chess960", "dropChecks", "flyingGeneral",
    *FLAG_KEYS, "checkCounting", "mustCapture", *CONNECT_KEYS, "nFoldValue", "nFoldValueAbsolute",
    "stalematePieceCount", "materialCounting", "perpetualCheckIllegal", "blastOnCapture", "blastImmuneTypes",
    "mutuallyImmuneTypes", "extinctionPseudoRoyal", "promotedPieceType", "mandatoryPiecePromotion",
    "dropNoDoubled", "dropNoDoubledCount", "shogiPawnDropMateIllegal", "wallingRule", "wallOrMove", "mustDrop",
    "mustDropType",
}
# Keys for GUIs and Fairy-Stockfish's own search: accepted, no rule.
DISPLAY = {"variantTemplate", "pieceToCharTable", "pocketSize", "pieceValueMg", "pieceValueEg"}
# Keys that change only how a finished game is scored: played without, with a warning.
# (Fairy-Stockfish decides repetitions, perpetual checks and chases when a game may end, not in its
# move generation, so those are scoring rules too.)
SCORING = {"countingRule": "none", "adjudicateFullBoard": "false", "moveRepetitionIllegal": "false",
           "chasingRule": "none"}
# Keys of rules morphchess does not play, with the value that leaves the rule off.
REFUSED = {
    "twoBoards": "false", "sittuyinPromotion": "false", "promotionLimit": "",
    "piecePromotionOnCapture": "false", "pieceDemotion": "false",
    "petrifyOnCaptureTypes": "-",
    "petrifyBlastPieces": "false", "tripleStepRegionWhite": "-", "tripleStepRegionBlack": "-",
    "castlingDroppedPiece": "false", "oppositeCastling": "false",
    "enclosingDrop": "none", "enclosingDropStart": "-", "dropRegionWhite": "",
    "dropRegionBlack": "", "whiteDropRegion": "", "blackDropRegion": "", "sittuyinRookDrop": "false",
    "dropOppositeColoredBishop": "false", "dropPromoted": "false", "gating": "false", "wallingRegionWhite": "",
    "wallingRegionBlack": "", "wallingRegion": "", "seirawanGating": "false",
    "cambodianMoves": "false", "diagonalLines": "-", "pass": "false", "passWhite": "false", "passBlack": "false",
    "passOnStalemate": "false", "passOnStalemateWhite": "false", "passOnStalemateBlack": "false",
    "makpongRule": "false", "soldierPromotionRank": "1", "flipEnclosedPieces": "none",
    "shatarMateRule": "false", "bikjangRule": "false",
    "dupleCheck": "false", "castlingWins": "-", "dropOnTop": "false",
}
KEYS = PLAYED | DISPLAY | set(SCORING) | set(REFUSED)
_SETS = {"pawnTypes", "promotionPawnTypes", "promotionPawnTypesWhite", "promotionPawnTypesBlack",
         "promotionPieceTypes", "promotionPieceTypesWhite", "promotionPieceTypesBlack", "enPassantTypes",
         "enPassantTypesWhite", "enPassantTypesBlack", "castlingRookPieces", "castlingRookPiecesWhite",
         "castlingRookPiecesBlack", "castlingRookPiece", "extinctionPieceTypes", "nMoveRuleTypes",
         "nMoveRuleTypesWhite", "nMoveRuleTypesBlack", "castlingKingPiece", "castlingKingPieceWhite",
         "castlingKingPieceBlack", "flagPiece", "flagPieceWhite", "flagPieceBlack", "connectPieceTypes",
         "blastImmuneTypes", "mutuallyImmuneTypes"}
_TRUE, _FALSE = {"true", "1", "yes"}, {"false", "0", "no"}
_VALUES = {"win": 1, "loss": -1, "draw": 0}  # a result's value to the side it is given for


def is_fairy(text: str) -> bool:
    """Is this ``variants.ini`` text?  Its first line that is not blank or a comment opens a section."""
    for line in text.lstrip("\ufeff").splitlines():
        line = line.strip()
        if line and not line.startswith(("#", ";")):
            return line.startswith("[")
    return False


@dataclass
class Section:
    """One ``[name:parent]`` section: its keys in order (a repeated key: the last counts) and its text."""

    name: str
    parent: str
    keys: dict[str, str]
    text: str
    line: int


def sections(text: str) -> dict[str, Section]:
    """The sections of variants.ini text by name; VariantError for a line that is not ``key = value``.
    The comment lines just above a header belong to its section's text (its title and source)."""
    out: dict[str, Section] = {}
    current: Section | None = None
    notes = ""  # comment and blank lines not yet given to a section
    for number, raw in enumerate(text.lstrip("\ufeff").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            notes += raw + "\n"
            continue
        if line.startswith("["):
            m = re.fullmatch(r"\[([^\]:]+)(?::([^\]]+))?\]\s*(?:[#;].*)?", line)
            if not m:
                raise VariantError(f"line {number}: {line[:60]!r} is not a section header [name] or [name:parent]")
            current = Section(m[1].strip(), (m[2] or "").strip(), {}, notes.lstrip("\n") + raw + "\n", number)
            if current.name in out:
                raise VariantError(f"line {number}: section [{current.name}] is defined twice")
            out[current.name] = current
        elif current is None:
            raise VariantError(f"line {number}: {line[:60]!r} comes before the first [section]")
        else:
            key, eq, value = line.partition("=")
            if not eq or not key.strip():
                raise VariantError(f"[{current.name}] line {number}: {line[:60]!r} is not 'key = value'")
            current.keys[key.strip()] = value.strip()
            current.text += notes + raw + "\n"
        notes = ""
    return out


@cache
def _builtin_sections() -> dict[str, Section]:
    """Fairy-Stockfish's built-in variants as morphchess knows them: the library's ``.ini`` files and
    ``fairy-builtins.ini`` (built-ins that are only parents here), all beside morphchess.variants."""
    out: dict[str, Section] = {}
    files = sorted((p for p in resources.files("morphchess.variants").iterdir() if p.name.endswith(".ini")),
                   key=lambda p: p.name)
    for p in files:
        for name, s in sections(p.read_text(encoding="utf-8")).items():
            out.setdefault(name, s)
    return out


def section_text(found: dict[str, Section], name: str) -> str:
    """The text of section ``name`` and of the ancestors it has in ``found``, parents first."""
    chain, seen = [], set()
    while name in found and name not in seen:
        seen.add(name)
        chain.append(found[name].text.strip("\n"))
        name = found[name].parent
    return "\n\n".join(reversed(chain)) + "\n"


# -- the rules as Fairy-Stockfish holds them -------------------------------------------------------
@dataclass
class _Rules:
    """A variant as Fairy-Stockfish reads it: board, pieces (key -> letter, moves) and other keys."""

    files: int = 8
    ranks: int = 8
    pieces: dict[str, tuple[str, str]] = field(default_factory=dict)
    keys: dict[str, str] = field(default_factory=dict)
    sets: dict[str, list[str]] = field(default_factory=dict)  # piece-set keys as piece keys
    origin: dict[str, str] = field(default_factory=dict)  # key -> section that set it
    promoted: dict[str, str] = field(default_factory=dict)  # promotedPieceType: piece key -> its promoted key

    def piece_of(self, letter: str) -> str | None:
        return next((k for k, (c, _) in self.pieces.items() if c == letter.lower()), None)


def _chess() -> _Rules:
    """Fairy-Stockfish's defaults with the orthodox pieces (its chess_variant_base)."""
    r = _Rules()
    for key, letter in (("pawn", "p"), ("knight", "n"), ("bishop", "b"), ("rook", "r"), ("queen", "q"),
                        ("king", "k")):
        r.pieces[key] = (letter, PIECE_BETZA[key])
    r.sets = {"promotionPieceTypes": ["queen", "rook", "bishop", "knight"], "promotionPawnTypes": ["pawn"],
              "enPassantTypes": ["pawn"], "castlingRookPieces": ["rook"], "castlingKingPiece": ["king"],
              "extinctionPieceTypes": [], "nMoveRuleTypes": ["pawn"]}
    return r


def _resolve(found: dict[str, Section], name: str, depth: int = 0) -> _Rules:
    if depth > 20:
        raise VariantError(f"[{name}]: the chain of parents is too long (a loop?)")
    s = found[name]
    if not s.parent:
        rules = _chess()
        rules.pieces.clear()
        rules.sets["promotionPieceTypes"] = []
    elif s.parent in found and s.parent != name:
        rules = _resolve(found, s.parent, depth + 1)
    else:
        known = _builtin_sections()
        if s.parent not in known:
            raise VariantError(f"[{s.name}:{s.parent}]: {s.parent!r} is neither a section of this text nor a "
                               f"Fairy-Stockfish built-in morphchess knows ({', '.join(sorted(known))})")
        rules = _resolve(known, s.parent, depth + 1)
    _apply(rules, s)
    return rules


def _apply(r: _Rules, s: Section) -> None:
    """Lay section ``s`` over ``r`` as Fairy-Stockfish does: board size, pieces, then the rest."""
    keys = s.keys
    if "maxFile" in keys:
        r.files = _file(keys["maxFile"], s, "maxFile") + 1
    if "maxRank" in keys:
        r.ranks = _number(keys["maxRank"], s, "maxRank")
    if not (1 <= r.files <= MAX_FILES and 1 <= r.ranks <= MAX_RANKS):  # before any key walks the board
        raise VariantError(f"[{s.name}] a {r.files}x{r.ranks} board: 1 to {MAX_FILES} files and 1 to {MAX_RANKS} "
                           "ranks are played")
    for key in PIECE_KEYS:
        value = keys.get(key, "")
        if not value:
            continue
        letter = value[0]
        if not letter.isalpha():
            r.pieces.pop(key, None)
            r.sets["promotionPieceTypes"] = [k for k in r.sets["promotionPieceTypes"] if k != key]
            continue
        other = r.piece_of(letter)
        if other and other != key:
            r.pieces.pop(other)
            r.sets["promotionPieceTypes"] = [k for k in r.sets["promotionPieceTypes"] if k != other]
        moves = value[2:].strip() if len(value) > 1 else PIECE_BETZA.get(key, "")
        if key in CUSTOM and len(value) < 3:
            raise VariantError(f"[{s.name}] {key} = {value}: a custom piece needs 'letter:Betza'")
        r.pieces[key] = (letter.lower(), moves)
        if key in CUSTOM and "e" in moves:
            r.sets["enPassantTypes"] = [*r.sets["enPassantTypes"], key]
    for key, value in keys.items():
        if key in PIECE_KEYS or key in ("maxFile", "maxRank"):
            continue
        r.origin[key] = s.name
        if key in _SETS:
            r.sets[_set_name(key)] = _piece_set(r, value, s, key)
        if key == "promotedPieceType":
            r.promoted.update(_promoted_pairs(r, value, s))
        r.keys[key] = value


def _promoted_pairs(r: _Rules, value: str, s: Section) -> dict[str, str]:
    """promotedPieceType's ``p:g s:g`` pairs as piece keys (``p:-``: no promotion, ""); laid over the
    parent's pairs, as Fairy-Stockfish does."""
    out = {}
    for pair in value.split():
        m = re.fullmatch(r"([A-Za-z]):([A-Za-z-])", pair)
        base = m and r.piece_of(m[1])
        target = m and ("" if m[2] == "-" else r.piece_of(m[2]))
        if not m or base is None or target is None:
            raise VariantError(f"[{s.name}] promotedPieceType = {cut(value)}: {pair[:20]!r} is not 'letter:letter' "
                               "of two pieces")
        out[base] = target
    return out


def _set_name(key: str) -> str:
    """The piece-set a key sets (``pawnTypes`` and ``castlingRookPiece`` are old spellings)."""
    return {"pawnTypes": "promotionPawnTypes", "castlingRookPiece": "castlingRookPieces"}.get(key, key)


def _piece_set(r: _Rules, value: str, s: Section, key: str) -> list[str]:
    out = []
    for c in value.replace(" ", ""):
        if c == "-":
            break
        if c == "*":
            out.append("*")
            continue
        piece = r.piece_of(c)
        if piece is None:
            raise VariantError(f"[{s.name}] {key} = {value}: {c!r} is not the letter of a piece")
        out.append(piece)
    return out


def _number(value: str, s: Section, key: str) -> int:
    if not re.fullmatch(r"[0-9]{1,9}", value.strip()):
        raise VariantError(f"[{s.name}] {key} = {value[:40]}: a whole number (ASCII digits, at most nine) is needed")
    return int(value)


def _file(value: str, s: Section, key: str) -> int:
    """A file as Fairy-Stockfish writes it: a letter or a number from 1; returned from 0."""
    v = value.strip().lower()
    if len(v) == 1 and v.isalpha():
        return ord(v) - 97
    return _number(v, s, key) - 1


def _bool(r: _Rules, key: str, default: bool) -> bool:
    value = r.keys.get(key)
    if value is None:
        return default
    if value.lower() in _TRUE:
        return True
    if value.lower() in _FALSE:
        return False
    raise VariantError(f"{key} = {value}: use true or false")


def _region(r: _Rules, key: str) -> set[int] | None:
    """The squares of a region key (``*8``, ``a1 b2``, ``c*``, ``-``), or None where it is not given."""
    value = r.keys.get(key)
    if value is None:
        return None
    out: set[int] = set()
    for sym in value.split():
        if sym == "-":
            break
        m = re.fullmatch(r"([a-z])([0-9]{1,3})|\*([0-9]{1,3})|([a-z])\*", sym.lower())
        if not m:
            raise VariantError(f"{key} = {value}: {sym!r} is not a square, '*RANK' or 'FILE*'")
        if m[1]:
            out.add((int(m[2]) - 1) * r.files + ord(m[1]) - 97)
        elif m[3]:
            out.update((int(m[3]) - 1) * r.files + f for f in range(r.files))
        else:
            out.update(rank * r.files + ord(m[4]) - 97 for rank in range(r.ranks))
    return {sq for sq in out if 0 <= sq < r.files * r.ranks}


# -- from Fairy-Stockfish's rules to Interactive Diagram text --------------------------------------
@dataclass
class _Out:
    """What :func:`to_id` makes: the ID text, the rules the ID text cannot hold, the warnings."""

    params: dict[str, str] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)
    zones: list[str] = field(default_factory=list)  # confine= items, one a type
    promo_forced: bool = False
    notes: list[str] = field(default_factory=list)
    # doubleStepRegion (Variant.initial_region): the letters of the types with initial moves, and
    # the region of each side
    initial: tuple[list[str], tuple[set[int], set[int]]] | None = None
    initial_again: bool = False  # such a piece may stand in its region again after it moved
    drops: bool = False  # pieces in hand are dropped
    castling: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)  # Variant.castling
    castling_said: bool = True  # the XBetza O move says the castling (the ID text holds it)
    checking: bool = True  # False: no move may give check
    check_counts: tuple[int, int] | None = None  # checkCounting: the checks to give (Variant.check_counts)
    # the win conditions as Variant fields: the flag rules (flag_piece as letters, None for any piece,
    # flag_region, ...) and the losing games' (must_capture, stalemate_wins, army_extinction, ...)
    flag: dict[str, Any] = field(default_factory=dict)
    losing: dict[str, Any] = field(default_factory=dict)
    # the connection rule (Variant.connection) with its types as the letters in connect_letters
    connection: Connection | None = None
    connect_letters: list[str] = field(default_factory=list)
    walls: dict[str, Any] = field(default_factory=dict)  # Variant.walling and wall_or_move
    # rules as Variant fields, a type as its letter (a list of letters for several): blast, blast_immune,
    # blast_spared, mutually_immune, offset_either_end, offset_forced, immobility_illegal, no_doubled, ...
    fields: dict[str, Any] = field(default_factory=dict)


def _refuse(name: str, r: _Rules, key: str, why: str) -> VariantError:
    where = r.origin.get(key, name)
    return VariantError(f"[{name}] {key} = {cut(r.keys.get(key, ''))}: {why} (from [{where}])"
                        if key in r.keys else f"[{name}] {key}: {why}")


def _check_keys(name: str, r: _Rules, out: _Out) -> None:
    for key, value in r.keys.items():
        if key in PLAYED or key in DISPLAY:
            continue
        if key in SCORING:
            if value.lower() != SCORING[key]:
                out.notes.append(f"{key} = {value}: scoring rule not played (games end as without it)")
        elif key in REFUSED:
            if value.strip().lower() != REFUSED[key] and not (value.strip() in ("-", "") and REFUSED[key] in ("-", "")):
                raise _refuse(name, r, key, "morphchess does not play this rule")
        elif key.startswith(("mobilityRegionWhite", "mobilityRegionBlack")):
            pass  # read with the pieces (_zones)
        else:
            out.notes.append(f"unknown key {key} = {value}: not a Fairy-Stockfish key morphchess knows, not used")
    if not _bool(r, "dropChecks", True):
        raise _refuse(name, r, "dropChecks", "morphchess lets drops give check")
    if _bool(r, "chess960", False):
        raise _refuse(name, r, "chess960", "write a Chess960-style game as ID text with shuffle= (the library's "
                                           "chess960 does)")
    for key in ("promotionPawnTypes", "promotionPieceTypes", "enPassantTypes", "castlingRookPieces",
                "castlingKingPiece", "nMoveRuleTypes"):
        w, b = r.sets.get(key + "White"), r.sets.get(key + "Black")
        if (w is not None or b is not None) and w != b:
            raise _refuse(name, r, key + "White", "White and Black differ; morphchess's rules are the same for both")
        if w is not None:
            r.sets[key] = w


@dataclass
class _Start:
    """startFen: {square: letter (upper case White)} and the pockets."""

    board: dict[int, str]
    hands: tuple[dict[str, int], dict[str, int]]
    castling: str
    checks: tuple[int, int] | None = None  # a ``W+B`` field: the checks each side must still give


def _start(name: str, r: _Rules) -> _Start:
    fen = r.keys.get("startFen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    fields = fen.split()
    if not fields:
        raise _refuse(name, r, "startFen", "no position given")
    board_field = fields[0]
    hands: tuple[dict[str, int], dict[str, int]] = ({}, {})
    m = re.fullmatch(r"(.*?)\[([^\]]*)\]", board_field)
    if m:
        board_field = m[1]
        for c in m[2].replace("-", ""):
            hand = hands[0] if c.isupper() else hands[1]
            hand[c.lower()] = hand.get(c.lower(), 0) + 1
    if len(fields) > 1 and fields[1] != "w":
        raise _refuse(name, r, "startFen", "morphchess's games start with White to move")
    rows = board_field.split("/")
    if len(rows) != r.ranks:
        raise _refuse(name, r, "startFen", f"{len(rows)} ranks, the board has {r.ranks}")
    board: dict[int, str] = {}
    for i, row in enumerate(rows):
        rank, f = r.ranks - 1 - i, 0
        for run, promoted, letter in re.findall(r"([0-9]+)|(\+?)([^0-9~])~?", row):
            if run:
                if len(run) > 3:
                    raise _refuse(name, r, "startFen", f"{run[:10]}...: no count of empty squares")
                f += int(run)
                continue
            if promoted or not letter.isalpha():
                raise _refuse(name, r, "startFen", f"{promoted + letter!r}: promoted pieces and walls are not played")
            if r.piece_of(letter) is None:
                raise _refuse(name, r, "startFen", f"{letter!r} is not the letter of a piece")
            if f >= r.files:
                raise _refuse(name, r, "startFen", f"rank {rank + 1} is longer than {r.files} files")
            board[rank * r.files + f] = letter
            f += 1
        if f != r.files:
            raise _refuse(name, r, "startFen", f"rank {rank + 1} has {f} files, the board {r.files}")
    counts = [m for f in fields[2:5] if (m := re.fullmatch(r"([0-9])\+([0-9])", f))]
    checks = (int(counts[0][1]), int(counts[0][2])) if counts else None
    fields = [f for f in fields if not counts or f != counts[0][0]]  # the counts may stand in any field from the 3rd
    return _Start(board, hands, fields[2] if len(fields) > 2 else "-", checks)


def to_id(text: str, name: str = "custom") -> tuple[str, list[str]]:
    """The Interactive Diagram text of section ``name`` (as :func:`load` picks it) and what it
    loses: rules the ID text cannot hold, and the warnings of reading it."""
    _found, section, out = _read(text, name)
    zone = int(out.params.get("promoZone", "1"))
    lost = [f"mandatoryPawnPromotion = false: the pawn may stay unpromoted in its {zone}-rank zone; "
            "the ID forces promotion anywhere in the zone"] if zone > 1 and not out.promo_forced else []
    if not out.castling_said:
        lost.append("castling: the king's steps or its partners differ between sides or colours, which the "
                    "ID's castling (one length, the outermost piece) cannot say")
    if out.initial and (out.drops or out.initial_again):
        lost.append("doubleStepRegion: a piece that arrives in its region after it moved (dropped behind it, "
                    "or stepping on, back or sideways) makes its initial moves there; the ID's initial moves "
                    "are only those of a piece that never moved")
    return _id_text(out), lost + _unsaid(out) + out.notes


def _unsaid(out: _Out) -> list[str]:
    """The win conditions read here that ID text cannot say (docs/rules.md), one line each."""
    losing = out.losing
    said = {"flagRegion": bool(out.flag), "checkCounting": out.check_counts is not None,
            "checking = false": not out.checking, "mustCapture": losing.get("must_capture", False),
            "stalemateValue = win": losing.get("stalemate_wins", False),
            "checkmateValue = win": losing.get("checkmate_wins", False),
            "extinctionValue = win": losing.get("extinction_wins", False),
            "extinctionPieceTypes = *": "army_extinction" in losing,
            "extinctionPieceCount": losing.get("extinction_count", 0) > 0,
            "connectN": out.connection is not None,
            "nFoldValue": losing.get("repetition_value", 0) != 0,
            "stalematePieceCount": losing.get("stalemate_piece_count", False),
            "perpetualCheckIllegal": losing.get("perpetual_check_loses", False),
            "materialCounting": losing.get("material_counting") is not None}
    captures = [key for key, field in (("blastOnCapture", "blast"), ("mutuallyImmuneTypes", "mutually_immune"))
                if out.fields.get(field)]
    return ([f"{key}: a win condition of Fairy-Stockfish's that ID text cannot say" for key, on in said.items() if on]
            + [f"{key}: a capture rule of Fairy-Stockfish's that ID text cannot say" for key in captures])


def load(text: str, name: str = "custom") -> Variant:
    """The variant of section ``name`` of variants.ini text (the last section if none has that
    name).  VariantError names the section and the key morphchess cannot play."""
    found, section, out = _read(text, name)
    variant = build(_id_text(out), section)
    variant.promo_forced = out.promo_forced
    variant.castling = out.castling
    variant.checking = out.checking
    variant.check_counts = out.check_counts
    for key, value in {**out.flag, **out.losing, **out.walls}.items():
        setattr(variant, key, value)
    variant.extinction_mover_first = True  # Fairy-Stockfish's order when both sides go extinct at once
    for key, value in out.fields.items():
        if isinstance(value, list):
            value = tuple(variant.type_by_letter(c).index for c in value)
        elif isinstance(value, str):
            value = variant.type_by_letter(value).index
        setattr(variant, key, value)
    if out.connection is not None:
        variant.connection = out.connection._replace(
            types=frozenset(variant.type_by_letter(c).index for c in out.connect_letters))
    if out.flag:
        white_flag, black_flag = (variant.type_by_letter(c).index if c else 0 for c in out.flag["flag_piece"])
        variant.flag_piece = (white_flag, black_flag)
    if out.initial:
        letters, (white, black) = out.initial
        variant.initial_region = {variant.type_by_letter(c).index: (frozenset(white), frozenset(black))
                                  for c in letters}
    variant.text = section_text(found, section)
    variant.params = {}  # no ID keys: the text is variants.ini
    variant.warnings = out.notes
    for w in out.notes:
        warnings.warn(f"{section}: {w}", VariantWarning, stacklevel=2)
    variant.freeze()
    return variant


def _read(text: str, name: str) -> tuple[dict[str, Section], str, _Out]:
    found = sections(text)
    if not found:
        raise VariantError("the text has no [section]")
    section = name if name in found else list(found)[-1]
    return found, section, _translate(section, _resolve(found, section))


def _id_text(out: _Out) -> str:
    head = " ".join([*(f"{k}={v}" for k, v in out.params.items()), *out.zones])
    return "\n".join([head, *out.lines]) + "\n"


def _translate(name: str, r: _Rules) -> _Out:
    out = _Out()
    _check_keys(name, r, out)
    start = _start(name, r)
    for key, (letter, _betza) in r.pieces.items():
        if key in _SPECIAL_PIECES and any(c.lower() == letter for c in [*start.board.values(), *start.hands[0],
                                                                           *start.hands[1]]):
            raise _refuse(name, r, key, f"the {key} {_SPECIAL_PIECES[key]}, which morphchess does not play")
    pawns = [k for k in r.sets["promotionPawnTypes"] if k in r.pieces]
    zone = _promotion_zone(name, r) if pawns else 0
    promoted = _promoted(name, r, bool(pawns and zone))
    zone = zone or (_promotion_zone(name, r) if promoted else 0)
    promoted = promoted if zone else {}
    choices = [k for k in r.sets["promotionPieceTypes"] if k in r.pieces]
    if pawns and zone and not choices:
        raise _refuse(name, r, "promotionPieceTypes", "pawns that reach the zone must promote, but to nothing")
    royal = "king" if "king" in r.pieces else None
    order = pawns + list(promoted) + [k for k in r.pieces if k not in pawns and k not in promoted and k != royal]
    order += [royal] if royal else []
    letters = {k: r.pieces[k][0].upper() for k in order}
    letters.update({"+" + k: "+" + letters[k] for k in promoted})
    p = out.params
    p.update(files=str(r.files), ranks=str(r.ranks), symmetry="none")
    if zone and pawns:
        p.update(promoZone=str(zone), promoChoice="".join(letters[k] for k in choices), maxPromote=str(len(pawns)))
        out.promo_forced = zone > 1 and _bool(r, "mandatoryPawnPromotion", True)
    elif promoted:
        p.update(promoZone=str(zone), promoChoice="+", maxPromote=str(len(promoted)), promoOffset=str(len(order)))
        out.fields.update(offset_either_end=True, offset_forced=_bool(r, "mandatoryPiecePromotion", False))
    else:
        p.update(maxPromote="0", promoChoice="+")
    out.fields["immobility_illegal"] = _bool(r, "immobilityIllegal", False)
    if not out.fields["immobility_illegal"]:  # Fairy-Stockfish keeps only its pawns off such squares
        out.fields["stuck_drops"] = [letters[k] for k in order if k != "pawn"]
    p["royal"] = letters[royal] if royal else "0"  # royal=0: no royal type (the ID's default is the last)
    _end_rules(name, r, out, letters)
    _blasts(r, out, letters)
    royal = _pseudo_royal(name, r, out, start, letters) or royal
    _flags(name, r, out, letters)
    _connection(name, r, out, letters)
    _walls(name, r, out)
    if _bool(r, "checkCounting", False):  # without counts in startFen Fairy-Stockfish's next check wins
        out.check_counts = start.checks or (1, 1)
    extinction = "extinction" in p or "army_extinction" in out.losing
    stalemate = p["stalemate"] == "loss" or out.losing.get("stalemate_wins", False)
    counted = out.losing.get("material_counting") is not None  # its draws are won (Capture the Queen)
    if not royal and not extinction and not out.flag and not stalemate and out.connection is None and not counted:
        raise _refuse(name, r, "king", "a game without a king needs an extinction, flag, connection, stalemate or "
                                       "material-counting rule to be won")
    placed = {c.isupper() for c in start.board.values() if royal and c.upper() == letters[royal]}
    if royal and len(placed) < 2 and not extinction:
        sides = " and ".join(side for side, upper in (("White", True), ("Black", False)) if upper not in placed)
        out.notes.append(f"startFen places no king ({letters[royal]}) for {sides}: that side can never be "
                         "checkmated")
    _drops(name, r, out, start)
    _zones(name, r, out, letters)
    moves = _moves(name, r, start, out)
    _drop_rules(name, r, out, letters)
    for k in order:
        white = [sq for sq, c in sorted(start.board.items()) if c == letters[k]]
        black = [sq for sq, c in sorted(start.board.items()) if c == letters[k].lower()]
        squares = ",".join(_sq(r, s) for s in white) + ",," * bool(black) + ",".join(_sq(r, s) for s in black)
        hand = f"{start.hands[0].get(letters[k].lower(), 0)},{start.hands[1].get(letters[k].lower(), 0)}"
        out.lines.append(f"{k}:{letters[k]}:{moves[k]}:{k}:{squares}:{hand}")
    for k, target in promoted.items():  # types promoOffset after their own: they move as their targets
        type_name = "promoted" + k[0].upper() + k[1:]  # an ID name: no spaces
        out.lines.append(f"{type_name}:+{letters[k]}:{moves[target]}:{type_name}::0,0")
    return out


def _walls(name: str, r: _Rules, out: _Out) -> None:
    """wallingRule and wallOrMove (Variant.walling): walls only where no drop needs the square."""
    rule = r.keys.get("wallingRule", "none").strip().lower()
    if rule not in ("none", "duck", "arrow", "past", "edge"):
        raise _refuse(name, r, "wallingRule", "morphchess plays the walling rules none, duck, arrow, past and edge")
    or_move = _bool(r, "wallOrMove", False)
    if rule == "none":
        if or_move:
            raise _refuse(name, r, "wallOrMove", "a choice between a move and a wall needs a wallingRule")
        return
    if _bool(r, "pieceDrops", False):
        raise _refuse(name, r, "wallingRule", "walls and drops do not go together (as in Fairy-Stockfish)")
    out.walls.update(walling=rule, wall_or_move=or_move)


def _promoted(name: str, r: _Rules, chess_style: bool) -> dict[str, str]:
    """promotedPieceType of the pieces in the game: {piece key: the key of the type it promotes to}.
    Played as the ID's promoOffset: each promoting type gets a type of its own for its promoted
    pieces (letter ``+`` and its own, as Fairy-Stockfish writes them), moving as the target."""
    promoted = {k: t for k, t in r.promoted.items() if k in r.pieces and t in r.pieces}
    if not promoted:
        return {}
    if chess_style:
        raise _refuse(name, r, "promotedPieceType", "shogi-style promotion beside the pawns' chess-style promotion")
    if set(promoted) & set(promoted.values()):
        raise _refuse(name, r, "promotedPieceType", "a piece promotes to a type that promotes again")
    if _bool(r, "capturesToHand", False) and _bool(r, "dropLoop", False):
        raise _refuse(name, r, "dropLoop", "a captured promoted piece goes to the hand as its promoted type, "
                                           "which morphchess keeps apart from the pieces that start so")
    return promoted


def _drop_rules(name: str, r: _Rules, out: _Out, letters: dict[str, str]) -> None:
    """dropNoDoubled (with dropNoDoubledCount) and shogiPawnDropMateIllegal."""
    doubled = r.keys.get("dropNoDoubled", "-").strip()
    key = r.piece_of(doubled) if doubled != "-" else None
    if key in letters:
        out.fields["no_doubled"] = letters[key]
        out.fields["no_doubled_count"] = _number(r.keys.get("dropNoDoubledCount", "1"),
                                                 Section(name, "", {}, "", 0), "dropNoDoubledCount")
    if _bool(r, "shogiPawnDropMateIllegal", False) and "shogiPawn" in letters:
        out.fields["drop_mate_loses"] = letters["shogiPawn"]


def _blasts(r: _Rules, out: _Out, letters: dict[str, str]) -> None:
    """Atomic captures (``blastOnCapture``, ``blastImmuneTypes``; Fairy-Stockfish's pawns survive a
    blast beside them) and ``mutuallyImmuneTypes``."""
    mutual = [letters[k] for k in r.sets.get("mutuallyImmuneTypes", []) if k in letters]
    if mutual:
        out.fields["mutually_immune"] = mutual
    if _bool(r, "blastOnCapture", False):
        out.fields.update(blast=True, blast_spared=[letters["pawn"]] if "pawn" in letters else [],
                          blast_immune=[letters[k] for k in r.sets.get("blastImmuneTypes", []) if k in letters])


def _pseudo_royal(name: str, r: _Rules, out: _Out, start: _Start, letters: dict[str, str]) -> str | None:
    """``extinctionPseudoRoyal``: Fairy-Stockfish guards the last piece of an extinction type like a
    royal one.  Read where that piece is always the only one (the type starts once a side at most and
    is neither a promotion choice nor in a hand): the types become royal (ID ``royal=``), and
    extinction stays a rule only with blasts (a royal piece is never captured otherwise).  Returns
    the key of a type made royal, or None."""
    if not _bool(r, "extinctionPseudoRoyal", False):
        return None
    if "*" in r.sets.get("extinctionPieceTypes", []):
        raise _refuse(name, r, "extinctionPseudoRoyal", "every type pseudo-royal (extinctionPieceTypes = *)")
    types = [k for k in r.sets.get("extinctionPieceTypes", []) if k in letters]
    if not types:
        return None
    counts = [sum(1 for c in start.board.values() if c == (letters[k] if white else letters[k].lower()))
              for k in types for white in (True, False)]
    gained = [k for k in types
              if k in r.sets["promotionPieceTypes"] or any(letters[k].lower() in h for h in start.hands)]
    if out.losing.get("extinction_count") or max(counts, default=0) > 1 or gained:
        raise _refuse(name, r, "extinctionPseudoRoyal", "morphchess plays a pseudo-royal type only where each "
                                                        "side has at most one piece of it, and never gains one")
    p = out.params
    p["royal"] = "".join(dict.fromkeys((p["royal"] if p["royal"] != "0" else "") + "".join(letters[k] for k in types)))
    if not out.fields.get("blast"):
        p.pop("extinction", None)
    return types[0]


def _zones(name: str, r: _Rules, out: _Out, letters: dict[str, str]) -> None:
    """Mobility regions as the ID's ``confine=`` (Black's must mirror White's by rank) and the
    flying-general rule as ``flyingGeneral=1``."""
    if _bool(r, "flyingGeneral", False):
        out.params["flyingGeneral"] = "1"
    F = r.files
    for key in [k for k in r.keys if k.startswith(("mobilityRegionWhite", "mobilityRegionBlack"))]:
        suffix = key[len("mobilityRegionWhite"):]
        piece = next((k for k in r.pieces if k[0].upper() + k[1:] == suffix), None)
        white, black = _region(r, "mobilityRegionWhite" + suffix), _region(r, "mobilityRegionBlack" + suffix)
        if piece is None or not (white or black) or key.startswith("mobilityRegionBlack") and white is not None:
            continue  # a piece the variant does not have, an empty region, or the pair read once
        if black is None or white is None or black != {(r.ranks - 1 - sq // F) * F + sq % F for sq in white}:
            raise _refuse(name, r, key, "a region for one side only, or Black's not White's mirrored by rank")
        out.zones.append(f"confine={letters[piece]}:{','.join(_sq(r, sq) for sq in sorted(white))}")


def _sq(r: _Rules, sq: int) -> str:
    return f"{chr(97 + sq % r.files)}{sq // r.files + 1}"


def _promotion_zone(name: str, r: _Rules) -> int:
    """The promotion zone as a number of last ranks (the only shape the ID has)."""
    if "promotionRank" in r.keys and "promotionRegionWhite" not in r.keys:
        rank = _number(r.keys["promotionRank"], Section(name, "", {}, "", 0), "promotionRank")
        return r.ranks - rank + 1
    white = _region(r, "promotionRegionWhite")
    black = _region(r, "promotionRegionBlack")
    if white is None:  # Fairy-Stockfish's defaults are the eighth and the first rank, whatever the board
        white = {7 * r.files + f for f in range(r.files)} if r.ranks >= 8 else set()
    if black is None:
        black = set(range(r.files))
    depth = len(white) // r.files if white else 0
    last = {sq for sq in range(r.files * r.ranks) if sq // r.files >= r.ranks - depth}
    first = {sq for sq in range(r.files * r.ranks) if sq // r.files < depth}
    if white != last or black != first:
        raise _refuse(name, r, "promotionRegionWhite", "morphchess's promotion zone is the last ranks, the same "
                                                      "number for both sides")
    return depth


def _moves(name: str, r: _Rules, start: _Start, out: _Out) -> dict[str, str]:
    """Each piece's XBetza: its Fairy-Stockfish moves, the pawn's double step, the king's castling."""
    initial, regions, again = _double_step_region(name, r, start)
    double = bool(initial)
    if initial:
        out.initial = ([r.pieces[k][0].upper() for k in initial], regions)
        out.initial_again = again
    ep_types = set(r.sets["enPassantTypes"])
    ep_region = [_region(r, k) for k in ("enPassantRegion", "enPassantRegionWhite", "enPassantRegionBlack")]
    no_ep = any(reg is not None and not reg for reg in ep_region)
    if any(reg for reg in ep_region if reg is not None and len(reg) < r.files * r.ranks):
        raise _refuse(name, r, "enPassantRegion", "morphchess allows en passant wherever a double step passes")
    moves_of = {}
    for key, (_letter, moves) in r.pieces.items():
        if key == "pawn":
            moves = ("ifmnD" if double else "") + ("fmWfceF" if key in ep_types and not no_ep else "fmWfcF")
        elif no_ep or key not in ep_types:
            moves = moves.replace("e", "")
        if (lost := without_lame_leaps(moves)[1]) and key in CUSTOM:
            raise _refuse(name, r, key, f"the lame leap {' '.join(lost)}: Fairy-Stockfish makes only the D, A and N "
                                        "leaps lame and gives this one no move")
        if key in CUSTOM and (ranged := re.search(r"[a-z]*[pg][a-z]*[A-Z][0-9]+", moves)):
            raise _refuse(name, r, key, f"the hopper {ranged[0]} with a range: Fairy-Stockfish counts it to the "
                                        "landing square, morphchess to the hurdle")
        moves_of[key] = moves
    king_key = (r.sets.get("castlingKingPiece") or ["king"])[0]
    if _bool(r, "castling", True) and king_key in r.pieces:
        moves_of[king_key] += _castling(name, r, start, king_key, out)
    return moves_of


def without_lame_leaps(betza: str) -> tuple[str, list[str]]:
    """``betza`` without the lame leaps Fairy-Stockfish cannot make (``fcnH``: it makes only D, A
    and N lame), and the groups taken out.  Groups are atoms with their modifiers; text with
    brackets or parentheses is returned whole."""
    if re.search(r"[\[\](){}]", betza):
        return betza, []
    kept: list[str] = []
    lost: list[str] = []
    for group in re.findall(r"[a-z]*[A-Z][0-9]*\*?|[^a-zA-Z]+", betza):
        try:
            steps = parse(group).steps if "n" in group else ()
        except BetzaError:
            steps = ()
        bad = any(s.lame and s.rng == 1 and tuple(sorted(map(abs, (s.dx, s.dy)), reverse=True)) not in _LAME_LEAPS
                  for s in steps)
        (lost if bad else kept).append(group)
    return "".join(kept), lost


def _double_step_region(name: str, r: _Rules, start: _Start) -> tuple[list[str], tuple[set[int], set[int]], bool]:
    """The pieces with double (initial) steps (none: []), each side's region, and whether a piece
    may arrive in its region again after it moved.  Fairy-Stockfish allows them to pieces in the
    region: read as :attr:`Variant.initial_region`, a piece arriving there (a pawn dropped on the
    first rank that steps to the second, a Torpedo pawn anywhere, a sideways pawn along its rank)
    counts as unmoved.  Read when every start square of each such piece is inside the region, or
    when the piece can never stand in it (then it has no initial moves).  Refused otherwise."""
    initial = [k for k, (_c, m) in r.pieces.items() if (k == "pawn" and _bool(r, "doubleStep", True)) or
               (k != "pawn" and "i" in m)]
    regions = []
    for colour, key, default_rank in ((0, "doubleStepRegionWhite", 1), (1, "doubleStepRegionBlack", 6)):
        reg = _region(r, key)
        if "doubleStepRank" in r.keys and reg is None:
            rank = _number(r.keys["doubleStepRank"], Section(name, "", {}, "", 0), "doubleStepRank") - 1
            reg = {(rank if colour == 0 else r.ranks - 1 - rank) * r.files + f for f in range(r.files)}
        if reg is None:  # Fairy-Stockfish's defaults are the second and the seventh rank
            reg = {default_rank * r.files + f for f in range(r.files)} if r.ranks >= 8 else set()
        regions.append(reg)
    used, again = set(), False
    for k in initial:
        letter, betza = r.pieces[k]
        try:
            pm = parse(betza)
        except BetzaError as e:
            raise _refuse(name, r, k, str(e)) from None
        if pm.hops or pm.paths:
            raise _refuse(name, r, k, "a piece with initial moves that hops or moves in legs: where it may "
                                      "stand in its region again is not worked out")
        back = any(st.dy <= 0 for st in pm.steps if not st.initial)  # it may step back or sideways
        for colour, reg in enumerate(regions):
            starts = {sq for sq, c in start.board.items() if c == (letter.upper() if colour == 0 else letter)}
            if not starts:
                continue
            inside = reg & starts
            later = bool(reg & _ahead(r, starts, colour)) or (back and bool(reg))
            again = again or later
            if (inside and inside != starts) or (not inside and later):
                raise _refuse(name, r, "doubleStepRegionWhite" if colour == 0 else "doubleStepRegionBlack",
                              f"initial moves of the {k}: morphchess allows them from start squares, "
                              "Fairy-Stockfish from this region")
            used.add(bool(inside))
    if len(used) > 1 or (used == {False} and any(k != "pawn" for k in initial)):
        raise _refuse(name, r, "doubleStepRegionWhite", "initial moves for some pieces or sides only")
    return (initial if used == {True} else []), (regions[0], regions[1]), again


def _ahead(r: _Rules, squares: set[int], colour: int) -> set[int]:
    """The squares beyond the hindmost rank of ``squares``, forward for ``colour``: where a piece
    from there that moves only forward may stand once it has moved."""
    ranks = [sq // r.files for sq in squares]
    back = min(ranks) if colour == 0 else max(ranks)
    return {sq for sq in range(r.files * r.ranks) if (sq // r.files > back if colour == 0 else sq // r.files < back)}


def _castling(name: str, r: _Rules, start: _Start, king_key: str, out: _Out) -> str:
    """The king's castling: each side's king steps and partner as Fairy-Stockfish finds them (the
    first ``castlingRookPieces`` piece from ``castlingRook...File`` inward, :attr:`Variant.castling`),
    and an XBetza ``O`` move that says it where XBetza can (``isO2``; the ID text of :func:`to_id`)."""
    letter = r.pieces[king_key][0]
    rank = _number(r.keys.get("castlingRank", "1"), Section(name, "", {}, "", 0), "castlingRank") - 1
    rooks = {r.pieces[k][0] for k in r.sets["castlingRookPieces"] if k in r.pieces}
    if start.castling == "-":
        return ""
    shapes = set()  # (king steps, own pieces outside the partner) of each side and colour
    for colour in (0, 1):
        row = rank if colour == 0 else r.ranks - 1 - rank
        mine = letter.upper() if colour == 0 else letter
        kings = [sq % r.files for sq, c in start.board.items() if c == mine and sq // r.files == row]
        if not kings:
            return ""
        king = kings[0] if len(kings) == 1 else _file(r.keys.get("castlingKingFile", "e"), Section(name, "", {}, "", 0),
                                                      "castlingKingFile")
        for side, dest_key, dest, rook_key, rook_default in (
                (-1, "castlingQueensideFile", "c", "castlingRookQueensideFile", 0),
                (1, "castlingKingsideFile", "g", "castlingRookKingsideFile", r.files - 1)):
            dest_file = _file(r.keys.get(dest_key, dest), Section(name, "", {}, "", 0), dest_key)
            rook_file = _file(r.keys[rook_key], Section(name, "", {}, "", 0), rook_key) if rook_key in r.keys \
                else rook_default
            partner = next((row * r.files + f for f in range(rook_file, king, -side)
                            if (c := start.board.get(row * r.files + f, "")).lower() in rooks
                            and c.isupper() == (colour == 0)), None)
            if partner is None:
                continue
            if (dest_file - king) * side <= 0 or (partner % r.files - king) * side <= (dest_file - king) * side:
                raise _refuse(name, r, dest_key, "the king must move towards its partner, which stays beyond the "
                                                 "king's landing square")
            out.castling[(colour, side)] = ((dest_file - king) * side, partner)
            own = str.isupper if colour == 0 else str.islower
            outer = range(partner % r.files + side, r.files if side > 0 else -1, side)
            shapes.add(((dest_file - king) * side, sum(own(start.board.get(row * r.files + f, "")) for f in outer)))
    if not out.castling:
        return ""
    n, skip = min(shapes)
    out.castling_said = len(out.castling) == 4 and len(shapes) == 1
    return f"is{'j' * skip}O{n}"


def _drops(name: str, r: _Rules, out: _Out, start: _Start) -> None:
    """Hands: captures to the capturer's hand as they are (holdingsType=-2) or hands given at the start."""
    drops, to_hand = _bool(r, "pieceDrops", False), _bool(r, "capturesToHand", False)
    if not drops:
        if any(start.hands):
            raise _refuse(name, r, "startFen", "pieces in hand but pieceDrops is false")
        if to_hand:
            raise _refuse(name, r, "capturesToHand", "captured pieces in hand that are never dropped")
        if _bool(r, "mustDrop", False):
            raise _refuse(name, r, "mustDrop", "drops that must come first, but pieceDrops is false")
        return
    if to_hand:
        chess_style = out.params.get("maxPromote", "0") != "0" and out.params.get("promoChoice") != "+"
        if not _bool(r, "dropLoop", False) and chess_style:
            raise _refuse(name, r, "capturesToHand", "a captured promoted piece goes to the hand as a pawn "
                                                     "(dropLoop = false); morphchess keeps it as it is")
        # shogi style: a captured promoted piece goes to the hand as the type it promoted from
        out.params["holdingsType"] = "-1" if "promoOffset" in out.params and not _bool(r, "dropLoop", False) else "-2"
    elif not any(start.hands):
        return
    out.drops = True
    if _bool(r, "mustDrop", False):
        _must_drop(name, r, out)
    pawn_in_hand = to_hand or any("p" in h for h in start.hands)
    if pawn_in_hand and "pawn" in r.pieces and not _bool(r, "firstRankPawnDrops", False):
        raise _refuse(name, r, "firstRankPawnDrops", "morphchess drops a pawn wherever it can move from, "
                                                     "the first rank too")
    if (pawn_in_hand and "pawn" in r.pieces and int(out.params.get("promoZone", "1")) > 1
            and not _bool(r, "promotionZonePawnDrops", False)):
        raise _refuse(name, r, "promotionZonePawnDrops", "morphchess drops pawns in a deep promotion zone")


def _must_drop(name: str, r: _Rules, out: _Out) -> None:
    """mustDrop and mustDropType (Variant.must_drop)."""
    kind = r.keys.get("mustDropType", "*").strip()
    if kind == "*":
        out.fields["must_drop"] = 0
    elif kind.lower() in [letter for letter, _betza in r.pieces.values()]:
        out.fields["must_drop"] = kind.upper()
    else:
        raise _refuse(name, r, "mustDropType", "not the letter of a piece of the game, nor *")


def _flags(name: str, r: _Rules, out: _Out, letters: dict[str, str]) -> None:
    """The flag rules (:attr:`Variant.flag_region`) and ``checking = false``; a side's region is
    ``flagRegionWhite`` (or ``whiteFlag``), else ``flagRegion``, and its piece likewise."""
    out.checking = _bool(r, "checking", True)
    regions, pieces = [], []
    for side, old in (("White", "whiteFlag"), ("Black", "blackFlag")):
        region = _region(r, "flagRegion" + side)
        region = _region(r, old) if region is None else region
        regions.append((_region(r, "flagRegion") if region is None else region) or set())
        chosen = r.sets.get("flagPiece" + side) or r.sets.get("flagPiece") or ["*"]
        pieces.append(None if chosen[0] == "*" else letters.get(chosen[0]))
    if not any(regions):
        return
    count = _number(r.keys.get("flagPieceCount", "1"), Section(name, "", {}, "", 0), "flagPieceCount")
    out.flag = {"flag_piece": (pieces[0], pieces[1]), "flag_region": (frozenset(regions[0]), frozenset(regions[1])),
                "flag_count": count, "flag_move": _bool(r, "flagMove", False),
                "flag_safe": _bool(r, "flagPieceSafe", False),
                "flag_blocked_win": _bool(r, "flagPieceBlockedWin", False)}


def _connection(name: str, r: _Rules, out: _Out, letters: dict[str, str]) -> None:
    """The connection rules (:attr:`Variant.connection`): n in a row, an n x n block, n on a line,
    a chain between two regions; in the directions the keys switch on."""
    sizes = {}
    for key in ("connectN", "connectNxN", "collinearN"):
        sizes[key] = _number(r.keys.get(key, "0"), Section(name, "", {}, "", 0), key)
    regions = tuple((frozenset(_region(r, f"connectRegion1{side}") or ()),
                     frozenset(_region(r, f"connectRegion2{side}") or ())) for side in ("White", "Black"))
    if not any(sizes.values()) and not any(first and second for first, second in regions):
        return
    value = r.keys.get("connectValue", "win").lower()
    if value not in _VALUES:
        raise _refuse(name, r, "connectValue", "a connection wins, loses or draws")
    directions = [d for key, ds in (("connectHorizontal", (EAST,)), ("connectVertical", (NORTH,)),
                                    ("connectDiagonal", DIAGONALS)) if _bool(r, key, True) for d in ds]
    types = r.sets.get("connectPieceTypes") or ["*"]
    out.connect_letters = [] if "*" in types else [letters[k] for k in types if k in letters]
    if "*" not in types and not out.connect_letters:
        return  # none of the pieces that connect is in the game: no connection can be made
    out.connection = Connection(frozenset(), tuple(directions), sizes["connectN"], sizes["connectNxN"],
                                sizes["collinearN"], regions, _VALUES[value])


def _n_move_types(r: _Rules, out: _Out) -> None:
    """A warning where ``nMoveRuleTypes`` names other types than morphchess's n-move count
    resets on (the promoting types and those named ... pawn: :meth:`Variant.is_pawn_like`)."""
    theirs = {k for k in r.sets.get("nMoveRuleTypes", []) if k in r.pieces}
    ours = {k for k in r.pieces if k in r.sets["promotionPawnTypes"] or (k != "king" and k.lower().endswith("pawn"))}
    if theirs != ours and r.keys.get("nMoveRule", "50") != "0":
        out.notes.append(f"nMoveRuleTypes: Fairy-Stockfish's n-move count is reset by the moves of "
                         f"{', '.join(sorted(theirs)) or 'no type'}, morphchess's by those of "
                         f"{', '.join(sorted(ours)) or 'no type'}: games may end differently")


def _draw_scoring(name: str, r: _Rules, out: _Out) -> None:
    """How repetitions, stalemates and draws score (:attr:`Variant.repetition_value`,
    ``repetition_absolute``, ``perpetual_check_loses``, ``stalemate_piece_count``,
    ``material_counting``)."""
    folds = r.keys.get("nFoldValue", "draw").lower()
    if folds not in _VALUES:
        raise _refuse(name, r, "nFoldValue", "a repetition wins, loses or draws")
    counting = r.keys.get("materialCounting", "none").lower()
    if counting not in ("none", "unweighted", "whitedrawodds", "blackdrawodds"):
        raise _refuse(name, r, "materialCounting", "morphchess counts material unweighted or gives draw odds; "
                                                   "Janggi's weights need Janggi's pieces")
    out.losing.update(repetition_value=_VALUES[folds], repetition_absolute=_bool(r, "nFoldValueAbsolute", False),
                      stalemate_piece_count=_bool(r, "stalematePieceCount", False),
                      perpetual_check_loses=_bool(r, "perpetualCheckIllegal", False),
                      material_counting=None if counting == "none" else counting)


def _end_rules(name: str, r: _Rules, out: _Out, letters: dict[str, str]) -> None:
    """Stalemate, checkmate, the n-move and repetition rules, extinction and bare king."""
    p = out.params
    stalemate = r.keys.get("stalemateValue", "draw").lower()
    if stalemate not in ("draw", "loss", "win"):
        raise _refuse(name, r, "stalemateValue", "morphchess scores stalemate as a draw, a loss or a win")
    p["stalemate"] = "loss" if stalemate == "loss" else "draw"
    checkmate = r.keys.get("checkmateValue", "loss").lower()
    if checkmate not in ("loss", "win"):
        raise _refuse(name, r, "checkmateValue", "morphchess scores checkmate as a loss or a win")
    out.losing.update(must_capture=_bool(r, "mustCapture", False), stalemate_wins=stalemate == "win",
                      checkmate_wins=checkmate == "win")
    p["fiftyMoves"] = r.keys.get("nMoveRule", "50")
    _n_move_types(r, out)
    folds = r.keys.get("nFoldRule", "3")
    if folds == "1":
        raise _refuse(name, r, "nFoldRule", "a repetition count of 1 ends every game at once")
    p["repetitions"] = folds
    _draw_scoring(name, r, out)
    value = r.keys.get("extinctionValue", "none").lower()
    types = r.sets.get("extinctionPieceTypes", [])
    if value == "none" or not types:
        return
    count, opponent = r.keys.get("extinctionPieceCount", "0"), r.keys.get("extinctionOpponentPieceCount", "0")
    if value not in ("loss", "win"):
        raise _refuse(name, r, "extinctionValue", "morphchess's extinction rules lose or win the game")
    if types == ["*"] and count == "1" and opponent == "2" and value == "loss":
        p["baring"] = "0"  # a bare king loses, unless it bares the other king at once (Shatranj)
        return
    out.losing["extinction_wins"] = value == "win"
    if types == ["*"] and opponent == "0":  # the whole army: a side with at most `count` pieces
        out.losing["army_extinction"] = _number(count, Section(name, "", {}, "", 0), "extinctionPieceCount")
        return
    if opponent != "0" or "*" in types:
        raise _refuse(name, r, "extinctionOpponentPieceCount", "morphchess's extinction of types does not look at "
                                                               "the opponent's count")
    out.losing["extinction_count"] = _number(count, Section(name, "", {}, "", 0), "extinctionPieceCount")
    p["extinction"] = "".join(letters[k] for k in types if k in letters)
