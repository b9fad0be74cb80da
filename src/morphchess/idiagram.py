"""Interactive Diagram (ID) definition text -> :class:`~morphchess.variant.Variant`.

Both forms of the text load: one item per line (as on a web page) and the
items joined by single spaces (as in the seed files), where piece names may
contain spaces (``dragon horse:H:BW:...``).  Lines starting with ``#`` are
comments.  Besides the ID's own keys, morphchess reads a few of its own,
documented in ``docs/definitions.md``: ``transform``, ``setup``,
``bareKing``, ``fiftyMoves`` and ``repetitions``.
"""

from __future__ import annotations

import re
import warnings

from .betza import BetzaError, parse
from .variant import BLACK, WHITE, PieceType, Variant, VariantError

__all__ = ["load", "VariantWarning"]


class VariantWarning(UserWarning):
    """A definition item that was kept but not understood (e.g. an unknown key)."""


COSMETIC_KEYS = {
    "graphicsDir", "squareSize", "graphicsType", "whitePrefix", "blackPrefix", "lightShade",
    "darkShade", "rimColor", "coordColor", "borders", "firstRank", "enableAI", "newClick",
    "trackPieces", "trackedTypes", "holdingsType", "satellite", "useMarkers",
    "hiddenRank", "title", "name", "autoComplete", "lastRank", "flipLabels",
}
# Keys with a rule meaning (the ID's own and morphchess's, see docs/definitions.md)
_KNOWN_KEYS = {"files", "ranks", "promoZone", "promoChoice", "maxPromote", "stalemate", "baring",
               "royal", "symmetry", "transform", "bareKing", "fiftyMoves", "repetitions", "enPassant"}
# Defaults the ID gives to well-known piece names: name -> (ID, XBetza).
WELL_KNOWN = {
    "pawn": ("P", "ifmnDfmWfceF"), "knight": ("N", "N"), "bishop": ("B", "B"), "rook": ("R", "R"),
    "queen": ("Q", "Q"), "king": ("K", None), "archbishop": ("A", "BN"), "cardinal": ("A", "BN"),
    "princess": ("A", "BN"), "chancellor": ("C", "RN"), "marshall": ("M", "RN"), "empress": ("E", "RN"),
    "amazon": ("Z", "QN"), "dragon horse": ("H", "BW"), "dragon king": ("D", "RF"),
    "nightrider": ("N", "NN"), "camel": ("C", "C"), "zebra": ("Z", "Z"), "ferz": ("F", "F"),
    "wazir": ("W", "W"), "alfil": ("A", "A"), "dabbaba": ("D", "D"), "commoner": ("M", "K"),
    "man": ("M", "K"), "duke": ("L", "K"),
}
_PIECE_START = re.compile(r"^[^=]*:")


def _items(text: str) -> list[str]:
    """Split definition text into items (key=value or piece line)."""
    items: list[str] = []
    for line in text.lstrip("\ufeff").splitlines():
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
                    raise VariantError(f"unexpected text {pending!r} before the first item")
                pending = ""
            items.append(tok)
        if pending:
            if not items:
                raise VariantError(f"unexpected text {pending!r} before the first item")
            items[-1] = f"{items[-1]} {pending}"
    return items


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
            raise VariantError(f"{where}: bad square range {part!r}")
        coords = []
        for e in ends:
            m = re.fullmatch(r"([a-z])(\d+)", e)
            if not m:
                raise VariantError(f"{where}: {e!r} is not a square")
            f, r = ord(m[1]) - 97, int(m[2]) - 1
            if not (0 <= f < files and 0 <= r < ranks):
                raise VariantError(f"{where}: square {e!r} is off the {files}x{ranks} board")
            coords.append((f, r))
        (f0, r0), (f1, r1) = coords[0], coords[-1]
        for r in range(min(r0, r1), max(r0, r1) + 1):
            for f in range(min(f0, f1), max(f0, f1) + 1):
                target.append(r * files + f)
    return white, black


def _int(params: dict, key: str, default: int, low: int = 0) -> int:
    if key not in params:
        return default
    try:
        v = int(params[key])
    except ValueError:
        raise VariantError(f"{key}={params[key]}: a whole number is needed") from None
    if v < low:
        raise VariantError(f"{key}={v}: must be at least {low}")
    return v


def _board_image(value: str, files: int, ranks: int, where: str) -> list[str | None]:
    """Parse a morph table: rank segments from the top, '.' = no change.  Returns per-square letters."""
    segs = value.split("/")
    if len(segs) != ranks:
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


def parse_placement(board: str, variant: Variant, where: str) -> dict[int, tuple[int, int, bool | None]]:
    """Parse a FEN-like board field into {square: (type index, colour, virgin mark)}.

    Empty runs are numbers (``10`` on wide boards); a piece letter may be
    followed by ``*`` (has moved) or ``^`` (has not moved).
    """
    rows = board.split("/")
    if len(rows) != variant.ranks:
        raise VariantError(f"{where}: {len(rows)} ranks, the board has {variant.ranks}")
    out: dict[int, tuple[int, int, bool | None]] = {}
    for i, row in enumerate(rows):
        r = variant.ranks - 1 - i
        f = 0
        j = 0
        while j < len(row):
            ch = row[j]
            if ch.isdigit():
                k = j
                while k < len(row) and row[k].isdigit():
                    k += 1
                f += int(row[j:k])
                j = k
                continue
            try:
                t = variant.type_by_letter(ch)
            except KeyError:
                raise VariantError(f"{where}: unknown piece letter {ch!r} on rank {r + 1}") from None
            mark = None
            if j + 1 < len(row) and row[j + 1] in "*^":
                mark = row[j + 1] == "^"
                j += 1
            if f >= variant.files:
                raise VariantError(f"{where}: rank {r + 1} describes more than {variant.files} files")
            out[r * variant.files + f] = (t.index, WHITE if ch.isupper() else BLACK, mark)
            f += 1
            j += 1
        if f != variant.files:
            raise VariantError(f"{where}: rank {r + 1} describes {f} files, the board has {variant.files}")
    return out


def load(text: str, name: str = "custom") -> Variant:
    """Load ID definition text.  Raises :class:`VariantError` naming the item at fault.

    Unknown keys are kept in ``variant.params``, listed in ``variant.warnings``
    and reported with :class:`VariantWarning`.
    """
    params: dict[str, str] = {}
    raw_pieces: list[list] = []  # [line, morph value or None, transform...]
    setups_raw: list[str] = []
    for item in _items(text):
        key, eq, value = item.partition("=")
        if eq and ":" not in key:
            if key == "morph":
                if not raw_pieces:
                    raise VariantError(f"{item[:40]}: morph= before any piece line")
                if raw_pieces[-1][1] is not None:
                    raise VariantError(f"piece {raw_pieces[-1][0].split(':')[0]!r}: two morph= tables")
                raw_pieces[-1][1] = value
            elif key == "setup":
                setups_raw.append(value)
            else:
                params[key] = value
        else:
            raw_pieces.append([item, None])
    files = _int(params, "files", 8, 1)
    ranks = _int(params, "ranks", 8, 1)
    if files > 26:
        raise VariantError(f"files={files}: at most 26 files are supported")
    warns = [f"unknown key {k}={v} kept but not used" for k, v in params.items()
             if k not in COSMETIC_KEYS and k not in _KNOWN_KEYS]
    if not raw_pieces:
        raise VariantError("the definition has no piece lines")

    types: list[PieceType] = []
    placements: list[tuple[int, list[int], list[int]]] = []
    for idx, (line, morph_value) in enumerate(raw_pieces, start=1):
        fields = line.split(":")
        pname = fields[0].strip()
        where = f"piece {pname or idx!r}"
        if len(fields) < 2:
            raise VariantError(f"{where}: a piece line needs name:ID:moves:image:squares")
        fields += [""] * (5 - len(fields))
        known = WELL_KNOWN.get(pname.lower(), (None, None))
        letter = fields[1].strip() or known[0] or pname[:1].upper()
        if len(letter) != 1 or not letter.isalpha():
            raise VariantError(f"{where}: ID {letter!r} must be a single letter")
        betza = fields[2].strip()
        if not betza:
            betza = known[1] if known[1] else ""
            if pname.lower() == "king":
                betza = "KisO3" if files > 8 else "KisO2"
            if not betza:
                raise VariantError(f"{where}: no moves given and no default for this name")
        try:
            moves = parse(betza)
        except BetzaError as e:
            raise VariantError(f"{where}: {e}") from None
        white, black = _squares(fields[4], files, ranks, where)
        t = PieceType(idx, pname, letter.upper(), betza, moves, fields[3].strip())
        if any(o.letter == t.letter for o in types):
            raise VariantError(f"{where}: ID {t.letter!r} is already used by {next(o.name for o in types if o.letter == t.letter)!r}")
        types.append(t)
        placements.append((idx, white, black))
        t.morph = morph_value  # resolved below, once every letter is known

    variant = Variant(name=name, files=files, ranks=ranks, types=types, setups={}, params=params, text=text)
    by_letter = {t.letter: t.index for t in types}

    def letters(value: str, key: str) -> list[int]:
        out = []
        for ch in value:
            if ch.upper() not in by_letter:
                raise VariantError(f"{key}={value}: {ch!r} is not the ID of a piece type")
            if by_letter[ch.upper()] not in out:
                out.append(by_letter[ch.upper()])
        return out

    for t in types:
        if t.morph is not None:
            image = _board_image(t.morph, files, ranks, f"piece {t.name!r} morph=")
            t.morph = [letters(c, f"piece {t.name!r} morph")[0] if c else None for c in image]

    # royalty: royal= names IDs or a type number; without it the last type is royal
    royal = params.get("royal", "").strip()
    if royal.isdigit():
        if not 1 <= int(royal) <= len(types):
            raise VariantError(f"royal={royal}: there are only {len(types)} piece types")
        royal_ids = [int(royal)]
    elif royal:
        royal_ids = letters(royal, "royal")
    else:
        royal_ids = [types[-1].index]
    # Decision (docs/rules.md): what a royal type morphs into stays royal.
    todo = list(royal_ids)
    while todo:
        t = variant.type(todo.pop())
        t.royal = True
        for target in t.morph or ():
            if target and not variant.type(target).royal and target not in todo:
                todo.append(target)

    variant.promo_zone = _int(params, "promoZone", 1)
    variant.max_promote = _int(params, "maxPromote", 1)
    variant.promo_choice = letters(params.get("promoChoice", ""), "promoChoice")
    variant.stalemate_loses = params.get("stalemate", "draw").strip().lower() != "draw"
    variant.baring = _int(params, "baring", 0) if "baring" in params else None
    bare = params.get("bareKing", "id").lower()
    if bare not in ("id", "immediate"):
        raise VariantError(f"bareKing={bare}: use 'id' or 'immediate'")
    variant.bare_king_immediate = bare == "immediate"
    variant.en_passant = _int(params, "enPassant", 1) != 0
    variant.fifty_moves = _int(params, "fiftyMoves", 50)
    variant.repetitions = _int(params, "repetitions", 3)
    if variant.repetitions == 1:
        raise VariantError("repetitions=1: use 0 (off) or a count of at least 2")
    for group in filter(None, params.get("transform", "").split(",")):
        ids = letters(group, "transform")
        if len(ids) < 2:
            raise VariantError(f"transform={group}: a group needs at least two piece types")
        if any(variant.type(i).royal for i in ids):
            raise VariantError(f"transform={group}: royal types cannot transform")
        variant.transforms.append(ids)

    # the standard setup
    symmetry = params.get("symmetry", "mirror").strip().lower()
    if symmetry not in ("mirror", "rotate", "none"):
        raise VariantError(f"symmetry={symmetry}: use mirror, rotate or none")
    start: dict[int, tuple[int, int]] = {}

    def put(sq: int, tidx: int, colour: int) -> None:
        old = start.get(sq)
        if old and old != (tidx, colour):
            raise VariantError(f"square {variant.square_name(sq)} is given to both "
                               f"{variant.type(old[0]).name!r} and {variant.type(tidx).name!r}")
        start[sq] = (tidx, colour)

    for tidx, white, black in placements:
        for sq in white:
            put(sq, tidx, WHITE)
            f, r = sq % files, sq // files
            if symmetry == "mirror":
                put((ranks - 1 - r) * files + f, tidx, BLACK)
            elif symmetry == "rotate":
                put((ranks - 1 - r) * files + (files - 1 - f), tidx, BLACK)
        for sq in black:
            put(sq, tidx, BLACK)
    variant.setups["standard"] = start
    for spec in setups_raw:
        sname, colon, board = spec.partition(":")
        if not colon or not sname or not board:
            raise VariantError(f"setup={spec}: use setup=NAME:BOARD (a FEN board field)")
        placed = parse_placement(board, variant, f"setup={sname}")
        variant.setups[sname] = {sq: (t, c) for sq, (t, c, _) in placed.items()}
    variant.warnings = warns
    for w in warns:
        warnings.warn(f"{name}: {w}", VariantWarning, stacklevel=2)
    variant.freeze()
    return variant

