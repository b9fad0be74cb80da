"""The lab's store: a directory with the settings (``lab.json``) and one JSON line per finished game."""

from __future__ import annotations

import json
import os
from dataclasses import asdict
from pathlib import Path

from ..errors import InputError
from .selfplay import LabSettings

__all__ = ["GameStore", "StoreError"]


class StoreError(InputError):
    """A store directory that cannot be used for these settings."""


class GameStore:
    """Games of one lab, appended as they finish; a rerun skips the games already stored."""

    def __init__(self, directory: str | os.PathLike, settings: LabSettings) -> None:
        self.dir = Path(directory)
        self.games = self.dir / "games.jsonl"
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StoreError(f"{directory}: cannot make the directory ({e})") from None
        self._check_settings(settings)
        self._drop_torn_line()

    def _check_settings(self, settings: LabSettings) -> None:
        path = self.dir / "lab.json"
        wanted = asdict(settings)
        if path.exists():
            try:
                stored = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as e:
                raise StoreError(f"{path}: not a lab's settings file ({e})") from None
            if stored != wanted:
                differ = ", ".join(k for k in wanted if stored.get(k) != wanted[k])
                raise StoreError(f"{self.dir} holds games with other settings ({differ}); choose another --out")
        else:
            path.write_text(json.dumps(wanted, indent=1) + "\n", encoding="utf-8")

    def _drop_torn_line(self) -> None:
        """Cut a last line left unfinished by an interrupted run."""
        if not self.games.exists():
            return
        data = self.games.read_bytes()
        end = data.rfind(b"\n") + 1
        if end < len(data):
            with self.games.open("r+b") as f:
                f.truncate(end)

    def records(self, games: int | None = None) -> list[dict]:
        """The stored records of games ``0 .. games-1`` (all if None), by index, each game once."""
        found: dict[int, dict] = {}
        if self.games.exists():
            with self.games.open(encoding="utf-8") as f:
                for line in f:
                    record = json.loads(line)
                    if games is None or record["index"] < games:
                        found.setdefault(record["index"], record)
        return [found[i] for i in sorted(found)]

    def append(self, record: dict) -> None:
        """Store one finished game (written and flushed at once)."""
        with self.games.open("a", encoding="utf-8") as f:
            f.write(json.dumps(record, separators=(",", ":")) + "\n")
