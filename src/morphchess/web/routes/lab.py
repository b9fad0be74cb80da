"""The web board's Lab: a small self-play lab on a variant, run in a background process.

``POST /api/lab`` starts one (a built-in or stored variant's key, or definition
text), ``GET /api/lab/{id}`` tells its progress and, once done, its summary,
``GET /api/lab/{id}/report`` is its HTML report.  The games go to a store in a
temporary directory; the progress is the number of games stored.  Labs live in
the server process that started them.
"""

from __future__ import annotations

import json
import multiprocessing
import shutil
import tempfile
import time
import traceback
import uuid
from pathlib import Path

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field

from ...lab.selfplay import LabSettings, settings_for
from ...variant import Variant
from ...variants import load_variant, names
from ..limits import MAX_DEFINITION, check

__all__ = ["router"]

MAX_GAMES = 100
MAX_LEVEL = 3
MAX_RUNNING = 1  # labs running at once per server process
KEPT = 10  # finished labs kept (older ones are deleted with their files)

router = APIRouter(prefix="/api/lab", tags=["lab"])


class LabRequest(BaseModel):
    variant: str | None = Field(None, description="a variant's key (built-in name or stored definition)")
    definition: str | None = Field(None, max_length=MAX_DEFINITION, description="or Interactive Diagram text")
    games: int = Field(20, ge=1, le=MAX_GAMES, description="self-play games")
    level: int = Field(1, ge=1, le=MAX_LEVEL, description="engine level of both sides")


def _play(settings: LabSettings, games: int, out: str) -> None:
    """The background process: play, then write the report (or ``error.txt``)."""
    from ...lab.report import write_report
    from ...lab.run import run_lab
    from ...lab.stats import summarize
    try:
        records = run_lab(settings, games, out)
        write_report(summarize(records, settings, resamples=50), records, out)
    except Exception as e:  # the page shows the reason
        Path(out, "error.txt").write_text(f"{e}\n{traceback.format_exc()}", encoding="utf-8")


class Lab:
    """One lab: its process and its directory."""

    def __init__(self, settings: LabSettings, games: int) -> None:
        self.id = uuid.uuid4().hex[:12]
        self.settings, self.games = settings, games
        self.dir = Path(tempfile.mkdtemp(prefix="morphchess-lab-"))
        self.started = time.monotonic()
        self.process = multiprocessing.get_context("spawn").Process(
            target=_play, args=(settings, games, str(self.dir)), daemon=True)
        self.process.start()

    def done_games(self) -> int:
        games = self.dir / "games.jsonl"
        return games.read_bytes().count(b"\n") if games.exists() else 0

    def state(self) -> str:
        if self.process.is_alive():
            return "running"
        return "done" if (self.dir / "report.html").exists() else "failed"

    def view(self) -> dict:
        state, done = self.state(), self.done_games()
        elapsed = time.monotonic() - self.started
        view = {"id": self.id, "variant": self.settings.name, "player": self.settings.player, "state": state,
                "done": done, "total": self.games, "elapsed_seconds": round(elapsed, 1),
                "eta_seconds": round(elapsed / done * (self.games - done), 1) if done and state == "running" else None}
        if state == "done":
            view["summary"] = json.loads((self.dir / "summary.json").read_text(encoding="utf-8"))
            view["report"] = f"/api/lab/{self.id}/report"
        elif state == "failed":
            error = self.dir / "error.txt"
            view["error"] = (error.read_text(encoding="utf-8").splitlines() or ["stopped"])[0] if error.exists() \
                else f"the lab stopped (exit code {self.process.exitcode})"
        return view

    def discard(self) -> None:
        if self.process.is_alive():
            self.process.terminate()
        shutil.rmtree(self.dir, ignore_errors=True)


def _labs(request: Request) -> dict[str, Lab]:
    if not hasattr(request.app.state, "labs"):
        request.app.state.labs = {}
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
    labs = _labs(request)
    if sum(lab.state() == "running" for lab in labs.values()) >= MAX_RUNNING:
        raise HTTPException(429, "a lab is already running on this server; wait for it to finish")
    for old in [lab for lab in labs.values() if lab.state() != "running"][:-KEPT + 1]:
        old.discard()
        del labs[old.id]
    lab = Lab(settings, body.games)
    labs[lab.id] = lab
    return lab.view()


def _lab(request: Request, lab_id: str) -> Lab:
    lab = _labs(request).get(lab_id)
    if lab is None:
        raise HTTPException(404, f"no lab {lab_id[:20]!r} on this server")
    return lab


@router.get("/{lab_id}", summary="a lab's progress, and its summary once done")
def get_lab(lab_id: str, request: Request) -> dict:
    return _lab(request, lab_id).view()


@router.get("/{lab_id}/report", summary="a finished lab's report page", response_class=HTMLResponse)
def lab_report(lab_id: str, request: Request) -> HTMLResponse:
    lab = _lab(request, lab_id)
    if lab.state() != "done":
        raise HTTPException(409, f"the lab is {lab.state()}")
    return HTMLResponse((lab.dir / "report.html").read_text(encoding="utf-8"))
