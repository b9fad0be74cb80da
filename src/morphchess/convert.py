"""Definitions from one language to the other where they overlap (``morphchess convert-definition``):
a variant as a Fairy-Stockfish variants.ini section, and variants.ini text as Interactive Diagram
text.  Each conversion returns the text and the list of what it loses (morph tables,
transformations, rules the other language has no key for)."""

from __future__ import annotations

import re

from . import fairy_ini
from .variant import WHITE, Variant, VariantError

__all__ = ["to_fairy", "to_id"]

# XBetza that Fairy-Stockfish's Betza reader does not take (its variants.ini names the subset).
_FAIRY_UNSUPPORTED = re.compile(r"[ayoxuqzjt']|\d{2,}")


def to_id(text: str, name: str = "custom") -> tuple[str, list[str]]:
    """variants.ini text (section ``name``, else the last) as Interactive Diagram text, with what it
    loses as ``# lost: ...`` comment lines at its head."""
    out, lost = fairy_ini.to_id(text, name)
    return _noted(lost) + out, lost


def _noted(lost: list[str]) -> str:
    """What a conversion loses as comment lines, which both languages skip."""
    return "".join(f"# lost: {line}\n" for line in lost)


def to_fairy(v: Variant) -> tuple[str, list[str]]:
    """A variants.ini section ``[name]`` for ``v``, standing alone (no parent), with what it loses
    as ``# lost: ...`` comment lines above the header (which read back as the section's own)."""
    lost = _lost(v)
    letters = {t.index: t.letter.lower() for t in v.types}
    if any(len(c) != 1 for c in letters.values()):
        raise VariantError("Fairy-Stockfish's pieces have one letter; '+' letters (promoted types) do not convert")
    keys = {"maxFile": str(v.files), "maxRank": str(v.ranks)}
    royal = [t for t in v.types if t.royal]
    if len(royal) > 1:
        raise VariantError(f"{len(royal)} royal types; Fairy-Stockfish has one king")
    n = 0
    for t in v.types:
        betza = re.sub(r"[a-z]*O\d+", "", t.betza) if t.moves.castlings else t.betza
        if _FAIRY_UNSUPPORTED.search(betza):
            lost.append(f"{t.name} ({t.betza}): XBetza that Fairy-Stockfish may not read")
        betza, lame = fairy_ini.without_lame_leaps(betza)
        if lame:
            lost.append(f"{t.name} ({t.betza}): the lame leap {' '.join(lame)} left out; Fairy-Stockfish makes only "
                        "the D, A and N leaps lame")
        if t.royal:
            keys["king"] = f"{letters[t.index]}:{betza}"
        else:
            n += 1
            keys[f"customPiece{n}"] = f"{letters[t.index]}:{betza}"
    keys["startFen"] = _start_fen(v, letters)
    keys.update(_castling(v, letters))
    keys.update(_promotion(v, letters, lost))
    keys.update(_drops(v, lost))
    keys.update(_end(v, letters, lost))
    body = "".join(f"{k} = {val}\n" for k, val in keys.items())
    return f"{_noted(lost)}[{_section_name(v.name)}]\n{body}", lost


def _section_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-") or "custom"


def _lost(v: Variant) -> list[str]:
    out = []
    if any(t.morph is not None for t in v.types):
        out.append("morph tables: each piece keeps its own moves on every square")
    for attr, what in (("transforms", "transformations"), ("holes", "holes in the board"),
                       ("protected", "protected="), ("counter_strike", "counterStrike="), ("iron", "iron="),
                       ("succession", "succession="), ("shuffle", "shuffled arrays (shuffle=)"),
                       ("promo_limits", "promotion limits (!, * and rank counts in promoChoice)")):
        if getattr(v, attr):
            out.append(f"{what}: no variants.ini key, left out")
    if v.blast or v.mutually_immune:
        out.append("atomic captures and mutually immune types: left out (Fairy-Stockfish's blastOnCapture "
                   "needs its kings written as pseudo-royal commoners)")
    if len(v.setups) > 1:
        out.append(f"setups other than the standard one ({', '.join(s for s in v.setups if s != 'standard')})")
    return out


def _start_fen(v: Variant, letters: dict[int, str]) -> str:
    rows = []
    for rank in range(v.ranks - 1, -1, -1):
        row, empty = "", 0
        for f in range(v.files):
            piece = v.setups["standard"].get(rank * v.files + f)
            if piece is None:
                empty += 1
                continue
            letter = letters[piece[0]]
            row += (str(empty) if empty else "") + (letter.upper() if piece[1] == WHITE else letter)
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    hands = "".join(letters[t].upper() * n for t, n in v.holdings[0].items()) + \
        "".join(letters[t] * n for t, n in v.holdings[1].items())
    pocket = f"[{hands}]" if v.drops or v.captures_to_hand else ""
    return f"{'/'.join(rows)}{pocket} w {_rights(v)} - 0 1"


def _rights(v: Variant) -> str:
    kings = [t for t in v.types if t.moves.castlings]
    return "KQkq" if kings else "-"


def _castling(v: Variant, letters: dict[int, str]) -> dict[str, str]:
    kings = [t for t in v.types if t.moves.castlings]
    if not kings:
        return {"castling": "false"}
    king = kings[0]
    if not v.castling and (len(king.moves.castlings) > 1 or len(king.moves.castlings[0].sides) < 2):
        raise VariantError(f"{king.name} ({king.betza}): castling of one length to both sides is all that converts")
    squares = [sq for sq, (t, c) in v.setups["standard"].items() if t == king.index and c == WHITE]
    if len(kings) > 1 or len(squares) != 1:
        raise VariantError("castling by more than one piece does not convert")
    sq = squares[0]
    c = king.moves.castlings[0]
    out = {"castlingKingPiece": letters[king.index], "castlingRank": str(sq // v.files + 1),
           "castlingKingFile": chr(97 + sq % v.files)}
    rooks = set()
    for side, key in ((1, "castlingKingsideFile"), (-1, "castlingQueensideFile")):
        steps = v.castling[(WHITE, side)][0] if (WHITE, side) in v.castling else c.steps
        out[key] = chr(97 + sq % v.files + side * steps)
        partner = v.tables.partner_of.get((WHITE, sq // v.files, side))
        if partner is not None:
            rooks.add(letters[v.setups["standard"][partner][0]])
            out["castlingRook" + ("Kingside" if side > 0 else "Queenside") + "File"] = chr(97 + partner % v.files)
    out["castlingRookPieces"] = "".join(sorted(rooks))
    return out


def _promotion(v: Variant, letters: dict[int, str], lost: list[str]) -> dict[str, str]:
    if v.promo_offset:
        lost.append("shogi-style promotion (promoOffset): left out")
    pawns = [t for t in v.types if v.promotes(t)]
    if not pawns:
        return {"promotionPawnTypes": "-", "promotionPieceTypes": "-"}
    zone = " ".join(f"*{v.ranks - i}" for i in range(v.promo_zone))
    back = " ".join(f"*{i + 1}" for i in range(v.promo_zone))
    out = {"promotionPawnTypes": "".join(letters[t.index] for t in pawns),
           "promotionPieceTypes": "".join(letters[i] for i in v.promo_choice),
           "promotionRegionWhite": zone, "promotionRegionBlack": back,
           "mandatoryPawnPromotion": "true" if v.promo_forced or v.promo_zone == 1 else "false"}
    initial = {sq // v.files for sq, (t, c) in v.setups["standard"].items()
               if c == WHITE and any(s.initial for s in v.type(t).moves.steps)}
    if len(initial) == 1:
        rank = initial.pop()
        out.update(doubleStepRegionWhite=f"*{rank + 1}", doubleStepRegionBlack=f"*{v.ranks - rank}")
    elif initial:
        lost.append("initial moves from several ranks: Fairy-Stockfish allows them in one region")
    return out


def _drops(v: Variant, lost: list[str]) -> dict[str, str]:
    if v.holdings_type == -2:
        return {"pieceDrops": "true", "capturesToHand": "true", "dropLoop": "true", "firstRankPawnDrops": "true",
                "promotionZonePawnDrops": "true"}
    if v.holdings_type:
        lost.append(f"holdingsType={v.holdings_type}: captured pieces do not go to a hand")
    return {"pieceDrops": "true", "capturesToHand": "false"} if v.drops else {}


def _end(v: Variant, letters: dict[int, str], lost: list[str]) -> dict[str, str]:
    out = {"stalemateValue": "loss" if v.stalemate_loses else "draw", "nMoveRule": str(v.fifty_moves),
           "nFoldRule": str(v.repetitions)}
    if v.extinction:
        out.update(extinctionValue="loss", extinctionPieceTypes="".join(letters[i] for i in v.extinction))
    elif v.baring is not None:
        if v.baring:
            lost.append(f"baring={v.baring}: the bare-king rule counts every piece")
        out.update(extinctionValue="loss", extinctionClaim="true", extinctionPieceTypes="*",
                   extinctionPieceCount="1", extinctionOpponentPieceCount="2")
    if v.bare_king_immediate:
        lost.append("bareKing=immediate: left out")
    return out
