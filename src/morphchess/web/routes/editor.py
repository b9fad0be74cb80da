"""The live editor's check: ``POST /api/editor/check`` loads a definition without storing it.

The answer lists the errors and warnings with their line and column
(:func:`morphchess.publish.check.check_definition`) and, when the text loads,
the variant's view (pieces, move diagrams, morph tables: what the legend draws)
and its start position, so the page redraws them as the text changes.  Each
check is rate-limited per client (``checks_per_minute``), bounded in size
(:data:`~morphchess.web.limits.MAX_DEFINITION`) and board (``MAX_SIDE``), and
compiled within ``COMPILE_SECONDS`` like a paste.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from ...board import Board
from ...publish.check import Note, check_definition, locate
from ...publish.pictures import position_picture
from ..catalog import describe
from ..gameview import board_view
from ..limits import COMPILE_SECONDS, MAX_DEFINITION, MAX_SIDE, check, within
from ..views import variant_view

__all__ = ["router", "EDITED"]

router = APIRouter(prefix="/api/editor")
EDITED = "edited"  # the key of the variant view in an answer (the text is not stored)


class CheckIn(BaseModel):
    definition: str = Field(..., max_length=MAX_DEFINITION, description="Interactive Diagram definition text")


@router.post("/check", summary="check a definition: errors and warnings with their line, and the variant "
             "(legend, morph tables, start position) when it loads")
def check_text(request: Request, body: CheckIn):
    check(request, "check")
    return within(COMPILE_SECONDS, _answer, body.definition)


def _answer(text: str) -> dict:
    checked = check_definition(text, EDITED)
    v = checked.variant
    if v is not None and (v.files > MAX_SIDE or v.ranks > MAX_SIDE):
        checked.errors.append(Note(f"a {v.files}x{v.ranks} board; the web board takes at most {MAX_SIDE}x{MAX_SIDE}",
                                   *locate(text, "'files='")))
        v = None
    answer: dict = {"ok": v is not None, "errors": [n.view() for n in checked.errors],
                    "warnings": [n.view() for n in checked.warnings], "variant": None, "start": None, "picture": None}
    if v is not None:
        answer["variant"] = {**variant_view(EDITED, v), **describe(v), "builtin": False}
        board = Board(v)
        answer["start"] = board_view(board)
        answer["picture"] = position_picture(v, board.position.board, v.name, uid="editor").svg()
    return answer

