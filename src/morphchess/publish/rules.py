"""The rules of a variant that differ from orthodox chess, in sentences made from its definition.

Each function reads one part of a :class:`~morphchess.variant.Variant` and says
it in plain words; a rule that is as in orthodox chess is still said where a
reader would ask (castling, en passant, stalemate), so the page is complete.
The sentences are plain strings: the page escapes them.
"""

from __future__ import annotations

from ..variant import Variant

__all__ = ["rule_sentences", "names"]


def names(v: Variant, indices) -> str:
    """Type names, 'a, b and c'."""
    words = [f"{v.type(i).name} ({v.type(i).letter})" for i in indices]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def rule_sentences(v: Variant) -> list[tuple[str, str]]:
    """(topic, sentence) pairs: board, royal pieces, morphing, castling, en passant, promotion,
    transformation, holdings, end of the game and the rules morphchess does not play."""
    out = [("Board", _board(v)), ("Royal pieces", _royals(v))]
    morphing = [t.index for t in v.types if t.morph is not None]
    if morphing:
        out.append(("Morphing", f"A piece of type {names(v, morphing)} changes its type on arriving on a square: "
                    "it becomes the type its morph table shows there (the tables below, from White's side; "
                    "Black's are mirrored top to bottom). A capture is a move like any other."))
    out += [("Castling", _castling(v)), ("En passant", _en_passant(v)), ("Promotion", _promotion(v))]
    if v.transforms:
        groups = "; ".join(names(v, g) for g in v.transforms)
        out.append(("Transformation", "Instead of moving, a side may spend its turn turning one of its pieces "
                    f"into another form of its group, in place: {groups}."))
    if v.holdings_type or any(v.holdings):
        out.append(("Holdings", _holdings(v)))
    out.append(("End of the game", _ending(v)))
    capture_rules = _capture_rules(v)
    if capture_rules:
        out.append(("Captures", capture_rules))
    if v.warnings:
        out.append(("Not played by morphchess", "; ".join(v.warnings) + "."))
    return [(topic, words[:1].upper() + words[1:]) for topic, words in out]


def _board(v: Variant) -> str:
    words = f"{v.files} files by {v.ranks} ranks"
    if v.holes:
        words += f", with {len(v.holes)} squares cut out ({', '.join(v.square_name(s) for s in sorted(v.holes))})"
    return words + "."


def _royals(v: Variant) -> str:
    royal = [t.index for t in v.types if t.royal]
    if not royal:
        return "No piece is royal: there is no check."
    words = f"{names(v, royal)} {'is' if len(royal) == 1 else 'are'} royal: it may not be left in check"
    if v.succession:
        words += f"; while a side has a successor ({names(v, v.succession)}) a royal piece may be captured"
    return words + "."


def _castling(v: Variant) -> str:
    castlers = [t for t in v.types if t.moves.castlings]
    if not castlers:
        return "There is no castling."
    parts = []
    for t in castlers:
        steps = sorted({c.steps for c in t.moves.castlings})
        parts.append(f"the {t.name} ({t.letter}) castles by moving {' or '.join(map(str, steps))} squares along "
                     "its rank towards its partner, the piece that started on the outermost square of that side; "
                     "the partner then stands on the square next to it, on the side it came from")
    royal = any(t.royal for t in castlers)
    return ("; ".join(parts) + ". Neither may have moved and the squares "
            "between them must be empty" + ("; a royal piece may not castle out of, through or into check."
                                            if royal else "."))


def _en_passant(v: Variant) -> str:
    ep_types = [t.index for t in v.types if any(s.ep for s in t.moves.steps)]
    if not ep_types:
        return "There is no en-passant capture."
    if not v.en_passant:
        return f"There is no en-passant capture (switched off for {names(v, ep_types)})."
    return (f"{names(v, ep_types)} may capture en passant a piece that has just passed, with a double step, "
            "a square it attacks.")


def _promotion(v: Variant) -> str:
    if v.promo_offset:
        pairs = [f"{t.name} to {v.type(n).name}" for t in v.types if (n := v.promoted_type(t))]
        if not v.promo_zone:
            when = "a capture, anywhere,"
        elif v.holdings_type:
            when = f"a move that starts or ends in the last {v.promo_zone} rank(s)"
        else:
            when = f"a move into the last {v.promo_zone} rank(s), or a capture inside them,"
        return f"Shogi style: {when} may promote the piece ({'; '.join(pairs)})."
    promoting = [t.index for t in v.types if v.promotes(t)]
    if not promoting:
        return "There is no promotion."
    zone = "the last rank" if v.promo_zone == 1 else f"one of the last {v.promo_zone} ranks (it must on the last)"
    limits = []
    for ti, limit in v.promo_limits.items():
        said = [w for w, on in (("not on the last rank", limit.not_last_rank),
                                ("only while one is in hand", limit.from_hand),
                                (f"only within {limit.depth} rank(s) of the last", limit.depth)) if on]
        if said:
            limits.append(f"{names(v, [ti])} {' and '.join(said)}")
    more = f" ({'; '.join(limits)})" if limits else ""
    return f"{names(v, promoting)} promotes on reaching {zone}, to {names(v, v.promo_choice)}{more}."


def _holdings(v: Variant) -> str:
    if v.holdings_type > 0:
        words = "A captured piece goes to its owner's hand."
    elif v.holdings_type < 0:
        words = "A captured piece changes sides and goes to the capturer's hand."
    else:
        words = "Captured pieces leave the game."
    if any(v.holdings):
        words += " At the start " + "; ".join(
            f"{side} holds {', '.join(f'{n} {v.type(ti).name}' for ti, n in sorted(hand.items()))}"
            for side, hand in zip(("White", "Black"), v.holdings, strict=True) if hand) + "."
    if v.drops:
        words += " Instead of moving, a side may drop a piece from its hand on an empty square."
    return words


def _ending(v: Variant) -> str:
    parts = ["A side that is checkmated loses",
             "a side with no legal move that is not in check (stalemate) "
             + ("loses" if v.stalemate_loses else "draws")]
    if v.baring is not None:
        kept = f" (not counting {names(v, range(1, v.baring + 1))})" if v.baring else ""
        parts.append(f"a side left with only royal pieces{kept} is bare and loses"
                     + (" at once" if v.bare_king_immediate
                        else ", unless it can at once bare the other side too, which draws"))
    if v.extinction:
        parts.append(f"a side that loses every {names(v, v.extinction)} loses (extinction)")
    if v.fifty_moves:
        parts.append(f"{v.fifty_moves} moves by each side without a capture or a pawn move draw")
    if v.repetitions:
        parts.append(f"the same position for the {_nth(v.repetitions)} time draws")
    return "; ".join(parts) + "."


def _nth(n: int) -> str:
    return {2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(n, f"{n}th")


def _capture_rules(v: Variant) -> str:
    parts = []
    if v.iron:
        parts.append(f"{names(v, v.iron)} cannot be captured")
    if v.protected:
        parts.append(f"a {names(v, v.protected)} may not take another where the opponent could take it back")
    if v.counter_strike:
        parts.append(f"after another piece takes a {names(v, v.counter_strike)}, the other side may not take "
                     "one on its very next move (counter-strike)")
    return "; ".join(parts) + ("." if parts else "")
