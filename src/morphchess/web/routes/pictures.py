"""Pictures of positions for sharing: ``GET /api/pictures/{variant}.svg`` draws any position as SVG.

The same drawing as ``morphchess picture`` (:mod:`morphchess.publish.pictures`), with
arrows and highlighted squares.  Input is bounded before any work (position text,
at most :data:`~morphchess.publish.pictures.MAX_MARKS` arrows and squares), and
every name from a pasted definition reaches the SVG escaped.
"""

from __future__ import annotations

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from ...board import Board
from ...errors import InputError
from ...publish.pictures import position_picture, read_arrows, read_squares
from ..errors import BadInput

__all__ = ["router"]

router = APIRouter(prefix="/api")


@router.get("/pictures/{key}.svg", summary="a position of a variant as an SVG picture, with arrows and "
            "highlighted squares", response_class=Response)
def picture(request: Request, key: str,
            fen: str | None = Query(None, max_length=1000, description="position text (default: the start)"),
            arrows: str = Query("", max_length=400, description='arrows as square pairs: "e2e4 g1f3"'),
            highlight: str = Query("", max_length=400, description='squares to highlight: "e4 d5"')):
    v = request.app.state.catalog.get(key[:80])
    try:
        board = Board(v, fen=fen or None)
        svg = position_picture(v, board.position.board, v.name, read_arrows(v, arrows, "arrows"),
                               read_squares(v, highlight, "highlight")).svg()
    except InputError as e:
        raise BadInput(str(e)[:300]) from None
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "public, max-age=3600"})
