"""Interactive Diagram (ID) definition text -> :class:`~morphchess.variant.Variant`.

Both forms of the text load: one item per line (as on a web page) and the
items joined by single spaces (as in the seed files), where piece names may
contain spaces (``dragon horse:H:BW:...``).  Lines starting with ``#`` are
comments.  :func:`load` runs five named steps: read the items, build the
piece types, settle royalty, read the rules, place the setups.  Besides the
ID's own keys, morphchess reads a few of its own, documented in
``docs/definitions.md``: ``transform``, ``setup``, ``bareKing``,
``fiftyMoves``, ``repetitions`` and the zones ``confine``, ``forbid`` and ``flyingGeneral``.
"""

from __future__ import annotations

import re
import unicodedata
import warnings
from dataclasses import dataclass, field

from .betza import BetzaError, expansion, parse
from .boardstyle import BOARD_STYLES
from .errors import cut, quote
from .variant import BLACK, WHITE, PieceType, PromoLimit, Variant, VariantError

__all__ = ["load", "build", "VariantWarning", "parse_placement", "DEFAULT_MOVES"]


class VariantWarning(UserWarning):
    """A definition item that was kept but is not understood or not enforced."""


# Keys the ID reads that change only the look (or the built-in AI) of the diagram.
COSMETIC_KEYS = {
    "graphicsDir", "squareSize", "graphicsType", "whitePrefix", "blackPrefix", "lightShade",
    "darkShade", "startShade", "shady", "rimColor", "coordColor", "borders", "firstRank", "fileOffset",
    "rankOffset", "background", "theme", "enableAI", "newClick", "trackPieces", "trackedTypes",
    "useMarkers", "hiddenRank", "title", "name", "autoComplete", "lastRank", "flipLabels",
    "tradeThreshold", "clocks",
}
# Keys with a rule meaning that this loader reads (the ID's and morphchess's own).
_RULE_KEYS = {
    "files", "ranks", "promoZone", "promoChoice", "maxPromote", "promoOffset", "stalemate", "baring",
    "royal", "symmetry", "transform", "bareKing", "fiftyMoves", "repetitions", "enPassant", "holdingsType",
    "shuffle", "protected", "counterStrike", "iron", "antiTrade", "extinction", "succession", "satellite",
    "castleFlip", "autoGate", "zonal", "confine", "forbid", "flyingGeneral", "boardStyle",
}

# The moves the ID gives a piece line whose move field is empty, looked up by
# the piece name in lower case, whole (no plurals, no prefixes).  "king" is
# the only one that depends on the board (KisO3 on boards wider than 8 files).
DEFAULT_MOVES = {
    "pawn": "ifmnDfmWfceF", "knight": "N", "bishop": "B", "rook": "R", "queen": "Q",
    "cardinal": "BN", "archbishop": "BN", "chancellor": "RN", "marshall": "RN", "amazon": "QN",
    "lion": "KNADcaKcabKmabK", "mao": "mafsW", "horse": "mafsW", "elephant": "mafF", "cannon": "mRcpR",
    "pao": "mRcpR", "advisor": "F", "lance": "fR", "copper": "vWfF", "silver": "FfW",
    "silvergeneral": "FfW", "gold": "WfF", "goldgeneral": "WfF", "man": "K", "commoner": "K",
    "ferz": "F", "camel": "C", "zebra": "Z", "nightrider": "N0", "grasshopper": "gQ",
    "griffon": "yafsF", "gryphon": "yafsF", "wizard": "FC", "champion": "WAD",
    "falcon": "mafmafsKmafsmafKmaflmafrKmafrmaflK",
}
_ID = re.compile(r"\+?[A-Za-z]")
_NUMBER = re.compile(r"-?[0-9]{1,9}")  # ASCII digits only, at most nine (the ID's parseInt reads more)

# Limits, checked before the work they bound (docs/definitions.md, "Limits").
MAX_FILES, MAX_RANKS = 26, 99
MAX_TYPES = 52  # one per ID: 26 letters and 26 '+' letters
MAX_NAME = 100  # characters of a piece's or a setup's name (they reach pages and records)
MAX_EXPANSION = 20_000  # squares one piece visits from one square (betza.expansion)
MAX_TABLE = 10_000_000  # squares times the expansions of every type: the move tables' size
MAX_POSITION = 50_000  # the expansions of every piece of a start array and its hands: one move list's work
_PIECE_START = re.compile(r"^[^=]*:")


@dataclass
class _Items:
    """The definition's items, sorted: keys, piece lines (with their morph= tables) and setups."""

    params: dict[str, str] = field(default_factory=dict)
    repeated: dict[str, list[str]] = field(default_factory=dict)
    pieces: list[list] = field(default_factory=list)  # [line, morph value or None]
    setups: list[str] = field(default_factory=list)


@dataclass
class _Types:
    """The piece types, where each starts, the holes and the hands."""

    types: list[PieceType]
    placements: list[tuple[int, list[int], list[int]]]
    holes: tuple[list[int], list[int]]
    hands: tuple[dict[int, int], dict[int, int]]
    morphs: dict[int, str] = field(default_factory=dict)  # type index -> morph= table text
    notes: list[str] = field(default_factory=list)  # warnings about how the types were read


def load(text: str, name: str = "custom") -> Variant:
    """Load ID definition text.  Raises :class:`VariantError` naming the item at fault.

    Unknown keys are kept in ``variant.params``; they and every rule of the
    page that morphchess does not enforce are listed in ``variant.warnings``
    and reported once with :class:`VariantWarning`.
    """
    variant = build(text, name)
    for w in variant.warnings:
        warnings.warn(f"{name}: {w}", VariantWarning, stacklevel=2)
    variant.freeze()
    return variant


def build(text: str, name: str = "custom") -> Variant:
    """The variant of ID definition text, not yet frozen, its warnings listed but not reported
    (another definition language builds on it: :mod:`morphchess.fairy_ini`)."""
    items = _read_items(text)
    files, ranks = _board_size(items.params)
    warns = [f"unknown key {k}={v} kept but not used" for k, v in items.params.items()
             if k not in COSMETIC_KEYS and k not in _RULE_KEYS]
    built = _piece_types(items, files, ranks)
    warns += built.notes
    variant = Variant(name=name, files=files, ranks=ranks, types=built.types, setups={},
                      params=items.params, text=text)
    variant.holdings = built.hands
    warns += _resolve_morphs(variant, built.morphs)
    _royalty(variant, items)
    _rules(variant, items)
    _zones(variant, items)
    _setups(variant, items, built)
    warns += _not_enforced(variant, items) + _outside_text(variant)
    variant.warnings = warns
    return variant


# -- step 1: items -------------------------------------------------------------------------------
def _read_items(text: str) -> _Items:
    """Sort the items into keys, piece lines with their morph tables, and setups."""
    out = _Items()
    for item in _split(text):
        key, eq, value = item.partition("=")
        if not eq or ":" in key:
            out.pieces.append([item, None])
        elif key == "morph":
            if not out.pieces:
                raise VariantError(f"{item[:40]}: morph= before any piece line")
            if out.pieces[-1][1] is not None:
                raise VariantError(f"piece {quote(out.pieces[-1][0].split(':')[0])}: two morph= tables")
            out.pieces[-1][1] = value
        elif key == "setup":
            out.setups.append(value)
        else:
            out.params[key] = value
            out.repeated.setdefault(key, []).append(value)
    if not out.pieces:
        raise VariantError("the definition has no piece lines")
    return out


def _split(text: str) -> list[str]:
    """Split definition text into items (key=value or piece line)."""
    items: list[str] = []
    for number, line in enumerate(text.lstrip("\ufeff").splitlines(), 1):
        _printable(line, number)
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        pending = ""  # words of a piece name with spaces, or of a value with spaces
        for tok in line.split():
            if "=" not in tok and ":" not in tok:
                pending = f"{pending} {tok}".strip()
                continue
            if pending:
                if _PIECE_START.match(tok):
                    tok = f"{pending} {tok}"
                elif items:
                    items[-1] = f"{items[-1]} {pending}"
                else:
                    raise VariantError(f"unexpected text {quote(pending)} before the first item")
                pending = ""
            items.append(tok)
        if pending:
            if not items:
                raise VariantError(f"unexpected text {quote(pending)} before the first item")
            items[-1] = f"{items[-1]} {pending}"
    return items


def _printable(line: str, number: int) -> None:
    """Refuse control and format characters (NUL, escapes, bidirectional overrides; a tab is
    white space): names and values reach pages and records, where they would hide or garble text."""
    for ch in line:
        if ch != "\t" and unicodedata.category(ch) in ("Cc", "Cf", "Cs"):
            raise VariantError(f"line {number} ({quote(line.strip(), 30)}): control character "
                               f"U+{ord(ch):04X} is not allowed")


def _board_size(params: dict) -> tuple[int, int]:
    return _int(params, "files", 8, 1, MAX_FILES), _int(params, "ranks", 8, 1, MAX_RANKS)


def _int(params: dict, key: str, default: int, low: int = 0, high: int = 10_000) -> int:
    """The whole number ``key=`` gives (ASCII digits), between ``low`` and ``high``."""
    if key not in params:
        return default
    text = params[key].strip()
    if not _NUMBER.fullmatch(text):
        raise VariantError(f"{key}={cut(text)}: a whole number from {low} to {high} is needed")
    v = int(text)
    if not low <= v <= high:
        raise VariantError(f"{key}={v}: must be from {low} to {high}")
    return v


# -- step 2: piece types -------------------------------------------------------------------------
def _piece_types(items: _Items, files: int, ranks: int) -> _Types:
    """Build the piece types from the piece lines; a line named ``hole`` removes squares instead."""
    out = _Types([], [], ([], []), ({}, {}))
    table = 0  # the move tables' size so far (squares times expansions)
    for line, morph_value in items.pieces:
        fields = line.split(":")
        pname = fields[0].strip()
        where = f"piece {quote(pname) if pname else len(out.types) + 1}"
        if _skipped(fields, line, out.notes):
            continue
        if len(fields) > 6:
            out.notes.append(f"{where}: {len(fields) - 6} field(s) after the sixth ({quote(':'.join(fields[6:]))}) "
                             "ignored, as the ID ignores them")
        fields += [""] * (6 - len(fields))
        white, black = _squares(fields[4], files, ranks, where)
        if pname.lower() == "hole":
            out.holes[WHITE].extend(white)
            out.holes[BLACK].extend(black)
            continue
        if len(out.types) == MAX_TYPES:
            raise VariantError(f"{where}: more than {MAX_TYPES} piece types (one per ID)")
        t = _piece_type(len(out.types) + 1, pname, fields, files, ranks, where)
        table += files * ranks * _bounded(t, files, ranks, where)
        if table > MAX_TABLE:
            raise VariantError(f"{where}: the move tables of the pieces up to this one would hold about {table} "
                               f"squares on a {files}x{ranks} board, at most {MAX_TABLE} are built")
        if morph_value is not None:  # resolved once every letter is known
            out.morphs[t.index] = morph_value
        if re.search(r"(?<![a-z])[a-z]*d[a-z]*U", t.betza):
            out.notes.append(f"{where}: XBetza {quote(t.betza)}: 'dU' takes any own piece anywhere on the board, "
                             "as the ID shows the move; what a page's script restricts it to (Tamerlane II: "
                             "the king's swap with a Prince, only when checkmated, singled out by BadZone) "
                             "is not played")
        out.types.append(t)
        out.placements.append((t.index, white, black))
        for colour, count in enumerate(_hand_counts(fields[5], files * ranks, where)):
            if count:
                out.hands[colour][t.index] = count
    if not out.types:
        raise VariantError("the definition has no piece lines")
    renamed = _share_ids(out.types)
    if renamed:
        out.notes.append("IDs shared by several types (the ID allows it) get free letters in position "
                         f"text and moves: {', '.join(renamed)}")
    return out


def _skipped(fields: list[str], line: str, notes: list[str]) -> bool:
    """The ID skips a piece line with fewer than five fields, and one with neither a name nor an
    image; so does this loader, with a note naming the line."""
    if len(fields) < 5:
        notes.append(f"piece line {quote(line)} has {len(fields)} field(s), fewer than the five "
                     "name:ID:moves:image:squares: skipped, as the ID skips it")
        return True
    if not fields[0].strip() and not fields[3].strip():
        notes.append(f"piece line {quote(line)} has neither a name nor an image: skipped, as the ID skips it")
        return True
    return False


def _bounded(t: PieceType, files: int, ranks: int, where: str) -> int:
    """The expansion of ``t`` (betza.expansion); refuses a piece whose moves would visit too many
    squares from one square, before any table is built."""
    size = expansion(t.moves, files, ranks)
    if size > MAX_EXPANSION:
        raise VariantError(f"{where}: XBetza {quote(t.betza)} reaches about {size} squares from one square "
                           f"of a {files}x{ranks} board, at most {MAX_EXPANSION} are followed")
    return size


def _share_ids(types: list[PieceType]) -> list[str]:
    """Decision: a type whose ID an earlier type has gets the first letter no type asks for
    (position text must tell them apart); returns what was renamed."""
    free = [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in {t.letter for t in types}]
    first: dict[str, PieceType] = {}
    renamed = []
    for t in types:
        owner = first.setdefault(t.letter, t)
        if owner is t:
            continue
        if not free:
            raise VariantError(f"piece {t.name!r}: ID {t.letter!r} is already used by {owner.name!r} "
                               "and no letter is left for it")
        renamed.append(f"{t.name!r} {t.letter}->{free[0]}")
        t.letter = free.pop(0)
    return renamed


def _piece_type(index: int, pname: str, fields: list[str], files: int, ranks: int, where: str) -> PieceType:
    """One piece type; an empty ID or move field takes the ID's default for the name."""
    key = pname.lower()
    if len(pname) > MAX_NAME:
        raise VariantError(f"piece {quote(pname)}: a name of {len(pname)} characters, at most {MAX_NAME}")
    letter = fields[1].strip() or ("N" if key == "knight" else pname[:1].upper())
    if not _ID.fullmatch(letter):
        raise VariantError(f"{where}: ID {quote(letter)} must be a letter, or '+' and a letter "
                           "(multi-letter IDs are not supported)")
    betza = fields[2].strip()
    if not betza:
        betza = ("KisO3" if files > 8 else "KisO2") if key == "king" else DEFAULT_MOVES.get(key, "")
        if not betza:
            raise VariantError(f"{where}: no moves given and the ID has no default for the name {pname!r}")
    try:
        moves = parse(betza, max(files, ranks) - 1)
    except BetzaError as e:
        raise VariantError(f"{where}: {e}") from None
    return PieceType(index, pname, letter.upper(), betza, moves, fields[3].strip())


def _hand_counts(value: str, most: int, where: str) -> tuple[int, int]:
    """The sixth field: pieces in hand at the start, ``n`` for both sides or ``white,black``; at most
    ``most`` (the board's squares) each."""
    parts = [p.strip() for p in value.split(",")] if value.strip() else ["0"]
    if len(parts) > 2 or not all(re.fullmatch(r"[0-9]{1,9}", p) for p in parts):
        raise VariantError(f"{where}: holdings {quote(value)} must be a count or two counts 'white,black'")
    counts = int(parts[0]), int(parts[-1])
    if max(counts) > most:
        raise VariantError(f"{where}: holdings {value.strip()}: at most {most} (the board's squares) in a hand")
    return counts


def _squares(spec: str, files: int, ranks: int, where: str) -> tuple[list[int], list[int]]:
    """Parse ``a2,c2-e2,,a8``: White's squares, then after the empty element Black's."""
    white: list[int] = []
    black: list[int] = []
    target = white
    if not spec.strip():
        return white, black
    for part in spec.split(","):
        part = part.strip()
        if not part:
            target = black
            continue
        ends = part.split("-")
        if len(ends) > 2:
            raise VariantError(f"{where}: bad square range {quote(part)}")
        coords = [_coord(e, files, ranks, where) for e in ends]
        (f0, r0), (f1, r1) = coords[0], coords[-1]
        if len(target) + (abs(r1 - r0) + 1) * (abs(f1 - f0) + 1) > files * ranks:
            raise VariantError(f"{where}: the square list names more squares than the board has")
        for r in range(min(r0, r1), max(r0, r1) + 1):
            for f in range(min(f0, f1), max(f0, f1) + 1):
                target.append(r * files + f)
    return white, black


def _coord(name: str, files: int, ranks: int, where: str) -> tuple[int, int]:
    m = re.fullmatch(r"([a-z])([0-9]{1,3})", name)
    if not m:
        raise VariantError(f"{where}: {quote(name)} is not a square")
    f, r = ord(m[1]) - 97, int(m[2]) - 1
    if not (0 <= f < files and 0 <= r < ranks):
        raise VariantError(f"{where}: square {quote(name)} is off the {files}x{ranks} board")
    return f, r


def _letters(variant: Variant, value: str, key: str, shown: str | None = None) -> list[int]:
    """Type indices named by IDs in ``value`` (``+X`` counts as one ID); errors show ``key=shown``."""
    out = []
    for token in re.findall(r"\+?.", value):
        try:
            index = variant.type_by_letter(token).index
        except KeyError:
            raise VariantError(f"{key}={cut(shown or value)}: {token!r} is not the ID of a piece type") from None
        if index not in out:
            out.append(index)
    return out


def _resolve_morphs(variant: Variant, morphs: dict[int, str]) -> list[str]:
    """Each type's morph table as type indices per square; returns the warnings about the tables (one
    for tables shorter than the board, one for marks that are no IDs, each naming the pieces)."""
    short: list[str] = []
    marks: dict[str, list[str]] = {}
    for index, value in morphs.items():
        t = variant.type(index)
        image = _board_image(value, variant.files, variant.ranks, f"piece {t.name!r} morph=")
        if value.count("/") + 1 < variant.ranks:
            short.append(repr(t.name))
        for sq, c in enumerate(image):
            if c and not c.isalpha() and variant.square_name(sq) not in marks.setdefault(c, []):
                marks[c].append(variant.square_name(sq))
        t.morph = [_letters(variant, c, f"piece {t.name!r} morph")[0] if c and c.isalpha() else None for c in image]
    notes = []
    if short:
        notes.append(f"morph= of {', '.join(short)}: fewer rank segments than the board's {variant.ranks} ranks, "
                     "read as the top ranks (the opponent's side), the others unchanged")
    if marks:
        notes.append("morph= marks " + "; ".join(f"{c!r} on {', '.join(sqs)}" for c, sqs in sorted(marks.items()))
                     + ": no piece IDs; what the page makes of them (Rooksquare Chess: a win on the opponent's "
                     "rook squares) is not played, pieces keep their type there")
    return notes


def _board_image(value: str, files: int, ranks: int, where: str) -> list[str | None]:
    """Parse a morph table: rank segments from the top (fewer segments than ranks: the rest unchanged),
    '.' = no change.  Returns per-square characters."""
    segs = value.split("/")
    if len(segs) > ranks:
        raise VariantError(f"{where}: {len(segs)} rank segments, the board has {ranks} ranks")
    out: list[str | None] = [None] * (files * ranks)
    for i, seg in enumerate(segs):
        if not seg:
            continue
        if len(seg) != files:
            raise VariantError(f"{where}: rank {ranks - i} has {len(seg)} characters, the board has {files} files")
        r = ranks - 1 - i
        for f, ch in enumerate(seg):
            if ch != ".":
                out[r * files + f] = ch
    return out


# -- step 3: royalty -----------------------------------------------------------------------------
def _type_list(variant: Variant, items: _Items, key: str) -> list[int]:
    """Types named by every ``key=`` item: IDs (``KJ``) or type numbers (``10``); ``0`` names none
    (the ID reads a number there, and its types count from 1: ``extinction=0`` is off)."""
    out: list[int] = []
    for value in items.repeated.get(key, []):
        value = value.strip()
        if re.fullmatch(r"[0-9]+", value):
            number = _int({key: value}, key, 0, 0, len(variant.types))
            found = [number] if number else []
        else:
            found = _letters(variant, value, key)
        out += [i for i in found if i not in out]
    return out


def _royalty(variant: Variant, items: _Items) -> None:
    """royal= names IDs or type numbers; without it the last type is royal, unless extinction= names it.

    Decision (docs/rules.md): what a royal type morphs into stays royal.
    """
    last = variant.types[-1].index
    if "royal" in items.repeated:  # as in the ID, royal=0 leaves the game without a royal type
        todo = _type_list(variant, items, "royal")
    else:
        todo = [] if last in _type_list(variant, items, "extinction") else [last]
    while todo:
        t = variant.type(todo.pop())
        t.royal = True
        for target in t.morph or ():
            if target and not variant.type(target).royal and target not in todo:
                todo.append(target)


# -- step 4: rules -------------------------------------------------------------------------------
def _rules(variant: Variant, items: _Items) -> None:
    params = items.params
    variant.promo_zone = _int(params, "promoZone", 1, 0, variant.ranks)
    variant.max_promote = _int(params, "maxPromote", 1, 0, 250)  # the ID numbers at most 250 types
    variant.promo_offset = _int(params, "promoOffset", 0, 0, len(variant.types))
    _promo_choice(variant, params.get("promoChoice"))
    variant.stalemate_loses = params.get("stalemate", "draw").strip().lower() != "draw"
    variant.baring = _int(params, "baring", 0, 0, 250) if "baring" in params else None
    bare = params.get("bareKing", "id").lower()
    if bare not in ("id", "immediate"):
        raise VariantError(f"bareKing={cut(bare)}: use 'id' or 'immediate'")
    variant.bare_king_immediate = bare == "immediate"
    variant.en_passant = _int(params, "enPassant", 1, 0, 1) != 0
    variant.fifty_moves = _int(params, "fiftyMoves", 50, 0, 10_000)
    variant.repetitions = _int(params, "repetitions", 3, 0, 100)
    if variant.repetitions == 1:
        raise VariantError("repetitions=1: use 0 (off) or a count of at least 2")
    variant.holdings_type = _int(params, "holdingsType", 0, -2, 250)
    variant.captures_to_hand = variant.holdings_type != 0
    for key, attr in (("protected", "protected"), ("counterStrike", "counter_strike"), ("iron", "iron"),
                      ("extinction", "extinction"), ("succession", "succession")):
        setattr(variant, attr, tuple(_type_list(variant, items, key)))
    _transforms(variant, params)
    variant.shuffle = _shuffle_spec(variant, params.get("shuffle", ""))


def _promo_choice(variant: Variant, value: str | None) -> None:
    """promoChoice: IDs, each optionally after ``!`` (not on the last rank) or ``*`` (from the hand)
    and before a number (only within that many ranks of the last).  Absent: the ID's default
    ``QNRB``, keeping the letters that name types."""
    if value is None:
        variant.promo_choice = [t.index for t in variant.types if t.letter in "QNRB"]
        return
    if value.strip() == "+":  # Tamerlane's: promotion only by promoOffset, no chess-style choice
        variant.promo_choice = []
        return
    choices, limits = [], {}
    for prefix, letter, depth in re.findall(r"([!*]?)(\+?[^!*+\d])(\d*)", value):
        index = _letters(variant, letter, "promoChoice", value)[0]
        if index not in choices:
            choices.append(index)
        if prefix or depth:
            limits[index] = PromoLimit(prefix == "!", prefix == "*", int(depth) if depth else 0)
    if re.sub(r"([!*]?)(\+?[^!*+\d])(\d*)", "", value):
        raise VariantError(f"promoChoice={cut(value)}: use IDs, each after an optional '!' or '*' "
                           "and before an optional rank count")
    variant.promo_choice = choices
    variant.promo_limits = limits


def _transforms(variant: Variant, params: dict) -> None:
    groups = []
    for group in filter(None, params.get("transform", "").split(",")):
        ids = _letters(variant, group, "transform")
        if len(ids) < 2:
            raise VariantError(f"transform={cut(group)}: a group needs at least two piece types")
        if any(variant.type(i).royal for i in ids):
            raise VariantError(f"transform={cut(group)}: royal types cannot transform")
        groups.append(ids)
    variant.transforms = groups


def _shuffle_spec(variant: Variant, value: str) -> tuple[str, ...]:
    """shuffle=QA,N!BR!AC!QK: groups of IDs shuffled in turn, ``!`` (or ``:``) before an ID
    spreads its pieces over both shades (a single piece keeps its shade)."""
    groups = tuple(g.strip() for g in value.split(",") if g.strip())
    for group in groups:
        for token in re.findall(r"[!:#]?(\+?.)", group):
            _letters(variant, token, "shuffle", value)
    return groups


# -- step 4b: zones (morphchess's own keys, docs/definitions.md "Zones") ---------------------------
def _zones(variant: Variant, items: _Items) -> None:
    """``confine=IDS:squares`` (the types stay on these squares) and ``forbid=IDS:squares`` (they
    never enter these), squares as in piece lines and from White's side (Black's mirrored by
    rank); ``flyingGeneral=1``: royal pieces may not face each other on an open file or rank."""
    found: dict[str, dict[int, set[int]]] = {"confine": {}, "forbid": {}}  # key -> type -> squares
    for key, by_type in found.items():
        for value in items.repeated.get(key, []):
            ids, colon, spec = value.partition(":")
            if not colon or not ids.strip() or not spec.strip():
                raise VariantError(f"{key}={value}: use {key}=IDS:SQUARES, e.g. {key}=KA:d1-f3")
            white, black = _squares(spec, variant.files, variant.ranks, f"{key}={value}")
            if black:
                raise VariantError(f"{key}={value}: give White's squares only (Black's are mirrored)")
            for index in _letters(variant, ids.strip(), key, value):
                by_type.setdefault(index, set()).update(white)
    everything = set(range(variant.size))
    confined, forbidden = found["confine"], found["forbid"]
    variant.barred = {i: frozenset((everything - confined[i] if i in confined else set()) | forbidden.get(i, set()))
                      for i in confined.keys() | forbidden.keys()}
    variant.flying_general = _int(items.params, "flyingGeneral", 0) != 0
    style = items.params.get("boardStyle", "chequered").strip().lower()
    if style not in BOARD_STYLES:
        raise VariantError(f"boardStyle={cut(style)}: use {' or '.join(BOARD_STYLES)}")
    variant.board_style = style


# -- step 5: setups ------------------------------------------------------------------------------
def _setups(variant: Variant, items: _Items, built: _Types) -> None:
    """The standard array from the piece lines (with symmetry), then the named setup= arrays."""
    symmetry = items.params.get("symmetry", "mirror").strip().lower()
    if symmetry not in ("mirror", "rotate", "none"):
        raise VariantError(f"symmetry={cut(symmetry)}: use mirror, rotate or none")
    holes = set(built.holes[BLACK])
    for sq in built.holes[WHITE]:
        holes.update(_with_partner(variant, sq, symmetry))
    variant.holes = frozenset(holes)
    start: dict[int, tuple[int, int]] = {}
    for tidx, white, black in built.placements:
        for sq in white:
            for colour, s in zip((WHITE, BLACK), _with_partner(variant, sq, symmetry)):
                _put(variant, start, s, tidx, colour)
        for sq in black:
            _put(variant, start, sq, tidx, BLACK)
    setups: dict[str, dict[int, tuple[int, int]]] = {"standard": start}
    variant.setups = setups
    for spec in items.setups:
        sname, colon, board = spec.partition(":")
        if not colon or not sname or not board:
            raise VariantError(f"setup={cut(spec)}: use setup=NAME:BOARD (a FEN board field)")
        if len(sname) > MAX_NAME:
            raise VariantError(f"setup={cut(sname)}: a name of {len(sname)} characters, at most {MAX_NAME}")
        placed = parse_placement(board, variant, f"setup={sname}")
        setups[sname] = {sq: (t, c) for sq, (t, c, _) in placed.items()}
    for sname, placement in setups.items():
        _position_bounded(variant, sname, placement)


def _position_bounded(variant: Variant, sname: str, placement: dict[int, tuple[int, int]]) -> None:
    """Refuse a start array whose pieces (with the hands) would make one move list too much work."""
    size = {t.index: expansion(t.moves, variant.files, variant.ranks) for t in variant.types}
    work = sum(size[t] for t, _c in placement.values())
    work += sum(size[t] * n for hand in variant.holdings for t, n in hand.items())
    if work > MAX_POSITION:
        raise VariantError(f"setup {sname}: its pieces reach about {work} squares in one move list, at most "
                           f"{MAX_POSITION} are followed")


def _with_partner(variant: Variant, sq: int, symmetry: str) -> list[int]:
    """A White square and, by the symmetry, the square of its Black partner."""
    f, r = sq % variant.files, sq // variant.files
    back = variant.ranks - 1 - r
    if symmetry == "mirror":
        return [sq, back * variant.files + f]
    if symmetry == "rotate":
        return [sq, back * variant.files + variant.files - 1 - f]
    return [sq]


def _put(variant: Variant, start: dict, sq: int, tidx: int, colour: int) -> None:
    """Place a piece of the standard array; on a hole it is left out, as the ID's hole line
    blacks out whatever the piece lines put there (Omega Chess lists pawns a3-l3 under holes)."""
    if sq in variant.holes:
        return
    old = start.get(sq)
    if old and old != (tidx, colour):
        raise VariantError(f"square {variant.square_name(sq)} is given to both "
                           f"{variant.type(old[0]).name!r} and {variant.type(tidx).name!r}")
    start[sq] = (tidx, colour)


def parse_placement(board: str, variant: Variant, where: str) -> dict[int, tuple[int, int, bool | None]]:
    """Parse a FEN-like board field into {square: (type index, colour, virgin mark)}.

    Empty runs are numbers in ASCII digits without a leading zero (``10`` on wide boards; holes count as empty
    squares and must stay empty); a piece is a letter or ``+`` and a letter,
    optionally followed by ``*`` (has moved) or ``^`` (has not moved).
    """
    rows = board.split("/")
    if len(rows) != variant.ranks:
        raise VariantError(f"{where}: {len(rows)} ranks, the board has {variant.ranks}")
    out: dict[int, tuple[int, int, bool | None]] = {}
    for i, row in enumerate(rows):
        r = variant.ranks - 1 - i
        f = 0
        for run, piece, mark in re.findall(r"([0-9]+)|(\+?[A-Za-z]|.)([*^]?)", row):
            if run:
                if run[0] == "0" or len(run) > 3:
                    raise VariantError(f"{where}: rank {r + 1}: {quote(run)} is no count of empty squares "
                                       "(1 to 999, no leading zero)")
                f += int(run)
                continue
            if f >= variant.files:
                raise VariantError(f"{where}: rank {r + 1} describes more than {variant.files} files")
            out[r * variant.files + f] = _placed(variant, piece, mark, r * variant.files + f, where)
            f += 1
        if f != variant.files:
            raise VariantError(f"{where}: rank {r + 1} describes {f} files, the board has {variant.files}")
    return out


def _placed(variant: Variant, piece: str, mark: str, sq: int, where: str) -> tuple[int, int, bool | None]:
    try:
        t = variant.type_by_letter(piece)
    except KeyError:
        raise VariantError(f"{where}: unknown piece letter {piece!r} on rank {sq // variant.files + 1}") from None
    if sq in variant.holes:
        raise VariantError(f"{where}: {variant.square_name(sq)} is a hole, not on the board")
    return t.index, WHITE if piece[-1].isupper() else BLACK, (mark == "^") if mark else None


# -- what the page's game has that morphchess does not play ---------------------------------------
def _not_enforced(variant: Variant, items: _Items) -> list[str]:
    """One line per rule of the page that is loaded but not played (see docs/definitions.md)."""
    params = items.params
    out = []
    if "satellite" in params:
        out.append(f"satellite={params['satellite']}: the page ties the diagram to its own elements and "
                   "scripts; rules it adds there (script functions such as BadZone or WeirdPromotion) or "
                   "only in its prose are not played; check the page")
    out += [f"{key}={params[key]}: {what} is not enforced" for key, what in (
        ("antiTrade", "the anti-trade rule"),
        ("castleFlip", "flipped castling"), ("autoGate", "gating"),
        ("zonal", "piece confinement")) if key in params]
    return out


def _outside_text(variant: Variant) -> list[str]:
    """Rules the text cannot carry but its features point to (docs/definitions.md, "Rules outside
    the text"), one warning per sign found."""
    return [w for w in (sign(variant) for sign in (_river, _no_royal, _side_without_royal, _immobile, _citadels)) if w]


def _river(variant: Variant) -> str | None:
    """A promotion zone that is the far half of the board: ID pages with a river confine pieces by script."""
    if variant.barred:  # the definition gives its zones itself
        return None
    if variant.promo_zone and variant.ranks >= 6 and variant.promo_zone in (variant.ranks // 2, -(-variant.ranks // 2)):
        return (f"promoZone={variant.promo_zone} of {variant.ranks} ranks is the far half of the board, a river: "
                "a page may confine pieces to a palace or to their side of it by script (Xiangqi); not played: "
                "here every piece may leave the palace and cross the river (morphchess's confine=, forbid= and "
                "flyingGeneral= keys give zones, docs/definitions.md; the built-in xiangqi has them)")
    return None


def _no_royal(variant: Variant) -> str | None:
    """No royal piece in the start array and no extinction rule: nobody can be checkmated."""
    if variant.extinction or any(variant.type(t).royal for t, _c in variant.setups["standard"].values()):
        return None
    royal = "".join(t.letter for t in variant.types if t.royal)
    return (f"no royal piece is placed ({f'royal types: {royal}' if royal else 'no royal type'}) and there is no "
            "extinction= rule: neither side can be checkmated, the game ends only by stalemate"
            f"{', bare king' if variant.baring is not None else ''} or a draw")


def _side_without_royal(variant: Variant) -> str | None:
    royals = [sum(1 for t, c in variant.setups["standard"].values() if c == colour and variant.type(t).royal)
              for colour in (WHITE, BLACK)]
    if royals[0] != royals[1] and min(royals) == 0:
        return (f"White starts with {royals[0]} royal piece(s), Black with {royals[1]}: a page rule that makes "
                "the other side's pieces royal (Spartan Chess) is not in the text, not played")
    return None


def _immobile(variant: Variant) -> str | None:
    still = [t.name for t in variant.types if not (t.moves.steps or t.moves.castlings or t.moves.hops or t.moves.paths)]
    if still:
        return (f"{', '.join(repr(n) for n in still)} cannot move: what such a piece does is a rule of the page's "
                "script or prose, not played")
    return None


def _citadels(variant: Variant) -> str | None:
    """Squares that are the only square of their file not a hole (Tamerlane Chess's citadels)."""
    lone = []
    for f in range(variant.files):
        column = range(f, variant.files * variant.ranks, variant.files)
        open_squares = [sq for sq in column if sq not in variant.holes]
        if len(open_squares) == 1 and variant.ranks > 1:
            lone.append(variant.square_name(open_squares[0]))
    if lone:
        return (f"{', '.join(lone)}: alone in a file of holes (a citadel, as in Tamerlane Chess): what such a "
                "square means is outside the text, not played")
    return None
