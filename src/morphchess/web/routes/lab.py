"""The web board's Lab: a small self-play lab on a variant, run in a background process.

``POST /api/lab`` starts one (a built-in or stored variant's key, or definition
text), ``GET /api/lab/{id}`` tells its progress and, once done, its summary,
``GET /api/lab/{id}/report`` is its HTML report.  The runs are recorded in the
database (:mod:`morphchess.web.labs`): any worker of the server reads them, and
a run whose server died reads as ended.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field

from ...lab.selfplay import settings_for
from ...variant import Variant
from ...variants import load_variant, names
from ..labs import Labs
from ..limits import MAX_DEFINITION, check

__all__ = ["router"]

MAX_GAMES = 100
MAX_LEVEL = 3

router = APIRouter(prefix="/api/lab", tags=["lab"])


class LabRequest(BaseModel):
    variant: str | None = Field(None, description="a variant's key (built-in name or stored definition)")
    definition: str | None = Field(None, max_length=MAX_DEFINITION, description="or Interactive Diagram text")
    games: int = Field(20, ge=1, le=MAX_GAMES, description="self-play games")
    level: int = Field(1, ge=1, le=MAX_LEVEL, description="engine level of both sides")


def _labs(request: Request) -> Labs:
    return request.app.state.labs


def _variant(body: LabRequest, request: Request) -> Variant:
    """The lab's variant: a definition is compiled by the catalog, with its size limits and budget."""
    catalog = request.app.state.catalog
    if body.definition:
        return catalog.compile(body.definition, None)
    key = body.variant or "chess"
    return catalog.get(key) if key not in names() else load_variant(key)


@router.post("", summary="start a lab: self-play games of a variant, then a report")
def start_lab(body: LabRequest, request: Request) -> dict:
    check(request, "lab")
    settings = settings_for(_variant(body, request), level=body.level, max_plies=200)
    return _labs(request).start(settings, body.games)


@router.get("/{lab_id}", summary="a lab's progress, and its summary once done")
def get_lab(lab_id: str, request: Request) -> dict:
    return _labs(request).view(lab_id)


@router.get("/{lab_id}/report", summary="a finished lab's report page", response_class=HTMLResponse)
def lab_report(lab_id: str, request: Request) -> HTMLResponse:
    return HTMLResponse(_labs(request).report(lab_id))
